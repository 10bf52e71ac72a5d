# L2_NORMALIZATION in HAL 1.2 without the axis input (the last axis): ranks 4 to
# 1, float16, relaxed and quant8 (input scale 0.5, zero point 100; the output is
# fixed at scale 1/128, zero point 128, and 1.0 saturates at 255). By hand:
# (3, 0, 4) / 5; (1, -2, 2) / 3; (-6, 3, 2) / 7; (0, 5, 0) / 5. The axis input
# is exercised by l2_normalization_all_axes.mod.py. (Oracle cross-check:
# conformance/specs/oracles/pooling_oracle.py, case l2_normalization_cases.)
i1 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o1 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model().Operation("L2_NORMALIZATION", i1).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 128),
})
Example({
    i1: [3.0, 0.0, 4.0, 1.0, -2.0, 2.0, -6.0, 3.0, 2.0, 0.0, 5.0, 0.0],
    o1: [0.6, 0.0, 0.8, 0.3333333, -0.6666667, 0.6666667,
         -0.8571429, 0.4285714, 0.2857143, 0.0, 1.0, 0.0],
}).AddAllDims(i1, o1).AddVariations("relaxed", "float16", quant8)
