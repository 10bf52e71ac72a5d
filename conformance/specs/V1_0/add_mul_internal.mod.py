# Two operations through an internal operand: t = ADD(a, b); out = MUL(t, c).
# t = [1+2, 3-1, -2+0.5, 4+4] = [3, 2, -1.5, 8]; out = t * c = [6, -1, -3, 2].
a = Input("a", "TENSOR_FLOAT32", "{4}")
b = Input("b", "TENSOR_FLOAT32", "{4}")
c = Input("c", "TENSOR_FLOAT32", "{4}")
t = Internal("t", "TENSOR_FLOAT32", "{4}")
out = Output("out", "TENSOR_FLOAT32", "{4}")
Model().Operation("ADD", a, b, 0).To(t).Operation("MUL", t, c, 0).To(out)

Example({
    a: [1.0, 3.0, -2.0, 4.0],
    b: [2.0, -1.0, 0.5, 4.0],
    c: [2.0, -0.5, 2.0, 0.25],
    out: [6.0, -1.0, -3.0, 2.0],
})
