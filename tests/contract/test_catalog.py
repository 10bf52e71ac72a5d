"""The operation catalog as a whole: complete, consistent, and what validation enforces.

Per-range facts (signatures of particular operations, cross-checked against
tables written by hand) are in test_catalog_00_47.py and test_catalog_48_94.py;
this module checks properties every entry must have, for every signature.
"""

from __future__ import annotations

import copy

import pytest

from conformance.harness.models import binary_model, signature_model
from hal.operations import (
    CATALOG,
    Signature,
    coverage_triples,
    match_signature,
    operation_info,
    signatures,
)
from hal.types import (
    DataLocation,
    HalVersion,
    Operand,
    OperandLifeTime,
    OperandType,
    OperationType,
    is_scalar_type,
)
from hal.validation import RULES, Tier, minimum_version, validate_model

STRICT_RULES = {name for name, rule in RULES.items() if rule.tier == Tier.STRICT}

ALL_SIGNATURES = [
    pytest.param(
        s,
        id=f"{s.operation.name}-{OperandType(s.variant).name}-{s.form or 'plain'}-{len(s.inputs)}in-{s.since}",
    )
    for op in OperationType
    for s in operation_info(op).signatures
]

# Written independently of the catalog: codes 0-28 came with HAL 1.0, 29-37 with 1.1,
# 38-94 with 1.2, 95-101 with 1.3.
_FIRST_1_1, _FIRST_1_2, _FIRST_1_3 = 29, 38, 95
_CONTROL_FLOW = {OperationType.IF, OperationType.WHILE}


def _model(signature: Signature):
    return signature_model(signature)


def _only_documented_later(result) -> bool:
    """Violations of nothing but a strict "documented from a later HAL" rule."""
    return all("[documented_since(" in v.message for v in result.violations)


def test_catalog_covers_exactly_the_operation_types() -> None:
    operation_info(OperationType.ADD)  # assembles the catalog
    assert set(CATALOG) == set(OperationType)
    fundamental = [op for op in OperationType if op != OperationType.OEM_OPERATION]
    assert len(fundamental) == 102
    missing = [op.name for op in fundamental if not CATALOG[op].signatures]
    # IF and WHILE take operands of any type: the control-flow rules check them.
    assert missing == ["IF", "WHILE"]
    assert CATALOG[OperationType.OEM_OPERATION].signatures == ()


@pytest.mark.parametrize("op", list(OperationType), ids=lambda op: op.name)
def test_introduced_version(op: OperationType) -> None:
    if op == OperationType.OEM_OPERATION or op < _FIRST_1_1:
        expected = HalVersion.V1_0
    elif op < _FIRST_1_2:
        expected = HalVersion.V1_1
    elif op < _FIRST_1_3:
        expected = HalVersion.V1_2
    else:
        expected = HalVersion.V1_3
    info = operation_info(op)
    assert info.introduced == expected
    assert min((s.since for s in info.signatures), default=expected) == expected


def test_no_duplicate_signatures() -> None:
    seen = {}
    for op in OperationType:
        for s in operation_info(op).signatures:
            key = (op, s.inputs, s.outputs, s.repeat_input, s.repeat_output)
            assert key not in seen, f"{s.describe()} repeats {seen[key].describe()}"
            seen[key] = s


def test_signature_types_are_known() -> None:
    for op in OperationType:
        for s in operation_info(op).signatures:
            for t in (*s.inputs, *s.outputs, s.variant):
                assert t in set(OperandType) and t < OperandType.OEM, s.describe()
            assert s.outputs, f"{s.describe()} has no outputs"
            for slot, low, high in s.ranks:
                assert 0 <= slot < len(s.inputs) and 0 <= low <= high, s.describe()
                assert not is_scalar_type(s.inputs[slot]), f"{s.describe()}: rank of a scalar"
            assert all(0 <= slot < len(s.inputs) for slot in s.omittable), s.describe()


@pytest.mark.parametrize("signature", ALL_SIGNATURES)
def test_minimal_model_is_valid_from_its_version(signature: Signature) -> None:
    model = _model(signature)
    for version in HalVersion:
        result = validate_model(model, version)
        if version >= signature.since:
            assert result.ok or _only_documented_later(result), (
                f"{signature.describe()} at {version}:\n{result}"
            )
    earlier = minimum_version(model, disabled=STRICT_RULES)
    assert earlier is not None and earlier <= signature.since
    match = match_signature(model, model.operations[0], signature.since)
    assert match.signature is not None and match.signature.accepts_types(
        signature.inputs if signature.repeat_input is None else match.signature.inputs,
        signature.outputs if signature.repeat_output is None else match.signature.outputs,
    )


@pytest.mark.parametrize("signature", ALL_SIGNATURES)
def test_too_old_version_is_rejected(signature: Signature) -> None:
    model = _model(signature)
    for version in HalVersion:
        if version >= signature.since:
            break
        accepted_earlier = any(
            s.since <= version and s.accepts_types(signature.inputs, signature.outputs)
            for s in operation_info(signature.operation).signatures
        )
        result = validate_model(model, version)
        assert result.ok == accepted_earlier, f"{signature.describe()} at {version}:\n{result}"


def _version(signature: Signature) -> HalVersion:
    """The level the mutated models are judged at: 1.2, or the form's own if newer."""
    return max(HalVersion.V1_2, signature.since)


def _accepted(
    op: OperationType,
    inputs: tuple[int, ...],
    outputs: tuple[int, ...],
    version: HalVersion = HalVersion.V1_2,
) -> bool:
    return any(s.accepts_types(inputs, outputs) for s in signatures(op, version))


@pytest.mark.parametrize("signature", ALL_SIGNATURES)
def test_wrong_input_count_is_rejected(signature: Signature) -> None:
    model = _model(signature)
    operation = model.operations[0]
    types = [model.operands[i].type for i in operation.inputs]
    outputs = tuple(model.operands[i].type for i in operation.outputs)
    dropped = copy.deepcopy(model)
    removed = dropped.operations[0].inputs.pop()
    dropped.operands[removed].number_of_consumers = 0
    version = _version(signature)
    accepted = _accepted(signature.operation, tuple(types[:-1]), outputs, version)
    _expect(dropped, accepted, "operation.signature", version)


@pytest.mark.parametrize("signature", ALL_SIGNATURES)
def test_wrong_input_type_is_rejected(signature: Signature) -> None:
    # Input 0 becomes a UINT32 scalar constant: valid as an operand, wrong for the operation.
    model = _model(signature)
    index = model.operations[0].inputs[0]
    model.input_indexes = [i for i in model.input_indexes if i != index]
    offset = len(model.operand_values)
    model.operand_values += bytes(4)
    model.operands[index] = Operand(
        OperandType.UINT32,
        [],
        1,
        lifetime=OperandLifeTime.CONSTANT_COPY,
        location=DataLocation(0, offset, 4),
    )
    operation = model.operations[0]
    types = tuple(model.operands[i].type for i in operation.inputs)
    outputs = tuple(model.operands[i].type for i in operation.outputs)
    version = _version(signature)
    _expect(
        model,
        _accepted(signature.operation, types, outputs, version),
        "operation.signature",
        version,
    )


def _expect(model, accepted: bool, rule: str, version: HalVersion = HalVersion.V1_2) -> None:
    result = validate_model(model, version)
    if accepted:
        assert rule not in result.rule_names, str(result)
    else:
        assert rule in result.rule_names, "expected a violation of " + rule


def test_coverage_triples() -> None:
    triples = coverage_triples()
    assert triples == sorted(set(triples))
    pairs = {(op, variant) for op, variant, _ in triples}
    assert len(pairs) == len(triples)
    ops = {op for op, _, _ in triples}
    assert ops == set(OperationType) - {OperationType.OEM_OPERATION} - _CONTROL_FLOW
    assert (OperationType.ADD, OperandType.TENSOR_FLOAT16, HalVersion.V1_2) in triples
    assert (OperationType.ADD, OperandType.TENSOR_FLOAT32, HalVersion.V1_0) in triples


def test_minimum_version() -> None:
    assert minimum_version(binary_model()) == HalVersion.V1_0
    assert minimum_version(binary_model(type_=OperandType.TENSOR_FLOAT16)) == HalVersion.V1_2
    relaxed = binary_model()
    relaxed.relax_computation_float32_to_float16 = True
    assert minimum_version(relaxed) == HalVersion.V1_1
    broken = binary_model()
    broken.operands[0].type = 14
    assert minimum_version(broken) is None


class _Int(int):
    """An int that describes itself its own way: its match must not be taken from a kept one."""

    def __format__(self, spec: str) -> str:
        return "odd"


def test_match_signature_is_kept_per_types_and_equal_to_a_fresh_one() -> None:
    """match_signature keeps its answer by operation, operand types and version: the same
    answer for enum members and equal ints, as the uncached path gives it; a fit at one
    version is not a fit at another; a type value of any other class is matched afresh."""
    from hal.operations import _match_types, _matched

    model = binary_model()
    operation = model.operations[0]
    first = match_signature(model, operation, HalVersion.V1_0)
    assert first.signature is not None and first.reason is None
    plain = binary_model()
    for operand in plain.operands:
        operand.type = int(operand.type)
    assert match_signature(plain, plain.operations[0], HalVersion.V1_0) is first  # kept
    info = operation_info(operation.type)
    inputs = tuple(model.operands[i].type for i in operation.inputs)
    outputs = tuple(model.operands[i].type for i in operation.outputs)
    assert _matched(info, inputs, outputs, HalVersion.V1_0) == first
    half = binary_model(type_=OperandType.TENSOR_FLOAT16)
    late = match_signature(half, half.operations[0], HalVersion.V1_1)
    assert late.signature is None and late.reason == (
        "ADD with inputs (TENSOR_FLOAT16, TENSOR_FLOAT16, INT32) needs HAL 1.2, model is 1.1"
    )
    assert match_signature(half, half.operations[0], HalVersion.V1_2).signature is not None
    odd = binary_model()
    odd.operands[0].type = _Int(99)
    hits = _match_types.cache_info().hits
    found = match_signature(odd, odd.operations[0], HalVersion.V1_2)
    assert _match_types.cache_info().hits == hits  # not looked up: matched afresh
    assert found.signature is None and "accepts no 3 inputs (unknown operand type odd" in (
        found.reason or ""
    )
