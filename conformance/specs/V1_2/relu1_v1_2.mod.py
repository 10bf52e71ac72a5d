# RELU1 in HAL 1.2: TENSOR_FLOAT16 and relaxed float32, plus quant8 (scale
# 0.25, zero point 128 in and out: bytes clamped to [124, 132]), at every
# rank from 4 down to 1 (AddAllDims). min(1, max(-1, x)) by hand;
# conformance/specs/oracles/unary_oracle.py checks the quantized data.
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model().Operation("RELU1", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    o: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
})
Example({
    i: [-4.0, 0.75, -0.25, 0.0, 1.25, -1.0, 1.0, -0.75,
        2.0, -2.5, 0.5, 6.5, -0.5, 10.0, -31.5, 0.25],
    o: [-1.0, 0.75, -0.25, 0.0, 1.0, -1.0, 1.0, -0.75,
        1.0, -1.0, 0.5, 1.0, -0.5, 1.0, -1.0, 0.25],
}).AddAllDims(i, o).AddVariations("relaxed", "float16", quant8)
