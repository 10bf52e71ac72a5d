# L2_NORMALIZATION along every axis of every rank (AddAllDimsAndAxis), relaxed,
# float16 and quant8. The data holds eight pairs along the last axis, each
# normalised by hand: (3, 4) / 5 = (0.6, 0.8); (-3, 4) / 5 = (-0.6, 0.8);
# (0, 2) / 2 = (0, 1); (1, 0) / 1; (6, -8) / 10 = (0.6, -0.8); (-1, 0) / 1;
# (0, -5) / 5 = (0, -1); (8, 6) / 10 = (0.8, 0.6). The axis converters move
# that axis and drop others in input and output alike, so every variation
# still normalises pairs.
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
axis = Int32Scalar("axis", -1)
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
Model().Operation("L2_NORMALIZATION", i, axis).To(o)

# The quantized output of L2_NORMALIZATION is fixed at scale 1/128, zero point 128.
quant8 = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    o: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 128),
})

Example({
    i: [3.0, 4.0, -3.0, 4.0, 0.0, 2.0, 1.0, 0.0,
        6.0, -8.0, -1.0, 0.0, 0.0, -5.0, 8.0, 6.0],
    o: [0.6, 0.8, -0.6, 0.8, 0.0, 1.0, 1.0, 0.0,
        0.6, -0.8, -1.0, 0.0, 0.0, -1.0, 0.8, 0.6],
}).AddAllDimsAndAxis(i, o, axis).AddVariations("relaxed", "float16", quant8)
