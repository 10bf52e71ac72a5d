"""The reference driver's bursts: ``hal.burst``'s server over a prepared model.

Every request packet runs through the prepared model's own
``execute_synchronously`` (so a driver built on this one behaves the same on
every path), with the pools it names resolved through a slot cache that keeps
each memory between executions: ``get_memories`` is asked only for slots the
burst has not seen, and ``free_memory`` drops one. The cache also keeps each
memory *mapped* from its first use until it is freed or the burst ends, as a
driver keeping its device mappings would: executions see those mappings
through ``reference_driver.executor.PREMAPPED`` and map nothing themselves.
"""

from __future__ import annotations

import threading

from hal.burst import BurstContext, SlotCache, configure_burst
from hal.interfaces import IPreparedModel_1_2
from hal.memory import Mapping, MemoryError_, map_memory
from hal.types import ErrorStatus, MeasureTiming, OutputShape, Request, Timing
from reference_driver.executor import PREMAPPED


class MappingSlotCache(SlotCache):
    """A slot cache that also keeps a mapping of each cached memory."""

    def __init__(self) -> None:
        super().__init__()
        self._mapped: dict[int, tuple[object, Mapping]] = {}
        """id(memory) -> (the memory, kept alive so its id stays unique; its mapping)."""
        self._mapped_lock = threading.Lock()
        self.mappings_made = 0

    def mappings_for(self, request: Request) -> dict[int, Mapping]:
        """Mappings of the request's pools that this cache holds, made on first use."""
        found: dict[int, Mapping] = {}
        with self._mapped_lock:
            for pool in request.pools:
                entry = self._mapped.get(id(pool))
                if entry is None and self._holds(pool):
                    try:
                        entry = (pool, map_memory(pool))
                    except MemoryError_:
                        continue  # the execution maps it itself and reports the failure
                    self._mapped[id(pool)] = entry
                    self.mappings_made += 1
                if entry is not None:
                    found[id(pool)] = entry[1]
        return found

    def _holds(self, pool: object) -> bool:
        with self._lock:
            return any(memory is pool for memory in self._memories.values())

    def _unmap(self, memory: object) -> None:
        with self._mapped_lock:
            entry = self._mapped.pop(id(memory), None)
        if entry is not None:
            entry[1].close()

    def free(self, slot: int) -> bool:
        with self._lock:
            memory = self._memories.get(slot)
        if memory is not None:
            self._unmap(memory)
        return super().free(slot)

    def clear(self) -> None:
        with self._mapped_lock:
            entries, self._mapped = list(self._mapped.values()), {}
        for _, mapping in entries:
            mapping.close()
        super().clear()


def configure(
    prepared: IPreparedModel_1_2, callback: object, request_channel: object, result_channel: object
) -> tuple[ErrorStatus, BurstContext | None]:
    """``configure_execution_burst`` for ``prepared``."""
    cache = MappingSlotCache()

    def execute(
        request: Request, measure: MeasureTiming
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        token = PREMAPPED.set(cache.mappings_for(request))
        try:
            return prepared.execute_synchronously(request, measure)
        finally:
            PREMAPPED.reset(token)

    return configure_burst(callback, request_channel, result_channel, execute, cache)
