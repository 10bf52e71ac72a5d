# GROUPED_CONV_2D (HAL 1.2): both padding forms, layouts, float16, relaxed, quant8 and
# per-channel quant8 (channelDim 0).
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over the
# definition in docs/operations.md, GROUPED_CONV_2D (55)), cases named below. Inputs are
# multiples of 0.5 and filters multiples of 0.25: outputs are multiples of 0.125, exact in
# float16 and at the quant8 output scales 0.125 and 0.0625, where every multiplier (per
# channel too) is a power of two: no quant8 golden depends on how a driver rounds
# (scripts/quant_ties.py finds goldens rounded from a tie).

# 1. Explicit pads (left 1, right 0, top 0, bottom 1), stride 1 across and 2 down,
#    2 groups of 2 input channels, 2 output channels per group (oracle case
#    grouped_explicit): out H = (3 + 1 - 2) / 2 + 1 = 2, out W = (3 + 1 - 2) / 1 + 1 = 3.
layout1 = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{4, 2, 2, 2}", [
    1.0, 0.5, 0.5, 0.25, -0.25, -0.75, 0.5, -1.0, -0.5, -0.75, 0.25, -0.75, -0.25, 0.5,
    0.75, 0.75, -0.5, 0.25, 0.5, 0.0, -0.5, -1.0, -0.5, -0.5, -0.25, 0.5, -0.25, -0.75, 0.5,
    0.5, 0.25, -0.25
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, -0.5, 0.25, 0.0])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3, 4}")
Model("explicit").Operation("GROUPED_CONV_2D", i1, f1, b1, 1, 0, 0, 1, 1, 2, 2, 0, layout1).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    b1: ("TENSOR_INT32", 0.0625, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})
channel_quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.125, 0.0625, 0.25])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125, 0.125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})

Example({
    i1: [
        -4.0, 3.0, 0.5, -4.0, 2.5, 2.0, 3.0, -2.0, -3.5, 2.0, -2.0, -1.5, 3.5, -4.0, -0.5,
        -3.5, -4.0, -3.0, 3.0, 3.5, 1.5, 3.0, 2.5, 1.5, -4.0, -2.5, 1.0, -0.5, -3.0, -4.0,
        -2.0, -0.5, -0.5, 0.5, 1.0, 1.0
    ],
    o1: [
        5.0, -4.125, 2.5, 3.625, 2.875, -9.75, 1.0, -3.5, 3.75, -2.75, -9.75, 3.375, -2.125,
        0.375, 0.75, 0.125, -7.25, 5.625, -1.375, 0.375, -4.625, 3.5, 1.625, -0.75
    ],
}).AddNchw(i1, o1, layout1).AddInput(f1, b1).AddVariations("relaxed", quant8_1, channel_quant8_1, "float16")

# 2. Implicit SAME, stride 2, as many groups as input channels (2), two output channels
#    each, batch 2, every fused activation (oracle case grouped_same_stride2). SAME on 4
#    with stride 2 and a 3-wide filter pads 0 before and 1 after.
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{2, 4, 4, 2}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{4, 3, 3, 1}", [
    1.0, -1.0, 0.25, 0.5, -0.75, 0.0, 0.0, 0.25, 0.75, 1.0, 0.75, -0.25, 0.75, -0.75, 0.25,
    0.25, 1.0, -0.25, -1.0, 0.0, -1.0, 1.0, 0.75, 0.25, -0.5, -0.5, -1.0, -1.0, -0.25,
    -0.25, -1.0, -0.25, 0.75, -0.5, -1.0, 0.25
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.0, 0.25, -0.5, 0.5])
act2 = Int32Scalar("act", 0)
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2, 2, 4}")
Model("same").Operation("GROUPED_CONV_2D", i2, f2, b2, 1, 2, 2, 2, act2, layout2).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f2: ("TENSOR_QUANT8_ASYMM", 0.25, 140),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 130),
})
channel_quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25, 0.0625, 0.25])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125, 0.03125, 0.125], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 130),
})

Example({
    i2: [
        -1.0, 0.0, 0.0, -3.0, 1.0, -1.5, 4.0, -2.5, -4.0, 1.0, 1.5, 4.0, -3.5, -3.0, -2.0,
        -3.0, 2.0, 4.0, -1.0, -1.0, -3.0, -1.5, -3.5, -2.0, 1.5, -1.5, 2.0, 3.0, -4.0, 1.5,
        0.0, 1.5, -0.5, 0.0, 2.5, 1.5, 0.5, -3.5, 2.5, 1.5, -2.5, 1.0, -3.5, 2.5, -2.5,
        -4.0, -3.5, 3.5, 0.0, -2.5, -1.5, 3.5, 1.0, -3.5, 3.0, -3.5, -2.0, -3.0, 0.5, -3.5,
        -3.5, -3.5, -3.5, -1.5
    ],
    o2: [
        -6.375, -5.75, 4.25, -4.0, -4.125, -1.125, -2.5, 9.125, 1.5, 0.875, -1.875, -1.0,
        -1.5, -8.375, 3.625, 0.625, -1.125, -0.125, 7.875, -6.75, 0.125, 6.625, 5.125, 12.0,
        0.375, -3.875, -1.0, 4.25, -1.125, 3.5, -1.625, 8.75
    ],
}).AddNchw(i2, o2, layout2).AddAllActivations(o2, act2).AddVariations("relaxed", quant8_2, channel_quant8_2, "float16")
