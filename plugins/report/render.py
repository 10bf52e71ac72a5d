"""report.html and report.md from a report document (jinja2 templates beside this module)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plugins.report.facts import BAD_OUTCOMES, OUTCOMES

TEMPLATES = Path(__file__).resolve().parent / "templates"
MARKDOWN_FAILURES = 50
"""Failures listed in report.md (a pull-request comment has a size limit); the HTML lists all."""
SLOWEST = 15

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
    )
    env.filters["seconds"] = _seconds
    return env


def _seconds(value: float) -> str:
    if value >= 60:
        return f"{int(value // 60)} min {value % 60:.0f} s"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def _context(doc: dict[str, Any]) -> dict[str, Any]:
    tests = doc["tests"]
    failures = [t for t in tests if t["outcome"] in (*BAD_OUTCOMES, "expected-failure")]
    failures.sort(key=lambda t: (t["outcome"] == "expected-failure", t["id"]))
    return {
        "doc": doc,
        "verdict": doc["verdict"],
        "run": doc["run"],
        "driver": doc["driver"],
        "environment": doc["environment"],
        "summary": doc["summary"],
        "matrix": doc["matrix"],
        "scope": doc["scope"],
        "outcomes": OUTCOMES,
        "colours": COLOURS,
        "failures": failures,
        "slowest": sorted(tests, key=lambda t: -t["duration"])[:SLOWEST],
        "markdown_failures": MARKDOWN_FAILURES,
    }


def render_html(doc: dict[str, Any]) -> str:
    return _environment(True).get_template("report.html.j2").render(_context(doc))


def render_markdown(doc: dict[str, Any]) -> str:
    return _environment(False).get_template("report.md.j2").render(_context(doc))
