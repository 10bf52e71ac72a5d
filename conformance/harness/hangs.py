"""The hang circuit breaker: a method the driver hung in K times is not called again.

A driver that hangs on one path would otherwise cost the run's ``--hal-timeout``
on every later item of that path: thousands of items, hours. The run counts
each hang by the HAL method it happened in (a call that did not return, a
callback never notified, a burst result never sent); once a method has hung
``--hal-hang-limit`` times (default 2; 0 never blocks), every later item that
is about to call it fails at once with ``blocked: <method> timed out K times
earlier in this run``, its own outcome (``blocked``) in the report. An item
that itself hung in the method (a property-based test replays a failing draw,
so its own calls can reach the limit) is not blocked but ends as the timeout
it met first: the report shows where the driver hung.

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
        self._this_item: dict[str, str] = {}
        """The first hang message of each method the current item hung in."""

    def reset(self, limit: int) -> None:
        with self._lock:
            self.limit = limit
            self._counts.clear()
            self._this_item.clear()
            self.refused = 0

    def begin_item(self) -> None:
        """A new item starts: the hangs recorded from now on are its own."""
        if self._this_item:
            with self._lock:
                self._this_item.clear()

    def record(self, method: str, message: str = "") -> None:
        """The driver hung in ``method`` once more (``message``: what the test said of it)."""
        if method:
            with self._lock:
                self._counts[method] = self._counts.get(method, 0) + 1
                self._this_item.setdefault(method, message or f"{method} timed out")

    def admit(self, method: str) -> None:
        """Fail the test at once (``blocked: ...``) if ``method`` has hung ``limit`` times.
        Called before every driver call: a run without hangs takes no lock."""
        if not self._counts:
            return
        with self._lock:
            count = self._counts.get(method, 0)
            if not (self.limit and count >= self.limit):
                return
            own = self._this_item.get(method)
            if own is None:
                self.refused += 1
        if own is not None:
            items.timeout(
                f"{own} (this item hung in {method} and called it again: {count} hangs in "
                f"this run, --hal-hang-limit={self.limit}, so it is not called again)"
            )
        items.fail(
            f"{BLOCKED}: {method} timed out {count} times earlier in this run "
            f"(--hal-hang-limit={self.limit}); it is not called again, so this item did not run",
            kind=items.BLOCKED,
        )


BREAKER = HangBreaker()
