"""Reports of the real suite: facts derived from its items, and shards that merge into the whole.

A small slice of the generated suite (ADD and MUL at HAL 1.0, plus
``test_status``) runs against faulty_drivers.PerturbMulTwice, whose float32
MUL outputs are wrong, so the reports hold passes and failures: once whole,
once in three shards (xdist: test_certify.py and test_report.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from plugins.report import cli
from plugins.report.document import SCHEMA_PATH, load

FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers.py"
SLICE = ("--pyargs", "conformance.test_generated", "conformance.test_basic")
SELECT = "V1_0/mul/ or V1_0/add/ or test_status"
RUN_TIMEOUT = 600


def run_suite(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            *SLICE,
            "--driver=faulty_drivers:PerturbMulTwice",
            "--nnhal-profile=ci",
            "-k",
            SELECT,
            *args,
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("suite")
    shutil.copy(FAULTY, folder / "faulty_drivers.py")
    paths = {}
    whole = run_suite(folder, "--cert-report=whole")
    assert whole.returncode == 1, whole.stdout[-3000:] + whole.stderr[-3000:]
    paths["whole"] = folder / "whole" / "report.json"
    for k in (1, 2, 3):
        run_suite(folder, f"--shard={k}/3", f"--cert-report=shard{k}")
        paths[f"{k}/3"] = folder / f"shard{k}" / "report.json"
    return paths


def _by_id(doc: dict) -> dict[str, dict]:
    return {t["id"]: t for t in doc["tests"]}


def test_reports_validate_against_the_schema(reports) -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    for path in reports.values():
        jsonschema.Draft202012Validator(schema).validate(load(path))


def test_generated_item_facts(reports) -> None:
    tests = _by_id(load(reports["whole"]))
    item = tests["conformance.test_generated::test_generated[V1_0/mul/none/ex0/sync-timed]"]
    assert {k: item[k] for k in ("category", "hal_version", "operations", "path", "tier")} == {
        "category": "generated",
        "hal_version": "1.0",
        "operations": ["MUL"],
        "path": "sync-timed",
        "tier": "parity",
    }
    assert item["operand_type"] == "TENSOR_FLOAT32"
    assert item["outcome"] == "failed"
    assert item["metrics"]["mismatches"] > 0 and item["metrics"]["max_abs_error"] > 0
    assert item["reason"].startswith("output 0 (shape [")
    assert item["rerun"] == (
        "pytest --pyargs 'conformance.test_generated::test_generated[V1_0/mul/none/ex0/sync-timed]'"
        " --driver=faulty_drivers:PerturbMulTwice --nnhal-profile=ci"
    )
    scattered = tests["conformance.test_generated::test_generated[V1_0/mul/none/ex0/scattered]"]
    assert (scattered["tier"], scattered["path"]) == ("strict", "scattered")
    shapes = tests["conformance.test_generated::test_generated[V1_0/mul/none/ex0/shapes]"]
    assert (shapes["tier"], shapes["path"]) == ("strict", "shapes")


def test_prepare_and_basic_item_facts(reports) -> None:
    tests = _by_id(load(reports["whole"]))
    prepare = [
        t for i, t in tests.items() if "test_generated_prepare[V1_0/add/" in i and "LOW_POWER" in i
    ]
    assert prepare, "no prepare item for ADD"
    assert {(t["category"], t["path"], tuple(t["operations"])) for t in prepare} == {
        ("generated", "prepare_model_1_1-LOW_POWER", ("ADD",)),
        ("generated", "prepare_model_1_2-LOW_POWER", ("ADD",)),
    }  # (1.3's prepare items are not built for a driver tested at 1.2)
    status = tests["conformance.test_basic::test_status"]
    assert (status["category"], status["tier"], status["operations"], status["outcome"]) == (
        "basic",
        "parity",
        [],
        "passed",
    )


def test_the_driver_and_the_run_are_described(reports) -> None:
    doc = load(reports["whole"])
    assert doc["driver"]["spec"] == "faulty_drivers:PerturbMulTwice"
    assert (doc["driver"]["level"], doc["driver"]["tested_level"]) == ("1.2", "1.2")
    assert doc["driver"]["version_string"]
    assert doc["run"]["profile"] == "ci" and doc["run"]["workers"] == 1
    assert doc["run"]["selected"] == len(doc["tests"]) and doc["run"]["deselected"] > 0
    assert doc["scope"]["operations_failed"] == ["MUL"]
    assert "ADD" in doc["scope"]["operations_passed"]


def test_three_shards_merged_equal_the_whole_run(reports, tmp_path: Path) -> None:
    parts = [str(reports[f"{k}/3"]) for k in (1, 2, 3)]
    assert cli.main(["merge", *parts, "-o", str(tmp_path)]) == 0
    merged, whole = load(tmp_path / "report.json"), load(reports["whole"])
    assert all(load(Path(p))["tests"] for p in parts), "a shard came out empty"

    def outcomes(doc):
        return {t["id"]: (t["outcome"], t["category"], t["tier"]) for t in doc["tests"]}

    assert outcomes(merged) == outcomes(whole)
    assert merged["summary"]["outcomes"] == whole["summary"]["outcomes"]
    assert merged["summary"]["outcomes"]["failed"] > 0
    assert merged["summary"]["categories"].keys() == whole["summary"]["categories"].keys()
    assert merged["matrix"] == whole["matrix"]
    assert merged["scope"] == whole["scope"]
    assert merged["run"]["selected"] == whole["run"]["selected"]


CATEGORY_PROBE = """
import json, os
from plugins.report import facts

def pytest_collection_finish(session):
    found = sorted({facts.category_of(i, facts.test_id(i)) for i in session.items})
    with open(os.environ["NNHAL_CATEGORY_PROBE"], "w") as f:
        json.dump(found, f)
"""


@pytest.fixture(scope="module")
def reported_categories(tmp_path_factory) -> list[str]:
    """The categories the items of the whole installed suite report (one collection)."""
    folder = tmp_path_factory.mktemp("categories")
    (folder / "category_probe.py").write_text(CATEGORY_PROBE)
    out = folder / "categories.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(NNHAL_CATEGORY_PROBE=str(out), PYTHONPATH=str(folder))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "category_probe",
            "--collect-only",
            "-q",
            "--pyargs",
            "conformance",
            "--nnhal-profile=ci",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return json.loads(out.read_text())


def test_the_suite_reports_the_categories_its_modules_name(reported_categories) -> None:
    """What the verdict takes as provided (module names) is what the items report."""
    from plugins.report.collector import suite_categories

    assert {"deadlines", "fenced"} <= set(reported_categories)  # the reference is a 1.3 driver
    assert reported_categories == suite_categories()


@pytest.mark.parametrize("level", ["1.0", "1.1", "1.2", "1.3"])
def test_every_required_category_is_one_the_suite_reports(reported_categories, level) -> None:
    from plugins.report.document import required_categories

    required = required_categories(level, caching_supported=True)
    assert set(required) <= set(reported_categories), sorted(
        set(required) - set(reported_categories)
    )


def _certifying_document(categories: list[str], drop: str | None) -> dict:
    from plugins.report.document import new_document

    tests = []
    for number, category in enumerate(c for c in categories if c != drop):
        tests.append(
            {
                "id": f"conformance.test_x::t{number}",
                "category": category,
                "hal_version": "1.2",
                "operations": ["ADD"] if category == "generated" else [],
                "operand_type": "TENSOR_FLOAT32" if category == "generated" else None,
                "path": None,
                "tier": "parity",
                "family": None,
                "outcome": "passed",
                "duration": 0.1,
                "reason": None,
                "details": None,
                "metrics": None,
                "rerun": None,
            }
        )
    run = {
        "profile": "full",
        "hal_version_cap": None,
        "shard": None,
        "merged_shards": [],
        "selected": len(tests),
        "deselected": 0,
        "started": "2026-01-01T00:00:00+00:00",
        "duration": 1.0,
        "exit_status": 0,
        "workers": 1,
        "command": "pytest",
        "expect_fail": None,
        "suite_categories": categories,
    }
    driver = {
        "spec": "v:F",
        "is_default": False,
        "level": "1.2",
        "tested_level": "1.2",
        "version_string": "v",
        "device_type": None,
        "capabilities": None,
        "caching_supported": True,
        "memory_domains": None,
        "load_error": None,
    }
    return new_document(run, driver, {}, tests)


def test_a_run_missing_any_required_category_is_not_certified(reported_categories) -> None:
    from plugins.report.document import required_categories

    assert _certifying_document(reported_categories, None)["verdict"]["status"] == "CERTIFIED"
    for category in required_categories("1.2", caching_supported=True):
        verdict = _certifying_document(reported_categories, category)["verdict"]
        assert verdict["status"] == "NOT CERTIFIED", category
        assert f"categories that did not run: {category}" in verdict["reasons"], category
