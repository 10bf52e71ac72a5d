# QUANTIZE (HAL 1.2): q = clamp(zp + round(x / scale), 0, 255) with the output's
# scale and zero point, rounding half away from zero (the division in float32).
# Golden values: conformance/specs/oracles/conversion_oracle.py, and by hand below.

# Scale 0.5, zero point 128: x / 0.5 = [-128, -2.5, -1.5, -0.5, 0, 0.5, 1.5, 2.5, 127, 128];
# ties round away from zero: -2.5 -> -3, -0.5 -> -1, 0.5 -> 1, 2.5 -> 3; plus 128 and
# clamped: [0, 125, 126, 127, 128, 129, 130, 131, 255, 255]. Every input is exact in
# float16.
i = Input("in", "TENSOR_FLOAT32", "{2, 5}")
o = Output("out", "TENSOR_QUANT8_ASYMM", "{2, 5}, 0.5f, 128")
Model().Operation("QUANTIZE", i).To(o)

Example({
    i: [-64.0, -1.25, -0.75, -0.25, 0.0, 0.25, 0.75, 1.25, 63.5, 64.0],
    o: [0, 125, 126, 127, 128, 129, 130, 131, 255, 255],
}).AddVariations("relaxed", "float16")

# A scale that is not a power of two: 0.1, zero point 10. x / 0.1 in float32 =
# [-10, -2.6, 0, 0.4, 0.5, 3.3, 10, 123, 245, 300] -> rounded [-10, -3, 0, 0, 1, 3, 10,
# 123, 245, 300] (0.05f / 0.1f is exactly 0.5: the two share a mantissa) -> plus 10,
# clamped: [0, 7, 10, 10, 11, 13, 20, 133, 255, 255].
x = Input("x", "TENSOR_FLOAT32", "{10}")
y = Output("y", "TENSOR_QUANT8_ASYMM", "{10}, 0.1f, 10")
Model("scale_0_1").Operation("QUANTIZE", x).To(y)

Example({
    x: [-1.0, -0.26, 0.0, 0.04, 0.05, 0.33, 1.0, 12.3, 24.5, 30.0],
    y: [0, 7, 10, 10, 11, 13, 20, 133, 255, 255],
})

# Scale 2, zero point 0, rank 3: x / 2 = [-1.5, -0.5, 0, 0.5, 1.45, 1.5, 254.5, 255,
# 255.5, 500] -> [-2, -1, 0, 1, 1, 2, 255, 255, 256, 500] -> clamped to [0, 255].
# (2.9 is 2.900390625 in float16: still 1 after rounding.)
z = Input("z", "TENSOR_FLOAT32", "{2, 1, 5}")
w = Output("w", "TENSOR_QUANT8_ASYMM", "{2, 1, 5}, 2.0f, 0")
Model("zp0").Operation("QUANTIZE", z).To(w)

Example({
    z: [-3.0, -1.0, 0.0, 1.0, 2.9, 3.0, 509.0, 510.0, 511.0, 1000.0],
    w: [0, 0, 0, 1, 1, 2, 255, 255, 255, 255],
}).AddVariations("relaxed", "float16")

# Zero-sized input (accepted since HAL 1.2): a SLICE of size 0 along axis 0 feeds
# QUANTIZE, whose output is then {0, 2} with no data.
zi = Input("zi", "TENSOR_FLOAT32", "{2, 2}")
zs = Internal("zs", "TENSOR_FLOAT32", "{0, 2}")
zo = Output("zo", "TENSOR_QUANT8_ASYMM", "{0, 2}, 0.5f, 128")
Model("zero_sized").Operation("SLICE", zi, [0, 0], [0, 2]).To(zs).Operation("QUANTIZE", zs).To(zo)

Example({zi: [1.0, 2.0, 3.0, 4.0], zo: []}).AddVariations("float16")
