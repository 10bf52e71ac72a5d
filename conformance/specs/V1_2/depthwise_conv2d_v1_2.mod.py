# DEPTHWISE_CONV_2D in the forms and types HAL 1.2 added: layout, dilation, float16,
# per-channel quantization (channelDim 3), multipliers >= 1.
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over
# docs/operations.md, DEPTHWISE_CONV_2D (4)), cases named below. Inputs are multiples of 0.5 and
# filters multiples of 0.25: outputs are multiples of 0.125, exact in float16 and at the
# quant8 output scales 0.125 and 0.0625, where every multiplier (per channel too) is a
# power of two: no quant8 golden depends on how a driver rounds (scripts/quant_ties.py
# finds goldens rounded from a tie).

# 1. Implicit SAME, depth multiplier 2, dilation 2 across and 3 down (oracle case
#    depthwise_same_dilated): effective filter 5 wide and 4 high, so SAME pads 2 left,
#    2 right, 1 top, 2 bottom. Quant8 multiplier input x filter / output = 1.
layout1 = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 6, 5, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 3, 4}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25, -1.0, 0.5, 1.0, -0.75, -0.5, -0.75, 0.75, 0.0
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.0, 0.5, -0.5, 0.25])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 6, 5, 4}")
Model("dilated").Operation("DEPTHWISE_CONV_2D", i1, f1, b1, 1, 1, 1, 2, 0, layout1, 2, 3).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})
channel_quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.25, 0.125, 0.0625, 0.25])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125, 0.125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})

Example({
    i1: [
        0.0, 2.0, 3.5, -1.5, 0.5, -4.0, 0.5, -0.5, 1.5, -1.0, 2.0, -4.0, -1.0, -0.5, 1.0,
        4.0, 3.0, -3.5, 1.5, 3.5, -2.0, 3.0, 1.0, 0.5, 1.5, 3.5, 3.0, -2.0, 0.5, 3.5, 0.5,
        2.5, -2.0, -3.0, 3.0, 1.0, -2.0, 0.0, 4.0, 3.5, 1.5, -0.5, -1.0, 2.0, 3.0, -0.5,
        0.0, -0.5, 1.5, 3.0, -1.5, -3.0, -1.0, -4.0, -1.0, -1.0, 1.5, 2.5, -3.0, -0.5
    ],
    o1: [
        1.25, -1.625, 5.125, -2.0, -2.5, -1.25, -1.5, -0.125, -3.25, -1.125, 4.125, -1.625,
        -2.25, 3.0, -2.75, 1.875, 0.625, 2.25, 1.25, -1.5, -1.625, -1.375, 3.75, -2.125,
        6.0, 2.0, -4.25, 3.75, -3.125, 0.0, 0.875, 5.375, 4.375, -4.125, 0.0, -1.625,
        -0.125, 5.625, 0.0, -5.375, -0.75, -0.25, -3.375, 2.625, 2.5, 0.5, 0.875, 0.0, 1.25,
        2.0, 1.5, -7.375, 0.5, 0.75, -4.0, 3.25, 2.875, 4.125, 6.5, -0.75, 1.625, 0.375,
        -2.75, -0.625, 3.25, -0.125, -2.375, 3.375, 0.875, 2.25, 2.875, -0.25, 1.0, 0.5,
        3.25, -0.625, 4.125, -2.625, 3.0, 1.25, 2.625, 1.375, 0.75, -1.875, -3.0, -0.5,
        -2.0, 2.5, 5.75, 2.0, 1.25, 1.125, -3.5, 1.0, -2.0, -2.75, 6.0, 0.0, 1.75, -1.375,
        3.375, 1.625, -0.75, 0.75, -0.75, 0.25, 0.5, -1.125, 4.875, 0.875, -1.0, -0.625,
        -1.0, 1.0, 0.25, 2.625, 4.125, -0.625, 0.75, -2.5
    ],
}).AddNchw(i1, o1, layout1).AddInput(f1, b1).AddVariations("relaxed", quant8_1, channel_quant8_1, "float16")

# 2. Explicit pads (left 1, right 1, top 0, bottom 1), stride 2 across and 1 down,
#    dilation 2 (oracle case depthwise_explicit_dilated): effective filter 3x3, out H =
#    (5 + 1 - 3) / 1 + 1 = 4, out W = (6 + 2 - 3) / 2 + 1 = 3. Quant8 output scale 0.0625
#    is below input x filter scale 0.125: a multiplier of 2, valid since HAL 1.2.
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{1, 5, 6, 2}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 2}", [1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.5, -0.5])
o2 = Output("output", "TENSOR_FLOAT32", "{1, 4, 3, 2}")
Model("explicit_dilated").Operation("DEPTHWISE_CONV_2D", i2, f2, b2, 1, 1, 0, 1, 2, 1, 1, 0, layout2, 2, 2).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 120),
    f2: ("TENSOR_QUANT8_ASYMM", 0.25, 130),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})
channel_quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 120),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.125, 0.25])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})

Example({
    i2: [
        0.0, 2.0, 3.5, -1.5, 0.5, -4.0, 0.5, -0.5, 1.5, -1.0, 2.0, -4.0, -1.0, -0.5, 1.0,
        4.0, 3.0, -3.5, 1.5, 3.5, -2.0, 3.0, 1.0, 0.5, 1.5, 3.5, 3.0, -2.0, 0.5, 3.5, 0.5,
        2.5, -2.0, -3.0, 3.0, 1.0, -2.0, 0.0, 4.0, 3.5, 1.5, -0.5, -1.0, 2.0, 3.0, -0.5,
        0.0, -0.5, 1.5, 3.0, -1.5, -3.0, -1.0, -4.0, -1.0, -1.0, 1.5, 2.5, -3.0, -0.5
    ],
    o2: [
        3.75, -0.5, 6.75, -2.625, 3.875, -4.375, 3.0, 0.875, 4.75, 0.375, 1.75, -0.875,
        1.25, -0.25, 2.125, 3.0, 0.25, -0.625, 2.5, 3.0, 4.0, -0.25, -0.5, -2.0
    ],
}).AddNchw(i2, o2, layout2).AddVariations("relaxed", quant8_2, channel_quant8_2, "float16")

# 3. The 8-input implicit form without layout, in the types HAL 1.2 added (oracle case
#    depthwise_same_multiplier2, as in V1_0/depthwise_conv2d.mod.py).
i3 = Input("input", "TENSOR_FLOAT32", "{1, 3, 4, 2}")
f3 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 4}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25
])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, 0.0, -0.5, 1.0])
o3 = Output("output", "TENSOR_FLOAT32", "{1, 3, 4, 4}")
Model("no_layout").Operation("DEPTHWISE_CONV_2D", i3, f3, b3, 1, 1, 1, 2, 0).To(o3)

channel_quant8_3 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f3: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.25, 0.125, 0.25, 0.0625])),
    b3: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.125, 0.03125], hide=True)),
    o3: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
})

Example({
    i3: [
        0.0, 2.0, 3.5, -1.5, 0.5, -4.0, 0.5, -0.5, 1.5, -1.0, 2.0, -4.0, -1.0, -0.5, 1.0,
        4.0, 3.0, -3.5, 1.5, 3.5, -2.0, 3.0, 1.0, 0.5
    ],
    o3: [
        5.75, 3.25, 1.75, 3.375, 5.125, -2.125, -3.0, 3.375, 1.375, 0.625, -4.75, -1.5,
        1.75, 0.0, -0.75, -0.5, 6.875, 2.0, -4.75, 4.75, 1.375, -2.875, -4.25, -2.75, -0.5,
        1.25, 1.0, -3.125, 2.25, -0.25, 1.5, 4.875, 4.625, -1.125, -0.5, -5.125, 0.5, -1.25,
        2.75, 2.25, -0.75, 1.25, 1.25, 3.625, 1.5, -0.5, -0.25, 1.5
    ],
}).AddVariations("float16", channel_quant8_3, includeDefault=False)

# 4. The 11-input explicit form without layout, with RELU1 (oracle case
#    depthwise_explicit_stride2, clamped to [-1, 1] by the activation variation).
i4 = Input("input", "TENSOR_FLOAT32", "{2, 5, 5, 3}")
f4 = Parameter("filter", "TENSOR_FLOAT32", "{1, 3, 3, 3}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25, -1.0, 0.5, 1.0, -0.75, -0.5, -0.75, 0.75, 0.0, 0.25, -1.0, 1.0
])
b4 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.25, -0.25, 0.5])
act4 = Int32Scalar("act", 0)
o4 = Output("output", "TENSOR_FLOAT32", "{2, 3, 2, 3}")
Model("explicit_no_layout").Operation("DEPTHWISE_CONV_2D", i4, f4, b4, 1, 0, 1, 1, 2, 2, 1, act4).To(o4)

channel_quant8_4 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f4: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.25, 0.125, 0.0625])),
    b4: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125], hide=True)),
    o4: ("TENSOR_QUANT8_ASYMM", 0.0625, 130),
})

Example({
    i4: [
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
    o4: [
        -2.75, 0.0, -5.25, -0.375, -8.125, 2.75, 5.375, -4.125, -1.875, 7.625, -7.375,
        1.625, 1.125, 1.5, 2.75, -0.25, -5.25, 1.625, -0.125, 1.625, -0.5, -0.25, 13.625,
        -0.375, 5.625, 3.375, -1.375, 2.0, 12.0, 2.125, -3.0, -1.5, -0.875, -0.125, -3.0,
        1.5
    ],
}).AddVariations(("relu1", [o4, act4]), includeDefault=False).AddVariations("float16", channel_quant8_4, includeDefault=False)

# 5. The 9-input implicit form with layout and no dilation (oracle case
#    depthwise_same_multiplier2).
layout5 = BoolScalar("layout", False)
i5 = Input("input", "TENSOR_FLOAT32", "{1, 3, 4, 2}")
f5 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 4}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25
])
b5 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, 0.0, -0.5, 1.0])
o5 = Output("output", "TENSOR_FLOAT32", "{1, 3, 4, 4}")
Model("layout").Operation("DEPTHWISE_CONV_2D", i5, f5, b5, 1, 1, 1, 2, 0, layout5).To(o5)

quant8_5 = DataTypeConverter().Identify({
    i5: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f5: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b5: ("TENSOR_INT32", 0.125, 0),
    o5: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
})
channel_quant8_5 = DataTypeConverter().Identify({
    i5: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f5: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.25, 0.125, 0.25, 0.0625])),
    b5: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.125, 0.03125], hide=True)),
    o5: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
})

Example({
    i5: [
        0.0, 2.0, 3.5, -1.5, 0.5, -4.0, 0.5, -0.5, 1.5, -1.0, 2.0, -4.0, -1.0, -0.5, 1.0,
        4.0, 3.0, -3.5, 1.5, 3.5, -2.0, 3.0, 1.0, 0.5
    ],
    o5: [
        5.75, 3.25, 1.75, 3.375, 5.125, -2.125, -3.0, 3.375, 1.375, 0.625, -4.75, -1.5,
        1.75, 0.0, -0.75, -0.5, 6.875, 2.0, -4.75, 4.75, 1.375, -2.875, -4.25, -2.75, -0.5,
        1.25, 1.0, -3.125, 2.25, -0.25, 1.5, 4.875, 4.625, -1.125, -0.5, -5.125, 0.5, -1.25,
        2.75, 2.25, -0.75, 1.25, 1.25, 3.625, 1.5, -0.5, -0.25, 1.5
    ],
}).AddNchw(i5, o5, layout5).AddVariations("relaxed", quant8_5, channel_quant8_5, "float16")

# 6. The 12-input explicit form with layout and no dilation (oracle case
#    depthwise_explicit_stride2), batch 2.
layout6 = BoolScalar("layout", False)
i6 = Input("input", "TENSOR_FLOAT32", "{2, 5, 5, 3}")
f6 = Parameter("filter", "TENSOR_FLOAT32", "{1, 3, 3, 3}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25, -1.0, 0.5, 1.0, -0.75, -0.5, -0.75, 0.75, 0.0, 0.25, -1.0, 1.0
])
b6 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.25, -0.25, 0.5])
o6 = Output("output", "TENSOR_FLOAT32", "{2, 3, 2, 3}")
Model("explicit_layout").Operation("DEPTHWISE_CONV_2D", i6, f6, b6, 1, 0, 1, 1, 2, 2, 1, 0, layout6).To(o6)

quant8_6 = DataTypeConverter().Identify({
    i6: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f6: ("TENSOR_QUANT8_ASYMM", 0.25, 140),
    b6: ("TENSOR_INT32", 0.125, 0),
    o6: ("TENSOR_QUANT8_ASYMM", 0.125, 110),
})
channel_quant8_6 = DataTypeConverter().Identify({
    i6: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f6: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.25, 0.125, 0.0625])),
    b6: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125], hide=True)),
    o6: ("TENSOR_QUANT8_ASYMM", 0.125, 110),
})

Example({
    i6: [
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
    o6: [
        -2.75, 0.0, -5.25, -0.375, -8.125, 2.75, 5.375, -4.125, -1.875, 7.625, -7.375,
        1.625, 1.125, 1.5, 2.75, -0.25, -5.25, 1.625, -0.125, 1.625, -0.5, -0.25, 13.625,
        -0.375, 5.625, 3.375, -1.375, 2.0, 12.0, 2.125, -3.0, -1.5, -0.875, -0.125, -3.0,
        1.5
    ],
}).AddNchw(i6, o6, layout6).AddVariations("relaxed", quant8_6, channel_quant8_6, "float16")
