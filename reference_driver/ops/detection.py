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

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.detection``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hal.checks.boxes import real_input as _real
from hal.checks.boxes import tensor_input as _tensor
from hal.checks.detection import (
    Q8A,
    Array,
    Shapes,
    _Nms,
    _Rois,
)
from hal.types import OperandType, OperationType
from reference_driver.ops.base import (
    PYTHON_STEP,
    Cost,
    OpArgs,
    OpFailure,
    checked,
    default_cost,
)
from reference_driver.ops.common import quantize
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    round_half_away_array,
)

F32 = OperandType.TENSOR_FLOAT32

F16 = OperandType.TENSOR_FLOAT16

Q16A = OperandType.TENSOR_QUANT16_ASYMM

_QUANT = (Q8A, Q16A)

_FLOAT_Q8 = (F32, F16, Q8A)


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


def _supports(types: tuple[int, ...]) -> Callable[[OpArgs], bool]:
    def supports(args: OpArgs) -> bool:
        return args.inputs[0].type in types

    return supports


def _bbox_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    if shapes[0][0] == 0:
        return [_empty(args, shapes[0])]
    rois, info, batches = _real(args, 0), _real(args, 3), _tensor(args, 2)
    deltas = _real(args, 1).reshape(rois.shape[0], -1, 4)
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
    checked(
        OperationType.AXIS_ALIGNED_BBOX_TRANSFORM,
        _supports((F32, F16, Q16A)),
        _bbox_execute,
        via_unsigned=True,
    ),
    checked(
        OperationType.BOX_WITH_NMS_LIMIT, _supports(_FLOAT_Q8), _nms_execute, via_unsigned=True
    ),
    checked(OperationType.ROI_ALIGN, _supports(_FLOAT_Q8), _align_execute, via_unsigned=True),
    checked(OperationType.ROI_POOLING, _supports(_FLOAT_Q8), _pool_execute, via_unsigned=True),
)
