# PAD with zeros (HAL 1.1: a quant8 input needs zero point 0, so the pad byte is 0).
# Golden values: conformance/specs/oracles/shape_oracle.py ("pad ...").

# [2, 3] with paddings [[1, 0], [0, 2]] -> [3, 5]: one row above, two columns right.
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
p1 = Parameter("paddings", "TENSOR_INT32", "{2, 2}", [1, 0, 0, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 5}")
Model().Operation("PAD", i1, p1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i1: [1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
    o1: [0.0, 0.0, 0.0, 0.0, 0.0,
         1.0, 1.5, 2.0, 0.0, 0.0,
         2.5, 3.0, 3.5, 0.0, 0.0],
}).AddInput(p1).AddVariations("relaxed", quant8)

# Every dimension padded, batch and channel included: [1, 2, 2, 1] with
# [[0, 1], [1, 0], [0, 1], [1, 1]] -> [2, 3, 3, 3].
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3, 3, 3}")
Model("all_dims").Operation("PAD", i2, Parameter(
    "paddings", "TENSOR_INT32", "{4, 2}", [0, 1, 1, 0, 0, 1, 1, 1])).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 1.0, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0, 0),
})
Example({
    i2: [1.0, 2.0, 3.0, 4.0],
    o2: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 3.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
}).AddVariations("relaxed", quant8)

# Zero paddings copy the input: [3] with [[0, 0]].
i3 = Input("input", "TENSOR_FLOAT32", "{3}")
o3 = Output("output", "TENSOR_FLOAT32", "{3}")
Model("no_padding").Operation("PAD", i3, Parameter("paddings", "TENSOR_INT32", "{1, 2}", [0, 0])).To(o3)
Example({i3: [-1.0, 0.0, 1.0], o3: [-1.0, 0.0, 1.0]}).AddVariations("relaxed")
