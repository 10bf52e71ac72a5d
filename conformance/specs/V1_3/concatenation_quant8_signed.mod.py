# CONCATENATION with TENSOR_QUANT8_ASYMM_SIGNED inputs and output (HAL 1.3): the inputs
# may each have their own scale and zero point and differ from the output; each element
# is requantized, q_out = round((q_in - zp_in) * s_in / s_out) + zp_out, saturated to
# [-128, 127]. Covers one shared quantization, inputs requantized to the output, outputs
# that saturate at 127 (zero point 100) and at -128 (zero point -128), axis 1 of rank 2
# and axis 3 of rank 4.
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases concatenation and
# concatenation_channels. Every value is a multiple of each output scale, so every
# requantization is exact (no rounding involved).

# 1. [2, 2] + [2, 3] along axis 1 -> [2, 5]; a holds multiples of 0.5, b of 0.25.
a1 = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b1 = Input("b", "TENSOR_FLOAT32", "{2, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 5}")
Model().Operation("CONCATENATION", a1, b1, 1).To(o1)
same = DataTypeConverter(name="signed_same").Identify({
    a1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -5),
    b1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -5),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -5),
})
mixed = DataTypeConverter(name="signed_requantized").Identify({
    a1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -100),
    b1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 20),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
})
# Output range [-14.25, 1.6875]: 2.0, 2.5 and 3.0 saturate at 127.
saturating = DataTypeConverter(name="signed_saturating").Identify({
    a1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 10),
    b1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -3),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.0625, 100),
})
Example({
    a1: [2.0, 1.0, -1.0, 2.5],
    b1: [-2.0, 3.0, 0.75, 1.0, -0.75, -1.75],
    o1: [2.0, 1.0, -2.0, 3.0, 0.75, -1.0, 2.5, 1.0, -0.75, -1.75],
}).AddVariations(same, mixed, saturating, includeDefault=False)

# 2. [1, 2, 2, 1] + [1, 2, 2, 2] + [1, 2, 2, 1] along axis 3 -> [1, 2, 2, 4]; a holds
#    multiples of 0.5, b of 0.25, c whole numbers.
a2 = Input("a", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
b2 = Input("b", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
c2 = Input("c", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
Model("channels").Operation("CONCATENATION", a2, b2, c2, 3).To(o2)
mixed = DataTypeConverter(name="signed_requantized").Identify({
    a2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 3),
    b2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -7),
    c2: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0, 119),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -1),
})
# Output range [0, 31.875]: every negative value saturates at -128.
saturating = DataTypeConverter(name="signed_saturating").Identify({
    a2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    b2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 60),
    c2: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0, -128 + 8),
    o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -128),
})
Example({
    a2: [3.5, 3.0, -3.0, -2.0],
    b2: [0.5, -3.5, 3.75, -4.0, 1.0, -1.0, 3.25, 3.75],
    c2: [-2, -5, 2, -2],
    o2: [3.5, 0.5, -3.5, -2, 3.0, 3.75, -4.0, -5, -3.0, 1.0, -1.0, 2, -2.0, 3.25, 3.75, -2],
}).AddVariations(mixed, saturating, includeDefault=False)
