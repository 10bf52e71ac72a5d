# GROUPED_CONV_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3): a signed
# per-tensor filter (zero points 0, 10, 88 and -124) or a per-channel
# TENSOR_QUANT8_SYMM_PER_CHANNEL one (channelDim 0), INT32 bias, 2 groups, implicit SAME
# and explicit padding, NHWC and NCHW, every fused activation. Outputs beyond the output range saturate at -128
# (zero point -100) and at 127 (zero point 100).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, case grouped. Inputs are
# whole numbers (scale 0.5), filters multiples of 0.25, biases of 0.25: every output is
# a multiple of 0.25, exact at the output scales 0.25 and 0.125 (multipliers 0.5 and 1,
# per channel 0.5 to 2), so no quantized golden depends on how a driver rounds.

# 1. [1, 3, 3, 4] * [4, 2, 2, 2] in 2 groups of 2 input and 2 output channels, implicit
#    SAME with a 2x2 filter (pad 0 before, 1 after on both axes), stride 1: output
#    [1, 3, 3, 4].
layout = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{4, 2, 2, 2}", [
    -0.75, -0.25, -0.5, 0.0, -0.25, 0.75, -1.0, -1.0, -0.75, 0.25, 1.0, 0.25, -1.0, 1.0,
    0.75, 0.25, -1.0, 1.0, -0.5, 1.0, -1.0, 0.75, -0.25, 0.0, -0.25, 0.75, -0.75, 0.25,
    -0.75, -1.0, 1.0, -0.75
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [-0.25, 0.5, 0.0, 1.25])
act = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
Model().Operation("GROUPED_CONV_2D", i1, f1, b1, 1, 1, 1, 2, act, layout).To(o1)

signed_a = DataTypeConverter(name="signed_zp0").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -7),
})
signed_b = DataTypeConverter(name="signed_low").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 10),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -100),
})
signed_c = DataTypeConverter(name="signed_high").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 119),
    f1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -124),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 100),
})
signed_pc = DataTypeConverter(name="signed_per_channel").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 50),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25, 0.0625, 0.25])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125, 0.03125, 0.125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -50),
})

Example({
    i1: [
        -4, 3, -3, 2, -2, -4, -2, -3, 4, -1, -2, -2, -4, -4, -2, -1, 4, 3, 4, 2, -1, -3,
        -3, -4, 2, 1, -1, -1, 1, 2, 1, -1, -1, -1, 2, 4
    ],
    o1: [
        -6.0, 5.0, 3.25, 9.25, 5.5, 2.25, -3.75, -4.5, -5.0, -4.75, 0.0, 6.5, -1.0, 7.5,
        1.0, 2.0, -0.25, -3.5, -6.75, 2.25, 0.75, 0.5, 0.0, -6.5, -2.5, 0.75, -1.5,
        -0.25, -1.0, -1.0, 1.0, -0.25, 0.75, 1.0, 2.0, 3.75
    ],
}).AddNchw(i1, o1, layout).AddAllActivations(o1, act).AddVariations(
    signed_a, signed_b, signed_c, signed_pc, includeDefault=False)

# 2. The same convolution with explicit pads (left 0, right 1, top 0, bottom 1, what SAME
#    gave above).
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{4, 2, 2, 2}", [
    -0.75, -0.25, -0.5, 0.0, -0.25, 0.75, -1.0, -1.0, -0.75, 0.25, 1.0, 0.25, -1.0, 1.0,
    0.75, 0.25, -1.0, 1.0, -0.5, 1.0, -1.0, 0.75, -0.25, 0.0, -0.25, 0.75, -0.75, 0.25,
    -0.75, -1.0, 1.0, -0.75
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [-0.25, 0.5, 0.0, 1.25])
o2 = Output("output", "TENSOR_FLOAT32", "{1, 3, 3, 4}")
Model("explicit").Operation("GROUPED_CONV_2D", i2, f2, b2, 0, 1, 0, 1, 1, 1, 2, 0, layout2).To(o2)
explicit_signed = DataTypeConverter(name="signed").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -44),
    f2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 88),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 6),
})
explicit_signed_pc = DataTypeConverter(name="signed_per_channel").Identify({
    i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -44),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.0625, 0.125, 0.125])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.03125, 0.0625, 0.0625], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 6),
})
Example({
    i2: [
        -4, 3, -3, 2, -2, -4, -2, -3, 4, -1, -2, -2, -4, -4, -2, -1, 4, 3, 4, 2, -1, -3,
        -3, -4, 2, 1, -1, -1, 1, 2, 1, -1, -1, -1, 2, 4
    ],
    o2: [
        -6.0, 5.0, 3.25, 9.25, 5.5, 2.25, -3.75, -4.5, -5.0, -4.75, 0.0, 6.5, -1.0, 7.5,
        1.0, 2.0, -0.25, -3.5, -6.75, 2.25, 0.75, 0.5, 0.0, -6.5, -2.5, 0.75, -1.5,
        -0.25, -1.0, -1.0, 1.0, -0.25, 0.75, 1.0, 2.0, 3.75
    ],
}).AddNchw(i2, o2, layout2).AddVariations(explicit_signed, explicit_signed_pc, includeDefault=False)
