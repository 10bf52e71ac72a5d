"""Quantization coupling (HAL 1.3): a case's signed twin, and which cases have one.

HAL 1.3 gives most operations with a TENSOR_QUANT8_ASYMM form a
TENSOR_QUANT8_ASYMM_SIGNED form computing the same thing 128 steps lower: a
model in which every unsigned 8-bit operand becomes signed, its zero point
and every byte of its data 128 lower, gives the unsigned model's results 128
lower (within the quantized tolerance). Android 11's VTS requires a 1.3 driver
to couple the two forms: one that supports a generated case with an unsigned
8-bit operand supports, prepares and computes its signed twin, and one that
declines the case declines the twin (docs/vts-parity.md 17).

``signed_twin(test)`` makes the twin of a generated case: the model (every
subgraph's TENSOR_QUANT8_ASYMM operands, their constants included) and every
example's inputs and expected outputs, shifted. Which cases have a twin is
decided by the catalog, not by a list of operations: a case couples when it
has a TENSOR_QUANT8_ASYMM operand and its twin is a valid HAL 1.3 model (so
an operation without a signed form, HASHTABLE_LOOKUP, LSH_PROJECTION,
QUANTIZED_16BIT_LSTM, or a CAST out of the unsigned type, leaves its cases
out), and its operations hold no quantized value the shift cannot reach:
PAD_V2's INT32 pad value, in the input's quantized units, is shifted with
the rest (``QUANTIZED_SCALARS``), which VTS leaves to no test.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from conformance.harness import items
from conformance.harness.calls import supported_operations
from conformance.harness.cases import Feed, GeneratedTest
from conformance.harness.items import CaseId
from conformance.harness.mutations import copy_model
from conformance.harness.prepared import prepared as prepare_cached
from conformance.harness.runner import describe_operations
from hal.catalog.build import SIGNED_SHIFT
from hal.types import (
    DataLocation,
    ErrorStatus,
    HalVersion,
    Model,
    OperandLifeTime,
    OperandType,
    OperationType,
)
from hal.validation import validate_model

SHIFT = SIGNED_SHIFT
"""How far a signed twin's zero points and values lie below the unsigned case's."""
UNSIGNED = OperandType.TENSOR_QUANT8_ASYMM
SIGNED = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
QUANTIZED_SCALARS = {OperationType.PAD_V2: (2, 0)}
"""Operations holding a quantized value in an INT32 scalar: operation -> (the scalar's input
position, the position of the tensor input whose quantization it is in). The twin shifts
the scalar when that tensor is unsigned (PAD_V2's pad value)."""


def _unsigned_operands(model: Model) -> bool:
    return any(o.type == UNSIGNED for _, graph in model.graphs() for o in graph.operands)


def _scalars_to_shift(model: Model) -> list[tuple[object, int]]:
    """(subgraph, operand index) of every INT32 scalar holding a value in an unsigned
    operand's quantized units (``QUANTIZED_SCALARS``)."""
    found = []
    for _, graph in model.graphs():
        for operation in graph.operations:
            spot = QUANTIZED_SCALARS.get(operation.type)
            if spot is None or max(spot) >= len(operation.inputs):
                continue
            scalar, tensor = (operation.inputs[k] for k in spot)
            if graph.operands[tensor].type == UNSIGNED:
                found.append((graph, scalar))
    return found


def twin_model(model: Model) -> Model:
    """``model`` with every TENSOR_QUANT8_ASYMM operand of every subgraph made
    TENSOR_QUANT8_ASYMM_SIGNED, its zero point and constant data 128 lower, and the INT32
    scalars of ``QUANTIZED_SCALARS`` 128 lower. A shifted constant's bytes are appended to
    the operand values (the original bytes stay, so constants sharing bytes are each moved
    once). The model's constant pools are shared, so a model with an unsigned constant in a
    pool is refused (ValueError): the generated corpus has none."""
    twin = copy_model(model)
    values = bytearray(twin.operand_values)
    scalars = {(id(graph), index) for graph, index in _scalars_to_shift(model)}
    for (_, graph), (_, copied) in zip(model.graphs(), twin.graphs(), strict=True):
        for index, operand in enumerate(copied.operands):
            shift_scalar = (id(graph), index) in scalars
            if operand.type != UNSIGNED and not shift_scalar:
                continue
            location = operand.location
            if operand.lifetime == OperandLifeTime.CONSTANT_REFERENCE:
                raise ValueError(
                    f"operand {index} is a constant in a pool: its twin would change the pool"
                )
            if not shift_scalar:
                operand.type = SIGNED
                operand.zero_point -= SHIFT
            if operand.lifetime != OperandLifeTime.CONSTANT_COPY:
                continue
            data = bytes(values[location.offset : location.offset + location.length])
            if shift_scalar:
                old = int.from_bytes(data, "little", signed=True)
                data = (old - SHIFT).to_bytes(len(data), "little", signed=True)
            else:
                data = bytes(b ^ 0x80 for b in data)  # x - 128 in int8 is x XOR 0x80
            operand.location = DataLocation(0, len(values), len(data))
            values += data
    twin.operand_values = bytes(values)
    return twin


def _shift_values(array: np.ndarray, signed: bool) -> np.ndarray:
    if signed:
        return (array.astype(np.int16) - SHIFT).astype(np.int8)
    return (array.astype(np.int64) - SHIFT).astype(array.dtype)  # an INT32 quantized scalar


def signed_twin(test: GeneratedTest) -> GeneratedTest:
    """The signed twin of a case (``couples(test)`` must hold): the model as ``twin_model``
    makes it, and each example's arguments of unsigned operands (and quantized scalars) 128
    lower."""
    model = test.model
    twin = twin_model(model)
    scalars = {index for graph, index in _scalars_to_shift(model) if graph is model}

    def shifted(indexes: list[int], arrays: list[np.ndarray]) -> list[np.ndarray]:
        result = []
        for index, array in zip(indexes, arrays, strict=True):
            if model.operands[index].type == UNSIGNED:
                array = _shift_values(array, True)
            elif index in scalars and array.size:
                array = _shift_values(array, False)
            result.append(array)
        return result

    feeds = [
        Feed(shifted(model.input_indexes, f.inputs), shifted(model.output_indexes, f.outputs))
        for f in test.feeds
    ]
    return replace(test, model=twin, feeds=feeds, version="V1_3")


def inexact_twin(model: Model) -> bool:
    """Whether an operation of ``model`` computes its unsigned form by an integer procedure
    whose signed twin is not the same 128 lower. HARD_SWISH (HAL 1.3) adds its output zero
    point on int16 after the output rescale: when that rescale leaves the value unshifted
    (output multiplier from 1/2 to 1: output scale at most 1/64 of the input's) a value near
    32767 can wrap, and only with an unsigned zero point above 127 (Android 11's unsigned
    kernel then gives 0 where the signed one gives 127)."""
    for _, graph in model.graphs():
        for operation in graph.operations:
            if operation.type != OperationType.HARD_SWISH:
                continue
            x, y = graph.operands[operation.inputs[0]], graph.operands[operation.outputs[0]]
            if y.type == UNSIGNED and y.zero_point > 127 and 64 * y.scale <= x.scale:
                return True
    return False


def couples(test: GeneratedTest) -> bool:
    """Whether ``test`` has a signed twin the coupling items run: it has a
    TENSOR_QUANT8_ASYMM operand, no unsigned constant in a pool, no operation whose twin
    computes something else (``inexact_twin``), and its twin is a valid HAL 1.3 model (the
    catalog has the signed form of each of its operations)."""
    model = test.model
    if not _unsigned_operands(model) or inexact_twin(model):
        return False
    try:
        twin = twin_model(model)
    except ValueError:
        return False
    return validate_model(twin, HalVersion.V1_3, limit=1).ok


def prepared_twin(
    device: object, test: GeneratedTest, twin: GeneratedTest, timeout: float, rerun: str = ""
) -> object:
    """The signed twin of ``test`` prepared at HAL 1.3, once the driver's answers about the
    pair agree (cached per worker, as every generated preparation is):

    * the case (``test``) declined: the twin must be declined too (VTS 1.3), and the item
      is skipped as unsupported; a twin prepared fails it;
    * the case prepared: every operation reported supported in it is reported supported
      in the twin (``get_supported_operations_1_3``), and the twin prepares; a twin
      declined, or reported less supported, fails the item.
    """
    level = HalVersion.V1_3
    case = CaseId.of(test).case
    then = f"\nrerun: {rerun}" if rerun else ""
    declined = _skip_of(lambda: prepare_cached(device, test.model, level, timeout))
    if declined is not None:
        if _skip_of(lambda: prepare_cached(device, twin.model, level, timeout)) is not None:
            items.unsupported(f"{declined.msg} (nor its signed twin)")
        items.fail(
            f"the driver prepared the signed twin of {case} (its TENSOR_QUANT8_ASYMM operands "
            f"made TENSOR_QUANT8_ASYMM_SIGNED) but declined the case itself ({declined.msg}): "
            f"a HAL 1.3 driver supports both forms or neither{then}"
        )
    _, unsigned = supported_operations(device, test.model, level)
    status, signed = supported_operations(device, twin.model, level)
    assert status == ErrorStatus.NONE, (
        f"get_supported_operations_1_3 returned {status.name} for the signed twin of {case}, "
        f"a valid model{then}"
    )
    lost = [k for k, (a, b) in enumerate(zip(unsigned, signed, strict=True)) if a and not b]
    if lost:
        items.fail(
            f"get_supported_operations_1_3 reports {describe_operations(twin.model, lost)} "
            f"of the signed twin of {case} unsupported, but supports "
            f"{'it' if len(lost) == 1 else 'them'} with TENSOR_QUANT8_ASYMM operands: a HAL "
            f"1.3 driver supports the signed form of every unsigned one it supports{then}"
        )
    prepared: list[object] = []
    skip = _skip_of(lambda: prepared.append(prepare_cached(device, twin.model, level, timeout)))
    if skip is not None:
        items.fail(
            f"the driver prepared {case} but not its signed twin ({skip.msg}): a HAL 1.3 "
            f"driver supports the signed form of every unsigned one it supports{then}"
        )
    return prepared[0]


def _skip_of(call) -> pytest.skip.Exception | None:
    """The skip ``call()`` raised (a declined preparation), or None."""
    try:
        call()
    except pytest.skip.Exception as skip:
        return skip
    return None
