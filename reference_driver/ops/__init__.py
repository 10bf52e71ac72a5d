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

``validate`` and ``prepare`` are the public checks of ``hal.checks`` (a family
module builds its implementations with ``checked``, which takes them from
``hal.checks.registry.CHECKS``): the reference driver and a driver that checks
models with ``hal.checks.check_model`` share one implementation. ``_registry``
verifies it: every operation here has its checks, and uses them.

A family module may also define ``COSTS`` (OperationType -> ``cost(args, shapes)``
returning a ``Cost``) for operations whose operand values drive their loops or
temporaries; the executor checks each operation's cost, and its outputs' sizes,
against the execution's budgets before the operation runs (``COSTS`` gathers them;
``default_cost`` serves the rest).
"""

from __future__ import annotations

from collections.abc import Callable

from hal.checks.registry import CHECKS
from hal.extensions import operation_of
from hal.types import Model, OperationType, is_extension_type
from reference_driver.ops import (
    comparison,
    conversion,
    convolution,
    detection,
    elementwise,
    extensions,
    lookup,
    lstm,
    newops,
    pooling,
    proposals,
    reduction,
    rnn,
    shape,
    unary,
)
from reference_driver.ops.base import (
    Cost,
    OpArgs,
    OperationImpl,
    OpFailure,
    OpInvalid,
    OverBudget,
    default_cost,
)

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
    newops,
)


def _registry() -> dict[int, OperationImpl]:
    registry: dict[int, OperationImpl] = {}
    for module in _FAMILIES:
        for impl in module.IMPLEMENTATIONS:
            if impl.type in registry:
                raise RuntimeError(f"{impl.type.name} is implemented twice")
            check = CHECKS.get(impl.type)
            if check is None or (impl.validate, impl.prepare) != (check.validate, check.prepare):
                raise RuntimeError(f"{impl.type.name} does not use hal.checks' checks")
            registry[impl.type] = impl
    if set(registry) != set(CHECKS):
        raise RuntimeError("hal.checks and the reference driver know different operations")
    return registry


REGISTRY = _registry()

EXTENSION_REGISTRY = {impl.type: impl for impl in extensions.IMPLEMENTATIONS}
"""Extension operations by ``ExtensionOperationKey`` (extension name, type within it)."""


def operation_key(model: Model, op_type: int) -> object:
    """What the implementation of ``op_type`` in ``model`` is registered under: the type
    itself, or for an extension operation its key, read through the model's own
    ``extension_name_to_prefix`` (None for an extension operation of no known extension)."""
    if not is_extension_type(op_type):
        return op_type
    found = operation_of(op_type, model.extension_name_to_prefix)
    if found is None:
        return None
    return next(
        (
            key
            for key in EXTENSION_REGISTRY
            if (key.extension, key.type_within) == (found[0].name, found[1].type_within)
        ),
        None,
    )


def implementation(model: Model, op_type: int) -> OperationImpl | None:
    """The implementation of operation type ``op_type`` as ``model`` numbers it, or None."""
    key = operation_key(model, op_type)
    if key is None:
        return None
    return EXTENSION_REGISTRY.get(key) if is_extension_type(op_type) else REGISTRY.get(key)


def _costs() -> dict[int, Callable[[OpArgs, list[tuple[int, ...]]], Cost]]:
    costs: dict[int, Callable[[OpArgs, list[tuple[int, ...]]], Cost]] = {}
    for module in _FAMILIES:
        for op_type, cost in getattr(module, "COSTS", {}).items():
            if op_type in costs:
                raise RuntimeError(f"{OperationType(op_type).name} has two costs")
            costs[op_type] = cost
    return costs


COSTS = _costs()


def cost_of(op_type: int) -> Callable[[OpArgs, list[tuple[int, ...]]], Cost]:
    """The cost estimator of an operation type (``default_cost`` unless its family has one)."""
    return COSTS.get(op_type, default_cost)


__all__ = [
    "COSTS",
    "EXTENSION_REGISTRY",
    "REGISTRY",
    "Cost",
    "OpArgs",
    "OpFailure",
    "OpInvalid",
    "OperationImpl",
    "OverBudget",
    "cost_of",
    "default_cost",
    "implementation",
    "operation_key",
]
