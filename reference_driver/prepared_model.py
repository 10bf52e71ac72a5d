"""The reference driver's prepared model: validates each request, runs the plan.

It is an ``IPreparedModel_1_3`` whatever level prepared it (as Android 11's sample
driver's is). The 1.3 methods take a deadline and a loop timeout, as Android 11's
sample driver treats them:

* a deadline already passed when the call comes is MISSED_DEADLINE_PERSISTENT,
  answered through the task's own channel: ``execute_1_3`` launches with NONE and
  notifies it, ``execute_synchronously_1_3`` returns it, ``execute_fenced`` answers
  it at once with no fence and no callback;
* a deadline reached while the execution runs (checked before every operation) is
  MISSED_DEADLINE_TRANSIENT;
* a loop timeout of None is ``LoopTimeoutDurationNs.DEFAULT``, one above ``MAXIMUM``
  is taken as ``MAXIMUM``; a deadline or duration at or past ``TIME_POINT_MAX``
  means no limit. A value that is no ``OptionalTimePoint`` or
  ``OptionalTimeoutDuration`` at all (a negative number, a string) is
  INVALID_ARGUMENT.

The 1.0-1.2 methods never see a 1.3 status: one of the four 1.3 statuses there
would be GENERAL_FAILURE (``_status_1_0``), as Android 11 converts them.

``execute_fenced`` answers at once: it validates the request (every output fully
specified, every memory output long enough), its fences (each an open eventfd
``SyncFence``, none in error) and its token pools, then waits for the fences and
runs on a thread of its own (so a fence the client never signals holds no worker
of the device's pool), at most ``fence_wait_limit`` seconds and never past the
deadline. The fence it returns signals once the outputs are written, or goes to
the error state when an awaited fence errs, the deadline or ``duration`` (counted
from the moment every awaited fence had signalled) passes, or the execution fails;
``ReferenceFencedCallback`` then holds the outcome.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor

from hal.fences import FenceState, SyncFence
from hal.interfaces import (
    IBurstCallback,
    IBurstContext,
    IExecutionCallback,
    IFencedExecutionCallback,
    IPreparedModel_1_3,
)
from hal.memory import NativeHandle
from hal.types import (
    NO_TIMING,
    STATUSES_1_0,
    TIME_POINT_MAX,
    ErrorStatus,
    HalVersion,
    LoopTimeoutDurationNs,
    MeasureTiming,
    Model,
    OptionalTimeoutDuration,
    OptionalTimePoint,
    OutputShape,
    Request,
    Timing,
    element_byte_size,
    is_optional_nanoseconds,
    is_tensor_type,
)
from hal.validation import RequestValidator
from reference_driver import burst
from reference_driver.buffers import Binding, BufferRegistry, combine
from reference_driver.cache import CacheArgumentError, check_handle, check_token, seal, write_all
from reference_driver.executor import Plan, RunResult
from reference_driver.guard import LOG, async_hal_method, guarded, hal_method

FENCE_WAIT_LIMIT = 300.0
"""Seconds a fenced execution waits at most for the fences it was given (when no
deadline comes sooner): every wait of the driver is finite. Past it, the execution
fails (GENERAL_FAILURE, its fence in error)."""

_FENCED_STATUSES = frozenset(
    {
        ErrorStatus.NONE,
        ErrorStatus.DEVICE_UNAVAILABLE,
        ErrorStatus.GENERAL_FAILURE,
        ErrorStatus.MISSED_DEADLINE_TRANSIENT,
        ErrorStatus.MISSED_DEADLINE_PERSISTENT,
        ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT,
        ErrorStatus.RESOURCE_EXHAUSTED_PERSISTENT,
    }
)
"""What ``get_execution_info`` may report (no OUTPUT_INSUFFICIENT_SIZE, no
INVALID_ARGUMENT: those are answered at the call)."""


def _sync_failure() -> tuple[ErrorStatus, list[OutputShape], Timing]:
    return ErrorStatus.GENERAL_FAILURE, [], NO_TIMING


def _status_1_0(status: ErrorStatus) -> ErrorStatus:
    """A status as a 1.0-1.2 method may give it: the 1.3 ones become GENERAL_FAILURE."""
    return status if status in STATUSES_1_0 else ErrorStatus.GENERAL_FAILURE


def _limit(value: OptionalTimePoint) -> int | None:
    """A deadline as a time to check: None for none and for one at ``TIME_POINT_MAX`` or later."""
    return None if value is None or value >= TIME_POINT_MAX else int(value)


def deadline_passed(deadline: OptionalTimePoint) -> bool:
    """Whether ``deadline`` (a well-formed ``OptionalTimePoint``) has already passed."""
    limit = _limit(deadline)
    return limit is not None and time.monotonic_ns() >= limit


def loop_timeout_of(duration: OptionalTimeoutDuration) -> int:
    """The WHILE budget an execution runs with: DEFAULT for None, at most MAXIMUM."""
    if duration is None:
        return int(LoopTimeoutDurationNs.DEFAULT)
    return min(int(duration), int(LoopTimeoutDurationNs.MAXIMUM))


def _fence_usable(fence: object) -> bool:
    """An open eventfd ``SyncFence`` that is not in the error state."""
    if not isinstance(fence, SyncFence) or fence.closed:
        return False
    try:
        link = os.readlink(f"/proc/self/fd/{fence.fileno()}")
    except OSError:
        return False
    if link != "anon_inode:[eventfd]":
        return False
    return fence.state() != FenceState.ERROR


class ReferenceFencedCallback(IFencedExecutionCallback):
    """The outcome of one fenced execution, set once, just before its fence ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._info: tuple[ErrorStatus, Timing, Timing] | None = None

    def finish(self, status: ErrorStatus, launched: Timing, fenced: Timing) -> bool:
        """Record the outcome (the first one stands); whether this one was recorded."""
        with self._lock:
            if self._info is not None:
                return False
            self._info = (status, launched, fenced)
            return True

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, NO_TIMING, NO_TIMING))
    def get_execution_info(self) -> tuple[ErrorStatus, Timing, Timing]:
        info = self._info
        if info is None:  # the fence has not ended yet
            return ErrorStatus.GENERAL_FAILURE, NO_TIMING, NO_TIMING
        return info


class ReferencePreparedModel(IPreparedModel_1_3):
    _buffers: BufferRegistry | None = None
    """The device's driver-managed buffers; None: token pools are not accepted."""

    def __init__(
        self,
        model: Model,
        plan: Plan,
        version: HalVersion,
        executor: Executor,
        disabled_rules: frozenset[str],
        cache_key: bytes | None = None,
    ) -> None:
        self._model = model
        self._plan = plan
        self._version = version
        self._executor = executor
        self._disabled_rules = disabled_rules
        self._cache_key = cache_key
        """The device's cache secret; None when the device does not cache."""
        self._validator = RequestValidator(model, version, disabled=disabled_rules)

    def attach_buffers(self, buffers: BufferRegistry) -> None:
        """Serve the device's driver-managed buffers (memory domains)."""
        self._buffers = buffers
        buffers.attach(self, self._model)

    def _invalid(self, request: Request) -> bool:
        result = self._validator(request, memory_domains=self._buffers is not None, limit=1)
        return not result.ok

    def _admit(self, request: Request) -> tuple[ErrorStatus, Binding | None]:
        """Validate ``request`` and bind its buffers: NONE, or the status to answer with."""
        if self._invalid(request):
            return ErrorStatus.INVALID_ARGUMENT, None
        if self._buffers is None:
            return ErrorStatus.NONE, None
        return self._buffers.bind(request, self)

    fence_wait_limit: float = FENCE_WAIT_LIMIT
    """Seconds ``execute_fenced`` waits at most for its fences (tests shorten it)."""

    def _plan_run(
        self,
        request: Request,
        binding: Binding | None,
        deadline: int | None = None,
        loop_timeout: int = int(LoopTimeoutDurationNs.DEFAULT),
    ) -> RunResult:
        result = self._plan.run(request, binding, deadline, loop_timeout)
        if binding is not None and result.status != ErrorStatus.NONE:
            binding.fail()
        return result

    def _run(
        self,
        request: Request,
        measure: MeasureTiming,
        binding: Binding | None = None,
        deadline: int | None = None,
        loop_timeout: int = int(LoopTimeoutDurationNs.DEFAULT),
    ) -> tuple[RunResult, Timing]:
        start = time.perf_counter_ns()
        result = self._plan_run(request, binding, deadline, loop_timeout)
        elapsed_us = (time.perf_counter_ns() - start) // 1000
        if measure != MeasureTiming.YES or result.status != ErrorStatus.NONE:
            return result, NO_TIMING
        # A CPU driver: the "device" time is the compute time, all of it in the driver.
        return result, Timing(time_on_device=elapsed_us, time_in_driver=elapsed_us)

    @async_hal_method("notify", ErrorStatus.GENERAL_FAILURE)
    def execute(self, request: Request, callback: IExecutionCallback) -> ErrorStatus:
        status, binding = self._admit(request)
        if status != ErrorStatus.NONE:
            callback.notify(status)
            return status
        self._executor.submit(
            guarded(
                lambda: callback.notify(_status_1_0(self._plan_run(request, binding).status)),
                lambda: callback.notify(ErrorStatus.GENERAL_FAILURE),
            )
        )
        return ErrorStatus.NONE

    @async_hal_method("notify_1_2", ErrorStatus.GENERAL_FAILURE, [], NO_TIMING)
    def execute_1_2(
        self, request: Request, measure: MeasureTiming, callback: IExecutionCallback
    ) -> ErrorStatus:
        status, binding = self._admit(request)
        if measure not in (MeasureTiming.NO, MeasureTiming.YES):
            status = ErrorStatus.INVALID_ARGUMENT
        if status != ErrorStatus.NONE:
            callback.notify_1_2(status, [], NO_TIMING)
            return status

        def work() -> None:
            status, shapes, timing = self._finish(*self._run(request, measure, binding), v1_0=True)
            callback.notify_1_2(status, shapes, timing)

        self._executor.submit(
            guarded(work, lambda: callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, [], NO_TIMING))
        )
        return ErrorStatus.NONE

    @hal_method(_sync_failure)
    def execute_synchronously(
        self, request: Request, measure: MeasureTiming
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        status, binding = self._admit(request)
        if measure not in (MeasureTiming.NO, MeasureTiming.YES):
            status = ErrorStatus.INVALID_ARGUMENT
        if status != ErrorStatus.NONE:
            return status, [], NO_TIMING
        return self._finish(*self._run(request, measure, binding), v1_0=True)

    # -- HAL 1.3 -------------------------------------------------------------------

    def _admit_1_3(
        self,
        request: Request,
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
    ) -> tuple[ErrorStatus, Binding | None]:
        """``_admit`` with the 1.3 arguments checked too (their types, never their values)."""
        if (
            measure not in (MeasureTiming.NO, MeasureTiming.YES)
            or not is_optional_nanoseconds(deadline)
            or not is_optional_nanoseconds(loop_timeout_duration)
        ):
            return ErrorStatus.INVALID_ARGUMENT, None
        return self._admit(request)

    @async_hal_method("notify_1_3", ErrorStatus.GENERAL_FAILURE, [], NO_TIMING)
    def execute_1_3(
        self,
        request: Request,
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
        callback: IExecutionCallback,
    ) -> ErrorStatus:
        status, binding = self._admit_1_3(request, measure, deadline, loop_timeout_duration)
        if status != ErrorStatus.NONE:
            callback.notify_1_3(status, [], NO_TIMING)
            return status
        if deadline_passed(deadline):
            callback.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, [], NO_TIMING)
            return ErrorStatus.NONE
        limit, loop_timeout = _limit(deadline), loop_timeout_of(loop_timeout_duration)

        def work() -> None:
            run = self._run(request, measure, binding, limit, loop_timeout)
            callback.notify_1_3(*self._finish(*run))

        self._executor.submit(
            guarded(work, lambda: callback.notify_1_3(ErrorStatus.GENERAL_FAILURE, [], NO_TIMING))
        )
        return ErrorStatus.NONE

    @hal_method(_sync_failure)
    def execute_synchronously_1_3(
        self,
        request: Request,
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        status, binding = self._admit_1_3(request, measure, deadline, loop_timeout_duration)
        if status != ErrorStatus.NONE:
            return status, [], NO_TIMING
        if deadline_passed(deadline):
            return ErrorStatus.MISSED_DEADLINE_PERSISTENT, [], NO_TIMING
        run = self._run(
            request, measure, binding, _limit(deadline), loop_timeout_of(loop_timeout_duration)
        )
        return self._finish(*run)

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None, None))
    def execute_fenced(
        self,
        request: Request,
        wait_for: Sequence[SyncFence],
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
        duration: OptionalTimeoutDuration,
    ) -> tuple[ErrorStatus, SyncFence | None, IFencedExecutionCallback | None]:
        called = time.monotonic_ns()
        status, binding = self._admit_1_3(request, measure, deadline, loop_timeout_duration)
        if status == ErrorStatus.NONE and (
            not is_optional_nanoseconds(duration)
            or not isinstance(wait_for, list | tuple)
            or not all(_fence_usable(fence) for fence in wait_for)
            or not self._outputs_fixed(request, binding)
        ):
            status = ErrorStatus.INVALID_ARGUMENT
        if status == ErrorStatus.NONE and deadline_passed(deadline):
            status = ErrorStatus.MISSED_DEADLINE_PERSISTENT
        if status != ErrorStatus.NONE:
            return status, None, None
        # Our own descriptors: the client may close its fences once the call returns.
        awaited = [fence.dup() for fence in wait_for]
        done = SyncFence()
        info = ReferenceFencedCallback()
        handed = done.dup()
        limit, loop_timeout = _limit(deadline), loop_timeout_of(loop_timeout_duration)

        def end(status: ErrorStatus, launched: Timing = NO_TIMING, fenced: Timing = NO_TIMING):
            if status not in _FENCED_STATUSES:
                status = ErrorStatus.GENERAL_FAILURE
            if info.finish(status, launched, fenced):  # the outcome first, then the fence
                if status == ErrorStatus.NONE:
                    done.signal()
                else:
                    done.signal_error()
            done.close()

        def work() -> None:
            try:
                waited = self._await_fences(awaited, called, limit)
            finally:
                for fence in awaited:
                    fence.close()
            if waited != ErrorStatus.NONE:
                end(waited)
                return
            fenced_at = time.monotonic_ns()
            stop = limit
            if duration is not None and duration < TIME_POINT_MAX:
                stop = fenced_at + duration if stop is None else min(stop, fenced_at + duration)
            result = self._plan_run(request, binding, stop, loop_timeout)
            finished = time.monotonic_ns()
            if measure != MeasureTiming.YES or result.status != ErrorStatus.NONE:
                end(result.status)
                return
            on_device = (finished - fenced_at) // 1000
            end(
                ErrorStatus.NONE,
                Timing(on_device, (finished - called) // 1000),
                Timing(on_device, (finished - fenced_at) // 1000),
            )

        thread = threading.Thread(
            target=guarded(work, lambda: end(ErrorStatus.GENERAL_FAILURE)),
            name="nnhal-reference-fenced",
            daemon=True,
        )
        thread.start()
        return ErrorStatus.NONE, handed, info

    def _await_fences(self, fences: list[SyncFence], called: int, limit: int | None) -> ErrorStatus:
        """Wait for every fence: NONE once all signalled; GENERAL_FAILURE when one errs or
        ``fence_wait_limit`` passes; MISSED_DEADLINE_TRANSIENT when the deadline does."""
        give_up = called + int(self.fence_wait_limit * 1e9)
        if limit is not None:
            give_up = min(give_up, limit)
        for fence in fences:
            state = fence.wait(max(0.0, (give_up - time.monotonic_ns()) / 1e9))
            if state == FenceState.ERROR:
                LOG.debug("fenced execution: an awaited fence is in error")
                return ErrorStatus.GENERAL_FAILURE
            if state != FenceState.SIGNALED:
                if limit is not None and time.monotonic_ns() >= limit:
                    return ErrorStatus.MISSED_DEADLINE_TRANSIENT
                LOG.info("fenced execution: a fence did not signal within the wait limit")
                return ErrorStatus.GENERAL_FAILURE
        return ErrorStatus.NONE

    def _outputs_fixed(self, request: Request, binding: Binding | None) -> bool:
        """Every output's dimensions fully specified (by the model, the request or its
        buffer), and every output in shared memory given room for all its data."""
        buffers = binding.buffers if binding is not None else {}
        model = self._model
        for index, argument in zip(model.output_indexes, request.outputs, strict=True):
            if argument.has_no_value:
                continue
            operand = model.operands[index]
            if not is_tensor_type(operand.type, model.extension_name_to_prefix):
                continue
            dims = tuple(argument.dimensions) or tuple(operand.dimensions) or None
            buffer = buffers.get(argument.location.pool_index)
            if buffer is not None:
                try:
                    dims = combine(buffer.declared, dims)
                except Exception:
                    return False
            if dims is None or not dims or not all(d > 0 for d in dims):
                return False
            if buffer is None:
                size = math.prod(dims) * element_byte_size(
                    operand.type, model.extension_name_to_prefix
                )
                if argument.location.length < size:
                    return False
        return True

    @staticmethod
    def _finish(
        result: RunResult, timing: Timing, v1_0: bool = False
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        """The answer of an execution; ``v1_0``: of a 1.0-1.2 method (1.0 statuses only)."""
        status = _status_1_0(result.status) if v1_0 else result.status
        shapes = result.output_shapes
        if status not in (ErrorStatus.NONE, ErrorStatus.OUTPUT_INSUFFICIENT_SIZE):
            shapes = []
        return status, shapes, timing

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None))
    def configure_execution_burst(
        self, callback: IBurstCallback, request_channel: object, result_channel: object
    ) -> tuple[ErrorStatus, IBurstContext | None]:
        return burst.configure(self, callback, request_channel, result_channel)

    @hal_method(lambda: ErrorStatus.GENERAL_FAILURE)
    def save_to_cache(
        self, model_cache: NativeHandle, data_cache: NativeHandle, token: bytes
    ) -> ErrorStatus:
        if self._cache_key is None:
            return ErrorStatus.GENERAL_FAILURE  # without looking at the arguments
        try:
            token = check_token(token)
            model_fd = check_handle(model_cache, "model_cache", writing=True)
            data_fd = check_handle(data_cache, "data_cache", writing=True)
            if _same_file(model_fd, data_fd):
                raise CacheArgumentError("model_cache and data_cache are the same file")
        except CacheArgumentError:
            return ErrorStatus.INVALID_ARGUMENT
        model_bytes, data_bytes = seal(
            self._cache_key, token, self._model, self._plan.constants, self._version
        )
        try:
            write_all(model_fd, model_bytes)
            write_all(data_fd, data_bytes)
        except OSError:
            return ErrorStatus.GENERAL_FAILURE
        return ErrorStatus.NONE


def _same_file(a: int, b: int) -> bool:
    first, second = os.fstat(a), os.fstat(b)
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)
