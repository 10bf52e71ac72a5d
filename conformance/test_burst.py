"""Bursts: the fast-message-queue protocol of ``configure_execution_burst``.

Parity (docs/vts-parity.md 2.5), per generated case of the profile (one per spec
under ``ci``, one per spec and kind under ``full``, every case under
``thorough``), on the case's first example in the VTS request layout:

* ``test_burst_serialization``: the request packet (MeasureTiming YES) with
  each datum removed, each of seven fixed bad datums inserted at every
  position, and each datum replaced by each bad datum: every one must get a
  status other than NONE, no output shapes and no timing;
* ``test_burst_fmq_length``: a result channel of 8 datums for a result that
  needs more must get that failure too (skipped, as in VTS, when the result
  fits);
* ``test_burst_result_padding``: the three padding bytes of every result
  OperandInformation are zero.

Strict (beyond VTS), per case: ``test_burst_result_channel_too_small`` (a
result channel of 2 datums, so the check applies whenever the driver reports
shapes) and ``test_burst_result_sanitized`` (every byte of a result datum that
no field uses is zero). On one case the driver supports (the probe):
malformed packets of every kind, unknown slots, ``free_memory`` of unknown
slots, many executions reusing cached memories (``get_memories`` only for new
slots, outputs written every time), releasing a burst with a packet in
flight, and a client that stops reading results. On one case with two
examples of the same layout: new input values written into the same memory
slots between computations, and two requests on different slots computed in
turn, on one burst, every result checked against its own example.

Every wait has the run's ``--hal-timeout``; a driver that never answers a
packet fails the test (VTS would hang).
"""

from __future__ import annotations

import contextlib
import math
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import pytest

from conformance.harness import items
from conformance.harness.execution import (
    Execution,
    ExecutionPath,
    burst_compute,
    check_timing,
    open_burst,
)
from conformance.harness.models import binary_model
from conformance.harness.mutations import case_id, corpus, representatives
from conformance.harness.prepared import prepared as prepare_cached
from conformance.harness.requests import GUARD, PackedRequest, pack_request
from conformance.harness.runner import DYNAMIC_UNSUPPORTED, unwritten_problem
from conformance.harness.tolerance import compare, rules_for, tolerance_for
from hal.burst import (
    INT32_MAX,
    REQUEST_DATUM_SIZE,
    RESULT_OPERAND_PADDING,
    BurstController,
    BurstError,
    FmqRequestDatum,
    MalformedPacket,
    RequestDatumKind,
    ResultDatumKind,
    decode_result,
    deserialize_result,
    encode_request,
    encode_result,
    result_length,
    serialize_request,
)
from hal.memory import map_memory, open_memory
from hal.show import show_exception
from hal.types import NO_TIMING, DataLocation, ErrorStatus, HalVersion, MeasureTiming, Request

_CASES = {
    case_id(test): test
    for test in corpus()
    if test.feeds and not test.expect_failure and test.case_level < HalVersion.V1_3
}
"""The cases a 1.2 driver runs (a burst is a 1.2 object: its models are prepared at HAL
1.2): neither the 1.3 folder's nor Android 11's lifetime variations, and no
expected-failure model."""
SMALL_RESULT_LENGTH = 8
"""The short result channel of VTS's FmqLength test."""
TINY_RESULT_LENGTH = 2
"""Room for a failure packet (packetInformation and executionTiming) and nothing more."""
PROBE_PREFERENCE = ("V1_0/add/none", "V1_2/add_v1_2/base", "V1_0/mul/none")
"""Cases tried first for the single-case tests; then every case in corpus order."""
REUSE_EXECUTIONS = 12

pytestmark = pytest.mark.hal_level("1.2")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        profile = metafunc.config.getoption("--nnhal-profile")
        chosen = [case_id(t) for t in representatives(_CASES.values(), profile)]
        metafunc.parametrize("case", chosen)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _prepared_case(device, case: str, timeout: float):
    """The case prepared at HAL 1.2 (cached per worker: ``harness.prepared``), or the skip
    it led to."""
    return prepare_cached(device, _CASES[case].model, HalVersion.V1_2, timeout)


@contextlib.contextmanager
def _request_for(case: str, explicit_dims: bool = False, feed: int = 0) -> Iterator[PackedRequest]:
    """The case's example ``feed`` (the first by default) in the VTS layout; with
    ``explicit_dims`` every argument repeats its operand's dimensions, so the packet
    carries dimension datums."""
    test = _CASES[case]
    example = test.feeds[feed]
    outputs = [out.nbytes for out in example.outputs]
    with pack_request(test.model, example.inputs, outputs) as packed:
        if explicit_dims:
            model = test.model
            for arguments, indexes in (
                (packed.request.inputs, model.input_indexes),
                (packed.request.outputs, model.output_indexes),
            ):
                for argument, index in zip(arguments, indexes, strict=True):
                    if not argument.has_no_value:
                        argument.dimensions = list(model.operands[index].dimensions)
        yield packed


def _failure_problems(result, what: str) -> list[str]:
    """What is wrong with the answer to a packet that must fail."""
    problems = []
    if result.status == ErrorStatus.NONE:
        problems.append("status NONE")
    if result.output_shapes:
        problems.append(f"{len(result.output_shapes)} output shapes (must be none)")
    if result.timing != NO_TIMING:
        problems.append(f"timing {result.timing} (must be UINT64_MAX in both fields)")
    return [f"{what}: " + ", ".join(problems)] if problems else []


def _exchange(controller: BurstController, packet: bytes, timeout: float, what: str):
    """Send a raw packet and read its result; a hang or a malformed result fails the test."""
    try:
        controller.send(packet, timeout)
        raw = controller.receive(timeout)
        return _Answer(*deserialize_result(decode_result(raw)))
    except MalformedPacket as error:
        pytest.fail(f"{what}: the driver's result packet is malformed: {error}", pytrace=False)
    except BurstError as error:
        pytest.fail(f"{what}: {error}", pytrace=False)


@dataclass(frozen=True)
class _Answer:
    status: ErrorStatus
    output_shapes: list
    timing: object


def _report(failures: list[str], total: int, what: str) -> None:
    if failures:
        shown = "\n".join(failures[:20])
        more = f"\n... and {len(failures) - 20} more" if len(failures) > 20 else ""
        pytest.fail(f"{len(failures)} of {total} {what}:\n{shown}{more}", pytrace=False)


def _packet(packed: PackedRequest, controller: BurstController, measure) -> list:
    slots = [controller.callback.slot_of(pool) for pool in packed.request.pools]
    return serialize_request(packed.request, measure, slots)


# ---------------------------------------------------------------------------
# Parity: ValidateBurst.cpp
# ---------------------------------------------------------------------------

_EMPTY = DataLocation(0, 0, 0)
BAD_DATUMS = (
    FmqRequestDatum.packet_information(10, 10, 10, 10),
    FmqRequestDatum.operand_information(
        RequestDatumKind.INPUT_OPERAND_INFORMATION, False, _EMPTY, 10
    ),
    FmqRequestDatum(RequestDatumKind.INPUT_OPERAND_DIMENSION_VALUE, 0),
    FmqRequestDatum.operand_information(
        RequestDatumKind.OUTPUT_OPERAND_INFORMATION, False, _EMPTY, 10
    ),
    FmqRequestDatum(RequestDatumKind.OUTPUT_OPERAND_DIMENSION_VALUE, 0),
    FmqRequestDatum(RequestDatumKind.POOL_IDENTIFIER, INT32_MAX),
    FmqRequestDatum(RequestDatumKind.MEASURE_TIMING, MeasureTiming.YES),
)
"""The seven fixed bad datums of VTS's packet mutations."""
_DIMENSION_KINDS = (
    RequestDatumKind.INPUT_OPERAND_DIMENSION_VALUE,
    RequestDatumKind.OUTPUT_OPERAND_DIMENSION_VALUE,
)


def packet_mutations(datums: list) -> Iterator[tuple[str, list]]:
    """(description, mutated datums): remove each, insert each bad datum everywhere, replace
    each datum by each bad datum when that changes something that matters."""
    for index, datum in enumerate(datums):
        yield f"datum {index} ({datum.kind.name}) removed", datums[:index] + datums[index + 1 :]
    for position in range(len(datums) + 1):
        for number, bad in enumerate(BAD_DATUMS):
            yield (
                f"bad datum {number} ({bad.kind.name}) inserted at {position}",
                [*datums[:position], bad, *datums[position:]],
            )
    for index, datum in enumerate(datums):
        for number, bad in enumerate(BAD_DATUMS):
            same_dimension = datum.kind == bad.kind and datum.kind in _DIMENSION_KINDS
            if datum != bad and not same_dimension:
                mutated = list(datums)
                mutated[index] = bad
                yield f"datum {index} ({datum.kind.name}) replaced by bad datum {number}", mutated


@pytest.mark.tier("parity")
def test_burst_serialization(case: str, device, hal_timeout: float) -> None:
    prepared = _prepared_case(device, case, hal_timeout)
    with _request_for(case) as packed, open_burst(prepared) as controller:
        datums = _packet(packed, controller, MeasureTiming.YES)
        failures, total = [], 0
        for what, mutated in packet_mutations(datums):
            if len(mutated) > controller.requests.capacity:
                continue
            total += 1
            answer = _exchange(controller, encode_request(mutated), hal_timeout, what)
            failures += _failure_problems(answer, what)
    _report(failures, total, "mutated request packets were not refused")


@pytest.mark.tier("parity")
def test_burst_fmq_length(case: str, device, hal_timeout: float) -> None:
    prepared = _prepared_case(device, case, hal_timeout)
    with _request_for(case) as packed:
        with open_burst(prepared) as controller:
            regular = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
        needed = result_length(regular.output_shapes)
        if regular.status != ErrorStatus.NONE or needed <= SMALL_RESULT_LENGTH:
            pytest.skip(
                f"the result ({regular.status.name}, {needed} datums) fits a result channel of "
                f"{SMALL_RESULT_LENGTH}"
            )
        with open_burst(prepared, result_length=SMALL_RESULT_LENGTH) as controller:
            small = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
    what = f"a result of {needed} datums on a result channel of {SMALL_RESULT_LENGTH}"
    _report(_failure_problems(small, what), 1, "answers were wrong")


@pytest.mark.tier("parity")
def test_burst_result_padding(case: str, device, hal_timeout: float) -> None:
    prepared = _prepared_case(device, case, hal_timeout)
    with _request_for(case) as packed, open_burst(prepared) as controller:
        result = burst_compute(controller, packed.request, MeasureTiming.YES, hal_timeout)
    failures = []
    for index in range(0, len(result.raw), 24):
        element = result.raw[index : index + 24]
        if element[0] == ResultDatumKind.OPERAND_INFORMATION:
            padding = bytes(element[i] for i in RESULT_OPERAND_PADDING)
            if padding != b"\0\0\0":
                failures.append(
                    f"result datum {index // 24} (OPERAND_INFORMATION): padding bytes "
                    f"{padding.hex(' ')}, expected 00 00 00"
                )
    _report(failures, len(result.raw) // 24, "result datums leak bytes through their padding")


# ---------------------------------------------------------------------------
# Strict, per case
# ---------------------------------------------------------------------------


@pytest.mark.tier("strict")
def test_burst_result_channel_too_small(case: str, device, hal_timeout: float) -> None:
    """A result that does not fit must come back as a short failure, never a hang."""
    prepared = _prepared_case(device, case, hal_timeout)
    with _request_for(case) as packed:
        with open_burst(prepared) as controller:
            regular = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
        needed = result_length(regular.output_shapes)
        if needed <= TINY_RESULT_LENGTH:
            pytest.skip("the driver reports no output shapes: every result fits")
        with open_burst(prepared, result_length=TINY_RESULT_LENGTH) as controller:
            tiny = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
    what = f"a result of {needed} datums on a result channel of {TINY_RESULT_LENGTH}"
    _report(_failure_problems(tiny, what), 1, "answers were wrong")


@pytest.mark.tier("strict")
def test_burst_result_sanitized(case: str, device, hal_timeout: float) -> None:
    """No byte of a result datum outside its fields may carry anything but zero."""
    prepared = _prepared_case(device, case, hal_timeout)
    with _request_for(case) as packed, open_burst(prepared) as controller:
        result = burst_compute(controller, packed.request, MeasureTiming.YES, hal_timeout)
    clean = encode_result(decode_result(result.raw))
    failures = [
        f"result datum {i // 24} ({ResultDatumKind(result.raw[i]).name}): bytes "
        f"{result.raw[i : i + 24].hex(' ')}, fields alone give {clean[i : i + 24].hex(' ')}"
        for i in range(0, len(clean), 24)
        if clean[i : i + 24] != result.raw[i : i + 24]
    ]
    _report(failures, len(clean) // 24, "result datums have non-zero unused bytes")


# ---------------------------------------------------------------------------
# Strict, on the probe case
# ---------------------------------------------------------------------------

_probes: dict[tuple[int, int], tuple[object, str | None]] = {}
"""(driver, feeds) -> the driver (so the id stays its own) and the case ``_probe`` chose."""


def _probe(device, timeout: float, feeds: int = 1) -> tuple[str, object]:
    """A case the driver fully supports, and its prepared model (first found, per driver);
    with ``feeds`` > 1, one whose first ``feeds`` examples fit the same request layout and
    expect different outputs (``_distinct_feeds``)."""
    key = (id(device), feeds)
    if key not in _probes:
        order = [c for c in PROBE_PREFERENCE if c in _CASES]
        order += [c for c in _CASES if c not in PROBE_PREFERENCE]
        if feeds > 1:
            order = [c for c in order if _distinct_feeds(_CASES[c], feeds)]
        found = None
        for case in order[:200]:
            try:
                _prepared_case(device, case, timeout)
            except pytest.skip.Exception:
                continue
            found = case
            break
        _probes[key] = (device, found)
    case = _probes[key][1]
    if case is None:
        tried = "generated cases tried" if feeds == 1 else f"cases with {feeds} examples tried"
        items.unsupported(f"unsupported: the driver supports none of the {tried}")
    return case, _prepared_case(device, case, timeout)


def _distinct_feeds(test, count: int) -> bool:
    """Whether the case's first ``count`` examples have inputs of the same shapes and types
    (so one request layout holds each) and pairwise different expected outputs."""
    feeds = test.feeds[:count]
    if len(feeds) < count or test.ignored_outputs:
        return False
    first = feeds[0]
    layout = [(x.shape, x.dtype) for x in (*first.inputs, *first.outputs) if x is not None]
    for feed in feeds[1:]:
        if [(x.shape, x.dtype) for x in (*feed.inputs, *feed.outputs) if x is not None] != layout:
            return False
    outputs = [b"".join(x.tobytes() for x in feed.outputs) for feed in feeds]
    return len(set(outputs)) == len(outputs)


def _raw(kind: int, fields: bytes = b"") -> bytes:
    """One request element with any discriminator and union bytes (zero-padded)."""
    return struct.pack("<B3x", kind) + fields.ljust(REQUEST_DATUM_SIZE - 4, b"\0")


def _u32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}I", *(v & 0xFFFFFFFF for v in values))


def _malformed(datums: list) -> dict[str, bytes]:
    """Named malformed versions of a valid request packet (its datums), as raw bytes."""
    info = datums[0].value
    body = encode_request(datums[1:])
    size, n_in, n_out, n_pools = (
        info.packet_size,
        info.number_of_input_operands,
        info.number_of_output_operands,
        info.number_of_pools,
    )

    def head(*counts: int) -> bytes:
        return _raw(RequestDatumKind.PACKET_INFORMATION, _u32(*counts))

    first_input = next(i for i, d in enumerate(datums) if d.kind == 1)
    operand = datums[first_input].value
    where = operand.location
    element = REQUEST_DATUM_SIZE

    def with_first_input(has_no_value: int, dims: int) -> bytes:
        fields = bytes([has_no_value, 0, 0, 0]) + _u32(
            where.pool_index, where.offset, where.length, dims
        )
        start = first_input * element
        whole = head(size, n_in, n_out, n_pools) + body
        replaced = _raw(RequestDatumKind.INPUT_OPERAND_INFORMATION, fields)
        return whole[:start] + replaced + whole[start + element :]

    valid = head(size, n_in, n_out, n_pools) + body
    measure_at = len(valid) - element
    return {
        "unknown-discriminator-7": valid[:element] + _raw(7) + valid[2 * element :],
        "unknown-discriminator-255": valid[:element] + _raw(255) + valid[2 * element :],
        "first-datum-not-packet-information": body + head(size, n_in, n_out, n_pools),
        "only-packet-information": head(1, 0, 0, 0),
        "packet-size-one-short": head(size - 1, n_in, n_out, n_pools) + body,
        "packet-size-one-over": head(size + 1, n_in, n_out, n_pools) + body,
        "packet-size-negative": head(-1, n_in, n_out, n_pools) + body,
        "input-count-one-over": head(size, n_in + 1, n_out, n_pools) + body,
        "input-count-one-short": head(size, n_in - 1, n_out, n_pools) + body,
        "output-count-one-over": head(size, n_in, n_out + 1, n_pools) + body,
        "output-count-zero": head(size, n_in, 0, n_pools) + body,
        "pool-count-one-over": head(size, n_in, n_out, n_pools + 1) + body,
        "pool-count-one-short": head(size, n_in, n_out, n_pools - 1) + body,
        "input-count-negative": head(size, -1, n_out, n_pools) + body,
        "output-count-huge": head(size, n_in, 0x7FFFFFFF, n_pools) + body,
        "pool-count-negative": head(size, n_in, n_out, -1) + body,
        "dimension-count-one-over": with_first_input(0, operand.number_of_dimensions + 1),
        "dimension-count-negative": with_first_input(0, -1),
        "has-no-value-byte-2": with_first_input(2, operand.number_of_dimensions),
        "truncated-last-datum": valid[:-element],
        "truncated-to-half": head(size, n_in, n_out, n_pools)
        + body[: len(body) // element // 2 * element],
        "extra-measure-timing": head(size + 1, n_in, n_out, n_pools)
        + body
        + _raw(RequestDatumKind.MEASURE_TIMING, _u32(0)),
        "extra-garbage-datum": valid + bytes(range(1, element + 1)),
        "measure-timing-2": valid[:measure_at] + _raw(RequestDatumKind.MEASURE_TIMING, _u32(2)),
        "measure-timing-negative": valid[:measure_at]
        + _raw(RequestDatumKind.MEASURE_TIMING, _u32(-1)),
        "measure-timing-missing": head(size - 1, n_in, n_out, n_pools) + body[:-element],
        "pool-before-outputs": _swap_outputs_and_pools(datums, head),
    }


def _swap_outputs_and_pools(datums: list, head) -> bytes:
    kinds = [d.kind for d in datums]
    outputs = [d for d, k in zip(datums, kinds, strict=True) if k in (3, 4)]
    pools = [d for d, k in zip(datums, kinds, strict=True) if k == 5]
    inputs = [d for d, k in zip(datums, kinds, strict=True) if k in (1, 2)]
    reordered = [datums[0], *inputs, *pools, *outputs, datums[-1]]
    return encode_request(reordered)


MALFORMED_KINDS = (
    "unknown-discriminator-7",
    "unknown-discriminator-255",
    "first-datum-not-packet-information",
    "only-packet-information",
    "packet-size-one-short",
    "packet-size-one-over",
    "packet-size-negative",
    "input-count-one-over",
    "input-count-one-short",
    "output-count-one-over",
    "output-count-zero",
    "pool-count-one-over",
    "pool-count-one-short",
    "input-count-negative",
    "output-count-huge",
    "pool-count-negative",
    "dimension-count-one-over",
    "dimension-count-negative",
    "has-no-value-byte-2",
    "truncated-last-datum",
    "truncated-to-half",
    "extra-measure-timing",
    "extra-garbage-datum",
    "measure-timing-2",
    "measure-timing-negative",
    "measure-timing-missing",
    "pool-before-outputs",
)


def _check_still_serves(controller, packed, timeout: float, after: str) -> None:
    """A valid packet on the same burst must still succeed."""
    result = burst_compute(controller, packed.request, MeasureTiming.NO, timeout)
    assert result.status == ErrorStatus.NONE, (
        f"after {after}, a valid request on the same burst answered {result.status.name}"
    )


@pytest.mark.tier("strict")
@pytest.mark.parametrize("kind", MALFORMED_KINDS)
def test_burst_malformed_packet(kind: str, device, hal_timeout: float) -> None:
    case, prepared = _probe(device, hal_timeout)
    with _request_for(case, explicit_dims=True) as packed, open_burst(prepared) as controller:
        packet = _malformed(_packet(packed, controller, MeasureTiming.YES))[kind]
        what = f"{kind} packet on {case}"
        answer = _exchange(controller, packet, hal_timeout, what)
        _report(_failure_problems(answer, what), 1, "malformed packets were not refused")
        if answer.status not in (ErrorStatus.INVALID_ARGUMENT, ErrorStatus.GENERAL_FAILURE):
            pytest.fail(
                f"{what}: status {answer.status.name}; a malformed packet is INVALID_ARGUMENT "
                "or GENERAL_FAILURE",
                pytrace=False,
            )
        _check_still_serves(controller, packed, hal_timeout, f"a {kind} packet")


@pytest.mark.tier("strict")
@pytest.mark.parametrize("slot", [INT32_MAX, 12345, -1])
def test_burst_unknown_slot(slot: int, device, hal_timeout: float) -> None:
    case, prepared = _probe(device, hal_timeout)
    with _request_for(case) as packed, open_burst(prepared) as controller:
        datums = _packet(packed, controller, MeasureTiming.NO)
        mutated = [
            replace(d, value=slot) if d.kind == RequestDatumKind.POOL_IDENTIFIER else d
            for d in datums
        ]
        what = f"every pool sent as unknown slot {slot} on {case}"
        answer = _exchange(controller, encode_request(mutated), hal_timeout, what)
        _report(_failure_problems(answer, what), 1, "packets with unknown slots were not refused")
        _check_still_serves(controller, packed, hal_timeout, f"unknown slot {slot}")


@pytest.mark.tier("strict")
def test_burst_free_memory_of_unknown_slots(device, hal_timeout: float) -> None:
    """free_memory of slots never used, freed twice, or absurd is harmless; a freed memory
    used again is fetched again."""
    case, prepared = _probe(device, hal_timeout)
    with _request_for(case) as packed, open_burst(prepared) as controller:
        burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
        context = controller.context
        used = controller.callback.slot_of(packed.request.pools[0])
        for slot in (INT32_MAX, -1, 999, used, used):
            try:
                context.free_memory(slot)
            except Exception as error:
                pytest.fail(f"free_memory({slot}) raised {show_exception(error)}", pytrace=False)
        controller.callback.forget(packed.request.pools[0])
        before = len(controller.callback.requests)
        _check_still_serves(controller, packed, hal_timeout, "freeing unknown and freed slots")
        fetched = [s for call in controller.callback.requests[before:] for s in call]
        new_slot = controller.callback.slot_of(packed.request.pools[0])
        assert new_slot in fetched, (
            f"pool 0 came back as new slot {new_slot} after its old slot was freed, but the "
            f"driver did not fetch it through get_memories (it asked for {fetched})"
        )


def _tolerance(test, level):
    """A case's tolerance in the strict tier's rules of the tested level."""
    spec = test.provenance.spec.rsplit("/", 1)[-1]
    return tolerance_for(test.model, spec, rules_for(level, strict=True))


@pytest.mark.tier("strict")
def test_burst_reuses_cached_memories(device, hal_timeout: float, hal_level) -> None:
    """Sequential executions on the same pools: get_memories once per slot, outputs written
    every time."""
    case, prepared = _probe(device, hal_timeout)
    test = _CASES[case]
    tolerance = _tolerance(test, hal_level)
    with _request_for(case) as packed, open_burst(prepared) as controller:
        for execution in range(REUSE_EXECUTIONS):
            _clear_outputs(packed.request)
            result = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
            assert result.status == ErrorStatus.NONE, (
                f"execution {execution} on reused pools answered {result.status.name}"
            )
            _check_values(packed, test, tolerance, f"execution {execution} on reused pools")
        asked = [s for call in controller.callback.requests for s in call]
        slots = sorted({controller.callback.slot_of(p) for p in packed.request.pools})
        assert sorted(asked) == slots, (
            f"over {REUSE_EXECUTIONS} executions on the same pools (slots {slots}) the driver "
            f"called get_memories {len(controller.callback.requests)} times for slots {asked}; "
            "each slot should be fetched once and cached"
        )


def _clear_outputs(request: Request) -> None:
    """Fill every output with ``GUARD`` bytes again, as a new request's start."""
    for argument in request.outputs:
        with map_memory(request.pools[argument.location.pool_index]) as mapping:
            mapping.write(argument.location.offset, bytes([GUARD]) * argument.location.length)


def _check_values(packed: PackedRequest, test, tolerance, what: str, feed: int = 0) -> None:
    for index, expected in enumerate(test.feeds[feed].outputs):
        if index in test.ignored_outputs:
            continue
        operand = test.model.operands[test.model.output_indexes[index]]
        outcome = compare(expected, packed.output(index, expected.shape), operand.type, tolerance)
        if not outcome.ok and packed.unwritten(index, expected.nbytes):
            pytest.fail(f"{what}: {unwritten_problem(index, expected.nbytes)}", pytrace=False)
        assert outcome.ok, f"{what}: output {index} wrong ({outcome.excerpt})"


def _write_inputs(target: PackedRequest, source: PackedRequest) -> None:
    """Write ``source``'s input values into ``target``'s input memory (same layout)."""
    pairs = zip(target.request.inputs, source.request.inputs, strict=True)
    for mine, theirs in pairs:
        if theirs.has_no_value:
            continue
        where = theirs.location
        if mine.location != where:  # a corpus whose examples differ in layout
            raise AssertionError(f"input layouts differ: {mine.location} and {where}")
        data = source.snapshot[where.pool_index][where.offset : where.offset + where.length]
        with map_memory(target.request.pools[where.pool_index]) as mapping:
            mapping.write(where.offset, data)


REUSE_ORDER = (0, 1, 1, 0, 1)
"""The examples computed one after another in the new-values reuse tests."""


@pytest.mark.tier("strict")
def test_burst_new_inputs_in_reused_memory(device, hal_timeout: float, hal_level) -> None:
    """One burst, the same memory slots, different input values written between
    computations: every result must be that computation's own."""
    case, prepared = _probe(device, hal_timeout, feeds=2)
    test = _CASES[case]
    tolerance = _tolerance(test, hal_level)
    with (
        _request_for(case) as packed,
        _request_for(case, feed=1) as other,
        open_burst(prepared) as controller,
    ):
        sources = (packed, other)
        for execution, feed in enumerate(REUSE_ORDER):
            _write_inputs(packed, sources[feed])
            _clear_outputs(packed.request)
            result = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
            what = (
                f"{case}: execution {execution} on the same slots, example {feed}'s inputs "
                f"written into the memory (examples in order {list(REUSE_ORDER)})"
            )
            assert result.status == ErrorStatus.NONE, f"{what} answered {result.status.name}"
            _check_values(packed, test, tolerance, what, feed)


@pytest.mark.tier("strict")
def test_burst_interleaves_two_requests(device, hal_timeout: float, hal_level) -> None:
    """One burst, two requests on different memory slots, computed in turn: each result
    must be its own request's."""
    case, prepared = _probe(device, hal_timeout, feeds=2)
    test = _CASES[case]
    tolerance = _tolerance(test, hal_level)
    with (
        _request_for(case) as first,
        _request_for(case, feed=1) as second,
        open_burst(prepared) as controller,
    ):
        requests = (first, second)
        for execution, feed in enumerate(REUSE_ORDER):
            packed = requests[feed]
            _clear_outputs(packed.request)
            result = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
            slots = [controller.callback.slot_of(pool) for pool in packed.request.pools]
            what = (
                f"{case}: execution {execution}, example {feed}'s request on slots {slots} "
                f"(two requests in turn, order {list(REUSE_ORDER)})"
            )
            assert result.status == ErrorStatus.NONE, f"{what} answered {result.status.name}"
            _check_values(packed, test, tolerance, what, feed)


@pytest.mark.tier("strict")
def test_burst_release_mid_stream(device, hal_timeout: float) -> None:
    """Releasing a burst with a packet in flight leaves the prepared model usable."""
    case, prepared = _probe(device, hal_timeout)
    with _request_for(case) as packed:
        with open_burst(prepared) as controller:
            burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
            datums = _packet(packed, controller, MeasureTiming.YES)
            controller.send(encode_request(datums), hal_timeout)
        with open_burst(prepared) as controller:
            _check_still_serves(controller, packed, hal_timeout, "a burst released mid-stream")


@pytest.mark.tier("strict")
def test_burst_client_stops_reading(device, hal_timeout: float) -> None:
    """A client that stops reading leaves the driver with a result it cannot write; once
    that burst is released, the prepared model must still serve a new one."""
    case, prepared = _probe(device, hal_timeout)
    with _request_for(case) as packed:
        with open_burst(prepared) as controller:
            first = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
            packet_length = len(_packet(packed, controller, MeasureTiming.NO))
        # A request channel one packet long: each send returns once the driver has taken
        # the packet before it, so after the second send the driver holds a second result
        # while the first still fills the result channel.
        with open_burst(
            prepared,
            request_length=packet_length,
            result_length=result_length(first.output_shapes),
        ) as controller:
            packet = encode_request(_packet(packed, controller, MeasureTiming.NO))
            for _ in range(2):
                controller.send(packet, hal_timeout)
        with open_burst(prepared) as controller:
            _check_still_serves(controller, packed, hal_timeout, "a client that stopped reading")


# ---------------------------------------------------------------------------
# Strict: state kept from one execution to the next on one burst
# ---------------------------------------------------------------------------


def _pool_bytes(pools) -> list[bytes]:
    return [open_memory(pool).read(0, pool.size) for pool in pools]


@pytest.mark.tier("strict")
def test_burst_slot_recycled_after_free_memory(device, hal_timeout: float, hal_level) -> None:
    """Slots freed with ``free_memory`` and given to new memories (as Android's client
    recycles them): the driver must fetch the new memories, compute in them, and leave
    the old ones alone; a packet naming a freed slot before it is reused must fail."""
    case, prepared = _probe(device, hal_timeout, feeds=2)
    test = _CASES[case]
    tolerance = _tolerance(test, hal_level)
    with (
        _request_for(case) as old,
        _request_for(case, feed=1) as new,
        open_burst(prepared, recycle_slots=True) as controller,
    ):
        result = burst_compute(controller, old.request, MeasureTiming.NO, hal_timeout)
        what = f"{case}: the first execution (example 0) on a new burst"
        assert result.status == ErrorStatus.NONE, f"{what} answered {result.status.name}"
        _check_values(old, test, tolerance, what)
        slots = [controller.callback.slot_of(pool) for pool in old.request.pools]
        _clear_outputs(old.request)
        kept = _pool_bytes(old.request.pools)
        for pool in old.request.pools:
            controller.free_memory(pool)
        stale = encode_request(serialize_request(old.request, MeasureTiming.NO, slots))
        what = f"{case}: a request on slots {slots} after free_memory of each"
        answer = _exchange(controller, stale, hal_timeout, what)
        _report(_failure_problems(answer, what), 1, "requests on freed slots were not refused")
        before = len(controller.callback.requests)
        result = burst_compute(controller, new.request, MeasureTiming.NO, hal_timeout)
        reused = [controller.callback.slot_of(pool) for pool in new.request.pools]
        assert sorted(reused) == sorted(slots), (
            f"harness: the client gave the new memories slots {reused}, not the freed {slots}"
        )
        what = (
            f"{case}: example 1 in new memories under the freed slots {reused} (example 0 "
            "computed in the old memories under the same slots before free_memory)"
        )
        fetched = [s for call in controller.callback.requests[before:] for s in call]
        missing = sorted(set(reused) - set(fetched))
        assert not missing, (
            f"{what}: the driver never asked get_memories for slots {missing} (it asked for "
            f"{fetched}); it still uses the memories it freed"
        )
        assert result.status == ErrorStatus.NONE, f"{what} answered {result.status.name}"
        _check_values(new, test, tolerance, what, 1)
        changed = [
            index
            for index, (before_, after) in enumerate(
                zip(kept, _pool_bytes(old.request.pools), strict=True)
            )
            if before_ != after
        ]
        assert not changed, (
            f"{what}: the old memories of slots {[slots[i] for i in changed]} changed after "
            "their slots were freed and reused"
        )


DYNAMIC_ADD = binary_model(dims=(0, 0), other_dims=(0, 0), output_dims=(0, 0))
"""ADD of two TENSOR_FLOAT32 inputs whose dimensions come with each request."""
EXPENSIVE_SHAPE = (1024, 1024)
CHEAP_SHAPE = (1, 2)
TIMED_SEQUENCE = (
    (EXPENSIVE_SHAPE, MeasureTiming.YES),
    (CHEAP_SHAPE, MeasureTiming.YES),
    (EXPENSIVE_SHAPE, MeasureTiming.YES),
    (CHEAP_SHAPE, MeasureTiming.YES),
    (EXPENSIVE_SHAPE, MeasureTiming.NO),
    (CHEAP_SHAPE, MeasureTiming.YES),
    (EXPENSIVE_SHAPE, MeasureTiming.YES),
    (CHEAP_SHAPE, MeasureTiming.NO),
    (CHEAP_SHAPE, MeasureTiming.YES),
)
"""(input shape, MeasureTiming) of the timed executions on one burst, in order."""
SHAPE_SEQUENCE = ((2, 3), (4, 1), (1, 5), (3, 2))
SHORT_AT = 1
"""The execution of ``SHAPE_SEQUENCE`` whose output buffer is a byte short."""


def _dynamic_add(device, timeout: float):
    return prepare_cached(device, DYNAMIC_ADD, HalVersion.V1_2, timeout)


def _operands(shape: tuple[int, ...], step: int) -> tuple[np.ndarray, np.ndarray]:
    count = math.prod(shape)
    a = (np.arange(count, dtype=np.float32) % 97).reshape(shape)
    return a, np.full(shape, float(step + 1), np.float32)


@pytest.mark.tier("strict")
def test_burst_timing_of_each_execution(device, hal_timeout: float) -> None:
    """Timed executions on one burst, expensive and cheap in turn, MeasureTiming YES and
    NO mixed: each timing must be that execution's own (within its own wall time, and
    UINT64_MAX when not measured)."""
    prepared = _dynamic_add(device, hal_timeout)
    with open_burst(prepared) as controller:
        for step, (shape, measure) in enumerate(TIMED_SEQUENCE):
            a, b = _operands(shape, step)
            with pack_request(DYNAMIC_ADD, [a, b], [a.nbytes]) as packed:
                start = time.perf_counter_ns()
                result = burst_compute(controller, packed.request, measure, hal_timeout)
                wall_us = (time.perf_counter_ns() - start) // 1000
                what = (
                    f"execution {step} of {len(TIMED_SEQUENCE)} on one burst (inputs "
                    f"{list(shape)}, MeasureTiming {measure.name}; order "
                    f"{[(list(s), m.name) for s, m in TIMED_SEQUENCE]})"
                )
                if result.status == ErrorStatus.GENERAL_FAILURE:
                    items.unsupported(
                        f"{DYNAMIC_UNSUPPORTED}: a burst on inputs of request-given "
                        "dimensions answered GENERAL_FAILURE"
                    )
                assert result.status == ErrorStatus.NONE, f"{what} answered {result.status.name}"
                path = ExecutionPath("burst", measure, HalVersion.V1_2)
                execution = Execution(path, result.status, (), result.timing, wall_us)
                try:
                    check_timing(execution)
                except AssertionError as error:
                    pytest.fail(f"{what}: {error}", pytrace=False)
                got = packed.output(0, shape)
                assert np.array_equal(got, a + b), f"{what}: output 0 is not the inputs' sum"


@pytest.mark.tier("strict")
def test_burst_output_shapes_of_each_execution(device, hal_timeout: float) -> None:
    """One burst, a model of unknown dimensions, inputs of another shape each time (one
    output buffer a byte short between two successful executions): every result reports
    its own execution's shape and sufficiency."""
    prepared = _dynamic_add(device, hal_timeout)
    with open_burst(prepared) as controller:
        for step, shape in enumerate(SHAPE_SEQUENCE):
            a, b = _operands(shape, step)
            short = step == SHORT_AT
            with pack_request(DYNAMIC_ADD, [a, b], [a.nbytes - short]) as packed:
                result = burst_compute(controller, packed.request, MeasureTiming.NO, hal_timeout)
                what = (
                    f"execution {step} on one burst (inputs {list(shape)}"
                    + (", output buffer a byte short" if short else "")
                    + f"; shapes in order {[list(s) for s in SHAPE_SEQUENCE]})"
                )
                wanted = ErrorStatus.OUTPUT_INSUFFICIENT_SIZE if short else ErrorStatus.NONE
                if result.status == ErrorStatus.GENERAL_FAILURE:
                    items.unsupported(
                        f"{DYNAMIC_UNSUPPORTED}: a burst on an output of unknown dimensions "
                        "answered GENERAL_FAILURE"
                    )
                assert result.status == wanted, (
                    f"{what} answered {result.status.name}, expected {wanted.name}"
                )
                assert len(result.output_shapes) == 1, (
                    f"{what}: {len(result.output_shapes)} output shapes for 1 output"
                )
                reported = result.output_shapes[0]
                assert tuple(reported.dimensions) == shape, (
                    f"{what}: reported dimensions {list(reported.dimensions)}, expected "
                    f"{list(shape)}"
                )
                assert reported.is_sufficient is not short, (
                    f"{what}: is_sufficient {reported.is_sufficient}, expected {not short}"
                )
                if not short:
                    got = packed.output(0, shape)
                    assert np.array_equal(got, a + b), f"{what}: output 0 is not the inputs' sum"
