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
* ``--nnhal-profile=ci|full|thorough``: how much of the suite to run (docs/validation.md,
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
  ``--nnhal-smoke`` keeps a small deterministic sample of every test function
  (of what ``--nnhal-op`` keeps), of the items the driver says it supports
  (``plugins.collection.DriverSupport``). Either run is not a certificate. Collection prints its progress and ends with
  ``nnhal: collected N tests in T s`` (and ``(K selected, M deselected by ...)``:
  the counts of ``plugins.report.counts``); the run names each category as it starts.

Fixtures (session-scoped): ``nnhal`` (a ``SuiteRun``: device, tested level,
timeout and config in one), ``device``, ``hal_level``, ``hal_timeout``,
``nnhal_config`` and ``nnhal_driver``. A test function marked with
``conformance.harness.marks.cases`` is collected as ``CaseItem``s, one per
case, like a parametrized one but without a fixture per argument.

This module is the light entry point: every pytest run in an environment with
the package installed imports it, so it imports nothing of the suite, the HAL,
the isolation or numpy (``tests/plugin/test_plugin_import.py`` checks it). It declares
the options (the defaults other modules own are repeated here as plain
constants, and that test checks they still agree) and the fixtures, and in
``pytest_configure`` registers the parts that do the work, only when the run
uses the suite (as pytest-xdist registers its machinery only under ``-n``):

* ``plugins.collection``: node ids from any folder, the items a run names,
  ``CaseItem``, selection before items are built, ``--nnhal-op`` and the smoke
  sample, the collection progress lines;
* ``plugins.running``: the hang breaker, crash handling, the runtest and
  report hooks (driver faults, rerun lines, repeated failures, the
  certification report), the header; it loads the driver through
  ``plugins.driver`` (behind its guard: ``--driver-isolation``, the sandbox),
  which also holds it for the fixtures and the report; ``plugins.profiles``:
  the hypothesis profile of ``--nnhal-profile``.

The names this module shares with those parts (the suite's package, the
profiles, the runs under way) live in ``plugins.suite``, as light as this
module, so that no part imports the entry module back.

Activation: a run uses the suite, and gets those parts, when

1. it is a pytest-xdist worker of a run that does (the controller says so in
   ``workerinput``; a worker decides nothing by itself);
2. an nnhal option is given explicitly, whatever its value (on the command
   line, in ``PYTEST_ADDOPTS`` or the ini file's ``addopts``): ``--driver``,
   ``--shard``, ``--cert-report``, ``--nnhal-specs``, ``--nnhal-profile=full``...,
   or ``--hypothesis-profile`` naming one of the suite's profiles (``nnhal-ci``...)
   -- so ``nnhal-certify``, whose pytest commands name ``--driver``, always does;
3. an argument names the suite: under ``--pyargs``, ``conformance``,
   ``conformance.MODULE[::ITEM]`` or ``conformance/FILE.py[::ITEM]``; or any
   path inside the installed ``conformance`` folder, or a folder holding it
   (which collects it);
4. or its rootdir is the project that holds the installed suite (a source
   checkout of the harness, where its own tests run).

Any other run, such as another project's tests in the same environment,
loads nothing but this module: no header or collection lines, no hypothesis
profile, and the fixtures say how to turn the plugin on. To use the fixtures
in test files of one's own, give any nnhal option (``--driver=reference``).

Nothing heavy happens at import. A driver named with ``--driver`` is loaded
while pytest configures, so a bad specification stops the run at once with
one line and pytest's usage-error exit code; the default driver is loaded
when a test first needs it.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from plugins import packs
from plugins.options import whole_number
from plugins.suite import (
    DEFAULT_PROFILE,
    PROFILES,
    SMOKE_PER_TEST,
    SUITE,
    innermost_run,
    run_ended,
    run_started,
    suite_folder,
)

if TYPE_CHECKING:
    from hal.loader import LoadedDriver
    from hal.types import HalVersion

# Defaults and choices owned by modules this one must not import (tests/plugin/test_plugin_import.py
# checks each against its owner).
DEFAULT_DRIVER = "reference"
"""``hal.loader.DEFAULT_DRIVER``."""
DEFAULT_TIMEOUT = 60.0
"""``hal.callbacks.DEFAULT_TIMEOUT``."""
HANG_LIMIT = 2
"""``conformance.harness.hangs.DEFAULT_LIMIT``."""
DEFAULT_REPEATS = 3
"""``plugins.repeats.DEFAULT_REPEATS``."""
CONTAINMENTS = ("auto", "bubblewrap", "unshare", "process-group")
"""``isolation.sandbox.CONTAINMENTS``."""
DEFAULT_ADDRESS_SPACE_MB = 8192
"""``isolation.sandbox.DEFAULT_ADDRESS_SPACE_MB``."""

ISOLATION_MODES = ("none", "process")

OPTION_DEFAULTS: dict[str, object] = {
    "--driver": None,
    "--hal-version": None,
    "--hal-timeout": DEFAULT_TIMEOUT,
    "--hal-hang-limit": HANG_LIMIT,
    "--nnhal-repeats": DEFAULT_REPEATS,
    "--driver-isolation": "none",
    "--driver-containment": "auto",
    "--driver-memory-limit": 0.0,
    "--driver-folder": None,
    "--driver-hide": [],
    "--nnhal-profile": DEFAULT_PROFILE,
    "--nnhal-seed": None,
    "--nnhal-op": [],
    "--nnhal-smoke": False,
    packs.OPTION: [],
    packs.TIMEOUT_OPTION: packs.DEFAULT_TIMEOUT,
    "--cert-report": None,
    "--shard": None,
    "--expect-fail": None,
}
"""Every nnhal option and its default: any of them given turns the plugin on."""
_HYPOTHESIS_PROFILES = frozenset(f"nnhal-{profile}" for profile in PROFILES)

_SUITE_REASON = pytest.StashKey["str | None"]()
"""Why the run uses the suite (see the module's docstring), None if it does not."""
WORKER_KEY = "nnhal_uses_suite"
"""The controller's decision, handed to each pytest-xdist worker in ``workerinput``."""


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
        "--driver-folder",
        metavar="DIR",
        default=None,
        help="where the driver's module (module:Factory) is looked for besides the Python path; "
        "with --driver-isolation=process the driver sees it read-only (default: the current "
        "folder; nnhal-certify passes the folder it was started from)",
    )
    group.addoption(
        "--driver-hide",
        metavar="PATH",
        action="append",
        default=[],
        help="with --driver-isolation=process in namespaces, a path the driver's view shows "
        "empty, besides the suite's packages, the report folder and the harness's folder "
        "(repeatable)",
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
        "--nnhal-seed",
        metavar="N",
        type=whole_number,
        default=None,
        help="the run's seed: the cases the parameter-space, random-graph and validation tests "
        "draw, and the fresh inputs of test_generated_fresh. Default: drawn anew for each run "
        "under profiles full and thorough (the header and the report show it; give it to draw "
        "the same cases again), none under ci (the same draws every run)",
    )
    group.addoption(
        "--nnhal-op",
        metavar="NAME",
        action="append",
        default=[],
        help="run only the tests of this operation (exact OperationType name, e.g. CONV_2D, "
        "or a vendor extension's, e.g. com.acme.vision:NEGATE; repeatable), in every "
        "category; a filtered run is not a certificate",
    )
    group.addoption(
        "--nnhal-smoke",
        action="store_true",
        default=False,
        help=f"a first try: run a deterministic sample ({SMOKE_PER_TEST} cases of each test "
        "function, every category, of what the driver says it supports); never a certificate",
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


# -- activation -----------------------------------------------------------------------


def suite_reason(config: pytest.Config) -> str | None:
    """Why the run uses the suite (the rule of this module's docstring), None if it does not."""
    worker = getattr(config, "workerinput", None)
    if worker is not None and WORKER_KEY in worker:
        return "the xdist controller's run uses the suite" if worker[WORKER_KEY] else None
    option = _option_given(config)
    if option is not None:
        return f"{option} is given"
    named = _suite_argument(config)
    if named is not None:
        return f"{named} names the suite"
    folder = suite_folder()
    if folder is not None and Path(config.rootpath).resolve() == folder.parent:
        return "the rootdir is the suite's own project"
    return None


def uses_suite(config: pytest.Config) -> bool:
    """Whether this run registered the suite's parts (decided in ``pytest_configure``)."""
    return config.stash.get(_SUITE_REASON, None) is not None


def _option_given(config: pytest.Config) -> str | None:
    for option, default in OPTION_DEFAULTS.items():
        if config.getoption(option, default) != default:
            return option
    words = [str(arg) for arg in config.invocation_params.args]
    with contextlib.suppress(ValueError):
        words += shlex.split(os.environ.get("PYTEST_ADDOPTS", ""))
    with contextlib.suppress(ValueError):
        words += [str(word) for word in config.getini("addopts")]
    for word in words:
        name = word.partition("=")[0]
        if name in OPTION_DEFAULTS:
            return name
    # A hypothesis profile only this plugin registers (hypothesis would not know it).
    if config.getoption("hypothesis_profile", None) in _HYPOTHESIS_PROFILES:
        return "--hypothesis-profile"
    return None


def _suite_argument(config: pytest.Config) -> str | None:
    """The first argument that names the suite or a path of it (or above it), if any."""
    folder = suite_folder()
    start = Path(config.invocation_params.dir)
    for arg in config.args:
        path = str(arg).partition("::")[0]
        if config.option.pyargs and (path == SUITE or path.startswith((f"{SUITE}.", f"{SUITE}/"))):
            return str(arg)
        if folder is None or not path:
            continue
        try:
            target = (start / path).resolve()
        except (OSError, RuntimeError):
            continue
        if target == folder or folder in target.parents or target in folder.parents:
            return str(arg)
    return None


@pytest.hookimpl(tryfirst=True)  # before hypothesis's plugin loads --hypothesis-profile
def pytest_configure(config: pytest.Config) -> None:
    run_started(config)
    reason = config.stash[_SUITE_REASON] = suite_reason(config)
    if reason is None:
        return
    from plugins import collection, running

    # Registered first: if configuring fails, their pytest_unconfigure still cleans up.
    config.pluginmanager.register(collection, "nnhal-collection")
    config.pluginmanager.register(running, "nnhal-running")
    running.configure(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    run_ended(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Each pytest-xdist worker uses the suite exactly when its controller does."""
    node.workerinput[WORKER_KEY] = uses_suite(node.config)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    # Here rather than in plugins.running, so that the lines keep their place among the
    # other plugins' (pytest prints them in the order the plugins were registered).
    if not uses_suite(config):
        return None
    from plugins.running import header_lines

    return header_lines(config)


# -- fixtures -------------------------------------------------------------------------


def active_config() -> pytest.Config:
    """The config of the innermost pytest run under way in this process."""
    config = innermost_run()
    if config is None:
        raise RuntimeError("no pytest run with the nnhal plugin is configured in this process")
    return config


def _suite_config() -> pytest.Config:
    """``active_config()``, which must be a run that uses the suite."""
    config = active_config()
    if not uses_suite(config):
        pytest.fail(
            "the nnhal fixtures need a run that uses the suite: this one names no part of "
            "it and no nnhal option (give one, e.g. --driver=reference)",
            pytrace=False,
        )
    return config


@pytest.fixture(scope="session")
def nnhal_config() -> pytest.Config:
    """The run's config, as ``pytestconfig`` gives it, without pytest's ``request``.

    ``pytestconfig`` depends on ``request``, and pytest makes a new fixture
    definition for ``request`` in every test whose closure holds it (some 50 us
    a test). The suite's tests and session fixtures use this one instead, so
    most tests have no ``request`` in their closure.
    """
    return _suite_config()


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
    from plugins.driver import loaded_driver, tested_level

    config = _suite_config()
    level = tested_level(config)
    return SuiteRun(config, loaded_driver(config).device, level, config.getoption("--hal-timeout"))


@pytest.fixture(scope="session")
def nnhal_driver(nnhal_config: pytest.Config) -> LoadedDriver:
    """The loaded driver: its specification, device object and HAL level."""
    from plugins.driver import loaded_driver

    return loaded_driver(nnhal_config)


@pytest.fixture(scope="session")
def device(nnhal_driver: LoadedDriver):
    """The driver under test (an ``hal.IDevice`` of some level)."""
    return nnhal_driver.device


@pytest.fixture(scope="session")
def hal_level(nnhal_config: pytest.Config) -> HalVersion:
    """The HAL level the suite tests: the driver's, capped by ``--hal-version``."""
    from plugins.driver import tested_level

    return tested_level(nnhal_config)


@pytest.fixture(scope="session")
def hal_timeout(nnhal_config: pytest.Config) -> float:
    """Seconds any single wait on the driver may last (``--hal-timeout``)."""
    return nnhal_config.getoption("--hal-timeout")
