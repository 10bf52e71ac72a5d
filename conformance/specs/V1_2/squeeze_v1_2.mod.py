# SQUEEZE with float16 and with the axes omitted (every size-1 dimension goes).
# Data unchanged: identity on the flat values (by hand).

# Omitted axes: [1, 2, 1, 2] -> [2, 2]. The axes input has no value in every feed.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 1, 2}")
a1 = Input("axes", "TENSOR_INT32", "{0}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 2}")
Model("omitted").Operation("SQUEEZE", i1, a1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 200),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 200),
})
Example({
    i1: [1.0, -2.0, 27.5, -100.0],
    a1: [],
    o1: [1.0, -2.0, 27.5, -100.0],
}).AddVariations("relaxed", "float16", quant8)

# Explicit axes, one negative: [1, 3, 1] without axes 0 and -1 -> [3].
i2 = Input("input", "TENSOR_FLOAT32", "{1, 3, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{3}")
Model().Operation("SQUEEZE", i2, [0, -1]).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 1),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 1),
})
Example({i2: [-0.25, 0.0, 63.5], o2: [-0.25, 0.0, 63.5]}).AddVariations("float16", quant8)
