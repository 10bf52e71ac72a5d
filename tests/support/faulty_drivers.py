"""Drivers that break the HAL in one known way, built on the reference driver.

The suite must catch each of them, and only where it should: the tests in
test_generated_suite.py run the generated suite against them (in a pytest
subprocess, as a vendor would, with this file copied beside the run).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from hal.interfaces import IDevice, IExecutionCallback, IPreparedModel, IPreparedModelCallback
from hal.memory import map_memory
from hal.types import DeviceStatus, ErrorStatus, OperandLifeTime, OperandType, OperationType
from reference_driver import ReferenceDriver_1_2
from reference_driver.ops import convolution, elementwise, pooling
from reference_driver.prepared_model import ReferencePreparedModel

FLOAT32_TOLERANCE = 1e-5
_FLT_MAX = float(np.finfo(np.float32).max)
"""atol = rtol of TENSOR_FLOAT32 outputs in VTS 1.2 (written here independently of the suite)."""


class _Forward(IExecutionCallback):
    """Runs ``before`` and then forwards each notify to the real callback."""

    def __init__(self, inner: IExecutionCallback, before) -> None:
        self._inner, self._before = inner, before

    def notify(self, status):
        self._before(status)
        self._inner.notify(status)

    def notify_1_2(self, status, output_shapes, timing):
        self._before(status)
        self._inner.notify_1_2(status, output_shapes, timing)

    def notify_1_3(self, status, output_shapes, timing):
        self._before(status)
        self._inner.notify_1_3(status, output_shapes, timing)


class _TamperingPreparedModel(ReferencePreparedModel):
    """A reference prepared model whose successful executions pass through ``tamper``."""

    tamper = staticmethod(lambda model, request: None)

    def _after(self, request):
        def done(status):
            if status == ErrorStatus.NONE:
                self.tamper(self._model, request)

        return done

    def execute(self, request, callback):
        return super().execute(request, _Forward(callback, self._after(request)))

    def execute_1_2(self, request, measure, callback):
        return super().execute_1_2(request, measure, _Forward(callback, self._after(request)))

    def execute_synchronously(self, request, measure):
        status, shapes, timing = super().execute_synchronously(request, measure)
        self._after(request)(status)
        return status, shapes, timing


class _TamperingDriver(ReferenceDriver_1_2):
    """The reference driver, whose preparations (through any prepare method) build a
    ``_TamperingPreparedModel``, or the subclass a driver below names."""

    prepared_model_class = _TamperingPreparedModel


def _perturb_mul_float32(factor: float):
    """Move every non-relaxed TENSOR_FLOAT32 output of a model with MUL by factor x tolerance
    (upwards, except where that would overflow float32)."""

    def tamper(model, request):
        if model.relax_computation_float32_to_float16:
            return
        if OperationType.MUL not in {op.type for op in model.operations}:
            return
        for k, index in enumerate(model.output_indexes):
            if model.operands[index].type != OperandType.TENSOR_FLOAT32:
                continue
            location = request.outputs[k].location
            with map_memory(request.pools[location.pool_index]) as mapping:
                values = np.frombuffer(mapping.read_location(location), "<f4").astype(np.float64)
                delta = factor * (FLOAT32_TOLERANCE + FLOAT32_TOLERANCE * np.abs(values))
                # Upwards, but downwards where that leaves float32 (FLT_MAX, mul_special_values).
                moved = np.where(values + delta > _FLT_MAX, values - delta, values + delta)
                mapping.write(location.offset, moved.astype("<f4").tobytes())

    return staticmethod(tamper)


class _TwiceOff(_TamperingPreparedModel):
    tamper = _perturb_mul_float32(2.0)


class _HalfOff(_TamperingPreparedModel):
    tamper = _perturb_mul_float32(0.5)


class PerturbMulTwice(_TamperingDriver):
    """MUL's float32 outputs off by twice the tolerance."""

    prepared_model_class = _TwiceOff


class PerturbMulHalf(_TamperingDriver):
    """MUL's float32 outputs off by half the tolerance: still correct."""

    prepared_model_class = _HalfOff


def _write_past_output(model, request):
    location = request.outputs[0].location
    pool = request.pools[location.pool_index]
    end = location.offset + location.length
    if end < pool.size:
        with map_memory(pool) as mapping:
            mapping.write(end, b"\x00")


class _Overrun(_TamperingPreparedModel):
    tamper = staticmethod(_write_past_output)


class WritesPastOutput(_TamperingDriver):
    """Writes one byte right after output 0 whenever the pool has room for it."""

    prepared_model_class = _Overrun


class _LeavesMulOutputs(_TamperingPreparedModel):
    """Puts back what the outputs of a model with MUL held before each execution."""

    def _after(self, request):
        mul = OperationType.MUL in {op.type for op in self._model.operations}
        before = []
        for argument in request.outputs if mul else ():
            with map_memory(request.pools[argument.location.pool_index]) as mapping:
                before.append((argument.location, mapping.read_location(argument.location)))

        def done(status):
            for location, data in before:
                with map_memory(request.pools[location.pool_index]) as mapping:
                    mapping.write(location.offset, data)

        return done

    def execute_synchronously(self, request, measure):
        restore = self._after(request)
        status, shapes, timing = ReferencePreparedModel.execute_synchronously(
            self, request, measure
        )
        restore(status)
        return status, shapes, timing


class LeavesMulOutputs(_TamperingDriver):
    """Answers every execution of a model with MUL without writing its outputs."""

    prepared_model_class = _LeavesMulOutputs


class ClaimsButFails(ReferenceDriver_1_2):
    """Says it supports every operation, then fails every 1.2 preparation."""

    def prepare_model_1_2(self, model, preference, callback):
        status = super().prepare_model_1_2(model, preference, _Discard())
        if status != ErrorStatus.NONE:
            callback.notify_1_2(status, None)
            return status
        callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, None)
        return ErrorStatus.NONE


class FailsConstantReferences(ReferenceDriver_1_2):
    """Says it supports every operation, then fails to prepare a 1.2 model holding a
    CONSTANT_REFERENCE operand (a driver that never maps model pools)."""

    def prepare_model_1_2(self, model, preference, callback):
        if not any(o.lifetime == OperandLifeTime.CONSTANT_REFERENCE for o in model.operands):
            return super().prepare_model_1_2(model, preference, callback)
        callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, None)
        return ErrorStatus.NONE


class _Discard(IPreparedModelCallback):
    def notify(self, status, prepared):
        pass

    def notify_1_2(self, status, prepared):
        pass

    def notify_1_3(self, status, prepared):
        pass


class _NotifiesTwice(ReferencePreparedModel):
    def execute_1_2(self, request, measure, callback):
        # Both notifies happen before returning, so the harness sees both.
        status, shapes, timing = self.execute_synchronously(request, measure)
        callback.notify_1_2(status, shapes, timing)
        callback.notify_1_2(status, shapes, timing)
        return ErrorStatus.NONE


class _NeverNotifies(ReferencePreparedModel):
    def execute_1_2(self, request, measure, callback):
        return ErrorStatus.NONE


class NotifiesTwice(_TamperingDriver):
    """execute_1_2 answers through its callback twice."""

    prepared_model_class = _NotifiesTwice


class NeverNotifies(_TamperingDriver):
    """execute_1_2 returns NONE and never calls its callback."""

    prepared_model_class = _NeverNotifies


# ---------------------------------------------------------------------------
# A HAL 1.0 driver: only the 1.0 interface, over the reference driver
# ---------------------------------------------------------------------------


class _PreparedModel_1_0(IPreparedModel):
    def __init__(self, inner) -> None:
        self._inner = inner

    def execute(self, request, callback):
        return self._inner.execute(request, callback)


class Level_1_0(IDevice):
    """A driver that only implements IDevice (HAL 1.0)."""

    def __init__(self) -> None:
        self._inner = ReferenceDriver_1_2()

    def get_capabilities(self):
        return self._inner.get_capabilities()

    def get_supported_operations(self, model):
        return self._inner.get_supported_operations(model)

    def get_status(self):
        return DeviceStatus.AVAILABLE

    def prepare_model(self, model, callback):
        class Adapt(IPreparedModelCallback):
            def notify(self, status, prepared):
                callback.notify(status, None if prepared is None else _PreparedModel_1_0(prepared))

            def notify_1_2(self, status, prepared):
                raise AssertionError("a 1.0 preparation answers through notify")

            def notify_1_3(self, status, prepared):
                raise AssertionError("a 1.0 preparation answers through notify")

        return self._inner.prepare_model(model, Adapt())


def _rounds_odd_widths_up(execute):
    """``execute`` of a quant8 operation whose results come out 2 steps too high whenever
    the output's last dimension is odd (a vectorised rounding path gone wrong)."""

    def wrong(args, shapes):
        outputs = execute(args, shapes)
        out = outputs[0]
        if out.dtype == np.uint8 and out.ndim and out.shape[-1] % 2 == 1:
            out = np.minimum(out.astype(np.int32) + 2, 255).astype(np.uint8)
        return [out, *outputs[1:]]

    return wrong


class OddWidthQuantAdd(ReferenceDriver_1_2):
    """Quant8 ADD wrong by 2 steps, only when the output's last dimension is odd: a bug
    the ADD specs (all even widths at quant8) cannot see, left for random graphs to find."""

    def _prepare(self, model, version, preference, notify):
        def rewrap(status, prepared):
            if prepared is not None:
                plan = prepared._plan
                plan.steps = [
                    dataclasses.replace(
                        step,
                        impl=dataclasses.replace(
                            step.impl, execute=_rounds_odd_widths_up(step.impl.execute)
                        ),
                    )
                    if step.impl.type == OperationType.ADD
                    else step
                    for step in plan.steps
                ]
            notify(status, prepared)

        return super()._prepare(model, version, preference, rewrap)


class _ImplSwap(ReferenceDriver_1_2):
    """The reference driver with one function (``field``: ``prepare`` computes the output
    shapes, ``execute`` the values) of the steps of ``operations`` replaced by
    ``wrap(operation type, original function)`` in every model it prepares."""

    operations: tuple[OperationType, ...] = ()
    field = "execute"
    wrap = staticmethod(lambda operation, function: function)

    def _prepare(self, model, version, preference, notify):
        def rewrap(status, prepared):
            if prepared is not None:
                prepared._plan.steps = [self._swapped(step) for step in prepared._plan.steps]
            notify(status, prepared)

        return super()._prepare(model, version, preference, rewrap)

    def _swapped(self, step):
        if step.impl.type not in self.operations:
            return step
        function = self.wrap(step.impl.type, getattr(step.impl, self.field))
        return dataclasses.replace(
            step, impl=dataclasses.replace(step.impl, **{self.field: function})
        )


def _instance_norm_android_10(operation, execute):
    """INSTANCE_NORMALIZATION as Android 10 computed it: x - mean divided by
    sqrt(mean(x^2) + epsilon), the uncentred mean of the squares, not the variance."""

    def android_10(args, shapes):
        values = args.values[0]
        nchw = bool(args.values[4].item())
        image = values.transpose(0, 2, 3, 1) if nchw else values
        gamma, beta, epsilon = (np.float32(args.values[k].item()) for k in (1, 2, 3))
        wide = image.astype(np.float32)
        mean = wide.mean(axis=(1, 2), keepdims=True)
        mean_square = (wide * wide).mean(axis=(1, 2), keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = ((wide - mean) * gamma / np.sqrt(mean_square + epsilon) + beta).astype(
                values.dtype
            )
        return [out.transpose(0, 3, 1, 2) if nchw else out]

    return android_10


class InstanceNormAndroid10(_ImplSwap):
    """INSTANCE_NORMALIZATION divided by sqrt(mean(x^2) + epsilon), Android 10's kernel;
    equal to the HAL text's only where a layer's mean is 0."""

    operations = (OperationType.INSTANCE_NORMALIZATION,)
    wrap = staticmethod(_instance_norm_android_10)


_REDUCE_OPERATIONS = (
    OperationType.REDUCE_ALL,
    OperationType.REDUCE_ANY,
    OperationType.REDUCE_MAX,
    OperationType.REDUCE_MIN,
    OperationType.REDUCE_PROD,
    OperationType.REDUCE_SUM,
)


def _removes_every_axis(operation: OperationType, args) -> bool:
    """Whether the operation's result would have rank 0: SQUEEZE of an input of one element
    with no axes or all of them listed, STRIDED_SLICE shrinking every axis, REDUCE_*
    reducing every axis without keep_dims."""
    x = args.values[0]
    rank = x.ndim
    if operation == OperationType.STRIDED_SLICE:
        every = (1 << rank) - 1
        return int(args.values[6].item()) & every == every
    axes = args.values[1]
    listed = set() if axes is None else {int(a) % rank for a in axes.reshape(-1)}
    if operation == OperationType.SQUEEZE:
        return x.size == 1 and (not listed or len(listed) == rank)
    return not bool(args.values[2].item()) and len(listed) == rank


def _rank_zero(operation, prepare):
    """Output shapes as Android 10 computed them: rank 0 where every axis goes."""

    def shapes(args):
        result = prepare(args)
        return [()] if _removes_every_axis(operation, args) else result

    return shapes


class RankZeroResults(_ImplSwap):
    """SQUEEZE, STRIDED_SLICE and REDUCE_* give a result of rank 0 where every axis goes
    (Android 10's kernels), not Android 11's shape [1]: an output declared [1] then fails
    the execution (GENERAL_FAILURE), and one of unknown dimensions too."""

    operations = (OperationType.SQUEEZE, OperationType.STRIDED_SLICE, *_REDUCE_OPERATIONS)
    field = "prepare"
    wrap = staticmethod(_rank_zero)


def _float32_add_unclamped(operation, execute):
    """float32 ADD in plain IEEE arithmetic: an overflowing sum stays +-inf (the docs clamp
    it to +-FLT_MAX), and the fused activation lets an infinite value through (RELU keeps
    inf; RELU1 and RELU6 still bound it). Every other type goes to ``execute``."""

    def unclamped(args, shapes):
        a, b = args.values[0], args.values[1]
        if a.dtype != np.float32:
            return execute(args, shapes)
        with np.errstate(all="ignore"):
            total = (a + b).astype(np.float32)
            low, high = {0: (None, None), 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}[
                int(args.values[2].item())
            ]
            if low is not None:
                total = np.where(total < low, np.float32(low), total)
            if high is not None:
                total = np.where(total > high, np.float32(high), total)
        return [total.astype(np.float32)]

    return unclamped


class InfOnFloat32AddOverflow(_ImplSwap):
    """float32 ADD returns +-inf where the sum overflows, not +-FLT_MAX (a runtime that
    adds in IEEE arithmetic and never clamps)."""

    operations = (OperationType.ADD,)
    wrap = staticmethod(_float32_add_unclamped)


def _relu_passes_nan(operation, execute):
    """RELU whose NaN inputs come out NaN (``max(x, 0)`` propagating NaN), not the
    lower bound 0; every other value as ``execute`` gives it."""

    def passes_nan(args, shapes):
        outputs = execute(args, shapes)
        x = args.values[0]
        if x.dtype.kind != "f":
            return outputs
        return [np.where(np.isnan(x), x, outputs[0]).astype(outputs[0].dtype), *outputs[1:]]

    return passes_nan


class NanFromRelu(_ImplSwap):
    """RELU (not RELU1 or RELU6) gives NaN for a NaN input instead of the lower bound 0."""

    operations = (OperationType.RELU,)
    wrap = staticmethod(_relu_passes_nan)


class AcceptsDepthwiseFilterBatch(ReferenceDriver_1_2):
    """Accepts a DEPTHWISE_CONV_2D filter whose first dimension is not 1 (Android 10 did;
    Android 11 refuses it for models of every version)."""

    def __init__(self) -> None:
        super().__init__(disabled_rules={"operation.depthwise_filter"})


def _all_insufficient_after(status_seen: ErrorStatus) -> type:
    """A prepared model that, after an execution ending ``status_seen``, reports every
    output shape not sufficient."""

    class _Flagged(ReferencePreparedModel):
        @staticmethod
        def _finish(result, timing, v1_0=False):
            status, shapes, timing = ReferencePreparedModel._finish(result, timing, v1_0)
            if status == status_seen:
                shapes = [dataclasses.replace(shape, is_sufficient=False) for shape in shapes]
            return status, shapes, timing

    return _Flagged


class InsufficientOnSuccess(_TamperingDriver):
    """Reports every output shape not sufficient after a successful execution."""

    prepared_model_class = _all_insufficient_after(ErrorStatus.NONE)


class EveryOutputShort(_TamperingDriver):
    """When one output buffer is too small, reports every output not sufficient."""

    prepared_model_class = _all_insufficient_after(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE)


def _truncating_multiply(x, m0, shift):
    """``x * m0 / 2**31 * 2**shift`` rounded toward minus infinity instead of to nearest."""
    left, right = max(shift, 0), max(-shift, 0)
    return (x.astype(np.int64) * (1 << left) * np.int64(m0)) >> (31 + right)


def _truncating_requantize(acc, m0, shift, saturate=True):
    left, right = np.maximum(shift, 0), np.maximum(-shift, 0)
    x = np.clip(acc << left, -(2**31), 2**31 - 1) * m0
    return x >> (31 + right)


def _truncating_average(image, pool, quantized):
    cells = pooling._cells(image, pool)
    return pooling._windows(image.astype(np.int32), pool, 0).sum(axis=(-2, -1)) // cells


class TruncatingRequantizer(ReferenceDriver_1_2):
    """Requantizes quant8 ADD, SUB, MUL, the convolutions, FULLY_CONNECTED and
    AVERAGE_POOL_2D by truncating instead of rounding: one unit low whenever the exact
    result has a fraction. (It changes the reference driver's modules for the whole
    process: load it only in a process of its own, as the suite's subprocess runs do.)"""

    def __init__(self) -> None:
        super().__init__()
        elementwise.multiply_by_quantized_multiplier = _truncating_multiply
        convolution._requantize = _truncating_requantize

    def _prepare(self, model, version, preference, notify):
        def rewrap(status, prepared):
            if prepared is not None:
                plan = prepared._plan
                plan.steps = [
                    dataclasses.replace(
                        step,
                        impl=dataclasses.replace(
                            step.impl, execute=pooling._pool_execute(_truncating_average)
                        ),
                    )
                    if step.impl.type == OperationType.AVERAGE_POOL_2D
                    else step
                    for step in plan.steps
                ]
            notify(status, prepared)

        return super()._prepare(model, version, preference, rewrap)


def _rounded_float32(values, significant_bits: int):
    """float32 ``values`` rounded to ``significant_bits`` bits (half to even), as a format
    with that many would hold them; anything else unchanged."""
    if not isinstance(values, np.ndarray) or values.dtype != np.float32:
        return values
    if significant_bits == 11:  # float16's
        with np.errstate(over="ignore"):
            return values.astype(np.float16).astype(np.float32)
    drop = 24 - significant_bits
    bits = np.ascontiguousarray(values).view(np.uint32).astype(np.uint64)
    half, odd = (1 << (drop - 1)) - 1, (bits >> drop) & 1
    rounded = ((bits + half + odd) >> drop) << drop
    finite = np.isfinite(values)
    out = np.where(finite, rounded.astype(np.uint32), bits.astype(np.uint32))
    return out.view(np.float32).reshape(values.shape)


class _RelaxedIn(ReferenceDriver_1_2):
    """Computes every operation of a relaxed model with its float32 inputs and outputs
    rounded to ``significant_bits`` bits."""

    significant_bits = 24

    def _prepare(self, model, version, preference, notify):
        bits = self.significant_bits

        def coarse(execute):
            def run(args, shapes):
                values = [_rounded_float32(v, bits) for v in args.values]
                outputs = execute(dataclasses.replace(args, values=values), shapes)
                return [_rounded_float32(o, bits) for o in outputs]

            return run

        def rewrap(status, prepared):
            if prepared is not None and model.relax_computation_float32_to_float16:
                plan = prepared._plan
                plan.steps = [
                    dataclasses.replace(
                        step, impl=dataclasses.replace(step.impl, execute=coarse(step.impl.execute))
                    )
                    for step in plan.steps
                ]
            notify(status, prepared)

        return super()._prepare(model, version, preference, rewrap)


class RelaxedInBfloat16(_RelaxedIn):
    """Computes relaxed models in bfloat16 (8 significant bits): coarser than relaxation allows."""

    significant_bits = 8


class RelaxedInFloat16(_RelaxedIn):
    """Computes relaxed models in float16 (11 significant bits), as relaxation allows."""

    significant_bits = 11
