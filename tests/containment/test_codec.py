"""The wire format (isolation/codec.py) and what the channel does with frames that break it.

Round trips check that every HAL record and enum, and a typical Model and
Request, arrive as they left (same types, same values). The attacks are
frames written by hand (msgpack with the format's tag numbers, or raw bytes),
sent to a harness-side ``Connection`` while a call waits: each must end the
call with a ``MalformedAnswer`` naming the rule, change nothing in the
harness, and leave a ``DriverService`` able to restart and answer.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import msgpack
import numpy as np
import pytest

from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal import types
from hal.fmq import FmqDescriptor
from hal.interfaces import IBuffer, IExecutionCallback
from hal.memory import Memory, NativeHandle
from hal.types import (
    NO_TIMING,
    BufferDesc,
    BufferRole,
    Capabilities_1_0,
    Capabilities_1_1,
    Capabilities_1_2,
    Capabilities_1_3,
    DataLocation,
    ErrorStatus,
    Extension,
    ExtensionNameAndPrefix,
    ExtensionParams,
    Model,
    Operand,
    OperandLifeTime,
    OperandPerformance,
    OperandType,
    OperandTypeInformation,
    Operation,
    OperationType,
    OutputShape,
    PerformanceInfo,
    Request,
    RequestArgument,
    Subgraph,
    SymmPerChannelQuantParams,
    Timing,
)
from isolation import channel as channel_module
from isolation import codec
from isolation import proxy as proxy_module
from isolation.channel import (
    Channel,
    ChannelClosed,
    Connection,
    DriverCrashed,
    DriverTimeout,
    MalformedAnswer,
    Opaque,
    ReceivedHandle,
    RemoteError,
    _Pending,
    oneway_methods,
    remote_error,
)
from isolation.proxy import DriverService, make_remote_proxy

TIMEOUT = 10.0
HEADER = struct.Struct("<QI")
WIRE_DRIVERS = Path(__file__).resolve().parents[1] / "support" / "wire_drivers.py"

# Tags of the format, as its docstring lists them (written out: the tests are the spec).
LIST, TUPLE, DICT, BIGINT, NDARRAY, HANDLE, OBJECT, OPAQUE = 0, 1, 2, 6, 8, 10, 11, 13
CALL, RETURN, HELLO, BATCH = 16, 17, 20, 22


def _round_trip(value: object) -> object:
    """``value`` encoded and decoded, in this process (descriptors stay the same numbers)."""
    body, fds = codec.encode(codec.Hello(value), None, is_open=lambda fd: True)
    return codec.Decoder(fds, None).decode(body).value


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------

_INFO = PerformanceInfo(0.5, 2.25)
_OPERAND_INFO = OperandTypeInformation(3, True, 4)
SAMPLES = [
    _INFO,
    OperandPerformance(OperandType.TENSOR_QUANT8_ASYMM, _INFO),
    Capabilities_1_0(_INFO, PerformanceInfo(1.0, 1.0)),
    Capabilities_1_1(_INFO, _INFO, PerformanceInfo(0.125, 8.0)),
    Capabilities_1_2(_INFO, _INFO, (OperandPerformance(OperandType.FLOAT32, _INFO),)),
    Capabilities_1_3(_INFO, _INFO, (OperandPerformance(OperandType.FLOAT32, _INFO),), _INFO, _INFO),
    DataLocation(1, 16, 32),
    SymmPerChannelQuantParams((0.5, 0.25, 0.125), 3),
    ExtensionParams(b"\x00\xff\x10"),
    Operand(
        OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
        [3, 1, 1, 2],
        2,
        0.0,
        0,
        OperandLifeTime.CONSTANT_COPY,
        DataLocation(0, 8, 6),
        SymmPerChannelQuantParams((0.5, 0.25, 0.125), 0),
    ),
    Operation(OperationType.CONV_2D, [0, 1, 2, 3], [4]),
    ExtensionNameAndPrefix("com.example.ext", 7),
    Model(
        [Operand(OperandType.TENSOR_FLOAT32, [2]), Operand(OperandType.TENSOR_FLOAT32, [2])],
        [Operation(OperationType.FLOOR, [0], [1])],
        [0],
        [1],
        b"",
        [],
        True,
        [ExtensionNameAndPrefix("com.example.ext", 1)],
        [
            Subgraph(
                [Operand(OperandType.INT32)], [Operation(OperationType.ADD, [0, 0], [0])], [0], [0]
            )
        ],
    ),
    Subgraph([Operand(OperandType.TENSOR_FLOAT32, [1])], [], [0], [0]),
    RequestArgument(True, DataLocation(0, 0, 0), [1, 2]),
    Request([RequestArgument(False, DataLocation(0, 0, 4), [])], [], [5]),
    BufferDesc((2, 0, 3)),
    BufferRole(1, 0, 0.5),
    OutputShape((4, 5), False),
    Timing(12, 34),
    _OPERAND_INFO,
    Extension("com.example.ext", (_OPERAND_INFO,)),
    Memory("hardware_buffer_blob", NativeHandle([5, 6], [7, -8]), 4096),
    Memory("ashmem", None, 0),
    FmqDescriptor(NativeHandle([3, 4, 5], []), 16, 64),
]


def _same(left: object, right: object) -> None:
    """Equal, and of the same types all the way down (an enum stays that enum)."""
    assert type(left) is type(right), (left, right)
    if isinstance(left, list | tuple):
        assert len(left) == len(right)
        for a, b in zip(left, right, strict=True):
            _same(a, b)
    elif hasattr(left, "__dataclass_fields__"):
        for name in left.__dataclass_fields__:
            _same(getattr(left, name), getattr(right, name))
    else:
        assert left == right


def test_the_samples_cover_every_record_of_the_schema() -> None:
    records = {
        value
        for value in vars(types).values()
        if isinstance(value, type)
        and value.__module__ == types.__name__
        and hasattr(value, "__dataclass_fields__")
    }
    assert {type(sample) for sample in SAMPLES} == records | {Memory, FmqDescriptor}
    assert {schema.cls for schema in codec.RECORDS} == records | {Memory, FmqDescriptor}


@pytest.mark.parametrize("sample", SAMPLES, ids=[type(s).__name__ for s in SAMPLES])
def test_every_hal_record_arrives_as_it_left(sample) -> None:
    _same(_round_trip(sample), sample)


def test_every_hal_enum_member_arrives_as_itself() -> None:
    members = [member for cls in codec.ENUMS for member in cls]
    assert len(codec.ENUMS) == 16 and len(members) > 150
    assert all(a is b for a, b in zip(_round_trip(members), members, strict=True))


def test_a_record_goes_compact_only_when_its_fields_hold_what_the_schema_expects() -> None:
    usual = Operand(OperandType.TENSOR_FLOAT32, [2, 3], lifetime=OperandLifeTime.MODEL_INPUT)
    odd = [
        Operand(0x10001, [2]),  # an extension's type: a plain int
        Operand(OperandType.INT32, (2, 3)),  # a tuple where a list is declared
        Operand(OperandType.INT32, [], lifetime=2),  # a plain int lifetime
        Operation(OperationType.ADD, [0, 1, 2], (3,)),
    ]
    body, _ = codec.encode(codec.Hello([usual, *odd]))
    tags = [node[0] for node in msgpack.unpackb(body)[1][1:]]
    assert tags[0] == codec._COMPACT_KINDS[Operand][0]
    assert tags[1:] == [32 + [r.cls for r in codec.RECORDS].index(type(v)) for v in odd]
    back = _round_trip([usual, *odd])
    _same(back, [usual, *odd])  # the values and their exact types
    assert back[0].type is OperandType.TENSOR_FLOAT32 and type(back[0].dimensions) is list


def _field_nodes(sample: object) -> tuple[codec.RecordSchema, list]:
    """The schema of ``sample``'s record and its fields as the encoder writes them."""
    schema = next(s for s in codec.RECORDS if s.cls is type(sample))
    encoder = codec.Encoder(None, is_open=lambda fd: True)
    return schema, [encoder._value(getattr(sample, name), 1) for name in schema.names]


def _refusal(node: list) -> str:
    with pytest.raises(codec.MalformedMessage) as refused:
        codec.Decoder([0, 1, 2, 3], None).decode(msgpack.packb([HELLO, node]))
    return str(refused.value)


HELLO = 16 + codec.ENVELOPES.index(codec.Hello)
_EVIL = [OPAQUE, "Evil", "x"]
"""A value no record field accepts."""
_FIELDS = [(sample, i) for sample in SAMPLES for i in range(len(_field_nodes(sample)[1]))]


@pytest.mark.parametrize(
    ("sample", "index"),
    _FIELDS,
    ids=[f"{type(s).__name__}.{_field_nodes(s)[0].names[i]}" for s, i in _FIELDS],
)
def test_every_field_of_every_record_refuses_a_value_of_another_type(sample, index) -> None:
    """Each record's decoder (written out from the schema at import) checks each field,
    in both layouts, and names the record, the field and the type it wanted."""
    schema, nodes = _field_nodes(sample)
    name, wanted = schema.names[index], schema.types[index].text
    regular = [schema.tag, *nodes]
    regular[index + 1] = _EVIL
    assert _refusal(regular) == f"holds {schema.cls.__name__}.{name} of type Evil (x), not {wanted}"
    compact = codec._COMPACT_KINDS.get(schema.cls)
    if compact is None:
        return
    kinds = compact[1]
    values = [getattr(sample, n) for n in schema.names]
    if not all(k is None or type(v) is k for v, k in zip(values, kinds, strict=True)):
        pytest.skip("this sample does not fit the compact layout")
    body = [compact[0]]  # enum fields as bare values, sequence fields as bare arrays
    for value, node, kind in zip(values, nodes, kinds, strict=True):
        body.append(node if kind is None else node[1:] if kind in (list, tuple) else value.value)
    decoded = codec.Decoder([0, 1, 2, 3], None).decode(msgpack.packb([HELLO, body])).value
    _same(decoded, sample)
    kind = kinds[index]
    if kind is None:
        body[index + 1], tail = _EVIL, f"of type Evil (x), not {wanted}"
    elif kind in (list, tuple):
        body[index + 1], tail = "Evil", "of type str, not a sequence"
    else:
        body[index + 1], tail = "Evil", f"'Evil', which is no {kind.__name__}"
    assert _refusal(body) == f"holds {schema.cls.__name__}.{name} {tail}"


def test_a_record_that_cannot_go_compact_encodes_its_fields_once() -> None:
    """The layout is chosen before any field is encoded: a remote object in a field is
    exported once even when a later field sends the record in the ordinary layout."""
    asked = []

    class Peer:
        def reference(self, obj):
            asked.append(obj)
            return ("obj", 7, ("IBuffer",), "Buffer")

        def resolve(self, pid):
            return pid

    buffer = object()
    capabilities = Capabilities_1_2(buffer, _INFO, [])  # a list where a tuple is declared
    codec.encode(codec.Hello(capabilities), Peer())
    assert asked == [buffer]


def test_plain_values_keep_their_types() -> None:
    value = (
        None,
        True,
        -(1 << 63),
        (1 << 64) - 1,
        1 << 100,
        -(10**40),
        1.5,
        float("inf"),
        complex(1, -2),
        "text \u00e9 \udcff",
        b"\x00raw",
        bytearray(b"mutable"),
        [1, [2, (3,)]],
        {"k": 1, 2: "v", (3, 4): None},
        {1, 2},
        frozenset({"a"}),
    )
    _same(_round_trip(value), value)


@pytest.mark.parametrize("dtype", sorted(codec.DTYPES))
def test_numpy_arrays_and_scalars_of_the_allowed_dtypes_cross(dtype) -> None:
    array = (np.arange(12) % 2 if dtype == "|b1" else np.arange(12)).astype(dtype).reshape(3, 4)
    back = _round_trip([array, array[1, 2], np.asfortranarray(array)])
    assert [b.dtype.str for b in back] == [dtype] * 3
    assert back[0].shape == (3, 4) and back[0].tolist() == array.tolist()
    assert back[1] == array[1, 2] and isinstance(back[1], np.generic)
    assert back[2].tolist() == array.tolist()
    back[0][0, 0] = 1  # a writable array of its own


def test_numpy_values_of_other_dtypes_arrive_opaque() -> None:
    big_endian = np.arange(3, dtype=">f4")
    back = _round_trip([big_endian, np.array(["a"], dtype=object)])
    assert back[0] == Opaque("ndarray", "array([0., 1., 2.], dtype='>f4')")
    assert back[1] == Opaque("ndarray", "array(['a'], dtype=object)")


def test_a_value_of_no_hal_type_arrives_with_a_bounded_repr() -> None:
    class Verdict:
        def __repr__(self) -> str:
            return "<Verdict: " + "fine " * 100 + ">"

    back = _round_trip(Verdict())
    assert back.type_name == (
        "test_a_value_of_no_hal_type_arrives_with_a_bounded_repr.<locals>.Verdict"
    )
    assert len(back.text) == 200 and back.text == ("<Verdict: " + "fine " * 100)[:197] + "..."


@contextlib.contextmanager
def _connected_pair():
    """Two started Connections over a socket pair: ``(near, far)``, closed afterwards."""
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    far = Connection(far_socket, "far", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    far.start()
    try:
        yield near, far
    finally:
        near.close()
        far.close()


def test_a_typical_model_and_request_cross_a_real_channel() -> None:
    model = binary_model(dims=(2, 3))
    a = np.ones((2, 3), np.float32)
    with _connected_pair() as (near, far), pack_request(model, [a, a]) as packed:
        far.send_hello((model, packed.request))
        got_model, got_request = near.wait_hello(TIMEOUT)
        _same(got_model, model)
        _same(got_request.inputs, packed.request.inputs)
        _same(got_request.outputs, packed.request.outputs)
        for sent, got in zip(packed.request.pools, got_request.pools, strict=True):
            assert (got.name, got.size) == (sent.name, sent.size)
            assert isinstance(got.handle, ReceivedHandle)
            assert got.handle.fds != sent.handle.fds  # our own copies of the descriptors
            assert os.fstat(got.handle.fds[0]).st_ino == os.fstat(sent.handle.fds[0]).st_ino


class _Buffer(IBuffer):
    """A remote object whose every method answers at once."""

    def copy_to(self, memory):
        return ErrorStatus.NONE

    def copy_from(self, memory, dimensions):
        return ErrorStatus.NONE

    def release(self):
        pass


def test_a_big_integer_beside_a_remote_object_exports_it_once() -> None:
    buffer = _Buffer()
    with _connected_pair() as (near, far):
        far.send_hello((buffer, 1 << 70))
        proxy, big = near.wait_hello(TIMEOUT)
        assert big == 1 << 70 and proxy.copy_to(None) == ErrorStatus.NONE
        assert far._exports[proxy._nnhal_link.remote_id][1] == 1  # sent once, counted once


def test_a_caller_reads_its_own_answer_with_no_reader_thread() -> None:
    """The near end never starts its background reader: a call still gets its answer,
    read by the calling thread itself (no hop between threads on the way back)."""
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "unstarted", make_remote_proxy, timeout=TIMEOUT)
    far = Connection(far_socket, "far", make_remote_proxy, timeout=TIMEOUT)
    far.start()
    try:
        remote_id = far.export(_Buffer())
        proxy = make_remote_proxy(near, remote_id, ("IBuffer",), "_Buffer")
        assert [proxy.copy_to(None) for _ in range(3)] == [ErrorStatus.NONE] * 3
        assert not any(t.name.startswith("unstarted") for t in threading.enumerate())
    finally:
        near.close()
        far.close()


class _Gate(IBuffer):
    """``copy_to`` waits until ``copy_from`` has been called (by another call)."""

    def __init__(self) -> None:
        self.opened = threading.Event()

    def copy_to(self, memory):
        return ErrorStatus.NONE if self.opened.wait(TIMEOUT) else ErrorStatus.GENERAL_FAILURE

    def copy_from(self, memory, dimensions):
        self.opened.set()
        return ErrorStatus.NONE

    def release(self):
        pass


def test_a_call_is_served_while_an_earlier_one_still_runs() -> None:
    """The thread serving a call hands the reading on first: a second call is read and
    served while the first waits for it."""
    gate = _Gate()
    with _connected_pair() as (near, far):
        far.send_hello(gate)
        proxy = near.wait_hello(TIMEOUT)
        answers: list = []
        first = threading.Thread(target=lambda: answers.append(proxy.copy_to(None)))
        first.start()
        assert proxy.copy_from(None, []) == ErrorStatus.NONE
        first.join(TIMEOUT)
        assert answers == [ErrorStatus.NONE]


class _Recorder(IBuffer):
    """Records each call's argument; ``copy_from`` sleeps for the seconds it is given."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, object, str]] = []

    def copy_to(self, memory):
        self.seen.append(("copy_to", memory, threading.current_thread().name))
        if memory == "raise":
            raise ValueError("refused")
        return ErrorStatus.NONE

    def copy_from(self, memory, dimensions):
        self.seen.append(("copy_from", memory, threading.current_thread().name))
        time.sleep(dimensions[0])
        return ErrorStatus.NONE

    def release(self):
        pass


@contextlib.contextmanager
def _recorded():
    """A connected pair whose far end holds a ``_Recorder``: ``near`` (the calling end),
    ``recorder``, ``target`` (its id at the far end) and ``proxy`` (its proxy here)."""
    recorder = _Recorder()
    with _connected_pair() as (near, far):
        far.send_hello(recorder)
        proxy = near.wait_hello(TIMEOUT)
        yield SimpleNamespace(
            near=near, recorder=recorder, target=proxy._nnhal_link.remote_id, proxy=proxy
        )


def test_a_sequence_runs_in_order_on_one_thread_and_shares_its_arguments() -> None:
    shared = [1, 2, 3]
    with _recorded() as r:
        calls = [(r.target, "copy_to", (shared,)), (r.target, "copy_to", ("raise",))]
        calls += [(r.target, "copy_to", (shared,)), (r.target, "copy_from", (None, [0]))]
        outcomes = r.near.call_sequence(calls, TIMEOUT)
    assert [ok for ok, _ in outcomes] == [True, False, True, True]
    assert outcomes[0][1] == ErrorStatus.NONE
    assert type(outcomes[1][1]).__name__ == "ValueError" and "refused" in str(outcomes[1][1])
    assert [name for name, _, _ in r.recorder.seen] == ["copy_to"] * 3 + ["copy_from"]
    assert len({thread for _, _, thread in r.recorder.seen}) == 1
    assert r.recorder.seen[0][1] == shared and r.recorder.seen[0][1] is r.recorder.seen[2][1]


def test_the_answers_of_a_sequence_come_back_in_one_frame() -> None:
    """The far end holds back a sequence's answers and sends them together when it ends."""
    with _recorded() as r:
        frames: list = []
        receive = r.near._channel.receive

        def counted(deadline=None):
            frame = receive(deadline)
            if frame is not None:
                frames.append(codec.decode(bytes(frame[0])))
            return frame

        r.near._channel.receive = counted
        outcomes = r.near.call_sequence(
            [(r.target, "copy_to", (i,)) for i in range(5)] + [(r.target, "copy_to", ("raise",))],
            TIMEOUT,
        )
    assert [ok for ok, _ in outcomes] == [True] * 5 + [False]
    assert len(frames) == 1 and type(frames[0]) is codec.Batch
    assert [type(m).__name__ for m in frames[0].messages] == ["Return"] * 5 + ["Raise"]


def test_a_caller_whose_wait_runs_out_asks_for_the_answers_held_back() -> None:
    """The second call of a sequence outlasts the timeout: the caller asks for what is held
    when the wait runs out, has the first answer then, long before the second call ends,
    and the second call, answered within the timeout of the first answer, is no hang."""
    with _recorded() as r:
        pending: list = []
        original = r.near._await

        def timed(entry, deadline):
            done = original(entry, deadline)
            pending.append((entry.method, done, time.monotonic()))
            return done

        r.near._await = timed
        start = time.monotonic()
        outcomes = r.near.call_sequence(
            [(r.target, "copy_to", (0,)), (r.target, "copy_from", (0, [0.8]))], 0.5
        )
    assert outcomes == [(True, ErrorStatus.NONE), (True, ErrorStatus.NONE)]
    (first, _, _), (_, first_done, first_at) = pending[:2]
    assert (first, first_done) == ("copy_to", True)
    assert first_at - start < 0.75 < pending[-1][2] - start


def test_a_call_hanging_in_a_sequence_ends_it_with_a_timeout_naming_that_call() -> None:
    with _recorded() as r:
        calls = [(r.target, "copy_to", (0,)), (r.target, "copy_from", (0, [3.0]))]
        calls.append((r.target, "copy_to", (1,)))
        outcomes = r.near.call_sequence(calls, 0.5)
    assert len(outcomes) == 2 and outcomes[0] == (True, ErrorStatus.NONE)  # asked for, at 0.5 s
    assert isinstance(outcomes[1][1], DriverTimeout)
    assert str(outcomes[1][1]) == "driver call copy_from did not return within 0.5 s (hang)"


def test_sequences_and_calls_from_several_threads_all_get_their_answers() -> None:
    """Sequences of slow calls from two threads and single calls from a third overlap:
    every one is answered (the reading passes between callers and readers)."""
    with _recorded() as r:

        def sequences() -> None:
            for _ in range(40):
                r.near.call_sequence([(r.target, "copy_from", (0, [0.004]))] * 2, TIMEOUT)

        threads = [threading.Thread(target=sequences) for _ in range(2)]
        for thread in threads:
            thread.start()
        for _ in range(100):
            assert r.proxy.copy_to(None) == ErrorStatus.NONE
        for thread in threads:
            thread.join(TIMEOUT)
        assert not any(thread.is_alive() for thread in threads)
        assert r.proxy.copy_to(None) == ErrorStatus.NONE
    assert len(r.recorder.seen) == 2 * 40 * 2 + 101


def test_a_handle_met_twice_in_one_message_arrives_as_one_handle() -> None:
    """A memory several calls of a sequence share crosses once: its descriptor has one
    owner on the other side."""
    model = binary_model(dims=(2,))
    a = np.ones((2,), np.float32)
    with _connected_pair() as (near, far), pack_request(model, [a, a]) as packed:
        pool = packed.request.pools[0]
        far.send_hello([pool, pool, (pool.handle,)])
        first, second, (handle,) = near.wait_hello(TIMEOUT)
        assert first.handle is second.handle is handle
        assert os.fstat(handle.fds[0]).st_ino == os.fstat(pool.handle.fds[0]).st_ino


def test_a_sequence_naming_an_argument_it_lacks_refuses_that_call() -> None:
    with _recorded() as r:
        pending = [_Pending("copy_to"), _Pending("copy_to")]
        with r.near._lock:
            r.near._pending.update({901: pending[0], 902: pending[1]})
        r.near._send(
            codec.Calls([None], [(901, r.target, "copy_to", [5]), (902, r.target, "copy_to", [0])])
        )
        for entry in pending:
            assert r.near._await(entry, time.monotonic() + TIMEOUT)
        with r.near._lock:
            r.near._pending.clear()
    assert type(pending[0].value).__name__ == "LookupError"
    assert str(pending[0].value) == ("'copy_to (malformed arguments)' is not a method of IBuffer")
    assert pending[1].ok and pending[1].value == ErrorStatus.NONE
    assert r.recorder.seen == [("copy_to", None, r.recorder.seen[0][2])]


def test_a_frame_cut_by_a_deadline_is_finished_by_the_next_read() -> None:
    near_socket, far_socket = socket.socketpair()
    channel = Channel(near_socket)
    try:
        frame = _frame(b"0123456789")
        far_socket.sendall(frame[:15])  # the header and three bytes of the body
        with channel.reading:
            assert channel.receive(time.monotonic() + 0.05) is None
        far_socket.sendall(frame[15:])
        with channel.reading:
            assert channel.receive(time.monotonic() + TIMEOUT) == (bytearray(b"0123456789"), [])
            assert channel.receive(time.monotonic()) is None
    finally:
        channel.close()
        far_socket.close()
    with pytest.raises(ChannelClosed, match=r"^the channel is closed$"):
        channel.receive()


def test_nesting_up_to_the_limit_crosses() -> None:
    value: object = 1
    for _ in range(63):
        value = [value]
    assert _round_trip(value) == value
    with pytest.raises(codec.EncodeError, match="nested deeper than 64"):
        codec.encode(codec.Hello([value]))
    body = msgpack.packb([HELLO, _deep(64)])
    with pytest.raises(codec.MalformedMessage, match=r"^exceeds max nesting depth 64$"):
        codec.decode(body)
    assert codec.decode(msgpack.packb([HELLO, _deep(63)])).value == value


def test_the_encoder_bounds_what_it_sends() -> None:
    deep: list = []
    for _ in range(100):
        deep = [deep]
    with pytest.raises(codec.EncodeError, match="nested deeper than 64"):
        codec.encode(codec.Hello(deep))
    cyclic: list = []
    cyclic.append(cyclic)
    with pytest.raises(codec.EncodeError, match="nested deeper than 64"):
        codec.encode(codec.Hello(cyclic))
    with pytest.raises(codec.EncodeError, match="the message has over 100 values"):
        codec.encode(codec.Hello(list(range(101))), limits=codec.Limits(max_items=100))


def test_a_shared_container_counts_each_time_it_is_met() -> None:
    # 40 levels of a list holding itself twice: 2**41 values written out. Counting the
    # shared list once per meeting reaches the limit after 22 levels, not 2**22 calls.
    shared: list = [0]
    for _ in range(40):
        shared = [shared, shared]
    encoder = codec.Encoder(None)
    walks = [0]  # a count, not the lists: printed, they would be the attack itself
    container = encoder._container

    def counted(*args):
        walks[0] += 1
        return container(*args)

    encoder._container = counted
    with pytest.raises(codec.EncodeError, match=r"^the message has over 4194304 values$"):
        encoder.encode(codec.Hello(shared))
    assert walks[0] <= 42  # the Hello, then each of the 41 lists once at most
    # Shared below the limit, every meeting arrives as a copy of its own.
    dims = (2, 3)
    shapes = [OutputShape(dimensions=dims, is_sufficient=True)] * 3
    assert _round_trip([shapes, dims, {"a": dims}]) == [shapes, dims, {"a": dims}]
    small: list = [1]
    for _ in range(6):
        small = [small, small]
    with pytest.raises(codec.EncodeError, match="the message has over 100 values"):
        codec.encode(codec.Hello(small), limits=codec.Limits(max_items=100))


# ---------------------------------------------------------------------------
# Attacks on a harness-side connection
# ---------------------------------------------------------------------------


def _frame(body: bytes, fds: int = 0) -> bytes:
    return HEADER.pack(len(body), fds) + body


def _answer(value: object) -> bytes:
    """A frame answering call 1 with ``value`` (a msgpack tree written by hand)."""
    return _frame(msgpack.packb([RETURN, 1, value]))


class _Supervisor:
    """Stands for a DriverService: its presence makes the connection the harness's."""


def _attacked(data: bytes, close: bool = False, timeout: float = TIMEOUT):
    """A harness-side connection calling ``get_type`` while the far end sends ``data``:
    (the call's exception, the connection)."""
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=timeout, owner=_Supervisor())
    near.start()

    def attack() -> None:
        far_socket.recv(1 << 16)  # the call's frame
        far_socket.sendall(data)
        if close:
            far_socket.close()

    thread = threading.Thread(target=attack)
    thread.start()
    try:
        with pytest.raises((MalformedAnswer, DriverCrashed, DriverTimeout)) as caught:
            near.call(1, "get_type", (), timeout)
    finally:
        thread.join(TIMEOUT)
        if not close:
            far_socket.close()
    return caught.value, near


def _tag(cls: type) -> int:
    """The tag of record ``cls`` in the ordinary layout (records are numbered by name)."""
    return codec.RECORD_BASE + [r.cls for r in codec.RECORDS].index(cls)


def _compact(cls: type) -> int | None:
    """The compact layout's tag of record ``cls`` (None if it has none)."""
    kinds = codec._COMPACT_KINDS.get(cls)
    return kinds[0] if kinds else None


def _violation(rule: str) -> str:
    return f"protocol violation: driver answer {rule} during get_type"


def _deep(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [LIST, value]
    return value


ATTACKS = [
    ("deep nesting", _answer(_deep(65)), "exceeds max nesting depth 64"),
    (
        "msgpack's own depth limit",
        _frame(b"\x93\x11\x01" + b"\x92\x00" * 2000 + b"\x01"),
        "exceeds max nesting depth 64",
    ),
    ("unknown type tag", _answer([250, 1]), "holds unknown type tag 250"),
    ("an array with no tag", _answer([]), "holds an array without a type tag"),
    ("a tag that is no integer", _answer(["Memory", 1]), "holds an array whose type tag is a str"),
    (
        "an enum value that is no member",
        _answer([96 + codec.ENUMS.index(ErrorStatus), 99]),
        "holds ErrorStatus value 99, which is no member",
    ),
    (
        "an extra field (an attribute to set)",
        _answer([32 + [s.cls for s in codec.RECORDS].index(Timing), 1, 2, "__class__"]),
        "holds Timing with 3 fields; it has 2",
    ),
    (
        "a field of the wrong type",
        _answer([32 + [s.cls for s in codec.RECORDS].index(OutputShape), "abc", True]),
        "holds OutputShape.dimensions of type str, not tuple[int, ...]",
    ),
    (
        "a compact record with a field too many",
        _answer([_compact(Operation), 1, [], [], 4]),
        "holds Operation with 4 fields; it has 3",
    ),
    (
        "a compact enum field holding no member",
        _answer([_compact(Operation), 9999, [0], [1]]),
        "holds Operation.type 9999, which is no OperationType",
    ),
    (
        "a compact enum field holding a string",
        _answer(
            [
                _compact(Operand),
                "TENSOR_FLOAT32",
                [],
                0,
                0.0,
                0,
                0,
                [_tag(DataLocation), 0, 0, 0],
                None,
            ]
        ),
        "holds Operand.type 'TENSOR_FLOAT32', which is no OperandType",
    ),
    (
        "a compact sequence field holding no array",
        _answer([_compact(Operation), 0, 5, [1]]),
        "holds Operation.inputs of type int, not a sequence",
    ),
    (
        "a compact sequence of the wrong items",
        _answer([_compact(Operation), 0, ["a"], [1]]),
        "holds Operation.inputs of type list, not list[int]",
    ),
    (
        "a msgpack map naming attributes",
        _frame(msgpack.packb([RETURN, 1, {"__class__": "os.system"}])),
        "holds a msgpack map, which the schema has no use for",
    ),
    (
        "a msgpack extension type",
        _frame(msgpack.packb([RETURN, 1, msgpack.ExtType(1, b"x")])),
        "holds a msgpack extension value, which the schema has no use for",
    ),
    (
        "not an envelope",
        _frame(msgpack.packb([99, 1, 2])),
        "is not a message envelope but an array of 3 starting with 99",
    ),
    (
        "an array amplified by its shape",
        _answer([NDARRAY, "<f4", [1 << 30], b"\0" * 4]),
        "holds a numpy array of shape [1073741824] and dtype <f4 (4294967296 bytes) "
        "with 4 bytes of data",
    ),
    (
        "an array of a forbidden dtype",
        _answer([NDARRAY, "|O", [1], b"\0" * 8]),
        "holds a numpy value of dtype '|O', not allowed",
    ),
    (
        "a list header announcing 4 billion elements",
        _frame(b"\x93\x11\x01\xdd\xff\xff\xff\xff"),  # [RETURN, 1, <array32 header>]
        "exceeds max list length 1048576 (a list of 4294967295 announced)",
    ),
    (
        "a list header announcing more than the frame holds",
        _frame(b"\x93\x11\x01\xdc\x10\x00"),
        "announces a list of 4096 in a frame of 6 bytes (truncated or forged)",
    ),
    (
        "a string header announcing a gigabyte",
        _frame(b"\x93\x11\x01\xdb\x40\x00\x00\x00"),
        "is truncated: the frame's 8 bytes end inside the message",
    ),
    (
        "a big integer of many digits",
        _answer([BIGINT, "9" * 5000]),
        "holds a big integer that is not at most 100 decimal digits",
    ),
    (
        "a handle naming descriptors that did not come",
        _answer([HANDLE, [0], []]),
        "holds a handle naming descriptors the frame did not carry",
    ),
    (
        "a remote object of unknown interfaces",
        _answer([OBJECT, 5, ["IEvil"], "Evil"]),
        "holds remote object 5 claiming unknown interfaces ('IEvil',)",
    ),
    (
        "a truncated message",
        _frame(msgpack.packb([RETURN, 1, [LIST, 1, 2, 3]])[:-2]),
        "is truncated: the frame's 6 bytes end inside the message",
    ),
    (
        "bytes after the message",
        _frame(msgpack.packb([RETURN, 1, 2]) + b"\x00"),
        "has extra bytes after the message",
    ),
    (
        "a batch holding a call that waits for an answer",
        _frame(msgpack.packb([BATCH, [LIST, [CALL, 7, 1, "get_type", [TUPLE]]]])),
        "holds a batch with a call that waits for an answer",
    ),
    (
        "a batch in a batch",
        _frame(msgpack.packb([BATCH, [LIST, [BATCH, [LIST, [RETURN, 1, 2]]]]])),
        "holds a batch of an array of 2 starting with 22",
    ),
    (
        "a batch of something not a message",
        _frame(msgpack.packb([BATCH, [LIST, 5]])),
        "holds a batch of a int",
    ),
    (
        "a batch without its list",
        _frame(msgpack.packb([BATCH, 5])),
        "holds a malformed batch",
    ),
    (
        "a header announcing a gigabyte",
        HEADER.pack(1 << 30, 0),
        "announces a frame of 1073741824 bytes, over the max frame size 268435456",
    ),
    (
        "a header announcing descriptors that are not there",
        HEADER.pack(1, 2) + b"\xc0",
        "announces 2 descriptors in a frame that carries 0",
    ),
]


@pytest.mark.parametrize(("data", "rule"), [a[1:] for a in ATTACKS], ids=[a[0] for a in ATTACKS])
def test_a_frame_that_breaks_the_format_is_a_malformed_answer(data, rule) -> None:
    error, near = _attacked(data)
    assert type(error) is MalformedAnswer
    assert error.kind == "crash" and error.method == "get_type"
    assert error.message == _violation(rule)
    assert near.lost == f"protocol violation: driver answer {rule}"
    with pytest.raises(DriverCrashed, match="before get_status"):  # the channel stays closed
        near.call(1, "get_status", (), TIMEOUT)


def test_a_pickle_setting_attributes_on_harness_classes_changes_nothing() -> None:
    sys.path.insert(0, str(WIRE_DRIVERS.parent))
    try:
        from wire_drivers import forged_pickle
    finally:
        sys.path.pop(0)
    error, _ = _attacked(_frame(forged_pickle()))
    assert error.message == _violation("has extra bytes after the message")
    assert not hasattr(ErrorStatus, "nnhal_tampered")
    assert ErrorStatus.NONE != ErrorStatus.INVALID_ARGUMENT


def test_a_frame_cut_short_by_the_end_of_the_channel_is_a_crash() -> None:
    error, _ = _attacked(HEADER.pack(100, 0) + b"\x93\x11\x01", close=True)
    assert type(error) is DriverCrashed
    assert error.message == (
        "the other end closed the channel in the middle of a frame (3 of 100 bytes came) "
        "during get_type"
    )


def test_a_header_announcing_much_then_nothing_costs_no_memory() -> None:
    """200 MiB announced (under the frame limit), nothing sent: the call times out and the
    reader has allocated one piece of the body, not what the header announced."""
    tracemalloc.start()
    try:
        error, near = _attacked(HEADER.pack(200 << 20, 0), timeout=0.5)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert type(error) is DriverTimeout
    assert peak < 8 << 20, f"peak {peak} bytes"
    near.close()


def test_a_frame_over_the_limits_given_is_refused() -> None:
    near_socket, far_socket = socket.socketpair()
    limits = codec.Limits(max_frame=64, max_list=4, max_items=10, max_str=8)
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT, limits=limits)
    near.start()
    far_socket.sendall(_frame(msgpack.packb([HELLO, [LIST, 1, 2, 3, 4, 5]])))
    assert near.wait_hello(TIMEOUT) is None
    assert (
        near.lost == "protocol violation: message exceeds max list length 4 (a list of 6 announced)"
    )
    for value, rule in [
        ("x" * 9, "exceeds max string length 8 (a string of 9 announced)"),
        ([LIST, [LIST, 1, 2], [LIST, 3, 4], [LIST, 5, 6]], "exceeds max 10 values in one message"),
    ]:
        near_socket, far_socket = socket.socketpair()
        near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT, limits=limits)
        near.start()
        far_socket.sendall(_frame(msgpack.packb([HELLO, value])))
        assert near.wait_hello(TIMEOUT) is None
        assert near.lost == f"protocol violation: message {rule}"
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT, limits=limits)
    near.start()
    far_socket.sendall(_frame(msgpack.packb([HELLO, "x" * 70])))
    assert near.wait_hello(TIMEOUT) is None
    assert near.lost == (
        "protocol violation: message announces a frame of 74 bytes, over the max frame size 64"
    )


def test_a_well_formed_frame_after_a_refused_one_is_never_read() -> None:
    """The channel is dropped at the first bad frame: nothing after it is acted on."""
    good = _frame(msgpack.packb([HELLO, "late"]))
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, TIMEOUT)
    near.start()
    far_socket.sendall(_answer([250]) + good)
    assert near.wait_hello(TIMEOUT) is None
    assert near.hello is None


# ---------------------------------------------------------------------------
# A hostile service: the frame comes from a driver, in reply to a real call
# ---------------------------------------------------------------------------

SERVICE_ATTACKS = [
    ("DeepAnswer", "exceeds max nesting depth 64"),
    (
        "AmplifiedAnswer",
        "holds a numpy array of shape [1073741824] and dtype <f4 (4294967296 bytes) "
        "with 4 bytes of data",
    ),
    ("PickleAnswer", "has extra bytes after the message"),
    ("UnknownTagAnswer", "holds unknown type tag 250"),
    (
        "HugeHeaderAnswer",
        "announces a frame of 1073741824 bytes, over the max frame size 268435456",
    ),
    ("TruncatedAnswer", "is truncated: the frame's 6 bytes end inside the message"),
    ("ManyClassesAnswer", "holds over 4096 remote objects in one message"),
    ("EmptyArraysAnswer", "exceeds max 4194304 values in one message"),
]


@pytest.mark.parametrize(("driver", "rule"), SERVICE_ATTACKS, ids=[a[0] for a in SERVICE_ATTACKS])
def test_a_hostile_service_is_refused_and_restarted(driver, rule) -> None:
    service = DriverService(f"wire_drivers:{driver}", TIMEOUT)
    try:
        device = service.start().device
        first = service.pid
        with pytest.raises(MalformedAnswer) as caught:
            device.get_type()
        message = f"driver process broke the channel (protocol violation: driver answer {rule})"
        assert caught.value.message == f"{message} during get_type"
        assert [(f.kind, f.method, f.message) for f in service.faults] == [
            ("crash", "get_type", f"{message} during get_type")
        ]
        assert not hasattr(ErrorStatus, "nnhal_tampered")
        assert service.ensure_running() and service.pid != first
        assert device.get_status() == 0  # the restarted service answers
        assert service.process.poll() is None
    finally:
        service.close()


PLUGIN_RUN = """
def test_attacked(device):
    device.get_type()


def test_after(device):
    status, version = device.get_version_string()
    assert status == 0 and version
"""

PROPERTIES = """
import json


def pytest_runtest_logreport(report):
    if report.when == "call":
        with open("outcomes.jsonl", "a") as f:
            f.write(json.dumps([report.nodeid, report.outcome, dict(report.user_properties)]))
            f.write("\\n")
"""


def test_the_plugin_fails_the_test_as_a_crash_and_the_next_test_runs(tmp_path) -> None:
    (tmp_path / "wire_drivers.py").write_text(WIRE_DRIVERS.read_text())
    (tmp_path / "test_run.py").write_text(PLUGIN_RUN)
    (tmp_path / "conftest.py").write_text(PROPERTIES)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_run.py"]
    command += ["--driver=wire_drivers:DeepAnswer", "--driver-isolation=process", "-n", "0"]
    process = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=240)
    lines = (tmp_path / "outcomes.jsonl").read_text().splitlines()
    outcomes = {json.loads(line)[0]: json.loads(line)[1:] for line in lines}
    fault = (
        "driver process broke the channel (protocol violation: driver answer exceeds max "
        "nesting depth 64) during get_type"
    )
    attacked = outcomes["test_run.py::test_attacked"]
    assert attacked[0] == "failed", process.stdout
    assert attacked[1]["nnhal_outcome"] == "crash"
    assert attacked[1]["nnhal_fault"] == fault
    assert f"isolation.channel.MalformedAnswer: {fault}" in process.stdout
    assert outcomes["test_run.py::test_after"][0] == "passed", process.stdout


# ---------------------------------------------------------------------------
# One-way calls: a callback's notify
# ---------------------------------------------------------------------------


class _Notified(IExecutionCallback):
    """Records what it is told; its notify raises, as a buggy callback might."""

    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def notify(self, status):
        self.seen.append(("notify", status))
        raise RuntimeError("nobody is waiting for this")

    def notify_1_2(self, status, output_shapes, timing):
        self.seen.append(("notify_1_2", status))

    def notify_1_3(self, status, output_shapes, timing):
        self.seen.append(("notify_1_3", status))


def test_a_oneway_notify_is_sent_unanswered_and_runs_before_what_follows() -> None:
    assert oneway_methods(("IExecutionCallback",)) == {"notify", "notify_1_2", "notify_1_3"}
    assert oneway_methods(("IPreparedModelCallback",)) == {"notify", "notify_1_2", "notify_1_3"}
    assert oneway_methods(("IDevice_1_2", "IBuffer")) == frozenset()
    notified = _Notified()
    with _connected_pair() as (near, far):
        far.send_hello((notified, _Buffer()))
        callback, asker = near.wait_hello(TIMEOUT)
        sent: dict[str, list[str]] = {"near": [], "far": []}
        for end in (near, far):
            send = end._send
            end._send = lambda message, hold=True, send=send, log=sent[end.name]: (
                log.append(type(message).__name__),
                send(message, hold),
            )
        # Returns at once with nothing; what it raises there stays there.
        assert callback.notify_1_2(ErrorStatus.NONE, [], NO_TIMING) is None
        assert callback.notify(ErrorStatus.GENERAL_FAILURE) is None
        # The next two-way call is answered after the far end ran both notifies.
        assert asker.copy_to(None) == ErrorStatus.NONE
        assert notified.seen == [
            ("notify_1_2", ErrorStatus.NONE),
            ("notify", ErrorStatus.GENERAL_FAILURE),
        ]
        assert sent == {"near": ["Call", "Call", "Call"], "far": ["Return"]}  # copy_to's only
        assert not near._pending and not far._pending and far.lost is None


def test_a_oneway_call_to_a_two_way_method_is_dropped() -> None:
    # A peer marking any call one-way must not get a method run without its answer path.
    asker = _Buffer()
    calls = []
    asker.copy_from = lambda memory, dimensions: calls.append(memory)
    with _connected_pair() as (near, far):
        far.send_hello(asker)
        proxy = near.wait_hello(TIMEOUT)
        target = proxy._nnhal_link.remote_id
        near._send(codec.Call(codec.ONEWAY_CALL, target, "copy_from", (None, ())))
        near._send(codec.Call(codec.ONEWAY_CALL, target, "no_such_method", ()))
        assert proxy.copy_to(None) == ErrorStatus.NONE  # in order: both were dropped before
        assert calls == [] and far.lost is None


def _mutated_models() -> tuple[Model, list[Model]]:
    """A model and four copies of it, each with one change (as the validation tests make)."""
    from conformance.harness.mutations import copy_model

    model = binary_model(dims=(2, 3))
    copies = [copy_model(model) for _ in range(4)]
    copies[0].operands[0].type = 999  # a type no HAL has
    copies[1].operands[1].type = int(copies[1].operands[1].type)  # equal, not the same
    copies[2].operations[0].inputs = [1, 0, 2]
    return model, copies


def test_models_sent_together_go_as_changes_to_the_first_and_arrive_whole() -> None:
    model, copies = _mutated_models()
    message = codec.Calls([*copies, model], [(i, 1, "x", [i]) for i in range(5)])
    whole, _ = codec.encode(message)
    body, _ = codec.encode(message, deltas=True)
    assert len(body) < 0.7 * len(whole)
    got = codec.Decoder([], None, deltas=True).decode(body)
    assert got.values == [*copies, model]
    # exactly what was sent: the plain int stays a plain int, the enum member a member
    assert type(got.values[1].operands[1].type) is int
    assert type(got.values[2].operands[1].type) is OperandType
    assert got.values[0].operands[0].type == 999
    # each model its own objects, as in-process: changing one changes no other
    got.values[3].operands[2].dimensions.append(7)
    got.values[3].operations[0].inputs.append(7)
    assert got.values[4].operands[2].dimensions == [] and got.values[2].operands[2].dimensions == []
    assert got.values[4].operations[0].inputs == [0, 1, 2]


def test_a_record_refers_to_the_first_model_only_when_every_field_is_the_same_object() -> None:
    from conformance.harness.mutations import copy_operand

    model, _ = _mutated_models()
    first = model.operands[0]
    same = copy_operand(first)  # new lists of the very same items, the other fields shared
    assert codec._same_fields(same, first) and same.dimensions is not first.dimensions
    changed = copy_operand(first)
    changed.dimensions[0] = 7  # an item of the copy's own list changed in place
    assert not codec._same_fields(changed, first)
    longer = copy_operand(first)
    longer.dimensions.append(1)
    assert not codec._same_fields(longer, first)
    retyped = copy_operand(first)
    retyped.scale = 0.0 + first.scale + 1.0
    assert not codec._same_fields(retyped, first)
    operation = model.operations[0]
    assert codec._same_fields(copy.copy(operation), operation)
    assert not codec._same_fields(first, operation)  # another class
    assert not codec._same_fields(model, model)  # no record a delta refers to


def test_a_model_delta_is_refused_where_it_is_not_expected() -> None:
    _, copies = _mutated_models()
    body, _ = codec.encode(codec.Calls([copies[0], copies[2]], []), deltas=True)
    with pytest.raises(
        codec.MalformedMessage, match=r"^holds a model delta, which only the harness sends$"
    ):
        codec.decode(body)  # the harness's decoder: a driver never sends one
    forged = msgpack.packb([CALL, 1, 1, "x", [TUPLE, [14, 0]]])
    with pytest.raises(codec.MalformedMessage, match=r"^holds a model delta naming nothing$"):
        codec.Decoder([], None, deltas=True).decode(forged)


def test_requests_sent_together_go_as_changes_to_the_first() -> None:
    from conformance.harness.mutations import copy_request

    model = binary_model(dims=(2,))
    with pack_request(model, [np.ones((2,), np.float32)] * 2) as packed:
        request = packed.request
        copies = [copy_request(request) for _ in range(3)]
        copies[1].inputs[1].dimensions = [3]
        body, _ = codec.encode(codec.Calls(copies, []), deltas=True)
        whole, _ = codec.encode(codec.Calls(copies, []))
        got = codec.Decoder([], None, deltas=True).decode(body)
        assert len(body) < len(whole)
        assert [(r.inputs, r.outputs) for r in got.values] == [
            (r.inputs, r.outputs) for r in copies
        ]
        got.values[2].inputs[0].dimensions.append(9)
        assert got.values[0].inputs[0].dimensions == copies[0].inputs[0].dimensions
        assert got.values[2].inputs[0] is not got.values[0].inputs[0]


# ---------------------------------------------------------------------------
# Bounds on time and on the tables an answer can fill
# ---------------------------------------------------------------------------


def _wire_drivers():
    sys.path.insert(0, str(WIRE_DRIVERS.parent))
    try:
        import wire_drivers
    finally:
        sys.path.pop(0)
    return wire_drivers


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_an_answer_slow_to_decode_ends_its_call_at_the_deadline() -> None:
    """A million opaque stand-ins (within every limit) take a second or more to build: the
    decoding stops once the call's time is spent and the call is a hang that says so."""
    data = _wire_drivers().slow_answer()
    started = time.monotonic()
    error, near = _attacked(data, timeout=0.3)
    elapsed = time.monotonic() - started
    assert type(error) is DriverTimeout and error.kind == "timeout"
    assert re.fullmatch(
        r"driver call get_type did not return within 0\.3 s \(hang\): the driver answer "
        rf"\({len(data) - HEADER.size} bytes\) was still being decoded when the call's time "
        r"ran out: stopped after \d+\.\d s, at value \d+ of the message, with 0 remote "
        r"objects built",
        error.message,
    ), error.message
    assert elapsed < 0.3 + 1.5, elapsed
    near.close()


def test_a_reader_decoding_past_the_connection_timeout_drops_the_channel() -> None:
    """No caller waits: the reader gives the message the connection's timeout, then the
    channel is dropped as a protocol violation (the service is restarted)."""
    body = _wire_drivers().slow_answer()[HEADER.size :]
    body = msgpack.packb([HELLO, msgpack.unpackb(body)[2]])
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=0.3, owner=_Supervisor())
    near.start()
    started = time.monotonic()
    far_socket.sendall(_frame(body))
    assert near.wait_hello(TIMEOUT) is None
    assert time.monotonic() - started < 0.3 + 1.5
    assert re.fullmatch(
        rf"protocol violation: driver answer \({len(body)} bytes\) was still being decoded "
        r"when the call's time ran out: stopped after .*",
        near.lost,
    ), near.lost
    far_socket.close()


def test_an_answer_of_300000_remote_objects_of_distinct_classes_is_refused() -> None:
    """The attack that took 68 s and 2.8 GB (a proxy class made and kept for every
    name): refused at the 4097th object, in well under a second of decoding."""
    started = time.monotonic()
    error, near = _attacked(_wire_drivers().many_classes(300_000))
    elapsed = time.monotonic() - started
    assert type(error) is MalformedAnswer
    assert error.message == _violation("holds over 4096 remote objects in one message")
    assert elapsed < 5, elapsed
    assert proxy_module.proxy_class.cache_info().currsize <= proxy_module.MAX_PROXY_CLASSES
    assert len(near._imports) <= codec.LIMITS.max_objects


def test_the_table_of_proxy_classes_keeps_the_most_recently_used() -> None:
    """600 objects of distinct class names: each proxy bears its class's name, and the
    table keeps the last ``MAX_PROXY_CLASSES`` classes, not 600."""
    body = _wire_drivers().many_classes(600)
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    try:
        far_socket.sendall(_frame(msgpack.packb([HELLO, msgpack.unpackb(body[HEADER.size :])[2]])))
        proxies = near.wait_hello(TIMEOUT)
        assert [type(p).__name__ for p in proxies] == [f"Class{i}" for i in range(600)]
        assert all(isinstance(p, IBuffer) for p in proxies)
        kept = proxy_module.proxy_class.cache_info()
        assert kept.currsize == kept.maxsize == proxy_module.MAX_PROXY_CLASSES
        assert proxy_module.proxy_class(("IBuffer",), "Class599") is type(proxies[599])
    finally:
        near.close()
        far_socket.close()


def test_exception_type_names_past_the_table_are_not_kept(monkeypatch) -> None:
    """Each new type name raised used to add a class for the run; past the table's size a
    name gets a class of its own that goes with its exception (the message is the same)."""
    monkeypatch.setattr(channel_module, "_REMOTE_ERRORS", {"RemoteError": RemoteError})
    monkeypatch.setattr(channel_module, "MAX_REMOTE_ERRORS", 4)
    errors = [remote_error(f"Error{i}", f"message {i}", "") for i in range(10)]
    assert [type(e).__name__ for e in errors] == [f"Error{i}" for i in range(10)]
    assert all(
        isinstance(e, RemoteError) and str(e) == f"message {i}" for i, e in enumerate(errors)
    )
    assert list(channel_module._REMOTE_ERRORS) == ["RemoteError", "Error0", "Error1", "Error2"]
    assert type(remote_error("Error1", "again", "")) is type(errors[1])  # kept: the same class
    assert type(remote_error("Error7", "again", "")) is not type(errors[7])  # not kept


def test_exception_type_names_raised_over_a_channel_stay_bounded(monkeypatch) -> None:
    monkeypatch.setattr(channel_module, "_REMOTE_ERRORS", {"RemoteError": RemoteError})
    monkeypatch.setattr(channel_module, "MAX_REMOTE_ERRORS", 16)
    with _recorded() as r:
        raised = itertools.count()

        def copy_to(memory):
            raise type(f"Fresh{next(raised)}", (Exception,), {})("new every time")

        r.recorder.copy_to = copy_to
        for i in range(40):
            with pytest.raises(RemoteError) as caught:
                r.proxy.copy_to(None)
            assert type(caught.value).__name__ == f"Fresh{i}"
    assert len(channel_module._REMOTE_ERRORS) == 16


def test_a_body_of_empty_arrays_is_refused_before_it_is_all_built() -> None:
    """16 MiB of empty arrays: 1.1 GB and 3.8 s when msgpack built them all before the
    values were counted; now counted as they are parsed."""
    before = _peak_rss_mb()
    started = time.monotonic()
    error, _ = _attacked(_wire_drivers().empty_arrays(16_000_000))
    elapsed = time.monotonic() - started
    assert type(error) is MalformedAnswer
    assert error.message == _violation("exceeds max 4194304 values in one message")
    assert _peak_rss_mb() - before < 500, _peak_rss_mb() - before
    assert elapsed < 5, elapsed


def test_a_hostile_service_slow_to_decode_is_a_timeout_and_restarted() -> None:
    service = DriverService("wire_drivers:SlowAnswer", 0.5)
    try:
        device = service.start().device
        first = service.pid
        started = time.monotonic()
        with pytest.raises(DriverTimeout) as caught:
            device.get_type()
        assert time.monotonic() - started < 0.5 + 2.0
        assert caught.value.message.startswith(
            "driver call get_type did not return within 0.5 s (hang): the driver answer ("
        )
        assert "was still being decoded when the call's time ran out" in caught.value.message
        assert [(f.kind, f.method) for f in service.faults] == [("timeout", "get_type")]
        assert service.faults[0].message == (
            f"{caught.value.message}; the driver service was killed and is restarted"
        )
        assert service.ensure_running() and service.pid != first
        assert device.get_status() == 0
    finally:
        service.close()


def test_the_table_of_received_objects_does_not_keep_collected_proxies() -> None:
    """Every remote object received leaves an entry; those of collected proxies are swept
    whenever the table doubles, so answers of thousands of new objects keep it bounded."""
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=TIMEOUT)
    near.start()
    try:
        for round_ in range(10):
            objects = [[OBJECT, round_ * 4000 + i + 1, ["IBuffer"], "Kept"] for i in range(4000)]
            far_socket.sendall(_frame(msgpack.packb([HELLO, [LIST, *objects]])))
            assert len(near.wait_hello(TIMEOUT)) == 4000  # and dropped at once
        assert len(near._imports) <= 2 * 4000 + 1024, len(near._imports)
    finally:
        near.close()
        far_socket.close()


def test_a_sequence_whose_answer_is_slow_to_decode_does_not_wait_the_flush_grace() -> None:
    """The answers were in the message dropped at the deadline: asking the other end for
    what it holds would only wait out the grace (5 s) for nothing."""
    data = _wire_drivers().slow_answer()
    near_socket, far_socket = socket.socketpair()
    near = Connection(near_socket, "near", make_remote_proxy, timeout=0.3, owner=_Supervisor())
    near.start()

    def attack() -> None:
        far_socket.recv(1 << 16)  # the sequence's frame
        far_socket.sendall(data)

    thread = threading.Thread(target=attack)
    thread.start()
    started = time.monotonic()
    try:
        outcomes = near.call_sequence([(1, "get_type", ()), (1, "get_status", ())], 0.3)
    finally:
        thread.join(TIMEOUT)
        far_socket.close()
        near.close()
    assert time.monotonic() - started < 0.3 + 1.5
    assert len(outcomes) == 1 and outcomes[0][0] is False
    fault = outcomes[0][1]
    assert type(fault) is DriverTimeout and fault.method == "get_type"
    assert fault.message.startswith(
        "driver call get_type did not return within 0.3 s (hang): the driver answer ("
    )
