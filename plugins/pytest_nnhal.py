"""The pytest plugin: choose the driver under test and hand it to the suite.

Registered under the ``pytest11`` entry point as ``nnhal``, so an installed
``pytest --pyargs conformance`` has it. Options:

* ``--driver=SPEC``: ``module:Factory`` or a registered driver name; without
  it the bundled reference driver is used, and the header says so;
* ``--hal-version=1.0|1.1|1.2``: test no level above this one;
* ``--hal-timeout=SECONDS``: how long any wait on the driver may last;
* ``--nnhal-profile=ci|full|thorough``: how much of the suite to run (DESIGN.md
  "Profiles"); it also selects the hypothesis settings of the same name
  (``nnhal-ci``, ``nnhal-full``, ``nnhal-thorough``), unless
  ``--hypothesis-profile`` names another;
* ``--cert-report=DIR``: write the certification report (report.json, .html,
  .md) there; ``--shard=K/N`` runs one of N stable parts of the collected
  tests; ``--expect-fail=FILE`` lists known failures (``plugins.report``).

Nothing heavy happens at import. A driver named with ``--driver`` is loaded
while pytest configures, so a bad specification stops the run at once with
one line and pytest's usage-error exit code; the default driver is loaded
when a test first needs it.
"""

from __future__ import annotations

import pytest

from hal.callbacks import DEFAULT_TIMEOUT
from hal.loader import DEFAULT_DRIVER, DriverLoadError, LoadedDriver, load_driver
from hal.types import HalVersion

_LOADED = pytest.StashKey[LoadedDriver]()
_PREVIOUS_HYPOTHESIS_PROFILE = pytest.StashKey[str]()

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
        "--nnhal-profile",
        choices=PROFILES,
        default=DEFAULT_PROFILE,
        help="ci: fast, derandomized, few hypothesis examples (this project's CI); full: the "
        "certification run, deterministic; thorough: full plus many hypothesis examples "
        f"(default: {DEFAULT_PROFILE})",
    )
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


def pytest_configure(config: pytest.Config) -> None:
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
    timeout = config.getoption("--hal-timeout")
    if not timeout > 0:
        raise pytest.UsageError(f"--hal-timeout={timeout:g}: must be a positive number of seconds")
    _load_hypothesis_profile(config)
    spec = config.getoption("--driver")
    if spec is not None:
        config.stash[_LOADED] = _load(spec)
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


def _load_hypothesis_profile(config: pytest.Config) -> None:
    """Load the hypothesis settings of ``--nnhal-profile`` (``--hypothesis-profile`` wins)."""
    if config.getoption("hypothesis_profile", None):
        return
    from hypothesis import settings

    _register_hypothesis_profiles()
    config.stash[_PREVIOUS_HYPOTHESIS_PROFILE] = settings.get_current_profile_name()
    settings.load_profile(f"nnhal-{config.getoption('--nnhal-profile')}")


def pytest_unconfigure(config: pytest.Config) -> None:
    previous = config.stash.get(_PREVIOUS_HYPOTHESIS_PROFILE, None)
    if previous is not None:
        from hypothesis import settings

        settings.load_profile(previous)


def nnhal_profile(config: pytest.Config) -> str:
    """The suite profile of the run: ``ci``, ``full`` or ``thorough``."""
    return config.getoption("--nnhal-profile")


def _load(spec: str | None) -> LoadedDriver:
    try:
        return load_driver(spec)
    except DriverLoadError as e:
        raise pytest.UsageError(str(e)) from None


def loaded_driver(config: pytest.Config) -> LoadedDriver:
    """The driver under test, loading the default one on first use."""
    if _LOADED not in config.stash:
        config.stash[_LOADED] = _load(None)
    return config.stash[_LOADED]


def tested_level(config: pytest.Config) -> HalVersion:
    """The driver's HAL level, capped by ``--hal-version``."""
    level = loaded_driver(config).level
    cap = config.getoption("--hal-version")
    return min(level, HalVersion.parse(cap)) if cap is not None else level


def pytest_report_header(config: pytest.Config) -> list[str]:
    spec = config.getoption("--driver")
    profile = f"nnhal profile: {nnhal_profile(config)}"
    if spec is None:
        return [f"driver: {DEFAULT_DRIVER} (default)", profile]
    loaded = config.stash[_LOADED]
    return [
        f"driver: {loaded.describe()} (HAL {loaded.level}, tested up to {tested_level(config)})",
        profile,
    ]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        marker = item.get_closest_marker("generated_case")
        if marker is not None:
            folder, operations = marker.args
            item.extra_keyword_matches.update({folder, *operations})


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("hal_level")
    if marker is None:
        return
    needed = HalVersion.parse(str(marker.args[0]))
    level = tested_level(item.config)
    if level < needed:
        pytest.skip(f"needs HAL {needed}; the driver is tested at HAL {level}")


@pytest.fixture(scope="session")
def nnhal_driver(pytestconfig: pytest.Config) -> LoadedDriver:
    """The loaded driver: its specification, device object and HAL level."""
    return loaded_driver(pytestconfig)


@pytest.fixture(scope="session")
def device(nnhal_driver: LoadedDriver):
    """The driver under test (an ``hal.IDevice`` of some level)."""
    return nnhal_driver.device


@pytest.fixture(scope="session")
def hal_level(pytestconfig: pytest.Config) -> HalVersion:
    """The HAL level the suite tests: the driver's, capped by ``--hal-version``."""
    return tested_level(pytestconfig)


@pytest.fixture(scope="session")
def hal_timeout(pytestconfig: pytest.Config) -> float:
    """Seconds any single wait on the driver may last (``--hal-timeout``)."""
    return pytestconfig.getoption("--hal-timeout")
