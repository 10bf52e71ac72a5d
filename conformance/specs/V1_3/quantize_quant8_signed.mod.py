# QUANTIZE to TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3):
# q = clamp(round(x / scale) + zeroPoint, -128, 127), the division in float32 and
# the rounding half away from zero. The outputs are written as int8 values (no
# converter), so the ties below are tested as the HAL rounds them.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("quantize ...").

# Scale 0.5, zero point -1: x / 0.5 = [-260, -3, -2.5, -0.5, 0, 0.5, 1.5, 2.5, 128, 200]
# -> rounded away from zero [-260, -3, -3, -1, 0, 1, 2, 3, 128, 200] -> minus 1,
# clamped: [-128, -4, -4, -2, -1, 0, 1, 2, 127, 127]. Every input is exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 5}")
o = Output("out", "TENSOR_QUANT8_ASYMM_SIGNED", "{2, 5}, 0.5f, -1")
Model("scale_0_5").Operation("QUANTIZE", i).To(o)
Example({
    i: [-130.0, -1.5, -1.25, -0.25, 0.0, 0.25, 0.75, 1.25, 64.0, 100.0],
    o: [-128, -4, -4, -2, -1, 0, 1, 2, 127, 127],
}).AddVariations("float16")

# Scale 0.1, zero point -128 (the lowest): x / 0.1 in float32 = [-10, 0, 0.4, 0.5, 3.3,
# 123, 255, 300] -> [-10, 0, 0, 1, 3, 123, 255, 300] -> plus -128, clamped:
# [-128, -128, -128, -127, -125, -5, 127, 127].
x = Input("x", "TENSOR_FLOAT32", "{8}")
y = Output("y", "TENSOR_QUANT8_ASYMM_SIGNED", "{8}, 0.1f, -128")
Model("zp_min").Operation("QUANTIZE", x).To(y)
Example({
    x: [-1.0, 0.0, 0.04, 0.05, 0.33, 12.3, 25.5, 30.0],
    y: [-128, -128, -128, -127, -125, -5, 127, 127],
})

# Scale 0.25, zero point 127 (the highest), rank 3: x / 0.25 = [-160, -128, -2.5, -0.5,
# 0, 28] -> [-160, -128, -3, -1, 0, 28] -> plus 127, clamped: [-33, -1, 124, 126, 127, 127].
z = Input("z", "TENSOR_FLOAT32", "{2, 1, 3}")
w = Output("w", "TENSOR_QUANT8_ASYMM_SIGNED", "{2, 1, 3}, 0.25f, 127")
Model("zp_max").Operation("QUANTIZE", z).To(w)
Example({
    z: [-40.0, -32.0, -0.625, -0.125, 0.0, 7.0],
    w: [-33, -1, 124, 126, 127, 127],
}).AddVariations("float16")
