"""The hang circuit breaker: a method the driver hung in K times is not called again.

A driver that hangs on one path would otherwise cost the run's ``--hal-timeout``
on every later item of that path: thousands of items, hours. The run counts
each hang by the HAL method it happened in (a call that did not return, a
callback never notified, a burst result never sent); once a method has hung
``--hal-hang-limit`` times (default 2; 0 never blocks), every later item that
is about to call it fails at once with ``blocked: <method> timed out K times
earlier in this run``, its own outcome (``blocked``) in the report.

One breaker per process (``BREAKER``): each pytest-xdist worker and each
``nnhal-certify`` shard counts its own hangs. The plugin sets the limit, checks
every call through the driver guard (``admit``), and records the guard's
hangs; the harness records the hangs only it sees (callbacks, bursts).
"""

from __future__ import annotations

import threading

from conformance.harness import items

DEFAULT_LIMIT = 2
BURST_RESULT = "burst execution"
"""The name a burst's missing result packet is counted under (no HAL method is pending)."""
BLOCKED = "blocked"
"""The outcome of an item the breaker stopped."""


class HangBreaker:
    """Hang counts by method, and the refusal of a method that reached the limit."""

    def __init__(self, limit: int = 0) -> None:
        self.limit = limit
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self.refused = 0
        """Calls refused so far (the plugin compares it around each item)."""

    def reset(self, limit: int) -> None:
        with self._lock:
            self.limit = limit
            self._counts.clear()
            self.refused = 0

    def record(self, method: str) -> None:
        """The driver hung in ``method`` once more."""
        if method:
            with self._lock:
                self._counts[method] = self._counts.get(method, 0) + 1

    def admit(self, method: str) -> None:
        """Fail the test at once (``blocked: ...``) if ``method`` has hung ``limit`` times.
        Called before every driver call: a run without hangs takes no lock."""
        if not self._counts:
            return
        with self._lock:
            count = self._counts.get(method, 0)
            if not (self.limit and count >= self.limit):
                return
            self.refused += 1
        items.fail(
            f"{BLOCKED}: {method} timed out {count} times earlier in this run "
            f"(--hal-hang-limit={self.limit}); it is not called again, so this item did not run",
            kind=items.BLOCKED,
        )


BREAKER = HangBreaker()
