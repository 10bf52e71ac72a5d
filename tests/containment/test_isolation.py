"""Every hostile driver is caught, with the right message, in both isolation modes.

Each test runs a slice of the suite (ADD at HAL 1.2, example 0, every
execution path, through the suite's own harness: prepare once and reuse, as
the generated suite does) in a pytest subprocess with a hard timeout, against
one driver of hostile_drivers.py, and checks which items fail and what they
say. Crashes in-process end the interpreter, so those runs use pytest-xdist,
which replaces the dead worker; everything else runs in-process directly.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from plugins.report.document import load

HOSTILE = Path(__file__).resolve().parents[1] / "support" / "hostile_drivers.py"
RUN_TIMEOUT = 240
"""Seconds one pytest subprocess may take before the test fails (nothing may hang)."""
HAL_TIMEOUT = "2"

SLICE = """
import pytest

from conformance.harness.generated import load_tests
from conformance.harness.requests import SCATTERED
from conformance.harness.runner import Run, execute_case, prepare_case
from hal.types import HalVersion

CASE = next(
    t for t in load_tests("conformance.generated.V1_2.add_v1_2") if t.name == "add_v1_2"
)
PATHS = ("async10", "async", "async-timed", "sync", "sync-timed", "burst", "burst-timed")
ITEMS = {path: Run(CASE, 0, path) for path in PATHS}
ITEMS["sync-scattered"] = Run(CASE, 0, "sync", layout=SCATTERED)
_prepared = {}


@pytest.mark.parametrize("item", ITEMS)
def test_add(device, hal_timeout, item):
    if "model" not in _prepared:
        _prepared["model"] = prepare_case(device, CASE.model, HalVersion.V1_2, hal_timeout)
    execute_case(_prepared["model"], ITEMS[item], hal_timeout)
"""

PROPERTIES = """
import json


def pytest_runtest_logreport(report):
    if report.user_properties:
        with open("properties.jsonl", "a") as f:
            f.write(json.dumps([report.nodeid, dict(report.user_properties)]) + "\\n")
"""

PATHS = (
    "async10",
    "async",
    "async-timed",
    "sync",
    "sync-timed",
    "burst",
    "burst-timed",
    "sync-scattered",
)
SYNC = {"sync", "sync-timed", "sync-scattered"}
ASYNC = {"async", "async-timed"}
_SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED) test_slice\.py::test_add\[([\w-]+)\]")


class Run:
    """One subprocess run: outcome per path, its output, the user properties per path."""

    def __init__(self, process: subprocess.CompletedProcess, directory: Path) -> None:
        self.output = process.stdout + process.stderr
        self.returncode = process.returncode
        self.outcomes: dict[str, str] = {}
        for line in process.stdout.splitlines():
            match = _SUMMARY.match(line)
            if match:
                self.outcomes[match[2]] = match[1]
        self.properties: dict[str, dict] = {}
        record = directory / "properties.jsonl"
        if record.exists():
            for line in record.read_text().splitlines():
                nodeid, properties = json.loads(line)
                path = nodeid.split("[", 1)[1].rstrip("]")
                self.properties.setdefault(path, {}).update(properties)

    def failed(self) -> set[str]:
        return {path for path, outcome in self.outcomes.items() if outcome == "FAILED"}

    def outcome_property(self, path: str) -> str | None:
        return self.properties.get(path, {}).get("nnhal_outcome")


def run_slice(tmp_path: Path, driver: str, isolation: str, *extra: str) -> Run:
    (tmp_path / "hostile_drivers.py").write_text(HOSTILE.read_text())
    (tmp_path / "test_slice.py").write_text(SLICE)
    (tmp_path / "conftest.py").write_text(PROPERTIES)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "test_slice.py",
        f"--driver=hostile_drivers:{driver}",
        f"--driver-isolation={isolation}",
        f"--hal-timeout={HAL_TIMEOUT}",
        "-vv",
        "-rA",
        *extra,
    ]
    process = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=RUN_TIMEOUT
    )
    run = Run(process, tmp_path)
    if "-k" in extra:
        assert run.outcomes, run.output
    else:
        assert set(run.outcomes) == set(PATHS), run.output
    return run


def _lines_with(run: Run, text: str) -> list[str]:
    return [line for line in run.output.splitlines() if text in line]


def _summary(run: Run, path: str) -> str:
    """The short-summary line of a failed item (its message's first line)."""
    lines = _lines_with(run, f"FAILED test_slice.py::test_add[{path}] - ")
    assert len(lines) == 1, run.output
    return lines[0]


# -- crashes ------------------------------------------------------------------

CRASHES = [
    ("SegfaultInExecute", "driver process died (signal 11 SIGSEGV) during execute_synchronously"),
    ("ExitInExecute", "driver process died (exit status 3) during execute_synchronously"),
    ("KilledInExecute", "driver process died (signal 9 SIGKILL) during execute_synchronously"),
]


@pytest.mark.parametrize(("driver", "message"), CRASHES, ids=[c[0] for c in CRASHES])
def test_a_crash_fails_the_test_and_the_service_restarts(tmp_path, driver, message) -> None:
    run = run_slice(tmp_path, driver, "process")
    assert run.failed() == SYNC, run.output
    for path in SYNC:
        assert run.outcome_property(path) == "crash", run.properties
        assert run.properties[path]["nnhal_fault"] == message
        assert run.properties[path]["nnhal_fault_method"] == "execute_synchronously"
    # The failure says it in its first line, and the paths after it ran on a new service.
    assert _summary(run, "sync").endswith(f"test_add[sync] - {message}")
    assert run.outcomes["burst"] == "PASSED"


def test_a_crash_while_preparing_names_the_prepare_method(tmp_path) -> None:
    run = run_slice(tmp_path, "SegfaultInPrepare", "process")
    assert run.failed() == set(PATHS), run.output
    message = "driver process died (signal 11 SIGSEGV) during prepare_model_1_2"
    assert {props["nnhal_fault"] for props in run.properties.values()} == {message}
    assert {run.outcome_property(path) for path in PATHS} == {"crash"}


def test_a_crash_while_waiting_for_a_callback_wakes_the_test_at_once(tmp_path) -> None:
    # A long timeout: the test must end by the crash, not by the callback's timeout.
    run = run_slice(tmp_path, "SegfaultAfterLaunch", "process", "--hal-timeout=60")
    assert run.failed() == ASYNC, run.output
    message = "driver process died (signal 11 SIGSEGV) after execute_1_2 returned"
    for path in ASYNC:
        assert run.properties[path]["nnhal_fault"] == message
        assert run.outcome_property(path) == "crash"
    assert f"(the test itself ended with isolation.channel.DriverCrashed: {message})" in run.output
    assert "did not notify" not in run.output


def test_process_isolation_under_xdist_restarts_each_workers_service(tmp_path) -> None:
    run = run_slice(tmp_path, "SegfaultInExecute", "process", "-n", "2")
    assert run.failed() == SYNC, run.output
    message = "driver process died (signal 11 SIGSEGV) during execute_synchronously"
    assert {run.properties[path]["nnhal_fault"] for path in SYNC} == {message}


def test_a_driver_that_cannot_load_in_the_service_is_a_usage_error(tmp_path) -> None:
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--driver-isolation=process",
            "--driver=no_such_driver_module:Factory",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert process.returncode == 4, process.stdout + process.stderr
    assert (
        "ERROR: --driver=no_such_driver_module:Factory: cannot import module "
        "'no_such_driver_module': no no_such_driver_module.py or no_such_driver_module/ in the "
        f"current folder ({tmp_path}) or on the Python path; run from the folder that holds it "
        "or add that folder to PYTHONPATH" in process.stderr
    ), process.stderr


@pytest.mark.parametrize(("driver", "message"), CRASHES, ids=[c[0] for c in CRASHES])
def test_an_in_process_crash_under_xdist_replaces_the_worker(tmp_path, driver, message) -> None:
    run = run_slice(tmp_path, driver, "none", "-n", "1")
    assert run.failed() == SYNC, run.output
    for path in SYNC:
        crashed = re.compile(
            rf"worker 'gw\d+' crashed while running 'test_slice.py::test_add\[{path}\]'"
        )
        assert crashed.search(run.output), run.output
        assert run.outcome_property(path) == "crash", run.properties
    assert run.outcomes["burst-timed"] == "PASSED"


def test_an_in_process_crash_without_xdist_ends_the_run_with_a_hint(tmp_path) -> None:
    (tmp_path / "hostile_drivers.py").write_text(HOSTILE.read_text())
    (tmp_path / "test_slice.py").write_text(SLICE)
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "test_slice.py",
            "--driver=hostile_drivers:SegfaultInExecute",
            "-v",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert process.returncode == -11, process.stdout + process.stderr
    assert (
        "nnhal: the test process died while running test_slice.py::test_add[sync] (a driver "
        "crash?); rerun with --driver-isolation=process to report a driver crash as one failed "
        "test and go on" in process.stderr
    ), process.stderr
    assert (
        "driver isolation: none (the driver runs in-process, not tamper-proof; per-call timeout 60 s"
        in process.stdout
    )


# -- hangs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("isolation", "after"),
    [
        ("process", "; the driver service was killed and is restarted"),
        ("none", "; its thread was abandoned"),
    ],
)
def test_a_hung_call_times_out_and_the_run_goes_on(tmp_path, isolation, after) -> None:
    run = run_slice(tmp_path, "HangInExecute", isolation, "--hal-hang-limit=0")
    assert run.failed() == SYNC, run.output
    message = f"driver call execute_synchronously did not return within {HAL_TIMEOUT} s (hang)"
    for path in SYNC:
        assert run.outcome_property(path) == "timeout", run.properties
        assert run.properties[path]["nnhal_fault"] == message + after
    assert run.outcomes["burst-timed"] == "PASSED"


# -- protocol breaches and bad data, the same in both modes -----------------------

BREACHES = [
    (
        "RaisesInExecute",
        SYNC,
        "_RaisingModel.execute_synchronously raised RuntimeError: hostile driver gave up",
    ),
    (
        "WrongReturnType",
        SYNC,
        "execute_synchronously returned <Verdict object>; expected "
        "(ErrorStatus, output shapes, Timing)",
    ),
    ("WrongArity", SYNC, "execute_synchronously returned (<ErrorStatus.NONE: 0>, ["),
    (
        "NotifiesTwice",
        ASYNC,
        "execute_1_2: execution callback notified 2 times; extra call notify_1_2(status=NONE)",
    ),
    (
        "FloodsCallback",
        ASYNC,
        "execute_1_2: execution callback notified 20001 times; extra call notify_1_2(status=NONE)"
        "; execution callback notified 20001 times; extra call notify_1_2(status=NONE)"
        "; execution callback notified 20001 times; extra call notify_1_2(status=NONE)"
        "; execution callback notified 20001 times; 19997 more extra calls",
    ),
    (
        "EscapesTheTerminal",
        SYNC,
        "_EscapingModel.execute_synchronously raised RuntimeError: "
        r"\x1b[2J\x1b[H\x1b[1;32mnnhal-certify: CERTIFIED at HAL 1.2\x1b[0m\r",
    ),
    (
        "NeverNotifies",
        ASYNC,
        f"execute_1_2 (launch status NONE): the driver did not notify the "
        f"execution callback within {HAL_TIMEOUT} s",
    ),
    (
        "WritesOutsideOutputs",
        {"sync-scattered"},
        "the driver wrote 1 byte(s) outside every output "
        "location in pool 2 (first at offset 61, 0xA5 -> 0x5A; last at 61)",
    ),
    ("ModifiesInputs", SYNC, "the driver wrote 1 byte(s) into input 0 in pool 0"),
    ("WrongOutputShapes", SYNC, "output 0: reported dimensions [7, 7, 7], expected"),
    (
        "GarbageTiming",
        SYNC,
        "timing must be UINT64_MAX in both fields, got Timing("
        "time_on_device=123456789012, time_in_driver=42)",
    ),
]


@pytest.mark.parametrize("isolation", ["process", "none"])
@pytest.mark.parametrize(("driver", "paths", "message"), BREACHES, ids=[b[0] for b in BREACHES])
def test_a_misbehaving_driver_fails_exactly_its_items(tmp_path, driver, paths, message, isolation):
    run = run_slice(tmp_path, driver, isolation)
    assert run.failed() == paths, run.output
    # GarbageTiming's measured item has its own message (the next test checks it).
    for path in paths - {"sync-timed"} if driver == "GarbageTiming" else paths:
        summary = _summary(run, path)
        assert message in summary, summary
        assert run.outcome_property(path) is None  # failed, not crashed or timed out
    assert run.returncode == 1


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_driver_string_cannot_move_the_terminal_or_mark_up_the_report(tmp_path, isolation):
    """Control characters in an exception's message and in the version string are shown
    escaped on the terminal, in report.md and in report.html; the version string's
    Markdown (a heading, an HTML comment left open) is escaped in report.md."""
    run = run_slice(tmp_path, "EscapesTheTerminal", isolation, f"--cert-report={tmp_path}/out")
    assert run.failed() == SYNC, run.output
    assert "\x1b" not in run.output
    assert r"nnhal-certify: CERTIFIED at HAL 1.2\x1b[0m\r" in _summary(run, "sync")
    out = tmp_path / "out"
    markdown = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert "\x1b" not in markdown + html
    version = r"1.0\x1b[2J\x1b[32m CERTIFIED\n\n# CERTIFIED by the vendor\n<!--"
    assert json.loads((out / "report.json").read_text())["driver"]["version_string"] == version
    assert (
        r"(1.0\\x1b\[2J\\x1b\[32m CERTIFIED\\n\\n\# CERTIFIED by the vendor\\n\<\!--), HAL"
        in markdown
    )
    assert "<!--" not in markdown.replace(r"\<\!--", "")
    assert not [line for line in markdown.splitlines() if "CERTIFIED by" in line and line[0] == "#"]
    assert "1.0\\x1b[2J\\x1b[32m CERTIFIED\\n\\n# CERTIFIED by the vendor\\n&lt;!--" in html
    failure = (
        r"RuntimeError: \\x1b\[2J\\x1b\[H\\x1b\[1;32mnnhal-certify: CERTIFIED at HAL 1.2"
        r"\\x1b\[0m\\r"
    )
    assert failure in markdown


def test_garbage_measured_timing_is_caught_too(tmp_path) -> None:
    run = run_slice(tmp_path, "GarbageTiming", "process")
    assert (
        "execute_synchronously (MeasureTiming YES, status NONE): time_on_device 123456789012 us "
        "exceeds time_in_driver 42 us" in _summary(run, "sync-timed")
    )


# -- memory -----------------------------------------------------------------------

MEMORY_LIMIT = "200"


def test_a_leak_in_the_service_fails_the_test_and_restarts_it(tmp_path) -> None:
    # The limit is the service's address space too: each leak fails inside its call (every
    # sync path leaks more than the limit in one call, on a fresh service each time).
    run = run_slice(tmp_path, "LeaksMemory", "process", f"--driver-memory-limit={MEMORY_LIMIT}")
    assert run.failed() == SYNC, run.output
    fault = run.properties["sync"]["nnhal_fault"]
    assert fault == (
        "driver memory: the driver service ran out of its address-space limit of "
        f"{MEMORY_LIMIT} MB during execute_synchronously (--driver-memory-limit); the service "
        "was restarted"
    ), fault


def test_a_leak_in_process_is_reported_once(tmp_path) -> None:
    # In-process, every sync call leaks again into the one process: on a loaded machine a
    # call may take over the slice's 2 s, so this slice allows 20 s (the last option wins).
    run = run_slice(
        tmp_path,
        "LeaksMemory",
        "none",
        f"--driver-memory-limit={MEMORY_LIMIT}",
        "--hal-timeout=20",
    )
    assert run.failed() == {"sync"}, run.output
    fault = run.properties["sync"]["nnhal_fault"]
    assert re.fullmatch(
        r"driver memory: this process's \(driver in-process\) resident memory is \d+ MB, over "
        rf"--driver-memory-limit={MEMORY_LIMIT} MB \(a leak\?\); in-process it cannot be "
        r"reclaimed, so this is reported once",
        fault,
    ), fault


# -- the reference driver passes in both modes --------------------------------------


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_the_reference_driver_passes_the_slice(tmp_path, isolation) -> None:
    (tmp_path / "hostile_drivers.py").write_text(HOSTILE.read_text())
    run = run_slice(tmp_path, "ReferenceDriver", isolation)
    assert set(run.outcomes.values()) == {"PASSED"}, run.output
    assert f"driver isolation: {isolation}" in run.output


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_after_two_hangs_the_method_is_blocked(tmp_path, isolation) -> None:
    run = run_slice(tmp_path, "HangInExecute", isolation)
    assert run.failed() == SYNC, run.output
    timed_out = [p for p in SYNC if run.outcome_property(p) == "timeout"]
    blocked = [p for p in SYNC if run.outcome_property(p) == "blocked"]
    assert (len(timed_out), len(blocked)) == (2, 1), run.properties
    assert (
        "blocked: execute_synchronously timed out 2 times earlier in this run "
        "(--hal-hang-limit=2); it is not called again, so this item did not run"
    ) in _summary(run, blocked[0])
    assert run.outcomes["burst-timed"] == "PASSED"


def test_the_certification_report_counts_crashes_and_hangs(tmp_path) -> None:
    run_slice(tmp_path, "HangInExecute", "process", "--cert-report=out", "-k", "sync and not async")
    report = load(tmp_path / "out" / "report.json")
    outcomes = {test["id"].split("[")[1].rstrip("]"): test["outcome"] for test in report["tests"]}
    assert outcomes == {"sync": "timeout", "sync-timed": "timeout", "sync-scattered": "blocked"}
    assert report["driver"]["load_error"] is None  # the service was back for the report


# -- answers costly to print, shared memory resized -----------------------------------

MESSAGE_BOUND = 1000
"""Most characters a failure's message about a driver's answer may have (hal.show
bounds the quoted value to 400)."""


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_deeply_shared_answer_is_quoted_bounded(tmp_path, isolation) -> None:
    # Printed in full the answer has 2**40 items: an unbounded repr would spin for hours.
    run = run_slice(tmp_path, "DeepAnswer", isolation)
    assert run.failed() == SYNC, run.output
    for path in SYNC:
        summary = _summary(run, path)
        message = summary.split(f"test_add[{path}] - Failed: ", 1)[1]
        if isolation == "none":  # the harness holds the answer: quoted, cut short
            assert message.startswith("execute_synchronously returned [[[[[...], [...]], ")
            assert message.endswith("; expected (ErrorStatus, output shapes, Timing)")
        else:  # the service's encoder counts the shared list at each meeting: refused
            assert message == (
                "_DeepAnswerModel.execute_synchronously raised EncodingError: the answer of "
                "execute_synchronously cannot be sent: EncodeError: the message has over "
                "4194304 values"
            )
        assert len(message) <= MESSAGE_BOUND
    assert run.returncode == 1


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_driver_cannot_shrink_a_burst_ring(tmp_path, isolation) -> None:
    # Unsealed, the truncated ring made the harness die of SIGBUS at its next write
    # into it; sealed, the driver's ftruncate fails with EPERM and every item passes.
    run = run_slice(tmp_path, "ShrinksBurstRings", isolation)
    assert set(run.outcomes.values()) == {"PASSED"}, run.output
    assert run.returncode == 0


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_driver_cannot_shrink_an_ashmem_pool(tmp_path, isolation) -> None:
    run = run_slice(tmp_path, "ShrinksRequestPools", isolation)
    assert set(run.outcomes.values()) == {"PASSED"}, run.output


POOL_SLICE = """
import pytest

from conformance.harness.generated import load_tests
from conformance.harness.pools import PoolVariant, execute_pooled
from conformance.harness.runner import Run, prepare_case
from hal.types import HalVersion
from plugins.report.document import load

CASE = next(
    t for t in load_tests("conformance.generated.V1_2.add_v1_2") if t.name == "add_v1_2"
)
ITEMS = {
    f"{path}-{kind}": (Run(CASE, 0, path), PoolVariant("packed", kind))
    for path in ("sync", "async", "burst")
    for kind in ("ashmem", "mmap_fd")
}
_prepared = {}


@pytest.mark.parametrize("item", ITEMS)
def test_add(device, hal_timeout, item):
    if "model" not in _prepared:
        _prepared["model"] = prepare_case(device, CASE.model, HalVersion.V1_2, hal_timeout)
    execute_pooled(_prepared["model"], *ITEMS[item], hal_timeout)
"""


_POOL_SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR) test_pools\.py::test_add\[([\w-]+)\]")


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_shrunk_mmap_fd_pool_fails_its_test_by_name(tmp_path, isolation) -> None:
    # An mmap_fd pool is a plain file, which cannot be sealed: the driver shrinks it,
    # and the harness, reading pools through their descriptors, fails that test alone.
    (tmp_path / "hostile_drivers.py").write_text(HOSTILE.read_text())
    (tmp_path / "test_pools.py").write_text(POOL_SLICE)
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "test_pools.py",
            "--driver=hostile_drivers:ShrinksRequestPools",
            f"--driver-isolation={isolation}",
            f"--hal-timeout={HAL_TIMEOUT}",
            "-vv",
            "-rA",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    output = process.stdout + process.stderr
    outcomes = {}
    for line in process.stdout.splitlines():
        match = _POOL_SUMMARY.match(line)
        if match:
            outcomes[match[2]] = match[1]
    assert outcomes == {
        f"{path}-{kind}": "FAILED" if (path, kind) == ("sync", "mmap_fd") else "PASSED"
        for path in ("sync", "async", "burst")
        for kind in ("ashmem", "mmap_fd")
    }, output
    failure = [line for line in output.splitlines() if line.startswith("FAILED test_pools.py")]
    assert failure == [
        "FAILED test_pools.py::test_add[sync-mmap_fd] - Failed: request pool 0: mmap_fd pool "
        "claims 28 bytes but its file holds 0 (the driver resized memory it was handed)"
    ], output
    assert "During handling of the above exception" not in output


def test_the_service_environment_keeps_allocator_arenas_few(monkeypatch) -> None:
    from isolation import sandbox

    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.setenv("SECRET_OF_THE_HARNESS", "x")
    environment = sandbox.service_environment("/w", "t", "/p")
    assert environment["MALLOC_ARENA_MAX"] == "2"
    assert "SECRET_OF_THE_HARNESS" not in environment
    monkeypatch.setenv("MALLOC_ARENA_MAX", "8")  # the vendor's own choice wins
    assert sandbox.service_environment("/w", "t", "/p")["MALLOC_ARENA_MAX"] == "8"


def test_a_failed_test_shows_what_the_driver_service_wrote_during_it(tmp_path) -> None:
    run = run_slice(tmp_path, "TalksAndFails", "process", "--cert-report=report")
    assert run.failed() == SYNC, run.output
    failure = run.output[run.output.index("___ test_add[sync] ___") :]
    failure = failure[: failure.index("___ test_add[sync-timed] ___")]
    # the driver's own words, escaped: its terminal control cannot reach the terminal
    assert re.search(
        r"-+ driver output during this test -+\n"
        r"backend: compiling the graph\n"
        r"backend: \\x1b\[2Jdilation not supported for SAME padding\n",
        failure,
    ), failure
    # each failed test shows its own output once; a passing one shows nothing
    assert run.output.count(" driver output during this test ") == len(SYNC), run.output
    # and the report's entry of the test ends with it
    tests = load(tmp_path / "report" / "report.json")["tests"]
    (entry,) = [t for t in tests if t["id"].endswith("test_add[sync]")]
    assert entry["details"] == (
        "status GENERAL_FAILURE, expected NONE\n\ndriver output during this test:\n"
        "backend: compiling the graph\n"
        "backend: \\x1b[2Jdilation not supported for SAME padding"
    )
    assert all(t["details"] is None for t in tests if t["outcome"] == "passed")
