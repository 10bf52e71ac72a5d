"""report.html and report.md from a report document (jinja2 templates beside this module).

Both begin with what a vendor acts on: the verdict, the operations that failed
(most failures first) and the failures grouped by cause, before the long
listing of every failing test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hal.show import printable
from plugins.report.compact import CAUSES_WRITTEN
from plugins.report.counts import selection
from plugins.report.facts import BAD_OUTCOMES, OUTCOMES
from plugins.report.forms import describe_forms, describe_operation

TEMPLATES = Path(__file__).resolve().parent / "templates"
MARKDOWN_FAILURES = 50
HTML_FAILURES = 1000
"""Failures report.html lists with their messages (the causes section groups them all;
report.json holds every one): 6,700 failures in full made a 17 MB page."""
"""Failures listed in report.md (a pull-request comment has a size limit); the HTML lists all."""
SLOWEST = 15
CAUSES_SHOWN = 30
"""Causes both formats list, the largest first; the others are counted (report.json has all)."""
MARKDOWN_CAUSE_OPERATIONS = 10
"""Operations a cause names in report.md (the HTML names all)."""

COLOURS = {
    "passed": "#2e7d32",
    "failed": "#c62828",
    "crash": "#6a1b1b",
    "timeout": "#ad1457",
    "blocked": "#7b1fa2",
    "error": "#e65100",
    "expected-failure": "#f9a825",
    "unsupported": "#9e9e9e",
    "skipped-other": "#cfd8dc",
}
"""Cell and badge colours by outcome: green passes, reds for what stops a certification."""


def _environment(autoescape: bool):
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_printable_html if autoescape else None,
    )
    env.filters["seconds"] = _seconds
    env.filters["md_code"] = _md_code
    env.filters["md_cell"] = _md_cell
    env.filters["md_text"] = md_text
    return env


def _printable_html(value: Any) -> Any:
    """Every text report.html shows, its control and format characters escaped (jinja
    escapes its HTML): a driver's text cannot reorder a line (a bidirectional override)
    or hide in invisible characters. Newlines stay (``<pre>`` keeps a message's lines)."""
    if type(value) is str:
        return printable(value, keep="\n")
    return value


def _seconds(value: float) -> str:
    if value >= 60:
        return f"{int(value // 60)} min {value % 60:.0f} s"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def _md_code(text: Any) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds, on one line (a line
    break in a span could let the next line open a block: a heading, a list)."""
    text = " ".join(printable(str(text), keep="\n\t").split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_cell(text: Any) -> str:
    """``text`` fit for a Markdown table cell: one line, its pipes escaped."""
    return " ".join(printable(str(text), keep="\n\t").split()).replace("|", "\\|")


_MD_SPECIAL = re.compile(r"[\\`*\[\]<>#|~&!]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
"""What Markdown (and the HTML a Markdown page may hold) would read as markup: emphasis,
code, links and images, headings, tables, strikethrough, entities and tags (a comment
``<!--`` left open hides the rest of the page). An underscore inside a word is no markup."""
_MD_LINE_START = re.compile(r"^(\s*)(?:([-+=])|(\d+)([.)])(?=\s|$))")
"""What opens a block at the start of a line (or of a list item): a list, a setext
underline, a thematic break."""


def md_text(text: Any) -> str:
    """A driver's (or any untrusted) text as plain text in Markdown: one line (its control
    characters escaped, its whitespace runs one space), every character Markdown or HTML
    would read as markup backslash-escaped, so a version string cannot add a heading, a
    link, an emphasis, a table cell or an HTML comment to report.md."""
    line = " ".join(printable(str(text), keep="\n\t").split())
    line = _MD_SPECIAL.sub(lambda m: "\\" + m.group(), line)
    return _MD_LINE_START.sub(
        lambda m: (
            m.group(1) + ("\\" + m.group(2) if m.group(2) else m.group(3) + "\\" + m.group(4))
        ),
        line,
    )


def operation_rows(matrix: dict[str, Any]) -> list[dict[str, Any]]:
    """The matrix's operations in the order to fix them: those with failures (any bad
    outcome), the most failures first, then the others; ties by name. Each row is the
    operation's totals with its ``operation`` and ``failing_types``, the operand types
    with failures and their counts."""
    rows = []
    for operation, total in matrix["totals"].items():
        cells = matrix["operations"][operation]
        failing = [(type_, cell["failed"]) for type_, cell in cells.items() if cell["failed"]]
        rows.append({"operation": operation, **total, "failing_types": failing})
    rows.sort(key=lambda r: (r["failed"] == 0, -r["failed"], r["operation"]))
    return rows


def _scope_lists(scope: dict[str, Any]) -> dict[str, str]:
    """Each of the scope's operation lists in words, every operation with its forms:
    ``ADD (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM declined), MUL (TENSOR_FLOAT32)``."""
    return {
        name: ", ".join(describe_operation(scope, operation) for operation in scope.get(name) or [])
        for name in (
            "operations_passed",
            "operations_failed",
            "operations_unsupported",
            "operations_uncredited",
        )
    }


def _context(doc: dict[str, Any]) -> dict[str, Any]:
    tests = doc["tests"]
    failures = [t for t in tests if t["outcome"] in (*BAD_OUTCOMES, "expected-failure")]
    failures.sort(key=lambda t: (t["outcome"] == "expected-failure", t["id"]))
    rows = operation_rows(doc["matrix"])
    causes = doc["causes"]
    hidden = causes[CAUSES_SHOWN:]
    return {
        "doc": doc,
        "verdict": doc["verdict"],
        "run": doc["run"],
        "selection": selection(doc["run"]),
        "driver": doc["driver"],
        "environment": doc["environment"],
        "summary": doc["summary"],
        "matrix": doc["matrix"],
        "failing_rows": [r for r in rows if r["failed"]],
        "clean_rows": [r for r in rows if not r["failed"]],
        "causes": causes[:CAUSES_SHOWN],
        "more_causes": len(hidden),
        "more_causes_tests": sum(c["count"] for c in hidden),
        "cause_tests": sum(c["count"] for c in causes),
        "causes_written": CAUSES_WRITTEN,
        "markdown_cause_operations": MARKDOWN_CAUSE_OPERATIONS,
        "scope": doc["scope"],
        "forms_of": {
            operation: describe_forms(forms)
            for operation, forms in (doc["scope"].get("forms") or {}).items()
        },
        "scope_lists": _scope_lists(doc["scope"]),
        "outcomes": OUTCOMES,
        "colours": COLOURS,
        "failures": failures[:HTML_FAILURES],
        "failure_count": len(failures),
        "more_failures": max(0, len(failures) - HTML_FAILURES),
        "slowest": sorted(tests, key=lambda t: -t["duration"])[:SLOWEST],
        "markdown_failures": MARKDOWN_FAILURES,
    }


def render_html(doc: dict[str, Any]) -> str:
    return _environment(True).get_template("report.html.j2").render(_context(doc))


def render_markdown(doc: dict[str, Any]) -> str:
    return _environment(False).get_template("report.md.j2").render(_context(doc))
