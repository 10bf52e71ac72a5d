"""What the model and request validation tests share (``conformance.test_validate_model`` and
``conformance.test_validate_request``).

The levels a mutation is tried at (``levels_for``), running one check so that a failure becomes
a problem and a hang stops the item (``attempt``, ``Hang``), how many mutations go to a driver
in one round trip (``MUTATIONS_PER_ROUND_TRIP``), the failures and their report
(``collect_failures``, ``failure_report``), and the parametrization of the family items
(``deterministic_items``: each family on representative cases, those with control flow (HAL
1.3 only) admitted at 1.3; ``sampled_items``: each family once, for hypothesis).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator

import pytest

from conformance.harness import statuses
from conformance.harness.cases import GeneratedTest
from conformance.harness.generated import lowest_version, module_cases, named_modules
from conformance.harness.marks import case_marks, level_marks, mark
from conformance.harness.mutations import (
    Family,
    Mutation,
    case_id,
    corpus,
    representatives,
    validated,
)
from hal.types import HalVersion


@functools.cache
def cases_by_id() -> dict[str, GeneratedTest]:
    """Every case the validation runs on (``mutations.corpus``), by id (built once per
    process)."""
    return {case_id(test): test for test in corpus()}


def case_named(cid: str) -> GeneratedTest:
    """The case of id ``cid``, from its spec module alone when the id names one
    (``named_modules``: a rerun of one item builds no other case), else from
    ``cases_by_id``; KeyError if there is none."""
    modules = named_modules([cid])
    found = _module_ids(modules[0]).get(cid) if modules else None
    return found if found is not None else cases_by_id()[cid]


@functools.cache
def _module_ids(module: str) -> dict[str, GeneratedTest]:
    """The cases of a suite's generated module the validation runs on, by id."""
    return {case_id(t): t for t in validated(module_cases(module))}


def levels_for(test: GeneratedTest, mutation: Mutation, hal_level: HalVersion) -> list[HalVersion]:
    """The levels a mutation is tried at: valid for the original, invalid for the mutation."""
    low = lowest_version(test)
    if low is None:
        return []
    return [v for v in HalVersion if low <= v <= hal_level and v in mutation.levels]


# ---------------------------------------------------------------------------
# Judging one mutation
# ---------------------------------------------------------------------------


class Hang(Exception):
    """The driver did not answer within the run's timeout: stop trying that item."""


def attempt(problems: list[str], timeout: float, call: Callable[[], None]) -> None:
    """Run one check; a failure of the calling convention becomes a problem, a hang ``Hang``."""
    start = time.monotonic()
    try:
        with statuses.expecting_error():  # a resource refusal of an invalid argument fails
            call()
    except (pytest.fail.Exception, AssertionError) as error:
        problems.append(str(getattr(error, "msg", None) or error).strip())
        if time.monotonic() - start >= timeout:
            raise Hang(problems[-1]) from None


MUTATIONS_PER_ROUND_TRIP = 32
"""Mutations whose calls cross to a driver service together (one round trip)."""


def collect_failures(
    judged: Iterator[tuple[Mutation, list[str]]], planned: list[Mutation]
) -> tuple[list[tuple[Mutation, list[str]]], str | None]:
    """The mutations the driver got wrong, each with what it got wrong, from ``judged``
    (each of the ``planned`` mutations and its problems, in order, until ``Hang``); and
    after a hang, how many mutations were left untried."""
    failures: list[tuple[Mutation, list[str]]] = []
    count = 0
    try:
        for mutation, problems in judged:
            count += 1
            if problems:
                failures.append((mutation, problems))
    except Hang as stop:
        failures.append((planned[count], [str(stop)]))
        return failures, f"{len(planned) - count - 1} mutation(s) left untried"
    return failures, None


def failure_report(
    family: Family,
    where: str,
    failures: list[tuple[Mutation, list[str]]],
    tried: int,
    rerun: str,
    hang: str | None = None,
) -> str:
    """The failure message: every mutation not refused, with what came back, and the rerun."""
    lines = [
        f"{family.name} ({family.tier.value}; rules {', '.join(family.rules)}) on {where}: "
        f"{len(failures)} of {tried} mutation(s) not refused as required"
    ]
    for mutation, problems in failures:
        lines.append(f"- {mutation.description}")
        lines.extend(f"    {problem}" for problem in problems)
    if hang:
        lines.append(f"stopped after the driver hung: {hang}")
    lines.append(f"rerun: {rerun}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Parametrization
# ---------------------------------------------------------------------------


def _level_marks(family: Family) -> tuple:
    """A family of a later level's features is built only for drivers of that level."""
    return level_marks(family.level) if family.level is not None else ()


def family_marks(family: Family, test: GeneratedTest, category: str) -> list:
    marks = [
        mark("tier", family.tier.value),
        mark(category),
        mark("validation_family", family.name),
        *case_marks(test),
        *_level_marks(family),
    ]
    if family.pending:
        marks.append(
            pytest.mark.skip(
                reason=f"pending: hal.validation has no rule {', '.join(family.pending)}"
            )
        )
    return marks


_ITEMS: dict[tuple[str, str], list] = {}


def deterministic_items(
    families: list[Family],
    profile: str,
    applies: Callable[..., bool],
    category: str,
    wanted: frozenset[str] | None = None,
) -> list:
    """The (family, case) parameters of a category for a profile (built once per process),
    each ``family/case``; only the ``wanted`` ones, when given, if ``_named_items`` can
    tell them from their spec modules alone (a rerun of one item)."""
    if wanted is not None:
        named = _named_items(families, profile, applies, category, wanted)
        if named is not None:
            return named
    key = (category, profile)
    if key not in _ITEMS:
        _ITEMS[key] = _deterministic_items(families, profile, applies, category)
    return _ITEMS[key]


def _param(family: Family, test: GeneratedTest, category: str, from_1_3: bool):
    """The parameter of ``family`` on ``test``; ``from_1_3``: one of ``_hal13_items``, built
    for drivers of 1.3 only."""
    marks = family_marks(family, test, category)
    if from_1_3 and not any(getattr(m, "name", "") == "hal_level" for m in marks):
        marks.extend(level_marks(HalVersion.V1_3))
    return pytest.param(
        family.name, case_id(test), id=f"{family.name}/{case_id(test)}", marks=marks
    )


def _deterministic_items(
    families: list[Family],
    profile: str,
    applies: Callable[..., bool],
    category: str,
) -> list:
    cases = list(cases_by_id().values())
    chosen_cases = representatives(cases, profile)
    params = []
    for family in families:
        chosen = [test for test in chosen_cases if applies(family, test)]
        if not chosen:
            first = next((test for test in cases if applies(family, test)), None)
            chosen = [first] if first is not None else []
        params.extend(_param(family, test, category, False) for test in chosen)
    return params + _hal13_items(families, profile, applies, category)


def _hal13_items(
    families: list[Family],
    profile: str,
    applies: Callable[..., bool],
    category: str,
) -> list:
    """The (family, case) parameters on the cases valid from HAL 1.3 only (the signed and
    INT32 forms, the 1.3 operations, IF and WHILE): no family applies to them at 1.2 (what
    the items above ask), so they are chosen as those are, admitted at 1.3, and built for
    drivers of 1.3 only (their folder's ``hal_level`` mark, and the family's). VTS 1.3
    mutates every generated model but the lifetime variations, which ``corpus`` leaves out."""
    cases = [test for test in cases_by_id().values() if lowest_version(test) == HalVersion.V1_3]
    chosen_cases = representatives(cases, profile)
    params = []
    for family in families:
        chosen = [test for test in chosen_cases if applies(family, test, HalVersion.V1_3)]
        if not chosen:
            first = next((t for t in cases if applies(family, t, HalVersion.V1_3)), None)
            chosen = [first] if first is not None else []
        params.extend(_param(family, test, category, True) for test in chosen)
    return params


def _named_items(
    families: list[Family],
    profile: str,
    applies: Callable[..., bool],
    category: str,
    wanted: frozenset[str],
) -> list | None:
    """The parameters of ``deterministic_items`` among ``wanted`` (ids ``family/case``),
    worked out from the cases of the spec modules they name: a case is a representative or
    not by the cases of its own spec (``representatives`` keys by folder and spec), and a
    family runs on a representative exactly when it applies to it. None when that cannot
    tell (a case that is not a representative: a family no representative admits runs on
    the corpus's first case it admits), or the ids name no spec module of the suite."""
    by_name = {family.name: (k, family) for k, family in enumerate(families)}
    named = [(by_name.get(item.partition("/")[0]), item.partition("/")[2]) for item in wanted]
    named = sorted(
        ((entry, cid) for entry, cid in named if entry is not None), key=lambda n: (n[0][0], n[1])
    )
    modules = named_modules([cid for _, cid in named])
    if modules is None:
        return None  # an id naming no module of the suite: work out the whole list
    cases = validated(test for module in modules for test in module_cases(module))
    position = {case_id(test): k for k, test in enumerate(cases)}
    chosen = {id(test) for test in representatives(cases, profile)}
    newest = [test for test in cases if lowest_version(test) == HalVersion.V1_3]
    chosen_1_3 = {id(test) for test in representatives(newest, profile)}
    found = []  # (part, family's place, case's place, parameter): the whole list's order
    for (k, family), cid in named:
        if cid not in position:
            continue  # no such case: no such item in the whole list either
        test = cases[position[cid]]
        if id(test) not in chosen:
            return None
        if applies(family, test):
            found.append((0, k, position[cid], _param(family, test, category, False)))
        if lowest_version(test) == HalVersion.V1_3:
            if id(test) not in chosen_1_3:
                return None
            if applies(family, test, HalVersion.V1_3):
                found.append((1, k, position[cid], _param(family, test, category, True)))
    return [param for *_, param in sorted(found, key=lambda entry: entry[:3])]


def sampled_items(families: list[Family], category: str) -> list:
    params = []
    for family in families:
        marks = [
            pytest.mark.tier(family.tier.value),
            getattr(pytest.mark, category),
            pytest.mark.validation_family(family.name),
            *_level_marks(family),
        ]
        if family.pending:
            marks.append(pytest.mark.skip(reason=f"pending: no rule {', '.join(family.pending)}"))
        params.append(pytest.param(family.name, id=family.name, marks=marks))
    return params
