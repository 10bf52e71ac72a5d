"""The reference driver at HAL 1.3, called directly: capabilities, supported operations,
preparation with priorities and deadlines, the three 1.3 executions (deadlines, loop
timeouts, fences, driver-managed buffers) and the 1.0 statuses of the older methods.

Expected values are derived by hand in the comments beside them: ADD of A = [[0, 1],
[2, 3]] with itself is [[0, 2], [4, 6]].
"""

from __future__ import annotations

import os
import tempfile
import threading
import time

import numpy as np
import pytest

from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.fences import FenceState, SyncFence
from hal.interfaces import IDevice_1_3, IFencedExecutionCallback, IPreparedModel_1_3
from hal.levels import device_level
from hal.memory import ASHMEM, NativeHandle, allocate, allocate_with, map_memory
from hal.types import (
    NO_TIMING,
    TIME_POINT_MAX,
    UINT64_MAX,
    BufferDesc,
    BufferRole,
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    LoopTimeoutDurationNs,
    MeasureTiming,
    OperandType,
    OperationType,
    OutputShape,
    Priority,
    Timing,
)
from reference_driver import ReferenceDriver
from reference_driver import prepared_model as prepared_module
from reference_driver.executor import RunResult

NONE = ErrorStatus.NONE
INVALID = ErrorStatus.INVALID_ARGUMENT
FAILURE = ErrorStatus.GENERAL_FAILURE
TRANSIENT = ErrorStatus.MISSED_DEADLINE_TRANSIENT
PERSISTENT = ErrorStatus.MISSED_DEADLINE_PERSISTENT
FAST = ExecutionPreference.FAST_SINGLE_ANSWER
YES, NO = MeasureTiming.YES, MeasureTiming.NO
A = np.arange(4, dtype=np.float32).reshape(2, 2)
SUM = A + A  # [[0, 2], [4, 6]]
WAIT = 10.0


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


@pytest.fixture(scope="module")
def prepared(driver) -> IPreparedModel_1_3:
    return _prepare(driver, binary_model())


def _prepare(driver, model, deadline=None, priority=Priority.MEDIUM):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_3(model, FAST, priority, deadline, callback)
    notification = callback.wait(WAIT)
    assert (launch, notification.method, notification.status) == (NONE, "notify_1_3", NONE)
    assert isinstance(notification.prepared_model, IPreparedModel_1_3)
    return notification.prepared_model


def _soon(seconds: float) -> int:
    return time.monotonic_ns() + int(seconds * 1e9)


def _past() -> int:
    return time.monotonic_ns() - 1_000_000


def _signal_later(fence: SyncFence, delay: float, error: bool = False) -> threading.Thread:
    def run() -> None:
        time.sleep(delay)
        (fence.signal_error if error else fence.signal)()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _ordered(timing: Timing) -> bool:
    return timing.time_on_device <= timing.time_in_driver < UINT64_MAX


# ---------------------------------------------------------------------------
# The device
# ---------------------------------------------------------------------------


def test_the_driver_is_a_1_3_device(driver) -> None:
    assert isinstance(driver, IDevice_1_3)
    assert device_level(driver) == HalVersion.V1_3


def test_capabilities_1_3(driver) -> None:
    status, capabilities = driver.get_capabilities_1_3()
    assert status == NONE
    types = [entry.type for entry in capabilities.operand_performance]
    assert types == sorted(types)
    assert OperandType.SUBGRAPH not in types
    assert OperandType.TENSOR_QUANT8_ASYMM_SIGNED in types
    figures = [entry.info for entry in capabilities.operand_performance] + [
        capabilities.relaxed_float32_to_float16_performance_scalar,
        capabilities.relaxed_float32_to_float16_performance_tensor,
        capabilities.if_performance,
        capabilities.while_performance,
    ]
    assert all(f.exec_time > 0 and f.power_usage > 0 for f in figures)
    # The signed 8-bit type is priced as the other quantized types.
    by_type = {entry.type: entry.info for entry in capabilities.operand_performance}
    signed = by_type[OperandType.TENSOR_QUANT8_ASYMM_SIGNED]
    assert signed == by_type[OperandType.TENSOR_QUANT8_ASYMM]


def test_capabilities_1_2_keep_to_the_1_2_types(driver) -> None:
    _, capabilities = driver.get_capabilities_1_2()
    types = {entry.type for entry in capabilities.operand_performance}
    assert OperandType.TENSOR_QUANT8_ASYMM_SIGNED not in types
    assert OperandType.TENSOR_QUANT8_SYMM in types


def test_supported_operations_1_3(driver) -> None:
    assert driver.get_supported_operations_1_3(binary_model()) == (NONE, [True])
    broken = binary_model()
    broken.operations[0].inputs = [0, 1, 99]  # no operand 99
    assert driver.get_supported_operations_1_3(broken) == (INVALID, [])


def test_a_signed_form_is_supported_at_1_3(driver) -> None:
    # ADD of signed 8-bit tensors (HAL 1.3): the driver computes it on its unsigned kernel
    # (tests/reference/test_ops_signed.py has the values).
    model = binary_model(
        type_=OperandType.TENSOR_QUANT8_ASYMM_SIGNED, quant=((0.5, 0), (0.5, 0), (1.0, 0))
    )
    assert driver.get_supported_operations_1_3(model) == (NONE, [True])
    callback = PreparedModelCallback()
    driver.prepare_model_1_3(model, FAST, Priority.MEDIUM, None, callback)
    notification = callback.wait(WAIT)
    assert notification.status == NONE and notification.prepared_model is not None


def test_a_form_the_catalog_lacks_is_invalid_at_1_3(driver) -> None:
    # DIV has no signed form (the HAL 1.3 text; Android 11's validator lets it through and
    # its kernel fails, the strict answer is INVALID_ARGUMENT).
    model = binary_model(
        type_=OperandType.TENSOR_QUANT8_ASYMM_SIGNED, quant=((0.5, 0), (0.5, 0), (1.0, 0))
    )
    model.operations[0].type = OperationType.DIV
    assert driver.get_supported_operations_1_3(model) == (INVALID, [])
    callback = PreparedModelCallback()
    driver.prepare_model_1_3(model, FAST, Priority.MEDIUM, None, callback)
    notification = callback.wait(WAIT)
    assert (notification.status, notification.prepared_model) == (INVALID, None)


def test_operations_the_driver_does_not_claim_are_unsupported_at_1_3() -> None:
    partial = ReferenceDriver(operations=[])
    assert partial.get_supported_operations_1_3(binary_model()) == (NONE, [False])


@pytest.mark.parametrize("priority", list(Priority))
@pytest.mark.parametrize("deadline", ["none", "far", "max"])
def test_prepare_model_1_3_succeeds(driver, priority, deadline) -> None:
    given = {"none": None, "far": _soon(60), "max": TIME_POINT_MAX}[deadline]
    prepared = _prepare(driver, binary_model(), given, priority)
    with pack_request(binary_model(), [A, A]) as packed:
        status, shapes, _ = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert (status, shapes) == (NONE, [OutputShape((2, 2), True)])
        assert np.array_equal(packed.output(0, (2, 2)), SUM)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"priority": 3}, "priority outside Priority"),
        ({"priority": -1}, "negative priority"),
        ({"preference": 7}, "preference outside ExecutionPreference"),
        ({"model": "broken"}, "invalid model"),
        ({"deadline": -5}, "a deadline that is no time point"),
    ],
)
def test_prepare_model_1_3_invalid_arguments(driver, change, why) -> None:
    model = binary_model()
    if change.get("model") == "broken":
        model.operations[0].inputs = [0, 1, 99]
    arguments = {"preference": FAST, "priority": Priority.LOW, "deadline": None}
    arguments.update({k: v for k, v in change.items() if k != "model"})
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_3(
        model, arguments["preference"], arguments["priority"], arguments["deadline"], callback
    )
    notification = callback.wait(WAIT)
    assert (launch, notification.method, notification.status) == (INVALID, "notify_1_3", INVALID)
    assert notification.prepared_model is None, why


def test_prepare_model_1_3_with_a_passed_deadline(driver) -> None:
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_3(binary_model(), FAST, Priority.MEDIUM, _past(), callback)
    notification = callback.wait(WAIT)
    assert launch == NONE  # a missed deadline never shows at launch
    assert (notification.method, notification.status) == ("notify_1_3", PERSISTENT)
    assert notification.prepared_model is None
    # The steady clock's time 0 is long past too (0 is a time, not "none").
    callback = PreparedModelCallback()
    assert driver.prepare_model_1_3(binary_model(), FAST, Priority.MEDIUM, 0, callback) == NONE
    assert callback.wait(WAIT).status == PERSISTENT


def test_the_older_prepare_methods_give_1_3_prepared_models(driver) -> None:
    callback = PreparedModelCallback()
    assert driver.prepare_model_1_2(binary_model(), FAST, callback) == NONE
    notification = callback.wait(WAIT)
    assert notification.method == "notify_1_2"
    assert isinstance(notification.prepared_model, IPreparedModel_1_3)


def _cache_files(directory: str, *names: str) -> list[int]:
    return [os.open(os.path.join(directory, n), os.O_RDWR | os.O_CREAT, 0o600) for n in names]


def test_prepare_model_from_cache_1_3(driver, prepared) -> None:
    token = bytes(range(32))
    with tempfile.TemporaryDirectory() as directory:
        model_fd, data_fd = _cache_files(directory, "model", "data")
        try:
            assert (
                prepared.save_to_cache(NativeHandle([model_fd]), NativeHandle([data_fd]), token)
                == NONE
            )
        finally:
            os.close(model_fd)
            os.close(data_fd)

        def from_cache(deadline, key=token):
            fds = [os.open(os.path.join(directory, n), os.O_RDONLY) for n in ("model", "data")]
            try:
                callback = PreparedModelCallback()
                launch = driver.prepare_model_from_cache_1_3(
                    deadline, NativeHandle([fds[0]]), NativeHandle([fds[1]]), key, callback
                )
                return launch, callback.wait(WAIT)
            finally:
                for fd in fds:
                    os.close(fd)

        for deadline in (None, _soon(60), TIME_POINT_MAX):
            launch, notification = from_cache(deadline)
            assert (launch, notification.method, notification.status) == (NONE, "notify_1_3", NONE)
            assert isinstance(notification.prepared_model, IPreparedModel_1_3)
        launch, notification = from_cache(_past())
        assert (launch, notification.status, notification.prepared_model) == (
            NONE,
            PERSISTENT,
            None,
        )
        launch, notification = from_cache(None, key=b"short")
        assert (launch, notification.status) == (INVALID, INVALID)
        launch, notification = from_cache(None, key=bytes(32))  # not the token it was saved for
        assert (launch, notification.status) == (FAILURE, FAILURE)


def test_allocate_at_1_3_serves_1_3_prepared_models(driver, prepared) -> None:
    status, buffer, token = driver.allocate(BufferDesc(), [prepared], [], [BufferRole(0, 0)])
    assert status == NONE and token > 0
    buffer.release()
    assert driver.allocate(BufferDesc(), [], [], [BufferRole(0, 0)]) == (INVALID, None, 0)


# ---------------------------------------------------------------------------
# execute_1_3 and execute_synchronously_1_3
# ---------------------------------------------------------------------------


def _execute_1_3(prepared, request, measure=NO, deadline=None, loop=None):
    callback = ExecutionCallback()
    launch = prepared.execute_1_3(request, measure, deadline, loop, callback)
    notification = callback.wait(WAIT)
    assert notification.method == "notify_1_3"
    return launch, notification


@pytest.mark.parametrize("deadline", ["none", "far", "max"])
@pytest.mark.parametrize(
    "loop", [None, 0, int(LoopTimeoutDurationNs.MAXIMUM), int(LoopTimeoutDurationNs.MAXIMUM) * 10]
)
def test_execute_1_3_succeeds(prepared, deadline, loop) -> None:
    given = {"none": None, "far": _soon(60), "max": TIME_POINT_MAX}[deadline]
    with pack_request(binary_model(), [A, A]) as packed:
        launch, notification = _execute_1_3(prepared, packed.request, NO, given, loop)
        assert (launch, notification.status) == (NONE, NONE)
        assert tuple(notification.output_shapes) == (OutputShape((2, 2), True),)
        assert notification.timing == NO_TIMING
        assert np.array_equal(packed.output(0, (2, 2)), SUM)
    with pack_request(binary_model(), [A, A]) as packed:
        answer = prepared.execute_synchronously_1_3(packed.request, NO, given, loop)
        assert answer == (NONE, [OutputShape((2, 2), True)], NO_TIMING)
        assert np.array_equal(packed.output(0, (2, 2)), SUM)


def test_execute_1_3_measures_when_asked(prepared) -> None:
    with pack_request(binary_model(), [A, A]) as packed:
        _, notification = _execute_1_3(prepared, packed.request, YES)
        assert notification.status == NONE and _ordered(notification.timing)
        status, _, timing = prepared.execute_synchronously_1_3(packed.request, YES, None, None)
        assert status == NONE and _ordered(timing)


def test_execute_1_3_invalid_request(prepared) -> None:
    with pack_request(binary_model(), [A, A]) as packed:
        packed.request.inputs.pop()  # one input too few
        launch, notification = _execute_1_3(prepared, packed.request)
        assert (launch, notification.status) == (INVALID, INVALID)
        assert (tuple(notification.output_shapes), notification.timing) == ((), NO_TIMING)
        answer = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert answer == (INVALID, [], NO_TIMING)


@pytest.mark.parametrize(
    ("measure", "deadline", "loop"),
    [(2, None, None), (NO, -1, None), (NO, None, -1), (NO, "soon", None), (NO, None, 1.5)],
)
def test_execute_1_3_malformed_arguments(prepared, measure, deadline, loop) -> None:
    with pack_request(binary_model(), [A, A]) as packed:
        launch, notification = _execute_1_3(prepared, packed.request, measure, deadline, loop)
        assert (launch, notification.status) == (INVALID, INVALID)
        answer = prepared.execute_synchronously_1_3(packed.request, measure, deadline, loop)
        assert answer == (INVALID, [], NO_TIMING)


def test_execute_1_3_with_a_passed_deadline(prepared) -> None:
    with pack_request(binary_model(), [A, A]) as packed:
        launch, notification = _execute_1_3(prepared, packed.request, YES, _past())
        assert (launch, notification.status) == (NONE, PERSISTENT)
        assert (tuple(notification.output_shapes), notification.timing) == ((), NO_TIMING)
        assert packed.unwritten(0, 16)
        answer = prepared.execute_synchronously_1_3(packed.request, YES, 0, None)
        assert answer == (PERSISTENT, [], NO_TIMING)
        assert packed.unwritten(0, 16)


def test_a_deadline_reached_during_the_execution_is_transient(prepared, monkeypatch) -> None:
    # The deadline passes between the call's check and the first operation: the
    # executor's check before each operation stops the run.
    monkeypatch.setattr(prepared_module, "deadline_passed", lambda deadline: False)
    with pack_request(binary_model(), [A, A]) as packed:
        launch, notification = _execute_1_3(prepared, packed.request, YES, _past())
        assert (launch, notification.status) == (NONE, TRANSIENT)
        assert (tuple(notification.output_shapes), notification.timing) == ((), NO_TIMING)
        answer = prepared.execute_synchronously_1_3(packed.request, YES, _past(), None)
        assert answer == (TRANSIENT, [], NO_TIMING)
        assert packed.unwritten(0, 16)


def test_the_1_2_methods_never_give_a_1_3_status(prepared, monkeypatch) -> None:
    plan = prepared._plan
    monkeypatch.setattr(
        plan, "run", lambda *args, **kwargs: RunResult(ErrorStatus.MISSED_DEADLINE_TRANSIENT, [])
    )
    with pack_request(binary_model(), [A, A]) as packed:
        assert prepared.execute_synchronously(packed.request, NO) == (FAILURE, [], NO_TIMING)
        callback = ExecutionCallback()
        assert prepared.execute_1_2(packed.request, NO, callback) == NONE
        assert callback.wait(WAIT).status == FAILURE
        callback = ExecutionCallback()
        assert prepared.execute(packed.request, callback) == NONE
        assert callback.wait(WAIT).status == FAILURE
        # The 1.3 methods carry it.
        answer = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert answer == (TRANSIENT, [], NO_TIMING)


# ---------------------------------------------------------------------------
# execute_fenced
# ---------------------------------------------------------------------------


def _fenced(prepared, request, wait_for=(), measure=NO, deadline=None, loop=None, duration=None):
    return prepared.execute_fenced(request, list(wait_for), measure, deadline, loop, duration)


def _finished(fence: SyncFence | None, info: IFencedExecutionCallback):
    if fence is not None:
        assert fence.wait(WAIT) != FenceState.ACTIVE
    return info.get_execution_info()


def test_execute_fenced_without_fences(prepared) -> None:
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request)
        assert status == NONE and isinstance(info, IFencedExecutionCallback)
        assert _finished(fence, info) == (NONE, NO_TIMING, NO_TIMING)
        assert fence.state() == FenceState.SIGNALED
        assert np.array_equal(packed.output(0, (2, 2)), SUM)
        fence.close()


def test_execute_fenced_waits_for_fences_signalled_late(prepared) -> None:
    first, second = SyncFence(), SyncFence()
    handed = first.dup()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request, [handed, second], YES)
        assert status == NONE
        handed.close()  # the client may close what it handed over: the driver has its own
        time.sleep(0.2)
        # Nothing ran yet: the fence is active, the outcome not known, the output unwritten.
        assert fence.state() == FenceState.ACTIVE
        assert info.get_execution_info() == (FAILURE, NO_TIMING, NO_TIMING)
        assert packed.unwritten(0, 16)
        waiter = _signal_later(second, 0.3)
        # The first fence is not signalled yet: still waiting.
        assert fence.wait(0.5) == FenceState.ACTIVE
        waiter.join()
        time.sleep(0.1)
        assert fence.state() == FenceState.ACTIVE  # the first fence holds it
        assert packed.unwritten(0, 16)
        first.signal()  # through another descriptor of the same fence
        assert fence.wait(WAIT) == FenceState.SIGNALED
        assert info.get_execution_info()[0] == NONE
        assert np.array_equal(packed.output(0, (2, 2)), SUM)
    # (the request above is closed: run a fresh one, with both fences signalled late)
    first, second = SyncFence(), SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        called = time.monotonic()
        status, fence, info = _fenced(prepared, packed.request, [first, second], YES)
        assert status == NONE
        _signal_later(first, 0.1)
        _signal_later(second, 0.3)
        assert fence.wait(WAIT) == FenceState.SIGNALED
        waited = time.monotonic() - called
        status, launched, fenced = info.get_execution_info()
        assert status == NONE and _ordered(launched) and _ordered(fenced)
        # Launched counts from the call (it waited about 0.3 s), fenced from the fences.
        assert launched.time_in_driver >= 250_000
        assert fenced.time_in_driver <= launched.time_in_driver
        assert launched.time_in_driver <= waited * 1e6 + 1000
        assert np.array_equal(packed.output(0, (2, 2)), SUM)


def test_an_unsignalled_fence_is_waited_for_finitely(prepared, monkeypatch) -> None:
    monkeypatch.setattr(prepared, "fence_wait_limit", 0.2)
    never = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request, [never])
        assert status == NONE
        assert fence.wait(WAIT) == FenceState.ERROR
        assert info.get_execution_info() == (FAILURE, NO_TIMING, NO_TIMING)
        assert packed.unwritten(0, 16)


def test_a_fence_erring_after_the_call_errs_the_returned_fence(prepared) -> None:
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request, [awaited], YES)
        assert status == NONE
        _signal_later(awaited, 0.1, error=True)
        assert fence.wait(WAIT) == FenceState.ERROR
        assert info.get_execution_info() == (FAILURE, NO_TIMING, NO_TIMING)
        assert packed.unwritten(0, 16)


@pytest.mark.parametrize("kind", ["errored", "closed", "none", "not an eventfd", "not a list"])
def test_execute_fenced_refuses_a_bad_fence(prepared, kind) -> None:
    fence = SyncFence()
    if kind == "errored":
        fence.signal_error()
    elif kind == "closed":
        fence.close()
    elif kind == "none":
        fence = None
    elif kind == "not an eventfd":
        fence = SyncFence(os.open(os.devnull, os.O_RDONLY))
    with pack_request(binary_model(), [A, A]) as packed:
        wait_for = "fence" if kind == "not a list" else [fence]
        answer = prepared.execute_fenced(packed.request, wait_for, NO, None, None, None)
        assert answer == (INVALID, None, None)
        assert packed.unwritten(0, 16)


def test_execute_fenced_refuses_outputs_of_unknown_size(driver) -> None:
    dynamic = binary_model(output_dims=(0, 0))
    prepared = _prepare(driver, dynamic)
    with pack_request(dynamic, [A, A], [16]) as packed:
        assert _fenced(prepared, packed.request) == (INVALID, None, None)
        # The request may complete the dimensions.
        packed.request.outputs[0].dimensions = [2, 2]
        status, fence, info = _fenced(prepared, packed.request)
        assert status == NONE and _finished(fence, info)[0] == NONE
        assert np.array_equal(packed.output(0, (2, 2)), SUM)
    # Sync and async executions take the dynamic output as before.
    with pack_request(dynamic, [A, A], [16]) as packed:
        status, shapes, _ = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert (status, shapes) == (NONE, [OutputShape((2, 2), True)])


def test_execute_fenced_refuses_an_output_too_small(prepared) -> None:
    with pack_request(binary_model(), [A, A], [8]) as packed:
        assert _fenced(prepared, packed.request) == (INVALID, None, None)


def test_execute_fenced_invalid_request_and_arguments(prepared) -> None:
    with pack_request(binary_model(), [A, A]) as packed:
        for bad in ({"measure": 5}, {"deadline": -1}, {"loop": "x"}, {"duration": -2}):
            assert _fenced(prepared, packed.request, **bad) == (INVALID, None, None)
        packed.request.outputs.pop()
        assert _fenced(prepared, packed.request) == (INVALID, None, None)


def test_execute_fenced_with_a_passed_deadline(prepared) -> None:
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        answer = _fenced(prepared, packed.request, [awaited], YES, deadline=_past())
        assert answer == (PERSISTENT, None, None)
        assert packed.unwritten(0, 16)


@pytest.mark.parametrize("deadline", ["none", "far", "max"])
def test_execute_fenced_with_a_deadline_not_reached(prepared, deadline) -> None:
    given = {"none": None, "far": _soon(60), "max": TIME_POINT_MAX}[deadline]
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(
            prepared, packed.request, [awaited], deadline=given, duration=int(30e9)
        )
        awaited.signal()
        assert status == NONE and _finished(fence, info) == (NONE, NO_TIMING, NO_TIMING)
        assert np.array_equal(packed.output(0, (2, 2)), SUM)


def test_execute_fenced_deadline_passing_while_it_waits(prepared) -> None:
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request, [awaited], YES, _soon(0.2))
        assert status == NONE
        assert fence.wait(WAIT) == FenceState.ERROR
        assert info.get_execution_info() == (TRANSIENT, NO_TIMING, NO_TIMING)
        assert packed.unwritten(0, 16)


def test_execute_fenced_duration_counts_from_the_fences(prepared) -> None:
    # A duration of 0 leaves no time once the fences have signalled.
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request, [awaited], YES, duration=0)
        assert status == NONE
        time.sleep(0.1)
        assert fence.state() == FenceState.ACTIVE  # the duration starts at the signal
        awaited.signal()
        assert fence.wait(WAIT) == FenceState.ERROR
        assert info.get_execution_info() == (TRANSIENT, NO_TIMING, NO_TIMING)
        assert packed.unwritten(0, 16)
    # A long duration, counted from a late signal, is met.
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = _fenced(prepared, packed.request, [awaited], duration=int(30e9))
        _signal_later(awaited, 0.2)
        assert status == NONE and _finished(fence, info)[0] == NONE


def test_fenced_executions_chain(prepared) -> None:
    with (
        pack_request(binary_model(), [A, A]) as first,
        pack_request(binary_model(), [A, A]) as second,
    ):
        start = SyncFence()
        status, fence, _ = _fenced(prepared, first.request, [start])
        assert status == NONE
        status, last, info = _fenced(prepared, second.request, [fence])
        assert status == NONE
        start.signal()
        assert _finished(last, info)[0] == NONE
        assert np.array_equal(first.output(0, (2, 2)), SUM)
        assert np.array_equal(second.output(0, (2, 2)), SUM)


def test_many_waiting_fenced_executions_do_not_hold_the_device(driver, prepared) -> None:
    # Fenced executions wait on threads of their own: the device's two workers stay free.
    start = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        waiting = [_fenced(prepared, packed.request, [start]) for _ in range(4)]
        assert all(status == NONE for status, _, _ in waiting)
        launch, notification = _execute_1_3(prepared, packed.request)
        assert (launch, notification.status) == (NONE, NONE)
        start.signal()
        for _, fence, info in waiting:
            assert _finished(fence, info)[0] == NONE


# ---------------------------------------------------------------------------
# Driver-managed buffers on the 1.3 methods
# ---------------------------------------------------------------------------


def _into_token(request, token: int) -> None:
    """Output 0 moves into request pool 1, which becomes ``token``."""
    request.pools[1] = token
    request.outputs[0].location = DataLocation(1, 0, 0)


@pytest.mark.parametrize("method", ["async", "sync", "fenced"])
def test_token_pools_on_the_1_3_methods(driver, prepared, method) -> None:
    status, buffer, token = driver.allocate(
        BufferDesc(), [prepared], [BufferRole(0, 0)], [BufferRole(0, 0)]
    )
    assert status == NONE

    def run(request) -> ErrorStatus:
        if method == "async":
            return _execute_1_3(prepared, request)[1].status
        if method == "sync":
            return prepared.execute_synchronously_1_3(request, NO, None, None)[0]
        status, fence, info = _fenced(prepared, request)
        return status if status != NONE else _finished(fence, info)[0]

    with pack_request(binary_model(), [A, A]) as packed:
        _into_token(packed.request, token)
        assert run(packed.request) == NONE
        with allocate(ASHMEM, 16) as memory:
            assert buffer.copy_to(memory) == NONE
            with map_memory(memory) as mapping:
                assert mapping.read(0, 16) == SUM.tobytes()
        _into_token(packed.request, token + 1000)  # no such buffer
        assert run(packed.request) == INVALID
    # The buffer as input 0: initialised now, so the sum is (A + A) + A.
    with pack_request(binary_model(), [A, A]) as packed:
        packed.request.pools.append(token)
        packed.request.inputs[0].location = DataLocation(len(packed.request.pools) - 1, 0, 0)
        assert run(packed.request) == NONE
        assert np.array_equal(packed.output(0, (2, 2)), SUM + A)
    buffer.release()


def test_an_uninitialised_input_buffer_fails(driver, prepared) -> None:
    _, buffer, token = driver.allocate(BufferDesc(), [prepared], [BufferRole(0, 0)], [])
    with pack_request(binary_model(), [A, A]) as packed:
        packed.request.pools.append(token)
        packed.request.inputs[0].location = DataLocation(len(packed.request.pools) - 1, 0, 0)
        assert prepared.execute_synchronously_1_3(packed.request, NO, None, None)[0] == FAILURE
        assert _fenced(prepared, packed.request) == (FAILURE, None, None)
    with allocate_with(ASHMEM, A.tobytes()) as memory:
        assert buffer.copy_from(memory, []) == NONE
    buffer.release()
