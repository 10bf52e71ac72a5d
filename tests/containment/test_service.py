"""The isolation core: the channel, its encoding, proxies, the driver service and the guards."""

from __future__ import annotations

import gc
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.interfaces import IBuffer, IDevice_1_1, IMemoryDomains
from hal.levels import device_level
from hal.loader import DriverLoadError, load_driver
from hal.memory import ASHMEM, Memory, NativeHandle, allocate, map_memory
from hal.types import ErrorStatus, ExecutionPreference, HalVersion, MeasureTiming
from isolation.channel import (
    Connection,
    DriverCrashed,
    DriverTimeout,
    Opaque,
    ReceivedHandle,
    RemoteError,
    interfaces_of,
)
from isolation.proxy import DriverService, InProcessGuard, is_proxy, make_remote_proxy
from isolation.sandbox import Sandbox

TIMEOUT = 10.0


class Buffer(IBuffer):
    """A harness-free IBuffer: each method shows one way a value crosses the channel."""

    def __init__(self) -> None:
        self.released = threading.Event()

    def copy_to(self, memory):
        with map_memory(memory) as mapping:
            mapping.write(0, b"written")
        return ErrorStatus.NONE

    def copy_from(self, memory, dimensions):
        if dimensions == [0]:
            raise ValueError("zero is not a dimension")
        if dimensions == [1]:
            return object.__new__(_Stranger)
        return ErrorStatus.NONE, (3, 4.5, "text", b"raw", None, [True], {"k": 1})

    def release(self):
        self.released.set()


class _Stranger:
    def __repr__(self) -> str:
        return "<a stranger>"


@pytest.fixture
def pair():
    """Two connected Connections in this process: (near, far)."""
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    far = Connection(far_socket, "far", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    far.start()
    yield near, far
    near.close()
    far.close()


def _remote(pair, obj):
    near, far = pair
    far.send_hello(obj)
    return near.wait_hello(TIMEOUT)


def test_a_remote_object_is_a_proxy_of_its_interfaces_named_after_its_class(pair) -> None:
    proxy = _remote(pair, Buffer())
    assert is_proxy(proxy)
    assert isinstance(proxy, IBuffer)
    assert type(proxy).__name__ == "Buffer"


def test_memory_crosses_as_a_descriptor_and_writes_come_back(pair) -> None:
    proxy = _remote(pair, Buffer())
    with allocate(ASHMEM, 16) as memory:
        assert proxy.copy_to(memory) == ErrorStatus.NONE
        with map_memory(memory) as mapping:
            assert mapping.read(0, 7) == b"written"


def test_plain_values_and_hal_records_cross_unchanged(pair) -> None:
    proxy = _remote(pair, Buffer())
    with allocate(ASHMEM, 4) as memory:
        answer = proxy.copy_from(memory, [2, 2])
    assert answer == (ErrorStatus.NONE, (3, 4.5, "text", b"raw", None, [True], {"k": 1}))
    assert type(answer[0]) is ErrorStatus


def test_a_value_of_no_hal_type_arrives_as_an_opaque_stand_in(pair) -> None:
    proxy = _remote(pair, Buffer())
    with allocate(ASHMEM, 4) as memory:
        answer = proxy.copy_from(memory, [1])
    assert isinstance(answer, Opaque)
    assert repr(answer) == "<a stranger>"
    assert answer.type_name == "_Stranger"


def test_an_escaped_exception_keeps_its_type_name_message_and_traceback(pair) -> None:
    proxy = _remote(pair, Buffer())
    with allocate(ASHMEM, 4) as memory, pytest.raises(RemoteError) as caught:
        proxy.copy_from(memory, [0])
    assert type(caught.value).__name__ == "ValueError"
    assert str(caught.value) == "zero is not a dimension"
    assert "in copy_from" in caught.value.__notes__[0]


def test_a_proxy_sent_back_arrives_as_the_original_object(pair) -> None:
    near, far = pair
    original = Buffer()
    proxy = _remote(pair, original)
    near.send_hello(proxy)
    assert far.wait_hello(TIMEOUT) is original


def test_a_collected_proxy_releases_its_remote_object(pair) -> None:
    _, far = pair
    proxy = _remote(pair, Buffer())
    assert far.exported == 1
    del proxy
    gc.collect()
    other = _remote(pair, Buffer())  # any later message carries the release
    with allocate(ASHMEM, 16) as memory:
        other.copy_to(memory)
    assert far.exported == 1


def test_received_descriptors_close_with_their_handle() -> None:
    read_end, write_end = os.pipe()
    os.close(write_end)
    handle = ReceivedHandle([read_end], [], [read_end])
    del handle
    gc.collect()
    with pytest.raises(OSError):
        os.fstat(read_end)


def test_only_interface_methods_can_be_called_remotely(pair) -> None:
    near, far = pair
    far.send_hello(Buffer())
    proxy = near.wait_hello(TIMEOUT)
    target = proxy._nnhal_link.remote_id
    with pytest.raises(RemoteError, match="'__init__' is not a method of IBuffer"):
        near.call(target, "__init__", (), TIMEOUT)


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch evil-was-here",))


def _frame(body: bytes) -> bytes:
    return struct.pack("<QI", len(body), 0) + body


def test_a_pickle_that_would_run_code_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    far_socket.sendall(_frame(pickle.dumps(("hello", _Evil()))))
    assert near.wait_hello(TIMEOUT) is None
    # A pickle's first byte (0x80, the protocol marker) reads as an empty msgpack map.
    assert near.lost == "protocol violation: message has extra bytes after the message"
    assert not (tmp_path / "evil-was-here").exists()
    far_socket.close()


def test_an_oversized_frame_breaks_the_channel() -> None:
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    far_socket.sendall(struct.pack("<QI", 1 << 40, 0))
    assert near.wait_hello(TIMEOUT) is None
    assert near.lost == (
        "protocol violation: message announces a frame of 1099511627776 bytes, over the max "
        "frame size 268435456"
    )
    far_socket.close()


def test_a_call_without_an_answer_times_out() -> None:
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=0.2)
    near.start()
    with pytest.raises(DriverTimeout, match=r"driver call copy_to did not return within 0.2 s"):
        near.call(1, "copy_to", (), 0.2)
    far_socket.close()


def test_a_closed_channel_ends_waiting_calls_with_a_crash() -> None:
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    threading.Timer(0.2, far_socket.close).start()
    with pytest.raises(DriverCrashed, match="the other end closed the channel during copy_to"):
        near.call(1, "copy_to", (), TIMEOUT)


# ---------------------------------------------------------------------------
# The driver service
# ---------------------------------------------------------------------------


@pytest.fixture
def service():
    started = DriverService(None, TIMEOUT)
    yield started
    started.close()


def test_the_service_device_keeps_the_driver_level_and_interfaces(service) -> None:
    loaded = service.start()
    assert loaded.level == HalVersion.V1_3
    assert loaded.spec == "reference" and loaded.is_default
    assert device_level(loaded.device) == HalVersion.V1_3
    assert isinstance(loaded.device, IMemoryDomains)
    assert loaded.device.get_type()[0] == ErrorStatus.NONE
    assert service.pid != os.getpid()


def test_a_hal_1_0_driver_stays_1_0_behind_the_service() -> None:
    service = DriverService("faulty_drivers:Level_1_0", TIMEOUT)
    try:
        loaded = service.start()
        assert loaded.level == HalVersion.V1_0
        assert not isinstance(loaded.device, IDevice_1_1)
    finally:
        service.close()


_FAILED_START = """
import sys
from hal.loader import DriverLoadError
from isolation.proxy import DriverService
service = DriverService("no_such_module_anywhere:Factory", 30.0)
try:
    service.start()
except DriverLoadError:
    pass
print(service._workdir)
print(service.log_path)
if sys.argv[1] == "close":
    service.close()
"""


@pytest.mark.parametrize("close", ["close", "exit"])
def test_a_service_leaves_no_folder_or_empty_log_behind_closed_or_not(close: str) -> None:
    """Its working folder, and its temporary log when the driver wrote nothing, go at
    close; and also when it is never closed (a driver that failed to load ends the run
    before any close: the plugin's usage error), at the interpreter's exit."""
    done = subprocess.run(
        [sys.executable, "-c", _FAILED_START, close],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    folder, log = done.stdout.split()
    assert folder.startswith(tempfile.gettempdir()) and "nnhal-driver-" in folder
    assert log.endswith(".log") and "nnhal-driver-" in log
    assert not os.path.exists(folder)
    assert not os.path.exists(log)


def test_a_driver_that_cannot_load_gives_the_loader_message() -> None:
    with pytest.raises(DriverLoadError) as caught:
        DriverService("no_such_module_anywhere:Factory", TIMEOUT).start()
    assert str(caught.value) == (
        "--driver=no_such_module_anywhere:Factory: cannot import module "
        "'no_such_module_anywhere': no no_such_module_anywhere.py or no_such_module_anywhere/ "
        f"in the current folder ({os.getcwd()}) or on the Python path; run from the folder "
        "that holds it or add that folder to PYTHONPATH"
    )


def _prepared(device):
    callback = PreparedModelCallback()
    device.prepare_model_1_2(binary_model(), ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    return callback.wait(TIMEOUT).prepared_model


def _add(prepared) -> np.ndarray:
    """ADD of [[1, 2], [3, 4]] and itself through ``prepared``."""
    a = np.array([[1, 2], [3, 4]], np.float32)
    with pack_request(binary_model(), [a, a]) as packed:
        status, _, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
        assert status == ErrorStatus.NONE
        return packed.output(0, (2, 2))


def test_a_crash_is_recorded_and_a_restart_brings_the_device_back(service) -> None:
    loaded = service.start()
    first = service.pid
    os.kill(first, signal.SIGSEGV)
    service.process.wait(TIMEOUT)
    deadline = time.monotonic() + TIMEOUT
    while service.alive and time.monotonic() < deadline:  # until the channel notices
        time.sleep(0.01)
    assert [(f.kind, f.method, f.message) for f in service.faults] == [
        ("crash", "", "driver process died (signal 11 SIGSEGV) between calls")
    ]
    with pytest.raises(DriverCrashed) as caught:
        loaded.device.get_status()
    assert caught.value.message == "driver process died (signal 11 SIGSEGV) before get_status"
    assert service.ensure_running()
    assert service.pid != first
    assert loaded.device.get_version_string()[0] == ErrorStatus.NONE


def test_a_prepared_model_of_a_dead_service_is_prepared_again(service) -> None:
    loaded = service.start()
    prepared = _prepared(loaded.device)
    assert _add(prepared).tolist() == [[2, 4], [6, 8]]
    service.restart_now("test restart")
    with pytest.raises(DriverCrashed, match="test restart before execute_synchronously"):
        _add(prepared)  # no new service yet: the crash is what the call reports
    service.ensure_running()
    assert _add(prepared).tolist() == [[2, 4], [6, 8]]
    assert prepared._nnhal_link.connection is service.connection


def test_the_service_can_connect_to_a_socket_path(tmp_path) -> None:
    path = str(tmp_path / "service.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    listener.settimeout(TIMEOUT)
    process = subprocess.Popen([sys.executable, "-m", "isolation.service", "--socket", path])
    try:
        accepted, _ = listener.accept()
        connection = Connection(accepted, "by hand", make_remote_proxy, timeout=TIMEOUT)
        connection.start()
        status, hello = connection.wait_hello(TIMEOUT)
        assert status == "ok"
        assert hello["device"].get_version_string() == (
            ErrorStatus.NONE,
            load_driver(None).device.get_version_string()[1],
        )
        connection.close()
        assert process.wait(TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
        listener.close()


# ---------------------------------------------------------------------------
# The in-process guard
# ---------------------------------------------------------------------------


class _Slow(Buffer):
    def copy_to(self, memory):
        time.sleep(30)


def test_in_process_a_hung_call_is_abandoned_and_recorded() -> None:
    guard = InProcessGuard(0.2)
    proxy = guard._proxy(_Slow())
    with pytest.raises(DriverTimeout) as caught:
        proxy.copy_to(None)
    assert caught.value.message == (
        "driver call copy_to did not return within 0.2 s (hang); its thread was abandoned"
    )
    assert [(f.kind, f.method) for f in guard.faults] == [("timeout", "copy_to")]


def test_in_process_an_exception_reaches_the_harness_unchanged() -> None:
    proxy = InProcessGuard(TIMEOUT)._proxy(Buffer())
    with pytest.raises(ValueError, match="zero is not a dimension"):
        proxy.copy_from(None, [0])


def test_in_process_proxies_are_unwrapped_for_the_driver() -> None:
    loaded = InProcessGuard(TIMEOUT).wrap(load_driver(None))
    prepared = _prepared(loaded.device)
    assert is_proxy(prepared)
    assert type(prepared).__name__ == "ReferencePreparedModel"
    from hal.types import BufferDesc, BufferRole

    status, buffer, token = loaded.device.allocate(
        BufferDesc([]), [prepared], [BufferRole(0, 0, 1.0)], []
    )
    assert status == ErrorStatus.NONE and is_proxy(buffer) and token > 0


def test_a_descriptor_that_is_not_open_arrives_not_open_and_the_channel_survives(pair) -> None:
    proxy = _remote(pair, Buffer())
    read_end, write_end = os.pipe()
    os.close(read_end)
    os.close(write_end)
    with pytest.raises(RemoteError) as caught:
        proxy.copy_to(Memory(ASHMEM, NativeHandle([read_end]), 16))
    assert type(caught.value).__name__ == "MemoryError_"
    assert str(caught.value).endswith("is not usable: Bad file descriptor")
    with allocate(ASHMEM, 16) as memory:
        assert proxy.copy_to(memory) == ErrorStatus.NONE


def test_interfaces_of_names_the_most_derived_interfaces_and_sees_new_registrations() -> None:
    device = load_driver("reference").device
    assert interfaces_of(device) == ("IDevice_1_3", "IMemoryDomains")
    assert interfaces_of(device) == ("IDevice_1_3", "IMemoryDomains")  # kept per type
    assert interfaces_of(object()) == ()

    class Plain:
        pass

    assert interfaces_of(Plain()) == ()
    IBuffer.register(Plain)  # an ABC registration must not be hidden by the per-type answer
    assert interfaces_of(Plain()) == ("IBuffer",)


def _switches(pid: int) -> dict[int, int]:
    """Voluntary context switches so far of each thread of process ``pid``."""
    counts = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                line = next(x for x in f if x.startswith("voluntary_ctxt_switches"))
        except OSError:
            continue  # the thread ended
        counts[int(task)] = int(line.split()[1])
    return counts


def test_a_call_and_its_answer_wake_one_thread_at_each_end() -> None:
    """The harness's calling thread alone is woken for its answer (its idle reader sleeps
    on: the readers' epoll is hushed while a caller waits), and the service serves each
    call on the reader that read it, a standby reader sleeping on: about one wake-up per
    call in all. Before, the idle reader woke for every answer too, and the service's
    reader handed the reading to another thread for every call (three or more wake-ups
    per call). On a busy machine the service's standby reader takes a call now and then
    (the reader that served was not back in time), so the service's wake-ups are counted
    over all its threads."""
    service = DriverService("reference", TIMEOUT, sandbox=Sandbox("process-group"))
    device = service.start().device
    try:
        for _ in range(20):  # the service's standby reader is started by the first calls
            device.get_type()
        before_harness, before_service = _switches(os.getpid()), _switches(service.pid)
        calls = 300
        for _ in range(calls):
            device.get_type()
        harness = {t: n - before_harness.get(t, 0) for t, n in _switches(os.getpid()).items()}
        served = {t: n - before_service.get(t, 0) for t, n in _switches(service.pid).items()}
        assert sorted(harness.values())[-2] < calls // 10, harness  # only the caller woke
        assert sum(served.values()) < 2.5 * calls, served  # three or more per call before
    finally:
        service.close()
