"""Operation forms: an operation with one operand type, the unit the report's scope judges.

``plugins.report.document`` gives each form of a run a status (``form_status``);
the verdict and both renderings name an operation with its forms in words
(``describe_operation``): ``ADD (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16
declined)``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from plugins.report.facts import BAD_OUTCOMES

FORM_PASSED = "passed"
FORM_FAILED = "failed"
FORM_UNCREDITED = "not credited"
FORM_DECLINED = "declined"
FORM_STATUSES = (FORM_PASSED, FORM_FAILED, FORM_UNCREDITED, FORM_DECLINED)
"""What an operation form (an operation with one operand type) can be, in the order the
scope names them: see ``form_status``."""


def form_status(counts: Counter, credited: int) -> str | None:
    """A form's status from its generated tests' outcomes (``credited``: how many passed
    while comparing output values). failed: one of them did not pass (failed, crash,
    timeout, blocked, error) or is a known failure; passed: else one that compared values
    passed; not credited: else one passed, comparing no value; declined: else the driver
    declined one (``unsupported``). None when every one was skipped for another reason."""
    if any(counts[o] for o in (*BAD_OUTCOMES, "expected-failure")):
        return FORM_FAILED
    if credited:
        return FORM_PASSED
    if counts["passed"]:
        return FORM_UNCREDITED
    if counts["unsupported"]:
        return FORM_DECLINED
    return None


def form_order(operand_type: str) -> tuple:
    """How the scope orders an operation's operand types: as ``OperandType`` numbers them
    (TENSOR_FLOAT32 before TENSOR_QUANT8_ASYMM before TENSOR_FLOAT16), a relaxed form after
    its type, an extension's type or an unknown name after every known one."""
    from hal.types import OperandType

    base, relaxed, _ = operand_type.partition("+")
    member = OperandType.__members__.get(base)
    return (member is None, int(member) if member is not None else 0, base, relaxed)


def describe_forms(forms: dict[str, str]) -> str:
    """An operation's forms (operand type -> status) in words: the passed ones, then the
    failed, the not credited and the declined ones, each group after a semicolon and
    named by its status: ``TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16 declined``."""
    groups = []
    for status in FORM_STATUSES:
        types = sorted((t for t, s in forms.items() if s == status), key=form_order)
        if types:
            names = ", ".join(types)
            groups.append(names if status == FORM_PASSED else f"{names} {status}")
    return "; ".join(groups)


def describe_operation(scope: dict[str, Any], operation: str) -> str:
    """``ADD (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16 declined)``: an operation
    with its forms (``describe_forms``); the bare name for a report that has no forms."""
    forms = (scope.get("forms") or {}).get(operation)
    return f"{operation} ({describe_forms(forms)})" if forms else operation
