# BATCH_TO_SPACE_ND (NHWC): out[n, y*bh + i, x*bw + j, c] = in[(i*bw + j)*N + n, y, x, c].
# Golden values: conformance/specs/oracles/shape_oracle.py ("batch_to_space ...").
# Quant8 output parameters equal the input's.

# [4, 1, 2, 1], block [2, 2] -> [1, 2, 4, 1].
i1 = Input("input", "TENSOR_FLOAT32", "{4, 1, 2, 1}")
b1 = Parameter("block", "TENSOR_INT32", "{2}", [2, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 4, 1}")
Model().Operation("BATCH_TO_SPACE_ND", i1, b1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i1: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0],
    o1: [0.5, 1.5, 1.0, 2.0, 2.5, 3.5, 3.0, 4.0],
}).AddInput(b1).AddVariations("relaxed", quant8)

# Unequal block [2, 1] on two channels: [2, 2, 1, 2] -> [1, 4, 1, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 2, 1, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 4, 1, 2}")
Model("rows").Operation("BATCH_TO_SPACE_ND", i2, [2, 1]).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i2: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
    o2: [-2.0, -1.5, 0.0, 0.5, -1.0, -0.5, 1.0, 1.5],
}).AddVariations("relaxed", quant8)
