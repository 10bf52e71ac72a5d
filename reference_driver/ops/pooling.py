"""Pooling, resizing and normalisation operations, as the Android 10 CPU reference computes them.

AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D, RESIZE_BILINEAR,
RESIZE_NEAREST_NEIGHBOR, SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION,
LOCAL_RESPONSE_NORMALIZATION and INSTANCE_NORMALIZATION (each in its section of
docs/operations.md). Conventions:

* Image operations compute on NHWC; an NCHW tensor (layout input true) is
  transposed in and back out, as the reference does.
* Float16 is widened to float32 and rounded back, except in LOG_SOFTMAX,
  whose reference keeps its sums in the tensor's own type.
* Pooling reduces strided views of the padded input (``sliding_window_view``);
  cells of the padding never count (average and L2 divide by the number of
  in-image cells, max never sees them).
* Quantized pools and resizes work on the raw integers as the reference does
  (average: ``(sum + count / 2) / count``; bilinear: interpolated in float and
  truncated). SOFTMAX (output 1/256, 0) and L2_NORMALIZATION (output 1/128,
  128) compute the real result and round it half away from zero, which stays
  within 1 of the reference's fixed-point approximations of the same values.
* INSTANCE_NORMALIZATION divides by ``sqrt(variance + epsilon)`` as the HAL
  text and Android 11 do (Android 10 divided by ``sqrt(mean(x^2) + epsilon)``).
* Float L2_NORMALIZATION divides by ``max(norm, 1e-6)`` as Android 11 does, so
  an all-zero vector gives zeros (Android 10 divided by the norm: 0 / 0 = NaN).
* Batches of 0 pass through the pools, the resizes and SOFTMAX (an empty
  output, no arithmetic); every other zero-sized input fails the execution.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.pooling``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from hal.checks.pooling import (
    Shapes,
    _beta,
    _image,
    _optional_axis,
    _Pool,
    _pool_scalar_problem,
    _pool_scalars,
    _pool_setup,
    _resize_layout,
    _resize_size,
    _tensor,
    _to_nhwc,
)
from hal.types import OperandType, OperationType
from reference_driver.ops.base import (
    Cost,
    OpArgs,
    OpFailure,
    checked,
    default_cost,
    elements,
)
from reference_driver.ops.common import (
    apply_float_activation,
    clamp_quant8,
    to_float_type,
)
from reference_driver.quant import round_half_away_array

F32 = OperandType.TENSOR_FLOAT32

F16 = OperandType.TENSOR_FLOAT16

Q8A = OperandType.TENSOR_QUANT8_ASYMM

_FLOAT = (F32, F16)

_FLOAT_Q8 = (F32, F16, Q8A)


# --------------------------------------------------------------------------- shared


def _supports(types: tuple[int, ...]) -> Callable[[OpArgs], bool]:
    def supports(args: OpArgs) -> bool:
        return args.inputs[0].type in types

    return supports


def _forced_quant(args: OpArgs, scale: float | None, zero_point: int | None) -> None:
    """A quantized output must carry the parameters the operation fixes (input's when None).

    The reference fails the execution otherwise (hal.validation refuses such
    models first, unless a driver disables its strict rules). Fixed scales
    match within the catalog's relative 1e-6; the input's must match exactly.
    """
    output = args.outputs[0]
    if output.type != Q8A:
        return
    if scale is None:
        scale, zero_point = args.inputs[0].scale, args.inputs[0].zero_point
    if output.zero_point != zero_point or not math.isclose(output.scale, scale, rel_tol=1e-6):
        raise OpFailure(
            f"output scale/zeroPoint ({output.scale}, {output.zero_point}) must be "
            f"({scale}, {zero_point})"
        )


def _no_zero_size(values: np.ndarray) -> None:
    if values.size == 0:
        raise OpFailure(
            f"input 0 of shape {values.shape} is zero-sized, which the operation rejects"
        )


def _from_nhwc(values: np.ndarray, nchw: bool) -> np.ndarray:
    return values.transpose(0, 3, 1, 2) if nchw else values


def _float_out(result: np.ndarray, args: OpArgs) -> np.ndarray:
    return to_float_type(result, np.dtype(np.float16 if args.inputs[0].type == F16 else np.float32))


def _windows(image: np.ndarray, pool: _Pool, fill: float | int) -> np.ndarray:
    """[N, outH, outW, C, filterH, filterW]: a view of each window of the padded NHWC image."""
    rows, cols = pool.rows, pool.cols
    padded = image
    if rows.head or rows.tail or cols.head or cols.tail:  # np.pad copies even with no pads
        padded = np.pad(
            image,
            ((0, 0), (rows.head, rows.tail), (cols.head, cols.tail), (0, 0)),
            constant_values=fill,
        )
    view = sliding_window_view(padded, (rows.size, cols.size), axis=(1, 2))
    return view[:, :: rows.stride, :: cols.stride]


def _cells(image: np.ndarray, pool: _Pool) -> np.ndarray:
    """[outH, outW, 1]: the in-image cells of each window."""
    rows, cols = pool.rows.cells(image.shape[1]), pool.cols.cells(image.shape[2])
    return (rows[:, None] * cols[None, :])[..., None]


def _average(image: np.ndarray, pool: _Pool, quantized: bool) -> np.ndarray:
    cells = _cells(image, pool)
    if quantized:
        sums = _windows(image.astype(np.int32), pool, 0).sum(axis=(-2, -1))
        return (sums + cells // 2) // cells
    sums = _windows(image.astype(np.float32), pool, 0.0).sum(axis=(-2, -1), dtype=np.float32)
    return sums / cells.astype(np.float32)


def _maximum(image: np.ndarray, pool: _Pool, quantized: bool) -> np.ndarray:
    # Every window holds an in-image cell (each pad is smaller than the filter), so a
    # fill no real value is below never wins: -inf, or 0 for unsigned integers.
    if quantized:
        return _windows(image, pool, 0).max(axis=(-2, -1))
    return _windows(image.astype(np.float32), pool, -np.inf).max(axis=(-2, -1))


def _l2(image: np.ndarray, pool: _Pool, quantized: bool) -> np.ndarray:
    values = image.astype(np.float32)
    sums = _windows(values * values, pool, 0.0).sum(axis=(-2, -1), dtype=np.float32)
    return np.sqrt(sums / _cells(image, pool).astype(np.float32))


def _pool_execute(reduce: Callable[[np.ndarray, _Pool, bool], np.ndarray]):
    def execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
        image, pool = _pool_setup(args)
        if args.inputs[0].type == Q8A:
            _forced_quant(args, None, None)
        if image.shape[0] == 0:
            return [np.zeros(shapes[0], dtype=image.dtype)]
        result = reduce(image, pool, args.inputs[0].type == Q8A)
        if args.inputs[0].type == Q8A:
            result = clamp_quant8(result, pool.activation, args.outputs[0])
        else:
            result = _float_out(apply_float_activation(result, pool.activation), args)
        return [_from_nhwc(result, pool.nchw)]

    return execute


def _source(length: int, new: int) -> np.ndarray:
    """Source coordinate of each output cell: index * (length / new), in float32."""
    return np.arange(new, dtype=np.float32) * (np.float32(length) / np.float32(new))


def _nearest(image: np.ndarray, new_h: int, new_w: int) -> np.ndarray:
    def index(length: int, new: int) -> np.ndarray:
        return np.minimum(np.floor(_source(length, new)).astype(np.intp), length - 1)

    return image[:, index(image.shape[1], new_h)][:, :, index(image.shape[2], new_w)]


def _bilinear(image: np.ndarray, new_h: int, new_w: int) -> np.ndarray:
    """Float32 interpolation between the 4 neighbours (no corner alignment, no half pixel)."""

    def axis(length: int, new: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        source = _source(length, new)
        low = np.minimum(np.floor(source).astype(np.intp), length - 1)
        return low, np.minimum(low + 1, length - 1), source - low.astype(np.float32)

    y0, y1, dy = axis(image.shape[1], new_h)
    x0, x1, dx = axis(image.shape[2], new_w)
    dy, dx = dy[None, :, None, None], dx[None, None, :, None]
    values = image.astype(np.float32)
    top, bottom = values[:, y0], values[:, y1]
    one = np.float32(1)
    return (
        top[:, :, x0] * (one - dy) * (one - dx)
        + bottom[:, :, x0] * dy * (one - dx)
        + top[:, :, x1] * (one - dy) * dx
        + bottom[:, :, x1] * dy * dx
    )


def _resize_execute(bilinear: bool):
    def execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
        nchw = _resize_layout(args)
        image = _image(args, nchw)
        _forced_quant(args, None, None)
        new_h, new_w = _resize_size(args, image.shape[1], image.shape[2])
        if image.shape[0] == 0:
            return [np.zeros(shapes[0], dtype=image.dtype)]
        if not bilinear:
            return [_from_nhwc(_nearest(image, new_h, new_w), nchw)]
        result = _bilinear(image, new_h, new_w)
        if args.inputs[0].type == Q8A:  # the Android 10 kernel truncates
            result = np.clip(np.trunc(result), 0, 255).astype(np.uint8)
        else:
            result = _float_out(result, args)
        return [_from_nhwc(result, nchw)]

    return execute


def _softmax_execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    values = _tensor(args)
    axis = _optional_axis(args, 2, values.ndim)
    beta = _beta(args)
    if args.inputs[0].type == Q8A:
        _forced_quant(args, 1.0 / 256, 0)
        if values.size == 0:
            return [np.zeros(values.shape, np.uint8)]
        # Real softmax of beta * scale * (q - max q): the reference's fixed point
        # approximates the same value, rounded half away from zero to 1/256.
        diffs = values.astype(np.int32) - values.max(axis=axis, keepdims=True)
        exps = np.exp(diffs * (beta * args.inputs[0].scale))
        probabilities = exps / exps.sum(axis=axis, keepdims=True)
        return [np.clip(round_half_away_array(256.0 * probabilities), 0, 255).astype(np.uint8)]
    if values.size == 0:
        return [np.zeros(values.shape, values.dtype)]
    wide = values.astype(np.float32)
    exps = np.exp((wide - wide.max(axis=axis, keepdims=True)) * np.float32(beta))
    return [_float_out(exps / exps.sum(axis=axis, keepdims=True, dtype=np.float32), args)]


def _log_softmax_execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    """beta * (x - max) - log(sum(exp(beta * (x - max)))), in the tensor's own type.

    exp and log are taken in double; the sum is accumulated in order in the
    tensor's type (so float16 sums in half precision), as the reference does.
    """
    values = _tensor(args)
    _no_zero_size(values)
    axis = _optional_axis(args, 2, values.ndim)
    dtype = values.dtype
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = (values - values.max(axis=axis, keepdims=True)) * dtype.type(_beta(args))
        exps = np.exp(scaled.astype(np.float64)).astype(dtype)
        sums = np.add.accumulate(exps, axis=axis, dtype=dtype).take([-1], axis=axis)
        return [scaled - np.log(sums.astype(np.float64)).astype(dtype)]


def _l2_norm_execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    values = _tensor(args)
    _no_zero_size(values)
    axis = _optional_axis(args, 1, values.ndim)
    if args.inputs[0].type == Q8A:
        _forced_quant(args, 1.0 / 128, 128)
        diffs = values.astype(np.float64) - args.inputs[0].zero_point
        norms = np.sqrt((diffs * diffs).sum(axis=axis, keepdims=True))
        # An all-zero vector: the reference's inverse square root of 0 is its
        # largest multiplier, which leaves every 0 difference at 0.
        scaled = np.divide(128.0 * diffs, norms, out=np.zeros_like(diffs), where=norms > 0)
        return [np.clip(128 + round_half_away_array(scaled), 0, 255).astype(np.uint8)]
    wide = values.astype(np.float32)
    norms = np.sqrt((wide * wide).sum(axis=axis, keepdims=True, dtype=np.float32))
    # Android 11's floor (every HAL version): an all-zero vector gives 0, not 0 / 0
    norms = np.maximum(norms, np.float32(_L2_NORM_FLOOR))
    with np.errstate(over="ignore"):
        return [_float_out(wide / norms, args)]


_L2_NORM_FLOOR = 1e-6

"""Float L2_NORMALIZATION divides by max(sqrt(sum of squares), 1e-6), as Android 11 does."""


def _lrn_execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    """x[d] * (bias + alpha * sum of x[k]^2 for |k - d| <= radius) ^ -beta along the axis."""
    values = _tensor(args)
    _no_zero_size(values)
    axis = _optional_axis(args, 5, values.ndim)
    radius = int(args.scalar(1))
    bias, alpha, beta = (np.float32(args.scalar(slot)) for slot in (2, 3, 4))
    wide = np.moveaxis(values.astype(np.float32), axis, -1)
    depth = wide.shape[-1]
    running = np.cumsum(wide.astype(np.float64) ** 2, axis=-1)
    running = np.concatenate([np.zeros((*wide.shape[:-1], 1)), running], axis=-1)
    index = np.arange(depth)
    window = (
        running[..., np.minimum(index + radius + 1, depth)]
        - running[..., np.maximum(index - radius, 0)]
    )
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        result = wide * (bias + alpha * window.astype(np.float32)) ** -beta
    return [_float_out(np.moveaxis(result, -1, axis), args)]


def _instance_norm_execute(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    """(x - mean) * gamma / sqrt(variance + epsilon) + beta per batch and channel.

    The variance is the mean of (x - mean)^2 over H x W, as in the HAL text and
    Android 11 (Android 10 used mean(x^2): docs/operations.md,
    INSTANCE_NORMALIZATION (57)).
    """
    nchw = bool(args.scalar(4))
    image = _to_nhwc(_tensor(args), nchw)
    _no_zero_size(image)
    gamma, beta, epsilon = (np.float32(args.scalar(slot)) for slot in (1, 2, 3))
    wide = image.astype(np.float32)
    mean = wide.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    centred = wide - mean
    variance = (centred * centred).mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        result = centred * gamma / np.sqrt(variance + epsilon) + beta
    return [_from_nhwc(_float_out(result, args), nchw)]


IMPLEMENTATIONS = (
    checked(
        OperationType.AVERAGE_POOL_2D,
        _supports(_FLOAT_Q8),
        _pool_execute(_average),
        via_unsigned=True,
    ),
    checked(
        OperationType.MAX_POOL_2D, _supports(_FLOAT_Q8), _pool_execute(_maximum), via_unsigned=True
    ),
    checked(OperationType.L2_POOL_2D, _supports(_FLOAT), _pool_execute(_l2)),
    checked(
        OperationType.RESIZE_BILINEAR,
        _supports(_FLOAT_Q8),
        _resize_execute(bilinear=True),
        via_unsigned=True,
    ),
    checked(
        OperationType.RESIZE_NEAREST_NEIGHBOR,
        _supports(_FLOAT_Q8),
        _resize_execute(bilinear=False),
        via_unsigned=True,
    ),
    checked(OperationType.SOFTMAX, _supports(_FLOAT_Q8), _softmax_execute, via_unsigned=True),
    checked(OperationType.LOG_SOFTMAX, _supports(_FLOAT), _log_softmax_execute),
    checked(
        OperationType.L2_NORMALIZATION, _supports(_FLOAT_Q8), _l2_norm_execute, via_unsigned=True
    ),
    checked(OperationType.LOCAL_RESPONSE_NORMALIZATION, _supports(_FLOAT), _lrn_execute),
    checked(OperationType.INSTANCE_NORMALIZATION, _supports(_FLOAT), _instance_norm_execute),
)


# --------------------------------------------------------------------------- costs


def _pool_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """Every output cell reduces a filter_h x filter_w window of a padded copy of the image
    (widened to 32 bits, with a float64-sized margin for the reduction's temporaries)."""
    base = default_cost(args, shapes)
    values = args.values[0]
    if values is None or values.ndim != 4 or _pool_scalar_problem(_pool_scalars(args)):
        return base
    try:
        image, pool = _pool_setup(args)
    except OpFailure:
        return base
    n, height, width, depth = image.shape
    rows, cols = pool.rows, pool.cols
    padded = n * (height + rows.head + rows.tail) * (width + cols.head + cols.tail) * depth
    windows = max(rows.count(height), 0) * max(cols.count(width), 0) * n * depth
    return Cost(
        work=base.work + windows * rows.size * cols.size,
        scratch=base.scratch + 8 * padded,
    )


def _resize_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """Proportional to the output (index arrays and float32 copies per output cell)."""
    base = default_cost(args, shapes)
    if shapes is None:
        return base
    out = elements(shapes[0])
    return Cost(work=base.work + 8 * out, scratch=base.scratch + 16 * out)


COSTS = {
    OperationType.AVERAGE_POOL_2D: _pool_cost,
    OperationType.MAX_POOL_2D: _pool_cost,
    OperationType.L2_POOL_2D: _pool_cost,
    OperationType.RESIZE_BILINEAR: _resize_cost,
    OperationType.RESIZE_NEAREST_NEIGHBOR: _resize_cost,
}
