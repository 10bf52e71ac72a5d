"""report.json's compact entries: the tests that need no more than their facts, in few bytes.

A full run holds some 140,000 tests, nearly all passed; written as full
entries (every field, most of them null) report.json grows past 50 MB, more
than a browser or an editor opens with ease. So ``pack`` writes in full only
the entries a reader studies (every test that failed, crashed, timed out,
was blocked, errored or is a known failure, and any entry with details,
metrics or a rerun command), and everything else as a row of
``compact_tests``::

    "compact_tests": {
      "fields": ["category", "hal_version", "operations", "operand_type", "path",
                 "tier", "family", "outcome", "reason", "computed"],
      "facts": [["generated", "1.2", ["ADD"], "TENSOR_FLOAT32", true, "parity", null,
                 "passed", null, true], ...],
      "functions": {
        "conformance.test_generated::test_generated": [
          ["V1_2/add/none/ex0/sync", 0.0123, 0], ...
        ],
        "conformance.test_basic::test_status": [[null, 0.0021, 7]]
      }
    }

A row is ``[parameters, duration, facts]``: the test's id is its function's
name with ``[parameters]`` appended (``null``: none), its duration is as
measured, and ``facts`` indexes the ``facts`` list, the distinct combinations
of the other fields (named by ``fields``, in that order). A ``path`` of
``true`` there stands for the last ``/`` segment of the parameters (``sync``
above), the execution path the id already names; details, metrics and rerun
of a compact entry are null. ``unpack`` gives back the full entries, equal to
what was packed (``split_id`` and ``join_id`` restore any id).
"""

from __future__ import annotations

from typing import Any

from plugins.report.facts import BAD_OUTCOMES

FIELDS = (
    "category",
    "hal_version",
    "operations",
    "operand_type",
    "path",
    "tier",
    "family",
    "outcome",
    "reason",
    "computed",
)
"""The fields a compact entry's ``facts`` give, in their order in each ``facts`` row."""
OLD_FIELDS = FIELDS[:-1]
"""The fields of a report written before ``computed`` existed; ``unpack`` gives its entries
``computed`` None (unknown: ``plugins.report.document.computes`` reads it as the credit rule
then was)."""
ENTRY_FIELDS = frozenset((*FIELDS, "id", "duration", "details", "metrics", "rerun"))
"""Every field of a test entry (schema.json, ``$defs/test``)."""
_IN_FULL = frozenset((*BAD_OUTCOMES, "expected-failure"))
PATH_FROM_ID = True
"""``path`` in a ``facts`` row: the last ``/`` segment of the test's parameters."""
KEY = "compact_tests"


def split_id(identifier: str) -> tuple[str, str | None]:
    """``module::function[parameters]`` -> (``module::function``, ``parameters``);
    an id without parameters -> (the id, None)."""
    head, sep, rest = identifier.partition("[")
    if sep and rest.endswith("]"):
        return head, rest[:-1]
    return identifier, None


def join_id(function: str, parameters: str | None) -> str:
    """The test id ``split_id`` made (``function``, ``parameters``) of."""
    return function if parameters is None else f"{function}[{parameters}]"


def compactable(test: dict[str, Any]) -> bool:
    """Whether an entry may be a compact row: it did not go wrong, has no details,
    metrics or rerun command, and no field beyond the schema's."""
    return (
        test["outcome"] not in _IN_FULL
        and test.get("details") is None
        and test.get("metrics") is None
        and test.get("rerun") is None
        and test.keys() == ENTRY_FIELDS
    )


def _entry(function: str, row: list, facts: list, fields: tuple[str, ...]) -> dict[str, Any]:
    parameters, duration, index = row
    entry = dict(zip(fields, facts[index], strict=True))
    entry["operations"] = list(entry["operations"])  # each entry its own list
    if entry["path"] is PATH_FROM_ID:
        entry["path"] = parameters.rsplit("/", 1)[-1]
    entry.update(
        id=join_id(function, parameters),
        duration=duration,
        details=None,
        metrics=None,
        rerun=None,
    )
    return entry


def pack(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as report.json holds it: ``tests`` only the entries written in full,
    ``compact_tests`` the others (``doc`` itself is left as it is)."""
    full: list[dict] = []
    facts: list[list] = []
    index_of: dict[tuple, int] = {}
    functions: dict[str, list[list]] = {}
    for test in doc["tests"]:
        if not compactable(test):
            full.append(test)
            continue
        function, parameters = split_id(test["id"])
        path = test["path"]
        if parameters is not None and path is not None and path == parameters.rsplit("/", 1)[-1]:
            path = PATH_FROM_ID
        values = (
            test["category"],
            test["hal_version"],
            tuple(test["operations"]),
            test["operand_type"],
            path,
            test["tier"],
            test["family"],
            test["outcome"],
            test["reason"],
            test["computed"],
        )
        index = index_of.get(values)
        if index is None:
            index = index_of[values] = len(facts)
            facts.append([*values[:2], list(values[2]), *values[3:]])
        functions.setdefault(function, []).append([parameters, test["duration"], index])
    packed = {k: v for k, v in doc.items() if k != "tests"}
    packed["tests"] = full
    packed[KEY] = {"fields": list(FIELDS), "facts": facts, "functions": functions}
    return packed


def unpack(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (changed in place) with its compact entries restored: ``tests`` every
    entry, full, in id order.

    A document without ``compact_tests`` (an older version's) is returned with its
    tests sorted. ValueError says what is wrong with a malformed ``compact_tests``.
    """
    compact = doc.pop(KEY, None)
    tests = doc.get("tests", [])
    if not isinstance(tests, list):
        raise ValueError('"tests" is not a list')
    tests = list(tests)
    if compact is not None:
        try:
            if compact["fields"] == list(FIELDS):
                fields = FIELDS
            elif compact["fields"] == list(OLD_FIELDS):
                fields = OLD_FIELDS
            else:
                raise ValueError(f"fields {compact['fields']}, expected {list(FIELDS)}")
            facts = compact["facts"]
            for function, rows in compact["functions"].items():
                tests.extend(_entry(function, row, facts, fields) for row in rows)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"malformed {KEY}: {type(e).__name__}: {e}") from None
    for test in tests:
        if isinstance(test, dict):
            test.setdefault("computed", None)  # a report written before the field existed
    if all(isinstance(t, dict) and isinstance(t.get("id"), str) for t in tests):
        tests.sort(key=lambda t: t["id"])  # else left for the reader to refuse
    doc["tests"] = tests
    return doc
