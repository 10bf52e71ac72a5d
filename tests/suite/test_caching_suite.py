"""The caching suite catches drivers that get caching wrong, and only where it should."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DRIVERS = Path(__file__).resolve().parents[1] / "support" / "caching_drivers.py"
_RESULT = re.compile(r"^\S*::(test_\w+(?:\[[^\]]+\])?) (PASSED|FAILED|SKIPPED|ERROR)")


def _run(pytester: pytest.Pytester, driver: str, *args: str) -> tuple[dict, pytest.RunResult]:
    pytester.makepyfile(caching_drivers=DRIVERS.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_caching",
        f"--driver=caching_drivers:{driver}",
        "--nnhal-profile=ci",
        "-v",
        "-rs",
        *args,
    )
    outcomes = {m[1]: m[2] for line in result.outlines if (m := _RESULT.match(line))}
    assert outcomes, result.stdout.str()
    return outcomes, result


def test_a_driver_without_caching_passes_the_failure_rules_and_skips_the_rest(pytester) -> None:
    outcomes, result = _run(pytester, "Uncached")
    assert result.ret == 0, result.stdout.str()[-3000:]
    passed = {name for name, outcome in outcomes.items() if outcome == "PASSED"}
    assert passed == {
        "test_is_caching_supported_answers",
        "test_uncached_save_to_cache_fails_without_looking",
        "test_uncached_prepare_model_from_cache_fails",
    }
    skipped = len(outcomes) - len(passed)
    result.stdout.fnmatch_lines(
        [f"SKIPPED [[]{skipped}[]] *unsupported: the driver does not support compilation caching"]
    )


def test_a_driver_trusting_its_model_cache_is_caught(pytester) -> None:
    outcomes, result = _run(pytester, "Trusting", "-k", "corrupted_model_cache")
    assert result.ret == 1
    failed = {name for name, outcome in outcomes.items() if outcome == "FAILED"}
    # Without the seal, a cache saved for another token or another model is used as it is.
    assert {
        "test_corrupted_model_cache[float32-token_bit_flipped-0]",
        "test_corrupted_model_cache[quant8-token_bit_flipped-0]",
        "test_corrupted_model_cache[float32-model_cache_of_another_model-0]",
        "test_corrupted_model_cache[quant8-model_cache_of_another_model-0]",
    } <= failed
    result.stdout.fnmatch_lines(
        [
            "*token_bit_flipped (seed 0): expected GENERAL_FAILURE and no prepared model; got "
            "launch NONE, callback NONE, prepared model given*"
        ]
    )


def test_a_driver_saving_nothing_is_caught(pytester) -> None:
    outcomes, result = _run(pytester, "LazySave", "-k", "saved_cache_prepares or round_trip")
    assert result.ret == 1
    assert outcomes["test_saved_cache_prepares[float32]"] == "FAILED"
    assert outcomes["test_saved_cache_prepares[quant8]"] == "FAILED"
    # The parity round trip lets a driver decline, as VTS does: those items skip.
    assert {o for n, o in outcomes.items() if n.startswith("test_cache_round_trip")} == {"SKIPPED"}
    result.stdout.fnmatch_lines(
        ["*save_to_cache returned NONE, but preparing from the files and token it was given*"]
    )


def test_a_driver_remembering_caches_by_contents_is_caught(pytester) -> None:
    outcomes, result = _run(
        pytester, "RemembersCaches", "-k", "after_a_successful or corrupted_model_cache"
    )
    failed = {name for name, outcome in outcomes.items() if outcome == "FAILED"}
    assert failed == {
        f"test_wrong_cache_after_a_successful_preparation[{kind}-{change}]"
        for kind in ("float32", "quant8")
        for change in ("token_one_bit_different", "token_unrelated", "cache_of_another_model")
    }, result.stdout.str()[-3000:]
    result.stdout.fnmatch_lines(
        [
            "*after a successful preparation from cache, the files just prepared, with an "
            "unrelated token: expected GENERAL_FAILURE and no prepared model; got launch NONE, "
            "callback NONE, prepared model given*"
        ]
    )


def test_every_cache_round_trip_item_is_named_by_its_case(pytester) -> None:
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_caching",
        "-k",
        "test_cache_round_trip",
        "--nnhal-profile=full",
        "--nnhal-seed=1",
        "--collect-only",
        "-q",
    )
    ids = [line for line in result.stdout.lines if "test_cache_round_trip[" in line]
    assert len(ids) > 2000
    positional = [i for i in ids if re.search(r"\[case\d+\]$", i)]
    assert positional == []
    long_case = "V1_2/unidirectional_sequence_lstm_omitted_inputs/batch_major_cifg_peephole_projection_zero_sized_input_float16"
    assert any(i.endswith(f"[{long_case}]") for i in ids)
