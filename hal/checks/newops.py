"""The checks of four operations HAL 1.3 adds: ELU (98), HARD_SWISH (99), FILL (100)
and RANK (101).

None of them has a rank limit. What their definitions forbid, and what Android 11's
CPU executor fails although the HAL allows it:

* ELU and HARD_SWISH: the output has the input's shape (a declared output of other
  dimensions is refused at preparation) and the input has rank 1 or more. ELU fails
  the execution of a zero-sized input (``OpFailure``: Android 11 registers it without
  zero-sized support, where the HAL text allows it); HARD_SWISH accepts one.
* HARD_SWISH on TENSOR_QUANT8_ASYMM(_SIGNED): the output's scale and zero point are
  free, but Android 11 fails the execution when the output multiplier
  ``(input scale / 128) / output scale`` is 1 or more (its exponent is above 0, that
  is the output scale is at most 1/128 of the input's). The HAL does not forbid
  such a model, so ``validate`` accepts it and ``prepare`` raises ``OpFailure``
  (GENERAL_FAILURE, never a violation). ``hard_swish_multipliers`` is that
  derivation; the reference driver computes with it and declines such a model
  (``reference_driver/ops/newops.py``).
* FILL: the output's shape is the *content* of input 0, a rank-1 TENSOR_INT32 that
  may be a model input, so it is known only at execution. Input 0 of another rank,
  of no element (the output would have rank 0) or holding a negative size is
  refused (INVALID_ARGUMENT); so is a declared output whose rank or known sizes
  disagree with it: at preparation when input 0 is a constant, at execution
  otherwise. A size of 0 gives a zero-sized output.
* RANK: the output is an INT32 scalar (shape ``()``), the number of dimensions of
  the input at execution (the model may leave it unknown). A zero-sized input fails
  the execution (``OpFailure``), as Android 11 registers RANK without zero-sized
  support.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.checks.common import declared_shape_reason
from hal.types import Operand, OperandType, OperationType

Shape = tuple[int, ...]

QUANTIZED = (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT8_ASYMM_SIGNED)
"""HARD_SWISH's quantized operand types (the integer procedure)."""

RELUISH_SCALE = 3.0 / 32768.0
"""The scale on which HARD_SWISH's relu-ish value has 3.0 at 32768 (computed in float32)."""


# Shared ---------------------------------------------------------------------------


def _input(args: OpArgs) -> np.ndarray:
    values = args.values[0]
    if values is None:
        raise OpFailure("input 0 has no value")
    return values


def _at_least_rank_1(values: np.ndarray, name: str) -> None:
    if values.ndim < 1:
        raise OpInvalid(f"input 0 has rank {values.ndim}; {name} takes rank 1 or more")


# ELU ------------------------------------------------------------------------------


def _elu_prepare(args: OpArgs) -> list[Shape]:
    values = _input(args)
    _at_least_rank_1(values, "ELU")
    if values.size == 0:
        raise OpFailure(f"ELU does not accept the zero-sized input {values.shape}")
    return [values.shape]


# HARD_SWISH -----------------------------------------------------------------------


def _float32(x: float) -> float:
    """``x`` rounded to the nearest float32 (the C code's ``float`` arithmetic)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def quantize_multiplier(real: float) -> tuple[int, int]:
    """``real`` as a Q31 mantissa and an exponent, ``real = m / 2**31 * 2**e`` with
    ``m`` in [2**30, 2**31]; an exponent below -31 flushes to (0, 0), as Android's."""
    if real == 0.0:
        return 0, 0
    mantissa, exponent = math.frexp(real)
    scaled = mantissa * (1 << 31)
    fixed = math.floor(scaled + 0.5) if scaled >= 0 else -math.floor(-scaled + 0.5)
    if fixed == 1 << 31:
        fixed //= 2
        exponent += 1
    if exponent < -31:
        return 0, 0
    return fixed, exponent


def narrow_multiplier(fixed: int) -> int:
    """A Q31 multiplier narrowed to Q15, rounding; saturates at 32767 near 2**31."""
    if fixed >= (2**31 - 1) - (1 << 15):
        return 32767
    return (fixed + (1 << 15)) >> 16


def hard_swish_multipliers(input_: Operand, output: Operand) -> tuple[int, int, int, int]:
    """(output multiplier, its exponent, relu-ish multiplier, its exponent) of quantized
    HARD_SWISH: the Q15 multipliers of ``(s_in / 128) / s_out`` and
    ``(s_in / 128) / (3 / 32768)``, each computed in float32 as Android 11 does."""
    hires = _float32(_float32(1.0 / 128.0) * _float32(input_.scale))
    output_real = _float32(hires / _float32(output.scale))
    reluish_real = _float32(hires / _float32(RELUISH_SCALE))
    out_fixed, out_exponent = quantize_multiplier(output_real)
    relu_fixed, relu_exponent = quantize_multiplier(reluish_real)
    return (
        narrow_multiplier(out_fixed),
        out_exponent,
        narrow_multiplier(relu_fixed),
        relu_exponent,
    )


def hard_swish_output_reason(args: OpArgs) -> str | None:
    """Why Android 11 fails quantized HARD_SWISH on these scales (its output multiplier
    has an exponent above 0), or None."""
    source, target = args.inputs[0], args.outputs[0]
    if source.type not in QUANTIZED or not source.scale > 0 or not target.scale > 0:
        return None
    exponent = hard_swish_multipliers(source, target)[1]
    if exponent <= 0:
        return None
    return (
        f"output scale {target.scale} is at most 1/128 of the input scale {source.scale}: "
        f"the output multiplier's exponent {exponent} is above 0, which Android 11's "
        "HARD_SWISH fails"
    )


def _hard_swish_prepare(args: OpArgs) -> list[Shape]:
    values = _input(args)
    _at_least_rank_1(values, "HARD_SWISH")
    reason = hard_swish_output_reason(args)
    if reason is not None:
        raise OpFailure(reason)
    return [values.shape]


# FILL -----------------------------------------------------------------------------


def _fill_reason(sizes: Sequence[int], output: Operand) -> str | None:
    """Why the sizes held by input 0 cannot be the output's shape, or None."""
    if not sizes:
        return "input 0 holds no size: the output would have rank 0"
    negative = [size for size in sizes if size < 0]
    if negative:
        return f"input 0 holds the negative sizes {negative}: {list(sizes)} is no shape"
    declared = output.dimensions
    if declared and (
        len(declared) != len(sizes)
        or any(d and d != s for d, s in zip(declared, sizes, strict=True))
    ):
        return f"output dimensions {list(declared)} differ from the shape in input 0 {list(sizes)}"
    return None


def _fill_validate(args: OpArgs) -> str | None:
    sizes = args.values[0]
    if sizes is not None:
        return _fill_reason([int(v) for v in sizes.reshape(-1)], args.outputs[0])
    shape_dims, declared = args.inputs[0].dimensions, args.outputs[0].dimensions
    if len(shape_dims) == 1 and shape_dims[0] and declared and len(declared) != shape_dims[0]:
        return f"output rank {len(declared)} differs from the {shape_dims[0]} sizes input 0 holds"
    return None


def _fill_prepare(args: OpArgs) -> list[Shape]:
    sizes = _input(args)
    if sizes.ndim != 1:
        raise OpInvalid(f"input 0 has rank {sizes.ndim}; FILL takes a rank-1 shape")
    shape = tuple(int(v) for v in sizes)
    reason = _fill_reason(shape, args.outputs[0])
    if reason is not None:
        raise OpInvalid(reason)
    return [shape]


# RANK -----------------------------------------------------------------------------


def _rank_validate(args: OpArgs) -> str | None:
    return None  # any tensor; the INT32 scalar output is hal.validation's (its types)


def _rank_prepare(args: OpArgs) -> list[Shape]:
    values = _input(args)
    _at_least_rank_1(values, "RANK")
    if values.size == 0:
        raise OpFailure(f"RANK does not accept the zero-sized input {values.shape}")
    return [()]


CHECKS = (
    OperationCheck(OperationType.ELU, declared_shape_reason, _elu_prepare),
    OperationCheck(OperationType.HARD_SWISH, declared_shape_reason, _hard_swish_prepare),
    OperationCheck(OperationType.FILL, _fill_validate, _fill_prepare),
    OperationCheck(OperationType.RANK, _rank_validate, _rank_prepare),
)
