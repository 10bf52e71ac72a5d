"""Two reports compared item by item: what a rerun or a new build of a driver fixed and broke.

``compare(before, after)`` sorts the items of two report documents by test id
into groups (bad: an outcome of ``facts.BAD_OUTCOMES``):

* fixed: bad before, passed or unsupported after;
* still failing: bad both times (the outcome may have changed: failed -> timeout);
* newly failing: bad after only (good, another outcome, or absent before);
* set aside: bad before, now neither good nor bad (expected-failure, skipped-other);
* gone: in the report before, absent after (no longer collected);
* new: absent before, whatever its outcome (a new item that fails is newly failing too);

and counts, without listing them, the items *not rerun*: absent after because the run
after selected only some of the suite (``selection``: a rerun of named items, a
``-k``/``-m``/``--deselect``/``--nnhal-op`` selection, a shard or a smoke sample), so
their absence says nothing. When the run after names its items (an ``nnhal-certify
--rerun-failed`` list, ``rerun-ids.txt``, or node ids on its command line), an item it
named and did not run is still gone; otherwise every absent item is counted as not rerun.

``only`` restricts both reports to the items of those ids: ``nnhal-certify
--rerun-failed`` compares the items it reran, ``nnhal-report diff`` every item. The comparison is a JSON-ready dict (``comparison.json``,
``"schema": SCHEMA_ID``, ``"version": VERSION``) naming both reports (path,
driver, verdict, start and finish); ``write`` puts it and ``comparison.md``
in a folder; ``summary`` and ``terminal_lines`` are what the commands print.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Collection
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from plugins.report import counts
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


RERUN_IDS = "rerun-ids.txt"
"""The list of items ``nnhal-certify --rerun-failed`` writes beside the rerun's report."""


def selection(after: dict[str, Any], after_path: str | Path) -> dict[str, Any] | None:
    """How the run of report ``after`` chose a part of the suite, as recorded in it (its
    ``run``: command, deselected, shard, smoke): ``{"why": text, "named": ids or None}``,
    ``named`` the item ids it was asked for when it names them; None for a whole-suite run."""
    run = after.get("run") if isinstance(after.get("run"), dict) else {}
    command = run.get("command") if isinstance(run.get("command"), str) else ""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    filtered_out = counts.deselected_by(run)["filter"]  # a shard and a sample say so below
    filtered = any(_filters(word) for word in words)
    listed = _listed(words, Path(after_path))
    if listed is not None:
        ids, source = listed
        named = None if filtered else ids
        return {"why": f"it reran the {_items(len(ids))} of {source}", "named": named}
    ids = [w for w in _positional(words[1:]) if "::" in w]
    if ids:
        return {"why": f"its command names {_items(len(ids))}", "named": None if filtered else ids}
    if "--rerun-failed" in words or any(w.startswith("@") for w in words):
        return {"why": "it reran a list of items that is not beside it", "named": None}
    if filtered_out:
        return {
            "why": f"it deselected {filtered_out:,} tests {counts.detail({'filter': filtered_out})}",
            "named": None,
        }
    shard = run.get("shard")
    if isinstance(shard, dict):
        return {"why": f"it is shard {shard.get('index')}/{shard.get('count')}", "named": None}
    if run.get("smoke") is True:
        return {"why": "it is a smoke sample (--smoke)", "named": None}
    return None


_FILTERS = ("-k", "-m", "--deselect", "--nnhal-op", "--nnhal-smoke", "--smoke", "--shard")
"""Options that leave out some of what a run names: with one, an item named and absent may
just have been filtered out, so it is not rerun rather than gone."""
_VALUED = ("-k", "-m", "--deselect", "--nnhal-op", "--shard", "--driver", "-p", "--out", "-o")
"""Options whose value is the next word when not given with ``=``."""


def _filters(word: str) -> bool:
    return any(
        word == f or word.startswith(f"{f}=") or (len(f) == 2 and word.startswith(f))
        for f in _FILTERS
    )


def _positional(words: list[str]) -> list[str]:
    """The words of a command line that are neither options nor their values."""
    found, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in _VALUED
        elif not word.startswith("@"):
            found.append(word)
    return found


def _items(count: int) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def _listed(words: list[str], after_path: Path) -> tuple[list[str], str] | None:
    """The ids of a rerun's list (``@FILE`` on a pytest command line, or ``rerun-ids.txt``
    of an ``nnhal-certify --rerun-failed`` run), read beside the report first (a report
    folder may have moved since), then where the command says; and where they were read."""
    files = [Path(w[1:]) for w in words if w.startswith("@") and len(w) > 1]
    if not files and "--rerun-failed" not in words:
        return None
    beside = Path(after_path).parent
    candidates = [beside / f.name for f in files] + files if files else [beside / RERUN_IDS]
    for candidate in candidates:
        try:
            text = candidate.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        return [line.strip() for line in text.splitlines() if line.strip()], str(candidate)
    return None


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
    chosen = selection(after, after_path)
    named = set(chosen["named"]) if chosen and chosen["named"] is not None else None
    not_rerun = 0
    groups: dict[str, list[dict[str, Any]]] = {key: [] for key in GROUPS}
    for test_id in sorted(old.keys() | new.keys()):
        was, now = old.get(test_id), new.get(test_id)
        if now is None and chosen is not None and (named is None or test_id not in named):
            not_rerun += 1  # outside what the run after selected: not gone, not run
            continue
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
        "not_rerun": {"count": not_rerun, "why": chosen["why"] if chosen else None},
    }


def summary(comparison: dict[str, Any]) -> str:
    """``3 fixed, 1 still failing, 0 newly failing, 0 gone`` (and the other groups that
    are not empty, and the items not rerun when there are)."""
    counts = comparison["counts"]
    shown = [*COUNTED, *(key for key in GROUPS if key not in COUNTED and counts[key])]
    text = ", ".join(f"{counts[key]} {GROUPS[key]}" for key in shown)
    skipped = comparison.get("not_rerun", {}).get("count", 0)
    return f"{text}, {skipped} not rerun" if skipped else text


def not_rerun_line(comparison: dict[str, Any]) -> str | None:
    """``not rerun: 2 items of the report before, outside the selection of the run after
    (it reran the 3 items of .../rerun-ids.txt)``; None when there are none."""
    skipped = comparison.get("not_rerun", {})
    if not skipped.get("count"):
        return None
    return (
        f"not rerun: {_items(skipped['count'])} of the report before, outside the selection "
        f"of the run after ({skipped['why']})"
    )


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
    skipped = not_rerun_line(comparison)
    if skipped is not None:
        lines.append(f"  {skipped}")
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
    skipped = not_rerun_line(comparison)
    if skipped is not None:
        lines += ["", md_text(skipped[0].upper() + skipped[1:])]
    return "\n".join(lines) + "\n"


def write(comparison: dict[str, Any], out_dir: Path) -> list[Path]:
    """comparison.json and comparison.md in ``out_dir`` (created if needed)."""
    files = {
        "comparison.json": json.dumps(comparison, indent=2) + "\n",
        "comparison.md": markdown(comparison),
    }
    return write_files(out_dir, files)
