# REDUCE_SUM (HAL 1.2): the sum over a list of axes; keep_dims is a BOOL. Negative
# axes count from the end, a repeated axis is reduced once, and reducing every
# axis without keep_dims gives one value (declared {1}). Float32, relaxed and
# float16 (the reference accumulates float16 in float16; every partial sum here
# is a small multiple of 0.5, exact in float16). Golden values from
# conformance/specs/oracles/reduction_oracle.py.

# a = [[[1, -2], [3, 0.5], [-1, 4.5]], [[2.5, 6], [-3.5, 1], [0, -0.5]]]
A = [1.0, -2.0, 3.0, 0.5, -1.0, 4.5, 2.5, 6.0, -3.5, 1.0, 0.0, -0.5]

# Axis 1 of {2, 3, 2}: 1 + 3 - 1 = 3, -2 + 0.5 + 4.5 = 3, 2.5 - 3.5 + 0 = -1,
# 6 + 1 - 0.5 = 6.5. The axes also run as a model input.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes1 = Parameter("axes", "TENSOR_INT32", "{1}", [1])
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("axis1").Operation("REDUCE_SUM", i1, axes1, BoolScalar("keep_dims", False)).To(o1)
Example({i1: A, o1: [3.0, 3.0, -1.0, 6.5]}).AddInput(axes1).AddVariations(
    "relaxed", "float16")

# Axes [-1, 0] (= 2 and 0), kept: {1, 3, 1}; row j sums a[*][j][*]:
# 1 - 2 + 2.5 + 6 = 7.5, 3 + 0.5 - 3.5 + 1 = 1, -1 + 4.5 + 0 - 0.5 = 3.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes2 = Parameter("axes", "TENSOR_INT32", "{2}", [-1, 0])
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 1}")
Model("negative_keep").Operation("REDUCE_SUM", i2, axes2, BoolScalar("keep_dims", True)).To(o2)
Example({i2: A, o2: [7.5, 1.0, 3.0]}).AddInput(axes2).AddVariations("relaxed", "float16")

# Axes [0, 2, -3]: -3 is 0 again; the same sums with the axes removed.
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("duplicates").Operation("REDUCE_SUM", i3, [0, 2, -3], BoolScalar("keep_dims", False)).To(o3)
Example({i3: A, o3: [7.5, 1.0, 3.0]}).AddVariations("relaxed", "float16")

# Every axis, not kept: 11.5.
i4 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o4 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("all_axes").Operation("REDUCE_SUM", i4, [2, 1, 0], BoolScalar("keep_dims", False)).To(o4)
Example({i4: A, o4: [11.5]}).AddVariations("relaxed", "float16")

# Axis 2 kept: pair sums -1, 3.5, 3.5, 8.5, -2.5, -0.5.
i5 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{2, 3, 1}")
Model("axis2_keep").Operation("REDUCE_SUM", i5, [2], BoolScalar("keep_dims", True)).To(o5)
Example({i5: A, o5: [-1.0, 3.5, 3.5, 8.5, -2.5, -0.5]}).AddVariations("relaxed", "float16")

# Rank 4, b = [[[1, 2], [3, -4]], [[5.5, 0.5], [-1.5, 2.5]]]: spatial sums per
# channel (axes 1, 2 kept): 1 + 3 + 5.5 - 1.5 = 8, 2 - 4 + 0.5 + 2.5 = 1.
B = [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5]
i6 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o6 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 2}")
Model("spatial").Operation("REDUCE_SUM", i6, [1, 2], BoolScalar("keep_dims", True)).To(o6)
Example({i6: B, o6: [8.0, 1.0]}).AddVariations("relaxed", "float16")

# Rank 4, channel axis named twice ([-1, 3]), removed: pair sums 3, -1, 6, 1.
i7 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o7 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2}")
Model("channels").Operation("REDUCE_SUM", i7, [-1, 3], BoolScalar("keep_dims", False)).To(o7)
Example({i7: B, o7: [3.0, -1.0, 6.0, 1.0]}).AddVariations("relaxed", "float16")

# Rank 1, not kept: 3 - 1.5 + 0.5 + 2 = 4, declared {1}.
i8 = Input("in", "TENSOR_FLOAT32", "{4}")
o8 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("vector").Operation("REDUCE_SUM", i8, [0], BoolScalar("keep_dims", False)).To(o8)
Example({i8: [3.0, -1.5, 0.5, 2.0], o8: [4.0]}).AddVariations("relaxed", "float16")
