"""The validation families on models with control flow (HAL 1.3).

The models are hand-built (``VALIDATION_MODELS`` of tests/support/control_flow_models.py): an
IF, an IF over quantized values, a WHILE with a state-only value, and an IF whose branch is a
WHILE.
Every model family, VTS's included, is run on each: a mutation claiming 1.3 must break
one of its family's rules there, as ``hal.validation`` judges it. The control-flow
families (``cf_*``) are checked one by one: each mutation names its rule, and with the
family's rules switched off the library accepts the mutated model (so the fault is that
rule's alone). VTS 1.3's handling of SUBGRAPH operands in its own families (scale 1.0,
zero point 1, no rank mutation, a retype to SUBGRAPH changing the type field alone) is
pinned here too.
"""

from __future__ import annotations

import numpy as np
import pytest
from control_flow_models import VALIDATION_MODELS, computed_if_model, state_while_model

from conformance.harness.mutations import (
    FAMILIES,
    Family,
    RequestSubject,
    case_id,
    close_new_pools,
    copy_model,
    corpus,
    model_families,
    request_families,
)
from conformance.harness.mutations.control_flow import holds_control_flow
from conformance.harness.requests import pack_request
from hal.types import HalVersion, Model, OperandType, OperationType, numpy_dtype
from hal.validation import validate_model, validate_request

V1_2, V1_3 = HalVersion.V1_2, HalVersion.V1_3
CONTROL_FLOW = [f for f in model_families() if f.name.startswith("cf_")]
SUBGRAPH = OperandType.SUBGRAPH
CONTROL_FLOW_OPS = (OperationType.IF, OperationType.WHILE)


def _verdict(model: Model, mutation, disabled=()):
    mutated = mutation.apply(model)
    try:
        return validate_model(mutated, V1_3, disabled=set(disabled))
    finally:
        close_new_pools(model, mutated)


@pytest.mark.parametrize("name", sorted(VALIDATION_MODELS))
def test_the_models_are_valid_at_1_3_only(name: str) -> None:
    model = VALIDATION_MODELS[name]()
    assert validate_model(model, V1_3).ok
    assert holds_control_flow(model)
    assert "model.referenced_version" in validate_model(model, V1_2).rule_names


def _generated() -> dict[str, Model]:
    """The first generated case of each spec whose model holds control flow (the V1_3
    control-flow specs), by case id."""
    found: dict[str, Model] = {}
    specs: set[tuple] = set()
    for test in corpus():
        spec = (test.hal_folder, test.provenance.spec)
        if holds_control_flow(test.model) and spec not in specs:
            specs.add(spec)
            found[case_id(test)] = test.model
    return found


GENERATED = _generated()


@pytest.mark.parametrize("family", model_families(), ids=lambda f: f.name)
def test_every_mutation_of_a_control_flow_model_breaks_a_family_rule(family: Family) -> None:
    """On the hand-built models and on one generated case of each control-flow spec."""
    builders = {
        **VALIDATION_MODELS,
        **{cid: (lambda m=m: copy_model(m)) for cid, m in GENERATED.items()},
    }
    for name, build in builders.items():
        model = build()
        before = copy_model(model)
        mutations = family.mutations(model)
        assert len({m.name for m in mutations}) == len(mutations), "names repeat"
        again = [(m.name, m.description, m.levels) for m in family.mutations(model)]
        assert [(m.name, m.description, m.levels) for m in mutations] == again
        for mutation in mutations:
            if V1_3 not in mutation.levels or mutation.preference is not None:
                continue
            result = _verdict(model, mutation)
            assert not result.ok, f"{name}: {mutation!r} is valid at HAL 1.3"
            assert result.rule_names & set(family.rules), (
                f"{name}: {mutation!r} breaks {sorted(result.rule_names)}, none of {family.rules}"
            )
        assert model == before, "a mutation changed the original"


@pytest.mark.parametrize("family", CONTROL_FLOW, ids=lambda f: f.name)
def test_each_control_flow_family_is_one_rule_fault(family: Family) -> None:
    """Its mutations are of HAL 1.3 only and name a rule of the family; some model admits it,
    and with its rules off the library accepts some mutation: a driver lacking exactly them
    is caught by the family alone."""
    assert family.level == V1_3
    admitted = clean = 0
    for build in VALIDATION_MODELS.values():
        model = build()
        for mutation in family.mutations(model):
            admitted += 1
            assert mutation.levels == frozenset({V1_3})
            assert any(rule in mutation.description for rule in family.rules), mutation
            clean += _verdict(model, mutation, family.rules + family.side_rules).ok
    assert admitted and clean


@pytest.mark.parametrize("family", CONTROL_FLOW, ids=lambda f: f.name)
def test_control_flow_families_leave_models_without_control_flow_alone(family: Family) -> None:
    plain = [t for t in corpus() if not t.model.referenced][:200]
    assert plain
    for test in plain:
        assert not family.applies(test.model), test.provenance


def test_cycle_mutations_make_exactly_a_cycle() -> None:
    model = computed_if_model()
    family = FAMILIES["cf_reference_cycle"]
    sentences = {m.name: m for m in family.mutations(model)}
    assert set(sentences) == {
        "referenced0.calls_itself",
        "referenced0.calls_its_caller",
        "referenced1.calls_itself",
        "referenced1.calls_its_caller",
    }
    result = _verdict(model, sentences["referenced0.calls_its_caller"])
    assert [str(v) for v in result.violations] == [
        "model.no_reference_cycles: the subgraph references form a cycle: referenced[0] -> "
        "referenced[2] -> referenced[0]"
    ]
    result = _verdict(model, sentences["referenced1.calls_itself"])
    assert [str(v) for v in result.violations] == [
        "model.no_reference_cycles: the subgraph references form a cycle: referenced[1] -> "
        "referenced[1]"
    ]


def test_while_ties_are_each_mutated() -> None:
    names = {m.name for m in FAMILIES["cf_while_signature_mismatch"].mutations(state_while_model())}
    # WHILE input i <-> condition and body input i; WHILE output j <-> body output j;
    # body output <-> body input (the state-only value n, body output 2, included)
    assert {
        "operation0.input2.type=TENSOR_FLOAT16",
        "operation0.input4.dim0+1",
        "operation0.output1.rank+1",
        "operation0.referenced1.output2.dim0+1",
    } <= names


# ---------------------------------------------------------------------------
# VTS 1.3's families and SUBGRAPH operands
# ---------------------------------------------------------------------------


def _subgraph_operands(model: Model) -> list[int]:
    return [i for i, o in enumerate(model.operands) if o.type == SUBGRAPH]


@pytest.mark.parametrize("build", [computed_if_model, state_while_model], ids=["if", "while"])
def test_subgraph_operands_get_the_scalars_scale_and_zero_point(build) -> None:
    model = build()
    refs = _subgraph_operands(model)
    assert len(refs) == 2
    for family, field, value in (
        ("operand_scale", "scale", 1.0),
        ("operand_zero_point", "zero_point", 1),
    ):
        for i in refs:
            [mutation] = [
                m for m in FAMILIES[family].mutations(model) if m.name.startswith(f"operand{i}.")
            ]
            mutated = mutation.apply(model)
            assert getattr(mutated.operands[i], field) == value
            assert validate_model(mutated, V1_3).rule_names == {f"operand.{field}"}


@pytest.mark.parametrize("build", [computed_if_model, state_while_model], ids=["if", "while"])
def test_subgraph_operands_are_not_rank_mutated(build) -> None:
    model = build()
    for mutation in FAMILIES["operand_rank"].mutations(model):
        assert not any(mutation.name.startswith(f"operand{i}.") for i in _subgraph_operands(model))


@pytest.mark.parametrize(
    ("build", "tie"),
    [(computed_if_model, "if.branch_compatible"), (state_while_model, "while.body_signature")],
    ids=["if", "while"],
)
def test_a_retype_to_subgraph_changes_the_type_field_alone(build, tie: str) -> None:
    model = build()
    x = 3  # a value of the IF or WHILE, a TENSOR_FLOAT32 [2] model input in both models
    [mutation] = [
        m
        for m in FAMILIES["operand_retype_vts"].mutations(model)
        if m.name == f"operand{x}.retype=SUBGRAPH"
    ]
    mutated = mutation.apply(model)
    original, retyped = model.operands[x], mutated.operands[x]
    assert (original.type, retyped.type) == (OperandType.TENSOR_FLOAT32, SUBGRAPH)
    assert (retyped.dimensions, retyped.scale, retyped.zero_point, retyped.lifetime) == (
        original.dimensions,
        original.scale,
        original.zero_point,
        original.lifetime,
    )
    assert {"operand.subgraph_pairing", tie} <= validate_model(mutated, V1_3).rule_names


def test_the_vts_families_mutate_the_operands_of_if_and_while() -> None:
    """VTS 1.3 retypes, removes and adds operands of IF and WHILE like any operation's; the
    catalog has no form for them, so the families read their subgraphs."""
    for build, op in ((computed_if_model, "IF"), (state_while_model, "WHILE")):
        model = build()
        for name in (
            "operand_retype_vts",
            "operand_retype_clean",
            "operand_removed_clean",
            "operation_input_removed",
            "operation_input_added",
            "operation_output_added",
        ):
            sentences = [m.description for m in FAMILIES[name].mutations(model)]
            assert any(op in s for s in sentences), (name, op)


# ---------------------------------------------------------------------------
# Requests to a model with control flow
# ---------------------------------------------------------------------------


def _zeros(model: Model) -> list[np.ndarray]:
    arrays = []
    for i in model.input_indexes:
        operand = model.operands[i]
        arrays.append(np.zeros(operand.dimensions, numpy_dtype(operand.type)))
    return arrays


@pytest.mark.parametrize("name", sorted(VALIDATION_MODELS))
def test_every_request_family_applies_to_a_control_flow_model(name: str) -> None:
    """A request names the main subgraph's inputs and outputs only, whatever the subgraphs
    do with them: every request family but the dynamic-twin one (below 1.2 only) applies to
    a control-flow model at 1.3, and each mutation breaks one of its family's rules."""
    model = VALIDATION_MODELS[name]()
    applied = set()
    with pack_request(model, _zeros(model)) as packed:
        assert validate_request(packed.request, model, V1_3).ok
        subject = RequestSubject(model, packed.request)
        for family in request_families():
            for mutation in family.mutations(subject):
                if V1_3 not in mutation.levels:
                    continue
                applied.add(family.name)
                result = validate_request(mutation.apply(packed.request), model, V1_3)
                assert result.rule_names & set(family.rules), (mutation, result.rule_names)
    expected = {f.name for f in request_families() if not f.twin}
    # An input read by IF or WHILE alone is no catalog slot: leaving it without a value is
    # an execution failure (Android 11's if_no_value models), not a validation one.
    fed = {i for op in model.operations if op.type not in CONTROL_FLOW_OPS for i in op.inputs}
    if not fed & set(model.input_indexes):
        expected.discard("request_required_no_value")
    assert applied == expected


def test_a_request_leaving_an_if_value_without_value_is_no_validation_error() -> None:
    model = VALIDATION_MODELS["quant_if"]()
    with pack_request(model, [np.ones([1], np.bool_), None]) as packed:
        assert packed.request.inputs[1].has_no_value
        assert validate_request(packed.request, model, V1_3).ok
