"""Offline oracle for the golden values of the detection-head specs.

Specs: V1_2/generate_proposals.mod.py, detection_postprocess.mod.py,
heatmap_max_keypoint.mod.py.

Written from the operation definitions in the ops reference (docs/operations.md,
GENERATE_PROPOSALS (52), HEATMAP_MAX_KEYPOINT (56) and DETECTION_POSTPROCESSING
(47)): plain Python in double precision, one box at a
time, no numpy, nothing imported from the reference driver or the generator.
Images are NHWC nested lists; the specs' NCHW variations come from the
generator's layout converter.

Greedy hard NMS is written as the plain procedure: repeatedly take the best
remaining candidate and delete those that overlap it by IoU >= threshold.
On equal scores the definition leaves the pick to "the current order"; the
oracle computes the selection twice, once keeping the candidates in their
original order and once with the in-place swap-to-the-back bookkeeping of
Android 10's reference, and reports when the two differ, so the specs can
avoid ties whose outcome depends on that bookkeeping.

Run it by hand (``python conformance/specs/oracles/proposals_oracle.py
[case ...]``) and paste what it prints into the spec that names the case.
For quantized variations it prints each value divided by its scale plus the
zero point, and flags values within 0.001 of a rounding tie. It also warns when an IoU
lies within 0.01 of the NMS threshold without equalling it, where float16
rounding could flip the decision.
"""

from __future__ import annotations

import math
import sys

# ----------------------------------------------------------------------------- NMS


def iou(a, b):
    """Intersection over union of two corner boxes (no "+1" pixel convention)."""
    inter_w = max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
    inter_h = max(min(a[3], b[3]) - max(a[1], b[1]), 0.0)
    inter = inter_w * inter_h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    if union == 0:
        return math.nan  # never suppresses
    return inter / union


def nms_in_order(scores, boxes, candidates, threshold, limit):
    """Remaining candidates keep their original relative order."""
    remaining = list(candidates)
    picked = []
    while remaining and (limit < 0 or len(picked) < limit):
        best = max(scores[i] for i in remaining)
        chosen = next(i for i in remaining if scores[i] == best)
        picked.append(chosen)
        remaining = [
            i for i in remaining if i != chosen and not iou(boxes[i], boxes[chosen]) >= threshold
        ]
    return picked


def nms_swapping(scores, boxes, candidates, threshold, limit):
    """The same greedy loop with in-place swaps: the best is swapped to the
    front, a suppressed candidate is swapped with the last live one."""
    order = list(candidates)
    start, end = 0, len(order)
    if limit < 0:
        limit = end
    while start < end and start < limit:
        best = start
        for k in range(start, end):
            if scores[order[best]] < scores[order[k]]:
                best = k
        order[start], order[best] = order[best], order[start]
        k = start + 1
        while k < end:
            if iou(boxes[order[k]], boxes[order[start]]) >= threshold:
                end -= 1
                order[k], order[end] = order[end], order[k]
            else:
                k += 1
        start += 1
    return order[:start]


def hard_nms(scores, boxes, candidates, threshold, limit, what):
    for i in candidates:
        for j in candidates:
            overlap = iou(boxes[i], boxes[j])
            if i < j and overlap != threshold and abs(overlap - threshold) < 0.01:
                print(f"WARNING {what}: IoU of {i} and {j} is {overlap}, near {threshold}")
    picked = nms_swapping(scores, boxes, candidates, threshold, limit)
    if picked != nms_in_order(scores, boxes, candidates, threshold, limit):
        print(f"WARNING {what}: tie order decides the selection: {picked}")
    return picked


def descending(indices, key):
    """Stable sort by key, largest first."""
    return sorted(indices, key=lambda i: -key(i))


# ----------------------------------------------------------------------------- GENERATE_PROPOSALS


def generate_proposals(scores, deltas, anchors, info, strides, pre, post, threshold, min_size):
    """scores[b][h][w][a]; deltas[b][h][w][4a + k] = (dx, dy, dw, dh); anchors[a] =
    (x1, y1, x2, y2); info[b] = (height, width); strides = (height, width).

    Returns (scores, rois, batch indices) of every image in order."""
    out_scores, out_rois, out_batches = [], [], []
    for b, image in enumerate(scores):
        height, width = info[b]
        cand_scores, cand_boxes = proposal_boxes(image, deltas[b], anchors, info[b], strides)
        candidates = pre_nms(cand_scores, pre)
        candidates = [i for i in candidates if keeps(cand_boxes[i], min_size, width, height)]
        for i in hard_nms(cand_scores, cand_boxes, candidates, threshold, post, f"image {b}"):
            out_scores.append(cand_scores[i])
            out_rois.extend(cand_boxes[i])
            out_batches.append(b)
    return out_scores, out_rois, out_batches


def proposal_boxes(image, image_deltas, anchors, size, strides):
    """One image's candidates in enumeration order (h, w, a): their scores, and their
    boxes (the shifted anchors decoded and clipped to the image of ``size`` (height,
    width))."""
    height, width = size
    cand_scores, cand_boxes = [], []
    for h, row in enumerate(image):
        for w, cell in enumerate(row):
            for a, score in enumerate(cell):
                shift = (w * strides[1], h * strides[0])
                x1, y1, x2, y2 = anchors[a]
                box = (x1 + shift[0], y1 + shift[1], x2 + shift[0], y2 + shift[1])
                dx, dy, dw, dh = image_deltas[h][w][4 * a : 4 * a + 4]
                cand_scores.append(score)
                cand_boxes.append(clip(decode(box, dx, dy, dw, dh), width, height))
    return cand_scores, cand_boxes


def pre_nms(cand_scores, pre):
    """The candidates entering the filter: all in order, or the best ``pre`` if
    0 < pre < their count."""
    candidates = list(range(len(cand_scores)))
    if 0 < pre < len(candidates):
        candidates = descending(candidates, cand_scores.__getitem__)[:pre]
    return candidates


def decode(box, dx, dy, dw, dh):
    x1, y1, x2, y2 = box
    width, height = x2 - x1, y2 - y1
    cx, cy = x1 + width / 2 + dx * width, y1 + height / 2 + dy * height
    width, height = width * math.exp(dw), height * math.exp(dh)
    return (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)


def clip(box, width, height):
    x1, y1, x2, y2 = box
    return (
        min(max(x1, 0.0), width),
        min(max(y1, 0.0), height),
        min(max(x2, 0.0), width),
        min(max(y2, 0.0), height),
    )


def keeps(box, min_size, width, height):
    """Both sides longer than min_size, and the centre inside the image."""
    w, h = box[2] - box[0], box[3] - box[1]
    return w > min_size and h > min_size and box[0] + w / 2 < width and box[1] + h / 2 < height


# ----------------------------------------------------------------------------- DETECTION_POSTPROCESSING


def detection_postprocess(
    scores,
    encodings,
    anchors,
    scales,
    regular,
    max_det,
    max_cls,
    per_class,
    score_thr,
    iou_thr,
    background_in_label,
):
    """scores[b][a][c]; encodings[b][a] = (dy, dx, dh, dw, ...); anchors[a] =
    (ctr_y, ctr_x, h, w); scales = (y, x, h, w). Returns flat outputs."""
    width = max_det if regular else max_det * max_cls
    out_scores, out_boxes, out_classes, counts = [], [], [], []
    for b, image in enumerate(scores):
        boxes = [box_from_anchor(anchors[a], encodings[b][a], scales) for a in range(len(image))]
        if regular:
            picks = regular_nms(image, boxes, score_thr, iou_thr, per_class, max_det, b)
        else:
            picks = fast_nms(image, boxes, score_thr, iou_thr, max_det, max_cls, b)
        counts.append(len(picks))
        label_offset = 0 if background_in_label else 1
        for slot in range(width):
            if slot < len(picks):
                a, c = picks[slot]
                out_scores.append(image[a][c])
                out_boxes.extend(boxes[a])
                out_classes.append(c - label_offset)
            else:
                out_scores.append(0.0)
                out_boxes.extend([0.0] * 4)
                out_classes.append(0)
    return out_scores, out_boxes, out_classes, counts


def box_from_anchor(anchor, encoding, scales):
    ay, ax, ah, aw = anchor
    dy, dx, dh, dw = encoding[:4]
    cy, cx = ay + ah * dy / scales[0], ax + aw * dx / scales[1]
    h, w = ah * math.exp(dh / scales[2]), aw * math.exp(dw / scales[3])
    return (cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2)


def regular_nms(image, boxes, score_thr, iou_thr, per_class, max_det, b):
    picks = []
    for c in range(1, len(image[0])):
        scores = [row[c] for row in image]
        candidates = [a for a, s in enumerate(scores) if s > score_thr]
        kept = hard_nms(scores, boxes, candidates, iou_thr, per_class, f"image {b} class {c}")
        picks.extend((a, c) for a in kept)
    return descending(picks, lambda p: image[p[0]][p[1]])[:max_det]


def fast_nms(image, boxes, score_thr, iou_thr, max_det, max_cls, b):
    best = [max(row[1:]) for row in image]
    candidates = [a for a, s in enumerate(best) if s > score_thr]
    kept = hard_nms(best, boxes, candidates, iou_thr, max_det, f"image {b}")
    per_anchor = min(len(image[0]) - 1, max_cls)
    picks = []
    for a in kept:
        classes = descending(range(1, len(image[a])), lambda c, a=a: image[a][c])
        picks.extend((a, c) for c in classes[:per_anchor])
    return picks


# ----------------------------------------------------------------------------- HEATMAP_MAX_KEYPOINT


def heatmap_max_keypoint(heatmaps, boxes, tolerance=1e-5):
    """heatmaps[n][y][x][k] (S x S); boxes[n] = (x1, y1, x2, y2). Returns flat
    scores [N, K] and keypoints [N, K, 2]."""
    scores, keypoints = [], []
    for n, heatmap in enumerate(heatmaps):
        size = len(heatmap)
        x1, y1, x2, y2 = boxes[n]
        for k in range(len(heatmap[0][0])):
            cells = [(heatmap[y][x][k], y, x) for y in range(size) for x in range(size)]
            top = max(v for v, _, _ in cells)
            _, row, col = next(c for c in cells if c[0] == top)  # first in row-major order
            grid = [
                [heatmap[mirror(row + i, size)][mirror(col + j, size)][k] for j in (-1, 0, 1)]
                for i in (-1, 0, 1)
            ]
            dx, dy, score = refine(grid, tolerance)
            scores.append(score)
            keypoints.append(x1 + (col + dx + 0.5) / size * (x2 - x1))
            keypoints.append(y1 + (row + dy + 0.5) / size * (y2 - y1))
    return scores, keypoints


def mirror(index, size):
    if index < 0:
        return 1
    if index >= size:
        return size - 2
    return index


def refine(g, tolerance):
    """Second-order Taylor fit at the grid centre: offsets (dx, dy) and the score there."""
    b = (-(g[1][2] - g[1][0]) / 2, -(g[2][1] - g[0][1]) / 2)
    a00 = g[1][0] - 2 * g[1][1] + g[1][2]
    a01 = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / 4
    a11 = g[0][1] - 2 * g[1][1] + g[2][1]
    det = a00 * a11 - a01 * a01
    if abs(det) < tolerance + tolerance * a00 * a11:
        return 0.0, 0.0, g[1][1]
    dx = (a11 * b[0] - a01 * b[1]) / det
    dy = (a00 * b[1] - a01 * b[0]) / det
    largest = max(abs(dx), abs(dy))
    if largest > 1.5:
        dx, dy = dx * 1.5 / largest, dy * 1.5 / largest
    quadratic = a00 * dx * dx + 2 * a01 * dx * dy + a11 * dy * dy
    return dx, dy, g[1][1] - b[0] * dx - b[1] * dy + quadratic / 2


# ----------------------------------------------------------------------------- cases


def nest(flat, shape):
    """A flat row-major list as nested lists of ``shape``."""
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0]
    return [nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


CASES = {}
QUANT = {}
"""Case -> {output index: (scale, zero point)} for the quantized variation."""


def case(name, quant=None):
    def register(fn):
        CASES[name] = fn
        if quant:
            QUANT[name] = quant
        return fn

    return register


# GENERATE_PROPOSALS: two images of different sizes (8x8 and 6x10), a 2x2 feature map
# with strides 4 (height) and 4 (width), two anchors per cell.
GP_ANCHORS = [(0.0, 0.0, 4.0, 4.0), (-2.0, -1.0, 6.0, 5.0)]
# fmt: off
GP_SCORES = [
    0.8, 0.3, 0.5, 0.9, 0.2, 0.6, 0.7, 0.4,  # image 0: (row, column, anchor) in order
    0.1, 0.65, 0.35, 0.85, 0.55, 0.25, 0.75, 0.45,  # image 1
]
GP_DELTAS = [
    # image 0: per cell (dx, dy, dw, dh) of anchor 0, then of anchor 1
    0.1, 0.0, 0.0, 0.2, -0.2, 0.1, 0.3, 0.0,
    0.0, 0.25, -0.1, 0.0, 0.5, 0.0, 0.2, 0.1,
    0.0, -0.1, 0.0, 0.0, 0.1, 0.2, -0.2, 0.3,
    -0.3, 0.0, 0.1, -0.1, 0.2, 0.3, 0.4, 0.2,
    # image 1
    0.0, 0.0, 0.0, 0.0, 0.3, -0.2, 0.1, 0.0,
    -0.1, 0.1, 0.2, 0.0, 0.0, 0.0, -0.3, 0.1,
    0.2, 0.0, 0.0, -0.2, -0.4, 0.1, 0.0, 0.2,
    0.0, 0.2, 0.1, 0.1, 0.1, -0.1, 0.2, -0.1,
]
# fmt: on
GP_INFO = [(8.0, 8.0), (6.0, 10.0)]


@case("gp_two_images", {0: (0.01, 0), 1: (0.125, 0)})
def _gp_two_images():
    """No pre-NMS cut (-1), every proposal kept (-1), IoU 0.4, min size 1."""
    return generate_proposals(
        nest(GP_SCORES, [2, 2, 2, 2]),
        nest(GP_DELTAS, [2, 2, 2, 8]),
        GP_ANCHORS,
        GP_INFO,
        (4.0, 4.0),
        -1,
        -1,
        0.4,
        1.0,
    )


@case("gp_pre_nms", {0: (0.01, 0), 1: (0.125, 0)})
def _gp_pre_nms():
    """Image 0 alone, only the 3 best scores enter NMS (0.9, 0.8, 0.7; 0.6 no longer
    comes out)."""
    return generate_proposals(
        nest(GP_SCORES[:8], [1, 2, 2, 2]),
        nest(GP_DELTAS[:32], [1, 2, 2, 8]),
        GP_ANCHORS,
        GP_INFO[:1],
        (4.0, 4.0),
        3,
        -1,
        0.4,
        1.0,
    )


@case("gp_post_nms", {0: (0.01, 0), 1: (0.125, 0)})
def _gp_post_nms():
    """Both images, pre-NMS cut 8 (all of them: no cut), at most 2 proposals per image."""
    return generate_proposals(
        nest(GP_SCORES, [2, 2, 2, 2]),
        nest(GP_DELTAS, [2, 2, 2, 8]),
        GP_ANCHORS,
        GP_INFO,
        (4.0, 4.0),
        8,
        2,
        0.4,
        1.0,
    )


@case("gp_ties", {0: (0.01, 0), 1: (0.125, 0)})
def _gp_ties():
    """1x4 feature map, stride 3 (width) and 5 (height), one 4x4 anchor, no deltas; scores
    0.5, 0.5, 0.5, 0.25: the first of equal scores wins, the box 3 to its right overlaps it
    by IoU 1/7 < 0.2 and is kept; IoU 0.1 suppresses it."""
    scores = nest([0.5, 0.5, 0.5, 0.25], [1, 1, 4, 1])
    deltas = nest([0.0] * 16, [1, 1, 4, 4])
    anchors = [(0.0, 0.0, 4.0, 4.0)]
    info = [(4.0, 16.0)]
    loose = generate_proposals(scores, deltas, anchors, info, (5.0, 3.0), -1, -1, 0.2, 0.5)
    tight = generate_proposals(scores, deltas, anchors, info, (5.0, 3.0), -1, -1, 0.1, 0.5)
    return loose + tight


# DETECTION_POSTPROCESSING: 4 anchors (ctr_y, ctr_x, h, w), 3 classes (0 = background),
# scales y, x, h, w = 10, 10, 5, 5. Image 0 has zero encodings: boxes (y1, x1, y2, x2) =
# (0, 0, 2, 2), (0, 0.5, 2, 2.5) [IoU 0.6 with the first], (3, 2, 5, 6), (3, 2.5, 6, 5.5)
# [IoU 6/11 with the third].
# fmt: off
DP_ANCHORS = [(1.0, 1.0, 2.0, 2.0), (1.0, 1.5, 2.0, 2.0), (4.0, 4.0, 2.0, 4.0), (4.5, 4.0, 3.0, 3.0)]
DP_SCORES = [
    0.1, 0.9, 0.2, 0.0, 0.8, 0.7, 0.3, 0.05, 0.6, 0.0, 0.4, 0.65,  # image 0
    0.5, 0.3, 0.05, 0.2, 0.25, 0.15, 0.9, 0.0, 0.0, 0.1, 0.35, 0.05,  # image 1
]
DP_ENCODINGS = [0.0] * 16 + [
    1.0, -2.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 1.0, 0.0, -0.5, 0.5, 0.5, 1.0, 1.0,
]
# fmt: on
DP_SCALES = (10.0, 10.0, 5.0, 5.0)


@case("dp_regular")
def _dp_regular():
    """Regular NMS: score > 0.1, IoU 0.5, 2 per class, 3 per image, labels without background."""
    return detection_postprocess(
        nest(DP_SCORES, [2, 4, 3]),
        nest(DP_ENCODINGS, [2, 4, 4]),
        DP_ANCHORS,
        DP_SCALES,
        True,
        3,
        1,
        2,
        0.1,
        0.5,
        False,
    )


@case("dp_fast")
def _dp_fast():
    """Fast NMS on the same data: 2 anchors per image, 2 classes each, background in label."""
    return detection_postprocess(
        nest(DP_SCORES, [2, 4, 3]),
        nest(DP_ENCODINGS, [2, 4, 4]),
        DP_ANCHORS,
        DP_SCALES,
        False,
        2,
        2,
        1,
        0.1,
        0.5,
        True,
    )


# One image, 3 anchors, 4 classes, encodings of length 5 (the fifth ignored), scales 1: the
# boxes (0, 0, 2, 2), (0, 0, 1, 2) and (4, 4, 6, 6); the first two overlap by IoU exactly 0.5.
DP2_ANCHORS = [(1.0, 1.0, 2.0, 2.0), (0.5, 1.0, 1.0, 2.0), (5.0, 5.0, 2.0, 2.0)]
# fmt: off
DP2_SCORES = [
    0.0, 0.6, 0.6, 0.3,
    0.0, 0.7, 0.1, 0.2,
    0.9, 0.05, 0.2, 0.2,
]
# fmt: on
DP2_ENCODINGS = [0.0, 0.0, 0.0, 0.0, 7.0] * 3


@case("dp_threshold_fast")
def _dp_threshold_fast():
    """Fast NMS, IoU threshold 0.5: the exact 0.5 overlap is suppressed; 3 detections
    per image, 1 class each; only 2 anchors pass, the third slot stays zero."""
    return detection_postprocess(
        [nest(DP2_SCORES, [3, 4])],
        [nest(DP2_ENCODINGS, [3, 5])],
        DP2_ANCHORS,
        (1.0, 1.0, 1.0, 1.0),
        False,
        3,
        1,
        1,
        0.15,
        0.5,
        False,
    )


@case("dp_threshold_regular")
def _dp_threshold_regular():
    """Regular NMS on the same data, 1 per class, 4 per image: 3 detections, one zero slot."""
    return detection_postprocess(
        [nest(DP2_SCORES, [3, 4])],
        [nest(DP2_ENCODINGS, [3, 5])],
        DP2_ANCHORS,
        (1.0, 1.0, 1.0, 1.0),
        True,
        4,
        1,
        1,
        0.15,
        0.5,
        False,
    )


@case("dp_ties_fast")
def _dp_ties_fast():
    """Fast NMS, IoU threshold 0.6 (both overlapping anchors kept), 3 classes each: equal
    class scores keep class order."""
    return detection_postprocess(
        [nest(DP2_SCORES, [3, 4])],
        [nest(DP2_ENCODINGS, [3, 5])],
        DP2_ANCHORS,
        (1.0, 1.0, 1.0, 1.0),
        False,
        2,
        3,
        1,
        0.15,
        0.6,
        False,
    )


@case("dp_ties_regular")
def _dp_ties_regular():
    """Regular NMS, IoU 0.6, 2 per class, 4 per image, background in label: anchor 0 scores
    0.6 in classes 1 and 2; merged, the equal scores keep class order."""
    return detection_postprocess(
        [nest(DP2_SCORES, [3, 4])],
        [nest(DP2_ENCODINGS, [3, 5])],
        DP2_ANCHORS,
        (1.0, 1.0, 1.0, 1.0),
        True,
        4,
        1,
        2,
        0.15,
        0.6,
        True,
    )


# HEATMAP_MAX_KEYPOINT: 2 boxes, 4x4 heatmaps, 2 keypoints.
# fmt: off
HM_HEATMAPS = [
    # box 0, rows of (keypoint 0, keypoint 1)
    1.0, 9.0, 2.0, 7.0, 3.0, 2.0, 0.0, 1.0,
    2.0, 6.0, 5.0, 3.0, 8.0, 1.0, 4.0, 0.0,
    1.0, 2.0, 4.0, 1.0, 6.0, 0.0, 2.0, -1.0,
    0.0, 1.0, 1.0, 0.0, 2.0, -1.0, 0.5, -2.0,
    # box 1: keypoint 0 flat; keypoint 1 peaks at (1, 2) with a strong diagonal term: the
    # fitted offset (-2, -2) is clipped to (-1.5, -1.5)
    -2.0, 0.0, -2.0, 9.5, -2.0, 9.75, -2.0, 7.75,
    -2.0, 0.0, -2.0, 9.75, -2.0, 10.0, -2.0, 9.25,
    -2.0, 0.0, -2.0, 7.75, -2.0, 9.25, -2.0, 9.5,
    -2.0, 0.0, -2.0, 0.0, -2.0, 0.0, -2.0, 0.0,
]
# fmt: on
HM_BOXES = [(1.0, 2.0, 9.0, 10.0), (0.0, 4.0, 16.0, 8.0)]


@case("hm_two_boxes", {0: (0.1, 100), 1: (0.125, 0)})
def _hm_two_boxes():
    return heatmap_max_keypoint(nest(HM_HEATMAPS, [2, 4, 4, 2]), HM_BOXES)


@case("hm_small", {0: (0.25, 128), 1: (0.125, 0)})
def _hm_small():
    """2x2 heatmaps (every neighbour mirrored), one keypoint; the second box has x1 == x2."""
    heatmaps = nest([1.0, 3.0, 2.0, 0.5, -1.0, -3.0, -0.5, -2.0], [2, 2, 2, 1])
    return heatmap_max_keypoint(heatmaps, [(2.0, 2.0, 6.0, 4.0), (3.0, 1.0, 3.0, 9.0)])


def show(name, outputs, quant):
    print(f"== {name}")
    for index, values in enumerate(outputs):
        print(f"  output {index}: [{', '.join(fmt(v) for v in values)}]")
        if quant and index in quant:
            scale, zero_point = quant[index]
            q = [v / scale + zero_point for v in values]
            print(f"    quantized: [{', '.join(f'{v:.3f}' for v in q)}]")
            ties = [v for v in q if abs(abs(v - math.floor(v)) - 0.5) < 0.001]
            if ties:
                print(f"    WARNING near rounding ties: {ties}")


def fmt(value):
    return repr(value) if isinstance(value, int) else f"{value:.6f}".rstrip("0").rstrip(".") or "0"


def main():
    for name in CASES:
        show(name, CASES[name](), QUANT.get(name))


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        for name in sys.argv[1:] or CASES:
            show(name, CASES[name](), QUANT.get(name))
