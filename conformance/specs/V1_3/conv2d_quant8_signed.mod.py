# CONV_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3): a signed per-tensor
# filter (zero points from -124 to 123) or a per-channel TENSOR_QUANT8_SYMM_PER_CHANNEL
# one, INT32 bias at input scale x filter scale, implicit SAME and explicit padding,
# stride 2, dilation, with and without the layout input, NHWC and NCHW, every fused
# activation, filter and bias as inputs. Zero points at both ends of the int8 range;
# outputs beyond the output range saturate at -128 (zero point -100) and at 127 (zero
# points 80 and 60).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases conv_same,
# conv_explicit_stride2, conv_dilated_same and conv_dilated_explicit. Inputs are whole
# numbers (scale 0.5), filters multiples of 0.25, biases of 0.25: every output is a
# multiple of 0.25, exact at the output scales 0.25, 0.125 and 0.0625 (power-of-two
# multipliers, per channel too), so no quantized golden depends on how a driver rounds.

# 1. [1, 3, 3, 2] * [2, 3, 3, 2], implicit SAME (pads 1 on every side), stride 1.
layout1 = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{2, 3, 3, 2}", [
    0.75, 0.0, 1.0, 0.25, -0.5, 0.5, -1.0, 0.25, 0.75, 0.0, 0.75, -0.25, 1.0, -1.0,
    -0.5, 0.75, 0.25, -0.5, 0.25, -0.25, -1.0, -0.25, -0.75, 1.0, 0.25, 0.5, -0.75,
    -1.0, -1.0, 1.0, -0.25, -0.75, 0.5, 0.75, -0.75, 0.5
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.75, -1.5])
act1 = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
Model("same").Operation("CONV_2D", i1, f1, b1, 1, 1, 1, act1, layout1).To(o1)

signed_1a = DataTypeConverter(name="signed_zp0").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -1),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
})
signed_1b = DataTypeConverter(name="signed_low").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 119),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -3),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -100),
})
signed_1c = DataTypeConverter(name="signed_high").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 7),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 80),
})
signed_1pc = DataTypeConverter(name="signed_per_channel").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 20),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.125])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -5),
})

Example({
    i1: [3, 4, 3, 3, 4, -1, -2, 4, 3, -2, -3, 3, 0, -2, -3, 4, -4, 2],
    o1: [
        10.25, -9.0, -7.0, -7.75, 10.25, 0.25, 1.75, -9.5, 11.0, 4.75, -2.5, -9.0, -6.0,
        4.25, -1.5, 3.0, 1.75, 4.25
    ],
}).AddNchw(i1, o1, layout1).AddAllActivations(o1, act1).AddVariations(
    signed_1a, signed_1b, signed_1c, signed_1pc, includeDefault=False)

# 2. [2, 4, 5, 1] * [3, 2, 3, 1], explicit pads left 1, right 1, top 0, bottom 1,
#    stride 2 both ways: out H = (4 + 1 - 2) / 2 + 1 = 2, out W = (5 + 2 - 3) / 2 + 1 = 3.
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{2, 4, 5, 1}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{3, 2, 3, 1}", [
    -0.75, 1.0, -0.25, 0.0, 0.0, 0.0, -0.75, 0.75, 0.0, 0.75, 0.5, 0.5, -0.75, 0.0,
    -0.25, 0.25, 0.25, 0.0
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.25, 0.0, -0.5])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2, 3, 3}")
Model("explicit").Operation("CONV_2D", i2, f2, b2, 1, 1, 0, 1, 2, 2, 0, layout2).To(o2)

signed_2a = DataTypeConverter(name="signed_filter_zp_low").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0),
    f2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -124),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.0625, 0),
})
signed_2b = DataTypeConverter(name="signed_saturating").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    f2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 123),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.0625, 60),
})
signed_2pc = DataTypeConverter(name="signed_per_channel").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 119),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25, 0.0625])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125, 0.03125], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -30),
})

Example({
    i2: [
        0, 0, -2, -1, -2, -1, -2, -2, -3, 4, -1, 0, -4, 2, -2, -4, 0, -2, -3, 0, 3, 2,
        -2, 0, 1, -1, 3, 4, 2, 1, 2, 1, -3, 1, 0, 3, 4, -2, 3, 3
    ],
    o2: [
        0.25, -1.5, -0.75, -1.5, -5.5, -1.25, -1.0, -1.0, 0.5, -0.75, -2.75, -1.5,
        -4.25, -5.5, -1.5, -3.25, -5.25, -2.75, 2.75, 3.25, -1.25, -3.25, 2.25, -0.25,
        1.25, 2.75, 0.25, 2.0, 5.0, 0.0, -3.75, 0.5, -1.0, -0.5, 3.0, 0.25
    ],
}).AddNchw(i2, o2, layout2).AddInput(f2, b2).AddVariations(
    signed_2a, signed_2b, signed_2pc, includeDefault=False)


# The other signatures (HAL 1.0's without the layout, 1.2's with dilation), each with a
# signed per-tensor filter and a per-channel one.
def signed_forms(i, f, b, o, in_zp, filter_zp, out_scale, out_zp, channel_scales):
    per_tensor = DataTypeConverter(name="signed").Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, in_zp),
        f: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, filter_zp),
        b: ("TENSOR_INT32", 0.125, 0),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", out_scale, out_zp),
    })
    per_channel = DataTypeConverter(name="signed_per_channel").Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, in_zp),
        f: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=channel_scales)),
        b: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.5 * s for s in channel_scales], hide=True)),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", out_scale, out_zp),
    })
    return per_tensor, per_channel


# 3. Case 1 without the layout input (implicit SAME, stride 1, NHWC).
i3 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
f3 = Parameter("filter", "TENSOR_FLOAT32", "{2, 3, 3, 2}", [
    0.75, 0.0, 1.0, 0.25, -0.5, 0.5, -1.0, 0.25, 0.75, 0.0, 0.75, -0.25, 1.0, -1.0,
    -0.5, 0.75, 0.25, -0.5, 0.25, -0.25, -1.0, -0.25, -0.75, 1.0, 0.25, 0.5, -0.75,
    -1.0, -1.0, 1.0, -0.25, -0.75, 0.5, 0.75, -0.75, 0.5
])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.75, -1.5])
o3 = Output("output", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
Model("same_no_layout").Operation("CONV_2D", i3, f3, b3, 1, 1, 1, 0).To(o3)
Example({
    i3: [3, 4, 3, 3, 4, -1, -2, 4, 3, -2, -3, 3, 0, -2, -3, 4, -4, 2],
    o3: [
        10.25, -9.0, -7.0, -7.75, 10.25, 0.25, 1.75, -9.5, 11.0, 4.75, -2.5, -9.0, -6.0,
        4.25, -1.5, 3.0, 1.75, 4.25
    ],
}).AddVariations(*signed_forms(i3, f3, b3, o3, 37, -9, 0.125, -20, [0.125, 0.25]),
                 includeDefault=False)

# 4. Case 2 without the layout input (explicit pads, stride 2, NHWC).
i4 = Input("input", "TENSOR_FLOAT32", "{2, 4, 5, 1}")
f4 = Parameter("filter", "TENSOR_FLOAT32", "{3, 2, 3, 1}", [
    -0.75, 1.0, -0.25, 0.0, 0.0, 0.0, -0.75, 0.75, 0.0, 0.75, 0.5, 0.5, -0.75, 0.0,
    -0.25, 0.25, 0.25, 0.0
])
b4 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.25, 0.0, -0.5])
o4 = Output("output", "TENSOR_FLOAT32", "{2, 2, 3, 3}")
Model("explicit_no_layout").Operation("CONV_2D", i4, f4, b4, 1, 1, 0, 1, 2, 2, 0).To(o4)
Example({
    i4: [
        0, 0, -2, -1, -2, -1, -2, -2, -3, 4, -1, 0, -4, 2, -2, -4, 0, -2, -3, 0, 3, 2,
        -2, 0, 1, -1, 3, 4, 2, 1, 2, 1, -3, 1, 0, 3, 4, -2, 3, 3
    ],
    o4: [
        0.25, -1.5, -0.75, -1.5, -5.5, -1.25, -1.0, -1.0, 0.5, -0.75, -2.75, -1.5,
        -4.25, -5.5, -1.5, -3.25, -5.25, -2.75, 2.75, 3.25, -1.25, -3.25, 2.25, -0.25,
        1.25, 2.75, 0.25, 2.0, 5.0, 0.0, -3.75, 0.5, -1.0, -0.5, 3.0, 0.25
    ],
}).AddVariations(*signed_forms(i4, f4, b4, o4, -77, 100, 0.0625, 16, [0.25, 0.0625, 0.125]),
                 includeDefault=False)

# 5. [1, 5, 5, 1] * [2, 2, 2, 1] with dilation 2 both ways (a 3x3 reach), implicit SAME
#    (pads 1 on every side), stride 1 (oracle case conv_dilated_same).
layout5 = BoolScalar("layout", False)
i5 = Input("input", "TENSOR_FLOAT32", "{1, 5, 5, 1}")
f5 = Parameter("filter", "TENSOR_FLOAT32", "{2, 2, 2, 1}", [0.25, 0.75, 0.75, 0.0, 0.5, -0.25, 0.75, -1.0])
b5 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [-0.75, 0.5])
o5 = Output("output", "TENSOR_FLOAT32", "{1, 5, 5, 2}")
Model("same_dilated").Operation("CONV_2D", i5, f5, b5, 1, 1, 1, 0, layout5, 2, 2).To(o5)
Example({
    i5: [
        -1, -4, 4, -4, -2, -1, -4, -4, -2, 1, -1, -3, 1, 3, 1, 0, 2, 0, 1, -1, -1, 1, 1,
        -1, 0
    ],
    o5: [
        -0.75, 4.5, -1.5, 3.75, -3.75, -0.5, -3.75, -3.5, -2.25, -1.0, -3.75, 4.5, 1.25,
        -2.75, -7.0, -5.75, -0.5, 2.75, 0.5, 0.75, -3.75, -0.5, -4.0, 1.0, -1.75, -0.5,
        -1.0, -0.75, -0.5, 0.25, -3.0, 0.25, -1.0, -2.0, 1.5, 0.0, 1.0, 1.5, -0.75,
        1.25, 0.75, 0.0, -0.75, 0.5, 0.5, 1.25, -1.5, 0.75, -0.5, 1.0
    ],
}).AddNchw(i5, o5, layout5).AddVariations(
    *signed_forms(i5, f5, b5, o5, -100, 50, 0.125, 90, [0.25, 0.125]), includeDefault=False)

# 6. [1, 4, 4, 2] * [1, 2, 2, 2], explicit pads left 0, right 1, top 1, bottom 0,
#    stride 1, dilation 2 across and 1 down: output [1, 4, 3, 1] (oracle case
#    conv_dilated_explicit).
layout6 = BoolScalar("layout", False)
i6 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
f6 = Parameter("filter", "TENSOR_FLOAT32", "{1, 2, 2, 2}", [-0.5, -0.75, 0.75, 0.25, -0.25, -0.25, 0.75, 0.75])
b6 = Parameter("bias", "TENSOR_FLOAT32", "{1}", [1.5])
o6 = Output("output", "TENSOR_FLOAT32", "{1, 4, 3, 1}")
Model("explicit_dilated").Operation("CONV_2D", i6, f6, b6, 0, 1, 1, 0, 1, 1, 0, layout6, 2, 1).To(o6)
Example({
    i6: [
        4, 2, 0, 1, 0, -2, 4, 0, -3, -4, -1, 2, 2, 0, 4, 1, 2, -2, 4, -4, -2, -1, -2, 4,
        4, -1, 1, 4, -3, -3, 0, 2
    ],
    o6: [-1.5, 4.25, 2.0, 0.75, 7.25, 2.5, 5.25, 5.25, 1.25, -5.0, 2.25, 4.75],
}).AddNchw(i6, o6, layout6).AddVariations(
    *signed_forms(i6, f6, b6, o6, 12, -128 + 4, 0.25, -100, [0.0625]), includeDefault=False)
