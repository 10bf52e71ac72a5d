# TRANSPOSE with float16 and with the permutation omitted (rank 2: the two
# dimensions swap, the Android 10 reference's supported case).
# Golden values: conformance/specs/oracles/shape_oracle.py ("transpose ...").

# Omitted permutation: [2, 3] -> [3, 2]. The perm input has no value in every feed.
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
p1 = Input("perm", "TENSOR_INT32", "{0}")
o1 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model("omitted").Operation("TRANSPOSE", i1, p1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
})
Example({
    i1: [1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
    p1: [],
    o1: [1.0, 2.5, 1.5, 3.0, 2.0, 3.5],
}).AddVariations("relaxed", "float16", quant8)

# Rank 3 [2, 3, 4] with perm [2, 0, 1] -> [4, 2, 3]; the perm also as an input.
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3, 4}")
p2 = Parameter("perm", "TENSOR_INT32", "{3}", [2, 0, 1])
o2 = Output("output", "TENSOR_FLOAT32", "{4, 2, 3}")
Model().Operation("TRANSPOSE", i2, p2).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i2: [-6.0, -5.5, -5.0, -4.5, -4.0, -3.5, -3.0, -2.5, -2.0, -1.5, -1.0, -0.5,
         0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5],
    o2: [-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, -5.5, -3.5, -1.5, 0.5, 2.5, 4.5,
         -5.0, -3.0, -1.0, 1.0, 3.0, 5.0, -4.5, -2.5, -0.5, 1.5, 3.5, 5.5],
}).AddInput(p2).AddVariations("float16", quant8)
