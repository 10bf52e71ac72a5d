# GENERATE_PROPOSALS (HAL 1.2): anchors shifted over the feature map by the strides, moved
# by the deltas (dx, dy, dw, dh), clipped to the image, optionally cut to the best
# pre_nms_top_n scores, filtered (both sides > min_size, centre inside the image), then
# greedy hard NMS (IoU >= threshold suppresses) up to post_nms_top_n per image.
# Covers: two images of different sizes (8x8 and 6x10) with boxes clipped at every border,
# the pre-NMS cut, the post-NMS limit, equal scores (the first one in enumeration order
# wins), no proposal at all (zero-sized outputs: every box filtered, and post_nms_top_n 0,
# where the Android 10 reference returns nothing though the HAL text calls 0 unlimited),
# NHWC and NCHW, relaxed, float16 (FLOAT16 scalars) and quant8 (scores and deltas
# TENSOR_QUANT8_ASYMM, anchors TENSOR_QUANT16_SYMM 0.125, image info and output boxes
# TENSOR_QUANT16_ASYMM 0.125/0, output scores with the input's quantization).
# Golden values: conformance/specs/oracles/proposals_oracle.py, cases named below.
# Deltas are multiples of 0.05 (exact steps of the quant8 scale), scores of 0.01,
# coordinates of 0.125; no IoU lies within 0.01 of a threshold.
layout = BoolScalar("layout", False)  # NHWC

anchors2 = [0.0, 0.0, 4.0, 4.0, -2.0, -1.0, 6.0, 5.0]
scores2 = [0.8, 0.3, 0.5, 0.9, 0.2, 0.6, 0.7, 0.4,
           0.1, 0.65, 0.35, 0.85, 0.55, 0.25, 0.75, 0.45]
deltas2 = [0.1, 0.0, 0.0, 0.2, -0.2, 0.1, 0.3, 0.0,
           0.0, 0.25, -0.1, 0.0, 0.5, 0.0, 0.2, 0.1,
           0.0, -0.1, 0.0, 0.0, 0.1, 0.2, -0.2, 0.3,
           -0.3, 0.0, 0.1, -0.1, 0.2, 0.3, 0.4, 0.2,
           0.0, 0.0, 0.0, 0.0, 0.3, -0.2, 0.1, 0.0,
           -0.1, 0.1, 0.2, 0.0, 0.0, 0.0, -0.3, 0.1,
           0.2, 0.0, 0.0, -0.2, -0.4, 0.1, 0.0, 0.2,
           0.0, 0.2, 0.1, 0.1, 0.1, -0.1, 0.2, -0.1]
info2 = [8.0, 8.0, 6.0, 10.0]  # (height, width) per image


def proposals(name, batches, height, width, count, params, rois_out):
    """A GENERATE_PROPOSALS model and its quant8 converter; params are the seven scalars
    after the image info (strides, pre/post NMS limits, IoU threshold, min size)."""
    s = Input("scores", "TENSOR_FLOAT32", "{%d, %d, %d, %d}" % (batches, height, width, count))
    d = Input("deltas", "TENSOR_FLOAT32", "{%d, %d, %d, %d}" % (batches, height, width, 4 * count))
    a = Input("anchors", "TENSOR_FLOAT32", "{%d, 4}" % count)
    i = Input("image_info", "TENSOR_FLOAT32", "{%d, 2}" % batches)
    os = Output("scores_out", "TENSOR_FLOAT32", "{%d}" % rois_out)
    orois = Output("rois_out", "TENSOR_FLOAT32", "{%d, 4}" % rois_out)
    ob = Output("batches_out", "TENSOR_INT32", "{%d}" % rois_out)
    Model(name).Operation("GENERATE_PROPOSALS", s, d, a, i, *params, layout).To(os, orois, ob)
    quant8 = DataTypeConverter().Identify({
        s: ("TENSOR_QUANT8_ASYMM", 0.01, 0),
        d: ("TENSOR_QUANT8_ASYMM", 0.05, 128),
        a: ("TENSOR_QUANT16_SYMM", 0.125, 0),
        i: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        os: ("TENSOR_QUANT8_ASYMM", 0.01, 0),
        orois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    })
    return (s, d, a, i, os, orois, ob), quant8


# 1. Oracle case gp_two_images: strides 4, every candidate enters NMS (-1), every
#    proposal comes out (-1), IoU 0.4, min size 1.
(s, d, a, i, os, orois, ob), quant8 = proposals(
    "two_images", 2, 2, 2, 2, (4.0, 4.0, -1, -1, 0.4, 1.0), 10)
Example({
    s: scores2, d: deltas2, a: anchors2, i: info2,
    os: [0.9, 0.8, 0.7, 0.6, 0.85, 0.75, 0.55, 0.45, 0.25, 0.1],
    orois: [5.114389, 0.0, 8.0, 5.315513, 0.4, 0.0, 4.4, 4.442806,
            2.589658, 4.190325, 7.010342, 7.809675, 0.0, 3.150424, 6.074923, 8.0,
            3.036727, 0.0, 8.963273, 5.315513, 3.789658, 4.589658, 8.210342, 6.0,
            0.8, 4.362538, 4.8, 6.0, 1.914389, 2.685488, 10.0, 6.0,
            0.0, 2.935792, 2.8, 6.0, 0.0, 0.0, 4.0, 4.0],
    ob: [0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
}).AddNchw(s, d, layout).AddVariations("relaxed", "float16", quant8)

# 2. Oracle case gp_pre_nms: image 0 alone, only the best 3 scores enter NMS, so the
#    0.6 proposal of example 1 is gone.
(s, d, a, i, os, orois, ob), quant8 = proposals(
    "pre_nms", 1, 2, 2, 2, (4.0, 4.0, 3, -1, 0.4, 1.0), 3)
Example({
    s: scores2[:8], d: deltas2[:32], a: anchors2, i: info2[:2],
    os: [0.9, 0.8, 0.7],
    orois: [5.114389, 0.0, 8.0, 5.315513, 0.4, 0.0, 4.4, 4.442806,
            2.589658, 4.190325, 7.010342, 7.809675],
    ob: [0, 0, 0],
}).AddNchw(s, d, layout).AddVariations("relaxed", "float16", quant8)

# 3. Oracle case gp_post_nms: both images, a pre-NMS cut of 8 (= every candidate, so no
#    cut), at most 2 proposals per image.
(s, d, a, i, os, orois, ob), quant8 = proposals(
    "post_nms", 2, 2, 2, 2, (4.0, 4.0, 8, 2, 0.4, 1.0), 4)
Example({
    s: scores2, d: deltas2, a: anchors2, i: info2,
    os: [0.9, 0.8, 0.85, 0.75],
    orois: [5.114389, 0.0, 8.0, 5.315513, 0.4, 0.0, 4.4, 4.442806,
            3.036727, 0.0, 8.963273, 5.315513, 3.789658, 4.589658, 8.210342, 6.0],
    ob: [0, 0, 1, 1],
}).AddNchw(s, d, layout).AddVariations("relaxed", "float16", quant8)

# 4. Oracle case gp_ties: a 1x4 map, height stride 5, width stride 3, one 4x4 anchor, no
#    deltas, a 4x16 image: boxes x from 0, 3, 6, 9, scores 0.5, 0.5, 0.5, 0.25. Neighbours
#    overlap by IoU 4/28 = 1/7. IoU threshold 0.2: nothing is suppressed and the equal
#    scores come out in enumeration order. IoU threshold 0.1: the first 0.5 wins, suppresses
#    the second; the third (no overlap with the first) then suppresses the 0.25.
ties_scores = [0.5, 0.5, 0.5, 0.25]
ties_anchor = [0.0, 0.0, 4.0, 4.0]
(s, d, a, i, os, orois, ob), quant8 = proposals(
    "ties", 1, 1, 4, 1, (5.0, 3.0, -1, -1, 0.2, 0.5), 4)
Example({
    s: ties_scores, d: [0.0] * 16, a: ties_anchor, i: [4.0, 16.0],
    os: [0.5, 0.5, 0.5, 0.25],
    orois: [0.0, 0.0, 4.0, 4.0, 3.0, 0.0, 7.0, 4.0, 6.0, 0.0, 10.0, 4.0, 9.0, 0.0, 13.0, 4.0],
    ob: [0, 0, 0, 0],
}).AddNchw(s, d, layout).AddVariations("relaxed", "float16", quant8)
(s, d, a, i, os, orois, ob), quant8 = proposals(
    "ties_suppressed", 1, 1, 4, 1, (5.0, 3.0, -1, -1, 0.1, 0.5), 2)
Example({
    s: ties_scores, d: [0.0] * 16, a: ties_anchor, i: [4.0, 16.0],
    os: [0.5, 0.5],
    orois: [0.0, 0.0, 4.0, 4.0, 6.0, 0.0, 10.0, 4.0],
    ob: [0, 0],
}).AddNchw(s, d, layout).AddVariations("relaxed", "float16", quant8)

# 5. No proposal (hand-derived): with min size 20 no box of example 1 (all within an
#    8x8 or 6x10 image) is large enough; with post_nms_top_n 0 the reference emits none.
#    Zero-sized outputs.
for name, params in (("none_kept", (4.0, 4.0, -1, -1, 0.4, 20.0)),
                     ("post_nms_zero", (4.0, 4.0, -1, 0, 0.4, 1.0))):
    (s, d, a, i, os, orois, ob), quant8 = proposals(name, 2, 2, 2, 2, params, 0)
    Example({
        s: scores2, d: deltas2, a: anchors2, i: info2, os: [], orois: [], ob: [],
    }).AddNchw(s, d, layout).AddVariations("relaxed", "float16", quant8)
