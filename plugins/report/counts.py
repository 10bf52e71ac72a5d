"""A run's selected and deselected tests: one count, one meaning, said the same everywhere.

* collected: every test of what the run collected, the cases a selection left unbuilt
  included (``plugins.collection.unbuilt_cases``): pytest's ``collected N items``;
* selected: the tests the run ran or meant to run (what remained after every
  deselection);
* deselected: collected but not selected, for any reason, counted by the reason that
  left each one out (``REASONS``): ``filter`` (``-k``, ``-m``, ``--deselect``,
  ``--nnhal-op``, node ids or a rerun list naming some cases of a function), ``smoke``
  (``--nnhal-smoke``'s sample), ``shard`` (``--shard``).

pytest's own line (``collected N items / M deselected / K selected``), the plugin's
collection line, ``run.selected``, ``run.deselected`` and ``run.deselected_by`` of
report.json, report.md and report.html, the verdict and ``nnhal-certify`` all give these
numbers. A merge of shards counts what the unsplit run would have: the shards' filter
and smoke counts are the run's (each shard filters the whole collection before it
splits), and nothing is deselected by a shard.
"""

from __future__ import annotations

from typing import Any

REASONS = ("filter", "smoke", "shard")
"""Why a test was deselected, in the order the counts are written."""
WORDS = {
    "filter": "-k/-m/--deselect/--nnhal-op/node ids",
    "smoke": "--nnhal-smoke",
    "shard": "--shard",
}
"""How each reason is named where a count is printed."""


def deselected_by(run: dict[str, Any]) -> dict[str, int]:
    """``run.deselected_by`` of a report, every reason present. A report written before that
    field counted no shard's deselection in ``run.deselected``: all of it is ``filter``."""
    by = run.get("deselected_by")
    if isinstance(by, dict):
        return {r: by[r] if isinstance(by.get(r), int) else 0 for r in REASONS}
    deselected = run.get("deselected")
    return dict.fromkeys(REASONS, 0) | {"filter": deselected if isinstance(deselected, int) else 0}


def _present(by: dict[str, int]) -> list[str]:
    """The reasons that left some test out, in ``REASONS`` order."""
    return [reason for reason in REASONS if by.get(reason, 0)]


def _counted(by: dict[str, int], reasons: list[str]) -> str:
    """``4 by -k/..., 20 by --shard``."""
    return ", ".join(f"{by[reason]:,} by {WORDS[reason]}" for reason in reasons)


def detail(by: dict[str, int]) -> str:
    """What left the tests out: ``by --shard``, or ``(4 by -k/..., 20 by --shard)``."""
    reasons = _present(by)
    if len(reasons) == 1:
        return f"by {WORDS[reasons[0]]}"
    return f"({_counted(by, reasons)})"


def deselection(by: dict[str, int]) -> str:
    """``4 deselected by --shard``, ``24 deselected: 4 by -k/..., 20 by --shard``, or
    ``none deselected``."""
    total = sum(by.values())
    reasons = _present(by)
    if not total:
        return "none deselected"
    if len(reasons) == 1:
        return f"{total:,} deselected by {WORDS[reasons[0]]}"
    return f"{total:,} deselected: {_counted(by, reasons)}"


def selection(run: dict[str, Any]) -> str:
    """``10 tests selected, 4 deselected by -k/-m/--deselect/--nnhal-op/node ids``: the
    line report.md, report.html and ``nnhal-certify`` give."""
    return f"{run['selected']:,} tests selected, {deselection(deselected_by(run))}"


def verdict_reason(run: dict[str, Any]) -> str:
    """The verdict's reason for a run that deselected tests: ``24 tests were deselected
    (4 by -k/..., 20 by --shard): a certification runs the whole suite``."""
    return (
        f"{run['deselected']:,} tests were deselected {detail(deselected_by(run))}: a "
        "certification runs the whole suite"
    )


def merged(runs: list[dict[str, Any]]) -> dict[str, int]:
    """``deselected_by`` of the shards of one run merged: their filter and smoke counts are
    the run's (the same in each), and the merged run is no shard."""
    counts = [deselected_by(run) for run in runs]
    return {
        "filter": max(c["filter"] for c in counts),
        "smoke": max(c["smoke"] for c in counts),
        "shard": 0,
    }
