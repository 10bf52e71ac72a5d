"""Every check of the suite says what went wrong: no bare asserts, and the shared
message builders name the call, the side (launch or callback) and expected vs got."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from conformance.harness.calls import Preparation, expect_status, refused_problems
from hal.callbacks import Notification, PreparedModelCallback
from hal.types import ErrorStatus

SUITE = Path(__file__).resolve().parents[2] / "conformance"
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


ITEM_MODULES = ("test_generated.py", "test_memory_pools.py", "test_corners.py")
"""The test modules collected from ``conformance.harness.items.Item`` records."""


def hand_made_selectors(source: str, name: str) -> list[str]:
    """``name:line: ...`` for each ``rerun_command`` call in ``source`` whose item is not the
    record's ``selector(...)`` (an id formatted by hand)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "rerun_command"):
            continue
        item = node.args[2] if len(node.args) > 2 else None
        by_record = (
            isinstance(item, ast.Call)
            and isinstance(item.func, ast.Attribute)
            and item.func.attr == "selector"
        )
        if not by_record:
            found.append(f"{name}:{node.lineno}: {ast.unparse(node)[:100]}")
    return found


def test_the_selector_scan_tells_a_record_from_a_hand_made_id() -> None:
    source = (
        "rerun_command(c, m, item.selector('test_x'))\nrerun_command(c, m, f'test_x[{item.id}]')\n"
    )
    assert hand_made_selectors(source, "m.py") == [
        "m.py:2: rerun_command(c, m, f'test_x[{item.id}]')"
    ]


def test_items_of_records_name_themselves_in_rerun_lines() -> None:
    found = []
    for name in ITEM_MODULES:
        found += hand_made_selectors((SUITE / name).read_text(), name)
    assert not found, "rerun lines that name an item by hand (use Item.selector):\n" + "\n".join(
        found
    )


def test_a_broken_generated_model_is_named_by_its_case_id() -> None:
    from conformance.harness.generated import corpus
    from conformance.harness.items import CaseId
    from conformance.harness.mutations import copy_model
    from conformance.harness.runner import require_model_level
    from hal.types import HalVersion

    test = next(t for t in corpus() if t.test_id == "V1_0/add/add_none")
    model = copy_model(test.model)
    model.operations[0].inputs = [len(model.operands) + 5, *model.operations[0].inputs[1:]]
    broken = dataclasses.replace(test, name="add_broken_by_the_test", model=model)
    assert str(CaseId.of(broken)) == "V1_0/add/broken_by_the_test"
    with pytest.raises(pytest.fail.Exception) as failure:
        require_model_level(broken, HalVersion.V1_2)
    assert str(failure.value) == (
        "generated model V1_0/add/broken_by_the_test is invalid: regenerate the corpus"
    )
