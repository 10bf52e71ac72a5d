# STRIDED_SLICE with float16 (and relaxed / quant8 on rank 3). Golden values:
# conformance/specs/oracles/shape_oracle.py ("strided ...").

# Rank 3 [2, 3, 2] = 0.0, 0.5, ..., 5.5; shrink_axis_mask 5 drops axes 0 and 2.
# Axis 0: begin -1 -> 1, end 2 (one element, shrunk); axis 1: 0, 2 (stride 2);
# axis 2: begin 1, end 2 (shrunk). Output [2] = in[1, 0, 1], in[1, 2, 1].
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3, 2}")
o1 = Output("output", "TENSOR_FLOAT32", "{2}")
Model("shrink2").Operation("STRIDED_SLICE", i1, [-1, 0, 1], [2, 3, 2], [1, 2, 1], 0, 0, 5).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i1: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5],
    o1: [3.5, 5.5],
}).AddVariations("relaxed", "float16", quant8)

# Negative strides on a [3, 4] = 1.0, 1.5, ..., 6.5: rows 0, 2; columns 3, 2, 1.
x = [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5]
i2 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("STRIDED_SLICE", i2, [0, -1], [3, 0], [2, -1], 0, 0, 0).To(o2)
Example({i2: x, o2: [2.5, 2.0, 1.5, 6.5, 6.0, 5.5]}).AddVariations("float16")

# Both axes masked with negative strides: rows 2, 1, 0; columns 3, 0.
i3 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
o3 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model("reverse").Operation("STRIDED_SLICE", i3, [0, 0], [0, 0], [-1, -3], 3, 3, 0).To(o3)
Example({i3: x, o3: [6.5, 5.0, 4.5, 3.0, 2.5, 1.0]}).AddVariations("float16")
