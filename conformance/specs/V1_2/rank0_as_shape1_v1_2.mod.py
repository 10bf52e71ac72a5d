# Results that would have rank 0 have shape [1], float16: the cases of
# V1_1/rank0_as_shape1 (SQUEEZE removing every axis, STRIDED_SLICE shrinking every
# axis; docs/operations.md, Android 11's corrections), which holds the float32,
# relaxed and quant8 forms. REDUCE_* removing every axis without keep_dims is pinned
# by the all_axes and vector models of V1_2/reduce_*.mod.py at every type.
# Golden values: conformance/specs/oracles/shape_oracle.py ("rank0 ..."); every value
# is exact in float16.

i1 = Input("input", "TENSOR_FLOAT16", "{1, 1}")
o1 = Output("output", "TENSOR_FLOAT16", "{1}")
Model("squeeze_listed").Operation("SQUEEZE", i1, [0, -1]).To(o1)
Example({i1: [-3.5], o1: [-3.5]})

i2 = Input("input", "TENSOR_FLOAT16", "{1}")
o2 = Output("output", "TENSOR_FLOAT16", "{1}")
Model("squeeze_vector").Operation("SQUEEZE", i2, [0]).To(o2)
Example({i2: [27.5], o2: [27.5]})

i3 = Input("input", "TENSOR_FLOAT16", "{1, 1, 1, 1}")
a3 = Input("axes", "TENSOR_INT32", "{0}")
o3 = Output("output", "TENSOR_FLOAT16", "{1}")
Model("squeeze_omitted").Operation("SQUEEZE", i3, a3).To(o3)
Example({i3: [-49.5], a3: [], o3: [-49.5]})

i4 = Input("input", "TENSOR_FLOAT16", "{2, 3}")
o4 = Output("output", "TENSOR_FLOAT16", "{1}")
Model("strided_2d").Operation("STRIDED_SLICE", i4, [1, -2], [2, 2], [1, 1], 0, 0, 3).To(o4)
Example({i4: [1.0, 1.5, 2.0, 2.5, 3.0, 3.5], o4: [3.0]})

i5 = Input("input", "TENSOR_FLOAT16", "{4}")
o5 = Output("output", "TENSOR_FLOAT16", "{1}")
Model("strided_vector").Operation("STRIDED_SLICE", i5, [-1], [4], [1], 0, 0, 1).To(o5)
Example({i5: [-2.0, 0.5, 9.0, -7.5], o5: [-7.5]})

i6 = Input("input", "TENSOR_FLOAT16", "{1, 2, 1, 3}")
o6 = Output("output", "TENSOR_FLOAT16", "{1}")
Model("strided_4d").Operation(
    "STRIDED_SLICE", i6, [0, 1, 0, 2], [1, 2, 1, 3], [1, 1, 1, 2], 0, 0, 15
).To(o6)
Example({i6: [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5], o6: [1.5]})
