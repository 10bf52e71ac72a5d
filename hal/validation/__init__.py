"""The rules a model and a request must satisfy before a driver may use them.

A driver calls ``validate_model`` before it answers ``get_supported_operations*``
or prepares a model, ``validate_execution_preference`` on the preference given
to ``prepare_model_1_1``/``_1_2``/``_1_3``, ``validate_priority`` on the priority
given to ``prepare_model_1_3``, ``validate_time_argument`` on each deadline, loop
timeout and duration of a 1.3 call, and ``validate_request`` before it executes;
any violation means INVALID_ARGUMENT. Each rule has a stable name, a tier
(``parity``: what Android 10 VTS for HAL 1.2 requires; ``strict``: our checks
beyond it) and a scope. ``RULES`` lists them all.

The validators report every problem (unless asked for at most ``limit``: a
driver needs only the first) and never raise on a malformed
record: any field may hold any integer (an enum value that does not exist, a
negative index, a size beyond 32 bits), a float field may be NaN, and optional
parts (handles, extra parameters, pools) may be missing. ``disabled`` switches
single rules off by name, so the suite can be shown to catch a driver that
lacks exactly that check.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import IntEnum

from hal.operations import Tier
from hal.types import (
    ExecutionPreference,
    HalVersion,
    Model,
    Priority,
    Request,
    is_optional_nanoseconds,
)

# The rule modules register their rules on import, in this order (RULES keeps it): the
# 1.3 subgraph and control-flow rules last.
from hal.validation import model_rules, operation_rules, request_rules, subgraph_rules  # noqa: F401
from hal.validation.core import (
    _MODEL_CHECKS,
    _PREFERENCE_RULE,
    _PRIORITY_RULE,
    _REQUEST_CHECKS,
    _TIME_RULE,
    INT32_MAX,
    RULES,
    UINT32_MAX,
    Rule,
    ValidationResult,
    Violation,
    _checked_disabled,
    _checked_limit,
    _int,
    _ModelFacts,
    _run,
    is_token,
)
from hal.validation.operation_rules import slot_positions
from hal.validation.request_rules import _RequestFacts
from hal.validation.subgraph_rules import referenced_index

# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


def validate_model(
    model: Model,
    version: HalVersion,
    *,
    disabled: Collection[str] = (),
    limit: int | None = None,
) -> ValidationResult:
    """Every violation of the model rules by ``model`` taken as a ``version`` model.

    ``limit``: stop after that many violations (rules run in ``RULES`` order);
    a caller that needs only ``ok``, as a driver answering INVALID_ARGUMENT
    does, passes 1.
    """
    names = _checked_disabled(disabled)
    facts = _ModelFacts(model, version, disabled=names)
    return _run(_MODEL_CHECKS, facts, names, _checked_limit(limit))


def validate_request(
    request: Request,
    model: Model,
    version: HalVersion,
    *,
    disabled: Collection[str] = (),
    memory_domains: bool = False,
    limit: int | None = None,
) -> ValidationResult:
    """Every violation of the request rules by ``request`` for ``model`` prepared at ``version``.

    ``memory_domains``: the driver implements ``IMemoryDomains``, so token pools
    are allowed; whether a token names a live buffer in a declared role is for
    the driver to check, it alone knows its buffers. ``limit`` as for
    ``validate_model``.
    """
    validator = RequestValidator(model, version, disabled=disabled)
    return validator(request, memory_domains=memory_domains, limit=limit)


class RequestValidator:
    """``validate_request`` for the requests of one prepared model, the model read once.

    A driver makes one when it prepares a model and calls it on every request
    (``validator(request, memory_domains=..., limit=...)``, the arguments as for
    ``validate_request``), instead of reading the model's operands again each
    time. The model must not change while the validator is used, as a prepared
    model's may not.
    """

    def __init__(
        self, model: Model, version: HalVersion, *, disabled: Collection[str] = ()
    ) -> None:
        self._model = _ModelFacts(model, version)
        self._disabled = _checked_disabled(disabled)

    def __call__(
        self, request: Request, *, memory_domains: bool = False, limit: int | None = None
    ) -> ValidationResult:
        facts = _RequestFacts(request, self._model, memory_domains)
        return _run(_REQUEST_CHECKS, facts, self._disabled, _checked_limit(limit))


def minimum_version(model: Model, *, disabled: Collection[str] = ()) -> HalVersion | None:
    """The oldest HAL version at which ``model`` is valid, or None if it is valid at none.

    It decides which prepare methods a model may go through: a model whose
    minimum is 1.1 may be given to ``prepare_model_1_1`` and ``_1_2``, never
    to ``prepare_model``.
    """
    for version in HalVersion:
        if validate_model(model, version, disabled=disabled, limit=1).ok:
            return version
    return None


def validate_execution_preference(
    preference: int, *, disabled: Collection[str] = ()
) -> ValidationResult:
    """The preference given to ``prepare_model_1_1``/``_1_2``/``_1_3`` must be one of the
    three."""
    return _one_of(
        preference, ExecutionPreference, _PREFERENCE_RULE, "execution preference", disabled
    )


def validate_priority(priority: int, *, disabled: Collection[str] = ()) -> ValidationResult:
    """The priority given to ``prepare_model_1_3`` must be LOW, MEDIUM or HIGH (1.3)."""
    return _one_of(priority, Priority, _PRIORITY_RULE, "priority", disabled)


def _one_of(
    value: int, members: type[IntEnum], rule: Rule, what: str, disabled: Collection[str]
) -> ValidationResult:
    """A violation of ``rule`` unless ``value`` is one of ``members`` (or the rule is
    disabled)."""
    names = _checked_disabled(disabled)
    if _int(value) in set(members) or rule.name in names:
        return ValidationResult()
    known = ", ".join(f"{m.name} ({m.value})" for m in members)
    return ValidationResult((Violation(rule, f"{what} {value!r} is not one of {known}"),))


def validate_time_argument(
    value: object, what: str = "deadline", *, disabled: Collection[str] = ()
) -> ValidationResult:
    """A deadline (``OptionalTimePoint``), loop timeout or duration
    (``OptionalTimeoutDuration``) of a 1.3 call, named ``what`` in the message: None or
    an int in [0, 2**64). Any such value is valid, however early a deadline: the
    driver answers a deadline it cannot meet with MISSED_DEADLINE_* (or ignores it),
    never with INVALID_ARGUMENT. Only a value that is no count of nanoseconds at all (a
    float, a negative number, a bool) breaks the rule."""
    names = _checked_disabled(disabled)
    if is_optional_nanoseconds(value) or _TIME_RULE.name in names:
        return ValidationResult()
    message = f"{what} {value!r} is neither None nor a count of nanoseconds in [0, 2**64)"
    return ValidationResult((Violation(_TIME_RULE, message),))


__all__ = [
    "INT32_MAX",
    "RULES",
    "UINT32_MAX",
    "RequestValidator",
    "Rule",
    "Tier",
    "ValidationResult",
    "Violation",
    "is_token",
    "referenced_index",
    "slot_positions",
    "validate_execution_preference",
    "validate_model",
    "validate_priority",
    "validate_request",
    "validate_time_argument",
]


def rules_table() -> str:
    """Every rule as one line: name, tier, scope and what it demands (``nnhal-rules``)."""
    width = max(len(name) for name in RULES)
    return "\n".join(
        f"{rule.name:<{width}}  {rule.tier.value:<6}  {rule.scope:<7}  {rule.description}"
        for rule in sorted(RULES.values(), key=lambda r: (r.scope, r.name))
    )


def main() -> int:
    """``nnhal-rules``: print the validation rules a driver must enforce."""
    print(rules_table())
    return 0
