# INSTANCE_NORMALIZATION (HAL 1.2): per batch and channel over H x W, NHWC and
# NCHW (the layout input is required), float32, float16 and relaxed.
#
# Android 10's reference differs from the HAL text here (docs/operations.md,
# INSTANCE_NORMALIZATION (57)):
# the text divides x - mean by sqrt(variance + epsilon); the Android 10 CPU
# reference, which produced the conformance data drivers certify against,
# divides by sqrt(mean(x^2) + epsilon). As docs/operations.md, Where the HAL text and
# Android 10 disagree, directs, these tests follow the Android 10 reference:
#   out = (x - mean) * gamma / sqrt(mean(x^2) + epsilon) + beta.
# Batch 1 has zero channel means, where both formulas agree; batch 0 (channel
# means 3 and 2) pins the Android 10 behaviour down. By hand, batch 0 channel 0
# holds 1, 2, 3, 6: mean 3, mean of squares (1 + 4 + 9 + 36) / 4 = 12.5, so with
# gamma 1, beta 0, epsilon 1e-4 the first output is -2 / sqrt(12.5001) = -0.5656832
# (the HAL text would give -2 / sqrt(3.5001) = -1.06903).
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
    o1: [-0.5656832, 0.3333315, -0.2828416, -0.9999944, 0.0, -0.3333315, 0.8485247, 0.9999944,
         -0.4472091, 0.3015059, 1.341627, 1.507529, 0.4472091, -0.9045176, -1.341627, -0.9045176],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16")

# gamma 2, beta 0.5, epsilon 0.25
i2 = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model("affine").Operation("INSTANCE_NORMALIZATION", i2, 2.0, 0.5, 0.25, layout).To(o2)
Example({
    i2: data,
    o2: [-0.6202241, 1.157596, -0.06011203, -1.472788, 0.5, -0.1575959, 2.180336, 2.472788,
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
