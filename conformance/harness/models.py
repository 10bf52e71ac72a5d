"""Small hand-built models the suite and the project's tests start from.

Each builder returns a valid ``hal.Model`` (tests mutate copies of it) whose
expected results are easy to derive by hand.
"""

from __future__ import annotations

import copy
import struct

import numpy as np

from hal.memory import Memory, allocate_with
from hal.operations import ConstraintContext, Signature
from hal.types import (
    DataLocation,
    FusedActivationFunc,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    SymmPerChannelQuantParams,
    is_scalar_type,
    operand_byte_size,
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


_QUANT_DEFAULTS = {
    OperandType.TENSOR_QUANT8_ASYMM: (0.5, 0),
    OperandType.TENSOR_QUANT8_ASYMM_SIGNED: (0.5, 0),
    OperandType.TENSOR_QUANT8_SYMM: (0.5, 0),
    OperandType.TENSOR_QUANT16_ASYMM: (0.125, 0),
    OperandType.TENSOR_QUANT16_SYMM: (0.125, 0),
}
_Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL


def signature_model(
    signature: Signature,
    *,
    input_count: int | None = None,
    output_count: int | None = None,
) -> Model:
    """A minimal valid model running one operation in the form ``signature`` describes.

    Tensor inputs are model inputs of the smallest rank the signature allows
    (at least 1) with every dimension 1;
    scalars are CONSTANT_COPY zeros; outputs are rank-1 model outputs of
    unknown size (a scalar output, RANK's, has no dimensions). Quantized tensors of one type share one scale and zero
    point (so "same as input" rules hold and outputs exceed input products),
    a TENSOR_INT32 bias after a quantized filter takes the product scale, a
    per-channel tensor has channelDim 0 and unit scales. Last, each of the
    signature's constraints that can ``fix`` a model does (fixed quantization,
    ranks a version demands, a required channelDim).
    ``input_count``/``output_count`` expand a repeated slot.
    """
    min_rank = {slot: low for slot, low, _ in signature.ranks}
    inputs = _expand(signature.inputs, signature.repeat_input, input_count)
    outputs = _expand(signature.outputs, signature.repeat_output, output_count)
    values = bytearray()
    operands: list[Operand] = []
    for slot, type_ in enumerate(inputs):
        if is_scalar_type(type_):
            size = operand_byte_size(type_, [])
            location = DataLocation(0, len(values), size)
            operands.append(
                Operand(type_, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
            )
            values += bytes(size)
        else:
            rank = max(1, min_rank.get(slot, 1))
            operands.append(_tensor(type_, [1] * rank, OperandLifeTime.MODEL_INPUT))
    for type_ in outputs:
        dims = [] if is_scalar_type(type_) else [0]  # RANK (1.3) has a scalar output
        operands.append(_tensor(type_, dims, OperandLifeTime.MODEL_OUTPUT))
    _bias_scales(inputs, operands)
    n_in = len(inputs)
    model = Model(
        operands=operands,
        operations=[
            Operation(signature.operation, list(range(n_in)), list(range(n_in, len(operands))))
        ],
        input_indexes=[
            i for i in range(n_in) if operands[i].lifetime == OperandLifeTime.MODEL_INPUT
        ],
        output_indexes=list(range(n_in, len(operands))),
        operand_values=bytes(values),
    )
    context = ConstraintContext(model, model.operations[0], signature.since)
    for constraint in signature.constraints:
        if constraint.fix is not None:
            constraint.fix(context)
    return model


def _expand(types: tuple[int, ...], repeat: int | None, count: int | None) -> tuple[int, ...]:
    if repeat is None or count is None or count <= len(types):
        return types
    extra = (types[repeat],) * (count - len(types))
    return types[: repeat + 1] + extra + types[repeat + 1 :]


def _tensor(type_: int, dims: list[int], lifetime: int) -> Operand:
    scale, zero_point = _QUANT_DEFAULTS.get(type_, (0.0, 0))
    consumers = 1 if lifetime == OperandLifeTime.MODEL_INPUT else 0
    extra = None
    if type_ == _Q8C:
        extra = SymmPerChannelQuantParams((1.0,), 0)
    return Operand(type_, dims, consumers, scale, zero_point, lifetime, extra_params=extra)


def _bias_scales(inputs: tuple[int, ...], operands: list[Operand]) -> None:
    """A TENSOR_INT32 input right after a quantized filter is a bias: scale in x filter."""
    for slot in range(2, len(inputs)):
        filter_type = inputs[slot - 1]
        if inputs[slot] == OperandType.TENSOR_INT32 and filter_type in (
            OperandType.TENSOR_QUANT8_ASYMM,
            OperandType.TENSOR_QUANT8_ASYMM_SIGNED,
            _Q8C,
        ):
            product = operands[0].scale * operands[slot - 1].scale
            operands[slot].scale = 0.0 if filter_type == _Q8C else product


CONSTANT_POOL_THRESHOLD = 128
"""Constants longer than this many bytes move into a pool in ``with_constants_in_pool``."""


def with_constants_in_pool(
    model: Model, kind: str = "ashmem", threshold: int = CONSTANT_POOL_THRESHOLD
) -> tuple[Model, Memory] | None:
    """A copy of ``model`` whose CONSTANT_COPY operands over ``threshold`` bytes, in every
    subgraph (the main one and those IF and WHILE refer to), are CONSTANT_REFERENCE
    operands in one new pool (at odd offsets), and that pool; None when no constant is
    that large. The caller closes the pool."""
    large = [
        (g, i)
        for g, (_, graph) in enumerate(model.graphs())
        for i, operand in enumerate(graph.operands)
        if operand.lifetime == OperandLifeTime.CONSTANT_COPY and operand.location.length > threshold
    ]
    if not large:
        return None
    moved = copy.deepcopy(model)
    graphs = [graph for _, graph in model.graphs()]
    moved_graphs = [graph for _, graph in moved.graphs()]
    data = bytearray(b"\x00")  # offset 1: no constant starts aligned
    for g, i in large:
        location = graphs[g].operands[i].location
        chunk = model.operand_values[location.offset : location.offset + location.length]
        moved_graphs[g].operands[i].lifetime = OperandLifeTime.CONSTANT_REFERENCE
        moved_graphs[g].operands[i].location = DataLocation(len(moved.pools), len(data), len(chunk))
        data += chunk + b"\x00"
    pool = allocate_with(kind, bytes(data))
    moved.pools = [*moved.pools, pool]
    return moved, pool
