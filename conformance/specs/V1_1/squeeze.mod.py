# SQUEEZE removes the listed size-1 dimensions; data unchanged (identity on the
# flat values, by hand). Quant8 output parameters equal the input's.

# [1, 3, 1, 2] without axes 0 and 2 -> [3, 2].
i1 = Input("input", "TENSOR_FLOAT32", "{1, 3, 1, 2}")
a1 = Parameter("axes", "TENSOR_INT32", "{2}", [0, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model().Operation("SQUEEZE", i1, a1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i1: [1.0, -1.5, 2.0, -2.5, 63.5, -64.0],
    o1: [1.0, -1.5, 2.0, -2.5, 63.5, -64.0],
}).AddInput(a1).AddVariations("relaxed", quant8)

# A negative axis counts from the end: [2, 1, 3] without axis -2 -> [2, 3].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 1, 3}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model("negative_axis").Operation("SQUEEZE", i2, [-2]).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 0),
})
Example({
    i2: [0.0, 0.25, 0.5, 0.75, 1.0, 63.75],
    o2: [0.0, 0.25, 0.5, 0.75, 1.0, 63.75],
}).AddVariations("relaxed", quant8)

# Only the listed size-1 axis goes: [1, 2, 1] without axis 2 -> [1, 2].
i3 = Input("input", "TENSOR_FLOAT32", "{1, 2, 1}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 2}")
Model("some").Operation("SQUEEZE", i3, [2]).To(o3)
Example({i3: [5.0, -5.0], o3: [5.0, -5.0]}).AddVariations("relaxed")
