# SPACE_TO_BATCH_ND (NHWC): pad H and W with 0, then
# out[(i*bw + j)*N + n, y, x, c] = padded[n, y*bh + i, x*bw + j, c].
# Golden values: conformance/specs/oracles/shape_oracle.py ("space_to_batch ...").
# HAL 1.1: a quant8 input needs zero point 0 (the pad byte is then 0).

# [1, 2, 4, 1], block [2, 2], paddings [[1, 1], [0, 0]] -> [4, 2, 2, 1].
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 4, 1}")
b1 = Parameter("block", "TENSOR_INT32", "{2}", [2, 2])
p1 = Parameter("paddings", "TENSOR_INT32", "{2, 2}", [1, 1, 0, 0])
o1 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model().Operation("SPACE_TO_BATCH_ND", i1, b1, p1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i1: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0],
    o1: [0.0, 0.0, 2.5, 3.5, 0.0, 0.0, 3.0, 4.0, 0.5, 1.5, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0],
}).AddInput(b1, p1).AddVariations("relaxed", quant8)

# Two batches, block [1, 2], one column of padding on the left -> [4, 2, 2, 1].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 2, 3, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model("asymmetric").Operation("SPACE_TO_BATCH_ND", i2, [1, 2], Parameter(
    "paddings", "TENSOR_INT32", "{2, 2}", [0, 0, 1, 0])).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i2: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0],
    o2: [0.0, 1.0, 0.0, 2.5, 0.0, 4.0, 0.0, 5.5, 0.5, 1.5, 2.0, 3.0, 3.5, 4.5, 5.0, 6.0],
}).AddVariations("relaxed", quant8)

# No padding: [1, 4, 4, 1], block [2, 2] -> [4, 2, 2, 1].
i3 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o3 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model("no_padding").Operation("SPACE_TO_BATCH_ND", i3, [2, 2], Parameter(
    "paddings", "TENSOR_INT32", "{2, 2}", [0, 0, 0, 0])).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o3: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i3: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0],
    o3: [0.5, 1.5, 4.5, 5.5, 1.0, 2.0, 5.0, 6.0, 2.5, 3.5, 6.5, 7.5, 3.0, 4.0, 7.0, 8.0],
}).AddVariations("relaxed", quant8)
