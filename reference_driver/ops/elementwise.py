"""Element-wise binary operations: ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, POW, PRELU.

Every one broadcasts its two tensor inputs (shapes aligned at the trailing
dimension, a size of 1 stretches; docs/operations.md, Broadcasting). ADD, SUB,
MUL and DIV also take a fused activation, are limited to rank 4 and accept
zero-sized inputs (1.2); MAXIMUM, MINIMUM, POW and PRELU fail on them, as the
Android 10 CPU reference does.

Float16 is widened to float32, computed and rounded back, as the CPU
reference does. That reference clamps every float result of ADD, SUB, MUL and
DIV to the activation's range, which for NONE is [-FLT_MAX, FLT_MAX]: an
infinite float32 result (1/0, an overflowing sum) comes out as +-FLT_MAX,
where the HAL documentation would give infinity. Quant8 follows the CPU
reference's fixed-point schemes (``reference_driver.quant``); where it
computes a multiplier from float (not double) operands, so do we.

HAL 1.3 adds TENSOR_QUANT8_ASYMM_SIGNED forms of ADD, SUB, MUL, MAXIMUM, MINIMUM and
PRELU, computed by the unsigned kernels on the operation's unsigned view
(``checked``'s ``via_unsigned``; MUL's output-scale rule is not applied to them, and
the kernel takes any multiplier), and TENSOR_INT32 forms of ADD, SUB, MUL and DIV:
two's-complement arithmetic wrapping at 32 bits, DIV the floor of the quotient
(-5 / 2 = -3) with a division by zero giving 0, and INT32_MIN / -1 wrapping to
INT32_MIN. Their fused activation must be NONE (``hal.checks.elementwise``).

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.elementwise``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hal.checks.elementwise import (
    Array,
    _inputs,
)
from hal.types import Operand, OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, checked, int32_form
from reference_driver.ops.common import (
    FLOAT_TYPES,
    Q8A,
    activation_code,
    apply_float_activation,
    clamp_quant8,
    to_float_type,
)
from reference_driver.quant import multiply_by_quantized_multiplier, quantize_multiplier

I32 = OperandType.TENSOR_INT32

_ADD_LEFT_SHIFT = 20

_FLT_MAX = float(np.finfo(np.float32).max)

Kernel = Callable[[OpArgs], Array]


# ---------------------------------------------------------------------------
# Float
# ---------------------------------------------------------------------------


def _widened(args: OpArgs) -> tuple[Array, Array]:
    a, b = _inputs(args)
    return a.astype(np.float32), b.astype(np.float32)


def _float_activated(ufunc: np.ufunc) -> Kernel:
    """``act(ufunc(a, b))`` in float32, clamped to +-FLT_MAX as the CPU reference clamps."""

    def kernel(args: OpArgs) -> Array:
        a, b = _widened(args)
        with np.errstate(all="ignore"):  # inf and NaN follow IEEE, as in C
            result = np.clip(ufunc(a, b), -_FLT_MAX, _FLT_MAX)
        result = apply_float_activation(result, activation_code(args, 2))
        return to_float_type(result, args.values[0].dtype)

    return kernel


def _float_pow(args: OpArgs) -> Array:
    base, exponent = _widened(args)
    with np.errstate(all="ignore"):  # 0**-1 is inf, (-2)**0.5 NaN, as C's powf
        return to_float_type(np.power(base, exponent), args.values[0].dtype)


def _float_prelu(args: OpArgs) -> Array:
    x, alpha = _widened(args)
    with np.errstate(all="ignore"):
        result = np.where(x >= 0, x, x * alpha)
    return to_float_type(result, args.values[0].dtype)


def _maximum(a: Array, b: Array) -> Array:
    """std::max(a, b): ``a < b ? b : a`` (so a NaN in ``a`` wins, one in ``b`` loses)."""
    return np.where(a < b, b, a)


def _minimum(a: Array, b: Array) -> Array:
    """std::min(a, b): ``b < a ? b : a``."""
    return np.where(b < a, b, a)


# ---------------------------------------------------------------------------
# Quant8
# ---------------------------------------------------------------------------


def _f32(value: float) -> float:
    """A scale as the CPU reference holds it: a C float."""
    return float(np.float32(value))


def _offsets(args: OpArgs) -> tuple[Array, Array]:
    """Both inputs as int64 with their zero points removed."""
    a, b = _inputs(args)
    return (
        a.astype(np.int64) - args.inputs[0].zero_point,
        b.astype(np.int64) - args.inputs[1].zero_point,
    )


def _quant_add_sub(sign: int) -> Kernel:
    """ADD (sign 1) or SUB (sign -1): both inputs rescaled to 2 * max scale, 20 bits up."""

    def kernel(args: OpArgs) -> Array:
        sa, sb, so = (_f32(o.scale) for o in (args.inputs[0], args.inputs[1], args.outputs[0]))
        twice_max = 2.0 * max(sa, sb)
        reals = (sa / twice_max, sb / twice_max, twice_max / ((1 << _ADD_LEFT_SHIFT) * so))
        if not all(r < 1.0 for r in reals):
            raise OpFailure("quantized ADD/SUB needs output scale > 2 * max(input scales) / 2**20")
        (ma, ea), (mb, eb), (mo, eo) = (quantize_multiplier(r) for r in reals)
        a, b = _offsets(args)
        a = multiply_by_quantized_multiplier(a << _ADD_LEFT_SHIFT, ma, ea)
        # SUB negates the second multiplier, as the CPU reference does (not the result).
        b = multiply_by_quantized_multiplier(b << _ADD_LEFT_SHIFT, sign * mb, eb)
        raw = multiply_by_quantized_multiplier(a + b, mo, eo) + args.outputs[0].zero_point
        return clamp_quant8(raw, activation_code(args, 2), args.outputs[0])

    return kernel


def _quant_mul(args: OpArgs) -> Array:
    """The product requantized by MBQM. A multiplier of 1 or more is computed too: the
    validator forbids it for TENSOR_QUANT8_ASYMM, not for the signed form (HAL 1.3)."""
    out = args.outputs[0]
    product = float(np.float32(args.inputs[0].scale) * np.float32(args.inputs[1].scale))
    real = product / _f32(out.scale)
    a, b = _offsets(args)
    raw = multiply_by_quantized_multiplier(a * b, *quantize_multiplier(real)) + out.zero_point
    return clamp_quant8(raw, activation_code(args, 2), out)


def _requantize(values: Array, source: Operand, target: Operand) -> Array:
    """The CPU reference's ``requantize``: (q - zp) * scale in float, then
    ``round(real / scale' + zp')`` in double, half away from zero, clamped to 0..255."""
    real = (values.astype(np.int64) - source.zero_point).astype(np.float32) * np.float32(
        source.scale
    )
    q = np.clip(real.astype(np.float64) / _f32(target.scale) + target.zero_point, 0.0, 255.0)
    whole = np.trunc(q)
    return (whole + (q - whole >= 0.5)).astype(np.uint8)


def _quant_extremum(pick: Callable[[Array, Array], Array]) -> Kernel:
    def kernel(args: OpArgs) -> Array:
        a, b = _inputs(args)
        out = args.outputs[0]
        return pick(_requantize(a, args.inputs[0], out), _requantize(b, args.inputs[1], out))

    return kernel


def _quant_prelu(args: OpArgs) -> Array:
    """x >= 0: MBQM(x, s_x / s_out); x < 0: MBQM(x * alpha, s_x * s_alpha / s_out)."""
    sx, sa, so = (np.float32(o.scale) for o in (args.inputs[0], args.inputs[1], args.outputs[0]))
    positive = quantize_multiplier(float(sx / so))
    negative = quantize_multiplier(float(sx * sa) / float(so))
    x, alpha = _offsets(args)
    raw = np.where(
        x >= 0,
        multiply_by_quantized_multiplier(x, *positive),
        multiply_by_quantized_multiplier(x * alpha, *negative),
    )
    return np.clip(raw + args.outputs[0].zero_point, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------
# TENSOR_INT32 (HAL 1.3)
# ---------------------------------------------------------------------------


def _wrapped(result: Array) -> Array:
    """int64 results to int32, wrapping as two's-complement 32-bit arithmetic does."""
    return result.astype(np.int32)


def _int_add(args: OpArgs) -> Array:
    a, b = _inputs(args)
    return _wrapped(a.astype(np.int64) + b.astype(np.int64))


def _int_sub(args: OpArgs) -> Array:
    a, b = _inputs(args)
    return _wrapped(a.astype(np.int64) - b.astype(np.int64))


def _int_mul(args: OpArgs) -> Array:
    a, b = _inputs(args)
    return _wrapped(a.astype(np.int64) * b.astype(np.int64))


def _int_div(args: OpArgs) -> Array:
    """Floor division; a zero divisor gives 0."""
    a, b = _inputs(args)
    a, b = np.broadcast_arrays(a.astype(np.int64), b.astype(np.int64))
    zero = b == 0
    return _wrapped(np.where(zero, 0, np.floor_divide(a, np.where(zero, 1, b))))


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def _make(
    op_type: OperationType,
    kernels: dict[int, Kernel],
) -> OperationImpl:
    """An implementation dispatching on input 0's type to ``kernels`` (its checks:
    ``hal.checks.elementwise``); the signed forms through the unsigned kernels, the
    TENSOR_INT32 forms of HAL 1.3 where ``kernels`` has one."""

    def supports(args: OpArgs) -> bool:
        return args.inputs[0].type in kernels and args.inputs[1].type == args.inputs[0].type

    def execute(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[Array]:
        if 0 in shapes[0]:  # zero-sized (ADD, SUB, MUL, DIV only): no arithmetic
            return [np.zeros(shapes[0], dtype=args.values[0].dtype)]
        return [kernels[args.inputs[0].type](args)]

    return checked(op_type, supports, execute, int32_form, via_unsigned=True)


def _float_kernels(kernel: Kernel) -> dict[int, Kernel]:
    return dict.fromkeys(FLOAT_TYPES, kernel)


def _extremum_kernels(pick: Callable[[Array, Array], Array]) -> dict[int, Kernel]:
    def direct(args: OpArgs) -> Array:
        return pick(*_inputs(args))

    return {**dict.fromkeys((*FLOAT_TYPES, I32), direct), Q8A: _quant_extremum(pick)}


IMPLEMENTATIONS = (
    _make(
        OperationType.ADD,
        {**_float_kernels(_float_activated(np.add)), Q8A: _quant_add_sub(1), I32: _int_add},
    ),
    _make(
        OperationType.SUB,
        {**_float_kernels(_float_activated(np.subtract)), Q8A: _quant_add_sub(-1), I32: _int_sub},
    ),
    _make(
        OperationType.MUL,
        {**_float_kernels(_float_activated(np.multiply)), Q8A: _quant_mul, I32: _int_mul},
    ),
    _make(OperationType.DIV, {**_float_kernels(_float_activated(np.divide)), I32: _int_div}),
    _make(OperationType.MAXIMUM, _extremum_kernels(_maximum)),
    _make(OperationType.MINIMUM, _extremum_kernels(_minimum)),
    _make(OperationType.POW, _float_kernels(_float_pow)),
    _make(
        OperationType.PRELU,
        {**_float_kernels(_float_prelu), Q8A: _quant_prelu},
    ),
)
