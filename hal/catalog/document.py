"""Writes the catalog's facts into the operation reference, ``docs/operations.md``.

The reference is prose written by hand, with blocks generated from code
between marker comments::

    <!-- BEGIN GENERATED signatures CONV_2D (python -m hal.catalog.document) -->
    ...
    <!-- END GENERATED signatures CONV_2D -->

The blocks are the operand-type table (``operand-types``: codes, sizes and the
scale and zero-point rules of ``hal.validation``), the operation index
(``operation-index``) and, in each operation's section, the forms the catalog
accepts (``signatures NAME``: operand types per HAL version, omittable inputs,
rank limits, the rules beyond the types). ``python -m hal.catalog.document``
rewrites them in place; ``--check`` writes nothing and exits 1 if a block is
stale or missing (``tests/repository/test_operations_doc.py`` runs the same check).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from hal.operations import Signature, operation_info
from hal.types import (
    OperandType,
    OperationType,
    element_byte_size,
    is_oem_type,
    is_scalar_type,
    operand_type_introduced,
)
from hal.validation.model_rules import _ZERO_POINT_RANGE, _scale_problem

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "docs" / "operations.md"

BEGIN = "<!-- BEGIN GENERATED {key} (python -m hal.catalog.document) -->"
END = "<!-- END GENERATED {key} -->"
_MARKER = re.compile(
    r"<!-- (BEGIN|END) GENERATED ([A-Za-z0-9_ -]+?)(?: \(python -m [a-z.]+\))? -->"
)

SHORT: dict[int, str] = {
    OperandType.TENSOR_FLOAT32: "F32",
    OperandType.TENSOR_FLOAT16: "F16",
    OperandType.TENSOR_INT32: "I32",
    OperandType.TENSOR_QUANT8_ASYMM: "Q8A",
    OperandType.TENSOR_QUANT8_ASYMM_SIGNED: "Q8AS",
    OperandType.TENSOR_QUANT8_SYMM: "Q8S",
    OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL: "Q8C",
    OperandType.TENSOR_QUANT16_ASYMM: "Q16A",
    OperandType.TENSOR_QUANT16_SYMM: "Q16S",
    OperandType.TENSOR_BOOL8: "B8",
    OperandType.TENSOR_OEM_BYTE: "OEMB",
    OperandType.FLOAT32: "FLOAT32",
    OperandType.FLOAT16: "FLOAT16",
    OperandType.INT32: "INT32",
    OperandType.UINT32: "UINT32",
    OperandType.BOOL: "BOOL",
    OperandType.OEM: "OEM",
    OperandType.SUBGRAPH: "SUBGRAPH",
}
"""How the reference writes each operand type: tensors abbreviated, scalars by their HAL name."""


TIMES = "\N{MULTIPLICATION SIGN}"
"""Runs of one type are written ``INT32`` TIMES ``4``."""


def heading(op: OperationType) -> str:
    """An operation's section heading, the anchor citations name: ``## CONV_2D (3)``."""
    return f"## {op.name} ({int(op)})"


def anchor(op: OperationType) -> str:
    """The link fragment a Markdown renderer (GitHub's) gives that heading."""
    return f"#{op.name.lower()}-{int(op)}"


# ---------------------------------------------------------------------------
# The blocks
# ---------------------------------------------------------------------------


def _scale_rule(t: OperandType) -> str:
    if is_oem_type(t):
        return "not checked"
    if t == OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
        return "0 (per-channel scales in extraParams)"
    zero_ok, one_ok = _scale_problem(t, 0.0) is None, _scale_problem(t, 1.0) is None
    if zero_ok and not one_ok:
        return "0"
    if zero_ok and one_ok:
        return "≥ 0"
    return "> 0"


def _zero_point_rule(t: OperandType) -> str:
    if is_oem_type(t):
        return "not checked"
    low, high = _ZERO_POINT_RANGE.get(t, (0, 0))
    return "0" if low == high else f"{low}..{high}"


def operand_types_block() -> str:
    rows = [
        "| code | type | written | since | kind | bytes per element | scale | zeroPoint |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for t in OperandType:
        size = element_byte_size(t) or (
            "none (a subgraph index)" if t == OperandType.SUBGRAPH else "vendor-defined"
        )
        rows.append(
            f"| {int(t)} | {t.name} | {SHORT[t]} | {operand_type_introduced(t)} | "
            f"{'scalar' if is_scalar_type(t) else 'tensor'} | {size} | "
            f"{_scale_rule(t)} | {_zero_point_rule(t)} |"
        )
    return "\n".join(rows)


def operation_index_block() -> str:
    rows = ["| code | operation | introduced |", "|---|---|---|"]
    for op in OperationType:
        info = operation_info(op)
        rows.append(f"| {int(op)} | [{op.name}]({anchor(op)}) | {info.introduced} |")
    return "\n".join(rows)


def _types(types: tuple[int, ...], repeat: int | None = None) -> str:
    """Operand types in slot order, a run of one type as the type, TIMES and the count."""
    names = [SHORT.get(t, str(t)) for t in types]
    if repeat is not None:
        names[repeat] += f" {TIMES}n (n ≥ 1)"
    runs: list[list] = []
    for slot, name in enumerate(names):
        if runs and runs[-1][0] == name and repeat not in (slot, slot - 1):
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    return ", ".join(name if count == 1 else f"{name} {TIMES}{count}" for name, count in runs)


def _slots(slots: Iterable[int]) -> str:
    """``1, 5, 9-12`` for the slots 1, 5, 9, 10, 11, 12."""
    ordered = sorted(set(slots))
    parts: list[str] = []
    start = prev = None
    for s in [*ordered, None]:
        if start is not None and (s is None or s != prev + 1):
            parts.append(str(start) if start == prev else f"{start}-{prev}")
            start = None
        if s is not None and start is None:
            start = s
        prev = s
    return ", ".join(parts)


def _inputs(slots: str) -> str:
    """``input 3`` or ``inputs 1, 5``: one slot is singular."""
    single = slots.isdigit()
    return f"input {slots}" if single else f"inputs {slots}"


def _ranks(ranks: tuple[tuple[int, int, int], ...]) -> str:
    by_limit: dict[tuple[int, int], list[int]] = {}
    for slot, low, high in ranks:
        by_limit.setdefault((low, high), []).append(slot)
    parts = []
    for (low, high), slots in sorted(by_limit.items(), key=lambda item: min(item[1])):
        limit = str(low) if low == high else f"{low}-{high}"
        parts.append(f"{limit} for {_inputs(_slots(slots))}")
    return "; ".join(parts)


def _label(s: Signature) -> str:
    form = f" {s.form}" if s.form else ""
    return f"{SHORT.get(s.variant, s.variant)}{form}"


def _per_form(signatures: tuple[Signature, ...], fact, render) -> list[str]:
    """One line for a fact all forms share, else one line per distinct value."""
    values = {}
    for s in signatures:
        values.setdefault(fact(s), []).append(_label(s))
    values = {value: labels for value, labels in values.items() if value}
    if not values:
        return []
    if len(values) == 1 and len(next(iter(values.values()))) == len(signatures):
        return [render(next(iter(values)))]
    return [f"{render(value)} (forms: {', '.join(labels)})" for value, labels in values.items()]


def _constraint_lines(signatures: tuple[Signature, ...]) -> list[str]:
    """Each rule once, in catalog order: name, tier, versions, and the forms it binds
    when not all; a rule a form holds several times (one per slot) shows TIMES and the count."""
    where: dict[str, list[str]] = {}
    described: dict[str, str] = {}
    for s in signatures:
        counts: dict[str, int] = {}
        for c in s.constraints:
            counts[c.name] = counts.get(c.name, 0) + 1
            before = f", models before {c.before}" if c.before else ""
            described[c.name] = f"`{c.name}` ({c.tier}{before})"
        for name, count in counts.items():
            times = "" if count == 1 else f" {TIMES}{count}"
            described[name] = described[name].replace("` (", f"`{times} (", 1)
            where.setdefault(name, []).append(_label(s))
    lines = []
    for name, labels in where.items():
        only = "" if len(labels) == len(signatures) else f" (forms: {', '.join(labels)})"
        lines.append(described[name] + only)
    return lines


def signatures_block(op: OperationType) -> str:
    info = operation_info(op)
    if not info.signatures and op == OperationType.OEM_OPERATION:
        return (
            f"Introduced in HAL {info.introduced}. The catalog lists no forms: operand "
            "counts, types and meaning are the vendor's, and validation checks none of them."
        )
    if not info.signatures:
        rules = "if" if op == OperationType.IF else "while"
        return (
            f"Introduced in HAL {info.introduced}. The catalog lists no forms: the operands "
            "may be of any type, as long as they match the subgraphs the operation names; "
            f"the validation rules `{rules}.*` (docs/validation.md) check them."
        )
    lines = [
        f"Introduced in HAL {info.introduced}. Forms the catalog accepts (`hal/catalog`):",
        "",
        "| since | variant | form | inputs | outputs |",
        "|---|---|---|---|---|",
    ]
    for s in info.signatures:
        lines.append(
            f"| {s.since} | {SHORT.get(s.variant, s.variant)} | {s.form or '-'} | "
            f"{_types(s.inputs, s.repeat_input)} | {_types(s.outputs, s.repeat_output)} |"
        )
    facts = [
        *(
            f"- May be omitted (NO_VALUE): {_inputs(line)}."
            for line in _per_form(info.signatures, lambda s: tuple(sorted(s.omittable)), _slots)
        ),
        *(f"- Ranks: {line}." for line in _per_form(info.signatures, lambda s: s.ranks, _ranks)),
    ]
    rules = _constraint_lines(info.signatures)
    if rules:
        facts.append("- Rules beyond the types: " + "; ".join(rules) + ".")
    if facts:
        lines += ["", *facts]
    return "\n".join(lines)


def blocks() -> dict[str, str]:
    """Every generated block, by key."""
    result = {
        "operand-types": operand_types_block(),
        "operation-index": operation_index_block(),
    }
    for op in OperationType:
        result[f"signatures {op.name}"] = signatures_block(op)
    return result


# ---------------------------------------------------------------------------
# Rewriting the document
# ---------------------------------------------------------------------------


class DocumentError(ValueError):
    """The document's markers are missing, unbalanced or unknown."""


def render(text: str) -> str:
    """``text`` with every generated block replaced by its current content."""
    wanted = blocks()
    out: list[str] = []
    seen: set[str] = set()
    pos = 0
    for begin in _MARKER.finditer(text):
        if begin.start() < pos:
            continue  # an END already consumed
        kind, key = begin.group(1), begin.group(2)
        if kind == "END":
            raise DocumentError(f"END marker of {key!r} without its BEGIN")
        if key not in wanted:
            raise DocumentError(f"unknown generated block {key!r}")
        if key in seen:
            raise DocumentError(f"generated block {key!r} appears twice")
        end_marker = END.format(key=key)
        end = text.find(end_marker, begin.end())
        if end < 0:
            raise DocumentError(f"generated block {key!r} has no END marker")
        inner = _MARKER.search(text, begin.end(), end)
        if inner is not None:
            raise DocumentError(f"generated block {key!r} contains another marker")
        out.append(text[pos : begin.start()])
        out.append(f"{BEGIN.format(key=key)}\n\n{wanted[key]}\n\n{end_marker}")
        pos = end + len(end_marker)
        seen.add(key)
    out.append(text[pos:])
    missing = [key for key in wanted if key not in seen]
    if missing:
        raise DocumentError(f"the document has no generated block for {', '.join(missing)}")
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hal.catalog.document",
        description="Rewrite the generated blocks of the operation reference from the catalog.",
    )
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH)
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a block is stale"
    )
    args = parser.parse_args(argv)
    text = args.path.read_text(encoding="utf-8")
    try:
        fresh = render(text)
    except DocumentError as error:
        print(f"{args.path}: {error}", file=sys.stderr)
        return 1
    if fresh == text:
        return 0
    if args.check:
        print(f"{args.path}: generated blocks are stale; run python -m hal.catalog.document")
        return 1
    args.path.write_text(fresh, encoding="utf-8")
    print(f"{args.path}: generated blocks rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
