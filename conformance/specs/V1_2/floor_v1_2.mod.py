# FLOOR in HAL 1.2: TENSOR_FLOAT16 (and relaxed float32). floor by hand:
# [-3.5, -0.75, 0, 0.75, 3.5, -1024] -> [-4, -1, 0, 0, 3, -1024], all exact in
# float16 (the oracle conformance/specs/oracles/unary_oracle.py prints them too).
i = Input("in", "TENSOR_FLOAT32", "{2, 1, 3}")
o = Output("out", "TENSOR_FLOAT32", "{2, 1, 3}")
Model().Operation("FLOOR", i).To(o)
Example({
    i: [-3.5, -0.75, 0.0, 0.75, 3.5, -1024.0],
    o: [-4.0, -1.0, 0.0, 0.0, 3.0, -1024.0],
}).AddVariations("relaxed", "float16")

# Infinities and NaN pass through, in float16 too.
isp = Input("in", "TENSOR_FLOAT32", "{3}")
osp = Output("out", "TENSOR_FLOAT32", "{3}")
Model("special").Operation("FLOOR", isp).To(osp)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    isp: [math.inf, -math.inf, math.nan],
    osp: [math.inf, -math.inf, math.nan],
}).AddVariations("float16", includeDefault=False).DisableLifeTimeVariation()
