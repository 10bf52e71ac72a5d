"""Offline oracle for the detection specs (V1_2 axis_aligned_bbox_transform*,
box_with_nms_limit*, roi_align*, roi_pooling*).

Written from the operation definitions (docs/operations.md,
AXIS_ALIGNED_BBOX_TRANSFORM (41), BOX_WITH_NMS_LIMIT (44), ROI_ALIGN (81) and
ROI_POOLING (82)), one box, one bin, one sample at a time,
independent of the reference driver and of the generator:

* AXIS_ALIGNED_BBOX_TRANSFORM: centre and size of the roi (no +1), shifted by
  dx*w, dy*h, scaled by exp(dw), exp(dh), back to corners, clamped to the image.
* BOX_WITH_NMS_LIMIT: per image (a run of equal batch indices), per class >= 1:
  candidates score > threshold; repeatedly take the best, rescale the others by
  the kernel (hard / linear / gaussian), drop those under the NMS score
  threshold, at most max_detections per class; then the top max_detections
  over the classes; output by class, then score descending.
* ROI_ALIGN: average of bilinear samples per bin; quant8 also recomputed the
  way docs/operations.md describes the quantized path (weights round(w * 255)),
  checking that it gives exactly the rounded real result the spec's quant8
  golden becomes, and that no real result sits within 0.02 of a rounding tie at
  the output scale (the generator rounds ties half to even, the path half away).
* ROI_POOLING: max over integer bins; an empty bin gives 0.

Floats are Python doubles except where the definition's float32 rounding
decides an integer (ROI_POOLING bin edges), which use numpy float32. The
checks below refuse data whose expected output would depend on a tie the
definition leaves open (equal scores), or sit on a rounding edge.

The data below is the data of the specs. Run ``python detection_oracle.py``
and paste what it prints into the specs.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

# ----------------------------------------------------------------------------- helpers


def rows(flat, width):
    return [flat[i : i + width] for i in range(0, len(flat), width)]


def fmt(values):
    """Values to 7 significant digits; float noise around 0 (1e-16) prints as 0."""
    return "[" + ", ".join(f"{round(v, 9) + 0.0:.7g}" for v in values) + "]"


def round_half_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def check_quant_margin(name, values, scale, zero_point):
    """Refuse expected values within 0.02 of a rounding edge of (scale, zero_point)."""
    for v in values:
        q = v / scale + zero_point
        if abs(q - math.floor(q) - 0.5) < 0.02:
            raise SystemExit(f"{name}: {v} sits on a quantization edge at scale {scale}")


# ----------------------------------------------------------------------------- bbox transform


def bbox_transform(rois, deltas, batches, image_info):
    out = []
    classes = len(deltas) // len(rois)
    for r, (x1, y1, x2, y2) in enumerate(rows(rois, 4)):
        height, width = image_info[2 * batches[r]], image_info[2 * batches[r] + 1]
        w, h = x2 - x1, y2 - y1
        cx, cy = x1 + w / 2, y1 + h / 2
        for k in range(classes):
            dx, dy, dw, dh = deltas[(r * classes + k) * 4 : (r * classes + k) * 4 + 4]
            ncx, ncy = cx + dx * w, cy + dy * h
            nw, nh = w * math.exp(dw), h * math.exp(dh)
            box = (ncx - nw / 2, ncy - nh / 2, ncx + nw / 2, ncy + nh / 2)
            limits = (width, height, width, height)
            out += [min(max(v, 0.0), lim) for v, lim in zip(box, limits, strict=True)]
    return out


# ----------------------------------------------------------------------------- NMS


def iou(a, b):
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    w = max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
    h = max(min(a[3], b[3]) - max(a[1], b[1]), 0.0)
    inter = w * h
    return inter / (area_a + area_b - inter)


def kernel_factor(kind, overlap, iou_threshold, sigma):
    if kind == "hard":
        return 1.0 if overlap < iou_threshold else 0.0
    if kind == "linear":
        return 1.0 if overlap < iou_threshold else 1.0 - overlap
    return math.exp(-overlap * overlap / sigma)


class Ambiguous(SystemExit):
    """Data whose expected output hangs on a tie or on a value near a threshold (a
    SystemExit, so the script stops saying why; a caller drawing data catches it)."""


def nms_class(cands, kind, iou_threshold, sigma, nms_threshold, limit, margin=0.0):
    """cands: list of [score, box]; returns the kept [score, box] in selection order.

    With a margin, also refuses what a float32 computation could decide otherwise: two
    candidates (not the same box and score) within the margin of the best score, an IoU
    within it of the IoU threshold (hard and linear kernels), a rescored score within it
    of the NMS score threshold (equal too)."""
    kept = []
    remaining = [list(c) for c in cands]
    while remaining and (limit < 0 or len(kept) < limit):
        best = max(c[0] for c in remaining)
        tied = [c for c in remaining if c[0] >= best - margin]
        if any(c[1] != tied[0][1] or c[0] != best for c in tied):
            raise Ambiguous(f"tie between different boxes at score {best}: {tied}")
        chosen = tied[0]
        remaining.remove(chosen)
        kept.append(chosen)
        survivors = []
        for c in remaining:
            overlap = iou(c[1], chosen[1])
            if margin and kind != "gaussian" and abs(overlap - iou_threshold) < margin:
                raise Ambiguous(f"IoU {overlap} too close to the IoU threshold")
            c[0] *= kernel_factor(kind, overlap, iou_threshold, sigma)
            near = abs(c[0] - nms_threshold) < max(margin, 1e-3)
            if near and (margin or c[0] != nms_threshold):
                raise Ambiguous(f"score {c[0]} too close to the NMS score threshold")
            if not c[0] < nms_threshold:
                survivors.append(c)
        remaining = survivors
    return kept


def box_with_nms_limit(scores, rois, batches, params, margin=0.0):
    """Flat scores [rois, classes], rois [rois, classes * 4], batch indices [rois];
    params (score threshold, max detections, kernel, IoU threshold, sigma, NMS score
    threshold). With a margin, also refuses a score within it of the score threshold and
    (as ``nms_class``) near-ties: see there."""
    score_threshold, limit, kind, iou_threshold, sigma, nms_threshold = params
    classes = len(scores) // len(batches)
    if margin and any(abs(s - score_threshold) < margin for s in scores):
        raise Ambiguous("a score too close to the score threshold")
    out_scores, out_boxes, out_classes, out_batches = [], [], [], []
    start = 0
    while start < len(batches):
        end = start
        while end < len(batches) and batches[end] == batches[start]:
            end += 1
        found = []  # (score, class, box)
        for c in range(1, classes):
            cands = [
                [scores[r * classes + c], rois[(r * classes + c) * 4 : (r * classes + c) * 4 + 4]]
                for r in range(start, end)
                if scores[r * classes + c] > score_threshold
            ]
            picked = nms_class(cands, kind, iou_threshold, sigma, nms_threshold, limit, margin)
            for score, box in picked:
                found.append((score, c, box))
        found.sort(key=lambda f: -f[0])
        if 0 < limit < len(found) and found[limit - 1][0] - found[limit][0] <= margin:
            raise Ambiguous("the max_detections cut falls between equal scores")
        if limit >= 0:
            found = found[:limit]
        found.sort(key=lambda f: (f[1], -f[0]))
        for a, b in itertools.pairwise(found):
            if a[1] == b[1] and a[0] - b[0] <= margin and (a[0], a[2]) != (b[0], b[2]):
                raise Ambiguous("two kept boxes of one class have equal scores")
        for score, c, box in found:
            out_scores.append(score)
            out_boxes += box
            out_classes.append(c)
            out_batches.append(batches[start])
        start = end
    return out_scores, out_boxes, out_classes, out_batches


# ----------------------------------------------------------------------------- ROI_ALIGN


def feature(x, shape, b, y, xx, ch):
    _n, h, w, c = shape
    return x[((b * h + y) * w + xx) * c + ch]


def align_samples(start, extent, bins, given, length):
    """Per bin: a list of (low cell, high cell, fraction) for each sample point."""
    step = max(extent, 1.0) / bins
    count = given if given > 0 else math.ceil(step)
    result = []
    for i in range(bins):
        points = []
        for s in range(count):
            p = start + i * step + (s + 0.5) * step / count
            low = math.floor(p)
            if low >= length - 1:
                points.append((length - 1, length - 1, 0.0))
            else:
                points.append((low, low + 1, p - low))
        result.append(points)
    return result


def roi_align(
    x, shape, rois, batches, out_h, out_w, ratio_h, ratio_w, samp_h, samp_w, quant=None,
    unrounded=False,
):  # fmt: skip
    """NHWC output; with quant = (s_in, zp_in, s_out, zp_out) the doc's integer path
    (``unrounded``: its values in output steps before the rounding, the zero point and
    the clamp, to see how far they lie from the rounded real result)."""
    _n, h, w, c = shape
    out = []
    for r, (x1, y1, x2, y2) in enumerate(rows(rois, 4)):
        x1, x2, y1, y2 = x1 / ratio_w, x2 / ratio_w, y1 / ratio_h, y2 / ratio_h
        assert 0 <= x1 <= x2 <= w and 0 <= y1 <= y2 <= h, (x1, y1, x2, y2)
        ys = align_samples(y1, y2 - y1, out_h, samp_h, h)
        xs = align_samples(x1, x2 - x1, out_w, samp_w, w)
        for i in range(out_h):
            for j in range(out_w):
                count = len(ys[i]) * len(xs[j])
                for ch in range(c):
                    total = 0.0
                    for ya, yb, fy in ys[i]:
                        for xa, xb, fx in xs[j]:
                            corners = (
                                ((1 - fy) * (1 - fx), ya, xa),
                                ((1 - fy) * fx, ya, xb),
                                (fy * (1 - fx), yb, xa),
                                (fy * fx, yb, xb),
                            )
                            for weight, yy, xx in corners:
                                v = feature(x, shape, batches[r], yy, xx, ch)
                                if quant is None:
                                    total += weight * v
                                else:
                                    q = round_half_away(v / quant[0]) + quant[1]
                                    total += round_half_away(weight * 255) * (q - quant[1])
                    if quant is None:
                        out.append(total / count)
                    else:
                        real = total * quant[0] / (255 * quant[2] * count)
                        if unrounded:
                            out.append(real)
                        else:
                            out.append(min(255, max(0, round_half_away(real) + quant[3])))
    return out


def check_align_quant(name, expected, quantized, s_out, zp_out):
    check_quant_margin(name, expected, s_out, zp_out)
    for real, q in zip(expected, quantized, strict=True):
        golden = min(255, max(0, round(real / s_out) + zp_out))
        if golden != q:
            raise SystemExit(f"{name}: quant8 path gives {q}, rounded real {golden}")


# ----------------------------------------------------------------------------- ROI_POOLING


def pool_edges(start, end, bins, length, dtype):
    start, end = round_half_away(start), round_half_away(end)
    step = dtype(max(end - start + 1, 1)) / dtype(bins)
    edges = []
    for i in range(bins):
        low = math.floor(dtype(step * dtype(i) + dtype(start)))
        high = math.ceil(dtype(step * dtype(i + 1) + dtype(start)))
        edges.append((min(low, length), min(high, length)))
    return edges


def roi_pooling(x, shape, rois, batches, out_h, out_w, ratio_h, ratio_w):
    _n, h, w, c = shape
    out = []
    for r, (x1, y1, x2, y2) in enumerate(rows(rois, 4)):
        x1, x2, y1, y2 = x1 / ratio_w, x2 / ratio_w, y1 / ratio_h, y2 / ratio_h
        assert 0 <= x1 <= x2 <= w and 0 <= y1 <= y2 <= h, (x1, y1, x2, y2)
        ys = pool_edges(y1, y2, out_h, h, np.float32)
        xs = pool_edges(x1, x2, out_w, w, np.float32)
        if ys != pool_edges(y1, y2, out_h, h, np.float16) or xs != pool_edges(
            x1, x2, out_w, w, np.float16
        ):
            raise SystemExit(f"roi {r}: float16 bins differ from float32 bins")
        for ya, yb in ys:
            for xa, xb in xs:
                for ch in range(c):
                    cells = [
                        feature(x, shape, batches[r], yy, xx, ch)
                        for yy in range(ya, yb)
                        for xx in range(xa, xb)
                    ]
                    out.append(max(cells) if cells else 0.0)
    return out


# ----------------------------------------------------------------------------- spec data

BBOX_ROIS = [2, 2, 10, 6, 0, 4, 8, 12, 20, 20, 28, 30, 5, 5, 5, 9]
BBOX_DELTAS = [
    0, 0, 0, 0, 0.5, -0.25, 0.5, 0,
    -0.5, 0, 0, 0.5, 0, 0, -1, -1,
    0.25, 0.25, 0.25, 0.25, 1, 1, 0, 0,
    0.125, -0.125, 1.5, 0, 0, 0.5, 10, 0,
]  # fmt: skip
BBOX_BATCHES = [0, 1, 1, 0]
BBOX_IMAGES = [16, 20, 32, 32]

BBOX1_ROIS = [1, 1, 3, 5, 0, 0, 6, 6]
BBOX1_DELTAS = [0.25, 0.5, -0.5, 0.25, -1, -1, 1, 1]
BBOX1_IMAGES = [8, 10]

NMS_SCORES = [
    0.5, 0.875, 0.625,
    0.25, 0.75, 0.625,
    0.125, 0.25, 0.75,
    0.875, 0.5, 0.375,
    0.0, 0.75, 0.25,
    0.5, 0.125, 0.5,
]  # fmt: skip
NMS_ROIS = [
    0, 0, 1, 1, 0, 0, 4, 4, 2, 2, 6, 6,
    0, 0, 1, 1, 0, 0, 4, 2, 2, 2, 6, 6,
    0, 0, 1, 1, 10, 10, 14, 14, 3, 3, 7, 7,
    0, 0, 1, 1, 1, 0, 5, 4, 20, 20, 21, 24,
    0, 0, 1, 1, 6, 0, 10, 4, 0, 0, 1, 1,
    0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 6, 7,
]  # fmt: skip
NMS_BATCHES = [0] * 6

NMS_B_SCORES = [0.25, 0.5, 0.125, 0.75, 0.5, 0.375, 0.0, 0.625, 0.0, 0.5]
NMS_B_ROIS = [
    0, 0, 2, 2, 0, 0, 2, 2,
    0, 0, 2, 2, 1, 1, 3, 3,
    0, 0, 2, 2, 0, 0, 2, 2,
    0, 0, 2, 2, 0, 0, 4, 4,
    0, 0, 2, 2, 2, 0, 6, 4,
]  # fmt: skip
NMS_B_BATCHES = [0, 0, 0, 2, 2]

NMS_Z_SCORES = [0.0, 0.75, 0.0, 0.5, 0.0, 0.25]
NMS_Z_ROIS = [0, 0, 1, 1, 0, 0, 4, 4, 0, 0, 1, 1, 0, 0, 4, 4, 0, 0, 1, 1, 1, 1, 3, 3]
NMS_Z_BATCHES = [0, 0, 0]

SOFT_SCORES = [
    0.125, 0.875, 0.25,
    0.125, 0.75, 0.5,
    0.125, 0.625, 0.125,
    0.125, 0.25, 0.0625,
    0.125, 0.5, 0.75,
    0.125, 0.375, 0.625,
]  # fmt: skip
SOFT_ROIS = [
    0, 0, 1, 1, 0, 0, 4, 4, 10, 10, 12, 12,
    0, 0, 1, 1, 0, 0, 4, 2, 11, 10, 13, 12,
    0, 0, 1, 1, 2, 0, 6, 4, 0, 0, 1, 1,
    0, 0, 1, 1, 0, 0, 4, 4, 0, 0, 1, 1,
    0, 0, 1, 1, 0, 0, 8, 8, 1, 1, 5, 5,
    0, 0, 1, 1, 4, 0, 8, 8, 2, 2, 6, 6,
]  # fmt: skip
SOFT_BATCHES = [0, 0, 0, 0, 1, 1]

ALIGN_X = [0, 1, 2, 3, 4, 6, 8, 10, 1, 3, 9, 5, 7, 2, 0, 4]
ALIGN_SHAPE = (1, 4, 4, 1)
ALIGN_ROIS = [0, 0, 8, 8, 2, 2, 6, 6, 4, 3, 8, 8, 1, 1, 1.5, 1.25]
ALIGN_QUANT = (0.25, 8, 0.05, 3)

ALIGN_B_X = [
    1.0, -2.0, 3.0, 0.5, -1.5, 2.0, 4.0, -3.0,
    0.0, 1.5, -0.5, 2.5, 3.5, -1.0, 2.0, 0.0,
    -2.5, 1.0, 0.5, 3.0, -1.0, -0.5, 1.5, 4.5,
    2.0, 2.0, -3.5, 1.0, 0.0, -2.0, 3.0, 1.5,
    -1.0, 4.0, 2.5, -0.5, 1.0, 0.5, -4.0, 2.0,
    3.0, -1.5, 0.0, 2.5, -2.0, 1.0, 0.5, -0.5,
]  # fmt: skip
ALIGN_B_SHAPE = (2, 3, 4, 2)
ALIGN_B_ROIS = [0, 0, 8, 3, 2, 0.5, 6, 2.5, 1, 1, 3, 3]
ALIGN_B_BATCHES = [0, 1, 1]
ALIGN_B_QUANT = (0.5, 20, 0.25, 40)

ALIGN_I_X = [1, 2, 3, 4]
ALIGN_I_ROIS = [0, 0, 1, 1, 0.5, 0, 2, 1]

POOL_X = [1, 5, 2, 8, 3, -1, 4, 9, 0, 6, 7, -3, 2, 5, 1, 0, 6, -2, 4, 10]
POOL_SHAPE = (1, 4, 5, 1)
POOL_ROIS = [0, 0, 2.5, 2, 0.25, 0.75, 1.25, 1.25, 2.5, 1, 2.5, 2, 2, 0, 2.5, 0.5]

POOL_B_X = [
    3.0, -1.0, 0.5, 2.0, -2.0, 4.0, 1.0, 1.5,
    -0.5, 0.0, 2.5, -3.0, 5.0, 1.0, -1.5, 3.5,
    0.0, 2.0, 1.0, -1.0, 4.5, 0.5, -2.5, 3.0,
    1.5, -0.5, -1.0, 2.5, 0.0, 3.0, 2.0, -2.0,
    3.5, 1.0, -3.0, 0.5, 1.0, 4.0, 0.5, -1.5,
    -2.0, 2.0, 4.0, 0.0, -0.5, 1.5, 2.5, 1.0,
]  # fmt: skip
POOL_B_SHAPE = (2, 3, 4, 2)
POOL_B_ROIS = [0, 0, 8, 3, 2, 1, 5, 2, 6, 2, 8, 3]
POOL_B_BATCHES = [1, 0, 1]


def nms_print(name, *args):
    scores, boxes, classes, batches = box_with_nms_limit(*args)
    print(
        f"{name}: scores {fmt(scores)}\n  boxes {fmt(boxes)}\n  classes {classes} batches {batches}"
    )
    check_quant_margin(name, scores, 1 / 128, 16)


def main():
    out = bbox_transform(BBOX_ROIS, BBOX_DELTAS, BBOX_BATCHES, BBOX_IMAGES)
    check_quant_margin("bbox", out, 0.125, 0)
    print("bbox:", fmt(out))
    out = bbox_transform(BBOX1_ROIS, BBOX1_DELTAS, [0, 0], BBOX1_IMAGES)
    check_quant_margin("bbox_one_class", out, 0.125, 0)
    print("bbox_one_class:", fmt(out))

    hard = (NMS_SCORES, NMS_ROIS, NMS_BATCHES)
    for limit in (-1, 4, 1):
        nms_print(f"nms_hard_max{limit}", *hard, (0.25, limit, "hard", 0.5, 1.0, 0.25))
    nms_print(
        "nms_batches", NMS_B_SCORES, NMS_B_ROIS, NMS_B_BATCHES, (0.3, -1, "hard", 0.4, 1.0, 0.3)
    )
    nms_print(
        "nms_zero_nms_threshold",
        NMS_Z_SCORES,
        NMS_Z_ROIS,
        NMS_Z_BATCHES,
        (0.0, -1, "hard", 0.5, 1.0, 0.0),
    )
    soft = (SOFT_SCORES, SOFT_ROIS, SOFT_BATCHES)
    nms_print("nms_linear", *soft, (0.2, -1, "linear", 0.3, 1.0, 0.2))
    nms_print("nms_linear_max2", *soft, (0.2, 2, "linear", 0.3, 1.0, 0.2))
    nms_print("nms_gaussian", *soft, (0.2, -1, "gaussian", 0.5, 0.5, 0.15))
    nms_print("nms_gaussian_max2", *soft, (0.2, 2, "gaussian", 0.5, 0.5, 0.15))

    args = (ALIGN_X, ALIGN_SHAPE, ALIGN_ROIS, [0] * 4, 2, 2, 2.0, 2.0, 2, 2)
    out = roi_align(*args)
    check_align_quant("align", out, roi_align(*args, quant=ALIGN_QUANT), *ALIGN_QUANT[2:])
    print("align:", fmt(out))
    args = (ALIGN_B_X, ALIGN_B_SHAPE, ALIGN_B_ROIS, ALIGN_B_BATCHES, 2, 3, 1.0, 2.0, 0, 0)
    out = roi_align(*args)
    check_align_quant(
        "align_batches", out, roi_align(*args, quant=ALIGN_B_QUANT), *ALIGN_B_QUANT[2:]
    )
    print("align_batches:", fmt(out))
    args = (ALIGN_I_X, (1, 2, 2, 1), ALIGN_I_ROIS, [0, 0], 1, 2, 1.0, 1.0, 1, 1)
    out = roi_align(*args)
    check_align_quant("align_as_input", out, roi_align(*args, quant=(0.5, 0, 0.125, 0)), 0.125, 0)
    print("align_as_input:", fmt(out))

    print("pool:", fmt(roi_pooling(POOL_X, POOL_SHAPE, POOL_ROIS, [0] * 4, 2, 2, 0.5, 0.5)))
    out = roi_pooling(POOL_B_X, POOL_B_SHAPE, POOL_B_ROIS, POOL_B_BATCHES, 2, 3, 1.0, 2.0)
    print("pool_batches:", fmt(out))


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
