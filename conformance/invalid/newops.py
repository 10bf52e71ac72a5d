"""Invalid uses of ELU, HARD_SWISH and FILL (HAL 1.3): INVALID_ARGUMENT expected.

* ELU and HARD_SWISH: an output shaped unlike the input, refused at preparation.
* FILL: its output's shape is the content of input 0, so input 0 must be a rank-1
  tensor of sizes of 0 or more whose count and values the declared output agrees
  with. A constant input 0 is judged at preparation; one given by the request, at
  execution (its rank too, when the model leaves it unknown).

RANK's only constraint beyond its operand types (an INT32 scalar output) is
``hal.validation``'s, and so belongs to the model-validation suite. What Android 11
fails although the HAL allows it (a zero-sized ELU or RANK input, a quantized
HARD_SWISH whose output multiplier has an exponent above 0) is GENERAL_FAILURE, not
an invalid value, and is not listed here (docs/operations.md, ELU (98), HARD_SWISH (99)
and RANK (101)).
"""

from __future__ import annotations

from collections.abc import Sequence

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
I32T = OperandType.TENSOR_INT32
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
FLOAT32 = OperandType.FLOAT32
INT32 = OperandType.INT32
_ELU, _HARD_SWISH, _FILL = OperationType.ELU, OperationType.HARD_SWISH, OperationType.FILL


def _model(
    op: int,
    inputs: Sequence[tuple[int, Sequence[int], object]],
    output: tuple[int, Sequence[int]],
    quant: tuple[float, int] = (0.0, 0),
) -> Model:
    """``op(inputs) -> output``: an input whose value is None is a model input, the others
    constants; ``quant`` is every tensor's (scale, zero point) but TENSOR_INT32's."""
    operands, model_inputs, values = [], [], bytearray()
    for type_, dims, value in inputs:
        scale, zero_point = quant if type_ not in (I32T, FLOAT32, INT32) else (0.0, 0)
        if value is None:
            model_inputs.append(len(operands))
            operands.append(
                Operand(type_, list(dims), 1, scale, zero_point, OperandLifeTime.MODEL_INPUT)
            )
            continue
        dtype = {I32T: np.int32, INT32: np.int32, FLOAT32: np.float32}[type_]
        data = np.asarray(value, dtype).tobytes()
        location = DataLocation(0, len(values), len(data))
        values += data + bytes(-len(data) % 4)
        operands.append(
            Operand(type_, list(dims), 1, 0.0, 0, OperandLifeTime.CONSTANT_COPY, location)
        )
    out_type, out_dims = output
    operands.append(Operand(out_type, list(out_dims), 0, *quant, OperandLifeTime.MODEL_OUTPUT))
    return Model(
        operands=operands,
        operations=[Operation(op, list(range(len(inputs))), [len(inputs)])],
        input_indexes=model_inputs,
        output_indexes=[len(inputs)],
        operand_values=bytes(values),
    )


def _sizes(*values: int, shape: tuple[int, ...] | None = None):
    array = np.asarray(values, np.int32)
    return lambda: [array.reshape(shape) if shape else array]


CASES: list[InvalidCase] = [
    InvalidCase(
        "ELU/output_shape_differs",
        lambda: _model(_ELU, [(F32, [2, 3], None), (FLOAT32, [], 1.0)], (F32, [3, 2])),
    ),
    InvalidCase(
        "HARD_SWISH/output_shape_differs",
        lambda: _model(_HARD_SWISH, [(Q8AS, [4], None)], (Q8AS, [2, 2]), quant=(0.5, 0)),
    ),
    InvalidCase(
        "FILL/negative_size",
        lambda: _model(_FILL, [(I32T, [2], [3, -1]), (FLOAT32, [], 1.0)], (F32, [0, 0])),
    ),
    InvalidCase(
        "FILL/negative_size_at_execution",
        lambda: _model(_FILL, [(I32T, [2], None), (INT32, [], 7)], (I32T, [0, 0])),
        _sizes(-2, 3),
    ),
    InvalidCase(
        "FILL/shape_of_rank_2_at_execution",
        lambda: _model(_FILL, [(I32T, [], None), (FLOAT32, [], 1.0)], (F32, [])),
        _sizes(2, 2, shape=(1, 2)),
    ),
    InvalidCase(
        "FILL/output_differs_from_the_shape",
        lambda: _model(_FILL, [(I32T, [2], [2, 3]), (FLOAT32, [], 1.0)], (F32, [3, 2])),
    ),
    InvalidCase(
        "FILL/output_rank_differs_from_the_shape_length",
        lambda: _model(_FILL, [(I32T, [3], None), (FLOAT32, [], 1.0)], (F32, [0, 0])),
    ),
    InvalidCase(
        "FILL/output_differs_at_execution",
        lambda: _model(_FILL, [(I32T, [2], None), (FLOAT32, [], 1.0)], (F32, [2, 2])),
        _sizes(2, 5),
    ),
]
