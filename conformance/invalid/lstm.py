"""Invalid parameter values for LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM.

The activation scalar must be one of the TensorFlow Lite codes 0-6; LSTM and
BIDIRECTIONAL_SEQUENCE_LSTM refuse a negative clip; BIDIRECTIONAL_SEQUENCE_LSTM
has one output exactly when merge_outputs is true. Those are constants, refused
at prepare. Inputs given has_no_value in a request must still form a complete
optional group (CIFG, peephole), and the states must have the shapes the
weights imply: those first appear at execution.

Every model is a small float32 cell (2 units, input size 2, output size 2)
whose tensors are model inputs and whose omitted optional inputs are NO_VALUE
operands.
"""

from __future__ import annotations

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
)

F32 = OperandType.TENSOR_FLOAT32
Op = OperationType
_UNITS = 2


@dataclass(frozen=True)
class _Tensor:
    dims: tuple[int, ...]
    omitted: bool = False


@dataclass(frozen=True)
class _Scalar:
    type: int
    value: float | int | bool


def _matrix(omitted: bool = False) -> _Tensor:
    return _Tensor((0, 0) if omitted else (_UNITS, _UNITS), omitted)


def _vector(omitted: bool = False) -> _Tensor:
    return _Tensor((0,) if omitted else (_UNITS,), omitted)


def _cell(cifg: bool = False) -> list[_Tensor]:
    """LSTM inputs 1-17 of a cell without peephole or projection."""
    return [
        _matrix(cifg), *(_matrix() for _ in range(3)),  # input-to-gate weights
        _matrix(cifg), *(_matrix() for _ in range(3)),  # recurrent weights
        *(_vector(True) for _ in range(3)),  # peephole weights, omitted
        _vector(cifg), *(_vector() for _ in range(3)),  # gate biases
        _matrix(True), _vector(True),  # projection weights and bias, omitted
    ]  # fmt: skip


def _model(op: Op, inputs: list[_Tensor | _Scalar], outputs: list[tuple[int, ...]]) -> Model:
    """``op`` on these inputs: tensors are model inputs (or NO_VALUE), scalars constants."""
    operands: list[Operand] = []
    values = bytearray()
    for spec in inputs:
        if isinstance(spec, _Scalar):
            dtype = {OperandType.INT32: "<i4", OperandType.FLOAT32: "<f4", OperandType.BOOL: "u1"}
            data = np.asarray(spec.value, dtype=dtype[spec.type]).tobytes()
            location = DataLocation(0, len(values), len(data))
            operands.append(
                Operand(spec.type, [], 1, 0.0, 0, OperandLifeTime.CONSTANT_COPY, location)
            )
            values += data
        elif spec.omitted:
            operands.append(Operand(F32, list(spec.dims), 1, 0.0, 0, OperandLifeTime.NO_VALUE))
        else:
            operands.append(Operand(F32, list(spec.dims), 1, 0.0, 0, OperandLifeTime.MODEL_INPUT))
    first_output = len(operands)
    for dims in outputs:
        operands.append(Operand(F32, list(dims), 0, 0.0, 0, OperandLifeTime.MODEL_OUTPUT))
    return Model(
        operands=operands,
        operations=[
            Operation(op, list(range(first_output)), list(range(first_output, len(operands))))
        ],
        input_indexes=[
            i for i in range(first_output) if operands[i].lifetime == OperandLifeTime.MODEL_INPUT
        ],
        output_indexes=list(range(first_output, len(operands))),
        operand_values=bytes(values),
    )


def _scalars(activation: int, cell_clip: float, proj_clip: float) -> list[_Scalar]:
    return [
        _Scalar(OperandType.INT32, activation),
        _Scalar(OperandType.FLOAT32, cell_clip),
        _Scalar(OperandType.FLOAT32, proj_clip),
    ]


def _lstm(activation: int = 4, cell_clip: float = 0.0) -> Model:
    """LSTM (23 inputs), batch 1."""
    state = _Tensor((1, _UNITS))
    inputs = [state, *_cell(), state, state, *_scalars(activation, cell_clip, 0.0)]
    return _model(Op.LSTM, inputs, [(1, 4 * _UNITS), (1, _UNITS), (1, _UNITS), (1, _UNITS)])


def _unidirectional(activation: int = 4, state_dims: tuple[int, ...] = (1, _UNITS)) -> Model:
    """UNIDIRECTIONAL_SEQUENCE_LSTM, time-major, 1 step, batch 1."""
    x, state = _Tensor((1, 1, _UNITS)), _Tensor(state_dims)
    inputs = [
        x,
        *_cell(),
        state,
        state,
        *_scalars(activation, 0.0, 0.0),
        _Scalar(OperandType.BOOL, True),
        *(_vector(True) for _ in range(4)),
    ]
    return _model(Op.UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, [(1, 1, _UNITS)])


def _bidirectional(merge: bool, n_outputs: int, proj_clip: float = 0.0) -> Model:
    """BIDIRECTIONAL_SEQUENCE_LSTM, time-major, 1 step, batch 1, no aux input."""
    state = _Tensor((1, _UNITS))
    inputs = [
        _Tensor((1, 1, _UNITS)),
        *_cell(),
        *_cell(cifg=True),
        state,
        state,
        state,
        state,
        _Tensor((0, 0, 0), omitted=True),  # aux input
        *(_matrix(True) for _ in range(8)),  # aux weights
        *_scalars(4, 0.0, proj_clip),
        _Scalar(OperandType.BOOL, merge),
        _Scalar(OperandType.BOOL, True),
        *(_vector(True) for _ in range(8)),  # layer-norm weights
    ]
    size = 2 * _UNITS if n_outputs == 1 else _UNITS
    return _model(Op.BIDIRECTIONAL_SEQUENCE_LSTM, inputs, [(1, 1, size)] * n_outputs)


def _ones(*dims: int) -> np.ndarray:
    return np.full(dims, 0.5, np.float32)


def _lstm_inputs(omit: int | None = None) -> list[np.ndarray | None]:
    """Values of the plain LSTM model's inputs (x, 12 cell tensors, h, c), one set to None."""
    cell = [_ones(_UNITS, _UNITS)] * 8 + [_ones(_UNITS)] * 4
    values: list[np.ndarray | None] = [_ones(1, _UNITS), *cell, _ones(1, _UNITS), _ones(1, _UNITS)]
    if omit is not None:
        values[omit] = None
    return values


def _unidirectional_inputs(state_batch: int = 1) -> list[np.ndarray | None]:
    cell = [_ones(_UNITS, _UNITS)] * 8 + [_ones(_UNITS)] * 4
    states = [_ones(state_batch, _UNITS)] * 2
    return [_ones(1, 1, _UNITS), *cell, *states]


CASES: list[InvalidCase] = [
    InvalidCase("LSTM/activation_7", lambda: _lstm(activation=7)),
    InvalidCase("LSTM/negative_cell_clip", lambda: _lstm(cell_clip=-1.0)),
    # The model's input-to-input weights (model input 1) given has_no_value: the
    # recurrent-to-input weights and input gate bias make the CIFG group incomplete.
    InvalidCase("LSTM/cifg_group_incomplete", _lstm, lambda: _lstm_inputs(omit=1)),
    InvalidCase(
        "UNIDIRECTIONAL_SEQUENCE_LSTM/activation_minus_1", lambda: _unidirectional(activation=-1)
    ),
    # States declared [0, 2]; the request gives a batch of 3 where the input has 1.
    InvalidCase(
        "UNIDIRECTIONAL_SEQUENCE_LSTM/state_batch_mismatch",
        lambda: _unidirectional(state_dims=(0, _UNITS)),
        lambda: _unidirectional_inputs(state_batch=3),
    ),
    InvalidCase(
        "BIDIRECTIONAL_SEQUENCE_LSTM/merge_outputs_with_two_outputs",
        lambda: _bidirectional(merge=True, n_outputs=2),
    ),
    InvalidCase(
        "BIDIRECTIONAL_SEQUENCE_LSTM/separate_outputs_with_one_output",
        lambda: _bidirectional(merge=False, n_outputs=1),
    ),
    InvalidCase(
        "BIDIRECTIONAL_SEQUENCE_LSTM/negative_proj_clip",
        lambda: _bidirectional(merge=True, n_outputs=1, proj_clip=-0.5),
    ),
]
