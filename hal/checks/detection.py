"""The checks of AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, ROI_ALIGN and
ROI_POOLING.

Shapes must agree (rois of 4 coordinates, one batch index per roi, one class per 4
deltas); boxes must be ordered (x1 <= x2, y1 <= y2); batch indices must name an
image; a roi must lie inside the feature map scaled by the ratios; scalar
parameters (kernel, thresholds, output size, ratios, sampling) must be in range.
BOX_WITH_NMS_LIMIT's output count depends on the scores, so its ``prepare`` runs the
selection: that algorithm lives here, and ``reference_driver/ops/detection.py``
uses it to compute.
"""

from __future__ import annotations

from collections.abc import Callable

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

Shapes = list[tuple[int, ...]]


def _check_shape(values: Array, rank: int, what: str, **sizes: int) -> None:
    """OpInvalid unless ``values`` has ``rank`` and the given sizes (``dim0=...``)."""
    if values.ndim != rank:
        raise OpInvalid(f"{what} has shape {values.shape}; rank {rank} expected")
    for key, size in sizes.items():
        axis = int(key.removeprefix("dim"))
        if values.shape[axis] != size:
            raise OpInvalid(f"{what} has shape {values.shape}; dimension {axis} must be {size}")


def _known(args: OpArgs, slot: int) -> float | None:
    value = args.values[slot] if slot < len(args.values) else None
    return None if value is None else value.item()


Rule = tuple[str, str, Callable[[float], bool]]

"""(what the scalar is, what it must be, the test)."""


def _problems(args: OpArgs, rules: dict[int, Rule]) -> str | None:
    """For ``validate``: the first constant scalar breaking its rule, as a reason."""
    for slot, (what, requirement, ok) in rules.items():
        value = _known(args, slot)
        if value is not None and not ok(value):
            return f"{what} (input {slot}) is {value}; it must be {requirement}"
    return None


def _boxes_ordered(boxes: Array, what: str) -> None:
    """OpInvalid when a box (last axis x1, y1, x2, y2) has x2 < x1 or y2 < y1."""
    bad = (boxes[..., 2] < boxes[..., 0]) | (boxes[..., 3] < boxes[..., 1])
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        where = index[0] if len(index) == 1 else index
        raise OpInvalid(f"{what} {where} has x2 < x1 or y2 < y1: {boxes[index].tolist()}")


def _batch_range(batches: Array, count: int) -> None:
    bad = (batches < 0) | (batches >= count)
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        raise OpInvalid(f"batch index {int(batches[index])} of roi {index} is outside [0, {count})")


# --------------------------------------------------------------------------- bbox transform


def _bbox_prepare(args: OpArgs) -> Shapes:
    rois, deltas = _tensor(args, 0), _tensor(args, 1)
    batches, info = _tensor(args, 2), _tensor(args, 3)
    _check_shape(rois, 2, "rois", dim1=4)
    count = rois.shape[0]
    _check_shape(deltas, 2, "deltas", dim0=count)
    _check_shape(batches, 1, "batch indices", dim0=count)
    _check_shape(info, 2, "image sizes", dim1=2)
    width = deltas.shape[1]
    if width == 0 or width % 4:
        raise OpInvalid(f"deltas have shape {deltas.shape}; 4 per class, 1 class or more")
    if info.shape[0] == 0:
        raise OpInvalid("image sizes have no image")
    if count:
        _batch_range(batches, info.shape[0])
        _boxes_ordered(_real(args, 0), "roi")
    return [(count, width)]


# --------------------------------------------------------------------------- NMS

_HARD, _LINEAR, _GAUSSIAN = 0, 1, 2


def _kernel(args: OpArgs) -> Callable[[Array], Array]:
    """The score factor of the NMS kernel (input 5) as a function of the IoU."""
    code = int(args.scalar(5))
    threshold, sigma = _f32(args, 6), _f32(args, 7)
    one = np.float32(1)
    if code == _HARD:
        return lambda iou: np.where(iou < threshold, one, np.float32(0))
    if code == _LINEAR:
        return lambda iou: np.where(iou < threshold, one, one - iou)
    if code == _GAUSSIAN:

        def gaussian(iou: Array) -> Array:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                return np.exp(-iou * iou / sigma)

        return gaussian
    raise OpInvalid(f"NMS kernel {code} is not 0 (hard), 1 (linear) or 2 (gaussian)")


class _Nms:
    """One BOX_WITH_NMS_LIMIT evaluation: which (roi, class) boxes it keeps, in order."""

    def __init__(self, args: OpArgs) -> None:
        scores, boxes, batches = _tensor(args, 0), _tensor(args, 1), _tensor(args, 2)
        _check_shape(scores, 2, "scores")
        count, classes = scores.shape
        if classes < 2:
            raise OpInvalid(f"scores have shape {scores.shape}; 2 classes or more expected")
        _check_shape(boxes, 2, "rois", dim0=count, dim1=4 * classes)
        _check_shape(batches, 1, "batch indices", dim0=count)
        self.classes = classes
        self.batches = batches
        self.scores = _real(args, 0)  # updated in place by the kernel
        self.boxes = _real(args, 1).reshape(count, classes, 4)
        self.selected = np.zeros(0, np.int64)  # flat indices roi * classes + class
        if count == 0:
            return
        _boxes_ordered(self.boxes, "box (roi, class)")
        self.kernel = _kernel(args)
        self.score_threshold = _f32(args, 3)
        self.limit = int(args.scalar(4))
        self.nms_threshold = _f32(args, 8)
        self.selected = np.concatenate([self._image(start, end) for start, end in self._runs()])

    def _runs(self) -> list[tuple[int, int]]:
        """Runs of equal batch indices: the reference treats each as one image."""
        starts = np.flatnonzero(np.r_[True, self.batches[1:] != self.batches[:-1]])
        ends = np.r_[starts[1:], self.batches.size]
        return list(zip(starts.tolist(), ends.tolist(), strict=True))

    def _image(self, start: int, end: int) -> Array:
        kept = [self._class(start, end, c) for c in range(1, self.classes)]
        flat = np.concatenate(kept)
        scores = self.scores.reshape(-1)
        flat = flat[np.argsort(-scores[flat], kind="stable")]
        if self.limit >= 0:
            flat = flat[: self.limit]
        return flat[np.lexsort((-scores[flat], flat % self.classes))]

    def _class(self, start: int, end: int, c: int) -> Array:
        """Greedy NMS of class ``c`` over rois [start, end): flat indices, selection order."""
        scores = self.scores[:, c]
        order = start + np.flatnonzero(scores[start:end] > self.score_threshold)
        limit = order.size if self.limit < 0 else self.limit
        kept: list[int] = []
        while order.size and len(kept) < limit:
            best = int(np.argmax(scores[order]))
            order[[0, best]] = order[[best, 0]]
            kept.append(int(order[0]))
            rest = order[1:]
            overlap = iou(self.boxes[order[0], c], self.boxes[rest, c])
            scores[rest] = scores[rest] * self.kernel(overlap)
            order = swap_remove(rest, ~(scores[rest] < self.nms_threshold))
        return np.asarray(kept, np.int64) * self.classes + c


def _nms_validate(args: OpArgs) -> str | None:
    kernels = (_HARD, _LINEAR, _GAUSSIAN)
    return _problems(args, {5: ("NMS kernel", "0, 1 or 2", lambda v: v in kernels)})


def _nms_shapes(count: int) -> Shapes:
    return [(count,), (count, 4), (count,), (count,)]


def _nms_prepare(args: OpArgs) -> Shapes:
    return _nms_shapes(_Nms(args).selected.size)


# --------------------------------------------------------------------------- ROI pooling


class _Rois:
    """The inputs ROI_ALIGN and ROI_POOLING share: feature map, rois, layout, output size."""

    def __init__(self, args: OpArgs, layout_slot: int) -> None:
        features = _tensor(args, 0)
        _check_shape(features, 4, "input 0")
        self.nchw = bool(args.scalar(layout_slot))
        self.features = features.transpose(0, 2, 3, 1) if self.nchw else features
        if 0 in self.features.shape:
            raise OpFailure(f"the feature map {features.shape} is zero-sized")
        self.rois, self.batches = _tensor(args, 1), _tensor(args, 2)
        _check_shape(self.rois, 2, "rois", dim1=4)
        _check_shape(self.batches, 1, "batch indices", dim0=self.rois.shape[0])
        self.out_h, self.out_w = int(args.scalar(3)), int(args.scalar(4))
        self.ratio_h, self.ratio_w = _f32(args, 5), _f32(args, 6)
        if self.out_h <= 0 or self.out_w <= 0:
            raise OpInvalid(f"output size {self.out_h}x{self.out_w} must be positive")
        if not (self.ratio_h > 0 and self.ratio_w > 0):
            raise OpInvalid(f"ratios {self.ratio_h}, {self.ratio_w} must be positive")

    def shape(self) -> tuple[int, ...]:
        count, depth = self.rois.shape[0], self.features.shape[3]
        if self.nchw:
            return (count, depth, self.out_h, self.out_w)
        return (count, self.out_h, self.out_w, depth)

    def scaled(self, args: OpArgs) -> Array:
        """The rois in feature-map coordinates (checked: in the map, x1 <= x2, y1 <= y2)."""
        rois = _real(args, 1)
        _, height, width, _ = self.features.shape
        _batch_range(self.batches, self.features.shape[0])
        one = np.float32(1)
        scale = np.array([one / self.ratio_w, one / self.ratio_h] * 2, np.float32)
        scaled = rois * scale
        limits = np.array([width, height] * 2, np.float32)
        outside = (rois < 0).any(axis=1) | (scaled > limits).any(axis=1)
        if outside.any():
            index = int(np.flatnonzero(outside)[0])
            raise OpInvalid(
                f"roi {index} {rois[index].tolist()} is not inside the {height}x{width} "
                f"feature map scaled by the ratios ({self.ratio_h}, {self.ratio_w})"
            )
        _boxes_ordered(rois, "roi")
        return scaled

    def result(self, nhwc: Array) -> Array:
        return nhwc.transpose(0, 3, 1, 2) if self.nchw else nhwc


def _scalar_rules(sampling: bool) -> dict[int, Rule]:
    def positive(v: float) -> bool:
        return v > 0

    rules: dict[int, Rule] = {
        3: ("output height", "> 0", positive),
        4: ("output width", "> 0", positive),
        5: ("height ratio", "> 0", positive),
        6: ("width ratio", "> 0", positive),
    }
    if sampling:
        rules[7] = ("height sampling ratio", ">= 0", lambda v: v >= 0)
        rules[8] = ("width sampling ratio", ">= 0", lambda v: v >= 0)
    return rules


def _align_validate(args: OpArgs) -> str | None:
    return _problems(args, _scalar_rules(sampling=True))


def _align_prepare(args: OpArgs) -> Shapes:
    rois = _Rois(args, 9)
    for slot in (7, 8):
        if int(args.scalar(slot)) < 0:
            raise OpInvalid(f"sampling ratio {int(args.scalar(slot))} (input {slot}) is negative")
    if rois.rois.shape[0]:
        rois.scaled(args)  # the rois' checks
    return [rois.shape()]


def _pool_validate(args: OpArgs) -> str | None:
    return _problems(args, _scalar_rules(sampling=False))


def _pool_prepare(args: OpArgs) -> Shapes:
    rois = _Rois(args, 7)
    if rois.rois.shape[0] == 0:
        raise OpFailure("ROI_POOLING does not take zero-sized rois (Android 10 reference)")
    source, target = args.inputs[0], args.outputs[0]
    if source.type in QUANT8_ASYMM_TYPES and (target.scale, target.zero_point) != (
        source.scale,
        source.zero_point,
    ):
        raise OpFailure(
            f"output scale/zeroPoint ({target.scale}, {target.zero_point}) must be the "
            f"input's ({source.scale}, {source.zero_point})"
        )
    rois.scaled(args)  # the rois' checks
    return [rois.shape()]


def _no_parameters(args: OpArgs) -> str | None:
    """AXIS_ALIGNED_BBOX_TRANSFORM has no parameter to judge at preparation."""
    return None


CHECKS = (
    OperationCheck(
        OperationType.AXIS_ALIGNED_BBOX_TRANSFORM, _no_parameters, _bbox_prepare, frozenset({0})
    ),
    OperationCheck(
        OperationType.BOX_WITH_NMS_LIMIT, _nms_validate, _nms_prepare, frozenset({0, 1})
    ),
    OperationCheck(OperationType.ROI_ALIGN, _align_validate, _align_prepare, frozenset({1})),
    OperationCheck(OperationType.ROI_POOLING, _pool_validate, _pool_prepare, frozenset({1})),
)
