# Android 11's automatic lifetime variations on a one-operation model: the tensor
# constant declared with Parameter() becomes an input (all_tensors_as_inputs), and
# every float32 input is written by an ADD of a dummy zero (all_inputs_as_internal).
i = Input("i", "TENSOR_FLOAT32", "{2}")
w = Parameter("w", "TENSOR_FLOAT32", "{2}", [1.0, 2.0])
o = Output("o", "TENSOR_FLOAT32", "{2}")
Model().Operation("ADD", i, w, 0).To(o)
# 3 + 1 = 4, 4 + 2 = 6
Example({i: [3.0, 4.0], o: [4.0, 6.0]})

# The same model and example once more: its names take _2 at the very end.
Example({i: [3.0, 4.0], o: [4.0, 6.0]})
