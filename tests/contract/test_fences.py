"""Unit tests for ``hal.fences``: an eventfd sync fence shared through its descriptor.

A fence's state lives in the kernel object, so another descriptor of it (a ``dup``,
or one inherited by another process) sees every change; a wait is always bounded;
a fence ends once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from hal.fences import ERROR_VALUE, FenceClosed, FenceState, SyncFence

CHILD = """
import sys, time
from hal.fences import SyncFence, FenceState
fence = SyncFence.adopt(int(sys.argv[1]))
action = sys.argv[2]
if action == "signal":
    time.sleep(0.05)
    fence.signal()
elif action == "error":
    fence.signal_error()
else:
    sys.exit(10 + int(fence.wait(float(action))))
"""


def _child(fence: SyncFence, action: str) -> subprocess.Popen:
    with fence.dup() as crossing:  # the duplicate crosses; this process's copy closes
        fd = crossing.fileno()
        return subprocess.Popen(
            [sys.executable, "-c", CHILD, str(fd), action], pass_fds=(fd,), close_fds=True
        )


def test_a_new_fence_is_active_and_a_wait_on_it_times_out_in_time() -> None:
    with SyncFence() as fence:
        assert fence.state() is FenceState.ACTIVE
        start = time.monotonic()
        assert fence.wait(0.1) is FenceState.ACTIVE
        took = time.monotonic() - start
        assert 0.09 <= took < 2.0


def test_signal_and_error_are_seen_through_every_descriptor_and_end_the_fence_once() -> None:
    fence = SyncFence()
    other = fence.dup()
    fence.signal()
    assert other.wait(1.0) is FenceState.SIGNALED
    assert fence.state() is FenceState.SIGNALED  # a read leaves the state in place
    other.signal_error()  # too late: the fence has ended
    fence.signal()
    assert fence.state() is FenceState.SIGNALED
    failed = SyncFence()
    failed.signal_error()
    failed.signal()
    assert failed.wait(0.0) is FenceState.ERROR
    for f in (fence, other, failed):
        f.close()


def test_error_outweighs_any_number_of_signals_in_the_counter() -> None:
    fence = SyncFence()
    os.eventfd_write(fence.fileno(), 1000)
    assert fence.state() is FenceState.SIGNALED
    os.eventfd_write(fence.fileno(), ERROR_VALUE)
    assert fence.state() is FenceState.ERROR
    fence.close()


def test_a_waiting_thread_wakes_when_another_signals() -> None:
    fence = SyncFence()
    seen: list[FenceState] = []
    waiter = threading.Thread(target=lambda: seen.append(fence.wait(5.0)))
    waiter.start()
    time.sleep(0.05)
    fence.signal()
    waiter.join(5.0)
    assert seen == [FenceState.SIGNALED]
    fence.close()


def test_another_process_signals_a_fence_this_one_waits_on() -> None:
    fence = SyncFence()
    child = _child(fence, "signal")
    try:
        assert fence.wait(10.0) is FenceState.SIGNALED
    finally:
        assert child.wait(10) == 0
    fence.close()


def test_another_process_puts_a_fence_into_error() -> None:
    fence = SyncFence()
    child = _child(fence, "error")
    assert child.wait(10) == 0
    assert fence.wait(1.0) is FenceState.ERROR
    fence.close()


def test_another_process_waits_for_a_fence_this_one_signals() -> None:
    fence = SyncFence()
    child = _child(fence, "10")
    time.sleep(0.05)
    fence.signal()
    assert child.wait(15) == 10 + FenceState.SIGNALED
    fence.close()


def test_a_wait_in_another_process_is_bounded_too() -> None:
    fence = SyncFence()
    start = time.monotonic()
    child = _child(fence, "0.2")
    assert child.wait(15) == 10 + FenceState.ACTIVE
    assert time.monotonic() - start < 15
    fence.close()


def test_a_forked_child_shares_the_fence() -> None:
    fence = SyncFence()
    pid = os.fork()
    if pid == 0:  # the child: signal and leave at once, whatever happens
        try:
            fence.signal()
        finally:
            os._exit(0)
    try:
        assert fence.wait(10.0) is FenceState.SIGNALED
    finally:
        os.waitpid(pid, 0)
    fence.close()


@pytest.mark.parametrize("timeout", [None, float("inf"), float("nan"), 1e9, "1"])
def test_a_wait_needs_a_finite_timeout(timeout: object) -> None:
    with SyncFence() as fence, pytest.raises(ValueError, match="timeout"):
        fence.wait(timeout)  # type: ignore[arg-type]


def test_a_negative_timeout_is_a_poll() -> None:
    with SyncFence() as fence:
        assert fence.wait(-5) is FenceState.ACTIVE


def test_closing_one_descriptor_leaves_the_fence_to_the_others() -> None:
    fence = SyncFence()
    other = fence.dup()
    fence.close()
    fence.close()  # twice: nothing
    assert fence.closed
    with pytest.raises(FenceClosed):
        fence.wait(0.0)
    with pytest.raises(FenceClosed):
        fence.signal()
    other.signal()
    assert other.state() is FenceState.SIGNALED
    other.close()


def test_adopt_refuses_what_is_not_an_eventfd() -> None:
    read, write = os.pipe()
    try:
        with pytest.raises(ValueError, match="not an eventfd"):
            SyncFence.adopt(read)
    finally:
        os.close(read)
        os.close(write)
    with pytest.raises(ValueError):
        SyncFence(-1)


def test_a_fence_owns_its_descriptor() -> None:
    fence = SyncFence()
    fd = fence.fileno()
    fence.close()
    with pytest.raises(OSError):
        os.fstat(fd)
