# EMBEDDING_LOOKUP with TENSOR_FLOAT16 values (HAL 1.3): out[i] = values[lookups[i]],
# whole rows, the bytes copied. Golden values by hand: row r of the values is written
# so that its index shows; every value is exact in float16.

# Values [4, 3]: row r is [r, r + 0.5, -r - 0.25]. lookups [3, 0, 3, 1] pick rows
# 3, 0, 3 again and 1.
lookups = Input("lookups", "TENSOR_INT32", "{4}")
values = Input("values", "TENSOR_FLOAT16", "{4, 3}")
out = Output("out", "TENSOR_FLOAT16", "{4, 3}")
Model().Operation("EMBEDDING_LOOKUP", lookups, values).To(out)
Example({
    lookups: [3, 0, 3, 1],
    values: [0.0, 0.5, -0.25, 1.0, 1.5, -1.25, 2.0, 2.5, -2.25, 3.0, 3.5, -3.25],
    out: [3.0, 3.5, -3.25, 0.0, 0.5, -0.25, 3.0, 3.5, -3.25, 1.0, 1.5, -1.25],
})

# Rank-3 values [3, 2, 2] as a constant, row r = 10r + [1, 2, 3, 4] and one row
# holding float16's extremes (65504, -65504, 2**-24, -0.0); lookups [2, 1].
lookups3 = Input("lookups3", "TENSOR_INT32", "{2}")
values3 = Parameter("values3", "TENSOR_FLOAT16", "{3, 2, 2}",
                    [1.0, 2.0, 3.0, 4.0, 11.0, 12.0, 13.0, 14.0,
                     65504.0, -65504.0, 5.960464477539063e-08, -0.0])
out3 = Output("out3", "TENSOR_FLOAT16", "{2, 2, 2}")
Model("rank3").Operation("EMBEDDING_LOOKUP", lookups3, values3).To(out3)
Example({
    lookups3: [2, 1],
    out3: [65504.0, -65504.0, 5.960464477539063e-08, -0.0, 11.0, 12.0, 13.0, 14.0],
}).AddInput(values3)
