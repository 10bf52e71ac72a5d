# REDUCE_PROD (HAL 1.2): the product over a list of axes; keep_dims is a BOOL.
# Negative axes count from the end, a repeated axis is reduced once, and reducing
# every axis without keep_dims gives one value (declared {1}). Float32, relaxed
# and float16 (the reference multiplies float16 in float16; every partial product
# here has few significant bits and is exact in float16). Golden values from
# conformance/specs/oracles/reduction_oracle.py, and by hand for b and the vector.

# p = [[[1.5, -2], [0.5, 4], [-1, 3]], [[2, 0.25], [-0.5, 2.5], [1, -4]]]
P = [1.5, -2.0, 0.5, 4.0, -1.0, 3.0, 2.0, 0.25, -0.5, 2.5, 1.0, -4.0]

# Axis 1 of {2, 3, 2}: 1.5 * 0.5 * -1 = -0.75, -2 * 4 * 3 = -24, 2 * -0.5 * 1 = -1,
# 0.25 * 2.5 * -4 = -2.5. The axes also run as a model input.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes1 = Parameter("axes", "TENSOR_INT32", "{1}", [1])
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("axis1").Operation("REDUCE_PROD", i1, axes1, BoolScalar("keep_dims", False)).To(o1)
Example({i1: P, o1: [-0.75, -24.0, -1.0, -2.5]}).AddInput(axes1).AddVariations(
    "relaxed", "float16")

# Axes [-1, 0] (= 2 and 0), kept: {1, 3, 1}; row j over p[*][j][*]:
# 1.5 * -2 * 2 * 0.25 = -1.5, 0.5 * 4 * -0.5 * 2.5 = -2.5, -1 * 3 * 1 * -4 = 12.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes2 = Parameter("axes", "TENSOR_INT32", "{2}", [-1, 0])
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 1}")
Model("negative_keep").Operation("REDUCE_PROD", i2, axes2, BoolScalar("keep_dims", True)).To(o2)
Example({i2: P, o2: [-1.5, -2.5, 12.0]}).AddInput(axes2).AddVariations("relaxed", "float16")

# Axes [0, 2, -3]: -3 is 0 again; the same products with the axes removed.
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("duplicates").Operation("REDUCE_PROD", i3, [0, 2, -3], BoolScalar("keep_dims", False)).To(o3)
Example({i3: P, o3: [-1.5, -2.5, 12.0]}).AddVariations("relaxed", "float16")

# Every axis, not kept: -0.75 * -24 * -1 * -2.5 = 45.
i4 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o4 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("all_axes").Operation("REDUCE_PROD", i4, [2, 1, 0], BoolScalar("keep_dims", False)).To(o4)
Example({i4: P, o4: [45.0]}).AddVariations("relaxed", "float16")

# Axis 2 kept: pair products -3, 2, -3, 0.5, -1.25, -4.
i5 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{2, 3, 1}")
Model("axis2_keep").Operation("REDUCE_PROD", i5, [2], BoolScalar("keep_dims", True)).To(o5)
Example({i5: P, o5: [-3.0, 2.0, -3.0, 0.5, -1.25, -4.0]}).AddVariations("relaxed", "float16")

# Rank 4, b = [[[1, 2], [3, -4]], [[5.5, 0.5], [-1.5, 2.5]]]: spatial products per
# channel (axes 1, 2 kept): 1 * 3 * 5.5 * -1.5 = -24.75, 2 * -4 * 0.5 * 2.5 = -10.
B = [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5]
i6 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o6 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 2}")
Model("spatial").Operation("REDUCE_PROD", i6, [1, 2], BoolScalar("keep_dims", True)).To(o6)
Example({i6: B, o6: [-24.75, -10.0]}).AddVariations("relaxed", "float16")

# Rank 4, channel axis named twice ([-1, 3]), removed: pair products
# 1 * 2 = 2, 3 * -4 = -12, 5.5 * 0.5 = 2.75, -1.5 * 2.5 = -3.75.
i7 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o7 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2}")
Model("channels").Operation("REDUCE_PROD", i7, [-1, 3], BoolScalar("keep_dims", False)).To(o7)
Example({i7: B, o7: [2.0, -12.0, 2.75, -3.75]}).AddVariations("relaxed", "float16")

# Rank 1, not kept: 3 * -1.5 * 0.5 * 2 = -4.5, declared {1}; a zero factor gives 0.
i8 = Input("in", "TENSOR_FLOAT32", "{4}")
o8 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("vector").Operation("REDUCE_PROD", i8, [0], BoolScalar("keep_dims", False)).To(o8)
Example(
    ({i8: [3.0, -1.5, 0.5, 2.0]}, {o8: [-4.5]}),
    ({i8: [3.0, 0.0, 0.5, 2.0]}, {o8: [0.0]}),
).AddVariations("relaxed", "float16")

# Float16, Android 11's zero rule (every HAL version; docs/operations.md, Android 11's
# corrections): a factor of 0 makes the product 0 even after an infinity. Rows of
# {3, 3}: 300 x 300 overflows float16 to inf, then x 0 gives 0 (Android 10: NaN);
# inf x 0.5 x 0 gives 0 (Android 10: NaN); 2 x -1.5 x 4 = -12. Golden values:
# reduction_oracle.py, "rows_of_Z".
i10 = Input("in", "TENSOR_FLOAT16", "{3, 3}")
o10 = Output("out", "TENSOR_FLOAT16", "{3}")
Model("float16_zero").Operation("REDUCE_PROD", i10, [1], BoolScalar("keep_dims", False)).To(o10)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    i10: [300.0, 300.0, 0.0, math.inf, 0.5, 0.0, 2.0, -1.5, 4.0],
    o10: [0.0, 0.0, -12.0],
}).DisableLifeTimeVariation()
