"""Invalid parameter values for QUANTIZED_LSTM (HAL 1.3).

The intermediate scales of the gates in use (inputs 26-29) and the hidden-state
scale (input 31) must be positive: given as constants, refused at prepare. Without
projection weights the output size must equal the number of units: the declared
dimensions say so at prepare. Inputs given has_no_value in a request must still form
a group the operation defines (CIFG, layer norm), and the states must have the shapes
the weights imply: those first appear at execution.

Every model is a small cell (batch 1, input size 2, 2 units, output size 2, no
peephole, no projection, with layer norm) whose tensors are model inputs and whose
omitted optional inputs are NO_VALUE operands; its scalars are constants.
"""

from __future__ import annotations

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

Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
Q8S = OperandType.TENSOR_QUANT8_SYMM
Q16S = OperandType.TENSOR_QUANT16_SYMM
I32T = OperandType.TENSOR_INT32
F32 = OperandType.FLOAT32
I32 = OperandType.INT32
_UNITS = 2

_WEIGHTS = {slot: (Q8S, (_UNITS, _UNITS), 0.01, 0) for slot in range(1, 9)}
_TENSORS = {
    0: (Q8AS, (1, _UNITS), 0.0078125, 0),
    **_WEIGHTS,
    **{slot: (Q16S, (_UNITS,), 2.0**-10, 0) for slot in (9, 10, 11)},
    **{slot: (I32T, (_UNITS,), 0.0, 0) for slot in (12, 13, 14, 15)},
    16: (Q8S, (_UNITS, _UNITS), 0.01, 0),
    17: (I32T, (_UNITS,), 0.0, 0),
    18: (Q8AS, (1, _UNITS), 0.0078125, 0),
    19: (Q16S, (1, _UNITS), 2.0**-11, 0),
    **{slot: (Q16S, (_UNITS,), 2.0**-10, 0) for slot in (20, 21, 22, 23)},
}
_OMITTED = frozenset({9, 10, 11, 16, 17})
"""No peephole, no projection."""

_SCALARS = {24: 0.0, 25: 0.0, 26: 0.0008, 27: 0.0008, 28: 0.0008, 29: 0.0008, 30: 0, 31: 0.0078125}


def _model(
    omitted: frozenset[int] = _OMITTED,
    scalars: dict[int, float] | None = None,
    dims: dict[int, tuple[int, ...]] | None = None,
) -> Model:
    """The cell: tensors are model inputs (NO_VALUE when ``omitted``), scalars constants."""
    scalars = {**_SCALARS, **(scalars or {})}
    dims = dims or {}
    operands: list[Operand] = []
    values = bytearray()
    for slot in range(32):
        if slot in _TENSORS:
            type_, shape, scale, zero = _TENSORS[slot]
            lifetime = OperandLifeTime.NO_VALUE if slot in omitted else OperandLifeTime.MODEL_INPUT
            operands.append(Operand(type_, list(dims.get(slot, shape)), 1, scale, zero, lifetime))
            continue
        type_ = I32 if slot == 30 else F32
        data = np.asarray(scalars[slot], "<i4" if type_ == I32 else "<f4").tobytes()
        location = DataLocation(0, len(values), len(data))
        operands.append(Operand(type_, [], 1, 0.0, 0, OperandLifeTime.CONSTANT_COPY, location))
        values += data
    outputs = [
        Operand(Q8AS, [1, _UNITS], 0, 0.0078125, 0, OperandLifeTime.MODEL_OUTPUT),
        Operand(Q16S, [1, _UNITS], 0, 2.0**-11, 0, OperandLifeTime.MODEL_OUTPUT),
        Operand(Q8AS, [1, _UNITS], 0, 0.0078125, 0, OperandLifeTime.MODEL_OUTPUT),
    ]
    operands += outputs
    return Model(
        operands=operands,
        operations=[Operation(OperationType.QUANTIZED_LSTM, list(range(32)), [32, 33, 34])],
        input_indexes=[i for i in range(32) if operands[i].lifetime == OperandLifeTime.MODEL_INPUT],
        output_indexes=[32, 33, 34],
        operand_values=bytes(values),
    )


def _inputs(
    no_value: tuple[int, ...] = (), shapes: dict[int, tuple[int, ...]] | None = None
) -> list[np.ndarray | None]:
    """Values of the model inputs (every tensor slot but the omitted ones, in slot order);
    the slots in ``no_value`` are sent with has_no_value."""
    shapes = shapes or {}
    result: list[np.ndarray | None] = []
    for slot, (type_, shape, _, _) in _TENSORS.items():
        if slot in _OMITTED:
            continue
        if slot in no_value:
            result.append(None)
            continue
        dtype = {Q8AS: np.int8, Q8S: np.int8, Q16S: np.int16, I32T: np.int32}[type_]
        fill = 1000 if type_ == Q16S and slot >= 20 else 3
        result.append(np.full(shapes.get(slot, shape), fill, dtype))
    return result


CASES: list[InvalidCase] = [
    InvalidCase("QUANTIZED_LSTM/zero_forget_intermediate_scale", lambda: _model(scalars={27: 0.0})),
    InvalidCase(
        "QUANTIZED_LSTM/negative_hidden_state_scale", lambda: _model(scalars={31: -0.0078125})
    ),
    # No projection weights (NO_VALUE) and an output size of 3 for 2 units.
    InvalidCase(
        "QUANTIZED_LSTM/output_size_without_projection",
        lambda: _model(dims={slot: (_UNITS, 3) for slot in range(5, 9)} | {18: (1, 3)}),
    ),
    # The input-to-input weights (model input 1) sent has_no_value: the recurrent-to-input
    # weights are given, so the CIFG group is incomplete.
    InvalidCase("QUANTIZED_LSTM/cifg_group_incomplete", _model, lambda: _inputs(no_value=(1,))),
    # The cell gate's layer-norm weights (input 22) sent has_no_value, the others given.
    InvalidCase(
        "QUANTIZED_LSTM/layer_norm_group_incomplete", _model, lambda: _inputs(no_value=(22,))
    ),
    # The cell state declared [0, 2]; the request gives a batch of 3 where the input has 1.
    InvalidCase(
        "QUANTIZED_LSTM/cell_state_batch_mismatch",
        lambda: _model(dims={19: (0, _UNITS)}),
        lambda: _inputs(shapes={19: (3, _UNITS)}),
    ),
]
