# SPACE_TO_DEPTH with the layout input (NHWC and NCHW), float16, relaxed and quant8.
# Golden values: conformance/specs/oracles/shape_oracle.py ("space_to_depth ...");
# the NCHW variation transposes the same data.
layout = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
Model().Operation("SPACE_TO_DEPTH", i1, 2, layout).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i1: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5],
    o1: [0.0, 0.5, 2.0, 2.5, 1.0, 1.5, 3.0, 3.5, 4.0, 4.5, 6.0, 6.5, 5.0, 5.5, 7.0, 7.5],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8)

i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 1, 1, 8}")
Model("channels").Operation("SPACE_TO_DEPTH", i2, 2, layout).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i2: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
    o2: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8)
