"""The memory suites catch what they must, excuse what they should, and nothing else.

Each test runs ``conformance.test_memory_pools`` or ``conformance.test_memory_domains``
in a pytest subprocess against a driver from memory_drivers.py (built on the
reference driver, wrong in one known way) and checks which items fail or skip
and what they say.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from suite_outcomes import outcomes_of, with_outcome

DRIVERS = Path(__file__).resolve().parents[1] / "support" / "memory_drivers.py"
_CASE = "V1_0/add/"
"""The pool suite runs on this generated spec only: enough to see every variant."""


def _run(pytester: pytest.Pytester, module: str, driver: str, *args: str):
    """Outcome of every item (``name[id]`` -> PASSED/FAILED/SKIPPED/ERROR) and the run."""
    pytester.makepyfile(memory_drivers=DRIVERS.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        f"conformance.{module}",
        f"--driver=memory_drivers:{driver}",
        "-v",
        "-rA",
        *args,
    )
    return outcomes_of(result), result


def test_undeclared_role_is_caught_by_its_test(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_domains", "AcceptsUndeclaredRoles")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == {i for i in outcomes if i.startswith("test_token_in_undeclared_role")}
    assert len(failed) == 6
    result.stdout.fnmatch_lines(
        [
            "*a buffer used as input 0: execute_synchronously answered NONE, expected INVALID_ARGUMENT*"
        ]
    )


def test_reading_an_uninitialised_buffer_is_caught_by_its_test(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_domains", "ReadsUninitialised")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == {
        "test_uninitialised_buffer_as_input_fails[sync]",
        "test_uninitialised_buffer_as_input_fails[async]",
    }
    result.stdout.fnmatch_lines(
        [
            "*an uninitialised buffer as input: execute_synchronously answered NONE, "
            "expected GENERAL_FAILURE*"
        ]
    )


def test_writing_before_an_output_is_caught_by_the_guarded_layouts(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_pools", "WritesBeforeOutput", "-k", _CASE)
    failed = with_outcome(outcomes, "FAILED")
    guarded = {i for i in outcomes if re.search(r"/(many|shared)-\w+\]$", i)}
    assert failed == guarded and failed, sorted(outcomes.items())
    result.stdout.fnmatch_lines(
        ["*the driver wrote 1 byte(s) outside every output location in pool *"]
    )


def test_a_driver_without_blob_pools_is_unsupported_there_not_failed(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_pools", "NoBlobPools", "-k", _CASE, "-rs")
    blob = {i for i in outcomes if i.endswith("-hardware_buffer_blob]")}
    assert with_outcome(outcomes, "SKIPPED") == blob and blob
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - blob
    result.stdout.fnmatch_lines(
        [
            "*unsupported: hardware_buffer_blob request pools: sync answered GENERAL_FAILURE*",
            "*unsupported: hardware_buffer_blob constant pools: prepare_model_1_2 answered "
            "GENERAL_FAILURE*",
        ],
        consecutive=False,
    )


def test_a_13_driver_without_blob_request_pools_fails_there(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_pools", "NoBlobPools13", "-k", _CASE, "-rs")
    blob = {i for i in outcomes if i.endswith("-hardware_buffer_blob]")}
    constants = {i for i in blob if "/constref-" in i}
    assert constants and with_outcome(outcomes, "SKIPPED") == constants
    assert blob - constants and with_outcome(outcomes, "FAILED") == blob - constants
    assert with_outcome(outcomes, "PASSED") == set(outcomes) - blob
    result.stdout.fnmatch_lines(["*status GENERAL_FAILURE, expected NONE*"])


def test_a_driver_without_mmap_fd_pools_fails_there(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_pools", "NoMmapFdPools", "-k", _CASE)
    mmap_fd = {i for i in outcomes if i.endswith("-mmap_fd]")}
    assert with_outcome(outcomes, "FAILED") == mmap_fd and mmap_fd
    result.stdout.fnmatch_lines(["*status GENERAL_FAILURE, expected NONE*"])
    result.stdout.fnmatch_lines(
        ["*prepare_model_1_2 failed with GENERAL_FAILURE although get_supported_operations*"]
    )


def test_a_driver_that_declines_allocation_skips_the_domain_tests(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_domains", "DeclinesAllocation", "-rs")
    assert set(outcomes.values()) == {"SKIPPED"}
    result.stdout.fnmatch_lines(
        ["*unsupported: memory domains: allocate declined a plain buffer (GENERAL_FAILURE)*"]
    )


def test_a_driver_without_the_mix_in_must_refuse_tokens(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_domains", "WithoutMemoryDomains", "-rs")
    passed = with_outcome(outcomes, "PASSED")
    assert passed == {i for i in outcomes if i.startswith("test_token_pool_without_memory")}
    assert {i.split("[")[1] for i in passed} == {
        "async10]",
        "async]",
        "async-timed]",
        "sync]",
        "sync-timed]",
    }
    assert with_outcome(outcomes, "SKIPPED") == set(outcomes) - passed
    result.stdout.fnmatch_lines(
        ["*unsupported: memory domains: the driver does not subclass IMemoryDomains*"]
    )


def test_writing_another_models_output_buffer_is_caught_by_its_test(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_domains", "WritesForeignOutputBuffers")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == {
        i for i in outcomes if i.startswith("test_output_buffer_of_another_prepared_model")
    }
    assert len(failed) == 4
    result.stdout.fnmatch_lines(
        [
            "*a buffer allocated for output 0 of another prepared model (other-model) as "
            "output 0: execute_synchronously answered NONE, expected INVALID_ARGUMENT*"
        ]
    )


def test_keeping_buffers_after_a_failed_execution_is_caught_by_its_test(pytester) -> None:
    outcomes, result = _run(pytester, "test_memory_domains", "KeepsBuffersOnFailure")
    failed = with_outcome(outcomes, "FAILED")
    assert failed == {
        "test_failed_execution_uninitialises_its_output_buffer[sync]",
        "test_failed_execution_uninitialises_its_output_buffer[async]",
    }
    result.stdout.fnmatch_lines(
        [
            "*IBuffer.copy_to of a buffer after a failed execution (INVALID_ARGUMENT) into it "
            "answered NONE, expected GENERAL_FAILURE*"
        ]
    )
