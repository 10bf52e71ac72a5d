# PAD with HAL 1.2 forms: float16, and quant8 with a non-zero zero point (the pad
# byte is the zero point, i.e. a real 0.0). Golden values:
# conformance/specs/oracles/shape_oracle.py ("pad ...").
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
p1 = Parameter("paddings", "TENSOR_INT32", "{2, 2}", [1, 0, 0, 2])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 5}")
Model().Operation("PAD", i1, p1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 37),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 37),
})
Example({
    i1: [1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
    o1: [0.0, 0.0, 0.0, 0.0, 0.0,
         1.0, 1.5, 2.0, 0.0, 0.0,
         2.5, 3.0, 3.5, 0.0, 0.0],
}).AddInput(p1).AddVariations("float16", quant8)

# Rank 4, every dimension padded: [1, 2, 2, 1] -> [2, 3, 3, 3]; negative inputs.
i2 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3, 3, 3}")
Model("all_dims").Operation("PAD", i2, Parameter(
    "paddings", "TENSOR_INT32", "{4, 2}", [0, 1, 1, 0, 0, 1, 1, 1])).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 1.0, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0, 128),
})
Example({
    i2: [-1.0, 2.0, -3.0, 4.0],
    o2: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, -1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0,
         0.0, -3.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
}).AddVariations("relaxed", "float16", quant8)
