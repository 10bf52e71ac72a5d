"""The suite benchmark: collecting and running the generated suite, against empty items.

Subject: ``pytest --pyargs conformance.test_generated`` on the reference driver:
collection alone, then the whole run at ``-n 0`` and ``-n 2``.
Baseline: the same number of empty parametrized test items run by pytest in
the same way, so the ratio is the harness's own cost per item beyond pytest's.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_COLLECTED = re.compile(r"(\d+) tests? collected")
_EMPTY_ITEMS = """
import pytest

@pytest.mark.parametrize("n", range({count}))
def test_empty(n):
    pass
"""


def _pytest(*args: str, cwd: Path | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
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


def run() -> str:
    suite = ("--pyargs", "conformance.test_generated", "--driver=reference")
    collect_s, output = _pytest(*suite, "--collect-only")
    items = _count(output)
    lines = [f"suite: collection {collect_s:.2f} s for {items} items"]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "test_empty.py").write_text(_EMPTY_ITEMS.format(count=items))
        for workers in ("0", "2"):
            run_s, _ = _pytest(*suite, "-n", workers)
            empty_s, _ = _pytest("test_empty.py", "-n", workers, cwd=Path(folder))
            lines.append(
                f"suite: -n {workers}: {run_s:.2f} s total, {items / run_s:.0f} items/s; "
                f"empty items {empty_s:.2f} s; ratio vs baseline {run_s / empty_s:.1f}"
            )
    return "\n".join(lines)
