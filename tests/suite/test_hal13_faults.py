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
SELECTION = (
    "(V1_0/add/ and not coupling and not as_internal and not as_inputs) or test_fenced"
    " or (test_qos and V1_0/)"
)
"""The items run: ADD's generated cases on every path (with their constants as the spec
gives them: the lifetime variations compute the same, and were half of the runs), the fenced
tests, and the quality-of-service rows of the first case of every HAL 1.0 spec (the coupling
items' drivers are below)."""


SUITE = ("conformance.test_generated", "conformance.test_fenced", "conformance.test_deadlines")
"""The suite modules a run collects (``NAMED`` gives fewer)."""


def _run(
    pytester: pytest.Pytester,
    driver: str,
    modules: tuple[str, ...] = (),
    selection=SELECTION,
    module: str = "faulty_drivers_13",
    printed: list[str] | None = None,
) -> dict[str, str]:
    """Each item's outcome; the run's output is appended to ``printed`` when given. A
    selection of ``NAMED`` collects only the test function it names (the others' cases,
    which it would deselect, are never built)."""
    pytester.makepyfile(faulty_drivers_13=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        *NAMED.get(selection, SUITE),
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


def _run_generated(pytester: pytest.Pytester, driver: str, selection: str) -> dict[str, str]:
    """Each item's outcome of the generated cases ``selection`` picks (``test_generated``
    alone: no fresh inputs), at HAL 1.3."""
    pytester.makepyfile(faulty_drivers_13=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_generated::test_generated",
        f"--driver=faulty_drivers_13:{driver}",
        "-k",
        selection,
        "-v",
    )
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


RETRIED = "(V1_0/add/none/ and not coupling) or (test_qos and V1_0/add/)"
"""ADD's first case on every path and its quality-of-service rows: each retried execution
waits ``statuses.RETRY_DELAY`` (0.1 s), so the whole selection would sleep 80 s."""


def test_a_transient_resource_refusal_is_asked_again_and_then_counts(pytester) -> None:
    outcomes = _run(pytester, "ExhaustedOnceThenRuns", selection=RETRIED)
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


def test_int32_division_toward_zero_fails_the_strict_items_of_div_int32(pytester) -> None:
    """Both examples of V1_3/div_int32 hold a quotient that truncation rounds one off
    (-7 / 2, -10 / 4): an INT32 value one off passes Android 11's tolerance (the parity
    items) and fails the strict ones, where INT32 is exact (scattered, memory pools)."""
    outcomes = _run(
        pytester,
        "Int32DivTowardZero",
        ("conformance.test_memory_pools",),
        "V1_3/div_int32/",
    )
    items = set(outcomes)
    failed = with_outcome(outcomes, "FAILED")
    strict = _named(items, r"/scattered\]$") | _named(items, r"^test_memory_pools\[")
    assert len(_named(strict, r"^test_memory_pools\[")) >= 2 * 12
    assert failed == strict
    for example in ("base", "zero_divisor"):
        assert f"test_generated[V1_3/div_int32/{example}/ex0/sync13]" in with_outcome(
            outcomes, "PASSED"
        )


QLSTM = "V1_3/quantized_lstm/ and not as_inputs and not as_internal"
"""QUANTIZED_LSTM's first spec: seven configurations, two examples each, with their constants
as the spec gives them (the variations that turn them into inputs or internal operands
compute the same and took three quarters of these runs)."""

QLSTM_MOVED_BY_2 = (
    r"/(layer_norm_projection/ex0|cifg_layer_norm_projection/ex[01]"
    r"|cifg_peephole_layer_norm_projection/ex[01])/"
)
"""The examples an output of which the truncated hidden-state rescale moves by 2 or more
(``conformance/specs/oracles/qlstm_oracle.py --fault``): the projection multiplies the
hidden state's one-unit moves. It moves every other example's outputs by at most 1, but
saturated_hidden's not at all."""


def test_the_reference_driver_passes_the_quantized_lstm_items(pytester) -> None:
    """The control of the next test (a test of its own, so that the two long runs can go to
    both workers)."""
    control = _run(pytester, "ReferenceDriver", selection=QLSTM)
    assert _named(set(control), QLSTM_MOVED_BY_2) and not with_outcome(control, "FAILED")


def test_a_quantized_lstm_rounding_step_made_truncating_is_caught(pytester) -> None:
    """The suite fails every item of an example whose output the fault moves beyond any
    quantized tolerance, and no item of an example it leaves as it was; an example it
    moves by 1 fails only where the tolerance for signed 8-bit outputs is exact (the
    reference driver fails none of them: the test above). The fresh-input items draw
    their inputs from the run's seed: not counted."""
    outcomes = _run(pytester, "QlstmTruncatesHiddenState", selection=QLSTM)
    judged = set(outcomes) - _named(set(outcomes), r"/fresh\]$")
    failed = with_outcome(outcomes, "FAILED") & judged
    # runs that compare no output value: too small outputs, shapes alone, a refused twin
    no_values = _named(judged, r"(-short|/shapes|/fenced-dyn)\]$")
    moved_by_2 = _named(judged, QLSTM_MOVED_BY_2) - no_values
    unchanged = _named(judged, r"/saturated_hidden/")
    assert moved_by_2 and _named(moved_by_2, r"/cifg_peephole_layer_norm_projection/ex1/")
    assert moved_by_2 <= failed and not failed & no_values
    assert _named(moved_by_2, r"/ex0/(sync|async13|burst|fenced|scattered|device-sync13)\]$")
    assert unchanged and unchanged <= with_outcome(outcomes, "PASSED")


COUPLING = "test_generated_coupling and (V1_0/add/quant8_none or V1_0/conv2d/same_quant8/ or V1_0/reshape/ or V1_2/pad_v2/)"
"""The signed twins of a quant8 ADD and CONV_2D (arithmetic), RESHAPE and PAD_V2 (bytes
moved: PAD_V2's pad value shifted with the data), on every coupling path."""
BYTES_MOVED = r"\[(V1_0/reshape|V1_2/pad_v2)/(?!\S*all_inputs_as_internal)"
"""The coupling items whose operation only moves bytes: RESHAPE's and PAD_V2's, but not their
all_inputs_as_internal variations, whose inputs come out of an ADD (Android 11's lifetime
variations), which computes."""


def test_a_driver_running_signed_twins_on_shifted_unsigned_kernels_passes(pytester) -> None:
    """The control: a correct 1.3 driver of the signed type (without signed kernels of its
    own), on every path the coupling items run."""
    outcomes = _run(pytester, "CouplesByShifting", selection=COUPLING)
    assert set(outcomes.values()) == {"PASSED"}
    items = set(outcomes)
    for path in ("burst", "burst-timed", "async13", "sync13-timed", "fenced", "fenced-timed"):
        assert _named(items, rf"^test_generated_coupling\[V1_2/pad_v2/quant8/ex0/signed-{path}\]$")
    assert _named(items, BYTES_MOVED) and _named(items, r"/conv2d/")


def test_a_driver_declining_the_signed_twins_fails_every_coupling_item(pytester) -> None:
    printed: list[str] = []
    outcomes = _run(pytester, "DeclinesSignedTwins", selection=COUPLING, printed=printed)
    assert outcomes and set(outcomes.values()) == {"FAILED"}
    assert (
        "get_supported_operations_1_3 reports operation 0 ADD (TENSOR_QUANT8_ASYMM_SIGNED) of "
        "the signed twin of V1_0/add/quant8_none unsupported, but supports it with "
        "TENSOR_QUANT8_ASYMM operands: a HAL 1.3 driver supports the signed form of every "
        "unsigned one it supports" in printed[0]
    )


def test_a_driver_reading_signed_bytes_as_unsigned_fails_the_arithmetic(pytester) -> None:
    """Its twins are supported and prepared; the operations that only move bytes come out
    right all the same, every one that computes comes out wrong."""
    outcomes = _run(pytester, "ReadsSignedAsUnsigned", selection=COUPLING)
    moved = _named(set(outcomes), BYTES_MOVED)
    failed = with_outcome(outcomes, "FAILED")
    assert failed and failed == set(outcomes) - moved
    assert moved and with_outcome(outcomes, "PASSED") == moved


def test_a_driver_supporting_only_the_signed_twins_fails_every_coupling_item(pytester) -> None:
    printed: list[str] = []
    outcomes = _run(pytester, "SignedOnly", selection=COUPLING, printed=printed)
    assert outcomes and set(outcomes.values()) == {"FAILED"}
    assert (
        "the driver prepared the signed twin of V1_0/add/quant8_none (its TENSOR_QUANT8_ASYMM "
        "operands made TENSOR_QUANT8_ASYMM_SIGNED) but declined the case itself (unsupported: "
        "the driver does not support operation 0 ADD (TENSOR_QUANT8_ASYMM)): a HAL 1.3 driver "
        "supports both forms or neither" in printed[0]
    )


def test_a_driver_declining_both_forms_has_its_coupling_items_unsupported(pytester) -> None:
    outcomes = _run(pytester, "DeclinesQuant8", selection=COUPLING)
    assert outcomes and set(outcomes.values()) == {"SKIPPED"}


ONE_COUPLING = "test_generated_coupling and V1_0/add/quant8_none/ex0/signed-sync13]"
NAMED = {
    MEMORY: ("conformance.test_generated::test_generated_memory",),
    COUPLING: ("conformance.test_generated::test_generated_coupling",),
    ONE_COUPLING: ("conformance.test_generated::test_generated_coupling",),
}
"""The selections that keep items of one test function only: their runs name it."""


def test_a_driver_preparing_the_case_unclaimed_but_not_its_twin_fails(pytester) -> None:
    """Neither form claimed, the case prepared, its twin not: the preparations disagree."""
    printed: list[str] = []
    outcomes = _run(pytester, "ClaimsNothing", selection=ONE_COUPLING, printed=printed)
    assert set(outcomes.values()) == {"FAILED"} and len(outcomes) == 1
    assert (
        "the driver prepared V1_0/add/quant8_none but not its signed twin (unsupported: the "
        "driver does not support operation 0 ADD (TENSOR_QUANT8_ASYMM_SIGNED)): a HAL 1.3 "
        "driver supports the signed form of every unsigned one it supports" in printed[0]
    )


def test_a_driver_calling_the_signed_twin_invalid_fails(pytester) -> None:
    printed: list[str] = []
    outcomes = _run(pytester, "SignedIsInvalid", selection=ONE_COUPLING, printed=printed)
    assert set(outcomes.values()) == {"FAILED"} and len(outcomes) == 1
    assert (
        "get_supported_operations_1_3 returned INVALID_ARGUMENT for the signed twin of "
        "V1_0/add/quant8_none, a valid model" in printed[0]
    )


def test_quantized_hard_swish_in_float_fails_exactly_the_wrapping_case(pytester) -> None:
    """Dequantize, the float formula, requantize: within one step of the integer procedure
    for every quantized HARD_SWISH example but one, whose output zero point the procedure
    adds on int16 (32830 wraps and clamps to 0; in float, 255). Every item of that case that
    compares values fails, on every path; the rest pass. The generated items alone run
    (no drawn inputs), so no seed decides the outcome."""
    outcomes = _run_generated(pytester, "QuantizedHardSwishInFloat", "V1_3/hard_swish/")
    failed = with_outcome(outcomes, "FAILED")
    # the case, and its Android 11 lifetime variation (an ADD of zero feeding its input)
    wrap = _named(
        set(outcomes),
        r"^test_generated\[V1_3/hard_swish/zero_point_wrap(_all_inputs_as_internal)?/",
    )
    # shapes and dyn-short compare no values; a fenced dynamic run must be refused
    values = wrap - _named(wrap, r"/(shapes|[\w-]+-dyn-short|fenced-dyn)\]$")
    assert _named(values, r"/sync\]$") and _named(values, r"/fenced\]$")
    assert _named(values, r"/burst-dyn\]$") and _named(values, r"/scattered\]$")
    assert failed == values
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - values
    # the other quantized cases ran, and passed
    assert _named(set(outcomes), r"hard_swish/quant8_signed_saturating/ex0/sync13\]$") - failed


def test_the_reference_driver_passes_the_hard_swish_cases(pytester) -> None:
    outcomes = _run_generated(pytester, "ReferenceDriver", "V1_3/hard_swish/")
    assert with_outcome(outcomes, "PASSED") == set(outcomes)
    assert _named(set(outcomes), r"zero_point_wrap/ex0/fenced\]$")


def test_signed_bytes_read_as_unsigned_fail_the_signed_add_cases(pytester) -> None:
    """A driver that runs the unsigned kernel on the int8 bytes as they are fails every
    item comparing the values of V1_3/add_quant8_signed, but for the two variants where
    no byte is negative and RELU1/RELU6 keep every result within [0, 127] (reading the
    bytes as uint8 changes nothing there). The fresh-input items draw their inputs from
    the run's seed: they may fail or pass, and are left out of the expectation."""
    outcomes = _run(
        pytester, "SignedReadAsUnsigned", (), "V1_3/add_quant8_signed/ and not test_qos"
    )
    # Android 11's lifetime variations of these cases (an ADD feeding each input, the
    # constants as inputs) are judged the same way elsewhere: here the spec's own cases.
    items = set(outcomes) - _named(set(outcomes), r"(_as_internal|all_tensors_as_inputs)")
    fresh = _named(items, r"^test_generated_fresh\[")
    coincidental = _named(items, r"/relu[16]_zp_pos/")
    # no values compared: short outputs, shapes alone, the fenced dynamic twins (refused)
    no_values = _named(items, r"(-dyn-short|/shapes|/fenced-dyn)\]$")
    computed = _named(items, r"^test_generated(_memory|_prepare)?\[")
    expected = computed - coincidental - no_values
    failed = with_outcome(outcomes, "FAILED")
    assert len(expected) == 17 * 31  # 17 variants, 31 items each compare values
    assert (failed & items) - fresh == expected


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
