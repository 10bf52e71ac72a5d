# BOX_WITH_NMS_LIMIT and zero-sized tensors (HAL 1.2): keeping no box gives four
# zero-sized outputs, and 0 rois in give 0 boxes out. float32, relaxed, float16 and
# (first model) quant8. Expected values are empty by definition (no oracle needed).

# max_detections 0: nothing is selected although every score passes the threshold.
scores1 = Input("scores", "TENSOR_FLOAT32", "{2, 2}")
rois1 = Input("rois", "TENSOR_FLOAT32", "{2, 8}")
batches1 = Input("batches", "TENSOR_INT32", "{2}")
out_scores1 = Output("out_scores", "TENSOR_FLOAT32", "{0}")
out_rois1 = Output("out_rois", "TENSOR_FLOAT32", "{0, 4}")
out_classes1 = Output("out_classes", "TENSOR_INT32", "{0}")
out_batches1 = Output("out_batches", "TENSOR_INT32", "{0}")
Model("max_detections_0").Operation(
    "BOX_WITH_NMS_LIMIT", scores1, rois1, batches1, 0.1, 0, 0, 0.5, 1.0, 0.1).To(
    out_scores1, out_rois1, out_classes1, out_batches1)
quant8 = DataTypeConverter().Identify({
    scores1: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
    rois1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    out_scores1: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
    out_rois1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    scores1: [0.25, 0.75, 0.5, 0.5],
    rois1: [0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 3, 3, 1, 1, 4, 4],
    batches1: [0, 0],
    out_scores1: [], out_rois1: [], out_classes1: [], out_batches1: [],
}).AddVariations("relaxed", "float16", quant8)

# 0 rois in: a first BOX_WITH_NMS_LIMIT keeps nothing (0.25 is under the 0.5
# threshold); ROI_ALIGN pools its 0 rois into [0, 1, 1, 2], and FULLY_CONNECTED
# (batch 0) turns that into [0, 2] scores and [0, 8] boxes for a second
# BOX_WITH_NMS_LIMIT, whose outputs are zero-sized too.
scores2 = Input("scores", "TENSOR_FLOAT32", "{1, 2}")
rois2 = Input("rois", "TENSOR_FLOAT32", "{1, 8}")
features2 = Input("features", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
kept_scores2 = Internal("kept_scores", "TENSOR_FLOAT32", "{0}")
kept_rois2 = Internal("kept_rois", "TENSOR_FLOAT32", "{0, 4}")
kept_classes2 = Internal("kept_classes", "TENSOR_INT32", "{0}")
kept_batches2 = Internal("kept_batches", "TENSOR_INT32", "{0}")
pooled2 = Internal("pooled", "TENSOR_FLOAT32", "{0, 1, 1, 2}")
no_scores2 = Internal("no_scores", "TENSOR_FLOAT32", "{0, 2}")
no_rois2 = Internal("no_rois", "TENSOR_FLOAT32", "{0, 8}")
out_scores2 = Output("out_scores", "TENSOR_FLOAT32", "{0}")
out_rois2 = Output("out_rois", "TENSOR_FLOAT32", "{0, 4}")
out_classes2 = Output("out_classes", "TENSOR_INT32", "{0}")
out_batches2 = Output("out_batches", "TENSOR_INT32", "{0}")
w_scores2 = Parameter("w_scores", "TENSOR_FLOAT32", "{2, 2}", [1.0, 0.0, 0.0, 1.0])
b_scores2 = Parameter("b_scores", "TENSOR_FLOAT32", "{2}", [0.0, 0.0])
w_rois2 = Parameter("w_rois", "TENSOR_FLOAT32", "{8, 2}", [1.0] * 16)
b_rois2 = Parameter("b_rois", "TENSOR_FLOAT32", "{8}", [0.0] * 8)
Model("no_rois").Operation(
    "BOX_WITH_NMS_LIMIT", scores2, rois2, [0], 0.5, -1, 0, 0.5, 1.0, 0.5).To(
    kept_scores2, kept_rois2, kept_classes2, kept_batches2).Operation(
    "ROI_ALIGN", features2, kept_rois2, kept_batches2, 1, 1, 1.0, 1.0, 2, 2, False).To(
    pooled2).Operation(
    "FULLY_CONNECTED", pooled2, w_scores2, b_scores2, 0).To(no_scores2).Operation(
    "FULLY_CONNECTED", pooled2, w_rois2, b_rois2, 0).To(no_rois2).Operation(
    "BOX_WITH_NMS_LIMIT", no_scores2, no_rois2, kept_batches2, 0.1, -1, 0, 0.5, 1.0, 0.1).To(
    out_scores2, out_rois2, out_classes2, out_batches2)
Example({
    scores2: [0.75, 0.25],
    rois2: [0, 0, 2, 2, 0, 0, 2, 2],
    features2: [1, 2, 3, 4, 5, 6, 7, 8],
    out_scores2: [], out_rois2: [], out_classes2: [], out_batches2: [],
}).AddVariations("relaxed", "float16")
