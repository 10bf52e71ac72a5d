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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from hal.types import Operand, OperandType, OperationType
from reference_driver.ops.base import (
    PYTHON_STEP,
    Cost,
    OpArgs,
    OperationImpl,
    OpFailure,
    OpInvalid,
    default_cost,
)
from hal.checks.boxes import float_scalar as _f32
from hal.checks.boxes import iou, swap_remove
from hal.checks.boxes import real_input as _real
from hal.checks.boxes import tensor_input as _tensor
from reference_driver.quant import round_half_away_array

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8A = OperandType.TENSOR_QUANT8_ASYMM
_TYPES = (F32, F16, Q8A)

Array = np.ndarray
Shape = tuple[int, ...]
Dims = Sequence[int]
"""Known sizes with 0 for unknown (a model's declared dimensions)."""

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


def _known(value: Array | None) -> object | None:
    return None if value is None else value.item()


def _mismatch(what: str, actual: int, expected: int) -> str | None:
    """Why a known size differs from another known one (0 = unknown), or None."""
    if actual and expected and actual != expected:
        return f"{what} is {actual}; it must be {expected}"
    return None


def _first(*reasons: str | None) -> str | None:
    return next((reason for reason in reasons if reason is not None), None)


def _raise_if(reason: str | None) -> None:
    if reason is not None:
        raise OpInvalid(reason)


def _no_zero_size(args: OpArgs, slots: Sequence[int]) -> None:
    for slot in slots:
        value = _tensor(args, slot)
        if value.size == 0:
            raise OpFailure(f"input {slot} of shape {value.shape} is zero-sized")


def _check_corners(boxes: Array, what: str) -> None:
    """Boxes as (x1, y1, x2, y2) (or (y1, x1, y2, x2)) need x1 <= x2 and y1 <= y2."""
    bad = ~((boxes[..., 0] <= boxes[..., 2]) & (boxes[..., 1] <= boxes[..., 3]))
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise OpInvalid(f"{what} {index} is {boxes[index].tolist()}: its corners are reversed")


def _hard_nms(
    scores: Array, boxes: Array, candidates: Array, threshold: float, limit: int
) -> Array:
    """Greedy hard NMS over ``candidates`` (indices into ``scores``/``boxes``), at most
    ``limit`` selections (all when negative); the selected indices in selection order."""
    order = np.asarray(candidates, dtype=np.int64)
    limit = len(order) if limit < 0 else limit
    selected: list[int] = []
    while len(order) and len(selected) < limit:
        best = int(np.argmax(scores[order]))  # the first of equal maxima
        order[[0, best]] = order[[best, 0]]
        selected.append(int(order[0]))
        rest = order[1:]
        order = swap_remove(rest, ~(iou(boxes[order[0]], boxes[rest]) >= threshold))
    return np.asarray(selected, dtype=np.int64)


def _stable_descending(scores: Array, axis: int = -1) -> Array:
    return np.argsort(-scores, axis=axis, kind="stable")


# --------------------------------------------------------------------------- GENERATE_PROPOSALS
# Inputs: 0 scores [B, H, W, A] (NCHW [B, A, H, W]); 1 deltas [B, H, W, 4A] (dx, dy, dw, dh);
# 2 anchors [A, 4]; 3 image info [B, 2] (height, width); 4 height stride; 5 width stride;
# 6 pre-NMS top n; 7 post-NMS top n; 8 IoU threshold; 9 min size; 10 layout.


def _gp_layout(args: OpArgs) -> bool | None:
    value = _known(args.values[10])
    return None if value is None else bool(value)


def _gp_shape_problem(
    nchw: bool, scores: Dims, deltas: Dims, anchors: Dims, info: Dims
) -> str | None:
    """Why the four tensor shapes disagree (0 = unknown size), or None."""
    if not (len(scores) == len(deltas) == 4 and len(anchors) == len(info) == 2):
        return None  # unknown rank: judged at execution
    h, w, a, c = (1, 2, 3, 0) if not nchw else (2, 3, 1, 0)
    batches, height, width, count = scores[c], scores[h], scores[w], scores[a]
    return _first(
        _mismatch("the batch of input 1", deltas[c], batches),
        _mismatch("the height of input 1", deltas[h], height),
        _mismatch("the width of input 1", deltas[w], width),
        _mismatch("the box-delta depth of input 1", deltas[a], 4 * count),
        _mismatch("the anchor count of input 2", anchors[0], count),
        _mismatch("the anchor length of input 2", anchors[1], 4),
        _mismatch("the batch of input 3", info[0], batches),
        _mismatch("the image-info length of input 3", info[1], 2),
    )


def _gp_forced_quant(args: OpArgs) -> str | None:
    scores, out = args.inputs[0], args.outputs[0]
    if scores.type == Q8A and (out.scale, out.zero_point) != (scores.scale, scores.zero_point):
        return (
            f"output 0 quantization ({out.scale}, {out.zero_point}) must be input 0's "
            f"({scores.scale}, {scores.zero_point})"
        )
    return None


def _gp_validate(args: OpArgs) -> str | None:
    nchw = _gp_layout(args)
    dims = [args.inputs[i].dimensions for i in range(4)]
    return None if nchw is None else _gp_shape_problem(nchw, *dims)


def _gp_decode(args: OpArgs, nchw: bool) -> tuple[Array, Array, Array]:
    """Scores [B, N] and clipped boxes [B, N, 4] of the N = H*W*A candidates, image info."""
    scores, deltas = _real(args, 0), _real(args, 1)
    if nchw:
        scores, deltas = scores.transpose(0, 2, 3, 1), deltas.transpose(0, 2, 3, 1)
    batches, height, width, _ = scores.shape
    anchors, info = _real(args, 2), _real(args, 3)
    shift_x = np.arange(width, dtype=np.float32) * _f32(args, 5)
    shift_y = np.arange(height, dtype=np.float32) * _f32(args, 4)
    along_x, along_y = np.broadcast_arrays(shift_x, shift_y[:, None])  # [H, W] each
    shifts = np.stack([along_x, along_y, along_x, along_y], axis=-1)
    rois = (anchors[None, None] + shifts[:, :, None, :]).reshape(-1, 4)
    _check_corners(rois, "shifted anchor")
    boxes = _transform(rois, deltas.reshape(batches, -1, 4))
    limits = info[:, None, [1, 0, 1, 0]]  # width, height, width, height per image
    boxes = np.minimum(np.maximum(boxes, np.float32(0)), limits)
    return scores.reshape(batches, -1), boxes, info


def _transform(rois: Array, deltas: Array) -> Array:
    """Boxes (x1, y1, x2, y2) moved by (dx, dy, dw, dh) relative to their size."""
    width, height = rois[:, 2] - rois[:, 0], rois[:, 3] - rois[:, 1]
    cx, cy = (rois[:, 0] + rois[:, 2]) / 2, (rois[:, 1] + rois[:, 3]) / 2
    dx, dy, dw, dh = np.moveaxis(deltas, -1, 0)
    with np.errstate(over="ignore", invalid="ignore"):
        new_w, new_h = np.exp(dw) * width, np.exp(dh) * height
        new_x, new_y = cx + dx * width, cy + dy * height
        return np.stack(
            [new_x - new_w / 2, new_y - new_h / 2, new_x + new_w / 2, new_y + new_h / 2], axis=-1
        ).astype(np.float32)


def _gp_one_image(args: OpArgs, scores: Array, boxes: Array, info: Array) -> Array:
    """The proposals of one image: candidate indices in output order."""
    pre, post = int(args.scalar(6)), int(args.scalar(7))
    candidates = np.arange(len(scores))
    if 0 < pre < len(scores):
        candidates = _stable_descending(scores)[:pre]
    width = boxes[candidates, 2] - boxes[candidates, 0]
    height = boxes[candidates, 3] - boxes[candidates, 1]
    min_size = _f32(args, 9)
    inside = (boxes[candidates, 0] + width / 2 < info[1]) & (
        boxes[candidates, 1] + height / 2 < info[0]
    )
    candidates = candidates[(width > min_size) & (height > min_size) & inside]
    return _hard_nms(scores, boxes, candidates, _f32(args, 8), post)


def _gp_run(args: OpArgs) -> tuple[Array, Array, Array]:
    """Selected scores, boxes and batch indices, all images concatenated."""
    _no_zero_size(args, range(4))
    nchw = bool(args.scalar(10))
    shapes = [_tensor(args, i).shape for i in range(4)]
    if [len(s) for s in shapes] != [4, 4, 2, 2]:
        raise OpInvalid(f"input ranks {[len(s) for s in shapes]}; they must be 4, 4, 2, 2")
    _raise_if(_gp_shape_problem(nchw, *shapes))
    scores, boxes, info = _gp_decode(args, nchw)
    picks = [_gp_one_image(args, scores[b], boxes[b], info[b]) for b in range(len(scores))]
    batch = np.concatenate([np.full(len(p), b, np.int32) for b, p in enumerate(picks)])
    rows = np.concatenate(picks).astype(np.int64)
    return scores[batch, rows], boxes[batch, rows].reshape(-1, 4), batch


def _gp_prepare(args: OpArgs) -> list[Shape]:
    # The reference fails the execution on other output scores quantization (hal.validation
    # refuses such models first, unless a driver turns its strict rules off).
    problem = _gp_forced_quant(args)
    if problem is not None:
        raise OpFailure(problem)
    count = len(_gp_run(args)[2])
    return [(count,), (count, 4), (count,)]


def _gp_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    scores, boxes, batch = _gp_run(args)
    if args.inputs[0].type == Q8A:  # the selected scores are input values: requantized exactly
        out_scores = _from_real(scores, args.inputs[0], np.dtype(np.uint8))
    else:
        out_scores = scores.astype(args.values[0].dtype)
    return [out_scores, _from_real(boxes, args.outputs[1], args.values[3].dtype), batch]


# --------------------------------------------------------------------------- DETECTION_POSTPROCESSING
# Inputs: 0 class scores [B, A, C]; 1 box encodings [B, A, L] (dy, dx, dh, dw, ...); 2 anchors
# [A, 4] (ctr_y, ctr_x, h, w); 3-6 y, x, h, w scales; 7 use regular NMS; 8 max detections;
# 9 max classes per detection (fast); 10 max detections per class (regular); 11 score
# threshold; 12 IoU threshold; 13 is background in label.

_DP_POSITIVE = {3: "y_scale", 4: "x_scale", 5: "h_scale", 6: "w_scale"}
_DP_NON_NEGATIVE = {11: "score threshold", 12: "IoU threshold"}


def _dp_scalar_problem(values: list[Array | None]) -> str | None:
    """Why a known scalar is out of its range (the reference's prepare checks), or None."""
    known = [None] * 3 + [_known(v) for v in values[3:]]
    for slot, name in _DP_POSITIVE.items():
        if known[slot] is not None and not known[slot] > 0:
            return f"{name} {known[slot]} must be > 0"
    for slot, name in _DP_NON_NEGATIVE.items():
        if known[slot] is not None and not known[slot] >= 0:
            return f"{name} {known[slot]} must be >= 0"
    if known[8] is not None and known[8] <= 0:
        return f"max_num_detections {known[8]} must be > 0"
    regular = known[7]
    if regular is not None and regular and known[10] is not None and known[10] <= 0:
        return f"max_detections_per_class {known[10]} must be > 0"
    if regular is not None and not regular and known[9] is not None and known[9] <= 0:
        return f"max_classes_per_detection {known[9]} must be > 0"
    return None


def _dp_shape_problem(scores: Dims, deltas: Dims, anchors: Dims) -> str | None:
    if not (len(scores) == len(deltas) == 3 and len(anchors) == 2):
        return None
    if 0 < scores[2] <= 1:
        return f"{scores[2]} class; there must be more than 1 (class 0 is the background)"
    if 0 < deltas[2] < 4:
        return f"box encodings of length {deltas[2]}; at least 4 are needed"
    return _first(
        _mismatch("the batch of input 1", deltas[0], scores[0]),
        _mismatch("the anchor count of input 1", deltas[1], scores[1]),
        _mismatch("the anchor count of input 2", anchors[0], scores[1]),
        _mismatch("the anchor length of input 2", anchors[1], 4),
    )


def _dp_validate(args: OpArgs) -> str | None:
    dims = [args.inputs[i].dimensions for i in range(3)]
    return _first(_dp_scalar_problem(args.values), _dp_shape_problem(*dims))


def _dp_width(args: OpArgs) -> int:
    """D: detections per image, times the classes per detection in fast mode."""
    count = int(args.scalar(8))
    return count if args.scalar(7) else count * int(args.scalar(9))


def _dp_prepare(args: OpArgs) -> list[Shape]:
    _no_zero_size(args, range(3))
    shapes = [_tensor(args, i).shape for i in range(3)]
    if [len(s) for s in shapes] != [3, 3, 2]:
        raise OpInvalid(f"input ranks {[len(s) for s in shapes]}; they must be 3, 3, 2")
    _raise_if(_first(_dp_scalar_problem(args.values), _dp_shape_problem(*shapes)))
    batches, width = shapes[0][0], _dp_width(args)
    return [(batches, width), (batches, width, 4), (batches, width), (batches,)]


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


# --------------------------------------------------------------------------- HEATMAP_MAX_KEYPOINT
# Inputs: 0 heatmaps [N, S, S, K] (NCHW [N, K, S, S]); 1 boxes [N, 4] (x1, y1, x2, y2);
# 2 layout. Outputs: 0 scores [N, K]; 1 keypoints [N, K, 2] (x, y).
#
# Zero boxes (N = 0) give empty outputs. docs/operations.md, HEATMAP_MAX_KEYPOINT (56) notes
# that Android 10's CPU executor rejects that input; the HAL text does not forbid it, and
# BOX_WITH_NMS_LIMIT -> ROI_ALIGN -> HEATMAP_MAX_KEYPOINT chains produce it.


def _hm_shape_problem(nchw: bool, heatmaps: Dims, boxes: Dims) -> str | None:
    if len(heatmaps) != 4 or len(boxes) != 2:
        return None
    rows, cols = (2, 3) if nchw else (1, 2)
    size = heatmaps[rows]
    return _first(
        _mismatch("the heatmap width", heatmaps[cols], size),
        f"heatmaps of size {size}; they must be at least 2x2" if size == 1 else None,
        _mismatch("the box count of input 1", boxes[0], heatmaps[0]),
        _mismatch("the box length of input 1", boxes[1], 4),
    )


def _hm_validate(args: OpArgs) -> str | None:
    layout = _known(args.values[2])
    if layout is None:
        return None
    return _hm_shape_problem(bool(layout), args.inputs[0].dimensions, args.inputs[1].dimensions)


def _hm_shapes(args: OpArgs) -> tuple[bool, Shape, Shape]:
    """(nchw, heatmaps shape as NHWC, boxes shape), checked."""
    nchw = bool(args.scalar(2))
    heatmaps, boxes = _tensor(args, 0).shape, _tensor(args, 1).shape
    if (len(heatmaps), len(boxes)) != (4, 2):
        raise OpInvalid(f"input ranks {len(heatmaps)}, {len(boxes)}; they must be 4 and 2")
    _raise_if(_hm_shape_problem(nchw, heatmaps, boxes))
    nhwc = (heatmaps[0], heatmaps[2], heatmaps[3], heatmaps[1]) if nchw else heatmaps
    if 0 in nhwc[1:]:
        raise OpFailure(f"heatmaps of shape {heatmaps}: only the box count may be 0")
    return nchw, nhwc, boxes


def _hm_prepare(args: OpArgs) -> list[Shape]:
    _, (count, _, _, keypoints), _ = _hm_shapes(args)
    return [(count, keypoints), (count, keypoints, 2)]


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
    _check_corners(boxes, "box")
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
    op: OperationType,
    validate: Callable[[OpArgs], str | None],
    prepare: Callable[[OpArgs], list[Shape]],
    execute: Callable[[OpArgs, list[Shape]], list[Array]],
) -> OperationImpl:
    return OperationImpl(op, _supports, validate, prepare, execute)


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
    _make(OperationType.GENERATE_PROPOSALS, _gp_validate, _gp_prepare, _gp_execute),
    _make(OperationType.DETECTION_POSTPROCESSING, _dp_validate, _dp_prepare, _dp_execute),
    _make(OperationType.HEATMAP_MAX_KEYPOINT, _hm_validate, _hm_prepare, _hm_guarded_execute),
]
