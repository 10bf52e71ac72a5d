# LOGISTIC (HAL 1.1), relaxed to float16 precision. Golden values:
# conformance/specs/oracles/unary_oracle.py (1 / (1 + e**-x) in float64).
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("LOGISTIC", i).To(o).RelaxedExecution(True)
Example({
    i: [-4.0, -1.5, 0.0, 0.75, 2.0, 6.0],
    o: [0.01798621, 0.182425524, 0.5, 0.679178699, 0.880797078, 0.997527377],
})
