"""The memory-growth benchmark: how much memory preparing and running MobileNet v1 takes.

Subject: in a fresh Python process (``benchmarks._rss_probe``), the peak
resident set size while the reference driver prepares MobileNet v1 float32
and executes it once, over the resident set size just before (numpy, hal,
reference_driver imported and the model built, so its ``operand_values``
already hold the weights): the growth.
Baseline: the weights' size, the sum of the model's constant bytes. Target:
growth under 3x the weights. A quick run (``NNHAL_BENCH_QUICK=1``) uses the
quick MobileNet.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.result import Figure, Result

ROOT = Path(__file__).resolve().parent.parent
TARGET = 3.0
TIMEOUT = 600
MIB = 2**20


def probe() -> dict[str, int | bool]:
    """The probe's figures (bytes), from a fresh interpreter."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks._rss_probe"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the RSS probe exited with {done.returncode}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run() -> Result:
    found = probe()
    growth = found["peak"] - found["baseline"]
    weights = found["weights"]
    ratio = growth / weights
    target = f"< {TARGET:g}x weights"
    note = "" if found["peak_reset"] else " (the peak could not be reset: it may include the build)"
    line = (
        f"memory-growth (MobileNet v1 float32, fresh process): RSS {found['baseline'] / MIB:.1f} "
        f"MiB with the model built, peak {found['peak'] / MIB:.1f} MiB over prepare + one "
        f"execution: growth {growth / MIB:.1f} MiB; weights {weights / MIB:.1f} MiB; "
        f"ratio growth/weights {ratio:.2f} (target {target}){note}"
    )
    figures = [
        Figure("peak growth", growth / MIB, "MiB", weights / MIB, ratio, target, ratio < TARGET),
        Figure("weights", weights / MIB, "MiB"),
        Figure("RSS with the model built", found["baseline"] / MIB, "MiB"),
    ]
    return Result("memory-growth", line, figures)
