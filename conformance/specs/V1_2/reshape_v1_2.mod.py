# RESHAPE with HAL 1.2 types (float16) and relaxed models. Golden values: the
# identity on the flat data (by hand); -1 infers 6 / 2 = 3. Every value is exact
# in float16 and at the quant8 scale 0.5.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 1}")
s1 = Parameter("shape", "TENSOR_INT32", "{2}", [-1, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model().Operation("RESHAPE", i1, s1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 77),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 77),
})
Example({
    i1: [-38.5, 1.5, 0.0, 2.0, 89.0, -0.5],
    o1: [-38.5, 1.5, 0.0, 2.0, 89.0, -0.5],
}).AddInput(s1).AddVariations("relaxed", "float16", quant8)

# Rank 1 -> rank 4: [4] -> [1, 2, 1, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{4}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 1, 2}")
Model("rank4").Operation("RESHAPE", i2, [1, 2, 1, 2]).To(o2)
Example({i2: [0.125, -0.25, 1024.0, -2048.0], o2: [0.125, -0.25, 1024.0, -2048.0]}).AddVariations(
    "relaxed", "float16")
