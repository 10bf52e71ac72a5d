"""Judging mutated models (``conformance.test_validate_model``, and the project's own tests of
the validation suite).

Which model families apply to a case (``model_family_applies``), and what a driver got wrong
about a mutated model at each level it is tried at (``model_problems`` for one mutation,
``models_problems`` for many, their calls crossing to the driver in round trips of
``MUTATIONS_PER_ROUND_TRIP``): ``get_supported_operations*`` must answer INVALID_ARGUMENT
(but for an execution-preference mutation, which only prepares), and ``prepare_model*``
INVALID_ARGUMENT both at launch and in the callback.
"""

from __future__ import annotations

from collections.abc import Iterator

from conformance.harness.calls import (
    Outcome,
    answer,
    call_many,
    prepare_call,
    prepared,
    supported_answer,
    supported_call,
)
from conformance.harness.cases import GeneratedTest
from conformance.harness.generated import lowest_version
from conformance.harness.mutations import Family, Mutation, close_new_pools
from conformance.harness.validating import MUTATIONS_PER_ROUND_TRIP, attempt
from hal.levels import level as level_of
from hal.types import ErrorStatus, ExecutionPreference, HalVersion, Model

INVALID = ErrorStatus.INVALID_ARGUMENT

_ADMITS: dict[tuple[str, int, HalVersion], tuple[GeneratedTest, bool]] = {}
"""``model_family_applies``'s answers, by family, case object and level. A case is known by
its identity (its id was a third of the collection's cost, made again on every call): the
entry holds the case, so no other object can take its identity while the entry exists."""


def model_family_applies(
    family: Family, test: GeneratedTest, hal_level: HalVersion = HalVersion.V1_2
) -> bool:
    """Whether some mutation of the family applies to the case at a level up to ``hal_level``."""
    key = (family.name, id(test), hal_level)
    if key not in _ADMITS:
        low = lowest_version(test)
        levels = [v for v in HalVersion if low is not None and low <= v <= hal_level]
        _ADMITS[key] = (test, bool(levels) and family.applies(test.model, levels))
    return _ADMITS[key][1]


# ---------------------------------------------------------------------------
# Judging one mutation
# ---------------------------------------------------------------------------


def model_problems(
    device: object,
    model: Model,
    mutation: Mutation,
    levels: list[HalVersion],
    timeout: float,
) -> list[str]:
    """What the driver got wrong about ``mutation`` of ``model`` at each level (empty: nothing)."""
    return next(iter(models_problems(device, model, [(mutation, levels)], timeout)))[1]


def models_problems(
    device: object,
    model: Model,
    plan: list[tuple[Mutation, list[HalVersion]]],
    timeout: float,
) -> Iterator[tuple[Mutation, list[str]]]:
    """Each mutation of ``plan`` (with the levels it is tried at) and what the driver got
    wrong about it, in order; ``Hang`` or a driver fault stops it at the mutation
    concerned. The calls of ``MUTATIONS_PER_ROUND_TRIP`` mutations at every level go in
    one round trip (made in order, as one by one), then each answer is judged."""
    for start in range(0, len(plan), MUTATIONS_PER_ROUND_TRIP):
        chunk = plan[start : start + MUTATIONS_PER_ROUND_TRIP]
        mutated: list[Model] = []
        try:
            for mutation, _ in chunk:
                mutated.append(mutation.apply(model))
            plans = [
                [_calls(device, changed, mutation, level) for level in levels]
                for changed, (mutation, levels) in zip(mutated, chunk, strict=True)
            ]
            outcomes = iter(call_many([c for levels in plans for calls in levels for c in calls]))
            for changed, (mutation, levels), level_plans in zip(mutated, chunk, plans, strict=True):
                problems: list[str] = []
                for level, level_plan in zip(levels, level_plans, strict=True):
                    answers = [(call, next(outcomes, None)) for call in level_plan]
                    attempt(
                        problems,
                        timeout,
                        lambda c=changed, m=mutation, lv=level, a=answers: _judge(
                            c, m, lv, timeout, a
                        ),
                    )
                yield mutation, problems
        finally:
            for changed in mutated:
                close_new_pools(model, changed)


def _calls(
    device: object, mutated: Model, mutation: Mutation, level: HalVersion
) -> list[tuple[object, str, tuple]]:
    """The calls judging ``mutation`` at ``level`` makes: supported operations (but for a
    preference mutation), then prepare."""
    preference = (
        ExecutionPreference.FAST_SINGLE_ANSWER
        if mutation.preference is None
        else mutation.preference
    )
    plan = [prepare_call(device, mutated, level, preference)]
    if mutation.preference is None:
        plan.insert(0, supported_call(device, mutated, level))
    return plan


def _judge(
    mutated: Model,
    mutation: Mutation,
    level: HalVersion,
    timeout: float,
    answers: list[tuple[tuple[object, str, tuple], Outcome | None]],
) -> None:
    found = []
    results = []
    for (device, method, _), outcome in answers:
        if outcome is None:  # an earlier call hung or crashed: its fault was raised
            return
        results.append(answer(device, method, outcome))
    if mutation.preference is None:
        status, _ = supported_answer(answers[0][0][0], mutated, level, results[0])
        if status != INVALID:
            found.append(
                f"{level_of(level).supported_operations} returned {status.name}, expected INVALID_ARGUMENT"
            )
    preparation = prepared(answers[-1][0], results[-1], level, timeout)
    if preparation.launch_status != INVALID or preparation.status != INVALID:
        found.append(
            f"{preparation.method} answered launch {preparation.launch_status.name}, callback "
            f"{preparation.status.name}; expected INVALID_ARGUMENT for both"
        )
    if found:
        raise AssertionError("; ".join(found))
