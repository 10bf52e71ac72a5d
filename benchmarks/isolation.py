"""The isolation benchmark: what calling a driver through a guard costs per execution.

Subject: ADD of two [16, 16] TENSOR_FLOAT32 inputs on the reference driver,
prepared once, executed with ``execute_synchronously`` (pools reused) in three
ways: ``direct`` (the driver object itself: the baseline), ``in-process``
(``--driver-isolation=none``: each call on a worker thread, waited for with a
timeout) and ``process`` (``--driver-isolation=process``: the driver in a
service process, the call and its answer over the Unix socket). Then one
burst execution per round trip, in this process and across the process
boundary, against a bare two-process ping-pong of packets of the same sizes
over the same fast message queues (a child that only echoes), measured in the
same run. ``get_type`` (a call that carries nothing) is timed directly and across
the boundary: the cost of a round trip by itself. Opening and closing a burst that
executes nothing (``configure_execution_burst``, then the context's ``close``, with
the queues made and freed) is timed directly and across the boundary, against the
empty call. Every figure is the best of interleaved rounds of the mean time per
call (other processes only ever add time). Two burst ratios are printed: the
round trip minus the model's direct execution, and the round trip minus the
same burst in this process (what the process boundary alone adds), each over
the bare ping-pong. Last, what a model-validation test does for each mutated
model: ``get_supported_operations_1_2`` and ``prepare_model_1_2`` of 20 invalid
CONV_2D models (the suite's ``operand_type_invalid`` mutations), behind the
in-process guard (the baseline), across the process boundary one call at a time,
and as one sequence per model (``conformance.harness.calls.call_many``, what the
validation tests send): the time per model and the ratios to the in-process guard.
A quick run (``NNHAL_BENCH_QUICK=1``) times 2 rounds of 30.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from benchmarks.result import Figure, Result, best_us, runs
from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.burst import (
    REQUEST_DATUM_SIZE,
    RESULT_DATUM_SIZE,
    BurstController,
    encode_request,
    encode_result,
    serialize_request,
    serialize_result,
)
from hal.callbacks import PreparedModelCallback
from hal.fmq import MessageQueue
from hal.loader import load_driver
from hal.show import show
from hal.types import (
    NO_TIMING,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    MeasureTiming,
    OutputShape,
)
from isolation.proxy import DriverService, InProcessGuard

MUTATED = 20
"""Invalid models timed for the validation figures."""

SHAPE = (16, 16)
CALLS = 300
ROUNDS = 7
TIMEOUT = 30.0

_ECHO = """
import sys
from hal.fmq import FmqClosed, FmqDescriptor, MessageQueue
from hal.memory import NativeHandle

fds = [int(x) for x in sys.argv[1:7]]
capacity, request_size, result_size = (int(x) for x in sys.argv[7:10])
answer = bytes(int(sys.argv[10]))
requests = MessageQueue.attach(FmqDescriptor(NativeHandle(fds[:3]), capacity, request_size))
results = MessageQueue.attach(FmqDescriptor(NativeHandle(fds[3:]), capacity, result_size))
while True:
    try:
        requests.read_blocking(None, 60.0)
    except FmqClosed:
        break
    results.write_blocking(answer, 60.0)
"""


def _prepare(device):
    callback = PreparedModelCallback()
    device.prepare_model_1_2(
        binary_model(dims=SHAPE), ExecutionPreference.FAST_SINGLE_ANSWER, callback
    )
    notification = callback.wait(TIMEOUT)
    if notification.status != ErrorStatus.NONE:
        raise RuntimeError(f"preparing the benchmark model failed: {notification.status.name}")
    return notification.prepared_model


def _sync(prepared, request) -> Callable[[], object]:
    def call() -> None:
        status, _, _ = prepared.execute_synchronously(request, MeasureTiming.NO)
        if status != ErrorStatus.NONE:
            raise RuntimeError(f"execution failed: {ErrorStatus(status).name}")

    return call


def _burst(controller: BurstController, request) -> Callable[[], object]:
    return lambda: controller.compute(request, MeasureTiming.NO, TIMEOUT)


def _burst_setup(prepared) -> Callable[[], object]:
    """Open a burst on ``prepared`` and close it, executing nothing: what the suite pays
    for every burst it opens beyond its executions."""

    def call() -> None:
        controller = BurstController()
        try:
            answer = controller.configure(prepared)
            if controller.context is None:
                raise RuntimeError(f"configure_execution_burst answered {show(answer)}")
        finally:
            controller.close()

    return call


def _ping_pong(request_packet: bytes, result_size: int):
    """A child echoing a result-sized packet for every request packet; (call, close)."""
    capacity = 1024
    requests = MessageQueue.create(capacity, REQUEST_DATUM_SIZE)
    results = MessageQueue.create(capacity, RESULT_DATUM_SIZE)
    fds = requests.descriptor.handle.fds + results.descriptor.handle.fds
    arguments = [*map(str, fds), str(capacity), str(REQUEST_DATUM_SIZE), str(RESULT_DATUM_SIZE)]
    child = subprocess.Popen(
        [sys.executable, "-c", _ECHO, *arguments, str(result_size)], pass_fds=fds
    )

    def call() -> None:
        requests.write_blocking(request_packet, TIMEOUT)
        results.read_blocking(None, TIMEOUT)

    def close() -> None:
        requests.shutdown()
        child.wait(TIMEOUT)
        requests.close()
        results.close()

    return call, close


def _invalid_models() -> list:
    from conformance.harness.mutations import FAMILIES, case_id, corpus

    test = next(t for t in corpus() if case_id(t).startswith("V1_2/conv2d"))
    mutations = list(FAMILIES["operand_type_invalid"].mutations(test.model))[:MUTATED]
    return [mutation.apply(test.model) for mutation in mutations]


def _validation(device, models, together: bool) -> Callable[[], object]:
    """Each mutated model's calls, as a validation test makes them; raises unless refused."""
    from conformance.harness.calls import answer, call_many, prepare_call, supported_call

    def call() -> None:
        for model in models:
            calls = [
                supported_call(device, model, HalVersion.V1_2),
                prepare_call(device, model, HalVersion.V1_2),
            ]
            outcomes = call_many(calls) if together else [call_many([c])[0] for c in calls]
            answers = [answer(c[0], c[1], o) for c, o in zip(calls, outcomes, strict=True)]
            notified = calls[1][2][-1].wait(TIMEOUT).status
            if (answers[0][0], answers[1], notified) != (ErrorStatus.INVALID_ARGUMENT,) * 3:
                raise RuntimeError("a mutated model was not refused")

    return call


def _per_model_us(calls: dict[str, Callable[[], object]]) -> dict[str, float]:
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs(ROUNDS, 2)):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            samples[name].append((time.perf_counter() - start) / MUTATED * 1e6)
    return {name: min(values) for name, values in samples.items()}


def run() -> Result:
    a = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    direct = load_driver(None).device
    guarded = InProcessGuard(TIMEOUT).wrap(load_driver(None)).device
    service = DriverService(None, TIMEOUT)
    remote = service.start().device
    controllers: list[BurstController] = []
    try:
        with pack_request(binary_model(dims=SHAPE), [a, a]) as packed:
            request = packed.request
            prepared = {
                name: _prepare(d)
                for name, d in (("direct", direct), ("in-process", guarded), ("process", remote))
            }
            calls = {name: _sync(model, request) for name, model in prepared.items()}
            # A call carrying nothing: what the boundary costs a call by itself.
            calls["empty direct"] = direct.get_type
            calls["empty process"] = remote.get_type
            for name in ("direct", "process"):
                controller = BurstController()
                controllers.append(controller)
                controller.configure(prepared[name])
                calls[f"burst {name}"] = _burst(controller, request)
                calls[f"burst setup {name}"] = _burst_setup(prepared[name])
            packet = encode_request(serialize_request(request, MeasureTiming.NO, [0, 1]))
            shapes = [OutputShape(list(SHAPE), True)]
            result = encode_result(serialize_result(ErrorStatus.NONE, shapes, NO_TIMING))
            ping, stop = _ping_pong(packet, len(result))
            calls["ping-pong"] = ping
            try:
                us = best_us(calls, runs(CALLS, 30), runs(ROUNDS, 2))
            finally:
                stop()
    finally:
        for controller in controllers:
            controller.close()
        service.close()
    models = _invalid_models()
    guarded_device = InProcessGuard(TIMEOUT).wrap(load_driver(None)).device
    service = DriverService(None, TIMEOUT)
    remote = service.start().device
    try:
        validation = _per_model_us(
            {
                "in-process": _validation(guarded_device, models, together=False),
                "one by one": _validation(remote, models, together=False),
                "sequence": _validation(remote, models, together=True),
            }
        )
    finally:
        service.close()
    base = us["direct"]
    own = us["burst process"] - base
    boundary = us["burst process"] - us["burst direct"]
    ping = us["ping-pong"]
    figures = [
        Figure("direct", base, "us"),
        Figure("in-process guard", us["in-process"], "us", base, us["in-process"] / base),
        Figure("process", us["process"], "us", base, us["process"] / base),
        Figure("empty call direct", us["empty direct"], "us"),
        Figure("empty call process", us["empty process"], "us"),
        Figure("burst direct", us["burst direct"], "us"),
        Figure("burst process", us["burst process"], "us"),
        Figure("bare FMQ ping-pong", ping, "us"),
        Figure("burst open and close direct", us["burst setup direct"], "us"),
        Figure(
            "burst open and close process",
            us["burst setup process"],
            "us",
            us["empty process"],
            us["burst setup process"] / us["empty process"],
        ),
        Figure("burst process - direct execution", own, "us", ping, own / ping),
        Figure("burst process - burst direct", boundary, "us", ping, boundary / ping),
    ]
    local = validation["in-process"]
    figures += [
        Figure("validation, in-process guard", local, "us per model"),
        Figure(
            "validation, process, one call at a time",
            validation["one by one"],
            "us per model",
            local,
            validation["one by one"] / local,
        ),
        Figure(
            "validation, process, one sequence",
            validation["sequence"],
            "us per model",
            local,
            validation["sequence"] / local,
        ),
    ]
    line = (
        f"isolation (ADD {SHAPE[0]}x{SHAPE[1]} float32, execute_synchronously): direct "
        f"{base:.0f} us, in-process guard {us['in-process']:.0f} us (ratio "
        f"{us['in-process'] / base:.2f}), process {us['process']:.0f} us (ratio "
        f"{us['process'] / base:.2f}); get_type: direct {us['empty direct']:.1f} us, process "
        f"{us['empty process']:.0f} us; burst: direct {us['burst direct']:.0f} us, process "
        f"{us['burst process']:.0f} us; bare FMQ ping-pong {us['ping-pong']:.0f} us; "
        f"opening and closing a burst: direct {us['burst setup direct']:.0f} us, process "
        f"{us['burst setup process']:.0f} us ({us['burst setup process'] / us['empty process']:.1f} "
        "empty calls); "
        f"(burst process - direct execution) / ping-pong = {own / us['ping-pong']:.2f}; "
        f"(burst process - burst direct) / ping-pong = {boundary / us['ping-pong']:.2f}\n"
        f"isolation (validation of an invalid CONV_2D model: supported operations and "
        f"prepare): in-process guard {local:.0f} us, process one call at a time "
        f"{validation['one by one']:.0f} us (ratio {validation['one by one'] / local:.2f}), "
        f"process one sequence {validation['sequence']:.0f} us (ratio "
        f"{validation['sequence'] / local:.2f})"
    )
    return Result("isolation", line, figures)
