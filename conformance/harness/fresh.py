"""Fresh inputs for a generated case, and an independent answer for them.

``conformance/test_generated.py::test_generated_fresh`` runs each generated
case once more with input values drawn for the run (from the run's seed,
``--nnhal-seed``, and the case's id), judged against the reference driver's
answer for those inputs: a driver that looks its answers up in the suite's own
expected outputs, or replays answers recorded in an earlier run, fails it.

**The draw** varies the example's inputs while keeping them valid for the
operation: each attempt changes them less than the one before (floats scaled
element by element and shuffled, quantized values moved a few steps within
their range, integer and boolean tensors shuffled; then floats scaled and
quantized values moved without shuffling, integers kept; then gentler still).
An attempt counts when the reference driver accepts the inputs and answers with
the example's output shapes, and the inputs differ from the example's. For a
relaxed model (float32 arithmetic allowed in float16) the drawn float32 values
are ones float16 holds exactly, and a draw does not count when the answer
holds a finite float32 value beyond float16's range, or changes when the
model's float32 constants are rounded to float16: in each case a relaxed
driver would have no one right answer.

**The oracle** is the reference driver in a process of its own
(``ReferenceOracle``, started once per test process as a new interpreter running
this module, so it shares nothing with the driver under test: a driver running in the test process cannot
patch the module it would be judged by). Generated cases have no oracle script
of their own (``conformance/specs/oracles`` compute the golden values of spec
files offline, and the parameter-space tests' draws online): the differential
against the reference is the independent computation here.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection

import numpy as np

from conformance.harness.cases import GeneratedTest

FRESH_CI_SHARE = 16
"""Under profile ci the fresh-input check runs on one case in this many (a stable hash
of the case id); under full and thorough on every case."""
ATTEMPTS = 5
"""Draws tried per case before the check gives up on finding inputs the reference runs."""
FLOAT16_MAX = float(np.finfo(np.float16).max)
_PREPARED_LIMIT = 64
"""Prepared models the oracle process keeps (one per case, least recently used first out)."""


def in_profile(case: str, profile: str) -> bool:
    """Whether the fresh check of ``case`` runs under ``profile``."""
    return profile != "ci" or zlib.crc32(case.encode()) % FRESH_CI_SHARE == 0


def case_rng(seed: int | None, case: str, attempt: int) -> np.random.Generator:
    """The generator of one attempt's draw: the run's seed (0 without one), the case, the
    attempt; the same in every process for the same seed."""
    return np.random.default_rng([seed or 0, zlib.crc32(case.encode()), attempt])


def draw_inputs(
    inputs: Sequence[np.ndarray], rng: np.random.Generator, attempt: int, relaxed: bool = False
) -> list[np.ndarray]:
    """New values for ``inputs`` (an example's), each of its dtype and shape; each attempt
    changes less than the one before (with ``relaxed``, for a model whose float32 arithmetic
    may run in float16, every drawn float32 value is one float16 holds exactly: a driver
    that relaxes reads the same numbers as the reference, so an output that is not a float,
    such as a CAST to integers, a comparison or an ARGMAX, has one right answer):

    0. floats scaled element by element by [0.5, 1.5], quantized values moved up to 3
       steps (within the example's range widened by as much), all shuffled; integer and
       boolean tensors shuffled;
    1. the same without shuffling, but integer tensors of more than 4 elements (data, not
       shapes or axes) shuffled;
    2. floats scaled by [0.9, 1.1], quantized values moved 1 step, integers kept;
    3. each float tensor scaled by one factor in [0.8, 0.99] (boxes keep their order and
       stay inside the image), 8-bit quantized values moved 1 step, the rest kept;
    4. each float tensor scaled by one factor in [0.8, 0.99], the rest kept.
    """
    drawn = []
    for value in inputs:
        if value.size == 0:
            drawn.append(value)
            continue
        flat = value.reshape(-1)
        shuffle = attempt == 0
        if np.issubdtype(value.dtype, np.floating):
            if attempt < 3:
                spread = 0.5 if attempt < 2 else 0.1
                scale = rng.uniform(1 - spread, 1 + spread, flat.size)
            else:
                scale = np.full(flat.size, rng.uniform(0.8, 0.99))
            # A finite value stays finite: scaled past its type's largest value it becomes
            # that value (a spec that places its infinities so that no sum is NaN keeps them
            # where it placed them; a new infinity would pair with them unforeseen).
            largest = float(np.finfo(value.dtype).max)
            with np.errstate(invalid="ignore"):  # inf * scale is inf, never NaN (scale > 0)
                wide = flat.astype(np.float64) * scale
            new = np.where(np.isfinite(flat), np.clip(wide, -largest, largest), wide)
            new = new.astype(value.dtype)
            if relaxed and value.dtype == np.float32:
                held = np.abs(new) <= FLOAT16_MAX  # beyond it: kept, not made inf
                new = new.copy()  # only the held values are cast (no overflow to warn of)
                new[held] = new[held].astype(np.float16).astype(np.float32)
        elif value.dtype in (np.uint8, np.int8, np.int16, np.uint16):
            step = 3 if attempt < 2 else 1
            if attempt == 4 or (attempt == 3 and value.dtype.itemsize > 1):
                step = 0
            info = np.iinfo(value.dtype)
            lo = max(int(flat.min()) - step, info.min)
            hi = min(int(flat.max()) + step, info.max)
            moved = flat.astype(np.int64) + rng.integers(-step, step + 1, flat.size)
            new = np.clip(moved, lo, hi).astype(value.dtype)
        else:  # int32 (indices, shapes, axes), bool
            new = flat.copy()
            shuffle = attempt == 0 or (attempt == 1 and flat.size > 4)
        new = rng.permutation(new) if shuffle else new
        drawn.append(np.ascontiguousarray(new.reshape(value.shape)))
    return drawn


def new_nan(
    outputs: Sequence[np.ndarray], example: Sequence[np.ndarray], inputs: Sequence[np.ndarray]
) -> bool:
    """Whether drawn inputs holding an infinity (or a NaN) gave an answer with a NaN in an
    output whose example holds none: the draw paired the case's special values in a way
    its author did not place them (inf - inf, inf * 0), whose result most operations leave
    unstated, so it does not count. A NaN from finite inputs (POW of a negative base to a
    fractional power) is arithmetic's answer and counts."""
    if not any(x.dtype.kind == "f" and not bool(np.isfinite(x).all()) for x in inputs):
        return False
    return any(
        out.dtype.kind == "f" and bool(np.isnan(out).any()) and not bool(np.isnan(ex).any())
        for out, ex in zip(outputs, example, strict=True)
    )


def beyond_float16(outputs: Sequence[np.ndarray]) -> bool:
    """Whether a float32 output holds a finite value float16 cannot (above 65504 in
    magnitude): for a relaxed model such an answer has no one right value (float16
    arithmetic gives infinity where float32 gives a number), so its draw does not count."""
    return any(
        out.dtype == np.float32 and bool(np.any(np.isfinite(out) & (np.abs(out) > FLOAT16_MAX)))
        for out in outputs
    )


def float16_constants(model):
    """A copy of ``model`` whose float32 constants (in ``operand_values``) are rounded to
    float16: what a relaxed driver may compute with. A draw of a relaxed model whose
    answer changes when its constants are rounded so (a score at a threshold, a box at an
    IoU limit) has no one right answer, and does not count."""
    from dataclasses import replace

    from hal.types import OperandLifeTime, OperandType

    values = bytearray(model.operand_values)
    for operand in model.operands:
        if operand.lifetime != OperandLifeTime.CONSTANT_COPY or operand.type not in (
            OperandType.FLOAT32,
            OperandType.TENSOR_FLOAT32,
        ):
            continue
        start, length = operand.location.offset, operand.location.length
        held = np.frombuffer(bytes(values[start : start + length]), "<f4")
        with np.errstate(over="ignore"):
            rounded = np.where(
                np.abs(held) <= FLOAT16_MAX, held.astype(np.float16).astype("<f4"), held
            )
        values[start : start + length] = rounded.astype("<f4").tobytes()
    return replace(model, operand_values=bytes(values))


def same_answer(
    first: Sequence[np.ndarray], second: Sequence[np.ndarray], types: Sequence[int], tolerance
) -> bool:
    """Whether two answers agree: the same shapes, values within ``tolerance``."""
    from conformance.harness.tolerance import compare

    return all(
        a.shape == b.shape and compare(a, b, t, tolerance).ok
        for a, b, t in zip(first, second, types, strict=True)
    )


def shuffle_classes(inputs: Sequence[np.ndarray], rng: np.random.Generator) -> list[np.ndarray]:
    """A multinomial case's inputs with each row of logits (input 0) shuffled, the rest
    kept: the distribution stays as peaked as the tolerance was made for, the likely class
    moves."""
    logits = inputs[0]
    rows = logits.reshape(logits.shape[0], -1) if logits.size else logits
    shuffled = np.stack([rng.permutation(row) for row in rows]) if logits.size else rows
    return [np.ascontiguousarray(shuffled.reshape(logits.shape)), *inputs[1:]]


def differs(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> bool:
    """Whether two input lists hold different bytes."""
    return any(x.tobytes() != y.tobytes() for x, y in zip(a, b, strict=True))


class OracleUnavailable(Exception):
    """The oracle process could not answer (it died, or did not answer in time)."""


@dataclass(frozen=True)
class Answer:
    """The reference driver's answer for one request."""

    status: int
    """An ``ErrorStatus`` value."""
    shapes: list[tuple[int, ...]]
    outputs: list[bytes]
    """Each output buffer's bytes (empty unless the status is NONE)."""


class ReferenceOracle:
    """The reference driver in a spawned process of its own, computing on request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._conn: Connection | None = None
        self._send: Connection | None = None

    def _start(self) -> None:
        # A new interpreter running this module (not multiprocessing's spawn, which would
        # import the test process's __main__ again), talking over two pipes.
        child_reads, parent_writes = os.pipe()
        parent_reads, child_writes = os.pipe()
        # The oracle dies with this process when the thread starting it is the main one
        # (the kernel's parent-death signal follows the thread that forked the child).
        parent = os.getpid() if threading.current_thread() is threading.main_thread() else 0
        ends = (str(child_reads), str(child_writes), str(parent))
        try:
            process = subprocess.Popen(
                # -P: nothing of the folder the run started in is imported.
                [sys.executable, "-P", "-m", __name__, *ends],
                pass_fds=(child_reads, child_writes),
                stdin=subprocess.DEVNULL,
            )
        except OSError:
            os.close(parent_writes)
            os.close(parent_reads)
            raise
        finally:
            os.close(child_reads)
            os.close(child_writes)
        self._process = process
        self._send = Connection(parent_writes, readable=False)
        self._conn = Connection(parent_reads, writable=False)

    def stop(self) -> None:
        """End the oracle process (a new one starts on the next request)."""
        process, conn, send = self._process, self._conn, self._send
        self._process = self._conn = self._send = None
        for end in (send, conn):
            if end is not None:
                end.close()
        if process is not None:
            process.kill()
            process.wait(5)

    def compute(
        self,
        key: str,
        model,
        inputs: Sequence[np.ndarray],
        output_sizes: Sequence[int],
        timeout: float,
    ) -> Answer:
        """The reference's answer for ``model`` (prepared once per ``key``) on ``inputs``."""
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self.stop()
                self._start()
            try:
                self._send.send((key, model, list(inputs), list(output_sizes)))
                if not self._conn.poll(timeout):
                    raise OracleUnavailable(f"the reference oracle gave no answer in {timeout:g} s")
                reply = self._conn.recv()
            except (OSError, EOFError) as error:
                self.stop()
                raise OracleUnavailable(f"the reference oracle process ended: {error}") from None
            except OracleUnavailable:
                self.stop()
                raise
        if reply[0] != "ok":
            raise OracleUnavailable(f"the reference oracle failed: {reply[1]}")
        return Answer(reply[1], reply[2], reply[3])


_ORACLE: ReferenceOracle | None = None


def oracle() -> ReferenceOracle:
    """The test process's oracle (started on its first request, stopped when the process
    exits: left to end on its own, it would go on computing its last request after the
    test process ended)."""
    global _ORACLE
    if _ORACLE is None:
        _ORACLE = ReferenceOracle()
        atexit.register(_stop_at_exit, _ORACLE, os.getpid())
    return _ORACLE


def _stop_at_exit(made: ReferenceOracle, pid: int) -> None:
    """Stop ``made`` when the process that made it exits (not a process forked from it,
    whose copy of the oracle's pipes is not the oracle's to end)."""
    if os.getpid() == pid:
        made.stop()


def fresh_case(test: GeneratedTest, inputs: list[np.ndarray], outputs: list[np.ndarray]):
    """``test`` with one example: the drawn inputs and the oracle's outputs."""
    from dataclasses import replace

    from conformance.harness.cases import Feed

    return replace(test, feeds=[Feed(inputs, outputs)])


def serve(conn: Connection, reply: Connection) -> None:  # pragma: no cover - the oracle's
    """The oracle process: prepare each model once on the reference driver, execute each
    request synchronously, send back the status, shapes and output bytes."""
    from conformance.harness.requests import pack_request
    from hal.callbacks import PreparedModelCallback
    from hal.types import ErrorStatus, ExecutionPreference, HalVersion, MeasureTiming, Priority
    from hal.validation import minimum_version
    from reference_driver import ReferenceDriver

    device = ReferenceDriver()
    prepared: OrderedDict[str, object] = OrderedDict()
    while True:
        try:
            key, model, inputs, sizes = conn.recv()
        except (EOFError, OSError):
            return
        try:
            model_of = prepared.get(key)
            if model_of is None:
                callback = PreparedModelCallback()
                if (minimum_version(model) or HalVersion.V1_3) > HalVersion.V1_2:
                    # a model of HAL 1.3 operations or forms: only 1.3's method takes it
                    device.prepare_model_1_3(
                        model,
                        ExecutionPreference.FAST_SINGLE_ANSWER,
                        Priority.MEDIUM,
                        None,
                        callback,
                    )
                else:
                    device.prepare_model_1_2(
                        model, ExecutionPreference.FAST_SINGLE_ANSWER, callback
                    )
                notification = callback.wait(60)
                if notification.status != ErrorStatus.NONE:
                    reply.send(("ok", int(notification.status), [], []))
                    continue
                model_of = prepared[key] = notification.prepared_model
                while len(prepared) > _PREPARED_LIMIT:
                    prepared.popitem(last=False)
            prepared.move_to_end(key)
            with pack_request(model, inputs, sizes) as packed:
                status, shapes, _ = model_of.execute_synchronously(packed.request, MeasureTiming.NO)
                outputs = (
                    [packed.output_bytes(i) for i in range(len(sizes))]
                    if status == ErrorStatus.NONE
                    else []
                )
            reply.send(("ok", int(status), [tuple(s.dimensions) for s in shapes], outputs))
        except Exception as error:  # the oracle answers even when it breaks
            reply.send(("error", f"{type(error).__name__}: {error}"))


def _die_with(parent: int) -> bool:
    """Have the kernel kill this process when ``parent`` (its parent) ends; False when it has
    already ended (then there is nobody to answer). 0: no parent-death signal asked."""
    if parent:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        return os.getppid() == parent
    return True


if __name__ == "__main__":  # pragma: no cover - the oracle process
    if _die_with(int(sys.argv[3])):
        serve(
            Connection(int(sys.argv[1]), writable=False),
            Connection(int(sys.argv[2]), readable=False),
        )
