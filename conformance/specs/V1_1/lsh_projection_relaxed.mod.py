# LSH_PROJECTION in relaxed (fp32-as-fp16) models: the output is int32 bits,
# decided by signs with margins of at least 3% (|score| / sum |term|), so a
# relaxed computation must give the same bits as the float32 one.
# Oracle: conformance/specs/oracles/lookup_oracle.py, cases "dense_int32" and
# "sparse_float32" (the same data as V1_0/lsh_projection).

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
}).AddVariations("relaxed", includeDefault=False)

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
}).AddVariations("relaxed", includeDefault=False)
