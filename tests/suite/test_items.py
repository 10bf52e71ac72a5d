"""The item layer: case ids and the structured endings the report reads."""

from __future__ import annotations

import pytest

from conformance.harness import items
from conformance.harness.cases import GeneratedTest
from conformance.harness.generated import corpus
from conformance.harness.items import CaseId, Item
from conformance.harness.pools import pool_items


def test_case_id_round_trips_every_part() -> None:
    parsed = CaseId.parse("V1_2/conv2d_v1_2/nchw_quant8/ex12/sync-timed-dyn")
    assert parsed == CaseId("V1_2", "conv2d_v1_2", "nchw_quant8", 12, "sync-timed-dyn")
    assert parsed.case == "V1_2/conv2d_v1_2/nchw_quant8"
    assert str(parsed) == "V1_2/conv2d_v1_2/nchw_quant8/ex12/sync-timed-dyn"
    assert str(CaseId.parse("V1_0/add/none")) == "V1_0/add/none"


def test_a_run_of_the_whole_case_names_no_example() -> None:
    parsed = CaseId.parse("V1_2/add_v1_2/base/prepare_model_1_2-LOW_POWER")
    assert parsed == CaseId("V1_2", "add_v1_2", "base", None, "prepare_model_1_2-LOW_POWER")
    assert parsed.example is None and parsed.case == "V1_2/add_v1_2/base"
    assert str(parsed) == "V1_2/add_v1_2/base/prepare_model_1_2-LOW_POWER"


def test_a_case_id_names_its_vendor_pack() -> None:
    assert CaseId.parse("acme:V1_2/my_op/base/ex0/sync").pack == "acme"
    assert CaseId.parse("V1_2/add_v1_2/base/ex0/sync").pack == ""


def test_a_case_id_names_its_spec_with_the_folder() -> None:
    assert CaseId.parse("V1_2/add_v1_2/base/ex0/sync").spec_id == "V1_2/add_v1_2"
    assert CaseId.parse("acme:V1_2/my_op/base").spec_id == "acme:V1_2/my_op"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "V1_0/add",
        "V1_0/add/none/ex0",
        "V1_0/add/none/ex12",
        "V1_0/add/none/prepare_model/more",
        "acme/V1_0/add/none",
        "V1_0/add/none/",
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
        f"{text!r} is not a case id: expected FOLDER/SPEC/NAME[[/exN]/RUN], "
        "e.g. V1_0/add/none/ex0/sync"
    )


def test_a_case_id_with_an_example_has_a_run() -> None:
    with pytest.raises(ValueError) as error:
        CaseId("V1_0", "add", "none", 0)
    assert str(error.value) == (
        "a case id with an example has a run too: "
        "CaseId(folder='V1_0', spec='add', name='none', example=0, run=None)"
    )


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


def test_a_kept_skip_has_the_reason_and_facts_and_nothing_else() -> None:
    with pytest.raises(pytest.skip.Exception) as met:
        try:
            raise ValueError("handled")
        except ValueError:
            items.unsupported("unsupported: the driver does not support ADD")
    assert met.value.__traceback__ is not None and met.value.__context__ is not None
    kept = items.kept(met.value)
    assert kept is not met.value and kept.msg == met.value.msg
    assert kept.__traceback__ is None and kept.__context__ is None
    assert items.facts_of(kept) == {"kind": "unsupported"}


def test_a_failure_cannot_be_declared_unsupported() -> None:
    with pytest.raises(ValueError) as error:
        items.fail("x", kind="unsupported")
    assert str(error.value) == "kind='unsupported': a failure is one of failed, timeout, blocked"


def _add() -> GeneratedTest:
    return next(t for t in corpus() if t.test_id == "V1_0/add/add_none")


def test_an_item_of_a_case_is_called_by_its_case_id() -> None:
    test = _add()
    tier = pytest.mark.tier("parity")
    item = Item("plan", CaseId.of(test, 1, "sync-timed"), test=test, marks=(tier,))
    assert item.id == "V1_0/add/none/ex1/sync-timed"
    assert CaseId.parse(item.id) == item.case
    assert item.example == 1
    assert item.selector("test_generated") == "test_generated[V1_0/add/none/ex1/sync-timed]"
    param = item.param()
    assert param.id == item.id and param.values == (item,) and list(param.marks) == [tier]
    whole = Item(None, CaseId.of(test, None, "prepare_model"), test=test)
    assert whole.id == "V1_0/add/none/prepare_model" and whole.example == 0


def test_an_item_of_no_case_has_a_name_and_declares_its_operations() -> None:
    item = Item(("conv2d", "CONV_2D"), name="conv2d/CONV_2D", operations=("CONV_2D",))
    assert item.id == "conv2d/CONV_2D" and item.case is None and item.example == 0
    for named in ({}, {"case": CaseId.parse("V1_0/add/none/ex0/sync"), "name": "x"}):
        with pytest.raises(ValueError) as error:
            Item("runs", **named)
        assert str(error.value).startswith("an item has a case id or a name, and not both: ")


def test_every_memory_pool_item_is_called_by_the_case_it_runs() -> None:
    tests = corpus()
    found = pool_items(tests, "ci")
    assert found
    for item in found:
        assert item.id == str(item.case) and CaseId.parse(item.id) == item.case
        assert item.case.case == CaseId.of(item.test).case
        assert item.case.run == item.runs.id
        assert 0 <= item.example < len(item.test.feeds)


# ---------------------------------------------------------------------------
# Dynamic-output-shape runs: none for a model holding RANK (VTS 1.3's filter)
# ---------------------------------------------------------------------------


def _corpus_case(case: str) -> GeneratedTest:
    return next(test for test in corpus() if CaseId.of(test).case == case)


def test_a_model_holding_rank_has_no_dynamic_twin() -> None:
    from conformance.harness.runner import has_dynamic_twin

    # RANK as the output, and RANK feeding FILL through a scalar internal operand.
    assert not has_dynamic_twin(_corpus_case("V1_3/rank/base"))
    assert not has_dynamic_twin(_corpus_case("V1_3/fill/value_from_rank"))
    # FILL alone, and a 1.0 case, keep theirs.
    assert has_dynamic_twin(_corpus_case("V1_3/fill/rank3"))
    assert has_dynamic_twin(_corpus_case("V1_0/add/none"))


def test_no_dynamic_items_are_collected_for_a_model_holding_rank(pytester) -> None:
    listed = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--collect-only",
        "-q",
        "--pyargs",
        "conformance.test_generated::test_generated",
        "--hal-version=1.3",
        "-k",
        "V1_3/fill/value_from_rank/ or V1_3/fill/rank3/",
    )
    ids = [line.split("[", 1)[1].rstrip("]") for line in listed.outlines if "[V1_3/" in line]
    runs = {
        case: sorted(i.rsplit("/", 1)[1] for i in ids if i.startswith(case))
        for case in ("V1_3/fill/value_from_rank/", "V1_3/fill/rank3/")
    }
    dynamic = ("-dyn", "shapes")
    with_rank, without = runs["V1_3/fill/value_from_rank/"], runs["V1_3/fill/rank3/"]
    assert with_rank and not [run for run in with_rank if run.endswith(dynamic)]
    assert "sync-dyn" in without and "fenced-dyn-short" in without and "shapes" in without
    # The static runs stay.
    assert {"sync", "async", "fenced", "scattered"} <= set(with_rank)
