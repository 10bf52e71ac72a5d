# BOX_WITH_NMS_LIMIT with the hard kernel: float32, relaxed, float16 and quant8
# (scores TENSOR_QUANT8_ASYMM at 1/128 with zero point 16, boxes
# TENSOR_QUANT16_ASYMM at 0.125). Covers the background class (0) being skipped
# even where it scores highest, the strict score threshold (a score equal to it is
# not a candidate), an IoU exactly at the IoU threshold (suppressed), equal scores
# (identical boxes of one class, of which one is kept; equal scores in different
# classes, ordered by class), max_detections -1, 4 and 1 (per class and over the
# classes), two images with their own batch index, and an NMS score threshold of
# 0, under which suppressed boxes keep a score of 0 and are still selected.
# Golden values: conformance/specs/oracles/detection_oracle.py, cases nms_hard_max-1,
# nms_hard_max4, nms_hard_max1, nms_batches, nms_zero_nms_threshold.

scores_data = [0.5, 0.875, 0.625,
               0.25, 0.75, 0.625,
               0.125, 0.25, 0.75,
               0.875, 0.5, 0.375,
               0.0, 0.75, 0.25,
               0.5, 0.125, 0.5]
rois_data = [0, 0, 1, 1, 0, 0, 4, 4, 2, 2, 6, 6,
             0, 0, 1, 1, 0, 0, 4, 2, 2, 2, 6, 6,
             0, 0, 1, 1, 10, 10, 14, 14, 3, 3, 7, 7,
             0, 0, 1, 1, 1, 0, 5, 4, 20, 20, 21, 24,
             0, 0, 1, 1, 6, 0, 10, 4, 0, 0, 1, 1,
             0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 6, 7]


def nms_model(name, rois_count, classes, params, kept):
    """BOX_WITH_NMS_LIMIT(scores, rois, batches, *params) keeping ``kept`` boxes."""
    scores = Input("scores", "TENSOR_FLOAT32", "{%d, %d}" % (rois_count, classes))
    rois = Input("rois", "TENSOR_FLOAT32", "{%d, %d}" % (rois_count, 4 * classes))
    batches = Input("batches", "TENSOR_INT32", "{%d}" % rois_count)
    out_scores = Output("out_scores", "TENSOR_FLOAT32", "{%d}" % kept)
    out_rois = Output("out_rois", "TENSOR_FLOAT32", "{%d, 4}" % kept)
    out_classes = Output("out_classes", "TENSOR_INT32", "{%d}" % kept)
    out_batches = Output("out_batches", "TENSOR_INT32", "{%d}" % kept)
    Model(name).Operation("BOX_WITH_NMS_LIMIT", scores, rois, batches, *params).To(
        out_scores, out_rois, out_classes, out_batches)
    quant8 = DataTypeConverter().Identify({
        scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
        rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        out_scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
        out_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    })
    return (scores, rois, batches, out_scores, out_rois, out_classes, out_batches), quant8


def example(operands, quant8, inputs, outputs):
    Example(dict(zip(operands, inputs + outputs))).AddVariations("relaxed", "float16", quant8)


# Score threshold 0.25, unlimited detections, hard NMS at IoU 0.5 (sigma unused),
# NMS score threshold 0.25. Class 1: 0.875 [0,0,4,4] suppresses [0,0,4,2] (IoU
# 8/16 = 0.5) and [1,0,5,4] (IoU 12/20); [6,0,10,4] (0.75) stays; 0.25 and 0.125 are
# not candidates. Class 2: 0.75 [3,3,7,7] suppresses [2,3,6,7] (IoU 12/20); the two
# identical [2,2,6,6] at 0.625 keep one (IoU 9/23 with [3,3,7,7]); [20,20,21,24] 0.375.
operands, quant8 = nms_model("hard", 6, 3, (0.25, -1, 0, 0.5, 1.0, 0.25), 5)
example(operands, quant8, [scores_data, rois_data, [0] * 6], [
    [0.875, 0.75, 0.75, 0.625, 0.375],
    [0, 0, 4, 4, 6, 0, 10, 4, 3, 3, 7, 7, 2, 2, 6, 6, 20, 20, 21, 24],
    [1, 1, 2, 2, 2], [0] * 5])

# The same with max_detections 4: class 2 stops after 2 boxes, then the top 4 of
# 0.875, 0.75, 0.75, 0.625.
operands, quant8 = nms_model("max_detections_4", 6, 3, (0.25, 4, 0, 0.5, 1.0, 0.25), 4)
example(operands, quant8, [scores_data, rois_data, [0] * 6], [
    [0.875, 0.75, 0.75, 0.625],
    [0, 0, 4, 4, 6, 0, 10, 4, 3, 3, 7, 7, 2, 2, 6, 6],
    [1, 1, 2, 2], [0] * 4])

# max_detections 1: the best of each class (0.875, 0.75), then the best of those.
operands, quant8 = nms_model("max_detections_1", 6, 3, (0.25, 1, 0, 0.5, 1.0, 0.25), 1)
example(operands, quant8, [scores_data, rois_data, [0] * 6], [
    [0.875], [0, 0, 4, 4], [1], [0]])

# Two images (batch indices 0 and 2), score threshold 0.3, IoU threshold 0.4.
# Image 0: 0.75 [1,1,3,3] keeps 0.5 [0,0,2,2] (IoU 1/7), which suppresses the
# identical 0.375 box. Image 2: 0.625 [0,0,4,4] and 0.5 [2,0,6,4] (IoU 8/24) both stay.
operands, quant8 = nms_model("batches", 5, 2, (0.3, -1, 0, 0.4, 1.0, 0.3), 4)
example(operands, quant8, [
    [0.25, 0.5, 0.125, 0.75, 0.5, 0.375, 0.0, 0.625, 0.0, 0.5],
    [0, 0, 2, 2, 0, 0, 2, 2,
     0, 0, 2, 2, 1, 1, 3, 3,
     0, 0, 2, 2, 0, 0, 2, 2,
     0, 0, 2, 2, 0, 0, 4, 4,
     0, 0, 2, 2, 2, 0, 6, 4],
    [0, 0, 0, 2, 2]], [
    [0.75, 0.5, 0.625, 0.5],
    [1, 1, 3, 3, 0, 0, 2, 2, 0, 0, 4, 4, 2, 0, 6, 4],
    [1, 1, 1, 1], [0, 0, 2, 2]])

# NMS score threshold 0 (and score threshold 0): 0.75 [0,0,4,4] suppresses the
# identical 0.5 box to a score of 0, which is not below 0, so it stays a candidate;
# 0.25 [1,1,3,3] (IoU 4/16) comes next, then the suppressed box with its score 0.
operands, quant8 = nms_model("zero_nms_score_threshold", 3, 2, (0.0, -1, 0, 0.5, 1.0, 0.0), 3)
example(operands, quant8, [
    [0.0, 0.75, 0.0, 0.5, 0.0, 0.25],
    [0, 0, 1, 1, 0, 0, 4, 4, 0, 0, 1, 1, 0, 0, 4, 4, 0, 0, 1, 1, 1, 1, 3, 3],
    [0, 0, 0]], [
    [0.75, 0.25, 0.0],
    [0, 0, 4, 4, 1, 1, 3, 3, 0, 0, 4, 4],
    [1, 1, 1], [0, 0, 0]])
