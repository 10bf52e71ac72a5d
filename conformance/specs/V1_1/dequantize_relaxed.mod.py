# DEQUANTIZE on a relaxed (float32 computed as float16) model: TENSOR_QUANT8_ASYMM
# -> TENSOR_FLOAT32, out = scale * (q - zeroPoint). Every result is exact in float16.
# Golden values by hand, checked with conformance/specs/oracles/conversion_oracle.py.

# Scale 0.5, zero point 127: q - 127 = [-127, -126, -1, 0, 1, 127, 128, 73] -> halves.
i = Input("in", "TENSOR_QUANT8_ASYMM", "{2, 4}, 0.5f, 127")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("DEQUANTIZE", i).To(o).RelaxedExecution(True)

Example({
    i: [0, 1, 126, 127, 128, 254, 255, 200],
    o: [-63.5, -63.0, -0.5, 0.0, 0.5, 63.5, 64.0, 36.5],
})

# Zero point 255, scale 0.25, rank 4: (q - 255) / 4.
c = Input("c", "TENSOR_QUANT8_ASYMM", "{1, 2, 2, 1}, 0.25f, 255")
d = Output("d", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("zp255").Operation("DEQUANTIZE", c).To(d).RelaxedExecution(True)

Example({c: [0, 100, 254, 255], d: [-63.75, -38.75, -0.25, 0.0]})
