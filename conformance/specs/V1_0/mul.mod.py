# MUL with broadcasting ([2, 2] * [2]) and every fused activation.
# out = a * b row by row: [2.0*1.5, -1.0*-2.0, 0.5*1.5, 3.0*-2.0] = [3.0, 2.0, 0.75, -6.0].
a = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b = Input("b", "TENSOR_FLOAT32", "{2}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("MUL", a, b, act).To(out)

# Quantized: a at scale 0.5 zp 100 -> [104, 98, 101, 106]; b at 0.25 zp 100 -> [106, 92];
# out scale 0.25 must exceed 0.5 * 0.25; at zp 100 -> [112, 108, 103, 76], every value
# exact (multiplier 0.5; at scale 0.5, 0.75 would be the tie 101.5, which the generator
# rounds half to even). RELU1 clamps to [96, 104], RELU6 to [100, 124].
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    b: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    out: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})

Example({
    a: [2.0, -1.0, 0.5, 3.0],
    b: [1.5, -2.0],
    out: [3.0, 2.0, 0.75, -6.0],
}).AddVariations(quant8).AddAllActivations(out, act)

# Broadcasting across ranks in both directions: [2, 1, 2] * [3, 1] -> [2, 3, 2]
# (oracle: conformance/specs/oracles/elementwise_oracle.py, "V1_0/mul ranks").
# out[i][j][k] = p[i][0][k] * q[j][0]: p = [[1, 2]], [[-3, 0.5]], q = [2, -1, 0.5]:
# [2, 4, -1, -2, 0.5, 1], [-6, 1, 3, -0.5, -1.5, 0.25].
# Quant8: p at 0.5 zp 128, q at 0.25 zp 100, r at 0.25 (> 0.5 * 0.25) zp 128: the
# multiplier 0.125 / 0.25 = 0.5 is exact, r = [136, 144, 124, 120, 130, 132, 104, 132,
# 140, 126, 122, 129].
p = Input("p", "TENSOR_FLOAT32", "{2, 1, 2}")
q = Input("q", "TENSOR_FLOAT32", "{3, 1}")
r = Output("r", "TENSOR_FLOAT32", "{2, 3, 2}")
Model("ranks").Operation("MUL", p, q, 0).To(r)
quant8_ranks = DataTypeConverter().Identify({
    p: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    q: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    r: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
})
Example({
    p: [1.0, 2.0, -3.0, 0.5],
    q: [2.0, -1.0, 0.5],
    r: [2.0, 4.0, -1.0, -2.0, 0.5, 1.0, -6.0, 1.0, 3.0, -0.5, -1.5, 0.25],
}).AddVariations(quant8_ranks)

# Quant8 written directly, scales not powers of two (oracle, "V1_0/mul different
# scales"): qa is 0.2 * (q - 10) = [0, 2, 5, -2], qb is 0.15 * q = [6, 3, 0, 15];
# products [0, 6, 0, -30] at scale 0.04 (> 0.2 * 0.15) zp 5 are [5, 155, 5, -745 -> 0].
qa = Input("qa", ("TENSOR_QUANT8_ASYMM", [2, 2], 0.2, 10))
qb = Input("qb", ("TENSOR_QUANT8_ASYMM", [2, 2], 0.15, 0))
qo = Output("qo", ("TENSOR_QUANT8_ASYMM", [2, 2], 0.04, 5))
Model("quant8_scales").Operation("MUL", qa, qb, 0).To(qo)
Example({qa: [10, 20, 35, 0], qb: [40, 20, 0, 100], qo: [5, 155, 5, 0]})
