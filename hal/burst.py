"""Bursts: executions sent as packets over fast message queues, and helpers for both ends.

Three layers, each usable alone:

* **Datums and packets.** ``FmqRequestDatum`` and ``FmqResultDatum`` are the
  safe unions of types.hal, each encoded as one fixed-size element of 24
  bytes: a discriminator byte, zero padding up to the union's alignment (4
  for requests, 8 for results, whose Timing holds 64-bit fields), then the
  arm's fields little-endian, every unused byte zero. ``serialize_request`` /
  ``deserialize_request`` and ``serialize_result`` / ``deserialize_result``
  turn a Request (with one slot per pool) or an execution's answer into the
  datum order types.hal defines and back; deserialisation checks every
  discriminator, count and value and raises ``MalformedPacket`` naming the
  first datum that is wrong. ``pack_request_packet`` / ``parse_request_packet``
  and ``pack_result_packet`` / ``parse_result_packet`` do the same for whole
  packets without making a datum (what both ends below use per execution):
  the same bytes and values, and for anything out of the ordinary they defer
  to the datum functions, so errors are the same too.
* **The client** (``BurstController`` and ``BurstCallback``): creates the two
  queues, gives each memory pool a slot the first time it is used, answers
  ``get_memories`` for the driver, sends a request packet and waits (with a
  timeout) for the result packet.
* **The server** (``configure_burst``): what any driver's
  ``configure_execution_burst`` can return. A listener thread reads request
  packets, resolves slots it has not seen through ``get_memories`` and keeps
  them (``SlotCache``) until ``free_memory``, runs the execution through the
  driver's function (``execute_synchronously`` or its own), and writes the
  result packet; a result too long for the result channel becomes a short
  GENERAL_FAILURE packet. It stops when the context is released: the client
  shuts the queues down, or the context object is released or garbage
  collected.

Statuses the server sends: INVALID_ARGUMENT for a packet that does not
deserialise and for slots the client does not know; GENERAL_FAILURE when
``get_memories`` fails otherwise or a memory cannot be used, when the driver's
function raises or answers out of protocol, and when the result does not fit;
otherwise whatever the driver's function answered.
"""

from __future__ import annotations

import contextlib
import heapq
import logging
import os
import struct
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from hal.fmq import FmqClosed, FmqDescriptor, FmqError, FmqTimeout, MessageQueue
from hal.interfaces import IBurstCallback, IBurstContext
from hal.memory import Memory, NativeHandle
from hal.show import show, show_exception
from hal.types import (
    NO_TIMING,
    STATUSES_1_0,
    UINT64_MAX,
    DataLocation,
    ErrorStatus,
    MeasureTiming,
    OutputShape,
    Request,
    RequestArgument,
    Timing,
)
from hal.workers import Workers

_LOG = logging.getLogger("hal.burst")

REQUEST_DATUM_SIZE = 24
RESULT_DATUM_SIZE = 24
MAX_SLOTS_PER_CALL = 1 << 16
"""Most slots one ``get_memories`` call may ask for (the client refuses longer lists)."""
DEFAULT_CHANNEL_LENGTH = 1024
"""Datums per channel, as the upstream client creates them."""
INT32_MAX = 2**31 - 1
_UINT32_MAX = 2**32 - 1

# ---------------------------------------------------------------------------
# Datums
# ---------------------------------------------------------------------------


class RequestDatumKind(IntEnum):
    """The discriminator of ``FmqRequestDatum``: its arms in declaration order."""

    PACKET_INFORMATION = 0
    INPUT_OPERAND_INFORMATION = 1
    INPUT_OPERAND_DIMENSION_VALUE = 2
    OUTPUT_OPERAND_INFORMATION = 3
    OUTPUT_OPERAND_DIMENSION_VALUE = 4
    POOL_IDENTIFIER = 5
    MEASURE_TIMING = 6


class ResultDatumKind(IntEnum):
    """The discriminator of ``FmqResultDatum``."""

    PACKET_INFORMATION = 0
    OPERAND_INFORMATION = 1
    OPERAND_DIMENSION_VALUE = 2
    EXECUTION_TIMING = 3


@dataclass(frozen=True)
class PacketInformation:
    """``FmqRequestDatum.packetInformation``; ``packet_size`` counts this datum too."""

    packet_size: int
    number_of_input_operands: int
    number_of_output_operands: int
    number_of_pools: int


@dataclass(frozen=True)
class OperandInformation:
    """``FmqRequestDatum.OperandInformation`` (inputs and outputs alike)."""

    has_no_value: bool
    location: DataLocation
    number_of_dimensions: int


@dataclass(frozen=True)
class ResultPacketInformation:
    """``FmqResultDatum.packetInformation``."""

    packet_size: int
    error_status: int
    number_of_operands: int


@dataclass(frozen=True)
class ResultOperandInformation:
    """``FmqResultDatum.OperandInformation``."""

    is_sufficient: bool
    number_of_dimensions: int


@dataclass(frozen=True)
class FmqRequestDatum:
    """One element of a request packet: the arm ``kind`` holding ``value``
    (a PacketInformation, an OperandInformation, or an int for the other arms)."""

    kind: RequestDatumKind
    value: PacketInformation | OperandInformation | int

    @classmethod
    def packet_information(cls, size: int, inputs: int, outputs: int, pools: int):
        return cls(
            RequestDatumKind.PACKET_INFORMATION, PacketInformation(size, inputs, outputs, pools)
        )

    @classmethod
    def operand_information(
        cls, kind: RequestDatumKind, has_no_value: bool, location: DataLocation, dims: int
    ):
        return cls(kind, OperandInformation(has_no_value, location, dims))


@dataclass(frozen=True)
class FmqResultDatum:
    """One element of a result packet (``value`` a ResultPacketInformation, a
    ResultOperandInformation, a dimension int or a Timing)."""

    kind: ResultDatumKind
    value: ResultPacketInformation | ResultOperandInformation | int | Timing


class MalformedPacket(ValueError):
    """A packet that does not follow types.hal; the message names the datum at fault."""


_REQUEST_FORMATS = {
    RequestDatumKind.PACKET_INFORMATION: struct.Struct("<B3x4I4x"),
    RequestDatumKind.INPUT_OPERAND_INFORMATION: struct.Struct("<B3xB3x3II"),
    RequestDatumKind.INPUT_OPERAND_DIMENSION_VALUE: struct.Struct("<B3xI16x"),
    RequestDatumKind.OUTPUT_OPERAND_INFORMATION: struct.Struct("<B3xB3x3II"),
    RequestDatumKind.OUTPUT_OPERAND_DIMENSION_VALUE: struct.Struct("<B3xI16x"),
    RequestDatumKind.POOL_IDENTIFIER: struct.Struct("<B3xi16x"),
    RequestDatumKind.MEASURE_TIMING: struct.Struct("<B3xi16x"),
}
_RESULT_FORMATS = {
    ResultDatumKind.PACKET_INFORMATION: struct.Struct("<B7xIiI4x"),
    ResultDatumKind.OPERAND_INFORMATION: struct.Struct("<B7xB3xI8x"),
    ResultDatumKind.OPERAND_DIMENSION_VALUE: struct.Struct("<B7xI12x"),
    ResultDatumKind.EXECUTION_TIMING: struct.Struct("<B7xQQ"),
}
RESULT_OPERAND_PADDING = range(9, 12)
"""Byte offsets, within an encoded result element, of the three padding bytes between
OperandInformation's ``isSufficient`` and ``numberOfDimensions`` (offsets 1..3 of the
arm, which starts at 8)."""
_REQUEST_KINDS = {int(kind): kind for kind in RequestDatumKind}
_RESULT_KINDS = {int(kind): kind for kind in ResultDatumKind}
_OPERAND_KINDS = (
    RequestDatumKind.INPUT_OPERAND_INFORMATION,
    RequestDatumKind.OUTPUT_OPERAND_INFORMATION,
)


def encode_request(datums: Sequence[FmqRequestDatum]) -> bytes:
    """The packet's bytes: one 24-byte element per datum. ValueError if a field is out of
    its type's range (use raw bytes to send such a thing on purpose)."""
    out = bytearray()
    for datum in datums:
        fmt, value = _REQUEST_FORMATS[datum.kind], datum.value
        try:
            if isinstance(value, PacketInformation):
                fields = (
                    value.packet_size,
                    value.number_of_input_operands,
                    value.number_of_output_operands,
                    value.number_of_pools,
                )
            elif isinstance(value, OperandInformation):
                where = value.location
                fields = (
                    int(value.has_no_value),
                    where.pool_index,
                    where.offset,
                    where.length,
                    value.number_of_dimensions,
                )
            else:
                fields = (int(value),)
            out += fmt.pack(datum.kind, *fields)
        except struct.error as e:
            raise ValueError(f"{datum.kind.name} datum {show(datum.value)}: {e}") from None
    return bytes(out)


def decode_request(raw: bytes) -> list[FmqRequestDatum]:
    """The datums of a request packet; MalformedPacket for a partial element, an unknown
    discriminator or a bool that is neither 0 nor 1."""
    datums = []
    for index, at in enumerate(_offsets(raw, REQUEST_DATUM_SIZE)):
        kind = _kind(_REQUEST_KINDS, raw[at], index)
        fields = _REQUEST_FORMATS[kind].unpack_from(raw, at)[1:]
        if kind == RequestDatumKind.PACKET_INFORMATION:
            value = PacketInformation(*fields)
        elif kind in _OPERAND_KINDS:
            has_no_value = _bool(fields[0], index, "hasNoValue")
            value = OperandInformation(has_no_value, DataLocation(*fields[1:4]), fields[4])
        else:
            value = fields[0]
        datums.append(FmqRequestDatum(kind, value))
    return datums


def encode_result(datums: Sequence[FmqResultDatum]) -> bytes:
    """The result packet's bytes, every padding byte zero."""
    out = bytearray()
    for datum in datums:
        fmt, value = _RESULT_FORMATS[datum.kind], datum.value
        try:
            if isinstance(value, ResultPacketInformation):
                fields = (value.packet_size, value.error_status, value.number_of_operands)
            elif isinstance(value, ResultOperandInformation):
                fields = (int(value.is_sufficient), value.number_of_dimensions)
            elif isinstance(value, Timing):
                fields = (value.time_on_device, value.time_in_driver)
            else:
                fields = (int(value),)
            out += fmt.pack(datum.kind, *fields)
        except struct.error as e:
            raise ValueError(f"{datum.kind.name} datum {show(datum.value)}: {e}") from None
    return bytes(out)


def decode_result(raw: bytes) -> list[FmqResultDatum]:
    """The datums of a result packet; MalformedPacket as ``decode_request``."""
    datums = []
    for index, at in enumerate(_offsets(raw, RESULT_DATUM_SIZE)):
        kind = _kind(_RESULT_KINDS, raw[at], index)
        fields = _RESULT_FORMATS[kind].unpack_from(raw, at)[1:]
        if kind == ResultDatumKind.PACKET_INFORMATION:
            value = ResultPacketInformation(*fields)
        elif kind == ResultDatumKind.OPERAND_INFORMATION:
            value = ResultOperandInformation(_bool(fields[0], index, "isSufficient"), fields[1])
        elif kind == ResultDatumKind.EXECUTION_TIMING:
            value = Timing(*fields)
        else:
            value = fields[0]
        datums.append(FmqResultDatum(kind, value))
    return datums


def _offsets(raw: bytes, size: int) -> range:
    """Where each element of ``raw`` starts (unpacked in place, never sliced out)."""
    if len(raw) % size:
        raise MalformedPacket(f"{len(raw)} bytes are not a whole number of {size}-byte datums")
    return range(0, len(raw), size)


def _kind(kinds: dict[int, IntEnum], value: int, index: int):
    kind = kinds.get(value)
    if kind is None:
        raise MalformedPacket(f"datum {index}: unknown discriminator {value}")
    return kind


def _bool(value: int, index: int, name: str) -> bool:
    if value not in (0, 1):
        raise MalformedPacket(f"datum {index}: {name} byte is {value}, not 0 or 1")
    return bool(value)


# ---------------------------------------------------------------------------
# Packets
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BurstRequest:
    """A deserialised request packet: the Request's arguments, its pools' slots, the timing
    choice."""

    inputs: list[RequestArgument]
    outputs: list[RequestArgument]
    slots: list[int]
    measure: MeasureTiming


def serialize_request(
    request: Request, measure: int, slots: Sequence[int]
) -> list[FmqRequestDatum]:
    """The datums of ``request`` whose pools travel as ``slots`` (one per pool)."""
    body: list[FmqRequestDatum] = []
    for kind, arguments in (
        (RequestDatumKind.INPUT_OPERAND_INFORMATION, request.inputs),
        (RequestDatumKind.OUTPUT_OPERAND_INFORMATION, request.outputs),
    ):
        dimension_kind = _REQUEST_KINDS[kind + 1]
        for argument in arguments:
            body.append(
                FmqRequestDatum(
                    kind,
                    OperandInformation(
                        argument.has_no_value, argument.location, len(argument.dimensions)
                    ),
                )
            )
            body += [FmqRequestDatum(dimension_kind, d) for d in argument.dimensions]
    body += [FmqRequestDatum(RequestDatumKind.POOL_IDENTIFIER, slot) for slot in slots]
    body.append(FmqRequestDatum(RequestDatumKind.MEASURE_TIMING, int(measure)))
    head = FmqRequestDatum.packet_information(
        len(body) + 1, len(request.inputs), len(request.outputs), len(slots)
    )
    return [head, *body]


class _Reader:
    """Walks a packet's datums, naming the position of whatever is wrong."""

    def __init__(self, datums: Sequence, what: str) -> None:
        self.datums, self.position, self.what = datums, 0, what

    def take(self, kind: IntEnum):
        if self.position >= len(self.datums):
            raise MalformedPacket(
                f"{self.what} packet ends after {len(self.datums)} datums where a "
                f"{kind.name} datum is due"
            )
        datum = self.datums[self.position]
        if datum.kind != kind:
            raise MalformedPacket(
                f"datum {self.position} is {datum.kind.name}, expected {kind.name}"
            )
        self.position += 1
        return datum.value

    def need(self, count: int, per_item: int, what: str) -> None:
        """Fail early when ``count`` items cannot fit in what is left of the packet."""
        left = len(self.datums) - self.position
        if count * per_item > left:
            raise MalformedPacket(
                f"{what} count {count} needs at least {count * per_item} more datums, "
                f"the packet has {left} left after datum {self.position - 1}"
            )

    def end(self) -> None:
        if self.position != len(self.datums):
            raise MalformedPacket(
                f"{len(self.datums) - self.position} extra datum(s) after datum {self.position - 1}"
            )


def deserialize_request(datums: Sequence[FmqRequestDatum]) -> BurstRequest:
    """The request a packet carries; MalformedPacket for anything out of types.hal's order,
    a count that disagrees with the packet, or an unknown MeasureTiming."""
    reader = _Reader(datums, "request")
    info: PacketInformation = reader.take(RequestDatumKind.PACKET_INFORMATION)
    if info.packet_size != len(datums):
        raise MalformedPacket(
            f"packetSize {info.packet_size} but the packet has {len(datums)} datums"
        )
    arguments = []
    for count, kind, dimension_kind, what in (
        (
            info.number_of_input_operands,
            RequestDatumKind.INPUT_OPERAND_INFORMATION,
            RequestDatumKind.INPUT_OPERAND_DIMENSION_VALUE,
            "input",
        ),
        (
            info.number_of_output_operands,
            RequestDatumKind.OUTPUT_OPERAND_INFORMATION,
            RequestDatumKind.OUTPUT_OPERAND_DIMENSION_VALUE,
            "output",
        ),
    ):
        reader.need(count, 1, f"{what} operand")
        group = []
        for _ in range(count):
            operand: OperandInformation = reader.take(kind)
            reader.need(operand.number_of_dimensions, 1, f"{what} dimension")
            dims = [reader.take(dimension_kind) for _ in range(operand.number_of_dimensions)]
            group.append(RequestArgument(operand.has_no_value, operand.location, dims))
        arguments.append(group)
    reader.need(info.number_of_pools, 1, "pool")
    slots = [reader.take(RequestDatumKind.POOL_IDENTIFIER) for _ in range(info.number_of_pools)]
    measure = reader.take(RequestDatumKind.MEASURE_TIMING)
    reader.end()
    if measure not in (MeasureTiming.NO, MeasureTiming.YES):
        raise MalformedPacket(f"measureTiming {measure} is neither NO (0) nor YES (1)")
    return BurstRequest(arguments[0], arguments[1], slots, MeasureTiming(measure))


def serialize_result(
    status: int, output_shapes: Sequence[OutputShape], timing: Timing
) -> list[FmqResultDatum]:
    """The datums of one execution's answer."""
    body: list[FmqResultDatum] = []
    for shape in output_shapes:
        body.append(
            FmqResultDatum(
                ResultDatumKind.OPERAND_INFORMATION,
                ResultOperandInformation(shape.is_sufficient, len(shape.dimensions)),
            )
        )
        body += [
            FmqResultDatum(ResultDatumKind.OPERAND_DIMENSION_VALUE, d) for d in shape.dimensions
        ]
    body.append(FmqResultDatum(ResultDatumKind.EXECUTION_TIMING, timing))
    head = FmqResultDatum(
        ResultDatumKind.PACKET_INFORMATION,
        ResultPacketInformation(len(body) + 1, int(status), len(output_shapes)),
    )
    return [head, *body]


def result_length(output_shapes: Sequence[OutputShape]) -> int:
    """Datums in the result packet of an answer with these shapes."""
    return 2 + len(output_shapes) + sum(len(shape.dimensions) for shape in output_shapes)


def deserialize_result(
    datums: Sequence[FmqResultDatum],
) -> tuple[ErrorStatus, list[OutputShape], Timing]:
    """The answer a result packet carries; MalformedPacket as ``deserialize_request``, and
    for an errorStatus that is not an ErrorStatus."""
    reader = _Reader(datums, "result")
    info: ResultPacketInformation = reader.take(ResultDatumKind.PACKET_INFORMATION)
    if info.packet_size != len(datums):
        raise MalformedPacket(
            f"packetSize {info.packet_size} but the packet has {len(datums)} datums"
        )
    try:
        status = _STATUSES.get(info.error_status)
    except TypeError:  # unhashable
        status = None
    if status is None:
        raise MalformedPacket(f"errorStatus {info.error_status} is not an ErrorStatus") from None
    reader.need(info.number_of_operands, 1, "operand")
    shapes = []
    for _ in range(info.number_of_operands):
        operand: ResultOperandInformation = reader.take(ResultDatumKind.OPERAND_INFORMATION)
        reader.need(operand.number_of_dimensions, 1, "dimension")
        dims = tuple(
            reader.take(ResultDatumKind.OPERAND_DIMENSION_VALUE)
            for _ in range(operand.number_of_dimensions)
        )
        shapes.append(OutputShape(dims, operand.is_sufficient))
    timing = reader.take(ResultDatumKind.EXECUTION_TIMING)
    reader.end()
    return status, shapes, timing


# ---------------------------------------------------------------------------
# Whole packets at once
# ---------------------------------------------------------------------------
#
# What both ends run for every execution. Each function gives exactly what its
# pair of datum functions gives (the same bytes, equal values) without making
# a datum: precompiled structs packed into one zeroed buffer or unpacked in
# place, discriminators compared as plain ints. Only the expected case is
# handled here; whatever else comes (a field out of range, a value that is not
# an int, a packet malformed in any way) is handed to the datum functions, so
# every error and its message has a single source.

_REQUEST_HEAD = struct.Struct("<B3x4I")
_REQUEST_OPERAND = struct.Struct("<B3xB3x3II")
_REQUEST_UNSIGNED = struct.Struct("<B3xI")
_REQUEST_SIGNED = struct.Struct("<B3xi")
_RESULT_HEAD = struct.Struct("<B7xIiI")
_RESULT_OPERAND = struct.Struct("<B7xB3xI")
_RESULT_DIMENSION = struct.Struct("<B7xI")
_RESULT_TIMING = struct.Struct("<B7xQQ")
# Discriminators as plain ints, bound once.
_INPUT_KIND = int(RequestDatumKind.INPUT_OPERAND_INFORMATION)
_OUTPUT_KIND = int(RequestDatumKind.OUTPUT_OPERAND_INFORMATION)
_POOL_KIND = int(RequestDatumKind.POOL_IDENTIFIER)
_MEASURE_KIND = int(RequestDatumKind.MEASURE_TIMING)
_OPERAND_KIND = int(ResultDatumKind.OPERAND_INFORMATION)
_DIMENSION_KIND = int(ResultDatumKind.OPERAND_DIMENSION_VALUE)
_TIMING_KIND = int(ResultDatumKind.EXECUTION_TIMING)
assert RequestDatumKind.INPUT_OPERAND_DIMENSION_VALUE == _INPUT_KIND + 1
assert RequestDatumKind.OUTPUT_OPERAND_DIMENSION_VALUE == _OUTPUT_KIND + 1
_MEASURES = {int(choice): choice for choice in MeasureTiming}
_STATUSES = {int(status): status for status in STATUSES_1_0}
"""A burst carries 1.0's statuses only (HAL 1.3 too: its codes become GENERAL_FAILURE)."""


def pack_request_packet(request: Request, measure: int, slots: Sequence[int]) -> bytes:
    """The request packet of ``request`` whose pools travel as ``slots``: the bytes of
    ``encode_request(serialize_request(request, measure, slots))``, and its ValueError
    (or TypeError) for a field that cannot be encoded."""
    try:
        return _pack_request(request, measure, slots)
    except Exception:
        # The datum way packs what this one does not take (a float dimension, say)
        # or raises its own error.
        return encode_request(serialize_request(request, measure, slots))


def _pack_request(request: Request, measure: int, slots: Sequence[int]) -> bytes:
    inputs, outputs = request.inputs, request.outputs
    count = 2 + len(inputs) + len(outputs) + len(slots)
    for argument in inputs:
        count += len(argument.dimensions)
    for argument in outputs:
        count += len(argument.dimensions)
    packet = bytearray(count * REQUEST_DATUM_SIZE)
    _REQUEST_HEAD.pack_into(packet, 0, 0, count, len(inputs), len(outputs), len(slots))
    at = REQUEST_DATUM_SIZE
    pack_operand, pack_unsigned = _REQUEST_OPERAND.pack_into, _REQUEST_UNSIGNED.pack_into
    for kind, arguments in ((_INPUT_KIND, inputs), (_OUTPUT_KIND, outputs)):
        for argument in arguments:
            dims, where = argument.dimensions, argument.location
            pack_operand(
                packet,
                at,
                kind,
                int(argument.has_no_value),
                where.pool_index,
                where.offset,
                where.length,
                len(dims),
            )
            at += REQUEST_DATUM_SIZE
            for dim in dims:
                pack_unsigned(packet, at, kind + 1, int(dim))
                at += REQUEST_DATUM_SIZE
    pack_signed = _REQUEST_SIGNED.pack_into
    for slot in slots:
        pack_signed(packet, at, _POOL_KIND, int(slot))
        at += REQUEST_DATUM_SIZE
    pack_signed(packet, at, _MEASURE_KIND, int(measure))
    return bytes(packet)


def parse_request_packet(raw: bytes) -> BurstRequest:
    """The request a packet carries: what ``deserialize_request(decode_request(raw))``
    returns, and its MalformedPacket (same message) for a packet it refuses."""
    burst = _parse_request(raw)
    if burst is None:
        burst = deserialize_request(decode_request(raw))
    return burst


def _parse_request(raw: bytes) -> BurstRequest | None:
    """The request of a well-formed packet, None for any other: every element is checked
    against the one arm that can be where it is. (So None exactly when the datum path
    raises MalformedPacket; the tests hold it to that.)"""
    size = len(raw)
    if size % REQUEST_DATUM_SIZE or size < 2 * REQUEST_DATUM_SIZE:
        return None
    kind, packet_size, input_count, output_count, pool_count = _REQUEST_HEAD.unpack_from(raw, 0)
    if kind or packet_size * REQUEST_DATUM_SIZE != size:
        return None
    last = size - REQUEST_DATUM_SIZE  # where MEASURE_TIMING must be
    at = REQUEST_DATUM_SIZE
    unpack_operand, unpack_unsigned = _REQUEST_OPERAND.unpack_from, _REQUEST_UNSIGNED.unpack_from
    groups = []
    for operand_kind, count in ((_INPUT_KIND, input_count), (_OUTPUT_KIND, output_count)):
        if count * REQUEST_DATUM_SIZE > last - at:
            return None
        dimension_kind = operand_kind + 1
        group = []
        for _ in range(count):
            if at >= last:
                return None
            kind, has_no_value, pool, offset, length, rank = unpack_operand(raw, at)
            at += REQUEST_DATUM_SIZE
            end = at + rank * REQUEST_DATUM_SIZE
            if kind != operand_kind or has_no_value > 1 or end > last:
                return None
            dims = []
            while at < end:
                kind, dim = unpack_unsigned(raw, at)
                if kind != dimension_kind:
                    return None
                dims.append(dim)
                at += REQUEST_DATUM_SIZE
            group.append(
                RequestArgument(has_no_value == 1, DataLocation(pool, offset, length), dims)
            )
        groups.append(group)
    if at + pool_count * REQUEST_DATUM_SIZE != last:
        return None
    unpack_signed = _REQUEST_SIGNED.unpack_from
    slots = []
    while at < last:
        kind, slot = unpack_signed(raw, at)
        if kind != _POOL_KIND:
            return None
        slots.append(slot)
        at += REQUEST_DATUM_SIZE
    kind, measure = unpack_signed(raw, last)
    choice = _MEASURES.get(measure)
    if kind != _MEASURE_KIND or choice is None:
        return None
    return BurstRequest(groups[0], groups[1], slots, choice)


def pack_result_packet(status: int, output_shapes: Sequence[OutputShape], timing: Timing) -> bytes:
    """The result packet of one execution's answer: the bytes of
    ``encode_result(serialize_result(status, output_shapes, timing))``, and its ValueError
    (or TypeError) for a field that cannot be encoded."""
    try:
        return _pack_result(status, output_shapes, timing)
    except Exception:
        return encode_result(serialize_result(status, output_shapes, timing))


def _pack_result(status: int, output_shapes: Sequence[OutputShape], timing: Timing) -> bytes:
    if not isinstance(timing, Timing):
        raise TypeError("not a Timing")  # encode_result says what it makes of it
    count = 2 + len(output_shapes)
    for shape in output_shapes:
        count += len(shape.dimensions)
    packet = bytearray(count * RESULT_DATUM_SIZE)
    _RESULT_HEAD.pack_into(packet, 0, 0, count, int(status), len(output_shapes))
    at = RESULT_DATUM_SIZE
    pack_operand, pack_dimension = _RESULT_OPERAND.pack_into, _RESULT_DIMENSION.pack_into
    for shape in output_shapes:
        dims = shape.dimensions
        pack_operand(packet, at, _OPERAND_KIND, int(shape.is_sufficient), len(dims))
        at += RESULT_DATUM_SIZE
        for dim in dims:
            pack_dimension(packet, at, _DIMENSION_KIND, int(dim))
            at += RESULT_DATUM_SIZE
    _RESULT_TIMING.pack_into(packet, at, _TIMING_KIND, timing.time_on_device, timing.time_in_driver)
    return bytes(packet)


def parse_result_packet(raw: bytes) -> tuple[ErrorStatus, list[OutputShape], Timing]:
    """The answer a result packet carries: what ``deserialize_result(decode_result(raw))``
    returns, and its MalformedPacket (same message) for a packet it refuses."""
    answer = _parse_result(raw)
    if answer is None:
        answer = deserialize_result(decode_result(raw))
    return answer


def _parse_result(raw: bytes) -> tuple[ErrorStatus, list[OutputShape], Timing] | None:
    """As ``_parse_request``, for a result packet."""
    size = len(raw)
    if size % RESULT_DATUM_SIZE or size < 2 * RESULT_DATUM_SIZE:
        return None
    kind, packet_size, error_status, count = _RESULT_HEAD.unpack_from(raw, 0)
    status = _STATUSES.get(error_status)
    if kind or packet_size * RESULT_DATUM_SIZE != size or status is None:
        return None
    last = size - RESULT_DATUM_SIZE  # where EXECUTION_TIMING must be
    at = RESULT_DATUM_SIZE
    if count * RESULT_DATUM_SIZE > last - at:
        return None
    unpack_operand, unpack_dimension = _RESULT_OPERAND.unpack_from, _RESULT_DIMENSION.unpack_from
    shapes = []
    for _ in range(count):
        if at >= last:
            return None
        kind, is_sufficient, rank = unpack_operand(raw, at)
        at += RESULT_DATUM_SIZE
        end = at + rank * RESULT_DATUM_SIZE
        if kind != _OPERAND_KIND or is_sufficient > 1 or end > last:
            return None
        dims = []
        while at < end:
            kind, dim = unpack_dimension(raw, at)
            if kind != _DIMENSION_KIND:
                return None
            dims.append(dim)
            at += RESULT_DATUM_SIZE
        shapes.append(OutputShape(tuple(dims), is_sufficient == 1))
    if at != last:
        return None
    kind, on_device, in_driver = _RESULT_TIMING.unpack_from(raw, last)
    if kind != _TIMING_KIND:
        return None
    return status, shapes, Timing(on_device, in_driver)


# ---------------------------------------------------------------------------
# The client
# ---------------------------------------------------------------------------


class BurstError(Exception):
    """The burst could not carry an execution (the message says why)."""


class BurstTimeout(BurstError):
    """No result packet arrived in time."""


class BurstCallback(IBurstCallback):
    """The client's slot registry: one slot per memory object, numbered from 0.

    With ``recycle`` a slot freed by ``forget`` is given to the next new memory
    (the lowest freed number first), as Android's burst client reuses the slots
    of freed memories; without it every new memory gets a number never used before.
    ``requests`` records every ``get_memories`` call (the slots asked for), so a
    test can tell which executions made the driver ask. A call whose ``slots`` is
    not a list or tuple of at most ``MAX_SLOTS_PER_CALL`` ints is answered
    INVALID_ARGUMENT without being iterated, and recorded in ``rejected`` (bounded
    text, through ``hal.show``).
    """

    def __init__(self, recycle: bool = False) -> None:
        self._lock = threading.Lock()
        self._by_identity: dict[int, int] = {}
        self._memories: dict[int, Memory] = {}
        self._next = 0
        self._recycle = recycle
        self._freed: list[int] = []
        """Freed slot numbers waiting for a new memory (a heap), with ``recycle``."""
        self.requests: list[tuple[int, ...]] = []
        self.rejected: list[str] = []

    def slot_of(self, memory: Memory) -> int:
        """The memory's slot, assigned on first sight."""
        with self._lock:
            slot = self._by_identity.get(id(memory))
            if slot is None:
                if self._freed:
                    slot = heapq.heappop(self._freed)
                else:
                    slot, self._next = self._next, self._next + 1
                self._by_identity[id(memory)] = slot
                self._memories[slot] = memory
            return slot

    def forget(self, memory: Memory) -> int | None:
        """Drop the memory's slot (returned), or None if it had none."""
        with self._lock:
            slot = self._by_identity.pop(id(memory), None)
            if slot is not None:
                del self._memories[slot]
                if self._recycle:
                    heapq.heappush(self._freed, slot)
            return slot

    def get_memories(self, slots: Sequence[int]) -> tuple[ErrorStatus, list[Memory]]:
        if not (
            (type(slots) is list or type(slots) is tuple)
            and len(slots) <= MAX_SLOTS_PER_CALL
            and all(type(slot) is int for slot in slots)
        ):
            with self._lock:
                self.rejected.append(show(slots))
            return ErrorStatus.INVALID_ARGUMENT, []
        with self._lock:
            self.requests.append(tuple(slots))
            if not all(slot in self._memories for slot in slots):
                return ErrorStatus.INVALID_ARGUMENT, []
            return ErrorStatus.NONE, [self._memories[slot] for slot in slots]


@dataclass(frozen=True)
class BurstResult:
    status: ErrorStatus
    output_shapes: list[OutputShape]
    timing: Timing
    raw: bytes
    """The result packet as it arrived."""


class BurstController:
    """The client end of one burst: both queues, the slot registry and the driver's context.

    ``configure(prepared)`` calls the driver; ``compute`` runs one execution;
    ``close`` (or leaving a ``with`` block) shuts the queues down, which
    releases the driver's side.
    """

    def __init__(
        self,
        request_length: int = DEFAULT_CHANNEL_LENGTH,
        result_length: int = DEFAULT_CHANNEL_LENGTH,
        recycle_slots: bool = False,
    ) -> None:
        self.requests = MessageQueue.create(request_length, REQUEST_DATUM_SIZE)
        try:
            self.results = MessageQueue.create(result_length, RESULT_DATUM_SIZE)
        except BaseException:
            self.requests.close()
            raise
        self.callback = BurstCallback(recycle=recycle_slots)
        self.context: object = None

    def configure(self, prepared: object) -> object:
        """``prepared.configure_execution_burst`` on these queues; the driver's raw answer.

        The context, when the answer is ``(NONE, context)``, is kept for ``free_memory``.
        """
        answer = prepared.configure_execution_burst(
            self.callback, self.requests.descriptor, self.results.descriptor
        )
        if type(answer) is tuple and len(answer) == 2 and answer[0] is ErrorStatus.NONE:
            self.context = answer[1]
        return answer

    def compute(self, request: Request, measure: int, timeout: float) -> BurstResult:
        """Send ``request`` and wait up to ``timeout`` s for its result.

        BurstTimeout when none comes, BurstError when the request does not fit
        the request channel or the queues were shut down, MalformedPacket when
        the result does not deserialise.
        """
        slots = [self.callback.slot_of(pool) for pool in request.pools]
        self.send(pack_request_packet(request, measure, slots), timeout)
        raw = self.receive(timeout)
        return BurstResult(*parse_result_packet(raw), raw=raw)

    def send(self, packet: bytes, timeout: float) -> None:
        """Write one request packet (raw bytes) to the request channel."""
        count = len(packet) // REQUEST_DATUM_SIZE
        if count > self.requests.capacity:
            raise BurstError(
                f"a request packet of {count} datums does not fit the request channel of "
                f"{self.requests.capacity}"
            )
        try:
            self.requests.write_blocking(packet, timeout)
        except FmqTimeout:
            raise BurstTimeout(
                f"the driver did not read the request channel within {timeout:g} s"
            ) from None
        except FmqClosed:
            raise BurstError("the request channel was shut down") from None

    def receive(self, timeout: float) -> bytes:
        """The next result packet's raw bytes."""
        try:
            return self.results.read_blocking(None, timeout)
        except FmqTimeout:
            raise BurstTimeout(f"the driver sent no result packet within {timeout:g} s") from None
        except FmqClosed:
            raise BurstError("the result channel was shut down before a result came") from None

    def free_memory(self, memory: Memory) -> int | None:
        """Forget ``memory``'s slot and tell the driver (returns the slot, None if unknown)."""
        slot = self.callback.forget(memory)
        if slot is not None and self.context is not None:
            self.context.free_memory(slot)
        return slot

    def close(self) -> None:
        """Shut both queues down (the driver's listener stops) and release the context."""
        for queue in (self.requests, self.results):
            with contextlib.suppress(ValueError):
                queue.shutdown()
            queue.close()
        self.context = None

    def __enter__(self) -> BurstController:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------

Execute = Callable[[Request, MeasureTiming], tuple]
"""What the server runs: ``execute_synchronously``'s signature and answer."""


class SlotCache:
    """The server's memories by slot, each a duplicate of what ``get_memories`` returned
    (its own descriptors, as a driver in another process would hold), kept until freed.

    ``fetches`` counts the slots fetched through ``get_memories`` over the cache's life.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._memories: dict[int, Memory] = {}
        self.fetches = 0

    def resolve(
        self, slots: Sequence[int], callback: IBurstCallback
    ) -> tuple[ErrorStatus, list[Memory], str]:
        """The memories of ``slots``, fetching the unknown ones in one call.
        On failure the list is empty and the string says why."""
        with self._lock:
            unknown = list(dict.fromkeys(s for s in slots if s not in self._memories))
        if unknown:
            status, problem = self._fetch(unknown, callback)
            if status != ErrorStatus.NONE:
                return status, [], problem
        with self._lock:
            try:
                return ErrorStatus.NONE, [self._memories[s] for s in slots], ""
            except KeyError as e:  # freed by the client while we were fetching
                return ErrorStatus.GENERAL_FAILURE, [], f"slot {e} was freed during the execution"

    def _fetch(self, slots: list[int], callback: IBurstCallback) -> tuple[ErrorStatus, str]:
        try:
            answer = callback.get_memories(slots)
        except Exception as e:
            return ErrorStatus.GENERAL_FAILURE, f"get_memories raised {show_exception(e)}"
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return ErrorStatus.GENERAL_FAILURE, f"get_memories returned {show(answer)}"
        status, memories = answer
        if status == ErrorStatus.INVALID_ARGUMENT:
            return ErrorStatus.INVALID_ARGUMENT, f"the client does not know slots {slots}"
        if status != ErrorStatus.NONE:
            return ErrorStatus.GENERAL_FAILURE, f"get_memories answered status {show(status)}"
        if not (
            isinstance(memories, list | tuple)
            and len(memories) == len(slots)
            and all(isinstance(m, Memory) for m in memories)
        ):
            return ErrorStatus.GENERAL_FAILURE, f"get_memories gave {show(memories)} for {slots}"
        try:
            owned = [_duplicate(memory) for memory in memories]
        except OSError as e:
            return ErrorStatus.GENERAL_FAILURE, f"a memory's descriptor is unusable: {e}"
        with self._lock:
            self.fetches += len(slots)
            for slot, memory in zip(slots, owned, strict=True):
                previous = self._memories.pop(slot, None)
                if previous is not None:
                    previous.close()
                self._memories[slot] = memory
        return ErrorStatus.NONE, ""

    def free(self, slot: int) -> bool:
        """Forget ``slot`` (closing the duplicate); False if it was not cached."""
        with self._lock:
            memory = self._memories.pop(slot, None)
        if memory is None:
            return False
        memory.close()
        return True

    def clear(self) -> None:
        with self._lock:
            memories, self._memories = list(self._memories.values()), {}
        for memory in memories:
            memory.close()

    def __contains__(self, slot: int) -> bool:
        with self._lock:
            return slot in self._memories


def _duplicate(memory: Memory) -> Memory:
    if memory.handle is None:
        return Memory(memory.name, None, memory.size)
    fds: list[int] = []
    try:
        for fd in memory.handle.fds:
            fds.append(os.dup(fd))
    except OSError:
        NativeHandle(fds).close()
        raise
    return Memory(memory.name, NativeHandle(fds, list(memory.handle.ints)), memory.size)


_LISTENERS = Workers("nnhal-burst")
"""The threads bursts are served on, reused from burst to burst: starting a thread
costs more (some 150 us) than a small model's whole execution."""


class BurstServer:
    """A listener serving one burst for a driver (see ``configure_burst``), on a thread
    of its own while it serves."""

    def __init__(
        self,
        callback: IBurstCallback,
        request_channel: object,
        result_channel: object,
        execute: Execute,
        cache: SlotCache | None = None,
    ) -> None:
        self._callback = callback
        self._execute = execute
        self.cache = cache if cache is not None else SlotCache()
        self._requests = _attach(request_channel, REQUEST_DATUM_SIZE, "request")
        try:
            self._results = _attach(result_channel, RESULT_DATUM_SIZE, "result")
        except BaseException:
            self._requests.close()
            raise
        if self._results.capacity < 2:
            self._requests.close()
            self._results.close()
            raise FmqError("a result channel of fewer than 2 datums cannot carry any result")
        self._lock = threading.Lock()
        self._closed = False
        self._started = False
        self._ended = threading.Event()
        self._listener: int | None = None
        """The thread ident of the listener while it serves."""

    def start(self) -> None:
        """Serve on one of the reused listener threads (once, like a thread's start)."""
        if self._started:
            raise RuntimeError("a burst server can only be started once")
        self._started = True
        _LISTENERS.submit(self._serve)

    def stop(self, timeout: float = 0.0) -> bool:
        """Shut the queues down, wait up to ``timeout`` s for the listener to end, and
        say whether it has."""
        with self._lock:
            if not self._closed:
                self._requests.shutdown()
                self._results.shutdown()
        return self.join(timeout)

    def join(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the listener to end; whether it has (never yet
        when the listener itself asks)."""
        if not self._started:
            return True
        if self._listener != threading.get_ident():
            self._ended.wait(timeout)
        return self._ended.is_set()

    @property
    def running(self) -> bool:
        return self._started and not self._ended.is_set()

    def _serve(self) -> None:
        self._listener = threading.get_ident()
        try:
            while True:
                self._handle(self._requests.read_blocking(None, None))
        except FmqClosed:
            pass  # shut down, or corrupt counters (FmqCorrupt): the queue is closed
        except FmqError:
            _LOG.exception("the burst's queues cannot be used; the listener stops")
        finally:
            with self._lock:  # from here on, stop leaves the queues alone
                self._closed = True
            self._requests.close()
            self._results.close()
            self.cache.clear()
            self._listener = None
            self._ended.set()

    def _handle(self, packet: bytes) -> None:
        """Answer one request packet (the one place a driver's variant would differ).

        Whatever answering raises, even a ``BaseException`` out of the driver's
        function, the client still gets a GENERAL_FAILURE packet and the listener
        goes on serving."""
        started = time.perf_counter_ns()
        try:
            answer = self._answer(packet, started)
        except BaseException:
            _LOG.exception("answering a burst request raised; sending GENERAL_FAILURE")
            answer = ErrorStatus.GENERAL_FAILURE, [], NO_TIMING
        self._send(*answer)

    def _answer(self, packet: bytes, started: int) -> tuple[ErrorStatus, list, Timing]:
        try:
            burst = parse_request_packet(packet)
        except MalformedPacket:
            return ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING
        status, memories, _ = self.cache.resolve(burst.slots, self._callback)
        if status != ErrorStatus.NONE:
            return status, [], NO_TIMING
        request = Request(burst.inputs, burst.outputs, memories)
        try:
            answer = self._execute(request, burst.measure)
        except BaseException:
            _LOG.exception("the driver's burst execution raised; sending GENERAL_FAILURE")
            return ErrorStatus.GENERAL_FAILURE, [], NO_TIMING
        status, shapes, timing = _checked_answer(answer)
        if status not in (ErrorStatus.NONE, ErrorStatus.OUTPUT_INSUFFICIENT_SIZE):
            shapes = []
        if burst.measure != MeasureTiming.YES or status != ErrorStatus.NONE:
            return status, shapes, NO_TIMING
        in_driver = (time.perf_counter_ns() - started) // 1000
        on_device = timing.time_on_device
        if on_device != UINT64_MAX:
            on_device = min(on_device, in_driver)
        return status, shapes, Timing(on_device, in_driver)

    def _send(self, status: ErrorStatus, shapes: list[OutputShape], timing: Timing) -> None:
        if result_length(shapes) > self._results.capacity:
            status, shapes, timing = ErrorStatus.GENERAL_FAILURE, [], NO_TIMING
        self._results.write_blocking(pack_result_packet(status, shapes, timing), None)


def _attach(channel: object, element_size: int, what: str) -> MessageQueue:
    if not isinstance(channel, FmqDescriptor):
        raise FmqError(f"the {what} channel is a {type(channel).__name__}, not an FmqDescriptor")
    if channel.element_size != element_size:
        raise FmqError(
            f"the {what} channel carries {channel.element_size}-byte elements, not "
            f"{element_size}-byte datums"
        )
    return MessageQueue.attach(channel)


def _checked_answer(answer: object) -> tuple[ErrorStatus, list[OutputShape], Timing]:
    """The driver function's answer, or GENERAL_FAILURE if it is out of protocol."""
    failure = ErrorStatus.GENERAL_FAILURE, [], NO_TIMING
    if not (isinstance(answer, tuple) and len(answer) == 3):
        return failure
    status, shapes, timing = answer
    try:
        status = ErrorStatus(status)
    except (ValueError, TypeError):
        return failure
    if status not in STATUSES_1_0:
        return failure
    if not (
        isinstance(shapes, list | tuple)
        and all(isinstance(s, OutputShape) for s in shapes)
        and isinstance(timing, Timing)
    ):
        return failure
    if any(not (0 <= d <= _UINT32_MAX) for s in shapes for d in s.dimensions):
        return failure
    if not (0 <= timing.time_on_device <= UINT64_MAX):
        timing = NO_TIMING
    return status, list(shapes), timing


@dataclass
class BurstContext(IBurstContext):
    """The ``IBurstContext`` of a ``BurstServer``: frees cached slots; releasing it (or
    dropping the last reference) stops the server."""

    server: BurstServer
    _finalizer: weakref.finalize = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._finalizer = weakref.finalize(self, self.server.stop)

    def free_memory(self, slot: int) -> None:
        self.server.cache.free(slot)

    def release(self) -> None:
        """Stop serving (what dropping a HIDL context reference does); does not wait."""
        self._finalizer()


def configure_burst(
    callback: object,
    request_channel: object,
    result_channel: object,
    execute: Execute,
    cache: SlotCache | None = None,
) -> tuple[ErrorStatus, BurstContext | None]:
    """A driver's ``configure_execution_burst`` in one call: start serving the channels,
    running each execution through ``execute``. INVALID_ARGUMENT (and no context) for a
    callback that is not an IBurstCallback or a channel that cannot be attached."""
    if not isinstance(callback, IBurstCallback):
        return ErrorStatus.INVALID_ARGUMENT, None
    try:
        server = BurstServer(callback, request_channel, result_channel, execute, cache)
    except FmqError:
        return ErrorStatus.INVALID_ARGUMENT, None
    server.start()
    return ErrorStatus.NONE, BurstContext(server)
