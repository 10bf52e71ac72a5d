"""Helpers several operation families' checks share: fused activations, axes, ranks.

Check modules import from here and never from each other.
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import OpArgs, OpInvalid
from hal.types import OperandType

FLOAT_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)
Q8A = OperandType.TENSOR_QUANT8_ASYMM

FLOAT_CLAMP = {0: (None, None), 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}
"""Fused activation code -> (low, high) bounds on float outputs."""


def activation_code(args: OpArgs, slot: int) -> int:
    """The fused activation at input ``slot``; OpInvalid unless it is 0..3."""
    code = int(args.scalar(slot))
    if code not in FLOAT_CLAMP:
        raise OpInvalid(f"fused activation {code} is not one of 0 (NONE) .. 3 (RELU6)")
    return code


def valid_activation(args: OpArgs, slot: int) -> str | None:
    """For ``validate``: why the (constant) activation at ``slot`` is invalid, or None."""
    if args.values[slot] is None:
        return None
    code = int(args.values[slot].item())
    return None if code in FLOAT_CLAMP else f"fused activation {code} is not one of 0..3"


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """``axis`` in [-rank, rank) as a non-negative index; OpInvalid otherwise."""
    if not -rank <= axis < rank:
        raise OpInvalid(f"{what} {axis} is outside [-{rank}, {rank})")
    return axis % rank


def check_rank(values: np.ndarray, low: int, high: int, what: str = "input 0") -> None:
    if not low <= values.ndim <= high:
        raise OpInvalid(f"{what} has rank {values.ndim}; the operation takes {low} to {high}")
