# NEG (HAL 1.2): out = -x element-wise; TENSOR_FLOAT32, TENSOR_FLOAT16 and
# TENSOR_INT32, any rank from 1. Golden values by hand (a sign flip), and
# also printed by conformance/specs/oracles/unary_oracle.py.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("NEG", i).To(o)
# Integer values, so the int32 variation carries the same data.
Example({
    i: [-2.0, 0.0, 3.0, 7.0, -1000.0, 1024.0],
    o: [2.0, -0.0, -3.0, -7.0, 1000.0, -1024.0],
}).AddVariations("relaxed", "float16", "int32")

# Rank 5, fractions (float types only).
i5 = Input("in", "TENSOR_FLOAT32", "{1, 2, 1, 2, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1, 2, 1}")
Model("rank5").Operation("NEG", i5).To(o5)
Example({
    i5: [0.5, -1.25, -0.0, 3.75],
    o5: [-0.5, 1.25, 0.0, -3.75],
}).AddVariations("relaxed", "float16")

# TENSOR_INT32 near the limits: -(2**31 - 1) and back (INT32_MIN, whose
# negation overflows, is left out as docs/operations.md, NEG (67) advises).
ii = Input("in", "TENSOR_INT32", "{2, 2}")
oi = Output("out", "TENSOR_INT32", "{2, 2}")
Model("int32_limits").Operation("NEG", ii).To(oi)
Example({
    ii: [2147483647, -2147483647, 0, 123456789],
    oi: [-2147483647, 2147483647, 0, -123456789],
})
