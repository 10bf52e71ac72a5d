# SPLIT into num_splits equal parts along axis, one output per part. Quant8 outputs
# keep the input's parameters. Golden values: conformance/specs/oracles/shape_oracle.py
# ("split int ..."). Integer data (int32 variation exact).

# [2, 6] along axis 1 into 3 outputs of [2, 2].
i1 = Input("input", "TENSOR_FLOAT32", "{2, 6}")
o1 = Output("output0", "TENSOR_FLOAT32", "{2, 2}")
o2 = Output("output1", "TENSOR_FLOAT32", "{2, 2}")
o3 = Output("output2", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("SPLIT", i1, 1, 3).To(o1, o2, o3)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    o3: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
})
Example({
    i1: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    o1: [-5.0, -4.0, 1.0, 2.0],
    o2: [-3.0, -2.0, 3.0, 4.0],
    o3: [-1.0, 0.0, 5.0, 6.0],
}).AddVariations("relaxed", "float16", "int32", quant8)

# [2, 3, 2] along axis -3 (= 0) into 2 outputs of [1, 3, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3, 2}")
p1 = Output("output0", "TENSOR_FLOAT32", "{1, 3, 2}")
p2 = Output("output1", "TENSOR_FLOAT32", "{1, 3, 2}")
Model("negative_axis").Operation("SPLIT", i2, -3, 2).To(p1, p2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    p1: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    p2: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
})
Example({
    i2: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    p1: [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0],
    p2: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
}).AddVariations("relaxed", "float16", "int32", quant8)

# num_splits 1 copies the input (axis -1 of [3]).
i3 = Input("input", "TENSOR_FLOAT32", "{3}")
q1 = Output("output0", "TENSOR_FLOAT32", "{3}")
Model("one").Operation("SPLIT", i3, -1, 1).To(q1)
Example({i3: [7.0, -8.0, 9.0], q1: [7.0, -8.0, 9.0]}).AddVariations("float16", "int32")
