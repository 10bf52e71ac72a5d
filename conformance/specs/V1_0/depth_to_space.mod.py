# DEPTH_TO_SPACE (NHWC): out[n, y*b + i, x*b + j, c] = in[n, y, x, (i*b + j)*(C/b^2) + c].
# Golden values: conformance/specs/oracles/shape_oracle.py ("depth_to_space ...").
# Quant8 output parameters equal the input's (they must).

# [1, 1, 2, 8] with block 2 -> [1, 2, 4, 2]; input 0.0, 0.5, ..., 7.5.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 1, 2, 8}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 4, 2}")
Model().Operation("DEPTH_TO_SPACE", i1, 2).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i1: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5],
    o1: [0.0, 0.5, 1.0, 1.5, 4.0, 4.5, 5.0, 5.5, 2.0, 2.5, 3.0, 3.5, 6.0, 6.5, 7.0, 7.5],
}).AddVariations(quant8)

# [1, 2, 2, 4] with block 2 -> [1, 4, 4, 1]; input -4.0, -3.5, ..., 3.5.
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
Model("single_channel").Operation("DEPTH_TO_SPACE", i2, 2).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i2: [-4.0, -3.5, -3.0, -2.5, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
    o2: [-4.0, -3.5, -2.0, -1.5, -3.0, -2.5, -1.0, -0.5, 0.0, 0.5, 2.0, 2.5, 1.0, 1.5, 3.0, 3.5],
}).AddVariations(quant8)
