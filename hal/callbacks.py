"""Client-side callbacks: what the harness hands a driver to be notified through.

Each callback records the notifies it receives (which method, what arguments,
from which thread), treats a second notify as a protocol violation rather than
overwriting the first (it keeps the first ``KEPT_NOTIFICATIONS`` and counts the
rest: a driver that notifies a kept callback millions of times costs a count,
not memory), and waits with a timeout: a driver that never answers
costs a ``CallbackTimeout``, never a hung run. The arguments are recorded as
given, unchecked (only a list of output shapes is copied, as a tuple, when it is
an exact list or tuple of sensible length): whoever reads a notification checks
the types first.

A callback can also be abandoned: whoever hosts the driver (``isolation.proxy``,
when the driver's process died) calls ``abandon(error)``, and a wait that has no
notification raises ``error`` at once instead of waiting out its timeout.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from hal.interfaces import IExecutionCallback, IPreparedModel, IPreparedModelCallback
from hal.show import show
from hal.types import NO_TIMING, ErrorStatus, OutputShape, Timing

KEPT_NOTIFICATIONS = 4
"""Notifications a callback keeps: the first (the answer) and a few extra ones for the
violation's message; later ones are only counted."""
DEFAULT_TIMEOUT = 60.0
"""Seconds a wait lasts unless told otherwise (the plugin's ``--hal-timeout``)."""


class CallbackTimeout(Exception):
    """The driver did not notify within the time allowed."""


@dataclass(frozen=True)
class Notification:
    method: str
    """``notify``, ``notify_1_2`` or ``notify_1_3``."""
    status: ErrorStatus | int
    """As the driver gave it: check its type before use."""
    prepared_model: IPreparedModel | None = None
    output_shapes: Sequence[OutputShape] = ()
    """A tuple copy, or the driver's object if it was no list or tuple of sensible
    length: check its type and length before use."""
    timing: Timing = NO_TIMING
    thread: str = ""


@dataclass
class _Recorder:
    what: str
    notifications: list[Notification] = field(default_factory=list)
    """The first ``KEPT_NOTIFICATIONS`` notifications."""
    count: int = 0
    """Every notification received, kept or not."""
    _done: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _abandoned: BaseException | None = None

    def record(self, notification: Notification) -> None:
        with self._lock:
            self.count += 1
            if len(self.notifications) < KEPT_NOTIFICATIONS:
                self.notifications.append(notification)
        self._done.set()

    def abandon(self, error: BaseException) -> None:
        with self._lock:
            if self._abandoned is None:
                self._abandoned = error
        self._done.set()

    def wait(self, timeout: float | None) -> Notification:
        limit = DEFAULT_TIMEOUT if timeout is None else timeout
        if not self._done.wait(limit):
            raise CallbackTimeout(f"the driver did not notify the {self.what} within {limit:g} s")
        with self._lock:
            if self.notifications:
                return self.notifications[0]
            error = self._abandoned
        raise error.with_traceback(None)

    @property
    def violations(self) -> list[str]:
        """Protocol breaches seen so far: notifies after the first (each kept one named,
        then how many more came)."""
        with self._lock:
            extra, count = self.notifications[1:], self.count
        found = [
            f"{self.what} notified {count} times; extra call {n.method}"
            f"(status={_status_name(n.status)})"
            for n in extra
        ]
        unkept = count - 1 - len(extra)
        if unkept > 0:
            found.append(f"{self.what} notified {count} times; {unkept} more extra calls")
        return found


_STATUS_NAMES = {int(status): status.name for status in ErrorStatus}


def _status_name(status: object) -> str:
    if (type(status) is ErrorStatus or type(status) is int) and status in _STATUS_NAMES:
        return _STATUS_NAMES[status]
    return f"invalid status {show(status)}"


class _RecordingCallback:
    """What both callbacks offer the harness: the first answer, the first few, breaches."""

    def __init__(self, what: str) -> None:
        self._recorder = _Recorder(what)

    def wait(self, timeout: float | None = None) -> Notification:
        """The first notification; CallbackTimeout if none came within ``timeout`` s, the
        ``abandon`` error at once if the callback was abandoned before one came."""
        return self._recorder.wait(timeout)

    def abandon(self, error: BaseException) -> None:
        """No notification can come any more (the driver's process died): a wait without
        one raises ``error`` now and later. A notification that came first still counts."""
        self._recorder.abandon(error)

    @property
    def notifications(self) -> list[Notification]:
        """The notifications kept: the first ``KEPT_NOTIFICATIONS`` received."""
        return list(self._recorder.notifications)

    @property
    def notification_count(self) -> int:
        """How many notifications came, kept or not."""
        return self._recorder.count

    @property
    def violations(self) -> list[str]:
        return self._recorder.violations


class PreparedModelCallback(_RecordingCallback, IPreparedModelCallback):
    """Records the outcome of a ``prepare_model*`` call."""

    def __init__(self) -> None:
        super().__init__("prepared-model callback")

    def notify(self, status: ErrorStatus, prepared_model: IPreparedModel | None) -> None:
        self._recorder.record(Notification("notify", status, prepared_model, thread=_thread_name()))

    def notify_1_2(self, status: ErrorStatus, prepared_model: IPreparedModel | None) -> None:
        self._recorder.record(
            Notification("notify_1_2", status, prepared_model, thread=_thread_name())
        )

    def notify_1_3(self, status: ErrorStatus, prepared_model: IPreparedModel | None) -> None:
        self._recorder.record(
            Notification("notify_1_3", status, prepared_model, thread=_thread_name())
        )


class ExecutionCallback(_RecordingCallback, IExecutionCallback):
    """Records the outcome of an ``execute``, ``execute_1_2`` or ``execute_1_3`` call.

    A 1.0 ``notify`` is recorded with no shapes and no timing, as the HAL
    defines it.
    """

    def __init__(self) -> None:
        super().__init__("execution callback")

    def notify(self, status: ErrorStatus) -> None:
        self._recorder.record(Notification("notify", status, thread=_thread_name()))

    def notify_1_2(
        self, status: ErrorStatus, output_shapes: Sequence[OutputShape], timing: Timing
    ) -> None:
        self._recorder.record(
            Notification(
                "notify_1_2",
                status,
                output_shapes=_copy_of(output_shapes),
                timing=timing,
                thread=_thread_name(),
            )
        )

    def notify_1_3(
        self, status: ErrorStatus, output_shapes: Sequence[OutputShape], timing: Timing
    ) -> None:
        self._recorder.record(
            Notification(
                "notify_1_3",
                status,
                output_shapes=_copy_of(output_shapes),
                timing=timing,
                thread=_thread_name(),
            )
        )


MAX_COPIED_SHAPES = 1 << 16
"""A list or tuple of output shapes up to this long is recorded as a copy (a tuple)."""


def _copy_of(output_shapes: object) -> object:
    """A tuple copy of an exact list or tuple that is not absurdly long (the driver may
    reuse its list); anything else as given, for the harness to refuse."""
    kind = type(output_shapes)
    if (kind is list or kind is tuple) and len(output_shapes) <= MAX_COPIED_SHAPES:
        return tuple(output_shapes)
    return output_shapes


def _thread_name() -> str:
    return threading.current_thread().name
