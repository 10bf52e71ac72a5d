"""Hostile drivers: each breaks the harness's trust in one way, the rest is the reference driver.

test_isolation.py runs a slice of the suite against each of them, in both
isolation modes, and checks that the fault is caught with the right message
and that the run goes on. Faults of executions happen in
``execute_synchronously`` only (the ``sync`` paths); bursts keep the
reference behaviour, so exactly the sync items of a run fail.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading

from hal.burst import SlotCache, configure_burst
from hal.memory import Memory, map_memory
from hal.types import ErrorStatus, OutputShape, Timing
from reference_driver import ReferenceDriver
from reference_driver.prepared_model import ReferencePreparedModel

LEAK_MB = 256
"""Memory LeaksMemory keeps (and touches) per execution."""

_leaked: list[bytearray] = []


def segfault() -> None:
    """Read address 0: SIGSEGV, as a bug in a native driver would."""
    ctypes.string_at(0)


class _Hostile(ReferencePreparedModel):
    """The reference prepared model, with ``hostile_execute`` in place of
    ``execute_synchronously``; bursts run the reference execution."""

    def execute_synchronously(self, request, measure):
        return self.hostile_execute(request, measure)

    def hostile_execute(self, request, measure):
        return super().execute_synchronously(request, measure)

    def configure_execution_burst(self, callback, request_channel, result_channel):
        def reference(request, measure):
            return ReferencePreparedModel.execute_synchronously(self, request, measure)

        return configure_burst(callback, request_channel, result_channel, reference, SlotCache())


class _HostileDriver(ReferenceDriver):
    """The reference driver, whose preparations build a ``_Hostile`` prepared model, or
    the subclass a driver below names."""

    prepared_model_class = _Hostile


# -- crashes -----------------------------------------------------------------


class SegfaultInPrepare(ReferenceDriver):
    """prepare_model_1_2 dereferences a null pointer."""

    def prepare_model_1_2(self, model, preference, callback):
        segfault()


class _SegfaultingModel(_Hostile):
    def hostile_execute(self, request, measure):
        segfault()


class SegfaultInExecute(_HostileDriver):
    """execute_synchronously dereferences a null pointer."""

    prepared_model_class = _SegfaultingModel


class _ExitingModel(_Hostile):
    def hostile_execute(self, request, measure):
        os._exit(3)


class ExitInExecute(_HostileDriver):
    """execute_synchronously ends the process with os._exit(3)."""

    prepared_model_class = _ExitingModel


class _KilledModel(_Hostile):
    def hostile_execute(self, request, measure):
        os.kill(os.getpid(), signal.SIGKILL)


class KilledInExecute(_HostileDriver):
    """execute_synchronously gets its process killed (SIGKILL), as the OOM killer would."""

    prepared_model_class = _KilledModel


class _AsyncSegfaultModel(_Hostile):
    def execute_1_2(self, request, measure, callback):
        threading.Timer(0.2, segfault).start()
        return ErrorStatus.NONE


class SegfaultAfterLaunch(_HostileDriver):
    """execute_1_2 returns NONE, then its worker thread dereferences a null pointer."""

    prepared_model_class = _AsyncSegfaultModel


# -- hangs and protocol breaches ------------------------------------------------


class _HangingModel(_Hostile):
    def hostile_execute(self, request, measure):
        threading.Event().wait()


class HangInExecute(_HostileDriver):
    """execute_synchronously never returns."""

    prepared_model_class = _HangingModel


class _RaisingModel(_Hostile):
    def hostile_execute(self, request, measure):
        raise RuntimeError("hostile driver gave up")


class RaisesInExecute(_HostileDriver):
    """An exception escapes execute_synchronously."""

    prepared_model_class = _RaisingModel


class Verdict:
    """Not a HAL type: what WrongReturnType returns."""

    def __repr__(self) -> str:
        return "<Verdict: all fine>"


class _WrongTypeModel(_Hostile):
    def hostile_execute(self, request, measure):
        return Verdict()


class WrongReturnType(_HostileDriver):
    """execute_synchronously returns an object of its own instead of a tuple."""

    prepared_model_class = _WrongTypeModel


class _WrongArityModel(_Hostile):
    def hostile_execute(self, request, measure):
        status, shapes, _ = super().hostile_execute(request, measure)
        return status, shapes


class WrongArity(_HostileDriver):
    """execute_synchronously returns (status, shapes): the timing is missing."""

    prepared_model_class = _WrongArityModel


class _TwiceModel(_Hostile):
    def execute_1_2(self, request, measure, callback):
        status, shapes, timing = self.hostile_execute(request, measure)
        callback.notify_1_2(status, shapes, timing)
        callback.notify_1_2(status, shapes, timing)
        return ErrorStatus.NONE


class NotifiesTwice(_HostileDriver):
    """execute_1_2 calls its callback twice (before returning)."""

    prepared_model_class = _TwiceModel


class _SilentModel(_Hostile):
    def execute_1_2(self, request, measure, callback):
        return ErrorStatus.NONE


class NeverNotifies(_HostileDriver):
    """execute_1_2 returns NONE and never calls its callback."""

    prepared_model_class = _SilentModel


# -- bad data -------------------------------------------------------------------


class _OutsideWriter(_Hostile):
    def hostile_execute(self, request, measure):
        answer = super().hostile_execute(request, measure)
        location = request.outputs[0].location
        with map_memory(request.pools[location.pool_index]) as mapping:
            end = location.offset + location.length
            if end < mapping.size:
                mapping.write(end, bytes([mapping.read(end, 1)[0] ^ 0xFF]))
        return answer


class WritesOutsideOutputs(_HostileDriver):
    """Flips the byte right after output 0's location."""

    prepared_model_class = _OutsideWriter


class _InputWriter(_Hostile):
    def hostile_execute(self, request, measure):
        location = request.inputs[0].location
        answer = super().hostile_execute(request, measure)
        with map_memory(request.pools[location.pool_index]) as mapping:
            first = mapping.read(location.offset, 1)[0]
            mapping.write(location.offset, bytes([first ^ 0xFF]))
        return answer


class ModifiesInputs(_HostileDriver):
    """Flips the first byte of input 0 after computing."""

    prepared_model_class = _InputWriter


class _WrongShapesModel(_Hostile):
    def hostile_execute(self, request, measure):
        status, _, timing = super().hostile_execute(request, measure)
        return status, [OutputShape([7, 7, 7], True) for _ in request.outputs], timing


class WrongOutputShapes(_HostileDriver):
    """Reports every output as 7x7x7."""

    prepared_model_class = _WrongShapesModel


class _LeakingModel(_Hostile):
    def hostile_execute(self, request, measure):
        block = bytearray(LEAK_MB << 20)
        block[:: 1 << 12] = b"\x01" * len(range(0, len(block), 1 << 12))  # touch every page
        _leaked.append(block)
        return super().hostile_execute(request, measure)


class LeaksMemory(_HostileDriver):
    """Keeps LEAK_MB MB per execution, forever."""

    prepared_model_class = _LeakingModel


class _TalkingModel(_Hostile):
    def hostile_execute(self, request, measure):
        import sys

        print("backend: compiling the graph", flush=True)
        print(
            "backend: \x1b[2Jdilation not supported for SAME padding", file=sys.stderr, flush=True
        )
        return ErrorStatus.GENERAL_FAILURE, [], Timing(2**64 - 1, 2**64 - 1)


class TalksAndFails(_HostileDriver):
    """execute_synchronously says on stdout and stderr why it fails, then answers
    GENERAL_FAILURE, as a driver wrapping another runtime would."""

    prepared_model_class = _TalkingModel


class _GarbageTimingModel(_Hostile):
    def hostile_execute(self, request, measure):
        status, shapes, _ = super().hostile_execute(request, measure)
        return status, shapes, Timing(time_on_device=123456789012, time_in_driver=42)


class GarbageTiming(_HostileDriver):
    """Reports a time on device of 34 hours, and less time in the driver, measured or not."""

    prepared_model_class = _GarbageTimingModel


# -- attacks on the harness and the machine (process isolation contains them) ----------


def _target_pid() -> int:
    """The harness's pid: the test's conftest writes it into the environment the
    driver inherits, as a driver could learn it from /proc or its parent pid."""
    return int(os.environ["NNHAL_DRIVER_TEST_HARNESS_PID"])


class _SignalParentModel(_Hostile):
    signal_number = signal.SIGKILL

    def hostile_execute(self, request, measure):
        for pid in (_target_pid(), os.getppid()):
            with contextlib.suppress(OSError):
                if pid > 1:
                    os.kill(pid, self.signal_number)
        return super().hostile_execute(request, measure)


class KillsTheHarness(_HostileDriver):
    """execute_synchronously sends SIGKILL to the harness (and to its own parent)."""

    prepared_model_class = _SignalParentModel


class _StopParentModel(_SignalParentModel):
    signal_number = signal.SIGSTOP


class StopsTheHarness(_HostileDriver):
    """execute_synchronously sends SIGSTOP to the harness (and to its own parent)."""

    prepared_model_class = _StopParentModel


class _DaemonModel(_Hostile):
    def hostile_execute(self, request, measure):
        if os.fork() == 0:  # a daemon that keeps stdout and stderr open, in a new session
            os.setsid()
            os.execv("/bin/sleep", ["sleep", "600"])
        return super().hostile_execute(request, measure)


class ForksADaemon(_HostileDriver):
    """execute_synchronously leaves a daemon behind, holding its stdout and stderr.

    The daemon's environment carries NNHAL_DRIVER_TEST_MARKER, which the test looks for
    in /proc after the run."""

    prepared_model_class = _DaemonModel


class _GreedyModel(_Hostile):
    def hostile_execute(self, request, measure):
        _leaked.append(bytearray(64 << 30))  # 64 GiB at once
        return super().hostile_execute(request, measure)


class GrowsWithoutBound(_HostileDriver):
    """execute_synchronously asks for 64 GiB inside the call."""

    prepared_model_class = _GreedyModel


class _GilHangModel(_Hostile):
    def hostile_execute(self, request, measure):
        # A call into C that keeps the GIL (PyDLL does not release it): no other thread
        # of this process runs again.
        ctypes.PyDLL(None).sleep(3600)


class HangsHoldingTheGil(_HostileDriver):
    """execute_synchronously hangs in native code without releasing the GIL."""

    prepared_model_class = _GilHangModel


_hoard: list[int] = []


class _DescriptorModel(_Hostile):
    def hostile_execute(self, request, measure):
        with contextlib.suppress(OSError):
            while True:
                _hoard.append(os.open("/dev/null", os.O_RDONLY))
        while _hoard and len(_hoard) > 64:  # keep a few free to answer with
            os.close(_hoard.pop())
        return super().hostile_execute(request, measure)


class HoardsDescriptors(_HostileDriver):
    """execute_synchronously opens descriptors until the system says no."""

    prepared_model_class = _DescriptorModel


class _ScribblerModel(_Hostile):
    def hostile_execute(self, request, measure):
        print(f"working directory: {os.getcwd()}", flush=True)
        with open("inside.txt", "w") as f:  # its own folder: allowed
            f.write("mine")
        target = os.environ["NNHAL_DRIVER_TEST_OUTSIDE"]
        try:
            with open(target, "w") as f:
                f.write("written by the driver")
        except OSError as e:
            print(f"outside write refused: {e.strerror}", flush=True)
        return super().hostile_execute(request, measure)


class WritesOutsideItsFolder(_HostileDriver):
    """execute_synchronously writes into its working directory and to a path outside it."""

    prepared_model_class = _ScribblerModel


# -- answers that are costly to print, and shared memory resized ------------------


def deep_shared_list(levels: int = 40) -> list:
    """A list holding itself twice per level: tiny in memory, 2**levels items printed."""
    value: list = []
    for _ in range(levels):
        value = [value, value]
    return value


class _DeepAnswerModel(_Hostile):
    def hostile_execute(self, request, measure):
        return deep_shared_list()


class DeepAnswer(_HostileDriver):
    """execute_synchronously returns a list shared with itself 40 levels deep."""

    prepared_model_class = _DeepAnswerModel


class _RingShrinkingModel(_Hostile):
    def configure_execution_burst(self, callback, request_channel, result_channel):
        answer = super().configure_execution_burst(callback, request_channel, result_channel)
        for channel in (request_channel, result_channel):
            with contextlib.suppress(OSError):  # sealed: EPERM, and the burst goes on
                os.ftruncate(channel.handle.fds[0], 0)
        return answer


class ShrinksBurstRings(_HostileDriver):
    """Once its burst is configured, truncates both FMQ ring memfds to 0 bytes."""

    prepared_model_class = _RingShrinkingModel


class _PoolShrinkingModel(_Hostile):
    def hostile_execute(self, request, measure):
        answer = super().hostile_execute(request, measure)
        for pool in request.pools:
            if isinstance(pool, Memory) and pool.handle is not None:
                with contextlib.suppress(OSError):  # sealed memfds refuse: EPERM
                    os.ftruncate(pool.handle.fds[0], 0)
        return answer


class ShrinksRequestPools(_HostileDriver):
    """After computing, execute_synchronously truncates every request pool to 0 bytes."""

    prepared_model_class = _PoolShrinkingModel


# -- attacks on the certificate from inside the sandbox ------------------------------


def _attempt(name: str, action) -> None:
    """Run one attack and print whether the sandbox refused it (the test reads the log)."""
    try:
        result = action()
    except Exception as e:  # every refusal is an exception of some kind
        print(f"attempt {name}: refused ({type(e).__name__}: {e})", flush=True)
        return
    if result is False:
        print(f"attempt {name}: refused (nothing there)", flush=True)
    else:
        print(f"attempt {name}: SUCCEEDED ({result})", flush=True)


def _write(path: str, text: str = "forged") -> str:
    with open(path, "a") as f:
        f.write(text)
    return path


def _report_folder() -> str:
    """The report folder, found the way a driver would: from its own log's path."""
    log = os.readlink("/proc/self/fd/1")
    return os.path.dirname(os.path.dirname(log))


def _suite_file() -> str:
    """Where the installed suite's expected outputs lie, from the contract's location."""
    import hal

    return os.path.join(os.path.dirname(os.path.dirname(hal.__file__)), "conformance")


def _read_expected() -> object:
    import importlib

    module = importlib.import_module("conformance.generated.V1_0.add")
    return f"read {len(module.TESTS)} cases"


def _listing(folder: str) -> object:
    names = os.listdir(folder)
    return names if names else False


def _harness_visible() -> object:
    pid = os.environ.get("NNHAL_DRIVER_TEST_HARNESS_PID", "")
    with open(f"/proc/{pid}/environ", "rb") as f:
        return "NNHAL_DRIVER_TEST_MARKER" in f.read().decode(errors="replace") or False


def _umount_proc() -> object:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.umount2(b"/proc", 2) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return "unmounted /proc"


def _network() -> object:
    import socket

    names = [n for _, n in socket.if_nameindex() if n != "lo"]
    return names if names else False


class _SnoopModel(_Hostile):
    def hostile_execute(self, request, measure):
        report = _report_folder()
        suite = _suite_file()
        import hal

        harness_pid = os.environ.get("NNHAL_DRIVER_TEST_HARNESS_PID", "0")
        _attempt("rewrite the report", lambda: _write(os.path.join(report, "report.json")))
        _attempt("list the report folder", lambda: _listing(report))
        _attempt(
            "plant a conftest.py", lambda: _write(os.path.join(os.getcwd(), "..", "conftest.py"))
        )
        _attempt(
            "plant a conftest.py in the driver's folder",
            lambda: _write(os.path.join(os.environ["NNHAL_DRIVER_TEST_FOLDER"], "conftest.py")),
        )
        _attempt("read the expected outputs", _read_expected)
        _attempt("list the suite", lambda: _listing(suite))
        _attempt("append to the suite", lambda: _write(os.path.join(suite, "__init__.py"), "\n"))
        _attempt("append to the contract", lambda: _write(hal.__file__, "\n"))
        _attempt("unmount /proc", _umount_proc)
        _attempt("see the harness's process", _harness_visible)
        _attempt(
            "raise the harness's OOM score",
            lambda: _write(f"/proc/{harness_pid}/oom_score_adj", "1000"),
        )
        _attempt("reach a network", _network)
        shared = f"/dev/shm/nnhal-snoop-{os.environ.get('NNHAL_DRIVER_TEST_MARKER')}"
        print(f"shm: {shared} {'written' if _write(shared) else ''}", flush=True)
        print(f"environment: {' '.join(sorted(os.environ))}", flush=True)
        return super().hostile_execute(request, measure)


class ProbesItsSandbox(_HostileDriver):
    """execute_synchronously tries every way out of its sandbox a hostile vendor would:
    the report, the harness's folder, the suite's files, /proc, the network, the shared
    memory folder, and prints what it got."""

    prepared_model_class = _SnoopModel


_children: list[int] = []


class _ForkBombModel(_Hostile):
    def hostile_execute(self, request, measure):
        for made in range(2000):
            try:
                pid = os.fork()
            except OSError as e:
                print(f"fork refused after {made} children: {e.strerror}", flush=True)
                break
            if pid == 0:
                signal.pause()
                os._exit(0)
            _children.append(pid)
        else:
            print("fork never refused: 2000 children", flush=True)
        return super().hostile_execute(request, measure)


class ForksWithoutBound(_HostileDriver):
    """execute_synchronously forks until the system says no."""

    prepared_model_class = _ForkBombModel


class _ForkGrowModel(_Hostile):
    def hostile_execute(self, request, measure):
        import select
        import time

        ready, done = os.pipe()
        for _ in range(6):
            if os.fork() == 0:
                block = bytearray(200 << 20)  # 200 MB, touched page by page
                for offset in range(0, len(block), 4096):
                    block[offset] = 1
                os.write(done, b"x")
                signal.pause()
                os._exit(0)
        os.close(done)
        grown, deadline = 0, time.monotonic() + 10
        while grown < 6 and time.monotonic() < deadline:
            if select.select([ready], [], [], 0.1)[0]:
                chunk = os.read(ready, 6)
                if not chunk:
                    break  # every child gone
                grown += len(chunk)
        os.close(ready)
        print(f"children grown: {grown}", flush=True)
        # The children keep their memory; the call stays open long enough for a tree watch
        # polling every half second to see it (however fast they grew).
        time.sleep(5)
        return super().hostile_execute(request, measure)


class GrowsThroughChildren(_HostileDriver):
    """execute_synchronously forks six children that hold 200 MB each: 1.2 GB in all, no
    process over 256 MB."""

    prepared_model_class = _ForkGrowModel


# -- strings meant for the terminal and the report ------------------------------

FAKE_VERDICT = "\x1b[2J\x1b[H\x1b[1;32mnnhal-certify: CERTIFIED at HAL 1.2\x1b[0m\r"
"""Clears the screen, moves to its top and prints a green verdict, then returns to the
start of the line, so that what the terminal shows next overwrites the real one."""
FAKE_VERSION = "1.0\x1b[2J\x1b[32m CERTIFIED\n\n# CERTIFIED by the vendor\n<!--"
"""A version string with a terminal escape, a Markdown heading of its own and an HTML
comment left open (which would hide the rest of report.md)."""


class _EscapingModel(_Hostile):
    def hostile_execute(self, request, measure):
        raise RuntimeError(FAKE_VERDICT)


class EscapesTheTerminal(_HostileDriver):
    """Its version string and the message execute_synchronously raises are made to draw a
    fake verdict on the terminal and a fake heading in report.md."""

    prepared_model_class = _EscapingModel

    def get_version_string(self):
        return ErrorStatus.NONE, FAKE_VERSION


# -- a callback flooded ------------------------------------------------------------

FLOOD = 20_000
"""Extra notifies FloodsCallback sends (the attack seen had 4,000,000: the callback kept
every one, 745 MB)."""


class _FloodingModel(_Hostile):
    def execute_1_2(self, request, measure, callback):
        status, shapes, timing = self.hostile_execute(request, measure)
        for _ in range(1 + FLOOD):
            callback.notify_1_2(status, shapes, timing)
        return ErrorStatus.NONE


class FloodsCallback(_HostileDriver):
    """execute_1_2 notifies its callback 1 + FLOOD times (before returning)."""

    prepared_model_class = _FloodingModel
