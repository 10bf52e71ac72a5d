"""Request validation: mutated requests must be refused with INVALID_ARGUMENT on every path.

Every request family of ``conformance.harness.mutations`` runs on a valid
request for a generated case (its first example, in the VTS layout: inputs
packed in one pool, outputs in another), two ways as in
``test_validate_model``: ``test_validate_request[<family>/<case>]`` (the
deterministic enumeration on representative cases of the profile) and
``test_validate_request_sampled[<family>]`` (hypothesis over every case).

The case is prepared through the driver's level (or, for a mutation invalid
only before 1.2, through the newest older level the model is valid at); a
case the driver declines is skipped as unsupported. Each mutated request goes
through every execution path of that level (``execute``, ``execute_1_2`` and
``execute_synchronously``, each MeasureTiming; at 1.3 also ``execute_1_3``,
``execute_synchronously_1_3`` and ``execute_fenced``), and each must answer
INVALID_ARGUMENT: at launch and in the callback for the asynchronous paths,
with no output shapes and both timing fields UINT64_MAX. The judging is
``conformance.harness.request_validation``'s.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from conformance.harness import items
from conformance.harness.cases import GeneratedTest
from conformance.harness.generated import lowest_version
from conformance.harness.marks import cases, cases_wanted
from conformance.harness.mutations import (
    FAMILIES,
    RequestSubject,
    request_families,
)
from conformance.harness.request_validation import (
    model_of,
    mutation_problems,
    mutations_problems,
    valid_request,
)
from conformance.harness.request_validation import prepare_level as _prepare_level
from conformance.harness.request_validation import request_family_applies as family_applies
from conformance.harness.rerun import rerun_command
from conformance.harness.validating import (
    Hang,
    case_named,
    cases_by_id,
    collect_failures,
    deterministic_items,
    failure_report,
    sampled_items,
)
from hal.types import HalVersion


@functools.cache
def _requested() -> dict[str, GeneratedTest]:
    """Every case requests are mutated on, by id: VTS 1.3 sends no request mutation to an
    expected-failure model."""
    return {cid: test for cid, test in cases_by_id().items() if not test.expect_failure}


def _case(cid: str) -> GeneratedTest:
    """The case of id ``cid`` (``case_named``); KeyError if there is none or it is an
    expected-failure case."""
    test = case_named(cid)
    if test.expect_failure:
        raise KeyError(cid)
    return test


def _request_params(config: pytest.Config) -> list:
    profile, wanted = config.getoption("--nnhal-profile"), cases_wanted(config)
    families = request_families()
    return deterministic_items(families, profile, family_applies, "validate_request", wanted)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ == "test_validate_request_sampled":
        metafunc.parametrize("family_name", sampled_items(request_families(), "validate_request"))


@cases(("family_name", "case"), _request_params)
def test_validate_request(family_name: str, case: str, nnhal) -> None:
    device, hal_level, hal_timeout = nnhal.device, nnhal.level, nnhal.timeout
    family, test = FAMILIES[family_name], _case(case)
    profile = nnhal.config.getoption("--nnhal-profile")
    if lowest_version(test) is None:
        pytest.fail(f"generated model {case} is invalid: regenerate the corpus")
    model = model_of(family, test)
    with valid_request(model, test) as packed:
        subject = RequestSubject(model, packed.request)
        plan = [(m, _prepare_level(test, m, hal_level)) for m in family.mutations(subject)]
        plan = [(m, level) for m, level in plan if level is not None]
        if not plan:
            pytest.skip(
                f"no {family_name} mutation of this request applies at HAL {hal_level} or below"
            )
        judged = (
            (mutation, [f"prepared at HAL {level}: {p}" for p in problems])
            for (mutation, problems), (_, level) in zip(
                mutations_problems(device, test, subject, plan, hal_timeout, profile),
                plan,
                strict=True,
            )
        )
        failures, hang = collect_failures(judged, [m for m, _ in plan])
    if failures:
        rerun = rerun_command(
            nnhal.config, __name__, f"test_validate_request[{family_name}/{case}]"
        )
        items.fail(
            failure_report(family, case, failures, len(plan), rerun, hang),
            kind=items.TIMEOUT if hang else items.FAILED,
        )


_APPLICABLE: dict[tuple[str, HalVersion], list[str]] = {}


@given(data=st.data())
def test_validate_request_sampled(
    family_name: str,
    data: st.DataObject,
    device: object,
    hal_level: HalVersion,
    hal_timeout: float,
    nnhal_config: pytest.Config,
) -> None:
    family = FAMILIES[family_name]
    key = (family_name, hal_level)
    if key not in _APPLICABLE:
        _APPLICABLE[key] = [
            cid for cid, test in _requested().items() if family_applies(family, test, hal_level)
        ]
    if not _APPLICABLE[key]:
        pytest.skip(f"no generated case admits {family_name} at HAL {hal_level} or below")
    case = data.draw(st.sampled_from(_APPLICABLE[key]), label="case")
    test = _case(case)
    model = model_of(family, test)
    with valid_request(model, test) as packed:
        subject = RequestSubject(model, packed.request)
        mutation = data.draw(family.strategy(subject), label="mutation")
        level = _prepare_level(test, mutation, hal_level)
        if level is None:
            reject()
        try:
            profile = nnhal_config.getoption("--nnhal-profile")
            problems = mutation_problems(
                device, test, subject, mutation, level, hal_timeout, profile
            )
        except pytest.skip.Exception:
            return  # the driver does not support this case: nothing to execute
        except Hang as stop:
            problems = [str(stop)]
    if problems:
        selector = f"test_validate_request_sampled[{family_name}]"
        rerun = rerun_command(nnhal_config, __name__, selector)
        raise AssertionError(failure_report(family, case, [(mutation, problems)], 1, rerun))
