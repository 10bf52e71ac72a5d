"""A pytest plugin of the suite benchmark: when each test item finished, written to a JSON file.

Loaded with ``-p benchmarks._loop_timer`` (the repository root on PYTHONPATH)
in a run without xdist workers; writes ``{"finished": [perf_counter, ...]}``
to the file named by ``NNHAL_BENCH_LOOP_TIMES`` at the end of the session.
From these the benchmark takes the time per item after the first one, so
neither collection nor the session's one-time setup (in the first item) counts.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

ENV = "NNHAL_BENCH_LOOP_TIMES"

_finished: list[float] = []


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    _finished.append(time.perf_counter())


def pytest_sessionfinish(session: object, exitstatus: int) -> None:
    path = os.environ.get(ENV)
    if path:
        Path(path).write_text(json.dumps({"finished": _finished}))
