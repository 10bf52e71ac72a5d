"""Our model families on vendor extensions: undeclared prefixes, the declarations, the
fields and constants of a known extension's operands."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from conformance.harness.mutations.base import (
    _DECLARED_PREFIX,
    _EXTENSION_NAME,
    _UNDECLARED_PREFIX,
    MODEL,
    OURS,
    L,
    _Draft,
    _edit,
    _family,
    _operand,
    _operation_label,
    _set_field,
    _touching,
)
from conformance.harness.mutations.locations import _extra_draft
from conformance.harness.mutations.operands import _scale_draft, _zero_point_draft
from hal.extensions import operand_type_of
from hal.types import (
    DataLocation,
    ExtensionNameAndPrefix,
    Model,
    SymmPerChannelQuantParams,
    make_extension_type,
)
from hal.validation import Tier


def _extension_operation(j: int, prefix: int, declare: bool, operand: int | None = None):
    def change(m: Model) -> None:
        m.operations[j].type = make_extension_type(prefix, 1)
        if declare:
            m.extension_name_to_prefix = [
                *m.extension_name_to_prefix,
                ExtensionNameAndPrefix(_EXTENSION_NAME, prefix),
            ]
        if operand is not None:
            target = m.operands[operand]
            target.type = make_extension_type(_UNDECLARED_PREFIX, 2)
            target.scale, target.zero_point, target.extra_params = 0.0, 0, None

    return _edit(change)


@_family(
    "extension_undeclared",
    MODEL,
    Tier.STRICT,
    ("operation.extension_prefix", "operand.extension_prefix", "operation.type_known"),
    OURS,
    "any operation (and an operand only it uses)",
    "an extension operation or operand type whose prefix the model does not declare in "
    "extension_name_to_prefix",
)
def _extension_undeclared(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        yield _Draft(
            f"operation{j}.extension",
            f"{_operation_label(model, j)} type -> extension operation (prefix "
            f"{_UNDECLARED_PREFIX}, type 1), prefix not declared",
            _extension_operation(j, _UNDECLARED_PREFIX, declare=False),
        )
        for i in operation.inputs:
            if _touching(model, i) == [j]:
                yield _Draft(
                    f"operation{j}.extension+operand{i}",
                    f"{_operation_label(model, j)} made an extension operation (prefix "
                    f"{_DECLARED_PREFIX}, declared) and its {_operand(model, i)} an extension "
                    f"type of prefix {_UNDECLARED_PREFIX}, not declared",
                    _extension_operation(j, _DECLARED_PREFIX, declare=True, operand=i),
                )
                break


def _declare(entries: list[tuple[str, int]]) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.extension_name_to_prefix = [
            *m.extension_name_to_prefix,
            *(ExtensionNameAndPrefix(n, p) for n, p in entries),
        ]

    return _edit(change)


@_family(
    "extension_declarations",
    MODEL,
    Tier.STRICT,
    ("model.extension_prefixes", "model.extensions_version"),
    OURS,
    "any model",
    "extension_name_to_prefix inconsistent: a name declared twice, a prefix declared twice, a "
    "prefix beyond 16 bits, an empty name",
)
def _extension_declarations(model: Model) -> Iterator[_Draft]:
    cases = (
        ("name_twice", [(_EXTENSION_NAME, 1), (_EXTENSION_NAME, 2)], "one name, two prefixes"),
        ("prefix_twice", [(_EXTENSION_NAME, 1), (_EXTENSION_NAME + ".b", 1)], "one prefix twice"),
        ("prefix_17_bits", [(_EXTENSION_NAME, 0x1_0000)], "prefix 65536 beyond 16 bits"),
        ("empty_name", [("", 1)], "an empty extension name"),
    )
    for key, entries, why in cases:
        yield _Draft(
            f"extensions.{key}", f"extension_name_to_prefix {entries}: {why}", _declare(entries)
        )


def _known_extension_operands(model: Model) -> list[int]:
    """The operands of an extension type ``hal.extensions`` knows, found through the
    model's own ``extension_name_to_prefix``."""
    declared = model.extension_name_to_prefix
    return [
        i
        for i, operand in enumerate(model.operands)
        if declared and operand_type_of(operand.type, declared) is not None
    ]


@_family(
    "extension_operand_fields",
    MODEL,
    Tier.PARITY,
    ("operand.scale", "operand.zero_point", "operand.extra_params"),
    OURS,
    "an operand of a declared extension type",
    "an extension operand given a scale, a zero point or per-channel parameters (an "
    "extension type takes scale 0, zero point 0, and no parameters or ExtensionParams)",
)
def _extension_operand_fields(model: Model) -> Iterator[_Draft]:
    for i in _known_extension_operands(model):
        yield _scale_draft(model, i, 0.5)
        yield _zero_point_draft(model, i, 3)
        yield _extra_draft(
            model,
            i,
            SymmPerChannelQuantParams((1.0,), 0),
            "an extension type takes no per-channel parameters",
        )


@_family(
    "extension_constant_short",
    MODEL,
    Tier.STRICT,
    ("operand.extension_constant_length",),
    OURS,
    "a CONSTANT_COPY operand of an extension type hal.extensions knows (its size is known)",
    "a constant of a known extension type whose location.length is one element short of its "
    "data size (Android 10 sizes no extension type)",
)
def _extension_constant_short(model: Model) -> Iterator[_Draft]:
    declared = model.extension_name_to_prefix
    for i in _known_extension_operands(model):
        operand = model.operands[i]
        if operand.lifetime != L.CONSTANT_COPY or not operand.dimensions:
            continue
        element = operand_type_of(operand.type, declared)[1].byte_size
        location = operand.location
        if location.length <= element:
            continue
        short = DataLocation(location.pool_index, location.offset, location.length - element)
        yield _Draft(
            f"operand{i}.length-{element}",
            f"{_operand(model, i)} location.length {location.length} -> "
            f"{short.length}: one element short",
            _set_field(i, "location", short),
        )
