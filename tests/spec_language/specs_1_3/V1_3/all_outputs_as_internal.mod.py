# AllOutputsAsInternalCoverter (Android 11's spelling): the output is read by an ADD of
# a dummy zero whose result is the new output; on a model of two operations it does
# not apply.
x = Input("x", "TENSOR_FLOAT32", "{2}")
y = Output("y", "TENSOR_FLOAT32", "{2}")
Model("one").Operation("RELU", x).To(y)
Example({x: [-2.0, 2.0], y: [0.0, 2.0]}).DisableLifeTimeVariation().AddVariations(
    AllOutputsAsInternalCoverter())

a = Input("a", "TENSOR_FLOAT32", "{2}")
t = Internal("t", "TENSOR_FLOAT32", "{2}")
b = Output("b", "TENSOR_FLOAT32", "{2}")
Model("two").Operation("RELU", a).To(t).Operation("FLOOR", t).To(b)
Example({a: [-2.0, 2.5], b: [0.0, 2.0]}).AddVariations(AllOutputsAsInternalCoverter())
