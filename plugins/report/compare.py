"""Two reports compared item by item: what a rerun or a new build of a driver fixed and broke.

``compare(before, after)`` sorts the items of two report documents by test id
into groups (bad: an outcome of ``facts.BAD_OUTCOMES``):

* fixed: bad before, passed or unsupported after;
* still failing: bad both times (the outcome may have changed: failed -> timeout);
* newly failing: bad after only (good, another outcome, or absent before);
* set aside: bad before, now neither good nor bad (expected-failure, skipped-other);
* gone: in the report before, absent after (no longer collected);
* new: absent before, whatever its outcome (a new item that fails is newly failing too).

``only`` restricts both reports to the items of those ids: ``nnhal-certify
--rerun-failed`` compares the items it reran, ``nnhal-report diff`` every item. The comparison is a JSON-ready dict (``comparison.json``,
``"schema": SCHEMA_ID``, ``"version": VERSION``) naming both reports (path,
driver, verdict, start and finish); ``write`` puts it and ``comparison.md``
in a folder; ``summary`` and ``terminal_lines`` are what the commands print.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from plugins.report.document import ReportError, write_files
from plugins.report.facts import BAD_OUTCOMES
from plugins.report.render import md_text

SCHEMA_ID = "nnhal-conformance/report-comparison"
VERSION = 1
GOOD_OUTCOMES = ("passed", "unsupported")
"""Outcomes that count as fixed: the driver answered correctly or declined correctly."""
GROUPS = {
    "newly_failing": "newly failing",
    "still_failing": "still failing",
    "fixed": "fixed",
    "set_aside": "set aside",
    "gone": "gone",
    "new": "new",
}
"""Each group's key in comparison.json and its name in print, in the order they are listed."""
COUNTED = ("fixed", "still_failing", "newly_failing", "gone")
"""The groups every summary counts, even when empty; the others only when they are not."""
TERMINAL_LIMIT = 20
"""Items listed per group on the terminal; comparison.json lists every one."""
MARKDOWN_LIMIT = 50
"""Items listed per group in comparison.md (a pull-request comment has a size limit, as for
report.md)."""


def report_path(path: Path) -> Path:
    """The report a path names: a folder's ``report.json``, or the file itself."""
    path = Path(path)
    return path / "report.json" if path.is_dir() else path


def items(doc: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    """Test id -> test of a report; ReportError naming it when its tests are not a list of
    objects with an id and an outcome."""
    tests = doc.get("tests")
    if not isinstance(tests, list) or not all(
        isinstance(t, dict) and isinstance(t.get("id"), str) and isinstance(t.get("outcome"), str)
        for t in tests
    ):
        raise ReportError(f"{name}: not a complete report (its tests lack ids or outcomes)")
    return {t["id"]: t for t in tests}


def bad_ids(doc: dict[str, Any], name: str) -> list[str]:
    """The ids of a report's bad items, in its order (sorted by id)."""
    return [i for i, t in items(doc, name).items() if t["outcome"] in BAD_OUTCOMES]


def identity(doc: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """What comparison.json says of one report: its path, driver, verdict and times
    (``finished`` is ``started`` plus the run's duration; None where either is missing)."""
    run = doc.get("run") if isinstance(doc.get("run"), dict) else {}
    driver = doc.get("driver") if isinstance(doc.get("driver"), dict) else {}
    verdict = doc.get("verdict") if isinstance(doc.get("verdict"), dict) else {}
    return {
        "path": str(path),
        "driver": driver.get("spec"),
        "driver_version": driver.get("version_string"),
        "verdict": verdict.get("status"),
        "started": run.get("started"),
        "finished": _finished(run.get("started"), run.get("duration")),
    }


def _finished(started: Any, duration: Any) -> str | None:
    try:
        end = datetime.fromisoformat(started) + timedelta(seconds=float(duration))
    except (TypeError, ValueError):
        return None
    return end.isoformat(timespec="seconds")


def _entry(test_id: str, before: dict | None, after: dict | None) -> dict[str, Any]:
    """One item of a group: its outcomes before and after (None: absent) and the latest
    reason (the one after, or the one before for an item that is gone)."""
    latest = after if after is not None else before
    return {
        "id": test_id,
        "before": before["outcome"] if before is not None else None,
        "after": after["outcome"] if after is not None else None,
        "reason": latest.get("reason"),
    }


def _group(before: str | None, after: str | None) -> str | None:
    """The group of an item by its outcomes (None: absent); None for no change worth a list."""
    if after is None:
        return "gone"
    if after in BAD_OUTCOMES:
        return "still_failing" if before in BAD_OUTCOMES else "newly_failing"
    if before in BAD_OUTCOMES:
        return "fixed" if after in GOOD_OUTCOMES else "set_aside"
    return None


def compare(
    before: dict[str, Any],
    after: dict[str, Any],
    *,
    before_path: str | Path = "before",
    after_path: str | Path = "after",
    only: Collection[str] | None = None,
) -> dict[str, Any]:
    """The comparison of report ``before`` with report ``after`` (see the module's groups);
    ``only``: compare just the items of these ids."""
    old = items(before, str(before_path))
    new = items(after, str(after_path))
    if only is not None:
        wanted = set(only)
        old = {i: t for i, t in old.items() if i in wanted}
        new = {i: t for i, t in new.items() if i in wanted}
    groups: dict[str, list[dict[str, Any]]] = {key: [] for key in GROUPS}
    for test_id in sorted(old.keys() | new.keys()):
        was, now = old.get(test_id), new.get(test_id)
        group = _group(was["outcome"] if was else None, now["outcome"] if now else None)
        if group is not None:
            groups[group].append(_entry(test_id, was, now))
        if was is None:
            groups["new"].append(_entry(test_id, None, now))
    return {
        "schema": SCHEMA_ID,
        "version": VERSION,
        "before": identity(before, before_path),
        "after": identity(after, after_path),
        "compared": {"before": len(old), "after": len(new)},
        "counts": {key: len(entries) for key, entries in groups.items()},
        **groups,
    }


def summary(comparison: dict[str, Any]) -> str:
    """``3 fixed, 1 still failing, 0 newly failing, 0 gone`` (and the other groups that
    are not empty)."""
    counts = comparison["counts"]
    shown = [*COUNTED, *(key for key in GROUPS if key not in COUNTED and counts[key])]
    return ", ".join(f"{counts[key]} {GROUPS[key]}" for key in shown)


def change(entry: dict[str, Any]) -> str:
    """An item's outcomes as listed: ``failed``, ``failed -> timeout``, ``new: passed``."""
    before, after = entry["before"], entry["after"]
    if before is None:
        return f"new: {after}"
    if after is None or after == before:
        return before
    return f"{before} -> {after}"


def _line(entry: dict[str, Any], group: str) -> str:
    text = f"{entry['id']} ({change(entry)})"
    if group in ("still_failing", "newly_failing", "set_aside") and entry["reason"]:
        text += f": {entry['reason']}"
    return text


def terminal_lines(comparison: dict[str, Any], limit: int = TERMINAL_LIMIT) -> list[str]:
    """Every group that is not empty, ``limit`` items each, then how many more there are."""
    lines = []
    for key, title in GROUPS.items():
        entries = comparison[key]
        if not entries:
            continue
        lines.append(f"  {title}:")
        lines += [f"    {_line(entry, key)}" for entry in entries[:limit]]
        if len(entries) > limit:
            lines.append(f"    ... and {len(entries) - limit} more")
    return lines


def _cell(text: Any) -> str:
    return "" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def markdown(comparison: dict[str, Any], limit: int = MARKDOWN_LIMIT) -> str:
    """comparison.md: both reports, the counts, and every group that is not empty."""
    lines = [
        f"## nnhal comparison: {summary(comparison)}",
        "",
        "| | report | driver | verdict | started | finished |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for side in ("before", "after"):
        who = comparison[side]
        driver = _cell(who["driver"] or "unknown")
        if who["driver_version"]:  # the driver's own words: plain text, its markup escaped
            driver += f" ({md_text(who['driver_version'])})"
        cells = [_cell(c) for c in (who["path"], who["verdict"], who["started"], who["finished"])]
        cells.insert(1, driver)
        lines.append(f"| {side} | " + " | ".join(cells) + " |")
    for key, title in GROUPS.items():
        entries = comparison[key]
        if not entries:
            continue
        lines += ["", f"### {title.capitalize()} ({len(entries)})", ""]
        lines += ["| test | outcome | reason |", "| --- | --- | --- |"]
        for entry in entries[:limit]:
            lines.append(
                f"| `{entry['id']}` | {_cell(change(entry))} | {md_text(entry['reason'] or '')} |"
            )
        if len(entries) > limit:
            lines += ["", f"... and {len(entries) - limit} more (comparison.json lists them all)"]
    return "\n".join(lines) + "\n"


def write(comparison: dict[str, Any], out_dir: Path) -> list[Path]:
    """comparison.json and comparison.md in ``out_dir`` (created if needed)."""
    files = {
        "comparison.json": json.dumps(comparison, indent=2) + "\n",
        "comparison.md": markdown(comparison),
    }
    return write_files(out_dir, files)
