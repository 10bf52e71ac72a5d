"""Judging mutated requests (``conformance.test_validate_request``, and the project's own tests
of the validation suite).

The valid request a family mutates (``valid_request`` for ``model_of`` the case: its own
model, or its dynamic-output twin), which request families apply to a case
(``request_family_applies``), the level a mutation's model is prepared at
(``prepare_level``), and what a driver got wrong executing a mutated request on every path
of that level (``mutation_problems`` for one mutation, ``mutations_problems`` for many, their
calls crossing to the driver in round trips of ``MUTATIONS_PER_ROUND_TRIP``): each must answer
INVALID_ARGUMENT (at launch and in the callback for the asynchronous paths), with no output
shapes and both timing fields UINT64_MAX. Prepared models come from the harness's one cache
(``conformance.harness.prepared``); a case the driver declines is skipped as unsupported.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Iterator

from conformance.harness.calls import Outcome, answer, call_many
from conformance.harness.execution import (
    PATHS,
    Execution,
    ExecutionPath,
    burst_carries,
    check_shapes,
    check_timing,
    executed,
    execution_call,
    run,
    runs_under,
)
from conformance.harness.generated import lowest_version
from conformance.harness.mutations import (
    Family,
    Mutation,
    RequestSubject,
    case_id,
    request_families,
)
from conformance.harness.prepared import prepared
from conformance.harness.requests import PackedRequest, pack_request
from conformance.harness.runner import case_twin
from conformance.harness.validating import MUTATIONS_PER_ROUND_TRIP, attempt, levels_for
from hal.types import ErrorStatus, HalVersion, Model, Request

INVALID = ErrorStatus.INVALID_ARGUMENT


def model_of(family: Family, test) -> Model:
    """The model a family's requests are for: the case's, or its dynamic-output twin."""
    return case_twin(test) if family.twin else test.model


@contextlib.contextmanager
def valid_request(model: Model, test) -> Iterator[PackedRequest]:
    """The case's first example as a request for ``model`` in the VTS layout (pools closed on
    exit)."""
    feed = test.feeds[0]
    with pack_request(model, feed.inputs, [out.nbytes for out in feed.outputs]) as packed:
        yield packed


_ADMITTED: dict[tuple[str, HalVersion], frozenset[str]] = {}


def request_family_applies(family: Family, test, hal_level: HalVersion = HalVersion.V1_2) -> bool:
    """Whether some mutation of the family applies to the case's request at a level it has."""
    key = (case_id(test), hal_level)
    if key not in _ADMITTED:
        low = lowest_version(test)
        admitted: frozenset[str] = frozenset()
        if low is not None and test.feeds and not test.expect_failure:
            levels = [v for v in HalVersion if low <= v <= hal_level]
            names = set()
            for twin in (False, True):
                model = case_twin(test) if twin else test.model
                with valid_request(model, test) as packed:
                    subject = RequestSubject(model, packed.request)
                    names |= {
                        f.name
                        for f in request_families()
                        if f.twin == twin and f.applies(subject, levels)
                    }
            admitted = frozenset(names)
        _ADMITTED[key] = admitted
    return family.name in _ADMITTED[key]


def _prepared_for(device, test, model: Model, level: HalVersion, timeout: float):
    """``model`` (the case's or its twin) prepared through ``level``'s method (the harness's
    one cache, ``conformance.harness.prepared``), or the skip it led to."""
    return prepared(device, model, level, timeout, case=test.model)


def paths_at(level: HalVersion) -> list[ExecutionPath]:
    """Every execution path a model prepared through ``level``'s method offers."""
    return [path for path in PATHS if path.level <= level]


def _judged(
    prepared: object,
    request: Request,
    paths: list[ExecutionPath],
    calls: list[tuple[object, str, tuple] | None],
    outcomes: Iterator[Outcome],
    wall_us: int,
    timeout: float,
) -> list[str]:
    """What the driver got wrong executing the invalid ``request`` on each path (empty:
    nothing): the answers of ``calls`` (one per path; None: the burst, run here) taken
    from ``outcomes`` in order, made within ``wall_us`` microseconds."""
    problems: list[str] = []
    for path, call in zip(paths, calls, strict=True):
        found: list[str] = []
        if call is None:
            judge = functools.partial(_judge_burst, prepared, request, path, timeout)
        else:
            judge = functools.partial(
                _judge, request, path, timeout, call, next(outcomes, None), wall_us
            )
        try:
            attempt(found, timeout, judge)
        finally:
            problems += [f if f.startswith(path.id) else f"{path.id}: {f}" for f in found]
    return problems


def _judge_burst(prepared: object, request: Request, path: ExecutionPath, timeout: float) -> None:
    _judge_execution(run(prepared, request, path, timeout), None, request)


def _judge(
    request: Request,
    path: ExecutionPath,
    timeout: float,
    call: tuple[object, str, tuple],
    outcome: Outcome | None,
    wall_us: int,
) -> None:
    if outcome is None:  # an earlier call hung or crashed: its fault was raised
        return
    prepared, method, _ = call
    result = answer(prepared, method, outcome)
    execution = executed(call, result, request, path, timeout, wall_us)
    asynchronous = method in ("execute", "execute_1_2", "execute_1_3")
    _judge_execution(execution, result if asynchronous else None, request)


def _judge_execution(execution: Execution, launch: object, request: Request) -> None:
    path = execution.path
    found = []
    if execution.status != INVALID:
        found.append(f"status {execution.status.name}, expected INVALID_ARGUMENT")
    if launch is not None and launch != INVALID:
        launch = getattr(launch, "name", launch)
        found.append(f"launch status {launch}, expected INVALID_ARGUMENT")
    for check in (
        lambda: check_shapes(execution, len(request.outputs), dynamic=False),
        lambda: check_timing(execution),
    ):
        try:
            check()
        except AssertionError as error:
            found.append(str(error))
    if found:
        raise AssertionError(f"{path.id} ({path.method}): " + "; ".join(found))


def prepare_level(test, mutation: Mutation, hal_level: HalVersion) -> HalVersion | None:
    """The level the case's model is prepared at to try ``mutation`` (the newest it is tried
    at), or None: at none up to ``hal_level``."""
    levels = levels_for(test, mutation, hal_level)
    return max(levels) if levels else None


def mutation_problems(
    device,
    test,
    subject: RequestSubject,
    mutation: Mutation,
    level: HalVersion,
    timeout: float,
    profile: str = "full",
) -> list[str]:
    """Prepare (cached) and execute the mutated request on every path of ``level`` (burst
    paths on the profile's share of cases)."""
    plan = [(mutation, level)]
    return next(iter(mutations_problems(device, test, subject, plan, timeout, profile)))[1]


def mutations_problems(
    device,
    test,
    subject: RequestSubject,
    plan: list[tuple[Mutation, HalVersion]],
    timeout: float,
    profile: str = "full",
) -> Iterator[tuple[Mutation, list[str]]]:
    """Each mutation of ``plan`` (with the level the model is prepared at) and what the
    driver got wrong executing its request on every path of that level, in order; ``Hang``
    or a driver fault stops it at the mutation concerned. The calls of every path but the
    burst, for ``MUTATIONS_PER_ROUND_TRIP`` mutations, go in one round trip (in order, as
    one by one); the bursts run while the answers are judged."""
    for start in range(0, len(plan), MUTATIONS_PER_ROUND_TRIP):
        runs = []
        for mutation, level in plan[start : start + MUTATIONS_PER_ROUND_TRIP]:
            prepared = _prepared_for(device, test, subject.model, level, timeout)
            mutated = mutation.apply(subject.request)
            paths = [
                path
                for path in paths_at(level)
                if runs_under(path, case_id(test), profile)
                and (path.method != "burst" or burst_carries(mutated))
            ]
            calls = [execution_call(prepared, mutated, path) for path in paths]
            runs.append((mutation, prepared, mutated, paths, calls))
        began = time.perf_counter_ns()
        outcomes = iter(call_many([c for run in runs for c in run[4] if c is not None]))
        wall_us = (time.perf_counter_ns() - began) // 1000
        for mutation, prepared, mutated, paths, calls in runs:
            yield mutation, _judged(prepared, mutated, paths, calls, outcomes, wall_us, timeout)
