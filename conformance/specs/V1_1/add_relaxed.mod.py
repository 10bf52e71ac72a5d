# ADD of two [3] tensors, relaxed to float16 precision (HAL 1.1).
# [0.25+0.5, 100.0-1.5, -7.0+7.0] = [0.75, 98.5, 0.0]: each exact in float16.
a = Input("a", "TENSOR_FLOAT32", "{3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
out = Output("out", "TENSOR_FLOAT32", "{3}")
Model().Operation("ADD", a, b, 0).To(out).RelaxedExecution(True)

Example({a: [0.25, 100.0, -7.0], b: [0.5, -1.5, 7.0], out: [0.75, 98.5, 0.0]})
