# L2_NORMALIZATION in its HAL 1.0 form: float32, rank 4, along the last axis:
# out = x / sqrt(sum of x^2). Each row normalises to exact values by hand:
# (3, 0, 4) / 5; (1, -2, 2) / 3; (-6, 3, 2) / 7; (0, 5, 0) / 5.
# (Oracle cross-check: conformance/specs/oracles/pooling_oracle.py, case
# l2_normalization_cases.)
i1 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o1 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model().Operation("L2_NORMALIZATION", i1).To(o1)
Example({
    i1: [3.0, 0.0, 4.0, 1.0, -2.0, 2.0, -6.0, 3.0, 2.0, 0.0, 5.0, 0.0],
    o1: [0.6, 0.0, 0.8, 0.3333333, -0.6666667, 0.6666667,
         -0.8571429, 0.4285714, 0.2857143, 0.0, 1.0, 0.0],
})
