# CHANNEL_SHUFFLE along axis with G groups of S = C / G: out[k*G + g] = in[g*S + k].
# Golden values: conformance/specs/oracles/shape_oracle.py ("channel_shuffle ...").
# Quant8 output parameters equal the input's.

# [2, 6], G = 3 on axis 1, moved to every axis position (AddAllAxis transposes data).
i1 = Input("input", "TENSOR_FLOAT32", "{2, 6}")
a1 = Int32Scalar("axis", 1)
o1 = Output("output", "TENSOR_FLOAT32", "{2, 6}")
Model().Operation("CHANNEL_SHUFFLE", i1, 3, a1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i1: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5],
    o1: [0.0, 1.0, 2.0, 0.5, 1.5, 2.5, 3.0, 4.0, 5.0, 3.5, 4.5, 5.5],
}).AddAllAxis(i1, o1, a1).AddVariations("relaxed", "float16", quant8)

# Rank 4, last axis as -1, G = 2 of 4 channels: [1, 2, 2, 4].
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
Model("rank4").Operation("CHANNEL_SHUFFLE", i2, 2, -1).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i2: [-4.0, -3.5, -3.0, -2.5, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
    o2: [-4.0, -3.0, -3.5, -2.5, -2.0, -1.0, -1.5, -0.5, 0.0, 1.0, 0.5, 1.5, 2.0, 3.0, 2.5, 3.5],
}).AddVariations("relaxed", "float16", quant8)

# Rank 3, G = 2 on axis 2 of [2, 2, 6].
i3 = Input("input", "TENSOR_FLOAT32", "{2, 2, 6}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 2, 6}")
Model("rank3").Operation("CHANNEL_SHUFFLE", i3, 2, 2).To(o3)
Example({
    i3: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0,
         -5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    o3: [-5.0, -2.0, -4.0, -1.0, -3.0, 0.0, 1.0, 4.0, 2.0, 5.0, 3.0, 6.0,
         -5.0, -2.0, -4.0, -1.0, -3.0, 0.0, 1.0, 4.0, 2.0, 5.0, 3.0, 6.0],
}).AddVariations("float16")
