# SIN (HAL 1.2): out = sin(x) element-wise, x in radians; TENSOR_FLOAT32 and
# TENSOR_FLOAT16, any rank from 1. Golden values:
# conformance/specs/oracles/unary_oracle.py (math.sin in float64). Inputs
# are exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("SIN", i).To(o)
Example({
    i: [0.0, 0.5, -1.0, 1.5, 3.0, -6.0],
    o: [0.0, 0.479425539, -0.841470985, 0.997494987, 0.141120008, 0.279415498],
}).AddVariations("relaxed", "float16")

# Rank 5, with large arguments (100 and -1000 radians).
i5 = Input("in", "TENSOR_FLOAT32", "{1, 1, 1, 2, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 2, 2}")
Model("rank5").Operation("SIN", i5).To(o5)
Example({
    i5: [100.0, -1000.0, 0.125, 12.5],
    o5: [-0.506365641, -0.826879541, 0.124674733, -0.0663218974],
}).AddVariations("relaxed", "float16")

# sin(+-inf) and sin(NaN) are NaN; sin(-0) = -0.
isp = Input("in", "TENSOR_FLOAT32", "{4}")
osp = Output("out", "TENSOR_FLOAT32", "{4}")
Model("special").Operation("SIN", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [math.inf, -math.inf, math.nan, -0.0],
    osp: [math.nan, math.nan, math.nan, -0.0],
}).AddVariations("relaxed", "float16").DisableLifeTimeVariation()
