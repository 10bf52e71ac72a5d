"""The last-resort guard around every HAL method of the reference driver.

Whatever goes wrong inside the driver (a bug, numpy's MemoryError, a client
object that raises), no exception leaves a HAL method: a synchronous method
answers GENERAL_FAILURE (with the empty values of its other results), an
asynchronous one also notifies its callback with GENERAL_FAILURE, exactly once
(``once`` drops any later notification, so a callback the work already
answered is not answered again). Each such failure is logged, with its
traceback, on the ``reference_driver`` logger.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import TypeVar

from hal.types import ErrorStatus

LOG = logging.getLogger("reference_driver")

F = TypeVar("F", bound=Callable)


def once(notify: Callable[..., object]) -> Callable[..., None]:
    """``notify`` that runs at most once: the first call goes through, later ones are
    dropped (and logged). An exception from ``notify`` itself is logged, not raised."""
    lock = threading.Lock()
    done = False

    def call(*args: object) -> None:
        nonlocal done
        with lock:
            if done:
                LOG.debug("dropped a second notification %r", args[:1])
                return
            done = True
        try:
            notify(*args)
        except Exception:
            LOG.exception("the client's callback raised")

    return call


def guarded(work: Callable[[], None], on_error: Callable[[], None]) -> Callable[[], None]:
    """``work`` for a pool thread: if it raises anything, log it and answer through
    ``on_error`` (a ``once`` notification, so an answer already sent stands)."""

    def run() -> None:
        try:
            work()
        except BaseException:
            LOG.exception("asynchronous work failed; answering GENERAL_FAILURE")
            try:
                on_error()
            except Exception:
                LOG.exception("answering GENERAL_FAILURE failed too")

    return run


def hal_method(failure: Callable[[], object]) -> Callable[[F], F]:
    """Decorate a synchronous HAL method: an ``Exception`` it raises is logged and its
    answer is ``failure()`` (GENERAL_FAILURE and empty values)."""

    def decorate(method: F) -> F:
        @functools.wraps(method)
        def guarded_method(*args, **kwargs):
            try:
                return method(*args, **kwargs)
            except Exception:
                LOG.exception("%s raised; answering GENERAL_FAILURE", method.__qualname__)
                return failure()

        return guarded_method  # type: ignore[return-value]

    return decorate


class OnceCallback:
    """A client's callback seen through ``once``: each of its notify methods forwards the
    first notification of all and drops the rest; what the client's method raises is
    logged, never raised into the driver."""

    def __init__(self, callback: object) -> None:
        self.callback = callback
        self._lock = threading.Lock()
        self._done = False

    def _first(self) -> bool:
        with self._lock:
            if self._done:
                return False
            self._done = True
            return True

    def _forward(self, name: str, args: tuple) -> None:
        if not self._first():
            LOG.debug("dropped a second notification (%s%r)", name, args[:1])
            return
        try:
            getattr(self.callback, name)(*args)
        except Exception:
            LOG.exception("the client's callback %s raised", name)

    def notify(self, *args: object) -> None:
        self._forward("notify", args)

    def notify_1_2(self, *args: object) -> None:
        self._forward("notify_1_2", args)

    def notify_1_3(self, *args: object) -> None:
        self._forward("notify_1_3", args)


def async_hal_method(notify: str, *failure: object) -> Callable[[F], F]:
    """Decorate an asynchronous HAL method whose last argument is its callback.

    The method gets the callback as an ``OnceCallback``; if the method raises, the
    exception is logged, the callback is notified ``notify(*failure)`` (dropped if
    the method, or work it launched, already answered) and the launch status is
    GENERAL_FAILURE.
    """

    def decorate(method: F) -> F:
        @functools.wraps(method)
        def guarded_method(*args, **kwargs):
            if "callback" in kwargs:
                callback = kwargs["callback"] = OnceCallback(kwargs["callback"])
            else:
                callback = OnceCallback(args[-1])
                args = (*args[:-1], callback)
            try:
                return method(*args, **kwargs)
            except Exception:
                LOG.exception("%s raised; answering GENERAL_FAILURE", method.__qualname__)
                getattr(callback, notify)(*failure)
                return ErrorStatus.GENERAL_FAILURE

        return guarded_method  # type: ignore[return-value]

    return decorate
