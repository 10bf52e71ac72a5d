# Results that would have rank 0 have shape [1]: SQUEEZE removing every axis (listed,
# or omitted on an input whose dimensions are all 1) and STRIDED_SLICE whose
# shrink_axis_mask removes every axis, as Android 11 computes them at every HAL level
# (docs/operations.md, Android 11's corrections; Android 10 gave a rank-0 result).
# Float32, relaxed and quant8 (scale 0.5, zero point 100, the input's parameters);
# float16 in V1_2/rank0_as_shape1_v1_2. The output is declared {1}, and its dynamic
# twin (dimensions unknown, rank 1) must report [1].
# Golden values: conformance/specs/oracles/shape_oracle.py ("rank0 ..."); the one value
# is the input's (SQUEEZE) or the element the slice picks (STRIDED_SLICE).


def quant8(i, o):
    return DataTypeConverter().Identify({
        i: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
        o: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    })


# SQUEEZE [1, 1] with axes [0, -1]: both axes go.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 1}")
o1 = Output("output", "TENSOR_FLOAT32", "{1}")
Model("squeeze_listed").Operation("SQUEEZE", i1, [0, -1]).To(o1)
Example({i1: [-3.5], o1: [-3.5]}).AddVariations("relaxed", quant8(i1, o1))

# SQUEEZE [1] with axes [0]: the only axis goes.
i2 = Input("input", "TENSOR_FLOAT32", "{1}")
o2 = Output("output", "TENSOR_FLOAT32", "{1}")
Model("squeeze_vector").Operation("SQUEEZE", i2, [0]).To(o2)
Example({i2: [27.5], o2: [27.5]}).AddVariations("relaxed", quant8(i2, o2))

# SQUEEZE [1, 1, 1, 1] with the axes omitted (a model input given no value): every
# axis has size 1, so every axis goes.
i3 = Input("input", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
a3 = Input("axes", "TENSOR_INT32", "{0}")
o3 = Output("output", "TENSOR_FLOAT32", "{1}")
Model("squeeze_omitted").Operation("SQUEEZE", i3, a3).To(o3)
Example({i3: [-49.5], a3: [], o3: [-49.5]}).AddVariations("relaxed", quant8(i3, o3))

# STRIDED_SLICE [2, 3] = 1.0, 1.5, ..., 3.5, shrink_axis_mask 3: row 1 (begin 1, end
# 2), column 1 (begin -2 -> 1, end 2): in[1, 1] = 3.0.
i4 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o4 = Output("output", "TENSOR_FLOAT32", "{1}")
Model("strided_2d").Operation("STRIDED_SLICE", i4, [1, -2], [2, 2], [1, 1], 0, 0, 3).To(o4)
Example({i4: [1.0, 1.5, 2.0, 2.5, 3.0, 3.5], o4: [3.0]}).AddVariations(
    "relaxed", quant8(i4, o4)
)

# STRIDED_SLICE [4], shrink_axis_mask 1: begin -1 -> 3, end 4: in[3] = -7.5.
i5 = Input("input", "TENSOR_FLOAT32", "{4}")
o5 = Output("output", "TENSOR_FLOAT32", "{1}")
Model("strided_vector").Operation("STRIDED_SLICE", i5, [-1], [4], [1], 0, 0, 1).To(o5)
Example({i5: [-2.0, 0.5, 9.0, -7.5], o5: [-7.5]}).AddVariations("relaxed", quant8(i5, o5))

# STRIDED_SLICE [1, 2, 1, 3] = -1.0, -0.5, ..., 1.5, shrink_axis_mask 15: in[0, 1, 0, 2]
# (the last axis with stride 2 from begin 2 to end 3) = 1.5.
i6 = Input("input", "TENSOR_FLOAT32", "{1, 2, 1, 3}")
o6 = Output("output", "TENSOR_FLOAT32", "{1}")
Model("strided_4d").Operation(
    "STRIDED_SLICE", i6, [0, 1, 0, 2], [1, 2, 1, 3], [1, 1, 1, 2], 0, 0, 15
).To(o6)
Example({i6: [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5], o6: [1.5]}).AddVariations(
    "relaxed", quant8(i6, o6)
)
