"""``python -m benchmarks``: results, the table, --json, failures and names; and run.worker_memory.

No real benchmark runs here: fake ones replace ``BENCHMARKS``. The last test
runs one ADD case of the generated suite under two xdist workers to check
that the certification report records each worker's peak memory.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

import benchmarks.__main__ as bench
from benchmarks.result import QUICK_ENV, Figure, Result, quick, runs
from plugins.report.document import SCHEMA_PATH

REPO = Path(__file__).resolve().parents[2]


def _fake() -> Result:
    return Result(
        "fake",
        "fake: 12.3 ms; ratio 1.20",
        [
            Figure("speed", 12.3456, "ms", baseline=10.288, ratio=1.2, target="< 1.5x", met=True),
            Figure("a much longer figure name", 4, "items"),
            Figure("verdict", "CERTIFIED", ""),
        ],
    )


def _broken() -> Result:
    raise RuntimeError("the driver fell over")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict:
    """BENCHMARKS replaced by fakes; calls records which ran, in order."""
    calls: list[str] = []

    def recorded(name: str, function):
        def run() -> Result:
            calls.append(name)
            return function()

        return run

    fakes = {
        "fake": recorded("fake", _fake),
        "broken": recorded("broken", _broken),
        "networks": recorded("networks", lambda: Result("networks", "networks: fine")),
        "performance": recorded("performance", lambda: Result("performance", "refresh")),
    }
    monkeypatch.setattr(bench, "BENCHMARKS", fakes)
    return {"calls": calls}


def test_lines_then_a_table_of_every_figure(registry, capsys) -> None:
    assert bench.main(["fake"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "fake: 12.3 ms; ratio 1.20"
    header = next(i for i, line in enumerate(out) if line.startswith("benchmark"))
    assert out[header].split() == list(bench.COLUMNS)
    rows = out[header + 2 :]
    assert len(rows) == 3
    assert rows[0].split() == ["fake", "speed", "12.35", "ms", "1.20", "<", "1.5x", "yes"]
    assert rows[1].split()[-5:] == ["4", "items", "-", "-", "-"]
    assert "CERTIFIED" in rows[2]
    # Aligned columns: every row's unit starts where the header's does.
    unit = out[header].index("unit")
    assert {row[unit:].split()[0] for row in rows[:2]} == {"ms", "items"}


def test_json_document(registry, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv(QUICK_ENV, raising=False)
    out = tmp_path / "figures.json"
    assert bench.main(["fake", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert set(doc) == {"date", "machine", "quick", "benchmarks"}
    assert doc["quick"] is False
    assert set(doc["machine"]) == {"cpu_count", "platform", "python", "numpy", "torch"}
    assert doc["machine"]["numpy"]
    [entry] = doc["benchmarks"]
    assert entry["name"] == "fake" and entry["line"] == "fake: 12.3 ms; ratio 1.20"
    assert entry["error"] is None
    assert entry["figures"][0] == {
        "name": "speed",
        "value": 12.3456,
        "unit": "ms",
        "baseline": 10.288,
        "ratio": 1.2,
        "target": "< 1.5x",
        "met": True,
    }
    assert entry["figures"][2]["value"] == "CERTIFIED"


def test_a_failing_benchmark_is_reported_and_the_others_still_run(
    registry, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "figures.json"
    assert bench.main(["broken", "fake", "--json", str(out)]) == 1
    captured = capsys.readouterr()
    assert "broken: failed: RuntimeError: the driver fell over" in captured.out.splitlines()
    assert "fake: 12.3 ms; ratio 1.20" in captured.out
    assert "Traceback" in captured.err
    assert registry["calls"] == ["broken", "fake"]
    entries = {e["name"]: e for e in json.loads(out.read_text())["benchmarks"]}
    assert entries["broken"]["error"] == "RuntimeError: the driver fell over"
    assert entries["broken"]["figures"] == []


def test_unknown_name_is_a_usage_error(registry, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        bench.main(["fake", "nope"])
    assert stop.value.code == 2
    assert "unknown benchmark nope (known: fake, broken, networks, performance, mobilenet)" in (
        capsys.readouterr().err
    )
    assert registry["calls"] == []


def test_default_leaves_out_opt_in_benchmarks_and_all_runs_them(registry, capsys) -> None:
    assert bench.main([]) == 1  # "broken" is among the defaults here
    assert registry["calls"] == ["fake", "broken", "networks"]
    registry["calls"].clear()
    assert bench.main(["--all"]) == 1
    assert registry["calls"] == ["fake", "broken", "networks", "performance"]
    registry["calls"].clear()
    assert bench.main(["performance"]) == 0
    assert registry["calls"] == ["performance"]


def test_fuzz_options_set_the_fuzz_benchmarks_environment(registry, monkeypatch) -> None:
    from benchmarks import fuzz

    monkeypatch.setenv(fuzz.CASES_ENV, "unset")  # restored after the test
    monkeypatch.setenv(fuzz.SEED_ENV, "unset")
    assert bench.main(["fake", "--fuzz-cases", "12", "--fuzz-seed", "3"]) == 0
    assert (os.environ[fuzz.CASES_ENV], os.environ[fuzz.SEED_ENV]) == ("12", "3")


def test_fuzz_cases_must_be_positive(registry, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        bench.main(["fake", "--fuzz-cases", "0"])
    assert stop.value.code == 2
    assert "0 is not a positive number of cases" in capsys.readouterr().err
    assert registry["calls"] == []


def test_mobilenet_is_the_networks_benchmark(registry, capsys) -> None:
    assert bench.main(["mobilenet", "networks"]) == 0
    assert registry["calls"] == ["networks"]
    assert "networks: fine" in capsys.readouterr().out


def test_real_registry_and_help() -> None:
    every = {"generator", "suite", "networks", "memory-growth", "certify", "fuzz", "performance"}
    every |= {"rerun", "validation"}
    assert every <= set(bench.BENCHMARKS)
    assert bench.ALIASES["mobilenet"] == "networks"
    assert set(bench.OPT_IN) == {"performance"}  # every figure with a target runs by default
    help_text = " ".join(bench._parser().format_help().split())
    assert "performance runs only when named or with --all" in help_text


def test_quick_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(QUICK_ENV, raising=False)
    assert not quick() and runs(5) == 5
    monkeypatch.setenv(QUICK_ENV, "0")
    assert not quick()
    monkeypatch.setenv(QUICK_ENV, "1")
    assert quick() and runs(5) == 1 and runs(7, 2) == 2


def test_validation_times_the_validator_against_a_deep_copy_of_the_same_models(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks import validation

    monkeypatch.setenv(QUICK_ENV, "1")
    result = validation.run()
    (figure,) = result.figures
    assert figure.name == "validate_model per call" and figure.unit == "us"
    assert figure.value > 0 and figure.baseline > 0
    assert figure.ratio == pytest.approx(figure.value / figure.baseline, rel=0.05)
    assert re.fullmatch(
        r"validation: validate_model\(limit=1\) [\d.]+ us a call over [\d,]+ mutated models "
        r"\([\d,]+ calls\); deepcopy of the same model [\d.]+ us; ratio [\d.]+",
        result.line,
    ), result.line


def test_isolation_times_opening_a_burst_against_an_empty_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks import isolation

    monkeypatch.setenv(QUICK_ENV, "1")
    result = isolation.run()
    figures = {figure.name: figure for figure in result.figures}
    direct = figures["burst open and close direct"]
    process = figures["burst open and close process"]
    empty = figures["empty call process"].value
    assert direct.unit == process.unit == "us" and direct.value > 0
    assert process.baseline == empty and process.ratio == pytest.approx(process.value / empty)
    assert re.search(
        r"opening and closing a burst: direct \d+ us, process \d+ us \([\d.]+ empty calls\)",
        result.line,
    ), result.line


def test_a_burst_the_driver_will_not_open_stops_the_burst_timing() -> None:
    from benchmarks.isolation import _burst_setup
    from hal.types import ErrorStatus

    class Refusing:
        def configure_execution_burst(self, callback, requests, results):
            return ErrorStatus.GENERAL_FAILURE, None

    with pytest.raises(RuntimeError, match=r"^configure_execution_burst answered "):
        _burst_setup(Refusing())()


def test_importing_the_benchmarks_does_not_import_torch() -> None:
    code = "import sys, benchmarks.__main__; sys.exit('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=120).returncode == 0


def test_report_records_each_workers_peak_memory(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_ADDOPTS"):
        monkeypatch.delenv(name, raising=False)
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_generated",
        "--driver=reference",
        "-k",
        "V1_0/add/none",
        "-n",
        "2",
        "--cert-report=out",
    )
    assert result.ret == 0, result.stdout.str()
    doc = json.loads((pytester.path / "out" / "report.json").read_text())
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(doc)
    memory = doc["run"]["worker_memory"]
    assert sorted(w["id"] for w in memory) == ["gw0", "gw1"]
    assert all(w["peak_rss_bytes"] > 0 for w in memory)


def test_per_item_runs_alternate_case_items_with_empty_ones(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from benchmarks import _loop_timer, suite

    pytester.makepyfile(
        """
        import time
        import pytest

        @pytest.mark.parametrize("n", range(3))
        def test_slow(n):
            time.sleep(0.02)
        """
    )
    times = tmp_path / "finished.json"
    monkeypatch.setenv(_loop_timer.ENV, str(times))
    monkeypatch.setenv(_loop_timer.BASELINE_ENV, "1")
    result = pytester.runpytest_inprocess("-p", "benchmarks._loop_timer", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6)
    finished = json.loads(times.read_text())["finished"]
    assert [nodeid.split("::")[1] for nodeid, _ in finished] == [
        "test_slow[0]",
        "nnhal_bench_empty[0]",
        "test_slow[1]",
        "nnhal_bench_empty[1]",
        "test_slow[2]",
        "nnhal_bench_empty[2]",
    ]
    case_s, empty_s, count = suite._split_times(finished)
    assert count == 3
    assert case_s >= 0.02 > empty_s


def test_a_per_item_run_without_pairs_is_an_error() -> None:
    from benchmarks import suite

    with pytest.raises(RuntimeError) as error:
        suite._split_times([["conformance/test_generated.py::test_generated[x]", 1.0]])
    assert str(error.value) == (
        "the per-item run finished 1 items; expected the items of V1_0/add/none "
        "alternating with empty items"
    )


# ---------------------------------------------------------------------------
# The certify benchmark's pieces (the certification itself is run by hand)
# ---------------------------------------------------------------------------


def test_certify_subjects_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import certify

    monkeypatch.delenv(certify.SUBJECTS_ENV, raising=False)
    assert certify.subjects() == [certify.Subject("reference", "1.2")]
    monkeypatch.setenv(certify.SUBJECTS_ENV, "reference@1.3, example@1.2")
    chosen = certify.subjects()
    assert [s.name for s in chosen] == ["reference@1.3", "example@1.2"]
    assert [s.target_s for s in chosen] == [420.0, 120.0]
    monkeypatch.setenv(certify.SUBJECTS_ENV, "reference@2.0")
    with pytest.raises(ValueError, match=r"'reference@2.0' is not a subject \(reference@1.2, "):
        certify.subjects()


def test_certify_figures_read_the_shards_and_the_report() -> None:
    from benchmarks import certify

    output = (
        "nnhal-certify: shard 1/2: 75329 passed, 561 skipped, 75699 deselected in 262.38s\n"
        "nnhal-certify: shard 2/2: 75104 passed, 595 skipped, 75890 deselected in 248.24s\n"
    )
    assert certify.serial_tail_s(275.0, output) == pytest.approx(12.62)
    assert certify.serial_tail_s(275.0, "no shard lines") is None
    doc = {
        "verdict": {"status": "CERTIFIED"},
        "summary": {"outcomes": {"failed": 0}, "total": 151589},
        "run": {"worker_memory": [{"id": "1/2", "peak_rss_bytes": 3 * 2**30}]},
    }
    found = {
        f.name: f
        for f in certify.figures_of(
            certify.Subject("reference", "1.2"), 275.0, doc, output, 3_900_000
        )
    }
    assert found["reference@1.2 wall time"].met is True
    assert found["reference@1.2 report.json"].met is True
    assert found["reference@1.2 report.json"].value == pytest.approx(3.9)
    assert found["reference@1.2 serial tail"].value == pytest.approx(12.62)
    assert found["reference@1.2 peak RSS 1/2"].met is False
    doc["summary"]["outcomes"]["failed"] = 3  # a failing run's report has no 4 MB target
    found = {
        f.name: f
        for f in certify.figures_of(
            certify.Subject("reference", "1.3"), 500.0, doc, output, 9_000_000
        )
    }
    assert found["reference@1.3 wall time"].met is False
    assert found["reference@1.3 report.json"].met is None


def test_driver_calls_are_counted_by_category(tmp_path: Path) -> None:
    out = tmp_path / "calls.json"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"),
            *("-p", "benchmarks.driver_calls", "--pyargs", "conformance.test_basic"),
            *("--driver=reference", "--driver-isolation=none", "--hal-version=1.2"),
            *("-k", "test_capabilities and not unique", f"--nnhal-driver-calls={out}"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # test_capabilities[V1_0], [V1_1], [V1_2]: one capabilities call of each level
    assert json.loads(out.read_text()) == {
        "basic": {"get_capabilities": 1, "get_capabilities_1_1": 1, "get_capabilities_1_2": 1}
    }
