"""Every operation's checks, by operation type: ``CHECKS`` gathers the family modules'
registrations at import time (a type registered twice is a programming error)."""

from __future__ import annotations

from hal.checks import (
    comparison,
    conversion,
    convolution,
    detection,
    elementwise,
    lookup,
    lstm,
    newops,
    pooling,
    proposals,
    qlstm,
    reduction,
    rnn,
    shape,
    unary,
)
from hal.checks.base import OperationCheck
from hal.types import OperationType

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
    qlstm,
    lookup,
    detection,
    proposals,
    newops,
)


def _registry() -> dict[OperationType, OperationCheck]:
    registry: dict[OperationType, OperationCheck] = {}
    for module in _FAMILIES:
        for check in module.CHECKS:
            if check.type in registry:
                raise RuntimeError(f"{check.type.name} is checked twice")
            registry[check.type] = check
    return registry


CHECKS = _registry()
"""OperationType -> ``OperationCheck``, for every operation the checks know."""
