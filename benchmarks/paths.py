"""Execution paths: per-execution latency of a burst vs execute_synchronously vs execute_1_2.

Subject: one ADD of two float32 tensors of 4 elements, prepared once on the
reference driver, run through each path in the same process: a burst
configured once and reused for every execution (as a client of bursts
does), ``execute_synchronously``, and ``execute_1_2`` waiting for its
callback. Each path runs ``BATCH`` executions per round, rounds interleaved;
the figure is the median round divided by ``BATCH``.
Baseline: ``execute_synchronously``; ratios are path / baseline.

In one process the burst pays a thread hand-off per execution that the
synchronous call does not; bursts exist to save the round trip to a driver in
another process, which the isolation benchmark (``benchmarks.isolation``)
measures: bursts and calls to a driver in a service process. A quick run
(``NNHAL_BENCH_QUICK=1``) times 2 rounds of 30 executions.
"""

from __future__ import annotations

import statistics
import struct
import time

from benchmarks.result import Figure, Result, runs
from hal.burst import BurstController
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.memory import ASHMEM, allocate, allocate_with
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Request,
    RequestArgument,
)
from reference_driver import ReferenceDriver

ROUNDS = 7
BATCH = 300
TIMEOUT = 30.0


def _add_model() -> Model:
    tensor = [4]
    operands = [
        Operand(OperandType.TENSOR_FLOAT32, tensor, 1, lifetime=OperandLifeTime.MODEL_INPUT),
        Operand(OperandType.TENSOR_FLOAT32, tensor, 1, lifetime=OperandLifeTime.MODEL_INPUT),
        Operand(
            OperandType.INT32,
            [],
            1,
            lifetime=OperandLifeTime.CONSTANT_COPY,
            location=DataLocation(0, 0, 4),
        ),
        Operand(OperandType.TENSOR_FLOAT32, tensor, 0, lifetime=OperandLifeTime.MODEL_OUTPUT),
    ]
    return Model(
        operands=operands,
        operations=[Operation(OperationType.ADD, [0, 1, 2], [3])],
        input_indexes=[0, 1],
        output_indexes=[3],
        operand_values=struct.pack("<i", 0),
    )


def _prepare(model: Model):
    callback = PreparedModelCallback()
    device = ReferenceDriver()
    device.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(TIMEOUT)
    assert notification.status == ErrorStatus.NONE, notification
    return notification.prepared_model


def _request() -> Request:
    inputs = allocate_with(ASHMEM, struct.pack("<8f", *range(8)))
    outputs = allocate(ASHMEM, 16)
    return Request(
        [
            RequestArgument(False, DataLocation(0, 0, 16)),
            RequestArgument(False, DataLocation(0, 16, 16)),
        ],
        [RequestArgument(False, DataLocation(1, 0, 16))],
        [inputs, outputs],
    )


def _round(run) -> float:
    batch = runs(BATCH, 30)
    start = time.perf_counter()
    for _ in range(batch):
        run()
    return (time.perf_counter() - start) / batch * 1e6


def _asynchronous(prepared, request: Request) -> None:
    callback = ExecutionCallback()
    prepared.execute_1_2(request, MeasureTiming.NO, callback)
    assert callback.wait(TIMEOUT).status == ErrorStatus.NONE


def measure() -> dict[str, float]:
    """Median microseconds per execution of each path."""
    prepared = _prepare(_add_model())
    request = _request()
    try:
        with BurstController() as burst:
            status, _ = burst.configure(prepared)
            assert status == ErrorStatus.NONE, status
            paths = {
                "burst": lambda: burst.compute(request, MeasureTiming.NO, TIMEOUT),
                "execute_synchronously": lambda: prepared.execute_synchronously(
                    request, MeasureTiming.NO
                ),
                "execute_1_2": lambda: _asynchronous(prepared, request),
            }
            for run in paths.values():  # warm up, and check each path works
                _round(run)
            rounds: dict[str, list[float]] = {name: [] for name in paths}
            for _ in range(runs(ROUNDS, 2)):
                for name, run in paths.items():
                    rounds[name].append(_round(run))
    finally:
        for pool in request.pools:
            pool.close()
    return {name: statistics.median(times) for name, times in rounds.items()}


def run() -> Result:
    us = measure()
    base = us["execute_synchronously"]
    figures = [
        Figure("burst", us["burst"], "us", base, us["burst"] / base),
        Figure("execute_synchronously", base, "us"),
        Figure("execute_1_2", us["execute_1_2"], "us", base, us["execute_1_2"] / base),
    ]
    line = (
        f"paths: ADD float32[4] in-process, per execution: burst {us['burst']:.0f} us, "
        f"execute_synchronously {base:.0f} us, execute_1_2 {us['execute_1_2']:.0f} us; "
        f"ratio burst/sync {us['burst'] / base:.2f}, execute_1_2/sync "
        f"{us['execute_1_2'] / base:.2f}"
    )
    return Result("paths", line, figures)
