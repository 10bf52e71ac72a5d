"""Memory pools of every kind: each generated case with its data in ashmem, mmap_fd and
hardware_buffer_blob pools.

Item ids read ``V1_2/add_v1_2/base/ex0/shared-mmap_fd``: the generated case and
example, then the layout (``packed`` as VTS sends it, ``many`` small pools,
one ``shared`` pool, or ``constref``: constants in a CONSTANT_REFERENCE pool)
and the pool kind. Under ``--nnhal-profile ci`` one case in eight runs, each
with one variant in turn so that every variant runs; ``full`` and
``thorough`` run every case with every variant. Executions go through
``execute_synchronously`` (``execute`` below HAL 1.2, ``execute_synchronously_1_3``
at 1.3). A driver of HAL 1.0-1.2 that cannot map hardware_buffer_blob pools answers
GENERAL_FAILURE, and those items skip as unsupported; a 1.3 driver must accept
hardware_buffer_blob request pools (as VTS 1.3 requires), so there GENERAL_FAILURE
fails. Constants in a hardware_buffer_blob pool stay optional at every level.
"""

from __future__ import annotations

import pytest

from conformance.harness.generated import corpus
from conformance.harness.marks import cases
from conformance.harness.pools import (
    CONSTREF,
    PoolItem,
    execute_pooled,
    pool_items,
)
from conformance.harness.prepared import prepared as prepare_cached
from conformance.harness.rerun import rerun_command
from conformance.harness.runner import Run, require_model_level
from conformance.harness.tolerance import rules_for
from hal.types import HalVersion

_TESTS = [t for t in corpus() if not t.lifetime_variation and not t.expect_failure]
"""The pools' cases: not Android 11's lifetime variations (the same operations with other
lifetimes; the pool layouts are this suite's own, strict tier), nor expected failures."""


def _pool_params(config: pytest.Config) -> list:
    profile = config.getoption("--nnhal-profile", "full")
    return list(pool_items(_TESTS, profile))


def _prepared_for(device, item: PoolItem, level: HalVersion, timeout: float) -> object:
    """The case's model prepared (``constref``: with its constants in a pool of the
    variant's kind), cached per worker (``harness.prepared``), or the skip it led to."""
    kind = item.runs.kind if item.runs.layout == CONSTREF else None
    return prepare_cached(device, item.test.model, level, timeout, constant_pool=kind)


@cases("item", _pool_params)
def test_memory_pools(item: PoolItem, nnhal) -> None:
    """The case's example, its data laid out in pools as the item's variant says."""
    hal_level, variant = nnhal.level, item.runs
    if hal_level < variant.needs:
        pytest.skip(f"needs HAL {variant.needs}; the driver is tested at HAL {hal_level}")
    require_model_level(item.test, hal_level)
    prepared = _prepared_for(nnhal.device, item, hal_level, nnhal.timeout)
    path = "sync" if hal_level >= HalVersion.V1_2 else "async10"
    if hal_level >= HalVersion.V1_3:
        path = "sync13"  # blob request pools are then mandatory (pools.execute_pooled)
    rerun = rerun_command(nnhal.config, __name__, item.selector("test_memory_pools"))
    run = Run(item.test, item.example, path, rerun=rerun, rules=rules_for(hal_level, strict=True))
    execute_pooled(prepared, run, variant, nnhal.timeout)
