# RELU6 in HAL 1.2: TENSOR_FLOAT16 and relaxed float32, plus quant8 (scale
# 0.5, zero point 64 in and out: bytes clamped to [64, 76]), at every rank
# from 4 down to 1 (AddAllDims). min(6, max(0, x)) by hand;
# conformance/specs/oracles/unary_oracle.py checks the quantized data.
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model().Operation("RELU6", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.5, 64),
    o: ("TENSOR_QUANT8_ASYMM", 0.5, 64),
})
Example({
    i: [-4.0, 3.5, -1.5, 0.0, 1.5, 6.0, 7.5, 5.5,
        2.0, -2.5, 0.5, 6.5, -0.5, 10.0, -31.5, 31.5],
    o: [0.0, 3.5, 0.0, 0.0, 1.5, 6.0, 6.0, 5.5,
        2.0, 0.0, 0.5, 6.0, 0.0, 6.0, 0.0, 6.0],
}).AddAllDims(i, o).AddVariations("relaxed", "float16", quant8)
