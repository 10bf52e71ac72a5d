# BOX_WITH_NMS_LIMIT with the soft kernels, linear (score * (1 - IoU) from the IoU
# threshold on) and gaussian (score * exp(-IoU^2 / sigma)): float32, relaxed,
# float16 and quant8 (scores TENSOR_QUANT8_ASYMM at 1/128 with zero point 16, boxes
# TENSOR_QUANT16_ASYMM at 0.125). Two images (batch indices 0, 0, 0, 0, 1, 1), two
# classes besides the background; rescaled scores change the selection order,
# scores rescaled below the NMS score threshold are dropped, and the output scores
# are the rescaled ones; max_detections -1 and 2.
# Golden values: conformance/specs/oracles/detection_oracle.py, cases nms_linear,
# nms_linear_max2, nms_gaussian, nms_gaussian_max2.

scores_data = [0.125, 0.875, 0.25,
               0.125, 0.75, 0.5,
               0.125, 0.625, 0.125,
               0.125, 0.25, 0.0625,
               0.125, 0.5, 0.75,
               0.125, 0.375, 0.625]
rois_data = [0, 0, 1, 1, 0, 0, 4, 4, 10, 10, 12, 12,
             0, 0, 1, 1, 0, 0, 4, 2, 11, 10, 13, 12,
             0, 0, 1, 1, 2, 0, 6, 4, 0, 0, 1, 1,
             0, 0, 1, 1, 0, 0, 4, 4, 0, 0, 1, 1,
             0, 0, 1, 1, 0, 0, 8, 8, 1, 1, 5, 5,
             0, 0, 1, 1, 4, 0, 8, 8, 2, 2, 6, 6]
batches_data = [0, 0, 0, 0, 1, 1]


def nms_example(name, params, scores, boxes, classes, batches):
    kept = len(scores)
    i_scores = Input("scores", "TENSOR_FLOAT32", "{6, 3}")
    i_rois = Input("rois", "TENSOR_FLOAT32", "{6, 12}")
    i_batches = Input("batches", "TENSOR_INT32", "{6}")
    o_scores = Output("out_scores", "TENSOR_FLOAT32", "{%d}" % kept)
    o_rois = Output("out_rois", "TENSOR_FLOAT32", "{%d, 4}" % kept)
    o_classes = Output("out_classes", "TENSOR_INT32", "{%d}" % kept)
    o_batches = Output("out_batches", "TENSOR_INT32", "{%d}" % kept)
    Model(name).Operation("BOX_WITH_NMS_LIMIT", i_scores, i_rois, i_batches, *params).To(
        o_scores, o_rois, o_classes, o_batches)
    quant8 = DataTypeConverter().Identify({
        i_scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
        i_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        o_scores: ("TENSOR_QUANT8_ASYMM", 1.0 / 128, 16),
        o_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    })
    Example({
        i_scores: scores_data, i_rois: rois_data, i_batches: batches_data,
        o_scores: scores, o_rois: boxes, o_classes: classes, o_batches: batches,
    }).AddVariations("relaxed", "float16", quant8)


# Linear: score threshold 0.2, IoU threshold 0.3, NMS score threshold 0.2.
# Image 0, class 1: 0.875 [0,0,4,4] rescales [0,0,4,2] (IoU 0.5) to 0.375,
# [2,0,6,4] (IoU 1/3) to 0.625 * 2/3 and the identical 0.25 box to 0 (dropped);
# [2,0,6,4] then leaves [0,0,4,2] alone (IoU 0.2). Class 2: 0.5 [11,10,13,12]
# rescales 0.25 [10,10,12,12] (IoU 1/3) to 0.1667 (dropped).
# Image 1, class 1: 0.5 [0,0,8,8] rescales 0.375 [4,0,8,8] (IoU 0.5) to 0.1875
# (dropped); class 2: 0.75 [1,1,5,5] rescales 0.625 [2,2,6,6] (IoU 9/23).
nms_example("linear", (0.2, -1, 1, 0.3, 1.0, 0.2),
            [0.875, 0.4166667, 0.375, 0.5, 0.5, 0.75, 0.3804348],
            [0, 0, 4, 4, 2, 0, 6, 4, 0, 0, 4, 2, 11, 10, 13, 12,
             0, 0, 8, 8, 1, 1, 5, 5, 2, 2, 6, 6],
            [1, 1, 1, 2, 1, 2, 2], [0, 0, 0, 0, 1, 1, 1])

# The same, at most 2 boxes per class and 2 per image.
nms_example("linear_max_detections_2", (0.2, 2, 1, 0.3, 1.0, 0.2),
            [0.875, 0.5, 0.5, 0.75],
            [0, 0, 4, 4, 11, 10, 13, 12, 0, 0, 8, 8, 1, 1, 5, 5],
            [1, 2, 1, 2], [0, 0, 1, 1])

# Gaussian, sigma 0.5 (the IoU threshold 0.5 is unused), NMS score threshold 0.15:
# image 0, class 1: 0.875 rescales [0,0,4,2] by exp(-0.5), [2,0,6,4] by
# exp(-2/9) = 0.5004609 and the identical box by exp(-2) (0.034, dropped); then
# 0.5004609 [2,0,6,4] rescales [0,0,4,2] by exp(-0.08) to 0.4199238. Class 2:
# 0.25 * exp(-2/9) = 0.2001844 stays. Image 1: 0.375 * exp(-0.5) = 0.227449 and
# 0.625 * exp(-(9/23)^2 / 0.5) = 0.460132.
nms_example("gaussian", (0.2, -1, 2, 0.5, 0.5, 0.15),
            [0.875, 0.5004609, 0.4199238, 0.5, 0.2001844, 0.5, 0.227449, 0.75, 0.460132],
            [0, 0, 4, 4, 2, 0, 6, 4, 0, 0, 4, 2, 11, 10, 13, 12, 10, 10, 12, 12,
             0, 0, 8, 8, 4, 0, 8, 8, 1, 1, 5, 5, 2, 2, 6, 6],
            [1, 1, 1, 2, 2, 1, 1, 2, 2], [0, 0, 0, 0, 0, 1, 1, 1, 1])

nms_example("gaussian_max_detections_2", (0.2, 2, 2, 0.5, 0.5, 0.15),
            [0.875, 0.5004609, 0.5, 0.75],
            [0, 0, 4, 4, 2, 0, 6, 4, 0, 0, 8, 8, 1, 1, 5, 5],
            [1, 1, 1, 2], [0, 0, 1, 1])
