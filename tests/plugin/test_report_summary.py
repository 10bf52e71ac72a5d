"""The report's summaries and its compact report.json, on documents built by hand.

* the matrix's per-cell and per-operation counts and first failures, and the
  operations table built from them (failures first);
* failures grouped by cause: the reason normalizer, the groups, their order
  and bounds;
* report.json's compact entries: write, load, merge and render give what the
  full entries gave, an older version's report is read, and a run of 66,000
  tests writes a report.json a browser opens (``synthetic_tests``; run this
  file as a script to print the sizes and times).
"""

from __future__ import annotations

import json
import random
import shlex
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from plugins.report import cli
from plugins.report.causes import CAUSE_EXAMPLES, normalize
from plugins.report.compact import CAUSES_WRITTEN, FIELDS, KEY, pack, unpack
from plugins.report.document import (
    SCHEMA_PATH,
    SCHEMA_VERSION,
    ReportError,
    load,
    merge,
    new_document,
    write,
)
from plugins.report.render import CAUSES_SHOWN, operation_rows, render_html, render_markdown

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))  # run as a script, too
from report_documents import _document, _generated, _test, written_cases, written_texts

SIZE_TARGET = 1_000_000
"""Bytes report.json of the synthetic 66,000-test run (``synthetic_document``, the same
document every time) may take: some 0.77 MB today, 5.3 MB in schema version 2's layout,
24 MB in full entries."""
SYNTHETIC_TESTS = 66_000


def validate(doc: dict) -> None:
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(doc)


def _others() -> list[dict]:
    """The tests of every required category but the generated ones, all passing."""
    return [t for t in _document()["tests"] if t["category"] != "generated"]


# ---------------------------------------------------------------------------
# The matrix and the operations table
# ---------------------------------------------------------------------------


def test_cells_count_every_bad_outcome_as_failed_and_name_the_first_failure() -> None:
    tests = [
        *_others(),
        _generated("m5", "MUL", "TENSOR_FLOAT32", "crash", reason="worker 'gw1' crashed"),
        _generated("m1", "MUL", "TENSOR_FLOAT32"),
        _generated("m4", "MUL", "TENSOR_FLOAT32", "blocked"),
        _generated("m3", "MUL", "TENSOR_FLOAT32", "error"),
        _generated("m2", "MUL", "TENSOR_FLOAT32", "unsupported"),
        _generated("m6", "MUL", "TENSOR_FLOAT32", "expected-failure"),
        _generated("m7", "MUL", "TENSOR_FLOAT32", "timeout"),
        _generated("q1", "MUL", "TENSOR_QUANT8_ASYMM", "failed", reason="off by one"),
        _generated("q2", "MUL", "TENSOR_QUANT8_ASYMM"),
        _generated("both", "ADD", "TENSOR_QUANT8_ASYMM", "failed", operations=["ADD", "MUL"]),
        _generated("a1", "ADD", "TENSOR_FLOAT32"),
    ]
    matrix = _document(list(reversed(tests)))["matrix"]
    assert matrix["operations"]["MUL"]["TENSOR_FLOAT32"] == {
        "outcome": "crash",
        "counts": {
            "blocked": 1,
            "crash": 1,
            "error": 1,
            "expected-failure": 1,
            "passed": 1,
            "timeout": 1,
            "unsupported": 1,
        },
        "passed": 1,
        "credited": 1,
        "failed": 4,
        "unsupported": 1,
        "first_failure": {"id": "conformance.test_x::m3", "reason": "why m3"},
    }
    # "both" is a test of ADD and of MUL: it counts in both rows, first by id in both.
    assert matrix["operations"]["MUL"]["TENSOR_QUANT8_ASYMM"]["first_failure"] == {
        "id": "conformance.test_x::both",
        "reason": "why both",
    }
    assert matrix["totals"] == {
        "ADD": {
            "outcome": "failed",
            "total": 2,
            "passed": 1,
            "credited": 1,
            "failed": 1,
            "unsupported": 0,
            "first_failure": {"id": "conformance.test_x::both", "reason": "why both"},
        },
        "MUL": {
            "outcome": "crash",
            "total": 10,
            "passed": 2,
            "credited": 2,
            "failed": 6,
            "unsupported": 1,
            "first_failure": {"id": "conformance.test_x::both", "reason": "why both"},
        },
    }


def test_a_clean_cell_has_no_first_failure() -> None:
    cell = _document()["matrix"]["operations"]["ADD"]["TENSOR_FLOAT32"]
    assert cell == {
        "outcome": "passed",
        "counts": {"passed": 1},
        "passed": 1,
        "credited": 1,
        "failed": 0,
        "unsupported": 0,
        "first_failure": None,
    }


def _shard(tests: list[dict], index: int) -> dict:
    doc = _document(tests, run={"shard": {"index": index, "count": 2}})
    return json.loads(json.dumps(doc))


def test_first_failures_and_causes_are_the_same_after_a_merge() -> None:
    """Shard 1 holds the later failures: the merged run still names the first in id order."""
    early = [
        _generated("a_mul", "MUL", "TENSOR_FLOAT32", "failed", reason="3 of 4 values differ"),
        _generated("b_mul", "MUL", "TENSOR_FLOAT32", "timeout", reason="no answer in 2 s"),
    ]
    late = [
        _generated("y_mul", "MUL", "TENSOR_FLOAT32", "failed", reason="1 of 4 values differ"),
        _generated("z_mul", "MUL", "TENSOR_FLOAT32", "timeout", reason="no answer in 9 s"),
    ]
    whole = _document(_others() + early + late)
    merged = merge(
        [("one", _shard(_others() + late, 1)), ("two", _shard(early, 2))], command="pytest"
    )
    assert merged["matrix"] == whole["matrix"]
    assert merged["causes"] == whole["causes"]
    assert merged["matrix"]["totals"]["MUL"]["first_failure"]["id"] == "conformance.test_x::a_mul"


def test_operations_with_failures_come_first_the_most_first() -> None:
    tests = [
        *_others(),
        _generated("add", "ADD", "TENSOR_FLOAT32"),
        _generated("sub", "SUB", "TENSOR_FLOAT32", "unsupported"),
        _generated("mul1", "MUL", "TENSOR_FLOAT32", "failed"),
        _generated("div1", "DIV", "TENSOR_FLOAT32", "failed"),
        _generated("div2", "DIV", "TENSOR_FLOAT16", "timeout"),
        _generated("abs1", "ABS", "TENSOR_FLOAT32", "failed"),
        _generated("abs2", "ABS", "TENSOR_FLOAT32"),
    ]
    doc = _document(tests)
    rows = operation_rows(doc["matrix"])
    assert [(r["operation"], r["failed"]) for r in rows] == [
        ("DIV", 2),
        ("ABS", 1),
        ("MUL", 1),
        ("ADD", 0),
        ("SUB", 0),
    ]
    assert rows[0]["failing_types"] == [("TENSOR_FLOAT16", 1), ("TENSOR_FLOAT32", 1)]
    html = render_html(doc)
    table = html[html.index('<table id="operations">') :]
    table = table[: table.index("</table>")]
    order = [line.split('"')[1] for line in table.splitlines() if "data-row-operation" in line]
    assert order == ["DIV", "ABS", "MUL", "ADD", "SUB"]
    markdown = render_markdown(doc)
    assert "### Operations with failures (3)" in markdown
    assert (
        "| DIV | 2 | 0 | 0 | TENSOR_FLOAT32, TENSOR_FLOAT16 failed | "
        "TENSOR_FLOAT16 (1), TENSOR_FLOAT32 (1) | "
        "`conformance.test_x::div1`: why div1 |"
    ) in markdown
    assert (
        "Other operations without failures in generated tests: 2 (1 with passing tests, "
        "1 with none)."
    ) in markdown


def test_markdown_sums_up_the_operations_without_failures_in_one_line() -> None:
    tests = _others() + [_generated(f"op{i}", f"OP_{i:02}", "TENSOR_FLOAT32") for i in range(90)]
    markdown = render_markdown(_document(tests))
    assert "Operations with failures" not in markdown
    assert (
        "Operations without failures in generated tests: 90 (90 with passing tests, 0 with none)."
    ) in markdown
    assert "OP_42" not in markdown.split("Operations without failures")[1]


def test_a_pipe_in_a_reason_does_not_break_the_markdown_table() -> None:
    tests = [*_others(), _generated("m", "MUL", "TENSOR_FLOAT32", "failed", reason="a | b")]
    markdown = render_markdown(_document(tests))
    assert "| `conformance.test_x::m`: a \\| b |" in markdown


# ---------------------------------------------------------------------------
# Failures by cause
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "cause"),
    [
        (
            "output 0: 12 of 40 values differ, max abs error 0.5 at 3",
            "output #: # of # values differ, max abs error # at #",
        ),
        (
            "output 0: 7 of 40 values differ, max abs error 0.25 at 1",
            "output #: # of # values differ, max abs error # at #",
        ),
        (
            "output 1 (shape [2, 3]): 1 of 6 values differ, max abs error inf at [0, 2]; ...",
            "output # (shape [...]): # of # values differ, max abs error # at [...]; ...",
        ),
        (
            "worker 'gw3' crashed while running "
            "'conformance/test_generated.py::test_generated[V1_0/add/none/ex0/sync]'",
            "worker '...' crashed while running '...'",
        ),
        (
            "blocked: execute_1_2 timed out 2 times earlier in this run (--hal-hang-limit=2)",
            "blocked: execute_1_2 timed out # times earlier in this run (--hal-hang-limit=#)",
        ),
        ('KeyError: "missing"', "KeyError: '...'"),
        ("pool at 0x7f3a2b1c, token 9f86d081884c7d65", "pool at #, token #"),
        ("tolerance atol=1e-05, rtol=-2.5E+3", "tolerance atol=#, rtol=#"),
        ("nested [[1, 2], [3]] and [V1_2/mul/x]", "nested [...] and [...]"),
        (
            "the driver's TENSOR_FLOAT16 answer for ex0",
            "the driver's TENSOR_FLOAT16 answer for ex0",
        ),
        ("  status   GENERAL_FAILURE,\n expected NONE ", "status GENERAL_FAILURE, expected NONE"),
        (None, "(no reason given)"),
        ("", "(no reason given)"),
    ],
)
def test_normalized_reasons(reason: str | None, cause: str) -> None:
    assert normalize(reason) == cause


def test_causes_group_bad_tests_by_normalized_reason() -> None:
    values = "output 0: {} of 40 values differ, max abs error {} at {}"
    tests = _others() + [
        _generated(
            f"v{i}",
            "MUL" if i % 2 else "ADD",
            "TENSOR_FLOAT32",
            "failed",
            reason=values.format(i + 1, i / 4, i),
            rerun=f"pytest v{i}",
        )
        for i in range(7)
    ]
    tests += [
        _test("hang1", "basic", "timeout", reason="no answer within 1 s"),
        _test("hang2", "basic", "blocked", reason="no answer within 5 s", rerun="pytest h2"),
        _test("dead", "basic", "crash", reason="worker 'gw0' crashed"),
        _test("known", "basic", "expected-failure", reason="no answer within 1 s"),
        _test("skip", "basic", "unsupported", reason="no answer within 1 s"),
    ]
    doc = _document(tests)
    assert doc["causes"] == [
        {
            "cause": "output #: # of # values differ, max abs error # at #",
            "count": 7,
            "outcomes": {"failed": 7},
            "operations": ["ADD", "MUL"],
            "reason": "output 0: 1 of 40 values differ, max abs error 0.0 at 0",
            "examples": [
                {"id": f"conformance.test_x::v{i}", "rerun": f"pytest v{i}"}
                for i in range(CAUSE_EXAMPLES)
            ],
        },
        {
            "cause": "no answer within # s",
            "count": 2,
            "outcomes": {"timeout": 1, "blocked": 1},
            "operations": [],
            "reason": "no answer within 1 s",
            "examples": [
                {"id": "conformance.test_x::hang1", "rerun": "pytest x"},
                {"id": "conformance.test_x::hang2", "rerun": "pytest h2"},
            ],
        },
        {
            "cause": "worker '...' crashed",
            "count": 1,
            "outcomes": {"crash": 1},
            "operations": [],
            "reason": "worker 'gw0' crashed",
            "examples": [{"id": "conformance.test_x::dead", "rerun": "pytest x"}],
        },
    ]


def test_a_run_without_failures_has_no_causes() -> None:
    doc = _document()
    assert doc["causes"] == []
    assert "by cause" not in render_html(doc) and "by cause" not in render_markdown(doc)


def test_causes_shown_are_bounded_and_come_before_the_listing() -> None:
    tests = _others()
    names = [chr(ord("a") + k) * 3 for k in range(26)] + [f"z{k}z" for k in range(9)]
    for k, name in enumerate(names):  # 35 causes; cause k has k + 1 tests
        tests += [
            _generated(f"c{k:02}_{j}", "MUL", "TENSOR_FLOAT32", "failed", reason=f"fault {name}")
            for j in range(k + 1)
        ]
    doc = _document(tests)
    assert len(doc["causes"]) == 35
    assert [c["count"] for c in doc["causes"]] == list(range(35, 0, -1))
    hidden = 35 - CAUSES_SHOWN
    hidden_tests = sum(range(1, hidden + 1))
    html = render_html(doc)
    table = html[html.index('<table id="causes">') : html.index('<div id="failures">')]
    assert table.count('<tr><td class="num">') == CAUSES_SHOWN
    assert f"{hidden} more causes ({hidden_tests} tests)" in html
    assert html.index('<table id="causes">') < html.index('<div id="failures">')
    markdown = render_markdown(doc)
    start = markdown.index("### Failures by cause (35 causes, 630 tests)")
    section = markdown[start : markdown.index("### Failures (")]
    assert section.count("\n- **") == CAUSES_SHOWN
    assert f"- and {hidden} more causes ({hidden_tests} tests): see report.html" in section


def test_equal_counts_follow_the_cause_alphabetically() -> None:
    tests = [
        *_others(),
        _test("b", "basic", "failed", reason="zeta 1"),
        _test("a", "basic", "failed", reason="alpha 2"),
    ]
    assert [c["cause"] for c in _document(tests)["causes"]] == ["alpha #", "zeta #"]


# ---------------------------------------------------------------------------
# Compact entries in report.json
# ---------------------------------------------------------------------------


def _mixed_tests() -> list[dict]:
    """Entries of every kind the packing must tell apart."""
    return [
        *_others(),
        _generated("g[V1_2/add/none/ex0/sync]", "ADD", "TENSOR_FLOAT32", path="sync"),
        _generated("g[V1_2/add/none/ex0/async]", "ADD", "TENSOR_FLOAT32", path="async"),
        _generated("g[V1_2/add/relu/ex0/sync]", "ADD", "TENSOR_FLOAT32", path="sync"),
        _generated("p[V1_2/add/none/prepare-LOW]", "ADD", "TENSOR_FLOAT32", path="other"),
        _generated("n[x[0]/y]", "ADD", "TENSOR_FLOAT16", "unsupported", reason="unsupported: x"),
        _test("skip", "basic", "skipped-other", reason="not at this level", tier=None),
        _test("half[open", "basic", duration=0),
        _test("talks", "basic", details="it said something"),
        _generated("bad[V1_2/mul/none/ex0/sync]", "MUL", "TENSOR_FLOAT32", "failed"),
        _test("known", "basic", "expected-failure"),
    ]


def _cases(packed: dict, function: str) -> list[tuple]:
    """A function's cases in ``compact_tests``, read: (prefix, names, durations, facts rows)."""
    return [case[:4] for case in written_cases(packed, function)]


def _values(packed: dict, row: list[int]) -> list:
    """A facts row's values."""
    return [packed["values"][k][i] for k, i in enumerate(row)]


def test_report_json_packs_what_needs_no_more_than_its_facts(tmp_path: Path) -> None:
    doc = _document(_mixed_tests())
    write(doc, tmp_path)
    raw = json.loads((tmp_path / "report.json").read_text())
    validate(raw)
    assert raw["schema_version"] == SCHEMA_VERSION == 4
    assert raw["tests"] == []  # every test a compact row, a failure's texts with it
    packed = raw[KEY]
    assert written_texts(packed) == {
        "conformance.test_x::bad[V1_2/mul/none/ex0/sync]": {"rerun": "pytest x"},
        "conformance.test_x::known": {"rerun": "pytest x"},
        "conformance.test_x::talks": {"details": "it said something"},
    }
    ((_, _, _, (bad,)),) = _cases(packed, "conformance.test_x::bad")
    outcome = FIELDS.index("outcome")
    assert _values(packed, bad)[outcome:] == ["failed", "why bad[V1_2/mul/none/ex0/sync]", True]
    assert packed["fields"] == list(FIELDS)
    (none, relu) = _cases(packed, "conformance.test_x::g")
    assert none[:3] == ("V1_2/add/none/ex0", ["async", "sync"], [500, 500])
    assert relu[:3] == ("V1_2/add/relu/ex0", ["sync"], [500])
    assert none[3][0] == none[3][1] == relu[3][0]  # the same facts, the path from the id
    assert _values(packed, relu[3][0]) == [
        "generated",
        "1.2",
        ["ADD"],
        "TENSOR_FLOAT32",
        True,
        "parity",
        None,
        "passed",
        None,
        True,  # computed: it compared output values
    ]
    assert packed["segments"][0] == "V1_2"  # the most used first (4 cases), then 3 each
    assert set(packed["segments"][1:4]) == {"add", "none", "ex0"}
    ((prefix, names, _, (facts,)),) = _cases(packed, "conformance.test_x::p")
    assert (prefix, names) == ("V1_2/add/none", ["prepare-LOW"])
    assert _values(packed, facts)[FIELDS.index("path")] == "other"  # not its id's: written out
    assert _cases(packed, "conformance.test_x::n")[0][:2] == ("x[0]", ["y"])
    assert _cases(packed, "conformance.test_x::half[open")[0][:3] == (None, [None], [0])
    assert _cases(packed, "conformance.test_x::skip")[0][:2] == (None, [None])


RERUN = "pytest --pyargs {id} --driver=vendor:Factory --nnhal-profile=full"
"""A run's rerun command (``run.rerun``), ``{id}`` where the shell-quoted test id goes."""


def _rerun_of(name: str) -> str:
    """The command ``RERUN`` gives for test ``name`` (quoted as ``rerun_of`` quotes)."""
    return RERUN.replace("{id}", shlex.quote(f"conformance.test_x::{name}"))


def _failed(name: str, reason: str | None, details: str | None, rerun: str | None) -> dict:
    return _test(name, "basic", "failed", reason=reason, details=details, rerun=rerun)


def test_full_entries_and_causes_leave_out_what_the_file_gives(tmp_path: Path) -> None:
    long_line = "x " * 200  # a first line longer than a reason: the reason is its start
    tests = [
        *_others(),
        # details equal to the reason, the run's rerun command: both left out
        _failed("same[V1_2/a b]", "r", "r", _rerun_of("same[V1_2/a b]")),
        # details of more than the reason, a rerun command of another run: both written
        _failed("own", "r", "r\nmore", "pytest other"),
        # no details, a reason: details null is written (it is not the reason)
        _failed("nodetails", "r", None, _rerun_of("nodetails")),
        # the reason is the details' first line, and they end with the rerun command
        _failed("first", "s", f"s\nmore\nrerun: {_rerun_of('first')}", _rerun_of("first")),
        # the reason, then the rerun command: details left out, said to end with it
        _failed("tail", "t", f"t\nrerun: {_rerun_of('tail')}", _rerun_of("tail")),
        _failed("long", long_line[:300], f"{long_line}\nmore", _rerun_of("long")),
        # another rerun command at the end of the details stays in them
        _failed("other", "u", "u\nrerun: pytest other", _rerun_of("other")),
    ]
    doc = _document(tests, run={"rerun": RERUN})
    write(doc, tmp_path)
    raw = json.loads((tmp_path / "report.json").read_text())
    validate(raw)
    assert raw["run"]["rerun"] == RERUN
    assert raw["tests"] == []
    written = {i.split("::")[1]: t for i, t in written_texts(raw[KEY]).items()}
    assert {name: written[name] for name in written if name not in ("t_basic",)} == {
        "same[V1_2/a b]": {"details": "r", "rerun_line": False},
        "own": {"details": "r\nmore", "rerun": "pytest other", "rerun_line": False},
        # nodetails: its reason is in its facts, its rerun command the run's: no texts
        "first": {"details": "s\nmore"},
        "tail": {"details": "t"},
        "long": {"details": f"{long_line}\nmore", "rerun_line": False},
        "other": {"details": "u\nrerun: pytest other", "rerun_line": False},
    }
    reasons = {
        case[0] or function.split("::")[1]: _values(raw[KEY], case[3][0])[FIELDS.index("reason")]
        for function in raw[KEY]["functions"]
        for case in _cases(raw[KEY], function)
        if function.split("::")[1] in ("own", "nodetails", "long")
    }
    assert reasons == {"own": True, "nodetails": "r", "long": True}  # true: the details give it
    tests = {t["id"]: t for t in doc["tests"]}
    for cause in raw["causes"]:  # what the first example's entry gives
        assert "reason" not in cause and "cause" not in cause, cause
        for example in cause["examples"]:  # but the rerun command of another run
            rerun = tests[example["id"]]["rerun"]
            assert example.get("rerun") == (
                None if rerun == _rerun_of(example["id"].split("::")[1]) else rerun
            )
    loaded = load(tmp_path / "report.json")
    validate(loaded)
    assert loaded["tests"] == json.loads(json.dumps(doc["tests"]))
    assert loaded["causes"] == json.loads(json.dumps(doc["causes"]))


def test_the_collectors_rerun_command_is_the_runs_for_every_id() -> None:
    from plugins.report.compact import rerun_for, rerun_template

    def command_of(identifier: str) -> str:  # as conformance.harness.rerun.rerun_of quotes
        return f"pytest --pyargs {shlex.quote(identifier)} --driver='a b' --nnhal-seed=7"

    template = rerun_template(command_of)
    assert template == "pytest --pyargs {id} --driver='a b' --nnhal-seed=7"
    for identifier in ("m::t", "m::t[V1_2/a/b/ex0/sync]", "m::t[it's {id}]", "m::t[a b]"):
        assert rerun_for(template, identifier) == command_of(identifier)


def test_durations_are_kept_to_the_millisecond_and_render_again_the_same(tmp_path: Path) -> None:
    tests = [dict(t, duration=0.01234 * (k + 1)) for k, t in enumerate(_mixed_tests())]
    doc = _document(tests)
    write(doc, tmp_path / "w")
    loaded = load(tmp_path / "w" / "report.json")
    assert [t["duration"] for t in loaded["tests"]] == [
        round(t["duration"], 3) for t in sorted(tests, key=lambda t: t["id"])
    ]
    assert loaded["summary"]["duration"] == round(sum(round(t["duration"], 3) for t in tests), 3)
    assert cli.main(["render", str(tmp_path / "w/report.json"), "-o", str(tmp_path / "r")]) == 0
    for name in ("report.json", "report.html", "report.md"):
        assert (tmp_path / "r" / name).read_text() == (tmp_path / "w" / name).read_text()


def test_load_restores_the_full_entries(tmp_path: Path) -> None:
    doc = _document(_mixed_tests())
    write(doc, tmp_path)
    loaded = load(tmp_path / "report.json")
    validate(loaded)
    assert KEY not in loaded
    assert loaded == json.loads(json.dumps(doc))


def test_merge_and_render_of_compact_shards_equal_the_unsplit_run(tmp_path: Path) -> None:
    tests = _mixed_tests()
    one = [t for i, t in enumerate(tests) if i % 2]
    two = [t for i, t in enumerate(tests) if not i % 2]
    whole = _document(tests)
    write(whole, tmp_path / "whole")
    for k, part in ((1, one), (2, two)):
        write(_document(part, run={"shard": {"index": k, "count": 2}}), tmp_path / str(k))
    assert (
        cli.main(
            [
                "merge",
                str(tmp_path / "2/report.json"),
                str(tmp_path / "1/report.json"),
                "-o",
                str(tmp_path / "merged"),
            ]
        )
        == 0
    )
    merged = load(tmp_path / "merged" / "report.json")
    assert merged["tests"] == load(tmp_path / "whole" / "report.json")["tests"]
    assert merged["verdict"] == whole["verdict"]
    for part in ("summary", "matrix", "causes", "scope"):
        assert merged[part] == whole[part], part
    assert cli.main(["render", str(tmp_path / "whole/report.json"), "-o", str(tmp_path / "r")]) == 0
    for name in ("report.json", "report.html", "report.md"):
        assert (tmp_path / "r" / name).read_text() == (tmp_path / "whole" / name).read_text()


def _version_1(doc: dict) -> dict:
    """``doc`` as schema version 1 wrote it: every test in full, no causes, cells of
    outcome and counts only."""
    old = json.loads(json.dumps(doc))
    old["schema_version"] = 1
    del old["causes"]
    del old["matrix"]["totals"]
    for row in old["matrix"]["operations"].values():
        for type_, cell in row.items():
            row[type_] = {"outcome": cell["outcome"], "counts": cell["counts"]}
    return old


def test_a_version_2_report_in_the_older_compact_layout_is_read(tmp_path: Path) -> None:
    tests = [
        *_others(),
        _generated(
            "g[V1_2/add/none/ex0/sync]", "ADD", "TENSOR_FLOAT32", path="sync", duration=0.0123
        ),
        _generated(
            "g[V1_2/add/none/ex0/async]", "ADD", "TENSOR_FLOAT32", path="async", duration=0.0046
        ),
        _test("bad", "basic", "failed", details="why bad", rerun="pytest x"),
    ]
    doc = _document(tests)
    old = json.loads(json.dumps(doc))
    old["schema_version"] = 2
    old["tests"] = [t for t in old["tests"] if t["outcome"] == "failed"]  # whole, as 2 wrote it
    passed = ["1.2", [], None, None, "parity", None, "passed", None, None]
    old[KEY] = {  # as version 2 wrote it: rows [parameters, duration, facts]
        "fields": list(FIELDS),
        "facts": [
            [
                "generated",
                "1.2",
                ["ADD"],
                "TENSOR_FLOAT32",
                True,
                "parity",
                None,
                "passed",
                None,
                True,
            ],
            ["basic", *passed],
            ["validation-model", *passed],
            ["validation-request", *passed],
        ],
        "functions": {
            "conformance.test_x::g": [
                ["V1_2/add/none/ex0/async", 0.0046, 0],
                ["V1_2/add/none/ex0/sync", 0.0123, 0],
            ],
            "conformance.test_x::t_basic": [[None, 0.5, 1]],
            "conformance.test_x::t_validation-model": [[None, 0.5, 2]],
            "conformance.test_x::t_validation-request": [[None, 0.5, 3]],
        },
    }
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = load(tmp_path / "old.json")
    assert loaded["tests"] == json.loads(json.dumps(doc["tests"]))
    assert loaded["schema_version"] == SCHEMA_VERSION
    # Written again, in this version's layout, to the millisecond.
    assert cli.main(["render", str(tmp_path / "old.json"), "-o", str(tmp_path / "new")]) == 0
    again = load(tmp_path / "new" / "report.json")
    assert [t["duration"] for t in again["tests"]] == [0.5, 0.005, 0.012, 0.5, 0.5, 0.5]


def test_report_json_writes_the_largest_causes_and_load_works_out_every_one(
    tmp_path: Path,
) -> None:
    tests = [
        _test(f"t{n:03d}[{k}]", "basic", "failed", reason=f"cause {n:03d}x")
        for n in range(CAUSES_WRITTEN + 20)
        for k in range(1 + (n < 3))  # the first three causes: two tests each
    ]
    doc = _document([*_others(), *tests])
    assert len(doc["causes"]) == CAUSES_WRITTEN + 20
    write(doc, tmp_path)
    raw = json.loads((tmp_path / "report.json").read_text())
    validate(raw)
    assert len(raw["causes"]) == CAUSES_WRITTEN
    assert [c["count"] for c in raw["causes"][:4]] == [2, 2, 2, 1]  # the largest first
    loaded = load(tmp_path / "report.json")
    assert loaded["causes"] == json.loads(json.dumps(doc["causes"]))
    html = (tmp_path / "report.html").read_text()
    assert (
        f"{CAUSES_WRITTEN + 20 - CAUSES_SHOWN} more causes ({CAUSES_WRITTEN + 20 - CAUSES_SHOWN} "
        f"tests), not listed here: report.json writes the {CAUSES_WRITTEN} largest causes and "
        "every test"
    ) in html


def test_a_failures_texts_are_written_with_its_row_and_shared_lines_once(tmp_path: Path) -> None:
    tolerance = "tolerance: atol=1e-05 rtol=1e-05 (float32)"
    tests = [
        *_others(),
        *(
            _generated(
                f"g[V1_2/add/none/ex{k}/sync]",
                "ADD",
                "TENSOR_FLOAT32",
                "failed",
                path="sync",
                reason=f"output 0: {k + 1} of 4 values differ",
                details=f"output 0: {k + 1} of 4 values differ\n{tolerance}\nrerun: "
                + _rerun_of(f"g[V1_2/add/none/ex{k}/sync]"),
                metrics={"mismatches": k + 1, "max_abs_error": 0.5},
                rerun=_rerun_of(f"g[V1_2/add/none/ex{k}/sync]"),
            )
            for k in range(3)
        ),
        # metrics of another shape, a short line, a rerun command of its own
        _failed("odd", "o", "o\nshort\nshort", "pytest mine"),
        _test("odd2", "basic", metrics={"mismatches": 1, "max_abs_error": "inf"}),
    ]
    doc = _document(tests, run={"rerun": RERUN})
    write(doc, tmp_path)
    raw = json.loads((tmp_path / "report.json").read_text())
    validate(raw)
    packed = raw[KEY]
    assert packed["lines"] == [tolerance]  # "short" is shorter than a shared line may be
    written = {i.split("::")[1]: t for i, t in written_texts(packed).items()}
    for k in range(3):
        assert written[f"g[V1_2/add/none/ex{k}/sync]"] == {
            "details": [f"output 0: {k + 1} of 4 values differ", 0],
            "metrics": [k + 1, 0.5],
        }
    assert written["odd"] == {
        "details": "o\nshort\nshort",
        "rerun": "pytest mine",
        "rerun_line": False,
    }
    assert written["odd2"] == {"metrics": [1, "inf"]}
    loaded = load(tmp_path / "report.json")
    validate(loaded)
    assert loaded["tests"] == json.loads(json.dumps(doc["tests"]))
    # Metrics of another shape than the schema's are written as they are.
    next(t for t in doc["tests"] if t["id"].endswith("::odd2"))["metrics"] = {"mismatches": 1}
    packed = json.loads(json.dumps(pack(doc)))
    assert written_texts(packed[KEY])["conformance.test_x::odd2"] == {"metrics": {"mismatches": 1}}
    assert unpack(packed)["tests"] == json.loads(json.dumps(doc["tests"]))


def test_a_version_3_report_with_its_failures_in_full_is_read(tmp_path: Path) -> None:
    rerun = _rerun_of("bad")
    tests = [*_others(), _failed("bad", "b", f"b\nmore\nrerun: {rerun}", rerun)]
    doc = _document(tests, run={"rerun": RERUN})
    old = json.loads(json.dumps(doc))
    old["schema_version"] = 3
    old["tests"] = [  # as version 3 wrote a failure: in full, without what the file gives
        {
            "id": "conformance.test_x::bad",
            "category": "basic",
            "hal_version": "1.2",
            "operations": [],
            "tier": "parity",
            "outcome": "failed",
            "duration": 0.5,
            "details": "b\nmore",
            "details_rerun": True,
        }
    ]
    old["causes"] = [
        {
            "count": 1,
            "outcomes": {"failed": 1},
            "operations": [],
            "examples": [{"id": "conformance.test_x::bad"}],
        }
    ]
    old[KEY] = {  # the other tests as compact rows of four parts
        "fields": list(FIELDS),
        "values": [
            ["basic", "validation-model", "validation-request"],
            ["1.2"],
            [[]],
            [None],
            [None],
            ["parity"],
            [None],
            ["passed"],
            [None],
            [None],
        ],
        "facts": [[k, 0, 0, 0, 0, 0, 0, 0, 0, 0] for k in range(3)],
        "segments": [],
        "layouts": [[[None], [0]]],
        "functions": {
            f"conformance.test_x::t_{c}": [[None, 0, [500], [k]]]
            for k, c in enumerate(("basic", "validation-model", "validation-request"))
        },
    }
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = load(tmp_path / "old.json")
    assert loaded["tests"] == json.loads(json.dumps(doc["tests"]))
    assert loaded["causes"] == json.loads(json.dumps(doc["causes"]))
    assert loaded["schema_version"] == SCHEMA_VERSION == 4


def test_pack_json_unpack_gives_back_every_entry() -> None:
    doc = synthetic_document(10_000)
    doc["tests"] += _mixed_tests()
    packed = json.loads(json.dumps(pack(doc)))
    validate(packed)
    assert packed[KEY]["functions"]  # most of them compact
    assert unpack(packed)["tests"] == sorted(
        json.loads(json.dumps(doc["tests"])), key=lambda t: t["id"]
    )


def test_a_version_1_report_is_read_as_this_version(tmp_path: Path, capsys) -> None:
    doc = _document(_mixed_tests())
    old = tmp_path / "old.json"
    old.write_text(json.dumps(_version_1(doc)))
    loaded = load(old)
    validate(loaded)
    assert loaded == json.loads(json.dumps(doc))
    assert cli.main(["render", str(old), "-o", str(tmp_path / "new")]) == 0
    assert KEY in json.loads((tmp_path / "new" / "report.json").read_text())
    write(doc, tmp_path / "direct")
    for name in ("report.json", "report.html", "report.md"):
        assert (tmp_path / "new" / name).read_text() == (tmp_path / "direct" / name).read_text()


def test_a_report_written_before_operation_forms_is_read_with_them(tmp_path: Path) -> None:
    doc = _document(_mixed_tests())
    write(doc, tmp_path / "now")
    text = json.loads((tmp_path / "now" / "report.json").read_text())
    for key in ("forms", "forms_passed"):
        del text["scope"][key]
    validate(text)  # the fields are optional: an older report still fits the schema
    (tmp_path / "before.json").write_text(json.dumps(text))
    loaded = load(tmp_path / "before.json")
    assert loaded["scope"] == json.loads(json.dumps(doc["scope"]))
    assert loaded["verdict"] == json.loads(json.dumps(doc["verdict"]))


def test_shards_of_either_version_merge(tmp_path: Path) -> None:
    tests = _mixed_tests()
    parts = [tests[::2], tests[1::2]]
    old = tmp_path / "old.json"
    shard = {"shard": {"index": 1, "count": 2}}
    old.write_text(json.dumps(_version_1(_document(parts[0], run=shard))))
    write(_document(parts[1], run={"shard": {"index": 2, "count": 2}}), tmp_path / "new")
    assert (
        cli.main(["merge", str(old), str(tmp_path / "new/report.json"), "-o", str(tmp_path)]) == 0
    )
    merged = load(tmp_path / "report.json")
    whole = _document(tests)
    assert merged["tests"] == json.loads(json.dumps(whole["tests"]))
    assert (merged["matrix"], merged["causes"]) == (whole["matrix"], whole["causes"])


def _replace_value(raw: dict, field: str, value: object, new: object) -> None:
    """``value`` of ``field`` in report.json's compact rows (``raw``) made ``new``."""
    column = raw[KEY]["values"][FIELDS.index(field)]
    column[column.index(value)] = new


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d.update(schema_version=5),
            "schema version 5; this nnhal-report reads versions 1, 2, 3, 4",
        ),
        (
            lambda d: d.update(schema_version="4"),
            "schema version 4; this nnhal-report reads versions 1, 2, 3, 4",
        ),
        (
            lambda d: d[KEY]["functions"]["conformance.test_x::g"][0].pop(),
            "malformed compact_tests: ValueError: not enough values to unpack (expected at least 4, "
            "got 3)",
        ),
        (
            lambda d: d[KEY].update(fields=["id"]),
            "malformed compact_tests: ValueError: fields ['id'], expected ['category', "
            "'hal_version', 'operations', 'operand_type', 'path', 'tier', 'family', "
            "'outcome', 'reason', 'computed']",
        ),
        (
            lambda d: d[KEY]["functions"]["conformance.test_x::g"][0].__setitem__(3, [999]),
            "malformed compact_tests: IndexError: list index out of range",
        ),
        (
            lambda d: d[KEY]["functions"]["conformance.test_x::g"][0][2].pop(),
            "malformed compact_tests: ValueError: zip() argument 3 is shorter than arguments 1-2",
        ),
        (lambda d: d.update(tests={}), '"tests" is not a list'),
        (
            lambda d: d[KEY]["functions"]["conformance.test_x::talks"][0].append([]),
            "malformed compact_tests: ValueError: a case of conformance.test_x::talks has 6 "
            "parts, at most 5",
        ),
        (
            lambda d: d[KEY]["functions"]["conformance.test_x::talks"][0][4][0].extend(
                [None, {"a": 1}]
            ),
            "malformed compact_tests: ValueError: texts with unknown fields ['a']",
        ),
        (
            lambda d: d[KEY]["functions"]["conformance.test_x::talks"][0][4][0].extend([1, 2, 3]),
            "malformed compact_tests: ValueError: texts [0, 'it said something', 1, 2, 3] are "
            "not [position, details, metrics, other]",
        ),
        (
            lambda d: _replace_value(d, "reason", "why bad[V1_2/mul/none/ex0/sync]", True),
            "malformed compact_tests: ValueError: test "
            "'conformance.test_x::bad[V1_2/mul/none/ex0/sync]': its reason is its details', "
            "and it has none",
        ),
        (lambda d: d["tests"].append({"outcome": "passed"}), "test 0 has no id"),
        (
            lambda d: _replace_value(d, "outcome", "failed", "great"),
            "test 'conformance.test_x::bad[V1_2/mul/none/ex0/sync]' has no known outcome ('great')",
        ),
    ],
)
def test_load_refuses_what_it_cannot_read(tmp_path: Path, change, message: str) -> None:
    write(_document(_mixed_tests()), tmp_path)
    raw = json.loads((tmp_path / "report.json").read_text())
    change(raw)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(ReportError) as refused:
        load(bad)
    assert str(refused.value) == f"{bad}: {message}"


# ---------------------------------------------------------------------------
# Size: a full run's report.json
# ---------------------------------------------------------------------------

_OPERATIONS = [f"OPERATION_{i:02}" for i in range(95)]
_VARIANTS = {
    "none": "TENSOR_FLOAT32",
    "relu": "TENSOR_FLOAT32",
    "relaxed": "TENSOR_FLOAT32+relaxed",
    "float16": "TENSOR_FLOAT16",
    "quant8": "TENSOR_QUANT8_ASYMM",
    "nhwc_float16": "TENSOR_FLOAT16",
    "nchw_quant8_weight_as_input": "TENSOR_QUANT8_ASYMM",
    "axis1_weight_as_input_relaxed": "TENSOR_FLOAT32+relaxed",
    "time_major_full_shape_input": "TENSOR_FLOAT32",
    "explicit_dilated_nhwc_relaxed": "TENSOR_FLOAT32+relaxed",
    "dim1_axis0": "TENSOR_FLOAT32",
    "zero_sized_nchw_float16": "TENSOR_FLOAT16",
}
_PATHS = [
    f"{base}{timed}{dyn}"
    for base in ("sync", "async", "burst")
    for timed in ("", "-timed")
    for dyn in ("", "-dyn", "-dyn-short")
] + ["async10", "scattered"]
_PREPARE = [f"prepare_model_1_{v}-{p}" for v in (1, 2) for p in ("LOW_POWER", "SUSTAINED_SPEED")]
_POOLS = [f"shared-{kind}" for kind in ("ashmem", "mmap_fd", "hardware_buffer_blob")] + [
    f"device-{kind}" for kind in ("ashmem", "mmap_fd", "hardware_buffer_blob", "blob_pair")
]
_MODEL_FAMILIES = [
    "operand_type",
    "operand_rank",
    "operand_scale",
    "operand_zero_point",
    "operand_lifetime",
    "operation_input_removed",
    "operation_output_added",
    "operand_removed_clean",
]
_REQUEST_FAMILIES = ["request_location", "request_no_value_location", "request_dimensions"]


SYNTHETIC_RERUN = "pytest --pyargs {id} --driver=vendor:Factory --nnhal-profile=full"
"""The synthetic run's rerun command (``run.rerun``): its failures' reruns are left out."""


def synthetic_tests(count: int, seed: int = 0) -> list[dict]:
    """``count`` entries shaped as a full run of a good driver's are: for each generated
    case (an operation, a spec, a variant at a HAL level), its generated tests on every
    execution path, its prepare, memory-pool and validation tests, with ids of a real
    run's lengths (about 105 characters); 1 in 200 generated tests fails (details,
    metrics, rerun), one operation's float16 is unsupported, 1 in 120 pool tests is
    skipped."""
    rng = random.Random(seed)
    tests: list[dict] = []

    def add(name: str, category: str, outcome: str = "passed", **facts) -> None:
        module = name.split("[")[0].removesuffix("_prepare")
        facts.update(id=f"conformance.{module}::{name}", duration=round(rng.uniform(0, 0.06), 3))
        tests.append(_test(name, category, outcome, **facts))

    case = 0
    while len(tests) < count:
        rest, index = divmod(case, len(_OPERATIONS))
        rest, variant_index = divmod(rest, len(_VARIANTS))
        operation, variant = _OPERATIONS[index], list(_VARIANTS)[variant_index]
        level = ("1.2", "1.1", "1.0")[rest % 3]
        folder = f"V1_{level[-1]}"
        spec = f"{operation.lower()}{'_v1_2' if level == '1.2' else ''}"
        name = f"{folder}/{spec}/{variant}"
        type_ = _VARIANTS[variant]
        facts = {"operations": [operation], "operand_type": type_, "hal_version": level}
        unsupported = operation == "OPERATION_07" and type_ == "TENSOR_FLOAT16"
        for path in _PATHS:
            outcome = "unsupported" if unsupported else "passed"
            extra = {"reason": "unsupported: the driver does not support operations [0]"}
            if not unsupported and rng.random() < 1 / 200:
                outcome = "failed"
                reason = "output 0 (shape [2, 3]): 4 of 6 values differ, max abs error 0.5 at [1]"
                extra = {
                    "reason": reason,
                    "details": f"{reason}; ...\ntolerance: atol=1e-05\n" * 4,
                    "metrics": {"mismatches": 4, "max_abs_error": 0.5},
                    "rerun": f"pytest --pyargs 'conformance.test_generated::test_generated"
                    f"[{name}/ex0/{path}]' --driver=vendor:Factory --nnhal-profile=full",
                }
            elif outcome == "passed":
                extra = {}
            add(
                f"test_generated[{name}/ex0/{path}]",
                "generated",
                outcome,
                path=path,
                tier="strict" if path == "scattered" else "parity",
                **facts,
                **extra,
            )
        for path in _PREPARE:
            add(f"test_generated_prepare[{name}/{path}]", "generated", path=path, **facts)
        for pool in _POOLS:
            skip = rng.random() < 1 / 120
            add(
                f"test_memory_pools[{name}/ex0/{pool}]",
                "memory-pools",
                "skipped-other" if skip else "passed",
                tier="strict",
                **facts,
                **({"reason": "no output is larger than one byte"} if skip else {}),
            )
        for family in _MODEL_FAMILIES:
            add(
                f"test_validate_model[{family}/{name}]",
                "validation-model",
                family=family,
                operations=[operation],
                hal_version=level,
            )
        for family in _REQUEST_FAMILIES:
            add(
                f"test_validate_request[{family}/{name}]",
                "validation-request",
                family=family,
                operations=[operation],
                hal_version=level,
            )
        case += 1
    return tests[:count]


def synthetic_document(count: int = SYNTHETIC_TESTS) -> dict:
    base = _document()
    tests = synthetic_tests(count)
    run = dict(base["run"], selected=len(tests), rerun=SYNTHETIC_RERUN)
    return new_document(run, base["driver"], base["environment"], tests)


def measure(folder: Path, count: int = SYNTHETIC_TESTS) -> dict[str, float]:
    """Bytes and seconds of a ``count``-test report: report.json with full entries (as
    schema version 1 wrote it) and as written now, write, load and render times."""
    doc = synthetic_document(count)
    full = json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n"
    start = time.perf_counter()
    write(doc, folder)
    written = time.perf_counter() - start
    start = time.perf_counter()
    loaded = load(folder / "report.json")
    loading = time.perf_counter() - start
    start = time.perf_counter()
    render_html(loaded)
    render_markdown(loaded)
    rendering = time.perf_counter() - start
    return {
        "tests": len(doc["tests"]),
        "failed": doc["summary"]["outcomes"]["failed"],
        "full_bytes": len(full.encode()),
        "compact_bytes": (folder / "report.json").stat().st_size,
        "html_bytes": (folder / "report.html").stat().st_size,
        "md_bytes": (folder / "report.md").stat().st_size,
        "write_s": written,
        "load_s": loading,
        "render_s": rendering,
        "round_trip": loaded == json.loads(full),
    }


def test_a_full_runs_report_json_opens_in_a_browser(tmp_path: Path) -> None:
    figures = measure(tmp_path)
    assert figures["tests"] == SYNTHETIC_TESTS
    assert figures["round_trip"]
    assert figures["compact_bytes"] < SIZE_TARGET, figures
    assert figures["compact_bytes"] < figures["full_bytes"] / 4, figures
    # The HTML lists failures, not the passed tests.
    assert figures["html_bytes"] < 2_000_000, figures


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        for name, value in measure(Path(folder)).items():
            shown = f"{value:,}" if type(value) is int else f"{value:.2f}"
            print(f"{name}: {shown if type(value) is not bool else value}")


def test_html_lists_the_first_thousand_failures_and_counts_the_rest() -> None:
    from plugins.report.render import HTML_FAILURES, MARKDOWN_FAILURES

    tests = [_test(f"t{n:05d}", "basic", "failed") for n in range(HTML_FAILURES + 7)]
    doc = _document(tests)
    html = render_html(doc)
    assert f"<h2>Failures ({HTML_FAILURES + 7})</h2>" in html
    assert html.count('<div class="failure">') == HTML_FAILURES
    assert f"conformance.test_x::t{HTML_FAILURES - 1:05d}</code>" in html
    assert f"conformance.test_x::t{HTML_FAILURES:05d}</code>" not in html
    assert (
        '<p id="more-failures">... and 7 more failures, not listed here: report.json holds '
        "each with its message and rerun command, and the causes above group them all.</p>"
    ) in html
    markdown = render_markdown(doc)
    assert f"### Failures ({HTML_FAILURES + 7})" in markdown
    assert (
        f"- and {HTML_FAILURES + 7 - MARKDOWN_FAILURES} more: see report.html and report.json"
        in markdown
    )
