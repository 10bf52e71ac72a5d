# FULLY_CONNECTED in what HAL 1.2 added: float16, and quant8 with a multiplier >= 1.
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over
# docs/operations.md, FULLY_CONNECTED (9)), cases named below; outputs are multiples of
# 0.125.

# 1. Rank 2 in float16, with RELU (oracle case fc_rank2, clamped at 0).
i1 = Input("input", "TENSOR_FLOAT32", "{3, 5}")
w1 = Parameter("weights", "TENSOR_FLOAT32", "{4, 5}", [
    1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25, -0.25, -1.0,
    0.25, -0.5, 0.5, 0.5, -1.0, 0.5
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, -1.0, 0.0, 0.25])
act1 = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{3, 4}")
Model("rank2").Operation("FULLY_CONNECTED", i1, w1, b1, act1).To(o1)

Example({
    i1: [-1.0, 0.0, 0.0, -3.0, 1.0, -1.5, 4.0, -2.5, -4.0, 1.0, 1.5, 4.0, -3.5, -3.0, -2.0],
    o1: [1.0, -0.75, 3.25, 4.25, 3.0, 2.375, 5.875, 6.25, 7.0, 3.875, 4.375, 1.75],
}).AddRelu(o1, act1).AddInput(w1, b1).AddVariations("float16", includeDefault=False)

# 2. Rank 4 flattened to batch 2 (oracle case fc_rank4); quant8 output scale 0.0625 is
#    below input x weights scale 0.125: a multiplier of 2, valid since HAL 1.2.
i2 = Input("input", "TENSOR_FLOAT32", "{2, 1, 2, 3}")
w2 = Parameter("weights", "TENSOR_FLOAT32", "{2, 6}", [1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [1.0, -0.5])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2}")
Model("rank4").Operation("FULLY_CONNECTED", i2, w2, b2, 0).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    w2: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})

Example({
    i2: [-1.0, 0.0, 0.0, -3.0, 1.0, -1.5, 4.0, -2.5, -4.0, 1.0, 1.5, 4.0],
    o2: [2.25, 1.625, -2.75, 3.125],
}).AddVariations(quant8_2, "float16", includeDefault=False)
