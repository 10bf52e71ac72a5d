# ARGMIN (HAL 1.2): the index of the smallest value along one axis; the output is a
# TENSOR_INT32 without that axis (a rank-1 input gives one index, declared {1}).
# Ties go to the lowest index. Quant8 compares the raw bytes (scale 0.5, zero
# point 8 here). Golden values from conformance/specs/oracles/reduction_oracle.py
# and by hand below.
#
# AddAllAxis moves the reduced axis to every position (negative axes included)
# while the other axes keep their order, so the output stays the same.

# e = [[[2, -1], [5, -1], [5, 3]], [[0, 4], [0, 4], [-3, 4]]], axis 1:
# e[0][*][0] = 2, 5, 5 -> 0; e[0][*][1] = -1, -1, 3 -> 0 (tie, first);
# e[1][*][0] = 0, 0, -3 -> 2; e[1][*][1] = 4, 4, 4 -> 0 (all equal).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axis1 = Int32Scalar("axis", 1)
o1 = Output("out", "TENSOR_INT32", "{2, 2}")
Model("ties").Operation("ARGMIN", i1, axis1).To(o1)
quant8_1 = DataTypeConverter().Identify({i1: ("TENSOR_QUANT8_ASYMM", 0.5, 8)})
Example({
    i1: [2.0, -1.0, 5.0, -1.0, 5.0, 3.0, 0.0, 4.0, 0.0, 4.0, -3.0, 4.0],
    o1: [0, 0, 2, 0],
}).AddAllAxis(i1, axis1).AddVariations("relaxed", "float16", "int32", quant8_1)

# Rank 1: [3, -1.5, 0.5, -1.5, 3] -> 1 (-1.5 at 1 and 3). The int32 variation
# rounds the data to [3, -2, 0, -2, 3]: still 1.
i2 = Input("in", "TENSOR_FLOAT32", "{5}")
o2 = Output("out", "TENSOR_INT32", "{1}")
Model("vector").Operation("ARGMIN", i2, 0).To(o2)
quant8_2 = DataTypeConverter().Identify({i2: ("TENSOR_QUANT8_ASYMM", 0.5, 8)})
Example({i2: [3.0, -1.5, 0.5, -1.5, 3.0], o2: [1]}).AddVariations(
    "relaxed", "float16", "int32", quant8_2)

# Rank 4, the channel axis of an NHWC image b = [[[1, 2], [3, -4]], [[5.5, 0.5],
# [-1.5, 2.5]]]: per pixel 0, 1, 1, 0; AddAllAxis moves the channel axis around.
i3 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
axis3 = Int32Scalar("axis", 3)
o3 = Output("out", "TENSOR_INT32", "{1, 2, 2}")
Model("channels").Operation("ARGMIN", i3, axis3).To(o3)
quant8_3 = DataTypeConverter().Identify({i3: ("TENSOR_QUANT8_ASYMM", 0.5, 8)})
Example({
    i3: [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5],
    o3: [0, 1, 1, 0],
}).AddAllAxis(i3, axis3).AddVariations("relaxed", "float16", quant8_3)

# TENSOR_INT32 extremes, last axis (-1): [5, -2147483648, 2147483647, -2147483648]
# -> 1 (the first of the two minima); [2147483647, 2147483647, 7, 8] -> 2.
i4 = Input("in", "TENSOR_INT32", "{2, 4}")
o4 = Output("out", "TENSOR_INT32", "{2}")
Model("int32_extremes").Operation("ARGMIN", i4, -1).To(o4)
Example({
    i4: [5, -2147483648, 2147483647, -2147483648, 2147483647, 2147483647, 7, 8],
    o4: [1, 2],
})
