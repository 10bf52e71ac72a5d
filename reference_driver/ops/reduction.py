"""Reductions: MEAN, REDUCE_*, ARGMAX/ARGMIN and TOPK_V2.

The arithmetic follows the Android 10 CPU reference (docs/operations.md, MEAN (31),
ARGMAX (39), ARGMIN (40), REDUCE_ALL (75) to REDUCE_SUM (80) and TOPK_V2 (90)):

* MEAN (keep_dims an INT32, kept when > 0) sums in float32 and divides;
  float16 is widened to float32 and rounded back; quant8 sums the raw bytes
  in integers and divides by the element count truncating, so the zero point
  passes through unchanged (the output carries the input's quantization).
* REDUCE_SUM and REDUCE_PROD (keep_dims a BOOL) accumulate element by element
  in the tensor's own type, float16 included. Float16 REDUCE_PROD takes
  0 x anything as 0 (so 0 x inf is 0, not NaN), as Android 11 does. REDUCE_MAX and REDUCE_MIN start
  from the type's lowest (highest) finite value, so NaNs never win; quant8
  compares raw bytes. REDUCE_ALL and REDUCE_ANY treat any nonzero byte as true
  and write canonical 0/1.
* Axes lists may repeat an axis and use negative axes; an axis outside
  [-rank, rank) is INVALID_ARGUMENT. Reducing every axis without keep_dims:
  REDUCE_* give shape [1], as Android 11 does (Android 10 gave rank 0);
  MEAN's rank-0 result fits an output declared as all ones.
* ARGMAX/ARGMIN: ties go to the lowest index. TOPK_V2: the k largest of each
  last-axis row in descending order, ties to the larger index first (the
  reference sorts (value, index) pairs ascending, then reverses them).

None of these operations accepts a zero-sized input: the execution fails.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.reduction``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from hal.checks.reduction import (
    Shape,
    _arg_axis,
    _input,
    _resolved_axes,
    _topk_k,
)
from hal.types import OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, checked

_F32 = OperandType.TENSOR_FLOAT32

_F16 = OperandType.TENSOR_FLOAT16

_Q8A = OperandType.TENSOR_QUANT8_ASYMM

_I32T = OperandType.TENSOR_INT32

_B8 = OperandType.TENSOR_BOOL8

Reducer = Callable[[OpArgs, np.ndarray, tuple[int, ...]], np.ndarray]

"""(args, input, distinct axes) -> one value per kept element."""


def _rows(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """``x`` as [kept elements, reduced elements], the reduced ones in row-major order
    (the order in which the reference visits them)."""
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, kept + list(axes))
    count = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
    return moved.reshape(-1, count)


def _sequential(ufunc: np.ufunc, x: np.ndarray, axes: tuple[int, ...], dtype) -> np.ndarray:
    """``ufunc`` folded left to right over the reduced elements, rounding to ``dtype``
    at each step as the reference's loop does. Returns one value per kept element."""
    return ufunc.accumulate(_rows(x, axes).astype(dtype), axis=1, dtype=dtype)[:, -1]


def _mean(args: OpArgs, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    if args.inputs[0].type == _Q8A:
        rows = _rows(x, axes).astype(np.int64)
        # Non-negative sums: floor division is C's truncation.
        return (rows.sum(axis=1) // rows.shape[1]).astype(np.uint8)
    count = np.float32(np.prod([x.shape[i] for i in axes]))
    with np.errstate(over="ignore", invalid="ignore"):
        return (_sequential(np.add, x, axes, np.float32) / count).astype(x.dtype)


def _accumulate(ufunc: np.ufunc) -> Reducer:
    def reduce(args: OpArgs, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return _sequential(ufunc, x, axes, x.dtype)

    return reduce


def _product(args: OpArgs, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """REDUCE_PROD's fold; float16 takes a factor of 0 on either side as a product of 0
    (Android 11, every HAL version: the running product stays 0 after a 0, even times
    inf or NaN), where plain arithmetic gives NaN for 0 x inf."""
    with np.errstate(over="ignore", invalid="ignore"):
        product = _sequential(np.multiply, x, axes, x.dtype)
    if x.dtype == np.float16:
        product = np.where((_rows(x, axes) == 0).any(axis=1), np.float16(0), product)
    return product


def _extreme(ufunc: np.ufunc, from_lowest: bool) -> Reducer:
    """MAX (``np.fmax`` from the type's lowest finite value) or MIN (``np.fmin`` from
    its highest): the reference's fold, where a NaN never replaces the running value."""

    def reduce(args: OpArgs, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
        start = info.min if from_lowest else info.max
        return ufunc.reduce(x, axis=axes, initial=start).astype(x.dtype)

    return reduce


def _logical(ufunc: np.ufunc) -> Reducer:
    def reduce(args: OpArgs, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        return ufunc.reduce(x != 0, axis=axes).astype(np.uint8)

    return reduce


def _make_axes_op(
    op_type: OperationType,
    types: Sequence[int],
    reduce: Reducer,
) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        x = _input(args, 0)
        axes = _resolved_axes(args, x.ndim)
        return [np.asarray(reduce(args, x, axes)).reshape(shapes[0])]

    return checked(op_type, lambda args: args.inputs[0].type in types, execute, via_unsigned=True)


def _make_arg(op_type: OperationType, pick: Callable[..., np.ndarray]) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        x = _input(args, 0)
        # numpy's argmax/argmin return the first extreme: ties go to the lowest index.
        return [pick(x, axis=_arg_axis(args, x.ndim)).astype(np.int32).reshape(shapes[0])]

    return checked(
        op_type,
        lambda args: args.inputs[0].type in (_F32, _F16, _I32T, _Q8A),
        execute,
        via_unsigned=True,
    )


def _topk_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    x = _input(args, 0)
    k = _topk_k(args, x)
    # Ascending (value, index) order is a stable ascending sort; reversed, it puts the
    # largest first and, among equal values, the larger index first.
    order = np.argsort(x, axis=-1, kind="stable")[..., ::-1][..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


IMPLEMENTATIONS = (
    _make_axes_op(OperationType.MEAN, (_F32, _F16, _Q8A), _mean),
    _make_axes_op(OperationType.REDUCE_SUM, (_F32, _F16), _accumulate(np.add)),
    _make_axes_op(OperationType.REDUCE_PROD, (_F32, _F16), _product),
    _make_axes_op(
        OperationType.REDUCE_MAX, (_F32, _F16, _Q8A), _extreme(np.fmax, from_lowest=True)
    ),
    _make_axes_op(
        OperationType.REDUCE_MIN, (_F32, _F16, _Q8A), _extreme(np.fmin, from_lowest=False)
    ),
    _make_axes_op(OperationType.REDUCE_ANY, (_B8,), _logical(np.logical_or)),
    _make_axes_op(OperationType.REDUCE_ALL, (_B8,), _logical(np.logical_and)),
    _make_arg(OperationType.ARGMAX, np.argmax),
    _make_arg(OperationType.ARGMIN, np.argmin),
    checked(
        OperationType.TOPK_V2,
        lambda args: args.inputs[0].type in (_F32, _F16, _I32T, _Q8A),
        _topk_execute,
        via_unsigned=True,
    ),
)
