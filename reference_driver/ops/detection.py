"""Detection operations, as the Android 10 CPU reference computes them.

AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, ROI_ALIGN and ROI_POOLING
(docs/operations.md, AXIS_ALIGNED_BBOX_TRANSFORM (41), BOX_WITH_NMS_LIMIT (44),
ROI_ALIGN (81) and ROI_POOLING (82)).
Conventions:

* Boxes are (x1, y1, x2, y2). Quantized boxes are TENSOR_QUANT16_ASYMM
  (scale 0.125, zero point 0); box arithmetic runs on their real values in
  float32, as does float16 (widened and rounded back).
* Zero-sized tensors: AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT and
  ROI_ALIGN take 0 rois (an empty output, no arithmetic); BOX_WITH_NMS_LIMIT
  keeping no box gives four zero-sized outputs. ROI_POOLING fails on 0 rois,
  as the Android 10 reference does.
* Values the definitions forbid that only show in the data (a batch index
  out of range, a box with x2 < x1, a roi outside the feature map) are
  INVALID_ARGUMENT at execution.
* BOX_WITH_NMS_LIMIT is a greedy loop over the boxes it keeps, with the
  overlaps of each step vectorised. It reproduces the reference's candidate
  order (swap-with-last removal), so equal scores select as the reference
  selects; the final sorts are stable.
* ROI_ALIGN and ROI_POOLING loop over the sample points (or window cells)
  of one bin, vectorised over rois, bins and channels.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hal.types import OperandType, OperationType
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
from reference_driver.ops.common import quantize
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    round_half_away_array,
)

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q16A = OperandType.TENSOR_QUANT16_ASYMM
_QUANT = (Q8A, Q16A)
_FLOAT_Q8 = (F32, F16, Q8A)

Array = np.ndarray
Shapes = list[tuple[int, ...]]

# --------------------------------------------------------------------------- shared


def _output(real: Array, args: OpArgs, slot: int = 0) -> Array:
    """Float32 results in output ``slot``'s type (quantized: round half away, clamp)."""
    operand = args.outputs[slot]
    if operand.type in _QUANT:
        return quantize(real.astype(np.float64), operand)
    with np.errstate(over="ignore"):
        return real.astype(np.float16 if operand.type == F16 else np.float32)


def _empty(args: OpArgs, shape: tuple[int, ...], slot: int = 0) -> Array:
    return np.zeros(shape, dtype=_OUTPUT_DTYPE[args.outputs[slot].type])


_OUTPUT_DTYPE = {
    F32: np.float32,
    F16: np.float16,
    Q8A: np.uint8,
    Q16A: np.uint16,
    OperandType.TENSOR_INT32: np.int32,
}


def _check_shape(values: Array, rank: int, what: str, **sizes: int) -> None:
    """OpInvalid unless ``values`` has ``rank`` and the given sizes (``dim0=...``)."""
    if values.ndim != rank:
        raise OpInvalid(f"{what} has shape {values.shape}; rank {rank} expected")
    for key, size in sizes.items():
        axis = int(key.removeprefix("dim"))
        if values.shape[axis] != size:
            raise OpInvalid(f"{what} has shape {values.shape}; dimension {axis} must be {size}")


def _supports(types: tuple[int, ...]) -> Callable[[OpArgs], bool]:
    def supports(args: OpArgs) -> bool:
        return args.inputs[0].type in types

    return supports


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
    return [(count, width)]


def _bbox_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    if shapes[0][0] == 0:
        return [_empty(args, shapes[0])]
    rois, info, batches = _real(args, 0), _real(args, 3), _tensor(args, 2)
    deltas = _real(args, 1).reshape(rois.shape[0], -1, 4)
    _batch_range(batches, info.shape[0])
    _boxes_ordered(rois, "roi")
    half = np.float32(2)
    width = (rois[:, 2] - rois[:, 0])[:, None]
    height = (rois[:, 3] - rois[:, 1])[:, None]
    center_x = rois[:, 0, None] + width / half
    center_y = rois[:, 1, None] + height / half
    with np.errstate(over="ignore", invalid="ignore"):
        center_x = center_x + width * deltas[..., 0]
        center_y = center_y + height * deltas[..., 1]
        width = width * np.exp(deltas[..., 2])
        height = height * np.exp(deltas[..., 3])
        boxes = np.stack(
            (
                center_x - width / half,
                center_y - height / half,
                center_x + width / half,
                center_y + height / half,
            ),
            axis=-1,
        )
    image = info[batches]  # (height, width) of each roi's image
    limits = np.stack((image[:, 1], image[:, 0], image[:, 1], image[:, 0]), axis=-1)[:, None, :]
    boxes = np.minimum(np.maximum(boxes, np.float32(0)), limits)
    return [_output(boxes.reshape(shapes[0]), args)]


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


def _nms_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    nms = _Nms(args)
    rois, classes = divmod(nms.selected, nms.classes)
    boxes = _tensor(args, 1).reshape(-1, nms.classes, 4)
    return [
        _output(nms.scores.reshape(-1)[nms.selected], args, 0),
        boxes[rois, classes].reshape(-1, 4),  # the input's own values and type
        classes.astype(np.int32),
        nms.batches[rois].astype(np.int32),
    ]


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
    return [rois.shape()]


def _axis_samples(
    start: Array, extent: Array, bins: int, given: int, length: int
) -> tuple[Array, Array, Array, Array, Array]:
    """The sample points along one axis (height or width) of every roi's bins.

    Returns (count, valid, low, high, fraction): the samples per bin of each roi
    [rois]; whether sample ``s`` exists for each roi [samples, rois]; and per
    sample, roi and bin [samples, rois, bins] the two cells to interpolate
    between and the weight of the second (0 at the last cell of the axis).
    """
    step = np.maximum(extent, np.float32(1)) / np.float32(bins)
    count = np.full(step.shape, given, np.int64) if given > 0 else np.ceil(step).astype(np.int64)
    size = step / count.astype(np.float32)
    most = int(count.max())
    bin_start = step[:, None] * np.arange(bins, dtype=np.float32) + start[:, None]
    index = np.arange(most, dtype=np.float32)[:, None, None]
    coord = bin_start + size[:, None] / np.float32(2) + size[:, None] * index
    low = np.floor(coord).astype(np.int64)
    fraction = coord - low.astype(np.float32)
    edge = low >= length - 1
    low = np.where(edge, length - 1, low)
    high = np.where(edge, low, low + 1)
    fraction = np.where(edge, np.float32(0), fraction)
    valid = np.arange(most)[:, None] < count[None, :]  # [samples, rois]
    return count, valid, low, high, fraction


def _align_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    rois = _Rois(args, 9)
    if shapes[0][0] == 0:
        return [_empty(args, shapes[0])]
    scaled = rois.scaled(args)
    _, height, width, _ = rois.features.shape
    ys = _axis_samples(
        scaled[:, 1], scaled[:, 3] - scaled[:, 1], rois.out_h, int(args.scalar(7)), height
    )
    xs = _axis_samples(
        scaled[:, 0], scaled[:, 2] - scaled[:, 0], rois.out_w, int(args.scalar(8)), width
    )
    quantized = args.inputs[0].type == Q8A
    if quantized:
        features = rois.features.astype(np.int64) - args.inputs[0].zero_point
    else:
        features = rois.features.astype(np.float32)
    total = _align_sum(features, rois.batches, ys, xs, quantized)
    samples = ys[0] * xs[0]
    if quantized:
        return [rois.result(_align_quant_output(total, samples, args))]
    return [rois.result(_output(total / samples.astype(np.float32)[:, None, None, None], args))]


def _align_sum(features: Array, batches: Array, ys: tuple, xs: tuple, quantized: bool) -> Array:
    """The sum over each bin's sample points of the bilinear interpolation, as
    [rois, out_h, out_w, depth]; quant8 weighs with round(w * 255) in integers."""
    _, y_valid, y_low, y_high, dy = ys
    _, x_valid, x_low, x_high, dx = xs
    batch = batches[:, None, None]
    one = np.float32(1)
    total = None
    for iy in range(y_low.shape[0]):
        for ix in range(x_low.shape[0]):
            valid = (y_valid[iy] & x_valid[ix])[:, None, None, None]
            wy = (one - dy[iy])[:, :, None], dy[iy][:, :, None]
            wx = (one - dx[ix])[:, None, :], dx[ix][:, None, :]
            rows = y_low[iy][:, :, None], y_high[iy][:, :, None]
            cols = x_low[ix][:, None, :], x_high[ix][:, None, :]
            interpolation = 0
            for a in (0, 1):
                for b in (0, 1):
                    weight = wx[b] * wy[a]
                    if quantized:
                        weight = round_half_away_array(weight * np.float32(255)).astype(np.int64)
                    value = features[batch, rows[a], cols[b]]
                    interpolation = interpolation + weight[..., None] * value
            term = np.where(valid, interpolation, 0)
            total = term if total is None else total + term
    return total


def _align_quant_output(total: Array, samples: Array, args: OpArgs) -> Array:
    """zp_out + MBQM(sum, s_in / s_out / 255 / samples), per distinct sample count."""
    source, target = args.inputs[0], args.outputs[0]
    result = np.zeros(total.shape, np.int64)
    for count in np.unique(samples):
        real = float(
            np.float32(source.scale)
            / np.float32(target.scale)
            / np.float32(255)
            / np.float32(count)
        )
        if not real < 1.0:
            raise OpFailure(f"ROI_ALIGN quant8 multiplier {real} is not below 1")
        rows = samples == count
        result[rows] = multiply_by_quantized_multiplier(total[rows], *quantize_multiplier(real))
    return np.clip(result + target.zero_point, 0, 255).astype(np.uint8)


def _pool_validate(args: OpArgs) -> str | None:
    return _problems(args, _scalar_rules(sampling=False))


def _pool_prepare(args: OpArgs) -> Shapes:
    rois = _Rois(args, 7)
    if rois.rois.shape[0] == 0:
        raise OpFailure("ROI_POOLING does not take zero-sized rois (Android 10 reference)")
    source, target = args.inputs[0], args.outputs[0]
    if source.type == Q8A and (target.scale, target.zero_point) != (
        source.scale,
        source.zero_point,
    ):
        raise OpFailure(
            f"output scale/zeroPoint ({target.scale}, {target.zero_point}) must be the "
            f"input's ({source.scale}, {source.zero_point})"
        )
    return [rois.shape()]


def _pool_bins(start: Array, end: Array, bins: int, length: int) -> tuple[Array, Array]:
    """First and one-past-last cell of each bin along one axis, [rois, bins]."""
    start = round_half_away_array(start).astype(np.int64)
    end = round_half_away_array(end).astype(np.int64)
    step = np.maximum(end - start + 1, 1).astype(np.float32) / np.float32(bins)
    index = np.arange(bins + 1, dtype=np.float32)
    edges = step[:, None] * index + start[:, None].astype(np.float32)
    low = np.minimum(np.floor(edges[:, :-1]).astype(np.int64), length)
    high = np.minimum(np.ceil(edges[:, 1:]).astype(np.int64), length)
    return low, high


def _pool_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    rois = _Rois(args, 7)
    scaled = rois.scaled(args)
    _, height, width, _ = rois.features.shape
    row_low, row_high = _pool_bins(scaled[:, 1], scaled[:, 3], rois.out_h, height)
    col_low, col_high = _pool_bins(scaled[:, 0], scaled[:, 2], rois.out_w, width)
    features = rois.features.astype(np.float64)
    best = np.zeros((*shapes[0][:1], rois.out_h, rois.out_w, features.shape[3]))
    seen = np.zeros(best.shape[:3], bool)
    batch = rois.batches[:, None, None]
    for dy in range(int((row_high - row_low).max())):
        for dx in range(int((col_high - col_low).max())):
            rows, cols = row_low + dy, col_low + dx
            inside = (rows < row_high)[:, :, None] & (cols < col_high)[:, None, :]
            rows = np.minimum(rows, height - 1)[:, :, None]
            cols = np.minimum(cols, width - 1)[:, None, :]
            value = features[batch, rows, cols]
            better = inside[..., None] & (~seen[..., None] | (value > best))
            best = np.where(better, value, best)
            seen |= inside
    # An empty bin (clipped at the border) holds the zero point (0 for floats).
    if args.inputs[0].type == Q8A:
        best[~seen] = args.inputs[0].zero_point
    return [rois.result(best.astype(rois.features.dtype))]


# --------------------------------------------------------------------------- costs


def _nms_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """Greedy NMS per class: up to ``limit`` (all rois when negative) Python iterations,
    each over the rois left. Prepare already runs it, so this is asked before."""
    base = default_cost(args, shapes)
    scores = args.values[0]
    if scores is None or scores.ndim != 2:
        return base
    count, classes = scores.shape
    limit = args.values[4]
    rounds = count if limit is None or int(limit.item()) < 0 else min(count, int(limit.item()))
    return Cost(
        work=base.work + max(classes - 1, 0) * rounds * (count + PYTHON_STEP),
        scratch=base.scratch + 16 * count * classes,
    )


def _roi_cost(layout_slot: int, sampled: bool):
    """ROI_ALIGN and ROI_POOLING loop over the sample points (or cells) of the largest
    bin, each round gathering every roi's every bin: rounds from the sampling ratios
    (ROI_ALIGN, when positive) or from the feature map's size over the output's."""

    def cost(args: OpArgs, shapes: Shapes | None) -> Cost:
        base = default_cost(args, shapes)
        try:
            rois = _Rois(args, layout_slot)
        except OpFailure:
            return base
        _, height, width, depth = rois.features.shape
        count = rois.rois.shape[0]
        # A roi inside the map covers at most its height (width) in cells; a bin at most
        # that over the output size, plus a cell of rounding at each end.
        rows = -(-height // rois.out_h) + 2
        cols = -(-width // rois.out_w) + 2
        if sampled:
            given_h, given_w = int(args.scalar(7)), int(args.scalar(8))
            rows = given_h if given_h > 0 else rows
            cols = given_w if given_w > 0 else cols
        cells = count * rois.out_h * rois.out_w * depth
        axis = 48 * count * (rows * rois.out_h + cols * rois.out_w) if sampled else 0
        return Cost(
            work=base.work + rows * cols * (PYTHON_STEP + 16 * cells) + axis,
            scratch=base.scratch + 48 * cells + axis,
        )

    return cost


COSTS = {
    OperationType.BOX_WITH_NMS_LIMIT: _nms_cost,
    OperationType.ROI_ALIGN: _roi_cost(9, sampled=True),
    OperationType.ROI_POOLING: _roi_cost(7, sampled=False),
}

# --------------------------------------------------------------------------- registration

IMPLEMENTATIONS = (
    OperationImpl(
        OperationType.AXIS_ALIGNED_BBOX_TRANSFORM,
        _supports((F32, F16, Q16A)),
        lambda args: None,
        _bbox_prepare,
        _bbox_execute,
    ),
    OperationImpl(
        OperationType.BOX_WITH_NMS_LIMIT,
        _supports(_FLOAT_Q8),
        _nms_validate,
        _nms_prepare,
        _nms_execute,
    ),
    OperationImpl(
        OperationType.ROI_ALIGN,
        _supports(_FLOAT_Q8),
        _align_validate,
        _align_prepare,
        _align_execute,
    ),
    OperationImpl(
        OperationType.ROI_POOLING,
        _supports(_FLOAT_Q8),
        _pool_validate,
        _pool_prepare,
        _pool_execute,
    ),
)
