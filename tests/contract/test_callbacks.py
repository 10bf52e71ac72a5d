"""Unit tests for ``hal.callbacks``: what the harness records of a driver's notifies.

A callback must keep the first notify as the outcome, report any later one as
a protocol violation, never hang (a bounded wait), and be woken by a notify
from any thread.
"""

from __future__ import annotations

import threading
import time

import pytest

from hal.callbacks import (
    KEPT_NOTIFICATIONS,
    CallbackTimeout,
    ExecutionCallback,
    Notification,
    PreparedModelCallback,
)
from hal.interfaces import IExecutionCallback, IPreparedModel, IPreparedModelCallback
from hal.types import NO_TIMING, UINT64_MAX, ErrorStatus, OutputShape, Timing


class FakePreparedModel(IPreparedModel):
    def execute(self, request, callback):
        return ErrorStatus.NONE


def notify_from_thread(target, *args, name="driver-worker", delay=0.0):
    def run():
        time.sleep(delay)
        target(*args)

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


def test_callbacks_implement_the_interfaces():
    assert isinstance(PreparedModelCallback(), IPreparedModelCallback)
    assert isinstance(ExecutionCallback(), IExecutionCallback)


# ---------------------------------------------------------------------------
# PreparedModelCallback
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["notify", "notify_1_2"])
def test_prepared_model_callback_records(method):
    callback = PreparedModelCallback()
    model = FakePreparedModel()
    getattr(callback, method)(ErrorStatus.NONE, model)
    expected = Notification(
        method, ErrorStatus.NONE, prepared_model=model, thread=threading.current_thread().name
    )
    assert callback.notifications == [expected]
    assert callback.wait(0.05) == expected
    assert callback.wait(0.05).prepared_model is model
    assert callback.violations == []


def test_prepared_model_callback_records_failure_without_model():
    callback = PreparedModelCallback()
    callback.notify_1_2(ErrorStatus.INVALID_ARGUMENT, None)
    got = callback.wait(0.05)
    assert got.method == "notify_1_2"
    assert got.status is ErrorStatus.INVALID_ARGUMENT
    assert got.prepared_model is None
    assert got.output_shapes == ()
    assert got.timing == NO_TIMING


def test_prepared_model_callback_timeout():
    callback = PreparedModelCallback()
    start = time.monotonic()
    with pytest.raises(CallbackTimeout) as info:
        callback.wait(0.05)
    elapsed = time.monotonic() - start
    assert str(info.value) == "the driver did not notify the prepared-model callback within 0.05 s"
    assert elapsed >= 0.045
    assert callback.notifications == []


def test_prepared_model_callback_woken_by_another_thread():
    callback = PreparedModelCallback()
    model = FakePreparedModel()
    thread = notify_from_thread(callback.notify_1_2, ErrorStatus.NONE, model, delay=0.02)
    got = callback.wait(5.0)
    thread.join()
    assert got.method == "notify_1_2"
    assert got.prepared_model is model
    assert got.thread == "driver-worker"


def test_prepared_model_callback_second_notify_is_a_violation():
    callback = PreparedModelCallback()
    model = FakePreparedModel()
    callback.notify_1_2(ErrorStatus.NONE, model)
    callback.notify(ErrorStatus.GENERAL_FAILURE, None)

    first = callback.wait(0.05)
    assert first.method == "notify_1_2"
    assert first.status is ErrorStatus.NONE
    assert first.prepared_model is model
    assert [n.method for n in callback.notifications] == ["notify_1_2", "notify"]
    assert callback.violations == [
        "prepared-model callback notified 2 times; extra call notify(status=GENERAL_FAILURE)"
    ]


def test_violation_names_an_invalid_status():
    callback = PreparedModelCallback()
    callback.notify_1_2(ErrorStatus.NONE, FakePreparedModel())
    callback.notify_1_2(42, None)
    assert callback.violations == [
        "prepared-model callback notified 2 times; extra call notify_1_2(status=invalid status 42)"
    ]


# ---------------------------------------------------------------------------
# ExecutionCallback
# ---------------------------------------------------------------------------


def test_execution_callback_notify_1_0_has_no_shapes_or_timing():
    callback = ExecutionCallback()
    callback.notify(ErrorStatus.NONE)
    expected = Notification(
        "notify",
        ErrorStatus.NONE,
        prepared_model=None,
        output_shapes=(),
        timing=NO_TIMING,
        thread=threading.current_thread().name,
    )
    assert callback.wait(0.05) == expected
    assert expected.timing == Timing(UINT64_MAX, UINT64_MAX)
    assert callback.violations == []


def test_execution_callback_notify_1_2_records_shapes_and_timing():
    callback = ExecutionCallback()
    shapes = [OutputShape((1, 2, 3), True), OutputShape((4,), False)]
    timing = Timing(time_on_device=10, time_in_driver=25)
    callback.notify_1_2(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, shapes, timing)
    shapes.append(OutputShape((9,), True))  # the record is a copy, not the caller's list

    got = callback.wait(0.05)
    assert got == Notification(
        "notify_1_2",
        ErrorStatus.OUTPUT_INSUFFICIENT_SIZE,
        output_shapes=(OutputShape((1, 2, 3), True), OutputShape((4,), False)),
        timing=timing,
        thread=threading.current_thread().name,
    )
    assert callback.notifications == [got]


def test_execution_callback_timeout():
    callback = ExecutionCallback()
    with pytest.raises(CallbackTimeout) as info:
        callback.wait(0.05)
    assert str(info.value) == "the driver did not notify the execution callback within 0.05 s"


def test_execution_callback_woken_by_another_thread():
    callback = ExecutionCallback()
    waited: list[Notification] = []
    waiter = threading.Thread(target=lambda: waited.append(callback.wait(5.0)))
    waiter.start()
    time.sleep(0.02)  # let the waiter block first
    notify_from_thread(callback.notify_1_2, ErrorStatus.NONE, [], NO_TIMING).join()
    waiter.join(5.0)
    assert not waiter.is_alive()
    assert len(waited) == 1
    assert waited[0].method == "notify_1_2"
    assert waited[0].thread == "driver-worker"


def test_execution_callback_second_notify_is_a_violation():
    callback = ExecutionCallback()
    callback.notify(ErrorStatus.GENERAL_FAILURE)
    callback.notify_1_2(ErrorStatus.NONE, [OutputShape((2,), True)], Timing(1, 2))
    callback.notify(ErrorStatus.DEVICE_UNAVAILABLE)

    first = callback.wait(0.05)
    assert first.method == "notify"
    assert first.status is ErrorStatus.GENERAL_FAILURE
    assert first.output_shapes == ()
    assert len(callback.notifications) == 3
    assert callback.violations == [
        "execution callback notified 3 times; extra call notify_1_2(status=NONE)",
        "execution callback notified 3 times; extra call notify(status=DEVICE_UNAVAILABLE)",
    ]


def test_notifications_property_is_a_copy():
    callback = ExecutionCallback()
    callback.notify(ErrorStatus.NONE)
    callback.notifications.clear()
    assert len(callback.notifications) == 1


def test_a_flood_of_notifies_keeps_the_first_few_and_counts_the_rest():
    """A driver that notifies a kept callback 200,001 times costs a count, not a list of
    200,001 notifications (4,000,001 of them once held 745 MB); the verdict is the same
    as for a second notify."""
    import tracemalloc

    callback = ExecutionCallback()
    tracemalloc.start()
    try:
        for _ in range(200_001):
            callback.notify_1_2(ErrorStatus.NONE, [], NO_TIMING)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    assert callback.notification_count == 200_001
    assert len(callback.notifications) == KEPT_NOTIFICATIONS == 4
    assert callback.wait(0.05) == callback.notifications[0]
    assert callback.violations == [
        "execution callback notified 200001 times; extra call notify_1_2(status=NONE)"
    ] * 3 + ["execution callback notified 200001 times; 199997 more extra calls"]
