# LOCAL_RESPONSE_NORMALIZATION in HAL 1.2: the axis input on every axis of
# ranks 4 to 1 (negative axes included), ranks below 4 without it, float16
# (bias, alpha and beta as FLOAT16 scalars) and relaxed.
# out[d] = x[d] * (bias + alpha * sum_{|k - d| <= radius} x[k]^2)^-beta along the axis.
# Golden values: conformance/specs/oracles/pooling_oracle.py, case lrn_cases.
# The data holds two lines of six along the last axis; the axis converters move
# that axis and drop others in input and output alike.
data = [1.0, -2.0, 3.0, 0.5, 2.0, -1.0,
        -0.5, 4.0, 1.5, -3.0, 0.0, 2.5]

# radius 2, bias 2, alpha 0.25, beta 0.75
i1 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
axis = Int32Scalar("axis", -1)
o1 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("axis").Operation("LOCAL_RESPONSE_NORMALIZATION", i1, 2, 2.0, 0.25, 0.75, axis).To(o1)
Example({
    i1: data,
    o1: [0.2784377, -0.5521759, 0.7316768, 0.1219461, 0.5521759, -0.4072706,
         -0.1210823, 0.7779178, 0.2917192, -0.5189556, 0.0, 0.6678329],
}).AddAllDimsAndAxis(i1, o1, axis).AddVariations("relaxed", "float16")

# no axis input, radius 1, bias 1, alpha 0.5, beta 0.5, ranks 4 to 1
i2 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("no_axis").Operation("LOCAL_RESPONSE_NORMALIZATION", i2, 1, 1.0, 0.5, 0.5).To(o2)
Example({
    i2: data,
    o2: [0.5345225, -0.7071068, 1.086429, 0.1810715, 1.050451, -0.5345225,
         -0.1655212, 1.24939, 0.3922323, -1.165543, 0.0, 1.230915],
}).AddAllDims(i2, o2).AddVariations("relaxed", "float16")

# radius 9 wider than the depth, beta 1
i3 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("wide").Operation("LOCAL_RESPONSE_NORMALIZATION", i3, 9, 1.0, 0.125, 1.0, -1).To(o3)
Example({
    i3: data,
    o3: [0.293578, -0.587156, 0.8807339, 0.146789, 0.587156, -0.293578,
         -0.09580838, 0.7664671, 0.2874251, -0.5748503, 0.0, 0.4790419],
}).AddVariations("relaxed", "float16")
