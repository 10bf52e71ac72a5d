"""The reference driver's prepared model: validates each request, runs the plan."""

from __future__ import annotations

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
from hal.validation import validate_request
from reference_driver.executor import Plan, RunResult, guarded


class ReferencePreparedModel(IPreparedModel_1_2):
    def __init__(
        self,
        model: Model,
        plan: Plan,
        version: HalVersion,
        executor: Executor,
        disabled_rules: frozenset[str],
    ) -> None:
        self._model = model
        self._plan = plan
        self._version = version
        self._executor = executor
        self._disabled_rules = disabled_rules

    def _invalid(self, request: Request) -> bool:
        result = validate_request(
            request, self._model, self._version, disabled=self._disabled_rules
        )
        return not result.ok

    def _run(self, request: Request, measure: MeasureTiming) -> tuple[RunResult, Timing]:
        start = time.perf_counter_ns()
        result = self._plan.run(request)
        elapsed_us = (time.perf_counter_ns() - start) // 1000
        if measure != MeasureTiming.YES or result.status != ErrorStatus.NONE:
            return result, NO_TIMING
        # A CPU driver: the "device" time is the compute time, all of it in the driver.
        return result, Timing(time_on_device=elapsed_us, time_in_driver=elapsed_us)

    def execute(self, request: Request, callback: IExecutionCallback) -> ErrorStatus:
        if self._invalid(request):
            callback.notify(ErrorStatus.INVALID_ARGUMENT)
            return ErrorStatus.INVALID_ARGUMENT
        self._executor.submit(
            guarded(
                lambda: callback.notify(self._plan.run(request).status),
                lambda: callback.notify(ErrorStatus.GENERAL_FAILURE),
            )
        )
        return ErrorStatus.NONE

    def execute_1_2(
        self, request: Request, measure: MeasureTiming, callback: IExecutionCallback
    ) -> ErrorStatus:
        if measure not in (MeasureTiming.NO, MeasureTiming.YES) or self._invalid(request):
            callback.notify_1_2(ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING)
            return ErrorStatus.INVALID_ARGUMENT

        def work() -> None:
            status, shapes, timing = self._finish(*self._run(request, measure))
            callback.notify_1_2(status, shapes, timing)

        self._executor.submit(
            guarded(work, lambda: callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, [], NO_TIMING))
        )
        return ErrorStatus.NONE

    def execute_synchronously(
        self, request: Request, measure: MeasureTiming
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        if measure not in (MeasureTiming.NO, MeasureTiming.YES) or self._invalid(request):
            return ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING
        return self._finish(*self._run(request, measure))

    @staticmethod
    def _finish(result: RunResult, timing: Timing) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        shapes = result.output_shapes
        if result.status not in (ErrorStatus.NONE, ErrorStatus.OUTPUT_INSUFFICIENT_SIZE):
            shapes = []
        return result.status, shapes, timing

    def configure_execution_burst(
        self, callback: IBurstCallback, request_channel: object, result_channel: object
    ) -> tuple[ErrorStatus, IBurstContext | None]:
        # Bursts over fast message queues arrive with the [burst] issue.
        return ErrorStatus.GENERAL_FAILURE, None

    def save_to_cache(
        self, model_cache: NativeHandle, data_cache: NativeHandle, token: bytes
    ) -> ErrorStatus:
        # The driver reports is_caching_supported() == False until [caching] lands.
        return ErrorStatus.GENERAL_FAILURE
