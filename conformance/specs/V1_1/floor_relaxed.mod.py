# FLOOR (HAL 1.1), relaxed to float16 precision. floor by hand:
# [-0.25, 2.5, -7.0, 1000.5] -> [-1, 2, -7, 1000]; every value is exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("FLOOR", i).To(o).RelaxedExecution(True)
Example({i: [-0.25, 2.5, -7.0, 1000.5], o: [-1.0, 2.0, -7.0, 1000.0]})
