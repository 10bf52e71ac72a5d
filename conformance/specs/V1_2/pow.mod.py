# POW (HAL 1.2): base ** exponent with broadcasting; float32, relaxed, float16.
# Oracle: conformance/specs/oracles/elementwise_oracle.py ("V1_2/pow ...").

# A constant exponent of shape [1] (then the same as a model input), squaring:
# [2, -3, 0.5, 4, 0, 1.5] ** 2 = [4, 9, 0.25, 16, 0, 2.25]. A negative base with an
# integer exponent is defined.
base = Input("base", "TENSOR_FLOAT32", "{2, 3}")
exponent = Parameter("exponent", "TENSOR_FLOAT32", "{1}", [2.0])
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("POW", base, exponent).To(out)
Example({
    base: [2.0, -3.0, 0.5, 4.0, 0.0, 1.5],
    out: [4.0, 9.0, 0.25, 16.0, 0.0, 2.25],
}).AddInput(exponent).AddVariations("relaxed", "float16")

# Both operands broadcast: [2, 1] ** [1, 3] -> [2, 3], out[i][j] = x[i] ** e[j] with
# x = [2, -2], e = [0, 3, -1]: [1, 8, 0.5], [1, -8, -0.5].
x = Input("x", "TENSOR_FLOAT32", "{2, 1}")
e = Input("e", "TENSOR_FLOAT32", "{1, 3}")
y = Output("y", "TENSOR_FLOAT32", "{2, 3}")
Model("broadcast").Operation("POW", x, e).To(y)
Example({
    x: [2.0, -2.0],
    e: [0.0, 3.0, -1.0],
    y: [1.0, 8.0, 0.5, 1.0, -8.0, -0.5],
}).AddVariations("relaxed", "float16")

# Edge values: 0 ** 0 = 1, 0 ** -1 = +inf, 4 ** 0.5 = 2, 9 ** -0.5 = 1/3
# (0.3333333432674408 in float32; float16's 0.33325 is within its tolerance).
p = Input("p", "TENSOR_FLOAT32", "{4}")
q = Input("q", "TENSOR_FLOAT32", "{4}")
r = Output("r", "TENSOR_FLOAT32", "{4}")
Model("edges").Operation("POW", p, q).To(r)
Example({
    p: [0.0, 0.0, 4.0, 9.0],
    q: [0.0, -1.0, 0.5, -0.5],
    r: [1.0, float("inf"), 2.0, 0.3333333432674408],
}).AddVariations("relaxed", "float16")
