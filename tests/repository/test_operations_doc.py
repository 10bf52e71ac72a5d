"""The operation reference (docs/operations.md) against the code and its citations.

Its generated blocks must be what ``python -m hal.catalog.document`` writes
now; its hand-written tables of enum codes must match ``hal.types``; every
operation has one ``## NAME (code)`` section, in code order; every rule name
the catalog uses is explained; links inside it resolve; and every citation
``docs/operations.md, NAME (code)`` in the repository names a real section.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from hal.catalog import document
from hal.operations import operation_info
from hal.types import FusedActivationFunc, OperandLifeTime, OperationType

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "operations.md"

_OP_HEADING = re.compile(r"^## ([A-Z0-9_]+) \((\d+)\)$", re.M)
_ANY_HEADING = re.compile(r"^(#{1,6}) (.+?)\s*$", re.M)


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


def _slug(title: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation dropped, spaces as '-'."""
    kept = re.sub(r"[^\w\- ]", "", title.lower())
    return kept.replace(" ", "-")


def _section(text: str, title: str) -> str:
    """The body of the ``## title`` section, up to the next ``## `` heading."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_generated_blocks_are_fresh(text: str) -> None:
    assert document.render(text) == text, (
        "docs/operations.md is stale against hal/catalog: run python -m hal.catalog.document"
    )


def test_render_refuses_missing_and_unknown_blocks(text: str) -> None:
    key = "signatures ADD"
    begin, end = document.BEGIN.format(key=key), document.END.format(key=key)
    start, stop = text.index(begin), text.index(end) + len(end)
    with pytest.raises(document.DocumentError, match="ADD"):
        document.render(text[:start] + text[stop:])
    bogus = (
        document.BEGIN.format(key="signatures NOPE")
        + "\n"
        + document.END.format(key="signatures NOPE")
    )
    with pytest.raises(document.DocumentError, match="NOPE"):
        document.render(text + "\n" + bogus + "\n")


def test_every_operation_has_one_section_in_code_order(text: str) -> None:
    found = [(name, int(code)) for name, code in _OP_HEADING.findall(text)]
    assert found == [(op.name, int(op)) for op in OperationType]
    for op in OperationType:
        assert document.heading(op) in text.splitlines()


def test_each_section_holds_its_own_generated_block(text: str) -> None:
    for op in OperationType:
        body = _section(text, f"{op.name} ({int(op)})")
        assert document.BEGIN.format(key=f"signatures {op.name}") in body, op.name
        info = operation_info(op)
        assert f"Introduced in HAL {info.introduced}." in body, op.name


def test_lifetime_table_matches_the_enum(text: str) -> None:
    rows = re.findall(r"^\| (\d+) \| ([A-Z_]+) \|", _section(text, "Operand lifetimes"), re.M)
    assert [(int(code), name) for code, name in rows] == [
        (int(lifetime), lifetime.name) for lifetime in OperandLifeTime
    ]


def test_activation_table_matches_the_enum(text: str) -> None:
    rows = re.findall(r"^\| (\d+) \| ([A-Z0-9_]+) \|", _section(text, "Fused activation"), re.M)
    assert [(int(code), name) for code, name in rows] == [
        (int(act), act.name) for act in FusedActivationFunc
    ]


def test_rule_legend_explains_every_catalog_rule(text: str) -> None:
    used = {
        c.name.split("(")[0]
        for op in OperationType
        for s in operation_info(op).signatures
        for c in s.constraints
    }
    legend = set(
        re.findall(r"^\| `([a-z0-9_]+)` \|", _section(text, "Rules beyond the types"), re.M)
    )
    assert used == legend, (
        f"not explained: {sorted(used - legend)}; unused: {sorted(legend - used)}"
    )


def test_links_inside_the_document_resolve(text: str) -> None:
    anchors = {_slug(title) for _, title in _ANY_HEADING.findall(text)}
    for op in OperationType:
        assert document.anchor(op)[1:] in anchors
    broken = sorted({frag for frag in re.findall(r"\]\(#([^)]+)\)", text) if frag not in anchors})
    assert not broken, f"links to no heading: {broken}"


# ---------------------------------------------------------------------------
# Citations elsewhere in the repository
# ---------------------------------------------------------------------------

_SKIPPED_DIRS = {"__pycache__", "generated", "node_modules"}
_TEXT_SUFFIXES = {".py", ".md", ".j2", ".toml", ".txt", ".cfg", ".yml", ".yaml"}
_CITATION = re.compile(
    r"docs/operations\.md, ([A-Za-z][^()\n;]*?)(?: \((\d+)\))?(?=[),;.:\n]| and |$)"
)
_FRAGMENT = re.compile(r"docs/operations\.md#([\w-]+)")
_WRAP = re.compile(r"[ \t]*\n[ \t]*(?:#[ \t]*)?")


def _repository_texts() -> list[tuple[Path, str]]:
    texts = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".") and d not in _SKIPPED_DIRS and not d.endswith(".egg-info")
        ]
        for name in files:
            path = Path(folder) / name
            if path.suffix in _TEXT_SUFFIXES and path != DOC:
                texts.append((path, path.read_text(encoding="utf-8", errors="replace")))
    return texts


@pytest.fixture(scope="module")
def repository() -> list[tuple[Path, str]]:
    return _repository_texts()


def test_citations_name_sections_that_exist(text: str, repository) -> None:
    titles = {title for _, title in _ANY_HEADING.findall(text)}
    operations = {op.name: int(op) for op in OperationType}
    anchors = {_slug(title) for title in titles}
    wrong = []
    for path, content in repository:
        flat = _WRAP.sub(" ", content)
        where = path.relative_to(ROOT)
        for name, code in _CITATION.findall(flat):
            if code:
                if operations.get(name) != int(code):
                    wrong.append(f"{where}: {name} ({code}) is no section")
            elif not any(name.startswith(t) or t.startswith(name) for t in titles):
                wrong.append(f"{where}: {name!r} is no section title")
        wrong += [
            f"{where}: #{frag} is no heading"
            for frag in _FRAGMENT.findall(flat)
            if frag not in anchors
        ]
    assert not wrong, "\n".join(wrong)
