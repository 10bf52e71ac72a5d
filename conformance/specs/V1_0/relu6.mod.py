# RELU6 (HAL 1.0): out = min(6, max(0, x)), TENSOR_FLOAT32 and
# TENSOR_QUANT8_ASYMM of rank 1 to 4. A quantized output carries the input's
# scale and zero point; the raw bytes are clamped to
# [max(0, zp), min(255, zp + round(6/s))]. Golden values by hand, also printed
# and checked at every scale by conformance/specs/oracles/unary_oracle.py;
# every input is exact at its scale.

# Scale 0.25, zero point 64: byte range [64, 88].
i = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("RELU6", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.25, 64),
    o: ("TENSOR_QUANT8_ASYMM", 0.25, 64),
})
Example({
    i: [-3.0, -0.5, 0.0, 0.5, 3.0, 5.75, 6.0, 10.0],
    o: [0.0, 0.0, 0.0, 0.5, 3.0, 5.75, 6.0, 6.0],
}).AddVariations(quant8)

# Scale 1/64, zero point 0: 6/s = 384 exceeds 255, so the upper bound is 255
# (real 3.984375) and nothing is clipped.
i_f = Input("in", "TENSOR_FLOAT32", "{4}")
o_f = Output("out", "TENSOR_FLOAT32", "{4}")
Model("fine").Operation("RELU6", i_f).To(o_f)
quant8_fine = DataTypeConverter().Identify({
    i_f: ("TENSOR_QUANT8_ASYMM", 1.0 / 64, 0),
    o_f: ("TENSOR_QUANT8_ASYMM", 1.0 / 64, 0),
})
Example({i_f: [0.0, 1.0, 3.5, 3.984375], o_f: [0.0, 1.0, 3.5, 3.984375]}).AddVariations(
    quant8_fine)

# Scale 3.75, zero point 2: the upper bound is 2 + round(6 / 3.75 = 1.6) = 4, i.e.
# real 7.5, above 6. The float golden 6 quantizes to 1.6 + 2 = 3.6 -> 4, the same
# byte, and no golden lies on a tie (x.5), where the generator's rounding (half to
# even) and the bound's (half away from zero) could part: inputs [0, 2, 3, 4] ->
# [2, 2, 3, 4].
ic = Input("in", "TENSOR_FLOAT32", "{2, 2}")
oc = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("coarse").Operation("RELU6", ic).To(oc)
quant8_coarse = DataTypeConverter().Identify({
    ic: ("TENSOR_QUANT8_ASYMM", 3.75, 2),
    oc: ("TENSOR_QUANT8_ASYMM", 3.75, 2),
})
Example({ic: [-7.5, 0.0, 3.75, 7.5], oc: [0.0, 0.0, 3.75, 6.0]}).AddVariations(quant8_coarse)
