"""The generator benchmark: a full regeneration of the spec corpus, against loading it.

Subject: ``nnhal-generate`` over every spec of ``conformance/specs`` into an
empty temporary folder (evaluation, variation expansion, rendering, writing).
Baseline: importing every module of that freshly generated tree and building
all its tests through ``conformance.harness.generated``, what the suite pays.
Both are CPU-bound Python, so their ratio says how the generator's cost
moves, whatever the machine. A quick run (``NNHAL_BENCH_QUICK=1``)
regenerates only the first ``QUICK_SPECS`` specs, once.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import generator.__main__ as cli
from benchmarks.result import Figure, Result, quick, runs
from generator import build
from generator.emit import HAL_FOLDERS

RUNS = 3
QUICK_SPECS = 5


def _median_time(action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs(RUNS)):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _regenerate(root: Path, out: Path, named: list[str]) -> None:
    """``nnhal-generate`` into ``out``: every spec, or only those ``named``."""
    shutil.rmtree(out, ignore_errors=True)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main(["--root", str(root), "--out", str(out), *named])
    if status != 0:
        raise RuntimeError(f"nnhal-generate failed (status {status}); run it to see why")


def _load_all(out: Path) -> int:
    """Imports each generated module from ``out`` afresh and builds its tests; returns the count."""
    count = 0
    for number, path in enumerate(sorted(p for f in HAL_FOLDERS for p in (out / f).glob("*.py"))):
        if path.name == "__init__.py":
            continue
        spec = importlib.util.spec_from_file_location(f"_bench_generated_{number}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        count += len([build() for _, build in module.TESTS])
    return count


def run() -> Result:
    root = build.find_root()
    try:
        build.spec_interpreter()
    except ImportError as error:
        return Result(
            "generator", f"generator: skipped (the spec interpreter is unavailable: {error})"
        )
    specs = build.discover_specs(root / "conformance" / "specs", root)
    named = []
    if quick():
        specs = specs[:QUICK_SPECS]
        named = [str(spec.path) for spec in specs]
    dont_write_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # every baseline run compiles, like the first import
    try:
        with tempfile.TemporaryDirectory(prefix="nnhal-bench-") as tmp:
            out = Path(tmp) / "generated"
            subject = _median_time(lambda: _regenerate(root, out, named))
            tests = _load_all(out)
            baseline = _median_time(lambda: _load_all(out))
    finally:
        sys.dont_write_bytecode = dont_write_bytecode
    ratio = subject / baseline if baseline > 0 else float("inf")
    line = (
        f"generator: full regeneration {subject:.2f} s ({len(specs)} specs, {tests} tests); "
        f"ratio vs baseline {ratio:.1f} (baseline: loading the generated tree, {baseline:.3f} s)"
    )
    return Result("generator", line, [Figure("full regeneration", subject, "s", baseline, ratio)])
