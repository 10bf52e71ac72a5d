"""Drivers whose bursts break the protocol in one known way, built on the reference driver.

Each serves bursts through a ``hal.burst.BurstServer`` variant; everything
else is the reference driver's. test_burst_conformance.py runs the burst
suite against each (in a pytest subprocess, this file copied beside the run)
and checks that the named test catches it.
"""

from __future__ import annotations

from hal.burst import (
    BurstContext,
    BurstServer,
    MalformedPacket,
    SlotCache,
    decode_request,
    deserialize_request,
    parse_request_packet,
    result_length,
)
from hal.memory import map_memory
from hal.types import NO_TIMING, ErrorStatus, OutputShape
from reference_driver import ReferenceDriver
from reference_driver.prepared_model import ReferencePreparedModel


class _SilentOnMalformed(BurstServer):
    """Sends nothing back for a packet it cannot deserialise."""

    def _handle(self, packet: bytes) -> None:
        try:
            deserialize_request(decode_request(packet))
        except MalformedPacket:
            return
        super()._handle(packet)


class _SilentWhenTooSmall(BurstServer):
    """Sends nothing back when the result does not fit the result channel."""

    def _send(self, status, shapes, timing) -> None:
        if result_length(shapes) > self._results.capacity:
            return
        super()._send(status, shapes, timing)


class _ForgetsMemories(BurstServer):
    """Drops every cached memory after each execution, so it asks for them every time."""

    def _handle(self, packet: bytes) -> None:
        super()._handle(packet)
        self.cache.clear()


class _RepeatsResultsBySlot(BurstServer):
    """Computes a request once per set of slots: a later packet on the same slots gets
    the first one's answer, its output bytes copied back, without reading the inputs."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._remembered: dict[tuple[int, ...], tuple] = {}

    def _answer(self, packet: bytes, started: int):
        try:
            burst = parse_request_packet(packet)
        except MalformedPacket:
            return super()._answer(packet, started)
        key = tuple(burst.slots)
        if key in self._remembered:
            answer, outputs = self._remembered[key]
            _, memories, _ = self.cache.resolve(burst.slots, self._callback)
            for argument, data in zip(burst.outputs, outputs, strict=True):
                with map_memory(memories[argument.location.pool_index]) as mapping:
                    mapping.write_location(argument.location, data)
            return answer
        answer = super()._answer(packet, started)
        _, memories, _ = self.cache.resolve(burst.slots, self._callback)
        outputs = []
        for argument in burst.outputs:
            with map_memory(memories[argument.location.pool_index]) as mapping:
                outputs.append(mapping.read_location(argument.location))
        self._remembered[key] = answer, outputs
        return answer


class _NeverAnswers(BurstServer):
    """Takes every request packet and never sends a result."""

    def _handle(self, packet: bytes) -> None:
        return


class _FirstSlotsCache(SlotCache):
    """Resolves every packet's slots to the memories of the first packet's slots (as a
    driver that caches its memories by position, not by slot, would)."""

    def __init__(self) -> None:
        super().__init__()
        self._first: list[int] | None = None

    def resolve(self, slots, callback):
        if self._first is None:
            self._first = list(slots)
        if len(slots) == len(self._first):
            slots = self._first
        return super().resolve(slots, callback)


class _MemoriesByPosition(BurstServer):
    """Uses the first request's memories for every later request on as many slots."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs, cache=_FirstSlotsCache())


class _KeepsFreedCache(SlotCache):
    """Acknowledges ``free_memory`` but keeps the slot's memory."""

    def free(self, slot: int) -> bool:
        return slot in self


class _KeepsFreedSlots(BurstServer):
    """A slot freed and registered again keeps resolving to its old memory."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs, cache=_KeepsFreedCache())


class _StaleTiming(BurstServer):
    """Reports the timing of the burst's previous execution instead of this one's."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._previous = NO_TIMING

    def _answer(self, packet: bytes, started: int):
        status, shapes, timing = super()._answer(packet, started)
        previous, self._previous = self._previous, timing
        return status, shapes, previous


class _CachedShapes(BurstServer):
    """Reports the output shapes of the burst's first result with shapes in every later
    result (as a server caching its result packet's shapes per burst would)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shapes = None

    def _answer(self, packet: bytes, started: int):
        status, shapes, timing = super()._answer(packet, started)
        if shapes and self._shapes is None:
            self._shapes = list(shapes)
        elif shapes and len(shapes) == len(self._shapes):
            shapes = [
                OutputShape(old.dimensions, new.is_sufficient)
                for old, new in zip(self._shapes, shapes, strict=True)
            ]
        return status, shapes, timing


def _prepared_with(server_class: type[BurstServer]) -> type[ReferencePreparedModel]:
    class Prepared(ReferencePreparedModel):
        def configure_execution_burst(self, callback, request_channel, result_channel):
            server = server_class(
                callback, request_channel, result_channel, self.execute_synchronously
            )
            server.start()
            return ErrorStatus.NONE, BurstContext(server)

    return Prepared


class IgnoresMalformedPackets(ReferenceDriver):
    """Never answers a malformed request packet."""

    prepared_model_class = _prepared_with(_SilentOnMalformed)


class SilentOnSmallResultChannel(ReferenceDriver):
    """Never answers when the result does not fit the result channel."""

    prepared_model_class = _prepared_with(_SilentWhenTooSmall)


class FetchesMemoriesEveryTime(ReferenceDriver):
    """Calls get_memories for every execution (keeps no memory between them)."""

    prepared_model_class = _prepared_with(_ForgetsMemories)


class RepeatsResultsBySlot(ReferenceDriver):
    """Answers a burst request on slots it has computed before with the earlier outputs."""

    prepared_model_class = _prepared_with(_RepeatsResultsBySlot)


class MemoriesByPosition(ReferenceDriver):
    """Computes every burst request in the memories of the burst's first request."""

    prepared_model_class = _prepared_with(_MemoriesByPosition)


class KeepsFreedSlots(ReferenceDriver):
    """Acknowledges free_memory but keeps computing a freed slot in its old memory."""

    prepared_model_class = _prepared_with(_KeepsFreedSlots)


class StaleBurstTiming(ReferenceDriver):
    """Reports on a burst the timing of the burst's previous execution."""

    prepared_model_class = _prepared_with(_StaleTiming)


class CachedBurstShapes(ReferenceDriver):
    """Repeats on a burst the output dimensions of its first result with shapes."""

    prepared_model_class = _prepared_with(_CachedShapes)


class NeverAnswersBursts(ReferenceDriver):
    """Configures bursts, then never answers a packet on them."""

    prepared_model_class = _prepared_with(_NeverAnswers)
