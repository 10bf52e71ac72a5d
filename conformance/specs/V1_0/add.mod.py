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
# out at scale 0.5 zp 50 -> [53, 43, 57, 57], every value exact (at scale 1.0 the sums
# 1.5, -3.5, 3.5 would be ties, which the generator rounds half to even).
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    b: ("TENSOR_QUANT8_ASYMM", 0.25, 8),
    out: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
})

# A second feed of the same model, so a driver can be given new input values in the
# very same memory (the burst reuse test): [-1.0+2.0, 0.5+0.5, 2.0+2.0, -3.5+0.5]
# = [1.0, 1.0, 4.0, -3.0]. Quant8: a -> [8, 11, 14, 3], b -> [16, 10], out -> [52, 52,
# 58, 44], every value exact; RELU gives [1, 1, 4, 0], RELU1 [1, 1, 1, -1].
Example({
    a: [1.0, -2.5, 3.0, 4.5],
    b: [0.5, -1.0],
    out: [1.5, -3.5, 3.5, 3.5],
}, {
    a: [-1.0, 0.5, 2.0, -3.5],
    b: [2.0, 0.5],
    out: [1.0, 1.0, 4.0, -3.0],
}).AddVariations(quant8).AddAllActivations(out, act)

# Same shapes, one constant operand: b given as a parameter, then as an input.
c = Parameter("c", "TENSOR_FLOAT32", "{2, 2}", [10.0, 20.0, -30.0, 0.25])
x = Input("x", "TENSOR_FLOAT32", "{2, 2}")
y = Output("y", "TENSOR_FLOAT32", "{2, 2}")
Model("constant").Operation("ADD", x, c, 0).To(y)
# [1+10, 2+20, 3-30, 4+0.25]
Example({x: [1.0, 2.0, 3.0, 4.0], y: [11.0, 22.0, -27.0, 4.25]}).AddInput(c)

# Rank 4 plus rank 1, with a quantized output that saturates at both ends
# (oracle: conformance/specs/oracles/elementwise_oracle.py, "V1_0/add saturation").
# [-10, 2.5, 20, 100] + 1.5 = [-8.5, 4.0, 21.5, 101.5]. Quant8: p at scale 0.5 zp 20
# -> [0, 25, 60, 220], q at 0.125 zp 0 -> [12]; r at 0.25 zp 30 -> [-34 + 30 -> 0, 46,
# 116, 406 + 30 -> 255]. Every multiplier is a power of two: the fixed point is exact.
p = Input("p", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
q = Input("q", "TENSOR_FLOAT32", "{1}")
r = Output("r", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("saturation").Operation("ADD", p, q, 0).To(r)
quant8_saturation = DataTypeConverter().Identify({
    p: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
    q: ("TENSOR_QUANT8_ASYMM", 0.125, 0),
    r: ("TENSOR_QUANT8_ASYMM", 0.25, 30),
})
Example({
    p: [-10.0, 2.5, 20.0, 100.0],
    q: [1.5],
    r: [-8.5, 4.0, 21.5, 101.5],
}).AddVariations(quant8_saturation)

# Quant8 written directly, with scales that are not powers of two (oracle,
# "V1_0/add different scales"): qa is 0.3 * (q - 7) = [0, 3, 6, 30], qb is
# 0.7 * (q - 3) = [0, 7, 14, 35]; the sums [0, 10, 20, 65] at scale 0.5 zp 10 are
# [10, 30, 50, 140]. RELU1 clamps to [8, 12], RELU6 to [10, 22].
qa = Input("qa", ("TENSOR_QUANT8_ASYMM", [4], 0.3, 7))
qb = Input("qb", ("TENSOR_QUANT8_ASYMM", [4], 0.7, 3))
qact = Int32Scalar("qact", 0)
qo = Output("qo", ("TENSOR_QUANT8_ASYMM", [4], 0.5, 10))
Model("quant8_scales").Operation("ADD", qa, qb, qact).To(qo)
Example({
    qa: [7, 17, 27, 107],
    qb: [3, 13, 23, 53],
    qo: [10, 30, 50, 140],
}).AddAllActivations(qo, qact)
