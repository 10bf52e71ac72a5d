# DEPTHWISE_CONV_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3): a signed
# per-tensor filter (zero points from -120 to 120) or a per-channel
# TENSOR_QUANT8_SYMM_PER_CHANNEL one (channelDim 3), INT32 bias, depth multipliers 1, 2
# and 3, NHWC and NCHW, every fused activation, every signature (with and without the
# layout, explicit and implicit padding, dilation). Outputs beyond the output range
# saturate at -128 (zero points -110, -105) and at 127 (zero points 90, 110).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases depthwise,
# depthwise_same, depthwise_dilated_same and depthwise_dilated_explicit. Inputs are whole
# numbers (scale 0.5), filters multiples of 0.25, biases of 0.25: every output is a
# multiple of 0.25, exact at the output scales 0.25, 0.125 and 0.0625 (power-of-two
# multipliers, per channel too), so no quantized golden depends on how a driver rounds.

# 1. [1, 3, 3, 2] * [1, 2, 2, 4], multiplier 2, pads left 1, right 0, top 0, bottom 1,
#    stride 1: output [1, 3, 3, 4]; output channel 2k + q reads input channel k.
layout = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 4}", [
    -0.5, -0.25, -1.0, 0.75, -0.5, -0.75, 0.25, -0.75, -0.25, 0.0, -1.0, 0.25, -0.5,
    1.0, 0.5, -1.0
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, -0.25, 1.0, 0.0])
act = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
Model().Operation("DEPTHWISE_CONV_2D", i1, f1, b1, 1, 0, 0, 1, 1, 1, 2, act, layout).To(o1)

signed_a = DataTypeConverter(name="signed_zp0").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 3),
})
signed_b = DataTypeConverter(name="signed_low").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 119),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -5),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -110),
})
signed_c = DataTypeConverter(name="signed_high").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 120),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 90),
})
signed_pc = DataTypeConverter(name="signed_per_channel").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -64),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=[0.25, 0.125, 0.0625, 0.25])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125, 0.125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 64),
})

Example({
    i1: [-2, 2, 2, 0, 3, -1, 3, 4, -2, 4, 4, -1, -4, -4, 1, 2, -3, -2],
    o1: [
        0.0, 4.25, 3.5, -5.5, 0.75, -3.25, -3.0, -1.5, -3.5, 1.0, -3.75, 2.75, 1.0,
        -6.5, 0.0, 1.0, 0.5, 1.5, 3.0, -3.0, 0.75, -5.75, -6.25, 6.25, 2.5, 2.75, 0.0,
        3.0, 2.0, 0.0, 5.5, -4.5, 1.5, 1.75, -1.5, 3.0
    ],
}).AddNchw(i1, o1, layout).AddAllActivations(o1, act).AddInput(f1, b1).AddVariations(
    signed_a, signed_b, signed_c, signed_pc, includeDefault=False)


# The other signatures (HAL 1.0's without the layout, implicit padding, 1.2's dilation),
# each with a signed per-tensor filter and a per-channel one (channelDim 3).
def signed_forms(i, f, b, o, in_zp, filter_zp, out_scale, out_zp, channel_scales):
    per_tensor = DataTypeConverter(name="signed").Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, in_zp),
        f: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, filter_zp),
        b: ("TENSOR_INT32", 0.125, 0),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", out_scale, out_zp),
    })
    per_channel = DataTypeConverter(name="signed_per_channel").Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, in_zp),
        f: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=3, scales=channel_scales)),
        b: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.5 * s for s in channel_scales], hide=True)),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", out_scale, out_zp),
    })
    return per_tensor, per_channel


# 2. The first case without the layout input (explicit pads, NHWC).
i2 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 4}", [
    -0.5, -0.25, -1.0, 0.75, -0.5, -0.75, 0.25, -0.75, -0.25, 0.0, -1.0, 0.25, -0.5,
    1.0, 0.5, -1.0
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, -0.25, 1.0, 0.0])
o2 = Output("output", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
Model("explicit_no_layout").Operation("DEPTHWISE_CONV_2D", i2, f2, b2, 1, 0, 0, 1, 1, 1, 2, 0).To(o2)
Example({
    i2: [-2, 2, 2, 0, 3, -1, 3, 4, -2, 4, 4, -1, -4, -4, 1, 2, -3, -2],
    o2: [
        0.0, 4.25, 3.5, -5.5, 0.75, -3.25, -3.0, -1.5, -3.5, 1.0, -3.75, 2.75, 1.0,
        -6.5, 0.0, 1.0, 0.5, 1.5, 3.0, -3.0, 0.75, -5.75, -6.25, 6.25, 2.5, 2.75, 0.0,
        3.0, 2.0, 0.0, 5.5, -4.5, 1.5, 1.75, -1.5, 3.0
    ],
}).AddVariations(*signed_forms(i2, f2, b2, o2, 11, -1, 0.125, -33, [0.125, 0.25, 0.25, 0.0625]),
                 includeDefault=False)

# 3. [1, 4, 3, 2] * [1, 3, 3, 2], multiplier 1, implicit SAME, stride 2 (pads top 0,
#    bottom 1, left 1, right 1): output [1, 2, 2, 2] (oracle case depthwise_same), with
#    the layout input and without it.
layout3 = BoolScalar("layout", False)
i3 = Input("input", "TENSOR_FLOAT32", "{1, 4, 3, 2}")
f3 = Parameter("filter", "TENSOR_FLOAT32", "{1, 3, 3, 2}", [
    0.5, -0.5, -0.25, -0.5, -0.25, -0.5, -0.75, -0.5, 0.0, -1.0, 0.75, 0.75, -0.75,
    -1.0, 1.0, -0.5, 0.75, 0.75
])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.25, -1.0])
o3 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model("same").Operation("DEPTHWISE_CONV_2D", i3, f3, b3, 1, 2, 2, 1, 0, layout3).To(o3)
Example({
    i3: [0, -3, -4, 0, 2, 2, 4, 1, -2, -1, 0, 3, -4, -1, 3, -4, -3, -3, 3, 2, -4, 4, 2, 1],
    o3: [-2.0, -3.75, -6.0, 1.0, -2.5, 2.5, 5.5, -0.5],
}).AddNchw(i3, o3, layout3).AddVariations(
    *signed_forms(i3, f3, b3, o3, -90, 60, 0.25, 110, [0.25, 0.125]), includeDefault=False)

i4 = Input("input", "TENSOR_FLOAT32", "{1, 4, 3, 2}")
f4 = Parameter("filter", "TENSOR_FLOAT32", "{1, 3, 3, 2}", [
    0.5, -0.5, -0.25, -0.5, -0.25, -0.5, -0.75, -0.5, 0.0, -1.0, 0.75, 0.75, -0.75,
    -1.0, 1.0, -0.5, 0.75, 0.75
])
b4 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.25, -1.0])
o4 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model("same_no_layout").Operation("DEPTHWISE_CONV_2D", i4, f4, b4, 1, 2, 2, 1, 0).To(o4)
Example({
    i4: [0, -3, -4, 0, 2, 2, 4, 1, -2, -1, 0, 3, -4, -1, 3, -4, -3, -3, 3, 2, -4, 4, 2, 1],
    o4: [-2.0, -3.75, -6.0, 1.0, -2.5, 2.5, 5.5, -0.5],
}).AddVariations(*signed_forms(i4, f4, b4, o4, 0, 0, 0.125, 0, [0.0625, 0.25]),
                 includeDefault=False)

# 5. [1, 4, 4, 2] * [1, 2, 2, 2], multiplier 1, dilation 2, implicit SAME (pads 1 on
#    every side), stride 1 (oracle case depthwise_dilated_same).
layout5 = BoolScalar("layout", False)
i5 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
f5 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 2}", [-0.25, -0.25, 0.5, 1.0, -1.0, -0.5, 0.75, -1.0])
b5 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.0, 0.75])
o5 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model("same_dilated").Operation("DEPTHWISE_CONV_2D", i5, f5, b5, 1, 1, 1, 1, 0, layout5, 2, 2).To(o5)
Example({
    i5: [
        2, -4, -1, 0, 3, -4, 0, -4, 0, 2, -3, -3, -1, 4, 1, -2, 4, 1, 4, 3, 4, -3, -3,
        1, 2, 1, -1, -2, 3, -3, -3, 2
    ],
    o5: [
        -2.25, 3.75, -0.75, -4.25, 3.75, 4.25, 1.0, -1.25, 2.5, -2.25, 0.0, 0.25, -6.0,
        -5.75, -4.75, 3.25, -2.25, -0.25, -0.25, 6.75, 0.0, -1.5, -2.75, 1.25, 2.0,
        3.75, 1.0, -2.5, -2.5, 1.0, -1.0, 1.5
    ],
}).AddNchw(i5, o5, layout5).AddVariations(
    *signed_forms(i5, f5, b5, o5, 119, -120, 0.125, -105, [0.125, 0.25]), includeDefault=False)

# 6. [1, 5, 4, 1] * [1, 2, 2, 3], multiplier 3, explicit pads left 1, right 1, top 0,
#    bottom 0, stride 1, dilation 1 across and 2 down: output [1, 3, 5, 3] (oracle case
#    depthwise_dilated_explicit).
layout6 = BoolScalar("layout", False)
i6 = Input("input", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
f6 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 3}", [-0.75, -0.5, 1.0, -0.5, -0.25, -0.5, 0.75, 0.5, -0.25, -0.25, -0.5, 0.5])
b6 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.5, 0.0, -0.25])
o6 = Output("output", "TENSOR_FLOAT32", "{1, 3, 5, 3}")
Model("explicit_dilated").Operation("DEPTHWISE_CONV_2D", i6, f6, b6, 1, 1, 0, 0, 1, 1, 3, 0, layout6, 1, 2).To(o6)
Example({
    i6: [3, 0, 0, -1, -3, -3, 0, 4, 1, 0, 1, 2, -2, -1, -1, 3, -3, -3, 2, 2],
    o6: [
        -1.25, -1.25, -1.25, -1.0, -1.0, 2.5, 0.25, -0.5, 0.25, 1.25, -0.25, 1.0, 2.75,
        1.5, -1.75, 2.5, 1.75, 0.25, 3.0, 1.75, -1.75, 2.25, 1.5, -3.5, -3.0, -3.0,
        -0.5, -0.25, -0.5, 3.0, 0.75, 1.25, -2.25, -1.75, -0.5, 0.0, -2.75, -2.75, 1.0,
        -0.25, -1.0, 0.25, 0.5, 0.0, 1.25
    ],
}).AddNchw(i6, o6, layout6).AddVariations(
    *signed_forms(i6, f6, b6, o6, -4, 3, 0.0625, 70, [0.25, 0.0625, 0.125]), includeDefault=False)
