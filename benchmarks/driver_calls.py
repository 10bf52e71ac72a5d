"""A pytest plugin that counts the driver calls of every report category, to show that a
change to the harness left the checks alone.

    pytest -p benchmarks.driver_calls --pyargs conformance --driver=reference \\
        --driver-isolation=none --nnhal-driver-calls=calls.json [selection...]

With the driver in the test process (``--driver-isolation=none``) every call the
harness makes of a driver object (device, prepared model, burst context, buffer)
passes through the in-process guard's link; the plugin counts them by the report
category of the test running (``plugins.report.facts.category_of``) and by method, and
writes ``{category: {method: count}}`` as JSON when the session ends. Two runs of the
same selection, before and after a change, must write the same file: the same
calls, so the same checks, reached the driver. (Burst executions cross their fast
message queues, not a method call: they are counted by the ``configure_execution_burst``
that opens each burst and by the suite's own burst tests.)
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from plugins.report import facts

_COUNTS: defaultdict[str, Counter] = defaultdict(Counter)
_CURRENT: list[str] = ["(no test)"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--nnhal-driver-calls",
        metavar="PATH",
        default=None,
        help="write the count of driver calls by report category and method to PATH (JSON)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--nnhal-driver-calls") is None:
        return
    from isolation import proxy

    original = proxy._LocalLink.invoke

    def counted(self, method: str, args: tuple) -> object:
        _COUNTS[_CURRENT[0]][method] += 1
        return original(self, method, args)

    proxy._LocalLink.invoke = counted


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> None:
    _CURRENT[0] = facts.category_of(item, facts.test_id(item))


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = session.config.getoption("--nnhal-driver-calls")
    if path is None:
        return
    counts = {category: dict(sorted(c.items())) for category, c in sorted(_COUNTS.items())}
    Path(path).write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
