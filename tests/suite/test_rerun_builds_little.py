"""A run that names generated items by node id builds only the cases of their spec modules.

``conformance.test_generated``'s functions list their cases from
``marks.cases_wanted``: with ids named, only the spec modules those ids name are loaded
and only their cases' items made (a rerun of one item in about a second, not six). The
items they list must be exactly the items of those cases in a full listing: same ids,
same marks, same order.
"""

from __future__ import annotations

import pytest

from conformance import test_generated
from conformance.harness.generated import corpus_of, lowest_version
from conformance.harness.marks import CASE_PICK, CASES_WANTED
from conformance.harness.model_validation import model_family_applies
from conformance.harness.mutations import (
    case_id,
    corpus,
    model_families,
    representatives,
    request_families,
)
from conformance.harness.request_validation import request_family_applies
from conformance.harness.validating import deterministic_items
from hal.types import HalVersion

MAKERS = {
    "test_generated": test_generated._generated_params,
    "test_generated_memory": test_generated._memory_params,
    "test_generated_coupling": test_generated._coupling_params,
    "test_generated_prepare": test_generated._prepare_items,
    "test_generated_fresh": test_generated._fresh_params,
    "test_expect_failure": test_generated._expect_failure_params,
    "test_generated_loop_timeout": test_generated._loop_timeout_params,
}
SPECS = (
    "V1_0/add",
    "V1_3/while_infinite_loop",
    "V1_3/if_simple",
    "V1_3/add_quant8_signed",
    "V1_2/conv2d_v1_2",
)
"""Spec modules of every kind: a 1.0 spec with signed twins, a WHILE spec (loop timeouts,
expected failures), an IF spec, a 1.3 spec, a large 1.2 one."""


VALIDATION = {
    "validate_model": (model_families(), model_family_applies),
    "validate_request": (request_families(), request_family_applies),
}


class _Config:
    """What a ``cases`` maker reads of pytest's config: the profile and the stash."""

    def __init__(self, wanted: frozenset[str] | None, picks=None) -> None:
        self.stash = pytest.Stash()
        self.stash[CASES_WANTED] = wanted
        self.stash[CASE_PICK] = picks

    def getoption(self, name: str) -> str:
        assert name == "--nnhal-profile", name
        return "full"


def _listed(make, wanted: frozenset[str] | None) -> list[tuple]:
    return [
        (param.id, tuple(repr(m) for m in param.marks), len(param.values))
        for param in make(_Config(wanted))
    ]


@pytest.mark.parametrize("function", MAKERS)
def test_a_named_spec_lists_exactly_its_items_of_the_full_listing(function: str) -> None:
    make = MAKERS[function]
    full = _listed(make, None)
    compared = 0
    for spec in SPECS:
        mine = [entry for entry in full if entry[0].startswith(f"{spec}/")]
        named = frozenset({f"{spec}/anything/ex0/sync"})
        assert _listed(make, named) == mine, (function, spec)
        compared += len(mine)
    assert compared, function  # some spec has items of the function: the test compares some


PICKED_MAKERS = [
    name for name in MAKERS if name not in ("test_expect_failure", "test_generated_loop_timeout")
]
"""The makers that ask ``marks.case_pick`` before they make a case (the two others list a few
dozen cases and leave the choice to the plugin)."""


@pytest.mark.parametrize("function", PICKED_MAKERS)
def test_a_maker_asks_once_for_each_case_of_the_full_listing(function: str) -> None:
    """A maker asks ``case_pick`` about every case it would list, once, in the listing's
    order, with the id and the very marks its parameter has; it lists those it is told yes
    for, and nothing else (whatever it is told no for, the plugin counts)."""
    make = MAKERS[function]
    full = [(param.id, param.marks) for param in make(_Config(None))]
    asked: list[tuple[str, object]] = []

    def picks(case_id: str, marks, operations=None) -> bool:
        asked.append((case_id, marks))
        return len(asked) % 3 == 0 or "V1_0/add/" in case_id

    listed = [(param.id, param.marks) for param in make(_Config(None, picks))]
    assert [(i, tuple(m)) for i, m in asked] == [(i, tuple(m)) for i, m in full]
    kept = [entry for n, entry in enumerate(asked, 1) if n % 3 == 0 or "V1_0/add/" in entry[0]]
    assert [i for i, _ in listed] == [i for i, _ in kept]
    assert all(a is b for (_, a), (_, b) in zip(listed, kept, strict=True))
    assert 0 < len(listed) < len(full)


def test_corpus_of_loads_the_named_modules_only_and_shares_the_cases() -> None:
    few = corpus_of(["V1_0/add/none/ex0/sync", "V1_0/add/relu", "V1_1/add_relaxed/none"])
    assert {tuple(t.test_id.split("/")[:2]) for t in few} == {
        ("V1_0", "add"),
        ("V1_1", "add_relaxed"),
    }
    everything = {id(t) for t in corpus_of(None)}
    assert all(id(t) in everything for t in few)  # the very case objects corpus() holds


@pytest.mark.parametrize(
    "ids",
    [["V9_9/add/none"], ["V1_0/no_such_spec/none"], ["V1_0"], [""]],
    ids=["folder", "spec", "folder-only", "empty"],
)
def test_an_id_of_no_module_lists_the_whole_corpus(ids: list[str]) -> None:
    assert corpus_of(ids) is corpus_of(None)


@pytest.mark.parametrize("profile", ["ci", "full"])
@pytest.mark.parametrize("category", ["validate_model", "validate_request"])
def test_a_named_validation_item_is_the_one_of_the_whole_list(profile: str, category: str) -> None:
    """``deterministic_items`` given the ids of every family on the representative cases of
    one spec module lists exactly the parameters the whole list has among them, module by
    module: which cases a family runs on is decided within a spec."""
    families, applies = VALIDATION[category]
    everything = deterministic_items(families, profile, applies, category)
    full = {param.id: param for param in everything}
    by_module: dict[str, list] = {}
    for test in corpus():
        by_module.setdefault("/".join(case_id(test).split("/")[:2]), []).append(test)
    compared = 0
    for tests in by_module.values():
        newest = [t for t in tests if lowest_version(t) == HalVersion.V1_3]
        chosen = [*representatives(tests, profile), *representatives(newest, profile)]
        wanted = frozenset(f"{f.name}/{case_id(t)}" for f in families for t in chosen)
        named = deterministic_items(families, profile, applies, category, wanted)
        assert named is not everything, "worked out from the module alone"
        assert [(p.id, p.marks) for p in named] == [
            (p.id, p.marks) for p in everything if p.id in wanted
        ]
        compared += len(named)
    assert compared == len(full)  # every item of the whole list was named and matched


def test_with_a_vendor_pack_every_case_is_listed(tmp_path) -> None:
    """A pack's cases could be named by any id: a run with one lists the whole corpus."""
    from conformance.harness.generated import add_pack, corpus, remove_packs

    add_pack("nopack", "no_such_pack_package", str(tmp_path))
    try:
        assert corpus_of(["V1_0/add/none/ex0/sync"]) is corpus()
    finally:
        remove_packs()
    assert corpus_of(["V1_0/add/none/ex0/sync"]) is not corpus()
