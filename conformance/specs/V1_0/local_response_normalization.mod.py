# LOCAL_RESPONSE_NORMALIZATION in its HAL 1.0 form: float32, rank 4, along the
# depth (last) axis: out[d] = x[d] * (bias + alpha * sum_{|k - d| <= radius} x[k]^2)^-beta
# (alpha is not divided by the window size). Radius 0, 1, 2 and 9 (wider than
# the depth of 6); beta 0.5, 0.75 and 1.
# Golden values: conformance/specs/oracles/pooling_oracle.py, case lrn_cases. By
# hand, radius 1, bias 1, alpha 0.5, beta 0.5, first cell: x = 1, window {1, -2}:
# 1 * (1 + 0.5 * 5)^-0.5 = 0.5345225.
data = [1.0, -2.0, 3.0, 0.5, 2.0, -1.0,
        -0.5, 4.0, 1.5, -3.0, 0.0, 2.5]

i1 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o1 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("r1").Operation("LOCAL_RESPONSE_NORMALIZATION", i1, 1, 1.0, 0.5, 0.5).To(o1)
Example({
    i1: data,
    o1: [0.5345225, -0.7071068, 1.086429, 0.1810715, 1.050451, -0.5345225,
         -0.1655212, 1.24939, 0.3922323, -1.165543, 0.0, 1.230915],
})

i2 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("r2").Operation("LOCAL_RESPONSE_NORMALIZATION", i2, 2, 2.0, 0.25, 0.75).To(o2)
Example({
    i2: data,
    o2: [0.2784377, -0.5521759, 0.7316768, 0.1219461, 0.5521759, -0.4072706,
         -0.1210823, 0.7779178, 0.2917192, -0.5189556, 0.0, 0.6678329],
})

# radius 9 >= depth: every cell sees its whole row (sum of squares 19.25 and 33.75)
i3 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("r9").Operation("LOCAL_RESPONSE_NORMALIZATION", i3, 9, 1.0, 0.125, 1.0).To(o3)
Example({
    i3: data,
    o3: [0.293578, -0.587156, 0.8807339, 0.146789, 0.587156, -0.293578,
         -0.09580838, 0.7664671, 0.2874251, -0.5748503, 0.0, 0.4790419],
})

# radius 0: each cell alone, x / sqrt(1 + x^2)
i4 = Input("in", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 1, 2, 6}")
Model("r0").Operation("LOCAL_RESPONSE_NORMALIZATION", i4, 0, 1.0, 1.0, 0.5).To(o4)
Example({
    i4: data,
    o4: [0.7071068, -0.8944272, 0.9486833, 0.4472136, 0.8944272, -0.7071068,
         -0.4472136, 0.9701425, 0.8320503, -0.9486833, 0.0, 0.9284767],
})
