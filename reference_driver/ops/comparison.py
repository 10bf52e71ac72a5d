"""Comparisons, logical operations and SELECT (HAL 1.2 operations producing or taking BOOL8).

EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and LESS_EQUAL compare two
tensors of one type with broadcasting and write canonical 0/1 bytes. Quant8
inputs are compared by real value, each with its own scale and zero point,
in float32 as the Android 10 CPU reference does; BOOL8 inputs compare their
raw bytes. LOGICAL_AND, LOGICAL_OR and LOGICAL_NOT treat any nonzero byte as
true. SELECT picks element-wise between two same-shaped tensors and, for
quant8, requantizes the chosen value into the output's parameters. None of
these operations accepts a zero-sized input (the execution fails). The signed forms
(HAL 1.3) of the comparisons and SELECT run on the operation's unsigned view
(``checked``'s ``via_unsigned``): the real values, hence the answers, are the same.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.comparison``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import numpy as np

from hal.checks.comparison import (
    Shape,
    _inputs,
)
from hal.types import Operand, OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, checked
from reference_driver.quant import round_half_away_array

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

    return checked(
        op_type, lambda args: args.inputs[0].type in _COMPARABLE, execute, via_unsigned=True
    )


# Logical operations ---------------------------------------------------------


def _all_bool8(args: OpArgs) -> bool:
    return all(operand.type == _B8 for operand in args.inputs)


def _make_logical(op_type: OperationType, ufunc: np.ufunc) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        a, b = _inputs(args, 2)
        result = ufunc(a != 0, b != 0)
        return [np.broadcast_to(result, shapes[0]).astype(np.uint8)]

    return checked(op_type, _all_bool8, execute)


def _not_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    (x,) = _inputs(args, 1)
    return [(x == 0).astype(np.uint8)]


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


def _select_supports(args: OpArgs) -> bool:
    return args.inputs[0].type == _B8 and args.inputs[1].type in _SELECTABLE


IMPLEMENTATIONS = (
    *(_make_comparison(op, ufunc) for op, ufunc in _COMPARISONS.items()),
    _make_logical(OperationType.LOGICAL_AND, np.logical_and),
    _make_logical(OperationType.LOGICAL_OR, np.logical_or),
    checked(OperationType.LOGICAL_NOT, _all_bool8, _not_execute),
    checked(OperationType.SELECT, _select_supports, _select_execute, via_unsigned=True),
)
