# GATHER: out[a.., j.., b..] = in[a.., indices[j..], b..] along axis.
# Golden values: conformance/specs/oracles/shape_oracle.py ("gather int ...").
# Quant8 output parameters equal the input's. Integer data (int32 variation exact).

# [3, 2] axis 0, indices [2, 0, 2] (repeated) -> [3, 2]; the indices also as an input.
i1 = Input("input", "TENSOR_FLOAT32", "{3, 2}")
k1 = Parameter("indices", "TENSOR_INT32", "{3}", [2, 0, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model().Operation("GATHER", i1, 0, k1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
})
Example({
    i1: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0],
    o1: [-1.0, 0.0, -5.0, -4.0, -1.0, 0.0],
}).AddInput(k1).AddVariations("relaxed", "float16", "int32", quant8)

# [2, 3] axis -1 with 2-D indices [[1, 0], [2, 2]] -> [2, 2, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2, 2}")
Model("indices_2d").Operation("GATHER", i2, -1, Parameter(
    "indices", "TENSOR_INT32", "{2, 2}", [1, 0, 2, 2])).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
})
Example({
    i2: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0],
    o2: [-4.0, -5.0, -3.0, -3.0, -1.0, -2.0, 0.0, 0.0],
}).AddVariations("relaxed", "float16", "int32", quant8)

# [2, 2, 3] axis 1 with one index (the last row of each batch) -> [2, 1, 3].
i3 = Input("input", "TENSOR_FLOAT32", "{2, 2, 3}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 1, 3}")
Model("middle_axis").Operation("GATHER", i3, 1, [1]).To(o3)
Example({
    i3: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    o3: [-2.0, -1.0, 0.0, 4.0, 5.0, 6.0],
}).AddVariations("float16", "int32")
