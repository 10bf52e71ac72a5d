"""No credit without computation (issue 41, build item 5).

Drivers of credit_drivers.py compute nothing; each runs against a slice of the
real suite in a pytest subprocess (the driver file copied beside the run), and
the report must credit it with no operation:

* a driver that supports only models whose outputs are all zero-sized passes
  every test it runs, and is credited with nothing;
* a driver that looks its answers up in the suite's own expected outputs passes
  every generated item and fails every fresh-input check;
* a driver that replays answers recorded in an earlier run passes the draws of
  that run's seed (a rerun with the seed draws the same cases) and fails those
  of another seed;

while the reference driver passes the same slices and is credited per operand type.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plugins.report.document import finalize, load

DRIVERS = Path(__file__).resolve().parents[1] / "support" / "credit_drivers.py"
RUN_TIMEOUT = 900
ZERO_OUTPUT_OPERATIONS = ("ROI_ALIGN", "SLICE", "BOX_WITH_NMS_LIMIT", "SOFTMAX")
CORNER = "conformance.test_corners::test_corners[binary/ADD]"
FRESH = "conformance.test_generated::test_generated_fresh[V1_0/add/none/ex0/fresh]"


def _pytest(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(DRIVERS, tmp_path / "credit_drivers.py")
    return tmp_path


def _report(folder: Path, driver: str, *args: str) -> dict:
    result = _pytest(
        folder, "--pyargs", "conformance.test_generated", f"--driver={driver}",
        "--cert-report=out", *args,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    return load(folder / "out" / "report.json")


def test_a_driver_of_zero_sized_outputs_only_is_credited_with_no_operation(folder) -> None:
    ops = [f"--nnhal-op={op}" for op in ZERO_OUTPUT_OPERATIONS]
    doc = _report(folder, "credit_drivers:ZeroOutputsOnly", *ops)
    outcomes = doc["summary"]["outcomes"]
    assert outcomes["passed"] > 100 and not any(
        outcomes[o] for o in ("failed", "crash", "timeout", "blocked", "error")
    ), outcomes
    passed = [t for t in doc["tests"] if t["outcome"] == "passed"]
    # Every test it passed compared no value: its outputs hold no bytes.
    assert passed and not any(t["computed"] for t in passed)
    scope = doc["scope"]
    assert scope["operations_passed"] == [] and scope["credit"] == {}
    assert set(ZERO_OUTPUT_OPERATIONS) <= set(scope["operations_uncredited"])
    # The matrix counts its passes, and credits none of them.
    totals = doc["matrix"]["totals"]
    assert all(
        totals[op]["passed"] > 0 and totals[op]["credited"] == 0 for op in ZERO_OUTPUT_OPERATIONS
    )
    verdict = doc["verdict"]
    assert verdict["status"] == "NOT CERTIFIED"
    assert any(r.startswith("the driver passed no operation") for r in verdict["reasons"])
    assert any("not credited: " in note for note in verdict["notes"])
    markdown = (folder / "out" / "report.md").read_text()
    assert "Operations passed (0): none." in markdown
    assert "Operations not credited, no test of them compared an output value" in markdown
    assert "operations not credited" in (folder / "out" / "report.html").read_text()


def test_a_driver_that_writes_no_output_byte_is_credited_with_no_operation(folder) -> None:
    doc = _report(folder, "credit_drivers:WritesNothing", "--nnhal-op=ADD", "-k", "ex0/sync")
    assert doc["scope"]["operations_passed"] == [] and doc["scope"]["credit"] == {}
    assert "ADD" in doc["scope"]["operations_failed"]
    assert all(t["outcome"] == "failed" for t in doc["tests"] if t["computed"])
    assert any("was not written" in (t["reason"] or "") for t in doc["tests"])


def test_a_lookup_driver_fails_every_fresh_input_check(folder) -> None:
    # At HAL 1.2: the V1_3 control-flow cases that hold an ADD have int32 [1] inputs, for
    # which no draw differs from the example's (a skip, not a check the driver could fail).
    doc = _report(folder, "credit_drivers:Lookup", "--nnhal-op=ADD", "--hal-version=1.2")
    by_function: dict[str, set[str]] = {}
    for test in doc["tests"]:
        function = test["id"].split("[", 1)[0].rsplit("::", 1)[1]
        by_function.setdefault(function, set()).add(test["outcome"])
    # It answers every example of the corpus right (it knows them all) ...
    assert by_function["test_generated"] == {"passed"}
    # ... and cannot answer inputs drawn for the run.
    assert by_function["test_generated_fresh"] == {"failed"}
    assert doc["scope"]["operations_passed"] == []
    assert "ADD" in doc["scope"]["operations_failed"]


def test_the_reference_driver_passes_the_fresh_checks_and_is_credited(folder) -> None:
    doc = _report(
        folder, "reference", "--nnhal-op=ADD", "--hal-version=1.2", "-k", "fresh or ex0/sync"
    )
    outcomes = {t["outcome"] for t in doc["tests"]}
    assert outcomes <= {"passed", "skipped-other"} and "passed" in outcomes, outcomes
    fresh = [t for t in doc["tests"] if "test_generated_fresh[" in t["id"]]
    assert fresh and all(t["outcome"] == "passed" for t in fresh)
    scope = doc["scope"]
    assert scope["operations_passed"] == ["ADD", "MUL"]  # add_mul_internal has both
    assert scope["credit"]["ADD"]["TENSOR_FLOAT32"] > 0
    assert scope["credit"]["ADD"]["TENSOR_QUANT8_ASYMM"] > 0
    # A selective run never certifies; with its selection taken away the verdict would be
    # CERTIFIED: nothing else stands in the way.
    reasons = doc["verdict"]["reasons"]
    assert reasons and all(
        r.startswith(("categories that did not run", f"{doc['run']['deselected']:,} tests"))
        for r in reasons
    ), reasons
    doc["run"].update(deselected=0, suite_categories=["generated"])
    assert finalize(doc)["verdict"]["status"] == "CERTIFIED"


def _seed_in(output: str) -> str:
    match = re.search(r"^nnhal profile: full \(seed (\d+): --nnhal-seed=\1 draws", output, re.M)
    assert match, output[-3000:]
    return match.group(1)


COLLIDING_SEED = "2426883056"
"""A seed whose ADD corners include two cases with the same types, activation and input
bytes that differ only in their quantization parameters (so in their answers): a replay
keyed without the scales gave one of them the other's answer."""


@pytest.mark.parametrize("given", [None, COLLIDING_SEED], ids=["drawn-seed", "colliding-seed"])
def test_a_replaying_driver_passes_its_recorded_seed_and_fails_a_fresh_one(folder, given) -> None:
    replay = {"NNHAL_REPLAY": str(folder / "recorded.json")}
    items = ("--pyargs", CORNER, FRESH, "-v")
    chosen = (f"--nnhal-seed={given}",) if given else ()
    recorded = _pytest(folder, *items, *chosen, "--driver=credit_drivers:Recorder", env=replay)
    assert recorded.returncode == 0, recorded.stdout[-3000:] + recorded.stderr[-3000:]
    seed = _seed_in(recorded.stdout)  # drawn for the run: full draws anew every run
    assert given in (None, seed)
    assert (folder / "recorded.json").exists()

    # The same seed draws the same cases: the answers recorded for them fit.
    again = _pytest(
        folder, *items, f"--nnhal-seed={seed}", "--driver=credit_drivers:Lookup", env=replay
    )
    assert again.returncode == 0, again.stdout[-3000:]
    assert again.stdout.count(" PASSED") == 2

    # Another run draws other cases (a seed of its own): nothing recorded fits.
    fresh = _pytest(folder, *items, "--driver=credit_drivers:Lookup", env=replay)
    assert fresh.returncode == 1
    assert _seed_in(fresh.stdout) != seed
    assert fresh.stdout.count(" FAILED") == 2, fresh.stdout[-3000:]
    # Each failure's rerun command carries the run's seed, so it draws that run's cases.
    assert f"--nnhal-seed={_seed_in(fresh.stdout)}" in fresh.stdout


def test_the_report_records_the_seed_and_a_rerun_with_it_draws_the_same(folder) -> None:
    items = ("--pyargs", FRESH, "--driver=credit_drivers:OneOff")
    first = _pytest(folder, *items, "--cert-report=one")
    assert first.returncode == 1
    doc = load(folder / "one" / "report.json")
    seed = doc["run"]["seed"]
    assert seed == _seed_in(first.stdout)
    (failed,) = [t for t in doc["tests"] if t["outcome"] == "failed"]
    assert failed["rerun"].endswith(f"--nnhal-seed={seed}")
    # Its message names the values it got for the drawn inputs: the rerun command draws
    # the same inputs, so it fails with the same message; another seed draws others.
    rerun = _pytest(folder, *shlex.split(failed["rerun"])[1:], "--cert-report=two")
    assert rerun.returncode == 1 and _seed_in(rerun.stdout) == seed
    assert load(folder / "two" / "report.json")["tests"][0]["details"] == failed["details"]
    other = _pytest(folder, *items, f"--nnhal-seed={int(seed) + 1}", "--cert-report=three")
    assert other.returncode == 1
    assert load(folder / "three" / "report.json")["tests"][0]["details"] != failed["details"]


def test_nnhal_certify_gives_every_shard_one_seed_and_a_rerun_the_recorded_one(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from report_documents import _document, _test

    from plugins.report import certify
    from plugins.report.document import write

    commands: list[list[str]] = []
    monkeypatch.setattr(
        certify, "run_pytest", lambda command, limit, **where: commands.append(command)
    )
    drawn = os.urandom  # the seed's four bytes fixed; other callers get fresh ones
    monkeypatch.setattr(
        certify.os, "urandom", lambda n: bytes([0, 0, 0, 9]) if n == 4 else drawn(n)
    )
    certify.main(["--driver", "vendor:Factory", "--jobs", "0", "--out", str(tmp_path / "a")])
    assert "--nnhal-seed=9" in commands[-1]
    assert "nnhal-certify: seed 9 (--nnhal-seed=9 draws the same cases)" in capsys.readouterr().out
    # One seed for every shard of the run.
    args, extra = certify._parser().parse_known_args(["--driver", "x:Y", "--nnhal-seed", "5"])
    shards = [certify.pytest_command(args, extra, shard=(k, 3)) for k in (1, 2, 3)]
    assert all("--nnhal-seed=5" in command for command in shards)
    # A rerun of a report draws with the seed it records.
    tests = _document()["tests"] + [_test("bad", "basic", "failed")]
    write(_document(tests, run={"seed": "42"}), tmp_path / "before")
    certify.main(["--rerun-failed", str(tmp_path / "before"), "--jobs", "0"])
    assert "--nnhal-seed=42" in commands[-1]
    assert "seed 42 (recorded)" in capsys.readouterr().out
