# MAX_POOL_2D relaxed to float16 precision (HAL 1.1), explicit and implicit
# padding. Golden values: conformance/specs/oracles/pooling_oracle.py, case
# max_pool (the data of V1_0/max_pool.mod.py).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
# pads left 2, right 1, top 1, bottom 1; stride 2x2; filter 3 wide x 2 high; RELU1
Model("explicit").Operation("MAX_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, 2).To(o1).RelaxedExecution(True)
Example({
    i1: [1.0, -2.0, 3.5, 0.5, -1.5, 4.0, 2.0, 6.5,
         0.0, 2.5, 5.0, -3.0, 4.5, 1.0, -0.5, 3.0,
         7.0, -1.0, 2.5, 5.5, -4.0, 0.5, 6.0, 2.5,
         -2.5, 3.0, 1.5, 4.5, 8.0, -1.5, 0.5, -3.5,
         3.5, 1.0, -1.0, 2.0, 5.5, 0.0, 2.5, 7.5,
         -0.5, 6.0, 4.0, -2.0, 1.0, 3.5, 9.0, 2.0],
    # the oracle's maxima clamped to [-1, 1]
    o1: [1.0, -1.0, 1.0, 1.0, 1.0, 1.0,
         1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
         -1.0, 1.0, 1.0, 1.0, 1.0, -1.0,
         1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
})

i2 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
# all negative, SAME, stride 3 > filter 2
Model("strided").Operation("MAX_POOL_2D", i2, 1, 3, 3, 2, 2, 0).To(o2).RelaxedExecution(True)
Example({
    i2: [-1.5, -3.0, -0.5, -4.0,
         -6.0, -1.5, -3.5, -2.0,
         -2.0, -4.5, -7.0, -0.5,
         -5.0, -2.5, -1.0, -6.5],
    o2: [-1.5, -2.0, -2.5, -6.5],
})
