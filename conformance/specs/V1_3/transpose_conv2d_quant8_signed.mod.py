# TRANSPOSE_CONV_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3): a signed
# per-tensor filter (zero points 0, -2, -6 and 119) or a per-channel
# TENSOR_QUANT8_SYMM_PER_CHANNEL one (channelDim 0), INT32 bias, explicit pads and
# implicit SAME with a requested output shape, stride 2, NHWC and NCHW, every fused
# activation. Outputs beyond the output range saturate at -128 (zero point -120) and at
# 127 (zero point 110).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases transpose_conv and
# transpose_conv_same. Inputs are whole numbers (scale 0.5), filters multiples of 0.25,
# biases of 0.25: every output is a multiple of 0.25, exact at the output scales 0.25 and
# 0.125, so no quantized golden depends on how a driver rounds.

# 1. [1, 2, 2, 2] with a [2, 3, 3, 2] filter, stride 2, pads left 1, right 0, top 1,
#    bottom 0: out H = out W = (2 - 1) * 2 + 3 - 1 = 4.
layout = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{2, 3, 3, 2}", [
    -0.75, -1.0, 0.0, -0.25, -0.25, -0.5, -0.75, 1.0, -0.75, 0.5, -1.0, -1.0, -0.75,
    -0.25, -0.25, 1.0, -1.0, 1.0, -0.25, 1.0, 0.5, -0.25, 0.75, 0.0, -1.0, -0.5, 0.5,
    0.25, 0.0, -0.5, -0.25, 0.25, -0.75, -0.75, 0.5, -0.75
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.5, -0.75])
act = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model().Operation("TRANSPOSE_CONV_2D", i1, f1, b1, 1, 0, 1, 0, 2, 2, act, layout).To(o1)

signed_a = DataTypeConverter(name="signed_zp0").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 1),
})
signed_b = DataTypeConverter(name="signed_low").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 119),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -6),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -120),
})
signed_c = DataTypeConverter(name="signed_high").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 119),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 110),
})
signed_pc = DataTypeConverter(name="signed_per_channel").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -30),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.25])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.03125, 0.125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 30),
})

Example({
    i1: [2, 1, -1, -2, 2, 0, 4, 0],
    o1: [
        -0.5, 0.5, -3.75, 0.75, 0.25, -1.75, 3.5, 0.25, 1.0, -2.0, -2.75, -0.25, -1.25,
        3.5, -1.5, 3.25, -1.0, 0.25, -4.5, -4.75, -2.5, 1.25, -3.5, -0.75, 0.0, -2.25,
        -4.5, -0.75, -0.5, -3.75, -3.5, 1.25
    ],
}).AddNchw(i1, o1, layout).AddAllActivations(o1, act).AddInput(f1, b1).AddVariations(
    signed_a, signed_b, signed_c, signed_pc, includeDefault=False)

# 2. Implicit SAME with a requested output shape [1, 4, 6, 2]: [1, 2, 3, 1] with a
#    [2, 3, 3, 1] filter, stride 2; t = (ceil(4 / 2) - 1) * 2 + 3 = 5 rows and
#    (ceil(6 / 2) - 1) * 2 + 3 = 7 columns, so pads 0 before and 1 after on both axes
#    (oracle case transpose_conv_same).
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 1}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{2, 3, 3, 1}", [
    0.5, 1.0, 1.0, -0.75, -0.5, 0.5, -0.25, 0.0, -1.0, -0.25, -0.75, -1.0, -0.75, -0.5,
    1.0, 0.0, 0.5, 0.5
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [-0.25, 1.0])
s2 = Int32Vector("shape", [1, 4, 6, 2])
o2 = Output("output", "TENSOR_FLOAT32", "{1, 4, 6, 2}")
Model("same").Operation("TRANSPOSE_CONV_2D", i2, f2, b2, s2, 1, 2, 2, 0, layout2).To(o2)
same_signed = DataTypeConverter(name="signed").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 115),
    f2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -2),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -70),
})
same_signed_pc = DataTypeConverter(name="signed_per_channel").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 115),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
})
Example({
    i2: [-4, 0, -2, 3, 1, -3],
    o2: [
        -2.25, 2.0, -4.25, 4.0, -4.25, 5.0, -0.25, 1.0, -1.25, 1.5, -2.25, 2.5, 2.75,
        4.0, 1.75, 3.0, -2.25, -3.0, -0.25, 1.0, 1.25, 2.5, 0.75, 2.0, 2.25, 0.25, 2.75,
        -3.25, 7.25, -4.25, 0.75, 0.25, -0.25, 0.75, -3.25, 2.25, -2.5, -1.25, -1.75,
        -0.5, 0.5, 3.25, -0.75, 0.5, 2.5, 4.25, 1.25, 2.5
    ],
}).AddNchw(i2, o2, s2, layout2).AddVariations(same_signed, same_signed_pc, includeDefault=False)
