"""The operation catalog: what each operation accepts, at which HAL version.

This is the one place these facts live (sources: the HAL 1.2 operation
definitions and Android 10's validator). For every operation of ``OperationType`` it holds
the version that introduced it and each accepted ``Signature``: the operand
types of the inputs and outputs, the first version accepting that form,
optional trailing inputs (each optional form is its own signature), inputs that
may be omitted (NO_VALUE), rank limits and type-level ``Constraint``s.
``hal.validation`` checks a model's operations against it; the reference
driver, the suite, the generator and the report read it too.

The data lives in ``hal/catalog/`` (one module per range of operation codes,
written with the builders of ``hal.catalog.build`` in the words of
``hal.forms``, which this module hands on); this module assembles it and
answers the questions the rest of the project asks:

* ``signatures(op, version)``: the forms an operation accepts at a version;
* ``match_signature(model, operation, version)``: which form an operation in a
  model uses, or why none fits;
* ``coverage_triples()``: every (operation, operand type variant, version).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hal.forms import (
    PARITY,
    STRICT,
    Constraint,
    ConstraintContext,
    OperationInfo,
    Signature,
    Tier,
    describe_types,
)
from hal.types import HalVersion, Model, OperandType, Operation, OperationType

__all__ = [
    "CATALOG",
    "PARITY",
    "STRICT",
    "Constraint",
    "ConstraintContext",
    "Match",
    "OperationInfo",
    "Signature",
    "Tier",
    "coverage_triples",
    "match_signature",
    "operation_info",
    "signatures",
]


def _assemble() -> dict[OperationType, OperationInfo]:
    from hal.catalog import ENTRIES  # on the first question: importing this module builds no data

    catalog = {}
    for op in OperationType:
        entry = ENTRIES.get(op)
        if entry is None:
            raise RuntimeError(f"the operation catalog has no entry for {op.name}")
        catalog[op] = entry
    return catalog


CATALOG: dict[OperationType, OperationInfo] = {}


def _catalog() -> dict[OperationType, OperationInfo]:
    if not CATALOG:
        CATALOG.update(_assemble())
    return CATALOG


def operation_info(type_: int) -> OperationInfo | None:
    """The catalog entry of a non-extension operation type, or None if it has none."""
    try:
        return _catalog().get(type_)  # the keys are IntEnum members: a plain int finds them
    except TypeError:  # unhashable
        return None


def signatures(type_: int, version: HalVersion) -> list[Signature]:
    """The forms operation ``type_`` accepts in a ``version`` model."""
    info = operation_info(type_)
    return [] if info is None else [s for s in info.signatures if s.since <= version]


@dataclass(frozen=True)
class Match:
    """The outcome of matching an operation against the catalog.

    ``signature`` is the form used (None when none fits); ``reason`` says why
    none fits at the model's version.
    """

    signature: Signature | None
    reason: str | None = None


def match_signature(model: Model, operation: Operation, version: HalVersion) -> Match:
    """The catalogued form ``operation`` uses at ``version``.

    Assumes every index of the operation is inside ``model.operands``. OEM
    operations match trivially (their signatures are the vendor's business), and so
    do IF and WHILE, whose operands the validation rules match against the
    subgraphs they name (an entry without signatures: no type list can say it).
    The answer depends on the operand types alone: for types that are plain ints
    (or the HAL's enums) it is worked out once per process (``_match_types``).
    """
    info = operation_info(operation.type)
    if info is None or not info.signatures:
        return Match(None)
    operands = model.operands
    inputs = tuple([operands[i].type for i in operation.inputs])
    outputs = tuple([operands[i].type for i in operation.outputs])
    if _PLAIN_TYPES.issuperset(map(type, inputs)) and _PLAIN_TYPES.issuperset(map(type, outputs)):
        return _match_types(info.type, inputs, outputs, version)
    return _matched(info, inputs, outputs, version)


_PLAIN_TYPES = frozenset({int, OperandType})
"""Operand type values whose ``Match`` may be kept: equal ones describe themselves alike."""


@functools.lru_cache(maxsize=8192)
def _match_types(
    operation: OperationType, inputs: tuple, outputs: tuple, version: HalVersion
) -> Match:
    return _matched(CATALOG[operation], inputs, outputs, version)


def _matched(info: OperationInfo, inputs: tuple, outputs: tuple, version: HalVersion) -> Match:
    fitting = [s for s in info.signatures if s.accepts_types(inputs, outputs)]
    if not fitting:
        return Match(
            None,
            f"{info.type.name} accepts no {len(inputs)} inputs {describe_types(inputs)} with "
            f"{len(outputs)} outputs {describe_types(outputs)}",
        )
    current = [s for s in fitting if s.since <= version]
    if not current:
        since = min(s.since for s in fitting)
        return Match(
            None,
            f"{info.type.name} with inputs {describe_types(inputs)} needs HAL {since}, model is {version}",
        )
    return Match(current[0])


def coverage_triples() -> list[tuple[OperationType, int, HalVersion]]:
    """Every (operation, operand type variant, first version) the catalog accepts, sorted."""
    first: dict[tuple[OperationType, int], HalVersion] = {}
    for info in _catalog().values():
        for s in info.signatures:
            key = (info.type, s.variant)
            first[key] = min(first.get(key, s.since), s.since)
    return sorted((op, variant, since) for (op, variant), since in first.items())
