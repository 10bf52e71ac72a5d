# MUL in HAL 1.2: broadcasting a [2, 2] by a scalar-like [1], relaxed and float16.
# [1.5, -2.0, 0.0, 3.25] * 2.0 = [3.0, -4.0, 0.0, 6.5]: each exact in float16.
a = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b = Input("b", "TENSOR_FLOAT32", "{1}")
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("MUL", a, b, 0).To(out)

Example({
    a: [1.5, -2.0, 0.0, 3.25],
    b: [2.0],
    out: [3.0, -4.0, 0.0, 6.5],
}).AddVariations("relaxed", "float16")
