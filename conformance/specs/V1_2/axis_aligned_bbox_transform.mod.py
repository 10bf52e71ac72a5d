# AXIS_ALIGNED_BBOX_TRANSFORM: float32, relaxed, float16 and the quantized form
# (rois, image sizes and output TENSOR_QUANT16_ASYMM at 0.125, deltas
# TENSOR_QUANT8_ASYMM at 0.125 with zero point 128). Covers two images (batch index
# per roi), 2 classes and 1 class, boxes crossing the image border on every side
# (clamped to [0, width] and [0, height]), a zero-width roi, a large dw (exp(10)
# times a width of 0), and image sizes given as a constant (and as an input).
# Golden values: conformance/specs/oracles/detection_oracle.py, cases bbox and
# bbox_one_class (computed in double; every quantized expectation is at least 0.02
# of a step away from a rounding edge).

# 4 rois in 2 images (16x20 and 32x32), 2 classes.
rois1 = Input("rois", "TENSOR_FLOAT32", "{4, 4}")
deltas1 = Input("deltas", "TENSOR_FLOAT32", "{4, 8}")
batches1 = Input("batches", "TENSOR_INT32", "{4}")
images1 = Input("image_info", "TENSOR_FLOAT32", "{2, 2}")
out1 = Output("out", "TENSOR_FLOAT32", "{4, 8}")
Model().Operation("AXIS_ALIGNED_BBOX_TRANSFORM", rois1, deltas1, batches1, images1).To(out1)
quant8 = DataTypeConverter().Identify({
    rois1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    deltas1: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    images1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    out1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    rois1: [2, 2, 10, 6,  0, 4, 8, 12,  20, 20, 28, 30,  5, 5, 5, 9],
    deltas1: [0, 0, 0, 0, 0.5, -0.25, 0.5, 0,
              -0.5, 0, 0, 0.5, 0, 0, -1, -1,
              0.25, 0.25, 0.25, 0.25, 1, 1, 0, 0,
              0.125, -0.125, 1.5, 0, 0, 0.5, 10, 0],
    batches1: [0, 1, 1, 0],
    images1: [16, 20, 32, 32],
    out1: [2, 2, 10, 6, 3.405115, 1, 16.59489, 5,
           0, 1.405115, 4, 14.59489, 2.528482, 6.528482, 5.471518, 9.471518,
           20.8639, 21.07987, 31.1361, 32, 28, 30, 32, 32,
           5, 4.5, 5, 8.5, 5, 7, 5, 11],
}).AddVariations("relaxed", "float16", quant8)

# One class, one image of 8x10 given as a constant; the second box crosses the
# top-left corner (clamped to 0).
rois2 = Input("rois", "TENSOR_FLOAT32", "{2, 4}")
deltas2 = Input("deltas", "TENSOR_FLOAT32", "{2, 4}")
batches2 = Input("batches", "TENSOR_INT32", "{2}")
images2 = Parameter("image_info", "TENSOR_FLOAT32", "{1, 2}", [8, 10])
out2 = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model("one_class").Operation("AXIS_ALIGNED_BBOX_TRANSFORM", rois2, deltas2, batches2, images2).To(out2)
quant8 = DataTypeConverter().Identify({
    rois2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    deltas2: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    images2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    out2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    rois2: [1, 1, 3, 5, 0, 0, 6, 6],
    deltas2: [0.25, 0.5, -0.5, 0.25, -1, -1, 1, 1],
    batches2: [0, 0],
    out2: [1.893469, 2.431949, 3.106531, 7.568051, 0, 0, 5.154845, 5.154845],
}).AddInput(images2).AddVariations("relaxed", "float16", quant8)
