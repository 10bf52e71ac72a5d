"""The words of the operation catalog: what one entry of it is made of.

An operation's entry (``OperationInfo``) lists the forms it accepts
(``Signature``: operand types in and out, the first HAL version accepting the
form, optional and omittable inputs, rank limits), each with its type-level
rules (``Constraint``, seeing a ``ConstraintContext``) and who requires each
rule (``Tier``: ``PARITY`` or ``STRICT``).

The catalog's data (``hal/catalog/``) is written in these words, and
``hal.operations``, which answers the questions asked of the catalog, hands
them on; they live here so that the data and the questions import them from a
module that imports neither.
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
        ins = describe_types(self.inputs, self.repeat_input)
        outs = describe_types(self.outputs, self.repeat_output)
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


def describe_types(types: tuple[int, ...], repeat: int | None = None) -> str:
    names = [describe_type(t) for t in types]
    if repeat is not None:
        names[repeat] += "..."
    return "(" + ", ".join(names) + ")"


@dataclass(frozen=True)
class OperationInfo:
    type: OperationType
    introduced: HalVersion
    signatures: tuple[Signature, ...] = field(default=())
