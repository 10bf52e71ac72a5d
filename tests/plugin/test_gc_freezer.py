"""What a run keeps is frozen between tests, so the garbage collector stops scanning it
(``plugins.collection._Freezer``).

The unit tests drive a freezer of their own with the automatic collections held off
(a threshold no test reaches), so that only the freezer collects; the last test runs
the suite in a pytest process and reads what its freezer did.
"""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

import pytest
from certify_runs import run_pytest

from plugins.collection import _Freezer


class _Cycle:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def no_automatic_collection():
    before = gc.get_threshold()
    gc.set_threshold(10**9)
    yield
    gc.set_threshold(*before)


def _freezer(every: int, sweep_every: int) -> _Freezer:
    freezer = _Freezer()
    freezer.EVERY, freezer.SWEEP_EVERY = every, sweep_every
    return freezer


def _tracked(obj: object) -> bool:
    """Whether the collector scans ``obj`` (``gc.get_objects`` leaves out frozen objects)."""
    return any(o is obj for o in gc.get_objects())


def test_every_so_many_tests_the_garbage_is_collected_and_the_rest_frozen(
    no_automatic_collection,
) -> None:
    freezer = _freezer(every=3, sweep_every=100)
    kept, dropped = _Cycle(), _Cycle()
    gone = weakref.ref(dropped)
    del dropped
    frozen = gc.get_freeze_count()
    for _ in range(2):
        freezer.pytest_runtest_logfinish()
    assert gone() is not None and _tracked(kept)  # not yet: 2 tests of 3
    freezer.pytest_runtest_logfinish()
    assert gone() is None  # collected, not frozen
    assert not _tracked(kept) and gc.get_freeze_count() > frozen
    assert (freezer.tests, freezer.freezes) == (3, 1)


def test_garbage_made_of_frozen_objects_is_collected_at_the_next_sweep(
    no_automatic_collection,
) -> None:
    freezer = _freezer(every=1, sweep_every=3)
    held = [_Cycle()]
    freezer.pytest_runtest_logfinish()  # freeze 1: the cycle frozen while alive
    gone = weakref.ref(held.pop())
    freezer.pytest_runtest_logfinish()  # freeze 2: garbage now, but frozen: not scanned
    assert gone() is not None
    freezer.pytest_runtest_logfinish()  # freeze 3, a sweep: everything scanned again
    assert gone() is None
    assert freezer.freezes == 3


def test_nothing_is_frozen_while_the_collector_is_off(no_automatic_collection) -> None:
    freezer = _freezer(every=1, sweep_every=1)
    kept = _Cycle()
    gc.disable()
    try:
        freezer.pytest_runtest_logfinish()
    finally:
        gc.enable()
    assert _tracked(kept) and (freezer.tests, freezer.freezes) == (1, 0)


_PROBE = """
import gc
import json

from plugins.collection import _Freezer

_Freezer.EVERY = 2
seen = {}


def pytest_runtest_logstart(nodeid):
    seen.setdefault("frozen_at_first_test", gc.get_freeze_count())


def pytest_sessionfinish(session):
    freezer = session.config.pluginmanager.get_plugin(_Freezer.NAME)
    seen.update(
        registered=freezer is not None,
        tests=freezer.tests if freezer else None,
        freezes=freezer.freezes if freezer else None,
        frozen_at_end=gc.get_freeze_count(),
    )
    with open("seen.json", "w") as out:
        json.dump(seen, out)
"""


def test_a_suite_run_freezes_what_its_tests_leave(tmp_path: Path) -> None:
    done = run_pytest(
        tmp_path,
        *("--pyargs", "conformance.test_generated", "--driver=reference", "-q"),
        *("--nnhal-profile=ci", "-k", "V1_0/add/none/ex0 and sync"),
        plugin=("nnhal_probe", _PROBE),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen["registered"] is True
    assert seen["tests"] >= 4 and seen["freezes"] == seen["tests"] // 2
    assert seen["frozen_at_end"] > seen["frozen_at_first_test"] > 0  # collection's, then more
