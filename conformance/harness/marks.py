"""pytest marks made once and shared by every item that carries them.

Collection builds some hundred thousand parametrized items, most with four
or five marks; making each mark anew (``pytest.mark.<name>`` looks the name
up among the registered markers, then builds a Mark) was a tenth of the
collection time. Marks are immutable, so items may share them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from conformance.harness.cases import GeneratedTest


@functools.cache
def mark(name: str, *args: object) -> pytest.MarkDecorator:
    """``pytest.mark.<name>(*args)`` (``pytest.mark.<name>`` without args); arguments hashable."""
    decorator = getattr(pytest.mark, name)
    return decorator(*args) if args else decorator


UNBUILT_FROM = 13
"""The first HAL level (as ``HalVersion`` numbers it) whose cases carry a ``hal_level``
mark from ``level_marks``."""


def level_marks(level: int) -> tuple[pytest.MarkDecorator, ...]:
    """The marks of a case that needs a driver of HAL ``level``: ``hal_level`` from 1.3 on,
    so that the plugin does not build the case when the tested level is below (a driver
    tested at 1.2 collects exactly what it always did); none below 1.3, whose cases were
    always collected and are skipped at run time for a lower level."""
    if level < UNBUILT_FROM:
        return ()
    return (mark("hal_level", f"{level // 10}.{level % 10}"),)


def case_level_marks(test: GeneratedTest) -> tuple[pytest.MarkDecorator, ...]:
    """``level_marks`` of the lowest level whose suite runs the case
    (``GeneratedTest.case_level``: its folder's, or a level of its own): a case of the 1.3
    folder, or an Android 11 lifetime variation, is not built below 1.3."""
    return level_marks(test.case_level)


def case_marks(test: GeneratedTest) -> list[pytest.MarkDecorator]:
    """The marks every item of a generated case carries: its HAL folder, its operations and,
    for a case of a level from 1.3 on (``GeneratedTest.case_level``: Android 11's lifetime
    variations of any folder), that level's ``hal_level``."""
    return [
        mark(test.hal_folder),
        mark("generated_case", test.hal_folder, tuple(test.provenance.operations)),
        *case_level_marks(test),
    ]


def cases(argnames: str | tuple[str, ...], make: Callable[[pytest.Config], list]) -> Callable:
    """Collect the decorated test once per ``pytest.param(*values, id=..., marks=...)`` that
    ``make(config)`` lists, the values given as ``argnames`` (one name, or a tuple). An
    ``items.Item`` may be listed in place of its ``param()``: it has the same ``values``,
    ``id`` and ``marks``.

    As ``pytest.mark.parametrize``, with the same ids, marks and keywords; but
    the nnhal plugin binds the values to the function when it makes the items,
    so pytest sets up no fixture for the arguments before each test (for the
    suite's hundred thousand small tests, a tenth of their time).
    """
    names = (argnames,) if isinstance(argnames, str) else tuple(argnames)

    def decorate(function: Callable) -> Callable:
        function.nnhal_cases = (names, make)  # plugins.collection.CASES_ATTRIBUTE
        return function

    return decorate


CASES_WANTED = pytest.StashKey["frozenset[str] | None"]()
"""Set by the plugin while a ``cases`` function's ``make`` runs: the case ids of that
function the run's node ids name (``test_generated[V1_0/add/none/ex0/sync]``), or None
when the run may hold any of its cases (``cases_wanted``)."""


def cases_wanted(config: pytest.Config) -> frozenset[str] | None:
    """The case ids the run names of the function whose cases are being made (None: any).

    A ``make`` may list only the cases these ids could be, to spare a rerun of one item
    the building of every other; whatever it lists beyond them the plugin leaves unbuilt,
    so listing more is never wrong."""
    return config.stash.get(CASES_WANTED, None)


CASE_PICK = pytest.StashKey["Callable[..., bool] | None"]()
"""Set by the plugin while a ``cases`` function's ``make`` runs: ``case_pick``'s answer."""


def case_pick(config: pytest.Config) -> Callable[..., bool]:
    """``picks(case_id, marks, operations=None)``: whether the run builds the item of
    ``case_id`` with ``marks`` (the id and marks its parameter would have), asked before the
    parameter is made. ``operations``: the operations the item exercises, for a case whose
    marks do not name them (no ``generated_case`` mark); unknown when not given.

    The plugin answers with every rule it applies to a listed parameter: the tested HAL
    level, the node ids, ``-k``, ``-m``, ``--nnhal-op`` (for a case whose operations it is
    told or its marks name) and ``--shard``. It counts each case it says no to
    as the listed parameter would have been counted (collected and deselected, or of a later
    level), so a ``make`` must not list a case it was told no for, and must ask once per
    case. Asking is never required: a ``make`` may list every case and let the plugin
    drop them. Outside a collection (a ``make`` called by hand) the answer is always yes."""
    picks = config.stash.get(CASE_PICK, None)
    return every_case if picks is None else picks


def every_case(case_id: str, marks: Any, operations: Any = None) -> bool:
    """``case_pick``'s answer outside a collection: every case is built."""
    return True
