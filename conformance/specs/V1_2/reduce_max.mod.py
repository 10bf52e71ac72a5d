# REDUCE_MAX (HAL 1.2): the largest value over a list of axes; keep_dims is a BOOL.
# Negative axes count from the end, a repeated axis is reduced once, and reducing
# every axis without keep_dims gives one value (declared {1}). Float32, relaxed,
# float16 and quant8: the quant8 output must carry the input's scale and zero
# point (here 0.5 and 100; the raw bytes are compared). Golden values from
# conformance/specs/oracles/reduction_oracle.py.

# a = [[[1, -2], [3, 0.5], [-1, 4.5]], [[2.5, 6], [-3.5, 1], [0, -0.5]]]
A = [1.0, -2.0, 3.0, 0.5, -1.0, 4.5, 2.5, 6.0, -3.5, 1.0, 0.0, -0.5]


def quant8(*operands):
    return DataTypeConverter().Identify(
        {op: ("TENSOR_QUANT8_ASYMM", 0.5, 100) for op in operands})


# Axis 1 of {2, 3, 2}: max(1, 3, -1) = 3, max(-2, 0.5, 4.5) = 4.5,
# max(2.5, -3.5, 0) = 2.5, max(6, 1, -0.5) = 6. The axes also run as a model input.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes1 = Parameter("axes", "TENSOR_INT32", "{1}", [1])
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("axis1").Operation("REDUCE_MAX", i1, axes1, BoolScalar("keep_dims", False)).To(o1)
Example({i1: A, o1: [3.0, 4.5, 2.5, 6.0]}).AddInput(axes1).AddVariations(
    "relaxed", "float16", quant8(i1, o1))

# Axes [-1, 0] (= 2 and 0), kept: {1, 3, 1}; row j over a[*][j][*]:
# max(1, -2, 2.5, 6) = 6, max(3, 0.5, -3.5, 1) = 3, max(-1, 4.5, 0, -0.5) = 4.5.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes2 = Parameter("axes", "TENSOR_INT32", "{2}", [-1, 0])
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 1}")
Model("negative_keep").Operation("REDUCE_MAX", i2, axes2, BoolScalar("keep_dims", True)).To(o2)
Example({i2: A, o2: [6.0, 3.0, 4.5]}).AddInput(axes2).AddVariations(
    "relaxed", "float16", quant8(i2, o2))

# Axes [0, 2, -3]: -3 is 0 again; the same maxima with the axes removed.
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("duplicates").Operation("REDUCE_MAX", i3, [0, 2, -3], BoolScalar("keep_dims", False)).To(o3)
Example({i3: A, o3: [6.0, 3.0, 4.5]}).AddVariations("relaxed", "float16", quant8(i3, o3))

# Every axis, not kept: 6.
i4 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o4 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("all_axes").Operation("REDUCE_MAX", i4, [2, 1, 0], BoolScalar("keep_dims", False)).To(o4)
Example({i4: A, o4: [6.0]}).AddVariations("relaxed", "float16", quant8(i4, o4))

# Axis 2 kept: pair maxima 1, 3, 4.5, 6, 1, 0.
i5 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{2, 3, 1}")
Model("axis2_keep").Operation("REDUCE_MAX", i5, [2], BoolScalar("keep_dims", True)).To(o5)
Example({i5: A, o5: [1.0, 3.0, 4.5, 6.0, 1.0, 0.0]}).AddVariations(
    "relaxed", "float16", quant8(i5, o5))

# Rank 4, b = [[[1, 2], [3, -4]], [[5.5, 0.5], [-1.5, 2.5]]]: spatial maxima per
# channel (axes 1, 2 kept): max(1, 3, 5.5, -1.5) = 5.5, max(2, -4, 0.5, 2.5) = 2.5.
B = [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5]
i6 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o6 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 2}")
Model("spatial").Operation("REDUCE_MAX", i6, [1, 2], BoolScalar("keep_dims", True)).To(o6)
Example({i6: B, o6: [5.5, 2.5]}).AddVariations("relaxed", "float16", quant8(i6, o6))

# Rank 4, channel axis named twice ([-1, 3]), removed: pair maxima 2, 3, 5.5, 2.5.
i7 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o7 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2}")
Model("channels").Operation("REDUCE_MAX", i7, [-1, 3], BoolScalar("keep_dims", False)).To(o7)
Example({i7: B, o7: [2.0, 3.0, 5.5, 2.5]}).AddVariations("relaxed", "float16", quant8(i7, o7))

# Rank 1, not kept: max(3, -1.5, 0.5, 2) = 3, declared {1}.
i8 = Input("in", "TENSOR_FLOAT32", "{4}")
o8 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("vector").Operation("REDUCE_MAX", i8, [0], BoolScalar("keep_dims", False)).To(o8)
Example({i8: [3.0, -1.5, 0.5, 2.0], o8: [3.0]}).AddVariations(
    "relaxed", "float16", quant8(i8, o8))

# All values negative (the result is no default starting value), last axis of
# {2, 3}: max(-7, -2.5, -100) = -2.5, max(-0.5, -64, -1000) = -0.5.
i9 = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o9 = Output("out", "TENSOR_FLOAT32", "{2}")
Model("negative_values").Operation("REDUCE_MAX", i9, [1], BoolScalar("keep_dims", False)).To(o9)
Example({i9: [-7.0, -2.5, -100.0, -0.5, -64.0, -1000.0], o9: [-2.5, -0.5]}).AddVariations(
    "relaxed", "float16")
