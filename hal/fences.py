"""Sync fences (HAL 1.3): a kernel object that one side signals and the other waits on.

``execute_fenced`` takes fences to wait for and hands back one that signals when its
execution is done. A ``SyncFence`` here is a Linux eventfd: every process holding a
descriptor of it (inherited, passed with ``pass_fds`` or sent over a Unix socket)
sees the same state and can change it, so the harness and a driver running in a
process of its own share one fence through its file descriptor alone.

The state lives in the eventfd's counter, never in the Python object:

* 0: ``ACTIVE`` (not signalled yet);
* from 1 up to ``ERROR_VALUE - 1``: ``SIGNALED`` (``signal`` adds 1);
* ``ERROR_VALUE`` or more: ``ERROR`` (``signal_error`` adds ``ERROR_VALUE``).

A fence ends once: ``signal`` and ``signal_error`` do nothing on a fence that has
already ended. Only when two holders end it at the very same moment, one with each,
can it read ``ERROR`` after a waiter saw ``SIGNALED``: the encoding lets error win,
never lose a signal. Reading the counter empties it, so a reader writes the value
straight back; a waiter that polls in between keeps waiting and sees it a moment
later. Every wait takes a finite timeout: a wait never hangs.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import threading
import time
from enum import IntEnum

ERROR_VALUE = 1 << 32
"""What ``signal_error`` adds to the counter: more than any number of ``signal``\\ s."""

MAX_WAIT = 24 * 3600.0
"""The longest wait ``wait`` accepts, in seconds (a timeout must be finite)."""


class FenceState(IntEnum):
    """Where a fence stands (the names of Android's sync fence states)."""

    ACTIVE = 0
    """Not signalled yet."""
    SIGNALED = 1
    """The work it stands for is done."""
    ERROR = 2
    """The work failed or was aborted: it will never be done."""


class FenceClosed(ValueError):
    """The fence's descriptor was closed by this object."""


def _state_of(value: int) -> FenceState:
    if value >= ERROR_VALUE:
        return FenceState.ERROR
    return FenceState.SIGNALED if value else FenceState.ACTIVE


class SyncFence:
    """One descriptor of an eventfd fence; ``SyncFence()`` makes a new, active fence.

    ``SyncFence.adopt(fd)`` wraps a descriptor received from elsewhere (it then owns
    it and closes it); ``dup()`` gives a second descriptor of the same fence, to hand
    on while this one stays open. Closing a descriptor never changes the fence's
    state for the other holders.
    """

    def __init__(self, fd: int | None = None) -> None:
        """A new eventfd, or the descriptor ``fd`` (owned from now on, made
        non-blocking; ``adopt`` also checks that it is an eventfd's)."""
        self._fd: int | None = None
        if fd is None:
            fd = os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)
        elif not isinstance(fd, int) or isinstance(fd, bool) or fd < 0:
            raise ValueError(f"a fence's descriptor is a non-negative int, not {fd!r}")
        else:
            os.set_blocking(fd, False)  # a read of an empty fence must never block
        self._fd = fd
        self._lock = threading.Lock()

    @classmethod
    def adopt(cls, fd: int) -> SyncFence:
        """A fence on the eventfd ``fd`` (taken over: closing the fence closes it). The
        descriptor is made non-blocking; ValueError if it is not an eventfd's."""
        try:
            link = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            link = None
        if link is not None and link != "anon_inode:[eventfd]":
            raise ValueError(f"descriptor {fd} is {link}, not an eventfd")
        return cls(fd)

    def fileno(self) -> int:
        """The descriptor: what crosses to another process."""
        if self._fd is None:
            raise FenceClosed("the fence is closed")
        return self._fd

    @property
    def closed(self) -> bool:
        return self._fd is None

    def dup(self) -> SyncFence:
        """A second descriptor of the same fence (close-on-exec, as ``os.dup`` makes it)."""
        return SyncFence(os.dup(self.fileno()))

    def state(self) -> FenceState:
        """The state now, without waiting."""
        return self.wait(0.0)

    def wait(self, timeout: float) -> FenceState:
        """Wait at most ``timeout`` seconds for the fence to end; its state then
        (ACTIVE if it has not ended in time). ``timeout`` must be finite (at most
        ``MAX_WAIT``); a negative one is 0."""
        if not isinstance(timeout, int | float) or math.isnan(timeout) or timeout > MAX_WAIT:
            raise ValueError(f"a fence wait needs a timeout up to {MAX_WAIT:g} s, not {timeout!r}")
        fd = self.fileno()
        deadline = time.monotonic() + max(0.0, timeout)
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while True:
            left = max(0.0, deadline - time.monotonic())
            if poller.poll(math.ceil(left * 1000)):
                value = self._read(fd)
                if value:
                    return _state_of(value)
                # Another reader emptied it for a moment: it writes the value back.
                if left <= 0.0:
                    return FenceState.ACTIVE
                time.sleep(min(0.001, left))
            elif left <= 0.0:
                return FenceState.ACTIVE

    def signal(self) -> None:
        """End the fence as signalled; nothing if it has already ended."""
        self._end(1)

    def signal_error(self) -> None:
        """End the fence in error; nothing if it has already ended."""
        self._end(ERROR_VALUE)

    def close(self) -> None:
        """Close this descriptor (again: nothing). The fence lives on in other holders'."""
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> SyncFence:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        fd = getattr(self, "_fd", None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __repr__(self) -> str:
        if self._fd is None:
            return "SyncFence(closed)"
        return f"SyncFence(fd={self._fd}, {self.state().name})"

    def _end(self, amount: int) -> None:
        fd = self.fileno()
        with self._lock:
            if self._read(fd):
                return  # already ended (the value was written back)
            os.eventfd_write(fd, amount)

    @staticmethod
    def _read(fd: int) -> int:
        """The counter's value (0 when empty), left in place for the other readers."""
        try:
            value = os.eventfd_read(fd)
        except BlockingIOError:
            return 0
        os.eventfd_write(fd, value)
        return value


__all__ = ["ERROR_VALUE", "MAX_WAIT", "FenceClosed", "FenceState", "SyncFence"]
