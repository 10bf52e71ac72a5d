"""Comparisons, logical operations and SELECT (HAL 1.2 operations producing or taking BOOL8).

EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and LESS_EQUAL compare two
tensors of one type with broadcasting and write canonical 0/1 bytes. Quant8
inputs are compared by real value, each with its own scale and zero point,
in float32 as the Android 10 CPU reference does; BOOL8 inputs compare their
raw bytes. LOGICAL_AND, LOGICAL_OR and LOGICAL_NOT treat any nonzero byte as
true. SELECT picks element-wise between two same-shaped tensors and, for
quant8, requantizes the chosen value into the output's parameters. None of
these operations accepts a zero-sized input (the execution fails).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hal.types import Operand, OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, OpInvalid
from reference_driver.quant import round_half_away_array

Shape = tuple[int, ...]
_B8 = OperandType.TENSOR_BOOL8
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
_COMPARABLE = (
    _B8,
    OperandType.TENSOR_FLOAT16,
    OperandType.TENSOR_FLOAT32,
    OperandType.TENSOR_INT32,
    _Q8A,
)
_SELECTABLE = (
    OperandType.TENSOR_FLOAT16,
    OperandType.TENSOR_FLOAT32,
    OperandType.TENSOR_INT32,
    _Q8A,
)
_COMPARISONS: dict[OperationType, np.ufunc] = {
    OperationType.EQUAL: np.equal,
    OperationType.NOT_EQUAL: np.not_equal,
    OperationType.GREATER: np.greater,
    OperationType.GREATER_EQUAL: np.greater_equal,
    OperationType.LESS: np.less,
    OperationType.LESS_EQUAL: np.less_equal,
}


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


# Comparisons ----------------------------------------------------------------


def _comparable(values: np.ndarray, operand: Operand) -> np.ndarray:
    """What the CPU reference compares: real values in float32 for quant8, else raw values."""
    if operand.type != _Q8A:
        return values
    offset = values.astype(np.int32) - np.int32(operand.zero_point)
    return offset.astype(np.float32) * np.float32(operand.scale)


def _make_comparison(op_type: OperationType, ufunc: np.ufunc) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        a, b = _inputs(args, 2)
        result = ufunc(_comparable(a, args.inputs[0]), _comparable(b, args.inputs[1]))
        return [np.broadcast_to(result, shapes[0]).astype(np.uint8)]

    return OperationImpl(
        op_type,
        lambda args: args.inputs[0].type in _COMPARABLE,
        _broadcast_validate,
        _broadcast_prepare,
        execute,
    )


# Logical operations ---------------------------------------------------------


def _all_bool8(args: OpArgs) -> bool:
    return all(operand.type == _B8 for operand in args.inputs)


def _make_logical(op_type: OperationType, ufunc: np.ufunc) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        a, b = _inputs(args, 2)
        result = ufunc(a != 0, b != 0)
        return [np.broadcast_to(result, shapes[0]).astype(np.uint8)]

    return OperationImpl(op_type, _all_bool8, _broadcast_validate, _broadcast_prepare, execute)


def _not_prepare(args: OpArgs) -> list[Shape]:
    (x,) = _inputs(args, 1)
    if x.ndim == 0:
        raise OpInvalid("the input must have rank 1 or more")
    _reject_zero_sized((x,))
    return [x.shape]


def _not_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    (x,) = _inputs(args, 1)
    return [(x == 0).astype(np.uint8)]


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


def _requantize(values: np.ndarray, source: Operand, target: Operand) -> np.ndarray:
    """Quant8 values in the target's parameters: the real value is a float32 product,
    the division and rounding (half away from zero) are in double, then clamped."""
    real = (values.astype(np.int32) - np.int32(source.zero_point)).astype(np.float32)
    real = (real * np.float32(source.scale)).astype(np.float64)
    shifted = real / np.float64(np.float32(target.scale)) + target.zero_point
    return np.clip(round_half_away_array(shifted), 0, 255).astype(np.uint8)


def _select_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    condition, a, b = _inputs(args, 3)
    if args.inputs[1].type == _Q8A:
        a = _requantize(a, args.inputs[1], args.outputs[0])
        b = _requantize(b, args.inputs[2], args.outputs[0])
    return [np.where(condition != 0, a, b)]


def _select_validate(args: OpArgs) -> str | None:
    return _declared_equal_reason([*args.inputs, args.outputs[0]])


def _not_validate(args: OpArgs) -> str | None:
    return _declared_equal_reason([args.inputs[0], args.outputs[0]])


def _select_supports(args: OpArgs) -> bool:
    return args.inputs[0].type == _B8 and args.inputs[1].type in _SELECTABLE


IMPLEMENTATIONS = (
    *(_make_comparison(op, ufunc) for op, ufunc in _COMPARISONS.items()),
    _make_logical(OperationType.LOGICAL_AND, np.logical_and),
    _make_logical(OperationType.LOGICAL_OR, np.logical_or),
    OperationImpl(
        OperationType.LOGICAL_NOT,
        _all_bool8,
        _not_validate,
        _not_prepare,
        _not_execute,
    ),
    OperationImpl(
        OperationType.SELECT, _select_supports, _select_validate, _select_prepare, _select_execute
    ),
)
