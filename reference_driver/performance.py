"""The reference driver's PerformanceInfo: measured once, offline, and kept here.

The HAL asks a driver to describe its speed and power on a reference workload
as ratios to what the CPU would need for the same workload (lower is better).
These figures come from ``python -m benchmarks performance`` (benchmarks/
performance.py), which times MobileNet v1 224x224 float32 and quant8 on this
driver against the same float32 network in PyTorch on the CPU (same thread
count) standing in for "the CPU", and prints the block below. They are not
measured when a driver object starts.

* float32 (and relaxed float32, float16, every non-quantized operand type):
  the MobileNet float32 time over PyTorch's;
* quantized operand types: the MobileNet quant8 time over the same PyTorch
  float32 time (the CPU's cost of the workload, whatever arithmetic it uses);
* power: this driver computes on the same CPU cores as the baseline, so its
  energy ratio is taken equal to its time ratio.
"""

from __future__ import annotations

from hal.types import QUANTIZED_TENSOR_TYPES, OperandType, PerformanceInfo

MEASURED_ON = "2026-11-26"
"""The date of the runs below (``python -m benchmarks performance``, 2-core machine;
after the depthwise rewrite of that day). PyTorch's time varied from 21 to 38 ms
between runs on this shared machine, so each ratio is the median of the ratios
of four runs (float32 0.59, 1.02, 1.27, 1.30; quant8 1.44, 2.20, 2.92, 3.21)."""
FLOAT32_RATIO = 1.15
"""MobileNet v1 float32 on this driver over PyTorch CPU float32 (median ms / median ms)."""
QUANT8_RATIO = 2.56
"""MobileNet v1 quant8 on this driver over PyTorch CPU float32."""

FLOAT_PERFORMANCE = PerformanceInfo(exec_time=FLOAT32_RATIO, power_usage=FLOAT32_RATIO)
QUANT_PERFORMANCE = PerformanceInfo(exec_time=QUANT8_RATIO, power_usage=QUANT8_RATIO)
CONTROL_FLOW_PERFORMANCE = FLOAT_PERFORMANCE
"""``ifPerformance`` and ``whilePerformance``: what an IF or WHILE costs beyond its
subgraphs' operations (a client adds those: half of both branches for an IF, the
condition and the body for a WHILE). Here it is the executor's own work, on the same
cores as the kernels: deciding, calling a subgraph, carrying its values (Python-level
steps, like the float kernels' dispatch), so it is priced as the float workload."""


_QUANTIZED = frozenset({*QUANTIZED_TENSOR_TYPES, OperandType.TENSOR_QUANT8_ASYMM_SIGNED})
"""The types priced as quantized (HAL 1.3's signed 8-bit type is one, whatever list
of ``hal.types`` it is in yet)."""


def performance_of(operand_type: int) -> PerformanceInfo:
    """The figure reported for one operand type."""
    return QUANT_PERFORMANCE if operand_type in _QUANTIZED else FLOAT_PERFORMANCE
