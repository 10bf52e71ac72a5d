"""The codec benchmark: what the isolation channel's wire format costs per message.

Subject: ``isolation.codec`` (schema-driven msgpack), encoding a message and
decoding it again, as the channel does on each side of a call, without the
socket. Two messages: the exchange of one ``execute_synchronously`` (the call
with a ``Request`` of two inputs and one output in three shared-memory pools,
as ``pack_request`` makes it for ADD of two [16, 16] float32 tensors, and its
answer: status, one ``OutputShape``, ``Timing``), and a
``get_supported_operations_1_2`` call carrying a 30-operation model.

Baseline, measured in the same run: the pickle channel the codec replaced
(protocol 5, a Python ``persistent_id`` deciding what crosses by reference,
a restricted unpickler; kept below as it was, for this comparison only).
Figures: microseconds of this process's CPU time per round trip (both sides
are single-threaded pure computation, so CPU time is their cost, and other
processes on a shared machine do not count in it), the best of 9 interleaved
rounds of the mean of 1000 round trips (50 for the model); the ratio is codec
over pickle (target: no slower, <= 1.0).
"""

from __future__ import annotations

import contextlib
import io
import pickle
import time
from collections.abc import Callable
from dataclasses import is_dataclass
from enum import Enum

import numpy as np

from benchmarks.result import Figure, Result, runs
from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal import types
from hal.fmq import FmqDescriptor
from hal.memory import Memory, NativeHandle
from hal.types import (
    NO_TIMING,
    ErrorStatus,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    OutputShape,
)
from isolation import codec

SHAPE = (16, 16)
CALLS = 1000
ROUNDS = 9

# ---------------------------------------------------------------------------
# The baseline: the pickle channel as it was
# ---------------------------------------------------------------------------

_PLAIN = frozenset(
    {type(None), bool, int, float, complex, str, bytes, bytearray, list, tuple, dict, set}
    | {frozenset}
)
_RECORDS = frozenset(
    {
        value
        for value in vars(types).values()
        if isinstance(value, type)
        and value.__module__ == types.__name__
        and (is_dataclass(value) or issubclass(value, Enum))
    }
    | {Memory, FmqDescriptor}
)
_ALLOWED = {(cls.__module__, cls.__qualname__): cls for cls in _RECORDS} | {
    ("builtins", name): getattr(__import__("builtins"), name)
    for name in ("complex", "set", "frozenset", "bytearray", "bytes", "list", "tuple", "dict")
}


class _PickleEncoder(pickle.Pickler):
    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=5)
        self.fds: list[int] = []

    def persistent_id(self, obj: object) -> object:
        kind = type(obj)
        if kind in _PLAIN or kind in _RECORDS:
            return None
        if isinstance(obj, NativeHandle):
            slots = []
            for fd in obj.fds:
                slots.append(len(self.fds))
                self.fds.append(int(fd))
            return ("handle", slots, [int(i) for i in obj.ints])
        with contextlib.suppress(AttributeError):
            if (obj.__module__, obj.__qualname__) in _ALLOWED:
                return None
        module = getattr(kind, "__module__", "")
        if module == "numpy" or module.startswith("numpy."):
            return None
        if isinstance(obj, int) and not isinstance(obj, Enum):
            return ("int", int(obj))
        return ("opaque", kind.__qualname__, repr(obj)[:200])


class _PickleDecoder(pickle.Unpickler):
    def __init__(self, body: bytes, fds: list[int]) -> None:
        super().__init__(io.BytesIO(body))
        self._fds = fds

    def find_class(self, module: str, name: str) -> object:
        allowed = _ALLOWED.get((module, name))
        if allowed is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not a HAL type")
        return allowed

    def persistent_load(self, pid: object) -> object:
        if pid[0] == "handle":
            return NativeHandle([self._fds[i] for i in pid[1]], list(pid[2]))
        if pid[0] == "int":
            return pid[1]
        return codec.Opaque(str(pid[1]), str(pid[2]))


def pickle_round_trip(message: object) -> object:
    file = io.BytesIO()
    encoder = _PickleEncoder(file)
    encoder.dump(message)
    return _PickleDecoder(file.getvalue(), encoder.fds).load()


def codec_round_trip(message: object) -> object:
    body, fds = codec.encode(message, None, is_open=lambda fd: True)
    return codec.Decoder(fds, None).decode(body)


# ---------------------------------------------------------------------------
# The messages
# ---------------------------------------------------------------------------


def _chain_model(operations: int = 30) -> Model:
    """ADDs in a chain over [1, 16, 16, 8] float32 tensors, each with a constant operand."""
    dims = [1, 16, 16, 8]
    operands = [
        Operand(OperandType.TENSOR_FLOAT32, list(dims), lifetime=OperandLifeTime.MODEL_INPUT)
    ]
    ops = []
    values = bytearray()
    for _ in range(operations):
        constant = Operand(
            OperandType.TENSOR_FLOAT32,
            list(dims),
            lifetime=OperandLifeTime.CONSTANT_COPY,
            location=types.DataLocation(0, len(values), 4),
        )
        values += bytes(4)
        activation = Operand(OperandType.INT32, [], lifetime=OperandLifeTime.CONSTANT_COPY)
        output = Operand(OperandType.TENSOR_FLOAT32, list(dims))
        first = len(operands) - 1
        operands += [constant, activation, output]
        ops.append(Operation(OperationType.ADD, [first, first + 1, first + 2], [first + 3]))
    operands[-1].lifetime = OperandLifeTime.MODEL_OUTPUT
    return Model(operands, ops, [0], [len(operands) - 1], bytes(values))


def _best_us(calls: dict[str, tuple[Callable[[], object], int]]) -> dict[str, float]:
    """Per call, in CPU microseconds: the best over interleaved rounds of the mean of
    ``count`` calls."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs(ROUNDS, 2)):
        for name, (call, calls_per_round) in calls.items():
            count = runs(calls_per_round, 20)
            start = time.process_time()
            for _ in range(count):
                call()
            samples[name].append((time.process_time() - start) / count * 1e6)
    return {name: min(values) for name, values in samples.items()}


def run() -> Result:
    a = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    with pack_request(binary_model(dims=SHAPE), [a, a]) as packed:
        args = (packed.request, MeasureTiming.NO)
        value = (ErrorStatus.NONE, [OutputShape(list(SHAPE), True)], NO_TIMING)
        model = (_chain_model(),)
        # The codec's envelopes, and the tuples the pickle channel sent in their place.
        call, old_call = codec.Call(7, 3, "execute_synchronously", args), ("call", 7, 3, "x", args)
        answer, old_answer = codec.Return(7, value), ("return", 7, value)
        query = codec.Call(8, 1, "get_supported_operations_1_2", model)
        old_query = ("call", 8, 1, "get_supported_operations_1_2", model)
        for message, trip in [
            (call, codec_round_trip),
            (answer, codec_round_trip),
            (query, codec_round_trip),
            (old_call, pickle_round_trip),
            (old_answer, pickle_round_trip),
            (old_query, pickle_round_trip),
        ]:  # both must give back what went in
            if trip(message) != message:
                raise RuntimeError(f"{trip.__name__} changed a {type(message).__name__}")
        us = _best_us(
            {
                "codec request": (
                    lambda: (codec_round_trip(call), codec_round_trip(answer)),
                    CALLS,
                ),
                "pickle request": (
                    lambda: (pickle_round_trip(old_call), pickle_round_trip(old_answer)),
                    CALLS,
                ),
                "codec model": (lambda: codec_round_trip(query), CALLS // 20),
                "pickle model": (lambda: pickle_round_trip(old_query), CALLS // 20),
            }
        )
    figures = []
    for subject in ("request", "model"):
        mine, base = us[f"codec {subject}"], us[f"pickle {subject}"]
        ratio = mine / base
        figures.append(
            Figure(f"{subject} round trip", mine, "us", base, ratio, "<= 1.0x pickle", ratio <= 1.0)
        )
    line = (
        f"codec (CPU time): execute_synchronously call + answer round trip "
        f"{us['codec request']:.1f} us, "
        f"pickle channel {us['pickle request']:.1f} us (ratio "
        f"{us['codec request'] / us['pickle request']:.2f}); a 30-operation model "
        f"{us['codec model']:.1f} us, pickle {us['pickle model']:.1f} us (ratio "
        f"{us['codec model'] / us['pickle model']:.2f})"
    )
    return Result("codec", line, figures)
