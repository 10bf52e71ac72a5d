# SOFTMAX relaxed to float16 precision (HAL 1.1), rank 2 and rank 4.
# Golden values: conformance/specs/oracles/pooling_oracle.py, case softmax_cases
# (the data of V1_0/softmax.mod.py).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model("rank2").Operation("SOFTMAX", i1, 0.5).To(o1).RelaxedExecution(True)
Example({
    i1: [1.0, 2.0, 3.0, 4.0, -1.0, -1.0, 2.0, 0.5],
    o1: [0.1015363, 0.1674051, 0.2760043, 0.4550542,
         0.1162968, 0.1162968, 0.5212061, 0.2462003],
})

i2 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("rank4").Operation("SOFTMAX", i2, 1.0).To(o2).RelaxedExecution(True)
Example({
    i2: [0.5, 1.5, -1.0, 2.0, 2.0, 2.0, -3.0, 0.0, 3.0, 1.0, -0.5, 4.5],
    o2: [0.2537162, 0.6896721, 0.05661173, 0.3333333, 0.3333333, 0.3333333,
         0.002355633, 0.04731416, 0.9503302, 0.02912176, 0.006497943, 0.9643803],
})
