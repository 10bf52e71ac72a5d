# HEATMAP_MAX_KEYPOINT (HAL 1.2): per box and keypoint, the first maximum of the S x S
# heatmap (row-major), its 3x3 neighbourhood (out-of-range neighbours mirrored: -1 -> 1,
# S -> S - 2), a second-order Taylor fit there (offset delta = A^-1 b, clipped so that
# its larger component is at most 1.5; a singular A gives delta 0 and the maximum as the
# score), score = G11 - b.delta + delta'A delta / 2, keypoint x = x1 + (col + dx + 0.5) /
# S * (x2 - x1), y likewise.
# Covers: an interior maximum with an off-centre fit, a corner maximum (mirroring), a flat
# heatmap (singular A), an offset clipped to 1.5, 2x2 heatmaps, a box with x1 == x2, NHWC
# and NCHW, relaxed, float16 and quant8 (heatmaps TENSOR_QUANT8_ASYMM, boxes and keypoints
# TENSOR_QUANT16_ASYMM 0.125/0, scores with their own quantization).
# Golden values: conformance/specs/oracles/proposals_oracle.py, cases hm_two_boxes and
# hm_small. By hand, box 0 keypoint 0: maximum 8 at row 1, column 2; G rows (2, 3, 0),
# (5, 8, 4), (4, 6, 2); b = (0.5, -1.5), A = diag(-7, -7); delta = (-1/14, 3/14); score
# 8 + 5/28 = 8.178571; x = 1 + (2 - 1/14 + 0.5) / 4 * 8 = 5.857143, y = 5.428571. Box 1
# keypoint 1: G rows (9.5, 9.75, 7.75), (9.75, 10, 9.25), (7.75, 9.25, 9.5): b = (0.25,
# 0.25), A = [[-1, 0.875], [0.875, -1]], delta = (-2, -2) clipped to (-1.5, -1.5); score
# 10 + 0.75 - 0.28125 = 10.46875. Heatmap values are multiples of 0.25 (exact in float16
# and at the quant8 scale), box corners multiples of 0.125.
layout = BoolScalar("layout", False)  # NHWC

# 1. Two boxes, 4x4 heatmaps, two keypoints.
heatmap1 = Input("heatmap", "TENSOR_FLOAT32", "{2, 4, 4, 2}")
boxes1 = Input("boxes", "TENSOR_FLOAT32", "{2, 4}")
score1 = Output("score", "TENSOR_FLOAT32", "{2, 2}")
keypoint1 = Output("keypoint", "TENSOR_FLOAT32", "{2, 2, 2}")
Model("two_boxes").Operation("HEATMAP_MAX_KEYPOINT", heatmap1, boxes1, layout).To(score1, keypoint1)
quant8 = DataTypeConverter().Identify({
    heatmap1: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    boxes1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    score1: ("TENSOR_QUANT8_ASYMM", 0.1, 100),
    keypoint1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    heatmap1: [
        # box 0: rows of (keypoint 0, keypoint 1); keypoint 1 peaks in the corner
        1.0, 9.0, 2.0, 7.0, 3.0, 2.0, 0.0, 1.0,
        2.0, 6.0, 5.0, 3.0, 8.0, 1.0, 4.0, 0.0,
        1.0, 2.0, 4.0, 1.0, 6.0, 0.0, 2.0, -1.0,
        0.0, 1.0, 1.0, 0.0, 2.0, -1.0, 0.5, -2.0,
        # box 1: keypoint 0 flat, keypoint 1 with the clipped offset
        -2.0, 0.0, -2.0, 9.5, -2.0, 9.75, -2.0, 7.75,
        -2.0, 0.0, -2.0, 9.75, -2.0, 10.0, -2.0, 9.25,
        -2.0, 0.0, -2.0, 7.75, -2.0, 9.25, -2.0, 9.5,
        -2.0, 0.0, -2.0, 0.0, -2.0, 0.0, -2.0, 0.0,
    ],
    boxes1: [1.0, 2.0, 9.0, 10.0, 0.0, 4.0, 16.0, 8.0],
    score1: [8.178571, 9.0, -2.0, 10.46875],
    keypoint1: [5.857143, 5.428571, 2.0, 3.0, 2.0, 4.5, 4.0, 4.0],
}).AddNchw(heatmap1, layout).AddVariations("relaxed", "float16", quant8)

# 2. 2x2 heatmaps (every neighbour mirrored, so b = 0 and delta = 0), one keypoint; the
#    second box is a vertical segment (x1 == x2 = 3). Maxima 3 at (0, 1) and -0.5 at (1, 0):
#    x = 2 + 1.5 / 2 * 4 = 5, y = 2 + 0.5 / 2 * 2 = 2.5; x = 3, y = 1 + 1.5 / 2 * 8 = 7.
heatmap2 = Input("heatmap", "TENSOR_FLOAT32", "{2, 2, 2, 1}")
boxes2 = Input("boxes", "TENSOR_FLOAT32", "{2, 4}")
score2 = Output("score", "TENSOR_FLOAT32", "{2, 1}")
keypoint2 = Output("keypoint", "TENSOR_FLOAT32", "{2, 1, 2}")
Model("small").Operation("HEATMAP_MAX_KEYPOINT", heatmap2, boxes2, layout).To(score2, keypoint2)
quant8 = DataTypeConverter().Identify({
    heatmap2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    boxes2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    score2: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    keypoint2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    heatmap2: [1.0, 3.0, 2.0, 0.5, -1.0, -3.0, -0.5, -2.0],
    boxes2: [2.0, 2.0, 6.0, 4.0, 3.0, 1.0, 3.0, 9.0],
    score2: [3.0, -0.5],
    keypoint2: [5.0, 2.5, 3.0, 7.0],
}).AddNchw(heatmap2, layout).AddVariations("relaxed", "float16", quant8)
