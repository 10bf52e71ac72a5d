"""``nnhal-certify``: the command a vendor runs, end to end and at its edges.

One real run certifies faulty_drivers.PerturbMulTwice (the reference driver
with float32 MUL broken) on a slice of the suite in two shard processes: it
must exit non-zero, show MUL red in the HTML matrix and merge both shards; a
driver that segfaults has its shards run again under xdist. The exit-0 path is checked with
the pytest run replaced by one that writes a certifying report, since a real
certification is the whole suite (minutes; see docs/report.md). The
INSTANCE_NORMALIZATION slice of a certification shows that operation passing
with the HAL text's variance and failing with Android 10's mean of squares.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from certify_runs import CERTIFY, FAULTY, HOSTILE, RUN_TIMEOUT, run_certify  # noqa: F401

from isolation import sandbox
from plugins.report import certify, counts, seal
from plugins.report.document import load, write


class MatrixCells(HTMLParser):
    """(operation, operand type) -> outcome of every filled cell of the report's matrix."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[tuple[str, str], str] = {}
        self._operation = None

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag == "tr" and "data-operation" in attrs:
            self._operation = attrs["data-operation"]
        if tag == "td" and "data-outcome" in attrs:
            self.cells[(self._operation, attrs["data-type"])] = attrs["data-outcome"]


def certify_slice(folder: Path, drivers: Path, driver: str, selection: str, *options: str):
    """nnhal-certify of a test-drivers file's ``driver`` on a ``-k`` slice, two shards, ci."""
    shutil.copy(drivers, folder / drivers.name)
    return run_certify(
        folder,
        *("--driver", f"{drivers.stem}:{driver}", "--jobs", "2", "--profile", "ci"),
        *("--out", "out", *options, "-k", selection),
    )


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    folder = tmp_path_factory.mktemp("certify")
    selection = "test_generated and (V1_0/mul/ or V1_0/add/)"
    return certify_slice(folder, FAULTY, "PerturbMulTwice", selection), folder / "out"


def test_a_broken_operation_fails_certification(broken_run) -> None:
    result, out = broken_run
    assert result.returncode == certify.NOT_CERTIFIED, result.stdout[-3000:] + result.stderr
    lines = result.stdout.splitlines()
    assert "nnhal-certify: NOT CERTIFIED" in lines
    doc = json.loads((out / "report.json").read_text())
    for reason in doc["verdict"]["reasons"]:
        assert f"  - {reason}" in lines
    assert any("parity tests did not pass" in r for r in doc["verdict"]["reasons"])
    assert f"report: {Path('out') / 'report.html'} (also report.json, report.md)" in lines
    # The merged run's counts, as report.md gives them; each shard's, as its log did.
    run = doc["run"]
    assert run["deselected_by"]["shard"] == 0 and run["deselected"] > 0
    assert f"tests: {counts.selection(run)}" in lines
    assert f"Tests: {counts.selection(run)}." in (out / "report.md").read_text()
    collected = [
        line for line in lines if re.match(r"nnhal-certify: shard [12]/2 collected ", line)
    ]
    assert len(collected) == 2 and all(
        re.search(r"selected, [\d,]+ deselected: [\d,]+ by -k/.*, [\d,]+ by --shard\) in ", line)
        for line in collected
    ), collected
    shard_lines = [line for line in lines if re.match(r"nnhal-certify: shard [12]/2: ", line)]
    assert len(shard_lines) == 2 and all(" passed" in line for line in shard_lines), lines
    assert any(line.startswith("  FAILED ") and "V1_0/mul/" in line for line in lines), (
        "each failure is shown on a line of its own"
    )
    assert (out / "report.md").read_text().startswith("## nnhal certification: NOT CERTIFIED")


def test_the_broken_operation_is_red_in_the_matrix(broken_run) -> None:
    _, out = broken_run
    parser = MatrixCells()
    parser.feed((out / "report.html").read_text())
    assert parser.cells[("MUL", "TENSOR_FLOAT32")] == "failed"
    assert parser.cells[("ADD", "TENSOR_FLOAT32")] == "passed"
    assert parser.cells[("MUL", "TENSOR_QUANT8_ASYMM")] == "passed"
    red = {cell for cell, outcome in parser.cells.items() if outcome == "failed"}
    assert {operation for operation, _ in red} == {"MUL"}


def test_every_failure_is_listed_with_its_rerun_command(broken_run) -> None:
    _, out = broken_run
    doc = load(out / "report.json")  # report.json leaves out the reruns run.rerun gives
    html = (out / "report.html").read_text()
    failed = [t for t in doc["tests"] if t["outcome"] == "failed"]
    assert failed and doc["run"]["workers"] == 2
    for test in failed:
        assert test["rerun"].startswith(
            f"pytest --pyargs '{test['id']}' --driver=faulty_drivers:PerturbMulTwice"
        )
        assert f"rerun: <code>{test['rerun'].replace(chr(39), '&#39;')}</code>" in html


def test_driver_is_required(tmp_path: Path) -> None:
    result = run_certify(tmp_path, "--jobs", "2")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "nnhal-certify: error: --driver is required: a registered name (e.g. reference) or "
        "module:Factory; nothing is certified by default"
    )


def test_jobs_must_be_a_number(tmp_path: Path) -> None:
    result = run_certify(tmp_path, "--driver", "reference", "--jobs", "many")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "nnhal-certify: error: --jobs=many: expected a number of workers or 'auto'"
    )


def test_an_unknown_driver_writes_no_report(tmp_path: Path) -> None:
    result = run_certify(tmp_path, "--driver", "no_such_driver", "--jobs", "0")
    assert result.returncode == 4
    assert result.stderr.splitlines()[-1] == (
        "nnhal-certify: pytest exited with status 4 and wrote no report: nothing was certified"
    )
    assert not (tmp_path / certify.DEFAULT_OUT / "report.json").exists()


def _certifying_document() -> dict:
    from report_documents import _document

    doc = _document()
    assert doc["verdict"]["status"] == "CERTIFIED"
    return doc


def test_exit_zero_only_when_certified(tmp_path: Path, monkeypatch, capsys) -> None:
    seen = []

    def fake_run(command, time_limit, **where):
        seen.append((command, time_limit))
        write(_certifying_document(), tmp_path / "out")
        seal.write_seal(tmp_path / "out", where["env"][seal.KEY_VARIABLE].encode())
        return 0

    monkeypatch.setattr(certify, "run_pytest", fake_run)
    real_urandom = os.urandom  # the seed's four bytes fixed; keys and uuids stay random
    monkeypatch.setattr(
        certify.os, "urandom", lambda n: bytes([0, 0, 1, 2]) if n == 4 else real_urandom(n)
    )
    status = certify.main(
        [
            "--driver",
            "vendor:Factory",
            "--jobs",
            "0",
            "--hal-version",
            "1.1",
            "--out",
            str(tmp_path / "out"),
            "-x",
        ]
    )
    assert status == 0
    for command, _ in seen:
        assert command[:4] == [sys.executable, "-P", "-m", "pytest"]
        assert "--noconftest" in command[: command.index("--pyargs")]
    assert [(c[c.index("--pyargs") :], limit) for c, limit in seen] == [
        (
            [
                "--pyargs",
                "conformance",
                "--driver=vendor:Factory",
                "--nnhal-profile=full",
                f"--cert-report={tmp_path / 'out'}",
                "-p",
                "no:cacheprovider",
                "--tb=line",
                f"--driver-folder={os.getcwd()}",
                f"--driver-hide={tmp_path / 'out'}",
                "--hal-version=1.1",
                "--driver-isolation=process",
                f"--driver-containment={sandbox.strongest()}",
                "--nnhal-seed=258",  # drawn for the run (os.urandom), given to every shard
                "-x",
            ],
            certify.DEFAULT_TIME_LIMIT,
        )
    ]
    out = capsys.readouterr().out
    assert (
        "nnhal-certify: CERTIFIED at HAL 1.2 (parity+strict) for 1 operation form of 1 operation"
        in out
    )


def test_a_verdict_left_by_an_earlier_run_is_never_read(tmp_path: Path, monkeypatch, capsys):
    write(_certifying_document(), tmp_path / "out")
    monkeypatch.setattr(certify, "run_pytest", lambda command, time_limit, **where: 0)
    assert certify.main(["--driver", "x:Y", "--jobs", "0", "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        "nnhal-certify: pytest exited with status 0 and wrote no report: nothing was certified\n"
    )


def test_a_run_over_its_time_limit_is_not_certified(tmp_path: Path, monkeypatch, capsys):
    def too_slow(command, time_limit, **where):
        raise subprocess.TimeoutExpired(command, time_limit)

    monkeypatch.setattr(certify, "run_pytest", too_slow)
    args = ["--driver", "x:Y", "--jobs", "1", "--out", str(tmp_path), "--time-limit", "5"]
    assert certify.main(args) == 1
    assert capsys.readouterr().err == (
        "nnhal-certify: the run took longer than --time-limit=5 s and was stopped: NOT CERTIFIED\n"
    )


def test_driver_isolation_goes_to_pytest(tmp_path: Path) -> None:
    parser = certify._parser()
    args, extra = parser.parse_known_args(["--driver", "x:Y", "--driver-isolation", "none"])
    command = certify.pytest_command(args, extra)
    assert command[-1] == "--driver-isolation=none"
    args, extra = parser.parse_known_args(
        ["--driver", "x:Y", "--driver-containment", "process-group"]
    )
    command = certify.pytest_command(args, extra)
    assert command[-2:] == ["--driver-isolation=process", "--driver-containment=process-group"]


def test_certification_isolates_the_driver_by_default() -> None:
    args, extra = certify._parser().parse_known_args(["--driver", "x:Y"])
    command = certify.pytest_command(args, extra)
    assert command[-1] == "--driver-isolation=process"


def test_an_unknown_isolation_mode_is_a_usage_error(tmp_path: Path) -> None:
    result = run_certify(tmp_path, "--driver", "reference", "--driver-isolation", "thread")
    assert result.returncode == 2
    assert "argument --driver-isolation: invalid choice: 'thread'" in result.stderr


def test_a_shard_process_runs_its_shard_and_reports_to_its_own_folder() -> None:
    args, extra = certify._parser().parse_known_args(["--driver", "x:Y", "--out", "o", "-x"])
    command = certify.pytest_command(args, extra, out=Path("o/shards/2"), shard=(2, 3))
    assert command[: len(certify.harness_prefix(args))] == certify.harness_prefix(args)
    assert command[len(certify.harness_prefix(args)) :] == [
        "--pyargs",
        "conformance",
        "--driver=x:Y",
        "--nnhal-profile=full",
        f"--cert-report={Path('o/shards/2').absolute()}",
        "-p",
        "no:cacheprovider",
        "--tb=line",
        "--shard=2/3",
        "--driver-isolation=process",
        "-x",
    ]
    again = certify.pytest_command(args, extra, out=Path("s"), shard=(2, 3), xdist_workers=1)
    assert again[-5:] == ["--shard=2/3", "-n", "1", "--driver-isolation=process", "-x"]


def test_jobs_auto_is_one_process_a_processor() -> None:
    assert certify.jobs_of("auto") == (os.cpu_count() or 1)
    assert certify.jobs_of("3") == 3


def test_a_sharded_run_merges_its_shards(broken_run) -> None:
    result, out = broken_run
    assert "nnhal-certify: 2 test processes, process K running shard K/2" in result.stdout
    shards = sorted(p.name for p in (out / "shards").iterdir())
    assert shards == ["1", "1.log", "2", "2.log"]
    merged = load(out / "report.json")  # every test in full (report.json has compact rows)
    assert merged["run"]["merged_shards"] == ["1/2", "2/2"]
    assert merged["run"]["command"] == (
        "nnhal-certify --driver faulty_drivers:PerturbMulTwice --jobs 2 --profile ci --out out "
        "-k 'test_generated and (V1_0/mul/ or V1_0/add/)'"
    )
    ids = set()
    for k in (1, 2):
        part = load(out / "shards" / str(k) / "report.json")
        ids |= {t["id"] for t in part["tests"]}
    assert {t["id"] for t in merged["tests"]} == ids


def test_a_shard_killed_by_a_driver_crash_runs_again_under_xdist(tmp_path: Path) -> None:
    selection = "test_generated and V1_0/add/none"
    result = certify_slice(
        tmp_path, HOSTILE, "SegfaultInExecute", selection, "--driver-isolation", "none"
    )
    assert result.returncode == certify.NOT_CERTIFIED, result.stdout[-3000:] + result.stderr
    retried = re.findall(
        r"nnhal-certify: shard (\d)/2 died with status -11 and wrote no report", result.stderr
    )
    assert retried, result.stderr
    for k in retried:
        assert (tmp_path / "out" / "shards" / f"{k}.retry.log").exists()
    doc = load(tmp_path / "out" / "report.json")  # the passed tests too, in full
    outcomes = {t["id"].rsplit("[", 1)[-1].rstrip("]"): t["outcome"] for t in doc["tests"]}
    # execute_synchronously segfaults: every sync path is a crash, the other paths pass.
    assert {i for i, o in outcomes.items() if o == "crash"} >= {"V1_0/add/none/ex0/sync"}
    assert outcomes["V1_0/add/none/ex0/async"] == "passed"


def test_a_sharded_run_over_its_time_limit_is_stopped(tmp_path: Path) -> None:
    result = run_certify(
        tmp_path, "--driver", "reference", "--jobs", "2", "--out", "out", "--time-limit", "2"
    )
    assert result.returncode == certify.NOT_CERTIFIED
    assert result.stderr.endswith(
        "nnhal-certify: the run took longer than --time-limit=2 s and was stopped: NOT CERTIFIED\n"
    )
    assert not (tmp_path / "out" / "report.json").exists()


def _logged_shard(tmp_path: Path, text: str, **fields) -> certify._Shard:
    """Shard 1/2 whose log holds ``text`` so far."""
    log = tmp_path / "1.log"
    log.write_text(text)
    return certify._Shard(1, 2, tmp_path, log=log, **fields)


def _log_more(shard: certify._Shard, text: str) -> None:
    with open(shard.log, "a") as log:
        log.write(text)


def test_progress_shows_each_shards_collection(tmp_path: Path) -> None:
    shard = _logged_shard(
        tmp_path, "nnhal: collecting tests ...\nnnhal: collecting ... 35 tests so far\n"
    )
    assert shard.collected() is None
    _log_more(
        shard,
        "nnhal: collected 56,892 tests in 17.3 s (28,401 selected, 28,491 deselected by --shard)\n",
    )
    assert shard.collected() == (
        "56,892 tests (28,401 selected, 28,491 deselected by --shard) in 17.3 s"
    )


def test_progress_keeps_its_percentage_through_a_long_failure_summary(tmp_path: Path) -> None:
    shard = _logged_shard(tmp_path, "nnhal: collected 9 tests in 0.1 s\n")
    assert shard.percent() is None
    _log_more(shard, "FFFFFFFFF [ 95%]\nFF [100%]\n")
    assert shard.percent() == 100
    _log_more(shard, "".join(f"FAILED conformance/test_x.py::test_x[{i}]\n" for i in range(500)))
    assert shard.percent() == 100


def test_progress_names_the_category_a_shard_is_running(tmp_path: Path) -> None:
    shard = _logged_shard(
        tmp_path,
        "nnhal: collected 9 tests in 0.1 s\nconformance/test_basic.py \n"
        "nnhal: running basic (4 tests)\n.... [ 44%]\n",
        collection="9 tests in 0.1 s",
    )
    assert shard.state(0.0) == "44% in basic"
    _log_more(shard, "conformance/test_validate_model.py \nnnhal: running validation-model\n..")
    assert shard.state(1.0) == "44% in validation-model"
    _log_more(shard, "".join(f"{'.' * 72} [ {50 + i}%]\n" for i in range(40)))
    assert shard.state(2.0) == "89% in validation-model"  # the last one named, though long ago


def test_progress_names_a_category_whose_line_scrolled_by_between_two_looks(
    tmp_path: Path,
) -> None:
    """A category starts and thousands of tests end before the next progress line: its
    name is still read (it once named the category before, read from the log's tail)."""
    shard = _logged_shard(
        tmp_path,
        "nnhal: collected 9 tests in 0.1 s\nnnhal: running fuzz (7 tests)\n....... [  1%]\n",
        collection="9 tests in 0.1 s",
    )
    assert shard.state(0.0) == "1% in fuzz"
    dots = "".join(f"{'.' * 72} [ {2 + i // 100:>2}%]\n" for i in range(300))
    _log_more(shard, f"nnhal: running generated (204,234 tests)\n{dots}....")
    assert shard.state(1.0) == "4% in generated"
    _log_more(shard, "... [  5%]\nnnhal: running memory-pools (3 tests)\n.")
    assert shard.state(2.0) == "5% in memory-pools"


def test_progress_says_when_a_shard_has_been_quiet_for_a_minute(tmp_path: Path) -> None:
    shard = _logged_shard(
        tmp_path, "nnhal: collected 9 tests in 0.1 s\n.. [ 22%]\n", collection="9 tests in 0.1 s"
    )
    assert shard.state(1000.0) == "22%"
    assert shard.state(1059.0) == "22%"
    assert shard.state(1090.0) == (
        "22% (no test ended for 90 s: a slow test, or a driver call waiting out --hal-timeout)"
    )
    _log_more(shard, "... [ 33%]\n")
    assert shard.state(1120.0) == "33%"
    assert certify._Shard(2, 2, tmp_path, log=shard.log).state(0.0) == "collecting"


def test_smoke_runs_the_sample_under_profile_ci(tmp_path: Path, monkeypatch) -> None:
    seen = []
    monkeypatch.setattr(
        certify, "run_pytest", lambda command, limit, **where: seen.append(command) or 5
    )
    certify.main(["--driver", "reference", "--jobs", "0", "--smoke", "--out", str(tmp_path)])
    assert "--nnhal-smoke" in seen[0] and "--nnhal-profile=ci" in seen[0]
    seen.clear()
    certify.main(["--driver", "reference", "--jobs", "0", "--out", str(tmp_path)])
    assert "--nnhal-smoke" not in seen[0] and "--nnhal-profile=full" in seen[0]


EXAMPLE_OPERATIONS = {"ADD", "MUL", "RELU"}
"""What the driver nnhal-example writes supports (float32 ADD, MUL, RELU; quant8 RELU)."""


def test_a_smoke_run_samples_what_the_driver_supports(tmp_path: Path) -> None:
    """nnhal-certify --smoke of the example driver (three operations of some hundred): the
    sample asks the driver first, so every category whose tests name operations passes
    tests of the example's, and the verdict never says it supports nothing."""
    example = Path(sys.executable).with_name("nnhal-example")
    written = subprocess.run(
        [str(example), str(tmp_path / "vendor")], capture_output=True, text=True, timeout=60
    )
    assert written.returncode == 0, written.stderr
    result = run_certify(tmp_path / "vendor", "--driver", "my_driver:Factory", "--smoke")
    report = tmp_path / "vendor" / "nnhal-certification" / "report.json"
    assert report.exists(), result.stdout[-3000:] + result.stderr[-3000:]
    doc = load(report)
    assert result.returncode == 1 and doc["verdict"]["status"] == "NOT CERTIFIED"
    by_category: dict[str, list[dict]] = {}
    for test in doc["tests"]:
        if test["operations"]:
            by_category.setdefault(test["category"], []).append(test)
    assert {"generated", "memory-pools", "validation-model", "validation-request"} <= set(
        by_category
    )
    for category, tests in by_category.items():
        passed = [
            t
            for t in tests
            if t["outcome"] == "passed" and set(t["operations"]) <= EXAMPLE_OPERATIONS
        ]
        assert passed, (category, [(t["id"], t["outcome"]) for t in tests])
    bad = [t["id"] for t in doc["tests"] if t["outcome"] in ("failed", "crash", "timeout", "error")]
    assert bad == []
    scope = doc["scope"]
    assert scope["operations_passed"] and set(scope["operations_passed"]) <= EXAMPLE_OPERATIONS
    assert scope["operations_unsupported"] == []
    assert not any("supports nothing" in reason for reason in doc["verdict"]["reasons"])
    assert "operations passed, with their operand types: " in result.stdout


def test_a_test_process_takes_no_code_from_where_it_runs(tmp_path: Path) -> None:
    """No current folder on the path, no conftest.py anywhere, the harness folder's own empty
    configuration, plugins by name with autoloading off, no PYTEST_ADDOPTS or
    PYTEST_PLUGINS passed on, and the run's report key handed over."""
    args, _ = certify._parser().parse_known_args(["--driver", "x:Y"])
    args.harness = certify.make_harness_folder()
    try:
        prefix = certify.harness_prefix(args)
        assert prefix[:4] == [sys.executable, "-P", "-m", "pytest"]
        assert prefix[4:8] == [
            "-c",
            str(args.harness / "pytest.ini"),
            "--rootdir",
            str(args.harness),
        ]
        assert "--noconftest" in prefix
        assert (args.harness / "pytest.ini").read_text() == "[pytest]\n"
        assert sorted(p.name for p in args.harness.iterdir()) == ["pytest.ini"]
    finally:
        shutil.rmtree(args.harness)
    os.environ["PYTEST_ADDOPTS"] = "-p evil"
    try:
        environment = certify.harness_environment("k3y")
    finally:
        del os.environ["PYTEST_ADDOPTS"]
    assert "PYTEST_ADDOPTS" not in environment
    assert environment["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] == "1"
    assert environment[seal.KEY_VARIABLE] == "k3y"


@pytest.mark.parametrize(
    ("driver", "fails"),
    [("reference", False), ("faulty_drivers:InstanceNormAndroid10", True)],
)
def test_instance_normalization_certifies_the_variance_not_android_10s_mean_square(
    tmp_path: Path, driver: str, fails: bool
) -> None:
    """The operation's slice of a certification: the reference driver (the HAL text's
    variance, as Android 11) leaves only the reasons a slice always has, and
    INSTANCE_NORMALIZATION green; Android 10's mean of squares fails parity tests and the
    operation is red. (A whole certification takes minutes; see docs/report.md.)"""
    shutil.copy(FAULTY, tmp_path / FAULTY.name)
    result = run_certify(
        tmp_path,
        *("--driver", driver, "--jobs", "1", "--profile", "ci", "--out", "out"),
        *("--driver-isolation", "none", "--nnhal-op", "INSTANCE_NORMALIZATION"),
    )
    assert result.returncode == certify.NOT_CERTIFIED, result.stdout[-3000:] + result.stderr
    doc = json.loads((tmp_path / "out" / "report.json").read_text())
    slice_only = [
        reason
        for reason in doc["verdict"]["reasons"]
        if not reason.startswith(("profile ci:", "categories that did not run:"))
        and "tests were deselected" not in reason
    ]
    parser = MatrixCells()
    parser.feed((tmp_path / "out" / "report.html").read_text())
    cells = {t: o for (op, t), o in parser.cells.items() if op == "INSTANCE_NORMALIZATION"}
    assert set(cells) == {"TENSOR_FLOAT32", "TENSOR_FLOAT32+relaxed", "TENSOR_FLOAT16"}, cells
    if fails:
        assert any("parity tests did not pass" in r for r in slice_only), slice_only
        assert set(cells.values()) == {"failed"}, cells
    else:
        assert slice_only == [], slice_only
        assert set(cells.values()) == {"passed"}, cells


def test_the_failure_lines_printed_from_a_shard_log_are_printable(tmp_path: Path) -> None:
    """pytest's own lines escape a driver's control characters already (plugins.running);
    a log line that still holds one (an older harness, a driver writing to the log) is
    escaped before nnhal-certify prints it."""
    shard = _logged_shard(
        tmp_path,
        "FAILED conformance/test_x.py::test_x[0] - raised \x1b[2J\x1b[32mCERTIFIED\r\n"
        "= 1 failed \x1b[0m in 2.0 s =\n",
    )
    assert shard.summary() == (
        r"1 failed \x1b[0m in 2.0 s",
        [r"FAILED conformance/test_x.py::test_x[0] - raised \x1b[2J\x1b[32mCERTIFIED"],
    )
