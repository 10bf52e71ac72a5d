# TRANSPOSE: out.dims[k] = in.dims[perm[k]], out[i_0..] = in[j] with j[perm[k]] = i_k.
# Golden values: conformance/specs/oracles/shape_oracle.py ("transpose ...").
# Quant8 output parameters equal the input's.

# [2, 3, 4] with perm [2, 0, 1] -> [4, 2, 3]; input -6.0, -5.5, ..., 5.5.
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3, 4}")
o1 = Output("output", "TENSOR_FLOAT32", "{4, 2, 3}")
Model().Operation("TRANSPOSE", i1, [2, 0, 1]).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i1: [-6.0, -5.5, -5.0, -4.5, -4.0, -3.5, -3.0, -2.5, -2.0, -1.5, -1.0, -0.5,
         0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5],
    o1: [-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, -5.5, -3.5, -1.5, 0.5, 2.5, 4.5,
         -5.0, -3.0, -1.0, 1.0, 3.0, 5.0, -4.5, -2.5, -0.5, 1.5, 3.5, 5.5],
}).AddVariations("relaxed", quant8)

# Rank 4, NHWC -> NCHW order: [1, 2, 3, 2] with perm [0, 3, 1, 2] -> [1, 2, 2, 3];
# the permutation also as a model input.
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
p2 = Parameter("perm", "TENSOR_INT32", "{4}", [0, 3, 1, 2])
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("rank4").Operation("TRANSPOSE", i2, p2).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
})
Example({
    i2: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5],
    o2: [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5],
}).AddInput(p2).AddVariations("relaxed", quant8)

# The identity permutation copies: [2, 2] with perm [0, 1].
i3 = Input("input", "TENSOR_FLOAT32", "{2, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 2}")
Model("identity").Operation("TRANSPOSE", i3, [0, 1]).To(o3)
Example({i3: [1.0, 2.0, 3.0, 4.0], o3: [1.0, 2.0, 3.0, 4.0]}).AddVariations("relaxed")
