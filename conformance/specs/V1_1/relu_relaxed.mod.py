# RELU (HAL 1.1), relaxed to float16 precision. max(0, x) by hand.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("RELU", i).To(o).RelaxedExecution(True)
Example({
    i: [-2.5, -0.0, 0.0, 0.5, 3.0, 1000.0],
    o: [0.0, 0.0, 0.0, 0.5, 3.0, 1000.0],
})
