"""A driver in process isolation cannot reach the harness, the machine or outlive the run.

Each test runs the ADD slice of test_isolation.py in a pytest subprocess with
``--driver-isolation=process`` against one attacking driver of
hostile_drivers.py: it signals the harness, forks a daemon that keeps its
output open, grows without bound inside one call, hangs holding the GIL,
hoards descriptors or writes outside its folder. The run must finish, the
attacked items get the right outcome, the others pass, and afterwards no
process, working directory or temporary file of the run is left (the leak
check: the run's TMPDIR is a folder of its own, empty at the end).

The attacks that need namespaces to be contained (signals, file writes) run
under ``--driver-containment=bubblewrap``: they are skipped where bubblewrap
cannot make namespaces, except under ``CI=true`` (.ci/run installs it), where
that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from isolation import sandbox

HOSTILE = Path(__file__).resolve().parents[1] / "support" / "hostile_drivers.py"
RUN_TIMEOUT = 240
HAL_TIMEOUT = "3"

SLICE = """
import os

import pytest

from conformance.harness.generated import load_tests
from conformance.harness.runner import Run, execute_case, prepare_case
from hal.types import HalVersion

CASE = next(
    t for t in load_tests("conformance.generated.V1_2.add_v1_2") if t.name == "add_v1_2"
)
PATHS = ("async", "sync", "burst")
_prepared = {}


@pytest.mark.parametrize("path", PATHS)
def test_add(device, hal_timeout, path):
    if "model" not in _prepared:
        _prepared["model"] = prepare_case(device, CASE.model, HalVersion.V1_2, hal_timeout)
    execute_case(_prepared["model"], Run(CASE, 0, path), hal_timeout)
"""

CONFTEST = """
import json
import os

os.environ["NNHAL_DRIVER_TEST_HARNESS_PID"] = str(os.getpid())


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        with open("outcomes.jsonl", "a") as f:
            f.write(json.dumps([report.nodeid, report.outcome, dict(report.user_properties)]))
            f.write("\\n")
"""


def _need(kind: str) -> None:
    if not sandbox.available(kind):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{kind} cannot make namespaces here; .ci/run installs bubblewrap")
        pytest.skip(f"{kind} cannot make namespaces on this machine")


def _need_bubblewrap() -> None:
    _need("bubblewrap")


class Attack:
    """One run of the slice against ``driver``, and what it left behind."""

    def __init__(self, tmp_path: Path, driver: str, *options: str) -> None:
        self.folder = tmp_path
        self.marker = uuid.uuid4().hex
        self.outside = tmp_path / "outside.txt"
        (tmp_path / "hostile_drivers.py").write_text(HOSTILE.read_text())
        (tmp_path / "test_slice.py").write_text(SLICE)
        (tmp_path / "conftest.py").write_text(CONFTEST)
        self.temp = tmp_path / "tmp"
        self.temp.mkdir()
        environment = dict(
            os.environ,
            NNHAL_DRIVER_TEST_MARKER=self.marker,
            NNHAL_DRIVER_TEST_OUTSIDE=str(self.outside),
            NNHAL_DRIVER_TEST_FOLDER=str(tmp_path),
            NNHAL_SECRET_OF_THE_HARNESS="not for the driver",
            TMPDIR=str(self.temp),  # the run's temporary files, all of them, land here
        )
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "test_slice.py",
            f"--driver=hostile_drivers:{driver}",
            "--driver-isolation=process",
            f"--hal-timeout={HAL_TIMEOUT}",
            "--cert-report=report",
            "-rA",
            *options,
        ]
        self.process = subprocess.run(
            command,
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        self.output = self.process.stdout + self.process.stderr
        self.outcomes: dict[str, tuple[str, dict]] = {}
        record = tmp_path / "outcomes.jsonl"
        for line in record.read_text().splitlines() if record.exists() else []:
            nodeid, outcome, properties = json.loads(line)
            self.outcomes[nodeid.split("[", 1)[1].rstrip("]")] = (outcome, properties)
        self.report = json.loads((tmp_path / "report" / "report.json").read_text())

    def outcome(self, path: str) -> str:
        return self.outcomes[path][0]

    def log(self) -> str:
        path = self.folder / "report" / "driver-logs" / "main.log"
        return path.read_text() if path.exists() else ""

    def survivors(self) -> list[int]:
        """Processes still carrying this run's marker in their environment."""
        return sandbox.marked(self.marker, "NNHAL_DRIVER_TEST_MARKER")

    def check_clean(self) -> None:
        """Nothing of the run is left: no process, no working directory, no temporary
        file (the harness's, the service's or the driver's own, in its TMPDIR)."""
        assert self.survivors() == [], self.output
        for line in self.log().splitlines():
            if line.startswith("working directory: "):
                assert not Path(line.split(": ", 1)[1]).exists()
        assert sorted(p.name for p in self.temp.iterdir()) == [], self.output


def test_the_harness_survives_a_driver_that_kills_it(tmp_path) -> None:
    _need_bubblewrap()
    attack = Attack(tmp_path, "KillsTheHarness", "--driver-containment=bubblewrap")
    assert attack.process.returncode == 0, attack.output
    assert {path: attack.outcome(path) for path in ("async", "sync", "burst")} == {
        "async": "passed",
        "sync": "passed",
        "burst": "passed",
    }
    attack.check_clean()


def test_the_harness_survives_a_driver_that_stops_it(tmp_path) -> None:
    _need_bubblewrap()
    attack = Attack(tmp_path, "StopsTheHarness", "--driver-containment=bubblewrap")
    assert attack.process.returncode == 0, attack.output
    attack.check_clean()


@pytest.mark.parametrize("containment", ["bubblewrap", "process-group"])
def test_a_forked_daemon_neither_holds_the_output_nor_outlives_the_run(
    tmp_path, containment
) -> None:
    if containment == "bubblewrap":
        _need_bubblewrap()
    # capture_output would wait for the daemon if it still held the run's stdout.
    attack = Attack(tmp_path, "ForksADaemon", f"--driver-containment={containment}")
    assert attack.process.returncode == 0, attack.output
    attack.check_clean()


def test_memory_growth_inside_one_call_is_stopped_by_the_address_space_limit(tmp_path) -> None:
    attack = Attack(tmp_path, "GrowsWithoutBound")
    assert attack.outcome("sync") == "failed", attack.output
    assert attack.outcome("async") == attack.outcome("burst") == "passed"
    assert attack.outcomes["sync"][1]["nnhal_fault"] == (
        "driver memory: the driver service ran out of its address-space limit of "
        f"{sandbox.DEFAULT_ADDRESS_SPACE_MB} MB during execute_synchronously "
        "(--driver-memory-limit); the service was restarted"
    )
    attack.check_clean()


def test_a_hang_holding_the_gil_times_out_and_the_service_is_replaced(tmp_path) -> None:
    attack = Attack(tmp_path, "HangsHoldingTheGil")
    assert attack.outcome("sync") == "failed", attack.output
    properties = attack.outcomes["sync"][1]
    assert properties["nnhal_outcome"] == "timeout"
    assert properties["nnhal_fault"] == (
        f"driver call execute_synchronously did not return within {HAL_TIMEOUT} s (hang); "
        "the driver service was killed and is restarted"
    )
    assert attack.outcome("burst") == "passed"
    attack.check_clean()


def test_a_driver_hoarding_descriptors_hurts_only_itself(tmp_path) -> None:
    attack = Attack(tmp_path, "HoardsDescriptors")
    assert attack.outcome("async") == attack.outcome("burst") == "passed", attack.output
    assert attack.outcome("sync") in ("passed", "failed")
    attack.check_clean()


def test_writes_outside_the_working_directory_are_refused(tmp_path) -> None:
    _need_bubblewrap()
    attack = Attack(tmp_path, "WritesOutsideItsFolder", "--driver-containment=bubblewrap")
    assert attack.process.returncode == 0, attack.output
    assert not attack.outside.exists()
    log = attack.log()
    assert "outside write refused: Read-only file system" in log
    assert re.search(r"^working directory: /\S*nnhal-driver-", log, re.M), log
    attack.check_clean()


def test_the_report_and_the_header_state_the_containment(tmp_path) -> None:
    _need_bubblewrap()
    attack = Attack(tmp_path, "WritesOutsideItsFolder", "--driver-containment=bubblewrap")
    isolation = attack.report["run"]["isolation"]
    assert isolation["mode"] == "process"
    assert isolation["tamper_proof"] is True
    assert isolation["containment"].startswith("namespaces by bubblewrap")
    assert isolation["driver_logs"] == str(tmp_path / "report" / "driver-logs")
    assert f"containment: {isolation['containment']}" in attack.output


def test_an_unavailable_containment_is_a_usage_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sandbox.shutil, "which", lambda tool: None)
    sandbox.probe.cache_clear()
    try:
        with pytest.raises(sandbox.ContainmentUnavailable) as caught:
            sandbox.Sandbox("bubblewrap")
        assert str(caught.value) == (
            "--driver-containment=bubblewrap: it does not work on this machine "
            "(try --driver-containment=auto)"
        )
        assert sandbox.strongest() == "process-group"
    finally:
        sandbox.probe.cache_clear()


ATTEMPTS = (
    "rewrite the report",
    "list the report folder",
    "plant a conftest.py",
    "plant a conftest.py in the driver's folder",
    "read the expected outputs",
    "list the suite",
    "append to the suite",
    "append to the contract",
    "unmount /proc",
    "see the harness's process",
    "raise the harness's OOM score",
    "reach a network",
)
SERVICE_VARIABLES = {"HOME", "TMPDIR", "PYTHONPATH", sandbox.TOKEN_VARIABLE}


@pytest.mark.parametrize("containment", ["bubblewrap", "unshare"])
def test_a_driver_probing_its_sandbox_gets_nowhere(tmp_path, containment) -> None:
    """Every way out a hostile vendor's driver tried (the report, the harness's and its
    own folder, the suite's expected outputs and files, the contract, /proc, the
    harness's process, the network, shared memory, the harness's environment) is
    refused, in both containments, and the report is the harness's own."""
    _need(containment)
    attack = Attack(tmp_path, "ProbesItsSandbox", f"--driver-containment={containment}")
    assert attack.process.returncode == 0, attack.output
    log = attack.log()
    attempts = dict(re.findall(r"^attempt (.+?): (refused|SUCCEEDED)", log, re.M))
    assert attempts == dict.fromkeys(ATTEMPTS, "refused"), log
    shared = re.search(r"^shm: (\S+) written$", log, re.M)
    assert shared is not None, log
    assert not Path(shared.group(1)).exists()  # a private /dev/shm, gone with the driver
    names = set(re.search(r"^environment: (.*)$", log, re.M).group(1).split())
    driver_own = {n for n in names if n.startswith(sandbox.ENVIRONMENT_PREFIXES)}
    # bubblewrap sets PWD, the working directory's path, itself.
    assert names - driver_own - sandbox.ENVIRONMENT_NAMES - {"PWD"} == SERVICE_VARIABLES
    assert "NNHAL_SECRET_OF_THE_HARNESS" not in names
    assert "forged" not in (tmp_path / "report" / "report.json").read_text()
    assert not (tmp_path / "conftest.py").read_text().endswith("forged")
    isolation = attack.report["run"]["isolation"]
    assert isolation["tamper_proof"] is True
    assert isolation["containment"].startswith(f"namespaces by {containment}")
    attack.check_clean()


@pytest.mark.parametrize("containment", ["bubblewrap", "unshare", "process-group"])
def test_a_driver_that_kills_itself_dies_in_every_containment(tmp_path, containment) -> None:
    """The service is never the first process of its PID namespace, which no signal it has
    no handler for reaches from inside (a SIGKILL the driver sends itself, as the
    out-of-memory killer would, did nothing under unshare): the call fails as a crash
    naming the signal, and the service is restarted for the next item."""
    if containment != "process-group":
        _need(containment)
    attack = Attack(tmp_path, "KilledInExecute", f"--driver-containment={containment}")
    assert attack.outcome("sync") == "failed", attack.output
    assert attack.outcomes["sync"][1]["nnhal_fault"] == (
        "driver process died (signal 9 SIGKILL) during execute_synchronously"
    )
    assert attack.outcome("async") == attack.outcome("burst") == "passed"
    attack.check_clean()


@pytest.mark.parametrize("containment", ["bubblewrap", "unshare", "process-group"])
def test_a_fork_bomb_is_stopped_at_the_process_limit(tmp_path, containment) -> None:
    if containment != "process-group":
        _need(containment)
    attack = Attack(tmp_path, "ForksWithoutBound", f"--driver-containment={containment}")
    # The driver's own later threads may fail for want of processes: its own doing.
    assert attack.outcome("sync") == "passed", attack.output
    found = re.search(r"^fork refused after (\d+) children", attack.log(), re.M)
    assert found is not None, attack.log()
    assert int(found.group(1)) < sandbox.PROCESSES
    attack.check_clean()


@pytest.mark.parametrize("containment", ["bubblewrap", "unshare"])
def test_memory_spread_over_children_meets_the_tree_limit(tmp_path, containment) -> None:
    """Six children of 200 MB each: no process is over the 1,000 MB limit, their tree is."""
    _need(containment)
    attack = Attack(
        tmp_path,
        "GrowsThroughChildren",
        f"--driver-containment={containment}",
        "--driver-memory-limit=1000",
        "--hal-timeout=30",
    )
    assert attack.outcome("sync") == "failed", attack.output
    fault = attack.outcomes["sync"][1]["nnhal_fault"]
    assert fault.startswith("driver memory: "), fault
    assert "1000 MB" in fault, fault
    assert attack.outcome("async") == attack.outcome("burst") == "passed"
    attack.check_clean()


@pytest.mark.parametrize(("version", "name"), [(1, "memory.oom_control"), (2, "memory.events")])
def test_the_count_of_kernel_kills_is_read_afresh_each_time(tmp_path, version, name) -> None:
    """``oom_kills`` keeps its group's events file open and reads it again at every ask (the
    harness asks after every test); ``remove`` closes it."""
    events = tmp_path / name
    events.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")
    group = sandbox.Cgroup({"memory": str(tmp_path), "pids": str(tmp_path)}, version)
    assert group.oom_kills() == 0
    with open(events, "r+") as f:  # the same file, changed in place as the kernel does
        f.write("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")
    assert group.oom_kills() == 3
    held = len(os.listdir("/proc/self/fd"))
    group.remove()
    assert len(os.listdir("/proc/self/fd")) == held - 1
    events.unlink()  # (a real group's folder is gone after remove)
    assert group.oom_kills() == 0  # nothing to read: no kill known


def test_the_probe_catches_a_containment_that_leaves_the_file_system_writable(
    monkeypatch,
) -> None:
    """unshare's namespaces without the set-up of confine.py (what it was before): the
    probe writes outside its folder, keeps capabilities and unmounts /proc, so the
    containment is reported as not tamper-proof, with what broke."""
    _need("unshare")

    def bare_unshare(view):
        return [
            "unshare",
            "--user",
            "--map-root-user",
            "--pid",
            "--fork",
            "--kill-child",
            "--mount-proc",
            "--net",
            "--ipc",
            "--uts",
            "--",
        ]

    kinds = dict(sandbox._KINDS)
    kinds["unshare"] = (bare_unshare, kinds["unshare"][1])
    monkeypatch.setattr(sandbox, "_KINDS", kinds)
    sandbox.probe.cache_clear()
    try:
        broken = sandbox.probe("unshare")
        box = sandbox.Sandbox("unshare")
        assert box.tamper_proof is False
        assert "/ is writable" in broken
        assert any(b.startswith("capabilities left (CapEff") for b in broken)
        assert "/proc could be unmounted" in broken
        assert box.describe().endswith("; not tamper-proof here: " + "; ".join(broken))
    finally:
        sandbox.probe.cache_clear()


def test_the_tree_watch_stops_a_tree_over_its_memory(tmp_path) -> None:
    """Where no control group can be made: a child of the service holding 300 MB, under a
    200 MB limit over the tree, is seen by the watch within its interval or two."""
    import threading

    script = (
        "import os, signal\n"
        "if os.fork() == 0:\n"
        "    block = bytearray(300 << 20)\n"
        "    for i in range(0, len(block), 4096): block[i] = 1\n"
        "    signal.pause()\n"
        "signal.pause()\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    seen = []
    done = threading.Event()
    watch = sandbox.TreeWatch(
        process.pid,
        "no-token",
        sandbox.Limits(address_space_mb=200),
        lambda what, problem: seen.append((what, problem)) or done.set(),
    )
    try:
        assert done.wait(30)
        what, problem = seen[0]
        assert what == "memory"
        assert re.fullmatch(
            r"\d+ MB resident over its process tree, over the limit of 200 MB", problem
        )
    finally:
        watch.stop()
        os.killpg(process.pid, 9)
        process.wait()


class _NoControlGroups(sandbox.Sandbox):
    """A containment on a machine where the harness may make no control group."""

    def cgroup(self, name):
        return None


def test_without_control_groups_the_tree_watch_stops_memory_spread_over_children(
    tmp_path,
) -> None:
    """The same six children of 200 MB under a 1,000 MB limit, the service started by a
    DriverService that can make no control group: the watch kills the service while the
    call runs and the fault names the tree, the limit and the call."""
    from conformance.harness.generated import load_tests
    from conformance.harness.runner import Run, execute_case, prepare_case
    from hal.types import HalVersion
    from isolation.channel import DriverCrashed
    from isolation.proxy import DriverService

    shutil.copy(HOSTILE, tmp_path / HOSTILE.name)
    box = _NoControlGroups("process-group", sandbox.Limits(address_space_mb=1000))
    service = DriverService(
        "hostile_drivers:GrowsThroughChildren", 30, sandbox=box, folder=str(tmp_path)
    )
    case = next(
        t for t in load_tests("conformance.generated.V1_2.add_v1_2") if t.name == "add_v1_2"
    )
    try:
        device = service.start().device
        model = prepare_case(device, case.model, HalVersion.V1_2, 30)
        with pytest.raises(DriverCrashed):  # the call ends with the service killed under it
            execute_case(model, Run(case, 0, "sync"), 30)
        messages = [f.message for f in service.faults]
        assert any(
            re.fullmatch(
                r"driver memory: the driver service's process tree held \d+ MB resident over "
                r"its process tree, over the limit of 1000 MB during execute_synchronously "
                r"\(--driver-memory-limit\); the service was killed and is restarted",
                message,
            )
            for message in messages
        ), messages
    finally:
        service.close()
