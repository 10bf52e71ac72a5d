"""hal.burst: datum encoding, packet (de)serialisation, the client and the server helper;
and the reference driver's configure_execution_burst."""

from __future__ import annotations

import gc
import re
import struct
import threading

import pytest

from hal.burst import (
    INT32_MAX,
    BurstCallback,
    BurstContext,
    BurstController,
    BurstError,
    BurstServer,
    FmqRequestDatum,
    FmqResultDatum,
    MalformedPacket,
    RequestDatumKind,
    ResultDatumKind,
    ResultOperandInformation,
    ResultPacketInformation,
    configure_burst,
    decode_request,
    decode_result,
    deserialize_request,
    deserialize_result,
    encode_request,
    encode_result,
    serialize_request,
    serialize_result,
)
from hal.interfaces import IBurstCallback
from hal.memory import allocate_with, map_memory
from hal.types import (
    NO_TIMING,
    UINT64_MAX,
    DataLocation,
    ErrorStatus,
    MeasureTiming,
    OutputShape,
    Request,
    RequestArgument,
    Timing,
)

WAIT = 10.0


def _u32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}I", *values)


# ---------------------------------------------------------------------------
# Datums: the byte layout, written out by hand
# ---------------------------------------------------------------------------


def test_request_datums_have_the_safe_union_layout() -> None:
    datums = [
        FmqRequestDatum.packet_information(5, 1, 2, 3),
        FmqRequestDatum.operand_information(
            RequestDatumKind.OUTPUT_OPERAND_INFORMATION, True, DataLocation(1, 2, 3), 4
        ),
        FmqRequestDatum(RequestDatumKind.INPUT_OPERAND_DIMENSION_VALUE, 7),
        FmqRequestDatum(RequestDatumKind.POOL_IDENTIFIER, -2),
        FmqRequestDatum(RequestDatumKind.MEASURE_TIMING, 1),
    ]
    assert encode_request(datums) == (
        b"\x00\0\0\0" + _u32(5, 1, 2, 3) + bytes(4)
        + b"\x03\0\0\0" + b"\x01\0\0\0" + _u32(1, 2, 3, 4)
        + b"\x02\0\0\0" + _u32(7) + bytes(16)
        + b"\x05\0\0\0" + b"\xfe\xff\xff\xff" + bytes(16)
        + b"\x06\0\0\0" + _u32(1) + bytes(16)
    )  # fmt: skip


def test_result_datums_have_the_safe_union_layout_with_zero_padding() -> None:
    datums = [
        FmqResultDatum(ResultDatumKind.PACKET_INFORMATION, ResultPacketInformation(4, 3, 1)),
        FmqResultDatum(ResultDatumKind.OPERAND_INFORMATION, ResultOperandInformation(True, 1)),
        FmqResultDatum(ResultDatumKind.OPERAND_DIMENSION_VALUE, 9),
        FmqResultDatum(ResultDatumKind.EXECUTION_TIMING, Timing(5, 2**64 - 1)),
    ]
    assert encode_result(datums) == (
        b"\x00" + bytes(7) + _u32(4, 3, 1) + bytes(4)
        + b"\x01" + bytes(7) + b"\x01\0\0\0" + _u32(1) + bytes(8)
        + b"\x02" + bytes(7) + _u32(9) + bytes(12)
        + b"\x03" + bytes(7) + struct.pack("<QQ", 5, 2**64 - 1)
    )  # fmt: skip
    assert decode_result(encode_result(datums)) == datums


def test_encoding_a_field_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^PACKET_INFORMATION datum .*: "):
        encode_request([FmqRequestDatum.packet_information(-1, 0, 0, 0)])
    with pytest.raises(ValueError, match=r"^POOL_IDENTIFIER datum 2147483648: "):
        encode_request([FmqRequestDatum(RequestDatumKind.POOL_IDENTIFIER, INT32_MAX + 1)])


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (bytes(25), "25 bytes are not a whole number of 24-byte datums"),
        (b"\x07" + bytes(23), "datum 0: unknown discriminator 7"),
        (bytes(24) + b"\x01\0\0\0\x02" + bytes(19), "datum 1: hasNoValue byte is 2, not 0 or 1"),
    ],
)
def test_decoding_a_request_checks_every_element(raw: bytes, message: str) -> None:
    with pytest.raises(MalformedPacket, match=f"^{re.escape(message)}$"):
        decode_request(raw)


def test_decoding_a_result_checks_every_element() -> None:
    with pytest.raises(MalformedPacket, match=r"^datum 0: unknown discriminator 4$"):
        decode_result(b"\x04" + bytes(23))
    with pytest.raises(MalformedPacket, match=r"^datum 0: isSufficient byte is 9, not 0 or 1$"):
        decode_result(b"\x01" + bytes(7) + b"\x09" + bytes(15))


# ---------------------------------------------------------------------------
# Packets
# ---------------------------------------------------------------------------


def _request() -> Request:
    return Request(
        inputs=[
            RequestArgument(False, DataLocation(0, 0, 8), [2, 1]),
            RequestArgument(True, DataLocation(0, 0, 0), []),
        ],
        outputs=[RequestArgument(False, DataLocation(1, 4, 4), [1])],
        pools=[object(), object()],
    )


def test_a_request_serialises_in_types_hal_order_and_back() -> None:
    datums = serialize_request(_request(), MeasureTiming.YES, [7, 3])
    assert [int(d.kind) for d in datums] == [0, 1, 2, 2, 1, 3, 4, 5, 5, 6]
    assert datums[0] == FmqRequestDatum.packet_information(10, 2, 1, 2)
    assert [d.value for d in datums[2:4]] == [2, 1]
    decoded = deserialize_request(decode_request(encode_request(datums)))
    assert decoded.inputs == _request().inputs
    assert decoded.outputs == _request().outputs
    assert (decoded.slots, decoded.measure) == ([7, 3], MeasureTiming.YES)


def test_a_result_serialises_and_back() -> None:
    shapes = [OutputShape((2, 3), False), OutputShape((), True)]
    datums = serialize_result(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, shapes, NO_TIMING)
    assert [int(d.kind) for d in datums] == [0, 1, 2, 2, 1, 3]
    assert datums[0].value == ResultPacketInformation(6, 3, 2)
    answer = deserialize_result(decode_result(encode_result(datums)))
    assert answer == (ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, shapes, NO_TIMING)


def _with(datums: list, index: int, value) -> list:
    changed = list(datums)
    changed[index] = FmqRequestDatum(changed[index].kind, value)
    return changed


_GOOD = serialize_request(_request(), MeasureTiming.NO, [7, 3])
_INFO = _GOOD[0].value


@pytest.mark.parametrize(
    ("datums", "message"),
    [
        ([], "request packet ends after 0 datums where a PACKET_INFORMATION datum is due"),
        (_GOOD[1:], "datum 0 is INPUT_OPERAND_INFORMATION, expected PACKET_INFORMATION"),
        (_GOOD[:-1], "packetSize 10 but the packet has 9 datums"),
        (
            _with(_GOOD, 0, type(_INFO)(10, 2, 1, 5)),
            "pool count 5 needs at least 5 more datums, the packet has 3 left after datum 6",
        ),
        (
            _with(_GOOD, 0, type(_INFO)(10, 2**32 - 1, 1, 2)),
            "input operand count 4294967295 needs at least 4294967295 more datums, the packet "
            "has 9 left after datum 0",
        ),
        (
            _with(_GOOD, 0, type(_INFO)(10, 1, 1, 2)),
            "datum 4 is INPUT_OPERAND_INFORMATION, expected OUTPUT_OPERAND_INFORMATION",
        ),
        (
            [FmqRequestDatum.packet_information(11, 2, 1, 2), *_GOOD[1:], _GOOD[-1]],
            "1 extra datum(s) after datum 9",
        ),
        (_with(_GOOD, 9, 2), "measureTiming 2 is neither NO (0) nor YES (1)"),
        (
            [FmqRequestDatum.packet_information(2, 0, 0, 0), _GOOD[0]],
            "datum 1 is PACKET_INFORMATION, expected MEASURE_TIMING",
        ),
    ],
)
def test_deserialising_a_request_names_what_is_wrong(datums: list, message: str) -> None:
    with pytest.raises(MalformedPacket, match=f"^{re.escape(message)}$"):
        deserialize_request(datums)


def test_deserialising_a_result_checks_status_and_counts() -> None:
    good = serialize_result(ErrorStatus.NONE, [OutputShape((4,), True)], NO_TIMING)
    bad_status = [FmqResultDatum(good[0].kind, ResultPacketInformation(4, 7, 1)), *good[1:]]
    with pytest.raises(MalformedPacket, match=r"^errorStatus 7 is not an ErrorStatus$"):
        deserialize_result(bad_status)
    no_timing = [FmqResultDatum(good[0].kind, ResultPacketInformation(3, 0, 1)), *good[1:3]]
    with pytest.raises(MalformedPacket, match=r"^result packet ends after 3 datums where an? "):
        deserialize_result(no_timing)


# ---------------------------------------------------------------------------
# The client's slot registry
# ---------------------------------------------------------------------------


def test_the_callback_numbers_memories_and_answers_get_memories() -> None:
    callback = BurstCallback()
    a, b = allocate_with("ashmem", b"a"), allocate_with("ashmem", b"b")
    assert (callback.slot_of(a), callback.slot_of(b), callback.slot_of(a)) == (0, 1, 0)
    assert callback.get_memories([1, 0]) == (ErrorStatus.NONE, [b, a])
    assert callback.get_memories([0, 5]) == (ErrorStatus.INVALID_ARGUMENT, [])
    assert callback.forget(a) == 0 and callback.forget(a) is None
    assert callback.get_memories([0]) == (ErrorStatus.INVALID_ARGUMENT, [])
    assert callback.slot_of(a) == 2
    assert callback.requests == [(1, 0), (0, 5), (0,)]
    a.close()
    b.close()


def test_a_recycling_callback_gives_freed_slots_to_new_memories_lowest_first() -> None:
    callback = BurstCallback(recycle=True)
    a, b, c, d = (allocate_with("ashmem", bytes([k])) for k in range(4))
    assert [callback.slot_of(m) for m in (a, b, c)] == [0, 1, 2]
    assert callback.forget(c) == 2 and callback.forget(a) == 0
    assert callback.get_memories([0]) == (ErrorStatus.INVALID_ARGUMENT, [])
    assert (callback.slot_of(d), callback.slot_of(a)) == (0, 2)
    assert callback.get_memories([0, 1, 2]) == (ErrorStatus.NONE, [d, b, a])
    assert callback.slot_of(c) == 3
    for memory in (a, b, c, d):
        memory.close()


# ---------------------------------------------------------------------------
# The server helper, with a recording executor instead of a driver
# ---------------------------------------------------------------------------


class _Executor:
    """Records each request (with its pools' bytes) and answers what it is told."""

    def __init__(self, answer=None) -> None:
        self.calls: list[tuple[Request, int, list[bytes]]] = []
        self.answer = answer or (ErrorStatus.NONE, [OutputShape((1,), True)], NO_TIMING)

    def __call__(self, request: Request, measure: MeasureTiming):
        contents = []
        for pool in request.pools:
            with map_memory(pool) as mapping:
                contents.append(mapping.read(0, pool.size))
        self.calls.append((request, measure, contents))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.fixture
def pools():
    made = [allocate_with("ashmem", b"input"), allocate_with("ashmem", b"outp")]
    yield made
    for pool in made:
        pool.close()


def _simple_request(pools) -> Request:
    return Request(
        [RequestArgument(False, DataLocation(0, 0, 5), [])],
        [RequestArgument(False, DataLocation(1, 0, 4), [])],
        list(pools),
    )


class _Prepared:
    """Stands for a driver's prepared model: serves bursts with ``configure_burst``."""

    def __init__(self, execute, memories: IBurstCallback | None = None) -> None:
        self.execute = execute
        self.memories = memories
        self.context: BurstContext | None = None

    def configure_execution_burst(self, callback, request_channel, result_channel):
        status, self.context = configure_burst(
            self.memories or callback, request_channel, result_channel, self.execute
        )
        return status, self.context


@pytest.fixture
def burst():
    controllers = []

    def make(execute, result_length: int = 1024, memories=None):
        controller = BurstController(result_length=result_length)
        controllers.append(controller)
        prepared = _Prepared(execute, memories)
        assert controller.configure(prepared)[0] == ErrorStatus.NONE
        return controller, prepared

    yield make
    for controller in controllers:
        controller.close()


def test_an_execution_reaches_the_executor_with_duplicated_memories(burst, pools) -> None:
    executor = _Executor()
    controller, _ = burst(executor)
    result = controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    assert (result.status, result.output_shapes, result.timing) == (
        ErrorStatus.NONE,
        [OutputShape((1,), True)],
        NO_TIMING,
    )
    request, measure, contents = executor.calls[0]
    assert measure == MeasureTiming.NO and contents == [b"input", b"outp"]
    assert request.inputs == _simple_request(pools).inputs
    theirs = {fd for pool in request.pools for fd in pool.handle.fds}
    ours = {fd for pool in pools for fd in pool.handle.fds}
    assert not theirs & ours  # the server holds descriptors of its own


def test_memories_are_fetched_once_per_slot_until_freed(burst, pools) -> None:
    controller, prepared = burst(_Executor())
    for _ in range(4):
        controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    assert controller.callback.requests == [(0, 1)]
    assert prepared.context.server.cache.fetches == 2
    assert controller.free_memory(pools[1]) == 1
    assert 1 not in prepared.context.server.cache and 0 in prepared.context.server.cache
    controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    assert controller.callback.requests == [(0, 1), (2,)]
    prepared.context.free_memory(12345)  # unknown: ignored


def test_a_freed_memory_closes_the_servers_duplicate(burst, pools) -> None:
    executor = _Executor()
    controller, _ = burst(executor)
    controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    duplicate = executor.calls[0][0].pools[0]
    fd = duplicate.handle.fds[0]
    assert fd not in pools[0].handle.fds
    controller.free_memory(pools[0])
    assert duplicate.handle.fds == []  # closed


def test_measured_timing_is_the_servers_and_orders_device_before_driver(burst, pools) -> None:
    executor = _Executor((ErrorStatus.NONE, [], Timing(10**9, 10**9)))
    controller, _ = burst(executor)
    timed = controller.compute(_simple_request(pools), MeasureTiming.YES, WAIT)
    assert timed.timing.time_in_driver != UINT64_MAX
    assert timed.timing.time_on_device == timed.timing.time_in_driver  # clamped
    executor.answer = (ErrorStatus.NONE, [], NO_TIMING)
    unmeasured = controller.compute(_simple_request(pools), MeasureTiming.YES, WAIT)
    assert unmeasured.timing.time_on_device == UINT64_MAX
    assert unmeasured.timing.time_in_driver != UINT64_MAX
    untimed = controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    assert untimed.timing == NO_TIMING


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        (RuntimeError("driver bug"), ErrorStatus.GENERAL_FAILURE),
        ("not a tuple", ErrorStatus.GENERAL_FAILURE),
        ((17, [], NO_TIMING), ErrorStatus.GENERAL_FAILURE),
        ((ErrorStatus.NONE, [(1,)], NO_TIMING), ErrorStatus.GENERAL_FAILURE),
        ((ErrorStatus.NONE, [OutputShape((2**32,), True)], NO_TIMING), ErrorStatus.GENERAL_FAILURE),
        ((ErrorStatus.NONE, [], None), ErrorStatus.GENERAL_FAILURE),
        ((ErrorStatus.GENERAL_FAILURE, [OutputShape((1,), True)], NO_TIMING), 2),
        ((ErrorStatus.INVALID_ARGUMENT, [], Timing(1, 2)), ErrorStatus.INVALID_ARGUMENT),
    ],
)
def test_an_executor_out_of_protocol_becomes_a_clean_failure(burst, pools, answer, status):
    controller, _ = burst(_Executor(answer))
    result = controller.compute(_simple_request(pools), MeasureTiming.YES, WAIT)
    assert (result.status, result.output_shapes, result.timing) == (status, [], NO_TIMING)


def test_a_malformed_packet_gets_invalid_argument_and_the_burst_goes_on(burst, pools) -> None:
    controller, _ = burst(_Executor())
    controller.send(encode_request(_GOOD[:-1]), WAIT)
    answer = deserialize_result(decode_result(controller.receive(WAIT)))
    assert answer == (ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING)
    assert controller.compute(_simple_request(pools), 0, WAIT).status == ErrorStatus.NONE


def test_a_request_the_packet_cannot_carry_is_refused_before_sending(burst, pools) -> None:
    executor = _Executor()
    controller, _ = burst(executor)
    request = _simple_request(pools)
    request.inputs[0].dimensions = [2**32]
    with pytest.raises(ValueError, match=r"^INPUT_OPERAND_DIMENSION_VALUE datum 4294967296: "):
        controller.compute(request, MeasureTiming.NO, WAIT)
    assert controller.requests.available_to_read() == 0
    request.inputs[0].dimensions = []
    assert controller.compute(request, MeasureTiming.NO, WAIT).status == ErrorStatus.NONE
    assert len(executor.calls) == 1


class _Memories(IBurstCallback):
    def __init__(self, answer) -> None:
        self.answer = answer

    def get_memories(self, slots):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ((ErrorStatus.INVALID_ARGUMENT, []), ErrorStatus.INVALID_ARGUMENT),
        ((ErrorStatus.GENERAL_FAILURE, []), ErrorStatus.GENERAL_FAILURE),
        (KeyError("boom"), ErrorStatus.GENERAL_FAILURE),
        ((ErrorStatus.NONE, []), ErrorStatus.GENERAL_FAILURE),
        ((ErrorStatus.NONE, ["memory", "memory"]), ErrorStatus.GENERAL_FAILURE),
        ("junk", ErrorStatus.GENERAL_FAILURE),
    ],
)
def test_failing_get_memories_fails_the_execution(burst, pools, answer, status) -> None:
    executor = _Executor()
    controller, _ = burst(executor, memories=_Memories(answer))
    result = controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    assert (result.status, result.output_shapes, result.timing) == (status, [], NO_TIMING)
    assert executor.calls == []


def test_a_result_too_long_for_its_channel_becomes_a_short_failure(burst, pools) -> None:
    executor = _Executor((ErrorStatus.NONE, [OutputShape((1, 2), True)], NO_TIMING))
    controller, _ = burst(executor, result_length=4)
    result = controller.compute(_simple_request(pools), MeasureTiming.NO, WAIT)
    assert (result.status, result.output_shapes) == (ErrorStatus.GENERAL_FAILURE, [])
    assert len(result.raw) == 2 * 24
    executor.answer = (ErrorStatus.NONE, [OutputShape((1,), True)], NO_TIMING)
    assert controller.compute(_simple_request(pools), 0, WAIT).status == ErrorStatus.NONE


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        (("callback", "channel", "channel"), "callback"),
        ((None, "channel", "channel"), "request channel"),
        ((None, None, "channel"), "result channel"),
        ((None, None, "tiny"), "result channel of 1"),
    ],
)
def test_configure_refuses_bad_arguments(arguments, why: str) -> None:
    with BurstController() as good, BurstController(result_length=1) as tiny:
        given = {
            None: None,
            "callback": "not a callback",
            "channel": "not a channel",
            "tiny": tiny.results.descriptor,
        }
        callback, requests, results = arguments
        answer = configure_burst(
            given[callback] if callback else good.callback,
            given[requests] if requests else good.requests.descriptor,
            given[results] if results else good.results.descriptor,
            _Executor(),
        )
    assert answer == (ErrorStatus.INVALID_ARGUMENT, None), why


def _server_stops(prepared: _Prepared) -> bool:
    return prepared.context.server.join(WAIT)


def test_the_server_stops_when_the_client_closes(burst, pools) -> None:
    controller, prepared = burst(_Executor())
    controller.compute(_simple_request(pools), 0, WAIT)
    controller.close()
    assert _server_stops(prepared)


def test_the_server_stops_when_its_context_is_released_or_collected(pools) -> None:
    with BurstController() as controller:
        prepared = _Prepared(_Executor())
        controller.configure(prepared)
        server = prepared.context.server
        prepared.context.release()
        assert server.join(WAIT)
        with pytest.raises(BurstError, match=r"^the request channel was shut down$"):
            controller.compute(_simple_request(pools), 0, WAIT)
    with BurstController() as controller:
        prepared = _Prepared(_Executor())
        controller.configure(prepared)
        server = prepared.context.server
        controller.context = prepared.context = None
        gc.collect()
        assert server.join(WAIT)


def test_a_server_blocked_on_a_client_that_stopped_reading_stops_on_release(pools) -> None:
    executed = threading.Semaphore(0)

    def execute(request, measure):
        executed.release()
        return ErrorStatus.NONE, [], NO_TIMING

    with BurstController(result_length=2) as controller:
        prepared = _Prepared(execute)
        controller.configure(prepared)
        slots = [controller.callback.slot_of(pool) for pool in pools]
        packet = encode_request(serialize_request(_simple_request(pools), 0, slots))
        for _ in range(2):  # the second result finds the channel full of the first
            controller.send(packet, WAIT)
            assert executed.acquire(timeout=WAIT)
        assert prepared.context.server.running
    assert _server_stops(prepared)


def _listeners() -> set[str]:
    return {t.name for t in threading.enumerate() if t.name.startswith("nnhal-burst")}


def test_a_later_burst_is_served_on_a_thread_an_ended_one_left(burst, pools) -> None:
    served_on = []

    def execute(request, measure):
        served_on.append(threading.current_thread().name)
        return ErrorStatus.NONE, [], NO_TIMING

    listeners = []
    for _ in range(2):
        controller, prepared = burst(execute)
        assert controller.compute(_simple_request(pools), 0, WAIT).status == ErrorStatus.NONE
        controller.close()
        assert _server_stops(prepared)
        assert not prepared.context.server.running
        listeners.append(_listeners())
    assert listeners[1] == listeners[0]  # no thread was started for the second burst
    assert served_on[1] in listeners[0]


def test_a_server_starts_once(burst) -> None:
    _, prepared = burst(_Executor())
    with pytest.raises(RuntimeError, match=r"^a burst server can only be started once$"):
        prepared.context.server.start()


# ---------------------------------------------------------------------------
# The reference driver
# ---------------------------------------------------------------------------


def test_the_reference_driver_serves_bursts_with_cached_memories() -> None:
    from conformance.harness.mutations import case_id, corpus
    from conformance.harness.requests import pack_request
    from conformance.harness.runner import prepare_case
    from hal.types import HalVersion
    from reference_driver import ReferenceDriver

    test = next(t for t in corpus() if case_id(t) == "V1_0/add/none")
    prepared = prepare_case(ReferenceDriver(), test.model, HalVersion.V1_2, WAIT)
    feed = test.feeds[0]
    with pack_request(test.model, feed.inputs, [o.nbytes for o in feed.outputs]) as packed:
        with BurstController() as controller:
            status, context = controller.configure(prepared)
            assert status == ErrorStatus.NONE and isinstance(context, BurstContext)
            for _ in range(3):
                result = controller.compute(packed.request, MeasureTiming.NO, WAIT)
                assert result.status == ErrorStatus.NONE
                assert result.output_shapes == [OutputShape(feed.outputs[0].shape, True)]
                assert packed.output(0, feed.outputs[0].shape).tolist() == feed.outputs[0].tolist()
            assert controller.callback.requests == [(0, 1)]
        assert context.server.join(WAIT)


# ---------------------------------------------------------------------------
# The harness's burst sample under the ci profile
# ---------------------------------------------------------------------------


def test_burst_paths_run_on_a_stable_share_of_cases_under_ci_only() -> None:
    from conformance.harness.execution import CI_BURST_SHARE, PATHS_BY_ID, runs_under
    from conformance.harness.mutations import case_id, corpus

    cases = sorted({case_id(t) for t in corpus()})
    burst, sync = PATHS_BY_ID["burst-timed"], PATHS_BY_ID["sync"]
    assert all(runs_under(burst, c, "full") and runs_under(burst, c, "thorough") for c in cases)
    assert all(runs_under(sync, c, "ci") for c in cases)
    chosen = [c for c in cases if runs_under(burst, c, "ci")]
    assert len(cases) / (2 * CI_BURST_SHARE) < len(chosen) < 2 * len(cases) / CI_BURST_SHARE
    assert chosen == [c for c in cases if runs_under(PATHS_BY_ID["burst"], c, "ci")]


# ---------------------------------------------------------------------------
# The harness's burst path: protocol breaches fail the test, naming the method
# ---------------------------------------------------------------------------


class _Garbling(BurstServer):
    def _send(self, status, shapes, timing) -> None:
        self._results.write(b"\x09" + bytes(23))


class _Mute(BurstServer):
    def _send(self, status, shapes, timing) -> None:
        pass


class _Burster:
    """A prepared model whose burst answers as told."""

    def __init__(self, answer) -> None:
        self.answer = answer

    def configure_execution_burst(self, callback, request_channel, result_channel):
        if isinstance(self.answer, type):
            server = self.answer(callback, request_channel, result_channel, _Executor())
            server.start()
            return ErrorStatus.NONE, BurstContext(server)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (
            (ErrorStatus.GENERAL_FAILURE, None),
            "configure_execution_burst answered GENERAL_FAILURE with None; it must succeed "
            "with an IBurstContext (bursts are mandatory at HAL 1.2)",
        ),
        (
            (ErrorStatus.NONE, "context"),
            "configure_execution_burst answered NONE with 'context'; it must succeed with an "
            "IBurstContext (bursts are mandatory at HAL 1.2)",
        ),
        (
            ErrorStatus.NONE,
            "configure_execution_burst returned <ErrorStatus.NONE: 0>; expected (ErrorStatus, "
            "IBurstContext)",
        ),
        (RuntimeError("boom"), "_Burster.configure_execution_burst raised RuntimeError: boom"),
        (_Mute, "burst (MeasureTiming NO): the driver sent no result packet within 0.05 s"),
        (
            _Garbling,
            "burst (MeasureTiming NO): the driver's result packet is malformed: datum 0: "
            "unknown discriminator 9",
        ),
    ],
)
def test_the_burst_path_fails_on_protocol_breaches(pools, answer, message: str) -> None:
    from conformance.harness.execution import PATHS_BY_ID, run

    with pytest.raises(pytest.fail.Exception) as info:
        run(_Burster(answer), _simple_request(pools), PATHS_BY_ID["burst"], 0.05)
    assert str(info.value) == message
