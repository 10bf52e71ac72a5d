"""The driver under test: loading it behind its guard, and what the run keeps of it.

``plugins.running`` loads the driver ``--driver`` names while pytest configures
(``configure``), so that a bad specification stops the run at once; the default
driver is loaded when a test first needs it (``loaded_driver``). Either way it
runs in this process behind an ``InProcessGuard``, or in a driver service
process (``--driver-isolation=process``) in the ``--driver-containment``
sandbox. The loaded driver, its guard and its sandbox are kept in the run's
config: the fixtures of ``plugins.pytest_nnhal``, the hooks of
``plugins.running`` and the report (``plugins.report.collector``) all read
them here.
"""

from __future__ import annotations

import os

import pytest

from conformance.harness.hangs import BREAKER
from hal.loader import DriverLoadError, LoadedDriver, load_driver
from hal.types import HalVersion
from plugins.suite import is_xdist_controller

_LOADED = pytest.StashKey[LoadedDriver]()
_GUARD = pytest.StashKey[object]()
_SANDBOX = pytest.StashKey[object]()
_TESTED_LEVEL = pytest.StashKey[HalVersion]()


def configure(config: pytest.Config) -> None:
    """Load the driver ``--driver`` names, if it names one: a driver that cannot be loaded
    is a usage error, now."""
    spec = config.getoption("--driver")
    if spec is not None:
        config.stash[_LOADED] = _load(config, spec)


def loaded_driver(config: pytest.Config) -> LoadedDriver:
    """The driver under test, loading the default one on first use."""
    if _LOADED not in config.stash:
        config.stash[_LOADED] = _load(config, None)
    return config.stash[_LOADED]


def tested_level(config: pytest.Config) -> HalVersion:
    """The driver's HAL level, capped by ``--hal-version`` (worked out once per run: every
    test with a ``hal_level`` mark asks)."""
    if _TESTED_LEVEL not in config.stash:
        level = loaded_driver(config).level
        cap = config.getoption("--hal-version")
        config.stash[_TESTED_LEVEL] = (
            min(level, HalVersion.parse(cap)) if cap is not None else level
        )
    return config.stash[_TESTED_LEVEL]


def guard(config: pytest.Config) -> object | None:
    """What stands between the harness and the driver (an ``InProcessGuard`` or a
    ``DriverService``), None before a driver is loaded in this process."""
    return config.stash.get(_GUARD, None)


def close_driver(config: pytest.Config) -> None:
    """End the driver service (and everything it forked): the report is written after."""
    current = guard(config)
    if current is not None and hasattr(current, "close"):
        current.close()


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
    in_process = InProcessGuard(timeout)
    in_process.admit = BREAKER.admit
    in_process.on_hang = BREAKER.record
    config.stash[_GUARD] = in_process
    return in_process.wrap(loaded)


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
