# A Parameter without a value is an omitted operand (NO_VALUE): SQUEEZE with its
# optional axes left out squeezes every dimension of size 1.
i = Input("i", "TENSOR_FLOAT32", "{1, 2, 1}")
axes = Parameter("axes", "TENSOR_INT32", "{1}", None)
o = Output("o", "TENSOR_FLOAT32", "{2}")
Model().Operation("SQUEEZE", i, axes).To(o)
Example({i: [1.0, 2.0], o: [1.0, 2.0]}).DisableLifeTimeVariation()
