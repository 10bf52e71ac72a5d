# AXIS_ALIGNED_BBOX_TRANSFORM on 0 rois (HAL 1.2): BOX_WITH_NMS_LIMIT keeps no box
# (the only class-1 score, 0.25, is under the 0.5 threshold), so the rois and batch
# indices are [0, 4] and [0]; the deltas, [0, 8] (2 classes), come from ROI_ALIGN of
# those 0 rois through FULLY_CONNECTED (batch 0). The output is [0, 8].
# float32, relaxed, float16 and quant8 (rois, image sizes and output
# TENSOR_QUANT16_ASYMM at 0.125, deltas TENSOR_QUANT8_ASYMM).
# Expected values are empty by definition (no oracle needed).
scores = Input("scores", "TENSOR_FLOAT32", "{1, 2}")
rois = Input("rois", "TENSOR_FLOAT32", "{1, 8}")
features = Input("features", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
images = Input("image_info", "TENSOR_FLOAT32", "{1, 2}")
kept_scores = Output("kept_scores", "TENSOR_FLOAT32", "{0}")
kept_rois = Internal("kept_rois", "TENSOR_FLOAT32", "{0, 4}")
kept_classes = Output("kept_classes", "TENSOR_INT32", "{0}")
kept_batches = Internal("kept_batches", "TENSOR_INT32", "{0}")
pooled = Internal("pooled", "TENSOR_FLOAT32", "{0, 1, 1, 1}")
weights = Parameter("weights", "TENSOR_FLOAT32", "{8, 1}", [0.5] * 8)
bias = Parameter("bias", "TENSOR_FLOAT32", "{8}", [0.0] * 8)
deltas = Internal("deltas", "TENSOR_FLOAT32", "{0, 8}")
out = Output("out", "TENSOR_FLOAT32", "{0, 8}")
Model().Operation(
    "BOX_WITH_NMS_LIMIT", scores, rois, [0], 0.5, -1, 0, 0.5, 1.0, 0.5).To(
    kept_scores, kept_rois, kept_classes, kept_batches).Operation(
    "ROI_ALIGN", features, kept_rois, kept_batches, 1, 1, 1.0, 1.0, 2, 2, False).To(
    pooled).Operation(
    "FULLY_CONNECTED", pooled, weights, bias, 0).To(deltas).Operation(
    "AXIS_ALIGNED_BBOX_TRANSFORM", kept_rois, deltas, kept_batches, images).To(out)
quant8 = DataTypeConverter().Identify({
    scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 0),
    rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    kept_scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 0),
    kept_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    features: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    pooled: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    weights: ("TENSOR_QUANT8_ASYMM", 0.5, 0),
    bias: ("TENSOR_INT32", 0.25, 0),
    deltas: ("TENSOR_QUANT8_ASYMM", 0.125, 128),
    images: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    out: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    scores: [0.75, 0.25],
    rois: [0, 0, 2, 2, 1, 1, 3, 3],
    features: [1, 2, 3, 4],
    images: [4, 4],
    kept_scores: [],
    kept_classes: [],
    out: [],
}).AddVariations("relaxed", "float16", quant8)
