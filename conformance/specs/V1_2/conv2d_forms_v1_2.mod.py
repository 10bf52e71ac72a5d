# CONV_2D in the forms and types HAL 1.2 added, beside V1_2/conv2d_v1_2.mod.py (whose
# test list tests/spec_language/test_generator_specs.py pins): dilation, layouts, float16, per-channel
# quantization, multipliers >= 1, and the forms without the layout input.

# Golden values from conformance/specs/oracles/convolution_oracle.py
# (plain loops over docs/operations.md, CONV_2D (3)), cases named in each comment. Inputs are
# multiples of 0.5 and filters multiples of 0.25: outputs are multiples of 0.125, exact
# in float16 and at the quant8 output scales 0.125 and 0.0625, where every multiplier
# (per channel too) is a power of two: no quant8 golden depends on how a driver rounds
# (scripts/quant_ties.py finds goldens rounded from a tie). The first case's outputs
# span more than 255 steps of 0.125: its smallest (-22.25) and largest (16) saturate.

# 1. Implicit SAME with dilation 2 across and 1 down (oracle case conv_same_dilated): the
#    effective filter is 5 wide and 3 high, so SAME pads 2 left, 2 right, 1 top, 1 bottom.
layout1 = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 5, 5, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{2, 3, 3, 2}", [
    1.0, -0.5, 0.5, 1.0, 0.75, 0.25, 0.5, -0.75, 0.75, 0.25, 0.0, -0.25, 0.75, 1.0, -0.5,
    0.25, -1.0, 0.5, 1.0, -0.75, -0.5, -0.75, 0.75, 0.0, 0.25, -1.0, 1.0, 1.0, -0.25, -0.75,
    -1.0, -0.5, 1.0, 0.0, -1.0, -0.75
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.5, -0.25])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 5, 5, 2}")
Model("dilated").Operation("CONV_2D", i1, f1, b1, 1, 1, 1, 0, layout1, 2, 1).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 150),
})
channel_quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.125])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 150),
})

Example({
    i1: [
        -1.0, 3.5, 3.5, 0.0, 3.0, 1.5, 1.5, -1.0, -3.0, -2.0, -3.0, 1.5, 0.5, 1.0, -0.5,
        -3.5, 1.0, 0.0, 1.5, -1.0, 2.5, -1.5, 3.5, -3.0, -1.5, -4.0, 4.0, -3.0, 4.0, 0.5,
        -2.5, -4.0, -2.0, 0.5, 0.0, 2.0, 2.0, 0.0, 2.0, 0.0, -2.0, -2.0, 3.5, -0.5, -3.0,
        -2.0, 1.0, 3.5, 2.5, 0.0
    ],
    o1: [
        0.875, 0.5, 2.375, 3.125, -2.875, 3.75, 4.0, 1.125, -6.75, -2.25, 3.0, 8.125, -4.25,
        2.125, -9.25, -22.25, 0.875, 5.375, -4.5, 16.0, 3.0, 0.125, 4.25, -2.75, -13.375,
        -2.625, 5.25, 7.625, 7.875, 11.0, -2.75, -7.0, -1.0, 1.125, -0.625, 12.5, 7.125,
        4.5, -2.0, 5.375, -5.75, 2.25, 3.125, 2.0, 1.25, -3.875, 3.0, 2.25, 2.375, 1.0
    ],
}).AddNchw(i1, o1, layout1).AddInput(f1, b1).AddVariations("relaxed", quant8_1, channel_quant8_1, "float16")

# 2. Explicit pads (left 1, right 0, top 2, bottom 1), stride 2, dilation 2, batch 2
#    (oracle case conv_explicit_dilated_stride2): effective filter 3x3, out H =
#    (6 + 3 - 3) / 2 + 1 = 4, out W = (5 + 1 - 3) / 2 + 1 = 2. Quant8 output scale 0.0625
#    is below input x filter scale 0.125: a multiplier of 2, valid since HAL 1.2.
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{2, 6, 5, 1}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{2, 2, 2, 1}", [0.75, 0.25, 0.25, -0.25, 0.25, 1.0, -0.25, -0.5])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.0, 0.5])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 4, 2, 2}")
Model("explicit_dilated").Operation("CONV_2D", i2, f2, b2, 1, 0, 2, 1, 2, 2, 0, layout2, 2, 2).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 120),
    f2: ("TENSOR_QUANT8_ASYMM", 0.25, 130),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})
channel_quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 120),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})

Example({
    i2: [
        4.0, -3.5, 2.0, 4.0, -3.5, -2.5, 0.0, -1.5, 3.0, -2.0, -2.5, -4.0, -2.0, -1.5, -0.5,
        2.5, 0.5, -4.0, 2.5, -1.0, 4.0, -1.0, -1.5, 3.5, -0.5, -1.0, -2.0, -1.5, -1.5, 0.0,
        -4.0, 4.0, 3.0, -1.5, 2.5, 1.5, 1.5, -1.5, 3.0, -4.0, -2.5, 2.5, 4.0, -4.0, -2.0,
        0.0, -4.0, -0.5, 2.5, 0.0, 0.5, -4.0, 4.0, -2.0, 3.0, 4.0, -2.0, 4.0, -1.5, -4.0
    ],
    o2: [
        0.875, 2.25, -1.875, -0.625, 0.125, -1.0, -2.25, 5.375, -0.75, -3.0, -4.5, -3.5,
        -0.25, -0.5, 0.125, 3.75, -1.0, -1.5, 1.375, 0.25, 0.375, 3.25, 4.25, 1.375, 1.625,
        5.0, 0.375, -0.875, -1.0, -3.5, -3.5, -2.5
    ],
}).AddNchw(i2, o2, layout2).AddVariations("relaxed", quant8_2, channel_quant8_2, "float16")

# 3. The 7-input implicit form without layout, in the types HAL 1.2 added (oracle case
#    conv_same_stride2, as V1_0/conv2d.mod.py): SAME, stride 2, batch 2, 3 output channels
#    with three different per-channel scales.
i3 = Input("input", "TENSOR_FLOAT32", "{2, 5, 5, 2}")
f3 = Parameter("filter", "TENSOR_FLOAT32", "{3, 3, 3, 2}", [
    1.0, 0.5, 0.5, 0.25, -0.25, -0.75, 0.5, -1.0, -0.5, -0.75, 0.25, -0.75, -0.25, 0.5,
    0.75, 0.75, -0.5, 0.25, 0.5, 0.0, -0.5, -1.0, -0.5, -0.5, -0.25, 0.5, -0.25, -0.75, 0.5,
    0.5, 0.25, -0.25, 1.0, -0.75, 0.5, 0.75, 1.0, -0.25, -0.5, 0.25, 1.0, -0.25, 1.0, 1.0,
    0.75, -0.5, -0.75, -0.25, 0.5, 0.75, 0.5, 0.75, 0.0, -0.5
])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.5, -1.0, 0.25])
o3 = Output("output", "TENSOR_FLOAT32", "{2, 3, 3, 3}")
Model("no_layout").Operation("CONV_2D", i3, f3, b3, 1, 2, 2, 0).To(o3)

channel_quant8_3 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 127),
    f3: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.125, 0.0625])),
    b3: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125], hide=True)),
    o3: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
})

Example({
    i3: [
        -4.0, 3.0, 0.5, -4.0, 2.5, 2.0, 3.0, -2.0, -3.5, 2.0, -2.0, -1.5, 3.5, -4.0, -0.5,
        -3.5, -4.0, -3.0, 3.0, 3.5, 1.5, 3.0, 2.5, 1.5, -4.0, -2.5, 1.0, -0.5, -3.0, -4.0,
        -2.0, -0.5, -0.5, 0.5, 1.0, 1.0, -3.5, -3.5, 4.0, -3.5, -3.0, 2.5, 0.5, 0.5, 3.5,
        1.5, 3.5, 0.0, -1.0, -4.0, -0.5, 4.0, -1.5, -3.5, -3.0, 2.5, -2.5, 3.5, 0.5, 3.0,
        -3.0, -3.5, -2.0, 1.0, 1.0, 0.5, -1.0, -2.5, 1.0, 4.0, 1.0, 3.0, -0.5, -2.0, 0.0,
        -3.5, 3.0, 1.5, 4.0, 1.0, 2.0, -3.5, -3.5, 3.0, 3.0, -0.5, 1.5, 1.0, 2.0, -3.0, 4.0,
        -2.0, 0.5, -1.0, -3.0, -1.0, -1.5, 3.5, -3.0, 0.5
    ],
    o3: [
        -2.0, -6.125, -3.75, -0.375, -5.0, -6.75, 8.625, -3.25, -2.5, -3.75, -0.375, 1.125,
        11.125, 6.875, 5.625, 2.375, 1.875, -8.375, -1.5, -0.125, -3.5, 2.25, 0.625, -3.0,
        1.625, 1.125, -0.5, -3.625, -7.0, -4.75, 1.625, -5.5, -5.375, -4.0, -2.625, 1.25,
        -2.125, 5.875, -4.375, 9.5, 6.0, -5.0, -3.625, -3.375, 7.625, -0.375, 2.0, -2.0,
        -0.75, -3.125, -6.375, -0.375, 4.25, -0.75
    ],
}).AddVariations("float16", channel_quant8_3, includeDefault=False)

# 4. The 10-input explicit form without layout, with RELU6 (oracle case conv_explicit,
#    clamped to [0, 6] here by the activation variation).
i4 = Input("input", "TENSOR_FLOAT32", "{1, 4, 6, 3}")
f4 = Parameter("filter", "TENSOR_FLOAT32", "{2, 2, 3, 3}", [
    1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25, -0.25, -1.0,
    0.25, -0.5, 0.5, 0.5, -1.0, 0.5, -0.5, -0.75, -0.5, 0.5, -1.0, -0.25, -0.25, 0.25,
    -0.75, 0.25, 0.25, -0.5, 1.0, 0.75, -0.5, 0.25
])
b4 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [1.0, -0.5])
act4 = Int32Scalar("act", 0)
o4 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model("explicit_no_layout").Operation("CONV_2D", i4, f4, b4, 1, 2, 0, 1, 2, 1, act4).To(o4)

channel_quant8_4 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f4: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25])),
    b4: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125], hide=True)),
    o4: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})

Example({
    i4: [
        3.5, 0.5, -3.0, -1.5, -1.5, 0.0, -2.5, 0.0, -0.5, 3.5, 1.5, 2.0, 1.5, 2.0, -3.5,
        -2.0, -1.0, -4.0, 1.0, -1.0, 0.5, -1.5, -2.5, 2.5, 0.5, -3.5, 0.0, -3.5, 1.5, -1.0,
        2.0, -1.5, -3.0, 3.5, 0.0, 1.5, 3.0, 1.5, 2.5, 3.0, 2.0, -0.5, -2.0, -3.0, -2.0,
        -2.0, -4.0, 4.0, -3.0, -1.0, -0.5, 2.0, 0.5, -2.5, -3.5, 0.5, 2.0, -1.5, 3.5, 0.5,
        4.0, -4.0, -1.5, 3.5, 2.0, -2.5, -4.0, -3.5, 4.0, -3.0, -3.5, -1.0
    ],
    o4: [
        0.75, -1.0, 8.875, -2.125, 8.5, -5.875, -6.875, 4.25, -2.375, 4.625, 0.125, 2.875,
        3.25, 1.5, 2.625, -5.25, 1.125, -7.5, 11.25, 1.375, 3.375, 1.25, 4.875, 0.625, 0.5,
        3.375, 5.0, -2.625, 8.0, 9.125, -5.125, 1.25
    ],
}).AddVariations(("relu6", [o4, act4]), includeDefault=False).AddVariations("float16", channel_quant8_4, includeDefault=False)

# 5. The 11-input explicit form with layout and no dilation (oracle case conv_explicit).
layout5 = BoolScalar("layout", False)
i5 = Input("input", "TENSOR_FLOAT32", "{1, 4, 6, 3}")
f5 = Parameter("filter", "TENSOR_FLOAT32", "{2, 2, 3, 3}", [
    1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25, -0.25, -1.0,
    0.25, -0.5, 0.5, 0.5, -1.0, 0.5, -0.5, -0.75, -0.5, 0.5, -1.0, -0.25, -0.25, 0.25,
    -0.75, 0.25, 0.25, -0.5, 1.0, 0.75, -0.5, 0.25
])
b5 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [1.0, -0.5])
o5 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model("explicit_layout").Operation("CONV_2D", i5, f5, b5, 1, 2, 0, 1, 2, 1, 0, layout5).To(o5)

quant8_5 = DataTypeConverter().Identify({
    i5: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f5: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    b5: ("TENSOR_INT32", 0.125, 0),
    o5: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})
channel_quant8_5 = DataTypeConverter().Identify({
    i5: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f5: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25])),
    b5: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125], hide=True)),
    o5: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})

Example({
    i5: [
        3.5, 0.5, -3.0, -1.5, -1.5, 0.0, -2.5, 0.0, -0.5, 3.5, 1.5, 2.0, 1.5, 2.0, -3.5,
        -2.0, -1.0, -4.0, 1.0, -1.0, 0.5, -1.5, -2.5, 2.5, 0.5, -3.5, 0.0, -3.5, 1.5, -1.0,
        2.0, -1.5, -3.0, 3.5, 0.0, 1.5, 3.0, 1.5, 2.5, 3.0, 2.0, -0.5, -2.0, -3.0, -2.0,
        -2.0, -4.0, 4.0, -3.0, -1.0, -0.5, 2.0, 0.5, -2.5, -3.5, 0.5, 2.0, -1.5, 3.5, 0.5,
        4.0, -4.0, -1.5, 3.5, 2.0, -2.5, -4.0, -3.5, 4.0, -3.0, -3.5, -1.0
    ],
    o5: [
        0.75, -1.0, 8.875, -2.125, 8.5, -5.875, -6.875, 4.25, -2.375, 4.625, 0.125, 2.875,
        3.25, 1.5, 2.625, -5.25, 1.125, -7.5, 11.25, 1.375, 3.375, 1.25, 4.875, 0.625, 0.5,
        3.375, 5.0, -2.625, 8.0, 9.125, -5.125, 1.25
    ],
}).AddNchw(i5, o5, layout5).AddVariations("relaxed", quant8_5, channel_quant8_5, "float16")
