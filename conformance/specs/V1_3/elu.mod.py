# ELU (HAL 1.3): out = max(0, x) + min(0, alpha * (exp(x) - 1)) element-wise, for
# TENSOR_FLOAT32 (alpha FLOAT32) and TENSOR_FLOAT16 (alpha FLOAT16); any rank from 1.
# alpha 1, below 1 (0.1) and above 1 (10); large negative inputs tend to -alpha;
# rank 5. Zero-sized inputs are left out: the HAL allows them, Android 11 fails them.
# Golden values: conformance/specs/oracles/newops_oracle.py (the definition in
# float64). Every input is exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("ELU", i, 1.0).To(o)
Example({
    i: [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, -0.25],
    o: [-0.864664717, -0.632120559, -0.39346934, 0.0, 0.5, 1.0, 2.0, -0.221199217],
}).AddVariations("relaxed", "float16")

# alpha below 1: the negative side flattens toward -0.1.
i1 = Input("in", "TENSOR_FLOAT32", "{8}")
o1 = Output("out", "TENSOR_FLOAT32", "{8}")
Model("alpha_small").Operation("ELU", i1, 0.1).To(o1)
Example({
    i1: [-3.0, -1.5, -0.1, 0.0, 0.1, 1.5, 3.0, -6.0],
    o1: [-0.0950212932, -0.077686984, -0.0095162582, 0.0, 0.1, 1.5, 3.0, -0.0997521248],
}).AddVariations("relaxed", "float16")

# alpha above 1: the negative side reaches toward -10.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 2, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 2, 2}")
Model("alpha_large").Operation("ELU", i2, 10.0).To(o2)
Example({
    i2: [-2.5, -0.75, -0.05, 0.0, 0.05, 0.75, 2.5, -4.0],
    o2: [-9.17915001, -5.27633447, -0.487705755, 0.0, 0.05, 0.75, 2.5, -9.81684361],
}).AddVariations("relaxed", "float16")

# Large negative inputs: exp(x) underflows to 0, the output is -alpha (-20 is 2e-9 short).
i3 = Input("in", "TENSOR_FLOAT32", "{6}")
o3 = Output("out", "TENSOR_FLOAT32", "{6}")
Model("large_negative").Operation("ELU", i3, 0.5).To(o3)
Example({
    i3: [-1000.0, -100.0, -30.0, -20.0, 20.0, 100.0],
    o3: [-0.5, -0.5, -0.5, -0.499999999, 20.0, 100.0],
}).AddVariations("relaxed", "float16")

# Rank 5: no rank limit.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 2, 1, 3, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1, 3, 1}")
Model("rank5").Operation("ELU", i5, 2.0).To(o5)
Example({
    i5: [-1.0, 1.0, -2.0, 2.0, -0.5, 0.5],
    o5: [-1.26424112, 1.0, -1.72932943, 2.0, -0.786938681, 0.5],
}).AddVariations("relaxed", "float16")
