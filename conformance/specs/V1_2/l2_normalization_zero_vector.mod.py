# Float L2_NORMALIZATION divides by max(sqrt(sum of squares), 1e-6), as Android 11
# computes it for every HAL version (docs/operations.md, Android 11's corrections):
# an all-zero vector gives zeros (Android 10 divided by the norm alone: 0 / 0 = NaN),
# and a vector of norm below 1e-6 is divided by 1e-6. Rank 2 along the last axis.
# Golden values: conformance/specs/oracles/pooling_oracle.py, case
# l2_normalization_cases ("zero_vector 3x3", "below_floor 2x3").

# Rows (0, 0, 0) -> zeros; (3, 0, -4) / 5; (0, 0, 0) again.
i1 = Input("in", "TENSOR_FLOAT32", "{3, 3}")
o1 = Output("out", "TENSOR_FLOAT32", "{3, 3}")
Model("zero_vector").Operation("L2_NORMALIZATION", i1).To(o1)
Example({
    i1: [0.0, 0.0, 0.0, 3.0, 0.0, -4.0, 0.0, 0.0, 0.0],
    o1: [0.0, 0.0, 0.0, 0.6, 0.0, -0.8, 0.0, 0.0, 0.0],
}).AddVariations("relaxed", "float16")

# Row (3e-7, -4e-7, 0) has norm 5e-7, below the floor: divided by 1e-6 it gives
# (0.3, -0.4, 0) (Android 10: (0.6, -0.8, 0)); row (1.5, 2, 0) / 2.5. Float32 only:
# these values are below float16's normal range.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model("below_floor").Operation("L2_NORMALIZATION", i2).To(o2)
Example({
    i2: [3e-7, -4e-7, 0.0, 1.5, 2.0, 0.0],
    o2: [0.3, -0.4, 0.0, 0.6, 0.8, 0.0],
})
