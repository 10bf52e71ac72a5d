# RESHAPE: the data is copied unchanged, only the shape changes; a quant8 output
# keeps the input's scale and zero point. Golden values: the identity on the flat
# data (by hand), with the output shape derived from the target shape.

# [1, 2, 3, 1] -> [3, 2]: the six values in the same row-major order.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 1}")
s1 = Parameter("shape", "TENSOR_INT32", "{2}", [3, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model().Operation("RESHAPE", i1, s1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i1: [1.0, -2.5, 3.0, 0.5, -7.0, 12.5],
    o1: [1.0, -2.5, 3.0, 0.5, -7.0, 12.5],
}).AddInput(s1).AddVariations(quant8)

# -1 infers one dimension: [2, 2, 2] (8 elements) -> [-1, 4] = [2, 4].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 2, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 4}")
Model("infer").Operation("RESHAPE", i2, [-1, 4]).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 0),
})
Example({
    i2: [0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0],
    o2: [0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0],
}).AddVariations(quant8)

# [-1] flattens a rank-4 tensor: [1, 2, 2, 1] -> [4]; a second feed checks new data.
i3 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
o3 = Output("output", "TENSOR_FLOAT32", "{4}")
Model("flatten").Operation("RESHAPE", i3, [-1]).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 1.0, 128),
    o3: ("TENSOR_QUANT8_ASYMM", 1.0, 128),
})
Example(
    ({i3: [1.0, 2.0, 3.0, 4.0]}, {o3: [1.0, 2.0, 3.0, 4.0]}),
    ({i3: [-128.0, 127.0, 0.0, -1.0]}, {o3: [-128.0, 127.0, 0.0, -1.0]}),
).AddVariations(quant8)
