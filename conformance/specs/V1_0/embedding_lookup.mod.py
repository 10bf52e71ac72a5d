# EMBEDDING_LOOKUP on float32 values: out[i] = values[lookups[i]], whole rows.
# Hand-derived: row r of each values tensor is written so its index shows.
# Covers repeated lookups, every row, rank-3 values, a single lookup, and the
# values as a constant (then as an input).

lookups = Input("lookups", "TENSOR_INT32", "{3}")
values = Input("values", "TENSOR_FLOAT32", "{4, 2}")
out = Output("out", "TENSOR_FLOAT32", "{3, 2}")
Model().Operation("EMBEDDING_LOOKUP", lookups, values).To(out)
# Row r is [r, -r - 0.5]; lookups [2, 0, 2] pick rows 2, 0 and 2 again.
Example((
    {lookups: [2, 0, 2], values: [0.0, -0.5, 1.0, -1.5, 2.0, -2.5, 3.0, -3.5]},
    {out: [2.0, -2.5, 0.0, -0.5, 2.0, -2.5]},
), (
    # The last row, then the first and the second: [3, 0, 1].
    {lookups: [3, 0, 1], values: [0.0, -0.5, 1.0, -1.5, 2.0, -2.5, 3.0, -3.5]},
    {out: [3.0, -3.5, 0.0, -0.5, 1.0, -1.5]},
))

# Rank-3 values [3, 2, 2] as a constant: row r holds 10r + [1, 2, 3, 4].
lookups3 = Input("lookups3", "TENSOR_INT32", "{2}")
values3 = Parameter("values3", "TENSOR_FLOAT32", "{3, 2, 2}",
                    [11.0, 12.0, 13.0, 14.0, 21.0, 22.0, 23.0, 24.0, 31.0, 32.0, 33.0, 34.0])
out3 = Output("out3", "TENSOR_FLOAT32", "{2, 2, 2}")
Model("rank3").Operation("EMBEDDING_LOOKUP", lookups3, values3).To(out3)
# lookups [1, 2] -> rows 1 and 2.
Example({
    lookups3: [1, 2],
    out3: [21.0, 22.0, 23.0, 24.0, 31.0, 32.0, 33.0, 34.0],
}).AddInput(values3)

# One lookup into a single-column table [5, 1]: lookups [4] -> row 4 = [-4.25].
lookups1 = Input("lookups1", "TENSOR_INT32", "{1}")
values1 = Input("values1", "TENSOR_FLOAT32", "{5, 1}")
out1 = Output("out1", "TENSOR_FLOAT32", "{1, 1}")
Model("single").Operation("EMBEDDING_LOOKUP", lookups1, values1).To(out1)
Example({
    lookups1: [4],
    values1: [0.75, 1e10, -3.0, 0.0, -4.25],
    out1: [-4.25],
})
