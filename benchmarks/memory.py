"""The memory benchmark: what each pool kind costs per execution of a small model.

Subject: ADD of two [16, 16] TENSOR_FLOAT32 inputs on the reference driver,
through ``execute_synchronously``, with its arguments in pools of each kind
(``ashmem``, ``mmap_fd``, ``hardware_buffer_blob``) in two ways: ``reused``
(the request's pools made once, as a client with long-lived pools does) and
``fresh`` (pools allocated, filled and closed around every execution); then
the same model with its constant in a CONSTANT_REFERENCE pool of each kind,
and with input 0 and the output in driver-managed buffers (memory domains).
Baseline: ``ashmem``, reused, measured in the same run; every figure is the
best of interleaved rounds (the mean time per execution in the least disturbed
round: other processes only ever add time), with its ratio to the baseline.
The constant variants have one model input instead of two, so compare them
with one another. A quick run (``NNHAL_BENCH_QUICK=1``) times 2 rounds of 20.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from functools import partial

import numpy as np

from benchmarks.result import Figure, Result, runs
from conformance.harness.models import binary_model, with_constants_in_pool
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.memory import ALLOCATABLE_KINDS, ASHMEM
from hal.types import (
    BufferDesc,
    BufferRole,
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
)
from reference_driver import ReferenceDriver

SHAPE = (16, 16)
EXECUTIONS = 200
ROUNDS = 7


def _prepare(driver: ReferenceDriver, model: Model):
    callback = PreparedModelCallback()
    status = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(30.0)
    if status != ErrorStatus.NONE or notification.status != ErrorStatus.NONE:
        raise RuntimeError(f"preparing the benchmark model failed: {notification.status.name}")
    return notification.prepared_model


def _per_execution_us(calls: dict[str, Callable[[], ErrorStatus]]) -> dict[str, float]:
    """Per call: the lowest over ROUNDS of the mean microseconds of one execution.

    Rounds interleave the calls, so a slower moment of the machine weighs on all alike.
    """
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for name, call in calls.items():
        for _ in range(10):
            if call() != ErrorStatus.NONE:
                raise RuntimeError(f"a benchmark execution ({name}) failed")
    executions = runs(EXECUTIONS, 20)
    for _ in range(runs(ROUNDS, 2)):
        for name, call in calls.items():
            start = time.perf_counter_ns()
            for _ in range(executions):
                call()
            samples[name].append((time.perf_counter_ns() - start) / executions / 1000)
    return {name: min(values) for name, values in samples.items()}


def _sync(prepared, request) -> ErrorStatus:
    return prepared.execute_synchronously(request, MeasureTiming.NO)[0]


def _fresh(prepared, model: Model, inputs: list[np.ndarray], kind: str) -> ErrorStatus:
    with pack_request(model, inputs, kind=kind) as packed:
        return _sync(prepared, packed.request)


def run() -> Result:
    driver = ReferenceDriver()
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(SHAPE).astype(np.float32) for _ in range(2))
    model = binary_model(dims=SHAPE)
    prepared = _prepare(driver, model)
    calls: dict[str, Callable[[], ErrorStatus]] = {}
    with ExitStack() as stack:
        for kind in ALLOCATABLE_KINDS:
            packed = stack.enter_context(pack_request(model, [a, b], kind=kind))
            calls[f"{kind} reused"] = partial(_sync, prepared, packed.request)
            calls[f"{kind} fresh"] = partial(_fresh, prepared, model, [a, b], kind)

        constant_model = binary_model(dims=SHAPE, constant_b=b)
        for kind in ALLOCATABLE_KINDS:
            moved, pool = with_constants_in_pool(constant_model, kind, threshold=0)
            stack.enter_context(pool)
            packed = stack.enter_context(pack_request(moved, [a], kind=ASHMEM))
            calls[f"constants in {kind}"] = partial(_sync, _prepare(driver, moved), packed.request)

        status, buffer, token = driver.allocate(
            BufferDesc(), [prepared], [BufferRole(0, 0)], [BufferRole(0, 0)]
        )
        if status != ErrorStatus.NONE:
            raise RuntimeError(f"allocate answered {status.name}")
        stack.callback(buffer.release)
        for name, side in (("buffer output", "outputs"), ("buffer input", "inputs")):
            packed = stack.enter_context(pack_request(model, [a, b], kind=ASHMEM))
            packed.request.pools.append(token)
            getattr(packed.request, side)[0].location = DataLocation(2, 0, 0)
            calls[name] = partial(_sync, prepared, packed.request)
        figures = _per_execution_us(calls)  # "buffer output" warms up first: it fills the buffer

    base = figures["ashmem reused"]
    parts = [f"{name} {us:.0f} us ({us / base:.2f}x)" for name, us in figures.items()]
    line = (
        f"memory: ADD {list(SHAPE)} float32 per execution, execute_synchronously, "
        f"vs ashmem reused: " + "; ".join(parts)
    )
    return Result(
        "memory", line, [Figure(name, us, "us", base, us / base) for name, us in figures.items()]
    )
