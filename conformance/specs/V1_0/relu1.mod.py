# RELU1 (HAL 1.0): out = min(1, max(-1, x)), TENSOR_FLOAT32 and
# TENSOR_QUANT8_ASYMM of rank 1 to 4. A quantized output carries the input's
# scale and zero point; the raw bytes are clamped to
# [max(0, zp + round(-1/s)), min(255, zp + round(1/s))]. Golden values by hand,
# also printed and checked at every scale by
# conformance/specs/oracles/unary_oracle.py; every input is exact at its scale.

# Scale 0.25, zero point 128: byte range [124, 132].
i = Input("in", "TENSOR_FLOAT32", "{1, 2, 4}")
o = Output("out", "TENSOR_FLOAT32", "{1, 2, 4}")
Model().Operation("RELU1", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    o: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
})
Example({
    i: [-2.0, -1.0, -0.5, 0.0, 0.25, 1.0, 1.5, 31.75],
    o: [-1.0, -1.0, -0.5, 0.0, 0.25, 1.0, 1.0, 1.0],
}).AddVariations(quant8)

# Scale 3, zero point 10: round(+-1/3) = 0, so the byte range collapses to
# [10, 10] and every output is 10 (real 0; the float goldens +-1 quantize to
# 10 too).
ic = Input("in", "TENSOR_FLOAT32", "{5}")
oc = Output("out", "TENSOR_FLOAT32", "{5}")
Model("coarse").Operation("RELU1", ic).To(oc)
quant8_coarse = DataTypeConverter().Identify({
    ic: ("TENSOR_QUANT8_ASYMM", 3.0, 10),
    oc: ("TENSOR_QUANT8_ASYMM", 3.0, 10),
})
Example({ic: [-30.0, -3.0, 0.0, 3.0, 30.0], oc: [-1.0, -1.0, 0.0, 1.0, 1.0]}).AddVariations(
    quant8_coarse)

# Scale 0.5, zero point 1: the lower bound 1 + round(-2) = -1 is clamped to
# byte 0 (real -0.5); the upper bound is 3 (real 1).
il = Input("in", "TENSOR_FLOAT32", "{2, 2}")
ol = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("low_zero_point").Operation("RELU1", il).To(ol)
quant8_low = DataTypeConverter().Identify({
    il: ("TENSOR_QUANT8_ASYMM", 0.5, 1),
    ol: ("TENSOR_QUANT8_ASYMM", 0.5, 1),
})
Example({il: [-0.5, 0.0, 0.5, 1.5], ol: [-0.5, 0.0, 0.5, 1.0]}).AddVariations(quant8_low)
