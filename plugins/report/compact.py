"""report.json's compact entries: nothing written that the rest of the file gives.

A full run holds 150,000 to 520,000 tests, nearly all passed. Written as full
entries (every field, most of them null) report.json grows past 50 MB. So
``pack`` writes every test as a row of ``compact_tests`` (schema version 4;
docs/report.md shows it whole)::

    "compact_tests": {
      "fields": ["category", "hal_version", "operations", "operand_type", "path",
                 "tier", "family", "outcome", "reason", "computed"],
      "values": [["generated", "memory-pools", ...], ["1.2", ...], [["ADD"], ...], ...],
      "facts": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1, 1, 1], ...],
      "segments": ["ex0", "V1_2", "add", "none", ...],
      "layouts": [[["async", "sync", "sync-dyn-short"], [0, 1, 0]], [["fresh"], [0]], ...],
      "lines": ["tolerance: atol=1e-05 rtol=1e-05 (float32)", ...],
      "functions": {
        "conformance.test_generated::test_generated": [
          [[1, 2, 3, 0], 0, [3, 1, 1], [0, 1], [[1, ["output 0 ...", 0], [2, 0.5]]]],
          ...],
        "conformance.test_basic::test_status": [[null, 7, [3], [12]]]
      }
    }

* A function's tests are grouped in **cases**, one per parameter prefix (the
  parameters up to their last ``/``). A case is ``[prefix, layout, durations,
  facts]``, and ``texts`` fifth when a test of it has any:

  * ``prefix``: indexes into ``segments`` (the distinct ``/``-separated parts
    of every prefix, the most used first), joined with ``/``; null for the
    tests whose parameters hold no ``/`` (or that have none).
  * ``layout``: an index into ``layouts``, each ``[names, slots]``: the
    trailing names of the case's tests, in id order (``prefix/name`` is a
    test's parameters; without a prefix the name is the parameters, and a
    null name is a test without parameters: its id is the function's name),
    and for each the position of its facts in the case's ``facts``. Most
    cases of a function share one layout (the execution paths of a generated
    case, the memory-pool layouts).
  * ``durations``: one per name, in integer milliseconds (``to_ms``: the
    precision report.json keeps; ``precise`` rounds a duration to it).
  * ``facts``: indexes into ``facts``, each written once per case.
  * ``texts``: ``[position, details, metrics, other]`` for each test with texts
    (``_texts_of``, ``_written_texts``; without the nulls at its end), ``position``
    its index in the layout's names, ``other`` its ``OTHER_TEXTS``.

* A ``facts`` row is the other fields of a test (named by ``fields``, in that
  order), each an index into that field's list in ``values``. A ``path`` of
  ``true`` there stands for the test's trailing name, the execution path the
  id already names; a ``reason`` of ``true`` for the first line of its
  details, cut at ``REASON_LIMIT``.

* A test's **texts** hold what of its details, metrics and rerun command the
  file does not give. Without texts a test has null details and metrics, and
  its usual rerun command (``default_rerun``: the run's command for its id,
  ``run.rerun`` with ``{id}`` where the shell-quoted id goes, when it went
  wrong; else null). ``details`` leave out their end when it is ``RERUN_LINE``
  and the test's command (``"rerun_line": false`` says details do not end so
  though the test has one); a line of ``SHARED_LINE`` characters or more that
  two or more details hold is written once in ``lines``, and such details are
  a list of their lines, a shared one as its index there. ``metrics`` are
  ``[mismatches, max_abs_error]`` (``METRICS``). ``rerun`` is written only
  when it is not the usual one.

``tests`` holds only the entries that cannot be rows (a field beyond the
schema's), written as schema version 3 wrote its full entries (``lean``):
without their null ``NULLABLE`` fields; ``rerun`` when it is the run's
command for the entry's id (``rerun_template``, ``rerun_for``); the end of
``details`` that is ``RERUN_LINE`` and that command (``details_rerun`` true
says so); then ``details`` when what is left equals ``reason``, else
``reason`` when it is the first line of ``details``. ``causes`` holds the
``CAUSES_WRITTEN`` largest, each without its ``reason`` and ``cause`` when its
first example's entry gives them, and each example's ``rerun`` when
``run.rerun`` gives it. ``unpack`` gives back the full entries and the causes
written, equal to what was packed but for durations at that precision
(``plugins.report.document.load`` works out every cause again); it reads the
layout of schema version 3 too (failures as full entries, every cause), and of
versions 1 and 2 (``_unpack_old``: rows ``[parameters, duration, facts]``
with the facts written out, every full entry and cause whole).
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from plugins.report.causes import NO_REASON, normalize
from plugins.report.facts import BAD_OUTCOMES, REASON_LIMIT

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
PATH_FROM_ID = True
"""``path`` in a ``facts`` row: the test's trailing name (the last ``/`` segment of its
parameters)."""
REASON_FROM_DETAILS = True
"""``reason`` in a ``facts`` row: the first line of the test's details, cut at
``REASON_LIMIT`` (as the suite cuts a reason)."""
KEY = "compact_tests"
LAYOUT_VERSION = 3
"""The first schema version of this layout (version 4 added a case's texts and
``lines``); reports of earlier versions are read by ``_unpack_old``."""
OTHER_TEXTS = frozenset(("rerun", "rerun_line"))
"""What a compact row's texts may hold beyond its details and metrics (``_texts_of``)."""
METRICS = ("mismatches", "max_abs_error")
"""A failure's metrics (schema.json, ``$defs/test``) as a row's texts write them: a list
of their values in this order."""
SHARED_LINE = 8
"""The fewest characters of a details line written once in ``lines`` when two or more
details hold it."""
CAUSES_WRITTEN = 100
"""The causes report.json writes (the largest); ``load`` works out every one again."""
ID_MARK = "{id}"
"""Where the test's shell-quoted id goes in the run's rerun command (``run.rerun``)."""
_MS = 1000
RERUN_LINE = "\nrerun: "
"""How most of the suite's failure messages end: this, then the test's rerun command
(``conformance.harness.runner``)."""
NULLABLE = ("hal_version", "operand_type", "path", "tier", "family", "metrics", "computed")
"""The fields a full entry of report.json leaves out when null (``unpack`` writes them back)."""


# ---------------------------------------------------------------------------
# Ids, durations and rerun commands
# ---------------------------------------------------------------------------


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


def split_parameters(parameters: str | None) -> tuple[str | None, str | None]:
    """(prefix, name): the parameters up to their last ``/`` and after it; (None, the
    parameters) when they hold no ``/`` or are None."""
    if parameters is None or "/" not in parameters:
        return None, parameters
    prefix, _, name = parameters.rpartition("/")
    return prefix, name


def join_parameters(prefix: str | None, name: str | None) -> str | None:
    """The parameters ``split_parameters`` made (``prefix``, ``name``) of."""
    if prefix is None:
        return name
    if name is None:
        raise ValueError(f"a case of prefix {prefix!r} names a test without parameters")
    return f"{prefix}/{name}"


def to_ms(seconds: float) -> int:
    """A duration as report.json's compact entries write it: integer milliseconds."""
    return round(seconds * _MS)


def precise(seconds: float) -> float:
    """A duration in seconds at the precision report.json keeps (the millisecond)."""
    return to_ms(seconds) / _MS


def rerun_template(command_of: Callable[[str], str]) -> str:
    """The run's rerun command with ``ID_MARK`` for the id, from the function that gives
    the command of one id (``conformance.harness.rerun.rerun_of`` with the run's config)."""
    return command_of(ID_MARK).replace(shlex.quote(ID_MARK), ID_MARK, 1)


def rerun_for(template: str, identifier: str) -> str:
    """The rerun command of ``identifier`` the run's ``template`` gives."""
    return template.replace(ID_MARK, shlex.quote(identifier), 1)


# ---------------------------------------------------------------------------
# Packing
# ---------------------------------------------------------------------------


def compactable(test: dict[str, Any]) -> bool:
    """Whether an entry may be a compact row: it has every field of the schema and no
    other (a failure too: its texts go with its row, ``_texts_of``)."""
    return test.keys() == ENTRY_FIELDS


def pack(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as report.json holds it: ``compact_tests`` every test it can hold,
    ``tests`` only the others (an entry with a field beyond the schema's), each without
    what it repeats (``lean``), and ``causes`` the ``CAUSES_WRITTEN`` largest, without
    what their first example gives (``doc`` itself is left as it is)."""
    template = rerun_of_run(doc)
    full, rows = [], []
    for test in doc["tests"]:
        if compactable(test):
            rows.append(test)
        else:
            full.append(test)
    packed = {k: v for k, v in doc.items() if k != "tests"}
    packed["tests"] = [lean(test, template) for test in full]
    if isinstance(doc.get("causes"), list):
        written = doc["causes"][:CAUSES_WRITTEN]
        firsts = {cause["examples"][0]["id"] for cause in written if cause["examples"]}
        reasons = {t["id"]: t.get("reason") for t in doc["tests"] if t["id"] in firsts}
        packed["causes"] = [_lean_cause(cause, reasons, template) for cause in written]
    packed[KEY] = _pack_rows(rows, template)
    return packed


def _lean_cause(
    cause: dict[str, Any], reasons: dict[str, str | None], template: str | None
) -> dict[str, Any]:
    """A cause as report.json writes it (a copy): without its ``reason`` and ``cause`` when
    its first example's entry gives them (``plugins.report.causes``), its examples without
    the rerun command the run's ``template`` gives."""
    entry = dict(cause)
    entry["examples"] = [_lean_rerun(dict(example), template) for example in cause["examples"]]
    identifier = cause["examples"][0]["id"] if cause["examples"] else None
    if identifier in reasons:
        first = reasons[identifier]
        if entry["reason"] == (first or NO_REASON):
            del entry["reason"]
        if entry["cause"] == normalize(first):
            del entry["cause"]
    return entry


def lean(test: dict[str, Any], template: str | None) -> dict[str, Any]:
    """A full entry as report.json writes it (a copy): without what its other fields and
    the run's rerun command (``template``) give (``_lean_texts``, ``_lean_rerun``), and
    without its null ``NULLABLE`` fields."""
    entry = dict(test)
    _lean_texts(entry)
    _lean_rerun(entry, template)
    for field in NULLABLE:
        if field in entry and entry[field] is None:
            del entry[field]
    return entry


def _lean_texts(entry: dict[str, Any]) -> None:
    """Leave out of ``entry`` the end of its details that is ``RERUN_LINE`` and its rerun
    command (``details_rerun`` true says so), then its details when what is left is its
    reason, else its reason when that is the first line of what is left."""
    cut = _without_rerun_line(entry.get("details"), entry.get("rerun"))
    if cut is not None:
        entry["details"], entry["details_rerun"] = cut, True
    if "details" not in entry:
        return
    details = entry["details"]
    if details == entry.get("reason"):
        del entry["details"]
    elif isinstance(details, str) and _first_line(details) == entry.get("reason"):
        del entry["reason"]


def _without_rerun_line(details: object, rerun: object) -> str | None:
    """``details`` without their end when it is ``RERUN_LINE`` and ``rerun`` (the suite's
    failure messages end so); None when they do not end so."""
    if isinstance(details, str) and isinstance(rerun, str) and details.endswith(RERUN_LINE + rerun):
        return details[: -len(RERUN_LINE + rerun)]
    return None


def _first_line(details: str) -> str:
    """A reason as the details give it: their first line, cut as the suite cuts a reason."""
    return details.partition("\n")[0][:REASON_LIMIT]


def _lean_rerun(entry: dict[str, Any], template: str | None) -> dict[str, Any]:
    """``entry`` without its rerun command when the run's ``template`` gives it."""
    identifier = entry.get("id")
    if (
        template is not None
        and isinstance(identifier, str)
        and "rerun" in entry
        and entry["rerun"] == rerun_for(template, identifier)
    ):
        del entry["rerun"]
    return entry


def _facts_of(test: dict[str, Any], name: str | None) -> tuple:
    """The test's facts, ``path`` ``PATH_FROM_ID`` when its trailing name gives it and
    ``reason`` ``REASON_FROM_DETAILS`` when its details' first line gives it."""
    path, reason, details = test["path"], test["reason"], test["details"]
    if name is not None and path is not None and path == name:
        path = PATH_FROM_ID
    if isinstance(reason, str) and isinstance(details, str) and reason == _first_line(details):
        reason = REASON_FROM_DETAILS
    return (
        test["category"],
        test["hal_version"],
        tuple(test["operations"]),
        test["operand_type"],
        path,
        test["tier"],
        test["family"],
        test["outcome"],
        reason,
        test["computed"],
    )


def _numbered(items: dict[Any, int], item: Any) -> int:
    """``item``'s index in ``items`` (its order of first appearance), added if new."""
    return items.setdefault(item, len(items))


def default_rerun(template: str | None, identifier: str, outcome: object) -> str | None:
    """The rerun command a compact row's test has unless its texts say otherwise: the
    run's command for its id when it went wrong (the collector writes one for every bad
    test) and the run has one, else null."""
    if template is None or outcome not in BAD_OUTCOMES:
        return None
    return rerun_for(template, identifier)


def _texts_of(test: dict[str, Any], template: str | None) -> dict[str, Any] | None:
    """A row's texts (details, metrics, ``OTHER_TEXTS``): what of its details, metrics and
    rerun command the rest of the file does not give; None when it gives all of it."""
    details, metrics, rerun = test["details"], test["metrics"], test["rerun"]
    usual = default_rerun(template, test["id"], test["outcome"])
    texts: dict[str, Any] = {}
    if rerun != usual:
        texts["rerun"] = rerun
    if details is not None:
        cut = _without_rerun_line(details, rerun)
        if cut is None and isinstance(rerun, str):
            texts["rerun_line"] = False
        texts["details"] = details if cut is None else cut
    if isinstance(metrics, dict) and metrics.keys() == set(METRICS):
        texts["metrics"] = [metrics[name] for name in METRICS]
    elif metrics is not None:
        texts["metrics"] = metrics
    return texts or None


def _share_lines(all_texts: list[dict[str, Any]]) -> list[str]:
    """The details lines (``SHARED_LINE`` characters or more) that two or more details
    hold, the most used first; each details holding one becomes a list of its lines, a
    shared one written as its index in that list."""
    used = Counter(
        line
        for texts in all_texts
        if isinstance(texts.get("details"), str)
        for line in texts["details"].split("\n")
        if len(line) >= SHARED_LINE
    )
    shared = {line: i for i, (line, n) in enumerate(x for x in used.most_common() if x[1] > 1)}
    for texts in all_texts:
        details = texts.get("details")
        if not isinstance(details, str):
            continue
        lines = details.split("\n")
        if any(line in shared for line in lines):
            texts["details"] = [shared.get(line, line) for line in lines]
    return list(shared)


def _pack_rows(tests: list[dict[str, Any]], template: str | None) -> dict[str, Any]:
    """``compact_tests`` of ``tests`` (every one compactable, in id order)."""
    facts: dict[tuple, int] = {}
    cases: dict[str, dict[str | None, list[tuple]]] = {}
    all_texts = []
    for test in tests:
        function, parameters = split_id(test["id"])
        prefix, name = split_parameters(parameters)
        index = _numbered(facts, _facts_of(test, name))
        texts = _texts_of(test, template)
        if texts is not None:
            all_texts.append(texts)
        rows = cases.setdefault(function, {}).setdefault(prefix, [])
        rows.append((name, to_ms(test["duration"]), index, texts))
    lines = _share_lines(all_texts)
    segments = _segments(cases)
    layouts: dict[tuple, int] = {}
    functions = {
        function: [_case(prefix, rows, segments, layouts) for prefix, rows in by_prefix.items()]
        for function, by_prefix in cases.items()
    }
    values, rows = _columns(list(facts))
    return {
        "fields": list(FIELDS),
        "values": values,
        "facts": rows,
        "segments": list(segments),
        "layouts": [[list(names), list(slots)] for names, slots in layouts],
        "lines": lines,
        "functions": functions,
    }


def _segments(cases: dict[str, dict[str | None, list]]) -> dict[str, int]:
    """Every ``/``-separated part of the cases' prefixes, numbered the most used first
    (ties in order of first appearance)."""
    used = Counter(
        segment
        for by_prefix in cases.values()
        for prefix in by_prefix
        if prefix is not None
        for segment in prefix.split("/")
    )
    return {segment: i for i, (segment, _) in enumerate(used.most_common())}


def _case(
    prefix: str | None, rows: list[tuple], segments: dict[str, int], layouts: dict[tuple, int]
) -> list:
    """``[prefix, layout, durations, facts]`` of one case's rows (name, ms, facts index,
    texts), and ``texts`` (``[position, texts]`` of each row with texts) when a row has
    them."""
    palette: dict[int, int] = {}
    slots = tuple(_numbered(palette, index) for _, _, index, _ in rows)
    names = tuple(name for name, _, _, _ in rows)
    case = [
        None if prefix is None else [segments[s] for s in prefix.split("/")],
        _numbered(layouts, (names, slots)),
        [ms for _, ms, _, _ in rows],
        list(palette),
    ]
    texts = [_written_texts(k, row[3]) for k, row in enumerate(rows) if row[3] is not None]
    if texts:
        case.append(texts)
    return case


def _written_texts(position: int, texts: dict[str, Any]) -> list:
    """A row's texts as a case writes them: ``[position, details, metrics, other]``
    (``other``: its ``rerun`` and ``rerun_line``), without the nulls and the empty
    ``other`` at its end."""
    other = {k: v for k, v in texts.items() if k not in ("details", "metrics")}
    written = [position, texts.get("details"), texts.get("metrics"), other or None]
    while written[-1] is None:
        written.pop()
    return written


def _read_texts(written: list) -> tuple[int, dict[str, Any]]:
    """(position, texts) of what ``_written_texts`` wrote; ValueError for what it cannot
    have written."""
    if not isinstance(written, list) or not 2 <= len(written) <= 4:
        raise ValueError(f"texts {written!r} are not [position, details, metrics, other]")
    position, details, metrics, other = [*written, None, None][:4]
    other = other or {}
    unknown = sorted(set(other) - OTHER_TEXTS)
    if unknown:
        raise ValueError(f"texts with unknown fields {unknown}")
    texts = dict(other)
    if details is not None:
        texts["details"] = details
    if metrics is not None:
        texts["metrics"] = metrics
    return position, texts


def _columns(facts: list[tuple]) -> tuple[list[list], list[list[int]]]:
    """Each field's distinct values (in order of first appearance) and every facts row as
    the indexes of its values."""
    numbered: list[dict[Any, int]] = [{} for _ in FIELDS]
    rows = [[_numbered(numbered[k], value) for k, value in enumerate(row)] for row in facts]
    values = [[list(v) if isinstance(v, tuple) else v for v in column] for column in numbered]
    return values, rows


# ---------------------------------------------------------------------------
# Unpacking
# ---------------------------------------------------------------------------


def unpack(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (changed in place) with its compact entries restored: ``tests`` every
    entry, full, in id order.

    A document of schema version 1 or 2 is read in the layout it was written in
    (``_unpack_old``). ValueError says what is wrong with a malformed ``compact_tests``.
    """
    version = doc.get("schema_version")
    if isinstance(version, int) and version < LAYOUT_VERSION:
        return _unpack_old(doc)
    compact = doc.pop(KEY, None)
    template = rerun_of_run(doc)
    tests = [_restored(t, template) if isinstance(t, dict) else t for t in _listed_tests(doc)]
    if compact is not None:
        try:
            tests.extend(_unpack_rows(compact, template))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"malformed {KEY}: {type(e).__name__}: {e}") from None
    if isinstance(doc.get("causes"), list):
        doc["causes"] = _restored_causes(doc["causes"], tests, template)
    return _sorted_into(doc, tests)


def rerun_of_run(doc: dict[str, Any]) -> str | None:
    """The run's rerun command (``run.rerun``, with ``ID_MARK``), or None without one."""
    run = doc.get("run")
    template = run.get("rerun") if isinstance(run, dict) else None
    return template if isinstance(template, str) else None


def _listed_tests(doc: dict[str, Any]) -> list:
    tests = doc.get("tests", [])
    if not isinstance(tests, list):
        raise ValueError('"tests" is not a list')
    return list(tests)


def _sorted_into(doc: dict[str, Any], tests: list) -> dict[str, Any]:
    """``doc`` with ``tests``, each with ``computed`` (None when it has none), in id order."""
    for test in tests:
        if isinstance(test, dict):
            test.setdefault("computed", None)  # a report written before the field existed
    if all(isinstance(t, dict) and isinstance(t.get("id"), str) for t in tests):
        tests.sort(key=lambda t: t["id"])  # else left for the reader to refuse
    doc["tests"] = tests
    return doc


def _restored(test: dict[str, Any], template: str | None) -> dict[str, Any]:
    """A full entry with what ``lean`` left out written back (its rerun only when the run
    has a rerun command: else ``lean`` left none out)."""
    test = dict(test)
    if "rerun" not in test and template is not None and isinstance(test.get("id"), str):
        test["rerun"] = rerun_for(template, test["id"])
    if "details" not in test:
        test["details"] = test.get("reason")
    elif "reason" not in test and isinstance(test["details"], str):
        test["reason"] = _first_line(test["details"])
    if test.pop("details_rerun", None) is True:
        if not (isinstance(test["details"], str) and isinstance(test.get("rerun"), str)):
            raise ValueError(f"test {test.get('id')!r}: details_rerun without details or rerun")
        test["details"] += RERUN_LINE + test["rerun"]
    for field in NULLABLE:
        test.setdefault(field, None)
    return test


def _restored_causes(causes: list, tests: list, template: str | None) -> list:
    """The causes with what ``_lean_cause`` left out written back. A cause that cannot be
    is left as written: causes are derived, and ``load`` computes them again."""
    reasons = {t.get("id"): t.get("reason") for t in tests if isinstance(t, dict)}
    restored = []
    for cause in causes:
        try:
            restored.append(_restored_cause(cause, reasons, template))
        except (KeyError, IndexError, TypeError, AttributeError):
            restored.append(cause)
    return restored


def _restored_cause(
    cause: dict[str, Any], reasons: dict[str, str | None], template: str | None
) -> dict[str, Any]:
    cause = dict(cause)
    examples = cause["examples"] = [dict(example) for example in cause["examples"]]
    for example in examples:
        if "rerun" not in example and template is not None:
            example["rerun"] = rerun_for(template, example["id"])
    if "reason" not in cause or "cause" not in cause:
        first = reasons[examples[0]["id"]]
        cause.setdefault("reason", first or NO_REASON)
        cause.setdefault("cause", normalize(first))
    return cause


def _unpack_rows(compact: dict[str, Any], template: str | None) -> Iterator[dict[str, Any]]:
    """The full entries of ``compact_tests`` (schema version 3 or 4), ``template`` the
    run's rerun command."""
    if compact["fields"] != list(FIELDS):
        raise ValueError(f"fields {compact['fields']}, expected {list(FIELDS)}")
    values = compact["values"]
    facts = [
        dict(zip(FIELDS, (values[k][i] for k, i in enumerate(row)), strict=True))
        for row in compact["facts"]
    ]
    segments, layouts = compact["segments"], compact["layouts"]
    lines = compact.get("lines", [])
    for function, cases in compact["functions"].items():
        for prefix, layout, durations, palette, *more in cases:
            if len(more) > 1:
                raise ValueError(f"a case of {function} has {4 + len(more)} parts, at most 5")
            texts = dict(_read_texts(t) for t in more[0]) if more else {}
            head = None if prefix is None else "/".join(segments[i] for i in prefix)
            names, slots = layouts[layout]
            for k, (name, slot, ms) in enumerate(zip(names, slots, durations, strict=True)):
                entry = _entry(function, head, name, ms / _MS, facts[palette[slot]])
                yield _with_texts(entry, texts.get(k, {}), template, lines)


def _with_texts(
    entry: dict[str, Any], texts: dict[str, Any], template: str | None, lines: list[str]
) -> dict[str, Any]:
    """A compact row's ``entry`` with its details, metrics, rerun command and reason as
    its ``texts`` and the run give them (what ``_texts_of`` left out written back)."""
    rerun = texts.get("rerun", default_rerun(template, entry["id"], entry["outcome"]))
    details = texts.get("details")
    if isinstance(details, list):
        details = "\n".join(lines[part] if type(part) is int else part for part in details)
    if isinstance(details, str) and isinstance(rerun, str) and texts.get("rerun_line", True):
        details += RERUN_LINE + rerun
    metrics = texts.get("metrics")
    if isinstance(metrics, list):
        metrics = dict(zip(METRICS, metrics, strict=True))
    entry.update(details=details, metrics=metrics, rerun=rerun)
    if entry["reason"] is REASON_FROM_DETAILS:
        if not isinstance(details, str):
            raise ValueError(f"test {entry['id']!r}: its reason is its details', and it has none")
        entry["reason"] = _first_line(details)
    return entry


def _entry(
    function: str, prefix: str | None, name: str | None, duration: float, facts: dict
) -> dict[str, Any]:
    entry = dict(facts)
    entry["operations"] = list(entry["operations"])  # each entry its own list
    if entry["path"] is PATH_FROM_ID:
        entry["path"] = name
    entry.update(
        id=join_id(function, join_parameters(prefix, name)),
        duration=duration,
        details=None,
        metrics=None,
        rerun=None,
    )
    return entry


def _unpack_old(doc: dict[str, Any]) -> dict[str, Any]:
    """``unpack`` of a report of schema version 1 or 2: rows ``[parameters, duration,
    facts]`` of ``compact_tests`` (version 2; ``facts`` indexes its rows of the values
    written out), every full entry whole."""
    compact = doc.pop(KEY, None)
    tests = _listed_tests(doc)
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
                tests.extend(_old_entry(function, row, facts, fields) for row in rows)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"malformed {KEY}: {type(e).__name__}: {e}") from None
    return _sorted_into(doc, tests)


def _old_entry(function: str, row: list, facts: list, fields: tuple[str, ...]) -> dict[str, Any]:
    parameters, duration, index = row
    entry = dict(zip(fields, facts[index], strict=True))
    entry["operations"] = list(entry["operations"])
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
