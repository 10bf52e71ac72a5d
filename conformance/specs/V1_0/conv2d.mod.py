# CONV_2D in its HAL 1.0 forms (no layout, no dilation): float32 and quant8.
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over the
# definition in docs/operations.md, CONV_2D (3)), cases named below. Inputs are multiples
# of 0.5 and filters multiples of 0.25, so every output is a multiple of 0.125 and quant8
# data is exact. Quant8 keeps output scale > input scale x filter scale (required before
# HAL 1.2): the first two cases quantize filters at 0.125 and outputs at 0.125 (multiplier
# 0.5), so every quant8 output is exact and no golden depends on how a driver rounds; the
# third's outputs at 0.5 are 4.75, -7, 6.75 and 8 steps, none near a half
# (scripts/quant_ties.py finds goldens rounded from a tie).

# 1. Implicit SAME padding, stride 2 on a 5x5 input, batch 2, 2 -> 3 channels
#    (oracle case conv_same_stride2). SAME on 5 with stride 2 and a 3-wide filter:
#    out = ceil(5/2) = 3, total pad = (3-1)*2 + 3 - 5 = 2, so 1 before and 1 after.
i1 = Input("input", "TENSOR_FLOAT32", "{2, 5, 5, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{3, 3, 3, 2}", [
    1.0, 0.5, 0.5, 0.25, -0.25, -0.75, 0.5, -1.0, -0.5, -0.75, 0.25, -0.75, -0.25, 0.5,
    0.75, 0.75, -0.5, 0.25, 0.5, 0.0, -0.5, -1.0, -0.5, -0.5, -0.25, 0.5, -0.25, -0.75, 0.5,
    0.5, 0.25, -0.25, 1.0, -0.75, 0.5, 0.75, 1.0, -0.25, -0.5, 0.25, 1.0, -0.25, 1.0, 1.0,
    0.75, -0.5, -0.75, -0.25, 0.5, 0.75, 0.5, 0.75, 0.0, -0.5
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.5, -1.0, 0.25])
o1 = Output("output", "TENSOR_FLOAT32", "{2, 3, 3, 3}")
Model("same").Operation("CONV_2D", i1, f1, b1, 1, 2, 2, 0).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 127),
    f1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    b1: ("TENSOR_INT32", 0.0625, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})

Example({
    i1: [
        -4.0, 3.0, 0.5, -4.0, 2.5, 2.0, 3.0, -2.0, -3.5, 2.0, -2.0, -1.5, 3.5, -4.0, -0.5,
        -3.5, -4.0, -3.0, 3.0, 3.5, 1.5, 3.0, 2.5, 1.5, -4.0, -2.5, 1.0, -0.5, -3.0, -4.0,
        -2.0, -0.5, -0.5, 0.5, 1.0, 1.0, -3.5, -3.5, 4.0, -3.5, -3.0, 2.5, 0.5, 0.5, 3.5,
        1.5, 3.5, 0.0, -1.0, -4.0, -0.5, 4.0, -1.5, -3.5, -3.0, 2.5, -2.5, 3.5, 0.5, 3.0,
        -3.0, -3.5, -2.0, 1.0, 1.0, 0.5, -1.0, -2.5, 1.0, 4.0, 1.0, 3.0, -0.5, -2.0, 0.0,
        -3.5, 3.0, 1.5, 4.0, 1.0, 2.0, -3.5, -3.5, 3.0, 3.0, -0.5, 1.5, 1.0, 2.0, -3.0, 4.0,
        -2.0, 0.5, -1.0, -3.0, -1.0, -1.5, 3.5, -3.0, 0.5
    ],
    o1: [
        -2.0, -6.125, -3.75, -0.375, -5.0, -6.75, 8.625, -3.25, -2.5, -3.75, -0.375, 1.125,
        11.125, 6.875, 5.625, 2.375, 1.875, -8.375, -1.5, -0.125, -3.5, 2.25, 0.625, -3.0,
        1.625, 1.125, -0.5, -3.625, -7.0, -4.75, 1.625, -5.5, -5.375, -4.0, -2.625, 1.25,
        -2.125, 5.875, -4.375, 9.5, 6.0, -5.0, -3.625, -3.375, 7.625, -0.375, 2.0, -2.0,
        -0.75, -3.125, -6.375, -0.375, 4.25, -0.75
    ],
}).AddInput(f1, b1).AddVariations(quant8_1)

# 2. Explicit asymmetric pads (left 1, right 2, top 0, bottom 1) with a 2x3 filter,
#    stride 2 across and 1 down, every fused activation (oracle case conv_explicit).
#    out H = (4 + 0 + 1 - 2) / 1 + 1 = 4, out W = (6 + 1 + 2 - 3) / 2 + 1 = 4.
i2 = Input("input", "TENSOR_FLOAT32", "{1, 4, 6, 3}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{2, 2, 3, 3}", [
    1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25, -0.25, -1.0,
    0.25, -0.5, 0.5, 0.5, -1.0, 0.5, -0.5, -0.75, -0.5, 0.5, -1.0, -0.25, -0.25, 0.25,
    -0.75, 0.25, 0.25, -0.5, 1.0, 0.75, -0.5, 0.25
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [1.0, -0.5])
act2 = Int32Scalar("act", 0)
o2 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model("explicit").Operation("CONV_2D", i2, f2, b2, 1, 2, 0, 1, 2, 1, act2).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f2: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
    b2: ("TENSOR_INT32", 0.0625, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})

Example({
    i2: [
        3.5, 0.5, -3.0, -1.5, -1.5, 0.0, -2.5, 0.0, -0.5, 3.5, 1.5, 2.0, 1.5, 2.0, -3.5,
        -2.0, -1.0, -4.0, 1.0, -1.0, 0.5, -1.5, -2.5, 2.5, 0.5, -3.5, 0.0, -3.5, 1.5, -1.0,
        2.0, -1.5, -3.0, 3.5, 0.0, 1.5, 3.0, 1.5, 2.5, 3.0, 2.0, -0.5, -2.0, -3.0, -2.0,
        -2.0, -4.0, 4.0, -3.0, -1.0, -0.5, 2.0, 0.5, -2.5, -3.5, 0.5, 2.0, -1.5, 3.5, 0.5,
        4.0, -4.0, -1.5, 3.5, 2.0, -2.5, -4.0, -3.5, 4.0, -3.0, -3.5, -1.0
    ],
    o2: [
        0.75, -1.0, 8.875, -2.125, 8.5, -5.875, -6.875, 4.25, -2.375, 4.625, 0.125, 2.875,
        3.25, 1.5, 2.625, -5.25, 1.125, -7.5, 11.25, 1.375, 3.375, 1.25, 4.875, 0.625, 0.5,
        3.375, 5.0, -2.625, 8.0, 9.125, -5.125, 1.25
    ],
}).AddAllActivations(o2, act2).AddInput(f2, b2).AddVariations(quant8_2)

# 3. Implicit VALID padding, stride 2 leaving a row and a column unused (oracle case
#    conv_valid_stride2): out H = ceil((5 - 2 + 1) / 2) = 2, out W = ceil((4 - 2 + 1) / 2) = 2.
i3 = Input("input", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
f3 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 1}", [0.75, 0.5, 0.25, 1.0])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{1}", [0.25])
o3 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("valid").Operation("CONV_2D", i3, f3, b3, 2, 2, 2, 0).To(o3)

quant8_3 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    f3: ("TENSOR_QUANT8_ASYMM", 0.25, 200),
    b3: ("TENSOR_INT32", 0.125, 0),
    o3: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
})

Example({
    i3: [
        -0.5, -2.5, -1.5, 1.5, 3.0, 3.0, -1.5, -3.0, -2.0, 1.0, 2.0, -1.5, 2.5, 3.5, -2.0,
        3.5, 2.0, -3.5, 4.0, -1.0
    ],
    o3: [2.375, -3.5, 3.375, 4.0],
}).AddVariations(quant8_3)
