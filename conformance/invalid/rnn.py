"""Invalid parameter values for RNN, UNIDIRECTIONAL/BIDIRECTIONAL_SEQUENCE_RNN, SVDF and QUANTIZED_16BIT_LSTM.

Each operation's tensors must agree on batch, input, unit (filter) and time
sizes; the activation is a FusedActivationFunc (0..3); SVDF's filter count
must be a positive multiple of its rank and its state hold filters x memory
columns; time_major of UNIDIRECTIONAL_SEQUENCE_RNN is 0 or 1; a merged
BIDIRECTIONAL_SEQUENCE_RNN has one output. Values in the model are refused at
prepare; shapes that only the request gives are refused at execution.
"""

from __future__ import annotations

import struct

import numpy as np

from conformance.harness.models import signature_model
from conformance.invalid.case import InvalidCase
from hal.operations import signatures
from hal.types import HalVersion, Model, OperandType, OperationType

_F32 = OperandType.TENSOR_FLOAT32
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
Dims = tuple[int, ...]


def _model(
    op: OperationType,
    inputs: dict[int, Dims],
    outputs: list[Dims],
    scalars: dict[int, int] | None = None,
    form: str = "",
    variant: int = _F32,
) -> Model:
    """The catalog's form of ``op`` with these input and output dims and scalar values."""
    signature = next(
        s for s in signatures(op, HalVersion.V1_2) if s.variant == variant and s.form == form
    )
    model = signature_model(signature)
    operands = model.operands
    for slot, dims in inputs.items():
        operands[slot].dimensions = list(dims)
    for index, dims in zip(model.output_indexes, outputs, strict=True):
        operands[index].dimensions = list(dims)
    values = bytearray(model.operand_values)
    for slot, value in (scalars or {}).items():
        location = operands[slot].location
        fmt = "<i" if location.length == 4 else "<?"
        values[location.offset : location.offset + location.length] = struct.pack(fmt, value)
    model.operand_values = bytes(values)
    return model


def _floats(*shapes: Dims) -> list[np.ndarray]:
    return [np.ones(shape, np.float32) for shape in shapes]


# RNN: x [B, I], W [U, I], R [U, U], bias [U], h [B, U].
_RNN = {0: (1, 2), 1: (3, 2), 2: (3, 3), 3: (3,), 4: (1, 3)}
# SVDF: x [B, I], Wf [F, I], Wt [F, M], bias [U], state [B, F * M].
_SVDF = {0: (1, 2), 1: (4, 2), 2: (4, 3), 3: (2,), 4: (1, 12)}
# UNIDIRECTIONAL_SEQUENCE_RNN, time-major: x [T, B, I].
_UNI = {0: (2, 1, 2), 1: (3, 2), 2: (3, 3), 3: (3,), 4: (1, 3)}
# BIDIRECTIONAL_SEQUENCE_RNN without the auxiliary input (inputs 9-11 of unknown size).
_BIDI = {0: (2, 1, 2), 1: (3, 2), 2: (3, 3), 3: (3,), 4: (1, 3)}
_BIDI |= {5: (2, 2), 6: (2, 2), 7: (2,), 8: (1, 2), 9: (0, 0, 0), 10: (0, 0), 11: (0, 0)}
# QUANTIZED_16BIT_LSTM: x [B, I], weights [O, I] / [O, O], biases [O], states [B, O].
_QLSTM = {0: (1, 2), **dict.fromkeys((1, 2, 3, 4), (3, 2)), **dict.fromkeys((5, 6, 7, 8), (3, 3))}
_QLSTM |= {**dict.fromkeys((9, 10, 11, 12), (3,)), 13: (1, 3), 14: (1, 3)}


def _qlstm_inputs(batch_x: int, batch_h: int) -> list[np.ndarray]:
    """Request inputs for a QUANTIZED_16BIT_LSTM model whose every input is a model input."""
    q8 = [np.full(shape, 128, np.uint8) for shape in [(batch_x, 2)] + [(3, 2)] * 4 + [(3, 3)] * 4]
    biases = [np.zeros(3, np.int32)] * 4
    return [*q8, *biases, np.zeros((batch_h, 3), np.int16), np.full((batch_h, 3), 128, np.uint8)]


CASES: list[InvalidCase] = [
    InvalidCase(
        "RNN/activation_7",
        lambda: _model(OperationType.RNN, _RNN, [(1, 3), (1, 3)], {5: 7}),
    ),
    InvalidCase(
        "RNN/recurrent_weights_not_square",
        lambda: _model(OperationType.RNN, _RNN | {2: (3, 2)}, [(1, 3), (1, 3)]),
    ),
    InvalidCase(
        "RNN/input_size_differs_from_weights",
        lambda: _model(OperationType.RNN, _RNN | {0: (0, 0)}, [(0, 0), (0, 0)]),
        lambda: _floats((1, 4), (3, 2), (3, 3), (3,), (1, 3)),
    ),
    InvalidCase(
        "SVDF/filters_not_a_multiple_of_rank",
        lambda: _model(OperationType.SVDF, _SVDF | {3: (0,)}, [(1, 12), (1, 0)], {5: 3}),
    ),
    InvalidCase(
        "SVDF/rank_0",
        lambda: _model(OperationType.SVDF, _SVDF, [(1, 12), (1, 2)], {5: 0}),
    ),
    InvalidCase(
        "SVDF/state_size_differs_from_filters_times_memory",
        lambda: _model(OperationType.SVDF, _SVDF | {4: (0, 0)}, [(0, 0), (0, 0)], {5: 2}),
        lambda: _floats((1, 2), (4, 2), (4, 3), (2,), (1, 10)),
    ),
    InvalidCase(
        "UNIDIRECTIONAL_SEQUENCE_RNN/time_major_2",
        lambda: _model(OperationType.UNIDIRECTIONAL_SEQUENCE_RNN, _UNI, [(2, 1, 3)], {6: 2}),
    ),
    InvalidCase(
        "UNIDIRECTIONAL_SEQUENCE_RNN/batch_differs_from_state",
        lambda: _model(
            OperationType.UNIDIRECTIONAL_SEQUENCE_RNN, _UNI | {0: (0, 0, 0)}, [(0, 0, 0)], {6: 1}
        ),
        lambda: _floats((2, 2, 2), (3, 2), (3, 3), (3,), (1, 3)),
    ),
    InvalidCase(
        "BIDIRECTIONAL_SEQUENCE_RNN/merge_outputs_with_two_outputs",
        lambda: _model(
            OperationType.BIDIRECTIONAL_SEQUENCE_RNN,
            _BIDI,
            [(2, 1, 3), (2, 1, 2)],
            {13: 1, 14: 1},
            form="separate outputs",
        ),
    ),
    InvalidCase(
        "BIDIRECTIONAL_SEQUENCE_RNN/activation_minus_1",
        lambda: _model(
            OperationType.BIDIRECTIONAL_SEQUENCE_RNN,
            _BIDI,
            [(2, 1, 5)],
            {12: -1, 13: 1, 14: 1},
            form="merged outputs",
        ),
    ),
    InvalidCase(
        "QUANTIZED_16BIT_LSTM/recurrent_weights_not_square",
        lambda: _model(
            OperationType.QUANTIZED_16BIT_LSTM, _QLSTM | {6: (3, 2)}, [(1, 3), (1, 3)], variant=_Q8A
        ),
    ),
    InvalidCase(
        "QUANTIZED_16BIT_LSTM/batch_differs_between_input_and_state",
        lambda: _model(
            OperationType.QUANTIZED_16BIT_LSTM,
            _QLSTM | {0: (0, 2), 13: (0, 3), 14: (0, 3)},
            [(0, 3), (0, 3)],
            variant=_Q8A,
        ),
        lambda: _qlstm_inputs(1, 2),
    ),
]
