"""The reference driver's ELU (98), HARD_SWISH (99), FILL (100) and RANK (101), the
operations HAL 1.3 adds besides QUANTIZED_LSTM and control flow. Every form of the
catalog is implemented (``checked``'s ``newer`` accepts all four operations' forms).

* ELU: ``max(0, x) + min(0, alpha * (exp(x) - 1))`` in float32 (float16 widened and
  rounded back, relaxed models alike), with the C comparisons' NaN behaviour:
  ``std::max(0.f, NaN)`` and ``std::min(0.f, NaN)`` are 0, so a NaN input gives 0.
* HARD_SWISH on floats: ``x * min(6, max(0, x + 3)) / 6`` in float32, multiplied
  before it is divided.
* HARD_SWISH on TENSOR_QUANT8_ASYMM(_SIGNED): the integer procedure Android 11 runs,
  bit for bit (docs/operations.md, HARD_SWISH (99)): the centred input times 128 on
  int16, the output multiplier and the relu-ish multiplier of
  ``hal.checks.newops.hard_swish_multipliers`` applied by int16 rounding doubling
  high multiplies with saturating shifts, the relu-ish value mapped to [0, 1], the
  two multiplied without rounding, the output exponent's rounding right shift on
  int16 (with an exponent of 16 or more every value rounds to +1 or -1, as the
  int16 mask of that shift makes it), the zero point added on int16 (wrapping, as
  the C assignment does) and the result clamped to the output type. A model whose
  output multiplier has an exponent above 0 (output scale at most 1/128 of the
  input's) is one Android 11 fails: this driver declines it (``supports``) and the
  checks fail its execution (``OpFailure``). A zero-sized input gives a zero-sized
  output.
* FILL: every element the value input, the shape the content of input 0 (checked by
  ``hal.checks.newops``); its cost is the output alone, known only once ``prepare``
  has read input 0, so the executor weighs the output against the budgets before
  anything is allocated.
* RANK: the input's number of dimensions, an INT32 scalar.
"""

from __future__ import annotations

import numpy as np

from hal.checks.newops import QUANTIZED, hard_swish_multipliers, hard_swish_output_reason
from hal.forms import Signature
from hal.types import OperationType, numpy_dtype
from reference_driver.ops.base import Cost, OpArgs, Shapes, checked, elements
from reference_driver.ops.common import to_float_type

_Op = OperationType
_INT16_MIN, _INT16_MAX = -(1 << 15), (1 << 15) - 1
_F32_ZERO = np.float32(0.0)


def _every_form(form: Signature) -> bool:
    """``newer``: every catalog form of these operations (all dated 1.3) has its kernel."""
    return True


# Float arithmetic -----------------------------------------------------------------


def _elu(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    values = args.values[0]
    assert values is not None
    x = values.astype(np.float32)
    alpha = np.float32(args.scalar(1))
    with np.errstate(all="ignore"):
        negative = alpha * (np.exp(x) - np.float32(1.0))
        result = np.where(x > _F32_ZERO, x, _F32_ZERO) + np.where(
            negative < _F32_ZERO, negative, _F32_ZERO
        )
    return [to_float_type(result, values.dtype)]


def _hard_swish_float(values: np.ndarray) -> np.ndarray:
    x = values.astype(np.float32)
    with np.errstate(all="ignore"):
        shifted = x + np.float32(3.0)
        relu = np.where(shifted > _F32_ZERO, shifted, _F32_ZERO)
        capped = np.where(relu < np.float32(6.0), relu, np.float32(6.0))
        result = (x * capped) / np.float32(6.0)
    return to_float_type(result, values.dtype)


# Quantized arithmetic (int16 semantics on int64 arrays) ---------------------------


def _wrap16(x: np.ndarray) -> np.ndarray:
    """What storing an int result into an int16 keeps: the low 16 bits, signed."""
    return ((x + (1 << 15)) & 0xFFFF) - (1 << 15)


def _truncating_divide(x: np.ndarray, divisor: int) -> np.ndarray:
    """C's integer division (toward zero) by a positive power of two."""
    return np.where(x >= 0, x // divisor, -((-x) // divisor))


def _rounding_high_mul16(a: np.ndarray, b: int) -> np.ndarray:
    """int16 saturating rounding doubling high multiply of ``a`` by the constant ``b``."""
    product = a * b
    nudge = np.where(product >= 0, 1 << 14, 1 - (1 << 14))
    result = _truncating_divide(product + nudge, 1 << 15)
    if b == _INT16_MIN:
        result = np.where(a == _INT16_MIN, _INT16_MAX, result)
    return result


def _high_mul16(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """int16 saturating doubling high multiply without rounding (truncating)."""
    result = _truncating_divide(a * b, 1 << 15)
    return np.where((a == _INT16_MIN) & (b == _INT16_MIN), _INT16_MAX, result)


def _shift_left16(a: np.ndarray, amount: int) -> np.ndarray:
    """``a * 2**amount`` saturated to the int16 range."""
    return np.clip(a * (1 << amount), _INT16_MIN, _INT16_MAX)


def _rounding_shift_right16(x: np.ndarray, exponent: int) -> np.ndarray:
    """int16 rounding arithmetic right shift by ``exponent`` (0 to 31). The mask is an
    int16, so from 16 on it is all ones: what the C code computes then is kept."""
    mask = int(_wrap16(np.int64((1 << exponent) - 1)))
    remainder = x & mask
    threshold = (mask >> 1) + np.where(x < 0, 1, 0)
    return _wrap16((x >> exponent) + np.where(remainder > threshold, 1, 0))


def _hard_swish_quant(args: OpArgs) -> np.ndarray:
    source, target = args.inputs[0], args.outputs[0]
    values = args.values[0]
    assert values is not None
    out_m, out_e, relu_m, relu_e = hard_swish_multipliers(source, target)
    v = values.astype(np.int64) - source.zero_point
    hires = v * 128
    preshift = _rounding_high_mul16(hires, out_m)
    reluish = hires
    if relu_e > 0:
        reluish = _shift_left16(reluish, relu_e - 1)
    reluish = _rounding_high_mul16(reluish, relu_m)
    if relu_e > 0:
        reluish = _shift_left16(reluish, 1)
    elif relu_e < 0:
        reluish = _rounding_shift_right16(reluish, -relu_e)
    reluish = (reluish + (1 << 15)) >> 1
    result = _rounding_shift_right16(_high_mul16(reluish, preshift), -out_e)
    result = _wrap16(result + target.zero_point)
    info = np.iinfo(numpy_dtype(target.type))
    return np.clip(result, info.min, info.max).astype(info.dtype)


def _hard_swish(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    values = args.values[0]
    assert values is not None
    if values.size == 0:
        return [np.zeros(values.shape, numpy_dtype(args.outputs[0].type))]
    if args.inputs[0].type in QUANTIZED:
        return [_hard_swish_quant(args)]
    return [_hard_swish_float(values)]


def _hard_swish_supported(args: OpArgs) -> bool:
    """Every form but a quantized one Android 11 fails (its output exponent above 0)."""
    return hard_swish_output_reason(args) is None


# FILL, RANK -----------------------------------------------------------------------


def _fill(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    dtype = numpy_dtype(args.outputs[0].type)
    return [np.full(shapes[0], args.scalar(1), dtype=dtype)]


def _rank(args: OpArgs, shapes: Shapes) -> list[np.ndarray]:
    values = args.values[0]
    assert values is not None
    return [np.array(values.ndim, dtype=np.int32)]


# Costs ------------------------------------------------------------------------------

_QUANT_TEMPORARIES = 8
"""int64 arrays of the input's size quantized HARD_SWISH holds at once, at most."""


def _hard_swish_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    values = args.values[0]
    count = 0 if values is None else values.size
    if args.inputs[0].type in QUANTIZED:
        return Cost(work=16 * count, scratch=_QUANT_TEMPORARIES * 8 * count)
    return Cost(work=8 * count, scratch=4 * 4 * count)  # four float32 working arrays


def _fill_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """The output alone (written once, no temporary); before ``prepare`` read input 0,
    only the inputs."""
    sizes = args.values[0]
    read = 1 if sizes is None else sizes.size + 1
    return Cost(work=read + sum(elements(s) for s in shapes or ()), scratch=0)


def _rank_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    return Cost(work=1, scratch=0)  # the input's dimensions only, never its data


COSTS = {
    _Op.HARD_SWISH: _hard_swish_cost,
    _Op.FILL: _fill_cost,
    _Op.RANK: _rank_cost,
}

IMPLEMENTATIONS = (
    checked(_Op.ELU, lambda args: True, _elu, newer=_every_form),
    checked(_Op.HARD_SWISH, _hard_swish_supported, _hard_swish, newer=_every_form),
    checked(_Op.FILL, lambda args: True, _fill, newer=_every_form),
    checked(_Op.RANK, lambda args: True, _rank, newer=_every_form),
)
