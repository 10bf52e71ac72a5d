# BOX_WITH_NMS_LIMIT with TENSOR_QUANT8_ASYMM_SIGNED scores (HAL 1.3): the output scores
# keep the input scores' quantization; boxes stay TENSOR_QUANT16_ASYMM at 0.125 with zero
# point 0 (Android 11, not the HAL text's -128). Scores at (1/128, -128) (a score of 0 is
# the byte -128) and at (1/64, 60). Covers the background class 0 (skipped), scores below
# the score threshold, hard NMS (suppressed boxes dropped) in one image, and linear soft
# NMS (scores decayed by 1 - IoU) with at most 3 detections per image over two images,
# and gaussian soft NMS with at most 4.
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases nms, nms_linear and
# nms_gaussian (no score or IoU within 0.02 of a threshold, no near-tie between boxes;
# every output score but the gaussian rescored one is a multiple of 1/16, exact at both
# scales).


def nms_model(name, params, kept):
    scores = Input("scores", "TENSOR_FLOAT32", "{5, 3}")
    rois = Input("rois", "TENSOR_FLOAT32", "{5, 12}")
    batches = Input("batches", "TENSOR_INT32", "{5}")
    out_scores = Output("out_scores", "TENSOR_FLOAT32", "{%d}" % kept)
    out_rois = Output("out_rois", "TENSOR_FLOAT32", "{%d, 4}" % kept)
    out_classes = Output("out_classes", "TENSOR_INT32", "{%d}" % kept)
    out_batches = Output("out_batches", "TENSOR_INT32", "{%d}" % kept)
    Model(name).Operation("BOX_WITH_NMS_LIMIT", scores, rois, batches, *params).To(
        out_scores, out_rois, out_classes, out_batches)

    def signed(variation, scale, zero_point):
        return DataTypeConverter(name=variation).Identify({
            scores: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
            out_scores: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            out_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        })

    variations = (signed("signed_zp_min", 1.0 / 128, -128), signed("signed_zp_pos", 1.0 / 64, 60))
    return (scores, rois, batches, out_scores, out_rois, out_classes, out_batches), variations


# 1. Hard NMS: score threshold 0.2, unlimited detections, IoU threshold 0.45, NMS score
#    threshold 0.2, one image.
ops, variations = nms_model("hard", (0.2, -1, 0, 0.45, 1.0, 0.2), 7)
Example(dict(zip(ops, [
    [
        0.25, 0.9375, 0.125, 0.5, 0.625, 0.6875, 0.0, 0.3125, 0.75, 0.75, 0.8125, 0.375,
        0.125, 0.0625, 0.5
    ],
    [
        0, 0, 1, 1, 0, 0, 4, 4, 8, 8, 12, 12, 0, 0, 1, 1, 1, 1, 5, 5, 9, 8, 13, 12, 0,
        0, 1, 1, 10, 0, 14, 4, 2, 2, 6, 6, 0, 0, 1, 1, 0, 1, 4, 5, 8, 9, 12, 13, 0, 0,
        1, 1, 0, 0, 2, 2, 20, 20, 24, 22
    ],
    [0, 0, 0, 0, 0],
    [0.9375, 0.625, 0.3125, 0.75, 0.6875, 0.5, 0.375],
    [
        0, 0, 4, 4, 1, 1, 5, 5, 10, 0, 14, 4, 2, 2, 6, 6, 9, 8, 13, 12, 20, 20, 24, 22,
        8, 9, 12, 13
    ],
    [1, 1, 1, 2, 2, 2, 2],
    [0, 0, 0, 0, 0, 0, 0],
]))).AddVariations(*variations, includeDefault=False)

# 2. Linear soft NMS at IoU 0.3, at most 3 detections per image, images 0 (rois 0-2) and
#    3 (rois 3-4).
ops, variations = nms_model("linear", (0.2, 3, 1, 0.3, 1.0, 0.2), 6)
Example(dict(zip(ops, [
    [
        0.25, 0.9375, 0.125, 0.5, 0.625, 0.6875, 0.0, 0.3125, 0.75, 0.75, 0.8125, 0.375,
        0.125, 0.0625, 0.5
    ],
    [
        0, 0, 1, 1, 0, 0, 4, 4, 8, 8, 12, 12, 0, 0, 1, 1, 1, 1, 5, 5, 9, 8, 13, 12, 0,
        0, 1, 1, 10, 0, 14, 4, 2, 2, 6, 6, 0, 0, 1, 1, 0, 1, 4, 5, 8, 9, 12, 13, 0, 0,
        1, 1, 0, 0, 2, 2, 20, 20, 24, 22
    ],
    [0, 0, 0, 3, 3],
    [0.9375, 0.75, 0.6875, 0.8125, 0.5, 0.375],
    [0, 0, 4, 4, 2, 2, 6, 6, 9, 8, 13, 12, 0, 1, 4, 5, 20, 20, 24, 22, 8, 9, 12, 13],
    [1, 2, 2, 1, 2, 2],
    [0, 0, 0, 3, 3, 3],
]))).AddVariations(*variations, includeDefault=False)

# 3. Gaussian soft NMS (sigma 0.75; scores times exp(-IoU^2 / sigma)), at most 4
#    detections per image, images 0 (rois 0-1) and 1 (rois 2-4). The rescored score
#    0.5095831 lies 0.27 and 0.11 of a step from a rounding tie at 1/128 and 1/64.
ops, variations = nms_model("gaussian", (0.2, 4, 2, 0.5, 0.75, 0.2), 7)
Example(dict(zip(ops, [
    [
        0.25, 0.9375, 0.125, 0.5, 0.625, 0.6875, 0.0, 0.3125, 0.75, 0.75, 0.8125, 0.375,
        0.125, 0.0625, 0.5
    ],
    [
        0, 0, 1, 1, 0, 0, 4, 4, 8, 8, 12, 12, 0, 0, 1, 1, 1, 1, 5, 5, 9, 8, 13, 12, 0,
        0, 1, 1, 10, 0, 14, 4, 2, 2, 6, 6, 0, 0, 1, 1, 0, 1, 4, 5, 8, 9, 12, 13, 0, 0,
        1, 1, 0, 0, 2, 2, 20, 20, 24, 22
    ],
    [0, 0, 1, 1, 1],
    [0.9375, 0.5095831, 0.6875, 0.8125, 0.75, 0.5, 0.375],
    [
        0, 0, 4, 4, 1, 1, 5, 5, 9, 8, 13, 12, 0, 1, 4, 5, 2, 2, 6, 6, 20, 20, 24, 22, 8,
        9, 12, 13
    ],
    [1, 1, 2, 1, 2, 2, 2],
    [0, 0, 0, 1, 1, 1, 1],
]))).AddVariations(*variations, includeDefault=False)
