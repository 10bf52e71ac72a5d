"""The pytest plugin: choose the driver under test and hand it to the suite.

Registered under the ``pytest11`` entry point as ``nnhal``, so an installed
``pytest --pyargs conformance`` has it. Options:

* ``--driver=SPEC``: ``module:Factory`` or a registered driver name; without
  it the bundled reference driver is used, and the header says so;
* ``--hal-version=1.0|1.1|1.2``: test no level above this one;
* ``--hal-timeout=SECONDS``: how long any wait on the driver may last;
* ``--driver-isolation=none|process``: call the driver in this process
  (default) or host it in a child service process (``isolation.proxy``); either way
  each driver call is guarded by ``--hal-timeout``, and a crash or hang fails
  the current test naming the method, with the user property
  ``("nnhal_outcome", "crash"|"timeout")`` (``--driver-memory-limit=MB`` also
  fails the test after which the driver holds more memory than that);
* ``--nnhal-profile=ci|full|thorough``: how much of the suite to run (README
  "Profiles"); it also selects the hypothesis settings of the same name
  (``nnhal-ci``, ``nnhal-full``, ``nnhal-thorough``); ``--hypothesis-profile``
  may name that same profile, any other is a usage error (one line);
* ``--cert-report=DIR``: write the certification report (report.json, .html,
  .md) there; ``--shard=K/N`` runs one of N stable parts of the collected
  tests; ``--expect-fail=FILE`` lists known failures (``plugins.report``);
* ``--nnhal-specs=DIR`` (repeatable): also run vendor test pack DIR's specs
  (``plugins.packs``);
* ``--nnhal-op=NAME`` (repeatable): keep only the tests of these operations
  (exact names: CONV_2D is not DEPTHWISE_CONV_2D), deselecting the rest;
  ``--nnhal-smoke`` keeps a small deterministic sample of every test function.
  Either run is not a certificate. Collection prints its progress and ends with
  ``nnhal: collected N tests in T s``.

Fixtures (session-scoped): ``nnhal`` (a ``SuiteRun``: device, tested level,
timeout and config in one), ``device``, ``hal_level``, ``hal_timeout``,
``nnhal_config`` and ``nnhal_driver``. A test function marked with
``conformance.harness.marks.cases`` is collected as ``CaseItem``s, one per
case, like a parametrized one but without a fixture per argument.

Nothing heavy happens at import. A driver named with ``--driver`` is loaded
while pytest configures, so a bad specification stops the run at once with
one line and pytest's usage-error exit code; the default driver is loaded
when a test first needs it.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib.util
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath

import pytest

from conformance.harness.hangs import BLOCKED, BREAKER
from conformance.harness.hangs import DEFAULT_LIMIT as HANG_LIMIT
from conformance.harness.rerun import rerun_of
from hal.callbacks import DEFAULT_TIMEOUT
from hal.loader import DEFAULT_DRIVER, DriverLoadError, LoadedDriver, load_driver
from hal.types import HalVersion
from isolation.sandbox import CONTAINMENTS, DEFAULT_ADDRESS_SPACE_MB
from plugins import packs
from plugins.options import whole_number
from plugins.repeats import DEFAULT_REPEATS, RepeatedFailures
from plugins.report.facts import test_id

_LOADED = pytest.StashKey[LoadedDriver]()
_UNBUILT = pytest.StashKey[int]()
"""Cases a selection left out before their items were built (``unbuilt_cases``)."""
_GUARD = pytest.StashKey[object]()
_REFUSED_SEEN = pytest.StashKey[int]()
_WANTED = pytest.StashKey["dict[str, set[str]] | None"]()
_SANDBOX = pytest.StashKey[object]()
_FAULTS_SEEN = pytest.StashKey[int]()
_CRASH_WATCH = pytest.StashKey[object]()
ISOLATION_MODES = ("none", "process")
OUTCOME_PROPERTY = "nnhal_outcome"
"""User property naming a crash or timeout outcome: ("nnhal_outcome", "crash"|"timeout")."""
_PREVIOUS_HYPOTHESIS_PROFILE = pytest.StashKey[str]()
_SOURCE_CONSTANTS = pytest.StashKey["Callable[[], None] | None"]()
_CONFIGURED: list[pytest.Config] = []
"""The configs of the pytest runs under way in this process, innermost (latest) last."""

PROFILES = ("ci", "full", "thorough")
DEFAULT_PROFILE = "full"
HYPOTHESIS_EXAMPLES = {"ci": 5, "full": 40, "thorough": 400}
"""Hypothesis examples per sampled test (one test per mutation family) in each profile."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("nnhal", "nnhal-conformance: the driver under test")
    group.addoption(
        "--driver",
        metavar="SPEC",
        default=None,
        help=f"driver to certify: module:Factory or a registered name (default: {DEFAULT_DRIVER})",
    )
    group.addoption(
        "--hal-version",
        metavar="VERSION",
        default=None,
        help="highest HAL level to test (1.0, 1.1 or 1.2; default: the driver's level)",
    )
    group.addoption(
        "--hal-timeout",
        metavar="SECONDS",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"longest wait for any driver answer (default: {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--hal-hang-limit",
        metavar="K",
        type=whole_number,
        default=HANG_LIMIT,
        help="after the driver hung K times in one HAL method, later items that call it fail "
        f"at once as blocked (0: never; default: {HANG_LIMIT})",
    )
    group.addoption(
        "--nnhal-repeats",
        metavar="N",
        type=whole_number,
        default=DEFAULT_REPEATS,
        help="print the first N failures of each cause in full, later ones in one line with a "
        f"count (0: all in full; default: {DEFAULT_REPEATS})",
    )
    group.addoption(
        "--driver-isolation",
        choices=ISOLATION_MODES,
        default="none",
        help="none: call the driver in this process (a hard crash ends the run); process: host "
        "it in a child service process, restarted after a crash or hang (default: none)",
    )
    group.addoption(
        "--driver-containment",
        choices=CONTAINMENTS,
        default="auto",
        help="with --driver-isolation=process, how the service process is contained: auto "
        "takes the strongest that works here (bubblewrap namespaces, then unshare "
        "namespaces, then a process group only; default: auto)",
    )
    group.addoption(
        "--driver-memory-limit",
        metavar="MB",
        type=float,
        default=0.0,
        help="fail the test after which the driver's resident memory exceeds MB (the service "
        "process's with --driver-isolation=process, this process's otherwise; default: no "
        "limit); with --driver-isolation=process it is also the service's address-space limit, "
        f"enforced during calls (default: {DEFAULT_ADDRESS_SPACE_MB} MB)",
    )
    group.addoption(
        "--nnhal-profile",
        choices=PROFILES,
        default=DEFAULT_PROFILE,
        help="ci: fast, derandomized, few hypothesis examples (this project's CI); full: the "
        "certification run, deterministic; thorough: full plus many hypothesis examples "
        f"(default: {DEFAULT_PROFILE})",
    )
    group.addoption(
        "--nnhal-op",
        metavar="NAME",
        action="append",
        default=[],
        help="run only the tests of this operation (exact OperationType name, e.g. CONV_2D; "
        "repeatable), in every category; a filtered run is not a certificate",
    )
    group.addoption(
        "--nnhal-smoke",
        action="store_true",
        default=False,
        help=f"a first try: run a deterministic sample ({SMOKE_PER_TEST} cases of each test "
        "function, every category); never a certificate",
    )
    packs.addoption(group)
    report = parser.getgroup("nnhal-report", "nnhal-conformance: certification reports")
    report.addoption(
        "--cert-report",
        metavar="DIR",
        default=None,
        help="write the certification report to DIR: report.json, report.html, report.md",
    )
    report.addoption(
        "--shard",
        metavar="K/N",
        default=None,
        help="run only shard K of N: a stable partition of the collected tests by test id",
    )
    report.addoption(
        "--expect-fail",
        metavar="FILE",
        default=None,
        help="known failures, one 'TEST-ID-OR-PATTERN  # reason' a line: reported as "
        "expected-failure (strict: an unexpected pass fails)",
    )


SUITE = "conformance"
"""The suite's package: its modules' node ids start ``conformance/`` wherever pytest runs."""


@functools.cache
def _suite_folder() -> Path | None:
    spec = importlib.util.find_spec(SUITE)
    locations = getattr(spec, "submodule_search_locations", None) if spec else None
    return Path(next(iter(locations))).resolve() if locations else None


def _in_suite(path: Path) -> PurePath | None:
    """``path`` relative to the suite's parent folder (``conformance/test_x.py``), or None
    for a file outside the suite."""
    folder = _suite_folder()
    if folder is None:
        return None
    try:
        relative = path.resolve().relative_to(folder.parent)
    except ValueError:
        return None
    return relative if relative.parts[0] == SUITE else None


def suite_arguments(args: list[str], cwd: Path, config: pytest.Config) -> list[str]:
    """The run's arguments with the suite's node ids made to work from any folder.

    Under ``--pyargs``, ``conformance/test_x.py::item`` (the node id a failure prints)
    names the installed module when no such file is under the current folder: it
    becomes ``conformance.test_x::item``. When arguments name items or
    modules inside the suite, a bare ``conformance`` beside them is dropped, so
    ``pytest --pyargs conformance <id>`` runs that one item, not the suite and the item.
    """
    if not config.option.pyargs:
        return list(args)
    prefix = f"{SUITE}/"
    converted = []
    for arg in args:
        path, sep, rest = arg.partition("::")
        if path.startswith(prefix) and path.endswith(".py") and not (cwd / path).exists():
            arg = f"{path.removesuffix('.py').replace('/', '.')}{sep}{rest}"
        converted.append(arg)
    if any(a.startswith((prefix, f"{SUITE}.")) for a in converted):
        converted = [a for a in converted if a not in (SUITE, prefix)]
    return converted


def wanted_items(args: list[str], cwd: Path) -> dict[str, set[str]] | None:
    """Suite module -> the items the arguments name in it (``test_x[id]``, or ``test_x``
    for all of a function's), for the modules named only by such node ids; None when an
    argument may hold more than named items (a folder, a module without ``::``, a file
    outside the suite), so collection builds everything as usual."""
    if not args:
        return None
    wanted: dict[str, set[str]] = {}
    for arg in args:
        path, sep, rest = arg.partition("::")
        if not sep or not rest or "::" in rest:
            return None
        module = _suite_module(path, cwd)
        if module is None:
            return None
        wanted.setdefault(module, set()).add(rest)
    return wanted


def _suite_module(path: str, cwd: Path) -> str | None:
    """The dotted name of the suite module ``path`` names (dotted or a file), or None."""
    if path.startswith(f"{SUITE}.") and not path.endswith(".py"):
        return path
    relative = _in_suite(cwd / path) if path.endswith(".py") else None
    return ".".join(relative.with_suffix("").parts) if relative else None


def _cases_wanted(collector: pytest.Module, name: str) -> set[str] | None:
    """The case ids of function ``name`` the run's node ids select (None: every case)."""
    wanted = collector.config.stash.get(_WANTED, None)
    if wanted is None:
        return None
    names = wanted.get(collector.obj.__name__)
    if names is None:  # no argument names this module: pytest will not keep its items
        return None
    if name in names:
        return None
    return {n[len(name) + 1 : -1] for n in names if n.startswith(f"{name}[") and n.endswith("]")}


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector):
    """A suite module's node id is ``conformance/test_x.py`` wherever pytest runs (run from
    another folder, pytest would call it ``test_x.py`` or nothing at all)."""
    relative = None if module_path.name == "__init__.py" else _in_suite(module_path)
    if relative is None:
        return None
    return pytest.Module.from_parent(parent, path=module_path, nodeid=relative.as_posix())


@pytest.hookimpl(tryfirst=True)  # before hypothesis's plugin loads --hypothesis-profile
def pytest_configure(config: pytest.Config) -> None:
    _CONFIGURED.append(config)
    BREAKER.reset(config.getoption("--hal-hang-limit"))
    config.args[:] = suite_arguments(config.args, config.invocation_params.dir, config)
    config.stash[_WANTED] = wanted_items(config.args, config.invocation_params.dir)
    if not hasattr(config, "workerinput"):  # the process that prints
        config.pluginmanager.register(
            RepeatedFailures(config.getoption("--nnhal-repeats")), "nnhal-repeats"
        )
    config.addinivalue_line(
        "markers", "hal_level(version): the test needs a driver of at least this HAL level"
    )
    config.addinivalue_line(
        "markers", "tier(name): parity (what Android 10 VTS checks) or strict (beyond it)"
    )
    config.addinivalue_line(
        "markers",
        "generated_case(folder, operations): a generated case; -k also matches its HAL folder "
        "and operation names",
    )
    config.addinivalue_line("markers", "generated: category: generated test cases")
    config.addinivalue_line("markers", "validate_model: category: model validation (mutations)")
    config.addinivalue_line("markers", "validate_request: category: request validation (mutations)")
    config.addinivalue_line(
        "markers", "validation_family(name): the mutation family a validation test runs"
    )
    config.addinivalue_line(
        "markers",
        "category(name): the report category of a test, where its module name does not say it",
    )
    for folder in ("V1_0", "V1_1", "V1_2"):
        config.addinivalue_line("markers", f"{folder}: a test from the {folder} spec folder")
    cap = config.getoption("--hal-version")
    if cap is not None:
        try:
            HalVersion.parse(cap)
        except ValueError as e:
            raise pytest.UsageError(f"--hal-version={cap}: {e}") from None
    _check_operation_names(config.getoption("--nnhal-op"))
    timeout = config.getoption("--hal-timeout")
    if not timeout > 0:
        raise pytest.UsageError(f"--hal-timeout={timeout:g}: must be a positive number of seconds")
    _load_hypothesis_profile(config)
    packs.configure(config)
    spec = config.getoption("--driver")
    if spec is not None:
        config.stash[_LOADED] = _load(config, spec)
    if any(config.getoption(o) is not None for o in ("--cert-report", "--shard", "--expect-fail")):
        from plugins.report.collector import configure

        configure(config)


def _register_hypothesis_profiles() -> None:
    from hypothesis import HealthCheck, Phase, settings

    common = {
        "deadline": None,
        "database": None,
        "print_blob": True,
        # The explain phase re-runs failing examples under a tracer: slow, and the mutation
        # sentence already says what broke.
        "phases": [phase for phase in Phase if phase != Phase.explain],
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
    }
    for name in PROFILES:
        settings.register_profile(
            f"nnhal-{name}",
            max_examples=HYPOTHESIS_EXAMPLES[name],
            # ci and full are reproducible (also under xdist); thorough explores anew each run
            # (--hypothesis-seed fixes it).
            derandomize=name != "thorough",
            **common,
        )


def _without_source_constants() -> Callable[[], None] | None:
    """Keep hypothesis from mixing literals of the loaded source files into its draws.

    Hypothesis (6.131 and later) parses every loaded module outside site-packages
    -- the suite's generated specs, and the driver under test -- and now and then
    draws one of their literals. The suite's draws would then depend on which
    modules a run happened to import (a one-item rerun imports fewer than a full
    run, so a sampled failure could vanish on rerun) and on the driver's own
    source; the parse also costs seconds at every collection and writes a cache
    under ./.hypothesis. Returns the undo, or None where hypothesis has no such
    collection.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - an older or reorganised hypothesis
        return None
    original = getattr(providers, "_get_local_constants", None)
    empty = getattr(providers, "Constants", None)
    if original is None or empty is None:  # pragma: no cover - as above
        return None

    def no_constants():
        return empty()

    providers._get_local_constants = no_constants

    def restore() -> None:
        providers._get_local_constants = original

    return restore


def _load_hypothesis_profile(config: pytest.Config) -> None:
    """Load the hypothesis settings of ``--nnhal-profile``.

    The suite's settings (no deadline: a driver's time is bounded by
    ``--hal-timeout``; its example counts; derandomized but for thorough) are
    part of the profile a report names, so ``--hypothesis-profile`` may only
    name the same one; anything else is refused with one line.
    """
    from hypothesis import settings

    _register_hypothesis_profiles()
    profile = config.getoption("--nnhal-profile")
    wanted = f"nnhal-{profile}"
    named = config.getoption("hypothesis_profile", None)
    if named and named != wanted:
        if named in {f"nnhal-{p}" for p in PROFILES}:
            raise pytest.UsageError(
                f"--hypothesis-profile={named} contradicts --nnhal-profile={profile}: "
                f"give --nnhal-profile={named.removeprefix('nnhal-')}, which selects it"
            )
        raise pytest.UsageError(
            f"--hypothesis-profile={named}: the suite's hypothesis settings come from "
            "--nnhal-profile (ci, full, thorough: no deadline, the profile's example counts); "
            "choose one with --nnhal-profile (--hypothesis-seed fixes a thorough run)"
        )
    config.stash[_PREVIOUS_HYPOTHESIS_PROFILE] = settings.get_current_profile_name()
    settings.load_profile(wanted)
    config.stash[_SOURCE_CONSTANTS] = _without_source_constants()
    if profile == "thorough" and config.getoption("hypothesis_seed", None) is None:
        # New draws each run, from a seed the header and the report show (xdist hands the
        # controller's options, this seed included, to its workers).
        config.option.hypothesis_seed = str(random.SystemRandom().randrange(1 << 32))


def hypothesis_seed(config: pytest.Config) -> str | None:
    """The seed of the run's hypothesis draws where they differ between runs (thorough);
    None where the profile draws the same cases every run."""
    if config.getoption("--nnhal-profile") != "thorough":
        return None
    seed = config.getoption("hypothesis_seed", None)
    return None if seed is None else str(seed)


def pytest_unconfigure(config: pytest.Config) -> None:
    with contextlib.suppress(ValueError):
        _CONFIGURED.remove(config)
    guard = config.stash.get(_GUARD, None)
    if guard is not None and hasattr(guard, "close"):
        guard.close()
    watch = config.stash.get(_CRASH_WATCH, None)
    if watch is not None:
        watch.finish()
    previous = config.stash.get(_PREVIOUS_HYPOTHESIS_PROFILE, None)
    if previous is not None:
        from hypothesis import settings

        settings.load_profile(previous)
    restore = config.stash.get(_SOURCE_CONSTANTS, None)
    if restore is not None:
        restore()
    packs.unconfigure(config)


def nnhal_profile(config: pytest.Config) -> str:
    """The suite profile of the run: ``ci``, ``full`` or ``thorough``."""
    return config.getoption("--nnhal-profile")


def _load(config: pytest.Config, spec: str | None) -> LoadedDriver:
    """Load the driver behind the guard of ``--driver-isolation``."""
    from isolation.proxy import DriverService, InProcessGuard

    timeout = config.getoption("--hal-timeout")
    try:
        if config.getoption("--driver-isolation") == "process":
            service = DriverService(
                spec, timeout, sandbox=driver_sandbox(config), log_path=_driver_log(config)
            )
            loaded = service.start()
            if _is_xdist_controller(config):
                service.close()  # the workers run the tests, each with its own service
            else:
                config.stash[_GUARD] = service
                service.admit = BREAKER.admit
                service.on_hang = BREAKER.record
                _wake_on_crash(config, service)
            return loaded
        loaded = load_driver(spec)
    except DriverLoadError as e:
        raise pytest.UsageError(str(e)) from None
    guard = InProcessGuard(timeout)
    guard.admit = BREAKER.admit
    guard.on_hang = BREAKER.record
    config.stash[_GUARD] = guard
    return guard.wrap(loaded)


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
        "tamper_proof": sandbox.namespaces,
        "driver_logs": os.path.join(os.path.abspath(folder), "driver-logs") if folder else None,
    }


class _CrashWake:
    """Interrupts the main thread's wait (for a callback, a burst result) when the driver
    service dies during a test's call phase, so the test fails at once with the crash."""

    def __init__(self) -> None:
        self.running = False
        self.fault = None

    def handle(self, signum, frame) -> None:
        fault, self.fault = self.fault, None
        if fault is not None and self.running:
            from isolation.proxy import DriverCrashed

            raise DriverCrashed(fault.message, fault.method)

    def crashed(self, fault) -> None:
        import signal
        import threading

        if self.running:
            self.fault = fault
            signal.pthread_kill(threading.main_thread().ident, signal.SIGUSR2)


_WAKE = pytest.StashKey[_CrashWake]()


def _wake_on_crash(config: pytest.Config, service) -> None:
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    wake = _CrashWake()
    signal.signal(signal.SIGUSR2, wake.handle)
    service.on_idle_crash = wake.crashed
    config.stash[_WAKE] = wake


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    wake = item.config.stash.get(_WAKE, None)
    if wake is None:
        return (yield)
    wake.running = True
    try:
        return (yield)
    finally:
        wake.running = False
        wake.fault = None


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", 0))


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


def pytest_report_header(config: pytest.Config) -> list[str]:
    spec = config.getoption("--driver")
    profile = f"nnhal profile: {nnhal_profile(config)}"
    seed = hypothesis_seed(config)
    if seed is not None:
        profile += f" (hypothesis seed {seed}: --hypothesis-seed={seed} draws the same cases)"
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


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session):
    """Collect with the cyclic garbage collector off, then freeze what collection built.

    Collection makes a few hundred thousand long-lived objects (items, marks, the
    corpus) and almost no garbage; with the collector on, the oldest generation is
    scanned again and again as the heap grows. Frozen afterwards, those objects are
    never scanned again, so collections during the run only look at what tests make.
    """
    enabled = gc.isenabled()
    gc.disable()
    stage = _CollectionStage.start(session.config)
    try:
        return (yield)
    finally:
        if enabled:
            gc.freeze()  # no collection first: it would scan everything once more
            gc.enable()
        if stage is not None:
            stage.finish(len(session.items))


COLLECTED_LINE = "nnhal: collected {count:,} tests in {seconds:.1f} s"
"""The line that ends the collection stage (``nnhal-certify`` reads it from a shard's log)."""
_STAGE = pytest.StashKey["_CollectionStage"]()


class _CollectionStage:
    """Lines that make collection visible: it starts, large modules as they are done (with
    the running count), then how many tests were collected and how long it took."""

    MODULE_ITEMS = 1000
    MODULE_SECONDS = 1.0

    def __init__(self, writer) -> None:
        self.writer = writer
        self.started = self.last = time.monotonic()
        self.count = 0
        self.at_last = 0

    @classmethod
    def start(cls, config: pytest.Config) -> _CollectionStage | None:
        writer = config.pluginmanager.get_plugin("terminalreporter")
        if writer is None or _is_xdist_controller(config):
            return None  # under xdist the workers collect (pytest_xdist_node_collection_finished)
        stage = config.stash[_STAGE] = cls(writer)
        writer.write_line("nnhal: collecting tests ...")
        return stage

    def collected(self, report: pytest.CollectReport) -> None:
        now = time.monotonic()
        grown = self.count - self.at_last
        if grown >= self.MODULE_ITEMS or (grown and now - self.last >= self.MODULE_SECONDS):
            self.writer.write_line(
                f"nnhal: collecting ... {self.count:,} tests so far ({report.nodeid}, "
                f"{now - self.started:.1f} s)"
            )
        self.last, self.at_last = now, self.count

    def finish(self, selected: int) -> None:
        seconds = time.monotonic() - self.started
        line = COLLECTED_LINE.format(count=self.count, seconds=seconds)
        if selected != self.count:
            line += f" ({selected:,} selected)"
        self.writer.write_line(line)


def pytest_itemcollected(item: pytest.Item) -> None:
    stage = item.config.stash.get(_STAGE, None)
    if stage is not None:
        stage.count += 1


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if not report.nodeid.endswith(".py") or not _CONFIGURED:
        return
    stage = _CONFIGURED[-1].stash.get(_STAGE, None)
    if stage is not None:
        stage.collected(report)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    """Under pytest-xdist the workers collect: say when each has, with its count."""
    config = node.config
    writer = config.pluginmanager.get_plugin("terminalreporter")
    if writer is not None:
        started = config.stash.setdefault(_XDIST_STARTED, time.monotonic())
        seconds = time.monotonic() - started
        writer.write_line(
            f"nnhal: worker {node.gateway.id} "
            + COLLECTED_LINE.format(count=len(ids), seconds=seconds).removeprefix("nnhal: ")
        )


_XDIST_STARTED = pytest.StashKey[float]()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list) -> None:
    config.stash[_XDIST_STARTED] = time.monotonic()
    writer = config.pluginmanager.get_plugin("terminalreporter")
    if writer is not None:
        writer.write_line(f"nnhal: {len(specs)} workers collecting tests ...")


CASES_ATTRIBUTE = "nnhal_cases"
"""A test function carrying ``(argnames, make)`` under this name is collected as one item
per ``pytest.param`` that ``make(config)`` gives (``conformance.harness.marks.cases``)."""


class CaseItem(pytest.Function):
    """One case of a test function collected through ``CASES_ATTRIBUTE``.

    Like an item of ``pytest.mark.parametrize`` (the same node id, marks and
    keywords), but the values are bound to the function beforehand: pytest
    sets up no fixture for the arguments, which for a parametrized argument
    costs every test a fixture definition, a sub-request and its teardown.
    ``case_params`` and ``case_id`` stand for ``callspec``'s ``params`` and ``id``.
    """

    def __init__(self, *, case_params: dict, case_id: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case_params = case_params
        self.case_id = case_id


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object):
    spec = getattr(obj, CASES_ATTRIBUTE, None)
    if spec is None or not callable(obj) or not isinstance(collector, pytest.Module):
        return None
    argnames, make = spec
    own_marks = list(getattr(obj, "pytestmark", []))
    items: list[CaseItem] = []
    wanted = _cases_wanted(collector, name)
    if wanted is not None and not wanted:
        return items  # the run names other items only: skip making this function's cases
    seen: set[str] = set()
    selects: Callable[[object], bool] | None = None
    unbuilt = 0
    for param in make(collector.config):
        if param.id in seen:
            raise pytest.Collector.CollectError(
                f"{collector.nodeid}::{name}: two cases have the id {param.id!r}; every case "
                "needs its own id (each item must be rerunnable alone)"
            )
        seen.add(param.id)
        if wanted is not None and param.id not in wanted:
            unbuilt += 1
            continue
        if selects is None:
            selects = _selection(
                collector, _case_item(collector, name, obj, own_marks, argnames, param, None)
            )
        if not selects(param):
            unbuilt += 1
            continue
        # Every case has the fixtures of the first (resolved once: per item it would
        # double the collection time).
        shared = getattr(items[0], "_fixtureinfo", None) if items else None
        item = _case_item(collector, name, obj, own_marks, argnames, param, shared)
        for marker in param.marks:
            item.add_marker(marker)
        items.append(item)
    if unbuilt:
        collector.config.stash[_UNBUILT] = collector.config.stash.get(_UNBUILT, 0) + unbuilt
    return items


def _case_item(collector, name, obj, own_marks, argnames, param, fixtureinfo) -> CaseItem:
    """The item of one case (without the case's own marks)."""
    bound = dict(zip(argnames, param.values, strict=True))
    call = functools.partial(obj, **bound)
    call.pytestmark = own_marks  # the function's own marks, read where pytest reads them
    return CaseItem.from_parent(
        collector,
        name=f"{name}[{param.id}]",
        callobj=call,
        fixtureinfo=fixtureinfo,
        case_params=bound,
        case_id=param.id,
    )


def _selection(collector: pytest.Collector, probe: CaseItem) -> Callable[[object], bool]:
    """Whether a case's item would survive the run's ``-k`` and ``-m``, told from its id and
    marks before the item is built (building 65,000 items to keep ten took most of a
    selective run's collection).

    Every case of a function shares its module, function and markers in scope: they are
    read once off ``probe`` (an item of the first case without its own marks), the way
    pytest's own matchers read them; each case adds its name, its marks and the folder
    and operations ``pytest_collection_modifyitems`` adds as keywords. Anything this
    cannot read as pytest would (pytest internals changed, a bad expression, known
    failures adding xfail marks) keeps every case, and pytest's own deselection decides.
    """
    config = collector.config
    keyword, markexpr = config.option.keyword.strip(), config.option.markexpr.strip()
    if not (keyword or markexpr) or config.getoption("--expect-fail", None):
        return _every_case
    try:
        from _pytest.mark import KeywordMatcher, MarkMatcher
        from _pytest.mark.expression import Expression

        by_keyword = Expression.compile(keyword) if keyword else None
        by_mark = Expression.compile(markexpr) if markexpr else None
        markers = list(probe.iter_markers())
        names = set(KeywordMatcher.from_item(probe)._names) - {probe.name}
        names |= _case_keywords(markers)
    except Exception:
        return _every_case
    function = probe.name.partition("[")[0]

    def selects(param) -> bool:
        marks = [getattr(m, "mark", m) for m in param.marks]
        if by_keyword is not None:
            own = {f"{function}[{param.id}]", *(m.name for m in marks), *_case_keywords(marks)}
            if not by_keyword.evaluate(KeywordMatcher(names | own)):
                return False
        return by_mark is None or by_mark.evaluate(MarkMatcher.from_markers(markers + marks))

    return selects


def _case_keywords(marks) -> set[str]:
    """The keywords ``pytest_collection_modifyitems`` gives a generated case's item."""
    found: set[str] = set()
    for mark in marks:
        if mark.name == "generated_case":
            found.update({mark.args[0], *mark.args[1]})
    return found


def _every_case(param) -> bool:
    return True


def unbuilt_cases(config: pytest.Config) -> int:
    """Cases a selection (node ids, ``-k``, ``-m``) left out before their items were built.

    pytest never saw them, so it counts them nowhere (its summary reads ``N tests
    collected`` as for any node-id run); a certification report counts them as deselected,
    so that a partial run never reads as the whole suite.
    """
    return config.stash.get(_UNBUILT, 0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        marker = item.get_closest_marker("generated_case")
        if marker is not None:
            item.extra_keyword_matches.update(_case_keywords([marker]))
    if config.getoption("--nnhal-smoke"):
        _keep(config, items, smoke_sample(items))
    wanted = set(config.getoption("--nnhal-op"))
    if wanted:
        _keep(config, items, [item for item in items if wanted & set(item_operations(item))])


SMOKE_PER_TEST = 2
"""Items a smoke run keeps of each test function."""


def smoke_sample(items: list[pytest.Item]) -> list[pytest.Item]:
    """``SMOKE_PER_TEST`` items of each test function (every category has some): those whose
    test id hashes lowest, the same on every machine and run."""
    import hashlib

    groups: dict[tuple, list[tuple[bytes, int]]] = {}
    for position, item in enumerate(items):
        module = getattr(item, "module", None)
        key = (module and module.__name__, item.name.partition("[")[0])
        digest = hashlib.sha256(test_id(item).encode()).digest()
        groups.setdefault(key, []).append((digest, position))
    chosen = sorted(p for group in groups.values() for _, p in sorted(group)[:SMOKE_PER_TEST])
    return [items[p] for p in chosen]


def _keep(config: pytest.Config, items: list[pytest.Item], kept: list[pytest.Item]) -> None:
    """Leave ``kept`` in ``items``, deselecting the rest."""
    keep = {id(item) for item in kept}
    dropped = [item for item in items if id(item) not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _check_operation_names(names: list[str]) -> None:
    """Every ``--nnhal-op`` must name an operation exactly; else a one-line usage error."""
    import difflib

    from hal.types import OperationType

    known = list(OperationType.__members__)
    for name in names:
        if name not in OperationType.__members__:
            close = difflib.get_close_matches(name.upper(), known, n=3)
            hint = f"did you mean {', '.join(close)}?" if close else "e.g. ADD, CONV_2D"
            raise pytest.UsageError(
                f"--nnhal-op={name}: unknown operation (an OperationType name, exact; {hint})"
            )


def item_operations(item: pytest.Item) -> list[str]:
    """The operations a test exercises: its generated case's, or none it can name."""
    marker = item.get_closest_marker("generated_case")
    if marker is not None and len(marker.args) > 1:
        return [str(op) for op in marker.args[1]]
    from plugins.report.facts import item_facts

    return item_facts(item)["operations"]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> None:
    """Restart a driver service that died or hung in an earlier test, then run this one."""
    config = item.config
    BREAKER.begin_item()
    guard = config.stash.get(_GUARD, None)
    if guard is not None and hasattr(guard, "ensure_running"):
        # If no fresh service starts, the test's first driver call reports the dead one.
        with contextlib.suppress(DriverLoadError):
            guard.ensure_running()
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
    guard = session.config.stash.get(_GUARD, None)
    if guard is not None and hasattr(guard, "ensure_running"):
        with contextlib.suppress(DriverLoadError):
            guard.ensure_running()


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Driver faults fail the phase they happened in; every failure of a suite item ends
    with the command that reruns exactly that item."""
    report = yield
    _driver_faults(item, call, report)
    _add_rerun(item, report)
    return report


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
    properties = [("nnhal_fault", faults[0].message), ("nnhal_fault_method", faults[0].method)]
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


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("hal_level")
    if marker is None:
        return
    needed = HalVersion.parse(str(marker.args[0]))
    level = tested_level(item.config)
    if level < needed:
        pytest.skip(f"needs HAL {needed}; the driver is tested at HAL {level}")


def active_config() -> pytest.Config:
    """The config of the innermost pytest run under way in this process."""
    if not _CONFIGURED:
        raise RuntimeError("no pytest run with the nnhal plugin is configured in this process")
    return _CONFIGURED[-1]


@pytest.fixture(scope="session")
def nnhal_config() -> pytest.Config:
    """The run's config, as ``pytestconfig`` gives it, without pytest's ``request``.

    ``pytestconfig`` depends on ``request``, and pytest makes a new fixture
    definition for ``request`` in every test whose closure holds it (some 50 us
    a test). The suite's tests and session fixtures use this one instead, so
    most tests have no ``request`` in their closure.
    """
    return active_config()


@dataclass(frozen=True)
class SuiteRun:
    """What a conformance test needs of the run, as the ``nnhal`` fixture gives it."""

    config: pytest.Config
    device: object
    """The driver under test (an ``hal.IDevice`` of some level), behind its guard."""
    level: HalVersion
    """The HAL level tested: the driver's, capped by ``--hal-version``."""
    timeout: float
    """Seconds any single wait on the driver may last (``--hal-timeout``)."""


@pytest.fixture(scope="session")
def nnhal() -> SuiteRun:
    """The device, tested level, timeout and config of the run in one fixture.

    The same values as ``device``, ``hal_level``, ``hal_timeout`` and
    ``nnhal_config``; pytest looks up every fixture in a test's closure before
    each test (some 30 us apiece), so the suite's many small tests take this one.
    """
    config = active_config()
    level = tested_level(config)
    return SuiteRun(config, loaded_driver(config).device, level, config.getoption("--hal-timeout"))


@pytest.fixture(scope="session")
def nnhal_driver(nnhal_config: pytest.Config) -> LoadedDriver:
    """The loaded driver: its specification, device object and HAL level."""
    return loaded_driver(nnhal_config)


@pytest.fixture(scope="session")
def device(nnhal_driver: LoadedDriver):
    """The driver under test (an ``hal.IDevice`` of some level)."""
    return nnhal_driver.device


@pytest.fixture(scope="session")
def hal_level(nnhal_config: pytest.Config) -> HalVersion:
    """The HAL level the suite tests: the driver's, capped by ``--hal-version``."""
    return tested_level(nnhal_config)


@pytest.fixture(scope="session")
def hal_timeout(nnhal_config: pytest.Config) -> float:
    """Seconds any single wait on the driver may last (``--hal-timeout``)."""
    return nnhal_config.getoption("--hal-timeout")
