# TOPK_V2 (HAL 1.2): along the last axis, the k largest values from the largest
# down (output 0, the input's type) and their positions (output 1, TENSOR_INT32).
# Equal values: the Android 10 reference sorts (value, index) pairs ascending and
# reverses them, so the one at the larger position comes first; the rows below
# have ties to pin that down. Quant8 values keep the input's scale and zero point
# (0.5 and 8 here). Golden values from conformance/specs/oracles/reduction_oracle.py
# and by hand below.

# t = [[3, 1, 4, 1, 5], [-2, 6, -2, 6, 0]].
T = [3.0, 1.0, 4.0, 1.0, 5.0, -2.0, 6.0, -2.0, 6.0, 0.0]


def quant8(inp, values):
    return DataTypeConverter().Identify({
        inp: ("TENSOR_QUANT8_ASYMM", 0.5, 8),
        values: ("TENSOR_QUANT8_ASYMM", 0.5, 8),
    })


# k = 3: row 0 -> 5 (4), 4 (2), 3 (0); row 1 -> 6 (3), 6 (1), 0 (4).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 5}")
v1 = Output("values", "TENSOR_FLOAT32", "{2, 3}")
x1 = Output("indices", "TENSOR_INT32", "{2, 3}")
Model("k3").Operation("TOPK_V2", i1, 3).To(v1, x1)
Example({
    i1: T,
    v1: [5.0, 4.0, 3.0, 6.0, 6.0, 0.0],
    x1: [4, 2, 0, 3, 1, 4],
}).AddVariations("relaxed", "float16", "int32", quant8(i1, v1))

# k = 1: the maximum of each row; row 1's two 6s give position 3.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 5}")
v2 = Output("values", "TENSOR_FLOAT32", "{2, 1}")
x2 = Output("indices", "TENSOR_INT32", "{2, 1}")
Model("k1").Operation("TOPK_V2", i2, 1).To(v2, x2)
Example({i2: T, v2: [5.0, 6.0], x2: [4, 3]}).AddVariations(
    "relaxed", "float16", "int32", quant8(i2, v2))

# k = 5 (the whole row): a full descending sort, ties larger position first:
# row 0 -> 5 (4), 4 (2), 3 (0), 1 (3), 1 (1); row 1 -> 6 (3), 6 (1), 0 (4), -2 (2), -2 (0).
i3 = Input("in", "TENSOR_FLOAT32", "{2, 5}")
v3 = Output("values", "TENSOR_FLOAT32", "{2, 5}")
x3 = Output("indices", "TENSOR_INT32", "{2, 5}")
Model("k_last_dim").Operation("TOPK_V2", i3, 5).To(v3, x3)
Example({
    i3: T,
    v3: [5.0, 4.0, 3.0, 1.0, 1.0, 6.0, 6.0, 0.0, -2.0, -2.0],
    x3: [4, 2, 0, 3, 1, 3, 1, 4, 2, 0],
}).AddVariations("relaxed", "float16", "int32", quant8(i3, v3))

# Rank 1, k = 2: [3, -1.5, 0.5, 2] -> 3 (0), 2 (3).
i4 = Input("in", "TENSOR_FLOAT32", "{4}")
v4 = Output("values", "TENSOR_FLOAT32", "{2}")
x4 = Output("indices", "TENSOR_INT32", "{2}")
Model("vector").Operation("TOPK_V2", i4, 2).To(v4, x4)
Example({i4: [3.0, -1.5, 0.5, 2.0], v4: [3.0, 2.0], x4: [0, 3]}).AddVariations(
    "relaxed", "float16", quant8(i4, v4))

# Rank 3 {2, 2, 3}, k = 2, rows [1, 0, 2] -> 2 (2), 1 (0); [5, 5, -1] -> 5 (1), 5 (0);
# [-2, -3, -2] -> -2 (2), -2 (0); [4, 7, 6] -> 7 (1), 6 (2).
i5 = Input("in", "TENSOR_FLOAT32", "{2, 2, 3}")
v5 = Output("values", "TENSOR_FLOAT32", "{2, 2, 2}")
x5 = Output("indices", "TENSOR_INT32", "{2, 2, 2}")
Model("rank3").Operation("TOPK_V2", i5, 2).To(v5, x5)
Example({
    i5: [1.0, 0.0, 2.0, 5.0, 5.0, -1.0, -2.0, -3.0, -2.0, 4.0, 7.0, 6.0],
    v5: [2.0, 1.0, 5.0, 5.0, -2.0, -2.0, 7.0, 6.0],
    x5: [2, 0, 1, 0, 2, 0, 1, 2],
}).AddVariations("relaxed", "float16", "int32", quant8(i5, v5))

# TENSOR_INT32 extremes, k = 2: [-2147483648, 2147483647, 0, 2147483647]
# -> 2147483647 (3), 2147483647 (1).
i6 = Input("in", "TENSOR_INT32", "{4}")
v6 = Output("values", "TENSOR_INT32", "{2}")
x6 = Output("indices", "TENSOR_INT32", "{2}")
Model("int32_extremes").Operation("TOPK_V2", i6, 2).To(v6, x6)
Example({
    i6: [-2147483648, 2147483647, 0, 2147483647],
    v6: [2147483647, 2147483647],
    x6: [3, 1],
})
