"""What a pytest run of the suite did to each item, read from its verbose output.

The project's tests run the suite in a pytest subprocess (``-v``) against a
driver and check which items passed, failed, skipped or errored. This module
reads those lines once for all of them.
"""

from __future__ import annotations

import re

import pytest

RESULT = re.compile(r"^\S*::(test_\w+(?:\[.+\])?) (PASSED|FAILED|SKIPPED|ERROR)")
"""A verbose result line: the item's name (``function[parameters]``) and its outcome."""


def outcomes_of(result: pytest.RunResult) -> dict[str, str]:
    """Each item's outcome (``name[id]`` -> PASSED/FAILED/SKIPPED/ERROR); a run that shows
    none fails the calling test with the run's output."""
    outcomes = {m[1]: m[2] for m in map(RESULT.match, result.outlines) if m}
    assert outcomes, result.stdout.str()
    return outcomes


def with_outcome(outcomes: dict[str, str], outcome: str) -> set[str]:
    """The items that ended as ``outcome``."""
    return {item for item, seen in outcomes.items() if seen == outcome}
