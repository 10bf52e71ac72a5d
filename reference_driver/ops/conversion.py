"""Type conversions: CAST, QUANTIZE and DEQUANTIZE.

CAST converts the raw stored values between TENSOR_FLOAT16, TENSOR_FLOAT32,
TENSOR_INT32 and TENSOR_QUANT8_ASYMM, ignoring quantization parameters on
both sides, as C++ conversions do in the Android 10 CPU reference: floats to
integers truncate toward zero, anything to quant8 is clamped to [0, 255]
first, integers to floats round to the nearest representable value (float16
overflows to infinity). Zero-sized inputs are rejected. HAL 1.3's identity casts
(TENSOR_BOOL8, TENSOR_QUANT16_ASYMM, TENSOR_QUANT16_SYMM, TENSOR_QUANT8_SYMM and
TENSOR_QUANT8_ASYMM_SIGNED to themselves) copy the bytes.

QUANTIZE maps floats to quant8 with ``clamp(zp + round(x / scale), 0, 255)``
(division in float32, rounding half away from zero, NaN saturating to 255).
DEQUANTIZE computes ``scale * (q - zp)`` in float32 (per channel for
TENSOR_QUANT8_SYMM_PER_CHANNEL) and rounds to the output type. Both accept
zero-sized inputs. Their TENSOR_QUANT8_ASYMM_SIGNED forms (HAL 1.3) run on the
unsigned view (``checked``'s ``via_unsigned``): QUANTIZE then gives
``clamp(zp + round(x / scale), -128, 127)``, NaN saturating to 127.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.conversion``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import numpy as np

from hal.checks.conversion import (
    Shape,
    _input,
)
from hal.types import Operand, OperandType, OperationType, SymmPerChannelQuantParams, numpy_dtype
from reference_driver.ops.base import OpArgs, OpFailure, checked
from reference_driver.quant import round_half_away_array

_F16 = OperandType.TENSOR_FLOAT16

_F32 = OperandType.TENSOR_FLOAT32

_I32 = OperandType.TENSOR_INT32

_Q8A = OperandType.TENSOR_QUANT8_ASYMM

_Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL

_CASTABLE = (_F16, _F32, _I32, _Q8A)

_QUANTIZED = (_Q8A, OperandType.TENSOR_QUANT8_SYMM, _Q8C)


# CAST -----------------------------------------------------------------------


def _cast_supports(args: OpArgs) -> bool:
    source, target = args.inputs[0].type, args.outputs[0].type
    return source == target or (source in _CASTABLE and target in _CASTABLE)


def _identity_cast(form) -> bool:
    """HAL 1.3's identity casts (a type to itself)."""
    return form.inputs == form.outputs


def _to_quant8(x: np.ndarray) -> np.ndarray:
    """Clamp to [0, 255], then truncate (NaN, undefined in C, becomes 0)."""
    if x.dtype == np.uint8:
        return x.copy()
    wide = np.nan_to_num(x.astype(np.float64), nan=0.0)
    return np.trunc(np.clip(wide, 0, 255)).astype(np.uint8)


def _to_int32(x: np.ndarray) -> np.ndarray:
    """Truncate toward zero; out-of-range values (undefined in C) saturate, NaN becomes 0."""
    if x.dtype.kind != "f":
        return x.astype(np.int32)
    limits = np.iinfo(np.int32)
    wide = np.nan_to_num(x.astype(np.float64), nan=0.0)
    return np.clip(np.trunc(wide), limits.min, limits.max).astype(np.int32)


def _cast_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    x = _input(args)
    target = args.outputs[0].type
    if target == args.inputs[0].type:
        return [x.copy()]
    if target == _Q8A:
        return [_to_quant8(x)]
    if target == _I32:
        return [_to_int32(x)]
    with np.errstate(over="ignore"):  # float16 overflows to inf, as in C
        return [x.astype(numpy_dtype(target))]


def _quantize_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    output = args.outputs[0]
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = _input(args).astype(np.float32) / np.float32(output.scale)
        q = round_half_away_array(scaled.astype(np.float64)) + output.zero_point
        # std::min<float>(255, NaN) keeps 255: NaN saturates high.
        q = np.where(np.isnan(q), 255.0, np.clip(q, 0, 255))
    return [q.astype(np.uint8)]


def _scales(operand: Operand, rank: int) -> np.ndarray:
    """The float32 scale of every element, broadcastable against the input."""
    params = operand.extra_params
    if operand.type != _Q8C:
        return np.float32(operand.scale)
    if not isinstance(params, SymmPerChannelQuantParams):
        raise OpFailure("a per-channel input needs SymmPerChannelQuantParams")
    shape = [1] * rank
    shape[params.channel_dim] = len(params.scales)
    return np.asarray(params.scales, np.float32).reshape(shape)


def _dequantize_execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
    x = _input(args)
    source = args.inputs[0]
    offsets = (x.astype(np.int32) - np.int32(source.zero_point)).astype(np.float32)
    real = offsets * _scales(source, x.ndim)
    with np.errstate(over="ignore"):  # beyond float16's range: inf, as in C
        return [real.astype(numpy_dtype(args.outputs[0].type))]


IMPLEMENTATIONS = (
    checked(OperationType.CAST, _cast_supports, _cast_execute, _identity_cast),
    checked(
        OperationType.QUANTIZE,
        lambda args: args.inputs[0].type in (_F16, _F32) and args.outputs[0].type == _Q8A,
        _quantize_execute,
        via_unsigned=True,
    ),
    checked(
        OperationType.DEQUANTIZE,
        lambda args: args.inputs[0].type in _QUANTIZED and args.outputs[0].type in (_F16, _F32),
        _dequantize_execute,
        via_unsigned=True,
    ),
)
