"""The names every part of the plugin shares: the suite's package, its profiles, the runs.

The entry module (``plugins.pytest_nnhal``) and the parts it registers
(``plugins.collection``, ``plugins.running``, ``plugins.profiles``,
``plugins.driver``) read these from here, so that none of them imports the
entry module back. Like the entry module, this one is light: it imports the
standard library only, since every pytest run where the harness is installed
loads it (``tests/plugin/test_plugin_import.py``).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

SUITE = "conformance"
"""The suite's package: its modules' node ids start ``conformance/`` wherever pytest runs."""
PROFILES = ("ci", "full", "thorough")
"""The choices of ``--nnhal-profile`` (and of the hypothesis profiles ``nnhal-NAME``)."""
DEFAULT_PROFILE = "full"
HYPOTHESIS_EXAMPLES = {"ci": 5, "full": 40, "thorough": 400}
"""Hypothesis examples per sampled test (one test per mutation family) in each profile."""
SMOKE_PER_TEST = 2
"""Items a smoke run keeps of each test function."""

_RUNS: list[pytest.Config] = []
"""The configs of the pytest runs under way in this process, innermost (latest) last."""


def run_started(config: pytest.Config) -> None:
    """A pytest run with the plugin is being configured in this process."""
    _RUNS.append(config)


def run_ended(config: pytest.Config) -> None:
    """That run is over (a run never started is no error: nothing to forget)."""
    if config in _RUNS:
        _RUNS.remove(config)


def innermost_run() -> pytest.Config | None:
    """The config of the innermost pytest run under way in this process, None if none is."""
    return _RUNS[-1] if _RUNS else None


def is_xdist_controller(config: pytest.Config) -> bool:
    """Whether this process hands the tests to pytest-xdist workers instead of running them."""
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", 0))


@functools.cache
def suite_folder() -> Path | None:
    """The installed suite's folder (found without importing it), None if there is none."""
    try:
        spec = importlib.util.find_spec(SUITE)
    except (ImportError, ValueError):
        return None
    locations = getattr(spec, "submodule_search_locations", None) if spec else None
    return Path(next(iter(locations))).resolve() if locations else None


def in_suite(path: Path) -> PurePath | None:
    """``path`` relative to the suite's parent folder (``conformance/test_x.py``), or None
    for a file outside the suite."""
    folder = suite_folder()
    if folder is None:
        return None
    try:
        relative = path.resolve().relative_to(folder.parent)
    except ValueError:
        return None
    return relative if relative.parts[:1] == (SUITE,) else None
