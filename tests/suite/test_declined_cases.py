"""Cost follows support: a case the driver declines is decided once, then skipped at once.

A driver that declines MUL (and counts every call made with a MUL model) runs
every item of one MUL case in several test modules: the generated paths (static
and dynamic twin), the memory-pool layouts (constants moved into pools
included) and the request validation families. The driver is asked about the
case once; every item is reported unsupported with the same reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plugins.report.document import load

DRIVER = """
import os

from hal.types import ErrorStatus, OperationType
from reference_driver import ReferenceDriver


def _declines(model, method):
    if any(op.type == OperationType.MUL for op in model.operations):
        with open(os.environ["NNHAL_TEST_CALLS"], "a") as calls:
            calls.write(method + "\\n")
        return True
    return False


def _supported(method):
    def answer(self, model):
        status, answers = getattr(ReferenceDriver, method)(self, model)
        if _declines(model, method):
            answers = [op.type != OperationType.MUL for op in model.operations]
        return status, answers
    return answer


def _prepare(method, notify):
    def prepare(self, model, *args):
        if _declines(model, method):
            getattr(args[-1], notify)(ErrorStatus.GENERAL_FAILURE, None)
            return ErrorStatus.NONE
        return getattr(ReferenceDriver, method)(self, model, *args)
    return prepare


class DeclinesMul(ReferenceDriver):
    get_supported_operations = _supported("get_supported_operations")
    get_supported_operations_1_1 = _supported("get_supported_operations_1_1")
    get_supported_operations_1_2 = _supported("get_supported_operations_1_2")
    get_supported_operations_1_3 = _supported("get_supported_operations_1_3")
    prepare_model = _prepare("prepare_model", "notify")
    prepare_model_1_1 = _prepare("prepare_model_1_1", "notify")
    prepare_model_1_2 = _prepare("prepare_model_1_2", "notify_1_2")
    prepare_model_1_3 = _prepare("prepare_model_1_3", "notify_1_3")
"""

CASE = "V1_0/mul/none"


def test_a_declined_case_is_asked_about_once(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(declining_driver=DRIVER)
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("NNHAL_TEST_CALLS", str(calls))
    modules = ("test_generated", "test_memory_pools", "test_validate_request")
    listed = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--collect-only",
        "-q",
        "--pyargs",
        *(f"conformance.{m}" for m in modules),
        "--driver=declining_driver:DeclinesMul",
        "-k",
        CASE,  # listed without building the other cases' items
    )
    # test_generated_prepare judges the preparation itself: it calls the driver every time.
    ids = [
        line
        for line in listed.outlines
        if (f"{CASE}/" in line or line.endswith(f"{CASE}]")) and "_prepare[" not in line
    ]
    assert len(ids) > 40, listed.stdout.str()[-2000:]
    assert not calls.exists()
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-rs",
        "--pyargs",
        *ids,
        "--driver=declining_driver:DeclinesMul",
        f"--cert-report={tmp_path / 'out'}",
    )
    result.assert_outcomes(skipped=len(ids))
    # Once per level the case is prepared at (1.3, the driver's; 1.1 for the family that
    # needs it).
    assert sorted(calls.read_text().split()) == [
        "get_supported_operations_1_1",
        "get_supported_operations_1_3",
        "prepare_model_1_1",
        "prepare_model_1_3",
    ]
    # One reason for every item, shown at the suite's line (never the helper raising it).
    skipped = [line for line in result.outlines if line.startswith("SKIPPED")]
    found = [
        re.fullmatch(
            r"SKIPPED \[(\d+)\] .*conformance/(?:harness/)?\w+\.py:\d+: unsupported: the "
            r"driver does not support operation 0 MUL \(TENSOR_FLOAT32\)",
            line,
        )
        for line in skipped
    ]
    assert all(found), skipped
    assert sum(int(match[1]) for match in found) == len(ids)
    assert not any("items.py" in line for line in skipped), skipped
    report = load(tmp_path / "out" / "report.json")
    assert {t["outcome"] for t in report["tests"]} == {"unsupported"}
    assert len(report["tests"]) == len(ids)
