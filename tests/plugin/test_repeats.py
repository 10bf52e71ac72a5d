"""Repeated failures: the first few of a cause in full, then one line each, and a count."""

from __future__ import annotations

import pytest

REPEATING = """
import pytest

@pytest.mark.parametrize("n", range(6))
def test_values(n):
    pytest.fail(f"output 0: {n + 1} of 40 values differ, max abs error 0.{n}5\\nDETAIL {n}\\n"
                f"rerun: pytest --pyargs here::test_values[{n}]", pytrace=False)

def test_other():
    assert False, "a different cause"
"""


def _failures_section(result: pytest.RunResult) -> str:
    """The FAILURES section alone: on CI pytest's short summary repeats whole messages."""
    return result.stdout.str().split("short test summary info")[0]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_repeating=REPEATING)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--driver=reference", *args)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_after_three_a_cause_prints_one_line_each(pytester, workers) -> None:
    result = _run(pytester, "-p", "no:randomly", *workers)
    result.assert_outcomes(failed=7)
    out = result.stdout.str()
    failures = _failures_section(result)
    assert failures.count("DETAIL") == 3, out
    shortened = [line for line in failures.splitlines() if line.startswith("(failure ")]
    assert [line.split(" with")[0] for line in shortened] == [
        "(failure 4",
        "(failure 5",
        "(failure 6",
    ]
    assert all(
        line.endswith("; the first 3 are printed in full, --nnhal-repeats=0 prints all)")
        for line in shortened
    )
    # Each shortened failure keeps its own first line and its rerun command.
    assert failures.count("rerun: pytest --pyargs here::test_values[") == 6
    result.stdout.fnmatch_lines(
        [
            "*= nnhal: failures by cause =*",
            "      6 x output #: # of # values differ, max abs error # "
            "(first: test_repeating.py::test_values[[]*[]])",
        ]
    )
    assert "a different cause" in out and "1 x" not in out


def test_repeats_zero_prints_every_failure_in_full(pytester) -> None:
    result = _run(pytester, "--nnhal-repeats=0")
    result.assert_outcomes(failed=7)
    assert _failures_section(result).count("DETAIL") == 6
    assert not any(line.startswith("(failure ") for line in result.outlines)


def test_a_negative_repeat_count_is_a_usage_error(pytester) -> None:
    result = _run(pytester, "--nnhal-repeats=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*argument --nnhal-repeats: must be a whole number >= 0, not '-1'"]
    )
