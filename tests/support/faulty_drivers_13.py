"""HAL 1.3 drivers that break the 1.3 contract in one known way, built on the reference
driver (a 1.3 driver).

tests/suite/test_hal13_faults.py runs the 1.3 parts of the suite against each (in a
pytest subprocess, this file copied beside the run) and checks that each fails exactly
the items its fault touches.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time

import numpy as np

from hal.fences import FenceState, SyncFence
from hal.interfaces import IExecutionCallback, IFencedExecutionCallback
from hal.memory import MemoryError_, map_memory
from hal.types import (
    ErrorStatus,
    OperandLifeTime,
    OperandType,
    OperationType,
    OutputShape,
    Timing,
    is_fully_specified,
)
from hal.validation import is_token
from reference_driver import ReferenceDriver
from reference_driver.buffers import BufferRegistry, ReferenceBuffer
from reference_driver.prepared_model import ReferencePreparedModel

LATE = 0.5
"""Seconds after its fence signals at which ``SignalsBeforeWriting`` writes the outputs."""


def _passed(deadline) -> bool:
    return deadline is not None and time.monotonic_ns() >= deadline


# -- a missed deadline reported at launch ---------------------------------------------------


class _LaunchesMissed(ReferencePreparedModel):
    def execute_1_3(self, request, measure, deadline, loop_timeout_duration, callback):
        if _passed(deadline):
            callback.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, [], Timing())
            return ErrorStatus.MISSED_DEADLINE_PERSISTENT
        return super().execute_1_3(request, measure, deadline, loop_timeout_duration, callback)


class ReportsMissedDeadlineAtLaunch(ReferenceDriver):
    """A deadline already passed when ``prepare_model_1_3`` or ``execute_1_3`` is called is
    returned as the launch status (MISSED_DEADLINE_PERSISTENT) as well as notified; the
    HAL wants the launch status NONE and the miss reported through the callback."""

    prepared_model_class = _LaunchesMissed

    def prepare_model_1_3(self, model, preference, priority, deadline, callback):
        if _passed(deadline):
            callback.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, None)
            return ErrorStatus.MISSED_DEADLINE_PERSISTENT
        return super().prepare_model_1_3(model, preference, priority, deadline, callback)


# -- a fence signalled before the outputs are written ---------------------------------------


class _EarlyFence(ReferencePreparedModel):
    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        status, fence, callback = super().execute_fenced(
            request, wait_for, measure, deadline, loop, duration
        )
        if status != ErrorStatus.NONE or fence is None:
            return status, fence, callback
        early = SyncFence()

        def relay() -> None:
            with fence:
                state = fence.wait(60.0)
            if state != FenceState.SIGNALED:
                early.signal_error()
                return
            saved = []
            for argument in request.outputs:  # the outputs as computed, then taken away
                location = argument.location
                if is_token(request.pools[location.pool_index]):
                    continue  # a driver buffer: written already, read only through copy_to
                with map_memory(request.pools[location.pool_index]) as mapping:
                    saved.append((location, mapping.read_location(location)))
                    mapping.write(location.offset, b"\x00" * location.length)
            early.signal()
            time.sleep(LATE)
            for location, data in saved:
                try:
                    with map_memory(request.pools[location.pool_index]) as mapping:
                        mapping.write(location.offset, data)
                except MemoryError_:
                    return  # the client has closed the pool: too late to write

        threading.Thread(target=relay, daemon=True).start()
        return status, early.dup(), callback


class SignalsBeforeWriting(ReferenceDriver):
    """``execute_fenced``'s fence signals before the outputs are written (they arrive
    ``LATE`` seconds afterwards)."""

    prepared_model_class = _EarlyFence


# -- fenced timings out of order --------------------------------------------------------------


class _Swapped(IFencedExecutionCallback):
    def __init__(self, inner: IFencedExecutionCallback) -> None:
        self._inner = inner

    def get_execution_info(self):
        status, launched, fenced = self._inner.get_execution_info()
        if launched.time_on_device != Timing().time_on_device:
            launched = Timing(launched.time_in_driver + 1000, launched.time_in_driver)
        return status, launched, fenced


class _SwapsTimings(ReferencePreparedModel):
    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        status, fence, callback = super().execute_fenced(
            request, wait_for, measure, deadline, loop, duration
        )
        return status, fence, None if callback is None else _Swapped(callback)


class FencedTimingsOutOfOrder(ReferenceDriver):
    """``get_execution_info`` reports a measured ``timing_launched`` whose time on the
    device exceeds its time in the driver."""

    prepared_model_class = _SwapsTimings


# -- a 1.3 method answering through a 1.2 channel ---------------------------------------------


class _Through12(IExecutionCallback):
    def __init__(self, inner: IExecutionCallback) -> None:
        self._inner = inner

    def notify(self, status):
        self._inner.notify(status)

    def notify_1_2(self, status, output_shapes, timing):
        self._inner.notify_1_2(status, output_shapes, timing)

    def notify_1_3(self, status, output_shapes, timing):
        self._inner.notify_1_2(status, output_shapes, timing)


class _Answers12(ReferencePreparedModel):
    def execute_1_3(self, request, measure, deadline, loop_timeout_duration, callback):
        return super().execute_1_3(
            request, measure, deadline, loop_timeout_duration, _Through12(callback)
        )


class Execute13Notifies12(ReferenceDriver):
    """``execute_1_3`` answers through ``notify_1_2``, the 1.2 callback method."""

    prepared_model_class = _Answers12


# -- legal answers that earn nothing, or everything -------------------------------------------


class _Ignores(ReferencePreparedModel):
    def execute_1_3(self, request, measure, deadline, loop_timeout_duration, callback):
        return super().execute_1_3(request, measure, None, loop_timeout_duration, callback)

    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        return super().execute_synchronously_1_3(request, measure, None, loop_timeout_duration)

    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        return super().execute_fenced(request, wait_for, measure, None, loop, None)


class IgnoresDeadlines(ReferenceDriver):
    """Every deadline and duration is ignored (the work is always done): legal, and it must
    pass everything."""

    prepared_model_class = _Ignores

    def prepare_model_1_3(self, model, preference, priority, deadline, callback):
        return super().prepare_model_1_3(model, preference, priority, None, callback)


class _ExhaustedOnce(ReferencePreparedModel):
    """The first execution of each 1.3 synchronous call is declined for want of
    resources (TRANSIENT); asked again, it runs."""

    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        key = id(request)
        if key not in self._declined:
            self._declined.add(key)
            return ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT, [], Timing()
        return super().execute_synchronously_1_3(request, measure, deadline, loop_timeout_duration)

    @property
    def _declined(self) -> set:
        if not hasattr(self, "_declined_set"):
            self._declined_set = set()
        return self._declined_set


class ExhaustedOnceThenRuns(ReferenceDriver):
    """``execute_synchronously_1_3`` answers RESOURCE_EXHAUSTED_TRANSIENT to each request
    the first time: the suite asks once more, and the second answer counts."""

    prepared_model_class = _ExhaustedOnce


class _AlwaysExhausted(ReferencePreparedModel):
    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        return ErrorStatus.RESOURCE_EXHAUSTED_PERSISTENT, [], Timing()


class AlwaysExhausted(ReferenceDriver):
    """``execute_synchronously_1_3`` always declines for want of resources (PERSISTENT): a
    legal answer, which earns no credit (unsupported), and which fails where the request
    was invalid (an invalid argument comes before any resource)."""

    prepared_model_class = _AlwaysExhausted


# ---------------------------------------------------------------------------
# Driver buffers (memory domains) that break in one known way
# ---------------------------------------------------------------------------


class _CopyToFails(ReferenceBuffer):
    def copy_to(self, memory):
        return ErrorStatus.GENERAL_FAILURE


class _DropsCopyFrom(ReferenceBuffer):
    def copy_from(self, memory, dimensions):
        return ErrorStatus.NONE  # says it copied; the buffer stays uninitialised


class _ReleaseRaises(ReferenceBuffer):
    def release(self):
        super().release()
        raise RuntimeError("release went wrong")


def _registry(buffer_class: type[ReferenceBuffer]) -> BufferRegistry:
    return type(
        f"{buffer_class.__name__}Registry", (BufferRegistry,), {"buffer_class": buffer_class}
    )()


class CopyToFails(ReferenceDriver):
    """``IBuffer.copy_to`` always answers GENERAL_FAILURE: outputs an execution wrote into
    driver buffers cannot be read."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _registry(_CopyToFails)


class DropsCopyFrom(ReferenceDriver):
    """``IBuffer.copy_from`` answers NONE and copies nothing: an execution reading the
    buffer as an input finds it uninitialised."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _registry(_DropsCopyFrom)


class ReleaseRaises(ReferenceDriver):
    """``IBuffer.release`` frees the buffer, then raises."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _registry(_ReleaseRaises)


def DeclinesAllocation13() -> ReferenceDriver:
    """A 1.3 driver answering every ``allocate`` with GENERAL_FAILURE (legal: it keeps no
    driver buffers)."""
    return ReferenceDriver(memory_domains=False)


# ---------------------------------------------------------------------------
# A 1.3 driver whose 1.2 caching call is broken
# ---------------------------------------------------------------------------


class CacheOnlyThrough13(ReferenceDriver):
    """``prepare_model_from_cache`` (the 1.2 call) refuses every cache as INVALID_ARGUMENT;
    ``prepare_model_from_cache_1_3`` works."""

    def prepare_model_from_cache(self, model_cache, data_cache, token, callback):
        callback.notify_1_2(ErrorStatus.INVALID_ARGUMENT, None)
        return ErrorStatus.INVALID_ARGUMENT


# ---------------------------------------------------------------------------
# A fenced execution that takes outputs of unknown size
# ---------------------------------------------------------------------------


class _ReportsDone(IFencedExecutionCallback):
    def get_execution_info(self):
        return ErrorStatus.NONE, Timing(), Timing()


class _TakesUnknownShapes(ReferencePreparedModel):
    def execute_fenced(self, request, wait_for, measure, deadline, loop, duration):
        answer = super().execute_fenced(request, wait_for, measure, deadline, loop, duration)
        model = self._model
        unknown = any(not is_fully_specified(model.operands[i]) for i in model.output_indexes)
        if answer[0] == ErrorStatus.INVALID_ARGUMENT and unknown:
            return ErrorStatus.NONE, None, _ReportsDone()  # "done", nothing written
        return answer


class FencedTakesUnknownShapes(ReferenceDriver):
    """``execute_fenced`` of a model with outputs of unknown dimensions answers NONE and
    reports the execution done, instead of refusing it."""

    prepared_model_class = _TakesUnknownShapes


# -- wrong kernels of 1.3 forms -------------------------------------------------------------


class _KernelSwap(ReferenceDriver):
    """The reference driver with the ``execute`` of every step ``wrap(operation type,
    args, original execute)`` chooses to change replaced, in every model it prepares
    (from a cache too)."""

    def wrap(self, operation, execute):
        return execute

    def _prepare(self, model, version, preference, notify):
        def rewrap(status, prepared):
            if prepared is not None:
                prepared._plan.steps = [
                    dataclasses.replace(
                        step,
                        impl=dataclasses.replace(
                            step.impl, execute=self.wrap(step.impl.type, step.impl.execute)
                        ),
                    )
                    for step in prepared._plan.steps
                ]
            notify(status, prepared)

        return super()._prepare(model, version, preference, rewrap)


class Int32DivTowardZero(_KernelSwap):
    """TENSOR_INT32 DIV rounds the quotient toward zero (C's ``/``), not toward minus
    infinity: -7 / 2 gives -3, not -4. Quotients of operands of one sign, exact ones and
    divisions by zero (0) are right."""

    def wrap(self, operation, execute):
        if operation != OperationType.DIV:
            return execute

        def toward_zero(args, shapes):
            a, b = args.values[0], args.values[1]
            if a.dtype != np.int32:
                return execute(args, shapes)
            a, b = np.broadcast_arrays(a.astype(np.int64), b.astype(np.int64))
            safe = np.where(b == 0, 1, b)
            quotient = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)
            return [np.where(b == 0, 0, quotient).astype(np.int32)]

        return toward_zero


_Q8A = OperandType.TENSOR_QUANT8_ASYMM
_Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED


def _reinterpreted(operand):
    return dataclasses.replace(operand, type=_Q8A) if operand.type == _Q8AS else operand


class SignedReadAsUnsigned(_KernelSwap):
    """A TENSOR_QUANT8_ASYMM_SIGNED operation computed by the unsigned kernel on the int8
    bytes read as uint8, zero points unchanged, and the uint8 result stored as int8: no
    shift by 128. A value of -1 is read as 255."""

    def wrap(self, operation, execute):
        def reinterpreting(args, shapes):
            if not any(o.type == _Q8AS for o in (*args.inputs, *args.outputs)):
                return execute(args, shapes)
            view = dataclasses.replace(
                args,
                inputs=[_reinterpreted(o) for o in args.inputs],
                outputs=[_reinterpreted(o) for o in args.outputs],
                values=[
                    v.view(np.uint8) if v is not None and o.type == _Q8AS else v
                    for o, v in zip(args.inputs, args.values, strict=True)
                ],
            )
            results = execute(view, shapes)
            return [
                np.asarray(r, dtype=np.uint8).view(np.int8) if o.type == _Q8AS else r
                for o, r in zip(args.outputs, results, strict=True)
            ]

        return reinterpreting


# ---------------------------------------------------------------------------
# QUANTIZED_LSTM with one rounding step changed
# ---------------------------------------------------------------------------


def _truncating_hidden_state(product, m_hidden, zero):
    """The hidden-state rescale of QUANTIZED_LSTM with its final division by a power of two
    an arithmetic shift (toward minus infinity) instead of a rounding one."""
    from reference_driver.ops import rnn
    from reference_driver.quant import saturating_rounding_doubling_high_mul

    m0, shift = m_hidden
    left, right = max(shift, 0), max(-shift, 0)
    high = saturating_rounding_doubling_high_mul(rnn._wrap32(product << left), m0)
    return np.clip((high >> right) - zero, -128, 127)


class QlstmTruncatesHiddenState(_KernelSwap):
    """The reference driver, but QUANTIZED_LSTM rescales its hidden state by truncation: a
    hidden value moves by at most 1 (within the quantized tolerance), and the projection
    multiplies that into the output."""

    def wrap(self, operation, execute):
        if operation != OperationType.QUANTIZED_LSTM:
            return execute
        import functools

        from reference_driver.ops import rnn

        return functools.partial(rnn._qlstm95_execute, hidden_state=_truncating_hidden_state)


# ---------------------------------------------------------------------------
# Quantization coupling: the signed twin of an unsigned model
# ---------------------------------------------------------------------------

_SIGNED = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
_UNSIGNED = OperandType.TENSOR_QUANT8_ASYMM


def _has_signed(model) -> bool:
    return any(o.type == _SIGNED for _, graph in model.graphs() for o in graph.operands)


def _as_unsigned(model, shift_data: bool):
    """``model`` with its TENSOR_QUANT8_ASYMM_SIGNED operands made TENSOR_QUANT8_ASYMM, zero
    points 128 higher; ``shift_data``: their constants (and PAD_V2's pad values) 128 higher
    too, as a driver running signed models on unsigned kernels must; without it, the bytes
    are read as unsigned values."""
    twin = copy.deepcopy(model, {id(pool): pool for pool in model.pools})
    values = bytearray(twin.operand_values)
    for _, graph in twin.graphs():
        for operation in graph.operations:
            first = graph.operands[operation.inputs[0]]
            if shift_data and operation.type == OperationType.PAD_V2 and first.type == _SIGNED:
                pad = graph.operands[operation.inputs[2]].location
                old = int.from_bytes(values[pad.offset : pad.offset + 4], "little", signed=True)
                values[pad.offset : pad.offset + 4] = (old + 128).to_bytes(4, "little", signed=True)
        for operand in graph.operands:
            if operand.type != _SIGNED:
                continue
            operand.type, operand.zero_point = _UNSIGNED, operand.zero_point + 128
            if shift_data and operand.lifetime == OperandLifeTime.CONSTANT_COPY:
                start, end = (
                    operand.location.offset,
                    operand.location.offset + operand.location.length,
                )
                values[start:end] = bytes(b ^ 0x80 for b in values[start:end])
    twin.operand_values = bytes(values)
    return twin


def _flip(request, arguments, positions) -> None:
    """Move the bytes of the request arguments at ``positions`` by 128 (XOR 0x80)."""
    for k in positions:
        argument = arguments[k]
        if argument.has_no_value:
            continue
        location = argument.location
        with map_memory(request.pools[location.pool_index]) as mapping:
            data = mapping.read_location(location)
            mapping.write(location.offset, bytes(b ^ 0x80 for b in data))


class _Shifting(ReferencePreparedModel):
    """Runs a signed model converted to unsigned (``_as_unsigned`` with its data), moving
    the signed inputs up by 128 before and the signed outputs down after."""

    signed: tuple[list[int], list[int]] = ([], [])

    def _plan_run(self, request, binding, *limits):
        inputs, outputs = self.signed
        _flip(request, request.inputs, inputs)
        try:
            result = super()._plan_run(request, binding, *limits)
        finally:
            _flip(request, request.inputs, inputs)
        if result.status == ErrorStatus.NONE:
            _flip(request, request.outputs, outputs)
        return result


class _Converts(ReferenceDriver):
    """Runs a signed model on the reference driver's unsigned forms (``_as_unsigned``)."""

    shift_data = True
    prepared_model_class = _Shifting

    def _support(self, model):
        if not _has_signed(model):
            return super()._support(model)
        return super()._support(_as_unsigned(model, self.shift_data))

    def _prepare(self, model, version, preference, notify):
        if not _has_signed(model):
            return super()._prepare(model, version, preference, notify)
        positions = (
            [k for k, i in enumerate(model.input_indexes) if model.operands[i].type == _SIGNED],
            [k for k, i in enumerate(model.output_indexes) if model.operands[i].type == _SIGNED],
        )

        def told(status, prepared):
            if prepared is not None and self.shift_data:
                prepared.signed = positions
            notify(status, prepared)

        return super()._prepare(_as_unsigned(model, self.shift_data), version, preference, told)


class CouplesByShifting(_Converts):
    """A correct 1.3 driver of the signed type without signed kernels: it runs the signed
    twin of an unsigned model on the unsigned kernels, data moved by 128 each way, as
    Android 11's shifting kernels do. It must pass every coupling item."""


class ReadsSignedAsUnsigned(_Converts):
    """Supports and prepares every signed twin, but reads its bytes as unsigned values:
    each TENSOR_QUANT8_ASYMM_SIGNED operand is taken as TENSOR_QUANT8_ASYMM with its zero
    point 128 higher and its data left as it is (no shift of 128)."""

    shift_data = False


class DeclinesSignedTwins(ReferenceDriver):
    """Supports no operation of a model with a TENSOR_QUANT8_ASYMM_SIGNED operand, and so
    prepares none: only the unsigned form of each case."""

    def _support(self, model):
        answers = super()._support(model)
        return [False] * len(answers) if _has_signed(model) else answers


def _unsigned_only(model) -> bool:
    unsigned = any(o.type == _UNSIGNED for _, graph in model.graphs() for o in graph.operands)
    return unsigned and not _has_signed(model)


class SignedOnly(_Converts):
    """Supports the signed twins (run as ``CouplesByShifting`` runs them) but no operation
    of a model with a TENSOR_QUANT8_ASYMM operand, and prepares none: VTS 1.3 wants both
    forms or neither."""

    def get_supported_operations_1_3(self, model):
        status, answers = super().get_supported_operations_1_3(model)
        if status == ErrorStatus.NONE and _unsigned_only(model):
            answers = [False] * len(answers)
        return status, answers

    def prepare_model_1_3(self, model, preference, priority, deadline, callback):
        if _unsigned_only(model):
            callback.notify_1_3(ErrorStatus.GENERAL_FAILURE, None)
            return ErrorStatus.NONE
        return super().prepare_model_1_3(model, preference, priority, deadline, callback)


class DeclinesQuant8(ReferenceDriver):
    """Supports no operation of a model with an 8-bit asymmetric operand, signed or not:
    legal, and every coupling item is unsupported."""

    def _support(self, model):
        answers = super()._support(model)
        kinds = {o.type for _, graph in model.graphs() for o in graph.operands}
        return [False] * len(answers) if kinds & {_SIGNED, _UNSIGNED} else answers


class ClaimsNothing(DeclinesSignedTwins):
    """Reports every operation of every model unsupported, yet prepares the unsigned ones
    (legal: a driver may prepare what it does not claim) and not their signed twins."""

    def get_supported_operations_1_3(self, model):
        status, answers = super().get_supported_operations_1_3(model)
        return status, [False] * len(answers)


class SignedIsInvalid(ReferenceDriver):
    """Answers INVALID_ARGUMENT from ``get_supported_operations_1_3`` for a model with a
    TENSOR_QUANT8_ASYMM_SIGNED operand, as if the type were unknown at 1.3."""

    def get_supported_operations_1_3(self, model):
        if _has_signed(model):
            return ErrorStatus.INVALID_ARGUMENT, []
        return super().get_supported_operations_1_3(model)


# ---------------------------------------------------------------------------
# Quantized HARD_SWISH computed in float
# ---------------------------------------------------------------------------

_QUANT8 = (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT8_ASYMM_SIGNED)


def _swish_in_float(execute):
    """HARD_SWISH's ``execute`` with its quantized form computed in float: dequantize,
    ``x * min(6, max(0, x + 3)) / 6`` in float64, requantize (round half away from zero),
    clamp. Within one step of the integer procedure nearly everywhere."""

    def run(args, shapes):
        source, target, values = args.inputs[0], args.outputs[0], args.values[0]
        if source.type not in _QUANT8 or values.size == 0:
            return execute(args, shapes)
        real = source.scale * (values.astype(np.float64) - source.zero_point)
        swished = real * np.clip(real + 3.0, 0.0, 6.0) / 6.0
        scaled = swished / target.scale
        rounded = np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)
        info = np.iinfo(values.dtype)
        return [np.clip(rounded + target.zero_point, info.min, info.max).astype(values.dtype)]

    return run


class _SwishesInFloat(ReferencePreparedModel):
    def __init__(self, model, plan, *args, **kwargs):
        plan.steps = [
            dataclasses.replace(
                step,
                impl=dataclasses.replace(step.impl, execute=_swish_in_float(step.impl.execute)),
            )
            if step.impl.type == OperationType.HARD_SWISH
            else step
            for step in plan.steps
        ]
        super().__init__(model, plan, *args, **kwargs)


class QuantizedHardSwishInFloat(ReferenceDriver):
    """Quantized HARD_SWISH computed in float (dequantize, the float formula, requantize)
    instead of Android 11's integer procedure: within one step of it but where the int16
    addition of the output zero point wraps."""

    prepared_model_class = _SwishesInFloat


# -- an execution that must fail reported done ----------------------------------------------


class _ReportsFailedAsDone(ReferencePreparedModel):
    def execute_synchronously_1_3(self, request, measure, deadline, loop_timeout_duration):
        answer = super().execute_synchronously_1_3(
            request, measure, deadline, loop_timeout_duration
        )
        if answer[0] in (ErrorStatus.INVALID_ARGUMENT, ErrorStatus.GENERAL_FAILURE):
            model = self._model
            shapes = [
                OutputShape(tuple(model.operands[i].dimensions), True) for i in model.output_indexes
            ]
            return ErrorStatus.NONE, shapes, Timing()  # "done", nothing written
        return answer


class ReportsFailedExecutionAsDone(ReferenceDriver):
    """``execute_synchronously_1_3`` answers NONE, with the declared output shapes, where the
    execution fails with INVALID_ARGUMENT or GENERAL_FAILURE (an EMBEDDING_LOOKUP of a row
    the values lack): it claims to compute what cannot be computed."""

    prepared_model_class = _ReportsFailedAsDone


# -- control flow: validation (tests/suite/test_control_flow_validation_faults.py) ----------


class AcceptsReferenceCycles(ReferenceDriver):
    """Accepts a model whose subgraph references form a cycle (a subgraph calling itself or
    its caller); every other rule kept. It would recurse without end running one."""

    def __init__(self) -> None:
        super().__init__(disabled_rules={"model.no_reference_cycles"})


class AcceptsMismatchedBranches(ReferenceDriver):
    """Accepts an IF whose branches' inputs or outputs disagree with its own (type, rank,
    dimensions, scale, zero point), as if it read both branches' signatures from the IF's
    operands; every other rule kept."""

    def __init__(self) -> None:
        super().__init__(disabled_rules={"if.branch_compatible"})
