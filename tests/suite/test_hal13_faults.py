"""The HAL 1.3 parts of the suite catch each 1.3 fault, and only where it shows.

Each test runs the 1.3 items (the generated cases of one spec on every path, the
fenced-execution tests and the quality-of-service items of the HAL 1.0 specs) in a
pytest subprocess against a driver of tests/support/faulty_drivers_13.py, in its own
process as a certification runs it, and checks exactly which items fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from suite_outcomes import outcomes_of, with_outcome

FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers_13.py"
MEMORY_DRIVERS = FAULTY.with_name("memory_drivers.py")
SELECTION = "V1_0/add/ or test_fenced or (test_qos and V1_0/)"
"""The items run: ADD's generated cases on every path, the fenced tests, and the
quality-of-service rows of the first case of every HAL 1.0 spec."""


def _run(
    pytester: pytest.Pytester,
    driver: str,
    modules: tuple[str, ...] = (),
    selection=SELECTION,
    module: str = "faulty_drivers_13",
    printed: list[str] | None = None,
) -> dict[str, str]:
    """Each item's outcome; the run's output is appended to ``printed`` when given."""
    pytester.makepyfile(faulty_drivers_13=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_generated",
        "conformance.test_fenced",
        "conformance.test_deadlines",
        *modules,
        f"--driver={module}:{driver}",
        "-k",
        selection,
        "-v",
        "-rA",
    )
    if printed is not None:
        printed.append(result.stdout.str())
    return outcomes_of(result)


def _named(items: set[str], pattern: str) -> set[str]:
    return {item for item in items if re.search(pattern, item)}


def test_the_reference_driver_passes_the_selection(pytester) -> None:
    outcomes = _run(pytester, "ReferenceDriver")  # the control: the 1.3 reference driver
    assert not with_outcome(outcomes, "FAILED")
    items = set(outcomes)
    assert _named(items, r"/fenced\]$") and _named(items, r"/async13-dyn\]$")
    assert _named(items, r"^test_qos_prepare\[") and _named(items, r"^test_qos_execute\[")
    assert "test_the_execution_waits_for_its_fences[2]" in items


def test_a_deadline_missed_at_launch_fails_the_rows_with_a_passed_deadline(pytester) -> None:
    outcomes = _run(pytester, "ReportsMissedDeadlineAtLaunch")
    failed = with_outcome(outcomes, "FAILED")
    passed_deadline = _named(set(outcomes), r"test_qos_(prepare|execute)\[.*deadline0ns\]$")
    passed_deadline -= _named(passed_deadline, r"/sync13-")  # a sync call has no launch
    assert passed_deadline and passed_deadline <= failed
    # a 5 ms deadline may pass before the driver looks, on a loaded machine
    assert failed - passed_deadline <= _named(failed, r"deadline5000000ns\]$")


def test_a_fence_signalled_before_the_outputs_fails_the_fenced_runs(pytester) -> None:
    outcomes = _run(pytester, "SignalsBeforeWriting")
    failed = with_outcome(outcomes, "FAILED")
    # a driver buffer's output is read through copy_to, after the fence: not late there
    assert failed == _named(set(outcomes), r"(/|/ex\d+/blob-)fenced(-timed)?\]$") | {
        "test_the_execution_waits_for_its_fences[1]",
        "test_the_execution_waits_for_its_fences[2]",
        "test_a_generated_path_judges_a_chained_execution",
    }


def test_fenced_timings_out_of_order_fail_the_timed_fenced_runs(pytester) -> None:
    outcomes = _run(pytester, "FencedTimingsOutOfOrder")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == _named(set(outcomes), r"/fenced-timed\]$") | {
        "test_measured_timings_are_ordered"
    }


def test_execute_1_3_answering_through_notify_1_2_fails_every_async13_run(pytester) -> None:
    outcomes = _run(pytester, "Execute13Notifies12")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == _named(set(outcomes), r"[/-]async13[^/]*\]$")


def test_a_driver_that_ignores_every_deadline_passes(pytester) -> None:
    """Ignoring a deadline is legal: the work is done, and it must pass."""
    outcomes = _run(pytester, "IgnoresDeadlines")
    assert not with_outcome(outcomes, "FAILED")
    assert _named(with_outcome(outcomes, "PASSED"), r"deadline0ns\]$")


def test_a_transient_resource_refusal_is_asked_again_and_then_counts(pytester) -> None:
    outcomes = _run(pytester, "ExhaustedOnceThenRuns")
    assert not with_outcome(outcomes, "FAILED") and not with_outcome(outcomes, "SKIPPED")
    assert _named(with_outcome(outcomes, "PASSED"), r"/sync13[^/]*\]$")


def test_a_persistent_resource_refusal_earns_nothing_and_fails_validation(pytester) -> None:
    outcomes = _run(
        pytester,
        "AlwaysExhausted",
        ("conformance.test_validate_request",),
        f"({SELECTION}) or (test_validate_request and V1_0/add/none)",
    )
    sync13 = _named(set(outcomes), r"/sync13[^/]*\]$")
    validation = _named(set(outcomes), r"^test_validate_request\[")
    assert sync13 and sync13 <= with_outcome(outcomes, "SKIPPED")  # unsupported: no credit
    below_1_2 = _named(validation, r"\[request_output_unspecified/")  # no 1.3 path: prepared at 1.1
    assert below_1_2 <= with_outcome(outcomes, "PASSED")
    assert validation - below_1_2 and with_outcome(outcomes, "FAILED") == validation - below_1_2


MEMORY = "V1_0/add/ and test_generated_memory"
"""The generated memory items of ADD's cases: blob and device memory on three paths."""


def test_the_reference_driver_passes_every_memory_item(pytester) -> None:
    outcomes = _run(pytester, "ReferenceDriver", selection=MEMORY)
    assert set(outcomes.values()) == {"PASSED"}
    for run in ("blob-async13", "blob-sync13", "blob-fenced", "device-async13", "device-fenced"):
        assert _named(set(outcomes), rf"/ex0/{run}\]$"), run


def test_outputs_that_cannot_be_copied_out_fail_exactly_the_device_items(pytester) -> None:
    printed: list[str] = []
    outcomes = _run(pytester, "CopyToFails", selection=MEMORY, printed=printed)
    device = _named(set(outcomes), r"/device-\w+\]$")
    assert device and with_outcome(outcomes, "FAILED") == device
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - device
    assert (
        "IBuffer.copy_to of output 0 after the execution answered GENERAL_FAILURE; "
        "expected NONE" in printed[0]
    )


def test_a_release_that_raises_fails_the_device_items_and_names_it(pytester) -> None:
    printed: list[str] = []
    outcomes = _run(pytester, "ReleaseRaises", selection=MEMORY, printed=printed)
    device = _named(set(outcomes), r"/device-\w+\]$")
    assert device and with_outcome(outcomes, "FAILED") == device
    assert "IBuffer.release raised RuntimeError: release went wrong (and 2 more)" in printed[0]


def test_an_input_copy_that_copies_nothing_fails_exactly_the_device_items(pytester) -> None:
    outcomes = _run(pytester, "DropsCopyFrom", selection=MEMORY)
    device = _named(set(outcomes), r"/device-\w+\]$")
    assert device and with_outcome(outcomes, "FAILED") == device


def test_a_driver_that_allocates_nothing_has_its_device_items_unsupported(pytester) -> None:
    outcomes = _run(pytester, "DeclinesAllocation13", selection=MEMORY)
    device = _named(set(outcomes), r"/device-\w+\]$")
    assert device and with_outcome(outcomes, "SKIPPED") == device
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - device


def test_a_1_3_driver_without_blob_request_pools_fails_exactly_the_blob_items(pytester) -> None:
    pytester.makepyfile(memory_drivers=MEMORY_DRIVERS.read_text())
    outcomes = _run(pytester, "NoBlobPools13", selection=MEMORY, module="memory_drivers")
    blob = _named(set(outcomes), r"/blob-\w+\]$")
    assert blob and with_outcome(outcomes, "FAILED") == blob
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - blob


def test_a_broken_1_2_caching_call_fails_exactly_the_1_2_round_trips(pytester) -> None:
    outcomes = _run(
        pytester,
        "CacheOnlyThrough13",
        ("conformance.test_caching",),
        "test_cache_round_trip and V1_0/conv2d/",
    )
    through_1_2 = _named(set(outcomes), r"^test_cache_round_trip_through_1_2_calls\[")
    assert through_1_2 and with_outcome(outcomes, "FAILED") == through_1_2
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - through_1_2


def test_a_fenced_execution_taking_unknown_shapes_fails_exactly_the_fenced_dynamic_runs(
    pytester,
) -> None:
    outcomes = _run(pytester, "FencedTakesUnknownShapes")
    dynamic = _named(set(outcomes), r"/fenced-dyn(-short)?\]$") - with_outcome(outcomes, "SKIPPED")
    unknown = _named(set(outcomes), r"^test_outputs_of_unknown_size_are_refused\[")
    assert dynamic and unknown and with_outcome(outcomes, "FAILED") == dynamic | unknown


EXPECTED_FAILURE = "embedding_lookup_out_of_range or (V1_0/add/ and /sync13)"
"""The expected-failure case of conformance/specs/V1_3 and, as the control, ADD's sync13
runs."""


def test_the_reference_driver_fails_the_expected_failure_execution(pytester) -> None:
    outcomes = _run(pytester, "ReferenceDriver", selection=EXPECTED_FAILURE)
    assert not with_outcome(outcomes, "FAILED")
    assert with_outcome(outcomes, "PASSED") >= {
        "test_generated_expect_failure[V1_3/embedding_lookup_out_of_range/base/expect_failure]"
    }
    # the expected-failure case runs in no positive test
    assert _named(set(outcomes), r"embedding_lookup_out_of_range") == {
        "test_generated_expect_failure[V1_3/embedding_lookup_out_of_range/base/expect_failure]"
    }


def test_an_execution_that_must_fail_reported_done_fails_its_item(pytester) -> None:
    printed: list[str] = []
    outcomes = _run(
        pytester, "ReportsFailedExecutionAsDone", selection=EXPECTED_FAILURE, printed=printed
    )
    assert with_outcome(outcomes, "FAILED") == {
        "test_generated_expect_failure[V1_3/embedding_lookup_out_of_range/base/expect_failure]"
    }
    assert (
        "V1_3/embedding_lookup_out_of_range/base: execute_synchronously_1_3 answered NONE for "
        "a model whose execution must fail (Example(...).ExpectFailure()); it must answer an "
        "error status"
    ) in printed[0]
