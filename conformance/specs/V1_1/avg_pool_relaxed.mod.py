# AVERAGE_POOL_2D relaxed to float16 precision (HAL 1.1), explicit and implicit
# padding. Golden values: conformance/specs/oracles/pooling_oracle.py, case
# avg_pool (the same data as V1_0/avg_pool.mod.py; windows average their
# in-image cells only).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
# pads left 2, right 1, top 1, bottom 1; stride 2x2; filter 3 wide x 2 high; RELU6
Model("explicit").Operation("AVERAGE_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, 3).To(o1).RelaxedExecution(True)
Example({
    i1: [1.0, -2.0, 3.5, 0.5, -1.5, 4.0, 2.0, 6.5,
         0.0, 2.5, 5.0, -3.0, 4.5, 1.0, -0.5, 3.0,
         7.0, -1.0, 2.5, 5.5, -4.0, 0.5, 6.0, 2.5,
         -2.5, 3.0, 1.5, 4.5, 8.0, -1.5, 0.5, -3.5,
         3.5, 1.0, -1.0, 2.0, 5.5, 0.0, 2.5, 7.5,
         -0.5, 6.0, 4.0, -2.0, 1.0, 3.5, 9.0, 2.0],
    # the oracle's values clamped to [0, 6]
    o1: [1.0, 0.0, 1.0, 0.8333333, 0.25, 5.25,
         3.5, 0.75, 2.5, 0.9166667, 1.5, 1.75,
         0.0, 3.0, 2.333333, 2.0, 4.25, 0.0,
         1.5, 3.5, 2.083333, 1.75, 4.5, 3.25],
})

i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
# implicit SAME, stride 2x2, filter 3 wide x 2 high: padding at the bottom and right
Model("same").Operation("AVERAGE_POOL_2D", i2, 1, 2, 2, 3, 2, 0).To(o2).RelaxedExecution(True)
Example({
    i2: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o2: [1.416667, 2.25, 1.0, 2.25, 3.833333, 3.0],
})
