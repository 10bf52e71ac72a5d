# SQRT (HAL 1.2): out = sqrt(x) element-wise; TENSOR_FLOAT32 and
# TENSOR_FLOAT16, any rank from 1. Golden values:
# conformance/specs/oracles/unary_oracle.py (math.sqrt in float64). Inputs
# are exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("SQRT", i).To(o)
Example({
    i: [0.0, 0.25, 1.0, 2.0, 6.25, 100.0],
    o: [0.0, 0.5, 1.0, 1.41421356, 2.5, 10.0],
}).AddVariations("relaxed", "float16")

# Rank 5: sqrt(1024) = 32, sqrt(1/16) = 1/4, sqrt(10000) = 100.
i5 = Input("in", "TENSOR_FLOAT32", "{2, 1, 2, 1, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{2, 1, 2, 1, 1}")
Model("rank5").Operation("SQRT", i5).To(o5)
Example({
    i5: [1024.0, 3.0, 0.0625, 10000.0],
    o5: [32.0, 1.73205081, 0.25, 100.0],
}).AddVariations("relaxed", "float16")

# The edge case of docs/operations.md, SQRT (88): SQRT(x < 0) = NaN (-inf included);
# sqrt(inf) = inf,
# sqrt(-0) = -0.
isp = Input("in", "TENSOR_FLOAT32", "{4}")
osp = Output("out", "TENSOR_FLOAT32", "{4}")
Model("special").Operation("SQRT", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [-1.0, math.inf, -math.inf, -0.0],
    osp: [math.nan, math.inf, math.nan, -0.0],
}).AddVariations("relaxed", "float16").DisableLifeTimeVariation()
