# DEPTHWISE_CONV_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3): a signed
# per-tensor filter (zero points 0, -5 and 120) or a per-channel TENSOR_QUANT8_SYMM_PER_CHANNEL
# one (channelDim 3), INT32 bias, depth multiplier 2, explicit pads, NHWC and NCHW, every
# fused activation. Outputs beyond the output range saturate at -128 (zero point -110)
# and at 127 (zero point 90).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, case depthwise. Inputs are
# whole numbers (scale 0.5), filters multiples of 0.25, biases of 0.25: every output is
# a multiple of 0.25, exact at the output scales 0.25 and 0.125 (multipliers 0.5 and 1,
# per channel 0.5 to 2), so no quantized golden depends on how a driver rounds.

# [1, 3, 3, 2] * [1, 2, 2, 4], multiplier 2, pads left 1, right 0, top 0, bottom 1,
# stride 1: output [1, 3, 3, 4]; output channel 2k + q reads input channel k.
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
