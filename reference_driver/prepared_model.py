"""The reference driver's prepared model: validates each request, runs the plan."""

from __future__ import annotations

import os
import time
from concurrent.futures import Executor

from hal.interfaces import IBurstCallback, IBurstContext, IExecutionCallback, IPreparedModel_1_2
from hal.memory import NativeHandle
from hal.types import (
    NO_TIMING,
    ErrorStatus,
    HalVersion,
    MeasureTiming,
    Model,
    OutputShape,
    Request,
    Timing,
)
from hal.validation import RequestValidator
from reference_driver import burst
from reference_driver.buffers import Binding, BufferRegistry
from reference_driver.cache import CacheArgumentError, check_handle, check_token, seal, write_all
from reference_driver.executor import Plan, RunResult
from reference_driver.guard import async_hal_method, guarded, hal_method


def _sync_failure() -> tuple[ErrorStatus, list[OutputShape], Timing]:
    return ErrorStatus.GENERAL_FAILURE, [], NO_TIMING


class ReferencePreparedModel(IPreparedModel_1_2):
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

    def _plan_run(self, request: Request, binding: Binding | None) -> RunResult:
        result = self._plan.run(request, binding)
        if binding is not None and result.status != ErrorStatus.NONE:
            binding.fail()
        return result

    def _run(
        self, request: Request, measure: MeasureTiming, binding: Binding | None = None
    ) -> tuple[RunResult, Timing]:
        start = time.perf_counter_ns()
        result = self._plan_run(request, binding)
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
                lambda: callback.notify(self._plan_run(request, binding).status),
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
            status, shapes, timing = self._finish(*self._run(request, measure, binding))
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
        return self._finish(*self._run(request, measure, binding))

    @staticmethod
    def _finish(result: RunResult, timing: Timing) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        shapes = result.output_shapes
        if result.status not in (ErrorStatus.NONE, ErrorStatus.OUTPUT_INSUFFICIENT_SIZE):
            shapes = []
        return result.status, shapes, timing

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
