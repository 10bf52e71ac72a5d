# The exact-class rule: an implicit list constant is an Int32Vector, never turned into
# an input, so all_tensors_as_inputs does not apply (skipped: no test, no name); the
# quant8 input is made internal through an ADD of its zero point.
x = Input("x", "TENSOR_QUANT8_ASYMM", "{4}, 0.5, 3")
y = Output("y", "TENSOR_QUANT8_ASYMM", "{2, 2}, 0.5, 3")
Model("q").Operation("RESHAPE", x, [2, 2]).To(y)
Example({x: [1, 2, 3, 4], y: [1, 2, 3, 4]}, name="plain").AddVariations(
    DataTypeConverter(name="wider").Identify({x: ("TENSOR_QUANT8_ASYMM", 0.25, 6),
                                             y: ("TENSOR_QUANT8_ASYMM", 0.25, 6)}))
