"""HAL 1.3 across the process boundary: the reference driver in its own process
(``DriverService``) answers the 1.3 methods, sync fences cross as passed descriptors
both ways (``wait_for`` in, the returned fence out), the fenced-execution callback
comes back as a proxy, and no wait on the service is endless.

ADD of A = [[0, 1], [2, 3]] with itself is [[0, 2], [4, 6]].
"""

from __future__ import annotations

import os
import re
import socket
import struct
import threading
import time

import msgpack
import numpy as np
import pytest

from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.fences import FenceState, SyncFence
from hal.interfaces import IDevice_1_3, IFencedExecutionCallback, IPreparedModel_1_3
from hal.levels import device_level
from hal.loader import LoadedDriver
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
    MeasureTiming,
    OutputShape,
    Priority,
)
from isolation import codec
from isolation.channel import Connection, DriverCrashed, MalformedAnswer
from isolation.proxy import DriverService, is_proxy, make_remote_proxy

TIMEOUT = 10.0
NONE = ErrorStatus.NONE
INVALID = ErrorStatus.INVALID_ARGUMENT
FAILURE = ErrorStatus.GENERAL_FAILURE
PERSISTENT = ErrorStatus.MISSED_DEADLINE_PERSISTENT
FAST = ExecutionPreference.FAST_SINGLE_ANSWER
YES, NO = MeasureTiming.YES, MeasureTiming.NO
A = np.arange(4, dtype=np.float32).reshape(2, 2)
SUM = A + A


_DEVICES: dict[int, LoadedDriver] = {}
"""What each service started here loaded (its device proxy outlives the restarts)."""


@pytest.fixture(scope="module")
def service():
    started = DriverService(None, TIMEOUT)
    _DEVICES[id(started)] = started.start()
    yield started
    started.close()
    _DEVICES.pop(id(started))


def _device(service):
    service.ensure_running()
    return _DEVICES[id(service)].device


def _prepare(device, deadline=None):
    callback = PreparedModelCallback()
    launch = device.prepare_model_1_3(binary_model(), FAST, Priority.HIGH, deadline, callback)
    notification = callback.wait(TIMEOUT)
    return launch, notification


def _prepared(service):
    launch, notification = _prepare(_device(service))
    assert (launch, notification.method, notification.status) == (NONE, "notify_1_3", NONE)
    return notification.prepared_model


def _signal_later(fence: SyncFence, delay: float, error: bool = False) -> None:
    def run() -> None:
        time.sleep(delay)
        (fence.signal_error if error else fence.signal)()

    threading.Thread(target=run, daemon=True).start()


def _is_eventfd(fd: int) -> bool:
    return os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:[eventfd]"


def test_the_service_device_is_a_1_3_device(service) -> None:
    device = _device(service)
    assert _DEVICES[id(service)].level == HalVersion.V1_3
    assert isinstance(device, IDevice_1_3) and is_proxy(device)
    assert device_level(device) == HalVersion.V1_3
    status, capabilities = device.get_capabilities_1_3()
    assert status == NONE and capabilities.if_performance.exec_time > 0
    assert device.get_supported_operations_1_3(binary_model()) == (NONE, [True])


def test_prepare_model_1_3_crosses_with_its_deadline(service) -> None:
    device = _device(service)
    for deadline in (None, time.monotonic_ns() + int(60e9), TIME_POINT_MAX):
        launch, notification = _prepare(device, deadline)
        assert (launch, notification.method, notification.status) == (NONE, "notify_1_3", NONE)
        assert isinstance(notification.prepared_model, IPreparedModel_1_3)
        assert is_proxy(notification.prepared_model)
    launch, notification = _prepare(device, time.monotonic_ns() - 1)
    assert (launch, notification.status, notification.prepared_model) == (NONE, PERSISTENT, None)
    callback = PreparedModelCallback()
    assert device.prepare_model_1_3(binary_model(), FAST, 9, None, callback) == INVALID
    assert callback.wait(TIMEOUT).status == INVALID


def test_execute_1_3_and_execute_synchronously_1_3_cross(service) -> None:
    prepared = _prepared(service)
    with pack_request(binary_model(), [A, A]) as packed:
        callback = ExecutionCallback()
        deadline = time.monotonic_ns() + int(60e9)
        assert prepared.execute_1_3(packed.request, YES, deadline, None, callback) == NONE
        notification = callback.wait(TIMEOUT)
        assert (notification.method, notification.status) == ("notify_1_3", NONE)
        timing = notification.timing
        assert timing.time_on_device <= timing.time_in_driver < UINT64_MAX
        assert np.array_equal(packed.output(0, (2, 2)), SUM)
        answer = prepared.execute_synchronously_1_3(packed.request, NO, None, 20 * 10**9)
        assert answer == (NONE, [OutputShape((2, 2), True)], NO_TIMING)
        callback = ExecutionCallback()
        assert prepared.execute_1_3(packed.request, NO, 0, None, callback) == NONE
        assert callback.wait(TIMEOUT).status == PERSISTENT
        assert prepared.execute_synchronously_1_3(packed.request, NO, 0, None)[0] == PERSISTENT


def test_fences_cross_both_ways(service) -> None:
    prepared = _prepared(service)
    first, second = SyncFence(), SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        called = time.monotonic()
        status, fence, info = prepared.execute_fenced(
            packed.request, [first, second], YES, None, None, None
        )
        assert status == NONE
        # The returned fence is a descriptor of our own, of the driver's eventfd.
        assert isinstance(fence, SyncFence) and _is_eventfd(fence.fileno())
        assert fence.fileno() not in (first.fileno(), second.fileno())
        assert isinstance(info, IFencedExecutionCallback) and is_proxy(info)
        time.sleep(0.2)
        assert fence.state() == FenceState.ACTIVE  # the service waits for our fences
        assert info.get_execution_info() == (FAILURE, NO_TIMING, NO_TIMING)
        assert packed.unwritten(0, 16)
        _signal_later(first, 0.05)
        _signal_later(second, 0.2)
        assert fence.wait(TIMEOUT) == FenceState.SIGNALED
        elapsed_us = (time.monotonic() - called) * 1e6
        status, launched, fenced = info.get_execution_info()
        assert status == NONE
        assert launched.time_on_device <= launched.time_in_driver <= elapsed_us + 1000
        assert fenced.time_on_device <= fenced.time_in_driver <= launched.time_in_driver
        assert launched.time_in_driver >= 350_000  # from the call: 0.2 s + 0.2 s of waiting
        assert np.array_equal(packed.output(0, (2, 2)), SUM)
        # Our fences are still ours, and still signalled.
        assert first.state() == second.state() == FenceState.SIGNALED
        fence.close()


def test_a_returned_fence_chains_into_the_next_execution(service) -> None:
    prepared = _prepared(service)
    start = SyncFence()
    with pack_request(binary_model(), [A, A]) as one, pack_request(binary_model(), [A, A]) as two:
        status, fence, _ = prepared.execute_fenced(one.request, [start], NO, None, None, None)
        assert status == NONE
        # The service's own fence goes back to it as a descriptor of ours.
        status, last, info = prepared.execute_fenced(two.request, [fence], NO, None, None, None)
        assert status == NONE
        start.signal()
        assert last.wait(TIMEOUT) == FenceState.SIGNALED
        assert info.get_execution_info() == (NONE, NO_TIMING, NO_TIMING)
        assert np.array_equal(two.output(0, (2, 2)), SUM)


@pytest.mark.parametrize("kind", ["errored", "closed", "none"])
def test_a_bad_fence_is_refused_across_the_boundary(service, kind) -> None:
    prepared = _prepared(service)
    fence: SyncFence | None = SyncFence()
    if kind == "errored":
        fence.signal_error()
    elif kind == "closed":
        fence.close()  # crosses as no descriptor, arrives closed
    else:
        fence = None
    with pack_request(binary_model(), [A, A]) as packed:
        answer = prepared.execute_fenced(packed.request, [fence], NO, None, None, None)
        assert answer == (INVALID, None, None)


def test_a_fence_erring_after_the_call_errs_the_returned_fence(service) -> None:
    prepared = _prepared(service)
    awaited = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, info = prepared.execute_fenced(
            packed.request, [awaited], YES, None, None, None
        )
        assert status == NONE
        _signal_later(awaited, 0.1, error=True)
        assert fence.wait(TIMEOUT) == FenceState.ERROR
        assert info.get_execution_info() == (FAILURE, NO_TIMING, NO_TIMING)


def test_unknown_output_dimensions_are_refused_across_the_boundary(service) -> None:
    device = _device(service)
    callback = PreparedModelCallback()
    dynamic = binary_model(output_dims=(0, 0))
    device.prepare_model_1_3(dynamic, FAST, Priority.LOW, None, callback)
    prepared = callback.wait(TIMEOUT).prepared_model
    with pack_request(dynamic, [A, A], [16]) as packed:
        assert prepared.execute_fenced(packed.request, [], NO, None, None, None) == (
            INVALID,
            None,
            None,
        )


def test_token_pools_cross_on_the_fenced_path(service) -> None:
    device = _device(service)
    prepared = _prepared(service)
    status, buffer, token = device.allocate(BufferDesc(), [prepared], [], [BufferRole(0, 0)])
    assert status == NONE and token > 0
    with pack_request(binary_model(), [A, A]) as packed:
        packed.request.pools[1] = token
        packed.request.outputs[0].location = DataLocation(1, 0, 0)
        status, fence, info = prepared.execute_fenced(packed.request, [], NO, None, None, None)
        assert status == NONE and fence.wait(TIMEOUT) == FenceState.SIGNALED
        assert info.get_execution_info()[0] == NONE
    buffer.release()


def test_a_dead_service_errs_the_fences_it_handed_out(service) -> None:
    prepared = _prepared(service)
    never = SyncFence()
    with pack_request(binary_model(), [A, A]) as packed:
        status, fence, _ = prepared.execute_fenced(packed.request, [never], NO, None, None, None)
        assert status == NONE
        service.restart_now("test restart")
        started = time.monotonic()
        assert fence.wait(TIMEOUT) == FenceState.ERROR  # at once, not after the timeout
        assert time.monotonic() - started < TIMEOUT / 2
    service.ensure_running()


def test_a_model_prepared_with_a_deadline_is_prepared_again_without_it(service) -> None:
    device = _device(service)
    _, notification = _prepare(device, time.monotonic_ns() + int(0.5e9))
    assert notification.status == NONE
    prepared = notification.prepared_model
    time.sleep(0.6)  # the deadline has passed
    service.restart_now("test restart")
    with pytest.raises(DriverCrashed):
        prepared.execute_synchronously_1_3(None, NO, None, None)
    service.ensure_running()
    with pack_request(binary_model(), [A, A]) as packed:
        answer = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert answer == (NONE, [OutputShape((2, 2), True)], NO_TIMING)


# ---------------------------------------------------------------------------
# The codec's side of fences
# ---------------------------------------------------------------------------


def test_a_fence_round_trips_through_the_codec_as_one_descriptor() -> None:
    fence = SyncFence()
    body, fds = codec.encode(codec.Hello([fence, fence]))
    assert fds == [fence.fileno()]  # met twice, sent once
    message = codec.Decoder([os.dup(fd) for fd in fds], None).decode(body)
    arrived = message.value
    assert arrived[0] is arrived[1] and arrived[0].fileno() != fence.fileno()
    fence.signal()
    assert arrived[0].state() == FenceState.SIGNALED  # one fence, two descriptors
    arrived[0].close()
    closed = SyncFence()
    closed.close()
    foreign = SyncFence(os.open(os.devnull, os.O_RDONLY))
    body, fds = codec.encode(codec.Hello([closed, foreign]))
    assert fds == []  # neither has an eventfd to send
    arrived = codec.Decoder([], None).decode(body).value
    assert all(isinstance(f, SyncFence) and f.closed for f in arrived)
    foreign.close()


@pytest.mark.parametrize(
    ("node", "rule"),
    [
        ([codec.FENCE, 0], "holds a fence naming a descriptor the frame did not carry"),
        ([codec.FENCE, "0"], "holds a fence whose slot is not an integer"),
        ([codec.FENCE], "holds a malformed fence"),
    ],
)
def test_a_malformed_fence_is_refused(node, rule) -> None:
    body = msgpack.packb([codec.ENVELOPE_BASE + 4, node])  # a Hello
    with pytest.raises(codec.MalformedMessage, match=re.escape(rule)):
        codec.Decoder([], None).decode(body)


class _Supervisor:
    """Stands for a DriverService: its presence makes the connection the harness's."""


def test_a_driver_answering_a_pipe_as_a_fence_breaks_the_channel() -> None:
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT, owner=_Supervisor())
    near.start()
    read_end, write_end = os.pipe()

    def attack() -> None:
        far_socket.recv(1 << 16)  # the call's frame
        body = msgpack.packb([codec.ENVELOPE_BASE + 1, 1, [codec.FENCE, 0]])  # Return
        header = struct.Struct("<QI").pack(len(body), 1)
        socket.send_fds(far_socket, [header + body], [read_end])

    thread = threading.Thread(target=attack, daemon=True)
    thread.start()
    try:
        with pytest.raises(MalformedAnswer) as caught:
            near.call(1, "get_type", (), TIMEOUT)
        assert re.search(
            r"holds a fence whose descriptor is not an eventfd \(pipe:", caught.value.message
        )
    finally:
        thread.join(TIMEOUT)
        near.close()
        far_socket.close()
        os.close(read_end)
        os.close(write_end)
