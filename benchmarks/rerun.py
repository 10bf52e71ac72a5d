"""Rerunning one item: the wall time of a printed rerun command, from an empty folder.

Subject: ``pytest --pyargs 'MODULE::ITEM'`` (the form every failure prints) for
one item of ``test_generated`` and one of ``test_validate_model``, the two
modules with the most items, run in a fresh interpreter from an empty folder,
start-up included. Baseline: ``pytest --pyargs conformance.test_basic`` run the
same way (a whole small module). Ratios are item / baseline; the target is
<= 3 s wall per item on 2 cores. Each command runs ``ROUNDS`` times, rounds
interleaved; the figure is the median. A quick run (``NNHAL_BENCH_QUICK=1``)
runs each once.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchmarks.result import Figure, Result, runs

ROUNDS = 5
TARGET_S = 3.0
ITEMS = {
    "generated item": "conformance.test_generated::test_generated[V1_0/add/none/ex0/sync]",
    "model-validation item": (
        "conformance.test_validate_model::test_validate_model"
        "[operand_retype_vts/V1_2/conv2d_forms_v1_2/dilated_nhwc_channelQuant8]"
    ),
}
BASELINE = "conformance.test_basic"


def _time(target: str, folder: str) -> float:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs", target]
    # Python and pytest write their bytecode (rewritten test modules included) as a vendor's
    # runs do; with PYTHONDONTWRITEBYTECODE set every rerun would compile them again.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}")
    return elapsed


def run() -> Result:
    targets = {"test_basic": BASELINE, **ITEMS}
    times: dict[str, list[float]] = {name: [] for name in targets}
    with tempfile.TemporaryDirectory(prefix="nnhal-bench-rerun-") as folder:
        for _ in range(runs(ROUNDS)):
            for name, target in targets.items():
                times[name].append(_time(target, folder))
    baseline = statistics.median(times["test_basic"])
    figures = [Figure("test_basic module", round(baseline, 2), "s")]
    parts = [f"test_basic {baseline:.2f} s"]
    for name in ITEMS:
        value = statistics.median(times[name])
        figures.append(
            Figure(
                name,
                round(value, 2),
                "s",
                baseline=round(baseline, 2),
                ratio=round(value / baseline, 2),
                target=f"<= {TARGET_S:g} s",
                met=value <= TARGET_S,
            )
        )
        parts.append(f"{name} {value:.2f} s ({value / baseline:.2f}x)")
    return Result(
        "rerun", "rerun (median wall, from an empty folder): " + ", ".join(parts), figures
    )
