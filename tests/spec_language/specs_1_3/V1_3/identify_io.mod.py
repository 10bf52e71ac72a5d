# IdentifyInputs and IdentifyOutputs fix the order of the model's inputs and outputs,
# and an identified input no operation reads is still a model input.
a = Input("a", "TENSOR_FLOAT32", "{1}")
b = Input("b", "TENSOR_FLOAT32", "{1}")
unused = Input("unused", "TENSOR_FLOAT32", "{1}")
s = Output("s", "TENSOR_FLOAT32", "{1}")
d = Output("d", "TENSOR_FLOAT32", "{1}")
m = Model().Operation("ADD", a, b, 0).To(s).Operation("SUB", a, b, 0).To(d)
m.IdentifyInputs(b, unused, a).IdentifyOutputs(d, s)
# 5 + 2 = 7, 5 - 2 = 3
Example({a: [5.0], b: [2.0], unused: [9.0], s: [7.0], d: [3.0]})
