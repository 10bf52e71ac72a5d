# CONCATENATION on a relaxed model (HAL 1.1). Golden values:
# conformance/specs/oracles/shape_oracle.py ("concatenation axis 1"), exact in float16.
a1 = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b1 = Input("b", "TENSOR_FLOAT32", "{2, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 5}")
Model().Operation("CONCATENATION", a1, b1, 1).To(o1).RelaxedExecution(True)
Example({
    a1: [0.0, 0.5, 1.0, 1.5],
    b1: [10.0, 10.5, 11.0, 11.5, 12.0, 12.5],
    o1: [0.0, 0.5, 10.0, 10.5, 11.0, 1.0, 1.5, 11.5, 12.0, 12.5],
})

# Rank 3 along the last axis: [1, 2, 1] + [1, 2, 2] -> [1, 2, 3] (by hand: each
# output row is a's one element then b's two).
a2 = Input("a", "TENSOR_FLOAT32", "{1, 2, 1}")
b2 = Input("b", "TENSOR_FLOAT32", "{1, 2, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3}")
Model("last_axis").Operation("CONCATENATION", a2, b2, 2).To(o2).RelaxedExecution(True)
Example({a2: [1.0, 2.0], b2: [-1.0, -2.0, -3.0, -4.0], o2: [1.0, -1.0, -2.0, 2.0, -3.0, -4.0]})
