"""The networks benchmark (also run as ``mobilenet``): whole models on the reference driver vs PyTorch.

MobileNet v1 (``benchmarks.mobilenet``): float32 and quant8 built as one
``hal.Model`` each, prepared once, median of ``RUNS`` ``execute_synchronously``
calls; the float32 one against the same network and weights in PyTorch on as
many threads (target: under 1.5x torch). Then the median of ``PREPARES``
``prepare_model_1_2`` calls of each, launch to callback (target for float32:
under 0.5 s).

A small LSTM (``benchmarks.lstm``): one UNIDIRECTIONAL_SEQUENCE_LSTM, time 32
x batch 8 x input 64 -> 128 units, float32, the same way, against
``torch.nn.LSTM`` with the same weights and thread count (no target).

Without PyTorch the driver's figures are still reported, with no ratios.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks import lstm, mobilenet
from benchmarks.result import Figure, Result, runs

RUNS = 5
PREPARES = 3
TORCH_TARGET = 1.5
"""MobileNet float32 on the reference driver: under this many times PyTorch's time."""
PREPARE_TARGET_S = 0.5
"""MobileNet float32: preparing it takes under this many seconds."""


@dataclass
class MobileNetTimes:
    """Median seconds of one MobileNet v1 execution on the reference driver and in PyTorch."""

    float_s: float
    quant_s: float
    torch_s: float | None
    """None without PyTorch."""
    difference: float | None
    """Largest |driver - torch| over the float32 outputs."""


def time_mobilenet() -> MobileNetTimes:
    """MobileNet v1 float32 and quant8 on the reference driver, float32 in PyTorch."""
    size, width = mobilenet.shape()
    weights = mobilenet.layers(width=width)
    count = runs(RUNS)
    float_s, float_out = mobilenet.time_driver(
        mobilenet.build_model(False, weights, size), mobilenet.image(False, size), count
    )
    quant_s, _ = mobilenet.time_driver(
        mobilenet.build_model(True, weights, size), mobilenet.image(True, size), count
    )
    torch_result = mobilenet.time_torch(weights, mobilenet.image(False, size), count)
    if torch_result is None:
        return MobileNetTimes(float_s, quant_s, None, None)
    torch_s, torch_out = torch_result
    return MobileNetTimes(float_s, quant_s, torch_s, float(np.abs(torch_out - float_out).max()))


def _mobilenet(figures: list[Figure]) -> str:
    times = time_mobilenet()
    float_ms, quant_ms = times.float_s * 1e3, times.quant_s * 1e3
    line = f"mobilenet: float32 {float_ms:.1f} ms, quant8 {quant_ms:.1f} ms; "
    target = f"< {TORCH_TARGET:g}x torch"
    if times.torch_s is None:
        figures.append(Figure("mobilenet float32", float_ms, "ms", target=target))
        figures.append(Figure("mobilenet quant8", quant_ms, "ms"))
        return line + "torch not installed, no ratio"
    torch_ms = times.torch_s * 1e3
    ratio = times.float_s / times.torch_s
    difference = times.difference
    figures += [
        Figure("mobilenet float32", float_ms, "ms", torch_ms, ratio, target, ratio < TORCH_TARGET),
        Figure("mobilenet quant8", quant_ms, "ms"),
        Figure("mobilenet torch float32", torch_ms, "ms"),
        Figure("mobilenet float32 - torch, max abs", difference, ""),
    ]
    return line + (
        f"torch float32 {torch_ms:.1f} ms ({mobilenet.threads()} threads); "
        f"ratio {float_ms:.1f}/{torch_ms:.1f} = {ratio:.2f} "
        f"(outputs differ by at most {difference:.1e})"
    )


def _prepare_times(figures: list[Figure]) -> str:
    size, width = mobilenet.shape()
    weights = mobilenet.layers(width=width)
    count = runs(PREPARES)
    float_s = mobilenet.time_prepare(mobilenet.build_model(False, weights, size), count)
    quant_s = mobilenet.time_prepare(mobilenet.build_model(True, weights, size), count)
    target = f"< {PREPARE_TARGET_S:g} s"
    figures += [
        Figure(
            "mobilenet float32 prepare", float_s, "s", target=target, met=float_s < PREPARE_TARGET_S
        ),
        Figure("mobilenet quant8 prepare", quant_s, "s"),
    ]
    return (
        f"mobilenet prepare_model_1_2 (median of {count}, launch to callback): "
        f"float32 {float_s:.3f} s (target {target}), quant8 {quant_s:.3f} s"
    )


def _lstm(figures: list[Figure]) -> str:
    weights = lstm.weights()
    data = lstm.sequence()
    count = runs(RUNS)
    model = lstm.build_model(weights)
    driver_s, driver_out = mobilenet.time_driver(model, data, count, label="the LSTM")
    driver_ms = driver_s * 1e3
    line = (
        f"lstm: UNIDIRECTIONAL_SEQUENCE_LSTM float32, time {lstm.STEPS} x batch {lstm.BATCH} x "
        f"input {lstm.INPUTS} -> {lstm.UNITS} units: {driver_ms:.1f} ms; "
    )
    torch_result = lstm.time_torch(weights, data, count)
    if torch_result is None:
        figures.append(Figure("lstm float32", driver_ms, "ms"))
        return line + "torch not installed, no ratio"
    torch_s, torch_out = torch_result
    torch_ms = torch_s * 1e3
    ratio = driver_s / torch_s
    difference = float(np.abs(torch_out - driver_out).max())
    figures += [
        Figure("lstm float32", driver_ms, "ms", torch_ms, ratio),
        Figure("lstm torch.nn.LSTM", torch_ms, "ms"),
        Figure("lstm float32 - torch, max abs", difference, ""),
    ]
    return line + (
        f"torch.nn.LSTM {torch_ms:.1f} ms ({mobilenet.threads()} threads); "
        f"ratio {ratio:.2f} (outputs differ by at most {difference:.1e})"
    )


def run() -> Result:
    figures: list[Figure] = []
    lines = [_mobilenet(figures), _prepare_times(figures), _lstm(figures)]
    return Result("networks", "\n".join(lines), figures)
