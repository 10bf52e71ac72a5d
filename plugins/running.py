"""Running the suite: driver faults, the runtest and report hooks, the header.

Registered by ``plugins.pytest_nnhal`` in a run that uses the suite (its
docstring has the rule), which then calls ``configure``. The driver named by
``--driver`` is loaded while pytest configures (the default one when a test
first needs it) by ``plugins.driver``, in this process behind an
``InProcessGuard`` or in a driver service process (``--driver-isolation=process``)
in the ``--driver-containment`` sandbox. A crash, hang or memory overrun of
the driver fails the phase it happened in with the fault's sentence and the
outcome property ``("nnhal_outcome", "crash"|"timeout")``; the hang breaker
declares items blocked; every failure of a suite item ends with the command
that reruns it.

A driver service that dies during a test ends the test's waits itself
(``isolation.proxy.DriverService``: pending calls, callbacks and burst
queues), so nothing here interrupts the test from outside. Before the next test
(``restart_driver``) a fresh service starts, and the suite forgets what it kept
about the dead one (``conformance.harness.state``).
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter

import pytest

from conformance.harness import state
from conformance.harness.hangs import BLOCKED, BREAKER
from conformance.harness.items import CASES_PROPERTY
from conformance.harness.rerun import rerun_of
from hal.loader import DEFAULT_DRIVER, DriverLoadError
from hal.show import printable
from hal.types import HalVersion
from plugins import collection, driver, packs, profiles
from plugins.repeats import RepeatedFailures
from plugins.report import seal
from plugins.report.facts import OUTPUT_PROPERTY, module_category, test_id
from plugins.suite import SUITE

_REFUSED_SEEN = pytest.StashKey[int]()
_FAULTS_SEEN = pytest.StashKey[int]()
_CRASH_WATCH = pytest.StashKey[object]()
_OUTPUT_MARK = pytest.StashKey[int]()
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
    driver.configure(config)
    if any(config.getoption(o) is not None for o in ("--cert-report", "--shard", "--expect-fail")):
        from plugins.report.collector import configure as configure_report

        configure_report(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    driver.close_driver(config)
    watch = config.stash.get(_CRASH_WATCH, None)
    if watch is not None:
        watch.finish()
    profiles.unconfigure(config)
    packs.unconfigure(config)


# -- the header ---------------------------------------------------------------------------


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
    loaded = driver.loaded_driver(config)
    return [
        f"driver: {loaded.describe()} (HAL {loaded.level}, "
        f"tested up to {driver.tested_level(config)})",
        profile,
        isolation,
        *vendor,
    ]


def _isolation_header(config: pytest.Config) -> str:
    timeout = f"per-call timeout {config.getoption('--hal-timeout'):g} s"
    if config.getoption("--driver-isolation") == "process":
        return (
            f"driver isolation: process (a service process per worker; {timeout}); "
            f"containment: {driver.driver_sandbox(config).describe()}"
        )
    return (
        f"driver isolation: none (the driver runs in-process, not tamper-proof; {timeout}; "
        "a driver crash ends the run: --driver-isolation=process survives it)"
    )


# -- progress -------------------------------------------------------------------------


def pytest_sessionstart(session: pytest.Session) -> None:
    # Here, not in configure: pytest's terminal is registered after this plugin configures.
    if not hasattr(session.config, "workerinput"):  # the process that prints
        CategoryProgress.register(session.config)
    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    if terminal is not None and not session.config.pluginmanager.has_plugin(_Unkept.NAME):
        session.config.pluginmanager.register(_Unkept(terminal), _Unkept.NAME)


class _Unkept:
    """Lets pytest's terminal forget a passed setup or teardown that captured nothing.

    The terminal keeps every report to the end of the run: a test's call under its outcome
    (the summary counts them), and its setup and teardown under the empty category, which
    it reads only to print what a teardown captured beside a failure or under ``-rP``. A
    passed setup or teardown without captured output is never shown, yet two of them were
    kept for every test: about 1.5 KB a test (a shard of a HAL 1.3 certification peaked at
    2,572 MiB with them, 1,989 MiB without). Registered where the terminal is; the report
    is dropped right after the terminal stored it (this hook runs last)."""

    NAME = "nnhal-unkept"

    def __init__(self, terminal) -> None:
        self.stats = terminal.stats

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or not report.passed or report.sections:
            return
        kept = self.stats.get("")
        if kept and kept[-1] is report:
            kept.pop()


class CategoryProgress:
    """Lines that name the category running (the report's names: ``validation-model``,
    ``generated``, ``memory-pools``) among pytest's progress: one when a category starts,
    with its count of tests, and on a long one every ``PERIOD`` seconds how far it is.

    Bounded: a category is announced once (under xdist the workers' items interleave at a
    boundary), and otherwise one line a ``PERIOD`` at most. Registered in the process that
    prints (the xdist controller hears every worker's ``pytest_runtest_logstart``), not
    under ``-q``. A category is read from the node id (its module), so the controller,
    which has no items, names it as the workers would.
    """

    PERIOD = 60.0
    """Seconds between two lines while one category runs."""

    def __init__(self, terminal) -> None:
        self.terminal = terminal
        self.totals: Counter[str] = Counter()
        self.started: Counter[str] = Counter()
        self.began: dict[str, float] = {}
        """When each category's first test started."""
        self.last = 0.0

    @classmethod
    def register(cls, config: pytest.Config) -> None:
        terminal = config.pluginmanager.get_plugin("terminalreporter")
        if terminal is None or config.get_verbosity() < 0:
            return
        kind = _VerboseProgress if config.get_verbosity() > 0 else _DotProgress
        config.pluginmanager.register(kind(terminal), "nnhal-category-progress")

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.count(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids: list[str]) -> None:
        if not self.totals:  # every worker collects the same tests
            self.count(ids)

    def count(self, nodeids) -> None:
        self.totals = Counter(
            module_category(nodeid) for nodeid in nodeids if nodeid.startswith(f"{SUITE}/")
        )

    def line(self, nodeid: str, now: float) -> str | None:
        """The line to print as ``nodeid`` starts, if any (none for a test outside the
        suite: the harness's own tests, a conftest's)."""
        if not nodeid.startswith(f"{SUITE}/"):
            return None
        category = module_category(nodeid)
        self.started[category] += 1
        total = self.totals.get(category)
        if category not in self.began:
            self.began[category] = self.last = now
            return f"nnhal: running {category}" + (f" ({total:,} tests)" if total else "")
        if now - self.last < self.PERIOD:
            return None
        self.last = now
        done = f"{self.started[category]:,}" + (f" of {total:,}" if total else "")
        return (
            f"nnhal: still running {category} ({done} tests started, "
            f"{_minutes(now - self.began[category])} in it)"
        )


class _VerboseProgress(CategoryProgress):
    """Under ``-v``, before pytest writes the item's line."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid: str, location) -> None:
        text = self.line(nodeid, time.monotonic())
        if text is not None:
            self.terminal.ensure_newline()
            self.terminal.write(text)
            self.terminal.currentfspath = -2  # pytest's next line ends this one, as its own


class _DotProgress(CategoryProgress):
    """Without ``-v``, after pytest wrote the module's name: the dots go on below."""

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logstart(self, nodeid: str, location) -> None:
        text = self.line(nodeid, time.monotonic())
        if text is not None:
            kept = self.terminal.currentfspath
            if self.terminal._tw.width_of_current_line:
                self.terminal.write("\n")
            self.terminal.write(text + "\n")
            self.terminal.currentfspath = kept


def _minutes(seconds: float) -> str:
    if seconds >= 60:
        return f"{int(seconds // 60)} min {seconds % 60:.0f} s"
    return f"{seconds:.0f} s"


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    """Under ``-v``, a passed item that draws its cases (parameter-space, random graphs)
    says how many it ran, as its report entry does: ``PASSED: ran 12 of the 12 ADD cases
    drawn (0 declined by the driver)``. pytest prints nothing else for a pass."""
    if report.when != "call" or not report.passed or hasattr(report, "wasxfail"):
        return None
    if config.get_verbosity() <= 0:
        return None
    cases = next((v for k, v in report.user_properties if k == CASES_PROPERTY), None)
    if not isinstance(cases, str):
        return None
    return "passed", ".", (f"PASSED: {printable(cases)}", {"green": True})


# -- running --------------------------------------------------------------------------


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> None:
    """Restart a driver service that died or hung in an earlier test, then run this one."""
    config = item.config
    BREAKER.begin_item()
    # If no fresh service starts, the test's first driver call reports the dead one.
    restart_driver(config)
    guard = driver.guard(config)
    if guard is not None and hasattr(guard, "output_mark"):
        item.stash[_OUTPUT_MARK] = guard.output_mark()
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
    guard = driver.guard(config)
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
    level = driver.tested_level(item.config)
    if level < needed:
        pytest.skip(f"needs HAL {needed}; the driver is tested at HAL {level}")


# -- reports --------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Driver faults fail the phase they happened in; every failure of a suite item ends
    with the command that reruns exactly that item."""
    report = yield
    _driver_faults(item, call, report)
    _driver_output(item, report)
    _add_rerun(item, report)
    _printable(report)
    return report


DRIVER_OUTPUT = "driver output during this test"
"""The title of what a failed test shows of its driver service's stdout and stderr."""


def _driver_output(item: pytest.Item, report: pytest.TestReport) -> None:
    """A failed test shows what its driver service wrote (stdout, stderr, its logger)
    while it ran: the driver's own words for what went wrong, which in a process of its
    own would otherwise be only in the worker's log (``driver-logs/``). In-process,
    pytest's own capture shows them."""
    guard = driver.guard(item.config)
    if not report.failed or guard is None or not hasattr(guard, "output_since"):
        return
    text = guard.output_since(item.stash.get(_OUTPUT_MARK, 0))
    if not text:
        return
    report.user_properties.append((OUTPUT_PROPERTY, text))  # the report's entry shows it too
    block = f"{DRIVER_OUTPUT}:\n" + "\n".join(f"  | {line}" for line in text.splitlines())
    if isinstance(report.longrepr, str):
        report.longrepr = f"{report.longrepr}\n{block}"
    elif hasattr(report.longrepr, "addsection"):
        report.longrepr.addsection(DRIVER_OUTPUT, text)
    else:
        report.longrepr = f"{report.longreprtext}\n{block}"


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
    guard = driver.guard(item.config)
    if guard is None:
        return
    from isolation.proxy import DriverFault, Fault, memory_fault

    if call.when == "call" and call.excinfo is not None and hasattr(guard, "settle"):
        guard.settle()  # a crash the test met ends up in this item's report
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
