# RELU6 (HAL 1.1), relaxed to float16 precision. min(6, max(0, x)) by hand.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("RELU6", i).To(o).RelaxedExecution(True)
Example({
    i: [-2.5, 0.0, 0.25, 5.5, 6.0, 1000.0],
    o: [0.0, 0.0, 0.25, 5.5, 6.0, 6.0],
})
