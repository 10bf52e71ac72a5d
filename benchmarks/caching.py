"""Compilation caching: preparing MobileNet v1 from its cache vs preparing it afresh.

For float32 and quant8: the median time of ``prepare_model_1_2`` (launch to
callback), of ``save_to_cache`` into two empty files, and of
``prepare_model_from_cache`` (launch to callback) on the reference driver,
with the ratio from-cache / afresh. A quick run (``NNHAL_BENCH_QUICK=1``)
uses the quick MobileNet (``benchmarks.mobilenet.shape``) and one run of each.
"""

from __future__ import annotations

import os
import statistics
import time

from benchmarks import mobilenet
from benchmarks.result import Figure, Result, runs
from conformance.harness.caching import CacheFiles, token
from hal.callbacks import PreparedModelCallback
from hal.types import ErrorStatus, ExecutionPreference
from reference_driver import ReferenceDriver

RUNS = 5
TIMEOUT = 120.0


def _prepare(device: ReferenceDriver, model) -> tuple[float, object]:
    callback = PreparedModelCallback()
    start = time.perf_counter()
    device.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(TIMEOUT)
    elapsed = time.perf_counter() - start
    assert notification.status == ErrorStatus.NONE, notification
    return elapsed, notification.prepared_model


def _from_cache(device: ReferenceDriver, files: CacheFiles) -> float:
    callback = PreparedModelCallback()
    start = time.perf_counter()
    device.prepare_model_from_cache(*files.handles(os.O_RDONLY), token(1), callback)
    notification = callback.wait(TIMEOUT)
    elapsed = time.perf_counter() - start
    files.close_descriptors()
    assert notification.status == ErrorStatus.NONE, notification
    return elapsed


def _measure(device: ReferenceDriver, quant: bool) -> tuple[float, float, float, int]:
    size, width = mobilenet.shape()
    model = mobilenet.build_model(quant, mobilenet.layers(width=width), size)
    count = runs(RUNS)
    afresh = []
    prepared = None
    for _ in range(count):
        elapsed, prepared = _prepare(device, model)
        afresh.append(elapsed)
    with CacheFiles() as files:
        saves = []
        for _ in range(count):
            files.empty()
            start = time.perf_counter()
            status = prepared.save_to_cache(*files.handles(), token(1))
            saves.append(time.perf_counter() - start)
            files.close_descriptors()
            assert status == ErrorStatus.NONE, status
        size = len(files.read("model")) + len(files.read("data"))
        cached = [_from_cache(device, files) for _ in range(count)]
    return statistics.median(afresh), statistics.median(saves), statistics.median(cached), size


def run() -> Result:
    device = ReferenceDriver()
    parts = []
    figures = []
    for name, quant in (("float32", False), ("quant8", True)):
        afresh, save, cached, size = _measure(device, quant)
        figures += [
            Figure(f"{name} prepare", afresh * 1e3, "ms"),
            Figure(f"{name} save_to_cache", save * 1e3, "ms"),
            Figure(f"{name} from cache", cached * 1e3, "ms", afresh * 1e3, cached / afresh),
            Figure(f"{name} cache size", size / 2**20, "MiB"),
        ]
        parts.append(
            f"{name} prepare {afresh * 1e3:.0f} ms, save {save * 1e3:.0f} ms, "
            f"from cache {cached * 1e3:.0f} ms ({size / 2**20:.1f} MiB cached); "
            f"ratio {cached / afresh:.2f}"
        )
    return Result("caching", "caching (MobileNet v1): " + "; ".join(parts), figures)
