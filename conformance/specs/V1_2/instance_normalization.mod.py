# INSTANCE_NORMALIZATION (HAL 1.2): per batch and channel over H x W, NHWC and
# NCHW (the layout input is required), float32, float16 and relaxed.
#
#   out = (x - mean) * gamma / sqrt(variance + epsilon) + beta,
# the variance being the mean of (x - mean)^2 over the layer, as the HAL text
# says and Android 11 computes (docs/operations.md, INSTANCE_NORMALIZATION (57)).
# Android 10 divided by sqrt(mean(x^2) + epsilon) instead; the two agree only
# where a layer's mean is 0. Here batch 1 has zero channel means and batch 0
# (channel means 3 and 2) and the "large_mean" model (means 1002, -499 and 8)
# do not, so a driver computing the Android 10 way fails them. By hand, batch 0
# channel 0 holds 1, 2, 3, 6: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5, so
# with gamma 1, beta 0, epsilon 1e-4 the first output is -2 / sqrt(3.5001) =
# -1.06903 (Android 10 gave -2 / sqrt(12.5001) = -0.5656832).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case
# instance_normalization_cases.
layout = BoolScalar("layout", False)  # NHWC
data = [1.0, 3.0, 2.0, -1.0, 3.0, 1.0, 6.0, 5.0,
        -1.0, 0.5, 3.0, 2.5, 1.0, -1.5, -3.0, -1.5]

i1 = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model().Operation("INSTANCE_NORMALIZATION", i1, 1.0, 0.0, 1e-4, layout).To(o1)
Example({
    i1: data,
    o1: [-1.06903, 0.4472091, -0.5345148, -1.341627, 0.0, -0.4472091, 1.603545, 1.341627,
         -0.4472091, 0.3015059, 1.341627, 1.507529, 0.4472091, -0.9045176, -1.341627, -0.9045176],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16")

# gamma 2, beta 0.5, epsilon 0.25
i2 = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model("affine").Operation("INSTANCE_NORMALIZATION", i2, 2.0, 0.5, 0.25, layout).To(o2)
Example({
    i2: data,
    o2: [-1.565591, 1.372872, -0.5327956, -2.118615, 0.5, -0.3728716, 3.598387, 3.118615,
         -0.3728716, 1.07735, 3.118615, 3.386751, 1.372872, -1.232051, -2.118615, -1.232051],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16")

# H = W = 1 and a constant channel: x - mean = 0 in every cell, so the output is
# beta (-1.0) whatever gamma (1.5) and epsilon (0.01); by hand.
i3 = Input("in", "TENSOR_FLOAT32", "{2, 1, 1, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{2, 1, 1, 3}")
Model("one_cell").Operation("INSTANCE_NORMALIZATION", i3, 1.5, -1.0, 0.01, layout).To(o3)
Example({
    i3: [4.0, -2.5, 0.0, 100.0, 7.0, -3.0],
    o3: [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0],
}).AddNchw(i3, o3, layout).AddVariations("relaxed", "float16")

# Large channel means (1002, -499, 8; variances 3.5, 5, 1.25), every value exact
# in float16: gamma 1.5, beta -0.25, epsilon 0.01. By hand, channel 0's first
# cell: (1000 - 1002) * 1.5 / sqrt(3.51) - 0.25 = -1.851282 (Android 10 divided
# by sqrt(1004007.51) and gave -0.252994, next to beta).
i4 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("large_mean").Operation("INSTANCE_NORMALIZATION", i4, 1.5, -0.25, 0.01, layout).To(o4)
Example({
    i4: [1000.0, -500.0, 7.5, 1002.0, -496.0, 8.5, 1001.0, -498.0, 6.5, 1005.0, -502.0, 9.5],
    o4: [-1.851282, -0.9201506, -0.9181531, -0.25, 1.760452, 0.4181531,
         -1.050641, 0.4201506, -2.254459, 2.151922, -2.260452, 1.754459],
}).AddNchw(i4, o4, layout).AddVariations("relaxed", "float16")
