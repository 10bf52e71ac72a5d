"""How the report reads the ids of the suite's items: through ``CaseId.parse``.

The facts of an item (its execution path, the vendor pack of its case, the
operation of a parameter-space item) come from the item record and from the
case id its parameters spell, read by the one parser the suite names items
with.
"""

from __future__ import annotations

import types

import pytest

from conformance.harness.items import CaseId, Item
from plugins.report.document import _pack_notes
from plugins.report.facts import case_of, item_facts, run_of

GENERATED = "conformance.test_generated::test_generated"


@pytest.mark.parametrize(
    ("identifier", "case"),
    [
        (f"{GENERATED}[V1_2/add_v1_2/base/ex1/sync-timed]", "V1_2/add_v1_2/base/ex1/sync-timed"),
        (
            "conformance.test_generated::test_generated_prepare[V1_0/add/none/prepare_model]",
            "V1_0/add/none/prepare_model",
        ),
        (
            "conformance.test_validate_model::test_validate_model"
            "[operand_retype_vts/acme:V1_2/my_op/base]",
            "acme:V1_2/my_op/base",
        ),
        ("conformance.test_basic::test_prepare_valid_model_with_preference[V1_2-LOW_POWER]", None),
        ("conformance.test_corners::test_corners[conv2d/CONV_2D]", None),
        ("conformance.test_basic::test_status", None),
        (f"{GENERATED}[V1_2/add_v1_2/base/ex01/sync]", None),
    ],
)
def test_the_case_a_test_id_names(identifier: str, case: str | None) -> None:
    found = case_of(identifier)
    assert (None if found is None else str(found)) == case


def test_the_run_an_id_names_comes_from_the_case_id_parser() -> None:
    assert run_of("V1_2/add_v1_2/base/ex0/sync-timed-dyn") == "sync-timed-dyn"
    assert run_of("V1_2/add_v1_2/base/prepare_model_1_2-LOW_POWER") == (
        "prepare_model_1_2-LOW_POWER"
    )
    assert run_of("async") == "async"  # a test parametrized by the path alone
    assert run_of("V1_2/add_v1_2/base") is None  # the case alone: no run
    assert run_of("conv2d/CONV_2D") is None
    # A malformed case id names no run; the parser says why.
    malformed = "V1_2/add_v1_2/base/ex01/sync"
    assert run_of(malformed) is None
    with pytest.raises(ValueError) as error:
        CaseId.parse(malformed)
    assert str(error.value) == (
        "'V1_2/add_v1_2/base/ex01/sync' is not a case id: expected "
        "FOLDER/SPEC/NAME[[/exN]/RUN], e.g. V1_0/add/none/ex0/sync"
    )


def test_a_pack_counts_the_tests_of_its_cases_only() -> None:
    tests = [
        {"id": f"{GENERATED}[acme:V1_2/my_op/base/ex0/sync]"},
        {"id": f"{GENERATED}[acme:V1_2/my_op/base/ex0/async]"},
        {"id": "conformance.test_validate_model::test_validate_model[fam/acme:V1_2/my_op/base]"},
        {"id": f"{GENERATED}[acme2:V1_2/my_op/base/ex0/sync]"},
        {"id": f"{GENERATED}[V1_2/add_v1_2/base/ex0/sync]"},
        {"id": "conformance.test_corners::test_corners[conv2d/CONV_2D]"},
    ]
    pack = {"name": "acme", "folder": "/specs/acme", "spec_errors": [], "specs": 1}
    assert _pack_notes([pack], tests) == [
        "vendor pack acme (/specs/acme): 3 tests, counted like the suite's own"
    ]


class _Collected:
    """Stands in for a collected case item (``plugins.collection.CaseItem``)."""

    callspec = None

    def __init__(self, function: str, item: Item, marks: list) -> None:
        self.case_params = {"item": item}
        self.case_id = item.id
        self.nodeid = f"conformance/test_corners.py::{function}[{item.id}]"
        self.module = types.SimpleNamespace(__name__="conformance.test_corners")
        self._marks = [getattr(m, "mark", m) for m in marks]

    def iter_markers(self, name: str | None = None):
        return (m for m in self._marks if name is None or m.name == name)

    def get_closest_marker(self, name: str):
        return next(self.iter_markers(name), None)


def test_a_parameter_space_item_reports_the_operation_its_record_declares() -> None:
    level = pytest.mark.hal_level("1.2")
    item = Item(("conv2d", "CONV_2D"), name="conv2d/CONV_2D", operations=("CONV_2D",))
    facts = item_facts(_Collected("test_corners", item, [level]))
    assert facts["id"] == "conformance.test_corners::test_corners[conv2d/CONV_2D]"
    assert facts["operations"] == ["CONV_2D"]
    assert facts["hal_version"] == "1.2"
    assert facts["path"] is None and facts["category"] == "corners"


def test_every_execution_path_of_every_level_reads_as_a_path() -> None:
    """The report's ``path`` fact knows each path's run, 1.3's included (``fenced-timed``,
    ``async13-dyn-short``, ``sync13-deadline5000000ns``)."""
    from conformance.harness.execution import DYNAMIC_PATHS, PATHS, QOS_PATHS
    from plugins.report.facts import _PATH_RUNS

    runs = [p.id for p in (*PATHS, *QOS_PATHS)]
    runs += [f"{p.id}-{mode}" for p in DYNAMIC_PATHS for mode in ("dyn", "dyn-short")]
    assert [run for run in runs if not _PATH_RUNS.match(run)] == []
    assert not _PATH_RUNS.match("qos-prepare-HIGH")  # a preparation row, not a path


def test_a_lifetime_variation_case_is_reported_at_its_own_level() -> None:
    """Android 11's lifetime variations of a V1_0 spec are 1.3 cases: the report counts them
    at 1.3, the case of the same spec it varies at 1.0."""
    from conformance.harness.generated import corpus
    from conformance.harness.items import CaseId
    from conformance.harness.marks import case_marks

    tests = {t.test_id: t for t in corpus()}
    for name, level in (("add_none", "1.0"), ("add_none_all_inputs_as_internal", "1.3")):
        test = tests[f"V1_0/add/{name}"]
        item = Item(None, CaseId.of(test, 0, "sync"), test=test)
        collected = _Collected("test_generated", item, case_marks(test))
        assert item_facts(collected)["hal_version"] == level, name


def test_the_form_of_an_if_or_while_case_is_its_values_type() -> None:
    # The first input of IF is its BOOL8 condition, of WHILE a SUBGRAPH operand: the form
    # names the type of the first value they pass instead.
    from conformance.harness.generated import corpus
    from plugins.report.facts import _operand_type

    by_name = {t.name: t for t in corpus() if t.name.startswith(("if_simple", "while_fib"))}
    assert _operand_type(by_name["if_simple_true"]) == "TENSOR_FLOAT32"
    assert _operand_type(by_name["if_simple_true_quant8_signed"]) == "TENSOR_QUANT8_ASYMM_SIGNED"
    assert _operand_type(by_name["if_simple_true_relaxed"]) == "TENSOR_FLOAT32+relaxed"
    assert _operand_type(by_name["while_fib_all_outputs_n_1_quant8"]) == "TENSOR_QUANT8_ASYMM"
