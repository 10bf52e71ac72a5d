"""Fast message queues: single-producer single-consumer rings in shared memory.

A queue carries fixed-size elements (the burst's ``FmqRequestDatum`` and
``FmqResultDatum``) between one writer and one reader, which may live in
different threads or processes. Its ``FmqDescriptor`` (a memfd holding the
ring, two eventfds, the capacity and the element size) crosses a process
boundary as file descriptors, like a ``MQDescriptorSync``; ``attach`` opens
the other end from it.

Writes and reads move whole packets: a write publishes all its elements with
one store of the write counter, or writes nothing; a read takes all the
elements it asks for, or nothing. Blocking reads sleep on an eventfd that
every write signals (and blocking writes on one every read signals), so a
waiter wakes as soon as there is something to do; there is no polling with
sleeps. Every blocking call takes a timeout, and ``shutdown`` (from either
end) wakes all waiters at once with ``FmqClosed``.

The ring memfd ``create`` makes is sealed against shrinking and growing (see
``hal.memory.sealed_memfd``): the other end, handed its descriptor, can write
the ring but not resize it, so neither end's map can fault (SIGBUS) because
the file shrank. ``attach`` checks the ring's size (``fstat``) before mapping.

Layout of the shared memory: a header of four 64-byte lines (identity,
write counter, read counter, closed flag), then ``capacity`` elements. The
counters only grow; an element's slot is its counter modulo the capacity, so
a packet may wrap around the end of the ring. Each counter is stored and
loaded as one aligned 8-byte access; the writer stores the elements before
the counter and the reader loads the counter before the elements, which is
enough on x86-64's total store order (and the eventfd system calls of every
blocking hand-off are full barriers elsewhere).

The counters live in memory the other end can write, so both are checked on
every read and write: more elements announced than the ring holds, a counter
behind the other, or a counter that would pass 2**64 - 1 mean the peer broke
the ring. The queue is then shut down (both ends see it closed) and the call
raises ``FmqCorrupt``, an ``FmqClosed``: a listener that stops on FmqClosed
stops cleanly.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import select
import struct
import time
from dataclasses import dataclass

from hal.memory import NativeHandle, sealed_memfd

_MAGIC = 0x464D5131  # "FMQ1"
_IDENTITY = struct.Struct("<III")
_WRITE_AT, _READ_AT, _CLOSED_AT, _DATA_AT = 64, 128, 192, 256
MAX_CAPACITY = 1 << 24
"""Most elements one queue may hold (so a corrupt descriptor cannot ask for terabytes)."""
MAX_ELEMENT_SIZE = 1 << 16


class FmqError(Exception):
    """A queue cannot be created or attached, or was used against its rules."""


class FmqTimeout(FmqError):
    """A blocking read or write found nothing to do within its timeout."""


class FmqClosed(FmqError):
    """The queue was shut down (by either end) while nothing was left to read."""


class FmqCorrupt(FmqClosed):
    """The ring's counters are inconsistent (a peer wrote them wrongly); the queue has
    been shut down."""


UINT64_MAX = (1 << 64) - 1


@dataclass(frozen=True)
class FmqDescriptor:
    """What the other end needs to attach: ``handle.fds`` is [ring memfd, data eventfd,
    space eventfd]; ``capacity`` counts elements of ``element_size`` bytes."""

    handle: NativeHandle
    capacity: int
    element_size: int


class MessageQueue:
    """One end (or both) of a synchronized SPSC queue.

    ``create`` makes a new queue; ``attach`` opens an existing one from its
    descriptor, duplicating the descriptors so each end closes its own.
    """

    def __init__(self, fds: list[int], capacity: int, element_size: int) -> None:
        self._fds = fds
        self.capacity = capacity
        self.element_size = element_size
        self._map = mmap.mmap(fds[0], _DATA_AT + capacity * element_size)
        view = memoryview(self._map)
        self._write_counter = view[_WRITE_AT : _WRITE_AT + 8].cast("Q")
        self._read_counter = view[_READ_AT : _READ_AT + 8].cast("Q")
        self._closed_flag = view[_CLOSED_AT : _CLOSED_AT + 4].cast("I")
        view.release()
        self._data_event, self._space_event = fds[1], fds[2]
        self._data_poll = _poller(self._data_event)
        self._space_poll = _poller(self._space_event)

    # -- lifecycle ---------------------------------------------------------------------

    @classmethod
    def create(cls, capacity: int, element_size: int) -> MessageQueue:
        """A new empty queue of ``capacity`` elements of ``element_size`` bytes."""
        _check_geometry(capacity, element_size)
        fds = [sealed_memfd("nnhal-fmq", _DATA_AT + capacity * element_size)]
        try:
            for _ in range(2):
                fds.append(os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK))
            os.pwrite(fds[0], _IDENTITY.pack(_MAGIC, capacity, element_size), 0)
            return cls(fds, capacity, element_size)
        except BaseException:
            _close_all(fds)
            raise

    @classmethod
    def attach(cls, descriptor: FmqDescriptor) -> MessageQueue:
        """The queue a descriptor names; FmqError says what is wrong with a bad one."""
        if not isinstance(descriptor, FmqDescriptor):
            raise FmqError(f"expected an FmqDescriptor, got {type(descriptor).__name__}")
        handle = descriptor.handle
        if not isinstance(handle, NativeHandle) or len(handle.fds) != 3:
            count = len(handle.fds) if isinstance(handle, NativeHandle) else "no"
            raise FmqError(f"an FMQ descriptor needs a handle of 3 fds, has {count}")
        capacity, element_size = descriptor.capacity, descriptor.element_size
        _check_geometry(capacity, element_size)
        fds: list[int] = []
        try:
            for fd in handle.fds:
                fds.append(os.dup(fd))
            size = os.fstat(fds[0]).st_size
            if size < _DATA_AT + capacity * element_size:
                raise FmqError(
                    f"the ring holds {size} bytes; {capacity} elements of {element_size} "
                    f"bytes need {_DATA_AT + capacity * element_size}"
                )
            identity = _IDENTITY.unpack(os.pread(fds[0], _IDENTITY.size, 0))
            if identity != (_MAGIC, capacity, element_size):
                raise FmqError(
                    f"the ring's header {identity} does not match the descriptor "
                    f"(capacity {capacity}, element size {element_size})"
                )
            return cls(fds, capacity, element_size)
        except OSError as e:
            _close_all(fds)
            raise FmqError(f"cannot attach to the queue: {e}") from None
        except BaseException:
            _close_all(fds)
            raise

    @property
    def descriptor(self) -> FmqDescriptor:
        """This end's descriptor, valid while the queue is open (attach duplicates it)."""
        return FmqDescriptor(NativeHandle(list(self._fds)), self.capacity, self.element_size)

    def shutdown(self) -> None:
        """Mark the queue closed for both ends and wake every waiter."""
        self._closed_flag[0] = 1
        _signal(self._data_event)
        _signal(self._space_event)

    @property
    def is_shut_down(self) -> bool:
        return bool(self._closed_flag[0])

    def close(self) -> None:
        """Release this end's mapping and descriptors (the other end is unaffected)."""
        if self._map.closed:
            return
        for view in (self._write_counter, self._read_counter, self._closed_flag):
            view.release()
        self._map.close()
        _close_all(self._fds)

    def __enter__(self) -> MessageQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- state -------------------------------------------------------------------------

    def available_to_read(self) -> int:
        """Elements written and not yet read (FmqCorrupt if the counters say otherwise)."""
        return self._used(self._write_counter[0], self._read_counter[0])

    def available_to_write(self) -> int:
        """Elements that fit now."""
        return self.capacity - self.available_to_read()

    # -- writing -----------------------------------------------------------------------

    def write(self, data: bytes | bytearray | memoryview) -> bool:
        """Publish all of ``data`` (whole elements) if it fits now; False (nothing written)
        otherwise. FmqClosed if the queue was shut down."""
        count = self._count(data)
        if self.is_shut_down:
            raise FmqClosed("write to a queue that was shut down")
        written = self._write_counter[0]
        used = self._used(written, self._read_counter[0])
        if count > self.capacity - used:
            return False
        if written + count > UINT64_MAX:
            self._corrupt(f"the write counter {written} + {count} would pass 2**64 - 1")
        self._copy_in(written % self.capacity, data)
        self._write_counter[0] = written + count
        _signal(self._data_event)
        return True

    def write_blocking(self, data: bytes | bytearray | memoryview, timeout: float | None) -> None:
        """Wait until all of ``data`` fits, then publish it. FmqTimeout after ``timeout``
        seconds (None: no limit), FmqClosed on shutdown; a packet larger than the
        whole queue raises FmqError at once."""
        count = self._count(data)
        if count > self.capacity:
            raise FmqError(f"a packet of {count} elements never fits a queue of {self.capacity}")
        self._wait(lambda: self.write(data), self._space_event, self._space_poll, timeout)

    # -- reading -----------------------------------------------------------------------

    def read(self, count: int | None = None) -> bytes | None:
        """``count`` elements (None: all there are, at least one), or None (nothing read)
        if fewer are there. FmqClosed if the queue is empty and was shut down."""
        if count is not None and count <= 0:
            raise FmqError(f"cannot read {count} elements")
        done = self._read_counter[0]
        available = self._used(self._write_counter[0], done)
        if available == 0 and self.is_shut_down:
            raise FmqClosed("the queue was shut down")
        wanted = available if count is None else count
        if available == 0 or wanted > available:
            return None
        data = self._copy_out(done % self.capacity, wanted)
        self._read_counter[0] = done + wanted
        _signal(self._space_event)
        return data

    def read_blocking(self, count: int | None, timeout: float | None) -> bytes:
        """As ``read``, waiting for the elements. FmqTimeout after ``timeout`` seconds
        (None: no limit); FmqClosed on shutdown with nothing left to read."""
        if count is not None and count > self.capacity:
            raise FmqError(f"cannot read {count} elements from a queue of {self.capacity}")
        return self._wait(lambda: self.read(count), self._data_event, self._data_poll, timeout)

    # -- internals ---------------------------------------------------------------------

    def _used(self, written: int, done: int) -> int:
        """Elements between the counters; FmqCorrupt unless 0..capacity."""
        used = written - done
        if not 0 <= used <= self.capacity:
            self._corrupt(
                f"write counter {written} and read counter {done} are {used} elements apart "
                f"in a ring of {self.capacity}"
            )
        return used

    def _corrupt(self, reason: str) -> None:
        self.shutdown()
        raise FmqCorrupt(f"the queue's counters are corrupt ({reason}); it was shut down")

    def _count(self, data: bytes | bytearray | memoryview) -> int:
        size = memoryview(data).nbytes
        if size == 0 or size % self.element_size:
            raise FmqError(
                f"a packet of {size} bytes is not a whole, non-zero number of "
                f"{self.element_size}-byte elements"
            )
        return size // self.element_size

    def _copy_in(self, slot: int, data: bytes | bytearray | memoryview) -> None:
        raw = memoryview(data).cast("B")
        start = _DATA_AT + slot * self.element_size
        first = min(len(raw), (self.capacity - slot) * self.element_size)
        self._map[start : start + first] = raw[:first]
        if first < len(raw):
            self._map[_DATA_AT : _DATA_AT + len(raw) - first] = raw[first:]

    def _copy_out(self, slot: int, count: int) -> bytes:
        size = count * self.element_size
        start = _DATA_AT + slot * self.element_size
        first = min(size, (self.capacity - slot) * self.element_size)
        data = self._map[start : start + first]
        if first < size:
            data += self._map[_DATA_AT : _DATA_AT + size - first]
        return data

    def _wait(self, attempt, event: int, poller, timeout: float | None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            result = attempt()
            if result is not None and result is not False:
                return None if result is True else result
            if self.is_shut_down:
                raise FmqClosed("the queue was shut down")
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise FmqTimeout(f"nothing to do on the queue within {timeout:g} s")
            poller.poll(None if remaining is None else max(1, int(remaining * 1000 + 0.999)))
            # Consume the wake-up before checking again, so no signal sent after the
            # check can be lost.
            with contextlib.suppress(BlockingIOError):
                os.eventfd_read(event)


def _check_geometry(capacity: int, element_size: int) -> None:
    if not (isinstance(capacity, int) and 0 < capacity <= MAX_CAPACITY):
        raise FmqError(f"queue capacity {capacity!r} is not in 1..{MAX_CAPACITY}")
    if not (isinstance(element_size, int) and 0 < element_size <= MAX_ELEMENT_SIZE):
        raise FmqError(f"element size {element_size!r} is not in 1..{MAX_ELEMENT_SIZE}")


def _poller(fd: int) -> select.poll:
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return poller


def _signal(event: int) -> None:
    with contextlib.suppress(BlockingIOError, OSError):
        os.eventfd_write(event, 1)


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
