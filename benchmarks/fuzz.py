"""``python -m benchmarks fuzz``: the reference driver against random hostile models and requests.

Each case is one operation of the catalog in one of its forms, built by
``conformance.harness.models.signature_model`` and then made hostile at random
(``make_case``): scalar parameters replaced by extreme values (0, -1, 2**26,
2**31 - 1, -2**31, NaN, +-inf, 3e38...) or moved into the request, tensor
inputs given random shapes (zero-sized and large ones included), constant
values (extreme integers such as TILE multiples and PAD paddings, NaN and inf
floats) and unknown or wrong declared dimensions, output dimensions declared
at random, output buffers of random sizes. ``run_case`` then asks the driver
``get_supported_operations_1_2``, ``prepare_model_1_2`` and, when preparation
succeeds, ``execute_synchronously`` (and, one case in four, ``execute_1_2``),
timing each call and recording anything that escapes it: an exception, an
answer that is not an ErrorStatus, a callback that never comes.

The benchmark runs ``NNHAL_FUZZ_CASES`` cases (default 100,000;
``--fuzz-cases N`` on the command line sets it; a quick run does 300) from
seed ``NNHAL_FUZZ_SEED`` (default 0) against ``ReferenceDriver()`` with its
default budgets, and reports the escaped exceptions (target 0), the slowest
call (target under 10 s) and the process's peak resident set size (target
under 2 GiB). It has no baseline: its figures are absolute.
"""

from __future__ import annotations

import math
import os
import struct
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from benchmarks._rss_probe import reset_peak, status_bytes
from conformance.harness.models import signature_model
from conformance.harness.requests import pack_request
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.operations import Signature, signatures
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    MeasureTiming,
    Model,
    OperandLifeTime,
    OperandType,
    OperationType,
    numpy_dtype,
)

CASES_ENV = "NNHAL_FUZZ_CASES"
SEED_ENV = "NNHAL_FUZZ_SEED"
DEFAULT_CASES = 100_000
QUICK_CASES = 300
CALL_TARGET_S = 10.0
RSS_TARGET = 2 << 30
CALLBACK_TIMEOUT_S = 60.0

T = OperandType
INT_EXTREMES = (
    0, 1, -1, 2, 3, 4, 7, 255, 256, 1 << 12, 1 << 16, 1 << 20, 1 << 26, 1 << 30,
    2**31 - 1, -(2**31), -(1 << 20), -7,
)  # fmt: skip
FLOAT_EXTREMES = (
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-30, 1e-5, 1e5, 1e30, -1e30, 3e38, -3e38,
    math.inf, -math.inf, math.nan,
)  # fmt: skip
SMALL_DIMS = (1, 1, 2, 2, 3, 4, 5, 8)
ODD_DIMS = (0, 16, 64, 255, 1024)
OUTPUT_SIZES = (0, 4, 16, 64, 1024, 1 << 16, 1 << 20)
_SCALARS = {T.INT32: "<i", T.UINT32: "<I", T.FLOAT32: "<f", T.FLOAT16: "<e", T.BOOL: "<?"}


def _all_signatures() -> list[Signature]:
    found: list[Signature] = []
    for op in OperationType:
        if op >= OperationType.OEM_OPERATION:
            continue
        found.extend(signatures(op, HalVersion.V1_2))
    return found


SIGNATURES = _all_signatures()
"""Every catalogued form of every operation at HAL 1.2 (the cases' starting points)."""


@dataclass
class Case:
    """One hostile model and the request data for it."""

    label: str
    model: Model
    inputs: list[np.ndarray | None]
    output_sizes: list[int]
    asynchronous: bool = False


def _scalar_value(rng: np.random.Generator, type_: int) -> int | float | bool:
    if type_ == T.BOOL:
        return bool(rng.integers(0, 2))
    if type_ in (T.FLOAT32, T.FLOAT16):
        value = float(FLOAT_EXTREMES[rng.integers(len(FLOAT_EXTREMES))])
        return value if type_ == T.FLOAT32 or not math.isfinite(value) or abs(value) < 6e4 else 6e4
    value = int(INT_EXTREMES[rng.integers(len(INT_EXTREMES))])
    return value & 0xFFFFFFFF if type_ == T.UINT32 else value


def _dims(rng: np.random.Generator, rank: int) -> list[int]:
    pool = ODD_DIMS if rng.random() < 0.08 else SMALL_DIMS
    dims = [int(pool[rng.integers(len(pool))]) for _ in range(rank)]
    # Keep a tensor under 2**20 elements: the request itself must stay affordable.
    while math.prod(dims) > 1 << 20:
        dims[int(np.argmax(dims))] //= 4
    return dims


def _tensor_values(rng: np.random.Generator, type_: int, dims: list[int]) -> np.ndarray:
    dtype = numpy_dtype(type_)
    size = math.prod(dims)
    if np.issubdtype(dtype, np.floating):
        values = rng.normal(0, 4, size)
        if rng.random() < 0.2 and size:
            values[rng.integers(size)] = FLOAT_EXTREMES[rng.integers(len(FLOAT_EXTREMES))]
        with np.errstate(over="ignore", invalid="ignore"):
            return values.astype(dtype).reshape(dims)
    info = np.iinfo(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size).astype(np.bool_).reshape(dims)
    if type_ in (T.TENSOR_INT32,) and rng.random() < 0.5:
        picks = rng.integers(len(INT_EXTREMES), size=size)
        return np.array([INT_EXTREMES[i] for i in picks], np.int64).astype(dtype).reshape(dims)
    high = info.max if rng.random() < 0.3 else min(info.max, 8)
    low = info.min if rng.random() < 0.3 else max(info.min, -2)
    return rng.integers(low, high, size, endpoint=True).astype(dtype).reshape(dims)


def _append(model: Model, data: bytes) -> DataLocation:
    values = bytearray(model.operand_values)
    while len(values) % 4:
        values.append(0)
    location = DataLocation(0, len(values), len(data))
    model.operand_values = bytes(values + data)
    return location


def make_case(rng: np.random.Generator) -> Case:
    """A random hostile case (everything drawn from ``rng``: a seed replays it)."""
    signature = SIGNATURES[rng.integers(len(SIGNATURES))]
    model = signature_model(signature)
    operation = model.operations[0]
    request_values: dict[int, np.ndarray] = {}
    max_rank = {slot: high for slot, _, high in signature.ranks}
    for slot, index in enumerate(operation.inputs):
        operand = model.operands[index]
        if operand.lifetime == OperandLifeTime.CONSTANT_COPY:
            if rng.random() < 0.6:
                value = _scalar_value(rng, operand.type)
                fmt = _SCALARS.get(operand.type)
                if fmt is None:
                    continue
                data = struct.pack(fmt, value)
                if rng.random() < 0.15:  # the request gives it
                    operand.lifetime = OperandLifeTime.MODEL_INPUT
                    operand.location = DataLocation()
                    model.input_indexes.append(index)
                    request_values[index] = np.array(value, dtype=numpy_dtype(operand.type))
                else:
                    operand.location = _append(model, data)
            continue
        if operand.lifetime != OperandLifeTime.MODEL_INPUT:
            continue
        low = len(operand.dimensions)
        high = max(low, min(max_rank.get(slot, 4), 4))
        rank = int(rng.integers(low, high + 1)) if rng.random() < 0.5 else low
        dims = _dims(rng, rank) if rng.random() < 0.8 else [1] * rank
        values = _tensor_values(rng, operand.type, dims)
        if rng.random() < 0.3 and values.size:  # a constant
            model.input_indexes.remove(index)
            operand.lifetime = OperandLifeTime.CONSTANT_COPY
            operand.dimensions = dims
            operand.location = _append(model, values.tobytes())
            continue
        choice = rng.random()
        if choice < 0.4:
            operand.dimensions = [0] * rank  # given by the request
        elif choice < 0.9:
            operand.dimensions = list(dims)
        else:
            operand.dimensions = _dims(rng, rank)  # likely wrong for the request
        request_values[index] = values
    for index in operation.outputs:
        operand = model.operands[index]
        if rng.random() < 0.3:
            operand.dimensions = _dims(rng, int(rng.integers(1, 5)))
    inputs = [request_values.get(i) for i in model.input_indexes]
    sizes = [int(OUTPUT_SIZES[rng.integers(len(OUTPUT_SIZES))]) for _ in model.output_indexes]
    label = f"{signature.operation.name}[{signature.form or signature.variant}]"
    return Case(label, model, inputs, sizes, asynchronous=bool(rng.random() < 0.25))


@dataclass
class Outcome:
    """What the driver did with one case."""

    statuses: list[ErrorStatus] = field(default_factory=list)
    escaped: list[str] = field(default_factory=list)
    """One line per exception, non-status answer or missing callback."""
    slowest: tuple[float, str] = (0.0, "")
    """(seconds, which call) of the case's slowest call."""


def _status_of(answer: object) -> ErrorStatus | None:
    status = answer[0] if isinstance(answer, tuple) and answer else answer
    try:
        return ErrorStatus(status) if isinstance(status, int) else None
    except ValueError:
        return None


def run_case(driver, case: Case, timeout: float = CALLBACK_TIMEOUT_S) -> Outcome:
    """Every HAL call of ``case`` on ``driver``, each timed and checked (never raises)."""
    outcome = Outcome()

    def call(name: str, fn: Callable[[], object]) -> object | None:
        start = time.perf_counter()
        try:
            answer = fn()
        except BaseException as error:  # recording what escaped is the point
            outcome.escaped.append(f"{case.label} {name}: {type(error).__name__}: {error}")
            if not isinstance(error, Exception):
                outcome.escaped.append(traceback.format_exc(limit=3))
            return None
        finally:
            elapsed = time.perf_counter() - start
            if elapsed > outcome.slowest[0]:
                outcome.slowest = (elapsed, f"{case.label} {name}")
        status = _status_of(answer)
        if status is None:
            outcome.escaped.append(f"{case.label} {name}: answered {answer!r:.200}")
        else:
            outcome.statuses.append(status)
        return answer

    call("get_supported_operations_1_2", lambda: driver.get_supported_operations_1_2(case.model))
    callback = PreparedModelCallback()

    def prepare() -> ErrorStatus:
        launch = driver.prepare_model_1_2(
            case.model, ExecutionPreference.FAST_SINGLE_ANSWER, callback
        )
        callback.wait(timeout)
        return launch

    if call("prepare_model_1_2", prepare) is None:
        return outcome
    notification = callback.wait(0)
    if notification.status != ErrorStatus.NONE:
        return outcome
    prepared = notification.prepared_model
    try:
        packed = pack_request(case.model, case.inputs, case.output_sizes)
    except (ValueError, TypeError, OverflowError):
        return outcome  # the harness cannot pack these values: nothing of the driver's
    with packed:
        call(
            "execute_synchronously",
            lambda: prepared.execute_synchronously(packed.request, MeasureTiming.NO),
        )
        if case.asynchronous:
            execution = ExecutionCallback()

            def execute() -> ErrorStatus:
                launch = prepared.execute_1_2(packed.request, MeasureTiming.YES, execution)
                execution.wait(timeout)
                return launch

            call("execute_1_2", execute)
            if execution.violations:
                outcome.escaped.extend(f"{case.label}: {v}" for v in execution.violations)
    if callback.violations:
        outcome.escaped.extend(f"{case.label}: {v}" for v in callback.violations)
    return outcome


@dataclass
class Summary:
    cases: int = 0
    calls: int = 0
    escaped: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")
    statuses: dict[str, int] = field(default_factory=dict)


def fuzz(driver, cases: int, seed: int, progress: Callable[[int], None] | None = None) -> Summary:
    """``cases`` cases from ``seed`` against ``driver``."""
    summary = Summary()
    rng = np.random.default_rng(seed)
    for number in range(cases):
        outcome = run_case(driver, make_case(rng))
        summary.cases += 1
        summary.calls += len(outcome.statuses) + len(outcome.escaped)
        summary.escaped.extend(outcome.escaped)
        for status in outcome.statuses:
            summary.statuses[status.name] = summary.statuses.get(status.name, 0) + 1
        if outcome.slowest[0] > summary.slowest[0]:
            summary.slowest = outcome.slowest
        if progress is not None and (number + 1) % 10_000 == 0:
            progress(number + 1)
    return summary


def _cases() -> int:
    from benchmarks.result import quick

    if quick():
        return QUICK_CASES
    return int(os.environ.get(CASES_ENV, DEFAULT_CASES))


def run():
    import logging

    from benchmarks.result import Figure, Result
    from reference_driver import ReferenceDriver

    logger = logging.getLogger("reference_driver")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # the failures it logs are expected here
    cases, seed = _cases(), int(os.environ.get(SEED_ENV, 0))
    start_rss = status_bytes("VmRSS")
    peak_reset = reset_peak()
    started = time.perf_counter()
    try:
        summary = fuzz(
            ReferenceDriver(),
            cases,
            seed,
            lambda n: print(f"fuzz: {n} cases, {time.perf_counter() - started:.0f} s", flush=True),
        )
    finally:
        logger.setLevel(level)
    wall = time.perf_counter() - started
    peak = status_bytes("VmHWM")
    slowest_s, slowest_call = summary.slowest
    counts = ", ".join(f"{name} {count}" for name, count in sorted(summary.statuses.items()))
    line = (
        f"fuzz: {summary.cases} cases (seed {seed}), {summary.calls} calls in {wall:.0f} s: "
        f"{len(summary.escaped)} escaped (target 0); slowest call {slowest_s:.3f} s "
        f"({slowest_call}; target < {CALL_TARGET_S:g} s); peak RSS {peak / 2**20:.0f} MiB "
        f"(from {start_rss / 2**20:.0f} MiB{'' if peak_reset else ', peak not reset'}; "
        f"target < {RSS_TARGET >> 20} MiB); statuses: {counts}"
    )
    for escaped in summary.escaped[:10]:
        line += f"\n  escaped: {escaped}"
    return Result(
        "fuzz",
        line,
        [
            Figure("cases", summary.cases, "cases"),
            Figure("escaped", len(summary.escaped), "calls", target="0",
                   met=not summary.escaped),
            Figure("slowest call", round(slowest_s, 4), "s", target=f"< {CALL_TARGET_S:g} s",
                   met=slowest_s < CALL_TARGET_S),
            Figure("peak RSS", round(peak / 2**20, 1), "MiB",
                   target=f"< {RSS_TARGET >> 20} MiB", met=peak < RSS_TARGET),
        ],
    )  # fmt: skip
