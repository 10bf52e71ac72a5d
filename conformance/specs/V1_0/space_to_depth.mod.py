# SPACE_TO_DEPTH (NHWC): out[n, y, x, (i*b + j)*C + c] = in[n, y*b + i, x*b + j, c].
# Golden values: conformance/specs/oracles/shape_oracle.py ("space_to_depth ...").
# Quant8 output parameters equal the input's (they must).

# [1, 4, 4, 1] with block 2 -> [1, 2, 2, 4]; input 0.0, 0.5, ..., 7.5 row by row.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
Model().Operation("SPACE_TO_DEPTH", i1, 2).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i1: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5],
    o1: [0.0, 0.5, 2.0, 2.5, 1.0, 1.5, 3.0, 3.5, 4.0, 4.5, 6.0, 6.5, 5.0, 5.5, 7.0, 7.5],
}).AddVariations(quant8)

# [1, 2, 2, 2] with block 2 -> [1, 1, 1, 8]: the four pixels' channels one after another.
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 1, 1, 8}")
Model("channels").Operation("SPACE_TO_DEPTH", i2, 2).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i2: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
    o2: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
}).AddVariations(quant8)

# Block 1 is the identity.
i3 = Input("input", "TENSOR_FLOAT32", "{1, 1, 2, 1}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 1, 2, 1}")
Model("block1").Operation("SPACE_TO_DEPTH", i3, 1).To(o3)
Example({i3: [3.0, -4.0], o3: [3.0, -4.0]})
