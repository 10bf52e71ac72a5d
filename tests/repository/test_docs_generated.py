"""The generated parts of the documentation are the code's current truth.

docs/validation.md lists every validation rule and mutation family from
``hal.validation.RULES`` and ``conformance.harness.mutations.FAMILIES``; a change to
either must come with the regenerated page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.harness import validation_doc

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "validation.md"


def test_validation_page_lists_the_current_rules_and_families() -> None:
    assert validation_doc.main(["--check", str(PAGE)]) == 0, (
        "docs/validation.md is stale: run "
        "python -m conformance.harness.validation_doc --write docs/validation.md"
    )


def test_every_rule_and_family_has_a_row() -> None:
    from conformance.harness.mutations import FAMILIES
    from hal.validation import RULES

    text = PAGE.read_text()
    missing = [n for n in [*RULES, *FAMILIES] if f"| `{n}` |" not in text]
    assert not missing, f"rows missing from docs/validation.md: {missing}"


def test_a_stale_page_is_reported_and_rewritten(tmp_path: Path, capsys) -> None:
    page = tmp_path / "validation.md"
    page.write_text(
        f"# title\n\n{validation_doc.START}\n| old | table |\n{validation_doc.END}\ntail\n"
    )
    assert validation_doc.main(["--check", str(page)]) == 1
    assert capsys.readouterr().out == (
        f"{page} is stale: run python -m conformance.harness.validation_doc --write {page}\n"
    )
    assert validation_doc.main(["--write", str(page)]) == 0
    text = page.read_text()
    assert text.startswith("# title\n\n") and text.endswith(f"{validation_doc.END}\ntail\n")
    assert "| old | table |" not in text and "## Every mutation family" in text
    assert validation_doc.main(["--check", str(page)]) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no markers\n", "the page has no '<!-- generated:validation:start"),
        (
            f"{validation_doc.START}\nno end\n",
            "the page has no '<!-- generated:validation:end -->'",
        ),
    ],
)
def test_a_page_without_its_markers_is_refused(tmp_path: Path, capsys, text, message) -> None:
    page = tmp_path / "validation.md"
    page.write_text(text)
    assert validation_doc.main(["--check", str(page)]) == 2
    assert capsys.readouterr().err.startswith(f"validation_doc: {page}: {message}")


def test_a_cell_is_one_line_with_pipes_escaped() -> None:
    assert validation_doc._cell("a |b\n  c") == "a \\|b c"
