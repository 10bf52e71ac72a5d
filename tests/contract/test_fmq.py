"""hal.fmq: whole-packet SPSC queues in shared memory, across threads and processes."""

from __future__ import annotations

import collections
import errno
import fcntl
import os
import random
import re
import subprocess
import sys
import textwrap
import threading

import pytest

from hal.fmq import FmqClosed, FmqDescriptor, FmqError, FmqTimeout, MessageQueue
from hal.memory import NativeHandle

WAIT = 10.0
"""Generous limit for waits that should end at once (a hang fails, never blocks the run)."""


def _elements(*values: int, size: int = 4) -> bytes:
    return b"".join(v.to_bytes(size, "little") for v in values)


@pytest.fixture
def queue():
    with MessageQueue.create(8, 4) as q:
        yield q


def test_a_packet_comes_out_whole_and_in_order(queue) -> None:
    assert queue.write(_elements(1, 2, 3))
    assert queue.write(_elements(4))
    assert (queue.available_to_read(), queue.available_to_write()) == (4, 4)
    assert queue.read(2) == _elements(1, 2)
    assert queue.read() == _elements(3, 4)
    assert (queue.available_to_read(), queue.available_to_write()) == (0, 8)


def test_a_full_queue_refuses_a_packet_and_keeps_what_it_has(queue) -> None:
    assert queue.write(_elements(*range(6)))
    assert not queue.write(_elements(7, 8, 9))
    assert queue.available_to_read() == 6
    assert queue.write(_elements(6, 7))
    assert not queue.write(_elements(8))
    assert queue.read() == _elements(*range(8))


def test_an_empty_queue_gives_nothing_and_a_short_one_keeps_its_elements(queue) -> None:
    assert queue.read() is None
    assert queue.read(1) is None
    queue.write(_elements(5, 6))
    assert queue.read(3) is None
    assert queue.read(2) == _elements(5, 6)


def test_packets_wrap_around_the_ring_intact() -> None:
    # A seeded random mix of packet sizes, checked against a deque (the oracle).
    rng = random.Random(7)
    expected: collections.deque[int] = collections.deque()
    counter = 0
    with MessageQueue.create(5, 3) as q:
        for _ in range(500):
            if rng.random() < 0.55:
                count = rng.randint(1, 5)
                values = list(range(counter, counter + count))
                fits = len(expected) + count <= 5
                assert q.write(_elements(*(v % 2**24 for v in values), size=3)) == fits
                if fits:
                    expected.extend(values)
                    counter += count
            else:
                count = rng.randint(1, 5)
                got = q.read(count)
                if count > len(expected):
                    assert got is None
                else:
                    want = [expected.popleft() for _ in range(count)]
                    assert got == _elements(*(v % 2**24 for v in want), size=3)
        assert counter > 100  # the ring of 5 went round many times


def test_a_blocking_read_is_woken_by_a_write_from_another_thread(queue) -> None:
    started = threading.Event()

    def writer() -> None:
        started.wait(WAIT)
        queue.write(_elements(42, 43))

    thread = threading.Thread(target=writer)
    thread.start()
    started.set()
    assert queue.read_blocking(2, WAIT) == _elements(42, 43)
    thread.join(WAIT)


def test_a_blocking_read_times_out_with_nothing_read(queue) -> None:
    with pytest.raises(FmqTimeout, match=r"^nothing to do on the queue within 0\.05 s$"):
        queue.read_blocking(1, 0.05)
    queue.write(_elements(1))
    with pytest.raises(FmqTimeout):
        queue.read_blocking(2, 0.05)
    assert queue.read() == _elements(1)


def test_shutdown_wakes_a_blocked_reader(queue) -> None:
    outcome: list[object] = []

    def reader() -> None:
        try:
            outcome.append(queue.read_blocking(None, WAIT))
        except FmqClosed as e:
            outcome.append(e)

    thread = threading.Thread(target=reader)
    thread.start()
    queue.shutdown()
    thread.join(WAIT)
    assert not thread.is_alive()
    assert isinstance(outcome[0], FmqClosed)


def test_after_shutdown_what_was_written_is_still_read_then_closed(queue) -> None:
    queue.write(_elements(9))
    queue.shutdown()
    assert queue.is_shut_down
    assert queue.read_blocking(None, WAIT) == _elements(9)
    with pytest.raises(FmqClosed, match=r"^the queue was shut down$"):
        queue.read()
    with pytest.raises(FmqClosed, match=r"^write to a queue that was shut down$"):
        queue.write(_elements(1))


def test_a_blocking_write_waits_for_room(queue) -> None:
    queue.write(_elements(*range(8)))

    def reader() -> None:
        queue.read_blocking(3, WAIT)

    thread = threading.Thread(target=reader)
    thread.start()
    queue.write_blocking(_elements(8, 9, 10), WAIT)
    thread.join(WAIT)
    assert queue.read() == _elements(*range(3, 11))


def test_a_blocking_write_times_out_and_writes_nothing(queue) -> None:
    queue.write(_elements(*range(7)))
    with pytest.raises(FmqTimeout):
        queue.write_blocking(_elements(1, 2), 0.05)
    assert queue.available_to_read() == 7


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda q: q.write(b"abc"),
            "a packet of 3 bytes is not a whole, non-zero number of 4-byte elements",
        ),
        (
            lambda q: q.write(b""),
            "a packet of 0 bytes is not a whole, non-zero number of 4-byte elements",
        ),
        (
            lambda q: q.write_blocking(bytes(36), 1),
            "a packet of 9 elements never fits a queue of 8",
        ),
        (lambda q: q.read(0), "cannot read 0 elements"),
        (lambda q: q.read_blocking(9, 1), "cannot read 9 elements from a queue of 8"),
    ],
)
def test_misuse_is_refused_with_a_message(queue, call, message: str) -> None:
    with pytest.raises(FmqError, match=f"^{re.escape(message)}$"):
        call(queue)


@pytest.mark.parametrize(
    ("capacity", "element_size", "message"),
    [
        (0, 4, "queue capacity 0 is not in 1..16777216"),
        (2**24 + 1, 4, "queue capacity 16777217 is not in 1..16777216"),
        (4, 0, "element size 0 is not in 1..65536"),
        (4, "4", "element size '4' is not in 1..65536"),
    ],
)
def test_bad_geometry_is_refused(capacity, element_size, message: str) -> None:
    with pytest.raises(FmqError, match=f"^{re.escape(message)}$"):
        MessageQueue.create(capacity, element_size)


def test_attach_refuses_a_bad_descriptor(queue) -> None:
    good = queue.descriptor
    with pytest.raises(FmqError, match=r"^expected an FmqDescriptor, got tuple$"):
        MessageQueue.attach((good.handle, 8, 4))
    with pytest.raises(FmqError, match=r"^an FMQ descriptor needs a handle of 3 fds, has 2$"):
        MessageQueue.attach(FmqDescriptor(NativeHandle(good.handle.fds[:2]), 8, 4))
    with pytest.raises(FmqError, match=r"^the ring holds 288 bytes; 9 elements of 4 bytes"):
        MessageQueue.attach(FmqDescriptor(good.handle, 9, 4))
    with pytest.raises(FmqError, match=r"^the ring's header \(.*\) does not match"):
        MessageQueue.attach(FmqDescriptor(good.handle, 4, 8))
    with pytest.raises(FmqError, match=r"^cannot attach to the queue: "):
        MessageQueue.attach(FmqDescriptor(NativeHandle([999_999, 999_998, 999_997]), 8, 4))


def test_each_end_owns_its_descriptors() -> None:
    creator = MessageQueue.create(4, 4)
    other = MessageQueue.attach(creator.descriptor)
    creator.write(_elements(1))
    creator.close()
    creator.close()  # closing twice is harmless
    assert other.read() == _elements(1)
    other.close()


# ---------------------------------------------------------------------------
# Two processes
# ---------------------------------------------------------------------------

_PEER = textwrap.dedent(
    """
    import sys
    from hal.fmq import FmqDescriptor, MessageQueue
    from hal.memory import NativeHandle

    def open_queue(arg):
        fds, capacity, size = arg.split(":")
        handle = NativeHandle([int(fd) for fd in fds.split(",")])
        return MessageQueue.attach(FmqDescriptor(handle, int(capacity), int(size)))

    inbox, outbox = open_queue(sys.argv[1]), open_queue(sys.argv[2])
    mode = sys.argv[3]
    if mode == "echo":
        while True:
            packet = inbox.read_blocking(None, 10)
            if packet == bytes(4):
                break
            # Answer each packet with its elements reversed, one write per packet.
            elements = [packet[i : i + 4] for i in range(0, len(packet), 4)]
            outbox.write_blocking(b"".join(reversed(elements)), 10)
    elif mode == "die":
        outbox.write(b"live")
        inbox.read_blocking(None, 10)  # the parent kills us while we wait here
    """
)


def _arg(queue: MessageQueue) -> str:
    d = queue.descriptor
    return f"{','.join(map(str, d.handle.fds))}:{d.capacity}:{d.element_size}"


def _peer(mode: str, inbox: MessageQueue, outbox: MessageQueue) -> subprocess.Popen:
    fds = [*inbox.descriptor.handle.fds, *outbox.descriptor.handle.fds]
    return subprocess.Popen(
        [sys.executable, "-c", _PEER, _arg(inbox), _arg(outbox), mode], pass_fds=fds
    )


def test_packets_cross_processes_and_wrap_around() -> None:
    with MessageQueue.create(7, 4) as requests, MessageQueue.create(7, 4) as answers:
        child = _peer("echo", requests, answers)
        try:
            for n in range(1, 120):
                count = n % 5 + 1
                values = [n * 10 + k for k in range(count)]
                requests.write_blocking(_elements(*values), WAIT)
                assert answers.read_blocking(None, WAIT) == _elements(*reversed(values))
            requests.write_blocking(bytes(4), WAIT)
            assert child.wait(WAIT) == 0
        finally:
            child.kill()
            child.wait(WAIT)


def test_a_dead_producer_ends_the_blocking_read_by_timeout_or_release() -> None:
    with MessageQueue.create(4, 4) as to_child, MessageQueue.create(4, 4) as from_child:
        child = _peer("die", to_child, from_child)
        try:
            assert from_child.read_blocking(None, WAIT) == b"live"
        finally:
            child.kill()
            child.wait(WAIT)
        with pytest.raises(FmqTimeout):
            from_child.read_blocking(None, 0.1)
        outcome: list[BaseException] = []

        def reader() -> None:
            try:
                from_child.read_blocking(None, WAIT)
            except FmqError as e:
                outcome.append(e)

        thread = threading.Thread(target=reader)
        thread.start()
        from_child.shutdown()
        thread.join(WAIT)
        assert isinstance(outcome[0], FmqClosed)


def test_the_ring_memfd_cannot_be_resized_by_either_end() -> None:
    # A driver holding the ring's descriptor could otherwise shrink it, and the other
    # end's next write into its map would die of SIGBUS.
    with MessageQueue.create(4, 8) as queue:
        ring = queue.descriptor.handle.fds[0]
        seals = fcntl.fcntl(ring, fcntl.F_GET_SEALS)
        assert seals & fcntl.F_SEAL_SHRINK and seals & fcntl.F_SEAL_GROW
        with MessageQueue.attach(queue.descriptor) as other_end:
            other_ring = other_end.descriptor.handle.fds[0]
            for fd, size in ((ring, 0), (other_ring, 64), (other_ring, 1 << 20)):
                with pytest.raises(PermissionError) as info:
                    os.ftruncate(fd, size)
                assert info.value.errno == errno.EPERM
            assert queue.write(bytes(range(16)))
            assert other_end.read(2) == bytes(range(16))
