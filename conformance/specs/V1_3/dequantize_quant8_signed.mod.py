# DEQUANTIZE from TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): out = scale * (q - zeroPoint),
# to TENSOR_FLOAT32 and (the float16 variations) TENSOR_FLOAT16.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("dequantize ...").

# Scale 0.5, zero point -3, the whole int8 range's ends:
# q [-128, -100, -3, 0, 1, 50, 126, 127] -> [-62.5, -48.5, 0, 1.5, 2, 26.5, 64.5, 65]
# (all exact in float16).
i = Input("in", "TENSOR_QUANT8_ASYMM_SIGNED", "{2, 4}, 0.5f, -3")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model("scale_0_5").Operation("DEQUANTIZE", i).To(o)
Example({
    i: [-128, -100, -3, 0, 1, 50, 126, 127],
    o: [-62.5, -48.5, 0.0, 1.5, 2.0, 26.5, 64.5, 65.0],
}).AddVariations("float16")

# Scale 0.1, zero point 127: q [-128, -1, 0, 100, 127] -> 0.1 * [-255, -128, -127, -27, 0]
# (the float32 products).
x = Input("x", "TENSOR_QUANT8_ASYMM_SIGNED", "{5}, 0.1f, 127")
y = Output("y", "TENSOR_FLOAT32", "{5}")
Model("zp_max").Operation("DEQUANTIZE", x).To(y)
Example({
    x: [-128, -1, 0, 100, 127],
    y: [-25.5, -12.8000002, -12.6999998, -2.70000005, 0.0],
})

# Float inputs quantized by the generator at three signed quantizations (each value
# exact): zp_neg (0.25, -112) (-4.0 is byte -128), zp_zero (0.0625, 0),
# zp_pos (0.125, 71) (7.0 is byte 127); the float output gives them back.
z = Input("z", "TENSOR_FLOAT32", "{1, 2, 3}")
w = Output("w", "TENSOR_FLOAT32", "{1, 2, 3}")
Model("converted").Operation("DEQUANTIZE", z).To(w)
Example({
    z: [-4.0, -0.75, 0.0, 0.5, 2.25, 7.0],
    w: [-4.0, -0.75, 0.0, 0.5, 2.25, 7.0],
}).AddVariations(*[
    DataTypeConverter(name=name).Identify({z: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point)})
    for name, scale, zero_point in [("zp_neg", 0.25, -112), ("zp_zero", 0.0625, 0), ("zp_pos", 0.125, 71)]
], includeDefault=False)
