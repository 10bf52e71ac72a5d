# STRIDED_SLICE. Golden values: conformance/specs/oracles/shape_oracle.py
# ("strided ..."), which resolves begin/end per axis as docs/operations.md,
# STRIDED_SLICE (35) says
# (masks, clamping out-of-range values, wrapping negatives; for a negative stride
# a masked begin is dim - 1 and a masked end is -1). Input [3, 4] = 1.0, 1.5, ..., 6.5.
# Quant8 output parameters equal the input's.
x = [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5]

# Rows 0, 2 (stride 2); columns 3, 2, 1 (begin -1 -> 3, end 0, stride -1) -> [2, 3].
i1 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("STRIDED_SLICE", i1, [0, -1], [3, 0], [2, -1], 0, 0, 0).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
})
Example({i1: x, o1: [2.5, 2.0, 1.5, 6.5, 6.0, 5.5]}).AddVariations("relaxed", quant8)

# Masks: begin_mask bit 0 ignores begin 5 on axis 0 (-> 0), end_mask bit 1 ignores
# end 9 on axis 1 (-> 4); end -1 on axis 0 wraps to 2. Rows 0..1, columns 1..3.
# begin, end and strides are model inputs in the second test.
i2 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
b2 = Parameter("begin", "TENSOR_INT32", "{2}", [5, 1])
e2 = Parameter("end", "TENSOR_INT32", "{2}", [-1, 9])
s2 = Parameter("strides", "TENSOR_INT32", "{2}", [1, 1])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model("masks").Operation("STRIDED_SLICE", i2, b2, e2, s2, 1, 2, 0).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
})
Example({i2: x, o2: [1.5, 2.0, 2.5, 3.5, 4.0, 4.5]}).AddInput(b2, e2, s2).AddVariations(
    "relaxed", quant8)

# Shrink axis 0 (row 1 only, dropped); columns: begin -3 -> 1, end 9 clamps to 4,
# stride 2 -> columns 1, 3. Output [2].
i3 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
o3 = Output("output", "TENSOR_FLOAT32", "{2}")
Model("shrink").Operation("STRIDED_SLICE", i3, [1, -3], [2, 9], [1, 2], 0, 0, 1).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    o3: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
})
Example({i3: x, o3: [3.5, 4.5]}).AddVariations("relaxed", quant8)

# Both axes masked with negative strides: rows 2, 1, 0; columns 3, 0 (stride -3).
i4 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
o4 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model("reverse").Operation("STRIDED_SLICE", i4, [0, 0], [0, 0], [-1, -3], 3, 3, 0).To(o4)
quant8 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    o4: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
})
Example({i4: x, o4: [6.5, 5.0, 4.5, 3.0, 2.5, 1.0]}).AddVariations("relaxed", quant8)
