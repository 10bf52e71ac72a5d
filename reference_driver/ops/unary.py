"""The reference driver's unary operations: float math, FLOOR, NEG, activations.

ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT (HAL 1.2) take tensors of any rank from
1; FLOOR, LOGISTIC, TANH, RELU, RELU1 and RELU6 (HAL 1.0) take ranks 1 to 4.
Every output has the input's shape. Float16 is widened to float32, computed
and rounded back, as the Android 10 CPU reference does; relaxed models are
computed in float32 too. NEG, and since HAL 1.3 ABS, also take TENSOR_INT32 (two's
complement, so INT32_MIN stays INT32_MIN for both).

Quantized forms (docs/operations.md, LOGISTIC (14), RELU (19) to RELU6 (21) and
TANH (28)):

* RELU, RELU1, RELU6 clamp the raw bytes to the activation range of the
  input's scale and zero point, ``zp + round(bound / scale)`` with the
  division in float32 as in the CPU reference; the output carries the
  input's parameters.
* LOGISTIC writes scale 1/256, zero point 0, and TANH scale 1/128, zero point
  128. Both follow the CPU reference's fixed-point scheme: the centred input
  is rescaled to a Q4.27 value by a multiplier above one (the input scale
  must exceed 2**-27, or the execution fails), inputs at or beyond the radius
  of that format saturate to 0 or 255, and the rest round ``256 * sigmoid``
  (``128 + 128 * tanh``) half away from zero, 256 becoming 255. The function
  itself is evaluated in float64, within one unit of the fixed-point result.

The signed forms (TENSOR_QUANT8_ASYMM_SIGNED, HAL 1.3) run these kernels on the
operation's unsigned view (``checked``'s ``via_unsigned``): the result is the
unsigned one minus 128, for LOGISTIC and TANH too, whose signed outputs carry zero
points -128 and 0. Android 11 computes those two with integer kernels of its own
that may differ from it by one (docs/writing-a-driver.md, "Signed forms").

Only LOGISTIC, TANH and the RELUs accept a zero-sized input (the output keeps
the 0, nothing is computed); the others fail the execution on one.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.unary``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from hal.checks.unary import (
    SPECS,
    Shape,
)
from hal.types import FusedActivationFunc, Operand, OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, checked, int32_form
from reference_driver.ops.common import Q8A, to_float_type
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quant8_activation_range,
    quantize_multiplier,
    round_half_away_array,
)

FloatFn = Callable[[np.ndarray], np.ndarray]

_I32 = OperandType.TENSOR_INT32
_FLT_MAX = float(np.finfo(np.float32).max)

_INPUT_INTEGER_BITS = 4

"""Integer bits of the fixed-point input of quantized LOGISTIC and TANH (Q4.27)."""


# Float arithmetic -----------------------------------------------------------------


def _in_float32(fn: FloatFn) -> Callable[[np.ndarray], np.ndarray]:
    """``fn`` computed in float32 and rounded back to the input's float type."""

    def run(values: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):  # log(0), sqrt(-1), exp overflow: IEEE results
            result = fn(values.astype(np.float32))
        return to_float_type(result, values.dtype)

    return run


def _clamp(low: float, high: float) -> FloatFn:
    """``std::min(std::max(low, x), high)``: NaN becomes ``low``, -0.0 becomes ``low``."""

    def clamp(x: np.ndarray) -> np.ndarray:
        raised = np.where(np.float32(low) < x, x, np.float32(low))
        return np.where(np.float32(high) < raised, np.float32(high), raised)

    return clamp


def _logistic(x: np.ndarray) -> np.ndarray:
    one = np.float32(1.0)
    return one / (one + np.exp(-x))


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return np.float32(1.0) / np.sqrt(x)


# Quantized arithmetic -------------------------------------------------------------


def _fixed_point_input(q: np.ndarray, operand: Operand) -> tuple[np.ndarray, np.ndarray, int]:
    """The centred input, its Q4.27 rescaling (as a real) and the saturation radius."""
    real_multiplier = operand.scale * float(1 << (31 - _INPUT_INTEGER_BITS))
    if not real_multiplier > 1.0:
        raise OpFailure(
            f"input scale {operand.scale} is too small: the fixed-point rescaling needs "
            f"scale * 2**{31 - _INPUT_INTEGER_BITS} > 1"
        )
    m0, left_shift = quantize_multiplier(real_multiplier)
    largest = ((1 << _INPUT_INTEGER_BITS) - 1) * (1 << (31 - _INPUT_INTEGER_BITS))
    radius = math.floor(largest / (1 << left_shift))
    centered = q.astype(np.int64) - operand.zero_point
    # Only values inside the radius are rescaled (the rest saturate): they fit in int32.
    inside = np.clip(centered, -radius, radius)
    rescaled = multiply_by_quantized_multiplier(inside, m0, left_shift)
    return centered, rescaled / float(1 << (31 - _INPUT_INTEGER_BITS)), radius


def _saturating_quant(
    fn: Callable[[np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, Operand], np.ndarray]:
    """A quantized LOGISTIC/TANH body: ``fn`` maps the real input to the raw output."""

    def run(q: np.ndarray, operand: Operand) -> np.ndarray:
        centered, real, radius = _fixed_point_input(q, operand)
        raw = np.minimum(fn(real), 255)
        raw = np.where(centered <= -radius, 0, np.where(centered >= radius, 255, raw))
        return raw.astype(np.uint8)

    return run


def _relu_quant(code: int) -> Callable[[np.ndarray, Operand], np.ndarray]:
    """Raw bytes clamped to the activation range of the input's scale and zero point."""

    def run(q: np.ndarray, operand: Operand) -> np.ndarray:
        low, high = quant8_activation_range(code, operand.scale, operand.zero_point)
        return np.clip(q, low, high).astype(np.uint8)

    return run


_QUANT_LOGISTIC = _saturating_quant(lambda x: round_half_away_array(256.0 / (1.0 + np.exp(-x))))

_QUANT_TANH = _saturating_quant(lambda x: 128.0 + round_half_away_array(128.0 * np.tanh(x)))


# Assembly -------------------------------------------------------------------------


def _make(
    op: OperationType,
    float_fn: FloatFn,
    quant_fn: Callable[[np.ndarray, Operand], np.ndarray] | None = None,
) -> OperationImpl:
    compute_float = _in_float32(float_fn)
    types = SPECS[op].types

    def execute(args: OpArgs, shapes: list[Shape]) -> list[np.ndarray]:
        values = args.values[0]
        assert values is not None
        if values.size == 0:
            return [values.copy()]
        operand = args.inputs[0]
        if operand.type == Q8A and quant_fn is not None:
            return [quant_fn(values, operand)]
        if operand.type == _I32:
            return [float_fn(values)]  # NEG, ABS: numpy's int32 wraps at INT32_MIN
        return [compute_float(values)]

    return checked(
        op, lambda args: args.inputs[0].type in types, execute, int32_form, via_unsigned=True
    )


_Op = OperationType


def _activation(op: OperationType, low: float, high: float | None, code: int) -> OperationImpl:
    # RELU's float upper bound is FLT_MAX as in the CPU reference: +inf becomes FLT_MAX.
    return _make(op, _clamp(low, _FLT_MAX if high is None else high), _relu_quant(code))


IMPLEMENTATIONS = (
    _make(_Op.ABS, np.abs),
    _make(_Op.EXP, np.exp),
    _make(_Op.LOG, np.log),
    _make(_Op.NEG, np.negative),
    _make(_Op.RSQRT, _rsqrt),
    _make(_Op.SIN, np.sin),
    _make(_Op.SQRT, np.sqrt),
    _make(_Op.FLOOR, np.floor),
    _make(_Op.LOGISTIC, _logistic, _QUANT_LOGISTIC),
    _make(_Op.TANH, np.tanh, _QUANT_TANH),
    _activation(_Op.RELU, 0.0, None, FusedActivationFunc.RELU),
    _activation(_Op.RELU1, -1.0, 1.0, FusedActivationFunc.RELU1),
    _activation(_Op.RELU6, 0.0, 6.0, FusedActivationFunc.RELU6),
)
