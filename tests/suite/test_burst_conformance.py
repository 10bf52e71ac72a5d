"""The burst suite catches each broken burst server of burst_drivers.py, with the named test.

Each test runs ``conformance.test_burst`` in a pytest subprocess against one
driver (as a vendor would: ``--driver=burst_drivers:Name``) on a small
selection, and checks which items fail and what they say; the rest of the
selection must pass, so the catch is the named test's and no other's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DRIVERS = Path(__file__).resolve().parents[1] / "support" / "burst_drivers.py"
_RESULT = re.compile(r"^\S*::(test_burst\w*(?:\[.+\])?) (PASSED|FAILED|SKIPPED|ERROR)")
_CASE = "V1_0/add/none"


def _run(pytester: pytest.Pytester, driver: str, selection: str) -> tuple[dict, str]:
    pytester.makepyfile(burst_drivers=DRIVERS.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_burst",
        f"--driver=burst_drivers:{driver}",
        "--nnhal-profile=ci",
        "--hal-timeout=0.5",
        "-v",
        "-k",
        selection,
    )
    outcomes = {}
    for line in result.outlines:
        match = _RESULT.match(line)
        if match:
            outcomes[match[1]] = match[2]
    output = result.stdout.str()
    assert outcomes, output
    return outcomes, output


def _failed(outcomes: dict) -> set[str]:
    return {item for item, outcome in outcomes.items() if outcome == "FAILED"}


def test_a_driver_ignoring_malformed_packets_is_caught(pytester) -> None:
    outcomes, output = _run(
        pytester,
        "IgnoresMalformedPackets",
        f"(test_burst_serialization and {_CASE}) or (malformed_packet and discriminator) or reuses",
    )
    assert _failed(outcomes) == {
        f"test_burst_serialization[{_CASE}]",
        "test_burst_malformed_packet[unknown-discriminator-7]",
        "test_burst_malformed_packet[unknown-discriminator-255]",
    }, output
    assert outcomes["test_burst_reuses_cached_memories"] == "PASSED", output
    assert "the driver sent no result packet within 0.5 s" in output
    assert "datum 0 (PACKET_INFORMATION) removed: the driver sent no result packet" in output


def test_a_driver_silent_on_a_too_small_result_channel_is_caught(pytester) -> None:
    outcomes, output = _run(
        pytester,
        "SilentOnSmallResultChannel",
        f"{_CASE} and (too_small or serialization or padding)",
    )
    assert _failed(outcomes) == {f"test_burst_result_channel_too_small[{_CASE}]"}, output
    assert "PASSED" in outcomes.values()
    assert "burst (MeasureTiming NO): the driver sent no result packet within 0.5 s" in output


def test_a_driver_fetching_memories_every_time_is_caught(pytester) -> None:
    outcomes, output = _run(
        pytester, "FetchesMemoriesEveryTime", f"reuses or free_memory or ({_CASE} and padding)"
    )
    assert _failed(outcomes) == {"test_burst_reuses_cached_memories"}, output
    assert (
        "over 12 executions on the same pools (slots [0, 1]) the driver called get_memories "
        "12 times for slots [0, 1, 0, 1" in output
    )


_REUSE = "reuses_cached or reused_memory or interleaves"


def test_a_driver_repeating_results_by_slot_is_caught(pytester) -> None:
    outcomes, output = _run(pytester, "RepeatsResultsBySlot", _REUSE)
    assert _failed(outcomes) == {"test_burst_new_inputs_in_reused_memory"}, output
    assert outcomes["test_burst_interleaves_two_requests"] == "PASSED", output
    assert (
        "V1_0/add/none: execution 1 on the same slots, example 1's inputs written into the "
        "memory (examples in order [0, 1, 1, 0, 1]): output 0 wrong" in output
    )


def test_a_driver_caching_memories_by_position_is_caught(pytester) -> None:
    outcomes, output = _run(pytester, "MemoriesByPosition", _REUSE)
    assert _failed(outcomes) == {"test_burst_interleaves_two_requests"}, output
    assert outcomes["test_burst_new_inputs_in_reused_memory"] == "PASSED", output
    assert "V1_0/add/none: execution 1, example 1's request on slots [2, 3]" in output


def test_bursts_that_never_answer_are_blocked_after_two_timeouts(pytester) -> None:
    pytester.makepyfile(burst_drivers=DRIVERS.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_generated",
        "--driver=burst_drivers:NeverAnswersBursts",
        "--hal-timeout=0.3",
        "-k",
        "V1_0/add/none/ex0/burst",
    )
    output = _failure_sections(result)
    failures = [line for line in result.outlines if line.startswith("FAILED ")]
    assert len(failures) == 6, output
    assert output.count("the driver sent no result packet within 0.3 s") == 2, output
    blocked = "blocked: burst execution timed out 2 times earlier in this run (--hal-hang-limit=2)"
    assert output.count(blocked) == 4, output


def _failure_sections(result: pytest.RunResult) -> str:
    """The output's failure reports, without the short summary (whose lines CI does not
    truncate, so they would count each message again)."""
    return result.stdout.str().split("short test summary info")[0]


_STATE = "recycled or timing_of_each or shapes_of_each or reuses_cached or interleaves"
"""The burst tests of state kept between executions, and two that must still pass."""


def test_a_driver_keeping_freed_slots_is_caught(pytester) -> None:
    outcomes, output = _run(pytester, "KeepsFreedSlots", _STATE)
    assert _failed(outcomes) == {"test_burst_slot_recycled_after_free_memory"}, output
    assert "V1_0/add/none: a request on slots [0, 1] after free_memory of each: status NONE" in (
        output
    )


def test_a_driver_reporting_stale_burst_timing_is_caught(pytester) -> None:
    outcomes, output = _run(pytester, "StaleBurstTiming", _STATE)
    assert _failed(outcomes) == {"test_burst_timing_of_each_execution"}, output
    assert "execution 1 of 9 on one burst (inputs [1, 2], MeasureTiming YES" in output
    assert "is not within the call's wall time" in output


def test_a_driver_repeating_burst_shapes_is_caught(pytester) -> None:
    outcomes, output = _run(pytester, "CachedBurstShapes", _STATE)
    assert _failed(outcomes) == {"test_burst_output_shapes_of_each_execution"}, output
    assert (
        "execution 1 on one burst (inputs [4, 1], output buffer a byte short; shapes in order "
        "[[2, 3], [4, 1], [1, 5], [3, 2]]): reported dimensions [2, 3], expected [4, 1]"
    ) in output
