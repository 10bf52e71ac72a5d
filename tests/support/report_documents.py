"""Certification report documents built by hand, for the report's tests: ``_test`` makes
one test entry, ``_generated`` one of a generated case, ``_document`` a whole document
that certifies unless told otherwise."""

from __future__ import annotations

import json

import jsonschema

from plugins.report.document import SCHEMA_PATH, new_document

SUITE = ["basic", "generated", "validation-model", "validation-request"]


def _test(name: str, category: str, outcome: str = "passed", **facts) -> dict:
    test = {
        "id": f"conformance.test_x::{name}",
        "category": category,
        "hal_version": "1.2",
        "operations": [],
        "operand_type": None,
        "path": None,
        "tier": "parity",
        "family": None,
        "outcome": outcome,
        "duration": 0.5,
        "reason": None if outcome == "passed" else f"why {name}",
        "details": None,
        "metrics": None,
        "rerun": None if outcome in ("passed", "unsupported", "skipped-other") else "pytest x",
        # A generated test compares output values unless told (as the suite writes it).
        "computed": True if category == "generated" else None,
    }
    test.update(facts)
    return test


def _generated(name: str, operation: str, type_: str, outcome: str = "passed", **facts) -> dict:
    facts = {"operations": [operation], "operand_type": type_, **facts}
    return _test(name, "generated", outcome, **facts)


def _document(tests: list[dict] | None = None, run: dict | None = None, driver: dict | None = None):
    if tests is None:
        tests = [_test(f"t_{c}", c) for c in SUITE if c != "generated"]
        tests.append(_generated("add_f32", "ADD", "TENSOR_FLOAT32"))
    base_run = {
        "profile": "full",
        "hal_version_cap": None,
        "shard": None,
        "merged_shards": [],
        "selected": len(tests),
        "deselected": 0,
        "started": "2026-01-01T00:00:00+00:00",
        "duration": 3.0,
        "exit_status": 0,
        "workers": 2,
        "command": "pytest --pyargs conformance",
        "expect_fail": None,
        "suite_categories": SUITE,
    }
    base_driver = {
        "spec": "vendor:Factory",
        "is_default": False,
        "level": "1.2",
        "tested_level": "1.2",
        "version_string": "vendor 1.0",
        "device_type": "ACCELERATOR",
        "capabilities": {},
        "caching_supported": False,
        "memory_domains": None,
        "load_error": None,
    }
    doc = new_document(
        {**base_run, **(run or {})},
        {**base_driver, **(driver or {})},
        {
            "python": "3.11",
            "implementation": "CPython",
            "platform": "x",
            "machine": "y",
            "packages": {},
        },
        tests,
    )
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(doc)
    return doc


def written_cases(packed: dict, function: str) -> list[tuple]:
    """A function's cases in report.json's ``compact_tests`` (``packed``), read by hand:
    (prefix, names, durations, facts rows, texts by position)."""
    segments, layouts, facts = packed["segments"], packed["layouts"], packed["facts"]
    cases = []
    for prefix, layout, durations, palette, *more in packed["functions"][function]:
        names, slots = layouts[layout]
        head = None if prefix is None else "/".join(segments[i] for i in prefix)
        texts = {}
        for position, *written in more[0] if more else []:
            details, metrics, other = [*written, None, None][:3]
            texts[position] = {
                **({} if details is None else {"details": details}),
                **({} if metrics is None else {"metrics": metrics}),
                **(other or {}),
            }
        cases.append((head, names, durations, [facts[palette[slot]] for slot in slots], texts))
    return cases


def written_texts(packed: dict) -> dict[str, dict]:
    """The texts report.json's ``compact_tests`` (``packed``) writes, by test id (the
    tests without texts left out)."""
    found = {}
    for function in packed["functions"]:
        for prefix, names, _, _, texts in written_cases(packed, function):
            for k, t in texts.items():
                name = names[k] if prefix is None else f"{prefix}/{names[k]}"
                found[function if name is None else f"{function}[{name}]"] = t
    return found
