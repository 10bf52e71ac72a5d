# RELU (HAL 1.0): out = max(0, x), TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM of
# rank 1 to 4. A quantized output carries the input's scale and zero point,
# and the raw bytes are clamped to [max(0, zp), 255]. Golden values by hand
# (negative values become 0), also printed and checked at every scale by
# conformance/specs/oracles/unary_oracle.py; every input is exact at its scale.

# Scale 0.5, zero point 128: quantized [128 x 5, 129, 130, 133, 134, 143, 148,
# 159, 168, 194, 228, 255].
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model().Operation("RELU", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    i: [-64.0, -10.5, -3.0, -0.5, 0.0, 0.5, 1.0, 2.5,
        3.0, 7.5, 10.0, 15.5, 20.0, 33.0, 50.0, 63.5],
    o: [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 2.5,
        3.0, 7.5, 10.0, 15.5, 20.0, 33.0, 50.0, 63.5],
}).AddVariations(quant8)

# Rank 1 at scale 0.25, zero point 100: [0, 99, 101, 255] -> [100, 100, 101, 255].
i1 = Input("in", "TENSOR_FLOAT32", "{4}")
o1 = Output("out", "TENSOR_FLOAT32", "{4}")
Model("offset").Operation("RELU", i1).To(o1)
quant8_offset = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({i1: [-25.0, -0.25, 0.25, 38.75], o1: [0.0, 0.0, 0.25, 38.75]}).AddVariations(
    quant8_offset)

# Zero point 255: every representable value is <= 0, so the range collapses
# to the single byte 255 (real 0).
iz = Input("in", "TENSOR_FLOAT32", "{2, 2}")
oz = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("zero_point_255").Operation("RELU", iz).To(oz)
quant8_collapsed = DataTypeConverter().Identify({
    iz: ("TENSOR_QUANT8_ASYMM", 0.5, 255),
    oz: ("TENSOR_QUANT8_ASYMM", 0.5, 255),
})
Example({iz: [-127.5, -10.0, -0.5, 0.0], oz: [0.0, 0.0, 0.0, 0.0]}).AddVariations(
    quant8_collapsed)

# Zero point 0, scale 2: nothing is negative, every byte passes unchanged.
i0 = Input("in", "TENSOR_FLOAT32", "{3}")
o0 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("zero_point_0").Operation("RELU", i0).To(o0)
quant8_unsigned = DataTypeConverter().Identify({
    i0: ("TENSOR_QUANT8_ASYMM", 2.0, 0),
    o0: ("TENSOR_QUANT8_ASYMM", 2.0, 0),
})
Example({i0: [0.0, 2.0, 510.0], o0: [0.0, 2.0, 510.0]}).AddVariations(quant8_unsigned)
