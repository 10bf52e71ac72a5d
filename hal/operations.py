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
written with the builders of ``hal.catalog.build``); this module assembles it
and answers the questions the rest of the project asks:

* ``signatures(op, version)``: the forms an operation accepts at a version;
* ``match_signature(model, operation, version)``: which form an operation in a
  model uses, or why none fits;
* ``coverage_triples()``: every (operation, operand type variant, version).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from hal.types import HalVersion, Model, Operand, Operation, OperationType, describe_type


class Tier(StrEnum):
    """Who requires a rule: ``parity`` (Android 10 VTS for HAL 1.2) or ``strict`` (this
    project, beyond it). The values are the suite's ``tier`` marks and the report's."""

    PARITY = "parity"
    STRICT = "strict"


PARITY = Tier.PARITY
STRICT = Tier.STRICT


@dataclass(frozen=True)
class ConstraintContext:
    """What a constraint sees: the operation's operands, in slot order."""

    model: Model
    operation: Operation
    version: HalVersion

    @property
    def inputs(self) -> list[Operand]:
        return [self.model.operands[i] for i in self.operation.inputs]

    @property
    def outputs(self) -> list[Operand]:
        return [self.model.operands[i] for i in self.operation.outputs]


@dataclass(frozen=True)
class Constraint:
    """A type-level rule beyond the operand types.

    ``check`` returns why the operation breaks the rule, or None. ``tier``
    says whether Android 10's validator enforces it (``parity``) or only this
    project (``strict``, e.g. rules the Android 10 CPU reference checks at
    execution). ``before``: the rule binds only models of older versions
    (e.g. a quantization rule 1.2 lifted). ``fix``, when given, makes a
    model satisfy the rule (``conformance.harness.models.signature_model``).
    """

    name: str
    check: Callable[[ConstraintContext], str | None]
    tier: Tier = PARITY
    before: HalVersion | None = None
    fix: Callable[[ConstraintContext], None] | None = None
    """Adjusts the operands in place so the rule holds (quantization, rank), where
    that is possible without changing types; model builders use it."""

    def applies(self, version: HalVersion) -> bool:
        return self.before is None or version < self.before


@dataclass(frozen=True)
class Signature:
    """One accepted form of an operation.

    ``variant`` is the primary operand type (the "operand type variant" of
    coverage): usually input 0's type, but the per-channel type for forms
    whose filter is TENSOR_QUANT8_SYMM_PER_CHANNEL. ``repeat_input``: this input slot may
    repeat (CONCATENATION's tensors); the operation then has at least
    ``len(inputs)`` inputs. ``repeat_output`` likewise (SPLIT's outputs).
    ``omittable``: input slots that may be NO_VALUE operands or be given no
    value at execution. ``ranks``: (input slot, min rank, max rank) limits
    known from the operation's definition. ``form`` is a short label
    (``implicit``, ``explicit+layout``...).
    """

    operation: OperationType
    variant: int
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    since: HalVersion
    form: str = ""
    repeat_input: int | None = None
    repeat_output: int | None = None
    omittable: frozenset[int] = frozenset()
    ranks: tuple[tuple[int, int, int], ...] = ()
    constraints: tuple[Constraint, ...] = ()

    def accepts_types(self, inputs: tuple[int, ...], outputs: tuple[int, ...]) -> bool:
        return _fits(self.inputs, self.repeat_input, inputs) and _fits(
            self.outputs, self.repeat_output, outputs
        )

    def describe(self) -> str:
        ins = _names(self.inputs, self.repeat_input)
        outs = _names(self.outputs, self.repeat_output)
        form = f" [{self.form}]" if self.form else ""
        return f"{self.operation.name}{form} {ins} -> {outs} since {self.since}"


def _fits(expected: tuple[int, ...], repeat: int | None, actual: tuple[int, ...]) -> bool:
    if repeat is None:
        return expected == actual
    head, tail = expected[:repeat], expected[repeat + 1 :]
    if len(actual) < len(expected):
        return False
    middle = actual[len(head) : len(actual) - len(tail)]
    return (
        actual[: len(head)] == head
        and actual[len(actual) - len(tail) :] == tail
        and all(t == expected[repeat] for t in middle)
    )


def _names(types: tuple[int, ...], repeat: int | None = None) -> str:
    names = [describe_type(t) for t in types]
    if repeat is not None:
        names[repeat] += "..."
    return "(" + ", ".join(names) + ")"


@dataclass(frozen=True)
class OperationInfo:
    type: OperationType
    introduced: HalVersion
    signatures: tuple[Signature, ...] = field(default=())


def _assemble() -> dict[OperationType, OperationInfo]:
    from hal.catalog import ENTRIES  # the data modules import this module's classes

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
    operations match trivially (their signatures are the vendor's business).
    """
    info = operation_info(operation.type)
    if info is None or info.type == OperationType.OEM_OPERATION:
        return Match(None)
    inputs = tuple(model.operands[i].type for i in operation.inputs)
    outputs = tuple(model.operands[i].type for i in operation.outputs)
    fitting = [s for s in info.signatures if s.accepts_types(inputs, outputs)]
    if not fitting:
        return Match(
            None,
            f"{info.type.name} accepts no {len(inputs)} inputs {_names(inputs)} with "
            f"{len(outputs)} outputs {_names(outputs)}",
        )
    current = [s for s in fitting if s.since <= version]
    if not current:
        since = min(s.since for s in fitting)
        return Match(
            None,
            f"{info.type.name} with inputs {_names(inputs)} needs HAL {since}, model is {version}",
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
