# TANH in HAL 1.2: TENSOR_FLOAT16, relaxed float32 and TENSOR_QUANT8_ASYMM
# (new in 1.2; output fixed at scale 1/128, zero point 128:
# out_q = 128 + round(128 * tanh(x)), 256 saturating to 255). Golden values:
# conformance/specs/oracles/unary_oracle.py (math.tanh in float64); it also
# checks the quantized expectations against the generator's quantization.

# Input scale 1/16, zero point 128: 128 + 128*tanh = [0.00003, 4.61, 57.01,
# 112.08, 128, 173.87, 225.48, 255.99] -> [0, 5, 57, 112, 128, 174, 225, 255].
i = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("TANH", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
    o: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 128),
})
Example({
    i: [-8.0, -2.0, -0.625, -0.125, 0.0, 0.375, 1.0, 7.9375],
    o: [-0.999999775, -0.96402758, -0.554599722, -0.124353002,
        0.0, 0.358357398, 0.761594156, 0.999999745],
}).AddVariations("relaxed", "float16", quant8)

# Input scale 0.5, zero point 80: -40 and 87.5 lie beyond the saturation
# radius -> [0, 0, 12, 128, 254, 255].
i2 = Input("in", "TENSOR_FLOAT32", "{1, 6}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 6}")
Model("offset").Operation("TANH", i2).To(o2)
quant8_offset = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 80),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 128),
})
Example({
    i2: [-40.0, -8.0, -1.5, 0.0, 2.5, 87.5],
    o2: [-1.0, -0.999999775, -0.905148254, 0.0, 0.986614298, 1.0],
}).AddVariations("float16", quant8_offset)
