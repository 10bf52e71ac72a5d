# TANH (HAL 1.1), relaxed to float16 precision. Golden values:
# conformance/specs/oracles/unary_oracle.py (math.tanh in float64; tanh is odd).
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("TANH", i).To(o).RelaxedExecution(True)
Example({
    i: [-3.0, -1.0, -0.25, 0.25, 1.0, 3.0],
    o: [-0.995054754, -0.761594156, -0.244918662, 0.244918662, 0.761594156, 0.995054754],
})
