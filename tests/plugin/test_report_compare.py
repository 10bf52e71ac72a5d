"""Comparing two reports: ``plugins.report.compare``, ``nnhal-report diff`` and
``nnhal-certify --rerun-failed``.

The groups, the printed and written comparison and every refusal are checked
on documents built by hand (``test_report_verdict``'s builders); the rerun's
own checks run nnhal-certify with the pytest run replaced by one that writes a
report. One real first run certifies faulty_drivers.PerturbMulTwice on three
named items (MUL twice off the mark, ADD right) and is rerun for real twice:
with the reference driver (fixed, in two shard processes) and with the driver
it records (still failing, and the items the suite no longer has are gone).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from certify_runs import FAULTY, run_certify
from report_documents import _document, _test

from plugins.report import certify, cli, compare, seal
from plugins.report.document import ReportError, load, write
from plugins.report.selection import item_ids

# ---------------------------------------------------------------------------
# compare: the groups
# ---------------------------------------------------------------------------


def _id(name: str) -> str:
    return f"conformance.test_x::{name}"


BEFORE = {
    "broke": "passed",
    "fixed": "failed",
    "declined": "error",
    "worse": "failed",
    "same": "crash",
    "removed": "timeout",
    "dropped": "passed",
    "known": "failed",
    "fine": "passed",
}
AFTER = {
    "broke": "failed",
    "fixed": "passed",
    "declined": "unsupported",
    "worse": "timeout",
    "same": "crash",
    "known": "expected-failure",
    "fine": "passed",
    "added": "passed",
    "added_bad": "blocked",
}


def _run_of(outcomes: dict[str, str]) -> dict:
    return _document([_test(name, "basic", outcome) for name, outcome in outcomes.items()])


def _ids(comparison: dict, group: str) -> list[str]:
    return [entry["id"].removeprefix("conformance.test_x::") for entry in comparison[group]]


def test_every_item_falls_in_its_group() -> None:
    comparison = compare.compare(_run_of(BEFORE), _run_of(AFTER))
    assert {group: _ids(comparison, group) for group in compare.GROUPS} == {
        "newly_failing": ["added_bad", "broke"],
        "still_failing": ["same", "worse"],
        "fixed": ["declined", "fixed"],
        "set_aside": ["known"],
        "gone": ["dropped", "removed"],
        "new": ["added", "added_bad"],
    }
    assert comparison["counts"] == {
        "newly_failing": 2,
        "still_failing": 2,
        "fixed": 2,
        "set_aside": 1,
        "gone": 2,
        "new": 2,
    }
    assert comparison["compared"] == {"before": len(BEFORE), "after": len(AFTER)}


def test_an_entry_has_both_outcomes_and_the_latest_reason() -> None:
    comparison = compare.compare(_run_of(BEFORE), _run_of(AFTER))
    entries = {e["id"]: e for group in compare.GROUPS for e in comparison[group]}
    assert entries[_id("worse")] == {
        "id": _id("worse"),
        "before": "failed",
        "after": "timeout",
        "reason": "why worse",
    }
    assert entries[_id("removed")] == {
        "id": _id("removed"),
        "before": "timeout",
        "after": None,
        "reason": "why removed",
    }
    assert entries[_id("fixed")]["reason"] is None
    assert comparison["new"][1] == {
        "id": _id("added_bad"),
        "before": None,
        "after": "blocked",
        "reason": "why added_bad",
    }


def test_only_compares_the_items_named() -> None:
    only = [_id("fixed"), _id("worse"), _id("removed")]
    comparison = compare.compare(_run_of(BEFORE), _run_of(AFTER), only=only)
    assert comparison["counts"] == {
        "newly_failing": 0,
        "still_failing": 1,
        "fixed": 1,
        "set_aside": 0,
        "gone": 1,
        "new": 0,
    }
    assert comparison["compared"] == {"before": 3, "after": 2}


def test_each_report_is_named_by_its_path_driver_verdict_and_times() -> None:
    before = _document(driver={"spec": "vendor:Old", "version_string": "vendor 1.0"})
    after = _document(run={"started": "2026-02-01T10:00:00+00:00", "duration": 61.5})
    comparison = compare.compare(before, after, before_path="a/report.json", after_path=Path("b"))
    assert comparison["schema"] == "nnhal-conformance/report-comparison"
    assert comparison["version"] == 1
    assert comparison["before"] == {
        "path": "a/report.json",
        "driver": "vendor:Old",
        "driver_version": "vendor 1.0",
        "verdict": "CERTIFIED",
        "started": "2026-01-01T00:00:00+00:00",
        "finished": "2026-01-01T00:00:03+00:00",
    }
    assert comparison["after"]["path"] == "b"
    assert comparison["after"]["finished"] == "2026-02-01T10:01:01+00:00"
    del after["run"]["started"]
    assert compare.identity(after, "b")["finished"] is None


def test_the_summary_counts_four_groups_always_and_the_others_when_not_empty() -> None:
    comparison = compare.compare(_run_of(BEFORE), _run_of(AFTER))
    assert compare.summary(comparison) == (
        "2 fixed, 2 still failing, 2 newly failing, 2 gone, 1 set aside, 2 new"
    )
    same = compare.compare(_run_of({"a": "passed"}), _run_of({"a": "passed"}))
    assert compare.summary(same) == "0 fixed, 0 still failing, 0 newly failing, 0 gone"
    assert compare.terminal_lines(same) == []


def test_the_terminal_lists_each_group_with_outcomes_and_reasons() -> None:
    comparison = compare.compare(_run_of(BEFORE), _run_of(AFTER))
    x = "conformance.test_x::"
    assert compare.terminal_lines(comparison) == [
        "  newly failing:",
        f"    {x}added_bad (new: blocked): why added_bad",
        f"    {x}broke (passed -> failed): why broke",
        "  still failing:",
        f"    {x}same (crash): why same",
        f"    {x}worse (failed -> timeout): why worse",
        "  fixed:",
        f"    {x}declined (error -> unsupported)",
        f"    {x}fixed (failed -> passed)",
        "  set aside:",
        f"    {x}known (failed -> expected-failure): why known",
        "  gone:",
        f"    {x}dropped (passed)",
        f"    {x}removed (timeout)",
        "  new:",
        f"    {x}added (new: passed)",
        f"    {x}added_bad (new: blocked)",
    ]


def _many(count: int, outcome: str) -> dict:
    return _document([_test(f"t{i:03}", "basic", outcome) for i in range(count)])


def test_the_terminal_shows_twenty_items_a_group_then_how_many_more() -> None:
    comparison = compare.compare(_many(25, "failed"), _many(25, "passed"))
    lines = compare.terminal_lines(comparison)
    assert len(lines) == 1 + compare.TERMINAL_LIMIT + 1
    assert lines[-2] == "    conformance.test_x::t019 (failed -> passed)"
    assert lines[-1] == "    ... and 5 more"


def test_comparison_md_names_both_reports_and_lists_each_group(tmp_path: Path) -> None:
    before = _run_of({"a": "failed", "b": "passed"})
    after = _document(
        [_test("a", "basic", "passed"), _test("b", "basic", "failed", reason="x | y\nz")],
        driver={"spec": "vendor:New", "version_string": None},
    )
    comparison = compare.compare(before, after, before_path="old/report.json", after_path="new")
    assert compare.markdown(comparison) == (
        "## nnhal comparison: 1 fixed, 0 still failing, 1 newly failing, 0 gone\n"
        "\n"
        "| | report | driver | verdict | started | finished |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| before | old/report.json | vendor:Factory (vendor 1.0) | NOT CERTIFIED | "
        "2026-01-01T00:00:00+00:00 | 2026-01-01T00:00:03+00:00 |\n"
        "| after | new | vendor:New | NOT CERTIFIED | "
        "2026-01-01T00:00:00+00:00 | 2026-01-01T00:00:03+00:00 |\n"
        "\n"
        "### Newly failing (1)\n"
        "\n"
        "| test | outcome | reason |\n"
        "| --- | --- | --- |\n"
        "| `conformance.test_x::b` | passed -> failed | x \\| y z |\n"
        "\n"
        "### Fixed (1)\n"
        "\n"
        "| test | outcome | reason |\n"
        "| --- | --- | --- |\n"
        "| `conformance.test_x::a` | failed -> passed |  |\n"
    )
    paths = compare.write(comparison, tmp_path / "out")
    assert [p.name for p in paths] == ["comparison.json", "comparison.md"]
    assert json.loads(paths[0].read_text()) == comparison
    assert paths[1].read_text() == compare.markdown(comparison)


def test_comparison_md_lists_fifty_items_a_group() -> None:
    markdown = compare.markdown(compare.compare(_many(60, "failed"), _many(60, "passed")))
    rows = [line for line in markdown.splitlines() if line.startswith("| `")]
    assert len(rows) == compare.MARKDOWN_LIMIT
    assert markdown.endswith("\n... and 10 more (comparison.json lists them all)\n")


def test_a_report_whose_tests_lack_ids_or_outcomes_is_refused() -> None:
    doc = _document()
    del doc["tests"][0]["outcome"]
    with pytest.raises(ReportError) as raised:
        compare.compare(doc, _document(), before_path="a/report.json")
    assert str(raised.value) == (
        "a/report.json: not a complete report (its tests lack ids or outcomes)"
    )


# ---------------------------------------------------------------------------
# nnhal-report diff
# ---------------------------------------------------------------------------


def _saved(folder: Path, doc: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "report.json"
    path.write_text(json.dumps(doc))
    return path


def test_diff_exits_zero_when_nothing_is_newly_failing(tmp_path: Path, capsys) -> None:
    a = _saved(tmp_path / "a", _run_of({"x": "failed", "y": "passed"}))
    b = _saved(tmp_path / "b", _run_of({"x": "passed", "y": "passed"}))
    assert cli.main(["diff", str(a), str(b)]) == 0
    assert capsys.readouterr().out == (
        f"{a} -> {b}: 1 fixed, 0 still failing, 0 newly failing, 0 gone\n"
        "  fixed:\n"
        "    conformance.test_x::x (failed -> passed)\n"
    )
    assert not (tmp_path / "comparison.json").exists()


def test_diff_exits_one_when_an_item_is_newly_failing(tmp_path: Path, capsys) -> None:
    a = _saved(tmp_path / "a", _run_of({"x": "passed"}))
    b = _saved(tmp_path / "b", _run_of({"x": "crash", "y": "passed"}))
    out = tmp_path / "cmp"
    # Folders name their report.json.
    assert cli.main(["diff", str(a.parent), str(b.parent), "-o", str(out)]) == cli.NEWLY_FAILING
    assert capsys.readouterr().out == (
        f"{a} -> {b}: 0 fixed, 0 still failing, 1 newly failing, 0 gone, 1 new\n"
        "  newly failing:\n"
        "    conformance.test_x::x (passed -> crash): why x\n"
        "  new:\n"
        "    conformance.test_x::y (new: passed)\n"
        f"written to {out}/ (comparison.json, comparison.md)\n"
    )
    written = json.loads((out / "comparison.json").read_text())
    assert (written["before"]["path"], written["after"]["path"]) == (str(a), str(b))
    assert (out / "comparison.md").read_text().startswith("## nnhal comparison: 0 fixed")


def test_diff_of_a_rerun_counts_the_items_it_did_not_rerun_instead_of_calling_them_gone(
    tmp_path: Path, capsys
) -> None:
    """A pytest rerun of an argument file (what ``--rerun-failed --jobs 0`` runs): only the
    items the file names can be gone; the others of the report before were not rerun."""
    a = _saved(
        tmp_path / "a", _run_of({"x": "failed", "y": "passed", "z": "timeout", "w": "crash"})
    )
    rerun = tmp_path / "a" / "rerun"
    listed = rerun / "rerun-ids.txt"
    doc = _document(
        [_test("x", "basic", "passed"), _test("z", "basic", "timeout")],
        run={"command": f"pytest --pyargs conformance -p plugins.report.selection @{listed}"},
    )
    b = _saved(rerun, doc)
    listed.write_text("".join(f"{_id(n)}\n" for n in ("w", "x", "z")))
    assert cli.main(["diff", str(a), str(b)]) == 0
    assert capsys.readouterr().out == (
        f"{a} -> {b}: 1 fixed, 1 still failing, 0 newly failing, 1 gone, 1 not rerun\n"
        "  still failing:\n"
        "    conformance.test_x::z (timeout): why z\n"
        "  fixed:\n"
        "    conformance.test_x::x (failed -> passed)\n"
        "  gone:\n"
        "    conformance.test_x::w (crash)\n"
        "  not rerun: 1 item of the report before, outside the selection of the run after "
        f"(it reran the 3 items of {listed})\n"
    )


def test_diff_reads_the_list_of_a_certify_rerun_beside_its_report(tmp_path: Path, capsys) -> None:
    """An ``nnhal-certify --rerun-failed`` report records that command; its list is the
    rerun-ids.txt beside it, as nnhal-certify's own comparison reads it."""
    a = _saved(tmp_path / "a", _run_of({"x": "failed", "y": "passed", "v": "passed"}))
    b = _saved(
        tmp_path / "a" / "rerun",
        _document(
            [_test("x", "basic", "passed")], run={"command": "nnhal-certify --rerun-failed a"}
        ),
    )
    (b.parent / "rerun-ids.txt").write_text(f"{_id('x')}\n")
    out = tmp_path / "cmp"
    assert cli.main(["diff", str(a), str(b), "-o", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{a} -> {b}: 1 fixed, 0 still failing, 0 newly failing, 0 gone, 2 not rerun",
        "  fixed:",
        "    conformance.test_x::x (failed -> passed)",
        "  not rerun: 2 items of the report before, outside the selection of the run after "
        f"(it reran the 1 item of {b.parent / 'rerun-ids.txt'})",
        f"written to {out}/ (comparison.json, comparison.md)",
    ]
    written = json.loads((out / "comparison.json").read_text())
    assert written["not_rerun"] == {
        "count": 2,
        "why": f"it reran the 1 item of {b.parent / 'rerun-ids.txt'}",
    }
    assert written["counts"]["gone"] == 0
    assert (
        (out / "comparison.md")
        .read_text()
        .endswith(
            "\nNot rerun: 2 items of the report before, outside the selection of the run after "
            f"(it reran the 1 item of {b.parent / 'rerun-ids.txt'})\n"
        )
    )


@pytest.mark.parametrize(
    ("run", "why"),
    [
        (
            {"command": "pytest --pyargs conformance -k x", "deselected": 2},
            "it deselected 2 tests by -k/-m/--deselect/--nnhal-op/node ids",
        ),
        (
            {
                "command": "pytest --pyargs conformance --shard=2/3",
                "deselected": 20,
                "deselected_by": {"filter": 0, "smoke": 0, "shard": 20},
                "shard": {"index": 2, "count": 3},
            },
            "it is shard 2/3",
        ),
        (
            {"command": "pytest --pyargs 'conformance.test_x::x' --driver=vendor:Factory"},
            "its command names 1 item",
        ),
        (
            {"command": "nnhal-certify --rerun-failed a"},
            "it reran a list of items that is not beside it",
        ),
        ({"shard": {"index": 1, "count": 3}}, "it is shard 1/3"),
        ({"smoke": True}, "it is a smoke sample (--smoke)"),
    ],
)
def test_diff_of_a_selection_says_how_many_items_it_did_not_run(
    tmp_path: Path, capsys, run: dict, why: str
) -> None:
    a = _saved(tmp_path / "a", _run_of({"x": "failed", "y": "passed", "z": "crash"}))
    b = _saved(tmp_path / "b", _document([_test("x", "basic", "failed")], run=run))
    assert cli.main(["diff", str(a), str(b)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{a} -> {b}: 0 fixed, 1 still failing, 0 newly failing, 0 gone, 2 not rerun",
        "  still failing:",
        "    conformance.test_x::x (failed): why x",
        f"  not rerun: 2 items of the report before, outside the selection of the run after ({why})",
    ]


def test_a_whole_suite_run_after_still_calls_an_absent_item_gone(tmp_path: Path, capsys) -> None:
    a = _saved(tmp_path / "a", _run_of({"x": "failed", "y": "passed"}))
    b = _saved(tmp_path / "b", _run_of({"x": "failed"}))
    assert cli.main(["diff", str(a), str(b)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{a} -> {b}: 0 fixed, 1 still failing, 0 newly failing, 1 gone",
        "  still failing:",
        "    conformance.test_x::x (failed): why x",
        "  gone:",
        "    conformance.test_x::y (passed)",
    ]


@pytest.mark.parametrize(
    ("extra", "summary", "last"),
    [
        (
            "",
            "1 gone, 1 not rerun",
            ["  gone:", "    conformance.test_x::z (crash)", "  not rerun: 1 item of the"],
        ),
        (" -k 'x or y'", "0 gone, 2 not rerun", ["  not rerun: 2 items of the"]),
    ],
)
def test_node_ids_on_the_command_line_are_what_can_be_gone_unless_a_filter_joins_them(
    tmp_path: Path, capsys, extra: str, summary: str, last: list[str]
) -> None:
    a = _saved(tmp_path / "a", _run_of({"x": "failed", "y": "passed", "z": "crash"}))
    command = f"pytest -p no:cacheprovider --pyargs {_id('x')} {_id('z')} --driver vendor:Factory"
    b = _saved(
        tmp_path / "b", _document([_test("x", "basic", "passed")], run={"command": command + extra})
    )
    assert cli.main(["diff", str(a), str(b)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{a} -> {b}: 1 fixed, 0 still failing, 0 newly failing, {summary}",
        "  fixed:",
        "    conformance.test_x::x (failed -> passed)",
        *last[:-1],
        f"{last[-1]} report before, outside the selection of the run after (its command "
        "names 2 items)",
    ]


def _diff_error(capsys, *args: str) -> str:
    assert cli.main(["diff", *args]) == cli.REFUSED
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_diff_refuses_what_is_not_a_report(tmp_path: Path, capsys) -> None:
    good = str(_saved(tmp_path / "good", _document()))
    missing = tmp_path / "missing.json"
    assert _diff_error(capsys, str(missing), good) == (
        f"nnhal-report diff: {missing}: cannot read: No such file or directory\n"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _diff_error(capsys, good, str(empty)) == (
        f"nnhal-report diff: {empty / 'report.json'}: cannot read: No such file or directory\n"
    )
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert _diff_error(capsys, good, str(bad)) == (
        f"nnhal-report diff: {bad}: not JSON: Expecting property name enclosed in double "
        "quotes at line 1\n"
    )
    other = tmp_path / "other.json"
    other.write_text("{}")
    assert _diff_error(capsys, str(other), good) == (
        f'nnhal-report diff: {other}: not an nnhal certification report (no "schema": '
        '"nnhal-conformance/certification-report")\n'
    )
    doc = _document()
    del doc["tests"][0]["outcome"]
    broken = _saved(tmp_path / "broken", doc)
    assert _diff_error(capsys, good, str(broken)) == (
        f"nnhal-report diff: {broken}: test 'conformance.test_x::add_f32' has no known outcome (None)\n"
    )


# ---------------------------------------------------------------------------
# nnhal-certify --rerun-failed: its checks, with the pytest run replaced
# ---------------------------------------------------------------------------

EARLIER_RUN = {
    "profile": "ci",
    "hal_version_cap": "1.1",
    "isolation": {
        "mode": "none",
        "containment": None,
        "tamper_proof": False,
        "driver_logs": None,
    },
}


def _earlier(folder: Path, outcomes: dict[str, str], **run) -> Path:
    """An earlier run's report folder: one basic test per outcome, profile ci, HAL cap 1.1,
    isolation none, driver vendor:Factory."""
    doc = _document(
        [_test(name, "basic", outcome) for name, outcome in outcomes.items()],
        run={**EARLIER_RUN, **run},
    )
    _saved(folder, doc)
    return folder


class FakeRun:
    """run_pytest's stand-in: records each command and writes a report in which every item
    the argument file names ends as ``outcomes`` says (passed by default)."""

    def __init__(self, outcomes: dict[str, str] | None = None) -> None:
        self.outcomes = outcomes or {}
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str], time_limit: float, **where) -> int:
        self.commands.append(command)
        out = Path(next(a for a in command if a.startswith("--cert-report=")).partition("=")[2])
        named = Path(next(a for a in command if a.startswith("@"))[1:]).read_text().splitlines()
        tests = []
        for identifier in named:
            name = identifier.removeprefix("conformance.test_x::")
            if self.outcomes.get(name) != "gone":
                tests.append(_test(name, "basic", self.outcomes.get(name, "passed")))
        write(_document(tests), out)
        seal.write_seal(out, where["env"][seal.KEY_VARIABLE].encode())
        return 1 if any(t["outcome"] != "passed" for t in tests) else 0


@pytest.fixture
def fake_run(monkeypatch) -> FakeRun:
    fake = FakeRun()
    monkeypatch.setattr(certify, "run_pytest", fake)
    return fake


def test_a_rerun_runs_the_bad_items_with_the_recorded_settings(
    tmp_path: Path, fake_run: FakeRun, capsys
) -> None:
    old = _earlier(
        tmp_path / "old", {"a": "failed", "b": "passed", "c": "timeout", "d": "unsupported"}
    )
    assert certify.main(["--rerun-failed", str(old), "--jobs", "0", "-x"]) == 0
    out = old / "rerun"
    assert [c[c.index("--pyargs") :] for c in fake_run.commands] == [
        [
            "--pyargs",
            "conformance",
            "--driver=vendor:Factory",
            "--nnhal-profile=ci",
            f"--cert-report={out}",
            "-p",
            "no:cacheprovider",
            "--tb=line",
            f"--driver-folder={Path.cwd()}",
            f"--driver-hide={out}",
            "--hal-version=1.1",
            "--driver-isolation=none",
            "-p",
            "plugins.report.selection",
            f"@{(out / 'rerun-ids.txt').resolve()}",
            "-x",
        ]
    ]
    assert (out / "rerun-ids.txt").read_text() == ("conformance.test_x::a\nconformance.test_x::c\n")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"nnhal-certify: rerunning the 2 bad items of {old / 'report.json'} (1 failed, "
        "1 timeout) with driver vendor:Factory (recorded), profile ci (recorded), "
        "--hal-version 1.1 (recorded), isolation none (recorded)"
    )
    assert lines[-6:] == [
        f"report: {out / 'report.html'} (also report.json, report.md)",
        f"compared with {old}: 2 fixed, 0 still failing, 0 newly failing, 0 gone",
        "  fixed:",
        "    conformance.test_x::a (failed -> passed)",
        "    conformance.test_x::c (timeout -> passed)",
        f"comparison: {out / 'comparison.md'} (also comparison.json)",
    ]
    comparison = json.loads((out / "comparison.json").read_text())
    assert comparison["before"]["path"] == str(old / "report.json")
    assert comparison["after"]["path"] == str(out / "report.json")
    assert comparison["compared"] == {"before": 2, "after": 2}


def test_a_rerun_brings_back_the_vendor_packs_the_report_records(
    tmp_path: Path, fake_run: FakeRun, capsys
) -> None:
    pack = {"name": "acme", "folder": str(tmp_path / "acme"), "specs": 1, "spec_errors": []}
    old = _earlier(tmp_path / "old", {"a": "failed"}, packs=[pack])
    assert certify.main(["--rerun-failed", str(old), "--jobs", "0"]) == 0
    assert [w for w in fake_run.commands[0] if w.startswith("--nnhal-specs")] == [
        f"--nnhal-specs={tmp_path / 'acme'}"
    ]
    assert _announcement(capsys.readouterr().out).endswith(
        f"isolation none (recorded), --nnhal-specs {tmp_path / 'acme'} (recorded)"
    )


def _announcement(out: str) -> str:
    """The rerun's announcement line (after the seed's line, where the run has a seed)."""
    return next(line for line in out.splitlines() if line.startswith("nnhal-certify: rerunning"))


def test_options_given_win_over_the_recorded_ones(
    tmp_path: Path, fake_run: FakeRun, capsys
) -> None:
    old = _earlier(tmp_path / "old", {"a": "failed"})
    given = [
        *("--driver", "reference", "--profile", "full", "--hal-version", "1.2"),
        *("--driver-isolation", "process", "--out", str(tmp_path / "new")),
    ]
    assert certify.main(["--rerun-failed", str(old / "report.json"), "--jobs", "4", *given]) == 0
    command = fake_run.commands[0]  # one item: one process, not four
    assert "--driver=reference" in command and "--nnhal-profile=full" in command
    assert "--hal-version=1.2" in command and "--driver-isolation=process" in command
    assert f"--cert-report={tmp_path / 'new'}" in command
    assert _announcement(capsys.readouterr().out).endswith(
        "with driver reference (given), profile full (given), --hal-version 1.2 (given), "
        "isolation process (given)"
    )
    assert (tmp_path / "new" / "comparison.md").exists()


def test_a_rerun_that_still_fails_exits_one_and_lists_the_new_reasons(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    old = _earlier(tmp_path / "old", {f"t{i:03}": "failed" for i in range(23)} | {"z": "error"})
    fake = FakeRun({f"t{i:03}": "timeout" for i in range(23)} | {"z": "gone"})
    monkeypatch.setattr(certify, "run_pytest", fake)
    assert certify.main(["--rerun-failed", str(old), "--jobs", "0"]) == certify.NOT_CERTIFIED
    lines = capsys.readouterr().out.splitlines()
    start = lines.index(f"compared with {old}: 0 fixed, 23 still failing, 0 newly failing, 1 gone")
    assert lines[start + 1 : start + 3] == [
        "  still failing:",
        "    conformance.test_x::t000 (failed -> timeout): why t000",
    ]
    assert lines[start + 21 :] == [
        "    conformance.test_x::t019 (failed -> timeout): why t019",
        "    ... and 3 more",
        "  gone:",
        "    conformance.test_x::z (error)",
        f"comparison: {old / 'rerun' / 'comparison.md'} (also comparison.json)",
    ]


def test_a_report_without_bad_items_runs_nothing(tmp_path: Path, fake_run: FakeRun, capsys) -> None:
    old = _earlier(tmp_path / "old", {"a": "passed", "b": "unsupported", "c": "expected-failure"})
    assert certify.main(["--rerun-failed", str(old)]) == 0
    assert capsys.readouterr().out == (
        f"nnhal-certify: {old / 'report.json'} has no failed, crash, timeout, blocked or error "
        "items: nothing to rerun\n"
    )
    assert fake_run.commands == []
    assert not (old / "rerun").exists()


def test_thousands_of_items_take_one_argument(tmp_path: Path, fake_run: FakeRun) -> None:
    old = _earlier(tmp_path / "old", {f"t{i:04}": "failed" for i in range(2000)})
    assert certify.main(["--rerun-failed", str(old), "--jobs", "0"]) == 0
    command = fake_run.commands[0]
    assert len(command[command.index("--pyargs") :]) == 15, command
    assert len(" ".join(command)) < 1000
    assert len((old / "rerun" / "rerun-ids.txt").read_text().splitlines()) == 2000


def _usage_error(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as raised:
        certify.main(list(args))
    assert raised.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("usage: nnhal-certify")
    return captured.err.splitlines()[-1]


def test_rerun_usage_errors(tmp_path: Path, fake_run: FakeRun, capsys) -> None:
    missing = tmp_path / "missing"
    assert _usage_error(capsys, "--rerun-failed", str(missing)) == (
        f"nnhal-certify: error: --rerun-failed={missing}: no such folder"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _usage_error(capsys, "--rerun-failed", str(empty)) == (
        f"nnhal-certify: error: --rerun-failed={empty}: no report.json in that folder (give "
        "the --out folder of an earlier nnhal-certify, or a --cert-report folder)"
    )
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "report.json").write_text("{not json")
    assert _usage_error(capsys, "--rerun-failed", str(bad)) == (
        f"nnhal-certify: error: --rerun-failed={bad}: {bad / 'report.json'}: not JSON: "
        "Expecting property name enclosed in double quotes at line 1"
    )
    other = tmp_path / "other.json"
    other.write_text('{"schema": "something else"}')
    assert _usage_error(capsys, "--rerun-failed", str(other)) == (
        f"nnhal-certify: error: --rerun-failed={other}: {other}: not an nnhal certification "
        'report (no "schema": "nnhal-conformance/certification-report")'
    )
    doc = _document()
    doc["tests"].append({"id": "conformance.test_x::no_outcome"})
    broken = tmp_path / "broken"
    _saved(broken, doc)
    assert _usage_error(capsys, "--rerun-failed", str(broken)) == (
        f"nnhal-certify: error: --rerun-failed={broken}: {broken / 'report.json'}: test "
        "'conformance.test_x::no_outcome' has no known outcome (None)"
    )
    old = _earlier(tmp_path / "old", {"a": "failed"})
    assert _usage_error(capsys, "--rerun-failed", str(old), "--smoke") == (
        f"nnhal-certify: error: --smoke and --rerun-failed={old} do not go together: a rerun "
        "runs exactly the earlier run's bad items"
    )
    assert _usage_error(capsys, "--rerun-failed", str(old), "--out", str(old)) == (
        f"nnhal-certify: error: --out={old}: that is the folder of the report being rerun, "
        f"which the rerun would overwrite (without --out it goes to {old / 'rerun'})"
    )
    assert _usage_error(capsys, "--rerun-failed", str(old), "--jobs", "some") == (
        "nnhal-certify: error: --jobs=some: expected a number of workers or 'auto'"
    )
    nameless = tmp_path / "nameless"
    doc = _document([_test("a", "basic", "failed")], driver={"spec": None})
    _saved(nameless, doc)
    assert _usage_error(capsys, "--rerun-failed", str(nameless)) == (
        f"nnhal-certify: error: --rerun-failed={nameless}: {nameless / 'report.json'} does not "
        "say which driver it tested; give --driver"
    )
    assert fake_run.commands == []
    assert (old / "report.json").exists()


def test_the_selection_takes_only_item_ids() -> None:
    assert item_ids(["conformance.test_x::t[a]", "conformance/test_y.py::t"]) == [
        "conformance.test_x::t[a]",
        "conformance.test_y::t",
    ]
    assert item_ids(["conformance", "conformance.test_x::t"]) is None
    assert item_ids(["conformance.test_x::"]) is None
    assert item_ids([]) is None


# ---------------------------------------------------------------------------
# nnhal-certify --rerun-failed, for real
# ---------------------------------------------------------------------------

ITEM = "conformance.test_generated::test_generated[V1_0/{}/none/ex0/{}]"
BROKEN = [ITEM.format("mul", "async"), ITEM.format("mul", "sync")]
NAMED = [*BROKEN, ITEM.format("add", "sync")]
NO_LONGER = [
    ITEM.format("mul", "no_such_case"),
    "conformance.test_basic::test_no_such_function",
    "conformance.test_no_such_module::test_x",
]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory) -> Path:
    """The folder of a first run of PerturbMulTwice on three named items: two fail."""
    folder = tmp_path_factory.mktemp("rerun")
    shutil.copy(FAULTY, folder / FAULTY.name)
    result = run_certify(
        folder,
        *("--driver", "faulty_drivers:PerturbMulTwice", "--jobs", "0", "--profile", "ci"),
        *("--out", "first", *NAMED),
    )
    assert result.returncode == certify.NOT_CERTIFIED, result.stdout[-3000:] + result.stderr
    doc = load(folder / "first" / "report.json")
    outcomes = {t["id"]: t["outcome"] for t in doc["tests"]}
    assert outcomes == {BROKEN[0]: "failed", BROKEN[1]: "failed", NAMED[2]: "passed"}
    return folder


def test_a_rerun_with_the_reference_driver_fixes_the_failures(first_run: Path) -> None:
    result = run_certify(
        first_run, "--rerun-failed", "first", "--driver", "reference", "--jobs", "2"
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        f"nnhal-certify: rerunning the 2 bad items of {Path('first/report.json')} (2 failed) "
        "with driver reference (given), profile ci (recorded), isolation process (recorded)"
    )
    assert "nnhal-certify: 2 test processes, process K running shard K/2; their output: " in (
        result.stdout
    )
    start = lines.index("compared with first: 2 fixed, 0 still failing, 0 newly failing, 0 gone")
    assert lines[start + 1 :] == [
        "  fixed:",
        f"    {BROKEN[0]} (failed -> passed)",
        f"    {BROKEN[1]} (failed -> passed)",
        f"comparison: {Path('first/rerun/comparison.md')} (also comparison.json)",
    ]
    rerun = load(first_run / "first" / "rerun" / "report.json")
    assert sorted(t["id"] for t in rerun["tests"]) == BROKEN  # only the failures ran
    assert rerun["summary"]["total"] == 2 and rerun["run"]["merged_shards"] == ["1/2", "2/2"]
    comparison = json.loads((first_run / "first" / "rerun" / "comparison.json").read_text())
    assert comparison["counts"]["fixed"] == 2
    assert comparison["before"]["driver"] == "faulty_drivers:PerturbMulTwice"
    assert comparison["after"]["driver"] == "reference"


def test_a_rerun_with_the_recorded_driver_still_fails_and_passes_over_what_is_gone(
    first_run: Path,
) -> None:
    doc = load(first_run / "first" / "report.json")
    failure = next(t for t in doc["tests"] if t["outcome"] == "failed")
    doc["tests"] += [dict(failure, id=identifier, outcome="crash") for identifier in NO_LONGER]
    _saved(first_run / "older", doc)
    result = run_certify(first_run, "--rerun-failed", "older", "--jobs", "0", "--out", "again")
    assert result.returncode == certify.NOT_CERTIFIED, result.stdout[-3000:] + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].endswith(
        "(2 failed, 3 crash) with driver faulty_drivers:PerturbMulTwice (recorded), "
        "profile ci (recorded), isolation process (recorded)"
    )
    start = lines.index("compared with older: 0 fixed, 2 still failing, 0 newly failing, 3 gone")
    assert lines[start + 1] == "  still failing:"
    for k, identifier in enumerate(BROKEN):
        assert lines[start + 2 + k].startswith(f"    {identifier} (failed): output 0 (shape")
    assert lines[start + 4 :] == [
        "  gone:",
        *(f"    {identifier} (crash)" for identifier in sorted(NO_LONGER)),
        f"comparison: {Path('again/comparison.md')} (also comparison.json)",
    ]
    rerun = load(first_run / "again" / "report.json")
    assert sorted(t["id"] for t in rerun["tests"]) == BROKEN
    assert all(t["outcome"] == "failed" for t in rerun["tests"])
