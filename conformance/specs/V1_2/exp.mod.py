# EXP (HAL 1.2): out = e**x element-wise; TENSOR_FLOAT32 and TENSOR_FLOAT16,
# any rank from 1. Golden values: conformance/specs/oracles/unary_oracle.py
# (math.exp in float64; a result beyond float32's range is +inf). Inputs
# are exact in float16 and stay below 11.09, where float16 would overflow.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("EXP", i).To(o)
Example({
    i: [-2.0, -0.5, 0.0, 0.25, 1.0, 2.5],
    o: [0.135335283, 0.60653066, 1.0, 1.28402542, 2.71828183, 12.182494],
}).AddVariations("relaxed", "float16")

# Rank 5, with e**10 = 22026.47 (near the top of float16's range).
i5 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 1, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 1, 2}")
Model("rank5").Operation("EXP", i5).To(o5)
Example({
    i5: [10.0, -10.0, 3.75, -0.125],
    o5: [22026.4658, 4.53999298e-05, 42.521082, 0.882496903],
}).AddVariations("relaxed", "float16")

# Overflow and limits: e**100 overflows float32 (and float16) to +inf;
# e**-100 = 3.7e-44 (a float32 subnormal, 0 in float16: both within
# tolerance); e**-inf = 0; e**inf = inf.
isp = Input("in", "TENSOR_FLOAT32", "{4}")
osp = Output("out", "TENSOR_FLOAT32", "{4}")
Model("special").Operation("EXP", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [100.0, -100.0, -math.inf, math.inf],
    osp: [math.inf, 3.72007598e-44, 0.0, math.inf],
}).AddVariations("relaxed", "float16").DisableLifeTimeVariation()
