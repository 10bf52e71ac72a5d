"""Case items run their per-test hooks without the plugins that have nothing to do for them.

Each run is the real suite in a pytest subprocess, one case item of
``test_validate_request`` and one plainly parametrized item of ``test_corners``, with a
plugin that records, after each test's teardown, whether pytest's logging plugin saw the
test (it leaves its records in the item's stash) and each phase's outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from certify_runs import run_pytest

_PROBE = """
import json
import pytest
from _pytest.logging import caplog_records_key

seen = {}


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    entry = seen.setdefault(item.nodeid, {})
    entry.update(logged=caplog_records_key in item.stash, case=type(item).__name__)


def pytest_runtest_logreport(report):
    seen.setdefault(report.nodeid, {})[report.when] = report.outcome


def pytest_sessionfinish(session):
    with open("seen.json", "w") as out:
        json.dump(seen, out)
"""


def _run(folder: Path, *args: str) -> dict:
    done = run_pytest(
        folder,
        *("--pyargs", "conformance.test_validate_request", "conformance.test_corners"),
        *("--driver=reference", "--nnhal-profile=ci", "--nnhal-seed=3", "-q"),
        *("-k", "test_validate_request[request_input_removed/V1_0/add/none] or binary/ADD]"),
        *args,
        plugin=("nnhal_probe", _PROBE),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads((folder / "seen.json").read_text())


def test_a_case_item_leaves_the_idle_plugins_out(tmp_path: Path) -> None:
    seen = _run(tmp_path)
    kinds = {entry["case"]: entry for entry in seen.values()}
    assert set(kinds) == {"CaseItem", "Function"}, seen
    assert kinds["CaseItem"]["logged"] is False  # no logging plugin around a case item
    assert kinds["Function"]["logged"] is True  # pytest's own items keep every plugin
    for entry in seen.values():  # every phase still reported, to every other plugin
        assert (entry["setup"], entry["call"], entry["teardown"]) == ("passed",) * 3


@pytest.mark.parametrize("option", ["--log-cli-level=INFO", "--log-level=DEBUG"])
def test_a_run_that_configures_logging_keeps_it_for_case_items(tmp_path: Path, option: str) -> None:
    seen = _run(tmp_path, option)
    assert all(entry["logged"] for entry in seen.values()), seen
