# LOG (HAL 1.2): out = ln(x) element-wise; TENSOR_FLOAT32 and TENSOR_FLOAT16,
# any rank from 1. Golden values: conformance/specs/oracles/unary_oracle.py
# (math.log in float64). Inputs are exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("LOG", i).To(o)
Example({
    i: [0.25, 1.0, 2.0, 3.0, 10.0, 100.0],
    o: [-1.38629436, 0.0, 0.693147181, 1.09861229, 2.30258509, 4.60517019],
}).AddVariations("relaxed", "float16")

# Rank 5: ln(1024) = 10 ln 2 = 6.93147181, ln(2**-10) = -6.93147181.
i5 = Input("in", "TENSOR_FLOAT32", "{2, 1, 1, 1, 2}")
o5 = Output("out", "TENSOR_FLOAT32", "{2, 1, 1, 1, 2}")
Model("rank5").Operation("LOG", i5).To(o5)
Example({
    i5: [1024.0, 0.0009765625, 7.5, 1.5],
    o5: [6.93147181, -6.93147181, 2.01490302, 0.405465108],
}).AddVariations("relaxed", "float16")

# The edge cases of docs/operations.md, LOG (60): ln(0) = ln(-0) = -inf, ln(-1) = NaN,
# ln(inf) = inf.
isp = Input("in", "TENSOR_FLOAT32", "{4}")
osp = Output("out", "TENSOR_FLOAT32", "{4}")
Model("special").Operation("LOG", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [0.0, -0.0, -1.0, math.inf],
    osp: [-math.inf, -math.inf, math.nan, math.inf],
}).AddVariations("relaxed", "float16").DisableLifeTimeVariation()
