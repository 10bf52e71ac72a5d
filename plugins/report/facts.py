"""What a test is and how it ended: the facts a certification report is made of.

Facts are derived centrally from what the suite already says about its items
(markers, parametrization, node ids), so a new test module gets them without
edits: its category comes from a category marker or its module name
(``test_burst`` -> ``burst``), its HAL version from the folder marker, a
``hal_level`` marker or a ``HalVersion`` parameter, its operations and operand
type from the generated case it runs, its execution path from the run its
parameter id names (``CaseId.parse``: ``V1_2/add_v1_2/base/ex0/sync-timed`` runs
``sync-timed``; a parameter id of one word, ``[async]``, is that run itself). A module whose category cannot be read off its name marks
its tests ``category(name)``.

Outcomes are those of docs/report.md ("Outcomes"): passed, failed, unsupported (a skip the suite
declared so, ``conformance.harness.items.unsupported``), crash (an xdist worker
died running the test, or the driver guard saw the driver die), timeout (the
driver did not answer within the run's timeout: a failure the suite declared
so, a timeout exception of the HAL's callbacks or bursts, or the driver guard's
verdict), blocked (not run: the method it calls hung ``--hal-hang-limit``
times earlier), error (the harness broke: a setup or teardown error, or an
exception that is neither an assertion nor ``pytest.fail``), expected-failure
(listed in ``--expect-fail``), skipped-other (any other skip).

Outcomes and metrics come from structured facts only, never from a message's
words: the facts a raised failure or skip carries (``items.facts_of``), the
exception's type, and the user property ``nnhal_outcome`` the plugin sets.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conformance.harness.items import (
    BLOCKED,
    CASES_PROPERTY,
    TIMEOUT,
    UNSUPPORTED,
    CaseId,
    facts_of,
)

OUTCOMES = (
    "passed",
    "failed",
    "unsupported",
    "crash",
    "timeout",
    "blocked",
    "error",
    "expected-failure",
    "skipped-other",
)
BAD_OUTCOMES = ("failed", "crash", "timeout", "blocked", "error")
"""Outcomes that stop a certification in their tier."""
PRECEDENCE = (
    "crash",
    "timeout",
    "blocked",
    "failed",
    "error",
    "expected-failure",
    "passed",
    "unsupported",
    "skipped-other",
)
"""The worse outcome first: one test's phases, or the tests of one matrix cell, end as the first."""

_CATEGORY_MARKERS = {
    "generated": "generated",
    "validate_model": "validation-model",
    "validate_request": "validation-request",
}
_MODULE_CATEGORIES = {
    "test_generated_prepare": "generated",
    "test_validate_model": "validation-model",
    "test_validate_request": "validation-request",
}
_PATH_RUNS = re.compile(
    r"^(?:(?:async10|async13|async|sync13|sync|burst|fenced)(?:-timed)?(?:-deadline\d+ns)?"
    r"(?:-loop\d+ns)?(?:-fences\d+)?(?:-dyn(?:-short)?)?|scattered|constpool"
    r"|shapes|bias|prepare_model(?:_1_\d)?(?:-\w+)?)$"
)
"""The runs that are an execution path (with its modifiers) or a preparation: the words a
run may be, matched against the run ``run_of`` read, never against an id."""
_FOLDER = re.compile(r"^V(\d)_(\d)$")
OUTCOME_PROPERTY = "nnhal_outcome"
"""A user property the driver guard of plugins.running sets: ("nnhal_outcome", "crash")."""
PATTERN_PROPERTY = "nnhal_expect_pattern"
"""User property of a test a wildcard known-failure pattern matched: "'PATTERN' (line N)"."""
PATTERN_PASSED = "passed although known-failure pattern"
"""How the reason of a passing test a known-failure pattern matched begins."""
REASON_LIMIT = 300
DETAILS_LIMIT = 2000
OUTPUT_PROPERTY = "nnhal_driver_output"
"""User property of a failed phase: what the driver service wrote while it ran (the
plugin's ``running._driver_output``); the entry's details end with it."""


def test_id(item: pytest.Item) -> str:
    """``conformance.test_basic::test_status``: the same on every machine and worker."""
    module = getattr(getattr(item, "module", None), "__name__", None)
    _, sep, rest = item.nodeid.partition("::")
    return f"{module}{sep}{rest}" if module and sep else item.nodeid


def module_category(module: str) -> str:
    """The category a test module's name gives: ``conformance.test_burst`` (or a test id in
    it, or its path ``conformance/test_burst.py``) -> ``burst``."""
    name = module.split("::", 1)[0].removesuffix(".py").replace("/", ".").rsplit(".", 1)[-1]
    if name in _MODULE_CATEGORIES:
        return _MODULE_CATEGORIES[name]
    return name.removeprefix("test_").replace("_", "-")


def category_of(item: pytest.Item, module: str) -> str:
    marker = item.get_closest_marker("category")
    if marker is not None and marker.args:
        return str(marker.args[0])
    for name, category in _CATEGORY_MARKERS.items():
        if item.get_closest_marker(name) is not None:
            return category
    return module_category(module)


def case_of(identifier: str) -> CaseId | None:
    """The generated case a test id names (``module::function[parameters]``): its
    parameters as a case id, or as a validation family's ``family/case``; None for a test
    of no generated case."""
    _, sep, rest = identifier.partition("[")
    if not sep or not rest.endswith("]"):
        return None
    parameters = rest[:-1]
    for text in (parameters, parameters.partition("/")[2]):
        try:
            return CaseId.parse(text)
        except ValueError:
            continue
    return None


def run_of(parameters: str) -> str | None:
    """The run a parameter id names: a case id's run (``CaseId.parse``), or the whole id when
    it is one word (a test parametrized by execution path alone); None otherwise."""
    if "/" not in parameters:
        return parameters or None
    try:
        return CaseId.parse(parameters).run
    except ValueError:
        return None


def _generated_test(params: dict[str, Any]) -> Any:
    """The generated case among an item's parameters (itself, or held as ``.test``)."""
    for value in params.values():
        for candidate in (value, getattr(value, "test", None)):
            if hasattr(candidate, "provenance") and hasattr(candidate, "model"):
                return candidate
    return None


def _version_text(value: Any) -> str | None:
    match = _FOLDER.match(str(value))
    if match:
        return f"{match.group(1)}.{match.group(2)}"
    return str(value) if value is not None else None


def _hal_version(item: pytest.Item, params: dict[str, Any], case: Any) -> str | None:
    from hal.types import HalVersion

    if case is not None and getattr(case, "level", ""):
        return str(case.case_level)  # a level of its own: Android 11's lifetime variations
    for marker in item.iter_markers():
        if _FOLDER.match(marker.name):
            return _version_text(marker.name)
    if case is not None:
        return _version_text(case.hal_folder)
    for value in params.values():
        if isinstance(value, HalVersion):
            return str(value)
    marker = item.get_closest_marker("hal_level")
    return str(HalVersion.parse(str(marker.args[0]))) if marker is not None else None


def _operand_type(case: Any) -> str | None:
    """The type of the first operation's first input (for IF and WHILE, of the first value
    they pass, else of their first output), ``+relaxed`` for a relaxed model."""
    from hal.types import OperandType, OperationType

    model = case.model
    if not model.operations or not model.operations[0].inputs:
        return None
    first = model.operations[0]
    # IF's values follow its condition and two branches, WHILE's its condition and body:
    # the form is about them, not the BOOL8 condition or the SUBGRAPH operand.
    slot = {OperationType.IF: 3, OperationType.WHILE: 2}.get(first.type, 0)
    index = first.inputs[slot] if slot < len(first.inputs) else (first.outputs or [None])[0]
    if index is None or not 0 <= index < len(model.operands):
        return None
    type_ = model.operands[index].type
    try:
        name = OperandType(type_).name
    except ValueError:  # an extension's type, by name where the table knows it
        from hal.extensions import operand_type_of

        found = operand_type_of(type_, model.extension_name_to_prefix)
        name = f"{found[0].name}:{found[1].name}" if found else str(type_)
    return f"{name}+relaxed" if model.relax_computation_float32_to_float16 else name


def params_operations(params: dict[str, Any]) -> list[str]:
    """The operations an item exercises by its parameters (what it runs when no
    ``generated_case`` mark says): its generated case's, else those ``_named_operation``
    reads."""
    return _operations_of(params, _generated_test(params))


def _operations_of(params: dict[str, Any], case: Any) -> list[str]:
    """``params_operations``, given the generated case among ``params`` (None: none)."""
    if case is not None:
        return [str(op) for op in case.provenance.operations]
    return _named_operation(params)


def _named_operation(params: dict) -> list[str]:
    """The operations an item's parameters name: those an item record of no generated case
    declares (``Item.operations``: the parameter-space tests), or what an invalid-value
    case names first (``MUL/...``)."""
    for value in params.values():
        declared = getattr(value, "operations", None)
        if isinstance(declared, tuple) and declared:
            return [str(op) for op in declared]
    name = getattr(params.get("case"), "name", None)
    if not isinstance(name, str):
        return []
    from hal.types import OperationType

    first = name.partition("/")[0]
    return [first] if first in OperationType.__members__ else []


def _computes(params: dict[str, Any], category: str) -> bool | None:
    """Whether the item compares output values (a parameter's ``computes``: some output it
    checks holds a value); False for a generated item that does not say, None for others."""
    for value in params.values():
        computes = getattr(value, "computes", None)
        if isinstance(computes, bool):
            return computes
    return False if category == "generated" else None


def item_facts(item: pytest.Item) -> dict[str, Any]:
    """The static facts of one collected item (everything but its outcome)."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        params, param_id = dict(callspec.params), callspec.id
    else:  # an item of plugins.collection.CaseItem, or one without parameters
        params, param_id = dict(getattr(item, "case_params", {})), getattr(item, "case_id", None)
    case = _generated_test(params)
    identifier = test_id(item)
    category = category_of(item, identifier)
    marker = item.get_closest_marker("generated_case")
    if marker is not None and len(marker.args) > 1:
        operations = [str(op) for op in marker.args[1]]
    else:
        operations = _operations_of(params, case)  # the case is looked up once
    run = run_of(param_id) if param_id is not None else None
    path = run if run is not None and _PATH_RUNS.match(run) else None
    tier = item.get_closest_marker("tier")
    family = item.get_closest_marker("validation_family")
    return {
        "id": identifier,
        "category": category,
        "hal_version": _hal_version(item, params, case),
        "operations": sorted(set(operations), key=operations.index),
        "operand_type": _operand_type(case) if case is not None else None,
        "path": path,
        "tier": str(tier.args[0]) if tier is not None and tier.args else None,
        "family": str(family.args[0]) if family is not None and family.args else None,
        "computed": _computes(params, category),
    }


def _first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:REASON_LIMIT]
    return ""


def skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        text = str(longrepr[2])
    else:
        text = str(longrepr or "")
    return text.removeprefix("Skipped: ")


def failure_text(report: pytest.TestReport, excinfo: pytest.ExceptionInfo | None) -> str:
    """The failure's own message: the exception's text where there is one."""
    if excinfo is not None:
        value = excinfo.value
        text = str(getattr(value, "msg", None) or value)
        if text.strip():
            return text
        return excinfo.typename
    return report.longreprtext


def _property(report: pytest.TestReport, name: str) -> Any:
    """The value of the report's user property ``name`` (its first), or None."""
    return next((v for k, v in getattr(report, "user_properties", ()) if k == name), None)


def classify_phase(
    report: pytest.TestReport, excinfo: pytest.ExceptionInfo | None
) -> dict[str, Any]:
    """How one phase (setup, call, teardown) ended, with a reason for anything but a pass."""
    if report.passed:
        pattern = _property(report, PATTERN_PROPERTY)
        if pattern is not None and hasattr(report, "wasxfail"):
            return {"outcome": "passed", "reason": f"{PATTERN_PASSED} {pattern} matches it"}
        cases = _property(report, CASES_PROPERTY)
        if isinstance(cases, str):  # an item that draws its cases: how many it ran
            return {"outcome": "passed", "reason": cases[:REASON_LIMIT]}
        return {"outcome": "passed"}
    declared = facts_of(excinfo.value) if excinfo is not None else {}
    if report.skipped:
        reason = skip_reason(report)
        if hasattr(report, "wasxfail"):
            return {"outcome": "expected-failure", "reason": _first_line(report.wasxfail)}
        outcome = "unsupported" if declared.get("kind") == UNSUPPORTED else "skipped-other"
        return {"outcome": outcome, "reason": _first_line(reason)}
    text = failure_text(report, excinfo)
    typename = excinfo.typename if excinfo is not None else ""
    if excinfo is None and text.startswith("[XPASS(strict)]"):
        reason = text.removeprefix("[XPASS(strict)]").strip()
        return {
            "outcome": "failed",
            "reason": f"unexpected pass: listed as a known failure ({reason})"[:REASON_LIMIT],
        }
    guarded = _declared_outcome(report)
    if guarded is not None:
        outcome = guarded
    elif declared.get("kind") in (TIMEOUT, BLOCKED):
        outcome = declared["kind"]
    elif excinfo is not None and isinstance(excinfo.value, _timeout_exceptions()):
        outcome = "timeout"
    elif report.when != "call" or (
        excinfo is not None
        and not isinstance(excinfo.value, AssertionError | pytest.fail.Exception)
    ):
        outcome = "error"
    else:
        outcome = "failed"
    reason = _first_line(text)
    if outcome == "error" and typename and not reason.startswith(typename):
        reason = f"{typename}: {reason}"[:REASON_LIMIT]
    output = _property(report, OUTPUT_PROPERTY)
    if isinstance(output, str) and output:
        text = f"{text}\n\ndriver output during this test:\n{output}"
    result: dict[str, Any] = {
        "outcome": outcome,
        "reason": reason,
        "details": text[:DETAILS_LIMIT],
    }
    metrics = declared.get("metrics")
    if isinstance(metrics, dict):
        result["metrics"] = metrics
    return result


def _timeout_exceptions() -> tuple[type[BaseException], ...]:
    """The exceptions that mean the driver did not answer in time, wherever raised."""
    from hal.burst import BurstTimeout
    from hal.callbacks import CallbackTimeout
    from isolation.channel import DriverTimeout

    return (CallbackTimeout, BurstTimeout, DriverTimeout, TimeoutError)


def _declared_outcome(report: pytest.TestReport) -> str | None:
    """``crash``, ``timeout`` or ``blocked`` when the plugin said so (user property)."""
    for name, value in getattr(report, "user_properties", ()):
        if name == OUTCOME_PROPERTY and value in ("crash", "timeout", "blocked"):
            return value
    return None


def classify_foreign(report: pytest.TestReport) -> dict[str, Any]:
    """A report the plugin did not see made (xdist's report of a crashed worker)."""
    if report.failed and _declared_outcome(report) == "crash":
        lines = report.longreprtext.splitlines()
        line = next((line for line in lines if "crashed" in line), _first_line(report.longreprtext))
        return {
            "outcome": "crash",
            "reason": line.strip()[:REASON_LIMIT],
            "details": report.longreprtext[:DETAILS_LIMIT],
        }
    return classify_phase(report, None)


def combine_phases(outcomes: list[str]) -> str:
    """A test's outcome from its phases': a passed setup does not hide a skipped call."""
    return worst([o for o in outcomes if o != "passed"]) if set(outcomes) - {"passed"} else "passed"


def worst(outcomes: list[str]) -> str:
    """The first of ``outcomes`` in ``PRECEDENCE`` order."""
    return min(outcomes, key=PRECEDENCE.index) if outcomes else "skipped-other"
