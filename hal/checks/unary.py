"""The checks of the unary operations: float math (ABS, EXP, LOG, NEG, RSQRT, SIN,
SQRT), FLOOR, and the activations LOGISTIC, TANH, RELU, RELU1, RELU6.

Every output has its input's shape; FLOOR and the activations take ranks 1 to 4,
the HAL 1.2 math operations any rank from 1. A quant8 LOGISTIC output must carry
scale 1/256 and zero point 0, TANH's 1/128 and 128, a RELU's the input's; a signed
one (TENSOR_QUANT8_ASYMM_SIGNED, HAL 1.3) the same scale with the zero point 128
lower (LOGISTIC -128, TANH 0). ABS takes TENSOR_INT32 too since HAL 1.3. Only
LOGISTIC, TANH and the RELUs accept a zero-sized input; the others fail the
execution (``OpFailure``). ``SPECS`` lists each operation's operand types, which the
reference driver's ``supports`` reads (``reference_driver/ops/unary.py`` computes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from hal.checks.base import OpArgs, OperationCheck, OpFailure
from hal.checks.common import FLOAT_TYPES, Q8A, check_rank, declared_shape_reason
from hal.checks.signed import Q8AS, QUANT8_ASYMM_TYPES, fixed_zero_point
from hal.types import Operand, OperandType, OperationType

Shape = tuple[int, ...]

_I32 = OperandType.TENSOR_INT32


@dataclass(frozen=True)
class _Unary:
    """What distinguishes one unary operation from another."""

    op: OperationType
    types: tuple[int, ...]
    max_rank: int | None
    zero_sized: bool
    fixed_quant: tuple[float, int] | None = None
    """The (scale, zero point) a TENSOR_QUANT8_ASYMM output must carry; None: the input's.
    A signed output's zero point is 128 lower."""


# Shapes and parameters ------------------------------------------------------------


def _declared_rank_reason(spec: _Unary, operand: Operand) -> str | None:
    rank = len(operand.dimensions)
    if rank == 0:  # unknown rank: judged at execution
        return None
    if spec.max_rank is not None and rank > spec.max_rank:
        return f"input 0 has rank {rank}; {spec.op.name} takes ranks 1 to {spec.max_rank}"
    return None


def _expected_quant(spec: _Unary, args: OpArgs) -> tuple[float, int]:
    source, out = args.inputs[0], args.outputs[0]
    if spec.fixed_quant is None:
        return source.scale, source.zero_point
    scale, zero_point = spec.fixed_quant
    return scale, fixed_zero_point(out.type, zero_point)


def _quant_reason(spec: _Unary, args: OpArgs) -> str | None:
    out = args.outputs[0]
    if out.type not in QUANT8_ASYMM_TYPES:
        return None
    scale, zero_point = _expected_quant(spec, args)
    if not math.isclose(out.scale, scale, rel_tol=1e-6) or out.zero_point != zero_point:
        return (
            f"output scale/zeroPoint ({out.scale}, {out.zero_point}) must be "
            f"({scale}, {zero_point}) for {spec.op.name}"
        )
    return None


def _make_validate(spec: _Unary) -> Callable[[OpArgs], str | None]:
    def validate(args: OpArgs) -> str | None:
        return (
            _declared_rank_reason(spec, args.inputs[0])
            or declared_shape_reason(args)
            or _quant_reason(spec, args)
        )

    return validate


def _make_prepare(spec: _Unary) -> Callable[[OpArgs], list[Shape]]:
    def prepare(args: OpArgs) -> list[Shape]:
        values = args.values[0]
        if values is None:
            raise OpFailure("input 0 has no value")
        check_rank(values, 1, spec.max_rank if spec.max_rank is not None else values.ndim)
        if values.size == 0 and not spec.zero_sized:
            raise OpFailure(f"{spec.op.name} does not accept the zero-sized input {values.shape}")
        return [values.shape]

    return prepare


_FLOATS = FLOAT_TYPES
_FLOATS_Q8 = (*FLOAT_TYPES, Q8A, Q8AS)
_Op = OperationType


def _math(op: OperationType, types: tuple[int, ...] = _FLOATS) -> _Unary:
    return _Unary(op, types, max_rank=None, zero_sized=False)


def _activation(op: OperationType) -> _Unary:
    return _Unary(op, _FLOATS_Q8, max_rank=4, zero_sized=True)


SPECS = {
    spec.op: spec
    for spec in (
        _math(_Op.ABS, (*_FLOATS, _I32)),
        _math(_Op.EXP),
        _math(_Op.LOG),
        _math(_Op.NEG, (*_FLOATS, _I32)),
        _math(_Op.RSQRT),
        _math(_Op.SIN),
        _math(_Op.SQRT),
        _Unary(_Op.FLOOR, _FLOATS, max_rank=4, zero_sized=False),
        _Unary(_Op.LOGISTIC, _FLOATS_Q8, max_rank=4, zero_sized=True, fixed_quant=(1 / 256, 0)),
        _Unary(_Op.TANH, _FLOATS_Q8, max_rank=4, zero_sized=True, fixed_quant=(1 / 128, 128)),
        _activation(_Op.RELU),
        _activation(_Op.RELU1),
        _activation(_Op.RELU6),
    )
}
"""Each unary operation's operand types (the reference driver's ``supports`` reads
them), rank limit, zero-sized acceptance and fixed output quantization."""

CHECKS = tuple(
    OperationCheck(op, _make_validate(spec), _make_prepare(spec)) for op, spec in SPECS.items()
)
