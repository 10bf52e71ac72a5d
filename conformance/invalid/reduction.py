"""Invalid parameter values of the reduction operations.

MEAN and REDUCE_* take axes in [-rank, rank); ARGMAX/ARGMIN an axis in the same
range; TOPK_V2 a k between 1 and the last dimension. Each is refused at prepare
when the value is a constant of the model, and at execution when it arrives as
a model input or when the input's real shape makes it wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from conformance.invalid.case import InvalidCase
from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    numpy_dtype,
)

F32 = OperandType.TENSOR_FLOAT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
B8 = OperandType.TENSOR_BOOL8
I32T = OperandType.TENSOR_INT32
I32 = OperandType.INT32
BOOL = OperandType.BOOL
_QUANT = {Q8A: (0.5, 10)}


@dataclass(frozen=True)
class _Param:
    """A parameter input: a constant of the model, or (``value`` None) a model input."""

    type: int
    dims: tuple[int, ...]
    value: Sequence[int] | int | None


def _operand(type_: int, dims: Sequence[int], lifetime: int, consumers: int) -> Operand:
    scale, zero_point = _QUANT.get(type_, (0.0, 0))
    return Operand(type_, list(dims), consumers, scale, zero_point, lifetime)


def _model(
    operation: OperationType,
    type_: int,
    dims: Sequence[int],
    params: Sequence[_Param],
    outputs: Sequence[tuple[int, int]],
) -> Model:
    """``operation`` on one tensor input (a model input) and ``params``; ``outputs``
    are (type, rank) pairs, each of unknown dimensions."""
    values = bytearray()
    operands = [_operand(type_, dims, OperandLifeTime.MODEL_INPUT, 1)]
    inputs = [0]
    for param in params:
        if param.value is None:
            inputs.append(len(operands))
            operands.append(_operand(param.type, param.dims, OperandLifeTime.MODEL_INPUT, 1))
            continue
        data = np.asarray(param.value, dtype=numpy_dtype(param.type)).tobytes()
        operand = _operand(param.type, param.dims, OperandLifeTime.CONSTANT_COPY, 1)
        operand.location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(operand)
    first_output = len(operands)
    for out_type, rank in outputs:
        operands.append(_operand(out_type, [0] * rank, OperandLifeTime.MODEL_OUTPUT, 0))
    return Model(
        operands=operands,
        operations=[
            Operation(
                operation, list(range(first_output)), list(range(first_output, len(operands)))
            )
        ],
        input_indexes=inputs,
        output_indexes=list(range(first_output, len(operands))),
        operand_values=bytes(values),
    )


def _reduce(
    operation: OperationType, type_: int, axes: Sequence[int] | None, count: int = 1
) -> Callable[[], Model]:
    """A {2, 3} input reduced over ``axes`` (None: a model input of ``count`` axes),
    keep_dims set (MEAN's INT32 1, REDUCE_*'s BOOL true)."""
    keep = _Param(I32, (), 1) if operation == OperationType.MEAN else _Param(BOOL, (), True)
    axes_param = _Param(I32T, (count,), axes)
    return lambda: _model(operation, type_, (2, 3), [axes_param, keep], [(type_, 2)])


def _arg(operation: OperationType, axis: int | None, type_: int = F32) -> Callable[[], Model]:
    """ARGMAX/ARGMIN of a {2, 3} input along ``axis`` (None: a model input)."""
    return lambda: _model(operation, type_, (2, 3), [_Param(I32, (), axis)], [(I32T, 1)])


def _topk(k: int, dims: Sequence[int] = (2, 3), type_: int = F32) -> Callable[[], Model]:
    return lambda: _model(
        OperationType.TOPK_V2, type_, dims, [_Param(I32, (), k)], [(type_, 2), (I32T, 2)]
    )


def _floats(*shape: int) -> Callable[[], list[np.ndarray]]:
    return lambda: [np.arange(np.prod(shape), dtype=np.float32).reshape(shape)]


def _floats_and(value: np.ndarray) -> Callable[[], list[np.ndarray]]:
    """A {2, 3} float input followed by a parameter given at execution."""
    return lambda: [np.arange(6, dtype=np.float32).reshape(2, 3), value]


Op = OperationType

CASES: list[InvalidCase] = [
    # Axes outside [-2, 2) for a rank-2 input. (The Android 10 reference only checks
    # MEAN's axes without keep_dims; the definition forbids them either way.)
    InvalidCase("MEAN/axis_2_of_rank_2_keep_dims", _reduce(Op.MEAN, F32, [2])),
    InvalidCase("MEAN/axis_-3_quant8", _reduce(Op.MEAN, Q8A, [0, -3], count=2)),
    InvalidCase(
        "MEAN/axis_as_input_5",
        _reduce(Op.MEAN, F32, None),
        _floats_and(np.array([5], np.int32)),
    ),
    InvalidCase("REDUCE_SUM/axis_-3", _reduce(Op.REDUCE_SUM, F32, [-3])),
    InvalidCase(
        "REDUCE_SUM/axis_as_input_2",
        _reduce(Op.REDUCE_SUM, F32, None, count=2),
        _floats_and(np.array([1, 2], np.int32)),
    ),
    InvalidCase("REDUCE_PROD/axis_2", _reduce(Op.REDUCE_PROD, F32, [0, 1, 2], count=3)),
    InvalidCase("REDUCE_MAX/axis_4_quant8", _reduce(Op.REDUCE_MAX, Q8A, [4])),
    InvalidCase(
        "REDUCE_MIN/axis_as_input_-4",
        _reduce(Op.REDUCE_MIN, F32, None),
        _floats_and(np.array([-4], np.int32)),
    ),
    InvalidCase("REDUCE_ANY/axis_-3", _reduce(Op.REDUCE_ANY, B8, [-3])),
    InvalidCase("REDUCE_ALL/axis_2", _reduce(Op.REDUCE_ALL, B8, [2])),
    InvalidCase("ARGMAX/axis_2_of_rank_2", _arg(Op.ARGMAX, 2)),
    InvalidCase("ARGMAX/axis_-3_quant8", _arg(Op.ARGMAX, -3, Q8A)),
    InvalidCase(
        "ARGMIN/axis_as_input_-3", _arg(Op.ARGMIN, None), _floats_and(np.array(-3, np.int32))
    ),
    InvalidCase("ARGMIN/axis_7", _arg(Op.ARGMIN, 7)),
    InvalidCase("TOPK_V2/k_0", _topk(0)),
    InvalidCase("TOPK_V2/k_-1_int32", _topk(-1, type_=I32T)),
    InvalidCase("TOPK_V2/k_above_last_dimension", _topk(4)),
    # The last dimension is only known at execution: k = 3 of a {3, 2} input.
    InvalidCase("TOPK_V2/k_above_runtime_last_dimension", _topk(3, (0, 0)), _floats(3, 2)),
]
