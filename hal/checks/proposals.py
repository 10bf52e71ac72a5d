"""The checks of GENERATE_PROPOSALS, DETECTION_POSTPROCESSING and
HEATMAP_MAX_KEYPOINT.

Shapes must agree (anchors, deltas, image sizes, heatmaps and boxes), boxes be
ordered, scalar parameters (scales, thresholds, counts) be in range.
GENERATE_PROPOSALS' output count depends on the scores, so its ``prepare`` runs the
proposal selection: that code lives here, and ``reference_driver/ops/proposals.py``
uses it to compute.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hal.checks.base import (
    OpArgs,
    OperationCheck,
    OpFailure,
    OpInvalid,
)
from hal.checks.boxes import float_scalar as _f32
from hal.checks.boxes import iou, swap_remove
from hal.checks.boxes import real_input as _real
from hal.checks.boxes import tensor_input as _tensor
from hal.checks.signed import QUANT8_ASYMM_TYPES
from hal.types import OperandType, OperationType

Q8A = OperandType.TENSOR_QUANT8_ASYMM

Array = np.ndarray

Shape = tuple[int, ...]

Dims = Sequence[int]

"""Known sizes with 0 for unknown (a model's declared dimensions)."""


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
    if scores.type in QUANT8_ASYMM_TYPES and (out.scale, out.zero_point) != (
        scores.scale,
        scores.zero_point,
    ):
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
    if count * keypoints:  # boxes to compute (zero-sized outputs compute nothing)
        _check_corners(_real(args, 1), "box")
    return [(count, keypoints), (count, keypoints, 2)]


CHECKS = (
    OperationCheck(
        OperationType.GENERATE_PROPOSALS, _gp_validate, _gp_prepare, frozenset({0, 1, 2, 3})
    ),
    OperationCheck(OperationType.DETECTION_POSTPROCESSING, _dp_validate, _dp_prepare),
    OperationCheck(OperationType.HEATMAP_MAX_KEYPOINT, _hm_validate, _hm_prepare, frozenset({1})),
)
