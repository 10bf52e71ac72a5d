"""HAL 1.3 drivers that break the 1.3 contract in one known way, built on the reference
driver (a 1.3 driver).

tests/suite/test_hal13_faults.py runs the 1.3 parts of the suite against each (in a
pytest subprocess, this file copied beside the run) and checks that each fails exactly
the items its fault touches.
"""

from __future__ import annotations

import threading
import time

from hal.fences import FenceState, SyncFence
from hal.interfaces import IExecutionCallback, IFencedExecutionCallback
from hal.memory import MemoryError_, map_memory
from hal.types import ErrorStatus, OutputShape, Timing, is_fully_specified
from hal.validation import is_token
from reference_driver import ReferenceDriver
from reference_driver.buffers import BufferRegistry, ReferenceBuffer
from reference_driver.prepared_model import ReferencePreparedModel

LATE = 0.5
"""Seconds after its fence signals at which ``SignalsBeforeWriting`` writes the outputs."""


def _passed(deadline) -> bool:
    return deadline is not None and time.monotonic_ns() >= deadline


# -- a missed deadline reported at launch ---------------------------------------------------


class _LaunchesMissed(ReferencePreparedModel):
    def execute_1_3(self, request, measure, deadline, loop_timeout_duration, callback):
        if _passed(deadline):
            callback.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, [], Timing())
            return ErrorStatus.MISSED_DEADLINE_PERSISTENT
        return super().execute_1_3(request, measure, deadline, loop_timeout_duration, callback)


class ReportsMissedDeadlineAtLaunch(ReferenceDriver):
    """A deadline already passed when ``prepare_model_1_3`` or ``execute_1_3`` is called is
    returned as the launch status (MISSED_DEADLINE_PERSISTENT) as well as notified; the
    HAL wants the launch status NONE and the miss reported through the callback."""

    prepared_model_class = _LaunchesMissed

    def prepare_model_1_3(self, model, preference, priority, deadline, callback):
        if _passed(deadline):
            callback.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, None)
            return ErrorStatus.MISSED_DEADLINE_PERSISTENT
        return super().prepare_model_1_3(model, preference, priority, deadline, callback)


# -- a fence signalled before the outputs are written ---------------------------------------


class _EarlyFence(ReferencePreparedModel):
    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        status, fence, callback = super().execute_fenced(
            request, wait_for, measure, deadline, loop, duration
        )
        if status != ErrorStatus.NONE or fence is None:
            return status, fence, callback
        early = SyncFence()

        def relay() -> None:
            with fence:
                state = fence.wait(60.0)
            if state != FenceState.SIGNALED:
                early.signal_error()
                return
            saved = []
            for argument in request.outputs:  # the outputs as computed, then taken away
                location = argument.location
                if is_token(request.pools[location.pool_index]):
                    continue  # a driver buffer: written already, read only through copy_to
                with map_memory(request.pools[location.pool_index]) as mapping:
                    saved.append((location, mapping.read_location(location)))
                    mapping.write(location.offset, b"\x00" * location.length)
            early.signal()
            time.sleep(LATE)
            for location, data in saved:
                try:
                    with map_memory(request.pools[location.pool_index]) as mapping:
                        mapping.write(location.offset, data)
                except MemoryError_:
                    return  # the client has closed the pool: too late to write

        threading.Thread(target=relay, daemon=True).start()
        return status, early.dup(), callback


class SignalsBeforeWriting(ReferenceDriver):
    """``execute_fenced``'s fence signals before the outputs are written (they arrive
    ``LATE`` seconds afterwards)."""

    prepared_model_class = _EarlyFence


# -- fenced timings out of order --------------------------------------------------------------


class _Swapped(IFencedExecutionCallback):
    def __init__(self, inner: IFencedExecutionCallback) -> None:
        self._inner = inner

    def get_execution_info(self):
        status, launched, fenced = self._inner.get_execution_info()
        if launched.time_on_device != Timing().time_on_device:
            launched = Timing(launched.time_in_driver + 1000, launched.time_in_driver)
        return status, launched, fenced


class _SwapsTimings(ReferencePreparedModel):
    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        status, fence, callback = super().execute_fenced(
            request, wait_for, measure, deadline, loop, duration
        )
        return status, fence, None if callback is None else _Swapped(callback)


class FencedTimingsOutOfOrder(ReferenceDriver):
    """``get_execution_info`` reports a measured ``timing_launched`` whose time on the
    device exceeds its time in the driver."""

    prepared_model_class = _SwapsTimings


# -- a 1.3 method answering through a 1.2 channel ---------------------------------------------


class _Through12(IExecutionCallback):
    def __init__(self, inner: IExecutionCallback) -> None:
        self._inner = inner

    def notify(self, status):
        self._inner.notify(status)

    def notify_1_2(self, status, output_shapes, timing):
        self._inner.notify_1_2(status, output_shapes, timing)

    def notify_1_3(self, status, output_shapes, timing):
        self._inner.notify_1_2(status, output_shapes, timing)


class _Answers12(ReferencePreparedModel):
    def execute_1_3(self, request, measure, deadline, loop_timeout_duration, callback):
        return super().execute_1_3(
            request, measure, deadline, loop_timeout_duration, _Through12(callback)
        )


class Execute13Notifies12(ReferenceDriver):
    """``execute_1_3`` answers through ``notify_1_2``, the 1.2 callback method."""

    prepared_model_class = _Answers12


# -- legal answers that earn nothing, or everything -------------------------------------------


class _Ignores(ReferencePreparedModel):
    def execute_1_3(self, request, measure, deadline, loop_timeout_duration, callback):
        return super().execute_1_3(request, measure, None, loop_timeout_duration, callback)

    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        return super().execute_synchronously_1_3(request, measure, None, loop_timeout_duration)

    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        return super().execute_fenced(request, wait_for, measure, None, loop, None)


class IgnoresDeadlines(ReferenceDriver):
    """Every deadline and duration is ignored (the work is always done): legal, and it must
    pass everything."""

    prepared_model_class = _Ignores

    def prepare_model_1_3(self, model, preference, priority, deadline, callback):
        return super().prepare_model_1_3(model, preference, priority, None, callback)


class _ExhaustedOnce(ReferencePreparedModel):
    """The first execution of each 1.3 synchronous call is declined for want of
    resources (TRANSIENT); asked again, it runs."""

    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        key = id(request)
        if key not in self._declined:
            self._declined.add(key)
            return ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT, [], Timing()
        return super().execute_synchronously_1_3(request, measure, deadline, loop_timeout_duration)

    @property
    def _declined(self) -> set:
        if not hasattr(self, "_declined_set"):
            self._declined_set = set()
        return self._declined_set


class ExhaustedOnceThenRuns(ReferenceDriver):
    """``execute_synchronously_1_3`` answers RESOURCE_EXHAUSTED_TRANSIENT to each request
    the first time: the suite asks once more, and the second answer counts."""

    prepared_model_class = _ExhaustedOnce


class _AlwaysExhausted(ReferencePreparedModel):
    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        return ErrorStatus.RESOURCE_EXHAUSTED_PERSISTENT, [], Timing()


class AlwaysExhausted(ReferenceDriver):
    """``execute_synchronously_1_3`` always declines for want of resources (PERSISTENT): a
    legal answer, which earns no credit (unsupported), and which fails where the request
    was invalid (an invalid argument comes before any resource)."""

    prepared_model_class = _AlwaysExhausted


# ---------------------------------------------------------------------------
# Driver buffers (memory domains) that break in one known way
# ---------------------------------------------------------------------------


class _CopyToFails(ReferenceBuffer):
    def copy_to(self, memory):
        return ErrorStatus.GENERAL_FAILURE


class _DropsCopyFrom(ReferenceBuffer):
    def copy_from(self, memory, dimensions):
        return ErrorStatus.NONE  # says it copied; the buffer stays uninitialised


class _ReleaseRaises(ReferenceBuffer):
    def release(self):
        super().release()
        raise RuntimeError("release went wrong")


def _registry(buffer_class: type[ReferenceBuffer]) -> BufferRegistry:
    return type(
        f"{buffer_class.__name__}Registry", (BufferRegistry,), {"buffer_class": buffer_class}
    )()


class CopyToFails(ReferenceDriver):
    """``IBuffer.copy_to`` always answers GENERAL_FAILURE: outputs an execution wrote into
    driver buffers cannot be read."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _registry(_CopyToFails)


class DropsCopyFrom(ReferenceDriver):
    """``IBuffer.copy_from`` answers NONE and copies nothing: an execution reading the
    buffer as an input finds it uninitialised."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _registry(_DropsCopyFrom)


class ReleaseRaises(ReferenceDriver):
    """``IBuffer.release`` frees the buffer, then raises."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _registry(_ReleaseRaises)


def DeclinesAllocation13() -> ReferenceDriver:
    """A 1.3 driver answering every ``allocate`` with GENERAL_FAILURE (legal: it keeps no
    driver buffers)."""
    return ReferenceDriver(memory_domains=False)


# ---------------------------------------------------------------------------
# A 1.3 driver whose 1.2 caching call is broken
# ---------------------------------------------------------------------------


class CacheOnlyThrough13(ReferenceDriver):
    """``prepare_model_from_cache`` (the 1.2 call) refuses every cache as INVALID_ARGUMENT;
    ``prepare_model_from_cache_1_3`` works."""

    def prepare_model_from_cache(self, model_cache, data_cache, token, callback):
        callback.notify_1_2(ErrorStatus.INVALID_ARGUMENT, None)
        return ErrorStatus.INVALID_ARGUMENT


# ---------------------------------------------------------------------------
# A fenced execution that takes outputs of unknown size
# ---------------------------------------------------------------------------


class _ReportsDone(IFencedExecutionCallback):
    def get_execution_info(self):
        return ErrorStatus.NONE, Timing(), Timing()


class _TakesUnknownShapes(ReferencePreparedModel):
    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        answer = super().execute_fenced(request, wait_for, measure, deadline, loop, duration)
        model = self._model
        unknown = any(not is_fully_specified(model.operands[i]) for i in model.output_indexes)
        if answer[0] == ErrorStatus.INVALID_ARGUMENT and unknown:
            return ErrorStatus.NONE, None, _ReportsDone()  # "done", nothing written
        return answer


class FencedTakesUnknownShapes(ReferenceDriver):
    """``execute_fenced`` of a model with outputs of unknown dimensions answers NONE and
    reports the execution done, instead of refusing it."""

    prepared_model_class = _TakesUnknownShapes


# -- an execution that must fail reported done ----------------------------------------------


class _ReportsFailedAsDone(ReferencePreparedModel):
    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        answer = super().execute_synchronously_1_3(
            request, measure, deadline, loop_timeout_duration
        )
        if answer[0] in (ErrorStatus.INVALID_ARGUMENT, ErrorStatus.GENERAL_FAILURE):
            model = self._model
            shapes = [
                OutputShape(tuple(model.operands[i].dimensions), True) for i in model.output_indexes
            ]
            return ErrorStatus.NONE, shapes, Timing()  # "done", nothing written
        return answer


class ReportsFailedExecutionAsDone(ReferenceDriver):
    """``execute_synchronously_1_3`` answers NONE, with the declared output shapes, where the
    execution fails with INVALID_ARGUMENT or GENERAL_FAILURE (an EMBEDDING_LOOKUP of a row
    the values lack): it claims to compute what cannot be computed."""

    prepared_model_class = _ReportsFailedAsDone
