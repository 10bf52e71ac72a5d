"""A pytest plugin of the suite benchmark: when each test item finished, written to a JSON file.

Loaded with ``-p benchmarks._loop_timer`` (the repository root on PYTHONPATH)
in a run without xdist workers; writes ``{"finished": [[nodeid, perf_counter],
...]}`` in run order to the file named by ``NNHAL_BENCH_LOOP_TIMES`` at the
end of the session. From these the benchmark takes the time per item after
the first one, so neither collection nor the session's one-time setup (in the
first item) counts.

With ``NNHAL_BENCH_BASELINE=1``, every collected item is followed by an empty
test item made in the same module (``EMPTY_NAME[k]``, a function that does
nothing and takes no fixture). Each item's time, from the end of the item
before it, then comes from the same process at the same moment as its empty
neighbour's, so their ratio does not move with the machine's speed from one
process to the next; and the pair shares its module, so no module is set up
or torn down between them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

ENV = "NNHAL_BENCH_LOOP_TIMES"
BASELINE_ENV = "NNHAL_BENCH_BASELINE"
EMPTY_NAME = "nnhal_bench_empty"

_finished: list[tuple[str, float]] = []


def _empty() -> None:
    """The baseline item's test: nothing."""


@pytest.hookimpl(trylast=True)  # after -k and -m deselected what they do
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get(BASELINE_ENV, "") in ("", "0"):
        return
    paired: list[pytest.Item] = []
    for k, item in enumerate(items):
        empty = pytest.Function.from_parent(item.parent, name=f"{EMPTY_NAME}[{k}]", callobj=_empty)
        paired += [item, empty]
    items[:] = paired


def pytest_sessionstart(session: object) -> None:
    _finished.clear()


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    _finished.append((nodeid, time.perf_counter()))


def pytest_sessionfinish(session: object, exitstatus: int) -> None:
    path = os.environ.get(ENV)
    if path:
        Path(path).write_text(json.dumps({"finished": _finished}))
