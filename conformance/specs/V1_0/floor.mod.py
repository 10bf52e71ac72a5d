# FLOOR (HAL 1.0): out = floor(x) element-wise, TENSOR_FLOAT32 of rank 1 to 4.
# Golden values by hand (the largest integer not above x), also printed by
# conformance/specs/oracles/unary_oracle.py.
# Negative non-integers go down (-0.5 -> -1, -1.5 -> -2); integers stay.
i = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model().Operation("FLOOR", i).To(o)
Example({
    i: [-1.5, -0.5, -0.0, 0.0, 0.5, 1.0, 1.75, -2.0],
    o: [-2.0, -1.0, -0.0, 0.0, 0.0, 1.0, 1.0, -2.0],
})

# Large magnitudes (8388607.5 = 2**23 - 0.5 is the largest float32 with a
# fraction; 1e30 is an integer in float32) and tiny ones (3e-5 -> 0, -3e-5 -> -1).
il = Input("in", "TENSOR_FLOAT32", "{5}")
ol = Output("out", "TENSOR_FLOAT32", "{5}")
Model("large").Operation("FLOOR", il).To(ol)
Example({
    il: [-123456.75, 8388607.5, 1e30, 3.0e-5, -3.0e-5],
    ol: [-123457.0, 8388607.0, 1e30, 0.0, -1.0],
})

# Infinities and NaN pass through.
isp = Input("in", "TENSOR_FLOAT32", "{3}")
osp = Output("out", "TENSOR_FLOAT32", "{3}")
Model("special").Operation("FLOOR", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [math.inf, -math.inf, math.nan],
    osp: [math.inf, -math.inf, math.nan],
}).DisableLifeTimeVariation()
