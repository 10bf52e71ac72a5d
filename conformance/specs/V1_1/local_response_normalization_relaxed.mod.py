# LOCAL_RESPONSE_NORMALIZATION relaxed to float16 precision (HAL 1.1), rank 4,
# depth axis, radius 2, bias 2, alpha 0.25, beta 0.75. Golden values:
# conformance/specs/oracles/pooling_oracle.py, case lrn_cases (the data of
# V1_0/local_response_normalization.mod.py).
i1 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o1 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model().Operation("LOCAL_RESPONSE_NORMALIZATION", i1, 2, 2.0, 0.25, 0.75).To(o1).RelaxedExecution(True)
Example({
    i1: [1.0, -2.0, 3.0, 0.5, 2.0, -1.0,
         -0.5, 4.0, 1.5, -3.0, 0.0, 2.5],
    o1: [0.2784377, -0.5521759, 0.7316768, 0.1219461, 0.5521759, -0.4072706,
         -0.1210823, 0.7779178, 0.2917192, -0.5189556, 0.0, 0.6678329],
})
