"""The suite benchmark: collecting and running the generated suite, against empty items.

Subject: ``pytest --pyargs conformance.test_generated`` on the reference driver:
collection alone, then the whole run at ``-n 0`` and ``-n 2``.
Baseline: the same number of empty parametrized test items run by pytest in
the same way, so the ratio is the harness's own cost per item beyond pytest's.

Per-item overhead: at ``-n 0``, only the items of one one-operation case
(``-k ADD_CASE``: its executions on every path and its preparations), each
followed by an empty test item made in the same module of the same process
(``benchmarks._loop_timer`` with ``NNHAL_BENCH_BASELINE``). Each item is timed
from the end of the item before it, so neither collection nor the session's
one-time setup (in the first item) counts; the ratio of a run is its case
items' mean over its empty items' mean, taken side by side so that the
machine's speed, which on a shared 2-core VM moves by tens of percent from
one process to the next, cancels. Target: under 3x. The figure is the median
of ``PER_ITEM_RUNS`` runs' ratios (and the medians of their times).

A quick run (``NNHAL_BENCH_QUICK=1``) measures collection and one per-item
run of each kind, and skips the whole runs (collecting the generated suite
alone takes some 15 s).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import _loop_timer
from benchmarks.result import Figure, Result, quick, runs

ROOT = Path(__file__).resolve().parent.parent
SUITE = ("--pyargs", "conformance.test_generated", "--driver=reference")
ADD_CASE = "V1_0/add/none"
"""The one-operation case whose items the per-item figure runs (ADD, float32, no activation)."""
PER_ITEM_RUNS = 5
PER_ITEM_TARGET = 3.0

_COLLECTED = re.compile(r"(\d+) tests? collected")
_EMPTY_ITEMS = """
import pytest

@pytest.mark.parametrize("n", range({count}))
def test_empty(n):
    pass
"""


def _pytest(*args: str, cwd: Path | None = None, env: dict | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 5):
        raise RuntimeError(f"pytest {' '.join(args)} failed:\n{done.stdout[-2000:]}")
    return elapsed, done.stdout


def _count(output: str) -> int:
    match = _COLLECTED.search(output)
    if match:
        return int(match.group(1))
    return sum(int(n) for n in re.findall(r"(\d+) (?:passed|skipped|failed)", output))


def _per_item_pair() -> tuple[float, float, int]:
    """One ``-n 0`` run of the ADD case's items, each followed by an empty item in the same
    module: seconds per case item and per empty item (each timed from the end of the item
    before it; the first item, which sets the session up, not counted), and the number of
    case items."""
    with tempfile.TemporaryDirectory(prefix="nnhal-bench-") as scratch:
        times = Path(scratch, "finished.json")
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        env = dict(
            os.environ,
            PYTHONPATH=path,
            **{_loop_timer.ENV: str(times), _loop_timer.BASELINE_ENV: "1"},
        )
        _pytest(
            *SUITE, "-k", ADD_CASE, "-n", "0", "-p", "benchmarks._loop_timer", cwd=ROOT, env=env
        )
        finished = json.loads(times.read_text())["finished"]
    return _split_times(finished)


def _split_times(finished: list[list]) -> tuple[float, float, int]:
    """(seconds per subject item, seconds per baseline item, subject items) of an
    alternating run's ``[nodeid, finish time]`` list (subject first)."""
    subject, baseline = [], []
    for k in range(1, len(finished)):
        nodeid, end = finished[k]
        (baseline if _loop_timer.EMPTY_NAME in nodeid else subject).append(end - finished[k - 1][1])
    if not subject or not baseline:
        raise RuntimeError(
            f"the per-item run finished {len(finished)} items; expected the items of "
            f"{ADD_CASE} alternating with empty items"
        )
    return statistics.fmean(subject), statistics.fmean(baseline), len(subject) + 1


def _per_item() -> tuple[str, Figure]:
    """The per-item overhead line and figure: one ADD case's items vs empty items."""
    case, empty, ratios = [], [], []
    count = 0
    for _ in range(runs(PER_ITEM_RUNS)):
        case_s, empty_s, count = _per_item_pair()
        case.append(case_s)
        empty.append(empty_s)
        ratios.append(case_s / empty_s)
    case_ms, empty_ms = statistics.median(case) * 1e3, statistics.median(empty) * 1e3
    ratio = statistics.median(ratios)
    target = f"< {PER_ITEM_TARGET:g}x empty"
    line = (
        f"suite: per item at -n 0, the {count} items of {ADD_CASE} (after the first), each "
        f"followed by an empty item: {case_ms:.2f} ms; empty items {empty_ms:.2f} ms; "
        f"ratio {ratio:.1f} (target {target})"
    )
    figure = Figure(
        f"per item, {ADD_CASE}, -n 0",
        case_ms,
        "ms",
        empty_ms,
        ratio,
        target,
        ratio < PER_ITEM_TARGET,
    )
    return line, figure


def run() -> Result:
    collect_s, output = _pytest(*SUITE, "--collect-only")
    items = _count(output)
    lines = [f"suite: collection {collect_s:.2f} s for {items} items"]
    figures = [Figure("collection", collect_s, "s")]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "test_empty.py").write_text(_EMPTY_ITEMS.format(count=items))
        for workers in () if quick() else ("0", "2"):
            run_s, _ = _pytest(*SUITE, "-n", workers)
            empty_s, _ = _pytest("test_empty.py", "-n", workers, cwd=Path(folder))
            lines.append(
                f"suite: -n {workers}: {run_s:.2f} s total, {items / run_s:.0f} items/s; "
                f"empty items {empty_s:.2f} s; ratio vs baseline {run_s / empty_s:.1f}"
            )
            figures.append(
                Figure(
                    f"-n {workers} whole run",
                    items / run_s,
                    "items/s",
                    items / empty_s,
                    run_s / empty_s,
                )
            )
        if quick():
            lines.append("suite: whole runs skipped (quick run)")
        line, figure = _per_item()
        lines.append(line)
        figures.append(figure)
    return Result("suite", "\n".join(lines), figures)
