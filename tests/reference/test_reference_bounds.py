"""The reference driver on inputs meant to make it spend without bound, or to crash it.

Each reproducer class of the bounded-resources issue has its test here, with the exact
status: operand values that would drive allocations or loops past the execution's
budgets (GENERAL_FAILURE: a valid model this device cannot run; at preparation when
constants and declared dimensions decide it, at execution when request data does),
values the HAL forbids (INVALID_ARGUMENT), the last-resort guard on every HAL method,
cache files far larger than any cache, a BaseException inside a burst execution, and
ring counters a peer pushes past 2**64. Budgets are given explicitly where a test
depends on them; every figure is derived in the comment beside it.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Sequence

import numpy as np
import pytest

from conformance.harness.caching import CacheFiles
from conformance.harness.requests import pack_request
from hal.burst import BurstController
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.fmq import UINT64_MAX, FmqClosed, FmqCorrupt, MessageQueue
from hal.memory import NativeHandle
from hal.types import (
    NO_TIMING,
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    numpy_dtype,
)
from reference_driver import ReferenceDriver
from reference_driver import cache as cache_module
from reference_driver.executor import DEFAULT_MEMORY_BUDGET, DEFAULT_WORK_BUDGET, Budgets
from reference_driver.ops import REGISTRY
from reference_driver.prepared_model import ReferencePreparedModel

F32 = OperandType.TENSOR_FLOAT32
I32T = OperandType.TENSOR_INT32
INT32 = OperandType.INT32
FLOAT32 = OperandType.FLOAT32
BOOL = OperandType.BOOL
TIMEOUT = 30.0
BOUND_S = 10.0
"""Far above what any refusal here takes (milliseconds), far below the 61 s the
unbounded driver took on the pooling reproducer: a refusal must not do the work first."""

Spec = tuple[int, Sequence[int], object]
"""(operand type, dimensions, value): value None makes a model input, else a constant."""


def op_model(op: int, inputs: Sequence[Spec], outputs: Sequence[tuple[int, Sequence[int]]]):
    """``op(inputs) -> outputs`` as a one-operation model (outputs are model outputs)."""
    values = bytearray()
    operands: list[Operand] = []
    model_inputs: list[int] = []
    for type_, dims, value in inputs:
        if value is None:
            model_inputs.append(len(operands))
            operands.append(Operand(type_, list(dims), 1, lifetime=OperandLifeTime.MODEL_INPUT))
            continue
        data = np.asarray(value, dtype=numpy_dtype(type_)).tobytes()
        while len(values) % 4:
            values.append(0)
        location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(
            Operand(type_, list(dims), 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
        )
    first_output = len(operands)
    for type_, dims in outputs:
        operands.append(Operand(type_, list(dims), 0, lifetime=OperandLifeTime.MODEL_OUTPUT))
    output_indexes = list(range(first_output, len(operands)))
    return Model(
        operands=operands,
        operations=[Operation(op, list(range(first_output)), output_indexes)],
        input_indexes=model_inputs,
        output_indexes=output_indexes,
        operand_values=bytes(values),
    )


def prepare(driver: ReferenceDriver, model: Model):
    """(launch status, callback status, prepared model) of prepare_model_1_2."""
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(TIMEOUT)
    assert callback.violations == []
    return launch, notification.status, notification.prepared_model


def run(driver: ReferenceDriver, model: Model, inputs, output_sizes=None):
    """execute_synchronously's status of ``model`` (which must prepare) on ``inputs``, and
    the seconds the execution took."""
    launch, status, prepared = prepare(driver, model)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    with pack_request(model, inputs, output_sizes) as packed:
        start = time.monotonic()
        result = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
        return result, time.monotonic() - start


def timed_prepare(driver: ReferenceDriver, model: Model):
    start = time.monotonic()
    launch, status, _ = prepare(driver, model)
    return launch, status, time.monotonic() - start


def pool_scalars(stride: int, filter_h: int, filter_w: int = 1) -> list[Spec]:
    """Implicit padding SAME (code 1), strides 1, the filter, no activation."""
    return [
        (INT32, [], 1),
        (INT32, [], stride),
        (INT32, [], stride),
        (INT32, [], filter_w),
        (INT32, [], filter_h),
        (INT32, [], 0),
    ]


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


# ---------------------------------------------------------------------------
# Budgets: options and defaults
# ---------------------------------------------------------------------------


def test_default_budgets() -> None:
    assert DEFAULT_MEMORY_BUDGET == 1 << 30  # 1 GiB
    assert DEFAULT_WORK_BUDGET == 1 << 31
    assert ReferenceDriver().budgets == Budgets(1 << 30, 1 << 31)
    assert ReferenceDriver(memory_budget=4096, work_budget=99).budgets == Budgets(4096, 99)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"memory_budget": 0}, "memory budget 0 must be a positive int"),
        ({"work_budget": -1}, "work budget -1 must be a positive int"),
        ({"memory_budget": 1.5}, "memory budget 1.5 must be a positive int"),
        ({"work_budget": True}, "work budget True must be a positive int"),
    ],
)
def test_budget_options_must_be_positive_ints(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        ReferenceDriver(**options)


def test_memory_budget_counts_inputs_and_outputs_at_execution() -> None:
    # ADD of two [N] float32 model inputs of unknown size ([0]: nothing decided at prepare).
    model = op_model(
        OperationType.ADD,
        [(F32, [0], None), (F32, [0], None), (INT32, [], 0)],
        [(F32, [0])],
    )
    a = np.arange(256, dtype=np.float32)
    # Inputs 2 x 1024 bytes, output 1024, temporaries 8 x (256 + 256 + 256 + 1) per the
    # default cost = 6152: 3072 + 6152 = 9224 bytes needed.
    (status, shapes, _), _ = run(ReferenceDriver(memory_budget=9224), model, [a, a], [1024])
    assert status == ErrorStatus.NONE
    assert shapes[0].dimensions == (256,)
    (status, shapes, timing), _ = run(ReferenceDriver(memory_budget=9223), model, [a, a], [1024])
    assert (status, shapes, timing) == (ErrorStatus.GENERAL_FAILURE, [], NO_TIMING)


def test_memory_budget_is_checked_at_prepare_when_dimensions_are_known() -> None:
    # The same ADD with declared [256] inputs: 2 x 1024 bytes of inputs alone exceed 2047.
    model = op_model(
        OperationType.ADD,
        [(F32, [256], None), (F32, [256], None), (INT32, [], 0)],
        [(F32, [256])],
    )
    launch, status, _ = prepare(ReferenceDriver(memory_budget=2047), model)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    launch, status, _ = prepare(ReferenceDriver(memory_budget=9224), model)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.NONE)


def test_work_budget_counts_convolution_multiply_adds() -> None:
    # CONV_2D, input [1, 8, 8, 4] (model input, unknown at prepare: [1, 0, 0, 4]), filter
    # [2, 3, 3, 4], VALID, stride 1: output [1, 6, 6, 2] = 72 values, each 3 * 3 * 4 = 36
    # multiply-adds: 2592, plus the default cost's elements: input 256 + filter 72 +
    # bias 2 + 4 scalars + output 72 = 406. 2998 steps.
    model = op_model(
        OperationType.CONV_2D,
        [
            (F32, [1, 0, 0, 4], None),
            (F32, [2, 3, 3, 4], np.ones((2, 3, 3, 4))),
            (F32, [2], np.zeros(2)),
            (INT32, [], 2),  # VALID
            (INT32, [], 1),
            (INT32, [], 1),
            (INT32, [], 0),
        ],
        [(F32, [0, 0, 0, 0])],
    )
    x = np.ones((1, 8, 8, 4), np.float32)
    (status, shapes, _), _ = run(ReferenceDriver(work_budget=2998), model, [x], [288])
    assert status == ErrorStatus.NONE
    assert shapes[0].dimensions == (1, 6, 6, 2)
    (status, _, _), _ = run(ReferenceDriver(work_budget=2997), model, [x], [288])
    assert status == ErrorStatus.GENERAL_FAILURE


# ---------------------------------------------------------------------------
# The reproducers: operand values driving allocations and loops
# ---------------------------------------------------------------------------


def test_max_pool_with_a_huge_filter_fails_at_prepare_at_once(driver) -> None:
    # 4x4 image, SAME padding, a 2**26-high filter: the padded copy alone would hold
    # (4 + 2**26 - 1) x 4 cells, 8 bytes each: 2 GiB > 1 GiB (it took 61 s and 1.3 GB).
    model = op_model(
        OperationType.MAX_POOL_2D,
        [(F32, [1, 4, 4, 1], None), *pool_scalars(1, 1 << 26)],
        [(F32, [0, 0, 0, 0])],
    )
    launch, status, seconds = timed_prepare(driver, model)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    assert seconds < BOUND_S


def test_max_pool_with_a_huge_filter_fails_at_execution_when_the_image_comes_late(
    driver,
) -> None:
    # The image's height and width unknown until the request: prepare cannot decide.
    model = op_model(
        OperationType.MAX_POOL_2D,
        [(F32, [1, 0, 0, 1], None), *pool_scalars(1, 1 << 26)],
        [(F32, [0, 0, 0, 0])],
    )
    image = np.zeros((1, 4, 4, 1), np.float32)
    (status, shapes, timing), seconds = run(driver, model, [image], [64])
    assert (status, shapes, timing) == (ErrorStatus.GENERAL_FAILURE, [], NO_TIMING)
    assert seconds < BOUND_S


def test_a_huge_filter_within_the_budget_still_computes() -> None:
    # A 64-high SAME filter on a 4x4 image of 0..15 (row-major): each output cell sees its
    # whole column, so every row of the output is the column maximum: [12, 13, 14, 15].
    model = op_model(
        OperationType.MAX_POOL_2D,
        [(F32, [1, 4, 4, 1], None), *pool_scalars(1, 64)],
        [(F32, [1, 4, 4, 1])],
    )
    image = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    _, status, prepared = prepare(ReferenceDriver(), model)
    assert status == ErrorStatus.NONE
    with pack_request(model, [image]) as packed:
        result = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
        assert result[0] == ErrorStatus.NONE
        assert packed.output(0, (1, 4, 4, 1)).reshape(4, 4).tolist() == [[12, 13, 14, 15]] * 4


def test_tile_with_huge_constant_multiples_fails_at_prepare(driver) -> None:
    # [2, 2] tiled by [2**16, 2**16]: a [2**17, 2**17] float32 output, 64 GiB.
    model = op_model(
        OperationType.TILE,
        [(F32, [2, 2], None), (I32T, [2], [1 << 16, 1 << 16])],
        [(F32, [0, 0])],
    )
    launch, status, seconds = timed_prepare(driver, model)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    assert seconds < BOUND_S


def test_tile_with_huge_multiples_from_the_request_fails_at_execution(driver) -> None:
    model = op_model(
        OperationType.TILE,
        [(F32, [2, 2], None), (I32T, [2], None)],
        [(F32, [0, 0])],
    )
    x = np.ones((2, 2), np.float32)
    multiples = np.array([1 << 16, 1 << 16], np.int32)
    (status, shapes, _), seconds = run(driver, model, [x, multiples], [16])
    assert (status, shapes) == (ErrorStatus.GENERAL_FAILURE, [])
    assert seconds < BOUND_S
    # Small multiples on the same prepared shape still work: [2, 2] x [1, 2] -> [2, 4].
    (status, shapes, _), _ = run(driver, model, [x, np.array([1, 2], np.int32)], [32])
    assert status == ErrorStatus.NONE
    assert shapes[0].dimensions == (2, 4)


@pytest.mark.parametrize("op", [OperationType.PAD, OperationType.PAD_V2])
def test_pad_with_huge_paddings(driver, op) -> None:
    # [1, 1] padded by 2**15 on every side: [65537, 65537] float32, 16 GiB.
    paddings = [[1 << 15, 1 << 15], [1 << 15, 1 << 15]]
    extra: list[Spec] = [(FLOAT32, [], 0.0)] if op == OperationType.PAD_V2 else []
    constant = op_model(
        op, [(F32, [1, 1], None), (I32T, [2, 2], paddings), *extra], [(F32, [0, 0])]
    )
    launch, status, _ = prepare(driver, constant)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    late = op_model(op, [(F32, [1, 1], None), (I32T, [2, 2], None), *extra], [(F32, [0, 0])])
    x = np.ones((1, 1), np.float32)
    (status, _, _), seconds = run(driver, late, [x, np.array(paddings, np.int32)], [4])
    assert status == ErrorStatus.GENERAL_FAILURE
    assert seconds < BOUND_S
    # Negative paddings are not a budget question: the HAL forbids them.
    (status, _, _), _ = run(driver, late, [x, np.array([[-1, 0], [0, 0]], np.int32)], [4])
    assert status == ErrorStatus.INVALID_ARGUMENT


def _resize(scale_w, scale_h, constant: bool) -> tuple[Model, list]:
    scales: list[Spec] = [
        (FLOAT32, [], scale_w if constant else None),
        (FLOAT32, [], scale_h if constant else None),
    ]
    model = op_model(
        OperationType.RESIZE_BILINEAR, [(F32, [1, 2, 2, 1], None), *scales], [(F32, [0, 0, 0, 0])]
    )
    image = np.ones((1, 2, 2, 1), np.float32)
    late = [] if constant else [np.float32(scale_w), np.float32(scale_h)]
    return model, [image, *late]


@pytest.mark.parametrize(
    ("scale_w", "scale_h"), [(float("nan"), 1.0), (1.0, float("nan")), (float("inf"), 1.0)]
)
def test_resize_with_a_nan_or_infinite_scale_is_invalid(driver, scale_w, scale_h) -> None:
    model, _ = _resize(scale_w, scale_h, constant=True)
    launch, status, _ = prepare(driver, model)
    assert (launch, status) == (ErrorStatus.INVALID_ARGUMENT, ErrorStatus.INVALID_ARGUMENT)
    model, inputs = _resize(scale_w, scale_h, constant=False)
    (status, shapes, _), _ = run(driver, model, inputs, [16])
    assert (status, shapes) == (ErrorStatus.INVALID_ARGUMENT, [])


def test_resize_with_a_finite_scale_overflowing_float32_is_invalid(driver) -> None:
    # 2 * 3e38 overflows float32 to inf: no finite output size.
    model, inputs = _resize(3e38, 1.0, constant=False)
    (status, _, _), _ = run(driver, model, inputs, [16])
    assert status == ErrorStatus.INVALID_ARGUMENT


def test_resize_to_a_huge_size_is_over_budget(driver) -> None:
    # 2 * 1e5 = 200000 per side: 4e10 cells.
    model, _ = _resize(1e5, 1e5, constant=True)
    launch, status, seconds = timed_prepare(driver, model)
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    model, inputs = _resize(1e5, 1e5, constant=False)
    (status, _, _), seconds = run(driver, model, inputs, [16])
    assert status == ErrorStatus.GENERAL_FAILURE
    assert seconds < BOUND_S


def test_random_multinomial_with_a_huge_sample_count(driver) -> None:
    # 2**30 samples of one batch: a 4 GiB int32 output, more in float64 draws.
    def model(samples):
        return op_model(
            OperationType.RANDOM_MULTINOMIAL,
            [(F32, [1, 3], None), (INT32, [], samples), (I32T, [2], None)],
            [(I32T, [0, 0])],
        )

    launch, status, _ = prepare(driver, model(1 << 30))
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    logits, seeds = np.zeros((1, 3), np.float32), np.array([1, 2], np.int32)
    (status, shapes, _), _ = run(driver, model(5), [logits, seeds], [20])
    assert status == ErrorStatus.NONE
    assert shapes[0].dimensions == (1, 5)


def test_random_multinomial_sample_count_from_the_request(driver) -> None:
    model = op_model(
        OperationType.RANDOM_MULTINOMIAL,
        [(F32, [1, 3], None), (INT32, [], None), (I32T, [2], None)],
        [(I32T, [0, 0])],
    )
    logits, seeds = np.zeros((1, 3), np.float32), np.array([1, 2], np.int32)
    (status, _, _), seconds = run(driver, model, [logits, np.int32(1 << 30), seeds], [20])
    assert status == ErrorStatus.GENERAL_FAILURE
    assert seconds < BOUND_S


def test_transpose_conv_with_a_huge_stride(driver) -> None:
    # A [1, 2, 2, 1] input, 1x1 filter, stride 2**20 both ways, explicit pads 0: the
    # output is (2 - 1) * 2**20 + 1 per side: 2**40 cells.
    def model(stride: int, constant: bool) -> Model:
        scalars: list[Spec] = [(INT32, [], 0)] * 4 + [
            (INT32, [], stride if constant else None),
            (INT32, [], stride if constant else None),
            (INT32, [], 0),
            (BOOL, [], False),
        ]
        return op_model(
            OperationType.TRANSPOSE_CONV_2D,
            [
                (F32, [1, 2, 2, 1], None),
                (F32, [1, 1, 1, 1], np.ones((1, 1, 1, 1))),
                (F32, [1], np.zeros(1)),
                *scalars,
            ],
            [(F32, [0, 0, 0, 0])],
        )

    launch, status, _ = prepare(driver, model(1 << 20, constant=True))
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    x = np.ones((1, 2, 2, 1), np.float32)
    late = model(0, constant=False)
    (status, _, _), seconds = run(driver, late, [x, np.int32(1 << 20), np.int32(1 << 20)], [16])
    assert status == ErrorStatus.GENERAL_FAILURE
    assert seconds < BOUND_S


def _roi_align(rois: int) -> Model:
    """ROI_ALIGN of ``rois`` rois (0: unknown until the request) over a 4x4 map, a 2x2
    output, 2**20 x 2**20 sample points per bin."""
    return op_model(
        OperationType.ROI_ALIGN,
        [
            (F32, [1, 4, 4, 1], None),
            (F32, [rois, 4], None),
            (I32T, [rois], None),
            (INT32, [], 2),
            (INT32, [], 2),
            (FLOAT32, [], 1.0),
            (FLOAT32, [], 1.0),
            (INT32, [], 1 << 20),
            (INT32, [], 1 << 20),
            (BOOL, [], False),
        ],
        [(F32, [0, 0, 0, 0])],
    )


def test_roi_align_with_a_huge_sampling_ratio(driver) -> None:
    # 2**40 sample points per bin: decided at prepare when the roi count is declared...
    launch, status, seconds = timed_prepare(driver, _roi_align(1))
    assert (launch, status) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)
    assert seconds < BOUND_S
    # ...and at execution when it comes with the request.
    features = np.ones((1, 4, 4, 1), np.float32)
    rois = np.array([[0, 0, 4, 4]], np.float32)
    inputs = [features, rois, np.zeros(1, np.int32)]
    (status, _, _), seconds = run(driver, _roi_align(0), inputs, [16])
    assert status == ErrorStatus.GENERAL_FAILURE
    assert seconds < BOUND_S


def test_declared_output_shape_is_checked_before_the_operation_runs(monkeypatch) -> None:
    # ADD of two [3] inputs declared to give [2]: refused before ADD's execute is called.
    add = REGISTRY[OperationType.ADD]
    calls: list[int] = []

    def counting(args, shapes):
        calls.append(1)
        return add.execute(args, shapes)

    monkeypatch.setitem(REGISTRY, OperationType.ADD, dataclasses.replace(add, execute=counting))
    model = op_model(
        OperationType.ADD,
        [(F32, [0], None), (F32, [0], None), (INT32, [], 0)],
        [(F32, [2])],
    )
    a = np.ones(3, np.float32)
    (status, _, _), _ = run(ReferenceDriver(), model, [a, a], [12])
    assert status == ErrorStatus.GENERAL_FAILURE
    assert calls == []
    (status, _, _), _ = run(ReferenceDriver(), model, [a[:2], a[:2]], [8])
    assert status == ErrorStatus.NONE
    assert calls == [1]


# ---------------------------------------------------------------------------
# The last-resort guard
# ---------------------------------------------------------------------------


class _Boom(Exception):
    pass


class _Raising(ReferencePreparedModel):
    """A prepared model whose plan raises a plain exception at every run."""

    def _plan_run(self, request, binding):
        raise _Boom("planted")


class _RaisingDriver(ReferenceDriver):
    prepared_model_class = _Raising


def _add_model() -> Model:
    return op_model(
        OperationType.ADD,
        [(F32, [2], None), (F32, [2], None), (INT32, [], 0)],
        [(F32, [2])],
    )


def test_an_exception_inside_execution_becomes_general_failure_and_is_logged(caplog) -> None:
    model = _add_model()
    launch, status, prepared = prepare(_RaisingDriver(), model)
    assert status == ErrorStatus.NONE
    a = np.ones(2, np.float32)
    with pack_request(model, [a, a]) as packed, caplog.at_level(logging.ERROR):
        assert prepared.execute_synchronously(packed.request, MeasureTiming.NO) == (
            ErrorStatus.GENERAL_FAILURE,
            [],
            NO_TIMING,
        )
        for method in ("execute", "execute_1_2"):
            callback = ExecutionCallback()
            if method == "execute":
                launch = prepared.execute(packed.request, callback)
            else:
                launch = prepared.execute_1_2(packed.request, MeasureTiming.NO, callback)
            assert launch == ErrorStatus.NONE  # the failure comes on the pool thread
            assert callback.wait(TIMEOUT).status == ErrorStatus.GENERAL_FAILURE
            time.sleep(0.05)  # a second notification would come right after the first
            assert len(callback.notifications) == 1
    assert any("planted" in (r.exc_text or "") for r in caplog.records)


def test_malformed_arguments_get_statuses_not_exceptions(driver) -> None:
    assert driver.get_supported_operations_1_2(None) == (ErrorStatus.GENERAL_FAILURE, [])
    callback = PreparedModelCallback()
    assert driver.prepare_model_1_2(None, 0, callback) == ErrorStatus.GENERAL_FAILURE
    assert callback.wait(TIMEOUT).status == ErrorStatus.GENERAL_FAILURE
    assert len(callback.notifications) == 1
    _, _, prepared = prepare(driver, _add_model())
    assert prepared.execute_synchronously(None, MeasureTiming.NO) == (
        ErrorStatus.GENERAL_FAILURE,
        [],
        NO_TIMING,
    )
    callback = ExecutionCallback()
    assert prepared.execute_1_2(None, MeasureTiming.NO, callback) == ErrorStatus.GENERAL_FAILURE
    assert callback.wait(TIMEOUT).status == ErrorStatus.GENERAL_FAILURE
    assert len(callback.notifications) == 1


def test_a_callback_that_raises_does_not_escape(driver) -> None:
    class Hostile(PreparedModelCallback):
        def notify_1_2(self, status, prepared_model):
            super().notify_1_2(status, prepared_model)
            raise RuntimeError("the client's callback is broken")

    callback = Hostile()
    launch = driver.prepare_model_1_2(_add_model(), ExecutionPreference.LOW_POWER, callback)
    assert launch == ErrorStatus.NONE
    assert callback.wait(TIMEOUT).status == ErrorStatus.NONE
    time.sleep(0.05)
    assert len(callback.notifications) == 1


# ---------------------------------------------------------------------------
# Compilation caches
# ---------------------------------------------------------------------------

TOKEN = bytes(range(32))


@pytest.mark.parametrize("which", ["model", "data"])
def test_a_cache_handle_holding_fd_minus_one_is_invalid(driver, which) -> None:
    _, _, prepared = prepare(driver, _add_model())
    with CacheFiles() as files:
        handles = {"model": files.handle("model"), "data": files.handle("data")}
        handles[which] = NativeHandle([-1])
        assert (
            prepared.save_to_cache(handles["model"], handles["data"], TOKEN)
            == ErrorStatus.INVALID_ARGUMENT
        )
        callback = PreparedModelCallback()
        launch = driver.prepare_model_from_cache(handles["model"], handles["data"], TOKEN, callback)
        assert launch == ErrorStatus.INVALID_ARGUMENT
        assert callback.wait(TIMEOUT).status == ErrorStatus.INVALID_ARGUMENT


_PREAD = os.pread


class _CountingReads:
    """os.pread that counts the bytes it returned."""

    def __init__(self) -> None:
        self.total = 0

    def __call__(self, fd: int, size: int, offset: int) -> bytes:
        data = _PREAD(fd, size, offset)
        self.total += len(data)
        return data


def _saved_cache(driver, files) -> None:
    _, _, prepared = prepare(driver, _add_model())
    status = prepared.save_to_cache(files.handle("model"), files.handle("data"), TOKEN)
    assert status == ErrorStatus.NONE


def _from_cache(driver, files) -> tuple[ErrorStatus, ErrorStatus]:
    callback = PreparedModelCallback()
    launch = driver.prepare_model_from_cache(
        files.handle("model", os.O_RDONLY), files.handle("data", os.O_RDONLY), TOKEN, callback
    )
    return launch, callback.wait(TIMEOUT).status


def test_a_gigabyte_sparse_model_cache_is_refused_before_it_is_read(monkeypatch) -> None:
    driver = ReferenceDriver()
    reads = _CountingReads()
    monkeypatch.setattr(cache_module.os, "pread", reads)
    with CacheFiles() as files:
        _saved_cache(driver, files)
        os.truncate(files.paths["model"], 3 << 30)  # 3 GiB, sparse: no disk used
        assert _from_cache(driver, files) == (
            ErrorStatus.GENERAL_FAILURE,
            ErrorStatus.GENERAL_FAILURE,
        )
    assert reads.total == 0  # refused on the file's size alone


def test_a_forged_model_cache_is_refused_before_the_data_cache_is_read(monkeypatch) -> None:
    driver = ReferenceDriver()
    with CacheFiles() as files:
        _saved_cache(driver, files)
        body = bytearray(files.read("model"))
        body[-2] ^= 1  # one bit of the JSON body: the tag no longer matches
        files.write("model", bytes(body))
        os.truncate(files.paths["data"], 3 << 30)
        reads = _CountingReads()
        monkeypatch.setattr(cache_module.os, "pread", reads)
        assert _from_cache(driver, files) == (
            ErrorStatus.GENERAL_FAILURE,
            ErrorStatus.GENERAL_FAILURE,
        )
    assert reads.total == len(body)  # the model cache once, not a byte of the data cache


def test_a_model_cache_announcing_a_huge_body_is_refused_after_its_header(monkeypatch) -> None:
    driver = ReferenceDriver()
    with CacheFiles() as files:
        _saved_cache(driver, files)
        data = bytearray(files.read("model"))
        length_at = len(cache_module.MAGIC) + 32
        data[length_at : length_at + 8] = (1 << 40).to_bytes(8, "little")
        files.write("model", bytes(data))
        reads = _CountingReads()
        monkeypatch.setattr(cache_module.os, "pread", reads)
        assert _from_cache(driver, files)[1] == ErrorStatus.GENERAL_FAILURE
    assert reads.total == len(cache_module.MAGIC) + 32 + 8  # the header only


def test_a_data_cache_over_the_memory_budget_is_refused_before_it_is_read(monkeypatch) -> None:
    driver = ReferenceDriver(memory_budget=1 << 20)
    with CacheFiles() as files:
        _saved_cache(driver, files)
        os.truncate(files.paths["data"], 2 << 20)  # 2 MiB > the 1 MiB budget
        model_bytes = len(files.read("model"))
        reads = _CountingReads()
        monkeypatch.setattr(cache_module.os, "pread", reads)
        assert _from_cache(driver, files)[1] == ErrorStatus.GENERAL_FAILURE
    assert reads.total == model_bytes


def test_an_intact_cache_still_prepares() -> None:
    driver = ReferenceDriver()
    with CacheFiles() as files:
        _saved_cache(driver, files)
        assert _from_cache(driver, files) == (ErrorStatus.NONE, ErrorStatus.NONE)


# ---------------------------------------------------------------------------
# Bursts and their queues
# ---------------------------------------------------------------------------


class _Interrupt(BaseException):
    """Not an Exception: what a plain ``except Exception`` lets through."""


class _InterruptedOnce(ReferencePreparedModel):
    interrupted = False

    def execute_synchronously(self, request, measure):
        if not type(self).interrupted:
            type(self).interrupted = True
            raise _Interrupt("planted")
        return super().execute_synchronously(request, measure)


class _InterruptingDriver(ReferenceDriver):
    prepared_model_class = _InterruptedOnce


def test_a_base_exception_inside_a_burst_execution_is_answered_and_the_burst_goes_on() -> None:
    model = _add_model()
    _, _, prepared = prepare(_InterruptingDriver(), model)
    a = np.array([1, 2], np.float32)
    with pack_request(model, [a, a]) as packed, BurstController() as burst:
        status, context = burst.configure(prepared)
        assert status == ErrorStatus.NONE
        first = burst.compute(packed.request, MeasureTiming.NO, TIMEOUT)
        assert first.status == ErrorStatus.GENERAL_FAILURE
        assert context.server.running
        second = burst.compute(packed.request, MeasureTiming.NO, TIMEOUT)
        assert second.status == ErrorStatus.NONE
        assert packed.output(0, (2,)).tolist() == [2.0, 4.0]  # [1, 2] + [1, 2]


def test_a_read_counter_pushed_past_the_write_counter_is_corrupt() -> None:
    with MessageQueue.create(8, 24) as queue:
        peer = MessageQueue.attach(queue.descriptor)
        try:
            peer._write_counter[0] = UINT64_MAX  # 2**64 - 1 elements "written" into 8 slots
            with pytest.raises(FmqCorrupt, match="are 18446744073709551615 elements apart"):
                queue.read_blocking(1, 1.0)
            assert queue.is_shut_down and peer.is_shut_down
        finally:
            peer.close()


def test_a_write_counter_pushed_to_wrap_past_two_to_the_64_is_corrupt() -> None:
    with MessageQueue.create(8, 24) as queue:
        queue._write_counter[0] = UINT64_MAX - 1
        queue._read_counter[0] = UINT64_MAX - 1
        with pytest.raises(FmqCorrupt, match="would pass 2\\*\\*64 - 1"):
            queue.write(bytes(24 * 2))
        assert queue.is_shut_down
        with pytest.raises(FmqClosed):
            queue.write(bytes(24))


def test_a_burst_whose_request_ring_is_corrupted_stops_cleanly() -> None:
    _, _, prepared = prepare(ReferenceDriver(), _add_model())
    with BurstController() as burst:
        status, context = burst.configure(prepared)
        assert status == ErrorStatus.NONE
        server = context.server
        # The client end (a hostile peer) pushes the write counter far past the ring.
        burst.requests._write_counter[0] = UINT64_MAX
        os.eventfd_write(burst.requests._data_event, 1)
        assert server.join(TIMEOUT)
        assert not server.running


def test_a_cost_estimate_that_raises_falls_back_to_the_default(monkeypatch, caplog) -> None:
    from reference_driver.ops import COSTS

    def broken(args, shapes):
        raise ZeroDivisionError("planted in the estimate")

    monkeypatch.setitem(COSTS, OperationType.ADD, broken)
    model = op_model(
        OperationType.ADD, [(F32, [0], None), (F32, [0], None), (INT32, [], 0)], [(F32, [0])]
    )
    a = np.array([1, 2], np.float32)
    with caplog.at_level(logging.ERROR, logger="reference_driver"):
        (status, shapes, _), _ = run(ReferenceDriver(), model, [a, a], [8])
    assert status == ErrorStatus.NONE
    assert shapes[0].dimensions == (2,)
    assert any("planted in the estimate" in (r.exc_text or "") for r in caplog.records)
