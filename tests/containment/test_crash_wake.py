"""A driver service that dies while the harness waits on it outside a call ends the wait at once.

Nothing is raised into the waiting thread from outside (no signal): the service's
guard (``isolation.proxy.DriverService``) ends each wait through the wait's own
way of ending. A callback sent to the dead service is abandoned, so its wait
raises the crash; a burst queue handed to it is shut down, so the burst's wait
ends with the channel shut down; the crash itself is recorded as the test's
driver fault, and the test fails with it. The units first, then whole runs
(the callback case of a whole run is in test_isolation.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_isolation import HOSTILE, PROPERTIES, RUN_TIMEOUT, SLICE, Run

from hal.callbacks import CallbackTimeout, ExecutionCallback, PreparedModelCallback
from hal.fmq import FmqClosed, MessageQueue
from hal.types import ErrorStatus
from isolation.channel import DriverCrashed
from isolation.proxy import _OriginCallback, _Waits

# -- callbacks --------------------------------------------------------------------


def _waiting(callback, timeout: float) -> tuple[threading.Thread, list]:
    """A thread waiting on ``callback``; the list gets what the wait gave or raised."""
    outcome: list = []

    def wait() -> None:
        started = time.monotonic()
        try:
            outcome.append(callback.wait(timeout))
        except BaseException as error:
            outcome.append(error)
        outcome.append(time.monotonic() - started)

    thread = threading.Thread(target=wait)
    thread.start()
    return thread, outcome


def test_an_abandoned_callback_ends_its_wait_with_the_error() -> None:
    callback = ExecutionCallback()
    thread, outcome = _waiting(callback, 60.0)
    time.sleep(0.1)
    callback.abandon(DriverCrashed("driver process died (signal 9 SIGKILL)", "execute_1_2"))
    thread.join(5)
    error, seconds = outcome
    assert isinstance(error, DriverCrashed) and error.method == "execute_1_2"
    assert seconds < 5
    with pytest.raises(DriverCrashed, match="signal 9 SIGKILL"):
        callback.wait(5.0)  # later waits too, at once


def test_a_notification_that_came_first_still_counts() -> None:
    callback = ExecutionCallback()
    callback.notify(ErrorStatus.NONE)
    callback.abandon(DriverCrashed("gone", "execute"))
    assert callback.wait(1.0).status is ErrorStatus.NONE


def test_a_callback_nobody_abandons_still_times_out() -> None:
    with pytest.raises(CallbackTimeout, match="did not notify the prepared-model callback"):
        PreparedModelCallback().wait(0.05)


# -- what a service's waits are made of ------------------------------------------------


def test_ending_the_waits_abandons_the_callbacks_sent_and_the_prepare_wrappers() -> None:
    waits = _Waits()
    direct, wrapped = ExecutionCallback(), PreparedModelCallback()
    waits.exported(direct)
    waits.exported(_OriginCallback(wrapped, ("prepare_model_1_2", ())))
    waits.exported(object())  # anything else is no wait
    waits.end(lambda: DriverCrashed("driver process died (exit status 3)", "execute_1_2"))
    for callback in (direct, wrapped):  # (the wrapper itself is gone: the service let it go)
        with pytest.raises(DriverCrashed, match="exit status 3"):
            callback.wait(5.0)


def test_ending_the_waits_shuts_the_burst_queues_handed_over() -> None:
    requests, results = MessageQueue.create(4, 8), MessageQueue.create(4, 8)
    try:
        waits = _Waits()
        waits.queues_sent((object(), requests.descriptor, results.descriptor))
        outcome: list = []

        def wait() -> None:
            try:
                results.read_blocking(None, 5.0)
            except FmqClosed as error:
                outcome.append(error)

        thread = threading.Thread(target=wait)
        thread.start()
        time.sleep(0.1)
        waits.end(lambda: DriverCrashed("gone", ""))
        thread.join(5)
        assert not thread.is_alive() and outcome
        assert requests.is_shut_down and results.is_shut_down
    finally:
        requests.close()
        results.close()


def test_a_queue_closed_before_the_end_is_left_alone() -> None:
    """The harness closed the burst; a new queue may have its numbers now: not shut."""
    old = MessageQueue.create(4, 8)
    waits = _Waits()
    waits.queues_sent((old.descriptor,))
    old.close()
    new = MessageQueue.create(4, 8)  # most likely under the same descriptor numbers
    try:
        waits.end(lambda: DriverCrashed("gone", ""))
        assert not new.is_shut_down
    finally:
        new.close()


# -- whole runs -------------------------------------------------------------------

CRASH_DRIVERS = """
from hal.burst import SlotCache, configure_burst
from hostile_drivers import _Hostile, _HostileDriver, segfault


class _BurstSegfaultModel(_Hostile):
    def configure_execution_burst(self, callback, request_channel, result_channel):
        def execute(request, measure):
            segfault()

        return configure_burst(callback, request_channel, result_channel, execute, SlotCache())


class SegfaultInBurst(_HostileDriver):
    \"\"\"Its burst server dereferences a null pointer on the first request.\"\"\"

    prepared_model_class = _BurstSegfaultModel
"""

BURSTS = {"burst", "burst-timed"}


def _run(tmp_path: Path, driver: str, *extra: str) -> Run:
    (tmp_path / "hostile_drivers.py").write_text(HOSTILE.read_text())
    (tmp_path / "crash_drivers.py").write_text(CRASH_DRIVERS)
    (tmp_path / "test_slice.py").write_text(SLICE)
    (tmp_path / "conftest.py").write_text(PROPERTIES)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_slice.py"]
    command += [f"--driver={driver}", "--driver-isolation=process", "-vv", "-rA", *extra]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    process = subprocess.run(
        command,
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    return Run(process, tmp_path)


def test_a_crash_while_waiting_for_a_burst_result_ends_the_wait_at_once(tmp_path) -> None:
    # A long timeout: the burst must end by the crash, not by the result's timeout.
    run = _run(tmp_path, "crash_drivers:SegfaultInBurst", "--hal-timeout=60")
    assert run.failed() == BURSTS, run.output
    message = "driver process died (signal 11 SIGSEGV) after configure_execution_burst returned"
    for path in BURSTS:
        assert run.outcome_property(path) == "crash", run.properties
        assert run.properties[path]["nnhal_fault"] == message
        assert run.properties[path]["nnhal_fault_method"] == "configure_execution_burst"
    assert "the result channel was shut down before a result came" in run.output
    assert "no result packet within" not in run.output
    assert run.outcomes["sync-scattered"] == "PASSED"  # on a fresh service


def test_settle_waits_for_the_death_of_an_exited_service_to_be_recorded() -> None:
    import threading
    import time
    from types import SimpleNamespace

    from isolation.proxy import DriverService

    connection = SimpleNamespace(closed=False)
    exited = SimpleNamespace(poll=lambda: -11)
    service = SimpleNamespace(process=exited, connection=connection)
    threading.Timer(0.2, lambda: setattr(connection, "closed", True)).start()
    start = time.monotonic()
    DriverService.settle(service, timeout=5)
    assert connection.closed and time.monotonic() - start < 4
    # a live process, or a channel already seen closed: no wait at all
    running = SimpleNamespace(
        process=SimpleNamespace(poll=lambda: None), connection=SimpleNamespace(closed=False)
    )
    start = time.monotonic()
    DriverService.settle(running, timeout=5)
    assert time.monotonic() - start < 1
    # an exited process whose channel never closes: the wait is bounded
    stuck = SimpleNamespace(process=exited, connection=SimpleNamespace(closed=False))
    start = time.monotonic()
    DriverService.settle(stuck, timeout=0.3)
    assert 0.25 < time.monotonic() - start < 3
