# SPACE_TO_DEPTH on a relaxed model (HAL 1.1). Golden values:
# conformance/specs/oracles/shape_oracle.py ("space_to_depth 1x2x2x2 b2" and "1x4x4x1 b2").
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 1, 1, 8}")
Model().Operation("SPACE_TO_DEPTH", i1, 2).To(o1).RelaxedExecution(True)
Example({
    i1: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
    o1: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
})

i2 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
Model("spatial").Operation("SPACE_TO_DEPTH", i2, 2).To(o2).RelaxedExecution(True)
Example({
    i2: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5],
    o2: [0.0, 0.5, 2.0, 2.5, 1.0, 1.5, 3.0, 3.5, 4.0, 4.5, 6.0, 6.5, 5.0, 5.5, 7.0, 7.5],
})
