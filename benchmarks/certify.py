"""The certify benchmark: whole certifications, as a vendor runs them, beside a calibration.

Subjects (``NNHAL_BENCH_CERTIFY``, a comma-separated list; default ``reference@1.2``):

* ``reference@1.2``, ``reference@1.3``: ``nnhal-certify --driver reference --jobs 2
  --hal-version V --out DIR`` (the console script beside this interpreter), the whole
  suite as two shard processes, the driver in process isolation (the default);
* ``example@1.2``: the same for the example driver ``nnhal-example`` writes (float32
  ADD, MUL and RELU, quant8 RELU; everything else declined, every parity check still
  run against it).

Figures per subject: the total wall time against issue 49's targets (reference: at most
300 s at HAL 1.2, 420 s at HAL 1.3; example: 120 s), the verdict, the serial tail (the
wall time after the slower shard ended: merging and rendering the report), the size of
report.json (target: at most 4 MB for a passing run), and each test process's peak
resident set (``run.worker_memory`` of report.json; target under 2 GiB).

The machine's speed drifts, so the benchmark first times a fixed pure-Python workload
(``calibration``: the median of five runs of ``CALIBRATION_LOOP``) and prints it beside
the figures; a figure from another day or machine compares through it, and
``NNHAL_BENCH_QUICK=1`` certifies only ``QUICK_SELECTION`` under the ci profile (the
verdict then says the run was partial; the workers still collect the suite).
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
from dataclasses import dataclass
from pathlib import Path

from benchmarks.result import Figure, Result, quick

JOBS = "2"
SUBJECTS_ENV = "NNHAL_BENCH_CERTIFY"
DEFAULT_SUBJECTS = "reference@1.2"
WALL_TARGETS_S = {("reference", "1.2"): 300.0, ("reference", "1.3"): 420.0}
EXAMPLE_TARGET_S = 120.0
REPORT_TARGET = 4 * 10**6
RSS_TARGET = 2 * 2**30
QUICK_SELECTION = "V1_0/add/none"
TIMEOUT = 4 * 3600
MIB = 2**20
CALIBRATION_LOOP = 2_000_000
_SHARD_END = re.compile(r"shard \d+/\d+: .* in ([\d.]+)s")


@dataclass(frozen=True)
class Subject:
    driver: str
    level: str

    @classmethod
    def parse(cls, text: str) -> Subject:
        driver, sep, level = text.strip().partition("@")
        if driver not in ("reference", "example") or not sep or level not in ("1.2", "1.3"):
            raise ValueError(
                f"{SUBJECTS_ENV}: {text!r} is not a subject (reference@1.2, reference@1.3, "
                "example@1.2)"
            )
        return cls(driver, level)

    @property
    def name(self) -> str:
        return f"{self.driver}@{self.level}"

    @property
    def target_s(self) -> float:
        if self.driver == "example":
            return EXAMPLE_TARGET_S
        return WALL_TARGETS_S[(self.driver, self.level)]


def subjects() -> list[Subject]:
    text = os.environ.get(SUBJECTS_ENV, "").strip() or DEFAULT_SUBJECTS
    return [Subject.parse(part) for part in text.split(",") if part.strip()]


def calibration_ms() -> float:
    """The median wall time of five runs of a fixed pure-Python loop, in milliseconds."""
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(CALIBRATION_LOOP):
            total += i * i % 7
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def command(subject: Subject, out: Path) -> list[str]:
    script = Path(sys.executable).with_name("nnhal-certify")
    if not script.exists():
        raise RuntimeError(f"{script} not found: install the project into this interpreter")
    driver = "reference" if subject.driver == "reference" else "my_driver:Factory"
    args = [str(script), "--driver", driver, "--jobs", JOBS, "--out", str(out)]
    args += ["--hal-version", subject.level]
    if quick():
        args += ["--profile", "ci", "-k", QUICK_SELECTION]
    return args


def _example_folder(folder: Path) -> Path:
    script = Path(sys.executable).with_name("nnhal-example")
    subprocess.run([str(script), str(folder)], check=True, capture_output=True, timeout=60)
    return folder


def certify(subject: Subject, folder: Path) -> tuple[float, dict, str, int]:
    """Wall seconds, report.json, the run's output and report.json's size in bytes."""
    where = _example_folder(folder / "example") if subject.driver == "example" else folder
    out = folder / "report"
    start = time.perf_counter()
    done = subprocess.run(
        command(subject, out),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=where,
    )
    wall_s = time.perf_counter() - start
    report = out / "report.json"
    if not report.exists():
        raise RuntimeError(
            f"nnhal-certify exited with {done.returncode} and wrote no report:\n"
            f"{(done.stdout + done.stderr)[-2000:]}"
        )
    return wall_s, json.loads(report.read_text()), done.stdout, report.stat().st_size


def serial_tail_s(wall_s: float, output: str) -> float | None:
    """The wall time after the slower shard ended, from the shards' closing lines."""
    ends = [float(m.group(1)) for m in _SHARD_END.finditer(output)]
    return wall_s - max(ends) if ends else None


def figures_of(subject: Subject, wall_s: float, doc: dict, output: str, size: int) -> list:
    name = subject.name
    status = doc["verdict"]["status"]
    target = subject.target_s
    figures = [
        Figure(f"{name} wall time", wall_s, "s", target=f"<= {target:g} s", met=wall_s <= target),
        Figure(f"{name} verdict", status, ""),
        Figure(
            f"{name} report.json",
            size / 10**6,
            "MB",
            target="<= 4 MB",
            met=size <= REPORT_TARGET if doc["summary"]["outcomes"].get("failed") == 0 else None,
        ),
    ]
    tail = serial_tail_s(wall_s, output)
    if tail is not None:
        figures.append(Figure(f"{name} serial tail", tail, "s"))
    for worker in doc["run"].get("worker_memory") or []:
        peak = worker["peak_rss_bytes"]
        figures.append(
            Figure(
                f"{name} peak RSS {worker['id']}",
                peak / MIB,
                "MiB",
                target="< 2 GiB",
                met=peak < RSS_TARGET,
            )
        )
    return figures


def run() -> Result:
    chosen = subjects()
    calibration = calibration_ms()
    figures = [Figure("calibration", calibration, "ms")]
    lines = [f"certify: calibration {calibration:.0f} ms ({CALIBRATION_LOOP:,}-step Python loop)"]
    for subject in chosen:
        with tempfile.TemporaryDirectory(prefix="nnhal-bench-certify-") as folder:
            wall_s, doc, output, size = certify(subject, Path(folder))
        found = figures_of(subject, wall_s, doc, output, size)
        figures += found
        tail = next((f.value for f in found if f.name.endswith(" serial tail")), None)
        lines.append(
            f"certify {subject.name}{' (quick: ' + QUICK_SELECTION + ')' if quick() else ''}: "
            f"{wall_s:.0f} s wall (target <= {subject.target_s:g} s; "
            f"{wall_s / calibration * 1e3:.0f} calibrations), {doc['verdict']['status']}, "
            f"{doc['summary'].get('total', 0):,} tests, report.json {size / 10**6:.1f} MB"
            + (f", serial tail {tail:.0f} s" if tail is not None else "")
        )
    return Result("certify", "\n".join(lines), figures)
