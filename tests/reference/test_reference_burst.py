"""The reference driver's burst keeps each memory mapped between executions."""

from __future__ import annotations

import numpy as np

from benchmarks.paths import _add_model, _prepare, _request
from hal.burst import BurstController
from hal.memory import map_memory
from hal.types import DataLocation, ErrorStatus, MeasureTiming
from reference_driver.executor import PREMAPPED

TIMEOUT = 10.0


def test_a_burst_maps_each_memory_once_and_unmaps_it_when_freed() -> None:
    prepared = _prepare(_add_model())
    request = _request()  # inputs 0..7 in pool 0, the output in pool 1
    try:
        with BurstController() as burst:
            status, context = burst.configure(prepared)
            assert status == ErrorStatus.NONE
            cache = context.server.cache
            for _ in range(5):
                result = burst.compute(request, MeasureTiming.NO, TIMEOUT)
                assert result.status == ErrorStatus.NONE
            assert cache.mappings_made == 2  # one per pool, however many executions
            with map_memory(request.pools[1]) as mapping:
                out = np.frombuffer(mapping.read_location(DataLocation(1, 0, 16)), np.float32)
            assert out.tolist() == [4.0, 6.0, 8.0, 10.0]  # [0, 1, 2, 3] + [4, 5, 6, 7]
            burst.free_memory(request.pools[1])
            assert len(cache._mapped) == 1  # the freed pool's mapping is gone
            result = burst.compute(request, MeasureTiming.NO, TIMEOUT)
            assert result.status == ErrorStatus.NONE
            assert cache.mappings_made == 3  # fetched and mapped again
    finally:
        for pool in request.pools:
            pool.close()


def test_executions_outside_a_burst_see_no_premapped_pools() -> None:
    assert PREMAPPED.get() is None
