"""The signed twin of a generated case (conformance/harness/coupling.py), and which cases
have one: values worked out by hand, and the corpus's cases by the catalog's data."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.cases import Feed, GeneratedTest, Provenance
from conformance.harness.coupling import couples, signed_twin, twin_model
from conformance.harness.generated import corpus
from conformance.harness.items import CaseId
from conformance.harness.models import binary_model
from hal.types import (
    DataLocation,
    FusedActivationFunc,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)
from hal.validation import minimum_version

Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED


def _case(model: Model, feeds: list[Feed], operations: tuple[str, ...]) -> GeneratedTest:
    provenance = Provenance("conformance/specs/V1_0/made.mod.py", 1, (), operations)
    return GeneratedTest(
        "made", "made_dynamic_output_shape", "V1_0", model, feeds, provenance=provenance
    )


def test_the_twin_of_a_quant8_add_by_hand() -> None:
    constant = np.array([0, 127, 128, 255], np.uint8)
    model = binary_model(type_=Q8A, quant=((0.5, 100), (0.25, 0), (1.0, 255)), constant_b=constant)
    a = np.array([[10, 200], [0, 255]], np.uint8)
    out = np.array([[1, 2], [3, 4]], np.uint8)
    case = _case(model, [Feed([a], [out])], ("ADD",))
    twin = signed_twin(case)
    operands = twin.model.operands
    assert [o.type for o in operands[:2]] == [Q8AS, Q8AS]
    assert [(o.scale, o.zero_point) for o in operands[:2]] == [(0.5, -28), (0.25, -128)]
    assert (operands[-1].type, operands[-1].zero_point) == (Q8AS, 127)
    assert operands[2].type == OperandType.INT32  # the activation keeps its type and value
    location = operands[1].location
    data = twin.model.operand_values[location.offset : location.offset + location.length]
    assert list(np.frombuffer(data, np.int8)) == [-128, -1, 0, 127]
    activation = operands[2].location
    assert twin.model.operand_values[activation.offset : activation.offset + 4] == int(
        FusedActivationFunc.NONE
    ).to_bytes(4, "little")
    (feed,) = twin.feeds
    assert feed.inputs[0].dtype == np.int8 and feed.inputs[0].tolist() == [[-118, 72], [-128, 127]]
    assert feed.outputs[0].tolist() == [[-127, -126], [-125, -124]]
    assert case.model.operands[0].type == Q8A and case.feeds[0].inputs[0] is a  # untouched
    assert twin.version == "V1_3" and CaseId.of(twin) == CaseId.of(case)
    assert minimum_version(model) == HalVersion.V1_0
    assert minimum_version(twin.model) == HalVersion.V1_3
    assert couples(case)
    assert not couples(_case(binary_model(), [], ("ADD",)))  # no unsigned operand


def _pad_v2(pad_lifetime: OperandLifeTime) -> Model:
    """PAD_V2 of a [2] unsigned tensor by one element each side, with pad value 5."""
    values = bytearray(np.array([[1, 1]], np.int32).tobytes())
    pad_value = 5
    operands = [
        Operand(Q8A, [2], 1, 0.5, 3, OperandLifeTime.SUBGRAPH_INPUT),
        Operand(OperandType.TENSOR_INT32, [1, 2], 1, 0.0, 0, OperandLifeTime.CONSTANT_COPY,
                DataLocation(0, 0, 8)),
        Operand(OperandType.INT32, [], 1, 0.0, 0, pad_lifetime),
        Operand(Q8A, [4], 0, 0.5, 3, OperandLifeTime.SUBGRAPH_OUTPUT),
    ]  # fmt: skip
    inputs = [0]
    if pad_lifetime == OperandLifeTime.CONSTANT_COPY:
        operands[2].location = DataLocation(0, 8, 4)
        values += pad_value.to_bytes(4, "little")
    else:
        inputs.append(2)
    operation = Operation(OperationType.PAD_V2, [0, 1, 2], [3])
    return Model(operands, [operation], inputs, [3], bytes(values))


def test_pad_v2s_pad_value_moves_with_the_data() -> None:
    """The pad value is a quantized value held in an INT32 scalar: the twin shifts it too,
    a constant or a model input alike."""
    model = _pad_v2(OperandLifeTime.CONSTANT_COPY)
    twin = twin_model(model)
    pad = twin.operands[2].location
    value = twin.operand_values[pad.offset : pad.offset + pad.length]
    assert int.from_bytes(value, "little", signed=True) == 5 - 128
    assert model.operand_values[8:12] == (5).to_bytes(4, "little")  # the original unchanged
    assert twin.operand_values[:8] == model.operand_values[:8]  # the paddings untouched
    assert minimum_version(twin) == HalVersion.V1_3
    given = _pad_v2(OperandLifeTime.SUBGRAPH_INPUT)
    x, pad = np.array([7, 9], np.uint8), np.array(5, np.int32)
    out = np.array([5, 7, 9, 5], np.uint8)
    twin_case = signed_twin(_case(given, [Feed([x, pad], [out])], ("PAD_V2",)))
    inputs = twin_case.feeds[0].inputs
    assert inputs[0].tolist() == [-121, -119] and inputs[1].tolist() == -123
    assert inputs[1].dtype == np.int32
    assert twin_case.feeds[0].outputs[0].tolist() == [-123, -121, -119, -123]


def test_constants_sharing_bytes_are_each_moved_once() -> None:
    """Two unsigned constants given the same bytes (as a generator may share them) both end
    128 lower, not moved twice."""
    constant = np.array([0, 100, 200, 255], np.uint8)
    model = binary_model(type_=Q8A, constant_b=constant)
    model.operands[0].lifetime = OperandLifeTime.CONSTANT_COPY
    model.operands[0].location = model.operands[1].location
    model.input_indexes = []
    twin = twin_model(model)
    for operand in twin.operands[:2]:
        data = twin.operand_values[operand.location.offset :][: operand.location.length]
        assert list(np.frombuffer(data, np.int8)) == [-128, -28, 72, 127]


def test_a_constant_in_a_pool_is_refused() -> None:
    model = _pad_v2(OperandLifeTime.CONSTANT_COPY)
    model.operands[0].lifetime = OperandLifeTime.CONSTANT_REFERENCE
    with pytest.raises(
        ValueError, match="operand 0 is a constant in a pool: its twin would change the pool"
    ):
        twin_model(model)


def test_the_corpus_couples_by_the_catalog() -> None:
    """Every case with an unsigned 8-bit operand couples but those of the operations the
    catalog gives no signed form (HASHTABLE_LOOKUP, LSH_PROJECTION, QUANTIZED_16BIT_LSTM)
    and CASTs out of the unsigned type; PAD_V2 couples."""
    unsigned = [
        t for t in corpus()
        if any(o.type == Q8A for _, g in t.model.graphs() for o in g.operands)
    ]  # fmt: skip
    left_out = {op for t in unsigned if not couples(t) for op in t.provenance.operations}
    assert left_out == {
        "HASHTABLE_LOOKUP",
        "LSH_PROJECTION",
        "QUANTIZED_16BIT_LSTM",
        "CAST",
        "HARD_SWISH",  # its zero_point_wrap case alone (the next test)
    }
    coupled = [t for t in unsigned if couples(t)]
    assert any("PAD_V2" in t.provenance.operations for t in coupled)
    assert len(coupled) > 500
    for test in coupled[::25]:
        twin = signed_twin(test)
        assert minimum_version(twin.model) == HalVersion.V1_3
        assert not any(o.type == Q8A for _, g in twin.model.graphs() for o in g.operands)


def test_a_hard_swish_whose_unsigned_zero_point_can_wrap_has_no_twin() -> None:
    """V1_3/hard_swish/zero_point_wrap (output scale under 1/64 of the input's, output zero
    point 255) wraps on int16 in the unsigned form only: no coupling item; the other
    quantized HARD_SWISH cases (output zero points up to 128, or coarser scales) couple."""
    swish = {
        t.name: couples(t)
        for t in corpus()
        if t.provenance.operations == ("HARD_SWISH",)
        and any(o.type == Q8A for o in t.model.operands)
    }
    # the case and its Android 11 lifetime variation (an ADD feeding its input)
    assert [name for name, twin in swish.items() if not twin] == [
        "hard_swish_zero_point_wrap",
        "hard_swish_zero_point_wrap_all_inputs_as_internal",
    ]
    assert sum(swish.values()) >= 3
