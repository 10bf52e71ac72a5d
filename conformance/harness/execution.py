"""Execution paths: one way each to run a request, with the protocol checked.

A path is an execution method and a MeasureTiming value: ``async10``
(``execute``, the 1.0 method, no timing), ``async`` (``execute_1_2``),
``sync`` (``execute_synchronously``) and ``burst`` (one request packet over a
new burst, as VTS makes one per run), the last three also ``-timed``
(MeasureTiming YES). ``run`` calls the driver, waits with the run's timeout,
and fails the test with a message naming the method when the driver breaks
the calling convention (an escaped exception, a malformed return, a missing or
repeated notify, the wrong notify method, a launch status its callback
contradicts, a burst that cannot be configured, a result packet that is
malformed or never comes). ``check_timing`` and ``check_shapes`` hold the
rules every answer obeys, whatever the case.
"""

from __future__ import annotations

import threading
import time
import zlib
from dataclasses import dataclass

import pytest

from conformance.harness import items, statuses
from conformance.harness.calls import (
    as_status,
    call_driver,
    deadline_time,
    retried_once,
    wait_for,
)
from conformance.harness.cases import GeneratedTest
from conformance.harness.hangs import BREAKER, BURST_RESULT
from hal.burst import (
    DEFAULT_CHANNEL_LENGTH,
    BurstController,
    BurstError,
    BurstTimeout,
    MalformedPacket,
    pack_request_packet,
)
from hal.callbacks import ExecutionCallback
from hal.fences import MAX_WAIT, FenceState, SyncFence
from hal.interfaces import IBurstContext, IFencedExecutionCallback
from hal.levels import level as level_of
from hal.show import show
from hal.types import (
    NO_TIMING,
    TIME_POINT_MAX,
    UINT64_MAX,
    ErrorStatus,
    HalVersion,
    MeasureTiming,
    OutputShape,
    Request,
    Timing,
)
from hal.validation import UINT32_MAX

_PATH_NAMES = {
    "execute": "async10",
    "execute_1_2": "async",
    "execute_synchronously": "sync",
    "burst": "burst",
    "execute_1_3": "async13",
    "execute_synchronously_1_3": "sync13",
    "execute_fenced": "fenced",
}
"""The short name of each execution method in item ids."""
_CARRY_NOTHING = frozenset({"execute", "execute_1_2", "execute_synchronously", "burst"})
"""The 1.0-1.2 methods: no deadline, loop timeout or fence travels with them."""
SYNCHRONOUS = frozenset({"execute_synchronously", "execute_synchronously_1_3"})


@dataclass(frozen=True)
class ExecutionPath:
    """One way to run a request: a method, a MeasureTiming value, and what HAL 1.3 lets
    an execution carry besides (a deadline, a loop timeout, fences to wait for). At HAL
    1.0-1.2 those three stay unset, and the id is the method's short name with
    ``-timed`` for MeasureTiming YES, as it always was."""

    method: str
    measure: MeasureTiming
    level: HalVersion
    """The HAL level whose interface has this method."""
    deadline_ns: int | None = None
    """The deadline given, in nanoseconds after the call starts (None: none given)."""
    loop_timeout_ns: int | None = None
    """The WHILE loop budget given, in nanoseconds (None: the level's default)."""
    wait_for_fences: int = 0
    """How many sync fences the execution is to wait for before it starts."""
    loops: bool = False
    """Whether the model run holds a WHILE, whose loop budget (the 2 s default where no
    loop timeout is given) may run out: a missed deadline is then an answer it may give.
    Nothing travels with the call for it, and the id does not show it."""

    def __post_init__(self) -> None:
        carried = [
            name
            for name, value in (
                ("a deadline", self.deadline_ns),
                ("a loop timeout", self.loop_timeout_ns),
            )
            if value is not None
        ]
        if self.wait_for_fences:
            carried.append("fences to wait for")
        if carried and self.method in _CARRY_NOTHING:
            raise ValueError(
                f"{self.method} (HAL {self.level}) cannot carry {' or '.join(carried)}: "
                "only a HAL 1.3 execution method can"
            )
        if self.wait_for_fences < 0:
            raise ValueError(f"wait_for_fences={self.wait_for_fences}: a count, 0 or more")

    @property
    def timed(self) -> bool:
        """Whether the execution was given a deadline that can be missed (one before the
        steady clock's end) or a loop timeout, or its model loops (``loops``): a missed
        deadline is then an answer it may give (conformance/harness/statuses.py)."""
        limited = self.deadline_ns is not None and self.deadline_ns < TIME_POINT_MAX
        return limited or self.loop_timeout_ns is not None or self.loops

    @property
    def id(self) -> str:
        name = _PATH_NAMES.get(self.method, self.method)
        name += "-timed" if self.measure == MeasureTiming.YES else ""
        if self.deadline_ns is not None:
            name += f"-deadline{self.deadline_ns}ns"
        if self.loop_timeout_ns is not None:
            name += f"-loop{self.loop_timeout_ns}ns"
        if self.wait_for_fences:
            name += f"-fences{self.wait_for_fences}"
        return name


MISSED_DEADLINE = statuses.MISSED_DEADLINE

PATHS = (
    ExecutionPath("execute", MeasureTiming.NO, HalVersion.V1_0),
    ExecutionPath("execute_1_2", MeasureTiming.NO, HalVersion.V1_2),
    ExecutionPath("execute_1_2", MeasureTiming.YES, HalVersion.V1_2),
    ExecutionPath("execute_synchronously", MeasureTiming.NO, HalVersion.V1_2),
    ExecutionPath("execute_synchronously", MeasureTiming.YES, HalVersion.V1_2),
    ExecutionPath("burst", MeasureTiming.NO, HalVersion.V1_2),
    ExecutionPath("burst", MeasureTiming.YES, HalVersion.V1_2),
    ExecutionPath("execute_1_3", MeasureTiming.NO, HalVersion.V1_3),
    ExecutionPath("execute_1_3", MeasureTiming.YES, HalVersion.V1_3),
    ExecutionPath("execute_synchronously_1_3", MeasureTiming.NO, HalVersion.V1_3),
    ExecutionPath("execute_synchronously_1_3", MeasureTiming.YES, HalVersion.V1_3),
    ExecutionPath("execute_fenced", MeasureTiming.NO, HalVersion.V1_3),
    ExecutionPath("execute_fenced", MeasureTiming.YES, HalVersion.V1_3),
)
DEADLINE_NOW = 0
DEADLINE_SHORT = 5_000_000
"""The deadlines the quality-of-service items give, in ns after the call: now (already
reached when the driver looks), 5 ms, and no limit (``TIME_POINT_MAX``)."""
QOS_PATHS = tuple(
    ExecutionPath(method, MeasureTiming.NO, HalVersion.V1_3, deadline_ns=deadline)
    for method in ("execute_1_3", "execute_synchronously_1_3")
    for deadline in (DEADLINE_NOW, DEADLINE_SHORT, TIME_POINT_MAX)
)
"""The execution rows of the quality-of-service items (conformance/test_deadlines.py)."""
PATHS_BY_ID = {path.id: path for path in (*PATHS, *QOS_PATHS)}
DYNAMIC_PATHS = tuple(
    p
    for p in PATHS
    if p.level == HalVersion.V1_2
    or (p.level >= HalVersion.V1_3 and p.method != "execute_fenced" and not p.measure)
)
"""The paths an execution with outputs of unknown size runs on: 1.2's, and the untimed
1.3 method calls (a fenced execution refuses outputs of unknown size; the fenced tests
check that)."""
MAX_OUTPUT_RANK = 64
"""Most dimensions an output shape the driver reports may have (far more than any
operation produces), so a huge list is refused before it is looked through."""
CI_BURST_SHARE = 16
"""Under the ``ci`` profile, burst paths run on one case in this many (see ``runs_under``)."""


def burst_carries(request: Request) -> bool:
    """Whether ``request`` can travel as a burst packet: every location and dimension
    fits the packet's uint32 fields. (A request mutated beyond them only exists on the
    method-call paths; the caller leaves the burst paths out for it.)"""
    try:
        pack_request_packet(request, MeasureTiming.NO, range(len(request.pools)))
    except ValueError:
        return False
    return True


def runs_under(path: ExecutionPath, case: str, profile: str) -> bool:
    """Whether items of ``case`` on ``path`` belong to ``profile``'s run.

    Every path runs under ``full`` and ``thorough``. Under ``ci`` a burst path
    runs only on a fixed share of the cases, chosen by a stable hash of the
    case id (the same on every machine and xdist worker): a burst costs a
    thread and several thread hand-offs per execution, which on a loaded CI
    machine makes a burst item several times dearer than a synchronous one.
    The 1.3 paths run on the same share under ``ci``: they repeat, through the
    1.3 methods, what the 1.2 paths run on every case.
    """
    if profile != "ci" or (path.method != "burst" and path.level < HalVersion.V1_3):
        return True
    return zlib.crc32(case.encode()) % CI_BURST_SHARE == 0


LIFETIME_CI_SHARE = 32
"""Under ``ci``, one case in this many of Android 11's lifetime variations runs."""


def case_in_profile(test: GeneratedTest, profile: str) -> bool:
    """Whether ``profile``'s run holds the items of generated case ``test``: every case under
    ``full`` and ``thorough``; under ``ci`` every case but those of Android 11's lifetime
    variations (``GeneratedTest.lifetime_variation``, more cases than the rest of the
    corpus, each the same operation as a case that runs), of which a fixed share runs,
    chosen by a stable hash of the case id."""
    if profile != "ci" or not test.lifetime_variation:
        return True
    return zlib.crc32(test.test_id.encode()) % LIFETIME_CI_SHARE == 0


@dataclass(frozen=True)
class Execution:
    path: ExecutionPath
    status: ErrorStatus
    output_shapes: tuple[OutputShape, ...]
    timing: Timing
    wall_us: int
    """Wall time of the whole call, wait included, in microseconds."""


def run(prepared: object, request: Request, path: ExecutionPath, timeout: float) -> Execution:
    """Execute ``request`` on ``prepared`` through ``path``; protocol breaches fail the test.
    A RESOURCE_EXHAUSTED_TRANSIENT answer (1.3 paths) is retried once,
    ``statuses.RETRY_DELAY`` later; a second one ends the item unsupported."""
    return retried_once(
        lambda: _run_once(prepared, request, path, timeout),
        lambda execution: execution.status,
        path.method,
        path.timed,
    )


def _run_once(prepared: object, request: Request, path: ExecutionPath, timeout: float):
    start = time.perf_counter_ns()
    if path.method == "burst":
        status, shapes, timing = _burst(prepared, request, path, timeout)
    else:
        call = execution_call(prepared, request, path)
        result = call_driver(call[0], call[1], *call[2])
        status, shapes, timing = _answer(call, result, request, path, timeout)
    wall_us = (time.perf_counter_ns() - start) // 1000
    return Execution(path, status, shapes, timing, wall_us)


def execution_call(
    prepared: object, request: Request, path: ExecutionPath
) -> tuple[object, str, tuple] | None:
    """The call ``run`` makes on ``path`` (an asynchronous one with a new callback, its last
    argument), for ``call_many``; None for a burst (the burst controller makes its calls)."""
    if path.method == "burst":
        return None
    if path.method == "execute_synchronously":
        return prepared, path.method, (request, path.measure)
    if path.level >= HalVersion.V1_3:
        timing = (path.measure, deadline_time(path.deadline_ns), path.loop_timeout_ns)
        if path.method == "execute_synchronously_1_3":
            return prepared, path.method, (request, *timing)
        if path.method == "execute_fenced":
            fences = tuple(harness_fences(path.wait_for_fences))
            return prepared, path.method, (request, fences, *timing, None)
        return prepared, path.method, (request, *timing, ExecutionCallback())
    callback = ExecutionCallback()
    args = (request, callback) if path.method == "execute" else (request, path.measure, callback)
    return prepared, path.method, args


def executed(
    call: tuple[object, str, tuple],
    result: object,
    request: Request,
    path: ExecutionPath,
    timeout: float,
    wall_us: int,
) -> Execution:
    """``run``'s judgement of an ``execution_call`` that returned ``result`` (the callback
    waited for on an asynchronous path); ``wall_us``: the time the call took at most."""
    return Execution(path, *_answer(call, result, request, path, timeout), wall_us)


def _answer(call, result, request, path, timeout):
    """(status, output shapes, timing) of an ``execution_call`` that returned ``result``."""
    if path.method in SYNCHRONOUS:
        return _synchronous_answer(result, request, path)
    if path.method == "execute_fenced":
        return fenced_answer(call, result, path, timeout)
    return _asynchronous_answer(call[2][-1], result, request, path, timeout)


def _synchronous_answer(result, request, path):
    if not (type(result) is tuple and len(result) == 3):
        pytest.fail(
            f"{path.method} returned {show(result)}; expected (ErrorStatus, output shapes, Timing)",
            pytrace=False,
        )
    status = as_status(result[0], path.method, timed=path.timed)
    outputs = len(request.outputs)
    return status, _shapes(result[1], path.method, outputs), _timing(result[2], path.method)


def _asynchronous_answer(callback, result, request, path, timeout):
    launch = as_status(result, path.method, timed=path.timed)
    if launch in MISSED_DEADLINE:
        pytest.fail(
            f"{path.method} returned launch status {launch.name}; a missed deadline is "
            "reported through the callback, the launch status of a valid request is NONE",
            pytrace=False,
        )
    what = f"{path.method} (launch status {launch.name})"
    notification = wait_for(callback, timeout, what, path.method)
    problems = list(callback.violations)
    expected = level_of(path.level).execution_notify[path.method]
    if notification.method != expected:
        problems.append(f"answered through {notification.method}, expected {expected}")
    status = as_status(notification.status, f"{path.method} callback", timed=path.timed)
    if launch != ErrorStatus.NONE and status != launch:
        problems.append(f"launch status {launch.name} but callback status {status.name}")
    if problems:
        pytest.fail(f"{path.method}: " + "; ".join(problems), pytrace=False)
    where = f"{path.method} callback"
    shapes = _shapes(notification.output_shapes, where, len(request.outputs))
    return status, shapes, _timing(notification.timing, where)


FENCE_DELAY = 0.02
"""Seconds after the call at which the harness signals the fences it made an execution
wait for (``harness_fences``): late enough that the driver must really wait."""


def harness_fences(count: int, delay: float = FENCE_DELAY) -> list[SyncFence]:
    """``count`` new fences the harness signals ``delay`` seconds from now (from a timer
    thread), for an ``execute_fenced`` to wait for."""
    fences = [SyncFence() for _ in range(count)]
    if fences:
        timer = threading.Timer(delay, lambda: [fence.signal() for fence in fences])
        timer.daemon = True
        timer.start()
    return fences


def fenced_answer(call, result, path: ExecutionPath, timeout: float, *, chain: bool = True):
    """(status, output shapes, timing) of an ``execute_fenced`` call that returned
    ``result``: the answer's form, then (on NONE) the returned fence waited for and the
    callback's ``get_execution_info``, each checked against the other.

    As VTS does, when the driver returns a fence, a second execution of the same request
    waiting on that fence must succeed too; its outcome is the answer (``chain``). The
    status and ``timing_launched`` are the answer's; output shapes there are none.
    """
    method = path.method
    if not (type(result) is tuple and len(result) == 3):
        pytest.fail(
            f"{method} returned {show(result)}; expected (ErrorStatus, SyncFence or None, "
            "IFencedExecutionCallback or None)",
            pytrace=False,
        )
    status = as_status(result[0], method, timed=path.timed)
    fence, callback = result[1], result[2]
    if status != ErrorStatus.NONE:
        given = (("a fence", fence), ("a callback", callback))
        extra = [what for what, value in given if value is not None]  # no driver __bool__
        if extra:
            pytest.fail(
                f"{method} answered {status.name} with {' and '.join(extra)}; an error comes "
                "with neither",
                pytrace=False,
            )
        return status, (), NO_TIMING
    if fence is not None and type(fence) is not SyncFence:
        pytest.fail(
            f"{method} answered NONE with fence {show(fence)}; expected a SyncFence or None",
            pytrace=False,
        )
    if not issubclass(type(callback), IFencedExecutionCallback):
        pytest.fail(
            f"{method} answered NONE with callback {show(callback)}; expected an "
            "IFencedExecutionCallback",
            pytrace=False,
        )
    if fence is not None and chain:
        second = (call[0], method, (call[2][0], (fence,), *call[2][2:]))
        answer = call_driver(second[0], method, *second[2])
        _fenced_info(fence, callback, path, timeout)  # the first execution's outcome
        return fenced_answer(second, answer, path, timeout, chain=False)
    return _fenced_info(fence, callback, path, timeout)


def _fenced_info(fence: SyncFence | None, callback, path: ExecutionPath, timeout: float):
    method = path.method
    state = FenceState.SIGNALED
    if fence is not None:
        state = fence.wait(min(timeout, MAX_WAIT))
        if state == FenceState.ACTIVE:
            message = f"{method}: the fence it returned did not signal within {timeout:g} s"
            BREAKER.record(method, message)
            items.timeout(message)
    info = call_driver(callback, "get_execution_info")
    where = f"{method} get_execution_info"
    if not (type(info) is tuple and len(info) == 3):
        pytest.fail(
            f"{where} returned {show(info)}; expected (ErrorStatus, Timing, Timing)", pytrace=False
        )
    status = as_status(info[0], where, timed=path.timed)
    launched = _timing(info[1], f"{where} (timing_launched)")
    fenced = _timing(info[2], f"{where} (timing_fenced)")
    if state == FenceState.ERROR and status == ErrorStatus.NONE:
        pytest.fail(
            f"{method}: the fence signalled an error but {where} answered NONE", pytrace=False
        )
    if state == FenceState.SIGNALED and status != ErrorStatus.NONE:
        pytest.fail(
            f"{method}: the fence signalled success but {where} answered {status.name}",
            pytrace=False,
        )
    if (path.measure == MeasureTiming.NO or status != ErrorStatus.NONE) and fenced != NO_TIMING:
        pytest.fail(
            f"{where} (MeasureTiming {path.measure.name}, status {status.name}): timing_fenced "
            f"must be UINT64_MAX in both fields, got {show(fenced)}",
            pytrace=False,
        )
    return status, (), launched


def open_burst(
    prepared: object,
    request_length: int = DEFAULT_CHANNEL_LENGTH,
    result_length: int = DEFAULT_CHANNEL_LENGTH,
    recycle_slots: bool = False,
) -> BurstController:
    """A configured burst on ``prepared`` (close it, or use it in a ``with`` block);
    with ``recycle_slots`` its client gives freed slot numbers to new memories, as
    Android's does.

    ``configure_execution_burst`` must answer (NONE, an IBurstContext): VTS has
    no fallback, so anything else fails the test.
    """
    controller = BurstController(request_length, result_length, recycle_slots)
    try:
        answer = call_driver(
            prepared,
            "configure_execution_burst",
            controller.callback,
            controller.requests.descriptor,
            controller.results.descriptor,
        )
        if not (type(answer) is tuple and len(answer) == 2):
            pytest.fail(
                f"configure_execution_burst returned {show(answer)}; expected (ErrorStatus, "
                "IBurstContext)",
                pytrace=False,
            )
        status = as_status(answer[0], "configure_execution_burst")
        if status != ErrorStatus.NONE or not issubclass(type(answer[1]), IBurstContext):
            pytest.fail(
                f"configure_execution_burst answered {status.name} with {show(answer[1])}; it must "
                "succeed with an IBurstContext (bursts are mandatory at HAL 1.2)",
                pytrace=False,
            )
    except BaseException:
        controller.close()
        raise
    controller.context = answer[1]
    return controller


def burst_compute(controller: BurstController, request: Request, measure, timeout: float):
    """One execution over a configured burst; a hang or a malformed result fails the test
    (a hang counts for the hang breaker, which may refuse the execution at once)."""
    BREAKER.admit(BURST_RESULT)
    try:
        return controller.compute(request, measure, timeout)
    except MalformedPacket as error:
        message, kind = f"the driver's result packet is malformed: {error}", items.FAILED
    except BurstTimeout as error:
        message, kind = str(error), items.TIMEOUT
    except BurstError as error:
        message, kind = str(error), items.FAILED
    message = f"burst (MeasureTiming {MeasureTiming(measure).name}): {message}"
    if kind == items.TIMEOUT:
        BREAKER.record(BURST_RESULT, message)
    items.fail(message, kind=kind)


def _burst(prepared, request, path, timeout):
    with open_burst(prepared) as controller:
        result = burst_compute(controller, request, path.measure, timeout)
    shapes = _shapes(result.output_shapes, "burst result", len(request.outputs))
    return result.status, shapes, _timing(result.timing, "burst result")


def _shapes(value: object, where: str, outputs: int) -> tuple[OutputShape, ...]:
    """The driver's output shapes, each checked down to its fields' exact types.

    Their count is checked against the request's outputs before any is looked at,
    so a list far longer than the model's outputs is never iterated.
    """
    if type(value) is not list and type(value) is not tuple:
        pytest.fail(
            f"{where} gave output shapes {show(value)}; expected a list of OutputShape",
            pytrace=False,
        )
    if len(value) > outputs:
        pytest.fail(
            f"{where} gave {len(value)} output shapes for {outputs} outputs; "
            "at most one per output",
            pytrace=False,
        )
    for k, shape in enumerate(value):
        problem = _shape_problem(shape)
        if problem:
            pytest.fail(f"{where} gave output shape {k} {show(shape)}: {problem}", pytrace=False)
    return tuple(value)


def _shape_problem(shape: object) -> str:
    if type(shape) is not OutputShape:
        return "expected an OutputShape"
    dimensions = shape.dimensions
    if type(dimensions) is not list and type(dimensions) is not tuple:
        return "its dimensions are not a list"
    if len(dimensions) > MAX_OUTPUT_RANK:
        return f"{len(dimensions)} dimensions, more than {MAX_OUTPUT_RANK}"
    for d in dimensions:
        if type(d) is not int or not 0 <= d <= UINT32_MAX:
            return f"dimension {show(d)} is not a uint32"
    if type(shape.is_sufficient) is not bool:
        return "is_sufficient is not a bool"
    return ""


def _timing(value: object, where: str) -> Timing:
    """The driver's Timing, both fields exact ints in 0..UINT64_MAX."""
    if type(value) is not Timing:
        pytest.fail(f"{where} gave timing {show(value)}; expected a Timing", pytrace=False)
    for name in ("time_on_device", "time_in_driver"):
        field = getattr(value, name)
        if type(field) is not int or not 0 <= field <= UINT64_MAX:
            pytest.fail(f"{where} gave timing {show(value)}: {name} is not a uint64", pytrace=False)
    return value


def check_timing(execution: Execution) -> None:
    """UINT64_MAX unless measured and NONE; measured values ordered and within the call."""
    timing, path = execution.timing, execution.path
    where = f"{path.method} (MeasureTiming {path.measure.name}, status {execution.status.name})"
    if path.measure == MeasureTiming.NO or execution.status != ErrorStatus.NONE:
        assert timing == Timing(UINT64_MAX, UINT64_MAX), (
            f"{where}: timing must be UINT64_MAX in both fields, got {show(timing)}"
        )
        return
    on_device, in_driver = timing.time_on_device, timing.time_in_driver
    if on_device != UINT64_MAX and in_driver != UINT64_MAX:
        assert on_device <= in_driver, (
            f"{where}: time_on_device {on_device} us exceeds time_in_driver {in_driver} us"
        )
    for name, value in (("time_on_device", on_device), ("time_in_driver", in_driver)):
        if value != UINT64_MAX:
            assert 0 <= value <= execution.wall_us, (
                f"{where}: {name} {value} us is not within the call's wall time "
                f"{execution.wall_us} us"
            )


def check_shapes(execution: Execution, outputs: int, dynamic: bool) -> None:
    """Shapes: one per output when dynamic or insufficient, none with any other error."""
    status, shapes = execution.status, execution.output_shapes
    where = f"{execution.path.method} (status {status.name})"
    if status == ErrorStatus.OUTPUT_INSUFFICIENT_SIZE or (dynamic and status == ErrorStatus.NONE):
        assert len(shapes) == outputs, (
            f"{where}: {len(shapes)} output shapes for {outputs} outputs; one per output is required"
        )
    elif status == ErrorStatus.NONE:
        assert len(shapes) in (0, outputs), (
            f"{where}: {len(shapes)} output shapes for {outputs} outputs; none or one per output"
        )
    else:
        assert not shapes, (
            f"{where}: an error status must come with no output shapes, got {show(shapes)}"
        )
