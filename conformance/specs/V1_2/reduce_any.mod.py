# REDUCE_ANY (HAL 1.2): the disjunction over a list of axes of a TENSOR_BOOL8;
# keep_dims is a BOOL. Negative axes count from the end, a repeated axis is
# reduced once, and reducing every axis without keep_dims gives one value
# (declared {1}). Golden values derived by hand below and checked with
# conformance/specs/oracles/reduction_oracle.py.

# d = [[[0, 0], [1, 0], [0, 0]], [[0, 1], [0, 0], [0, 0]]]
D = [False, False, True, False, False, False, False, True, False, False, False, False]

# Axis 1 of {2, 3, 2}: d[0][*][0] = 0, 1, 0 -> 1; d[0][*][1] = 0, 0, 0 -> 0;
# d[1][*][0] -> 0; d[1][*][1] = 1, 0, 0 -> 1. The axes also run as a model input.
i1 = Input("in", "TENSOR_BOOL8", "{2, 3, 2}")
axes1 = Parameter("axes", "TENSOR_INT32", "{1}", [1])
o1 = Output("out", "TENSOR_BOOL8", "{2, 2}")
Model("axis1").Operation("REDUCE_ANY", i1, axes1, BoolScalar("keep_dims", False)).To(o1)
Example({i1: D, o1: [True, False, False, True]}).AddInput(axes1)

# Axes [-1, 0] (= 2 and 0), kept: {1, 3, 1}; row j over d[*][j][*]:
# j = 0: 0, 0, 0, 1 -> 1; j = 1: 1, 0, 0, 0 -> 1; j = 2: all 0 -> 0.
i2 = Input("in", "TENSOR_BOOL8", "{2, 3, 2}")
axes2 = Parameter("axes", "TENSOR_INT32", "{2}", [-1, 0])
o2 = Output("out", "TENSOR_BOOL8", "{1, 3, 1}")
Model("negative_keep").Operation("REDUCE_ANY", i2, axes2, BoolScalar("keep_dims", True)).To(o2)
Example({i2: D, o2: [True, True, False]}).AddInput(axes2)

# Axes [0, 2, -3]: -3 is 0 again; the same with the axes removed.
i3 = Input("in", "TENSOR_BOOL8", "{2, 3, 2}")
o3 = Output("out", "TENSOR_BOOL8", "{3}")
Model("duplicates").Operation("REDUCE_ANY", i3, [0, 2, -3], BoolScalar("keep_dims", False)).To(o3)
Example({i3: D, o3: [True, True, False]})

# Every axis, not kept: d has a true -> 1; all false -> 0.
i4 = Input("in", "TENSOR_BOOL8", "{2, 3, 2}")
o4 = Output("out", "TENSOR_BOOL8", "{1}")
Model("all_axes").Operation("REDUCE_ANY", i4, [2, 1, 0], BoolScalar("keep_dims", False)).To(o4)
Example(
    ({i4: D}, {o4: [True]}),
    ({i4: [False] * 12}, {o4: [False]}),
)

# Axis 2 kept: pairs (0, 0), (1, 0), (0, 0), (0, 1), (0, 0), (0, 0) -> 0, 1, 0, 1, 0, 0.
i5 = Input("in", "TENSOR_BOOL8", "{2, 3, 2}")
o5 = Output("out", "TENSOR_BOOL8", "{2, 3, 1}")
Model("axis2_keep").Operation("REDUCE_ANY", i5, [2], BoolScalar("keep_dims", True)).To(o5)
Example({i5: D, o5: [False, True, False, True, False, False]})

# Rank 4 {1, 2, 2, 2}, spatial axes kept: channel 0 over 0, 0, 0, 0 -> 0;
# channel 1 over 0, 0, 1, 0 -> 1.
i6 = Input("in", "TENSOR_BOOL8", "{1, 2, 2, 2}")
o6 = Output("out", "TENSOR_BOOL8", "{1, 1, 1, 2}")
Model("spatial").Operation("REDUCE_ANY", i6, [1, 2], BoolScalar("keep_dims", True)).To(o6)
Example({
    i6: [False, False, False, False, False, True, False, False],
    o6: [False, True],
})

# Rank 1, kept as {1}: one true among four -> 1.
i7 = Input("in", "TENSOR_BOOL8", "{4}")
o7 = Output("out", "TENSOR_BOOL8", "{1}")
Model("vector").Operation("REDUCE_ANY", i7, [-1], BoolScalar("keep_dims", True)).To(o7)
Example({i7: [False, False, True, False], o7: [True]})
