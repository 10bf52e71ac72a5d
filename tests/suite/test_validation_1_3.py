"""The validation families at HAL 1.3: the signed 8-bit type, VTS 1.3's skip lists, and the
features of a later level tried through an earlier level's methods, as the catalog dates
them. The signed models are the coupling twins of generated cases (the corpus's own signed
cases come with the 1.3 specs); every mutation claiming 1.3 must break one of its family's
rules there, as the library judges it."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.harness.coupling import couples, signed_twin
from conformance.harness.generated import corpus
from conformance.harness.items import CaseId
from conformance.harness.mutations import FAMILIES, close_new_pools, copy_model, model_families
from hal.types import HalVersion, Model, OperandType
from hal.validation import validate_model

V1_2, V1_3 = HalVersion.V1_2, HalVersion.V1_3
SIGNED = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
TWINS_OF = (
    "V1_0/add/quant8_none",
    "V1_0/conv2d/same_quant8",
    "V1_0/dequantize/base",
    "V1_0/logistic/quant8",
    "V1_2/pad_v2/quant8",
    "V1_2/quantize/base",
)
"""Cases whose signed twins the families are run on: free and fixed quantizations, a
signed constant, a signed input of a float output and a signed output of a float input."""


@functools.cache
def _cases() -> dict[str, object]:
    return {CaseId.of(t).case: t for t in corpus()}


def _case(name: str):
    return _cases()[name]


@functools.cache
def _twins() -> tuple:
    twins = []
    for name in TWINS_OF:
        test = _case(name)
        assert couples(test), name
        twins.append(signed_twin(test).model)
    return tuple(twins)


def _verdict(model: Model, mutation, level: HalVersion):
    mutated = mutation.apply(model)
    try:
        return validate_model(mutated, level)
    finally:
        close_new_pools(model, mutated)


@pytest.mark.parametrize("family", model_families(), ids=lambda f: f.name)
def test_every_mutation_of_a_signed_model_at_1_3_breaks_a_family_rule(family) -> None:
    if family.pending:
        pytest.skip("the library has no rule for this family yet")
    for model in _twins():
        assert validate_model(model, V1_3).ok and not validate_model(model, V1_2).ok
        for mutation in family.mutations(model):
            if V1_3 not in mutation.levels or mutation.preference is not None:
                continue
            result = _verdict(model, mutation, V1_3)
            assert not result.ok, f"{mutation!r} is valid at HAL 1.3"
            assert result.rule_names & set(family.rules), (
                f"{mutation!r} breaks {sorted(result.rule_names)}, none of {family.rules}"
            )


def _signed_operands(model: Model) -> list[int]:
    return [i for i, o in enumerate(model.operands) if o.type == SIGNED]


def test_the_signed_zero_points_just_outside_the_range_are_the_mutations() -> None:
    """-129 and 128 for every signed operand; and the library accepts the range's ends, so
    the sampled values (anything outside it) never fall inside."""
    add = _twins()[0]
    mutations = FAMILIES["operand_zero_point"].mutations(add)
    for i in _signed_operands(add):
        mine = sorted(m.name for m in mutations if m.name.startswith(f"operand{i}."))
        assert mine == [f"operand{i}.zero_point=-129", f"operand{i}.zero_point=128"]
        for zero_point in (-128, 0, 127):
            edited = copy_model(add)
            edited.operands[i].zero_point = zero_point
            assert validate_model(edited, V1_3).ok, (i, zero_point)


@settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_sampled_signed_zero_points_lie_outside_the_range(data) -> None:
    add = _twins()[0]
    mutation = data.draw(FAMILIES["operand_zero_point"].strategy(add))
    mutated = mutation.apply(add)
    changed = [
        i
        for i, (a, b) in enumerate(zip(add.operands, mutated.operands, strict=True))
        if a.zero_point != b.zero_point
    ]
    assert len(changed) == 1
    operand = mutated.operands[changed[0]]
    if operand.type == SIGNED:
        assert not -128 <= operand.zero_point <= 127
    assert not validate_model(mutated, V1_3).ok


def _levels(family: str, model: Model, name: str) -> set[str] | None:
    for mutation in FAMILIES[family].mutations(model):
        if mutation.name == name:
            return {str(level) for level in mutation.levels}
    return None


def test_vts_1_3_skips_retypes_its_operations_take() -> None:
    """AXIS_ALIGNED_BBOX_TRANSFORM's input 1 as TENSOR_QUANT8_ASYMM: tried below 1.3 as VTS
    1.2 tries it, not at 1.3 (VTS 1.3 skips it); a CAST model is never retyped to the
    signed type by the VTS family, always by ours."""
    boxes = _case("V1_2/axis_aligned_bbox_transform/base").model
    name = "operand1.retype=TENSOR_QUANT8_ASYMM"
    assert _levels("operand_retype_vts", boxes, name) == {"1.0", "1.1", "1.2"}
    cast = _case("V1_2/cast/float32_to_int32").model
    retype = "operand0.retype=TENSOR_QUANT8_ASYMM_SIGNED"
    assert _levels("operand_retype_vts", cast, retype) is None
    assert _levels("operand_retype_clean", cast, retype) == {"1.3"}


def test_outputs_whose_count_varies_are_not_removed_where_the_catalog_lets_it_vary() -> None:
    """VTS's removeOperandTest skips SPLIT's and the bidirectional sequences' outputs, and
    1.3's the unidirectional sequences' too: the catalog's forms give the same lists."""
    lstm = _case("V1_2/unidirectional_sequence_lstm/time_major")
    output = lstm.model.operations[0].outputs[0]
    assert _levels("operand_removed_vts", lstm.model, f"operand{output}.removed") == {
        "1.0",
        "1.1",
        "1.2",
    }
    split = _case("V1_2/split/base").model
    outputs = split.operations[0].outputs
    names = {m.name for m in FAMILIES["operand_removed_vts"].mutations(split)}
    assert not names & {f"operand{i}.removed" for i in outputs}


def test_a_1_3_operation_and_a_1_3_optional_input_go_through_the_older_methods() -> None:
    """The catalog dates them: a HARD_SWISH in place of a float RELU, RESIZE_BILINEAR's
    align_corners after its layout; valid at 1.3, refused through the 1.0-1.2 methods. The
    family is built for 1.3 drivers only (a 1.2 driver's items stay what they were)."""
    assert FAMILIES["newer_1_3_feature"].level == V1_3 and FAMILIES["newer_feature"].level is None
    relu = _case("V1_0/relu/base").model
    assert _levels("newer_1_3_feature", relu, "operation0.type=HARD_SWISH") == {"1.0", "1.1", "1.2"}
    resize = _case("V1_2/resize_bilinear_v1_2/up_nhwc").model
    assert _levels("newer_1_3_feature", resize, "operation0.inputs+BOOL") == {
        "1.0",
        "1.1",
        "1.2",
    }
    family = FAMILIES["newer_1_3_feature"]
    for model, name in (
        (relu, "operation0.type=HARD_SWISH"),
        (resize, "operation0.inputs+BOOL"),
    ):
        (mutation,) = [m for m in family.mutations(model) if m.name == name]
        assert validate_model(mutation.apply(model), V1_3).ok  # a valid 1.3 model
        refused = validate_model(mutation.apply(model), V1_2)
        assert not refused.ok and refused.rule_names & set(family.rules)
