# EMBEDDING_LOOKUP in a relaxed model: rows are copied, never computed, so
# relaxed precision changes nothing. Hand-derived: row r of the values is
# [r + 0.25, -r]; lookups [1, 1, 3, 0] pick rows 1, 1, 3 and 0.

lookups = Input("lookups", "TENSOR_INT32", "{4}")
values = Input("values", "TENSOR_FLOAT32", "{4, 2}")
out = Output("out", "TENSOR_FLOAT32", "{4, 2}")
Model().Operation("EMBEDDING_LOOKUP", lookups, values).To(out).RelaxedExecution(True)
Example({
    lookups: [1, 1, 3, 0],
    values: [0.25, 0.0, 1.25, -1.0, 2.25, -2.0, 3.25, -3.0],
    out: [1.25, -1.0, 1.25, -1.0, 3.25, -3.0, 0.25, 0.0],
})
