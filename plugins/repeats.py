"""Repeated failures printed in full a few times, then one line each (``--nnhal-repeats=N``).

One bug in a driver fails hundreds of items with the same message but for its
numbers. The terminal shows the first ``N`` failures of each cause in full
(the cause is the failure's first line with its variable parts taken out,
``plugins.report.causes.normalize``); every later one shows its own first
line, how many earlier failures had that cause and its rerun command. At the
end, a section counts the failures of every cause that came more than once.
Only what pytest prints changes: a certification report keeps every message
whole, and ``-p no:...`` or ``--nnhal-repeats=0`` prints everything.

Registered by ``plugins.running`` in the process that prints (the only
one, or xdist's controller), never in an xdist worker.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hal.show import show_text
from plugins.report.causes import normalize

DEFAULT_REPEATS = 3
CAUSES_SHOWN = 10
"""Causes the closing section lists, the most frequent first."""
LINE_LIMIT = 300
"""Characters of a failure's first line or of a cause printed."""


@dataclass
class _Cause:
    count: int
    first: str
    """The node id of its first failure."""


def first_line(report: pytest.TestReport) -> str:
    """What a failure says first: its exception's message (without pytest.fail's ``Failed:``),
    else its text's first line."""
    crash = getattr(report.longrepr, "reprcrash", None)
    text = getattr(crash, "message", None) or report.longreprtext
    for line in str(text).splitlines():
        if line.strip():
            return line.strip().removeprefix("Failed: ")  # pytest.fail's own prefix
    return ""


class RepeatedFailures:
    """Shortens the failures after the ``limit``-th of each cause; counts them all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.causes: dict[str, _Cause] = {}

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not report.failed or report.longrepr is None:
            return
        line = first_line(report)
        key = normalize(line)
        cause = self.causes.get(key)
        if cause is None:
            cause = self.causes[key] = _Cause(0, report.nodeid)
        cause.count += 1
        if self.limit and cause.count > self.limit:
            report.longrepr = self._shortened(report, line, cause)

    def _shortened(self, report: pytest.TestReport, line: str, cause: _Cause) -> str:
        rerun = next(
            (
                text
                for text in reversed(report.longreprtext.splitlines())
                if text.startswith("rerun: ")
            ),
            None,
        )
        lines = [
            show_text(line, LINE_LIMIT),
            f"(failure {cause.count} with this cause, first {cause.first}; the first "
            f"{self.limit} are printed in full, --nnhal-repeats=0 prints all)",
        ]
        if rerun is not None:
            lines.append(rerun)
        return "\n".join(lines)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        repeated = sorted(
            ((cause, found) for cause, found in self.causes.items() if found.count > 1),
            key=lambda pair: (-pair[1].count, pair[0]),
        )
        if not repeated:
            return
        terminalreporter.section("nnhal: failures by cause")
        for cause, found in repeated[:CAUSES_SHOWN]:
            terminalreporter.write_line(
                f"{found.count:>7} x {show_text(cause, LINE_LIMIT)} (first: {found.first})"
            )
        if len(repeated) > CAUSES_SHOWN:
            terminalreporter.write_line(
                f"and {len(repeated) - CAUSES_SHOWN} more causes that came more than once"
            )
