# DIV (HAL 1.1): broadcasting [2, 2] / [2], every fused activation, relaxed.
# Golden values by hand, checked with conformance/specs/oracles/elementwise_oracle.py
# ("V1_1/div"): row by row, a / b with b = [2, -4]:
#   [6 / 2, -3 / -4] = [3, 0.75]; [1 / 2, 10 / -4] = [0.5, -2.5].
# RELU -> [3, 0.75, 0.5, 0] (a negative divisor makes the negative result),
# RELU1 -> [1, 0.75, 0.5, -1], RELU6 -> [3, 0.75, 0.5, 0].
# No division by zero here: the HAL documentation gives +-inf, the Android 10 CPU
# reference clamps float32 results to +-FLT_MAX. Float32 division by zero is in
# V1_1/div_special_values, float16 in V1_2/div_v1_2 (where both give inf).
a = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b = Input("b", "TENSOR_FLOAT32", "{2}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("DIV", a, b, act).To(out)

Example({
    a: [6.0, -3.0, 1.0, 10.0],
    b: [2.0, -4.0],
    out: [3.0, 0.75, 0.5, -2.5],
}).AddVariations("relaxed").AddAllActivations(out, act)

# A constant divisor, then the same as a model input (AddInput).
# [1 / 8, 3 / -0.5, -7 / 2, 2 / 3] = [0.125, -6, -3.5, 0.6666667] (2/3 rounded to
# float32 is 0.6666666865348816; the oracle's value).
c = Parameter("c", "TENSOR_FLOAT32", "{4}", [8.0, -0.5, 2.0, 3.0])
x = Input("x", "TENSOR_FLOAT32", "{4}")
y = Output("y", "TENSOR_FLOAT32", "{4}")
Model("constant").Operation("DIV", x, c, 0).To(y)
Example({
    x: [1.0, 3.0, -7.0, 2.0],
    y: [0.125, -6.0, -3.5, 0.6666666865348816],
}).AddInput(c).AddVariations("relaxed")
