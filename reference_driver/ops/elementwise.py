"""ADD and MUL: broadcasting binary arithmetic with a fused activation.

Float32 computes in float32; float16 is widened to float32 and rounded back,
as the Android 10 CPU reference does. Quant8 follows the fixed-point scheme of
``reference_driver.quant`` (ops/README.md, ADD and MUL).
"""

from __future__ import annotations

import numpy as np

from hal.types import FusedActivationFunc, OperandType, OperationType
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, OpInvalid
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quant8_activation_range,
    quantize_multiplier,
)

_FLOAT_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)
_TYPES = (*_FLOAT_TYPES, OperandType.TENSOR_QUANT8_ASYMM)
_MAX_RANK = 4
_ADD_LEFT_SHIFT = 20
_FLOAT_CLAMP = {
    FusedActivationFunc.NONE: (None, None),
    FusedActivationFunc.RELU: (0.0, None),
    FusedActivationFunc.RELU1: (-1.0, 1.0),
    FusedActivationFunc.RELU6: (0.0, 6.0),
}


def _supports(args: OpArgs) -> bool:
    return args.inputs[0].type in _TYPES


def _validate(args: OpArgs) -> str | None:
    for i in (0, 1):
        rank = len(args.inputs[i].dimensions)
        if rank > _MAX_RANK:
            return f"input {i} has rank {rank}, at most {_MAX_RANK} is supported"
    if args.values[2] is not None and args.scalar(2) not in _FLOAT_CLAMP:
        return f"fused activation {args.scalar(2)} is not one of 0..3"
    return None


def _prepare(args: OpArgs) -> list[tuple[int, ...]]:
    a, b = args.values[0], args.values[1]
    assert a is not None and b is not None
    if a.ndim > _MAX_RANK or b.ndim > _MAX_RANK:
        raise OpInvalid(f"ranks {a.ndim} and {b.ndim}: at most {_MAX_RANK} is supported")
    try:
        return [np.broadcast_shapes(a.shape, b.shape)]
    except ValueError:
        raise OpInvalid(f"shapes {a.shape} and {b.shape} do not broadcast") from None


def _activation(args: OpArgs) -> int:
    activation = int(args.scalar(2))
    if activation not in _FLOAT_CLAMP:
        raise OpInvalid(f"fused activation {activation} is not one of 0..3")
    return activation


def _float_binary(args: OpArgs, op: np.ufunc) -> np.ndarray:
    a, b = args.values[0], args.values[1]
    assert a is not None and b is not None
    result = op(a.astype(np.float32), b.astype(np.float32))
    lo, hi = _FLOAT_CLAMP[_activation(args)]
    if lo is not None or hi is not None:
        result = np.clip(result, lo, hi)
    with np.errstate(over="ignore"):  # float16 results beyond its range become inf, as in C
        return result.astype(a.dtype)


def _quant_add(args: OpArgs) -> np.ndarray:
    (qa, qb), (sa, sb) = _quant_inputs(args)
    za, zb = args.inputs[0].zero_point, args.inputs[1].zero_point
    out = args.outputs[0]
    twice_max = 2.0 * max(sa, sb)
    multipliers = (sa / twice_max, sb / twice_max, twice_max / ((1 << _ADD_LEFT_SHIFT) * out.scale))
    if not all(m < 1.0 for m in multipliers):
        raise OpFailure("quantized ADD needs output scale > 2 * max(input scales) / 2**20")
    (ma, ea), (mb, eb), (mo, eo) = (quantize_multiplier(m) for m in multipliers)
    a = multiply_by_quantized_multiplier((qa - za) << _ADD_LEFT_SHIFT, ma, ea)
    b = multiply_by_quantized_multiplier((qb - zb) << _ADD_LEFT_SHIFT, mb, eb)
    raw = multiply_by_quantized_multiplier(a + b, mo, eo) + out.zero_point
    return _clamp_quant8(raw, args)


def _quant_mul(args: OpArgs) -> np.ndarray:
    (qa, qb), (sa, sb) = _quant_inputs(args)
    za, zb = args.inputs[0].zero_point, args.inputs[1].zero_point
    out = args.outputs[0]
    real = sa * sb / out.scale
    if not real < 1.0:
        raise OpFailure("quantized MUL needs output scale > product of input scales")
    m0, shift = quantize_multiplier(real)
    raw = multiply_by_quantized_multiplier((qa - za) * (qb - zb), m0, shift) + out.zero_point
    return _clamp_quant8(raw, args)


def _quant_inputs(args: OpArgs) -> tuple[tuple[np.ndarray, np.ndarray], tuple[float, float]]:
    a, b = args.values[0], args.values[1]
    assert a is not None and b is not None
    return (a.astype(np.int64), b.astype(np.int64)), (args.inputs[0].scale, args.inputs[1].scale)


def _clamp_quant8(raw: np.ndarray, args: OpArgs) -> np.ndarray:
    out = args.outputs[0]
    lo, hi = quant8_activation_range(_activation(args), out.scale, out.zero_point)
    return np.clip(raw, lo, hi).astype(np.uint8)


def _make(op_type: OperationType, ufunc: np.ufunc, quant) -> OperationImpl:
    def execute(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
        if 0 in shapes[0]:
            return [np.zeros(shapes[0], dtype=args.values[0].dtype)]
        if args.inputs[0].type == OperandType.TENSOR_QUANT8_ASYMM:
            return [quant(args)]
        return [_float_binary(args, ufunc)]

    return OperationImpl(op_type, _supports, _validate, _prepare, execute)


IMPLEMENTATIONS = (
    _make(OperationType.ADD, np.add, _quant_add),
    _make(OperationType.MUL, np.multiply, _quant_mul),
)
