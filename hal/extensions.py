"""The vendor extensions this project knows, and how their types are numbered.

HAL 1.2 lets a driver define extensions: ``get_supported_extensions`` names each
one and gives its operand types (``OperandTypeInformation``: the type within the
extension, tensor or scalar, byte size). A model that uses one declares
``extension_name_to_prefix`` (name -> 16-bit prefix) and writes its operand and
operation types as ``(prefix << 16) | type_within``.

A type number alone says nothing about how its elements are stored, so the
generator (turning spec values into bytes), the harness (packing requests,
reading outputs) and the reference driver (computing) share the table below:
for each known extension, each operand type's name, ``type_within``, numpy dtype,
tensor-or-scalar and byte size per element, and each operation's name and
``type_within``. A spec names them as ``"<extension name>:<type or operation
name>"``, e.g. ``"org.nnhal_conformance.demo:TENSOR_Q16"``.

Prefixes: generated modules carry extension names only. The harness numbers the
known extensions in the order of their sorted names, from 1 (``harness_prefix``),
so the same name always gets the same prefix in a run whatever the case or the
driver; a model lists only the extensions it uses. Which prefix a type has is
always read back through the model's own ``extension_name_to_prefix``
(``operand_type_of``, ``operation_of``): a driver must never assume the
harness's numbering.

The ``org.nnhal_conformance`` namespace is reserved for this project's own
examples. A vendor brings its own extension, under its own reverse-domain name,
in a test pack: an ``extensions.json`` beside the pack's spec folders, read by
``definitions_from_json`` and made known with ``register`` while the pack runs
(``--nnhal-specs``, ``generator.packs``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

LOW_BITS = 16
"""Bits of an extension type that hold the type within the extension."""


@dataclass(frozen=True)
class ExtensionOperandType:
    """One operand type of an extension."""

    name: str
    type_within: int
    dtype: str
    """numpy dtype string of one element, little-endian (``"<i2"``)."""
    is_tensor: bool
    byte_size: int
    """Bytes of one element (``OperandTypeInformation.byte_size``)."""
    description: str = ""

    @property
    def numpy_dtype(self) -> np.dtype:
        return np.dtype(self.dtype)


@dataclass(frozen=True)
class ExtensionOperation:
    """One operation of an extension."""

    name: str
    type_within: int
    description: str = ""


@dataclass(frozen=True)
class ExtensionDefinition:
    name: str
    operand_types: tuple[ExtensionOperandType, ...]
    operations: tuple[ExtensionOperation, ...]

    def operand_type(self, name: str) -> ExtensionOperandType | None:
        return next((t for t in self.operand_types if t.name == name), None)

    def operand_type_within(self, type_within: int) -> ExtensionOperandType | None:
        return next((t for t in self.operand_types if t.type_within == type_within), None)

    def operation(self, name: str) -> ExtensionOperation | None:
        return next((o for o in self.operations if o.name == name), None)

    def operation_within(self, type_within: int) -> ExtensionOperation | None:
        return next((o for o in self.operations if o.type_within == type_within), None)


DEMO = ExtensionDefinition(
    name="org.nnhal_conformance.demo",
    operand_types=(
        ExtensionOperandType(
            "TENSOR_Q16",
            1,
            "<i2",
            True,
            2,
            "signed 16-bit fixed point with 8 fractional bits (Q8.8), little-endian",
        ),
    ),
    operations=(
        ExtensionOperation(
            "SATURATING_ADD",
            1,
            "two TENSOR_Q16 tensors of one shape -> their raw int16 sum, "
            "clamped to [-32768, 32767]",
        ),
    ),
)
"""The project's example extension (the reference driver implements it)."""

KNOWN_EXTENSIONS: tuple[ExtensionDefinition, ...] = (DEMO,)
"""Every extension the generator and the harness can encode, sorted by name."""

_BY_NAME = {e.name: e for e in KNOWN_EXTENSIONS}


def find(name: str) -> ExtensionDefinition | None:
    """The known extension called ``name``, or None."""
    return _BY_NAME.get(name)


def harness_prefix(name: str) -> int:
    """The prefix the harness gives extension ``name``: its position among the known
    extensions sorted by name, counting from 1. KeyError for an unknown name."""
    if name not in _BY_NAME:
        raise KeyError(name)
    return sorted(_BY_NAME).index(name) + 1


def harness_number(qualified: str, operation: bool = False) -> int:
    """The type number of ``"<extension name>:<name>"`` (an operand type; with ``operation``
    an operation) under the prefix the harness gives its extension (``harness_prefix``);
    ValueError saying what is unknown."""
    extension, found = (qualified_operation if operation else qualified_operand_type)(qualified)
    return (harness_prefix(extension.name) << LOW_BITS) | found.type_within


def harness_declarations(names: Iterable[str]) -> list[tuple[str, int]]:
    """(name, harness prefix) of each name, sorted by name, each once."""
    return [(name, harness_prefix(name)) for name in sorted(set(names))]


def split_qualified(text: object) -> tuple[str, str] | None:
    """``"org.x.y:NAME"`` -> ``("org.x.y", "NAME")``; None if ``text`` has no ``:``."""
    if not isinstance(text, str) or ":" not in text:
        return None
    extension, _, item = text.rpartition(":")
    return extension, item


def qualified_operand_type(text: str) -> tuple[ExtensionDefinition, ExtensionOperandType]:
    """The known extension and operand type ``text`` names; ValueError saying what is
    unknown otherwise."""
    extension, item = _split_known(text)
    found = extension.operand_type(item)
    if found is None:
        known = ", ".join(t.name for t in extension.operand_types)
        raise ValueError(
            f"extension {extension.name} has no operand type {item!r} (it has: {known})"
        )
    return extension, found


def qualified_operation(text: str) -> tuple[ExtensionDefinition, ExtensionOperation]:
    extension, item = _split_known(text)
    found = extension.operation(item)
    if found is None:
        known = ", ".join(o.name for o in extension.operations)
        raise ValueError(f"extension {extension.name} has no operation {item!r} (it has: {known})")
    return extension, found


def _split_known(text: str) -> tuple[ExtensionDefinition, str]:
    parts = split_qualified(text)
    if parts is None:
        raise ValueError(f"{text!r} is not of the form 'extension.name:ITEM'")
    extension = find(parts[0])
    if extension is None:
        known = ", ".join(sorted(_BY_NAME))
        raise ValueError(f"unknown extension {parts[0]!r} (known: {known})")
    return extension, parts[1]


def _name_of_prefix(prefix: int, declarations: Sequence) -> str | None:
    for entry in declarations or ():
        if getattr(entry, "prefix", None) == prefix:
            name = getattr(entry, "name", None)
            return name if isinstance(name, str) else None
    return None


def _split(value: int) -> tuple[int, int]:
    return value >> LOW_BITS, value & ((1 << LOW_BITS) - 1)


def operand_type_of(
    value: int, declarations: Sequence
) -> tuple[ExtensionDefinition, ExtensionOperandType] | None:
    """The known extension operand type ``value`` stands for in a model declaring
    ``declarations`` (its ``extension_name_to_prefix``); None if it is none."""
    prefix, within = _split(value)
    extension = find(_name_of_prefix(prefix, declarations) or "")
    found = None if extension is None else extension.operand_type_within(within)
    return None if found is None else (extension, found)


def operation_of(
    value: int, declarations: Sequence
) -> tuple[ExtensionDefinition, ExtensionOperation] | None:
    """The known extension operation ``value`` stands for in a model declaring
    ``declarations``; None if it is none."""
    prefix, within = _split(value)
    extension = find(_name_of_prefix(prefix, declarations) or "")
    found = None if extension is None else extension.operation_within(within)
    return None if found is None else (extension, found)


def _dims_agree(a: Sequence[int], b: Sequence[int]) -> bool:
    """Two declared shapes that may be the same: an unknown rank (``[]``) or an unknown
    dimension (0) agrees with anything."""
    if not a or not b:
        return True
    return len(a) == len(b) and all(x == y or 0 in (x, y) for x, y in zip(a, b, strict=True))


def _saturating_add_problem(
    inputs: Sequence, outputs: Sequence, declarations: Sequence
) -> str | None:
    if len(inputs) != 2 or len(outputs) != 1:
        return f"takes 2 inputs and 1 output, has {len(inputs)} and {len(outputs)}"
    for side, operands in (("input", inputs), ("output", outputs)):
        for k, operand in enumerate(operands):
            found = operand_type_of(getattr(operand, "type", -1), declarations)
            if found is None or found[0] is not DEMO or found[1].name != "TENSOR_Q16":
                return f"{side} {k} must be {DEMO.name}:TENSOR_Q16"
    a, b = (list(getattr(o, "dimensions", [])) for o in inputs)
    out = list(getattr(outputs[0], "dimensions", []))
    if not _dims_agree(a, b):
        return f"inputs of shapes {a} and {b} differ (no broadcasting)"
    for shape in (a, b):
        if not _dims_agree(shape, out):
            return f"output of shape {out} differs from input shape {shape}"
    return None


OPERATION_CHECKS = {(DEMO.name, "SATURATING_ADD"): _saturating_add_problem}
"""(extension name, operation name) -> why an operation's operands (a model's records),
its ``extension_name_to_prefix`` given, do not fit it, or None."""


def operation_problem(operation: object, operands: Sequence, declarations: Sequence) -> str | None:
    """Why a known extension operation's operands do not fit it (counts, types, shapes as
    declared), or None; None too for an operation of no known extension (the vendor's
    business). ``operands``: the model's; ``declarations``: its ``extension_name_to_prefix``."""
    found = operation_of(getattr(operation, "type", -1), declarations)
    if found is None:
        return None
    check = OPERATION_CHECKS.get((found[0].name, found[1].name))
    if check is None:
        return None
    inputs = [operands[i] for i in operation.inputs]
    outputs = [operands[i] for i in operation.outputs]
    problem = check(inputs, outputs, declarations)
    return None if problem is None else f"{found[0].name}:{found[1].name} {problem}"


def used_extensions(model: object) -> list[str]:
    """Names the model declares in ``extension_name_to_prefix``, in order."""
    return [e.name for e in getattr(model, "extension_name_to_prefix", None) or ()]


# ---------------------------------------------------------------------------
# Extensions a vendor pack brings (``extensions.json`` beside its specs)
# ---------------------------------------------------------------------------

_RESERVED = "org.nnhal_conformance"
"""The namespace of this project's own examples: no pack may define an extension in it."""
_EXTENSION_NAME = re.compile(r"[a-z0-9_]+(\.[a-z0-9_]+)+")
_ITEM_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
DTYPES = ("|b1", "|i1", "|u1", "<i2", "<u2", "<f2", "<i4", "<u4", "<f4", "<i8", "<u8", "<f8")
"""The element encodings an extension operand type may have (numpy dtype strings)."""


def register(definition: ExtensionDefinition) -> None:
    """Make ``definition`` known (a vendor pack's extension). The same definition again
    changes nothing; another one under a known name is a ValueError."""
    known = _BY_NAME.get(definition.name)
    if known is not None and known != definition:
        raise ValueError(f"extension {definition.name} is already defined otherwise")
    _BY_NAME[definition.name] = definition


def unregister(name: str) -> None:
    """Forget extension ``name`` unless it is one of ``KNOWN_EXTENSIONS`` (built in)."""
    if all(e.name != name for e in KNOWN_EXTENSIONS):
        _BY_NAME.pop(name, None)


def definitions_from_json(data: object) -> list[ExtensionDefinition]:
    """The extensions a pack's ``extensions.json`` defines; ValueError naming the first
    thing that is wrong. The file is ``{"extensions": [{"name": ..., "operand_types":
    [{"name", "type_within", "dtype", "is_tensor", "byte_size"[, "description"]}],
    "operations": [{"name", "type_within"[, "description"]}]}]}``."""
    if not isinstance(data, dict) or set(data) != {"extensions"}:
        raise ValueError('the file must hold one object with the key "extensions"')
    entries = data["extensions"]
    if not isinstance(entries, list) or not entries:
        raise ValueError('"extensions" must be a non-empty list')
    found = []
    for number, entry in enumerate(entries):
        where = f"extensions[{number}]"
        _keys(entry, where, {"name", "operand_types", "operations"}, set())
        name = entry["name"]
        if not isinstance(name, str) or not _EXTENSION_NAME.fullmatch(name):
            raise ValueError(
                f"{where}.name: {_show(name)} is not an extension name (lower case letters, "
                "digits and _, in at least two parts joined by '.', e.g. com.example.vision)"
            )
        if name == _RESERVED or name.startswith(_RESERVED + "."):
            raise ValueError(
                f"{where}.name: {name} is in the namespace {_RESERVED}, which this "
                "project keeps for its own examples"
            )
        if any(e.name == name for e in found):
            raise ValueError(f"{where}.name: {name} is defined twice")
        types = tuple(
            _operand_type(t, f"{where}.operand_types[{k}]")
            for k, t in enumerate(_list(entry["operand_types"], f"{where}.operand_types"))
        )
        operations = tuple(
            _operation(o, f"{where}.operations[{k}]")
            for k, o in enumerate(_list(entry["operations"], f"{where}.operations"))
        )
        for kind, items in (("operand type", types), ("operation", operations)):
            for attribute in ("name", "type_within"):
                values = [getattr(item, attribute) for item in items]
                twice = next((v for v in values if values.count(v) > 1), None)
                if twice is not None:
                    raise ValueError(f"{where}: two {kind}s with {attribute} {_show(twice)}")
        found.append(ExtensionDefinition(name, types, operations))
    return found


def _show(value: object) -> str:
    text = (
        repr(value) if isinstance(value, str | int | float | bool | None) else type(value).__name__
    )
    return text if len(text) <= 60 else text[:57] + "..."


def _keys(entry: object, where: str, required: set[str], optional: set[str]) -> None:
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: must be an object")
    missing = sorted(required - set(entry))
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    extra = sorted(set(entry) - required - optional)
    if extra:
        raise ValueError(f"{where}: unknown key {', '.join(map(_show, extra))}")


def _list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: must be a list")
    return value


def _item_common(entry: dict, where: str) -> tuple[str, int, str]:
    name, within, text = entry["name"], entry["type_within"], entry.get("description", "")
    if not isinstance(name, str) or not _ITEM_NAME.fullmatch(name):
        raise ValueError(f"{where}.name: {_show(name)} is not an upper-case name like TENSOR_X")
    if type(within) is not int or not 0 <= within < (1 << LOW_BITS):
        raise ValueError(f"{where}.type_within: {_show(within)} is not an integer in [0, 65535]")
    if not isinstance(text, str):
        raise ValueError(f"{where}.description: must be a string")
    return name, within, text


def _operand_type(entry: object, where: str) -> ExtensionOperandType:
    _keys(entry, where, {"name", "type_within", "dtype", "is_tensor", "byte_size"}, {"description"})
    name, within, text = _item_common(entry, where)
    dtype, tensor, size = entry["dtype"], entry["is_tensor"], entry["byte_size"]
    if dtype not in DTYPES:
        raise ValueError(f"{where}.dtype: {_show(dtype)} is not one of {', '.join(DTYPES)}")
    if type(tensor) is not bool:
        raise ValueError(f"{where}.is_tensor: must be true or false")
    if type(size) is not int or size != np.dtype(dtype).itemsize:
        raise ValueError(
            f"{where}.byte_size: {_show(size)} is not the size of one {dtype} element "
            f"({np.dtype(dtype).itemsize})"
        )
    return ExtensionOperandType(name, within, dtype, tensor, size, text)


def _operation(entry: object, where: str) -> ExtensionOperation:
    _keys(entry, where, {"name", "type_within"}, {"description"})
    return ExtensionOperation(*_item_common(entry, where))


__all__ = [
    "DEMO",
    "DTYPES",
    "KNOWN_EXTENSIONS",
    "OPERATION_CHECKS",
    "ExtensionDefinition",
    "ExtensionOperandType",
    "ExtensionOperation",
    "definitions_from_json",
    "find",
    "harness_declarations",
    "harness_number",
    "harness_prefix",
    "operand_type_of",
    "operation_of",
    "operation_problem",
    "qualified_operand_type",
    "qualified_operation",
    "register",
    "split_qualified",
    "unregister",
    "used_extensions",
]
