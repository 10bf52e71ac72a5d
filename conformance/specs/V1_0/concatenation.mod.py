# CONCATENATION: inputs copied in order along the axis; before HAL 1.2 every
# quant8 input shares the output's scale and zero point. Golden values:
# conformance/specs/oracles/shape_oracle.py (cases "concatenation ...").

# Axis 1 of [2, 2] and [2, 3] -> [2, 5]: each output row is a row of a then b.
a1 = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b1 = Input("b", "TENSOR_FLOAT32", "{2, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 5}")
Model().Operation("CONCATENATION", a1, b1, 1).To(o1)
quant8 = DataTypeConverter().Identify({
    a1: ("TENSOR_QUANT8_ASYMM", 0.5, 3),
    b1: ("TENSOR_QUANT8_ASYMM", 0.5, 3),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 3),
})
Example({
    a1: [0.0, 0.5, 1.0, 1.5],
    b1: [10.0, 10.5, 11.0, 11.5, 12.0, 12.5],
    o1: [0.0, 0.5, 10.0, 10.5, 11.0, 1.0, 1.5, 11.5, 12.0, 12.5],
}).AddVariations(quant8)

# Three inputs along axis 0 (the repeated input slot): [1, 2] + [2, 2] + [1, 2] -> [4, 2].
# The middle input is a constant.
a2 = Input("a", "TENSOR_FLOAT32", "{1, 2}")
b2 = Parameter("b", "TENSOR_FLOAT32", "{2, 2}", [3.0, 4.0, 5.0, 6.0])
c2 = Input("c", "TENSOR_FLOAT32", "{1, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{4, 2}")
Model("three").Operation("CONCATENATION", a2, b2, c2, 0).To(o2)
quant8 = DataTypeConverter().Identify({
    a2: ("TENSOR_QUANT8_ASYMM", 1.0, 0),
    b2: ("TENSOR_QUANT8_ASYMM", 1.0, 0),
    c2: ("TENSOR_QUANT8_ASYMM", 1.0, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0, 0),
})
Example({
    a2: [1.0, 2.0],
    c2: [7.0, 8.0],
    o2: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
}).AddInput(b2).AddVariations(quant8)

# A single input is copied as it is (axis 0 of [3]).
a3 = Input("a", "TENSOR_FLOAT32", "{3}")
o3 = Output("output", "TENSOR_FLOAT32", "{3}")
Model("single").Operation("CONCATENATION", a3, 0).To(o3)
quant8 = DataTypeConverter().Identify({
    a3: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    o3: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
})
Example({a3: [-1.25, 0.0, 31.75], o3: [-1.25, 0.0, 31.75]}).AddVariations(quant8)
