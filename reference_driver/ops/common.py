"""Helpers several operation families share: activations, quantization, axes, shapes.

Family modules import from here and never from each other. The helpers their checks
use too (activation codes, axes, ranks) are ``hal.checks.common``'s, re-exported.
"""

from __future__ import annotations

import numpy as np

from hal.checks.common import (
    FLOAT_CLAMP,
    FLOAT_TYPES,
    Q8A,
    activation_code,
    check_rank,
    normalize_axis,
    valid_activation,
)
from hal.types import Operand, OperandType
from reference_driver.quant import (
    quant8_activation_range,
    round_half_away,
    round_half_away_array,
)


def apply_float_activation(values: np.ndarray, code: int, in_place: bool = False) -> np.ndarray:
    """The fused activation applied; ``in_place`` overwrites ``values`` (an array the caller
    owns) instead of making a new one."""
    low, high = FLOAT_CLAMP[code]
    if low is None and high is None:
        return values
    return np.clip(values, low, high, out=values if in_place else None)


def clamp_quant8(raw: np.ndarray, code: int, output: Operand) -> np.ndarray:
    """Raw requantized integers clamped to the activation range of a uint8 output."""
    low, high = quant8_activation_range(code, output.scale, output.zero_point)
    return np.clip(raw, low, high).astype(np.uint8)


def to_float_type(values: np.ndarray, like: np.dtype) -> np.ndarray:
    """Float results back to the operand's float type; overflow to inf as C does."""
    with np.errstate(over="ignore", invalid="ignore"):
        return values.astype(like, copy=False)


def dequantize(values: np.ndarray, operand: Operand) -> np.ndarray:
    """Real values of a quantized tensor, in float64: scale * (q - zeroPoint)."""
    return operand.scale * (values.astype(np.float64) - operand.zero_point)


def quantize(real: np.ndarray, operand: Operand) -> np.ndarray:
    """Real values to the operand's quantized type: round half away from zero, clamp."""
    q = round_half_away_array(real / operand.scale) + operand.zero_point
    info = np.iinfo(_QUANT_DTYPE[operand.type])
    return np.clip(q, info.min, info.max).astype(_QUANT_DTYPE[operand.type])


_QUANT_DTYPE = {
    OperandType.TENSOR_QUANT8_ASYMM: np.uint8,
    OperandType.TENSOR_QUANT8_SYMM: np.int8,
    OperandType.TENSOR_QUANT16_ASYMM: np.uint16,
    OperandType.TENSOR_QUANT16_SYMM: np.int16,
}


def requantize(values: np.ndarray, source: Operand, target: Operand) -> np.ndarray:
    """Quantized values re-expressed in another quantization (float, half away from zero)."""
    if (source.scale, source.zero_point) == (target.scale, target.zero_point):
        return values.astype(_QUANT_DTYPE[target.type])
    return quantize(dequantize(values, source), target)


def scalar_round(value: float) -> int:
    """C's std::round, for parameters computed in float."""
    return round_half_away(value)


__all__ = [
    "FLOAT_TYPES",
    "Q8A",
    "activation_code",
    "apply_float_activation",
    "check_rank",
    "clamp_quant8",
    "dequantize",
    "normalize_axis",
    "quantize",
    "requantize",
    "scalar_round",
    "to_float_type",
    "valid_activation",
]
