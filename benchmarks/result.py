"""What a benchmark hands back: its printed line and its figures, for the table and ``--json``.

Every benchmark's ``run()`` returns a ``Result``. A ``Figure`` is one number
(or, for a verdict, one word) with its unit; when the benchmark timed a
baseline in the same run, ``baseline`` is the baseline's figure in the same
unit and ``ratio`` the subject's cost over the baseline's (time over time,
memory over memory), as the line prints it. ``target`` says what the figure
should be, as text (``"< 1.5x torch"``, ``"< 0.5 s"``), and ``met`` whether
this run met it; both stay None where no target applies.

``NNHAL_BENCH_QUICK=1`` in the environment asks every benchmark for a smoke
run (``quick()``): fewer repetitions and, where the benchmark allows, a
smaller model, so the whole of ``python -m benchmarks`` checks the plumbing
in little time. Quick figures are not measurements; compare none of them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

QUICK_ENV = "NNHAL_BENCH_QUICK"


def quick() -> bool:
    """Whether this is a smoke run (``NNHAL_BENCH_QUICK`` set to anything but empty or 0)."""
    return os.environ.get(QUICK_ENV, "").strip() not in ("", "0")


def runs(full: int, smoke: int = 1) -> int:
    """How many repetitions to time: ``full``, or ``smoke`` in a quick run."""
    return smoke if quick() else full


def best_us(calls: dict[str, Callable[[], object]], count: int, rounds: int) -> dict[str, float]:
    """Per call, in wall-clock microseconds: the best over ``rounds`` interleaved rounds of
    the mean of ``count`` calls of each."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            start = time.perf_counter()
            for _ in range(count):
                call()
            samples[name].append((time.perf_counter() - start) / count * 1e6)
    return {name: min(values) for name, values in samples.items()}


@dataclass
class Figure:
    """One figure of a benchmark; see the module docstring for the fields."""

    name: str
    value: float | int | str
    unit: str
    baseline: float | None = None
    ratio: float | None = None
    target: str | None = None
    met: bool | None = None


@dataclass
class Result:
    """A benchmark's outcome: ``line`` is what it prints (one or more lines of text)."""

    name: str
    line: str
    figures: list[Figure] = field(default_factory=list)
