# LOGISTIC (HAL 1.0): out = 1 / (1 + e**-x), TENSOR_FLOAT32 and
# TENSOR_QUANT8_ASYMM of rank 1 to 4. A quantized output is fixed at scale
# 1/256, zero point 0: out_q = round(256 * sigmoid(x)), 256 saturating to 255,
# and inputs beyond the fixed-point radius (|x| >= 7.5 to 15) give 0 or 255.
# Golden values: conformance/specs/oracles/unary_oracle.py (float64). It also
# checks that every input is exact at its scale and that the generator's
# quantization of each golden equals the definition's (no 256*sigmoid within
# 0.016 of a rounding tie).

# Scale 1/16 around zero point 128: 256*sigmoid = [0.086, 19.42, 68.85,
# 112.08, 128, 159.35, 209.30, 255.91] -> [0, 19, 69, 112, 128, 159, 209, 255].
i = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("LOGISTIC", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.0625, 128),
    o: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i: [-8.0, -2.5, -1.0, -0.25, 0.0, 0.5, 1.5, 7.9375],
    o: [0.00033535013, 0.07585818, 0.268941421, 0.437823499,
        0.5, 0.622459331, 0.817574476, 0.999643029],
}).AddVariations(quant8)

# Scale 0.5, zero point 100: inputs from -50 to 77.5 reach the saturation
# radius (15 steps = 7.5) on both sides -> [0, 0, 12, 128, 225, 255, 255, 255].
i4 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
Model("saturating").Operation("LOGISTIC", i4).To(o4)
quant8_saturating = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o4: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i4: [-50.0, -7.5, -3.0, 0.0, 2.0, 7.5, 20.0, 77.5],
    o4: [1.92874985e-22, 0.000552778637, 0.0474258732, 0.5,
         0.880797078, 0.999447221, 0.999999998, 1.0],
}).AddVariations(quant8_saturating)

# Zero point 0 (non-negative inputs only), scale 1/8 -> [128, 152, 187, 241, 255].
i1 = Input("in", "TENSOR_FLOAT32", "{5}")
o1 = Output("out", "TENSOR_FLOAT32", "{5}")
Model("positive").Operation("LOGISTIC", i1).To(o1)
quant8_positive = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i1: [0.0, 0.375, 1.0, 2.75, 31.875],
    o1: [0.5, 0.5926666, 0.731058579, 0.93991335, 1.0],
}).AddVariations(quant8_positive)
