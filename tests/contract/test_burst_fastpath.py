"""hal.burst's whole-packet functions against the datum functions they stand for.

``pack_request_packet`` must give the bytes (or the error) of
``encode_request(serialize_request(...))``, ``parse_request_packet`` the value (or the
MalformedPacket, message and all) of ``deserialize_request(decode_request(...))``, and
likewise for results. Checked three ways: every refusal rule by hand, random valid
requests and answers, and random or mutated packets. The quick parsers behind the
public ones (``_parse_request``, ``_parse_result``) are checked on their own too: they
may give up on a packet (None, and the datum path decides), but must never accept one
the datum path refuses or read it differently, and must take every valid packet.
"""

from __future__ import annotations

import re
import struct

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hal.burst import (
    REQUEST_DATUM_SIZE,
    RESULT_DATUM_SIZE,
    FmqRequestDatum,
    FmqResultDatum,
    MalformedPacket,
    RequestDatumKind,
    ResultDatumKind,
    ResultOperandInformation,
    ResultPacketInformation,
    _parse_request,
    _parse_result,
    decode_request,
    decode_result,
    deserialize_request,
    deserialize_result,
    encode_request,
    encode_result,
    pack_request_packet,
    pack_result_packet,
    parse_request_packet,
    parse_result_packet,
    serialize_request,
    serialize_result,
)
from hal.types import (
    NO_TIMING,
    STATUSES_1_0,
    DataLocation,
    ErrorStatus,
    MeasureTiming,
    OutputShape,
    Request,
    RequestArgument,
    Timing,
)

PROPERTY = settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
U32 = 2**32 - 1


def _slow_request_packet(request: Request, measure, slots) -> bytes:
    return encode_request(serialize_request(request, measure, slots))


def _slow_parse_request(raw: bytes):
    return deserialize_request(decode_request(raw))


def _slow_result_packet(status, shapes, timing) -> bytes:
    return encode_result(serialize_result(status, shapes, timing))


def _slow_parse_result(raw: bytes):
    return deserialize_result(decode_result(raw))


def _outcome(function, *arguments) -> tuple:
    """What a call gives: ("value", value) or ("raised", exception type, message)."""
    try:
        return ("value", function(*arguments))
    except Exception as error:
        return ("raised", type(error), str(error))


# ---------------------------------------------------------------------------
# Every refusal rule, by hand
# ---------------------------------------------------------------------------

_IN, _OUT = RequestDatumKind.INPUT_OPERAND_INFORMATION, RequestDatumKind.OUTPUT_OPERAND_INFORMATION


def _request() -> Request:
    return Request(
        inputs=[
            RequestArgument(False, DataLocation(0, 0, 8), [2, 1]),
            RequestArgument(True, DataLocation(0, 0, 0), []),
        ],
        outputs=[RequestArgument(False, DataLocation(1, 4, 4), [1])],
    )


# head(10, 2, 1, 2), input, dim, dim, input, output, dim, pool, pool, measure
_GOOD = serialize_request(_request(), MeasureTiming.NO, [7, 3])


def _head(size: int, inputs: int, outputs: int, pools: int) -> FmqRequestDatum:
    return FmqRequestDatum.packet_information(size, inputs, outputs, pools)


def _operand(kind, rank: int) -> FmqRequestDatum:
    return FmqRequestDatum.operand_information(kind, False, DataLocation(0, 0, 8), rank)


def _replace(datums: list, index: int, datum) -> list:
    return [*datums[:index], datum, *datums[index + 1 :]]


def _patched(raw: bytes, at: int, value: int) -> bytes:
    return raw[:at] + bytes((value,)) + raw[at + 1 :]


_REQUEST_REFUSALS = [
    (bytes(25), "25 bytes are not a whole number of 24-byte datums"),
    (encode_request(_GOOD) + b"\x07" + bytes(23), "datum 10: unknown discriminator 7"),
    (_patched(encode_request(_GOOD), 24 + 4, 2), "datum 1: hasNoValue byte is 2, not 0 or 1"),
    (
        _patched(encode_request(_GOOD), 5 * 24 + 4, 255),
        "datum 5: hasNoValue byte is 255, not 0 or 1",
    ),
    (b"", "request packet ends after 0 datums where a PACKET_INFORMATION datum is due"),
    (
        encode_request(_GOOD[1:]),
        "datum 0 is INPUT_OPERAND_INFORMATION, expected PACKET_INFORMATION",
    ),
    (encode_request(_GOOD[:-1]), "packetSize 10 but the packet has 9 datums"),
    (
        encode_request(_replace(_GOOD, 0, _head(10, U32, 1, 2))),
        "input operand count 4294967295 needs at least 4294967295 more datums, the packet "
        "has 9 left after datum 0",
    ),
    (
        encode_request(_replace(_GOOD, 1, _operand(_IN, 9))),
        "input dimension count 9 needs at least 9 more datums, the packet has 8 left after datum 1",
    ),
    (
        encode_request(_replace(_GOOD, 0, _head(10, 2, 50, 2))),
        "output operand count 50 needs at least 50 more datums, the packet has 5 left after "
        "datum 4",
    ),
    (
        encode_request(_replace(_GOOD, 5, _operand(_OUT, 7))),
        "output dimension count 7 needs at least 7 more datums, the packet has 4 left after "
        "datum 5",
    ),
    (
        encode_request(_replace(_GOOD, 0, _head(10, 2, 1, 5))),
        "pool count 5 needs at least 5 more datums, the packet has 3 left after datum 6",
    ),
    (
        encode_request(_replace(_GOOD, 0, _head(10, 1, 1, 2))),
        "datum 4 is INPUT_OPERAND_INFORMATION, expected OUTPUT_OPERAND_INFORMATION",
    ),
    (
        encode_request(_replace(_GOOD, 2, FmqRequestDatum(RequestDatumKind(4), 2))),
        "datum 2 is OUTPUT_OPERAND_DIMENSION_VALUE, expected INPUT_OPERAND_DIMENSION_VALUE",
    ),
    (
        encode_request(_replace(_GOOD, 7, FmqRequestDatum(RequestDatumKind(6), 0))),
        "datum 7 is MEASURE_TIMING, expected POOL_IDENTIFIER",
    ),
    (
        encode_request([_head(2, 0, 0, 1), FmqRequestDatum(RequestDatumKind(5), 0)]),
        "request packet ends after 2 datums where a MEASURE_TIMING datum is due",
    ),
    (
        encode_request([_head(11, 2, 1, 2), *_GOOD[1:], _GOOD[-1]]),
        "1 extra datum(s) after datum 9",
    ),
    (
        encode_request(_replace(_GOOD, 9, FmqRequestDatum(RequestDatumKind(6), 2))),
        "measureTiming 2 is neither NO (0) nor YES (1)",
    ),
    (
        encode_request(_replace(_GOOD, 9, FmqRequestDatum(RequestDatumKind(6), -1))),
        "measureTiming -1 is neither NO (0) nor YES (1)",
    ),
]


@pytest.mark.parametrize(("raw", "message"), _REQUEST_REFUSALS)
def test_parsing_a_request_packet_refuses_what_the_datum_path_refuses(
    raw: bytes, message: str
) -> None:
    for parse in (parse_request_packet, _slow_parse_request):
        with pytest.raises(MalformedPacket, match=f"^{re.escape(message)}$"):
            parse(raw)
    assert _parse_request(raw) is None


_SHAPES = [OutputShape((2, 3), False), OutputShape((), True)]
# head(6, 3, 2), operand, dim, dim, operand, timing
_GOOD_RESULT = serialize_result(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, _SHAPES, NO_TIMING)


def _result_head(size: int, status: int, operands: int) -> FmqResultDatum:
    return FmqResultDatum(
        ResultDatumKind.PACKET_INFORMATION, ResultPacketInformation(size, status, operands)
    )


def _result_operand(rank: int) -> FmqResultDatum:
    return FmqResultDatum(ResultDatumKind.OPERAND_INFORMATION, ResultOperandInformation(True, rank))


_DIMENSION = FmqResultDatum(ResultDatumKind.OPERAND_DIMENSION_VALUE, 1)

_RESULT_REFUSALS = [
    (bytes(47), "47 bytes are not a whole number of 24-byte datums"),
    (_patched(encode_result(_GOOD_RESULT), 2 * 24, 4), "datum 2: unknown discriminator 4"),
    (
        _patched(encode_result(_GOOD_RESULT), 4 * 24 + 8, 9),
        "datum 4: isSufficient byte is 9, not 0 or 1",
    ),
    (b"", "result packet ends after 0 datums where a PACKET_INFORMATION datum is due"),
    (
        encode_result(_GOOD_RESULT[1:]),
        "datum 0 is OPERAND_INFORMATION, expected PACKET_INFORMATION",
    ),
    (encode_result(_GOOD_RESULT[:-1]), "packetSize 6 but the packet has 5 datums"),
    (
        encode_result(_replace(_GOOD_RESULT, 0, _result_head(6, 5, 2))),
        "errorStatus 5 is not an ErrorStatus",
    ),
    (
        encode_result(_replace(_GOOD_RESULT, 0, _result_head(6, -1, 2))),
        "errorStatus -1 is not an ErrorStatus",
    ),
    (
        encode_result(_replace(_GOOD_RESULT, 0, _result_head(6, 0, 9))),
        "operand count 9 needs at least 9 more datums, the packet has 5 left after datum 0",
    ),
    (
        encode_result(_replace(_GOOD_RESULT, 1, _result_operand(5))),
        "dimension count 5 needs at least 5 more datums, the packet has 4 left after datum 1",
    ),
    (
        encode_result(_replace(_GOOD_RESULT, 4, _DIMENSION)),
        "datum 4 is OPERAND_DIMENSION_VALUE, expected OPERAND_INFORMATION",
    ),
    (
        encode_result(_replace(_GOOD_RESULT, 2, _result_operand(0))),
        "datum 2 is OPERAND_INFORMATION, expected OPERAND_DIMENSION_VALUE",
    ),
    (
        encode_result(_replace(_GOOD_RESULT, 5, _DIMENSION)),
        "datum 5 is OPERAND_DIMENSION_VALUE, expected EXECUTION_TIMING",
    ),
    (
        encode_result([_result_head(5, 3, 2), *_GOOD_RESULT[1:5]]),
        "result packet ends after 5 datums where a EXECUTION_TIMING datum is due",
    ),
    (
        encode_result([_result_head(7, 3, 2), *_GOOD_RESULT[1:], _GOOD_RESULT[-1]]),
        "1 extra datum(s) after datum 5",
    ),
]


@pytest.mark.parametrize(("raw", "message"), _RESULT_REFUSALS)
def test_parsing_a_result_packet_refuses_what_the_datum_path_refuses(
    raw: bytes, message: str
) -> None:
    for parse in (parse_result_packet, _slow_parse_result):
        with pytest.raises(MalformedPacket, match=f"^{re.escape(message)}$"):
            parse(raw)
    assert _parse_result(raw) is None


def test_the_hand_made_packets_read_back() -> None:
    raw = encode_request(_GOOD)
    assert pack_request_packet(_request(), MeasureTiming.NO, [7, 3]) == raw
    burst = parse_request_packet(raw)
    assert (burst.inputs, burst.outputs) == (_request().inputs, _request().outputs)
    assert (burst.slots, burst.measure) == ([7, 3], MeasureTiming.NO)
    assert burst == _slow_parse_request(raw) == _parse_request(raw)
    raw = encode_result(_GOOD_RESULT)
    assert pack_result_packet(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, _SHAPES, NO_TIMING) == raw
    answer = (ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, _SHAPES, NO_TIMING)
    assert parse_result_packet(raw) == answer == _parse_result(raw)
    # Padding is not checked on either path: a packet with junk there reads the same.
    junk = bytearray(encode_request(_GOOD))
    junk[1:4] = junk[25:28] = b"\xff\xff\xff"
    assert parse_request_packet(bytes(junk)) == burst == _parse_request(bytes(junk))


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (([RequestArgument(False, DataLocation(0, 0, 4), [2**32])], [], [0], 0), ValueError),
        (([RequestArgument(False, DataLocation(-1, 0, 4), [])], [], [0], 0), ValueError),
        (([], [RequestArgument(False, DataLocation(0, 0, 4), [])], [2**31], 0), ValueError),
        (([], [], [0], 2**31), ValueError),
        (([RequestArgument(None, DataLocation(0, 0, 4), [])], [], [], 0), TypeError),
        (([], [], [0], "yes"), ValueError),
    ],
)
def test_packing_a_request_fails_as_the_datum_path_does(arguments, error) -> None:
    inputs, outputs, slots, measure = arguments
    request = Request(inputs, outputs)
    slow = _outcome(_slow_request_packet, request, measure, slots)
    assert slow[:2] == ("raised", error)
    assert _outcome(pack_request_packet, request, measure, slots) == slow


def test_packing_takes_what_the_datum_path_takes() -> None:
    # encode_request runs int() over these; so must the whole-packet function.
    request = Request([RequestArgument(1, DataLocation(0, 0, 4), [2.0, "3", True])], [])
    assert pack_request_packet(request, 1.0, ["4"]) == _slow_request_packet(request, 1.0, ["4"])
    shapes = [OutputShape((2.5,), 1)]
    assert pack_result_packet(0.0, shapes, Timing(1, 2)) == _slow_result_packet(
        0.0, shapes, Timing(1, 2)
    )


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        ((ErrorStatus.NONE, [OutputShape((2**32,), True)], NO_TIMING), ValueError),
        ((2**31, [], NO_TIMING), ValueError),
        ((ErrorStatus.NONE, [], Timing(-1, 0)), ValueError),
        ((ErrorStatus.NONE, [], Timing(0, 2**64)), ValueError),
        ((ErrorStatus.NONE, [], None), TypeError),
        ((ErrorStatus.NONE, [], 5), ValueError),
        ((ErrorStatus.NONE, [OutputShape((1,), None)], NO_TIMING), TypeError),
    ],
)
def test_packing_a_result_fails_as_the_datum_path_does(answer, error) -> None:
    slow = _outcome(_slow_result_packet, *answer)
    assert slow[:2] == ("raised", error)
    assert _outcome(pack_result_packet, *answer) == slow


# ---------------------------------------------------------------------------
# Random valid requests and answers
# ---------------------------------------------------------------------------

_u32 = st.integers(0, U32)
_i32 = st.integers(-(2**31), 2**31 - 1)
_u64 = st.integers(0, 2**64 - 1)
_arguments = st.builds(
    RequestArgument,
    st.booleans(),
    st.builds(DataLocation, _u32, _u32, _u32),
    st.lists(_u32, max_size=4),
)
_requests = st.tuples(
    st.builds(Request, st.lists(_arguments, max_size=4), st.lists(_arguments, max_size=4)),
    st.sampled_from([0, 1, MeasureTiming.NO, MeasureTiming.YES]),
    st.lists(_i32, max_size=4),
)
_shapes = st.lists(
    st.builds(OutputShape, st.lists(_u32, max_size=4).map(tuple), st.booleans()), max_size=4
)
_answers = st.tuples(
    st.sampled_from(sorted(STATUSES_1_0)),  # a burst carries 1.0 statuses
    _shapes,
    st.one_of(st.just(NO_TIMING), st.builds(Timing, _u64, _u64)),
)


@PROPERTY
@given(_requests)
def test_a_valid_request_packs_and_parses_as_the_datum_path_does(drawn) -> None:
    request, measure, slots = drawn
    raw = pack_request_packet(request, measure, slots)
    assert raw == _slow_request_packet(request, measure, slots)
    burst = _parse_request(raw)  # never left to the datum path
    assert burst is not None
    assert parse_request_packet(raw) == burst == _slow_parse_request(raw)
    assert (burst.inputs, burst.outputs) == (request.inputs, request.outputs)
    assert (burst.slots, burst.measure) == (slots, measure)


@PROPERTY
@given(_answers)
def test_a_valid_answer_packs_and_parses_as_the_datum_path_does(answer) -> None:
    raw = pack_result_packet(*answer)
    assert raw == _slow_result_packet(*answer)
    parsed = _parse_result(raw)
    assert parsed is not None
    assert parse_result_packet(raw) == parsed == _slow_parse_result(raw) == answer


# Values near and beyond every field's range, and values that are not ints at all.
_wild = st.one_of(
    st.integers(-3, 3),
    st.sampled_from([2**31 - 1, 2**31, U32, 2**32, 2**64 - 1, 2**64, -(2**31) - 1]),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2.0, 2.5, "3", "x", None, True, (1,)]),
)
_wild_arguments = st.builds(
    RequestArgument,
    st.one_of(st.booleans(), _wild),
    st.builds(DataLocation, _wild, _wild, _wild),
    st.lists(st.one_of(_u32, _wild), max_size=3),
)


@PROPERTY
@given(
    st.lists(_wild_arguments, max_size=3),
    st.lists(_wild_arguments, max_size=3),
    st.lists(st.one_of(_i32, _wild), max_size=3),
    st.one_of(st.sampled_from([0, 1]), _wild),
)
def test_any_request_packs_or_fails_as_the_datum_path_does(inputs, outputs, slots, measure):
    request = Request(inputs, outputs)
    assert _outcome(pack_request_packet, request, measure, slots) == _outcome(
        _slow_request_packet, request, measure, slots
    )


@PROPERTY
@given(
    st.one_of(st.sampled_from(list(ErrorStatus)), _wild),  # 1.3 codes: refused
    st.lists(
        st.builds(
            OutputShape,
            st.lists(st.one_of(_u32, _wild), max_size=3).map(tuple),
            st.one_of(st.booleans(), _wild),
        ),
        max_size=3,
    ),
    st.one_of(st.builds(Timing, _wild, _wild), st.builds(Timing, _u64, _u64), _wild),
)
def test_any_answer_packs_or_fails_as_the_datum_path_does(status, shapes, timing) -> None:
    assert _outcome(pack_result_packet, status, shapes, timing) == _outcome(
        _slow_result_packet, status, shapes, timing
    )


# ---------------------------------------------------------------------------
# Random and mutated packets
# ---------------------------------------------------------------------------


_pad_byte = st.sampled_from([0, 0, 0, 1, 255])
_small_or_any = st.one_of(st.integers(0, 9), _u32)


def _element(size: int) -> st.SearchStrategy[bytes]:
    """One element that is nearly right: a discriminator around the known ones, a bool
    byte (or the low byte of a 32-bit field) that may be out of range, padding mostly
    zero and small or any values in the other 32-bit fields."""
    kind, flag = st.integers(0, 9), st.one_of(st.integers(0, 9), st.just(255))
    if size == REQUEST_DATUM_SIZE:  # discriminator, 3 pad, flag, 3 pad or high bytes, 4 x u32
        return st.builds(
            lambda k, pad, f, high, fields: (
                bytes((k, *pad, f, *high)) + struct.pack("<4I", *fields)
            ),
            kind,
            st.lists(_pad_byte, min_size=3, max_size=3),
            flag,
            st.lists(_pad_byte, min_size=3, max_size=3),
            st.lists(_small_or_any, min_size=4, max_size=4),
        )
    # discriminator, 7 pad, flag, 3 pad or high bytes, 3 x u32
    return st.builds(
        lambda k, pad, f, high, fields: bytes((k, *pad, f, *high)) + struct.pack("<3I", *fields),
        kind,
        st.lists(_pad_byte, min_size=7, max_size=7),
        flag,
        st.lists(_pad_byte, min_size=3, max_size=3),
        st.lists(_small_or_any, min_size=3, max_size=3),
    )


@st.composite
def _mutated(draw, raw: bytes, size: int, fields: tuple[int, ...], flag: int) -> bytes:
    """``raw`` changed one to three times: bytes flipped, inserted or deleted, whole
    elements inserted, deleted, duplicated or swapped, the packet truncated, a 32-bit
    field (counts, ranks, values, measure or status) set near or far from what it was,
    a discriminator or a bool byte set to anything. Then, half the time, the head's
    packetSize is made to agree with the length again, so that the checks behind that
    one are reached too."""
    packet = bytearray(raw)
    for _ in range(draw(st.integers(1, 3))):
        count = len(packet) // size
        element = draw(st.integers(0, max(count - 1, 0))) * size
        how = draw(
            st.sampled_from(
                [
                    "flip",
                    "insert",
                    "delete",
                    "truncate",
                    "insert element",
                    "delete element",
                    "duplicate element",
                    "swap elements",
                    "field",
                    "discriminator",
                    "flag",
                ]
            )
        )
        if how == "flip" and packet:
            at = draw(st.integers(0, len(packet) - 1))
            packet[at] ^= draw(st.integers(1, 255))
        elif how == "insert":
            at = draw(st.integers(0, len(packet)))
            packet[at:at] = draw(st.binary(min_size=1, max_size=2 * size))
        elif how == "delete" and packet:
            at = draw(st.integers(0, len(packet) - 1))
            del packet[at : at + draw(st.integers(1, 2 * size))]
        elif how == "truncate":
            del packet[draw(st.integers(0, len(packet))) :]
        elif how == "insert element":
            at = draw(st.integers(0, count)) * size
            packet[at:at] = draw(_element(size))
        elif how == "delete element" and count:
            del packet[element : element + size]
        elif how == "duplicate element" and count:
            packet[element:element] = packet[element : element + size]
        elif how == "swap elements" and count:
            other = draw(st.integers(0, count - 1)) * size
            first, second = packet[element : element + size], packet[other : other + size]
            packet[other : other + size], packet[element : element + size] = first, second
        elif how == "field" and count:
            at = element + draw(st.sampled_from(fields))
            if at + 4 <= len(packet):
                (now,) = struct.unpack_from("<I", packet, at)
                value = draw(
                    st.one_of(
                        st.integers(max(now - 2, 0), min(now + 2, U32)),
                        st.integers(0, 8),
                        st.sampled_from([U32, 2**31, 2**31 - 1]),
                        _u32,
                    )
                )
                struct.pack_into("<I", packet, at, value)
        elif how == "discriminator" and count:
            packet[element] = draw(st.one_of(st.integers(0, 7), st.integers(0, 255)))
        elif how == "flag" and count:
            packet[element + flag] = draw(st.one_of(st.integers(0, 2), st.integers(0, 255)))
    if len(packet) >= size and draw(st.booleans()):
        struct.pack_into("<I", packet, fields[0], len(packet) // size)
    return bytes(packet)


# Field offsets (the head's packetSize first) and the bool byte's offset of each kind.
_mutated_requests = _requests.map(lambda drawn: pack_request_packet(*drawn)).flatmap(
    lambda raw: _mutated(raw, REQUEST_DATUM_SIZE, (4, 8, 12, 16, 20), 4)
)
_mutated_results = _answers.map(lambda answer: pack_result_packet(*answer)).flatmap(
    lambda raw: _mutated(raw, RESULT_DATUM_SIZE, (8, 12, 16), 8)
)


def _check_request(raw: bytes) -> None:
    slow = _outcome(_slow_parse_request, raw)
    assert slow[0] == "value" or slow[1] is MalformedPacket, slow
    assert _outcome(parse_request_packet, raw) == slow
    event("accepted" if slow[0] == "value" else re.sub(r"-?\d+", "N", slow[2]))
    quick = _parse_request(raw)  # never raises
    # It takes exactly the packets the datum path takes, and reads them the same.
    if quick is None:
        assert slow[0] == "raised", slow
    else:
        assert slow == ("value", quick)


def _check_result(raw: bytes) -> None:
    slow = _outcome(_slow_parse_result, raw)
    assert slow[0] == "value" or slow[1] is MalformedPacket, slow
    assert _outcome(parse_result_packet, raw) == slow
    event("accepted" if slow[0] == "value" else re.sub(r"-?\d+", "N", slow[2]))
    quick = _parse_result(raw)
    # It takes exactly the packets the datum path takes, and reads them the same.
    if quick is None:
        assert slow[0] == "raised", slow
    else:
        assert slow == ("value", quick)


@PROPERTY
@given(
    st.one_of(
        st.binary(max_size=6 * REQUEST_DATUM_SIZE),
        st.lists(_element(REQUEST_DATUM_SIZE), max_size=8).map(b"".join),
    )
)
def test_any_bytes_parse_as_a_request_as_the_datum_path_parses_them(raw: bytes) -> None:
    _check_request(raw)


@settings(PROPERTY, max_examples=600)
@given(_mutated_requests)
def test_a_mutated_request_packet_parses_as_the_datum_path_parses_it(raw: bytes) -> None:
    _check_request(raw)


@PROPERTY
@given(
    st.one_of(
        st.binary(max_size=6 * RESULT_DATUM_SIZE),
        st.lists(_element(RESULT_DATUM_SIZE), max_size=8).map(b"".join),
    )
)
def test_any_bytes_parse_as_a_result_as_the_datum_path_parses_them(raw: bytes) -> None:
    _check_result(raw)


@settings(PROPERTY, max_examples=600)
@given(_mutated_results)
def test_a_mutated_result_packet_parses_as_the_datum_path_parses_it(raw: bytes) -> None:
    _check_result(raw)
