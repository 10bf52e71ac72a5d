"""report.json's size: a report written again in this version's layout, and with failures.

``python -m benchmarks.report_size PATH [--failures N] [--short]`` reads a report.json of
any version ``plugins.report.document.load`` reads (so an older layout too),
writes its text again as ``nnhal-report render`` would (``json_text``: compact
entries, durations to the millisecond), and prints the bytes as read, the bytes
written now and the bytes per test; then the same run with N of its passed
tests failing instead (default 25,000; 0 skips it), each with a failure's
texts worded as the suite words them (a value comparison's first line with
five values, the tolerance and the rerun command; a validation failure's
family, case, mutation and rerun command; ``--short``: a wrong status), and
prints the bytes of that report.json.
Nothing is written to disk.

The targets (issue 49): a fully passing run's report.json at most 4 MB, a run
with 25,000 failures at most 12 MB. It is a script, not one of ``python -m
benchmarks``'s benchmarks: it needs a report to read, and it times nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from plugins.report import compact
from plugins.report.document import json_text, load, new_document
from plugins.report.facts import BAD_OUTCOMES

FAILURES = 25_000
PASSING_TARGET = 4_000_000
FAILING_TARGET = 12_000_000
RERUN = "pytest --pyargs {id} --driver=vendor.driver:Factory --nnhal-profile=full --nnhal-seed=7"
"""The rerun command a run without one (``run.rerun``, written since schema version 3)
is given: its failures' commands are the ones the collector writes."""


def _value_failure(test: dict[str, Any], k: int, rerun: str) -> dict[str, Any]:
    """A failed value comparison worded as ``conformance.harness.runner`` words it: the
    first line (five values that differ; the reason is its first 300 characters), the
    tolerance and the rerun command; some 600 characters."""
    mismatches, error = k % 50 + 5, 0.25 + k % 13 / 8
    values = "; ".join(
        f"[0, {i}, {(k + i) % 8}, 2]: expected {np.float32(0.5 + i / 8)!s}, "
        f"got {np.float32(1.25 - i / 4 + k / 4096)!s}"
        for i in range(5)
    )
    first = (
        f"output 0 (shape [1, 8, 8, 3]): {mismatches} of 192 values differ, max abs error "
        f"{error:g} at [0, {k % 8}, {k % 5}, 2]; {values}"
    )
    return {
        "reason": first[:300],
        "details": f"{first}\ntolerance: atol=1e-05 rtol=1e-05 quant=+-1 (float32)\nrerun: {rerun}",
        "metrics": {"mismatches": mismatches, "max_abs_error": error},
    }


def _status_failure(test: dict[str, Any], k: int, rerun: str) -> dict[str, Any]:
    """A mutation the driver did not refuse, worded as ``conformance.harness.validating``
    words it: the family, the case, the mutation, what came back and the rerun command;
    some 400 characters."""
    family = test.get("family") or "operand_type"
    case = (compact.split_id(test["id"])[1] or "").removeprefix(f"{family}/")
    first = (
        f"{family} (parity; rules operands, types) on {case}: "
        f"1 of {k % 5 + 2} mutation(s) not refused as required"
    )
    details = (
        f"{first}\n- operand {k % 9} of operation {k % 4}: its type changed to TENSOR_INT32\n"
        "    prepare_model_1_2 returned ErrorStatus.NONE, expected "
        f"ErrorStatus.INVALID_ARGUMENT\nrerun: {rerun}"
    )
    return {"reason": first, "details": details, "metrics": None}


def _short_failure(test: dict[str, Any], k: int, rerun: str) -> dict[str, Any]:
    """A wrong status as ``conformance.harness.runner`` words it: one short line and the
    rerun command."""
    first = f"status {('GENERAL_FAILURE', 'OUTPUT_INSUFFICIENT_SIZE')[k % 2]}, expected NONE"
    return {"reason": first, "details": f"{first}\nrerun: {rerun}", "metrics": None}


def with_failures(doc: dict[str, Any], count: int, short: bool = False) -> dict[str, Any]:
    """``doc`` with ``count`` of its passed tests, spread evenly in id order, failed as a
    driver fails them (``_value_failure`` for generated tests, ``_status_failure`` for
    the others; ``_short_failure`` for all when ``short``), each with the run's rerun
    command; derived parts recomputed."""
    run = dict(doc["run"], rerun=doc["run"].get("rerun") or RERUN)
    tests = [dict(t) for t in doc["tests"]]
    passed = [t for t in tests if t["outcome"] == "passed"]
    count = min(count, len(passed))
    for k in range(count):
        test = passed[k * len(passed) // count]
        failure = _value_failure if test["category"] == "generated" else _status_failure
        failure = _short_failure if short else failure
        rerun = compact.rerun_for(run["rerun"], test["id"])
        test.update(failure(test, k, rerun), outcome="failed", rerun=rerun)
    return new_document(run, doc["driver"], doc["environment"], tests)


def sizes(path: Path, failures: int = FAILURES, short: bool = False) -> dict[str, int]:
    """Bytes of ``path`` as read and written again now, its tests (and how many went
    wrong), and the bytes of its run with ``failures`` failures (0: not measured; ``short``:
    each a short status failure)."""
    doc = load(path)
    figures = {
        "tests": len(doc["tests"]),
        "bad": sum(doc["summary"]["outcomes"][o] for o in BAD_OUTCOMES),
        "read_bytes": path.stat().st_size,
        "written_bytes": len(json_text(doc).encode()),
    }
    if failures:
        failing = with_failures(doc, failures, short)
        figures["failures"] = failing["summary"]["outcomes"]["failed"]
        figures["failing_bytes"] = len(json_text(failing).encode())
    return figures


def _lines(path: Path, figures: dict[str, int]) -> list[str]:
    tests = figures["tests"]
    lines = [
        f"report-size: {path}: {tests:,} tests, {figures['read_bytes']:,} bytes as read, "
        f"{figures['written_bytes']:,} bytes written now ({figures['written_bytes'] / tests:.1f} "
        f"bytes a test; target <= {PASSING_TARGET:,} for a passing run)"
    ]
    if "failing_bytes" in figures:
        lines.append(
            f"report-size: with {figures['failures']:,} failures: {figures['failing_bytes']:,} "
            f"bytes (target <= {FAILING_TARGET:,} with 25,000)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.report_size", description=__doc__.split("\n\n")[1]
    )
    parser.add_argument("report", type=Path, help="a report.json of any readable version")
    parser.add_argument(
        "--failures",
        type=int,
        default=FAILURES,
        help=f"how many passed tests to fail for the second figure (default {FAILURES:,}; 0: none)",
    )
    parser.add_argument(
        "--short",
        action="store_true",
        help="each failure a short wrong-status message (some 40 characters) instead of "
        "the suite's value-comparison and validation messages (some 400 to 600)",
    )
    args = parser.parse_args(argv)
    for line in _lines(args.report, sizes(args.report, args.failures, args.short)):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
