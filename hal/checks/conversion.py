"""The checks of the type conversions: CAST, QUANTIZE and DEQUANTIZE.

Each output has its input's shape (declared shapes must agree where both are
known); DEQUANTIZE takes ranks up to 4 (``reference_driver/ops/conversion.py``
computes).
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.types import OperationType

Shape = tuple[int, ...]

_DEQUANTIZE_MAX_RANK = 4


# Shared ---------------------------------------------------------------------


def _input(args: OpArgs) -> np.ndarray:
    value = args.values[0]
    if value is None:
        raise OpFailure("input 0 has no value")
    return value


def _same_shape_reason(args: OpArgs) -> str | None:
    """Why the declared output shape can never equal the input's, or None."""
    source, target = args.inputs[0].dimensions, args.outputs[0].dimensions
    if not source or not target:
        return None
    if len(source) != len(target) or any(
        a and b and a != b for a, b in zip(source, target, strict=True)
    ):
        return f"output shape {list(target)} differs from input shape {list(source)}"
    return None


def _cast_prepare(args: OpArgs) -> list[Shape]:
    x = _input(args)
    if x.ndim == 0:
        raise OpInvalid("the input must have rank 1 or more")
    if x.size == 0:
        raise OpFailure(f"input 0 is zero-sized {x.shape}; CAST rejects it")
    return [x.shape]


# QUANTIZE -------------------------------------------------------------------


def _quantize_prepare(args: OpArgs) -> list[Shape]:
    x = _input(args)
    if x.ndim == 0:
        raise OpInvalid("the input must have rank 1 or more")
    return [x.shape]


# DEQUANTIZE -----------------------------------------------------------------


def _dequantize_prepare(args: OpArgs) -> list[Shape]:
    x = _input(args)
    if not 1 <= x.ndim <= _DEQUANTIZE_MAX_RANK:
        raise OpInvalid(f"input rank {x.ndim}; DEQUANTIZE takes rank 1 to 4")
    return [x.shape]


CHECKS = (
    OperationCheck(OperationType.CAST, _same_shape_reason, _cast_prepare),
    OperationCheck(OperationType.QUANTIZE, _same_shape_reason, _quantize_prepare),
    OperationCheck(OperationType.DEQUANTIZE, _same_shape_reason, _dequantize_prepare),
)
