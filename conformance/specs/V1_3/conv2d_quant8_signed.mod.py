# CONV_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3): a signed per-tensor
# filter (zero points 0 and nonzero) or a per-channel TENSOR_QUANT8_SYMM_PER_CHANNEL one,
# INT32 bias at input scale x filter scale, implicit SAME and explicit padding, stride 2,
# NHWC and NCHW, every fused activation, filter and bias as inputs.
# Zero points from -124 to 119, at both ends of the int8 range; outputs beyond the output
# range saturate at -128 (zero point -100) and at 127 (zero points 80 and 60).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases conv_same and
# conv_explicit_stride2. Inputs are whole numbers (scale 0.5), filters multiples of 0.25,
# biases of 0.25: every output is a multiple of 0.25, exact at the output scales 0.25,
# 0.125 and 0.0625 (multipliers 0.5, 1 and 2, powers of two per channel too), so no
# quantized golden depends on how a driver rounds.

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
