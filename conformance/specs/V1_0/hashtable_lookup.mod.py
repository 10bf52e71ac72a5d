# HASHTABLE_LOOKUP: each lookup is searched in the sorted keys; a hit copies
# the matching values row and sets hits[i] = 1, a miss writes a row of raw
# zero bytes and hits[i] = 0. Hits are TENSOR_QUANT8_ASYMM, scale 1, zero
# point 0. Hand-derived: the row of key k is written so k shows.
# Covers hits and misses mixed, a repeated lookup, negative keys, the first
# and last keys, all misses, rank-3 values, int32 values (variation) and
# quant8 values whose misses are raw 0, not the zero point.

lookups = Input("lookups", "TENSOR_INT32", "{5}")
keys = Parameter("keys", "TENSOR_INT32", "{4}", [-7, 0, 3, 9])
values = Input("values", "TENSOR_FLOAT32", "{4, 2}")
out = Output("out", "TENSOR_FLOAT32", "{5, 2}")
hits = Output("hits", "TENSOR_QUANT8_ASYMM", "{5}, 1.0f, 0")
Model().Operation("HASHTABLE_LOOKUP", lookups, keys, values).To(out, hits)
# Row of key k: [k, 10k + 1] -> [-7, -69], [0, 1], [3, 31], [9, 91].
Example((
    # -7 (first key), 3, 8 (miss), 3 again, 42 (miss, above every key).
    {lookups: [-7, 3, 8, 3, 42], values: [-7.0, -69.0, 0.0, 1.0, 3.0, 31.0, 9.0, 91.0]},
    {out: [-7.0, -69.0, 3.0, 31.0, 0.0, 0.0, 3.0, 31.0, 0.0, 0.0], hits: [1, 1, 0, 1, 0]},
), (
    # 9 (last key), 0, -8 (miss, below every key), -1 and 1 (misses between keys).
    {lookups: [9, 0, -8, -1, 1], values: [-7.0, -69.0, 0.0, 1.0, 3.0, 31.0, 9.0, 91.0]},
    {out: [9.0, 91.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], hits: [1, 1, 0, 0, 0]},
), (
    # All misses: every row zero.
    {lookups: [1, 2, 4, 10, -100], values: [-7.0, -69.0, 0.0, 1.0, 3.0, 31.0, 9.0, 91.0]},
    {out: [0.0] * 10, hits: [0, 0, 0, 0, 0]},
)).AddVariations("int32").AddInput(keys)

# Rank-3 values [3, 2, 2]: the row of key k is [k, k + 1, k + 2, k + 3].
lookups3 = Input("lookups3", "TENSOR_INT32", "{3}")
keys3 = Input("keys3", "TENSOR_INT32", "{3}")
values3 = Input("values3", "TENSOR_FLOAT32", "{3, 2, 2}")
out3 = Output("out3", "TENSOR_FLOAT32", "{3, 2, 2}")
hits3 = Output("hits3", "TENSOR_QUANT8_ASYMM", "{3}, 1.0f, 0")
Model("rank3").Operation("HASHTABLE_LOOKUP", lookups3, keys3, values3).To(out3, hits3)
# lookups [20, 5, 10]: 20 and 10 hit, 5 misses.
Example({
    lookups3: [20, 5, 10],
    keys3: [10, 20, 30],
    values3: [10.0, 11.0, 12.0, 13.0, 20.0, 21.0, 22.0, 23.0, 30.0, 31.0, 32.0, 33.0],
    out3: [20.0, 21.0, 22.0, 23.0, 0.0, 0.0, 0.0, 0.0, 10.0, 11.0, 12.0, 13.0],
    hits3: [1, 0, 1],
})

# Quant8 values at scale 0.5, zero point 128, written as raw bytes: a miss
# gives raw 0 (real -64), not the zero point.
lookupsq = Input("lookupsq", "TENSOR_INT32", "{4}")
keysq = Input("keysq", "TENSOR_INT32", "{3}")
valuesq = Input("valuesq", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.5, 128))
outq = Output("outq", ("TENSOR_QUANT8_ASYMM", [4, 2], 0.5, 128))
hitsq = Output("hitsq", "TENSOR_QUANT8_ASYMM", "{4}, 1.0f, 0")
Model("quant8").Operation("HASHTABLE_LOOKUP", lookupsq, keysq, valuesq).To(outq, hitsq)
# keys [-3, 4, 1000] own rows [128, 255], [1, 129], [200, 0]; lookups
# [1000, 5, -3, 4]: hit, miss, hit, hit.
Example({
    lookupsq: [1000, 5, -3, 4],
    keysq: [-3, 4, 1000],
    valuesq: [128, 255, 1, 129, 200, 0],
    outq: [200, 0, 0, 0, 128, 255, 1, 129],
    hitsq: [1, 0, 1, 1],
})
