"""The checks of the reductions: MEAN, REDUCE_* (SUM, PROD, MAX, MIN, ANY, ALL),
ARGMAX, ARGMIN and TOPK_V2.

Axes must lie in [-rank, rank), inputs have ranks 1 to 4 where the Android 10 CPU
reference limits them, k of TOPK_V2 is in [1, last dimension]; a result that would
have rank 0 fits the declared output (``reference_driver/ops/reduction.py``
computes).
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.types import Operand, OperandType, OperationType

Shape = tuple[int, ...]

_MAX_RANK = 4


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


_Op = OperationType
_AXES = (
    _Op.MEAN,
    _Op.REDUCE_SUM,
    _Op.REDUCE_PROD,
    _Op.REDUCE_MAX,
    _Op.REDUCE_MIN,
    _Op.REDUCE_ANY,
    _Op.REDUCE_ALL,
)

CHECKS = (
    *(OperationCheck(op, _axes_validate, _axes_prepare) for op in _AXES),
    OperationCheck(_Op.ARGMAX, _arg_validate, _arg_prepare),
    OperationCheck(_Op.ARGMIN, _arg_validate, _arg_prepare),
    OperationCheck(_Op.TOPK_V2, _topk_validate, _topk_prepare),
)
