# RSQRT (HAL 1.2): out = 1 / sqrt(x) element-wise; TENSOR_FLOAT32 and
# TENSOR_FLOAT16, any rank from 1. Golden values:
# conformance/specs/oracles/unary_oracle.py (float64). Inputs are exact in
# float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("RSQRT", i).To(o)
Example({
    i: [0.25, 1.0, 2.0, 4.0, 9.0, 100.0],
    o: [2.0, 1.0, 0.707106781, 0.5, 0.333333333, 0.1],
}).AddVariations("relaxed", "float16")

# Rank 5: 1/sqrt(1/16) = 4, 1/sqrt(1024) = 1/32.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 2, 1, 1, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1, 1, 2}")
Model("rank5").Operation("RSQRT", i5).To(o5)
Example({
    i5: [0.0625, 3.0, 1024.0, 0.5],
    o5: [4.0, 0.577350269, 0.03125, 1.41421356],
}).AddVariations("relaxed", "float16")

# The edge cases of docs/operations.md, RSQRT (83): RSQRT(0) = +inf, RSQRT(x < 0) = NaN;
# 1/sqrt(inf) = 0.
isp = Input("in", "TENSOR_FLOAT32", "{4}")
osp = Output("out", "TENSOR_FLOAT32", "{4}")
Model("special").Operation("RSQRT", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [0.0, -1.0, math.inf, -math.inf],
    osp: [math.inf, math.nan, 0.0, math.nan],
}).AddVariations("relaxed", "float16").DisableLifeTimeVariation()
