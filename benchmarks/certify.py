"""The certify benchmark (opt-in): a whole certification of the reference driver, as a vendor runs it.

Subject: ``nnhal-certify --driver reference --jobs 2 --out DIR`` (the console
script beside this interpreter), the whole suite as two shard processes
(nnhal-certify's way to run in parallel). Figures: the total wall time
(target: under 600 s), the verdict, and each test process's peak resident set
size as the report records it
(``run.worker_memory`` of report.json, each process's ``ru_maxrss`` at the
end of its session; target: under 2 GiB each).

It takes many minutes, so ``python -m benchmarks`` runs it only when named
(``python -m benchmarks certify``) or with ``--all``. A quick run
(``NNHAL_BENCH_QUICK=1``) certifies only the items of ``QUICK_SELECTION`` with
the ci profile (its verdict then says the run was partial); the workers still
collect the whole suite, so it takes a minute or so.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.result import Figure, Result, quick

JOBS = "2"
WALL_TARGET_S = 600.0
RSS_TARGET = 2 * 2**30
QUICK_SELECTION = "V1_0/add/none"
TIMEOUT = 4 * 3600
MIB = 2**20


def command(out: Path) -> list[str]:
    script = Path(sys.executable).with_name("nnhal-certify")
    if not script.exists():
        raise RuntimeError(f"{script} not found: install the project into this interpreter")
    args = [str(script), "--driver", "reference", "--jobs", JOBS, "--out", str(out)]
    if quick():
        args += ["--profile", "ci", "-k", QUICK_SELECTION]
    return args


def run() -> Result:
    with tempfile.TemporaryDirectory(prefix="nnhal-bench-certify-") as folder:
        out = Path(folder, "report")
        start = time.perf_counter()
        done = subprocess.run(
            command(out), capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
        wall_s = time.perf_counter() - start
        report = out / "report.json"
        if not report.exists():
            raise RuntimeError(
                f"nnhal-certify exited with {done.returncode} and wrote no report:\n"
                f"{(done.stdout + done.stderr)[-2000:]}"
            )
        doc = json.loads(report.read_text())
    status = doc["verdict"]["status"]
    workers = doc["run"].get("worker_memory") or []
    wall_target = f"< {WALL_TARGET_S:g} s"
    figures = [
        Figure("wall time", wall_s, "s", target=wall_target, met=wall_s < WALL_TARGET_S),
        Figure("verdict", status, ""),
    ]
    for worker in workers:
        peak = worker["peak_rss_bytes"]
        figures.append(
            Figure(
                f"peak RSS {worker['id']}",
                peak / MIB,
                "MiB",
                target="< 2 GiB",
                met=peak < RSS_TARGET,
            )
        )
    peaks = ", ".join(f"{w['id']} {w['peak_rss_bytes'] / MIB:.0f} MiB" for w in workers)
    line = (
        f"certify: nnhal-certify --driver reference --jobs {JOBS}"
        f"{' (quick: ' + QUICK_SELECTION + ')' if quick() else ''}: {wall_s:.0f} s wall "
        f"(target {wall_target}), {status}; peak RSS per worker (target < 2 GiB): "
        f"{peaks or 'not in the report'}"
    )
    return Result("certify", line, figures)
