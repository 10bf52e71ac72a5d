# BATCH_TO_SPACE_ND with the layout input (NHWC, NCHW), float16, relaxed and quant8.
# Golden values: conformance/specs/oracles/shape_oracle.py ("batch_to_space ...").
layout = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{4, 1, 2, 1}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 4, 1}")
Model().Operation("BATCH_TO_SPACE_ND", i1, [2, 2], layout).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i1: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0],
    o1: [0.5, 1.5, 1.0, 2.0, 2.5, 3.5, 3.0, 4.0],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8)

i2 = Input("input", "TENSOR_FLOAT32", "{2, 2, 1, 2}")
b2 = Parameter("block", "TENSOR_INT32", "{2}", [2, 1])
o2 = Output("output", "TENSOR_FLOAT32", "{1, 4, 1, 2}")
Model("rows").Operation("BATCH_TO_SPACE_ND", i2, b2, layout).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 64),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 64),
})
Example({
    i2: [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5],
    o2: [-2.0, -1.5, 0.0, 0.5, -1.0, -0.5, 1.0, 1.5],
}).AddNchw(i2, o2, layout).AddInput(b2).AddVariations("relaxed", "float16", quant8)
