"""The checks of the pooling, resizing and normalisation operations: AVERAGE_POOL_2D,
MAX_POOL_2D, L2_POOL_2D, RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, SOFTMAX,
LOG_SOFTMAX, L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION and
INSTANCE_NORMALIZATION.

Windows must be positive, strides too, explicit paddings non-negative and below
the filter's extent; resize targets positive, and a resize's align_corners and
half_pixel_centers (HAL 1.3) not both true; axes within the rank; and the fixed
quant8 output parameters of the Android 10 CPU reference hold (else the execution
fails: ``OpFailure``). ``reference_driver/ops/pooling.py`` computes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.checks.base import (
    OpArgs,
    OperationCheck,
    OpFailure,
    OpInvalid,
)
from hal.checks.common import (
    activation_code,
    check_rank,
    normalize_axis,
    valid_activation,
)
from hal.types import OperandType, OperationType

Shapes = list[tuple[int, ...]]

_ANY_RANK = 1 << 16


def _tensor(args: OpArgs, slot: int = 0) -> np.ndarray:
    value = args.values[slot]
    if value is None:
        raise OpFailure(f"input {slot} has no value")
    return value


def _optional_bool(args: OpArgs, slot: int) -> bool:
    """An optional trailing BOOL (the layout): False when the operation does not have it."""
    return slot < len(args.inputs) and bool(args.scalar(slot))


def _optional_axis(args: OpArgs, slot: int, rank: int) -> int:
    """An optional trailing INT32 axis (default -1), normalised; OpInvalid when out of range."""
    axis = int(args.scalar(slot)) if slot < len(args.inputs) else -1
    return normalize_axis(axis, rank)


def _known_axis_problem(args: OpArgs, slot: int) -> str | None:
    """For ``validate``: a constant axis outside the input's known rank."""
    rank = len(args.inputs[0].dimensions)
    if slot >= len(args.inputs) or args.values[slot] is None or rank == 0:
        return None
    axis = int(args.values[slot].item())
    return None if -rank <= axis < rank else f"axis {axis} is outside [-{rank}, {rank})"


def _to_nhwc(values: np.ndarray, nchw: bool) -> np.ndarray:
    return values.transpose(0, 2, 3, 1) if nchw else values


def _image(args: OpArgs, nchw: bool) -> np.ndarray:
    """Input 0 as NHWC; OpInvalid unless rank 4, OpFailure on an empty height, width or depth."""
    values = _tensor(args)
    check_rank(values, 4, 4)
    image = _to_nhwc(values, nchw)
    if 0 in image.shape[1:]:
        raise OpFailure(f"input 0 of shape {values.shape}: only the batch may be 0")
    return image


def _same_shape(args: OpArgs, high_rank: int, axis_slot: int | None) -> Shapes:
    """The output shape of an operation whose output is shaped like input 0 (rank 1 or more)."""
    values = _tensor(args)
    check_rank(values, 1, high_rank)
    if axis_slot is not None:
        _optional_axis(args, axis_slot, values.ndim)
    return [values.shape]


# --------------------------------------------------------------------------- pooling


@dataclass(frozen=True)
class _Window:
    """A pooling window along one spatial axis."""

    head: int
    tail: int
    stride: int
    size: int

    def count(self, length: int) -> int:
        """Windows along an axis of ``length`` cells (< 1 when the filter does not fit)."""
        return (length + self.head + self.tail - self.size) // self.stride + 1

    def cells(self, length: int) -> np.ndarray:
        """In-image cells of each window."""
        start = np.arange(self.count(length)) * self.stride - self.head
        return np.minimum(start + self.size, length) - np.maximum(start, 0)


@dataclass(frozen=True)
class _Pool:
    rows: _Window
    cols: _Window
    activation: int
    nchw: bool


# Scalar slots of the two signatures: explicit (10/11 inputs), implicit (7/8 inputs).
_EXPLICIT_SLOTS = {
    "pad_left": 1,
    "pad_right": 2,
    "pad_top": 3,
    "pad_bottom": 4,
    "stride_w": 5,
    "stride_h": 6,
    "filter_w": 7,
    "filter_h": 8,
}

_IMPLICIT_SLOTS = {"stride_w": 2, "stride_h": 3, "filter_w": 4, "filter_h": 5}

_PAD_FILTER = (
    ("pad_left", "filter_w"),
    ("pad_right", "filter_w"),
    ("pad_top", "filter_h"),
    ("pad_bottom", "filter_h"),
)


def _explicit(args: OpArgs) -> bool:
    return len(args.inputs) >= 10


def _pool_scalars(args: OpArgs) -> dict[str, int]:
    """The pooling scalars whose values are known."""
    slots = _EXPLICIT_SLOTS if _explicit(args) else _IMPLICIT_SLOTS
    return {
        name: int(args.values[slot].item())
        for name, slot in slots.items()
        if args.values[slot] is not None
    }


def _pool_scalar_problem(known: dict[str, int]) -> str | None:
    for name, value in known.items():
        if name.startswith("pad") and value < 0:
            return f"{name} {value} is negative"
        if not name.startswith("pad") and value <= 0:
            return f"{name} {value} must be positive"
    for pad, size in _PAD_FILTER:
        if pad in known and size in known and known[pad] >= known[size]:
            return f"{pad} {known[pad]} is not smaller than {size} {known[size]}"
    return None


def _same_padding(length: int, stride: int, size: int) -> tuple[int, int]:
    """SAME: ceil(length / stride) windows; the odd cell of padding goes to the tail."""
    count = -(-length // stride)
    total = max(0, (count - 1) * stride + size - length)
    return total // 2, total - total // 2


def _pool_windows(args: OpArgs, known: dict[str, int], height: int, width: int) -> _Pool:
    explicit = _explicit(args)
    strides, sizes = (known["stride_h"], known["stride_w"]), (known["filter_h"], known["filter_w"])
    if explicit:
        pads = ((known["pad_top"], known["pad_bottom"]), (known["pad_left"], known["pad_right"]))
    elif int(args.scalar(1)) == 1:  # SAME; the reference pads nothing for any other code
        pads = (
            _same_padding(height, strides[0], sizes[0]),
            _same_padding(width, strides[1], sizes[1]),
        )
    else:
        pads = ((0, 0), (0, 0))
    rows = _Window(*pads[0], strides[0], sizes[0])
    cols = _Window(*pads[1], strides[1], sizes[1])
    layout = _layout_slot(args)
    return _Pool(rows, cols, activation_code(args, layout - 1), _optional_bool(args, layout))


def _layout_slot(args: OpArgs) -> int:
    return 10 if _explicit(args) else 7


def _pool_validate(args: OpArgs) -> str | None:
    known = _pool_scalars(args)
    problem = _pool_scalar_problem(known) or valid_activation(args, _layout_slot(args) - 1)
    return problem or _known_pool_output_problem(args, known)


def _known_pool_output_problem(args: OpArgs, known: dict[str, int]) -> str | None:
    """An empty output already decided by the constants and the model's input dimensions."""
    dims = args.inputs[0].dimensions
    if len(dims) != 4 or any(value is None for value in args.values[1:]):
        return None
    height, width = (dims[2], dims[3]) if _optional_bool(args, _layout_slot(args)) else dims[1:3]
    if not (height and width):
        return None
    try:
        _pool_output_size(_pool_windows(args, known, height, width), height, width)
    except OpInvalid as error:
        return str(error)
    return None


def _pool_output_size(pool: _Pool, height: int, width: int) -> tuple[int, int]:
    out = (pool.rows.count(height), pool.cols.count(width))
    if min(out) < 1:
        raise OpInvalid(f"a {height}x{width} image gives an output of {out[0]}x{out[1]}")
    return out


def _pool_setup(args: OpArgs) -> tuple[np.ndarray, _Pool]:
    known = _pool_scalars(args)
    problem = _pool_scalar_problem(known)
    if problem is not None:
        raise OpInvalid(problem)
    image = _image(args, _optional_bool(args, _layout_slot(args)))
    return image, _pool_windows(args, known, image.shape[1], image.shape[2])


def _pool_prepare(args: OpArgs) -> Shapes:
    image, pool = _pool_setup(args)
    height, width = _pool_output_size(pool, image.shape[1], image.shape[2])
    shape = (image.shape[0], height, width, image.shape[3])
    return [(shape[0], shape[3], height, width) if pool.nchw else shape]


# --------------------------------------------------------------------------- resizing


def _resize_layout(args: OpArgs) -> bool:
    return _optional_bool(args, 3)


def _resize_size(args: OpArgs, height: int, width: int) -> tuple[int, int]:
    """(new height, new width): INT32 sizes, or floor(size * scale) in float32."""
    if args.inputs[1].type == OperandType.INT32:
        new_w, new_h = int(args.scalar(1)), int(args.scalar(2))
    else:
        scales = (np.float32(args.scalar(1)), np.float32(args.scalar(2)))
        with np.errstate(over="ignore"):
            sizes = (np.float32(width) * scales[0], np.float32(height) * scales[1])
        if not all(np.isfinite(scales)) or not all(np.isfinite(sizes)):
            raise OpInvalid(
                f"width and height scales {tuple(float(x) for x in scales)} on {height}x{width} "
                "must give finite sizes"
            )
        new_w, new_h = int(sizes[0]), int(sizes[1])
    if new_h <= 0 or new_w <= 0:
        raise OpInvalid(f"resizing {height}x{width} gives {new_h}x{new_w}; both must be > 0")
    return new_h, new_w


_ALIGN_CORNERS, _HALF_PIXEL = 4, 5

"""The optional BOOL inputs of HAL 1.3 (both resizes): align_corners, half_pixel_centers."""


@dataclass(frozen=True)
class _Sampling:
    """How a resize maps output cells to source coordinates (HAL 1.3's two flags; both
    false, the 1.0-1.2 behaviour)."""

    align_corners: bool = False
    half_pixel_centers: bool = False


_FLAGS_BOTH_TRUE = "align_corners (input 4) and half_pixel_centers (input 5) are both true"


def _resize_flags_reason(args: OpArgs) -> str | None:
    """Why the flags known so far are invalid (both true), or None."""
    if len(args.inputs) <= _HALF_PIXEL:
        return None
    values = args.values[_ALIGN_CORNERS], args.values[_HALF_PIXEL]
    if all(value is not None and bool(value.item()) for value in values):
        return _FLAGS_BOTH_TRUE
    return None


def _resize_sampling(args: OpArgs) -> _Sampling:
    """The flags of an execution (absent ones false); OpInvalid when both are true."""
    reason = _resize_flags_reason(args)
    if reason:
        raise OpInvalid(reason)
    return _Sampling(_optional_bool(args, _ALIGN_CORNERS), _optional_bool(args, _HALF_PIXEL))


def _resize_validate(args: OpArgs) -> str | None:
    reason = _resize_flags_reason(args)
    if reason:
        return reason
    if args.values[1] is None or args.values[2] is None:
        return None
    if args.inputs[1].type == OperandType.INT32:
        sizes = (int(args.scalar(1)), int(args.scalar(2)))
        return None if min(sizes) > 0 else f"output width and height {sizes} must be positive"
    scales = (float(args.scalar(1)), float(args.scalar(2)))
    if not all(math.isfinite(x) and x > 0 for x in scales):
        return f"width and height scales {scales} must be positive and finite"
    dims = args.inputs[0].dimensions
    if len(dims) != 4 or (len(args.inputs) > 3 and args.values[3] is None):
        return None
    height, width = (dims[2], dims[3]) if _resize_layout(args) else dims[1:3]
    if not (height and width):
        return None
    try:
        _resize_size(args, height, width)
    except OpInvalid as error:
        return str(error)
    return None


def _resize_prepare(args: OpArgs) -> Shapes:
    _resize_sampling(args)
    nchw = _resize_layout(args)
    image = _image(args, nchw)
    new_h, new_w = _resize_size(args, image.shape[1], image.shape[2])
    batch, depth = image.shape[0], image.shape[3]
    return [(batch, depth, new_h, new_w) if nchw else (batch, new_h, new_w, depth)]


# --------------------------------------------------------------------------- softmax


def _beta(args: OpArgs) -> float:
    return float(args.scalar(1))


def _softmax_validate(args: OpArgs) -> str | None:
    if args.values[1] is not None and not _beta(args) > 0:
        return f"beta {_beta(args)} must be positive"
    return _known_axis_problem(args, 2)


def _softmax_prepare(args: OpArgs) -> Shapes:
    if not _beta(args) > 0:
        raise OpInvalid(f"beta {_beta(args)} must be positive")
    return _same_shape(args, 4, 2)


def _log_softmax_prepare(args: OpArgs) -> Shapes:
    return _same_shape(args, _ANY_RANK, 2)


# --------------------------------------------------------------------------- normalisation


def _l2_norm_prepare(args: OpArgs) -> Shapes:
    return _same_shape(args, 4, 1)


def _lrn_validate(args: OpArgs) -> str | None:
    if args.values[1] is not None and int(args.values[1].item()) < 0:
        return f"radius {int(args.values[1].item())} is negative"
    return _known_axis_problem(args, 5)


def _lrn_prepare(args: OpArgs) -> Shapes:
    if int(args.scalar(1)) < 0:
        raise OpInvalid(f"radius {int(args.scalar(1))} is negative")
    return _same_shape(args, 4, 5)


def _instance_norm_prepare(args: OpArgs) -> Shapes:
    check_rank(_tensor(args), 4, 4)
    return [_tensor(args).shape]


def _no_validate(args: OpArgs) -> str | None:
    return None


def _axis_validate(slot: int) -> Callable[[OpArgs], str | None]:
    def validate(args: OpArgs) -> str | None:
        return _known_axis_problem(args, slot)

    return validate


CHECKS = (
    OperationCheck(OperationType.AVERAGE_POOL_2D, _pool_validate, _pool_prepare),
    OperationCheck(OperationType.MAX_POOL_2D, _pool_validate, _pool_prepare),
    OperationCheck(OperationType.L2_POOL_2D, _pool_validate, _pool_prepare),
    OperationCheck(OperationType.RESIZE_BILINEAR, _resize_validate, _resize_prepare),
    OperationCheck(OperationType.RESIZE_NEAREST_NEIGHBOR, _resize_validate, _resize_prepare),
    OperationCheck(OperationType.SOFTMAX, _softmax_validate, _softmax_prepare),
    OperationCheck(OperationType.LOG_SOFTMAX, _axis_validate(2), _log_softmax_prepare),
    OperationCheck(OperationType.L2_NORMALIZATION, _axis_validate(1), _l2_norm_prepare),
    OperationCheck(OperationType.LOCAL_RESPONSE_NORMALIZATION, _lrn_validate, _lrn_prepare),
    OperationCheck(OperationType.INSTANCE_NORMALIZATION, _no_validate, _instance_norm_prepare),
)
