"""Model validation: mutated generated models must be refused with INVALID_ARGUMENT.

Every model family of ``conformance.harness.mutations`` runs two ways:

* ``test_validate_model[<family>/<case>]``: the family's deterministic
  enumeration (every operand x every VTS value, ...) on representative cases
  (the ``--nnhal-profile`` decides which: one per spec for ``ci``, one per
  spec and kind for ``full``, all for ``thorough``; a family no
  representative admits runs on the first case that does);
* ``test_validate_model_sampled[<family>]``: hypothesis draws a case from the
  whole corpus and a mutation from the family's strategy, as many times as
  the profile says.

For each mutation and each HAL level from the original model's lowest valid
level up to the driver's (only those at which the mutation is invalid: a
1.2-only feature is tried through the 1.0 and 1.1 methods), the driver must
answer ``get_supported_operations*`` with INVALID_ARGUMENT and
``prepare_model*`` with INVALID_ARGUMENT both at launch and in the callback,
with no prepared model. An escaped exception, a protocol breach or a missing
callback (``--hal-timeout``) is a failure too. The execution-preference family
only prepares (1.1 and 1.2). The judging is ``conformance.harness.model_validation``'s.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from conformance.harness import items
from conformance.harness.calls import supported_operations
from conformance.harness.extensions import require_extensions, undeclared
from conformance.harness.generated import lowest_version
from conformance.harness.marks import case_marks, cases, cases_wanted, mark
from conformance.harness.model_validation import model_family_applies as family_applies
from conformance.harness.model_validation import model_problems, models_problems
from conformance.harness.mutations import (
    FAMILIES,
    Family,
    case_id,
    copy_model,
    model_families,
    representatives,
)
from conformance.harness.rerun import rerun_command
from conformance.harness.validating import (
    Hang,
    case_named,
    cases_by_id,
    collect_failures,
    deterministic_items,
    failure_report,
    levels_for,
    sampled_items,
)
from hal.types import (
    ErrorStatus,
    ExtensionNameAndPrefix,
    HalVersion,
    Model,
    OperandType,
    OperationType,
    is_tensor_type,
    make_extension_type,
)
from hal.validation import validate_model


@functools.cache
def _extended() -> frozenset[str]:
    """The cases that use vendor extensions (a driver may not declare them)."""
    return frozenset(cid for cid, t in cases_by_id().items() if t.model.extension_name_to_prefix)


# ---------------------------------------------------------------------------
# Parametrization
# ---------------------------------------------------------------------------


def _model_params(config: pytest.Config) -> list:
    profile = config.getoption("--nnhal-profile")
    wanted = cases_wanted(config)
    return deterministic_items(model_families(), profile, family_applies, "validate_model", wanted)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ == "test_validate_model_sampled":
        metafunc.parametrize("family_name", sampled_items(model_families(), "validate_model"))


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------


@cases(("family_name", "case"), _model_params)
def test_validate_model(family_name: str, case: str, nnhal) -> None:
    device, hal_level, hal_timeout = nnhal.device, nnhal.level, nnhal.timeout
    family, test = FAMILIES[family_name], case_named(case)
    if lowest_version(test) is None:
        pytest.fail(f"generated model {case} is invalid: regenerate the corpus")
    require_extensions(device, test.model)  # an undeclared extension: unsupported
    plan = [(m, levels_for(test, m, hal_level)) for m in family.mutations(test.model)]
    plan = [(m, levels) for m, levels in plan if levels]
    if not plan:
        pytest.skip(f"no {family_name} mutation of this model applies at HAL {hal_level} or below")
    failures, hang = collect_failures(
        models_problems(device, test.model, plan, hal_timeout), [m for m, _ in plan]
    )
    if failures:
        rerun = rerun_command(nnhal.config, __name__, f"test_validate_model[{family_name}/{case}]")
        items.fail(
            failure_report(family, case, failures, len(plan), rerun, hang),
            kind=items.TIMEOUT if hang else items.FAILED,
        )


_APPLICABLE: dict[tuple[str, HalVersion], list[str]] = {}


def applicable_cases(family: Family, hal_level: HalVersion, applies) -> list[str]:
    key = (family.name, hal_level)
    if key not in _APPLICABLE:
        _APPLICABLE[key] = [
            cid for cid, test in cases_by_id().items() if applies(family, test, hal_level)
        ]
    return _APPLICABLE[key]


@given(data=st.data())
def test_validate_model_sampled(
    family_name: str,
    data: st.DataObject,
    device: object,
    hal_level: HalVersion,
    hal_timeout: float,
    nnhal_config: pytest.Config,
) -> None:
    family = FAMILIES[family_name]
    applicable = applicable_cases(family, hal_level, family_applies)
    if not applicable:
        pytest.skip(f"no generated model admits {family_name} at HAL {hal_level} or below")
    # A case of an extension the driver does not declare is not its to judge.
    applicable = [
        c for c in applicable if c not in _extended() or not undeclared(device, case_named(c).model)
    ]
    if not applicable:
        items.unsupported(
            f"unsupported: every generated model admitting {family_name} uses an extension the "
            "driver does not declare"
        )
    case = data.draw(st.sampled_from(applicable), label="case")
    test = case_named(case)
    mutation = data.draw(family.strategy(test.model), label="mutation")
    levels = levels_for(test, mutation, hal_level)
    if not levels:
        reject()
    try:
        problems = model_problems(device, test.model, mutation, levels, hal_timeout)
    except Hang as stop:
        problems = [str(stop)]
    if problems:
        rerun = rerun_command(nnhal_config, __name__, f"test_validate_model_sampled[{family_name}]")
        raise AssertionError(failure_report(family, case, [(mutation, problems)], 1, rerun))


# ---------------------------------------------------------------------------
# Valid models the driver cannot run
# ---------------------------------------------------------------------------

UNKNOWN_EXTENSION = "com.example.nnhal_conformance.unsupported"
"""An extension no driver declares (the ``com.example`` domain is for examples)."""
_UNKNOWN_PREFIX = 0x4E4E  # any 16-bit prefix the case does not use: "NN"

KINDS = {
    "oem_operation": (
        "parity",
        "its first operation made an OEM_OPERATION and, where one is read by it alone, a "
        "tensor input made a TENSOR_OEM_BYTE (valid in any model)",
        "get_supported_operations* answers NONE with one bool per operation",
    ),
    "unknown_extension": (
        "strict",
        f"its first operation made operation 1 of extension {UNKNOWN_EXTENSION}, declared in "
        "the model but by no driver (valid at HAL 1.2)",
        "get_supported_operations_1_2 answers NONE and marks that operation unsupported",
    ),
}
"""How a valid model the driver cannot run is made from a case: its tier, what is changed, and
what the driver must answer."""


_CONTROL_FLOW = (OperationType.IF, OperationType.WHILE)


def _changed_operation(model: Model) -> int | None:
    """The operation made unrunnable: the first of the main subgraph but IF and WHILE (whose
    SUBGRAPH inputs no other operation may read); None if there is none."""
    return next((j for j, op in enumerate(model.operations) if op.type not in _CONTROL_FLOW), None)


def _unrunnable(model: Model, kind: str) -> Model:
    changed = copy_model(model)
    j = _changed_operation(changed)
    if kind == "oem_operation":
        first = changed.operations[j]
        first.type = OperationType.OEM_OPERATION
        for i in first.inputs:  # an OEM operand too, where only this operation reads it
            operand = changed.operands[i]
            readers = sum(i in op.inputs for op in changed.operations)
            if readers == 1 and first.inputs.count(i) == 1 and is_tensor_type(operand.type):
                operand.type, operand.extra_params = OperandType.TENSOR_OEM_BYTE, None
                break
    else:
        changed.operations[j].type = make_extension_type(_UNKNOWN_PREFIX, 1)
        changed.extension_name_to_prefix = [
            *changed.extension_name_to_prefix,
            ExtensionNameAndPrefix(UNKNOWN_EXTENSION, _UNKNOWN_PREFIX),
        ]
    return changed


def _unrunnable_params(config: pytest.Config) -> list:
    chosen = [
        t
        for t in representatives(list(cases_by_id().values()), "ci")
        if _changed_operation(t.model) is not None
    ]
    return [
        pytest.param(
            kind,
            case_id(test),
            id=f"{kind}/{case_id(test)}",
            marks=[mark("tier", tier), mark("validate_model"), *case_marks(test)],
        )
        for kind, (tier, *_) in KINDS.items()
        for test in chosen
    ]


@cases(("kind", "case"), _unrunnable_params)
def test_valid_model_the_driver_cannot_run(kind: str, case: str, nnhal) -> None:
    """A model the driver cannot run is not invalid: it answers NONE, never INVALID_ARGUMENT
    (and, for an extension it does not declare, marks that operation unsupported)."""
    device, level, test = nnhal.device, nnhal.level, case_named(case)
    if kind == "unknown_extension" and level < HalVersion.V1_2:
        pytest.skip(f"extensions are a HAL 1.2 feature; the driver is tested at HAL {level}")
    version = lowest_version(test)
    if version is None:
        pytest.fail(f"generated model {case} is invalid: regenerate the corpus")
    require_extensions(device, test.model)  # the case's own extensions, if any
    model = _unrunnable(test.model, kind)
    at = max(version, HalVersion.V1_2) if kind == "unknown_extension" else max(version, level)
    if at > level:
        pytest.skip(f"the case needs HAL {at}; the driver is tested at HAL {level}")
    verdict = validate_model(model, at)
    assert verdict.ok, f"the harness built an invalid {kind} model from {case}: {verdict}"
    status, answers = supported_operations(device, model, at)
    rerun = rerun_command(
        nnhal.config, __name__, f"test_valid_model_the_driver_cannot_run[{kind}/{case}]"
    )
    if status != ErrorStatus.NONE:
        pytest.fail(
            f"{case} with {KINDS[kind][1]}: get_supported_operations at HAL {at} "
            f"returned {status.name}; the model is valid, so the answer is NONE with the "
            f"operation marked unsupported\nrerun: {rerun}",
            pytrace=False,
        )
    j = _changed_operation(test.model)
    if kind == "unknown_extension" and answers[j]:
        pytest.fail(
            f"{case} with {KINDS[kind][1]}: get_supported_operations_1_2 "
            f"claims operation {j} of extension {UNKNOWN_EXTENSION}, which the driver does not "
            f"declare\nrerun: {rerun}",
            pytrace=False,
        )
