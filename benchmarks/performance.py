"""The performance benchmark: the reference driver's PerformanceInfo, measured.

The HAL's PerformanceInfo is a ratio to what the CPU would take for the same
workload. This times MobileNet v1 (224x224) float32 and quant8 on the reference
driver and the same float32 network in PyTorch on the CPU (same thread count),
prints the two ratios next to the ones reference_driver/performance.py keeps,
and the block to paste there when they should be refreshed (with the date).
Needs PyTorch (the ``bench`` extra); without it there is nothing to measure.
"""

from __future__ import annotations

import datetime

from benchmarks.networks import time_mobilenet
from benchmarks.result import Figure, Result
from reference_driver import performance


def run() -> Result:
    times = time_mobilenet()
    if times.torch_s is None:
        raise RuntimeError("PyTorch is not installed (pip install -e .[bench]): no CPU baseline")
    float_ratio = times.float_s / times.torch_s
    quant_ratio = times.quant_s / times.torch_s
    figures = [
        Figure("float32 exec_time", round(float_ratio, 2), "x CPU", performance.FLOAT32_RATIO),
        Figure("quant8 exec_time", round(quant_ratio, 2), "x CPU", performance.QUANT8_RATIO),
    ]
    today = datetime.date.today().isoformat()
    line = (
        f"performance: MobileNet v1 float32 {times.float_s * 1e3:.1f} ms, quant8 "
        f"{times.quant_s * 1e3:.1f} ms, torch float32 {times.torch_s * 1e3:.1f} ms -> "
        f"float32 {float_ratio:.2f}, quant8 {quant_ratio:.2f} (kept in "
        f"reference_driver/performance.py: {performance.FLOAT32_RATIO:g} and "
        f"{performance.QUANT8_RATIO:g}, measured {performance.MEASURED_ON}); to refresh:\n"
        f'    MEASURED_ON = "{today}"\n'
        f"    FLOAT32_RATIO = {float_ratio:.2f}\n"
        f"    QUANT8_RATIO = {quant_ratio:.2f}"
    )
    return Result("performance", line, figures)
