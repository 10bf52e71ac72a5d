# ROI_ALIGN on 0 rois (HAL 1.2), NHWC and NCHW: BOX_WITH_NMS_LIMIT with
# max_detections 0 keeps no box, and ROI_ALIGN pools its 0 rois into a model
# output of [0, 2, 2, 3] ([0, 3, 2, 2] in NCHW) without computing anything.
# float32, relaxed, float16 and quant8. (ROI_POOLING refuses 0 rois in Android 10:
# see tests/reference/test_ops_detection.py.) Expected values are empty by definition.
layout = BoolScalar("layout", False)  # NHWC
scores = Input("scores", "TENSOR_FLOAT32", "{2, 2}")
rois = Input("rois", "TENSOR_FLOAT32", "{2, 8}")
batches = Input("batches", "TENSOR_INT32", "{2}")
features = Input("features", "TENSOR_FLOAT32", "{2, 2, 2, 3}")
kept_scores = Output("kept_scores", "TENSOR_FLOAT32", "{0}")
kept_rois = Internal("kept_rois", "TENSOR_FLOAT32", "{0, 4}")
kept_classes = Output("kept_classes", "TENSOR_INT32", "{0}")
kept_batches = Internal("kept_batches", "TENSOR_INT32", "{0}")
out = Output("out", "TENSOR_FLOAT32", "{0, 2, 2, 3}")
Model().Operation(
    "BOX_WITH_NMS_LIMIT", scores, rois, batches, 0.1, 0, 1, 0.5, 1.0, 0.1).To(
    kept_scores, kept_rois, kept_classes, kept_batches).Operation(
    "ROI_ALIGN", features, kept_rois, kept_batches, 2, 2, 0.5, 0.5, 0, 0, layout).To(out)
quant8 = DataTypeConverter().Identify({
    scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
    rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    kept_scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
    kept_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    features: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    out: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    scores: [0.25, 0.75, 0.5, 0.5],
    rois: [0, 0, 1, 1, 0, 0, 1, 1, 0.5, 0.5, 1, 1, 0.5, 0.5, 1, 1],
    batches: [0, 1],
    features: [float(v) for v in range(24)],
    kept_scores: [],
    kept_classes: [],
    out: [],
}).AddNchw(features, out, layout).AddVariations("relaxed", "float16", quant8)
