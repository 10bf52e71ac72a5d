"""Failures grouped by cause: the tests that did not pass, one group per normalized reason.

A run that breaks one thing in a driver fails hundreds of tests with reasons
that differ only in their numbers (``3 of 4 values differ`` and ``7 of 40
values differ``), their quoted values or the test ids they name. ``normalize``
takes those variable parts out, so the report can say "this one cause, 412
tests, these operations" before it lists the tests one by one.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from plugins.report.facts import BAD_OUTCOMES, OUTCOMES

CAUSE_EXAMPLES = 5
"""Example tests a cause names (the first ones in test id order)."""
NO_REASON = "(no reason given)"

NUMBER = "#"
QUOTED = "'...'"
BRACKETED = "[...]"

_QUOTED = re.compile(r"""(?<![\w'"])(?:'[^'\n]*'|"[^"\n]*")(?!\w)""")
_INNERMOST_BRACKETS = re.compile(r"\[[^\[\]]*\]")
_HOLE = "\x00"
_HEX = re.compile(
    r"(?<![\w.])(?:0[xX][0-9a-fA-F]+"
    r"|(?=[0-9a-fA-F]{8,}(?!\w))(?=[a-fA-F]*\d)(?=\d*[a-fA-F])[0-9a-fA-F]+)(?!\w)"
)
_NUMBER = re.compile(
    r"(?<![\w.])[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|(?i:nan|inf(?:inity)?))(?!\w)"
)
_SPACES = re.compile(r"\s+")


def normalize(reason: str | None) -> str:
    """A failure's reason with its variable parts taken out: what its cause is called.

    In this order: a quoted value (``'gw0'``, ``"x"``; an apostrophe inside a
    word such as ``driver's`` opens none) becomes ``'...'``; whatever stands in
    square brackets (a test id's parameters, a shape, an index; nested brackets
    as a whole) becomes ``[...]``; a hexadecimal number (``0x7f3a``, or a run
    of eight or more hex digits with a digit and a letter in it) and a decimal one (signed,
    with a fraction or an exponent; ``nan`` and ``inf`` too) become ``#``.
    Digits inside a word stay (``TENSOR_FLOAT16``, ``execute_1_2``, ``ex0``),
    so names keep apart what they keep apart. Runs of white space become one
    space. ``None`` or an empty reason is ``(no reason given)``.

    ``output 0: 12 of 40 values differ, max abs error 0.5 at 3`` and
    ``output 0: 7 of 40 values differ, max abs error 0.25 at 1`` are both
    ``output #: # of # values differ, max abs error # at #``.
    """
    if not reason or not reason.strip():
        return NO_REASON
    text = _QUOTED.sub(QUOTED, reason)
    while True:
        inner = _INNERMOST_BRACKETS.sub(_HOLE, text)
        if inner == text:
            break
        text = inner
    text = text.replace(_HOLE, BRACKETED)
    text = _HEX.sub(NUMBER, text)
    text = _NUMBER.sub(NUMBER, text)
    return _SPACES.sub(" ", text).strip()


def causes(tests: list[dict]) -> list[dict[str, Any]]:
    """The bad tests (``BAD_OUTCOMES``) grouped by normalized reason, the largest group first.

    Each group: its ``cause`` (the normalized reason), ``count``, the ``outcomes``
    among its tests with their counts, the ``operations`` its tests touch (sorted),
    ``reason`` (its first test's reason as written) and up to ``CAUSE_EXAMPLES``
    ``examples`` (id and rerun command), all in test id order, so shards merged
    give the groups of the unsplit run. Groups of equal count follow their cause's
    alphabetical order.
    """
    groups: dict[str, list[dict]] = {}
    for test in sorted((t for t in tests if t["outcome"] in BAD_OUTCOMES), key=lambda t: t["id"]):
        groups.setdefault(normalize(test.get("reason")), []).append(test)
    found = []
    for cause, members in groups.items():
        outcomes = Counter(t["outcome"] for t in members)
        found.append(
            {
                "cause": cause,
                "count": len(members),
                "outcomes": {o: outcomes[o] for o in OUTCOMES if outcomes[o]},
                "operations": sorted({op for t in members for op in t["operations"]}),
                "reason": members[0].get("reason") or NO_REASON,
                "examples": [
                    {"id": t["id"], "rerun": t.get("rerun")} for t in members[:CAUSE_EXAMPLES]
                ],
            }
        )
    found.sort(key=lambda c: (-c["count"], c["cause"]))
    return found
