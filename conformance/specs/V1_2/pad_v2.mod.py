# PAD_V2: padding filled with the given value (FLOAT32 / FLOAT16 for float tensors,
# an INT32 holding the quantized byte for quant8). Golden values:
# conformance/specs/oracles/shape_oracle.py ("pad_v2 ...").

# [2, 2] with [[0, 1], [2, 0]] and value -1.5 -> [3, 4].
i1 = Input("input", "TENSOR_FLOAT32", "{2, 2}")
p1 = Parameter("paddings", "TENSOR_INT32", "{2, 2}", [0, 1, 2, 0])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 4}")
Model().Operation("PAD_V2", i1, p1, -1.5).To(o1)
Example({
    i1: [1.0, 2.0, 3.0, 4.0],
    o1: [-1.5, -1.5, 1.0, 2.0, -1.5, -1.5, 3.0, 4.0, -1.5, -1.5, -1.5, -1.5],
}).AddInput(p1).AddVariations("relaxed", "float16")

# Rank 1: [3] with [[1, 2]] and value 9.0 -> [6].
i2 = Input("input", "TENSOR_FLOAT32", "{3}")
o2 = Output("output", "TENSOR_FLOAT32", "{6}")
Model("rank1").Operation("PAD_V2", i2, Parameter(
    "paddings", "TENSOR_INT32", "{1, 2}", [1, 2]), 9.0).To(o2)
Example({i2: [1.0, 2.0, 3.0], o2: [9.0, 1.0, 2.0, 3.0, 9.0, 9.0]}).AddVariations(
    "relaxed", "float16")

# Rank 4 with some dimensions unpadded: [2, 1, 1, 2] -> [2, 3, 1, 3], value 0.25.
i3 = Input("input", "TENSOR_FLOAT32", "{2, 1, 1, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 3, 1, 3}")
Model("rank4").Operation("PAD_V2", i3, Parameter(
    "paddings", "TENSOR_INT32", "{4, 2}", [0, 0, 1, 1, 0, 0, 0, 1]), 0.25).To(o3)
Example({
    i3: [1.0, -2.0, 3.0, -4.0],
    o3: [0.25, 0.25, 0.25, 1.0, -2.0, 0.25, 0.25, 0.25, 0.25,
         0.25, 0.25, 0.25, 3.0, -4.0, 0.25, 0.25, 0.25, 0.25],
}).AddVariations("relaxed", "float16")

# Quant8 (scale 0.5, zero point 10), written in raw bytes: pad byte 3 (real -3.5, not
# the zero point). [1, 2, 2, 1] with [[1, 0], [0, 1], [1, 0], [0, 1]] -> [2, 3, 3, 2].
i4 = Input("input", "TENSOR_QUANT8_ASYMM", "{1, 2, 2, 1}, 0.5, 10")
o4 = Output("output", "TENSOR_QUANT8_ASYMM", "{2, 3, 3, 2}, 0.5, 10")
Model("quant8").Operation("PAD_V2", i4, Parameter(
    "paddings", "TENSOR_INT32", "{4, 2}", [1, 0, 0, 1, 1, 0, 0, 1]), 3).To(o4)
Example({
    i4: [20, 4, 0, 255],
    o4: [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
         3, 3, 20, 3, 4, 3, 3, 3, 0, 3, 255, 3, 3, 3, 3, 3, 3, 3],
})

# Quant8 padded with the zero point itself (a real 0.0): [3] with [[2, 1]].
i5 = Input("input", "TENSOR_QUANT8_ASYMM", "{3}, 0.25, 128")
o5 = Output("output", "TENSOR_QUANT8_ASYMM", "{6}, 0.25, 128")
Model("quant8_zero").Operation("PAD_V2", i5, Parameter(
    "paddings", "TENSOR_INT32", "{1, 2}", [2, 1]), 128).To(o5)
Example({i5: [0, 129, 255], o5: [128, 128, 0, 129, 255, 128]})
