# CONV_2D, implicit VALID padding, stride 1, with the layout input (HAL 1.2).
# Golden values: conformance/specs/oracles/conv2d_oracle.py (naive loops), e.g.
# out[0,0,0,0] = 1.0 + (0.5*1.0 + 1.0*-0.5 + 1.5*0.5 + 2.0*0.0
#                      + 3.5*-1.0 + 4.0*1.5 + 4.5*0.5 + 5.0*-0.5) = 4.0.
# Every value is a multiple of the quantized scales below, so quant8 data is exact.
layout = BoolScalar("layout", False)  # NHWC
i1 = Input("op1", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
f1 = Parameter("op2", "TENSOR_FLOAT32", "{2, 2, 2, 2}", [
    1.0, -0.5, 0.5, 0.0, -1.0, 1.5, 0.5, -0.5,
    0.25, 0.5, -0.25, 0.75, 0.0, -0.5, 1.0, 0.25])
b1 = Parameter("op3", "TENSOR_FLOAT32", "{2}", [1.0, -0.5])
o1 = Output("op4", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model().Operation("CONV_2D", i1, f1, b1, 2, 1, 1, 0, layout).To(o1)

# Filter scale 0.25 (zero point 128), bias scale 0.5 * 0.25 = 0.125.
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    f1: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
# Per-channel filter: output channel 0 at scale 0.5, channel 1 at 0.25; the bias
# uses input scale x channel scale = 0.25 and 0.125 per channel.
channel_quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    f1: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.5, 0.25])),
    b1: ("TENSOR_INT32", 0.0, 0, SymmPerChannelQuantParams(channelDim=0, scales=[0.25, 0.125], hide=True)),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})

Example({
    i1: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0,
         3.5, 4.0, 4.5, 5.0, 5.5, 6.0,
         6.5, 7.0, 7.5, 8.0, 8.5, 9.0],
    o1: [4.0, 5.0, 5.5, 7.0, 8.5, 11.0, 10.0, 13.0],
}).AddNchw(i1, o1, layout).AddInput(f1, b1).AddVariations("relaxed", quant8, channel_quant8, "float16")
