"""The checks of the element-wise binary operations: ADD, SUB, MUL, DIV, MAXIMUM,
MINIMUM, POW, PRELU.

Both tensor inputs must broadcast (shapes aligned at the trailing dimension, a size
of 1 stretches; docs/operations.md, Broadcasting): judged on the declared shapes at
preparation, on the actual ones at execution. ADD, SUB, MUL and DIV take ranks up to
4 and a fused activation 0..3 (checked at execution too when it is a model input and
the result is not zero-sized); MAXIMUM, MINIMUM, POW and PRELU fail an execution on a
zero-sized input (``OpFailure``), as the Android 10 CPU reference does. The TENSOR_INT32
forms of ADD, SUB, MUL and DIV (HAL 1.3) take the activation NONE alone: a constant
other value breaks the catalog's rule (``hal.validation``), one given at execution is
refused here. The arithmetic is ``reference_driver/ops/elementwise.py``'s.
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.checks.common import (
    activation_code,
    check_rank,
    valid_activation,
)
from hal.types import OperandType, OperationType

_MAX_RANK = 4

Array = np.ndarray


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def _inputs(args: OpArgs) -> tuple[Array, Array]:
    a, b = args.values[0], args.values[1]
    if a is None or b is None:
        raise OpFailure("both tensor inputs need a value")
    return a, b


def _declared_mismatch(args: OpArgs) -> str | None:
    """Why the two inputs' declared shapes cannot broadcast, judging known sizes only."""
    dims_a, dims_b = args.inputs[0].dimensions, args.inputs[1].dimensions
    if not dims_a or not dims_b:
        return None
    for da, db in zip(reversed(dims_a), reversed(dims_b), strict=False):
        if 0 not in (da, db) and 1 not in (da, db) and da != db:
            return f"input shapes {list(dims_a)} and {list(dims_b)} do not broadcast"
    return None


def _broadcast(a: Array, b: Array) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(a.shape, b.shape))
    except ValueError:
        raise OpInvalid(f"shapes {a.shape} and {b.shape} do not broadcast") from None


def _validate_activated(args: OpArgs) -> str | None:
    for i in (0, 1):
        rank = len(args.inputs[i].dimensions)
        if rank > _MAX_RANK:
            return f"input {i} has rank {rank}, at most {_MAX_RANK} is supported"
    return valid_activation(args, 2) or _declared_mismatch(args)


def _prepare_activated(args: OpArgs) -> list[tuple[int, ...]]:
    a, b = _inputs(args)
    check_rank(a, 0, _MAX_RANK, "input 0")
    check_rank(b, 0, _MAX_RANK, "input 1")
    shape = _broadcast(a, b)
    if 0 not in shape:  # a zero-sized result is computed without the activation
        code = activation_code(args, 2)
        if code and args.outputs[0].type == OperandType.TENSOR_INT32:
            raise OpInvalid(f"fused activation {code} on TENSOR_INT32; only 0 (NONE) is allowed")
    return [shape]


def _prepare_nonempty(args: OpArgs) -> list[tuple[int, ...]]:
    a, b = _inputs(args)
    if a.size == 0 or b.size == 0:
        raise OpFailure(f"zero-sized input {a.shape if a.size == 0 else b.shape}")
    return [_broadcast(a, b)]


_ACTIVATED = (OperationType.ADD, OperationType.SUB, OperationType.MUL, OperationType.DIV)
_PLAIN = (OperationType.MAXIMUM, OperationType.MINIMUM, OperationType.POW, OperationType.PRELU)

CHECKS = (
    *(OperationCheck(op, _validate_activated, _prepare_activated) for op in _ACTIVATED),
    *(OperationCheck(op, _declared_mismatch, _prepare_nonempty) for op in _PLAIN),
)
