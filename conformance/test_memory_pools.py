"""Memory pools of every kind: each generated case with its data in ashmem, mmap_fd and
hardware_buffer_blob pools.

Item ids read ``V1_2/add_v1_2/base/ex0/shared-mmap_fd``: the generated case and
example, then the layout (``packed`` as VTS sends it, ``many`` small pools,
one ``shared`` pool, or ``constref``: constants in a CONSTANT_REFERENCE pool)
and the pool kind. Under ``--nnhal-profile ci`` one case in eight runs, each
with one variant in turn so that every variant runs; ``full`` and
``thorough`` run every case with every variant. Executions go through
``execute_synchronously`` (``execute`` below HAL 1.2). A driver that cannot
map hardware_buffer_blob pools answers GENERAL_FAILURE, and those items skip
as unsupported.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import pytest

from conformance.harness import items
from conformance.harness.cases import GeneratedTest
from conformance.harness.generated import corpus
from conformance.harness.items import CaseId
from conformance.harness.marks import case_marks, cases, mark
from conformance.harness.pools import (
    CONSTREF,
    PoolVariant,
    execute_pooled,
    prepare_with_constant_pool,
    variants_for,
)
from conformance.harness.rerun import rerun_command
from conformance.harness.runner import Run, prepare_case, require_model_level
from hal.types import HalVersion

CI_STRIDE = 8
"""Under the ci profile, one generated case in this many runs."""
_PREPARED_CACHE_SIZE = 8


@dataclass(frozen=True)
class PoolItem:
    test: GeneratedTest
    feed: int
    variant: PoolVariant
    id: str


def pool_items(tests: list[GeneratedTest], profile: str) -> list[PoolItem]:
    """The items of a profile: all of them, or under ``ci`` a rotating sample."""
    items = []
    for position, test in enumerate(tests):
        variants = variants_for(test.model)
        if profile == "ci":
            if position % CI_STRIDE:
                continue
            variants = [variants[(position // CI_STRIDE) % len(variants)]]
        for feed in range(len(test.feeds)):
            for variant in variants:
                item_id = str(CaseId.of(test, feed, variant.id))
                items.append(PoolItem(test, feed, variant, item_id))
    return items


_TESTS = corpus()


def _pool_params(config: pytest.Config) -> list:
    profile = config.getoption("--nnhal-profile", "full")
    return [
        pytest.param(
            item,
            id=item.id,
            marks=[mark("tier", "strict"), *case_marks(item.test)],
        )
        for item in pool_items(_TESTS, profile)
    ]


_prepared: OrderedDict[tuple, tuple[object, object]] = OrderedDict()
"""(case, variant of its model) -> (prepared model or the skip it led to, pool to close)."""


def _prepared_for(device, item: PoolItem, level: HalVersion, timeout: float) -> object:
    constref = item.variant.layout == CONSTREF
    key = (item.test.test_id, item.variant.kind if constref else "")
    if key not in _prepared:
        pool = None
        try:
            if constref:
                outcome, pool = prepare_with_constant_pool(
                    device, item.test.model, level, timeout, item.variant.kind
                )
            else:
                outcome = prepare_case(device, item.test.model, level, timeout)
        except pytest.skip.Exception as skip:
            outcome = skip
        _prepared[key] = (outcome, pool)
        while len(_prepared) > _PREPARED_CACHE_SIZE:
            _, (_, old_pool) = _prepared.popitem(last=False)
            if old_pool is not None:
                old_pool.close()
    _prepared.move_to_end(key)
    outcome = _prepared[key][0]
    if isinstance(outcome, pytest.skip.Exception):
        items.skip_as(outcome)
    return outcome


@cases("item", _pool_params)
def test_memory_pools(item: PoolItem, nnhal) -> None:
    """The case's example, its data laid out in pools as the item's variant says."""
    hal_level = nnhal.level
    if hal_level < item.variant.needs:
        pytest.skip(f"needs HAL {item.variant.needs}; the driver is tested at HAL {hal_level}")
    require_model_level(item.test, hal_level)
    prepared = _prepared_for(nnhal.device, item, hal_level, nnhal.timeout)
    path = "sync" if hal_level >= HalVersion.V1_2 else "async10"
    run = Run(
        item.test,
        item.feed,
        path,
        rerun=rerun_command(nnhal.config, __name__, f"test_memory_pools[{item.id}]"),
    )
    execute_pooled(prepared, run, item.variant, nnhal.timeout)
