# LSH_PROJECTION forms new in 1.2: the SPARSE type 3 (signature of hash
# function i plus i << num_bits) and float16 hash seeds, weights and inputs.
# Oracle: conformance/specs/oracles/lookup_oracle.py; each model names its case
# ("V1_2/lsh_projection_v1_2 <case>", or "V1_0/lsh_projection dense_int32").
# Every hash seed and weight is exactly representable in float16, so the
# float16 variations hash the same float32 seed bytes and keep the goldens. A
# float16 *input* changes the hashed bytes (2 per element, not 4), so inputs
# keep their type in every variation; float16 inputs have models of their own.

# Case "sparse_float32" with type 3: [3, 2, 2, 1] + [0, 4, 8, 12].
hash0 = Parameter("hash0", "TENSOR_FLOAT32", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup0 = Input("lookup0", "TENSOR_FLOAT32", "{2, 3}")
weight0 = Input("weight0", "TENSOR_FLOAT32", "{0}")
out0 = Output("out0", "TENSOR_INT32", "{4}")
Model("sparse_float32").Operation("LSH_PROJECTION", hash0, lookup0, weight0, 3).To(out0)
Example({
    lookup0: [1.5, -2.25, 8.0, 0.5, 3.75, -1.0],
    weight0: [],
    out0: [3, 6, 10, 13],
}).AddInput(hash0)

# Case "sparse_quant8": quant8 input [3, 2], type 3 with 3-bit signatures
# (offsets 0, 8, 16); float16 seeds in the float16 variation.
hash1 = Parameter("hash1", "TENSOR_FLOAT32", "{3, 3}",
                  [-0.25, 0.75, 1.5, -3.0, 5.25, 0.0625, -12.5, 2.0, 7.75])
lookup1 = Input("lookup1", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.25, 128))
weight1 = Input("weight1", "TENSOR_FLOAT32", "{0}")
out1 = Output("out1", "TENSOR_INT32", "{3}")
Model("sparse_quant8").Operation("LSH_PROJECTION", hash1, lookup1, weight1, 3).To(out1)
Example({
    lookup1: [3, 200, 17, 128, 255, 9],
    weight1: [],
    out1: [0, 14, 19],
}).AddVariations("float16").AddInput(hash1)

# Case "dense_int32" (V1_0 data) with float16 seeds and weights.
hash2 = Parameter("hash2", "TENSOR_FLOAT32", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup2 = Input("lookup2", "TENSOR_INT32", "{3, 2}")
weight2 = Input("weight2", "TENSOR_FLOAT32", "{3}")
out2 = Output("out2", "TENSOR_INT32", "{8}")
Model("dense_int32").Operation("LSH_PROJECTION", hash2, lookup2, weight2, 2).To(out2)
Example({
    lookup2: [12, 7, -3, 40, 1000, -77],
    weight2: [0.5, -1.25, 2.0],
    out2: [0, 1, 0, 0, 1, 0, 1, 1],
}).AddVariations("float16", includeDefault=False)

# Case "float16_float16": float16 seeds, input and weights, dense.
hash3 = Parameter("hash3", "TENSOR_FLOAT16", "{4, 2}",
                  [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
lookup3 = Input("lookup3", "TENSOR_FLOAT16", "{2, 3}")
weight3 = Input("weight3", "TENSOR_FLOAT16", "{2}")
out3 = Output("out3", "TENSOR_INT32", "{8}")
Model("float16_float16").Operation("LSH_PROJECTION", hash3, lookup3, weight3, 2).To(out3)
Example({
    lookup3: [1.5, -2.25, 8.0, 0.5, 3.75, -1.0],
    weight3: [2.0, -0.5],
    out3: [1, 1, 0, 0, 1, 1, 1, 1],
}).AddInput(hash3)

# Case "float16_float32": float16 seeds on a float32 input, type 3, weight
# omitted. The input values are rounded to float32 before hashing.
hash4 = Parameter("hash4", "TENSOR_FLOAT16", "{3, 3}",
                  [-0.25, 0.75, 1.5, -3.0, 5.25, 0.0625, -12.5, 2.0, 7.75])
lookup4 = Input("lookup4", "TENSOR_FLOAT32", "{4, 2}")
weight4 = Input("weight4", "TENSOR_FLOAT16", "{0}")
out4 = Output("out4", "TENSOR_INT32", "{3}")
Model("float16_float32").Operation("LSH_PROJECTION", hash4, lookup4, weight4, 3).To(out4)
Example({
    lookup4: [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8],
    weight4: [],
    out4: [6, 14, 19],
})

# Case "float32_float16": float32 seeds on a float16 input (values rounded to
# float16 before hashing, 4-byte rows), dense.
hash5 = Parameter("hash5", "TENSOR_FLOAT32", "{3, 3}",
                  [-0.25, 0.75, 1.5, -3.0, 5.25, 0.0625, -12.5, 2.0, 7.75])
lookup5 = Input("lookup5", "TENSOR_FLOAT16", "{4, 2}")
weight5 = Input("weight5", "TENSOR_FLOAT32", "{4}")
out5 = Output("out5", "TENSOR_INT32", "{9}")
Model("float32_float16").Operation("LSH_PROJECTION", hash5, lookup5, weight5, 2).To(out5)
Example({
    lookup5: [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8],
    weight5: [1.0, 1.0, -1.0, 0.5],
    out5: [0, 0, 1, 1, 0, 1, 1, 0, 1],
})
