# MEAN on TENSOR_FLOAT16 (HAL 1.2), plus HAL 1.2 quant8 forms. The reference widens
# float16 to float32, averages and rounds back. Golden values from
# conformance/specs/oracles/reduction_oracle.py (exact means with fractions); the
# data are multiples of 0.5, exact in float16, and a third lies well within the
# float16 tolerance.

# a = [[[1, -2], [3, 0.5], [-1, 4.5]], [[2.5, 6], [-3.5, 1], [0, -0.5]]]
A = [1.0, -2.0, 3.0, 0.5, -1.0, 4.5, 2.5, 6.0, -3.5, 1.0, 0.0, -0.5]

# Axis 1: 1, 1, -1/3, 13/6 (axes also as a model input).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
axes1 = Parameter("axes", "TENSOR_INT32", "{1}", [1])
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("axis1").Operation("MEAN", i1, axes1, Int32Scalar("keep_dims", 0)).To(o1)
Example({
    i1: A,
    o1: [1.0, 1.0, -0.3333333333333333, 2.1666666666666665],
}).AddInput(axes1).AddVariations("float16")

# Axes [0, 2, -3] (0 named twice), kept: {1, 3, 1} = [1.875, 0.25, 0.75].
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 1}")
Model("duplicates_keep").Operation("MEAN", i2, [0, 2, -3], Int32Scalar("keep_dims", 1)).To(o2)
Example({i2: A, o2: [1.875, 0.25, 0.75]}).AddVariations("float16")

# Every axis: 11.5 / 12 = 0.958333... (float16 0.9585, within tolerance).
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("all_axes").Operation("MEAN", i3, [-3, -2, -1], Int32Scalar("keep_dims", 0)).To(o3)
Example({i3: A, o3: [0.9583333333333334]}).AddVariations("float16")

# Quant8 with a nonzero zero point and a scale that makes every mean exact:
# scale 0.25, zero point 30 on the spatial mean of an NHWC image
# b = [[[1, 2], [3, -4]], [[5.5, 0.5], [-1.5, 2.5]]]:
# (1 + 3 + 5.5 - 1.5) / 4 = 2 -> q 38; (2 - 4 + 0.5 + 2.5) / 4 = 0.25 -> q 31.
# Raw bytes 34 38 42 14 52 32 24 40: sums 152 and 124, divided by 4: 38 and 31.
B = [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5]
i4 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
axes4 = Parameter("axes", "TENSOR_INT32", "{2}", [1, 2])
o4 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 2}")
Model("spatial").Operation("MEAN", i4, axes4, Int32Scalar("keep_dims", 1)).To(o4)
quant8 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.25, 30),
    o4: ("TENSOR_QUANT8_ASYMM", 0.25, 30),
})
Example({i4: B, o4: [2.0, 0.25]}).AddInput(axes4).AddVariations("float16", quant8)
