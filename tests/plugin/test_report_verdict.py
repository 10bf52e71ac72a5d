"""The verdict rule, scope and matrix of a report, on documents built by hand.

Each case changes one thing in a run that otherwise certifies, and checks the
exact verdict, reason or scope entry that change must give.
"""

from __future__ import annotations

import pytest
from report_documents import SUITE, _document, _generated, _test

from plugins.report.document import VERDICT_RULE
from plugins.report.render import render_html, render_markdown


def test_a_clean_full_run_certifies_both_tiers() -> None:
    verdict = _document()["verdict"]
    assert verdict["status"] == "CERTIFIED"
    assert (
        verdict["headline"]
        == "CERTIFIED at HAL 1.2 (parity+strict) for 1 operation form of 1 operation"
    )
    assert (verdict["level"], verdict["tiers"], verdict["reasons"]) == ("1.2", "parity+strict", [])
    assert verdict["rule"] == VERDICT_RULE


def test_a_strict_failure_leaves_parity_certified() -> None:
    doc = _document()
    doc = _document(doc["tests"] + [_test("order", "basic", "failed", tier="strict")])
    verdict = doc["verdict"]
    assert (
        verdict["headline"] == "CERTIFIED at HAL 1.2 (parity) for 1 operation form of 1 operation"
    )
    assert verdict["notes"] == [
        "1 strict tests did not pass (1 failed): the strict tier is not certified",
        "operations passed, with their operand types: ADD (TENSOR_FLOAT32)",
    ]


@pytest.mark.parametrize("outcome", ["failed", "crash", "timeout", "error"])
def test_a_parity_test_that_does_not_pass_stops_certification(outcome: str) -> None:
    tests = _document()["tests"] + [_test("bad", "basic", outcome)]
    verdict = _document(tests)["verdict"]
    assert verdict["status"] == "NOT CERTIFIED"
    assert verdict["headline"] == "NOT CERTIFIED"
    assert verdict["reasons"] == [f"1 parity tests did not pass (1 {outcome})"]


def test_an_untiered_failure_counts_as_parity() -> None:
    tests = _document()["tests"] + [_test("bad", "basic", "failed", tier=None)]
    assert _document(tests)["verdict"]["reasons"] == ["1 parity tests did not pass (1 failed)"]


@pytest.mark.parametrize(
    ("run", "reason"),
    [
        ({"profile": "ci"}, "profile ci: only full or thorough runs certify"),
        (
            {"shard": {"index": 2, "count": 3}},
            "this is shard 2/3 of a run: merge every shard with nnhal-report merge for a verdict",
        ),
        (
            {"deselected": 12},
            "12 tests were deselected by -k/-m/--deselect/--nnhal-op/node ids: a certification "
            "runs the whole suite",
        ),
        (
            {"deselected": 1212, "deselected_by": {"filter": 12, "smoke": 1200, "shard": 0}},
            "1,212 tests were deselected (12 by -k/-m/--deselect/--nnhal-op/node ids, 1,200 by "
            "--nnhal-smoke): a certification runs the whole suite",
        ),
        ({"selected": 7}, "3 of 7 selected tests did not run"),
    ],
)
def test_partial_runs_do_not_certify(run: dict, reason: str) -> None:
    verdict = _document(run=run)["verdict"]
    assert verdict["reasons"] == [reason]


def test_thorough_certifies() -> None:
    assert _document(run={"profile": "thorough"})["verdict"]["status"] == "CERTIFIED"


def test_every_category_the_suite_provides_must_run() -> None:
    tests = [t for t in _document()["tests"] if t["category"] != "validation-request"]
    tests.append(_test("skipped", "validation-request", "skipped-other"))
    assert _document(tests)["verdict"]["reasons"] == [
        "categories that did not run: validation-request"
    ]


def test_categories_follow_the_level_and_the_suite() -> None:
    suite = [*SUITE, "burst", "caching", "memory-pools", "memory-domains"]
    doc = _document(run={"suite_categories": suite})
    assert doc["verdict"]["reasons"] == ["categories that did not run: memory-pools, burst"]
    doc = _document(run={"suite_categories": suite}, driver={"caching_supported": True})
    assert doc["verdict"]["reasons"] == [
        "categories that did not run: memory-pools, burst, caching"
    ]
    # At HAL 1.1 neither bursts nor caching exist.
    doc = _document(run={"suite_categories": suite}, driver={"tested_level": "1.1"})
    assert doc["verdict"]["required_categories"] == [*SUITE, "memory-pools"]
    assert doc["verdict"]["reasons"] == ["categories that did not run: memory-pools"]


def test_known_failures_stop_certification() -> None:
    tests = _document()["tests"] + [_test("known", "basic", "expected-failure")]
    assert _document(tests)["verdict"]["reasons"] == ["1 known failures remain (--expect-fail)"]


def test_a_driver_that_supports_nothing_certifies_nothing() -> None:
    tests = [t for t in _document()["tests"] if t["category"] != "generated"]
    tests.append(_generated("add", "ADD", "TENSOR_FLOAT32", "unsupported"))
    tests.append(_generated("mul", "MUL", "TENSOR_QUANT8_ASYMM", "unsupported"))
    doc = _document(tests)
    assert doc["verdict"]["reasons"] == [
        "the driver passed no operation: it declined all 2 operations the run asked it for "
        "(a driver that supports nothing certifies nothing)"
    ]
    assert doc["scope"]["operations_unsupported"] == ["ADD", "MUL"]
    assert doc["scope"]["forms"] == {
        "ADD": {"TENSOR_FLOAT32": "declined"},
        "MUL": {"TENSOR_QUANT8_ASYMM": "declined"},
    }
    assert doc["verdict"]["notes"] == []


def test_supports_nothing_is_said_only_of_a_driver_that_declined_everything() -> None:
    others = [t for t in _document()["tests"] if t["category"] != "generated"]
    # Declined some and failed the others: it supports something, and passed nothing.
    tests = [
        *others,
        _generated("add", "ADD", "TENSOR_FLOAT32", "unsupported"),
        _generated("mul", "MUL", "TENSOR_FLOAT32", "failed"),
    ]
    assert _document(tests)["verdict"]["reasons"][-1] == (
        "the driver passed no operation: an operation is passed only when its generated tests "
        "that compared output values passed and none of its tests failed"
    )
    # Passed only tests that compared no value.
    tests = [*others, _generated("add", "ADD", "TENSOR_FLOAT32", computed=False)]
    assert _document(tests)["verdict"]["reasons"] == [
        "the driver passed no operation: an operation is passed only when its generated tests "
        "that compared output values passed and none of its tests failed"
    ]
    # Declined the one operation it was asked.
    tests = [*others, _generated("add", "ADD", "TENSOR_FLOAT32", "unsupported")]
    assert _document(tests)["verdict"]["reasons"] == [
        "the driver passed no operation: it declined the one operation the run asked it for "
        "(a driver that supports nothing certifies nothing)"
    ]
    # Asked nothing: no generated test ran (a level too low skips them all).
    tests = [*others, _generated("add", "ADD", "TENSOR_FLOAT32", "skipped-other")]
    assert _document(tests)["verdict"]["reasons"][-1] == (
        "the driver passed no operation: no generated test ran"
    )


def test_a_driver_that_could_not_be_queried() -> None:
    doc = _document(driver={"load_error": "get_type: TimeoutError: no answer within 10 s"})
    assert doc["verdict"]["reasons"] == [
        "the driver could not be queried: get_type: TimeoutError: no answer within 10 s"
    ]


def test_scope_and_declined_features() -> None:
    tests = [t for t in _document()["tests"] if t["category"] != "generated"] + [
        _generated("add", "ADD", "TENSOR_FLOAT32"),
        _generated(
            "add_dyn",
            "ADD",
            "TENSOR_FLOAT32",
            "unsupported",
            reason="unsupported: dynamic output shapes: the driver answered GENERAL_FAILURE",
        ),
        _generated("mul", "MUL", "TENSOR_FLOAT32", "failed"),
        _generated("mul_q", "MUL", "TENSOR_QUANT8_ASYMM"),
        _generated("conv", "CONV_2D", "TENSOR_FLOAT16", "unsupported"),
    ]
    doc = _document(tests, driver={"caching_supported": False, "memory_domains": False})
    assert doc["scope"] == {
        "operations_passed": ["ADD"],
        "operations_failed": ["MUL"],
        "operations_unsupported": ["CONV_2D"],
        "operations_uncredited": [],
        "credit": {"ADD": {"TENSOR_FLOAT32": 1}, "MUL": {"TENSOR_QUANT8_ASYMM": 1}},
        # The test declined for its dynamic output shapes is a feature, not a form.
        "forms": {
            "ADD": {"TENSOR_FLOAT32": "passed"},
            "CONV_2D": {"TENSOR_FLOAT16": "declined"},
            "MUL": {"TENSOR_FLOAT32": "failed", "TENSOR_QUANT8_ASYMM": "passed"},
        },
        # MUL failed (one form failed): none of its forms counts in a certificate.
        "forms_passed": [["ADD", "TENSOR_FLOAT32"]],
        "features_declined": ["dynamic output shapes", "compilation caching", "memory domains"],
    }


def _forms_run() -> list[dict]:
    """A run that certifies ADD in one operand type of three, RELU in two and eleven other
    operations in one each (14 forms of 13 operations); MUL fails a strict test of one form."""
    others = [t for t in _document()["tests"] if t["category"] != "generated"]
    return [
        *others,
        _generated("add_f32", "ADD", "TENSOR_FLOAT32"),
        _generated("add_f32_dyn", "ADD", "TENSOR_FLOAT32", "unsupported"),
        _generated("add_q8", "ADD", "TENSOR_QUANT8_ASYMM", "unsupported"),
        _generated("add_f16", "ADD", "TENSOR_FLOAT16", "unsupported"),
        _generated("relu_q8", "RELU", "TENSOR_QUANT8_ASYMM"),
        _generated("relu_f32", "RELU", "TENSOR_FLOAT32"),
        _generated("relu_relaxed", "RELU", "TENSOR_FLOAT32+relaxed", computed=False),
        _generated("mul_f32", "MUL", "TENSOR_FLOAT32"),
        _generated("mul_q8", "MUL", "TENSOR_QUANT8_ASYMM", "failed", tier="strict"),
        *(_generated(f"op{i}", f"OP_{i:02}", "TENSOR_FLOAT32") for i in range(11)),
    ]


def test_the_certificate_counts_operation_forms_and_names_them() -> None:
    doc = _document(_forms_run())
    verdict, scope = doc["verdict"], doc["scope"]
    assert verdict["headline"] == (
        "CERTIFIED at HAL 1.2 (parity) for 14 operation forms of 13 operations"
    )
    eleven = ", ".join(f"OP_{i:02} (TENSOR_FLOAT32)" for i in range(11))
    assert verdict["notes"] == [
        "1 strict tests did not pass (1 failed): the strict tier is not certified",
        "operations passed, with their operand types: "
        "ADD (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16 declined), "
        f"{eleven}, RELU (TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; TENSOR_FLOAT32+relaxed not credited)",
    ]
    assert scope["forms"]["ADD"] == {
        "TENSOR_FLOAT32": "passed",
        "TENSOR_QUANT8_ASYMM": "declined",
        "TENSOR_FLOAT16": "declined",
    }
    assert scope["forms"]["MUL"] == {"TENSOR_FLOAT32": "passed", "TENSOR_QUANT8_ASYMM": "failed"}
    assert scope["operations_failed"] == ["MUL"]
    assert scope["forms_passed"][:2] == [["ADD", "TENSOR_FLOAT32"], ["OP_00", "TENSOR_FLOAT32"]]
    assert scope["forms_passed"][-2:] == [
        ["RELU", "TENSOR_FLOAT32"],
        ["RELU", "TENSOR_QUANT8_ASYMM"],
    ]
    assert len(scope["forms_passed"]) == 14


def test_one_operation_form_is_singular() -> None:
    assert _document()["verdict"]["headline"] == (
        "CERTIFIED at HAL 1.2 (parity+strict) for 1 operation form of 1 operation"
    )


def test_the_scope_names_each_operations_forms_in_both_renderings() -> None:
    doc = _document(_forms_run())
    markdown = render_markdown(doc)
    eleven = ", ".join(f"OP_{i:02} (TENSOR_FLOAT32)" for i in range(11))
    assert (
        "Operations passed (13; 14 operation forms): "
        "ADD (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16 declined), "
        f"{eleven}, RELU (TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM; "
        "TENSOR_FLOAT32+relaxed not credited).\n"
        "Operations failed (1): MUL (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM failed).\n"
    ) in markdown
    assert (
        "| MUL | 1 | 1 | 0 | TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM failed | TENSOR_QUANT8_ASYMM (1) |"
    ) in markdown
    html = render_html(doc)
    assert (
        "<tr><th>operations passed (13; 14 operation forms)</th><td>"
        "ADD (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16 declined), OP_00"
    ) in html
    assert (
        "<tr><th>operations failed (1)</th><td>MUL (TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM failed)"
        "</td></tr>"
    ) in html
    assert (
        '<tr data-row-operation="ADD"><th>ADD</th><td class="num">4</td><td class="num">1</td>'
        '<td class="num">0</td><td class="num">3</td>'
        "<td>TENSOR_FLOAT32; TENSOR_QUANT8_ASYMM, TENSOR_FLOAT16 declined</td>"
    ) in html


def test_a_declined_operation_is_listed_with_its_forms() -> None:
    tests = _document()["tests"] + [
        _generated("conv", "CONV_2D", "TENSOR_FLOAT32", "unsupported"),
        _generated("conv_q", "CONV_2D", "TENSOR_QUANT8_ASYMM", "unsupported"),
    ]
    doc = _document(tests)
    assert doc["scope"]["operations_unsupported"] == ["CONV_2D"]
    assert "Operations the driver declined in every form (1): CONV_2D.\n" in render_markdown(doc)
    assert (
        "<tr><th>operations unsupported (1): the driver declined every form</th>"
        "<td>CONV_2D (TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM declined)</td></tr>"
    ) in render_html(doc)


def test_matrix_cells_show_the_worst_outcome() -> None:
    tests = [t for t in _document()["tests"] if t["category"] != "generated"] + [
        _generated("a1", "ADD", "TENSOR_FLOAT32"),
        _generated("a2", "ADD", "TENSOR_FLOAT32", "unsupported"),
        _generated("m1", "MUL", "TENSOR_FLOAT32"),
        _generated("m2", "MUL", "TENSOR_FLOAT32", "timeout"),
        _generated("m3", "MUL", "TENSOR_FLOAT32", "failed"),
        _generated("both", "ADD", "TENSOR_QUANT8_ASYMM", operations=["ADD", "MUL"]),
    ]
    matrix = _document(tests)["matrix"]
    assert matrix["operand_types"] == ["TENSOR_FLOAT32", "TENSOR_QUANT8_ASYMM"]
    clean = {"failed": 0, "unsupported": 0, "first_failure": None, "credited": 1}
    assert matrix["operations"] == {
        "ADD": {
            "TENSOR_FLOAT32": {
                "outcome": "passed",
                "counts": {"passed": 1, "unsupported": 1},
                **clean,
                "passed": 1,
                "unsupported": 1,
            },
            "TENSOR_QUANT8_ASYMM": {
                "outcome": "passed",
                "counts": {"passed": 1},
                **clean,
                "passed": 1,
            },
        },
        "MUL": {
            "TENSOR_FLOAT32": {
                "outcome": "timeout",
                "counts": {"failed": 1, "passed": 1, "timeout": 1},
                "passed": 1,
                "credited": 1,
                "failed": 2,
                "unsupported": 0,
                "first_failure": {"id": "conformance.test_x::m2", "reason": "why m2"},
            },
            "TENSOR_QUANT8_ASYMM": {
                "outcome": "passed",
                "counts": {"passed": 1},
                **clean,
                "passed": 1,
            },
        },
    }


def test_summary_counts_by_category_and_tier() -> None:
    tests = _document()["tests"] + [_test("s", "basic", "unsupported", tier="strict")]
    summary = _document(tests)["summary"]
    assert summary["total"] == 5
    assert summary["categories"]["basic"]["total"] == 2
    assert summary["categories"]["basic"]["outcomes"]["unsupported"] == 1
    assert summary["categories"]["basic"]["duration"] == 1.0
    assert summary["tiers"]["strict"] == {
        "total": 1,
        "outcomes": {
            "passed": 0,
            "failed": 0,
            "unsupported": 1,
            "crash": 0,
            "timeout": 0,
            "blocked": 0,
            "error": 0,
            "expected-failure": 0,
            "skipped-other": 0,
        },
    }


IN_PROCESS = {"mode": "none", "containment": None, "tamper_proof": False, "driver_logs": None}
CONTAINED = {
    "mode": "process",
    "containment": "namespaces by bubblewrap (...)",
    "tamper_proof": True,
    "driver_logs": "/r/driver-logs",
}


def test_a_certificate_from_an_in_process_run_says_it_is_not_tamper_proof() -> None:
    verdict = _document(run={"isolation": IN_PROCESS})["verdict"]
    assert verdict["status"] == "CERTIFIED"
    assert verdict["headline"] == (
        "CERTIFIED at HAL 1.2 (parity+strict) for 1 operation form of 1 operation, not tamper-proof "
        "(the driver ran in the harness's process)"
    )


def test_a_process_without_namespaces_is_not_tamper_proof_either() -> None:
    run = {"isolation": dict(CONTAINED, containment="a process group only", tamper_proof=False)}
    assert _document(run=run)["verdict"]["headline"].endswith(
        ", not tamper-proof (the driver's process was not in namespaces of its own)"
    )


def test_a_contained_run_certifies_plainly() -> None:
    verdict = _document(run={"isolation": CONTAINED})["verdict"]
    assert (
        verdict["headline"]
        == "CERTIFIED at HAL 1.2 (parity+strict) for 1 operation form of 1 operation"
    )


def test_required_categories_compare_levels_as_versions() -> None:
    """Bursts and caching are required from HAL 1.2 on, deadlines and fenced executions
    from 1.3 on, compared as HalVersions: a level
    the report spells another way, or one it cannot name, never compares as text."""
    from plugins.report.document import required_categories

    base = ["basic", "generated", "validation-model", "validation-request", "memory-pools"]
    assert required_categories("1.2", caching_supported=True) == [*base, "burst", "caching"]
    assert required_categories("1.2", caching_supported=False) == [*base, "burst"]
    assert required_categories("1.1", caching_supported=True) == base
    assert required_categories("1.3", caching_supported=False) == [
        *base,
        "burst",
        "deadlines",
        "fenced",
    ]
    assert required_categories("V1_3", caching_supported=True) == [
        *base,
        "burst",
        "caching",
        "deadlines",
        "fenced",
    ]
    assert required_categories(None, caching_supported=True) == base
    assert required_categories("not a level", caching_supported=True) == base
