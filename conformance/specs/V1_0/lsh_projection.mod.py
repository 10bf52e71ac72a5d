# LSH_PROJECTION with float32 hash seeds on float32, int32 and quant8 inputs:
# DENSE (type 2, weight given) and the deprecated sparse form (type 1, weight
# omitted: the zero-sized Input idiom), whose signatures carry no offset.
# Oracle: conformance/specs/oracles/lookup_oracle.py (FarmHash Fingerprint64
# written from the algorithm, checked against pyfarmhash); each model names its
# case. The key hashed per seed and input row is the seed's 4 float32 bytes
# followed by the row's raw bytes; the models give keys of 5, 12, 16, 20, 44,
# 84 and 164 bytes, so every length branch of the hash runs (short, medium,
# long, and one and two 64-byte rounds). Every decision has a margin
# |score| / sum |term| of at least 1%, so the bits do not hang on rounding.

# Case "dense_int32": 4 hash functions of 2 bits, int32 input [3, 2], weights.
hash0 = Parameter("hash0", "TENSOR_FLOAT32", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup0 = Input("lookup0", "TENSOR_INT32", "{3, 2}")
weight0 = Input("weight0", "TENSOR_FLOAT32", "{3}")
out0 = Output("out0", "TENSOR_INT32", "{8}")
Model("dense_int32").Operation("LSH_PROJECTION", hash0, lookup0, weight0, 2).To(out0)
Example({
    lookup0: [12, 7, -3, 40, 1000, -77],
    weight0: [0.5, -1.25, 2.0],
    out0: [0, 1, 0, 0, 1, 0, 1, 1],
}).AddInput(hash0)

# Case "sparse_float32": float32 input [2, 3], weight omitted, type 1: the two
# bits of hash function i packed first-bit-high, no i * 4 offset.
hash1 = Parameter("hash1", "TENSOR_FLOAT32", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup1 = Input("lookup1", "TENSOR_FLOAT32", "{2, 3}")
weight1 = Input("weight1", "TENSOR_FLOAT32", "{0}")
out1 = Output("out1", "TENSOR_INT32", "{4}")
Model("sparse_float32").Operation("LSH_PROJECTION", hash1, lookup1, weight1, 1).To(out1)
Example({
    lookup1: [1.5, -2.25, 8.0, 0.5, 3.75, -1.0],
    weight1: [],
    out1: [3, 2, 2, 1],
}).AddInput(hash1)

# Case "dense_quant8": a rank-1 quant8 input of 5 rows of one byte each; its
# scale and zero point play no part (raw bytes are hashed).
hash2 = Parameter("hash2", "TENSOR_FLOAT32", "{3, 3}",
                  [-0.25, 0.75, 1.5, -3.0, 5.25, 0.0625, -12.5, 2.0, 7.75])
lookup2 = Input("lookup2", ("TENSOR_QUANT8_ASYMM", [5], 0.5, 10))
weight2 = Input("weight2", "TENSOR_FLOAT32", "{5}")
out2 = Output("out2", "TENSOR_INT32", "{9}")
Model("dense_quant8").Operation("LSH_PROJECTION", hash2, lookup2, weight2, 2).To(out2)
Example({
    lookup2: [3, 200, 17, 128, 255],
    weight2: [1.0, 2.0, -0.5, 0.25, 3.0],
    out2: [0, 1, 0, 0, 1, 0, 1, 0, 0],
})

# Case "sparse_rank3_int32": a rank-3 int32 input [4, 2, 2] (rows of 16 bytes).
hash3 = Parameter("hash3", "TENSOR_FLOAT32", "{3, 3}",
                  [-0.25, 0.75, 1.5, -3.0, 5.25, 0.0625, -12.5, 2.0, 7.75])
lookup3 = Input("lookup3", "TENSOR_INT32", "{4, 2, 2}")
weight3 = Input("weight3", "TENSOR_FLOAT32", "{0}")
out3 = Output("out3", "TENSOR_INT32", "{3}")
Model("sparse_rank3_int32").Operation("LSH_PROJECTION", hash3, lookup3, weight3, 1).To(out3)
Example({
    lookup3: [1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8],
    weight3: [],
    out3: [7, 5, 1],
})

# Case "bits32_float32": one hash function of 32 bits (the limit): the
# signature uses the sign bit, so it reads as a negative int32.
hash4 = Parameter("hash4", "TENSOR_FLOAT32", "{1, 32}", [0.5 * (k - 16) for k in range(32)])
lookup4 = Input("lookup4", "TENSOR_FLOAT32", "{2, 10}")
weight4 = Input("weight4", "TENSOR_FLOAT32", "{0}")
out4 = Output("out4", "TENSOR_INT32", "{1}")
Model("bits32_float32").Operation("LSH_PROJECTION", hash4, lookup4, weight4, 1).To(out4)
Example({
    lookup4: [0.25 * k - 3.0 for k in range(20)],
    weight4: [],
    out4: [-1720699471],
})

# Case "long_int32": rows of 80 bytes (one 64-byte round), dense.
hash5 = Parameter("hash5", "TENSOR_FLOAT32", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup5 = Input("lookup5", "TENSOR_INT32", "{2, 20}")
weight5 = Input("weight5", "TENSOR_FLOAT32", "{2}")
out5 = Output("out5", "TENSOR_INT32", "{8}")
Model("long_int32").Operation("LSH_PROJECTION", hash5, lookup5, weight5, 2).To(out5)
Example({
    lookup5: list(range(-20, 20)),
    weight5: [1.0, -0.75],
    out5: [0, 0, 1, 0, 0, 1, 0, 0],
})

# Case "two_rounds_int32": rows of 160 bytes (two 64-byte rounds), sparse.
hash6 = Parameter("hash6", "TENSOR_FLOAT32", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup6 = Input("lookup6", "TENSOR_INT32", "{2, 40}")
weight6 = Input("weight6", "TENSOR_FLOAT32", "{0}")
out6 = Output("out6", "TENSOR_INT32", "{4}")
Model("two_rounds_int32").Operation("LSH_PROJECTION", hash6, lookup6, weight6, 1).To(out6)
Example({
    lookup6: [k * k - 50 for k in range(80)],
    weight6: [],
    out6: [3, 1, 0, 0],
})
