# FULLY_CONNECTED on a relaxed (float32 computed as float16) model, HAL 1.1.
# Golden values: conformance/specs/oracles/convolution_oracle.py, case fc_rank2 (plain
# loops over docs/operations.md, FULLY_CONNECTED (9)).
i1 = Input("input", "TENSOR_FLOAT32", "{3, 5}")
w1 = Parameter("weights", "TENSOR_FLOAT32", "{4, 5}", [
    1.0, 0.75, 0.5, -0.75, -0.75, -0.5, 0.5, -0.25, -0.25, -1.0, 0.0, 0.25, -0.25, -1.0,
    0.25, -0.5, 0.5, 0.5, -1.0, 0.5
])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{4}", [0.5, -1.0, 0.0, 0.25])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 4}")
Model().Operation("FULLY_CONNECTED", i1, w1, b1, 0).To(o1)

Example({
    i1: [-1.0, 0.0, 0.0, -3.0, 1.0, -1.5, 4.0, -2.5, -4.0, 1.0, 1.5, 4.0, -3.5, -3.0, -2.0],
    o1: [1.0, -0.75, 3.25, 4.25, 3.0, 2.375, 5.875, 6.25, 7.0, 3.875, 4.375, 1.75],
}).AddInput(w1, b1).AddVariations("relaxed", includeDefault=False)
