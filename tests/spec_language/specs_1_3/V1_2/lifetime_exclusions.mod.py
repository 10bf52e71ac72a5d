# Where no lifetime variation is made: a model of two operations, an example that
# disables them, an input that should never be internal, an omitted input and an
# INT32 input.
a = Input("a", "TENSOR_FLOAT32", "{2}")
b = Input("b", "TENSOR_FLOAT32", "{2}")
t = Internal("t", "TENSOR_FLOAT32", "{2}")
c = Output("c", "TENSOR_FLOAT32", "{2}")
Model("two").Operation("ADD", a, b, 0).To(t).Operation("MUL", t, b, 0).To(c)
# (1 + 2) * 2 = 6, (3 + 4) * 4 = 28
Example({a: [1.0, 3.0], b: [2.0, 4.0], c: [6.0, 28.0]})

p = Input("p", "TENSOR_FLOAT32", "{2}")
q = Output("q", "TENSOR_FLOAT32", "{2}")
Model("off").Operation("RELU", p).To(q)
Example({p: [-1.0, 1.0], q: [0.0, 1.0]}).DisableLifeTimeVariation()

k = Input("k", "TENSOR_FLOAT32", "{2}").ShouldNeverBeInternal()
r = Output("r", "TENSOR_FLOAT32", "{2}")
Model("kept").Operation("FLOOR", k).To(r)
Example({k: [1.5, -1.5], r: [1.0, -2.0]})

v = Input("v", "TENSOR_INT32", "{2}")
s = Output("s", "TENSOR_INT32", "{2}")
Model("ints").Operation("ADD", v, v, 0).To(s)
Example({v: [1, 2], s: [2, 4]})
