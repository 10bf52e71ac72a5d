# DEPTHWISE_CONV_2D in its HAL 1.0 forms (no layout, no dilation): float32 and quant8.
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over the
# definition in docs/operations.md, DEPTHWISE_CONV_2D (4)), cases named below. Inputs are
# multiples of 0.5 and filters multiples of 0.25: outputs are multiples of 0.125 and
# quant8 data is exact. Quant8 keeps output scale > input scale x filter scale (required
# before HAL 1.2): filters at 0.125 and outputs at 0.125 (multiplier 0.5), so every quant8
# output is exact and no golden depends on how a driver rounds (scripts/quant_ties.py
# finds goldens rounded from a tie).

# 1. Implicit SAME, stride 1, depth multiplier 2 on a 3x4 input (oracle case
#    depthwise_same_multiplier2): output channel 2k + q reads input channel k; SAME with a
#    2x2 filter pads 0 before and 1 after on both axes.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 3, 4, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 4}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, 0.0, -0.5, 1.0])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 3, 4, 4}")
Model("same").Operation("DEPTHWISE_CONV_2D", i1, f1, b1, 1, 1, 1, 2, 0).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    b1: ("TENSOR_INT32", 0.0625, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
})

Example({
    i1: [
        0.0, 2.0, 3.5, -1.5, 0.5, -4.0, 0.5, -0.5, 1.5, -1.0, 2.0, -4.0, -1.0, -0.5, 1.0,
        4.0, 3.0, -3.5, 1.5, 3.5, -2.0, 3.0, 1.0, 0.5
    ],
    o1: [
        5.75, 3.25, 1.75, 3.375, 5.125, -2.125, -3.0, 3.375, 1.375, 0.625, -4.75, -1.5,
        1.75, 0.0, -0.75, -0.5, 6.875, 2.0, -4.75, 4.75, 1.375, -2.875, -4.25, -2.75, -0.5,
        1.25, 1.0, -3.125, 2.25, -0.25, 1.5, 4.875, 4.625, -1.125, -0.5, -5.125, 0.5, -1.25,
        2.75, 2.25, -0.75, 1.25, 1.25, 3.625, 1.5, -0.5, -0.25, 1.5
    ],
}).AddInput(f1, b1).AddVariations(quant8_1)

# 2. Explicit pads (left 1, right 0, top 1, bottom 1), stride 2, batch 2, 3 channels,
#    every fused activation (oracle case depthwise_explicit_stride2):
#    out H = (5 + 2 - 3) / 2 + 1 = 3, out W = (5 + 1 - 3) / 2 + 1 = 2.
i2 = Input("input", "TENSOR_FLOAT32", "{2, 5, 5, 3}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{1, 3, 3, 3}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25, -1.0, 0.5, 1.0, -0.75, -0.5, -0.75, 0.75, 0.0, 0.25, -1.0, 1.0
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.25, -0.25, 0.5])
act2 = Int32Scalar("act", 0)
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3, 2, 3}")
Model("explicit").Operation("DEPTHWISE_CONV_2D", i2, f2, b2, 1, 0, 1, 1, 2, 2, 1, act2).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f2: ("TENSOR_QUANT8_ASYMM", 0.125, 140),
    b2: ("TENSOR_INT32", 0.0625, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.125, 110),
})

Example({
    i2: [
        0.0, 2.0, 3.5, -1.5, 0.5, -4.0, 0.5, -0.5, 1.5, -1.0, 2.0, -4.0, -1.0, -0.5, 1.0,
        4.0, 3.0, -3.5, 1.5, 3.5, -2.0, 3.0, 1.0, 0.5, 1.5, 3.5, 3.0, -2.0, 0.5, 3.5, 0.5,
        2.5, -2.0, -3.0, 3.0, 1.0, -2.0, 0.0, 4.0, 3.5, 1.5, -0.5, -1.0, 2.0, 3.0, -0.5,
        0.0, -0.5, 1.5, 3.0, -1.5, -3.0, -1.0, -4.0, -1.0, -1.0, 1.5, 2.5, -3.0, -0.5, 2.0,
        2.0, -4.0, -3.5, -2.0, 3.0, 2.5, -1.5, -1.0, 2.0, 2.0, 4.0, 0.0, -2.0, -2.5, 0.5,
        3.0, 1.5, -3.0, 1.0, 2.5, 3.5, 2.5, -1.5, -3.0, -4.0, -3.5, 1.5, -3.5, -1.5, 0.5,
        -3.5, 1.0, 1.5, -2.5, -1.5, 3.0, 2.0, -1.5, -3.5, -4.0, 0.0, 3.0, 2.0, -4.0, 3.5,
        2.5, 3.0, -0.5, -4.0, -1.0, -1.5, 2.5, 3.5, 4.0, -4.0, 2.5, -0.5, 2.0, -2.0, -3.0,
        -3.5, -3.5, -2.5, -0.5, 1.0, -1.5, 1.5, -2.0, 2.5, 1.5, 3.5, -2.0, -3.0, 1.5, 0.0,
        0.5, 2.0, 4.0, -0.5, -0.5, 3.0, -4.0, 1.0, -3.5, -1.0, -2.5, -1.5, 0.5, -0.5
    ],
    o2: [
        -2.75, 0.0, -5.25, -0.375, -8.125, 2.75, 5.375, -4.125, -1.875, 7.625, -7.375,
        1.625, 1.125, 1.5, 2.75, -0.25, -5.25, 1.625, -0.125, 1.625, -0.5, -0.25, 13.625,
        -0.375, 5.625, 3.375, -1.375, 2.0, 12.0, 2.125, -3.0, -1.5, -0.875, -0.125, -3.0,
        1.5
    ],
}).AddAllActivations(o2, act2).AddInput(f2, b2).AddVariations(quant8_2)
