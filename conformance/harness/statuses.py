"""What the suite makes of the statuses HAL 1.3 adds.

HAL 1.3 adds four ``ErrorStatus`` codes: MISSED_DEADLINE_TRANSIENT (5),
MISSED_DEADLINE_PERSISTENT (6), RESOURCE_EXHAUSTED_TRANSIENT (7) and
RESOURCE_EXHAUSTED_PERSISTENT (8). They may only travel through a 1.3 method
(Android 11 turns each into GENERAL_FAILURE on the 1.0-1.2 methods and on a
burst). ``ending`` is the one place that says how an answer with one of them
ends an item (docs/adding-a-hal-version.md, "The statuses 1.3 adds"):

* through a 1.0-1.2 method: **failed**, whatever the item (the status cannot
  travel there);
* MISSED_DEADLINE_* through a 1.3 method: **accepted** (the answer is one the
  item allows; the item goes on to its other checks) when the item gave a
  deadline or a loop timeout, or it runs a model holding a WHILE that may
  run out of the 2 s default (an expected failure: ``ExecutionPath.loops``);
  **failed** otherwise (nothing was to run out);
* RESOURCE_EXHAUSTED_* through a 1.3 method: a TRANSIENT answer is retried
  once (``RETRY_DELAY`` later) before it counts; then the item ends
  **unsupported** (the driver declined the work for want of resources: a
  legal answer that earns no credit, counted with the report's unsupported
  outcomes, its facts naming the status). Where the item expects an error
  (a validation item expecting INVALID_ARGUMENT), it is **failed**, since a
  driver must find an invalid argument before it runs out of anything.

The codes are ``hal.types.ErrorStatus``'s members, kept outside
``hal.types.STATUSES_1_0`` (what the harness accepts from a 1.0-1.2 method): a
1.0-1.2 driver returning one fails, with a message naming the status.
``conformance.harness.calls.as_status`` asks ``ending`` for every such answer; the
validation judging (``validating.attempt``) runs inside ``expecting_error``, so there
a resource refusal fails.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from hal.types import ErrorStatus

LEVEL_1_3 = 13
"""HAL 1.3 as ``HalVersion`` numbers levels (its member is added with 1.3's types)."""
RETRY_DELAY = 0.1
"""Seconds before a RESOURCE_EXHAUSTED_TRANSIENT answer is retried, once."""

ACCEPTED = "accepted"
FAILED = "failed"
UNSUPPORTED = "unsupported"
RETRY = "retry"


@dataclass(frozen=True)
class AddedStatus:
    code: int
    name: str
    since: int
    deadline: bool
    """Whether the status says a deadline or loop timeout was missed (else: resources)."""
    transient: bool


def _added(status: ErrorStatus, deadline: bool, transient: bool) -> AddedStatus:
    return AddedStatus(int(status), status.name, LEVEL_1_3, deadline, transient)


ADDED_STATUSES: dict[int, AddedStatus] = {
    s.code: s
    for s in (
        _added(ErrorStatus.MISSED_DEADLINE_TRANSIENT, deadline=True, transient=True),
        _added(ErrorStatus.MISSED_DEADLINE_PERSISTENT, deadline=True, transient=False),
        _added(ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT, deadline=False, transient=True),
        _added(ErrorStatus.RESOURCE_EXHAUSTED_PERSISTENT, deadline=False, transient=False),
    )
}
"""The statuses HAL 1.3 adds, by code (``since`` is the level number 13: 1.3)."""
MISSED_DEADLINE = frozenset(ErrorStatus(code) for code, s in ADDED_STATUSES.items() if s.deadline)
"""The statuses of a missed deadline (or loop timeout)."""


@dataclass(frozen=True)
class Ending:
    kind: str
    """ACCEPTED, FAILED, UNSUPPORTED or RETRY (try once more, then ask again)."""
    reason: str


def describe(code: int) -> str:
    """``5 (MISSED_DEADLINE_TRANSIENT, a HAL 1.3 status)`` for an added code; the bare
    number otherwise."""
    added = ADDED_STATUSES.get(code)
    if added is None:
        return str(code)
    return f"{code} ({added.name}, a HAL {added.since // 10}.{added.since % 10} status)"


def ending(
    code: int,
    method: str,
    method_level: int,
    *,
    timed: bool,
    expects_error: bool = False,
    retried: bool = False,
) -> Ending:
    """How an answer of ``code`` (one of ``ADDED_STATUSES``) through ``method`` (of HAL
    level ``method_level``, as ``HalVersion`` numbers it) ends an item. ``timed``: the
    item gave a deadline or loop timeout, or its model's loop may run out of the default
    (``ExecutionPath.loops``); ``expects_error``: the item
    expects an error status; ``retried``: a TRANSIENT answer was already retried."""
    added = ADDED_STATUSES[code]
    if method_level < added.since:
        return Ending(
            FAILED,
            f"{method} answered {describe(code)}, which a HAL "
            f"{method_level // 10}.{method_level % 10} method cannot return "
            "(HAL 1.3 reports GENERAL_FAILURE there)",
        )
    if added.deadline:
        if timed:
            return Ending(ACCEPTED, f"{method} missed the deadline it was given ({added.name})")
        return Ending(
            FAILED,
            f"{method} answered {added.name}, but the item gave no deadline or loop "
            "timeout, and expects every loop of its model to end",
        )
    if expects_error:
        return Ending(
            FAILED,
            f"{method} answered {added.name} where an invalid argument was to be "
            "found before any resource was used",
        )
    if added.transient and not retried:
        return Ending(RETRY, f"{method} answered {added.name}: retried once")
    return Ending(UNSUPPORTED, f"{method} declined the work for want of resources ({added.name})")


_EXPECTS_ERROR: ContextVar[bool] = ContextVar("nnhal_expects_error", default=False)


@contextlib.contextmanager
def expecting_error() -> Iterator[None]:
    """Within: the answers judged are to invalid arguments (``expects_error``)."""
    token = _EXPECTS_ERROR.set(True)
    try:
        yield
    finally:
        _EXPECTS_ERROR.reset(token)


def expects_error() -> bool:
    """Whether the answer being judged is to an invalid argument (``expecting_error``)."""
    return _EXPECTS_ERROR.get()


def conclude(end: Ending) -> None:
    """End the item as ``end`` says: return for ACCEPTED, fail for FAILED, skip as
    unsupported for UNSUPPORTED (a RETRY is the caller's to make first)."""
    __tracebackhide__ = True
    from conformance.harness import items

    if end.kind == FAILED:
        items.fail(end.reason)
    if end.kind == UNSUPPORTED:
        items.unsupported(end.reason)
    if end.kind == RETRY:
        raise ValueError(f"{end.reason}: retry before concluding")
