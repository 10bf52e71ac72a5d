# RELU1 (HAL 1.1), relaxed to float16 precision. min(1, max(-1, x)) by hand.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("RELU1", i).To(o).RelaxedExecution(True)
Example({
    i: [-2.5, -1.0, -0.25, 0.5, 1.0, 1000.0],
    o: [-1.0, -1.0, -0.25, 0.5, 1.0, 1.0],
})
