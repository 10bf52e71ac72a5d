# TRANSPOSE_CONV_2D (HAL 1.2): explicit pads (a negative one included), implicit SAME and
# VALID with a requested output shape, layouts, float16, relaxed, quant8 and per-channel
# quant8 (channelDim 0).
# Golden values: conformance/specs/oracles/convolution_oracle.py (plain loops over the
# scatter form in docs/operations.md, TRANSPOSE_CONV_2D (91)), cases named below. Inputs
# are multiples of 0.5 and filters multiples of 0.25: outputs are multiples of 0.125,
# exact in float16 and at the quant8 output scales 0.125 and 0.0625, where every
# multiplier (per channel too) is a power of two: no quant8 golden depends on how a
# driver rounds (scripts/quant_ties.py finds goldens rounded from a tie).

# 1. Explicit pads left 1, right -1, top 0, bottom 1, stride 2 across and 1 down, a 3x2
#    filter (oracle case transpose_explicit): out H = (2 - 1) * 1 + 3 - 0 - 1 = 3,
#    out W = (3 - 1) * 2 + 2 - 1 + 1 = 6 (the negative pad adds a bias-only column).
layout1 = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
f1 = Parameter("filter", "TENSOR_FLOAT32", "{3, 3, 2, 2}", [
    1.0, -0.75, 0.5, -0.25, 1.0, 0.25, 0.25, 1.0, 0.5, 0.5, 0.5, 1.0, 0.75, 0.0, 0.0, -1.0,
    0.0, 0.25, 0.0, 0.75, -0.75, 1.0, 0.75, -1.0, 1.0, -0.75, 1.0, 0.0, 1.0, -0.5, -1.0,
    -0.25, 1.0, 0.75, 0.0, -0.25
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [0.5, -0.25, 0.0])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 3, 6, 3}")
Model("explicit").Operation("TRANSPOSE_CONV_2D", i1, f1, b1, 1, -1, 0, 1, 2, 1, 0, layout1).To(o1)

quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})
channel_quant8_1 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.125, 0.0625])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.0625, 0.03125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})

Example({
    i1: [-0.5, -2.5, -1.5, 1.5, 3.0, 3.0, -1.5, -3.0, -2.0, 1.0, 2.0, -1.5],
    o1: [
        0.875, 2.25, -0.5, -2.125, -1.375, -2.625, -0.625, -1.75, -1.5, 1.25, 2.0, 0.75,
        1.25, -3.25, 3.0, 0.5, -0.25, 0.0, -2.125, 0.875, -0.375, -3.375, -1.375, -5.0,
        0.375, -0.125, -0.875, 7.375, 2.0, 4.625, 5.625, 3.5, -1.75, 0.5, -0.25, 0.0,
        -5.625, -0.375, 2.875, -1.25, 2.625, -2.875, 1.75, -2.125, 1.375, 5.125, 0.125, 8.0,
        4.0, -2.125, -2.375, 0.5, -0.25, 0.0
    ],
}).AddNchw(i1, o1, layout1).AddInput(f1, b1).AddVariations("relaxed", quant8_1, channel_quant8_1, "float16")

# 2. Implicit SAME, stride 2, requested output 4x4, batch 2 (oracle case
#    transpose_same_stride2): t = (ceil(4 / 2) - 1) * 2 + 3 = 5, so pads 0 before and
#    1 after, and out = (2 - 1) * 2 + 3 - 1 = 4. Quant8 multiplier 2 (valid since 1.2).
layout2 = BoolScalar("layout", False)
i2 = Input("input", "TENSOR_FLOAT32", "{2, 2, 2, 1}")
f2 = Parameter("filter", "TENSOR_FLOAT32", "{2, 3, 3, 1}", [
    1.0, -0.75, 0.5, -0.25, 1.0, 0.25, 0.25, 1.0, 0.5, 0.5, 0.5, 1.0, 0.75, 0.0, 0.0, -1.0,
    0.0, 0.25
])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.25, -0.5])
s2 = Int32Vector("shape", [2, 4, 4, 2])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 4, 4, 2}")
Model("same").Operation("TRANSPOSE_CONV_2D", i2, f2, b2, s2, 1, 2, 2, 0, layout2).To(o2)

quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f2: ("TENSOR_QUANT8_ASYMM", 0.25, 140),
    b2: ("TENSOR_INT32", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})
channel_quant8_2 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    f2: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 0.25])),
    b2: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.0625, 0.125], hide=True)),
    o2: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
})

Example({
    i2: [-0.5, -2.5, -1.5, 1.5, 3.0, 3.0, -1.5, -3.0],
    o2: [
        -0.25, -0.75, 0.625, -0.75, -2.5, -2.25, 2.125, -1.75, 0.375, -0.875, -0.25, -0.5,
        0.75, -2.375, -2.25, -0.5, -1.375, -0.75, 0.875, -1.25, 0.125, 1.125, -3.375, 0.25,
        0.625, -1.625, -1.25, -0.5, -0.5, 0.625, 1.75, -0.5, 3.25, 1.0, -2.0, 1.0, 4.75,
        4.0, -2.0, 1.0, -0.5, 1.75, 3.25, -0.5, 0.25, 1.75, 3.25, -0.5, -0.5, -4.25, 4.375,
        -1.25, -1.25, -5.75, 5.5, -2.0, 0.625, -1.625, -1.25, -0.5, 0.625, -2.75, -2.75,
        -0.5
    ],
}).AddNchw(i2, o2, s2, layout2).AddVariations("relaxed", quant8_2, channel_quant8_2, "float16")

# 3. Implicit VALID, stride 2, every fused activation (oracle case transpose_valid_stride2):
#    no padding, out = (2 - 1) * 2 + 3 = 5; the requested shape plays no part.
layout3 = BoolScalar("layout", False)
i3 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
f3 = Parameter("filter", "TENSOR_FLOAT32", "{1, 3, 3, 2}", [
    1.0, -0.75, 0.5, -0.25, 1.0, 0.25, 0.25, 1.0, 0.5, 0.5, 0.5, 1.0, 0.75, 0.0, 0.0, -1.0,
    0.0, 0.25
])
b3 = Parameter("bias", "TENSOR_FLOAT32", "{1}", [0.5])
s3 = Int32Vector("shape", [1, 5, 5, 1])
act3 = Int32Scalar("act", 0)
o3 = Output("output", "TENSOR_FLOAT32", "{1, 5, 5, 1}")
Model("valid").Operation("TRANSPOSE_CONV_2D", i3, f3, b3, s3, 2, 2, 2, act3, layout3).To(o3)

quant8_3 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    f3: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b3: ("TENSOR_INT32", 0.125, 0),
    o3: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
})

Example({
    i3: [-0.5, -2.5, -1.5, 1.5, 3.0, 3.0, -1.5, -3.0],
    o3: [
        1.875, 0.875, -3.25, -0.625, -0.625, -2.125, -1.0, -1.125, 0.5, 1.25, 0.875, 3.75,
        3.25, -1.0, -1.375, 4.25, 3.5, 1.625, -1.75, -3.25, 2.75, -2.5, 0.125, 3.5, -0.25
    ],
}).AddAllActivations(o3, act3).AddVariations(quant8_3, "float16")
