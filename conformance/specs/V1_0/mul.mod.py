# MUL with broadcasting ([2, 2] * [2]) and every fused activation.
# out = a * b row by row: [2.0*1.5, -1.0*-2.0, 0.5*1.5, 3.0*-2.0] = [3.0, 2.0, 0.75, -6.0].
a = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b = Input("b", "TENSOR_FLOAT32", "{2}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("MUL", a, b, act).To(out)

# Quantized: a at scale 0.5 zp 100 -> [104, 98, 101, 106]; b at 0.5 zp 100 -> [103, 96];
# out scale 0.5 must exceed 0.5 * 0.5; at zp 100 -> [106, 104, 101.5 -> 102, 88].
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    b: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    out: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})

Example({
    a: [2.0, -1.0, 0.5, 3.0],
    b: [1.5, -2.0],
    out: [3.0, 2.0, 0.75, -6.0],
}).AddVariations(quant8).AddAllActivations(out, act)
