# SUB in HAL 1.2: float16 and quant8 (both new in 1.2), broadcasting the first
# operand, and quant8 with three different scales.
# Oracle: conformance/specs/oracles/elementwise_oracle.py ("V1_2/sub_v1_2 ...").

# [2] - [2, 2]: a = [1, 2] against each row of b = [[0.5, 3], [-1, 2]]:
# [1 - 0.5, 2 - 3, 1 + 1, 2 - 2] = [0.5, -1, 2, 0].
# Quant8: a at 0.5 zp 120 -> [122, 124]; b at 0.25 zp 140 -> [142, 152, 136, 148];
# out at 0.125 zp 100 -> [104, 92, 116, 100] (power-of-two multipliers: exact).
a = Input("a", "TENSOR_FLOAT32", "{2}")
b = Input("b", "TENSOR_FLOAT32", "{2, 2}")
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("SUB", a, b, 0).To(out)
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 120),
    b: ("TENSOR_QUANT8_ASYMM", 0.25, 140),
    out: ("TENSOR_QUANT8_ASYMM", 0.125, 100),
})
Example({
    a: [1.0, 2.0],
    b: [0.5, 3.0, -1.0, 2.0],
    out: [0.5, -1.0, 2.0, 0.0],
}).AddVariations("relaxed", "float16", quant8)

# Quant8 written directly, each operand at its own scale (not powers of two):
# qa is 0.2 * (q - 50) = [-10, 0, 10, 41], qb is 0.3 * (q - 10) = [0, -3, 12, 57];
# qa - qb = [-10, 3, -2, -16], at scale 0.5 zp 128: [108, 134, 124, 96].
# The activation applies after the subtraction: RELU -> [128, 134, 128, 128],
# RELU1 (bytes 126..130) -> [126, 130, 126, 126], RELU6 (128..140) -> RELU's.
qa = Input("qa", ("TENSOR_QUANT8_ASYMM", [4], 0.2, 50))
qb = Input("qb", ("TENSOR_QUANT8_ASYMM", [4], 0.3, 10))
qact = Int32Scalar("qact", 0)
qo = Output("qo", ("TENSOR_QUANT8_ASYMM", [4], 0.5, 128))
Model("quant8_scales").Operation("SUB", qa, qb, qact).To(qo)
Example({
    qa: [0, 50, 100, 255],
    qb: [10, 0, 50, 200],
    qo: [108, 134, 124, 96],
}).AddAllActivations(qo, qact)
