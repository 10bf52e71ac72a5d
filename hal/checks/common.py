"""Helpers several operation families share: activations, quantization, axes, shapes.

Family modules import from here and never from each other.
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import OpArgs, OpInvalid
from hal.checks.quant import (
    quant8_activation_range,
    round_half_away,
    round_half_away_array,
)
from hal.types import Operand, OperandType

FLOAT_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)
Q8A = OperandType.TENSOR_QUANT8_ASYMM

_FLOAT_CLAMP = {0: (None, None), 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}
"""Fused activation code -> (low, high) bounds on float outputs."""


def activation_code(args: OpArgs, slot: int) -> int:
    """The fused activation at input ``slot``; OpInvalid unless it is 0..3."""
    code = int(args.scalar(slot))
    if code not in _FLOAT_CLAMP:
        raise OpInvalid(f"fused activation {code} is not one of 0 (NONE) .. 3 (RELU6)")
    return code


def valid_activation(args: OpArgs, slot: int) -> str | None:
    """For ``validate``: why the (constant) activation at ``slot`` is invalid, or None."""
    if args.values[slot] is None:
        return None
    code = int(args.values[slot].item())
    return None if code in _FLOAT_CLAMP else f"fused activation {code} is not one of 0..3"


def apply_float_activation(values: np.ndarray, code: int, in_place: bool = False) -> np.ndarray:
    """The fused activation applied; ``in_place`` overwrites ``values`` (an array the caller
    owns) instead of making a new one."""
    low, high = _FLOAT_CLAMP[code]
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


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """``axis`` in [-rank, rank) as a non-negative index; OpInvalid otherwise."""
    if not -rank <= axis < rank:
        raise OpInvalid(f"{what} {axis} is outside [-{rank}, {rank})")
    return axis % rank


def check_rank(values: np.ndarray, low: int, high: int, what: str = "input 0") -> None:
    if not low <= values.ndim <= high:
        raise OpInvalid(f"{what} has rank {values.ndim}; the operation takes {low} to {high}")


def scalar_round(value: float) -> int:
    """C's std::round, for parameters computed in float."""
    return round_half_away(value)
