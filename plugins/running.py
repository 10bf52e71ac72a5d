"""Running the suite: the driver behind its guard, driver faults, the runtest and report hooks.

Registered by ``plugins.pytest_nnhal`` in a run that uses the suite (its
docstring has the rule), which then calls ``configure``. The driver named by
``--driver`` is loaded while pytest configures (the default one when a test
first needs it), in this process behind an ``InProcessGuard`` or in a driver
service process (``--driver-isolation=process``) in the ``--driver-containment``
sandbox. A crash, hang or memory overrun of the driver fails the phase it
happened in with the fault's sentence and the outcome property
``("nnhal_outcome", "crash"|"timeout")``; the hang breaker declares items
blocked; every failure of a suite item ends with the command that reruns it.

A driver service that dies during a test ends the test's waits itself
(``isolation.proxy.DriverService``: pending calls, callbacks and burst
queues), so nothing here interrupts the test from outside. Before the next test
(``restart_driver``) a fresh service starts, and the suite forgets what it kept
about the dead one (``conformance.harness.state``).
"""

from __future__ import annotations

import dataclasses
import os

import pytest

from conformance.harness import state
from conformance.harness.hangs import BLOCKED, BREAKER
from conformance.harness.rerun import rerun_of
from hal.loader import DEFAULT_DRIVER, DriverLoadError, LoadedDriver, load_driver
from hal.show import printable
from hal.types import HalVersion
from plugins import collection, packs, profiles
from plugins.pytest_nnhal import SUITE, is_xdist_controller
from plugins.repeats import RepeatedFailures
from plugins.report import seal
from plugins.report.facts import test_id

_LOADED = pytest.StashKey[LoadedDriver]()
_GUARD = pytest.StashKey[object]()
_REFUSED_SEEN = pytest.StashKey[int]()
_SANDBOX = pytest.StashKey[object]()
_FAULTS_SEEN = pytest.StashKey[int]()
_CRASH_WATCH = pytest.StashKey[object]()
OUTCOME_PROPERTY = "nnhal_outcome"
"""User property naming a crash or timeout outcome: ("nnhal_outcome", "crash"|"timeout")."""


def configure(config: pytest.Config) -> None:
    """Configure a run of the suite, in this order: the hang breaker, repeated failures,
    ``--hal-version``, the node ids and markers, ``--hal-timeout``, the hypothesis profile,
    vendor packs, ``--nnhal-op`` (after the packs, whose extensions it may name), the
    driver named, the certification report."""
    # First, before any driver code runs here or in a child: the run's report key leaves
    # the environment.
    config.stash[seal.RUN_KEY] = seal.take_key()
    BREAKER.reset(config.getoption("--hal-hang-limit"))
    if not hasattr(config, "workerinput"):  # the process that prints
        config.pluginmanager.register(
            RepeatedFailures(config.getoption("--nnhal-repeats")), "nnhal-repeats"
        )
    collection.configure(config)
    cap = config.getoption("--hal-version")
    if cap is not None:
        try:
            HalVersion.parse(cap)
        except ValueError as e:
            raise pytest.UsageError(f"--hal-version={cap}: {e}") from None
    timeout = config.getoption("--hal-timeout")
    if not timeout > 0:
        raise pytest.UsageError(f"--hal-timeout={timeout:g}: must be a positive number of seconds")
    profiles.configure(config)
    packs.configure(config)
    collection.check_operation_names(config.getoption("--nnhal-op"))  # packs' extensions known
    spec = config.getoption("--driver")
    if spec is not None:
        config.stash[_LOADED] = _load(config, spec)
    if any(config.getoption(o) is not None for o in ("--cert-report", "--shard", "--expect-fail")):
        from plugins.report.collector import configure as configure_report

        configure_report(config)


def close_driver(config: pytest.Config) -> None:
    """End the driver service (and everything it forked): the report is written after."""
    guard = config.stash.get(_GUARD, None)
    if guard is not None and hasattr(guard, "close"):
        guard.close()


def pytest_unconfigure(config: pytest.Config) -> None:
    close_driver(config)
    watch = config.stash.get(_CRASH_WATCH, None)
    if watch is not None:
        watch.finish()
    profiles.unconfigure(config)
    packs.unconfigure(config)


# -- the driver -----------------------------------------------------------------------


def _load(config: pytest.Config, spec: str | None) -> LoadedDriver:
    """Load the driver behind the guard of ``--driver-isolation``."""
    from isolation.proxy import DriverService, InProcessGuard

    timeout = config.getoption("--hal-timeout")
    try:
        if config.getoption("--driver-isolation") == "process":
            service = DriverService(
                spec,
                timeout,
                sandbox=driver_sandbox(config),
                log_path=_driver_log(config),
                folder=driver_folder(config),
                hidden=hidden_paths(config),
            )
            loaded = service.start()
            if is_xdist_controller(config):
                service.close()  # the workers run the tests, each with its own service
            else:
                config.stash[_GUARD] = service
                service.admit = BREAKER.admit
                service.on_hang = BREAKER.record
            return loaded
        loaded = load_driver(spec, driver_folder(config))
    except DriverLoadError as e:
        raise pytest.UsageError(str(e)) from None
    guard = InProcessGuard(timeout)
    guard.admit = BREAKER.admit
    guard.on_hang = BREAKER.record
    config.stash[_GUARD] = guard
    return guard.wrap(loaded)


def driver_folder(config: pytest.Config) -> str:
    """The driver's folder: ``--driver-folder``, else the current folder."""
    return os.path.abspath(config.getoption("--driver-folder") or os.getcwd())


def hidden_paths(config: pytest.Config) -> list[str]:
    """What the driver's view shows empty: the suite's packages (its specs and expected
    outputs among them), the plugin and the generator, the report folder, the cache of
    generated vendor packs, the harness's folder (unless the driver's folder is inside
    it) and every ``--driver-hide``."""
    from importlib.util import find_spec

    from generator.packs import cache_folder

    paths = [
        p
        for package in ("conformance", "plugins", "generator")
        for p in (find_spec(package).submodule_search_locations or [])
    ]
    report = config.getoption("--cert-report")
    if report is not None:
        # Made now, so that it is hidden from the start (it would be read-only anyway).
        os.makedirs(report, exist_ok=True)
        paths.append(os.path.abspath(report))
    paths.append(str(cache_folder()))
    here, folder = os.getcwd(), driver_folder(config)
    if not (folder == here or folder.startswith(here.rstrip("/") + "/")):
        paths.append(here)
    paths += [os.path.abspath(p) for p in config.getoption("--driver-hide")]
    return paths


def driver_sandbox(config: pytest.Config):
    """The containment of the driver service (``--driver-containment``), made once per run."""
    from isolation.sandbox import ContainmentUnavailable, Limits, Sandbox

    sandbox = config.stash.get(_SANDBOX, None)
    if sandbox is None:
        limit = config.getoption("--driver-memory-limit")
        limits = Limits(address_space_mb=limit) if limit > 0 else Limits()
        try:
            sandbox = Sandbox(config.getoption("--driver-containment"), limits)
        except ContainmentUnavailable as e:
            raise pytest.UsageError(str(e)) from None
        config.stash[_SANDBOX] = sandbox
    return sandbox


def _driver_log(config: pytest.Config) -> str | None:
    """``DIR/driver-logs/<worker>.log`` under ``--cert-report=DIR``; else a temporary file."""
    folder = config.getoption("--cert-report")
    if folder is None:
        return None
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    return os.path.join(os.path.abspath(folder), "driver-logs", f"{worker}.log")


def isolation_facts(config: pytest.Config) -> dict:
    """What the report says of the isolation in effect (``run.isolation``)."""
    if config.getoption("--driver-isolation") != "process":
        return {
            "mode": "none",
            "containment": None,
            "tamper_proof": False,
            "driver_logs": None,
        }
    sandbox = driver_sandbox(config)
    folder = config.getoption("--cert-report")
    return {
        "mode": "process",
        "containment": sandbox.describe(),
        "tamper_proof": sandbox.tamper_proof,
        "driver_logs": os.path.join(os.path.abspath(folder), "driver-logs") if folder else None,
    }


def loaded_driver(config: pytest.Config) -> LoadedDriver:
    """The driver under test, loading the default one on first use."""
    if _LOADED not in config.stash:
        config.stash[_LOADED] = _load(config, None)
    return config.stash[_LOADED]


def tested_level(config: pytest.Config) -> HalVersion:
    """The driver's HAL level, capped by ``--hal-version``."""
    level = loaded_driver(config).level
    cap = config.getoption("--hal-version")
    return min(level, HalVersion.parse(cap)) if cap is not None else level


def header_lines(config: pytest.Config) -> list[str]:
    """The header's lines (``plugins.pytest_nnhal.pytest_report_header`` prints them)."""
    spec = config.getoption("--driver")
    profile = f"nnhal profile: {profiles.nnhal_profile(config)}"
    seed = profiles.run_seed(config)
    if seed is not None:
        profile += f" (seed {seed}: --nnhal-seed={seed} draws the same cases)"
    isolation = _isolation_header(config)
    vendor = packs.header_lines(config)
    if spec is None:
        return [f"driver: {DEFAULT_DRIVER} (default)", profile, isolation, *vendor]
    loaded = config.stash[_LOADED]
    return [
        f"driver: {loaded.describe()} (HAL {loaded.level}, tested up to {tested_level(config)})",
        profile,
        isolation,
        *vendor,
    ]


def _isolation_header(config: pytest.Config) -> str:
    timeout = f"per-call timeout {config.getoption('--hal-timeout'):g} s"
    if config.getoption("--driver-isolation") == "process":
        return (
            f"driver isolation: process (a service process per worker; {timeout}); "
            f"containment: {driver_sandbox(config).describe()}"
        )
    return (
        f"driver isolation: none (the driver runs in-process, not tamper-proof; {timeout}; "
        "a driver crash ends the run: --driver-isolation=process survives it)"
    )


# -- running --------------------------------------------------------------------------


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> None:
    """Restart a driver service that died or hung in an earlier test, then run this one."""
    config = item.config
    BREAKER.begin_item()
    # If no fresh service starts, the test's first driver call reports the dead one.
    restart_driver(config)
    if config.getoption("--driver-isolation") == "none" and not hasattr(config, "workerinput"):
        from isolation.proxy import CrashWatch

        if _CRASH_WATCH not in config.stash:
            config.stash[_CRASH_WATCH] = CrashWatch.start(
                "rerun with --driver-isolation=process to report a driver crash as one failed "
                "test and go on"
            )
        watch = config.stash[_CRASH_WATCH]
        if watch is not None:
            watch.running(item.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A driver service that died in the last test is back for the report's questions."""
    restart_driver(session.config)


def restart_driver(config: pytest.Config) -> bool:
    """Start a fresh driver service if the one running died or was killed (crash, hang,
    memory), and then make the suite forget what it kept about the old one
    (``conformance.harness.state.driver_restarted``). True if a fresh service started;
    False otherwise, and always for a driver in this process, which is never restarted."""
    guard = config.stash.get(_GUARD, None)
    if guard is None or not hasattr(guard, "ensure_running"):
        return False
    try:
        restarted = guard.ensure_running()
    except DriverLoadError:
        return False
    if restarted:
        state.driver_restarted()
    return bool(restarted)


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("hal_level")
    if marker is None:
        return
    needed = HalVersion.parse(str(marker.args[0]))
    level = tested_level(item.config)
    if level < needed:
        pytest.skip(f"needs HAL {needed}; the driver is tested at HAL {level}")


# -- reports --------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Driver faults fail the phase they happened in; every failure of a suite item ends
    with the command that reruns exactly that item."""
    report = yield
    _driver_faults(item, call, report)
    _add_rerun(item, report)
    _printable(report)
    return report


def _printable(report: pytest.TestReport) -> None:
    """What pytest prints of a failure, with every control character escaped: a driver's
    text (an exception's message in a traceback or in a chained exception, what a driver
    in this process printed and pytest captured) could otherwise clear the terminal and
    draw a fake verdict there, and nnhal-certify reads the FAILED lines back from a
    shard's log. ``hal.show`` escapes the driver values the suite quotes; this covers
    the rest. Newlines and tabs stay (a traceback has lines)."""
    if isinstance(report.longrepr, str):
        report.longrepr = printable(report.longrepr, keep="\n\t")
    elif report.longrepr is not None:
        _printable_repr(report.longrepr, 0)
    if report.sections:
        report.sections = [
            (printable(title), printable(text, keep="\n\t")) for title, text in report.sections
        ]


def _printable_repr(value: object, depth: int) -> object:
    """``value`` (a part of pytest's report of a failure: its dataclasses, their lists,
    tuples and strings) with its strings made printable, in place where it can be."""
    if type(value) is str:
        return printable(value, keep="\n\t")
    if depth > 8:
        return value
    if type(value) is list:
        value[:] = [_printable_repr(item, depth + 1) for item in value]
    elif type(value) is tuple:
        return tuple(_printable_repr(item, depth + 1) for item in value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            part = getattr(value, field.name)
            object.__setattr__(value, field.name, _printable_repr(part, depth + 1))
    return value


def _add_rerun(item: pytest.Item, report: pytest.TestReport) -> None:
    """The suite's own messages carry a rerun line already; the others get it here."""
    if not (report.failed and test_id(item).startswith(f"{SUITE}.")):
        return
    if "rerun: pytest " in report.longreprtext:
        return
    line = f"rerun: {rerun_of(item.config, test_id(item))}"
    if isinstance(report.longrepr, str):
        report.longrepr = f"{report.longrepr}\n{line}"
    elif hasattr(report.longrepr, "addsection"):
        report.longrepr.addsection("rerun", line)


def _driver_faults(item: pytest.Item, call: pytest.CallInfo, report: pytest.TestReport) -> None:
    """A crash, hang or memory overrun of the driver fails the phase it happened in; an item
    the hang breaker stopped is declared blocked."""
    guard = item.config.stash.get(_GUARD, None)
    if guard is None:
        return
    from isolation.proxy import DriverFault, Fault, memory_fault

    seen = item.config.stash.get(_FAULTS_SEEN, 0)
    faults = list(guard.faults[seen:])
    item.config.stash[_FAULTS_SEEN] = seen + len(faults)
    refused = item.config.stash.get(_REFUSED_SEEN, 0)
    if BREAKER.refused != refused:
        item.config.stash[_REFUSED_SEEN] = BREAKER.refused
        if report.failed and not faults:
            _declare(item, report, [(OUTCOME_PROPERTY, BLOCKED)])
    if call.excinfo is not None and isinstance(call.excinfo.value, DriverFault) and not faults:
        error = call.excinfo.value
        faults.append(Fault(error.kind, error.method, error.message))
    if call.when == "call":
        limit = item.config.getoption("--driver-memory-limit")
        overrun = memory_fault(guard, limit) if limit > 0 else None
        if overrun is not None:
            faults.append(overrun)
        tree = guard.tree_fault() if hasattr(guard, "tree_fault") else None
        if tree is not None:
            faults.append(tree)
    if faults:
        _fail_with_faults(item, call, report, faults)


def _fail_with_faults(
    item: pytest.Item, call: pytest.CallInfo, report: pytest.TestReport, faults: list
) -> None:
    lines = [fault.message for fault in faults]
    if call.excinfo is not None:
        seen = call.excinfo.exconly().strip().splitlines()
        if seen:
            lines.append(f"(the test itself ended with {seen[0]})")
    lines.append(f"rerun: {rerun_of(item.config, test_id(item))}")
    report.outcome = "failed"
    report.longrepr = "\n".join(lines)
    kind = next((f.kind for f in faults if f.kind in ("crash", "timeout")), None)
    properties = [
        ("nnhal_fault", printable(faults[0].message)),
        ("nnhal_fault_method", faults[0].method),
    ]
    if kind is not None:
        properties.insert(0, (OUTCOME_PROPERTY, kind))
    _declare(item, report, properties)


def _declare(item: pytest.Item, report: pytest.TestReport, properties: list) -> None:
    """Attach user properties to the item and to this phase's report."""
    for entry in properties:
        item.user_properties.append(entry)
        report.user_properties.append(entry)


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched) -> None:
    """pytest-xdist replaced a worker that died running ``crashitem``: a crash outcome."""
    report.user_properties.append((OUTCOME_PROPERTY, "crash"))
