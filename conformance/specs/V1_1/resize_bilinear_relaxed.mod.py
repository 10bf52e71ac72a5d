# RESIZE_BILINEAR relaxed to float16 precision (HAL 1.1). Golden values:
# conformance/specs/oracles/pooling_oracle.py, case resize_bilinear (the data of
# V1_0/resize_bilinear.mod.py).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 3, 5, 2}")
Model("up").Operation("RESIZE_BILINEAR", i1, 5, 3).To(o1).RelaxedExecution(True)
Example({
    i1: [1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
         3.0, 30.0, 6.0, 60.0, 5.0, 50.0,
         -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
         6.0, 4.0, -6.0, 12.0, 4.0, 0.0],
    o1: [1.0, 10.0, 1.6, 16.0, 2.4, 24.0, 3.6, 36.0, 4.0, 40.0,
         2.333333, 23.33333, 3.733333, 37.33333, 4.666667, 46.66667, 4.666667, 46.66667, 4.666667, 46.66667,
         3.0, 30.0, 4.8, 48.0, 5.8, 58.0, 5.2, 52.0, 5.0, 50.0,
         -2.0, 0.0, 0.4, 4.8, 1.6, 9.6, 0.4, 14.4, 0.0, 16.0,
         3.333333, 2.666667, -0.6666667, 7.466667, -2.133333, 9.6, 1.466667, 6.4, 2.666667, 5.333333,
         6.0, 4.0, -1.2, 8.8, -4.0, 9.6, 2.0, 2.4, 4.0, 0.0],
})

i2 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("down").Operation("RESIZE_BILINEAR", i2, 2, 3).To(o2).RelaxedExecution(True)
Example({
    i2: [3.0 * k for k in range(16)],
    o2: [0.0, 6.0, 16.0, 22.0, 32.0, 38.0],
})
