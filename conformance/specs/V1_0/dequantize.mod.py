# DEQUANTIZE (HAL 1.0 form): TENSOR_QUANT8_ASYMM -> TENSOR_FLOAT32,
# out = scale * (q - zeroPoint). Golden values by hand below, checked with
# conformance/specs/oracles/conversion_oracle.py (float32 products).

# Scale 0.5, zero point 127: q - 127 = [-127, -126, -1, 0, 1, 127, 128, 73] -> halves.
i = Input("in", "TENSOR_QUANT8_ASYMM", "{2, 4}, 0.5f, 127")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("DEQUANTIZE", i).To(o)

Example({
    i: [0, 1, 126, 127, 128, 254, 255, 200],
    o: [-63.5, -63.0, -0.5, 0.0, 0.5, 63.5, 64.0, 36.5],
})

# Zero point 0 (scale 2, rank 3): [0, 1, 2, 100, 254, 255] * 2.
a = Input("a", "TENSOR_QUANT8_ASYMM", "{1, 2, 3}, 2.0f, 0")
b = Output("b", "TENSOR_FLOAT32", "{1, 2, 3}")
Model("zp0").Operation("DEQUANTIZE", a).To(b)

Example({a: [0, 1, 2, 100, 254, 255], b: [0.0, 2.0, 4.0, 200.0, 508.0, 510.0]})

# Zero point 255 (scale 0.25, rank 4): (q - 255) / 4 = [-63.75, -38.75, -0.25, 0].
c = Input("c", "TENSOR_QUANT8_ASYMM", "{1, 2, 2, 1}, 0.25f, 255")
d = Output("d", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("zp255").Operation("DEQUANTIZE", c).To(d)

Example({c: [0, 100, 254, 255], d: [-63.75, -38.75, -0.25, 0.0]})

# Scale 0.1, zero point 10: 0.1f * (q - 10) in float32 (oracle):
# q - 10 = [-10, -1, 0, 1, 10, 100, 245, -7].
e = Input("e", "TENSOR_QUANT8_ASYMM", "{8}, 0.1f, 10")
f = Output("f", "TENSOR_FLOAT32", "{8}")
Model("scale_0_1").Operation("DEQUANTIZE", e).To(f)

Example({
    e: [0, 9, 10, 11, 20, 110, 255, 3],
    f: [-1.0, -0.10000000149011612, 0.0, 0.10000000149011612, 1.0, 10.0, 24.5,
        -0.699999988079071],
})
