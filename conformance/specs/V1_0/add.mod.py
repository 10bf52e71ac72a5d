# ADD with broadcasting ([2, 2] + [2]) and every fused activation.
# out = a + b row by row: [1.0+0.5, -2.5-1.0, 3.0+0.5, 4.5-1.0] = [1.5, -3.5, 3.5, 3.5].
# RELU clamps at 0, RELU1 to [-1, 1], RELU6 to [0, 6] (the activation converter
# clamps the expected values).
a = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b = Input("b", "TENSOR_FLOAT32", "{2}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("ADD", a, b, act).To(out)

# Quantized: a at scale 0.5 zp 10 -> [12, 5, 16, 19]; b at 0.25 zp 8 -> [10, 4];
# out at scale 1.0 zp 50.
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    b: ("TENSOR_QUANT8_ASYMM", 0.25, 8),
    out: ("TENSOR_QUANT8_ASYMM", 1.0, 50),
})

Example({
    a: [1.0, -2.5, 3.0, 4.5],
    b: [0.5, -1.0],
    out: [1.5, -3.5, 3.5, 3.5],
}).AddVariations(quant8).AddAllActivations(out, act)

# Same shapes, one constant operand: b given as a parameter, then as an input.
c = Parameter("c", "TENSOR_FLOAT32", "{2, 2}", [10.0, 20.0, -30.0, 0.25])
x = Input("x", "TENSOR_FLOAT32", "{2, 2}")
y = Output("y", "TENSOR_FLOAT32", "{2, 2}")
Model("constant").Operation("ADD", x, c, 0).To(y)
# [1+10, 2+20, 3-30, 4+0.25]
Example({x: [1.0, 2.0, 3.0, 4.0], y: [11.0, 22.0, -27.0, 4.25]}).AddInput(c)
