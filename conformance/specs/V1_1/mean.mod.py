# MEAN (HAL 1.1): the arithmetic mean over a list of axes; keep_dims is an INT32
# (positive keeps each reduced axis as size 1). Negative axes count from the end,
# a repeated axis is reduced once, and reducing every axis without keep_dims gives
# one value (declared {1}). Float32, relaxed and quant8; float16 is in
# V1_2/mean_float16.mod.py. Golden values from
# conformance/specs/oracles/reduction_oracle.py (exact means with fractions).
#
# Quant8: input and output share scale 0.125, zero point 100 (the output keeps the
# input's parameters). The reference sums the raw bytes and divides truncating,
# while the generator rounds the float golden (half to even). At scale 0.125 every
# mean of 2, 4 or 8 values here is a whole number of steps, and the means of three
# fall a third of a step above a step (-1/3 -> 97.33, 13/6 -> 117.33), where
# truncating and rounding agree; no golden is a tie (at scale 0.5 the pair means
# were, e.g. 1.75 -> 103.5). Only the mean of all twelve comes out one below the
# golden (see there), which the +-1 tolerance admits. tests/reference/test_ops_reduction.py
# pins the truncation exactly.

# a = [[[1, -2], [3, 0.5], [-1, 4.5]], [[2.5, 6], [-3.5, 1], [0, -0.5]]]
A = [1.0, -2.0, 3.0, 0.5, -1.0, 4.5, 2.5, 6.0, -3.5, 1.0, 0.0, -0.5]


def quant8(*operands):
    return DataTypeConverter().Identify(
        {op: ("TENSOR_QUANT8_ASYMM", 0.125, 100) for op in operands})


# Axis 1 of {2, 3, 2}: (1 + 3 - 1) / 3 = 1, (-2 + 0.5 + 4.5) / 3 = 1,
# (2.5 - 3.5 + 0) / 3 = -1/3, (6 + 1 - 0.5) / 3 = 13/6. The axes also run as a
# model input.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes1 = Parameter("axes", "TENSOR_INT32", "{1}", [1])
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("axis1").Operation("MEAN", i1, axes1, Int32Scalar("keep_dims", 0)).To(o1)
Example({
    i1: A,
    o1: [1.0, 1.0, -0.3333333333333333, 2.1666666666666665],
}).AddInput(axes1).AddVariations("relaxed", quant8(i1, o1))

# Axes [-1, 0] (= 2 and 0), kept as size 1: {1, 3, 1}. Row j averages the four
# values a[*][j][*]: (1 - 2 + 2.5 + 6) / 4 = 1.875, (3 + 0.5 - 3.5 + 1) / 4 = 0.25,
# (-1 + 4.5 + 0 - 0.5) / 4 = 0.75.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes2 = Parameter("axes", "TENSOR_INT32", "{2}", [-1, 0])
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 1}")
Model("negative_keep").Operation("MEAN", i2, axes2, Int32Scalar("keep_dims", 1)).To(o2)
Example({i2: A, o2: [1.875, 0.25, 0.75]}).AddInput(axes2).AddVariations(
    "relaxed", quant8(i2, o2))

# Axes [0, 2, -3]: -3 is axis 0 again, so the same reduction as above, dims removed.
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("duplicates").Operation("MEAN", i3, [0, 2, -3], Int32Scalar("keep_dims", 0)).To(o3)
Example({i3: A, o3: [1.875, 0.25, 0.75]}).AddVariations("relaxed", quant8(i3, o3))

# Every axis, keep_dims 0: the mean of all twelve values, 11.5 / 12 = 0.958333...
# (quant8: q sum 1292 / 12 = 107 truncated, golden round(107.67) = 108).
i4 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o4 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("all_axes").Operation("MEAN", i4, [2, 1, 0], Int32Scalar("keep_dims", 0)).To(o4)
Example({i4: A, o4: [0.9583333333333334]}).AddVariations("relaxed", quant8(i4, o4))

# keep_dims 2 (any positive value keeps), axis 2: pairwise means
# (1 - 2) / 2 = -0.5, 1.75, 1.75, 4.25, -1.25, -0.25.
i5 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{2, 3, 1}")
Model("keep_dims_2").Operation("MEAN", i5, [2], Int32Scalar("keep_dims", 2)).To(o5)
Example({i5: A, o5: [-0.5, 1.75, 1.75, 4.25, -1.25, -0.25]}).AddVariations(
    "relaxed", quant8(i5, o5))

# keep_dims -1 (not positive: the axis goes), same means.
i6 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o6 = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model("keep_dims_negative").Operation("MEAN", i6, [-1], Int32Scalar("keep_dims", -1)).To(o6)
Example({i6: A, o6: [-0.5, 1.75, 1.75, 4.25, -1.25, -0.25]}).AddVariations(
    "relaxed", quant8(i6, o6))

# Rank 4, an NHWC image b = [[[1, 2], [3, -4]], [[5.5, 0.5], [-1.5, 2.5]]]:
# the spatial mean per channel (axes 1, 2 kept): (1 + 3 + 5.5 - 1.5) / 4 = 2,
# (2 - 4 + 0.5 + 2.5) / 4 = 0.25.
B = [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5]
i7 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o7 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 2}")
Model("spatial").Operation("MEAN", i7, [1, 2], Int32Scalar("keep_dims", 1)).To(o7)
Example({i7: B, o7: [2.0, 0.25]}).AddVariations("relaxed", quant8(i7, o7))

# Rank 4, the channel axis named twice ([-1, 3]), removed: pair means
# 1.5, -0.5, 3, 0.5.
i8 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o8 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2}")
Model("channels").Operation("MEAN", i8, [-1, 3], Int32Scalar("keep_dims", 0)).To(o8)
Example({i8: B, o8: [1.5, -0.5, 3.0, 0.5]}).AddVariations("relaxed", quant8(i8, o8))

# Rank 1: (3 - 1.5 + 0.5 + 2) / 4 = 1, kept as {1}.
i9 = Input("in", "TENSOR_FLOAT32", "{4}")
o9 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("vector").Operation("MEAN", i9, [-1], Int32Scalar("keep_dims", 1)).To(o9)
Example({i9: [3.0, -1.5, 0.5, 2.0], o9: [1.0]}).AddVariations("relaxed", quant8(i9, o9))
