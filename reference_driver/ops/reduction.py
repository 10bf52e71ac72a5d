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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from hal.types import Operand, OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, OpInvalid

Shape = tuple[int, ...]
_F32 = OperandType.TENSOR_FLOAT32
_F16 = OperandType.TENSOR_FLOAT16
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
_I32T = OperandType.TENSOR_INT32
_B8 = OperandType.TENSOR_BOOL8
_MAX_RANK = 4

Reducer = Callable[[OpArgs, np.ndarray, tuple[int, ...]], np.ndarray]
"""(args, input, distinct axes) -> one value per kept element."""


# Shared checks ---------------------------------------------------------------


def _declared_rank(operand: Operand) -> int | None:
    """The rank a tensor operand declares; None when unknown (empty dimensions)."""
    return len(operand.dimensions) or None


def _axis_reason(axes: np.ndarray, rank: int) -> str | None:
    bad = axes[(axes < -rank) | (axes >= rank)]
    if bad.size:
        return f"axis {int(bad.flat[0])} is outside [-{rank}, {rank}) for an input of rank {rank}"
    return None


def _input(args: OpArgs, index: int) -> np.ndarray:
    value = args.values[index]
    if value is None:
        raise OpFailure(f"input {index} has no value")
    return value


def _check_input(x: np.ndarray, max_rank: int | None) -> None:
    """Rank at least 1 (and at most ``max_rank``), and no zero-sized dimension."""
    if x.ndim == 0 or (max_rank is not None and x.ndim > max_rank):
        limit = f"1 to {max_rank}" if max_rank else "1 or more"
        raise OpInvalid(f"input 0 has rank {x.ndim}; the operation takes rank {limit}")
    if x.size == 0:
        raise OpFailure(f"input 0 is zero-sized {x.shape}; the operation rejects it")


def _fit_rank0(shape: Shape, output: Operand) -> Shape:
    """MEAN: a rank-0 result takes the rank the output declares, as all ones (the
    reference merges its empty shape into the declared one)."""
    if shape or not output.dimensions:
        return shape
    return (1,) * len(output.dimensions)


def _rank0_as_1(shape: Shape) -> Shape:
    """REDUCE_*: a result that would have rank 0 has shape [1], as in Android 11
    (docs/operations.md, Android 11's corrections)."""
    return shape or (1,)


# Axis-list reductions: MEAN and REDUCE_* ---------------------------------------


def _axes_validate(args: OpArgs) -> str | None:
    rank, axes = _declared_rank(args.inputs[0]), args.values[1]
    if rank is not None and rank > _MAX_RANK:
        return f"input 0 has rank {rank}; at most {_MAX_RANK} is supported"
    if rank is None or axes is None:
        return None
    return _axis_reason(axes, rank)


def _resolved_axes(args: OpArgs, rank: int) -> tuple[int, ...]:
    """The distinct axes to reduce, non-negative and ascending."""
    axes = _input(args, 1).reshape(-1)
    reason = _axis_reason(axes, rank)
    if reason is not None:
        raise OpInvalid(reason)
    return tuple(sorted({int(a) % rank for a in axes}))


def _keep_dims(args: OpArgs) -> bool:
    """MEAN's INT32 keeps dimensions when positive; REDUCE_*'s BOOL when nonzero."""
    value = args.scalar(2)
    return value > 0 if args.inputs[2].type == OperandType.INT32 else bool(value)


def _axes_prepare(args: OpArgs) -> list[Shape]:
    x = _input(args, 0)
    _check_input(x, _MAX_RANK)
    axes = _resolved_axes(args, x.ndim)
    keep = _keep_dims(args)
    shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape) if keep or i not in axes)
    if args.inputs[2].type == OperandType.INT32:  # MEAN
        return [_fit_rank0(shape, args.outputs[0])]
    return [_rank0_as_1(shape)]


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

    return OperationImpl(
        op_type, lambda args: args.inputs[0].type in types, _axes_validate, _axes_prepare, execute
    )


# ARGMAX / ARGMIN ---------------------------------------------------------------


def _arg_validate(args: OpArgs) -> str | None:
    rank, axis = _declared_rank(args.inputs[0]), args.values[1]
    if rank is None or axis is None:
        return None
    return _axis_reason(axis.reshape(1), rank)


def _arg_axis(args: OpArgs, rank: int) -> int:
    axis = int(args.scalar(1))
    reason = _axis_reason(np.array([axis]), rank)
    if reason is not None:
        raise OpInvalid(reason)
    return axis % rank


def _arg_prepare(args: OpArgs) -> list[Shape]:
    x = _input(args, 0)
    _check_input(x, None)
    axis = _arg_axis(args, x.ndim)
    return [_fit_rank0(x.shape[:axis] + x.shape[axis + 1 :], args.outputs[0])]


def _make_arg(op_type: OperationType, pick: Callable[..., np.ndarray]) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        x = _input(args, 0)
        # numpy's argmax/argmin return the first extreme: ties go to the lowest index.
        return [pick(x, axis=_arg_axis(args, x.ndim)).astype(np.int32).reshape(shapes[0])]

    return OperationImpl(
        op_type,
        lambda args: args.inputs[0].type in (_F32, _F16, _I32T, _Q8A),
        _arg_validate,
        _arg_prepare,
        execute,
    )


# TOPK_V2 -----------------------------------------------------------------------


def _topk_validate(args: OpArgs) -> str | None:
    if args.values[1] is None:
        return None
    k = int(args.scalar(1))
    if k < 1:
        return f"k = {k}; it must be at least 1"
    dims = args.inputs[0].dimensions
    if dims and dims[-1] and k > dims[-1]:
        return f"k = {k} exceeds the last dimension {dims[-1]}"
    return None


def _topk_k(args: OpArgs, x: np.ndarray) -> int:
    k = int(args.scalar(1))
    if not 1 <= k <= x.shape[-1]:
        raise OpInvalid(f"k = {k} is outside [1, {x.shape[-1]}] (the last dimension)")
    return k


def _topk_prepare(args: OpArgs) -> list[Shape]:
    x = _input(args, 0)
    _check_input(x, None)
    shape = (*x.shape[:-1], _topk_k(args, x))
    return [shape, shape]


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
    OperationImpl(
        OperationType.TOPK_V2,
        lambda args: args.inputs[0].type in (_F32, _F16, _I32T, _Q8A),
        _topk_validate,
        _topk_prepare,
        _topk_execute,
    ),
)
