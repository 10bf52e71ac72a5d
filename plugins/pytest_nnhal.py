"""The pytest plugin: choose the driver under test and hand it to the suite.

Registered under the ``pytest11`` entry point as ``nnhal``, so an installed
``pytest --pyargs conformance`` has it. Options:

* ``--driver=SPEC``: ``module:Factory`` or a registered driver name; without
  it the bundled reference driver is used, and the header says so;
* ``--hal-version=1.0|1.1|1.2``: test no level above this one;
* ``--hal-timeout=SECONDS``: how long any wait on the driver may last.

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
    spec = config.getoption("--driver")
    if spec is not None:
        config.stash[_LOADED] = _load(spec)


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
    if spec is None:
        return [f"driver: {DEFAULT_DRIVER} (default)"]
    loaded = config.stash[_LOADED]
    return [
        f"driver: {loaded.describe()} (HAL {loaded.level}, tested up to {tested_level(config)})"
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
