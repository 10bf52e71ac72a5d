"""The driver's quantizer: the HAL's fixed-point requantization, vectorised.

These follow the integer scheme the Android 10 CPU reference uses (gemmlowp
style): a real multiplier becomes a 31-bit fixed-point mantissa and a power
of two, products are rounded half away from zero. Not to be confused with the
generator's quantizer (float arithmetic, round half to even), which turns spec
data into example data.
"""

from __future__ import annotations

import math

import numpy as np

_INT32_MIN = -(2**31)
_INT32_MAX = 2**31 - 1


def round_half_away(x: float) -> int:
    """C's ``std::round`` for a scalar, exactly (``x - trunc(x)`` is exact in binary floats)."""
    whole = math.trunc(x)
    if abs(x - whole) >= 0.5:
        whole += 1 if x > 0 else -1
    return whole


def round_half_away_array(x: np.ndarray) -> np.ndarray:
    """C's ``std::round`` element-wise, exactly, as floats."""
    whole = np.trunc(x)
    return whole + np.where(np.abs(x - whole) >= 0.5, np.sign(x), 0.0)


def quantize_multiplier(real: float) -> tuple[int, int]:
    """``real = m0 / 2**31 * 2**shift`` with ``m0`` in [2**30, 2**31): returns (m0, shift)."""
    if real == 0.0:
        return 0, 0
    mantissa, exponent = math.frexp(real)
    m0 = round_half_away(mantissa * (1 << 31))
    if m0 == 1 << 31:
        m0 //= 2
        exponent += 1
    return m0, exponent


def saturating_rounding_doubling_high_mul(a: np.ndarray, m0: int) -> np.ndarray:
    """``round(a * m0 / 2**31)`` with the nudge of the fixed-point reference, on int64."""
    product = a.astype(np.int64) * np.int64(m0)
    nudge = np.where(product >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    total = product + nudge
    # Division by 2**31 truncating toward zero, as C integer division does.
    result = np.where(total >= 0, total >> 31, -((-total) >> 31))
    if m0 == _INT32_MIN:
        result = np.where(a == _INT32_MIN, _INT32_MAX, result)
    return result


def rounding_divide_by_pot(x: np.ndarray, exponent: int) -> np.ndarray:
    """``x / 2**exponent`` rounded half away from zero (arithmetic shift with rounding)."""
    if exponent == 0:
        return x
    mask = np.int64((1 << exponent) - 1)
    remainder = x & mask
    threshold = (mask >> 1) + np.where(x < 0, 1, 0)
    return (x >> exponent) + np.where(remainder > threshold, 1, 0)


def multiply_by_quantized_multiplier(x: np.ndarray, m0: int, shift: int) -> np.ndarray:
    """MBQM: ``x * real`` for ``(m0, shift) = quantize_multiplier(real)``, on int64 arrays."""
    left = max(shift, 0)
    right = max(-shift, 0)
    return rounding_divide_by_pot(
        saturating_rounding_doubling_high_mul(x.astype(np.int64) * (1 << left), m0), right
    )


def quant8_activation_range(activation: int, scale: float, zero_point: int) -> tuple[int, int]:
    """The [lo, hi] clamp of a fused activation in a uint8 output's quantized domain."""

    def quantize(value: float) -> int:
        # The CPU reference divides in float32 (float operands), then rounds.
        return zero_point + round_half_away(float(np.float32(value) / np.float32(scale)))

    if activation == 1:  # RELU
        return max(0, quantize(0.0)), 255
    if activation == 2:  # RELU1
        return max(0, quantize(-1.0)), min(255, quantize(1.0))
    if activation == 3:  # RELU6
        return max(0, quantize(0.0)), min(255, quantize(6.0))
    return 0, 255
