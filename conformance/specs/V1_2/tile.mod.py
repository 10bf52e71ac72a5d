# TILE: out[idx] = in[idx mod in.shape], each dimension repeated multiples[i] times.
# Golden values: conformance/specs/oracles/shape_oracle.py ("tile int ...").
# Quant8 output parameters equal the input's. Integer data (int32 variation exact).

# [2, 3] with multiples [2, 1] -> [4, 3]; multiples also as an input.
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
m1 = Parameter("multiples", "TENSOR_INT32", "{2}", [2, 1])
o1 = Output("output", "TENSOR_FLOAT32", "{4, 3}")
Model().Operation("TILE", i1, m1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 127),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 127),
})
Example({
    i1: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0],
    o1: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, -5.0, -4.0, -3.0, -2.0, -1.0, 0.0],
}).AddInput(m1).AddVariations("relaxed", "float16", "int32", quant8)

# Rank 1: [3] with [3] -> [9].
i2 = Input("input", "TENSOR_FLOAT32", "{3}")
o2 = Output("output", "TENSOR_FLOAT32", "{9}")
Model("rank1").Operation("TILE", i2, [3]).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 127),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 127),
})
Example({
    i2: [-1.0, 0.0, 7.0],
    o2: [-1.0, 0.0, 7.0, -1.0, 0.0, 7.0, -1.0, 0.0, 7.0],
}).AddVariations("relaxed", "float16", "int32", quant8)

# Rank 4: [1, 2, 1, 2] with [2, 1, 3, 1] -> [2, 2, 3, 2].
i3 = Input("input", "TENSOR_FLOAT32", "{1, 2, 1, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
Model("rank4").Operation("TILE", i3, [2, 1, 3, 1]).To(o3)
Example({
    i3: [1.0, 2.0, 3.0, 4.0],
    o3: [1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 4.0, 3.0, 4.0,
         1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 4.0, 3.0, 4.0],
}).AddVariations("float16", "int32")
