# SLICE: out[idx] = in[idx + begin], size -1 meaning "to the end". Golden values:
# conformance/specs/oracles/shape_oracle.py ("slice int ..."). Quant8 output keeps the
# input's parameters. Integer data (int32 variation exact).

# [3, 4] from [1, 1], size [2, -1] -> [2, 3]; begin and size also as inputs.
i1 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
b1 = Parameter("begin", "TENSOR_INT32", "{2}", [1, 1])
s1 = Parameter("size", "TENSOR_INT32", "{2}", [2, -1])
o1 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("SLICE", i1, b1, s1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 12),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 12),
})
Example({
    i1: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    o1: [0.0, 1.0, 2.0, 4.0, 5.0, 6.0],
}).AddInput(b1, s1).AddVariations("relaxed", "float16", "int32", quant8)

# [2, 3, 2] from [0, 1, 1], size [2, 2, 1] -> [2, 2, 1].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2, 1}")
Model("rank3").Operation("SLICE", i2, [0, 1, 1], [2, 2, 1]).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 12),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 12),
})
Example({
    i2: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    o2: [-2.0, 0.0, 4.0, 6.0],
}).AddVariations("relaxed", "float16", "int32", quant8)

# Rank 4 [1, 2, 3, 2] from [0, 1, 0, 1], size [-1, 1, 2, 1] -> [1, 1, 2, 1].
i3 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 1, 2, 1}")
Model("rank4").Operation("SLICE", i3, [0, 1, 0, 1], [-1, 1, 2, 1]).To(o3)
Example({
    i3: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    o3: [2.0, 4.0],
}).AddVariations("float16", "int32")
