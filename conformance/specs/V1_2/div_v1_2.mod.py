# DIV in HAL 1.2: float16, broadcasting across ranks, division by zero in float16.
# Oracle: conformance/specs/oracles/elementwise_oracle.py ("V1_2/div_v1_2 ranks").

# [2, 1, 2] / [2, 1] -> [2, 2, 2]: out[i][j][k] = a[i][0][k] / b[j][0] with
# a = [[8, -6]], [[1, 3]] and b = [2, -0.5]:
#   i = 0: [4, -3], [-16, 12];  i = 1: [0.5, 1.5], [-2, -6]. All exact in float16.
a = Input("a", "TENSOR_FLOAT32", "{2, 1, 2}")
b = Input("b", "TENSOR_FLOAT32", "{2, 1}")
out = Output("out", "TENSOR_FLOAT32", "{2, 2, 2}")
Model().Operation("DIV", a, b, 0).To(out)
Example({
    a: [8.0, -6.0, 1.0, 3.0],
    b: [2.0, -0.5],
    out: [4.0, -3.0, -16.0, 12.0, 0.5, 1.5, -2.0, -6.0],
}).AddVariations("relaxed", "float16")

# Float16 division by zero gives +-inf (by hand): 1 / 0 = inf, -2 / 0 = -inf,
# 0 / 4 = 0, 3 / -0.25 = -12. Here the HAL documentation (IEEE) and the Android 10
# CPU reference agree: the reference computes in float32, clamps to +-FLT_MAX, and
# FLT_MAX rounds to inf in float16. Float32 is left out here: there the reference
# returns +-FLT_MAX where the documentation says +-inf (V1_1/div_special_values).
x = Input("x", "TENSOR_FLOAT16", "{4}")
y = Input("y", "TENSOR_FLOAT16", "{4}")
z = Output("z", "TENSOR_FLOAT16", "{4}")
Model("by_zero").Operation("DIV", x, y, 0).To(z)
Example({
    x: [1.0, -2.0, 0.0, 3.0],
    y: [0.0, 0.0, 4.0, -0.25],
    z: [float("inf"), float("-inf"), 0.0, -12.0],
})
