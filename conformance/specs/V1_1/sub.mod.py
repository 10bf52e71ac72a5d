# SUB (HAL 1.1): broadcasting [2, 3] - [3], every fused activation, relaxed.
# Golden values by hand, checked with conformance/specs/oracles/elementwise_oracle.py
# ("V1_1/sub"): row by row, a - b with b = [0.5, -1.0, 4.0]:
#   [1 - 0.5, -2 + 1, 3.5 - 4] = [0.5, -1.0, -0.5]; [0 - 0.5, 8 + 1, -0.5 - 4] = [-0.5, 9.0, -4.5].
# The activation is applied after the subtraction: RELU -> [0.5, 0, 0, 0, 9, 0],
# RELU1 -> [0.5, -1, -0.5, -0.5, 1, -1], RELU6 -> [0.5, 0, 0, 0, 6, 0].
a = Input("a", "TENSOR_FLOAT32", "{2, 3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("SUB", a, b, act).To(out)

Example({
    a: [1.0, -2.0, 3.5, 0.0, 8.0, -0.5],
    b: [0.5, -1.0, 4.0],
    out: [0.5, -1.0, -0.5, -0.5, 9.0, -4.5],
}).AddVariations("relaxed").AddAllActivations(out, act)

# The subtrahend a constant, then a model input (AddInput): same shapes.
# [10 - 4, 0 + 6, -3 + 3, 2.25 - 0.25] = [6, 6, 0, 2].
c = Parameter("c", "TENSOR_FLOAT32", "{2, 2}", [4.0, -6.0, -3.0, 0.25])
x = Input("x", "TENSOR_FLOAT32", "{2, 2}")
y = Output("y", "TENSOR_FLOAT32", "{2, 2}")
Model("constant").Operation("SUB", x, c, 0).To(y)
Example({x: [10.0, 0.0, -3.0, 2.25], y: [6.0, 6.0, 0.0, 2.0]}).AddInput(c).AddVariations(
    "relaxed"
)
