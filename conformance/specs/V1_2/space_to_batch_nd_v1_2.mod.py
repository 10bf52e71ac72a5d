# SPACE_TO_BATCH_ND with the layout input (NHWC, NCHW), float16, relaxed, and quant8
# with a non-zero zero point (padding is then the zero point, a real 0.0).
# Golden values: conformance/specs/oracles/shape_oracle.py ("space_to_batch ...").
layout = BoolScalar("layout", False)
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 4, 1}")
b1 = Parameter("block", "TENSOR_INT32", "{2}", [2, 2])
p1 = Parameter("paddings", "TENSOR_INT32", "{2, 2}", [1, 1, 0, 0])
o1 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model().Operation("SPACE_TO_BATCH_ND", i1, b1, p1, layout).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i1: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0],
    o1: [0.0, 0.0, 2.5, 3.5, 0.0, 0.0, 3.0, 4.0, 0.5, 1.5, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8)

# Two batches, block [1, 2], one column of padding on the left.
i2 = Input("input", "TENSOR_FLOAT32", "{2, 2, 3, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model("asymmetric").Operation("SPACE_TO_BATCH_ND", i2, [1, 2], Parameter(
    "paddings", "TENSOR_INT32", "{2, 2}", [0, 0, 1, 0]), layout).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 3),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 3),
})
Example({
    i2: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0],
    o2: [0.0, 1.0, 0.0, 2.5, 0.0, 4.0, 0.0, 5.5, 0.5, 1.5, 2.0, 3.0, 3.5, 4.5, 5.0, 6.0],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8)
