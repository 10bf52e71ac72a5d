"""Every check of the suite says what went wrong: no bare asserts, and the shared
message builders name the call, the side (launch or callback) and expected vs got."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conformance.harness.calls import Preparation, expect_status, refused_problems
from hal.callbacks import Notification, PreparedModelCallback
from hal.types import ErrorStatus

SUITE = Path(__file__).resolve().parents[1] / "conformance"
SKIPPED = {"generated", "specs"}
"""Data modules and offline oracle scripts: not checks of a driver."""


def bare_asserts(source: str, name: str) -> list[str]:
    """``name:line: assert ...`` for each assert without a message in ``source``."""
    return [
        f"{name}:{node.lineno}: {ast.unparse(node)[:100]}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Assert) and node.msg is None
    ]


def test_the_scan_finds_a_bare_assert_and_passes_one_with_a_message() -> None:
    source = "def f(x):\n    assert x == 1\n    assert x, 'x is 0'\n"
    assert bare_asserts(source, "m.py") == ["m.py:2: assert x == 1"]


def test_the_suite_has_no_bare_assert() -> None:
    found = []
    for path in sorted(SUITE.rglob("*.py")):
        if SKIPPED & set(path.relative_to(SUITE).parts):
            continue
        found += bare_asserts(path.read_text(), str(path.relative_to(SUITE.parent)))
    assert not found, "asserts without a message (say what the driver got wrong):\n" + "\n".join(
        found
    )


def _preparation(launch: ErrorStatus, status: ErrorStatus, model: object) -> Preparation:
    notification = Notification("notify_1_2", status, model)
    return Preparation("prepare_model_1_2", launch, notification, PreparedModelCallback())


def test_a_refused_preparation_names_each_side_expected_and_got() -> None:
    invalid = ErrorStatus.INVALID_ARGUMENT
    assert refused_problems(_preparation(invalid, invalid, None), invalid) == []
    wrong = _preparation(ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE, object())
    assert refused_problems(wrong, invalid) == [
        "launch status NONE, expected INVALID_ARGUMENT",
        "callback status GENERAL_FAILURE, expected INVALID_ARGUMENT",
        "the callback delivered a prepared model, expected none",
    ]


def test_expect_status_names_what_answered_and_what_was_expected() -> None:
    expect_status(ErrorStatus.NONE, ErrorStatus.NONE, "IBuffer.copy_from")
    with pytest.raises(pytest.fail.Exception) as failure:
        expect_status(ErrorStatus.NONE, ErrorStatus.INVALID_ARGUMENT, "IBuffer.copy_to of x")
    assert str(failure.value) == "IBuffer.copy_to of x answered NONE, expected INVALID_ARGUMENT"
