"""The control-flow items of the suite catch each control-flow fault, and only where it shows.

Each test runs control-flow items (the generated cases of the V1_3 IF and WHILE specs on
``execute_synchronously_1_3``, the endless loop's expected-failure and loop-timeout items)
in a pytest subprocess against a driver of tests/support/faulty_drivers_cf.py, and checks
exactly which items fail; the reference driver passes the same items. The rewrites the
faulty drivers prepare instead of the model are checked first to be valid models, so that
a fault fails the items by what it computes, never by a refused preparation.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import faulty_drivers_cf as faulty
import pytest
from suite_outcomes import outcomes_of, with_outcome

from conformance.harness import control_flow
from conformance.harness.execution import PATHS_BY_ID
from conformance.harness.generated import corpus
from hal.types import HalVersion
from hal.validation import validate_model

FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers_cf.py"
SYNC13 = "sync13 and not async13 and not timed and not coupling and not memory"
"""The one path of the positive items run here: execute_synchronously_1_3, untimed."""
GENERATED = f"(V1_3/if_ or V1_3/while_fib or V1_3/while_sum_of_powers/n_) and {SYNC13}"
"""Every case of the IF specs, while_fib and while_sum_of_powers, once each."""
ENDLESS = "V1_3/while_infinite_loop/base/"
"""The endless loop's float32 case: its loop-timeout and expected-failure items."""


def _run(
    pytester: pytest.Pytester,
    driver: str,
    selection: str,
    module: str = "conformance.test_generated",
    *options: str,
) -> dict[str, str]:
    pytester.makepyfile(faulty_drivers_cf=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        module,
        *options,
        f"--driver=faulty_drivers_cf:{driver}",
        "--hal-version=1.3",
        "-k",
        selection,
        "-v",
    )
    return outcomes_of(result)


def _named(items, pattern: str) -> set[str]:
    return {item for item in items if re.search(pattern, item)}


def _control_flow_cases():
    return [t for t in corpus() if t.model.referenced]


# -- the rewrites are valid models ------------------------------------------------------------


@pytest.mark.parametrize("rewrite", ["swap_branches", "body_first", "drop_state"])
def test_each_rewrite_of_a_control_flow_case_is_a_valid_model(rewrite: str) -> None:
    """A faulty driver's rewrite of every control-flow case of the corpus validates at HAL
    1.3 (so the fault shows in what it computes), and leaves the case's model untouched."""
    change = getattr(faulty, rewrite)
    changed = 0
    cases = _control_flow_cases()
    assert cases
    for test in cases:
        model = copy.deepcopy(test.model)
        changed += change(model) > 0
        result = validate_model(model, HalVersion.V1_3)
        assert result.ok, f"{test.test_id}: {rewrite} made an invalid model: {result}"
    assert changed, f"{rewrite} changed no case of the corpus"


def test_the_rewrites_change_what_the_fault_touches() -> None:
    by_spec: dict[str, list[int]] = {}
    for test in _control_flow_cases():
        spec = test.test_id.split("/")[1]
        counts = [
            f(copy.deepcopy(test.model)) for f in (faulty.swap_branches, faulty.body_first)
        ] + [faulty.drop_state(copy.deepcopy(test.model))]
        by_spec.setdefault(spec, counts)
    assert by_spec["if_simple"] == [1, 0, 0]  # two branches of one signature
    assert by_spec["if_same_branch_model"] == [0, 0, 0]  # one subgraph: nothing to swap
    assert by_spec["while_fib"] == [0, 1, 0]  # no state-only value
    # two loops, each with a state-only counter; the inner one runs in the outer body
    assert by_spec["while_sum_of_powers"][1:] == [2, 2]


# -- the items ------------------------------------------------------------------------------


def test_the_reference_driver_passes_the_control_flow_items(pytester) -> None:
    outcomes = _run(pytester, "ReferenceDriver", f"({GENERATED}) or {ENDLESS}")
    assert not with_outcome(outcomes, "FAILED"), with_outcome(outcomes, "FAILED")
    passed = with_outcome(outcomes, "PASSED")
    loops = _named(outcomes, r"^test_generated_loop_timeout\[")
    assert len(loops) == 8 and loops <= passed  # six parity runs, two strict ones
    assert _named(passed, r"^test_generated_expect_failure\[V1_3/while_infinite_loop/")
    assert len(_named(passed, r"^test_generated\[V1_3/if_")) >= 40


def test_taking_the_branch_not_chosen_fails_the_if_cases_whose_branches_differ(pytester) -> None:
    outcomes = _run(pytester, "TakesOtherBranch", f"({GENERATED}) or {ENDLESS}")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == _named(outcomes, r"^test_generated\[V1_3/if_(simple|constant)/")
    assert _named(outcomes, r"if_same_branch_model/") <= with_outcome(outcomes, "PASSED")


def test_a_condition_after_the_body_fails_the_loops_that_run_their_body_zero_times(
    pytester,
) -> None:
    """while_fib runs its body zero times in its n_0 examples alone (from (2, 7), so one
    iteration too many moves its outputs by 5 and 9: beyond every type's tolerance);
    while_sum_of_powers runs its inner loop zero times in every example (its first outer
    iteration), and its outer one in n_0."""
    outcomes = _run(pytester, "DoWhile", f"({GENERATED}) or {ENDLESS}")
    failed = with_outcome(outcomes, "FAILED")
    fib = _named(outcomes, r"^test_generated\[V1_3/while_fib/[a-z_]+_n_0[/_]")
    assert fib and failed == fib | _named(outcomes, r"^test_generated\[V1_3/while_sum_of_powers/")
    assert _named(outcomes, r"while_infinite_loop/") <= with_outcome(outcomes, "PASSED")


def test_dropping_the_state_only_values_fails_the_loops_that_carry_some(pytester) -> None:
    """while_sum_of_powers' counters are state-only: reset on every iteration, the loop
    never ends, and the item fails once the 2 s default is spent (n_0 alone runs no
    iteration and passes). Its float32 cases only: each failing item waits 2 s."""
    selection = f"V1_3/while_sum_of_powers/n_ and {SYNC13} and not relaxed and not float16 "
    selection += "and not int32 and not quant8 and not internal and not as_inputs"
    outcomes = _run(
        pytester, "ResetsState", f"({selection}) or (V1_3/while_fib/all_outputs_n_5/ and {SYNC13})"
    )
    failed = with_outcome(outcomes, "FAILED")
    assert failed == _named(outcomes, r"while_sum_of_powers/n_(1|4|3_from_zero)/")
    assert len(failed) == 3
    assert _named(outcomes, r"while_fib/") <= with_outcome(outcomes, "PASSED")


def test_ignoring_the_loop_timeout_fails_every_endless_loop_item(pytester) -> None:
    outcomes = _run(pytester, "IgnoresLoopTimeout", ENDLESS)
    assert with_outcome(outcomes, "FAILED") == set(outcomes)
    assert len(outcomes) == 9  # eight loop-timeout runs and the expected failure


def test_the_default_budget_in_place_of_the_one_given_fails_the_runs_that_give_one(
    pytester,
) -> None:
    outcomes = _run(pytester, "UsesDefaultLoopTimeout", ENDLESS)
    failed = with_outcome(outcomes, "FAILED")
    assert failed == _named(outcomes, r"-loop\d+ns\]$")
    assert len(failed) == 7  # six at 1 ms, one at 100 ms
    # no loop timeout given: the default is the right budget
    assert _named(outcomes, r"/sync\]$|expect_failure") <= with_outcome(outcomes, "PASSED")


def test_the_control_flow_corners_catch_a_wrong_branch_and_lost_state(pytester) -> None:
    """The ci profile's draws (the same on every run): the reference passes both corner
    items; taking the branch not chosen fails the IF item, dropping the state-only values
    the WHILE item (its counter is state-only in one of the draws). A condition evaluated
    after the body shows only in a draw that loops zero times, which the ci profile's three
    draws need not hold (the full profile's twelve mostly do)."""
    corners = ("control/", "conformance.test_corners", "--nnhal-profile=ci")
    reference = _run(pytester, "ReferenceDriver", *corners)
    assert (
        with_outcome(reference, "PASSED")
        == set(reference)
        == {
            "test_corners[control/IF]",
            "test_corners[control/WHILE]",
        }
    )
    branch = _run(pytester, "TakesOtherBranch", *corners)
    assert with_outcome(branch, "FAILED") == {"test_corners[control/IF]"}
    state = _run(pytester, "ResetsState", *corners)
    assert with_outcome(state, "FAILED") == {"test_corners[control/WHILE]"}


# -- the harness's own rules ----------------------------------------------------------------


def test_an_endless_case_is_an_expected_failure_holding_a_while() -> None:
    endless = [t for t in corpus() if control_flow.loops_forever(t)]
    assert endless and all("while_infinite_loop" in t.test_id for t in endless)
    # if_no_value is expected to fail too, but holds no WHILE
    assert not any(control_flow.loops_forever(t) for t in corpus() if "if_no_value" in t.test_id)


def test_the_loop_paths_carry_their_budget_and_accept_a_missed_deadline() -> None:
    assert [p.id for p in control_flow.LOOP_PATHS] == [
        "async13-loop1000000ns",
        "async13-timed-loop1000000ns",
        "sync13-loop1000000ns",
        "sync13-timed-loop1000000ns",
        "fenced-loop1000000ns",
        "fenced-timed-loop1000000ns",
    ]
    assert [p.id for p in control_flow.STRICT_LOOP_PATHS] == ["sync13-loop100000000ns", "sync"]
    assert all(p.timed for p in (*control_flow.LOOP_PATHS, *control_flow.STRICT_LOOP_PATHS))
    assert not PATHS_BY_ID["sync13"].timed and control_flow.loop_path(PATHS_BY_ID["sync13"]).timed
    assert control_flow.loop_path(PATHS_BY_ID["sync13"]).id == "sync13"  # the id is unchanged
    assert control_flow.budget_ns(control_flow.STRICT_LOOP_PATHS[1]) == 2_000_000_000
    assert control_flow.LOOP_MARGIN < control_flow.DEFAULT_LOOP_TIMEOUT_NS / 1e9
