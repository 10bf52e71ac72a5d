"""Fenced execution (HAL 1.3): ``execute_fenced``, its sync fences and its callback.

The generated cases run on the ``fenced`` paths of ``test_generated`` (VTS 1.3's
FencedComputeTest, with its chaining on the returned fence). This module checks what
VTS 1.3 checks of fences elsewhere (docs/vts-parity.md, "HAL 1.3: fenced execution"),
and what it leaves out:

* outputs of unknown size, and an output buffer too small, are refused at the call:
  INVALID_ARGUMENT with no fence and no callback (VTS's dynamic-shape rows);
* an awaited fence that is no fence (None, the HAL's null handle) is refused the same
  way (VTS's validateExecuteFenced);
* the execution waits for the fences it was given: the harness signals them late, and
  until then the returned fence stays active and no output is written (beyond VTS);
* an awaited fence signalled with an error puts the returned fence into its error
  state, and ``get_execution_info`` reports a failure (beyond VTS);
* once the returned fence has signalled, every output is written (beyond VTS);
* timings: UINT64_MAX in both fields of both timings when not measured; measured ones
  ordered, and the fenced interval within the launched one (beyond VTS).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from conformance.harness.calls import as_status, call_driver
from conformance.harness.execution import FENCE_DELAY, ExecutionPath, fenced_answer
from conformance.harness.marks import level_marks
from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from conformance.harness.runner import prepare_case
from hal.fences import FenceState, SyncFence
from hal.interfaces import IFencedExecutionCallback
from hal.show import show
from hal.types import NO_TIMING, UINT64_MAX, ErrorStatus, HalVersion, MeasureTiming, Timing

V1_3 = HalVersion.V1_3
pytestmark = [pytest.mark.tier("parity"), *level_marks(V1_3)]

F32 = np.float32
A = np.arange(4, dtype=F32).reshape(2, 2)
B = np.full((2, 2), 10, F32)
SUM = A + B
LATE = 0.2
"""Seconds the harness waits before it signals the fences an execution awaits."""


@pytest.fixture(scope="module")
def add(device, hal_level: HalVersion, hal_timeout: float):
    """ADD of two [2, 2] TENSOR_FLOAT32 inputs, prepared at HAL 1.3."""
    if hal_level < V1_3:
        pytest.skip(f"needs HAL 1.3; the driver is tested at HAL {hal_level}")
    return prepare_case(device, binary_model(), V1_3, hal_timeout)


def _fenced(prepared, request, wait_for, measure=MeasureTiming.NO):
    """``execute_fenced``'s raw answer (no deadline, loop timeout or duration)."""
    return call_driver(
        prepared, "execute_fenced", request, tuple(wait_for), measure, None, None, None
    )


def _refused(answer, what: str) -> None:
    """The answer must be (INVALID_ARGUMENT, None, None)."""
    assert type(answer) is tuple and len(answer) == 3, (
        f"execute_fenced returned {show(answer)}; expected (ErrorStatus, fence, callback)"
    )
    status, fence, callback = answer
    refused = as_status(status, "execute_fenced") == ErrorStatus.INVALID_ARGUMENT
    assert refused and fence is None and callback is None, (  # no driver __eq__ is asked
        f"execute_fenced with {what} answered ({show(status)}, {show(fence)}, "
        f"{show(callback)}); expected (INVALID_ARGUMENT, None, None)"
    )


def _accepted(answer) -> tuple[SyncFence | None, IFencedExecutionCallback]:
    assert type(answer) is tuple and len(answer) == 3, (
        f"execute_fenced returned {show(answer)}; expected (ErrorStatus, fence, callback)"
    )
    status, fence, callback = answer
    status = as_status(status, "execute_fenced")
    assert status == ErrorStatus.NONE, f"execute_fenced of a valid request answered {status.name}"
    assert fence is None or type(fence) is SyncFence, f"the fence returned is {show(fence)}"
    assert issubclass(type(callback), IFencedExecutionCallback), (
        f"the callback returned is {show(callback)}, not an IFencedExecutionCallback"
    )
    return fence, callback


def _info(callback) -> tuple[ErrorStatus, Timing, Timing]:
    info = call_driver(callback, "get_execution_info")
    assert type(info) is tuple and len(info) == 3, (
        f"get_execution_info returned {show(info)}; expected (ErrorStatus, Timing, Timing)"
    )
    assert all(type(t) is Timing for t in info[1:]), f"get_execution_info gave {show(info)}"
    return as_status(info[0], "execute_fenced get_execution_info"), info[1], info[2]


def _wait(fence: SyncFence | None, timeout: float) -> FenceState:
    if fence is None:
        return FenceState.SIGNALED
    state = fence.wait(timeout)
    assert state != FenceState.ACTIVE, f"the returned fence did not signal within {timeout:g} s"
    return state


# ---------------------------------------------------------------------------
# Refused at the call
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dims", [(0, 0), (2, 0), ()], ids=["unknown", "partly-unknown", "rank"])
def test_outputs_of_unknown_size_are_refused(device, add, hal_timeout, dims) -> None:
    model = binary_model(output_dims=dims)
    prepared = prepare_case(device, model, V1_3, hal_timeout)
    with pack_request(model, [A, B], [SUM.nbytes]) as packed:
        _refused(_fenced(prepared, packed.request, []), f"an output of dimensions {list(dims)}")


def test_an_output_buffer_too_small_is_refused(add) -> None:
    with pack_request(binary_model(), [A, B], [SUM.nbytes - 1]) as packed:
        _refused(_fenced(add, packed.request, []), "an output buffer one byte short")


def test_an_awaited_fence_that_is_none_is_refused(add) -> None:
    with pack_request(binary_model(), [A, B]) as packed:
        _refused(_fenced(add, packed.request, [None]), "None among the fences to wait for")


# ---------------------------------------------------------------------------
# Waiting for the harness's fences
# ---------------------------------------------------------------------------


@pytest.mark.tier("strict")
@pytest.mark.parametrize("count", [1, 2])
def test_the_execution_waits_for_its_fences(add, hal_timeout, count) -> None:
    fences = [SyncFence() for _ in range(count)]
    with pack_request(binary_model(), [A, B]) as packed:
        fence, callback = _accepted(_fenced(add, packed.request, fences))
        assert fence is not None, (
            "execute_fenced answered with no fence (finished) while the fences it was to wait "
            "for had not signalled"
        )
        time.sleep(LATE)
        assert fence.state() == FenceState.ACTIVE, (
            f"the returned fence ended ({fence.state().name}) {LATE:g} s before the awaited "
            "fences signalled"
        )
        assert packed.unwritten(0, SUM.nbytes), (
            "the output was written before the awaited fences signalled"
        )
        for awaited in fences:
            awaited.signal()
        state = _wait(fence, hal_timeout)
        output = packed.output(0, SUM.shape).copy()  # read at once: written before the signal
        status = _info(callback)[0]
    assert (state, status) == (FenceState.SIGNALED, ErrorStatus.NONE), (
        f"after its fences signalled, the execution ended {state.name} with {status.name}"
    )
    np.testing.assert_array_equal(output, SUM, err_msg="the output when the fence signalled")


@pytest.mark.tier("strict")
def test_an_awaited_fence_in_error_fails_the_execution(add, hal_timeout) -> None:
    awaited = SyncFence()
    with pack_request(binary_model(), [A, B]) as packed:
        answer = _fenced(add, packed.request, [awaited])
        fence, callback = _accepted(answer)
        awaited.signal_error()
        state = _wait(fence, hal_timeout)
        status = _info(callback)[0]
    assert fence is not None and state == FenceState.ERROR, (
        f"an awaited fence signalled an error, and the returned fence is "
        f"{'None' if fence is None else state.name}; expected ERROR"
    )
    assert status != ErrorStatus.NONE, (
        "an awaited fence signalled an error, and get_execution_info answered NONE"
    )


@pytest.mark.tier("strict")
def test_a_fence_already_in_error_is_refused_or_fails(add, hal_timeout) -> None:
    awaited = SyncFence()
    awaited.signal_error()
    with pack_request(binary_model(), [A, B]) as packed:
        answer = _fenced(add, packed.request, [awaited])
        answered = type(answer) is tuple and len(answer) == 3
        if answered and as_status(answer[0], "execute_fenced") != ErrorStatus.NONE:
            _refused(answer, "an awaited fence already in error")
            return
        fence, callback = _accepted(answer)
        state = _wait(fence, hal_timeout)
        status = _info(callback)[0]
    assert state == FenceState.ERROR and status != ErrorStatus.NONE, (
        f"an awaited fence was in error before the call; the execution ended {state.name} "
        f"with {status.name}, expected the error state and a failure"
    )


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


def test_timings_not_measured_are_uint64_max(add, hal_timeout) -> None:
    with pack_request(binary_model(), [A, B]) as packed:
        fence, callback = _accepted(_fenced(add, packed.request, []))
        _wait(fence, hal_timeout)
        status, launched, fenced = _info(callback)
    assert status == ErrorStatus.NONE, f"get_execution_info answered {status.name}"
    assert (launched, fenced) == (NO_TIMING, NO_TIMING), (
        f"MeasureTiming NO: timings {show(launched)} and {show(fenced)}; expected UINT64_MAX "
        "in every field"
    )


@pytest.mark.tier("strict")
def test_measured_timings_are_ordered(add, hal_timeout) -> None:
    fences = [SyncFence()]
    with pack_request(binary_model(), [A, B]) as packed:
        start = time.perf_counter_ns()
        fence, callback = _accepted(_fenced(add, packed.request, fences, MeasureTiming.YES))
        time.sleep(FENCE_DELAY)
        fences[0].signal()
        _wait(fence, hal_timeout)
        wall_us = (time.perf_counter_ns() - start) // 1000
        status, launched, fenced = _info(callback)
    assert status == ErrorStatus.NONE, f"get_execution_info answered {status.name}"
    for name, timing in (("timing_launched", launched), ("timing_fenced", fenced)):
        device, driver = timing.time_on_device, timing.time_in_driver
        if UINT64_MAX not in (device, driver):
            assert device <= driver, f"{name}: time_on_device {device} us > time_in_driver {driver}"
        for value in (device, driver):
            assert value == UINT64_MAX or value <= wall_us, (
                f"{name} {show(timing)}: more than the {wall_us} us the execution took in all"
            )
    for field in ("time_on_device", "time_in_driver"):
        inner, outer = getattr(fenced, field), getattr(launched, field)
        if UINT64_MAX not in (inner, outer):
            assert inner <= outer, (
                f"{field}: the fenced interval ({inner} us) is longer than the launched one "
                f"({outer} us), which contains it"
            )


def test_a_generated_path_judges_a_chained_execution(add, hal_timeout) -> None:
    """The ``fenced`` path of the generated cases (with VTS's second execution waiting on
    the first one's fence) ends NONE on a valid request."""
    path = ExecutionPath("execute_fenced", MeasureTiming.NO, V1_3)
    with pack_request(binary_model(), [A, B]) as packed:
        call = (add, "execute_fenced", (packed.request, (), MeasureTiming.NO, None, None, None))
        answer = call_driver(add, "execute_fenced", *call[2])
        status, shapes, timing = fenced_answer(call, answer, path, hal_timeout)
        output = packed.output(0, SUM.shape).copy()
    assert (status, shapes, timing) == (ErrorStatus.NONE, (), NO_TIMING), (
        f"a chained fenced execution ended {status.name} with shapes {show(shapes)} and "
        f"timing {show(timing)}; expected NONE, none and NO_TIMING"
    )
    np.testing.assert_array_equal(output, SUM, err_msg="the output of the chained execution")
