# ROI_ALIGN: NHWC and NCHW, float32, relaxed, float16 and quant8 (feature map
# TENSOR_QUANT8_ASYMM, rois TENSOR_QUANT16_ASYMM at 0.125, an output quantization of
# its own). Covers a roi of the whole image, rois touching the right and bottom edge
# (samples past the last cell take the last cell), a roi smaller than a feature cell
# (widened to 1), ratios of 2 and of 1 with 2 (height, width), given and adaptive
# (0: ceil(bin size)) sampling, two images with a batch index per roi, and rois and
# batch indices as constants (and as inputs).
# Golden values: conformance/specs/oracles/detection_oracle.py, cases align, align_batches
# and align_as_input. The oracle also runs the quant8 path of docs/operations.md,
# ROI_ALIGN (81) (weights round(w * 255), integer sums) and checks it gives exactly the
# rounded real results used here, none of them near a tie (x.5) at the output scale:
# output scales 0.05, 0.25 and 0.125 (at 0.125 and 0.25 the first and last cases had
# goldens on ties, which the generator rounds half to even).
layout = BoolScalar("layout", False)  # NHWC

# [1, 4, 4, 1] features, image 8x8 (ratios 2), 2x2 bins of 2x2 samples.
i1 = Input("features", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
r1 = Input("rois", "TENSOR_FLOAT32", "{4, 4}")
b1 = Input("batches", "TENSOR_INT32", "{4}")
o1 = Output("out", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model().Operation("ROI_ALIGN", i1, r1, b1, 2, 2, 2.0, 2.0, 2, 2, layout).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.25, 8),
    r1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.05, 3),
})
Example({
    i1: [0, 1, 2, 3,
         4, 6, 8, 10,
         1, 3, 9, 5,
         7, 2, 0, 4],
    r1: [0, 0, 8, 8, 2, 2, 6, 6, 4, 3, 8, 8, 1, 1, 1.5, 1.25],
    b1: [0, 0, 0, 0],
    o1: [4.25, 6.9375, 3.0625, 3.75,
         6.5, 8, 3.5, 4.5,
         6.09375, 5.25, 2, 4,
         4.3125, 5.1875, 4.75, 6],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8)

# Two images of [3, 4, 2], rois in an image of 3x8 (height ratio 1, width ratio 2),
# 2x3 bins, adaptive sampling: 2x2 samples for the first roi, 1 for the others.
i2 = Input("features", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
r2 = Input("rois", "TENSOR_FLOAT32", "{3, 4}")
b2 = Input("batches", "TENSOR_INT32", "{3}")
o2 = Output("out", "TENSOR_FLOAT32", "{3, 2, 3, 2}")
Model("batches").Operation("ROI_ALIGN", i2, r2, b2, 2, 3, 1.0, 2.0, 0, 0, layout).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 20),
    r2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 40),
})
Example({
    i2: [1.0, -2.0, 3.0, 0.5, -1.5, 2.0, 4.0, -3.0,
         0.0, 1.5, -0.5, 2.5, 3.5, -1.0, 2.0, 0.0,
         -2.5, 1.0, 0.5, 3.0, -1.0, -0.5, 1.5, 4.5,
         2.0, 2.0, -3.5, 1.0, 0.0, -2.0, 3.0, 1.5,
         -1.0, 4.0, 2.5, -0.5, 1.0, 0.5, -4.0, 2.0,
         3.0, -1.5, 0.0, 2.5, -2.0, 1.0, 0.5, -0.5],
    r2: [0, 0, 8, 3, 2, 0.5, 6, 2.5, 1, 1, 3, 3],
    b2: [0, 1, 1],
    o2: [0.4895833, 1.395833, 1.645833, 0.1875, 2.59375, -0.65625,
         -0.4895833, 2.322917, -0.1510417, 0.84375, 1.53125, 4.21875,
         2, -0.1666667, 1, 0.5, -2.333333, 1.5,
         -0.6666667, 2, -2, 1, -0.3333333, 0,
         1.166667, 1.083333, 1.25, 1, 0.6666667, 0.9166667,
         1, 1.166667, 0, 2.5, -0.6666667, 2],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8)

# Rois and batch indices as constants; 1x2 bins of one sample on a 2x2 map.
i3 = Input("features", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
r3 = Parameter("rois", "TENSOR_FLOAT32", "{2, 4}", [0, 0, 1, 1, 0.5, 0, 2, 1])
b3 = Parameter("batches", "TENSOR_INT32", "{2}", [0, 0])
o3 = Output("out", "TENSOR_FLOAT32", "{2, 1, 2, 1}")
Model("constant_rois").Operation("ROI_ALIGN", i3, r3, b3, 1, 2, 1.0, 1.0, 1, 1, layout).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    r3: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    o3: ("TENSOR_QUANT8_ASYMM", 0.125, 0),
})
Example({
    i3: [1, 2, 3, 4],
    o3: [2.25, 2.75, 2.875, 3],
}).AddNchw(i3, o3, layout).AddInput(r3, b3).AddVariations("relaxed", "float16", quant8)
