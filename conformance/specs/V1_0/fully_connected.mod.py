# FULLY_CONNECTED in HAL 1.0: float32 and quant8, inputs of rank 2 and 4.
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over the
# definition in docs/operations.md, FULLY_CONNECTED (9)), cases named below. Inputs are
# multiples of 0.5 and weights multiples of 0.25: outputs are multiples of 0.125 and
# quant8 data is exact. Quant8 keeps output scale > input scale x weights scale (required
# before HAL 1.2): the first two cases quantize weights at 0.125 and outputs at 0.125
# (multiplier 0.5), the third outputs multiples of 0.25 at 0.25, so every quant8 output
# is exact and no golden depends on how a driver rounds (scripts/quant_ties.py finds
# goldens rounded from a tie).

# 1. Rank 2: 3 rows of 5 into 4 units, every fused activation (oracle case fc_rank2).
i1 = Input("input", "TENSOR_FLOAT32", "{3, 5}")
w1 = Parameter("weights", "TENSOR_FLOAT32", "{4, 5}", [
    1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25, -0.25, -1.0,
    0.25, -0.5, 0.5, 0.5, -1.0, 0.5
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, -1.0, 0.0, 0.25])
act1 = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{3, 4}")
Model("rank2").Operation("FULLY_CONNECTED", i1, w1, b1, act1).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    w1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    b1: ("TENSOR_INT32", 0.0625, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})

Example({
    i1: [-1.0, 0.0, 0.0, -3.0, 1.0, -1.5, 4.0, -2.5, -4.0, 1.0, 1.5, 4.0, -3.5, -3.0, -2.0],
    o1: [1.0, -0.75, 3.25, 4.25, 3.0, 2.375, 5.875, 6.25, 7.0, 3.875, 4.375, 1.75],
}).AddAllActivations(o1, act1).AddInput(w1, b1).AddVariations(quant8_1)

# 2. Rank 4 [2, 1, 2, 3] flattened into rows of input_size 6: batch 2 (oracle case
#    fc_rank4).
i2 = Input("input", "TENSOR_FLOAT32", "{2, 1, 2, 3}")
w2 = Parameter("weights", "TENSOR_FLOAT32", "{2, 6}", [1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [1.0, -0.5])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2}")
Model("rank4").Operation("FULLY_CONNECTED", i2, w2, b2, 0).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
    w2: ("TENSOR_QUANT8_ASYMM", 0.125, 246),
    b2: ("TENSOR_INT32", 0.0625, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.125, 60),
})

Example({
    i2: [-1.0, 0.0, 0.0, -3.0, 1.0, -1.5, 4.0, -2.5, -4.0, 1.0, 1.5, 4.0],
    o2: [2.25, 1.625, -2.75, 3.125],
}).AddInput(w2, b2).AddVariations(quant8_2)

# 3. Batch squared equals the input's element count ([2, 2] into 3 units; oracle case
#    fc_square): the result must not depend on how a driver picks its kernel.
i3 = Input("input", "TENSOR_FLOAT32", "{2, 2}")
w3 = Parameter("weights", "TENSOR_FLOAT32", "{3, 2}", [1.0, 0.75, 0.5, -0.75, -0.75, -0.5])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.0, 0.5, -0.25])
o3 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model("square").Operation("FULLY_CONNECTED", i3, w3, b3, 0).To(o3)

quant8_3 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    w3: ("TENSOR_QUANT8_ASYMM", 0.25, 7),
    b3: ("TENSOR_INT32", 0.125, 0),
    o3: ("TENSOR_QUANT8_ASYMM", 0.25, 30),
})

Example({
    i3: [-1.0, 0.0, 0.0, -3.0],
    o3: [-1.0, 0.0, 0.5, -2.25, 2.75, 1.25],
}).AddVariations(quant8_3)
