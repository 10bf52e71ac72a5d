# LOGISTIC in HAL 1.2: TENSOR_FLOAT16, relaxed float32 and quant8 (output
# fixed at scale 1/256, zero point 0). Golden values:
# conformance/specs/oracles/unary_oracle.py (1 / (1 + e**-x) in float64); it
# also checks the quantized expectations: at input scale 0.25, zero point 64,
# 256*sigmoid = [0.63, 30.52, 96.65, 128, 143.92, 187.15, 243.86, 255.99]
# -> [1, 31, 97, 128, 144, 187, 244, 255] (0.016 from the nearest tie).
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2}")
Model().Operation("LOGISTIC", i).To(o)
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.25, 64),
    o: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i: [-6.0, -2.0, -0.5, 0.0, 0.25, 1.0, 3.0, 10.0],
    o: [0.00247262316, 0.119202922, 0.377540669, 0.5,
        0.562176501, 0.731058579, 0.952574127, 0.999954602],
}).AddVariations("relaxed", "float16", quant8)

# Large magnitudes: e**100 overflows float32 and float16, and 1 / (1 + inf) = 0
# (golden 3.7e-44, within tolerance).
il = Input("in", "TENSOR_FLOAT32", "{4}")
ol = Output("out", "TENSOR_FLOAT32", "{4}")
Model("large").Operation("LOGISTIC", il).To(ol)
Example({
    il: [-100.0, 100.0, -20.0, 20.0],
    ol: [3.72007598e-44, 1.0, 2.06115362e-09, 0.999999998],
}).AddVariations("relaxed", "float16")
