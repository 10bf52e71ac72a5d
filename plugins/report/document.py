"""The report document: one JSON object per run, its derived parts, and merging shards.

A document holds what was observed (``run``, ``driver``, ``environment``,
``tests``) and what follows from it (``summary``, ``matrix``, ``causes``,
``scope``, ``verdict``), recomputed by ``finalize`` whenever the observations
change (a merge, a re-render). ``schema.json`` beside this module describes it;
its ``schema_version`` changes whenever a field changes meaning or goes away.

In memory every test is a full entry. report.json writes most of them as
compact rows (``plugins.report.compact``); ``load`` gives them back in full,
so ``merge``, ``finalize`` and the renderers never see the difference.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from hal.show import show
from hal.types import HalVersion
from plugins.report import compact
from plugins.report import counts as selection_counts
from plugins.report.causes import causes
from plugins.report.facts import BAD_OUTCOMES, OUTCOMES, PATTERN_PASSED, case_of, worst
from plugins.report.forms import FORM_PASSED, describe_operation, form_order, form_status

SCHEMA_VERSION = 4
"""2: the matrix's per-cell and per-operation counts and first failures, ``causes``,
and compact entries in report.json (``compact_tests``). 3: the denser compact layout
(cases of shared trailing names, durations in milliseconds), full entries without the
details equal to their reason and the rerun command ``run.rerun`` gives. 4: every test a
compact row, a failure's texts with its case (what the rest of the file gives left out,
lines two details share written once), and only the largest causes written."""
READABLE_VERSIONS = (1, 2, 3, 4)
"""Versions ``load`` reads: a version 1 report holds every test in full, a version 2 one
the older compact layout (``plugins.report.compact``), and the derived parts of either
are recomputed (``finalize``) as this version has them."""
SCHEMA_ID = "nnhal-conformance/certification-report"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema.json"
CERTIFYING_PROFILES = ("full", "thorough")

VERDICT_RULE = (
    "CERTIFIED at HAL level V (tiers parity, or parity+strict) for the operation forms listed "
    "(an operation form is an operation with one operand type) "
    "when the run used profile full or thorough over the whole suite (no -k, -m or "
    "--deselect; every selected test ran; all shards merged), every category of level <= V "
    "that the installed suite provides ran (basic, generated, validation-model, "
    "validation-request, memory-pools; burst at 1.2; caching at 1.2 when the driver says it "
    "caches), no parity test failed, crashed, timed out, was blocked or errored, no known failure "
    "(--expect-fail) remains, and the driver passed at least one operation (an operation is "
    "passed only when generated tests of it that compared output values passed: zero-sized "
    "outputs earn nothing; a form is passed by the same rule over its own tests, and the "
    "certificate counts the passed forms of the passed operations). The strict "
    "tier is certified too when none of its tests failed, crashed, timed out, was blocked or errored. "
    "Unsupported tests are coverage, not failures: the scope lists the operations the "
    "driver passed, each with its operand types passed, failed and declined, and the features "
    "it declined. A certificate from a run whose driver "
    "did not run in a contained process of its own (namespaces) says not tamper-proof."
)
FEATURE_DYNAMIC = "dynamic output shapes"
FEATURE_CACHING = "compilation caching"
FEATURE_MEMORY_DOMAINS = "memory domains"


class ReportError(Exception):
    """A report cannot be read, merged or rendered; the message says which and why."""


def _level(text: object) -> HalVersion:
    """A report's HAL level as a ``HalVersion`` (compared as versions, never as strings);
    a missing or unreadable one as the lowest."""
    try:
        return HalVersion.parse(str(text)) if text is not None else HalVersion.V1_0
    except ValueError:
        return HalVersion.V1_0


def required_categories(level: str | None, caching_supported: bool | None) -> list[str]:
    """The categories the verdict rule demands at a tested HAL level, named as the suite's
    tests report them (``tests/plugin/test_report_suite.py`` checks each against the real suite)."""
    required = ["basic", "generated", "validation-model", "validation-request", "memory-pools"]
    if _level(level) >= HalVersion.V1_2:
        required.append("burst")
        if caching_supported:
            required.append("caching")
    if _level(level) >= HalVersion.V1_3:
        required += ["deadlines", "fenced"]
    return required


def new_document(
    run: dict[str, Any], driver: dict[str, Any], environment: dict[str, Any], tests: list[dict]
) -> dict[str, Any]:
    doc = {
        "schema": SCHEMA_ID,
        "schema_version": SCHEMA_VERSION,
        "run": run,
        "driver": driver,
        "environment": environment,
        "tests": sorted(tests, key=lambda t: t["id"]),
    }
    return finalize(doc)


def refresh_verdict(doc: dict[str, Any]) -> dict[str, Any]:
    """Recompute only the verdict: for a change to ``run`` or ``driver`` that no other
    derived part reads (``finalize`` recomputes them all)."""
    doc["verdict"] = _verdict(doc)
    return doc


def finalize(doc: dict[str, Any]) -> dict[str, Any]:
    """Recompute summary, matrix, causes, scope and verdict from the observations."""
    tests = doc["tests"]
    doc["summary"] = _summary(tests)
    doc["matrix"] = _matrix(tests)
    doc["causes"] = causes(tests)
    doc["scope"] = _scope(tests, doc["driver"])
    doc["verdict"] = _verdict(doc)
    return doc


def _counts(tests: list[dict]) -> dict[str, int]:
    counts = Counter(t["outcome"] for t in tests)
    return {outcome: counts.get(outcome, 0) for outcome in OUTCOMES}


def _summary(tests: list[dict]) -> dict[str, Any]:
    by_category: dict[str, list[dict]] = {}
    by_tier: dict[str, list[dict]] = {}
    for test in tests:
        by_category.setdefault(test["category"], []).append(test)
        by_tier.setdefault(test["tier"] or "untiered", []).append(test)
    return {
        "total": len(tests),
        "outcomes": _counts(tests),
        "categories": {
            name: {
                "total": len(group),
                "outcomes": _counts(group),
                "duration": round(sum(t["duration"] for t in group), 3),
            }
            for name, group in sorted(by_category.items())
        },
        "tiers": {
            name: {"total": len(group), "outcomes": _counts(group)}
            for name, group in sorted(by_tier.items())
        },
        "duration": round(sum(t["duration"] for t in tests), 3),
    }


def _matrix(tests: list[dict]) -> dict[str, Any]:
    """Operation x operand type over the generated tests, and a total per operation.

    A cell (``operations[OP][TYPE]``): its tests' outcome counts and the worst
    outcome, its ``passed``, ``failed`` (every bad outcome: failed, crash, timeout,
    blocked, error) and ``unsupported`` counts, and ``first_failure``, the id and
    reason of its bad test first in id order (None without one). ``totals[OP]``
    is the same over the operation's operand types, with their ``total``. A test
    of several operations counts in the row of each.
    """
    cells: dict[str, dict[str, list[dict]]] = {}
    types: set[str] = set()
    for test in tests:
        if test["category"] != "generated" or not test["operand_type"]:
            continue
        types.add(test["operand_type"])
        for operation in test["operations"]:
            cells.setdefault(operation, {}).setdefault(test["operand_type"], []).append(test)
    return {
        "operand_types": sorted(types),
        "operations": {
            operation: {type_: _cell(group) for type_, group in sorted(row.items())}
            for operation, row in sorted(cells.items())
        },
        "totals": {
            operation: _row_total([t for group in row.values() for t in group])
            for operation, row in sorted(cells.items())
        },
    }


def _tally(tests: list[dict]) -> dict[str, Any]:
    """passed, failed (every bad outcome), unsupported, and the first bad test (id order)."""
    bad = [t for t in tests if t["outcome"] in BAD_OUTCOMES]
    first = min(bad, key=lambda t: t["id"]) if bad else None
    return {
        "passed": sum(t["outcome"] == "passed" for t in tests),
        "credited": sum(t["outcome"] == "passed" and computes(t) for t in tests),
        "failed": len(bad),
        "unsupported": sum(t["outcome"] == "unsupported" for t in tests),
        "first_failure": {"id": first["id"], "reason": first["reason"]} if first else None,
    }


def _cell(tests: list[dict]) -> dict[str, Any]:
    counter = Counter(t["outcome"] for t in tests)
    return {
        "outcome": worst(list(counter)),
        "counts": dict(sorted(counter.items())),
        **_tally(tests),
    }


def _row_total(tests: list[dict]) -> dict[str, Any]:
    return {
        "outcome": worst(list({t["outcome"] for t in tests})),
        "total": len(tests),
        **_tally(tests),
    }


def computes(test: dict[str, Any]) -> bool:
    """Whether a passed generated test earns its operations credit: it compared output values
    (``computed`` true: some output it checks holds at least one value). The suite gives
    every generated test true or false; null (or no key) is a report written before the
    field existed, read as the rule then was."""
    return test.get("computed") is not False


def _scope(tests: list[dict], driver: dict[str, Any]) -> dict[str, Any]:
    """The operations passed, failed and unsupported, their forms, and the features declined.

    An operation is passed (credited) only when, with no bad outcome among its
    generated tests, some of its tests that compared output values passed: a
    test whose outputs are all zero-sized (or that checks only a status) earns
    nothing, so a driver that computes nothing is credited with nothing.
    ``credit[OP][TYPE]`` counts the passed generated tests of OP that compared
    values, by operand type; ``operations_uncredited`` lists the operations
    that passed only tests comparing no value.

    The same rule, applied to the tests of one operation and one operand type (the
    type a test carries), gives each form's status (``forms[OP][TYPE]``:
    ``plugins.report.forms.form_status``). ``forms_passed`` lists the passed forms of the passed
    operations, ``[OP, TYPE]`` pairs: what a certificate covers. A test the driver
    declined only for its dynamic output shapes is a feature declined, not a form.
    """
    per_operation: defaultdict[str, Counter] = defaultdict(Counter)
    per_form: defaultdict[str, defaultdict[str, Counter]] = defaultdict(
        lambda: defaultdict(Counter)
    )
    credit: defaultdict[str, Counter] = defaultdict(Counter)
    dynamic_declined = False
    for test in tests:
        if test["category"] != "generated":
            continue
        if test["outcome"] == "unsupported" and FEATURE_DYNAMIC in (test.get("reason") or ""):
            dynamic_declined = True
            continue
        credited = test["outcome"] == "passed" and computes(test)
        type_ = test["operand_type"] or "none"
        for operation in test["operations"]:
            per_operation[operation][test["outcome"]] += 1
            per_form[operation][type_][test["outcome"]] += 1
            if credited:
                credit[operation][type_] += 1
    passed, failed, unsupported, uncredited = [], [], [], []
    for operation, counts in sorted(per_operation.items()):
        if any(counts[o] for o in (*BAD_OUTCOMES, "expected-failure")):
            failed.append(operation)
        elif operation in credit:
            passed.append(operation)
        elif counts["passed"]:
            uncredited.append(operation)
        elif counts["unsupported"]:
            unsupported.append(operation)
    forms: dict[str, dict[str, str]] = {}
    for operation, by_type in sorted(per_form.items()):
        for type_, counts in sorted(by_type.items(), key=lambda kv: form_order(kv[0])):
            status = form_status(counts, credit.get(operation, Counter())[type_])
            if status is not None:
                forms.setdefault(operation, {})[type_] = status
    declined = []
    if dynamic_declined:
        declined.append(FEATURE_DYNAMIC)
    if driver.get("caching_supported") is False:
        declined.append(FEATURE_CACHING)
    if driver.get("memory_domains") is False:
        declined.append(FEATURE_MEMORY_DOMAINS)
    return {
        "operations_passed": passed,
        "operations_failed": failed,
        "operations_unsupported": unsupported,
        "operations_uncredited": uncredited,
        "credit": {
            operation: dict(sorted(counts.items())) for operation, counts in sorted(credit.items())
        },
        "forms": forms,
        "forms_passed": [
            [operation, type_]
            for operation in passed
            for type_, status in forms.get(operation, {}).items()
            if status == FORM_PASSED
        ],
        "features_declined": declined,
    }


def _bad(tests: list[dict], strict: bool) -> list[dict]:
    return [t for t in tests if t["outcome"] in BAD_OUTCOMES and (t["tier"] == "strict") == strict]


def _verdict(doc: dict[str, Any]) -> dict[str, Any]:
    run, driver, tests = doc["run"], doc["driver"], doc["tests"]
    level = driver.get("tested_level")
    reasons = []
    if run.get("smoke"):
        reasons.append(
            "a smoke run (--smoke): a small sample of every category for a first try, "
            "never a certificate"
        )
    if driver.get("load_error"):
        reasons.append(f"the driver could not be queried: {driver['load_error']}")
    if run["profile"] not in CERTIFYING_PROFILES:
        reasons.append(f"profile {run['profile']}: only full or thorough runs certify")
    if run.get("shard"):
        shard = run["shard"]
        reasons.append(
            f"this is shard {shard['index']}/{shard['count']} of a run: merge every shard "
            "with nnhal-report merge for a verdict"
        )
    if run["deselected"]:
        reasons.append(selection_counts.verdict_reason(run))
    missing_runs = run["selected"] - len(tests)
    if missing_runs > 0:
        reasons.append(f"{missing_runs} of {run['selected']} selected tests did not run")
    ran = {t["category"] for t in tests if t["outcome"] != "skipped-other"}
    provided = set(run["suite_categories"])
    required = [
        c for c in required_categories(level, driver.get("caching_supported")) if c in provided
    ]
    missing = [c for c in required if c not in ran]
    if missing:
        reasons.append(f"categories that did not run: {', '.join(missing)}")
    parity_bad = _bad(tests, strict=False)
    if parity_bad:
        reasons.append(_bad_sentence(parity_bad, "parity"))
    known = sum(t["outcome"] == "expected-failure" for t in tests)
    if known:
        reasons.append(f"{known} known failures remain (--expect-fail)")
    scope = doc["scope"]
    operations = scope["operations_passed"]
    if not operations:
        reasons.append(_nothing_passed(scope))
    strict_bad = _bad(tests, strict=True)
    notes = (
        [_bad_sentence(strict_bad, "strict") + ": the strict tier is not certified"]
        if strict_bad
        else []
    )
    if operations:
        notes.append(
            "operations passed, with their operand types: "
            + ", ".join(describe_operation(scope, operation) for operation in operations)
        )
    uncredited = scope.get("operations_uncredited") or []
    if uncredited:
        notes.append(
            f"{len(uncredited)} operations passed only tests that compared no output value "
            f"(zero-sized outputs, status checks): not credited: {', '.join(uncredited)}"
        )
    notes += _pattern_passes(tests)
    notes += _pack_notes(run.get("packs") or [], tests)
    certified = not reasons
    tiers = ("parity" if strict_bad else "parity+strict") if certified else None
    if certified:
        headline = f"CERTIFIED at HAL {level} ({tiers}) for {_scope_count(scope)}"
        isolation = run.get("isolation")
        if isolation is not None and not isolation["tamper_proof"]:
            headline += f", not tamper-proof ({_why_not_tamper_proof(isolation)})"
    else:
        headline = "NOT CERTIFIED"
    return {
        "status": "CERTIFIED" if certified else "NOT CERTIFIED",
        "level": level if certified else None,
        "tiers": tiers,
        "headline": headline,
        "reasons": reasons,
        "notes": notes,
        "required_categories": required,
        "rule": VERDICT_RULE,
    }


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _scope_count(scope: dict[str, Any]) -> str:
    """What a certificate covers, counted: ``14 operation forms of 12 operations`` (the
    passed forms of the passed operations). A report without forms counts operations."""
    operations = len(scope["operations_passed"])
    if "forms_passed" not in scope:
        return _plural(operations, "operation")
    forms = len(scope["forms_passed"])
    return f"{_plural(forms, 'operation form')} of {_plural(operations, 'operation')}"


def _nothing_passed(scope: dict[str, Any]) -> str:
    """Why no operation passed, saying a driver supports nothing only when it declined every
    operation it was asked to run."""
    declined = scope["operations_unsupported"]
    others = scope["operations_failed"] or scope.get("operations_uncredited")
    if declined and not others:
        asked = f"all {len(declined)} operations" if len(declined) > 1 else "the one operation"
        return (
            f"the driver passed no operation: it declined {asked} the run asked it for (a "
            "driver that supports nothing certifies nothing)"
        )
    if not (declined or others):
        return "the driver passed no operation: no generated test ran"
    return (
        "the driver passed no operation: an operation is passed only when its generated "
        "tests that compared output values passed and none of its tests failed"
    )


def _pack_notes(packs: list[dict[str, Any]], tests: list[dict]) -> list[str]:
    """A note per vendor test pack: its tests (which count like the suite's own) and the
    specs of it that failed to generate."""
    notes = []
    for pack in packs:
        mine = sum(_pack_of(t["id"]) == pack["name"] for t in tests)
        line = f"vendor pack {pack['name']} ({pack['folder']}): {mine} tests, counted like the suite's own"
        errors = pack["spec_errors"]
        if errors:
            line += (
                f"; {len(errors)} of its {pack['specs']} specs failed to generate: "
                + "; ".join(errors)
            )
        notes.append(line)
    return notes


def _pack_of(identifier: str) -> str | None:
    """The vendor pack of the case a test id names (``[acme:V1_2/...]``, a validation
    family's ``[family/acme:V1_2/...]``); None for the suite's own cases and other tests."""
    case = case_of(identifier)
    return case.pack or None if case is not None else None


def _why_not_tamper_proof(isolation: dict[str, Any]) -> str:
    if isolation.get("why_not_tamper_proof"):
        return str(isolation["why_not_tamper_proof"])
    if isolation["mode"] == "none":
        return "the driver ran in the harness's process"
    return "the driver's process was not in namespaces of its own"


def _pattern_passes(tests: list[dict]) -> list[str]:
    """A note naming the known-failure patterns that matched passing tests, with counts."""
    counts: Counter = Counter()
    for test in tests:
        reason = test.get("reason") or ""
        if test["outcome"] == "passed" and reason.startswith(PATTERN_PASSED):
            counts[reason.removeprefix(PATTERN_PASSED).removesuffix(" matches it").strip()] += 1
    if not counts:
        return []
    listing = ", ".join(f"{pattern} {n}" for pattern, n in sorted(counts.items()))
    return [
        f"{sum(counts.values())} tests matched by known-failure patterns passed "
        f"(they count as passed): {listing}"
    ]


def _bad_sentence(tests: list[dict], tier: str) -> str:
    counts = Counter(t["outcome"] for t in tests)
    parts = ", ".join(f"{counts[o]} {o}" for o in BAD_OUTCOMES if counts[o])
    return f"{len(tests)} {tier} tests did not pass ({parts})"


# ---------------------------------------------------------------------------
# Reading and merging
# ---------------------------------------------------------------------------


def load(path: Path) -> dict[str, Any]:
    """A report document from ``path``, every test a full entry; ReportError naming the
    file if it is not one, or not of a version this module reads (``READABLE_VERSIONS``).

    A version 1 report is read as this version: its derived parts are recomputed."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}: not JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA_ID:
        raise ReportError(f'{path}: not an nnhal certification report (no "schema": "{SCHEMA_ID}")')
    version = doc.get("schema_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        readable = ", ".join(str(v) for v in READABLE_VERSIONS)
        raise ReportError(
            f"{path}: schema version {version}; this nnhal-report reads versions {readable}"
        )
    try:
        doc = compact.unpack(doc)
    except ValueError as e:
        raise ReportError(f"{path}: {e}") from None
    except (KeyError, TypeError, AttributeError) as e:
        raise ReportError(f"{path}: malformed tests ({type(e).__name__}: {e})") from None
    _check_tests(doc.get("tests"), path)
    # Every derived part (summary, matrix, scope, verdict) is recomputed from the
    # observations: a verdict written into the file is never believed.
    try:
        doc = finalize(doc)
    except (KeyError, TypeError, AttributeError) as e:
        raise ReportError(
            f"{path}: not a well-formed version {version} report ({type(e).__name__}: {e})"
        ) from None
    doc["schema_version"] = SCHEMA_VERSION
    return doc


def _check_tests(tests: object, path: Path) -> None:
    """Every test entry an object with a string id and a known outcome (ReportError if not)."""
    if not isinstance(tests, list):
        raise ReportError(f'{path}: "tests" is not a list')
    for position, test in enumerate(tests):
        if not isinstance(test, dict) or type(test.get("id")) is not str:
            raise ReportError(f"{path}: test {position} has no id")
        if test.get("outcome") not in OUTCOMES:
            raise ReportError(
                f"{path}: test {test['id']!r} has no known outcome ({show(test.get('outcome'))})"
            )


def _driver_key(doc: dict[str, Any]) -> tuple:
    d = doc["driver"]
    return (d.get("spec"), d.get("version_string"), d.get("level"), d.get("tested_level"))


def _describe_driver(doc: dict[str, Any]) -> str:
    d = doc["driver"]
    return f"{d.get('spec')} ({d.get('version_string')}, HAL {d.get('tested_level')})"


_SHARD_OPTION = re.compile(r"\s--shard(?:=|\s+)\S+")


def merge(named: list[tuple[str, dict[str, Any]]], command: str | None = None) -> dict[str, Any]:
    """One document from the shard documents of one run; ReportError when they do not fit.

    ``command`` is the run's (``nnhal-certify`` gives its own); by default shard
    1's without its ``--shard`` option."""
    if not named:
        raise ReportError("nothing to merge: give the report.json of every shard")
    first_name, first = named[0]
    for name, doc in named[1:]:
        if doc["schema_version"] != first["schema_version"]:
            raise ReportError(
                f"cannot merge reports of different schema versions: {first_name} has "
                f"{first['schema_version']}, {name} has {doc['schema_version']}"
            )
        if _driver_key(doc) != _driver_key(first):
            raise ReportError(
                f"cannot merge reports of different drivers: {first_name} tested "
                f"{_describe_driver(first)}, {name} tested {_describe_driver(doc)}"
            )
        if doc["run"]["profile"] != first["run"]["profile"]:
            raise ReportError(
                f"cannot merge reports of different profiles: {first_name} ran "
                f"{first['run']['profile']}, {name} ran {doc['run']['profile']}"
            )
        if doc["run"].get("seed") != first["run"].get("seed"):
            raise ReportError(
                f"cannot merge reports of different seeds: {first_name} drew with "
                f"{first['run'].get('seed')}, {name} with {doc['run'].get('seed')} (every shard "
                "of a run is given the run's --nnhal-seed)"
            )
    _check_shards(named)
    tests: list[dict] = []
    owner: dict[str, str] = {}
    for name, doc in named:
        for test in doc["tests"]:
            if test["id"] in owner:
                raise ReportError(
                    f"overlapping shards: {test['id']} is in both {owner[test['id']]} and {name}"
                )
            owner[test["id"]] = name
            tests.append(test)
    runs = [doc["run"] for _, doc in named]
    lowest = min(runs, key=lambda r: r["shard"]["index"])
    run = dict(first["run"])
    run.update(
        shard=None,
        merged_shards=sorted(f"{r['shard']['index']}/{r['shard']['count']}" for r in runs),
        selected=sum(r["selected"] for r in runs),
        # -k/-m deselect over the whole collection before the shard split: each shard
        # reports the same count, the run's (plugins.report.counts).
        deselected_by=selection_counts.merged(runs),
        duration=round(max(r["duration"] for r in runs), 3),
        exit_status=max(r["exit_status"] for r in runs),
        workers=sum(r["workers"] for r in runs),
        started=min(r["started"] for r in runs),
        command=command if command is not None else _SHARD_OPTION.sub("", lowest["command"]),
    )
    isolations = [r["isolation"] for r in runs if "isolation" in r]
    if isolations:
        # The weakest shard decides (its log folder is the one named; each shard has one).
        run["isolation"] = dict(
            min(isolations, key=lambda i: i["tamper_proof"]),
            tamper_proof=all(i["tamper_proof"] for i in isolations)
            and len(isolations) == len(runs),
        )
    if any("worker_memory" in r for r in runs):
        # Each shard's processes, named after their shard: gw0 of shard 2 is "2/3:gw0".
        run["worker_memory"] = [
            dict(w, id=f"{r['shard']['index']}/{r['shard']['count']}:{w['id']}")
            for r in sorted(runs, key=lambda r: r["shard"]["index"])
            for w in r.get("worker_memory", [])
        ]
    run["deselected"] = sum(run["deselected_by"].values())
    return new_document(run, first["driver"], first["environment"], tests)


def _check_shards(named: list[tuple[str, dict[str, Any]]]) -> None:
    counts = set()
    seen: dict[int, str] = {}
    for name, doc in named:
        shard = doc["run"].get("shard")
        if not shard:
            raise ReportError(
                f"{name} is not a shard (it was run without --shard=K/N): only the shards "
                "of one run merge"
            )
        counts.add(shard["count"])
        if shard["index"] in seen:
            raise ReportError(
                f"overlapping shards: shard {shard['index']}/{shard['count']} is both "
                f"{seen[shard['index']]} and {name}"
            )
        seen[shard["index"]] = name
    if len(counts) > 1:
        listing = ", ".join(
            f"{name} is {d['run']['shard']['index']}/{d['run']['shard']['count']}"
            for name, d in named
        )
        raise ReportError(f"cannot merge shards of different splits: {listing}")
    count = counts.pop()
    missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in seen]
    if missing:
        raise ReportError(f"missing shards: {', '.join(missing)} (give every shard of the run)")


def write(doc: dict[str, Any], out_dir: Path) -> list[Path]:
    """report.json (compact entries: ``plugins.report.compact``), report.html and report.md
    in ``out_dir`` (created if needed)."""
    from plugins.report.render import render_html, render_markdown

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = json_text(doc)
    # Render what load gives a reader of report.json: re-rendering is exact. report.json
    # writes only the largest causes; load works every one out again, and so does this.
    doc = compact.unpack(json.loads(text))
    doc["causes"] = causes(doc["tests"])
    files = {
        "report.json": text,
        "report.html": render_html(doc),
        "report.md": render_markdown(doc),
    }
    return write_files(out_dir, files)


def json_text(doc: dict[str, Any]) -> str:
    """report.json's exact text for ``doc`` (compact entries, sorted keys; durations at
    the precision report.json keeps: ``at_written_precision``)."""
    packed = compact.pack(at_written_precision(doc))
    return json.dumps(packed, sort_keys=True, separators=(",", ":")) + "\n"


def at_written_precision(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` itself when every duration is at report.json's precision (the millisecond:
    the collector rounds to it), else a copy with them rounded and its derived parts
    recomputed, so that what ``load`` gives back is what was rendered (an older report's
    durations had four decimals)."""
    if all(t["duration"] == compact.precise(t["duration"]) for t in doc["tests"]):
        return doc
    tests = [dict(t, duration=compact.precise(t["duration"])) for t in doc["tests"]]
    return finalize(dict(doc, tests=tests))


def write_files(out_dir: Path, files: dict[str, str]) -> list[Path]:
    """Each named text written in ``out_dir`` (created if needed), UTF-8; their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
