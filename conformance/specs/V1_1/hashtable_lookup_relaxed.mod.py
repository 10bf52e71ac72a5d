# HASHTABLE_LOOKUP in a relaxed model: rows are copied, never computed, so
# relaxed precision changes nothing. Hand-derived: keys [1, 2, 4] own rows
# [0.5, -1.5], [2.5, 3.75], [-0.125, 8.0]; lookups [4, 3, 1]: hit, miss, hit.

lookups = Input("lookups", "TENSOR_INT32", "{3}")
keys = Input("keys", "TENSOR_INT32", "{3}")
values = Input("values", "TENSOR_FLOAT32", "{3, 2}")
out = Output("out", "TENSOR_FLOAT32", "{3, 2}")
hits = Output("hits", "TENSOR_QUANT8_ASYMM", "{3}, 1.0f, 0")
Model().Operation("HASHTABLE_LOOKUP", lookups, keys, values).To(out, hits)
Example({
    lookups: [4, 3, 1],
    keys: [1, 2, 4],
    values: [0.5, -1.5, 2.5, 3.75, -0.125, 8.0],
    out: [-0.125, 8.0, 0.0, 0.0, 0.5, -1.5],
    hits: [1, 0, 1],
}).AddVariations("relaxed", includeDefault=False)
