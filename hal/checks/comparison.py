"""The checks of the comparisons (EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS,
LESS_EQUAL), LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT and SELECT.

None of them takes a parameter: what their definitions forbid is shapes. The binary
ones broadcast their inputs; LOGICAL_NOT keeps its input's shape; SELECT's three
inputs and its output have one shape. Zero-sized inputs fail the execution
(``OpFailure``), as in the Android 10 CPU reference
(``reference_driver/ops/comparison.py`` computes).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.types import Operand, OperationType

Shape = tuple[int, ...]


# Shapes -------------------------------------------------------------------


def _known_dims(operand: Operand) -> list[int] | None:
    """Declared dimensions with 0 meaning unknown; None for an unknown rank."""
    return list(operand.dimensions) if operand.dimensions else None


def _declared_broadcast_reason(first: Operand, second: Operand) -> str | None:
    """Why two declared shapes can never broadcast, or None (unknown sizes match anything)."""
    a, b = _known_dims(first), _known_dims(second)
    if a is None or b is None:
        return None
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x and y and x != y and 1 not in (x, y):
            return f"input shapes {a} and {b} do not broadcast"
    return None


def _declared_equal_reason(operands: Sequence[Operand]) -> str | None:
    """Why declared shapes that must be identical cannot be, or None (0 = unknown size)."""
    known = [d for d in map(_known_dims, operands) if d is not None]
    shapes = ", ".join(str(d) for d in known)
    if len({len(d) for d in known}) > 1:
        return f"shapes {shapes} have different ranks; they must be equal"
    for sizes in zip(*known, strict=True):
        if len(set(sizes) - {0}) > 1:
            return f"shapes {shapes} differ; they must be equal"
    return None


def _reject_zero_sized(arrays: Sequence[np.ndarray]) -> None:
    for index, array in enumerate(arrays):
        if array.size == 0:
            raise OpFailure(f"input {index} is zero-sized {array.shape}; the operation rejects it")


def _inputs(args: OpArgs, count: int) -> list[np.ndarray]:
    arrays = args.values[:count]
    if any(a is None for a in arrays):
        raise OpFailure("an input has no value")
    return arrays  # type: ignore[return-value]


def _broadcast_prepare(args: OpArgs) -> list[Shape]:
    a, b = _inputs(args, 2)
    if a.ndim == 0 or b.ndim == 0:
        raise OpInvalid("inputs must have rank 1 or more")
    _reject_zero_sized((a, b))
    try:
        return [np.broadcast_shapes(a.shape, b.shape)]
    except ValueError:
        raise OpInvalid(f"input shapes {a.shape} and {b.shape} do not broadcast") from None


def _broadcast_validate(args: OpArgs) -> str | None:
    return _declared_broadcast_reason(args.inputs[0], args.inputs[1])


def _not_prepare(args: OpArgs) -> list[Shape]:
    (x,) = _inputs(args, 1)
    if x.ndim == 0:
        raise OpInvalid("the input must have rank 1 or more")
    _reject_zero_sized((x,))
    return [x.shape]


# SELECT ---------------------------------------------------------------------


def _select_prepare(args: OpArgs) -> list[Shape]:
    arrays = _inputs(args, 3)
    if arrays[0].ndim == 0:
        raise OpInvalid("the condition must have rank 1 or more")
    shapes = [a.shape for a in arrays]
    if len(set(shapes)) != 1:
        raise OpInvalid(f"condition and inputs have shapes {shapes}; SELECT needs them equal")
    _reject_zero_sized(arrays)
    return [shapes[0]]


def _select_validate(args: OpArgs) -> str | None:
    return _declared_equal_reason([*args.inputs, args.outputs[0]])


def _not_validate(args: OpArgs) -> str | None:
    return _declared_equal_reason([args.inputs[0], args.outputs[0]])


_Op = OperationType
_BROADCASTING = (
    _Op.LESS,
    _Op.LESS_EQUAL,
    _Op.EQUAL,
    _Op.NOT_EQUAL,
    _Op.GREATER,
    _Op.GREATER_EQUAL,
    _Op.LOGICAL_AND,
    _Op.LOGICAL_OR,
)

CHECKS = (
    *(OperationCheck(op, _broadcast_validate, _broadcast_prepare) for op in _BROADCASTING),
    OperationCheck(_Op.LOGICAL_NOT, _not_validate, _not_prepare),
    OperationCheck(_Op.SELECT, _select_validate, _select_prepare),
)
