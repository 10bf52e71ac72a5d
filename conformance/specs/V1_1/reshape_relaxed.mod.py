# RESHAPE on a relaxed model (HAL 1.1): [2, 3] -> [3, -1] = [3, 2], data unchanged
# (identity on the flat values, by hand; every value exact in float16).
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model().Operation("RESHAPE", i1, [3, -1]).To(o1).RelaxedExecution(True)
Example({
    i1: [1.5, -2.0, 0.25, 1000.0, -0.125, 3.0],
    o1: [1.5, -2.0, 0.25, 1000.0, -0.125, 3.0],
})

# The target shape as a model input: [4] -> [2, 1, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{4}")
s2 = Parameter("shape", "TENSOR_INT32", "{3}", [2, 1, 2])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 1, 2}")
Model("shape_input").Operation("RESHAPE", i2, s2).To(o2).RelaxedExecution(True)
Example({i2: [4.0, 3.0, 2.0, 1.0], o2: [4.0, 3.0, 2.0, 1.0]}).AddInput(s2)
