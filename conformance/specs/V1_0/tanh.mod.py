# TANH (HAL 1.0): out = tanh(x), TENSOR_FLOAT32 of rank 1 to 4 (the quantized
# form is HAL 1.2: V1_2/tanh_v1_2.mod.py). Golden values:
# conformance/specs/oracles/unary_oracle.py (math.tanh in float64).
i = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model().Operation("TANH", i).To(o)
Example({
    i: [-10.0, -2.0, -0.75, -0.0, 0.0, 0.5, 1.25, 20.0],
    o: [-0.999999996, -0.96402758, -0.635148952, -0.0, 0.0, 0.462117157, 0.84828364, 1.0],
})

# Rank 1; tanh(100) is 1 to float precision.
i1 = Input("in", "TENSOR_FLOAT32", "{3}")
o1 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("rank1").Operation("TANH", i1).To(o1)
Example({i1: [0.125, -3.0, 100.0], o1: [0.124353002, -0.995054754, 1.0]})
