"""GENERATE_PROPOSALS, DETECTION_POSTPROCESSING and HEATMAP_MAX_KEYPOINT.

The three detection heads of HAL 1.2 (docs/operations.md, GENERATE_PROPOSALS (52),
HEATMAP_MAX_KEYPOINT (56) and DETECTION_POSTPROCESSING (47)), computed as the
Android 10 CPU reference computes them:

* Everything runs in float32: float16 tensors and scalars are widened,
  quantized tensors dequantized as ``float(scale) * (q - zeroPoint)``, and
  results are rounded back (quantized: ``round(x / scale + zeroPoint)`` half
  away from zero, clamped to the type's range).
* Hard NMS is the reference's greedy in-place loop: the first highest score
  of the remaining candidates is swapped to the front, and every candidate
  whose IoU with it is at least the threshold is swapped to the back and
  dropped. The swaps reorder the survivors, which decides the winner among
  equal scores; ``_hard_nms`` reproduces that order exactly. IoU is computed
  in float32 without the "+1" pixel convention; 0/0 is NaN and suppresses
  nothing.
* Sorting by score (GENERATE_PROPOSALS' pre-NMS cut, DETECTION_POSTPROCESSING's
  merge of classes and its per-anchor class ranking) is stable: the
  reference's ``std::sort`` is an insertion sort on the short lists the
  tests use, so equal scores keep their order.
* GENERATE_PROPOSALS and DETECTION_POSTPROCESSING fail on zero-sized inputs;
  GENERATE_PROPOSALS may produce zero proposals. HEATMAP_MAX_KEYPOINT takes
  zero boxes and returns empty outputs (see its section below).
* Malformed boxes the reference checks at execution (an anchor or heatmap box
  with x2 < x1 or y2 < y1) are invalid arguments.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.proposals``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from hal.checks.boxes import float_scalar as _f32
from hal.checks.boxes import real_input as _real
from hal.checks.proposals import (
    Q8A,
    Array,
    Shape,
    _gp_run,
    _hard_nms,
    _hm_shapes,
    _stable_descending,
)
from hal.types import Operand, OperandType, OperationType
from reference_driver.ops.base import (
    PYTHON_STEP,
    Cost,
    OpArgs,
    OperationImpl,
    checked,
    default_cost,
)
from reference_driver.quant import round_half_away_array

F32 = OperandType.TENSOR_FLOAT32

F16 = OperandType.TENSOR_FLOAT16

_TYPES = (F32, F16, Q8A)

_QUANT_RANGE = {
    OperandType.TENSOR_QUANT8_ASYMM: (np.uint8, 0, 255),
    OperandType.TENSOR_QUANT16_ASYMM: (np.uint16, 0, 65535),
}


# --------------------------------------------------------------------------- shared


def _supports(args: OpArgs) -> bool:
    return args.inputs[0].type in _TYPES


def _from_real(values: Array, operand: Operand, like: np.dtype) -> Array:
    """float32 results in the output's type: float rounding, or quantization."""
    if operand.type not in _QUANT_RANGE:
        with np.errstate(over="ignore"):
            return values.astype(like)
    dtype, low, high = _QUANT_RANGE[operand.type]
    with np.errstate(invalid="ignore"):
        q = values / np.float32(operand.scale) + np.float32(operand.zero_point)
    return np.clip(round_half_away_array(q), low, high).astype(dtype)


def _gp_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    scores, boxes, batch = _gp_run(args)
    if args.inputs[0].type == Q8A:  # the selected scores are input values: requantized exactly
        out_scores = _from_real(scores, args.inputs[0], np.dtype(np.uint8))
    else:
        out_scores = scores.astype(args.values[0].dtype)
    return [out_scores, _from_real(boxes, args.outputs[1], args.values[3].dtype), batch]


def _dp_decode(args: OpArgs) -> Array:
    """Boxes [B, A, 4] as (y1, x1, y2, x2) from the encodings and the anchors."""
    deltas, anchors = _real(args, 1)[..., :4], _real(args, 2)
    dy, dx, dh, dw = np.moveaxis(deltas, -1, 0)
    ay, ax, ah, aw = anchors.T
    scale_y, scale_x, scale_h, scale_w = (_f32(args, slot) for slot in (3, 4, 5, 6))
    with np.errstate(over="ignore", invalid="ignore"):
        cy, cx = ay + ah * dy / scale_y, ax + aw * dx / scale_x
        half_h = ah * np.exp(dh / scale_h) * np.float32(0.5)
        half_w = aw * np.exp(dw / scale_w) * np.float32(0.5)
        return np.stack([cy - half_h, cx - half_w, cy + half_h, cx + half_w], axis=-1)


def _dp_regular(args: OpArgs, scores: Array, boxes: Array) -> tuple[Array, Array]:
    """Per-class NMS, then the best max_num_detections: (anchor, class) pairs."""
    threshold, iou = _f32(args, 11), _f32(args, 12)
    per_class = int(args.scalar(10))
    anchors, classes = [], []
    for c in range(1, scores.shape[1]):
        candidates = np.flatnonzero(scores[:, c] > threshold)
        kept = _hard_nms(scores[:, c], boxes, candidates, iou, per_class)
        anchors.append(kept)
        classes.append(np.full(len(kept), c, np.int64))
    anchor, klass = np.concatenate(anchors), np.concatenate(classes)
    order = _stable_descending(scores[anchor, klass])[: int(args.scalar(8))]
    return anchor[order], klass[order]


def _dp_fast(args: OpArgs, scores: Array, boxes: Array) -> tuple[Array, Array]:
    """NMS on each anchor's best class score, then each kept anchor's top classes."""
    best = scores[:, 1:].max(axis=1)
    candidates = np.flatnonzero(best > _f32(args, 11))
    kept = _hard_nms(best, boxes, candidates, _f32(args, 12), int(args.scalar(8)))
    per_anchor = min(scores.shape[1] - 1, int(args.scalar(9)))
    ranked = _stable_descending(scores[kept, 1:], axis=1)[:, :per_anchor] + 1
    return np.repeat(kept, per_anchor), ranked.reshape(-1)


def _dp_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    scores, boxes = _real(args, 0), _dp_decode(args)
    out_scores = np.zeros(shapes[0], np.float32)
    out_boxes = np.zeros(shapes[1], np.float32)
    out_classes = np.zeros(shapes[2], np.int32)
    counts = np.zeros(shapes[3], np.int32)
    select = _dp_regular if args.scalar(7) else _dp_fast
    label_offset = 0 if args.scalar(13) else 1
    for b in range(len(scores)):
        anchor, klass = select(args, scores[b], boxes[b])
        n = counts[b] = len(anchor)
        out_scores[b, :n] = scores[b, anchor, klass]
        out_boxes[b, :n] = boxes[b, anchor]
        out_classes[b, :n] = klass - label_offset
    dtype = args.values[0].dtype
    return [out_scores.astype(dtype), out_boxes.astype(dtype), out_classes, counts]


def _hm_grid(heatmaps: Array) -> tuple[Array, Array, Array]:
    """Per (box, keypoint): row and column of the first maximum, and its 3x3
    neighbourhood [N, K, 3, 3] with out-of-range neighbours mirrored inwards."""
    count, size, _, keypoints = heatmaps.shape
    flat = heatmaps.reshape(count, size * size, keypoints)
    peak = np.argmax(flat, axis=1)  # [N, K], first maximum in row-major order
    row, col = peak // size, peak % size
    steps = np.arange(-1, 2)

    def mirrored(centre: Array) -> Array:
        index = centre[..., None] + steps
        return np.where(index < 0, 1, np.where(index >= size, size - 2, index))

    rows, cols = mirrored(row), mirrored(col)  # [N, K, 3]
    n = np.arange(count)[:, None, None, None]
    k = np.arange(keypoints)[None, :, None, None]
    grid = heatmaps[n, rows[..., :, None], cols[..., None, :], k]
    return row, col, grid


def _hm_refine(grid: Array, tolerance: float) -> tuple[Array, Array, Array]:
    """The quadratic fit at the centre of each 3x3 grid: offsets (dx, dy) and score."""
    g = [[grid[..., i, j] for j in range(3)] for i in range(3)]
    half, two = np.float32(0.5), np.float32(2)
    b0, b1 = -(g[1][2] - g[1][0]) / two, -(g[2][1] - g[0][1]) / two
    a00 = g[1][0] - two * g[1][1] + g[1][2]
    a01 = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / np.float32(4)
    a11 = g[0][1] - two * g[1][1] + g[2][1]
    cross = a00 * a11
    det = cross - a01 * a01
    solvable = np.abs(det) >= np.float32(tolerance) + np.float32(tolerance) * cross
    with np.errstate(divide="ignore", invalid="ignore"):
        dx = np.where(solvable, (a11 * b0 - a01 * b1) / det, 0).astype(np.float32)
        dy = np.where(solvable, (a00 * b1 - a01 * b0) / det, 0).astype(np.float32)
        largest = np.maximum(np.abs(dx), np.abs(dy))
        shrink = np.where(largest > np.float32(1.5), np.float32(1.5) / largest, 1).astype(
            np.float32
        )
    dx, dy = dx * shrink, dy * shrink
    curvature = (a00 * dx + a01 * dy) * dx + (a01 * dx + a11 * dy) * dy
    score = g[1][1] - b0 * dx - b1 * dy + curvature * half
    return dx, dy, np.where(solvable, score, g[1][1])


def _hm_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    nchw, nhwc, _ = _hm_shapes(args)
    heatmaps, boxes = _real(args, 0), _real(args, 1)
    if nchw:
        heatmaps = heatmaps.transpose(0, 2, 3, 1)
    size = np.float32(nhwc[1])
    row, col, grid = _hm_grid(heatmaps)
    # The reference's singularity tolerance: 1e-3 for float16 heatmaps, 1e-5 otherwise.
    dx, dy, score = _hm_refine(grid, 1e-3 if args.inputs[0].type == F16 else 1e-5)
    x1, y1, x2, y2 = (boxes[:, None, i] for i in range(4))
    x = (col.astype(np.float32) + dx + np.float32(0.5)) / size * (x2 - x1) + x1
    y = (row.astype(np.float32) + dy + np.float32(0.5)) / size * (y2 - y1) + y1
    keypoints = np.stack([x, y], axis=-1).reshape(shapes[1])
    return [
        _from_real(score.reshape(shapes[0]), args.outputs[0], args.values[0].dtype),
        _from_real(keypoints, args.outputs[1], args.values[1].dtype),
    ]


def _hm_guarded_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    if math.prod(shapes[1]) == 0:  # zero boxes: empty outputs, nothing computed
        return [
            np.zeros(shapes[0], args.values[0].dtype),
            np.zeros(shapes[1], args.values[1].dtype),
        ]
    return _hm_execute(args, shapes)


# --------------------------------------------------------------------------- registration


def _make(
    op: OperationType, execute: Callable[[OpArgs, list[Shape]], list[Array]]
) -> OperationImpl:
    return checked(op, _supports, execute, via_unsigned=True)


# --------------------------------------------------------------------------- costs


def _rounds(count: int, limit: Array | None) -> int:
    """Greedy NMS iterations over ``count`` candidates with at most ``limit`` selections."""
    if limit is None or int(limit.item()) < 0:
        return count
    return min(count, int(limit.item()))


def _gp_cost(args: OpArgs, shapes: list[Shape] | None) -> Cost:
    """Per image: a sort of its H*W*A anchors, then NMS over the pre_nms best (asked before
    prepare, which runs it)."""
    base = default_cost(args, shapes)
    scores = args.values[0]
    if scores is None or scores.ndim != 4:
        return base
    batches, count = scores.shape[0], math.prod(scores.shape[1:])
    pre = args.values[6]
    if pre is not None and 0 < int(pre.item()) < count:
        count = int(pre.item())
    rounds = _rounds(count, args.values[7])
    per_image = math.prod(scores.shape[1:]) * 32 + rounds * (count + PYTHON_STEP)
    return Cost(work=base.work + batches * per_image, scratch=base.scratch + 64 * scores.size)


def _dp_cost(args: OpArgs, shapes: list[Shape] | None) -> Cost:
    """Per image, NMS over its anchors: per class (regular) or once (fast)."""
    base = default_cost(args, shapes)
    scores = args.values[0]
    if scores is None or scores.ndim != 3 or args.values[7] is None:
        return base
    batches, anchors, classes = scores.shape
    if bool(args.values[7].item()):
        per_image = (
            max(classes - 1, 0) * _rounds(anchors, args.values[10]) * (anchors + PYTHON_STEP)
        )
    else:
        per_image = _rounds(anchors, args.values[8]) * (anchors + PYTHON_STEP)
    return Cost(work=base.work + batches * per_image, scratch=base.scratch + 64 * scores.size)


COSTS = {
    OperationType.GENERATE_PROPOSALS: _gp_cost,
    OperationType.DETECTION_POSTPROCESSING: _dp_cost,
}

IMPLEMENTATIONS = [
    _make(OperationType.GENERATE_PROPOSALS, _gp_execute),
    _make(OperationType.DETECTION_POSTPROCESSING, _dp_execute),
    _make(OperationType.HEATMAP_MAX_KEYPOINT, _hm_guarded_execute),
]
