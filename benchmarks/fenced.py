"""Fenced execution: per-call cost of ``execute_fenced`` against ``execute_synchronously_1_3``.

Subject: ADD of two [16, 16] TENSOR_FLOAT32 inputs on the reference driver (a HAL 1.3
driver), prepared once through ``prepare_model_1_3``, executed again and again with the
same pools, in this process (the driver object itself) and across the process boundary
(``DriverService``: the driver in a service process; a fence crosses as a passed
descriptor). One fenced execution is the call, a wait on the fence it returns, and
``get_execution_info``; the baseline is one ``execute_synchronously_1_3`` on the same
side. Every figure is the best of interleaved rounds of the mean time per execution;
the ratios are fenced over synchronous, on each side. A quick run
(``NNHAL_BENCH_QUICK=1``) times 2 rounds of 30.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from benchmarks.result import Figure, Result, best_us, runs
from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.fences import FenceState
from hal.loader import load_driver
from hal.types import DEFAULT_PRIORITY, ErrorStatus, ExecutionPreference, MeasureTiming
from isolation.proxy import DriverService

SHAPE = (16, 16)
CALLS = 200
ROUNDS = 7
TIMEOUT = 30.0


def _prepare(device):
    callback = PreparedModelCallback()
    model = binary_model(dims=SHAPE)
    device.prepare_model_1_3(
        model, ExecutionPreference.FAST_SINGLE_ANSWER, DEFAULT_PRIORITY, None, callback
    )
    notification = callback.wait(TIMEOUT)
    if notification.status != ErrorStatus.NONE:
        raise RuntimeError(f"preparing the benchmark model failed: {notification.status.name}")
    return notification.prepared_model


def _sync(prepared, request) -> Callable[[], None]:
    def call() -> None:
        status, _, _ = prepared.execute_synchronously_1_3(request, MeasureTiming.NO, None, None)
        if status != ErrorStatus.NONE:
            raise RuntimeError(f"execution failed: {ErrorStatus(status).name}")

    return call


def _fenced(prepared, request) -> Callable[[], None]:
    def call() -> None:
        status, fence, callback = prepared.execute_fenced(
            request, (), MeasureTiming.NO, None, None, None
        )
        if status != ErrorStatus.NONE:
            raise RuntimeError(f"execute_fenced failed: {ErrorStatus(status).name}")
        if fence is not None:
            with fence:
                if fence.wait(TIMEOUT) != FenceState.SIGNALED:
                    raise RuntimeError("the fence did not signal")
        if callback.get_execution_info()[0] != ErrorStatus.NONE:
            raise RuntimeError("the fenced execution failed")

    return call


def _best_us(calls: dict[str, Callable[[], None]]) -> dict[str, float]:
    for call in calls.values():
        call()  # warm up, and check each call works
    return best_us(calls, runs(CALLS, 30), runs(ROUNDS, 2))


def run() -> Result:
    a = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    direct = load_driver(None).device
    service = DriverService(None, TIMEOUT)
    remote = service.start().device
    try:
        with pack_request(binary_model(dims=SHAPE), [a, a]) as packed:
            request = packed.request
            local, far = _prepare(direct), _prepare(remote)
            us = _best_us(
                {
                    "sync in-process": _sync(local, request),
                    "fenced in-process": _fenced(local, request),
                    "sync process": _sync(far, request),
                    "fenced process": _fenced(far, request),
                }
            )
    finally:
        service.close()
    near = us["fenced in-process"] / us["sync in-process"]
    across = us["fenced process"] / us["sync process"]
    figures = [
        Figure("sync in-process", us["sync in-process"], "us"),
        Figure("fenced in-process", us["fenced in-process"], "us", us["sync in-process"], near),
        Figure("sync process", us["sync process"], "us"),
        Figure("fenced process", us["fenced process"], "us", us["sync process"], across),
    ]
    line = (
        f"fenced: ADD float32[16, 16] per execution: in-process execute_fenced "
        f"{us['fenced in-process']:.0f} us vs execute_synchronously_1_3 "
        f"{us['sync in-process']:.0f} us (ratio {near:.2f}); across the process boundary "
        f"{us['fenced process']:.0f} us vs {us['sync process']:.0f} us (ratio {across:.2f})"
    )
    return Result("fenced", line, figures)
