"""The reference driver's operation registry.

Each operation family module defines ``OperationImpl`` objects and lists them
in ``IMPLEMENTATIONS``; this package gathers them at import time into
``REGISTRY`` (OperationType -> implementation). An implementation provides:

* ``supports(args)``: whether it runs these operand types (types, counts and
  versions are already checked by ``hal.validation`` against the catalog);
* ``validate(args)``: operation-specific parameter values known at prepare time
  (constants), returning why they are invalid or None;
* ``prepare(args)``: the output shapes for the actual input shapes;
* ``execute(args, shapes)``: the output arrays.
"""

from __future__ import annotations

from reference_driver.ops import (
    comparison,
    conversion,
    convolution,
    detection,
    elementwise,
    lookup,
    lstm,
    pooling,
    proposals,
    reduction,
    rnn,
    shape,
    unary,
)
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, OpInvalid

_FAMILIES = (
    elementwise,
    unary,
    comparison,
    conversion,
    shape,
    reduction,
    convolution,
    pooling,
    lstm,
    rnn,
    lookup,
    detection,
    proposals,
)


def _registry() -> dict[int, OperationImpl]:
    registry: dict[int, OperationImpl] = {}
    for module in _FAMILIES:
        for impl in module.IMPLEMENTATIONS:
            if impl.type in registry:
                raise RuntimeError(f"{impl.type.name} is implemented twice")
            registry[impl.type] = impl
    return registry


REGISTRY = _registry()

__all__ = ["REGISTRY", "OpArgs", "OpFailure", "OpInvalid", "OperationImpl"]
