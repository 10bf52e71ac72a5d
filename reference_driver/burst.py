"""The reference driver's bursts: ``hal.burst``'s server over a prepared model.

Every request packet runs through the prepared model's own
``execute_synchronously`` (so a driver built on this one behaves the same on
every path), with the pools it names resolved through a slot cache that keeps
each memory between executions: ``get_memories`` is asked only for slots the
burst has not seen, and ``free_memory`` drops one.
"""

from __future__ import annotations

from hal.burst import BurstContext, SlotCache, configure_burst
from hal.interfaces import IPreparedModel_1_2
from hal.types import ErrorStatus


def configure(
    prepared: IPreparedModel_1_2, callback: object, request_channel: object, result_channel: object
) -> tuple[ErrorStatus, BurstContext | None]:
    """``configure_execution_burst`` for ``prepared``."""
    return configure_burst(
        callback, request_channel, result_channel, prepared.execute_synchronously, SlotCache()
    )
