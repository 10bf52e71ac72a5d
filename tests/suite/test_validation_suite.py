"""The validation suite (conformance.test_validate_model / _request) catches what it must.

Three layers:

* the catalogue: family names select only their family with ``-k``, tiers
  follow the rules, the counts are at least VTS's;
* the mutations, checked against ``hal.validation`` on a few generated cases
  per family: every mutation (and every example a family's strategy draws) is
  invalid at the levels it claims and breaks one of the family's rules; the
  enumeration is deterministic and never changes the original; and with exactly
  the family's rules switched off some mutation is accepted;
* the suite itself, run by pytest against the reference driver: for each
  family, in-process (``pytester.inline_run``) against ``ReferenceDriver`` with
  exactly that family's rules switched off, restricted with ``-k`` to one item
  the family must fail, which it does, naming the mutation and the rerun
  command; in a subprocess, those items and every sampled test pass against the
  full reference driver, and a driver lacking two rules fails both families in
  the report a vendor sees (hypothesis's reproduction blob included).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from suite_outcomes import outcomes_of, with_outcome

from conformance.harness.generated import load_index
from conformance.harness.model_validation import model_family_applies, model_problems
from conformance.harness.mutations import (
    CONTROL_FLOW_FAMILIES,
    FAMILIES,
    MODEL,
    REQUEST,
    VTS,
    Family,
    Mutation,
    RequestSubject,
    case_id,
    close_new_pools,
    copy_model,
    corpus,
    model_families,
    representatives,
    request_families,
)
from conformance.harness.request_validation import (
    mutation_problems,
    request_family_applies,
    valid_request,
)
from conformance.harness.runner import dynamic_twin
from conformance.harness.validating import levels_for
from hal.types import HalVersion, Model, OperationType
from hal.validation import (
    RULES,
    Tier,
    ValidationResult,
    validate_execution_preference,
    validate_model,
    validate_request,
)
from reference_driver import ReferenceDriver

CASES_PER_FAMILY = 4
"""Generated cases per family the library checks run on (the first representatives it admits)."""
MODULE = {MODEL: "conformance.test_validate_model", REQUEST: "conformance.test_validate_request"}
ALL = [pytest.param(f, id=f.name) for f in FAMILIES.values()]
ACTIVE = [pytest.param(f, id=f.name) for f in FAMILIES.values() if not f.pending]
VTS_MODEL_TESTS = {
    "mutateOperandTypeTest",
    "mutateOperandRankTest",
    "mutateOperandScaleTest",
    "mutateOperandZeroPointTest",
    "mutateOperationOperandTypeTest",
    "mutateOperationTypeTest",
    "mutateOperationInputOperandIndexTest",
    "mutateOperationOutputOperandIndexTest",
    "removeOperandTest",
    "removeOperationTest",
    "removeOperationInputTest",
    "removeOperationOutputTest",
    "addOperationInputTest",
    "addOperationOutputTest",
    "mutateExecutionPreferenceTest",
}
"""The 15 model families of Android 10's ValidateModel.cpp (docs/vts-parity.md 2.3)."""

RULE_OFF_DRIVER = """
from reference_driver import ReferenceDriver


class Factory(ReferenceDriver):
    def __init__(self):
        super().__init__(disabled_rules={rules!r})
"""


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------


def test_counts_match_or_exceed_vts() -> None:
    models, requests = model_families(), request_families()
    assert {f.upstream for f in models if f.origin == VTS} == VTS_MODEL_TESTS
    assert {f.upstream for f in requests if f.origin == VTS} == {
        "removeInputTest",
        "removeOutputTest",
    }
    assert len(models) >= len(VTS_MODEL_TESTS)
    assert len([f for f in requests if not f.pending]) >= 8
    assert list(FAMILIES) == [f.name for f in models + requests], "model families come first"


@pytest.mark.parametrize("family", ALL)
def test_tier_scope_and_rules_agree(family: Family) -> None:
    assert family.scope in (MODEL, REQUEST)
    assert family.description and family.precondition
    known = [RULES[name] for name in family.rules if name in RULES]
    assert known or family.pending, "a family maps to at least one rule"
    for name in family.side_rules:
        assert name in RULES, f"side rule {name} does not exist"
    for rule in known:
        assert rule.scope == family.scope, f"{rule.name} is a {rule.scope} rule"
    tiers = {rule.tier for rule in known}
    if family.tier == Tier.PARITY:
        assert tiers == {Tier.PARITY}, "a parity family breaks only rules Android 10 enforces"
    else:
        assert Tier.STRICT in tiers or family.pending, "a strict family breaks a strict rule"


def test_no_family_is_pending() -> None:
    # A family naming a rule hal.validation lacks would skip its items as pending.
    assert {f.name: f.pending for f in FAMILIES.values() if f.pending} == {}


def test_family_names_select_only_their_family() -> None:
    """``-k <family>`` matches substrings of every item keyword: no name may hide in another."""
    names = list(FAMILIES)
    for a in names:
        for b in names:
            assert a == b or a not in b, f"-k {a} would also select {b}"
    keywords = {case_id(test).lower() for test in corpus()}
    keywords |= {op.name.lower() for op in OperationType}
    keywords |= {
        "tier",
        "validate_model",
        "validate_request",
        "validation_family",
        "generated_case",
        "parametrize",
        "hypothesis",
        "test_validate_model.py",
        "test_validate_request.py",
        "conformance",
        "test_validate_model_sampled",
        "test_validate_request_sampled",
    }
    keywords |= {name.rsplit(".", 1)[-1].lower() for name, _ in load_index()}
    for name in names:
        hits = sorted(k for k in keywords if name in k)
        assert not hits, f"-k {name} would also select items with keywords {hits}"


# ---------------------------------------------------------------------------
# The mutations against the library
# ---------------------------------------------------------------------------


@dataclass
class _Subject:
    test: object
    subject: object
    """A Model, or a RequestSubject."""


def _admitting_cases(family: Family) -> list:
    return list(_admitting(family.name))


@functools.cache
def _admitting(name: str) -> tuple:
    family = FAMILIES[name]
    if name in CONTROL_FLOW_FAMILIES:  # cases of 1.3 only: admitted at 1.3
        return tuple(
            t
            for t in representatives(corpus(), "ci")
            if model_family_applies(family, t, HalVersion.V1_3)
        )
    applies = model_family_applies if family.scope == MODEL else request_family_applies
    return tuple(t for t in representatives(corpus(), "ci") if applies(family, t))


def _top(family: Family) -> HalVersion:
    """The highest level a family's mutations are tried at here: 1.2 (what every driver of
    the suite runs), 1.3 for the control-flow families (their models are 1.3 models)."""
    return HalVersion.V1_3 if family.name in CONTROL_FLOW_FAMILIES else HalVersion.V1_2


@contextlib.contextmanager
def _subject(family: Family, test) -> Iterator[_Subject]:
    if family.scope == MODEL:
        yield _Subject(test, test.model)
        return
    model = dynamic_twin(test.model) if family.twin else test.model
    with valid_request(model, test) as packed:
        yield _Subject(test, RequestSubject(model, packed.request))


def _verdict(
    family: Family, subject: object, mutation: Mutation, level: HalVersion, disabled=()
) -> tuple[ValidationResult, object]:
    """The library's verdict on the mutated input, and the input (to close its pools)."""
    if family.scope == REQUEST:
        mutated = mutation.apply(subject.request)
        return validate_request(mutated, subject.model, level, disabled=disabled), mutated
    mutated = mutation.apply(subject)
    if mutation.preference is not None:
        return validate_execution_preference(mutation.preference, disabled=disabled), mutated
    return validate_model(mutated, level, disabled=disabled), mutated


def _check_mutation(family: Family, subject: object, mutation: Mutation, levels) -> bool:
    """Assert the mutation is invalid where it claims; whether the rules-off library accepts it."""
    accepted = False
    for level in levels:
        result, mutated = _verdict(family, subject, mutation, level)
        try:
            if family.pending:
                continue  # the library has no rule for it yet: nothing to check it against
            assert not result.ok, f"{mutation!r} is valid at HAL {level}"
            assert result.rule_names & set(family.rules), (
                f"{mutation!r} at HAL {level} breaks {sorted(result.rule_names)}, none of "
                f"{family.rules}"
            )
            off, _ = _verdict(family, subject, mutation, level, family.rules + family.side_rules)
            accepted |= off.ok
        finally:
            if isinstance(mutated, Model):
                close_new_pools(subject, mutated)
    return accepted


def _snapshot(subject: object) -> object:
    if isinstance(subject, Model):
        return copy_model(subject)
    return copy.deepcopy((subject.request.inputs, subject.request.outputs)), list(
        subject.request.pools
    )


@pytest.mark.parametrize("family", ALL)
def test_mutations_break_the_family_rules(family: Family) -> None:
    cases = _admitting_cases(family)[:CASES_PER_FAMILY]
    assert cases, f"no generated case admits {family.name}"
    accepted_with_rules_off = False
    for test in cases:
        with _subject(family, test) as s:
            before = _snapshot(s.subject)
            mutations = family.mutations(s.subject)
            again = [(m.name, m.description, m.levels) for m in family.mutations(s.subject)]
            assert [(m.name, m.description, m.levels) for m in mutations] == again
            assert len({m.name for m in mutations}) == len(mutations), "names repeat"
            for mutation in mutations:
                assert mutation.family == family.name and mutation.description
                levels = levels_for(test, mutation, _top(family))
                accepted_with_rules_off |= _check_mutation(family, s.subject, mutation, levels)
            assert _snapshot(s.subject) == before, "a mutation changed the original"
    if not family.pending:
        assert accepted_with_rules_off, (
            f"with {family.rules + family.side_rules} switched off the library still refuses "
            "every mutation: no test could show the suite catches a driver lacking them"
        )


@pytest.mark.parametrize("family", ALL)
def test_mutations_are_right_at_1_3(family: Family) -> None:
    """With 1.3 a level, every mutation claiming 1.3 breaks a family rule of a 1.3 model,
    and one that does not claim it (a value 1.3 made valid: operand type 14, operation
    type 95, lifetime 6; a 1.2 feature tried through older methods) is not refused at 1.3
    for the family's reason."""
    cases = _admitting_cases(family)[:CASES_PER_FAMILY]
    for test in cases:
        if not validate_model(test.model, HalVersion.V1_3).ok:
            continue
        with _subject(family, test) as s:
            for mutation in family.mutations(s.subject):
                if HalVersion.V1_3 in mutation.levels:
                    _check_mutation(family, s.subject, mutation, [HalVersion.V1_3])
                    continue
                if family.pending or not mutation.levels:
                    continue
                result, mutated = _verdict(family, s.subject, mutation, HalVersion.V1_3)
                try:
                    named = {"operand.type_known", "operation.type_known", "operand.lifetime"}
                    assert not result.rule_names & named & set(family.rules), (
                        f"{mutation!r} is refused at 1.3 under {sorted(result.rule_names)}, "
                        "yet does not claim 1.3"
                    )
                finally:
                    if isinstance(mutated, Model):
                        close_new_pools(s.subject, mutated)


@pytest.mark.parametrize("family", ALL)
@settings(
    max_examples=10,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_strategies_draw_mutations_that_break_the_family_rules(
    family: Family, data: st.DataObject
) -> None:
    cases = _admitting_cases(family)[:CASES_PER_FAMILY]
    test = data.draw(st.sampled_from(cases), label="case")
    with _subject(family, test) as s:
        mutation = data.draw(family.strategy(s.subject), label="mutation")
        assert mutation.family == family.name
        _check_mutation(family, s.subject, mutation, levels_for(test, mutation, _top(family)))


# ---------------------------------------------------------------------------
# The suite against drivers lacking the family's rules
# ---------------------------------------------------------------------------


def _rules_off(family: Family) -> tuple[str, ...]:
    return tuple(sorted(family.rules + family.side_rules))


@functools.cache
def _probe(name: str) -> tuple[str, str]:
    """(case id, mutation sentence) of an item the suite must fail against a driver lacking
    the family's rules: found by running the suite's own checks on such a driver."""
    family = FAMILIES[name]
    driver = ReferenceDriver(disabled_rules=_rules_off(family))
    for test in _admitting_cases(family):
        with _subject(family, test) as s:
            for mutation in family.mutations(s.subject):
                levels = levels_for(test, mutation, _top(family))
                if not levels:
                    continue
                if family.scope == MODEL:
                    if model_problems(driver, test.model, mutation, levels, 10.0):
                        return case_id(test), mutation.description
                    continue
                try:
                    found = mutation_problems(driver, test, s.subject, mutation, max(levels), 10.0)
                except pytest.skip.Exception:
                    break  # the driver does not support this case
                if found:
                    return case_id(test), mutation.description
    raise AssertionError(f"no generated case shows a driver lacking {_rules_off(family)}")


def _item(family: Family, case: str) -> str:
    return f"test_validate_{family.scope}[{family.name}/{case}]"


def _groups(size: int = 8) -> list[list[Family]]:
    """Active families in groups of pairwise disjoint rules, so one run can lack all of them."""
    groups: list[list[Family]] = []
    for family in FAMILIES.values():
        if family.pending:
            continue
        for group in groups:
            taken = {rule for other in group for rule in _rules_off(other)}
            if len(group) < size and not taken & set(_rules_off(family)):
                group.append(family)
                break
        else:
            groups.append([family])
    return groups


@pytest.mark.parametrize(
    "group", [pytest.param(g, id="+".join(f.name for f in g)) for g in _groups()]
)
def test_the_suite_fails_a_driver_lacking_the_family_rules(
    group: list[Family], pytester: pytest.Pytester
) -> None:
    """Each family's probe (found against a driver lacking exactly its rules) fails as a pytest
    item, in one in-process run against a driver lacking the rules of the whole group."""
    probes = {family.name: _probe(family.name) for family in group}
    rules = {rule for family in group for rule in _rules_off(family)}
    pytester.makepyfile(ruleoff_driver=RULE_OFF_DRIVER.format(rules=rules))
    pytester.syspathinsert()
    items = {f.name: _item(f, probes[f.name][0]) for f in group}
    recorded = pytester.inline_run(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        *sorted({MODULE[f.scope] for f in group}),
        "--nnhal-profile=ci",
        "--driver=ruleoff_driver:Factory",
        "-k",
        " or ".join(items.values()),
    )
    passed, skipped, failed = recorded.listoutcomes()
    reports = {r.nodeid.rsplit("::", 1)[-1]: r.longreprtext for r in failed}
    assert set(reports) == set(items.values()), (passed, skipped)
    for family in group:
        case, sentence = probes[family.name]
        report = reports[items[family.name]]
        header = f"{family.name} ({family.tier.value}; rules {', '.join(family.rules)}) on {case}"
        assert header in report
        assert f"- {sentence}" in report
        module = MODULE[family.scope]
        rerun = (
            f"rerun: pytest --pyargs '{module}::{items[family.name]}' "
            "--driver=ruleoff_driver:Factory "
        )
        assert rerun in report


_OUTCOME = re.compile(r"^\S*::(test_validate_\w+\[[^\]]+\]) (PASSED|FAILED|SKIPPED|ERROR)")


def _outcomes(result: pytest.RunResult) -> dict[str, str]:
    found = {}
    for line in result.outlines:
        match = _OUTCOME.match(line)
        if match:
            found[match[1]] = match[2]
    return found


def test_the_full_reference_driver_passes_every_probe_and_sampled_test(
    pytester: pytest.Pytester,
) -> None:
    probes = {f.name: _item(f, _probe(f.name)[0]) for f in FAMILIES.values() if not f.pending}
    selection = " or ".join([*probes.values(), "sampled"])
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        MODULE[MODEL],
        MODULE[REQUEST],
        "--nnhal-profile=ci",
        "-v",
        "-k",
        selection,
    )
    outcomes = _outcomes(result)
    result.stdout.fnmatch_lines(["nnhal profile: ci"])
    assert set(probes.values()) <= {i for i, o in outcomes.items() if o == "PASSED"}, (
        result.stdout.str()[-3000:]
    )
    sampled = {i: o for i, o in outcomes.items() if "_sampled[" in i}
    assert len(sampled) == len(FAMILIES)
    assert {i for i, o in sampled.items() if o != "PASSED"} == set()
    assert result.ret == 0


def test_a_vendor_run_reports_each_missing_rule(pytester: pytest.Pytester) -> None:
    """A subprocess run as a vendor would: both families fail, with everything to rerun them."""
    pytester.makepyfile(
        ruleoff_driver=RULE_OFF_DRIVER.format(rules={"operand.zero_point", "request.pool_index"})
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        MODULE[MODEL],
        MODULE[REQUEST],
        "--nnhal-profile=ci",
        "--driver=ruleoff_driver:Factory",
        "-v",
        "-k",
        "(operand_zero_point or request_pool_index) and (V1_0/add/ or sampled)",
    )
    outcomes = _outcomes(result)
    assert set(outcomes.values()) == {"FAILED"} and len(outcomes) == 4, outcomes
    result.stdout.fnmatch_lines(
        [
            "*operand_zero_point (parity; rules operand.zero_point) on V1_0/*: * of * mutation(s)"
            " not refused as required",
            "*- operand * zero_point * -> *",
            "*get_supported_operations returned NONE, expected INVALID_ARGUMENT; prepare_model "
            "answered launch NONE, callback NONE; expected INVALID_ARGUMENT for both",
            "*rerun: pytest --pyargs 'conformance.test_validate_model::test_validate_model"
            "[[]operand_zero_point/V1_0/*]' --driver=ruleoff_driver:Factory --nnhal-profile=ci",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*Draw 2 (mutation): <request_pool_index: request * pool index * -> *",
            "*@reproduce_failure(*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*- request input 0 (operand 0) pool index 0 -> 2 (the request has 2 pools)",
            "*async (execute_1_2): status GENERAL_FAILURE, expected INVALID_ARGUMENT; launch status"
            " NONE, expected INVALID_ARGUMENT",
            "*sync (execute_synchronously): status GENERAL_FAILURE, expected INVALID_ARGUMENT",
        ]
    )
    assert result.ret == 1


def test_a_driver_accepting_a_depthwise_filter_batch_fails_exactly_that_family(
    pytester: pytest.Pytester,
) -> None:
    """faulty_drivers.AcceptsDepthwiseFilterBatch (Android 10's validator, which let a
    DEPTHWISE_CONV_2D filter's first dimension be 2) fails the depthwise_filter_batch items
    of every HAL folder, and no other item of the operation: the other validation families,
    the generated cases and the invalid values."""
    faulty = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers.py"
    pytester.makepyfile(faulty_drivers=faulty.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        MODULE[MODEL],
        MODULE[REQUEST],
        "conformance.test_generated",
        "conformance.test_invalid_values",
        "--nnhal-profile=ci",
        "--driver=faulty_drivers:AcceptsDepthwiseFilterBatch",
        "--nnhal-op=DEPTHWISE_CONV_2D",
        "-v",
    )
    outcomes = outcomes_of(result)
    failed = with_outcome(outcomes, "FAILED")
    family = {
        item for item in outcomes if item.startswith("test_validate_model[depthwise_filter_batch/")
    }
    assert failed == family, result.stdout.str()[-3000:]
    assert {item.split("/")[1] for item in failed} == {"V1_0", "V1_1", "V1_2"}
    assert len(outcomes) > 1000
    result.stdout.fnmatch_lines(
        [
            "*depthwise_filter_batch (strict; rules operation.depthwise_filter) on V1_0/*",
            "*-> [[]2, *]: a DEPTHWISE_CONV_2D filter has first dimension 1",
        ]
    )


HANGING_DRIVER = """
import time

from hal.types import ErrorStatus
from reference_driver import ReferenceDriver


class Factory(ReferenceDriver):
    calls = 0

    def __init__(self):
        super().__init__(disabled_rules={{"operand.zero_point"}})

    def prepare_model_1_2(self, model, preference, callback):
        Factory.calls += 1
        if Factory.calls == 3:
            {third}
        return super().prepare_model_1_2(model, preference, callback)
"""


def _hanging_run(pytester: pytest.Pytester, third: str) -> str:
    """One model-validation item (all its mutations accepted) against a driver whose third
    ``prepare_model_1_2`` does ``third``, in process isolation with a 1 s timeout."""
    pytester.makepyfile(hanging_driver=HANGING_DRIVER.format(third=third))
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        MODULE[MODEL],
        "--nnhal-profile=ci",
        "--driver=hanging_driver:Factory",
        "--driver-isolation=process",
        "--hal-timeout=1",
        "-k",
        "operand_zero_point/V1_2/sub_v1_2/base",
    )
    assert result.ret == 1
    # the failures as reported, without pytest's summary (which repeats them whole in CI)
    return result.stdout.str().split("short test summary info")[0]


def test_a_hang_amid_mutations_sent_together_names_the_call_that_hung(
    pytester: pytest.Pytester,
) -> None:
    """The mutations of an item cross to the driver service together and their answers come
    back together: when the wait runs out the harness asks for the answers held back, so the
    hang is named as the third prepare (not the first call it had no answer for)."""
    text = _hanging_run(pytester, "time.sleep(60)")
    assert "driver call prepare_model_1_2 did not return within 1 s (hang)" in text, text[-3000:]
    assert "the driver service was killed and is restarted" in text


def test_a_callback_never_notified_amid_mutations_sent_together_stops_the_item_there(
    pytester: pytest.Pytester,
) -> None:
    """The third prepare launches and never notifies: the two mutations before it are
    judged (accepted: not refused), the third is named as hung, the rest are untried."""
    text = _hanging_run(pytester, "return ErrorStatus.NONE")
    header = re.search(r"operand_zero_point \(parity; rules [^)]*\) on \S+: (\d+) of (\d+) ", text)
    assert header, text[-3000:]
    failed, tried = int(header[1]), int(header[2])
    assert failed == 3 and tried > 3, text[-3000:]
    assert text.count("get_supported_operations_1_2 returned NONE, expected INVALID_ARGUMENT") == 2
    assert (
        "prepare_model_1_2: the driver did not notify the prepared-model callback within 1 s"
        in text
    )
    assert f"stopped after the driver hung: {tried - 3} mutation(s) left untried" in text
