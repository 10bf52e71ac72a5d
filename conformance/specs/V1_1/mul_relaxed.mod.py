# MUL of two [3] tensors, relaxed to float16 precision (HAL 1.1).
# [0.5*8.0, -3.0*0.25, 12.0*-2.0] = [4.0, -0.75, -24.0]: each exact in float16.
a = Input("a", "TENSOR_FLOAT32", "{3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
out = Output("out", "TENSOR_FLOAT32", "{3}")
Model().Operation("MUL", a, b, 0).To(out).RelaxedExecution(True)

Example({a: [0.5, -3.0, 12.0], b: [8.0, 0.25, -2.0], out: [4.0, -0.75, -24.0]})
