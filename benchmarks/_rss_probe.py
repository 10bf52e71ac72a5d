"""``python -m benchmarks._rss_probe``: the memory-growth benchmark's measurement, in a fresh process.

Imports numpy, hal and reference_driver, builds MobileNet v1 float32 (the
quick one under ``NNHAL_BENCH_QUICK=1``) and its input, then reads the
resident set size (``VmRSS`` of /proc/self/status) as the baseline: the
model's ``operand_values`` already hold the weights then. It resets the peak
(writing 5 to /proc/self/clear_refs, so building the model does not count),
prepares the model on the reference driver, executes it once, and reads the
peak resident set size (``VmHWM``). Prints one JSON object: ``baseline``,
``peak`` and ``weights`` (the model's constant bytes), all in bytes, and
``peak_reset`` (whether the kernel let the peak be reset).
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import numpy  # noqa: F401 - part of what the baseline holds

import hal  # noqa: F401 - part of what the baseline holds
import reference_driver  # noqa: F401 - part of what the baseline holds
from benchmarks import mobilenet
from conformance.harness.requests import pack_request
from hal.types import ErrorStatus, MeasureTiming, Model, OperandLifeTime

_CONSTANT = (OperandLifeTime.CONSTANT_COPY, OperandLifeTime.CONSTANT_REFERENCE)


def status_bytes(field: str) -> int:
    """A ``kB`` line of /proc/self/status (``VmRSS``, ``VmHWM``), in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name == field:
            number, unit = value.split()
            assert unit == "kB", line
            return int(number) * 1024
    raise RuntimeError(f"/proc/self/status has no {field} line")


def reset_peak() -> bool:
    """Makes VmHWM the current RSS (Linux 4.0 and later); False where that is refused."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def constant_bytes(model: Model) -> int:
    return sum(o.location.length for o in model.operands if o.lifetime in _CONSTANT)


def measure() -> dict[str, int | bool]:
    size, width = mobilenet.shape()
    model = mobilenet.build_model(False, mobilenet.layers(width=width), size)
    data = mobilenet.image(False, size)
    gc.collect()
    peak_reset = reset_peak()
    baseline = status_bytes("VmRSS")
    _, prepared = mobilenet.prepare(model)
    with pack_request(model, [data]) as packed:
        status, _, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
        if status != ErrorStatus.NONE:
            raise RuntimeError(f"executing MobileNet failed: {status.name}")
    peak = status_bytes("VmHWM")
    return {
        "baseline": baseline,
        "peak": peak,
        "weights": constant_bytes(model),
        "peak_reset": peak_reset,
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
