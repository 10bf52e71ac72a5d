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
    decode_request,
    deserialize_request,
    result_length,
)
from hal.types import ErrorStatus
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
