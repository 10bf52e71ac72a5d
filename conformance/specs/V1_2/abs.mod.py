# ABS (HAL 1.2): out = |x| element-wise; TENSOR_FLOAT32 and TENSOR_FLOAT16,
# any rank from 1 (rank 4, rank 5 and IEEE special values here).
# Golden values: conformance/specs/oracles/unary_oracle.py (the definition in
# float64); each is also |x| by hand. All inputs are exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model().Operation("ABS", i).To(o)
Example({
    i: [-2.5, 3.0, -0.0, 0.0, -1000.0, 0.125, -6.75, 42.5],
    o: [2.5, 3.0, 0.0, 0.0, 1000.0, 0.125, 6.75, 42.5],
}).AddVariations("relaxed", "float16")

# Rank 5: no upper rank limit for the HAL 1.2 element-wise math operations.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 2, 1, 2, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1, 2, 1}")
Model("rank5").Operation("ABS", i5).To(o5)
Example({i5: [-1.5, 1.5, -7.0, 0.5], o5: [1.5, 1.5, 7.0, 0.5]}).AddVariations(
    "relaxed", "float16")

# Infinities, NaN and a float16 subnormal (-2**-20): |-inf| = inf, NaN stays NaN.
isp = Input("in", "TENSOR_FLOAT32", "{4}")
osp = Output("out", "TENSOR_FLOAT32", "{4}")
Model("special").Operation("ABS", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [-math.inf, math.inf, math.nan, -9.5367431640625e-07],
    osp: [math.inf, math.inf, math.nan, 9.5367431640625e-07],
}).AddVariations("relaxed", "float16").DisableLifeTimeVariation()
