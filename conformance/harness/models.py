"""Small hand-built models the suite and the project's tests start from.

Each builder returns a valid ``hal.Model`` (tests mutate copies of it) whose
expected results are easy to derive by hand.
"""

from __future__ import annotations

import struct

import numpy as np

from hal.types import (
    DataLocation,
    FusedActivationFunc,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)


def scalar_int32(value: int, operand_values: bytearray) -> Operand:
    """A CONSTANT_COPY INT32 scalar appended to ``operand_values``."""
    offset = len(operand_values)
    operand_values += struct.pack("<i", value)
    return Operand(
        OperandType.INT32,
        [],
        number_of_consumers=1,
        lifetime=OperandLifeTime.CONSTANT_COPY,
        location=DataLocation(0, offset, 4),
    )


def binary_model(
    operation: int = OperationType.ADD,
    type_: int = OperandType.TENSOR_FLOAT32,
    dims: tuple[int, ...] = (2, 2),
    other_dims: tuple[int, ...] | None = None,
    output_dims: tuple[int, ...] | None = None,
    activation: int = FusedActivationFunc.NONE,
    quant: tuple[tuple[float, int], tuple[float, int], tuple[float, int]] | None = None,
    constant_b: np.ndarray | None = None,
) -> Model:
    """``out = op(a, b, activation)`` with a, b model inputs (or b a CONSTANT_COPY).

    ``quant`` gives (scale, zeroPoint) of a, b and out for quantized types;
    the default for TENSOR_QUANT8_ASYMM is (0.5, 0), (0.5, 0), (1.0, 0).
    ``output_dims`` defaults to the broadcast shape; give zeros for a dynamic output.
    """
    other = dims if other_dims is None else other_dims
    if output_dims is None:
        output_dims = tuple(np.broadcast_shapes(dims, other))
    if quant is None:
        quant = (
            ((0.5, 0), (0.5, 0), (1.0, 0))
            if type_ == OperandType.TENSOR_QUANT8_ASYMM
            else (
                (0.0, 0),
                (0.0, 0),
                (0.0, 0),
            )
        )
    values = bytearray()
    a = Operand(type_, list(dims), 1, *quant[0], OperandLifeTime.MODEL_INPUT)
    if constant_b is None:
        b = Operand(type_, list(other), 1, *quant[1], OperandLifeTime.MODEL_INPUT)
    else:
        data = np.ascontiguousarray(constant_b).tobytes()
        b = Operand(
            type_,
            list(other),
            1,
            *quant[1],
            OperandLifeTime.CONSTANT_COPY,
            DataLocation(0, 0, len(data)),
        )
        values += data
    act = scalar_int32(activation, values)
    out = Operand(type_, list(output_dims), 0, *quant[2], OperandLifeTime.MODEL_OUTPUT)
    inputs = [0] if constant_b is not None else [0, 1]
    return Model(
        operands=[a, b, act, out],
        operations=[Operation(operation, [0, 1, 2], [3])],
        input_indexes=inputs,
        output_indexes=[3],
        operand_values=bytes(values),
    )


def chain_model(length: int = 2, type_: int = OperandType.TENSOR_FLOAT32) -> Model:
    """``x -> ADD(x, x) -> ADD(t, t) -> ...``: ``length`` ADDs through temporaries.

    With input x the output is ``x * 2**length``.
    """
    values = bytearray()
    operands = [Operand(type_, [2], 2, lifetime=OperandLifeTime.MODEL_INPUT)]
    act_index = 1
    operands.append(scalar_int32(FusedActivationFunc.NONE, values))
    operands[act_index].number_of_consumers = length
    operations = []
    previous = 0
    for step in range(length):
        last = step == length - 1
        operands.append(
            Operand(
                type_,
                [2],
                0 if last else 2,
                lifetime=OperandLifeTime.MODEL_OUTPUT
                if last
                else OperandLifeTime.TEMPORARY_VARIABLE,
            )
        )
        current = len(operands) - 1
        operations.append(Operation(OperationType.ADD, [previous, previous, act_index], [current]))
        previous = current
    return Model(
        operands=operands,
        operations=operations,
        input_indexes=[0],
        output_indexes=[previous],
        operand_values=bytes(values),
    )
