"""One selected and deselected count everywhere, the category running, drawn cases on -v.

Each run is the real suite in a pytest subprocess (a part of it: a few modules, so a
run takes seconds). The counts of pytest's own line, the plugin's collection line,
report.json, report.md, the verdict and pytest's closing line must be the same numbers
(``plugins.report.counts``), whatever deselected the tests: ``-k``, ``--nnhal-op``,
``--nnhal-smoke``, a shard, or several together.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from certify_runs import run_pytest

from plugins.report import counts
from plugins.running import CategoryProgress

FILTER = "-k/-m/--deselect/--nnhal-op/node ids"


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _counted(folder: Path, *args: str) -> tuple[list[str], dict, str]:
    """The output lines, report.json and report.md of a run of the corners and basic
    modules under profile ci with the reference driver."""
    result = _pytest(
        folder,
        "--pyargs",
        "conformance.test_corners",
        "conformance.test_basic",
        "--driver=reference",
        "--nnhal-profile=ci",
        "--cert-report=out",
        *args,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    doc = json.loads((folder / "out" / "report.json").read_text())
    return result.stdout.splitlines(), doc, (folder / "out" / "report.md").read_text()


def _line(lines: list[str], pattern: str) -> str:
    found = [line for line in lines if re.match(pattern, line)]
    assert len(found) == 1, (pattern, lines[:40])
    return found[0]


@pytest.mark.parametrize(
    ("args", "by"),
    [
        (["-k", "binary/ADD or test_status"], {"filter"}),
        (["--nnhal-op=ADD"], {"filter"}),
        (["--nnhal-smoke"], {"smoke"}),
        (["--nnhal-smoke", "-k", "not test_status", "--shard=1/2"], {"filter", "smoke", "shard"}),
        (["--shard=2/2"], {"shard"}),
        (["-k", "binary/ADD or test_status", "--shard=1/2"], {"filter", "shard"}),
    ],
    ids=["k", "op", "smoke", "k-smoke-shard", "shard", "k-shard"],
)
def test_every_place_gives_the_same_counts(tmp_path: Path, args: list[str], by: set) -> None:
    lines, doc, markdown = _counted(tmp_path, *args)
    run = doc["run"]
    selected, deselected, reasons = run["selected"], run["deselected"], run["deselected_by"]
    assert {reason for reason, count in reasons.items() if count} == by, reasons
    assert deselected == sum(reasons.values()) and selected == doc["summary"]["total"] > 0
    collected = selected + deselected
    # pytest's own line, and its closing one.
    assert (
        _line(lines, "collected ")
        == f"collected {collected} items / {deselected} deselected / {selected} selected"
    )
    assert re.search(rf", {deselected} deselected in [\d.]+s", lines[-1]), lines[-1]
    # The plugin's collection line.
    phrase = counts.deselection(reasons)
    header = _line(lines, "nnhal: collected ")
    assert re.fullmatch(
        rf"nnhal: collected {collected:,} tests in [\d.]+ s \({selected:,} selected, "
        rf"{re.escape(phrase)}\)",
        header,
    ), header
    if len(by) == 1:
        assert phrase == f"{deselected:,} deselected by {counts.WORDS[by.pop()]}"
    else:
        assert phrase == f"{deselected:,} deselected: " + ", ".join(
            f"{reasons[r]:,} by {counts.WORDS[r]}" for r in counts.REASONS if reasons[r]
        )
    # report.md, the verdict, the terminal summary.
    sentence = f"{selected:,} tests selected, {phrase}"
    assert f"\nTests: {sentence}.\n" in markdown
    assert f"tests: {sentence}" in lines
    assert any(
        reason.startswith(f"{deselected:,} tests were deselected ")
        for reason in doc["verdict"]["reasons"]
    ), doc["verdict"]["reasons"]


def test_the_counts_say_none_deselected_when_nothing_was() -> None:
    run = {"selected": 12, "deselected": 0, "deselected_by": dict.fromkeys(counts.REASONS, 0)}
    assert counts.selection(run) == "12 tests selected, none deselected"


def test_a_report_without_deselected_by_counts_all_as_filtered() -> None:
    """Written before ``deselected_by``: no shard's deselection was in ``deselected``."""
    assert counts.deselected_by({"deselected": 7}) == {"filter": 7, "smoke": 0, "shard": 0}
    assert counts.verdict_reason({"deselected": 7}) == (
        f"7 tests were deselected by {FILTER}: a certification runs the whole suite"
    )


def test_merged_shards_count_what_the_unsplit_run_counts() -> None:
    shards = [
        {"deselected": 25, "deselected_by": {"filter": 5, "smoke": 10, "shard": 10}},
        {"deselected": 23, "deselected_by": {"filter": 5, "smoke": 10, "shard": 8}},
    ]
    assert counts.merged(shards) == {"filter": 5, "smoke": 10, "shard": 0}


# -- the category running -------------------------------------------------------------

TWO_CATEGORIES = ["--pyargs", "conformance.test_basic", "conformance.test_burst", "-k", "V1_2"]


@pytest.mark.parametrize("verbosity", [[], ["-v"]], ids=["dots", "verbose"])
def test_progress_names_each_category_as_it_starts(tmp_path: Path, verbosity) -> None:
    result = _pytest(tmp_path, *TWO_CATEGORIES, "--nnhal-profile=ci", *verbosity)
    assert result.returncode == 0, result.stdout[-3000:]
    lines = result.stdout.splitlines()
    named = [line for line in lines if line.startswith("nnhal: running ")]
    assert [re.sub(r" \([\d,]+ tests\)$", "", line) for line in named] == [
        "nnhal: running basic",
        "nnhal: running burst",
    ], lines
    # Each line is one of its own: pytest's next line starts on the line below.
    basic, burst = (lines.index(line) for line in named)
    if verbosity:
        assert lines[basic + 1].startswith("conformance/test_basic.py::")
        assert lines[burst + 1].startswith("conformance/test_burst.py::")
    else:
        assert lines[basic - 1].rstrip() == "conformance/test_basic.py"
        assert re.fullmatch(r"\.+ +\[ *\d+%\]", lines[basic + 1]), lines[basic + 1]


def test_quiet_progress_names_nothing(tmp_path: Path) -> None:
    result = _pytest(tmp_path, *TWO_CATEGORIES, "--nnhal-profile=ci", "-q")
    assert result.returncode == 0, result.stdout[-3000:]
    assert not [line for line in result.stdout.splitlines() if "nnhal: running" in line]


def test_a_long_category_is_named_again_once_a_period() -> None:
    progress = CategoryProgress(terminal=None)
    progress.count(["conformance/test_a.py::t"] * 4 + ["conformance/test_validate_model.py::t"] * 2)
    said = [
        progress.line(nodeid, now)
        for nodeid, now in [
            ("conformance/test_a.py::t[1]", 0.0),
            ("conformance/test_a.py::t[2]", 30.0),
            ("conformance/test_a.py::t[3]", 61.0),
            ("conformance/test_validate_model.py::t", 62.0),
            ("conformance/test_a.py::t[4]", 63.0),  # an xdist worker still in the first
            ("tests/test_other.py::t", 64.0),  # not the suite's
            ("conformance/test_validate_model.py::t", 200.0),
        ]
    ]
    assert said == [
        "nnhal: running a (4 tests)",
        None,
        "nnhal: still running a (3 of 4 tests started, 1 min 1 s in it)",
        "nnhal: running validation-model (2 tests)",
        None,
        None,
        "nnhal: still running validation-model (2 of 2 tests started, 2 min 18 s in it)",
    ]


# -- drawn cases on -v ------------------------------------------------------------------


def test_a_corners_item_says_how_many_cases_it_ran(tmp_path: Path) -> None:
    item = "conformance.test_corners::test_corners[binary/ADD]"
    result = _pytest(tmp_path, "--pyargs", item, "--driver=reference", "-v")
    assert result.returncode == 0, result.stdout[-3000:]
    line = _line(result.stdout.splitlines(), r"conformance/test_corners\.py::")
    assert re.fullmatch(
        r"conformance/test_corners\.py::test_corners\[binary/ADD\] PASSED: ran (\d+) of the "
        r"\1 ADD cases drawn \(0 declined by the driver\) +\[100%\]",
        line,
    ), line
    quiet = _pytest(tmp_path, "--pyargs", item, "--driver=reference")
    assert "PASSED" not in quiet.stdout and "declined" not in quiet.stdout


_BUILT_COUNTER = """
built = []


def pytest_itemcollected(item):
    built.append(item.nodeid)


def pytest_collection_finish(session):
    print(f"items built: {len(built)}")
"""


def _collected_ids(folder: Path, *args: str) -> tuple[set[str], list[str]]:
    """The node ids and output lines of ``--collect-only`` of two modules, with the plugin
    ``nnhal_built_counter`` (in ``folder``) saying how many items were built."""
    result = run_pytest(
        folder,
        *("--collect-only", "-q", "--pyargs"),
        *("conformance.test_corners", "conformance.test_validate_request"),
        *("--driver=reference", "--nnhal-profile=ci", "--nnhal-seed=3", *args),
        plugin=("nnhal_built_counter", _BUILT_COUNTER),
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    lines = result.stdout.splitlines()
    return {line for line in lines if "::" in line}, lines


def test_a_shard_builds_only_its_own_case_items(tmp_path: Path) -> None:
    """Case items (``test_validate_request``'s) of other shards are never built, items
    pytest parametrizes (``test_corners``, ``..._sampled``) are built and dropped, yet the
    shard keeps exactly the tests whose id hashes to it, and every count is the whole
    collection's."""
    from plugins.report.shard import Shard

    everything, lines = _collected_ids(tmp_path)
    assert f"items built: {len(everything)}" in lines
    for index in (1, 2):
        kept, lines = _collected_ids(tmp_path, f"--shard={index}/2")
        shard = Shard(index, 2)
        # node id conformance/test_x.py::item is test id conformance.test_x::item
        expected = {n for n in everything if shard.keeps(_test_id(n))}
        assert kept == expected and 0 < len(kept) < len(everything)
        plain = {n for n in everything - kept if "::test_validate_request[" not in n}
        assert f"items built: {len(kept) + len(plain)}" in lines
        deselected = len(everything) - len(kept)
        assert any(
            line.startswith(f"nnhal: collected {len(everything):,} tests in ")
            and line.endswith(f"({len(kept):,} selected, {deselected:,} deselected by --shard)")
            for line in lines
        ), lines[-20:]


def _test_id(node: str) -> str:
    return node.replace("/", ".", 1).replace(".py::", "::", 1)
