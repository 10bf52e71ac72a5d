# EXPAND_DIMS inserts a size-1 dimension at axis (in [-(n+1), n+1); a negative axis
# counts from the end of the output). Data unchanged: identity on the flat values
# (by hand). Quant8 output parameters equal the input's. Integer data, so the int32
# variation is exact.
x = [-5.0, -4.0, 0.0, 3.0, 100.0, 6.0]

# [2, 3], axis 0 -> [1, 2, 3].
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3}")
Model().Operation("EXPAND_DIMS", i1, 0).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 1.0, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 1.0, 100),
})
Example({i1: x, o1: x}).AddVariations("relaxed", "float16", "int32", quant8)

# axis 1 -> [2, 1, 3].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 1, 3}")
Model("middle").Operation("EXPAND_DIMS", i2, 1).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 1.0, 100),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0, 100),
})
Example({i2: x, o2: x}).AddVariations("float16", "int32", quant8)

# axis -1 appends -> [2, 3, 1].
i3 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 3, 1}")
Model("minus_one").Operation("EXPAND_DIMS", i3, -1).To(o3)
Example({i3: x, o3: x}).AddVariations("float16", "int32")

# axis -3 = -(n+1) prepends -> [1, 2, 3].
i4 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o4 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3}")
Model("minus_three").Operation("EXPAND_DIMS", i4, -3).To(o4)
Example({i4: x, o4: x}).AddVariations("int32")

# Rank 4 -> rank 5 with axis 4 = n: [1, 2, 1, 2] -> [1, 2, 1, 2, 1].
i5 = Input("input", "TENSOR_FLOAT32", "{1, 2, 1, 2}")
o5 = Output("output", "TENSOR_FLOAT32", "{1, 2, 1, 2, 1}")
Model("rank5").Operation("EXPAND_DIMS", i5, 4).To(o5)
Example({i5: [1.5, -2.5, 0.0, 8.0], o5: [1.5, -2.5, 0.0, 8.0]}).AddVariations("float16")
