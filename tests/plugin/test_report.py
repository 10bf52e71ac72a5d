"""Certification reports from synthetic runs: outcomes, xdist, known failures, options, merging.

Each run is a pytest subprocess over a small test file written
here, so every outcome of the taxonomy of docs/report.md ("Outcomes") is produced on purpose; the
report it writes is validated against the shipped JSON Schema.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from report_documents import written_texts

from plugins.report import cli, seal
from plugins.report.collector import Expectation
from plugins.report.document import SCHEMA_PATH, load, merge
from plugins.report.shard import Shard, shard_key

USAGE_ERROR = 4
RUN_TIMEOUT = 300

OUTCOME_TESTS = """
import os

import pytest

from conformance.harness import items
from hal.callbacks import CallbackTimeout


def test_pass():
    pass


def test_values():
    message = (
        "output 0 (shape [4]): 3 of 4 values differ, max abs error 0.5 at [1]; ...\\n"
        "output 1 (shape [2]): 1 of 2 values differ, max abs error 2 at [0]; ...\\n"
        "tolerance: atol=1e-05\\nrerun: pytest --pyargs conformance.test_generated -k 'x'"
    )
    items.fail(message, metrics={"mismatches": 4, "max_abs_error": 2.0})


def test_assert():
    assert 1 == 2, "status GENERAL_FAILURE, expected NONE"


def test_unsupported():
    items.unsupported("unsupported: the driver does not support operations [0]")


def test_worded_unsupported():
    pytest.skip("unsupported: only the words say so")


def test_worded_timeout():
    pytest.fail("the driver did not notify the callback within 1 s: it timed out", pytrace=False)


def test_declared_block():
    items.fail("the words do not matter", kind=items.BLOCKED)


def test_other_skip():
    pytest.skip("needs HAL 1.2; the driver is tested at HAL 1.1")


def test_hang():
    raise CallbackTimeout("the driver did not notify the execution callback within 1 s")


def test_hang_reported_by_the_harness():
    items.timeout("execute_1_2: the driver did not notify the execution callback within 0.5 s")


def test_guarded_crash(record_property):
    record_property("nnhal_outcome", "crash")
    pytest.fail("execute_1_2: the driver process died (signal 11)", pytrace=False)


def test_guarded_block(record_property):
    record_property("nnhal_outcome", "blocked")
    pytest.fail("blocked: execute_1_2 timed out 2 times earlier in this run", pytrace=False)


def test_harness_bug():
    return {}["missing"]


@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")


def test_setup_error(broken):
    pass


def test_known():
    assert False, "still broken"


def test_known_but_passes():
    pass


def test_wild_known():
    assert False, "still broken"


def test_wild_but_passes():
    pass


@pytest.mark.category("memory")
@pytest.mark.tier("strict")
def test_marked():
    pass


def test_crash():
    if os.environ.get("PYTEST_XDIST_WORKER"):
        os._exit(3)
"""

EXPECT_FILE = """\
# known failures of the synthetic suite
test_outcomes.py::test_known  # tracked as BUG-1
test_outcomes.py::test_known_but_passes  # tracked as BUG-2
*::test_wild_*  # tracked as BUG-3
"""

EXPECTED = {
    "test_pass": "passed",
    "test_values": "failed",
    "test_assert": "failed",
    "test_unsupported": "unsupported",
    "test_worded_unsupported": "skipped-other",
    "test_worded_timeout": "failed",
    "test_declared_block": "blocked",
    "test_other_skip": "skipped-other",
    "test_hang": "timeout",
    "test_hang_reported_by_the_harness": "timeout",
    "test_guarded_block": "blocked",
    "test_guarded_crash": "crash",
    "test_harness_bug": "error",
    "test_setup_error": "error",
    "test_known": "expected-failure",
    "test_known_but_passes": "failed",
    "test_wild_known": "expected-failure",
    "test_wild_but_passes": "passed",
    "test_marked": "passed",
}


def validate(doc: dict) -> None:
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(doc)


class Run:
    """One pytest subprocess in ``folder``: its exit status and output."""

    def __init__(self, folder: Path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        self.ret, self.out, self.err = done.returncode, done.stdout, done.stderr


def _outcome_run(folder: Path, out: str, *args: str) -> Run:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "test_outcomes.py").write_text(OUTCOME_TESTS)
    (folder / "known.txt").write_text(EXPECT_FILE)
    return Run(folder, f"--cert-report={out}", "--expect-fail=known.txt", *args)


def _outcomes(doc: dict) -> dict[str, str]:
    return {t["id"].split("::", 1)[1]: t["outcome"] for t in doc["tests"]}


@pytest.fixture(scope="module")
def xdist_run(tmp_path_factory) -> tuple[dict, Run, Path]:
    folder = tmp_path_factory.mktemp("outcomes")
    result = _outcome_run(folder, "out", "-n", "2")
    return load(folder / "out" / "report.json"), result, folder


def test_every_outcome_is_classified_under_xdist(xdist_run) -> None:
    doc, _, _ = xdist_run
    validate(doc)
    assert _outcomes(doc) == {**EXPECTED, "test_crash": "crash"}


def test_one_report_for_the_run_and_its_workers(xdist_run) -> None:
    doc, _, folder = xdist_run
    assert sorted(p.name for p in (folder / "out").iterdir()) == [
        "report.html",
        "report.json",
        "report.md",
    ]
    ids = [t["id"] for t in doc["tests"]]
    assert len(ids) == len(set(ids)) == len(EXPECTED) + 1
    assert doc["run"]["workers"] >= 2
    assert doc["run"]["selected"] == len(EXPECTED) + 1


def test_without_xdist_the_same_outcomes(tmp_path: Path) -> None:
    result = _outcome_run(tmp_path, "single", "-k", "not test_crash")
    doc = load(tmp_path / "single" / "report.json")
    validate(doc)
    assert _outcomes(doc) == EXPECTED, result.out
    assert doc["run"]["deselected"] == 1 and doc["run"]["workers"] == 1


def test_failure_facts(xdist_run) -> None:
    doc, _, folder = xdist_run
    tests = {t["id"].split("::", 1)[1]: t for t in doc["tests"]}
    values = tests["test_values"]
    assert values["metrics"] == {"mismatches": 4, "max_abs_error": 2.0}
    assert (
        values["reason"]
        == "output 0 (shape [4]): 3 of 4 values differ, max abs error 0.5 at [1]; ..."
    )
    # The report's rerun is built from the id, whatever the message says.
    # The run's seed too: a rerun draws what the run drew.
    seed = doc["run"]["seed"]
    assert seed is not None and seed == doc["run"]["hypothesis_seed"]
    assert values["rerun"] == (
        f"pytest --pyargs test_outcomes::test_values --nnhal-profile=full --nnhal-seed={seed}"
    )
    assert tests["test_harness_bug"]["reason"] == "KeyError: 'missing'"
    assert tests["test_setup_error"]["reason"] == "RuntimeError: fixture broke"
    assert tests["test_known"]["reason"] == "tracked as BUG-1"
    assert tests["test_known_but_passes"]["reason"] == (
        "unexpected pass: listed as a known failure (tracked as BUG-2)"
    )
    # A pattern with wildcards that matches a passing test: reported, not a failure.
    assert tests["test_wild_known"]["reason"] == "tracked as BUG-3"
    assert tests["test_wild_but_passes"]["reason"] == (
        "passed although known-failure pattern '*::test_wild_*' (line 4) matches it"
    )
    assert tests["test_crash"]["reason"].startswith("worker 'gw")
    assert tests["test_unsupported"]["reason"] == (
        "unsupported: the driver does not support operations [0]"
    )
    assert (
        tests["test_assert"]["rerun"]
        == f"pytest --pyargs test_outcomes::test_assert --nnhal-profile=full --nnhal-seed={seed}"
    )
    assert tests["test_pass"]["rerun"] is None and tests["test_pass"]["metrics"] is None
    # report.json holds the run's rerun command once; the entries it gives leave theirs out.
    assert doc["run"]["rerun"] == f"pytest --pyargs {{id}} --nnhal-profile=full --nnhal-seed={seed}"
    raw = json.loads((folder / "out" / "report.json").read_text())
    written = {i.split("::", 1)[1]: t for i, t in written_texts(raw["compact_tests"]).items()}
    assert "rerun" not in written["test_values"] and "rerun" not in written.get("test_assert", {})
    assert written["test_values"]["metrics"] == [4, 2.0]  # [mismatches, max_abs_error]


def test_categories_and_tiers(xdist_run) -> None:
    doc, _, _ = xdist_run
    tests = {t["id"].split("::", 1)[1]: t for t in doc["tests"]}
    assert tests["test_marked"]["category"] == "memory"
    assert tests["test_marked"]["tier"] == "strict"
    assert tests["test_pass"]["category"] == "outcomes"
    assert tests["test_pass"]["tier"] is None
    assert doc["summary"]["categories"]["outcomes"]["outcomes"]["failed"] == 4
    assert doc["summary"]["tiers"]["strict"]["total"] == 1


def test_terminal_summary_and_verdict(xdist_run) -> None:
    doc, result, _ = xdist_run
    assert doc["verdict"]["status"] == "NOT CERTIFIED"
    assert "2 known failures remain (--expect-fail)" in doc["verdict"]["reasons"]
    assert (
        "1 tests matched by known-failure patterns passed (they count as passed): "
        "'*::test_wild_*' (line 4) 1" in doc["verdict"]["notes"]
    )
    lines = result.out.splitlines()
    start = lines.index("verdict: NOT CERTIFIED")
    reasons = [f"  - {line}" for line in doc["verdict"]["reasons"] + doc["verdict"]["notes"]]
    assert lines[start + 1 : start + 1 + len(reasons)] == reasons
    assert lines[
        start + 1 + len(reasons)
    ] == f"tests: {doc['run']['selected']} tests selected, " + (
        "none deselected"
        if not doc["run"]["deselected"]
        else f"{doc['run']['deselected']} deselected by -k/-m/--deselect/--nnhal-op/node ids"
    )
    assert lines[start + 2 + len(reasons)] == "written to out/ (report.json, .html, .md)"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--shard=0/3", "--shard=0/3: expected K/N with 1 <= K <= N, e.g. --shard=2/3"),
        ("--shard=4/3", "--shard=4/3: expected K/N with 1 <= K <= N, e.g. --shard=2/3"),
        ("--shard=two", "--shard=two: expected K/N with 1 <= K <= N, e.g. --shard=2/3"),
        (
            "--expect-fail=missing.txt",
            "--expect-fail=missing.txt: cannot read: No such file or directory",
        ),
        (
            "--expect-fail=noreason.txt",
            "--expect-fail=noreason.txt:2: 'test_x.py::test_a' has no reason; write 'PATTERN  # why it fails'",
        ),
    ],
)
def test_option_errors(tmp_path: Path, option: str, message: str) -> None:
    (tmp_path / "test_x.py").write_text("def test_a():\n    pass\n")
    (tmp_path / "noreason.txt").write_text("# header\ntest_x.py::test_a\n")
    result = Run(tmp_path, option)
    assert result.ret == USAGE_ERROR
    assert [line for line in result.err.splitlines() if line.strip()] == [f"ERROR: {message}"]


SEED = "--nnhal-seed=7"
"""Every shard of a run draws from the run's seed (a shard without one is refused)."""
SHARD_TESTS = "\n".join(f"def test_{i}():\n    assert {i} % 7\n" for i in range(30))


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> dict[str, Path]:
    """report.json of a 30-test run split in three shards, and of the whole run."""
    folder = tmp_path_factory.mktemp("shards")
    (folder / "test_many.py").write_text(SHARD_TESTS)
    paths = {}
    for shard in ("1/3", "2/3", "3/3"):
        out = f"shard{shard[0]}"
        Run(folder, f"--shard={shard}", f"--cert-report={out}", SEED)
        paths[shard] = folder / out / "report.json"
    Run(folder, "--cert-report=whole", SEED)
    paths["whole"] = folder / "whole" / "report.json"
    return paths


def test_shards_partition_the_run(shards) -> None:
    ids = {k: {t["id"] for t in load(p)["tests"]} for k, p in shards.items()}
    parts = [ids["1/3"], ids["2/3"], ids["3/3"]]
    assert all(parts), "a shard of 30 tests came out empty"
    assert set().union(*parts) == ids["whole"]
    assert sum(len(p) for p in parts) == len(ids["whole"]) == 30
    # A shard's report counts the other shards' tests as deselected, by the shard.
    run = load(shards["2/3"])["run"]
    assert run["deselected"] == 30 - len(ids["2/3"])
    assert run["deselected_by"] == {"filter": 0, "smoke": 0, "shard": run["deselected"]}


def test_merge_equals_the_unsplit_run(shards, tmp_path: Path, capsys) -> None:
    assert (
        cli.main(["merge", *(str(shards[s]) for s in ("3/3", "1/3", "2/3")), "-o", str(tmp_path)])
        == 0
    )
    merged, whole = load(tmp_path / "report.json"), load(shards["whole"])
    validate(merged)
    assert _outcomes(merged) == _outcomes(whole)
    assert merged["summary"]["outcomes"] == whole["summary"]["outcomes"]
    assert merged["summary"]["outcomes"]["failed"] == 5
    assert merged["run"]["merged_shards"] == ["1/3", "2/3", "3/3"]
    assert merged["run"]["shard"] is None
    assert merged["run"]["selected"] == 30
    # The run's command, not shard 1's: the --shard option is gone.
    assert merged["run"]["command"] == load(shards["1/3"])["run"]["command"].replace(
        " --shard=1/3", ""
    )
    assert "--shard" not in merged["run"]["command"]
    assert [w["id"] for w in merged["run"]["worker_memory"]] == ["1/3:main", "2/3:main", "3/3:main"]
    assert all(w["peak_rss_bytes"] > 0 for w in merged["run"]["worker_memory"])
    assert capsys.readouterr().out == f"NOT CERTIFIED: 30 tests; written to {tmp_path}/\n"


def test_merge_require_certified_fails_a_run_that_is_not_certified(
    shards, tmp_path: Path, capsys
) -> None:
    reports = [str(shards[s]) for s in ("1/3", "2/3", "3/3")]
    status = cli.main(["merge", *reports, "-o", str(tmp_path), "--require-certified"])
    assert status == cli.NOT_CERTIFIED == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"NOT CERTIFIED: 30 tests; written to {tmp_path}/"
    reasons = load(tmp_path / "report.json")["verdict"]["reasons"]
    assert reasons and out[1:] == [f"  {reason}" for reason in reasons[:10]]


def test_merge_require_certified_passes_a_certified_run(
    shards, tmp_path: Path, capsys, monkeypatch
) -> None:
    def certified(parts):
        doc = merge(parts)
        doc["verdict"]["headline"] = (
            "CERTIFIED at HAL 1.2 (parity) for 1 operation form of 1 operation"
        )
        return doc

    monkeypatch.setattr(cli, "merge", certified)
    reports = [str(shards[s]) for s in ("1/3", "2/3", "3/3")]
    assert cli.main(["merge", *reports, "-o", str(tmp_path), "--require-certified"]) == 0
    assert capsys.readouterr().out.startswith(
        "CERTIFIED at HAL 1.2 (parity) for 1 operation form of 1 operation: 30"
    )


def test_merged_shards_deselect_what_the_unsplit_run_deselects(tmp_path: Path) -> None:
    (tmp_path / "test_many.py").write_text(SHARD_TESTS)
    select = ("-k", "not test_1")  # test_1 and test_10 .. test_19: 11 of 30
    for shard in ("1/2", "2/2"):
        Run(tmp_path, *select, f"--shard={shard}", f"--cert-report=shard{shard[0]}", SEED)
    Run(tmp_path, *select, "--cert-report=whole", SEED)
    parts = [str(tmp_path / f"shard{k}" / "report.json") for k in (1, 2)]
    assert cli.main(["merge", *parts, "-o", str(tmp_path / "merged")]) == 0
    merged, whole = (
        load(tmp_path / "merged" / "report.json"),
        load(tmp_path / "whole" / "report.json"),
    )
    assert (whole["run"]["selected"], whole["run"]["deselected"]) == (19, 11)
    assert (merged["run"]["selected"], merged["run"]["deselected"]) == (19, 11)
    assert merged["run"]["deselected_by"] == {"filter": 11, "smoke": 0, "shard": 0}
    shard = load(parts[0])["run"]
    assert shard["deselected_by"]["filter"] == 11
    assert shard["deselected"] == 11 + shard["deselected_by"]["shard"] == 30 - shard["selected"]


def _variant(source: Path, folder: Path, change) -> str:
    doc = json.loads(source.read_text())
    change(doc)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "report.json"
    path.write_text(json.dumps(doc))
    return str(path)


def _merge_error(capsys, *paths: str) -> str:
    assert cli.main(["merge", *paths, "-o", "unused"]) == cli.REFUSED
    return capsys.readouterr().err.strip()


CONTAINED = {
    "mode": "process",
    "containment": "namespaces",
    "tamper_proof": True,
    "driver_logs": "/r/driver-logs",
}
"""A shard's isolation as a contained run states it."""


def test_a_merged_run_is_as_tamper_proof_as_its_weakest_shard(shards, tmp_path: Path) -> None:
    contained = CONTAINED

    def isolated(doc):
        doc["run"]["isolation"] = dict(contained)

    assert load(shards["1/3"])["run"]["isolation"]["mode"] == "none"  # these ran in-process
    paths = [_variant(shards[s], tmp_path / s[0], isolated) for s in ("1/3", "2/3", "3/3")]
    key = tmp_path / "key"
    key.write_text("the run's key\n")
    for path in paths:
        seal.write_seal(Path(path).parent, b"the run's key")
    merging = ["merge", *paths, "--key-file", str(key), "-o", str(tmp_path / "all")]
    assert cli.main(merging) == 0
    assert load(tmp_path / "all" / "report.json")["run"]["isolation"] == contained
    paths[1] = str(shards["2/3"])
    assert cli.main(["merge", *paths, "-o", str(tmp_path / "weak")]) == 0
    merged = load(tmp_path / "weak" / "report.json")["run"]["isolation"]
    assert (merged["mode"], merged["tamper_proof"]) == ("none", False)


def test_merge_refuses_a_missing_shard(shards, capsys) -> None:
    assert _merge_error(capsys, str(shards["1/3"]), str(shards["3/3"])) == (
        "nnhal-report merge: missing shards: 2/3 (give every shard of the run)"
    )


def test_merge_refuses_overlapping_shards(shards, capsys) -> None:
    one = str(shards["1/3"])
    assert _merge_error(capsys, one, one, str(shards["2/3"])) == (
        f"nnhal-report merge: overlapping shards: shard 1/3 is both {one} and {one}"
    )


def test_merge_refuses_overlapping_tests(shards, tmp_path: Path, capsys) -> None:
    stolen = load(shards["1/3"])["tests"][0]  # a full entry (most are compact rows on disk)
    two = _variant(shards["2/3"], tmp_path / "b", lambda d: d["tests"].append(stolen))
    assert _merge_error(capsys, str(shards["1/3"]), two, str(shards["3/3"])) == (
        f"nnhal-report merge: overlapping shards: {stolen['id']} is in both {shards['1/3']} and {two}"
    )


def test_merge_refuses_different_drivers(shards, tmp_path: Path, capsys) -> None:
    def other(doc):
        doc["driver"]["spec"] = "vendor.driver:Factory"

    two = _variant(shards["2/3"], tmp_path / "b", other)
    version = load(shards["1/3"])["driver"]["version_string"]
    assert _merge_error(capsys, str(shards["1/3"]), two, str(shards["3/3"])) == (
        "nnhal-report merge: cannot merge reports of different drivers: "
        f"{shards['1/3']} tested reference ({version}, HAL 1.3), "
        f"{two} tested vendor.driver:Factory ({version}, HAL 1.3)"
    )


def test_merge_refuses_another_schema_version(shards, tmp_path: Path, capsys) -> None:
    two = _variant(shards["2/3"], tmp_path / "b", lambda d: d.update(schema_version=5))
    assert _merge_error(capsys, str(shards["1/3"]), two) == (
        f"nnhal-report merge: {two}: schema version 5; this nnhal-report reads versions 1, 2, 3, 4"
    )


def test_merge_refuses_different_splits(shards, tmp_path: Path, capsys) -> None:
    two = _variant(
        shards["2/3"], tmp_path / "b", lambda d: d["run"].update(shard={"index": 2, "count": 2})
    )
    assert _merge_error(capsys, str(shards["1/3"]), two) == (
        "nnhal-report merge: cannot merge shards of different splits: "
        f"{shards['1/3']} is 1/3, {two} is 2/2"
    )


def test_merge_refuses_an_unsharded_report(shards, capsys) -> None:
    assert _merge_error(capsys, str(shards["whole"]), str(shards["1/3"])) == (
        f"nnhal-report merge: {shards['whole']} is not a shard (it was run without "
        "--shard=K/N): only the shards of one run merge"
    )


def test_merge_refuses_what_is_not_a_report(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert _merge_error(capsys, str(bad)) == (
        f"nnhal-report merge: {bad}: not JSON: Expecting property name enclosed in double "
        "quotes at line 1"
    )
    other = tmp_path / "other.json"
    other.write_text("{}")
    assert _merge_error(capsys, str(other)) == (
        f'nnhal-report merge: {other}: not an nnhal certification report (no "schema": '
        '"nnhal-conformance/certification-report")'
    )


def test_render_writes_the_same_documents_again(shards, tmp_path: Path) -> None:
    assert cli.main(["render", str(shards["whole"]), "-o", str(tmp_path)]) == 0
    source = shards["whole"].parent
    for name in ("report.html", "report.md"):
        assert (tmp_path / name).read_text() == (source / name).read_text()
    assert load(tmp_path / "report.json") == load(shards["whole"])


@pytest.mark.parametrize(
    ("pattern", "name", "hit"),
    [
        (
            "conformance.test_generated::test_generated[V1_2/mul/*]",
            "conformance.test_generated::test_generated[V1_2/mul/none/ex0/sync]",
            True,
        ),
        (
            "conformance.test_generated::test_generated[V1_2/mul/*]",
            "conformance.test_generated::test_generated[V1_2/mul_v1_2/base/ex0/sync]",
            False,
        ),
        (
            "*[V1_?/add/*",
            "conformance.test_generated::test_generated[V1_0/add/none/ex0/sync]",
            True,
        ),
        ("conformance.test_basic::test_status", "conformance.test_basic::test_status_x", False),
        ("conformance.test_basic::test_status", "conformance.test_basic::test_status", True),
    ],
)
def test_expectation_patterns(pattern: str, name: str, hit: bool) -> None:
    assert Expectation(pattern, "why", 1).matches(name) is hit


def test_shard_membership_is_a_hash_of_the_test_id() -> None:
    name = "conformance.test_basic::test_status"
    digest = hashlib.sha256(name.encode()).digest()
    owner = int.from_bytes(digest[:8], "big") % 5 + 1
    assert [k for k in range(1, 6) if Shard(k, 5).keeps(name)] == [owner]
    assert Shard.parse("2/5") == Shard(2, 5)
    assert Shard(1, 1).keeps(name)


def test_every_example_and_run_of_a_case_falls_in_one_shard() -> None:
    function = "conformance.test_generated::test_generated"
    case = f"{function}[V1_2/conv2d_v1_2/nchw_quant8"
    digest = hashlib.sha256(case.encode()).digest()
    owner = int.from_bytes(digest[:8], "big") % 3 + 1
    for item in ("ex0/sync", "ex0/async10-timed", "ex1/sync-dyn", "ex12/burst"):
        name = f"{case}/{item}]"
        assert shard_key(name) == case
        assert [k for k in range(1, 4) if Shard(k, 3).keeps(name)] == [owner]
    # an id without an example segment is its own key, even with "ex" in a name
    for name in (f"{function}[V1_2/exp/none/prepare]", "conformance.test_basic::test_ex1"):
        assert shard_key(name) == name
    owners = {
        next(k for k in (1, 2) if Shard(k, 2).keeps(f"{function}[V1_0/add/case{n}/ex0/sync]"))
        for n in range(40)
    }
    assert owners == {1, 2}  # cases still spread over the shards


def test_identity_query_survives_a_driver_fault() -> None:
    from isolation.channel import DriverCrashed
    from plugins.report.collector import _bounded

    def crashes():
        raise DriverCrashed("driver process died (signal 9 SIGKILL) during get_type", "get_type")

    with pytest.raises(DriverCrashed, match="signal 9 SIGKILL"):
        _bounded(crashes, 1.0)  # re-raised in the caller's thread, not lost in the worker


class _Options:
    """The getoption of a config whose run named --driver and capped --hal-version."""

    def __init__(self, options: dict) -> None:
        self.options = options

    def getoption(self, name: str, default=None):
        return self.options.get(name, default)


def test_the_driver_says_who_it_is_below_its_own_level(monkeypatch) -> None:
    """--hal-version=1.0 tests a 1.2 driver at 1.0; its version string and type still show
    (they were None, shown as '(None)'); caching is not asked, there being none at 1.0."""
    import plugins.driver as plugin
    from hal.loader import load_driver
    from hal.types import HalVersion
    from plugins.report.collector import driver_identity

    loaded = load_driver("reference")
    monkeypatch.setattr(plugin, "loaded_driver", lambda config: loaded)
    monkeypatch.setattr(plugin, "tested_level", lambda config: HalVersion.V1_0)
    identity = driver_identity(_Options({"--driver": "reference", "--hal-version": "1.0"}))
    assert identity["version_string"] == loaded.device.get_version_string()[1]
    assert identity["device_type"] == "CPU"
    assert (identity["level"], identity["tested_level"]) == ("1.3", "1.0")
    assert identity["caching_supported"] is None
    assert identity["load_error"] is None


def test_merged_shards_are_tamper_proof_only_with_their_seals_checked(
    shards, tmp_path: Path, capsys
) -> None:
    """Without the run's key the merge cannot tell a shard a driver rewrote from its own:
    the merged report says so. With the key, a shard changed after its seal is refused."""
    contained = CONTAINED

    def isolated(doc):
        doc["run"]["isolation"] = dict(contained)

    paths = [_variant(shards[s], tmp_path / s[0], isolated) for s in ("1/3", "2/3", "3/3")]
    for path in paths:
        seal.write_seal(Path(path).parent, b"k")
    assert cli.main(["merge", *paths, "-o", str(tmp_path / "unchecked")]) == 0
    doc = load(tmp_path / "unchecked" / "report.json")
    assert doc["run"]["isolation"]["tamper_proof"] is False
    assert doc["run"]["isolation"]["why_not_tamper_proof"] == (
        "the shard reports' seals were not checked (give the run's key: --key-file or "
        "NNHAL_REPORT_KEY)"
    )
    capsys.readouterr()
    key = tmp_path / "key"
    key.write_text("k")
    forged = json.loads(Path(paths[1]).read_text())
    for test in forged["tests"]:
        if isinstance(test, dict) and test.get("outcome") == "failed":
            test["outcome"] = "passed"
    forged["run"]["exit_status"] = 0
    Path(paths[1]).write_text(json.dumps(forged))
    assert cli.main(["merge", *paths, "--key-file", str(key), "-o", "unused"]) == cli.REFUSED
    assert capsys.readouterr().err.strip() == (
        f"nnhal-report merge: refused: {paths[1]} does not match its seal report.seal: it "
        "was changed after its test process wrote it, or written by something without the "
        "run's key"
    )


def test_a_verdict_written_into_a_report_is_never_believed(shards, tmp_path: Path) -> None:
    """load() derives the verdict from the observations, whatever the file says."""
    doc = json.loads(Path(shards["1/3"]).read_text())
    doc["verdict"] = dict(doc["verdict"], status="CERTIFIED", headline="CERTIFIED at HAL 1.2")
    path = tmp_path / "report.json"
    path.write_text(json.dumps(doc))
    assert load(path)["verdict"]["status"] == "NOT CERTIFIED"
