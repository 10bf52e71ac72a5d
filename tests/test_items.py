"""The item layer: case ids and the structured endings the report reads."""

from __future__ import annotations

import pytest

from conformance.harness import items
from conformance.harness.generated import corpus
from conformance.harness.items import CaseId


def test_case_id_round_trips_every_part() -> None:
    parsed = CaseId.parse("V1_2/conv2d_v1_2/nchw_quant8/ex12/sync-timed-dyn")
    assert parsed == CaseId("V1_2", "conv2d_v1_2", "nchw_quant8", 12, "sync-timed-dyn")
    assert parsed.case == "V1_2/conv2d_v1_2/nchw_quant8"
    assert str(parsed) == "V1_2/conv2d_v1_2/nchw_quant8/ex12/sync-timed-dyn"
    assert str(CaseId.parse("V1_0/add/none")) == "V1_0/add/none"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "V1_0/add",
        "V1_0/add/none/ex0",
        "V1_0/add/none/ex0/sync/more",
        "V2_0/add/none",
        "V1_0//none",
        "V1_0/add/none/example0/sync",
        "V1_0/add/none/ex01/sync",
        "V1_0/add/none/ex0/",
    ],
)
def test_a_malformed_case_id_names_the_form(text: str) -> None:
    with pytest.raises(ValueError) as error:
        CaseId.parse(text)
    assert str(error.value) == (
        f"{text!r} is not a case id: expected FOLDER/SPEC/NAME[/exN/RUN], "
        "e.g. V1_0/add/none/ex0/sync"
    )


def test_a_case_id_has_an_example_and_a_run_or_neither() -> None:
    with pytest.raises(ValueError, match="has an example and a run, or neither"):
        CaseId("V1_0", "add", "none", 0)


def test_case_ids_of_the_corpus_are_unique_and_parse_back() -> None:
    tests = corpus()
    ids = [CaseId.of(test) for test in tests]
    assert len(set(ids)) == len(tests)
    assert all(CaseId.parse(str(i)) == i for i in ids)
    named = {t.test_id: t for t in tests}
    assert str(CaseId.of(named["V1_0/add/add_none"], 1, "sync")) == "V1_0/add/none/ex1/sync"
    # A test named after its spec alone is the spec's ``base`` case.
    base = named["V1_0/concatenation/concatenation"]
    assert CaseId.of(base).case == "V1_0/concatenation/base"


def test_a_declared_failure_carries_its_kind_and_metrics() -> None:
    metrics = {"mismatches": 3, "max_abs_error": 0.5}
    with pytest.raises(pytest.fail.Exception) as error:
        items.fail("values differ", metrics=metrics)
    assert error.value.msg == "values differ" and not error.value.pytrace
    assert items.facts_of(error.value) == {"kind": "failed", "metrics": metrics}
    with pytest.raises(pytest.fail.Exception) as error:
        items.timeout("no answer")
    assert items.facts_of(error.value) == {"kind": "timeout"}


def test_unsupported_is_a_skip_and_a_cached_one_repeats_its_facts() -> None:
    with pytest.raises(pytest.skip.Exception) as first:
        items.unsupported("unsupported: the driver does not support ADD")
    assert items.facts_of(first.value) == {"kind": "unsupported"}
    with pytest.raises(pytest.skip.Exception) as again:
        items.skip_as(first.value)
    assert again.value is not first.value
    assert again.value.msg == "unsupported: the driver does not support ADD"
    assert items.facts_of(again.value) == {"kind": "unsupported"}
    assert items.facts_of(pytest.skip.Exception("plain")) == {}


def test_a_failure_cannot_be_declared_unsupported() -> None:
    with pytest.raises(ValueError) as error:
        items.fail("x", kind="unsupported")
    assert str(error.value) == "kind='unsupported': a failure is one of failed, timeout, blocked"
