"""The reference driver's own behaviour: ADD and MUL values, paths, shapes, resources.

Every expected value here is derived by hand in the comment beside it; none
comes from the driver's code.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from conformance.harness.models import binary_model, chain_model
from conformance.harness.requests import pack_request
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.memory import ALLOCATABLE_KINDS
from hal.types import (
    NO_TIMING,
    ErrorStatus,
    ExecutionPreference,
    FusedActivationFunc,
    MeasureTiming,
    OperandType,
    OperationType,
    OutputShape,
)
from reference_driver import ReferenceDriver
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quant8_activation_range,
    quantize_multiplier,
    rounding_divide_by_pot,
)

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8 = OperandType.TENSOR_QUANT8_ASYMM
ADD = OperationType.ADD
MUL = OperationType.MUL


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _prepare(driver, model):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert launch == ErrorStatus.NONE
    assert notification.status == ErrorStatus.NONE, notification
    return notification.prepared_model


def _run(driver, model, inputs, output_sizes=None, measure=MeasureTiming.NO):
    prepared = _prepare(driver, model)
    with pack_request(model, inputs, output_sizes) as packed:
        status, shapes, timing = prepared.execute_synchronously(packed.request, measure)
        outputs = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if status == 0 else []
        )
    return status, shapes, timing, outputs


@pytest.mark.parametrize(
    ("op", "type_", "a", "b", "activation", "expected"),
    [
        # [[1,2],[3,4]] + [10,20] broadcast along rows
        (ADD, F32, [[1, 2], [3, 4]], [10, 20], 0, [[11, 22], [13, 24]]),
        # -3+0 clamps to 0 and 7+0 to 6 under RELU6
        (ADD, F32, [-3, 2, 7], [0, 0, 0], FusedActivationFunc.RELU6, [0, 2, 6]),
        # -3 -> -1, 0.5 stays, 7 -> 1 under RELU1
        (ADD, F32, [-3, 0.5, 7], [0, 0, 0], FusedActivationFunc.RELU1, [-1, 0.5, 1]),
        # -2*3 = -6 -> 0 under RELU; 2*3 = 6
        (MUL, F32, [-2, 2], [3, 3], FusedActivationFunc.RELU, [0, 6]),
        # 1.5 * 0.5 = 0.75 exactly in float16; 2048 * 2 = 4096
        (MUL, F16, [1.5, 2048], [0.5, 2], 0, [0.75, 4096]),
        # float16 overflow: 60000 + 60000 rounds to inf
        (ADD, F16, [60000], [60000], 0, [np.inf]),
    ],
    ids=["add-broadcast", "add-relu6", "add-relu1", "mul-relu", "mul-f16", "add-f16-overflow"],
)
def test_float_values(driver, op, type_, a, b, activation, expected) -> None:
    a, b = np.asarray(a), np.asarray(b)
    model = binary_model(op, type_, a.shape, b.shape, activation=activation)
    status, shapes, _, outputs = _run(driver, model, [a, b])
    assert status == ErrorStatus.NONE
    assert shapes == [OutputShape(np.asarray(expected).shape, True)]
    np.testing.assert_array_equal(outputs[0], np.asarray(expected, dtype=outputs[0].dtype))


@pytest.mark.parametrize(
    ("op", "quant", "a", "b", "activation", "expected"),
    [
        # a = 0.5*[2,4] = [1,2], b = 0.5*[6,8] = [3,4]; sums [4,6] at scale 1
        (ADD, ((0.5, 0), (0.5, 0), (1.0, 0)), [2, 4], [6, 8], 0, [4, 6]),
        # 0.5*3 + 0 = 1.5 -> rounds half away from zero to 2
        (ADD, ((0.5, 0), (0.5, 0), (1.0, 0)), [3], [0], 0, [2]),
        # 0.5*(7-10) = -1.5 -> -2, plus output zero point 128 = 126
        (ADD, ((0.5, 10), (0.5, 0), (1.0, 128)), [7], [0], 0, [126]),
        # different input scales: 0.25*8 + 1.0*3 = 5 at scale 0.5 -> 10
        (ADD, ((0.25, 0), (1.0, 0), (0.5, 0)), [8], [3], 0, [10]),
        # 250 + 250 at scale 1 saturates at 255
        (ADD, ((1.0, 0), (1.0, 0), (1.0, 0)), [250], [250], 0, [255]),
        # RELU1 at scale 0.5, zp 128 clamps to [126, 130]: 0.5*(140-128)=6 -> 130
        (ADD, ((0.5, 128), (0.5, 128), (0.5, 128)), [140], [128], 2, [130]),
        # 0.5*4 * 0.5*6 = 6 at scale 1
        (MUL, ((0.5, 0), (0.5, 0), (1.0, 0)), [4], [6], 0, [6]),
        # 0.5*5 * 0.5*2 = 2.5 -> 3 (half away from zero)
        (MUL, ((0.5, 0), (0.5, 0), (1.0, 0)), [5], [2], 0, [3]),
        # 0.5*(0-4) * 0.5*6 = -6 at scale 1, zp 10 -> 4
        (MUL, ((0.5, 4), (0.5, 0), (1.0, 10)), [0], [6], 0, [4]),
    ],
    ids=[
        "add-exact",
        "add-round-half",
        "add-negative-zp",
        "add-mixed-scales",
        "add-saturate",
        "add-relu1-zp",
        "mul-exact",
        "mul-round-half",
        "mul-negative",
    ],
)
def test_quant8_values(driver, op, quant, a, b, activation, expected) -> None:
    a = np.asarray(a, dtype=np.uint8)
    b = np.asarray(b, dtype=np.uint8)
    model = binary_model(op, Q8, a.shape, b.shape, activation=activation, quant=quant)
    status, _, _, outputs = _run(driver, model, [a, b])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.asarray(expected, dtype=np.uint8))


def test_chain_through_temporaries(driver) -> None:
    # x doubled three times: [1.5, -2] * 8
    status, _, _, outputs = _run(driver, chain_model(3), [np.array([1.5, -2], np.float32)])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [12, -16])


def test_constant_operand(driver) -> None:
    model = binary_model(MUL, F32, (2,), constant_b=np.array([3, -1], np.float32))
    status, _, _, outputs = _run(driver, model, [np.array([2, 5], np.float32)])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [6, -5])


def test_dynamic_output_shape(driver) -> None:
    model = binary_model(ADD, F32, (2, 3), (3,), output_dims=(0, 0))
    a, b = np.ones((2, 3), np.float32), np.arange(3, dtype=np.float32)
    status, shapes, _, outputs = _run(driver, model, [a, b], output_sizes=[24])
    assert status == ErrorStatus.NONE
    assert shapes == [OutputShape((2, 3), True)]
    np.testing.assert_array_equal(outputs[0], [[1, 2, 3], [1, 2, 3]])


def test_output_insufficient_size(driver) -> None:
    model = binary_model(ADD, F32, (2, 3), (3,), output_dims=(0, 0))
    a, b = np.ones((2, 3), np.float32), np.arange(3, dtype=np.float32)
    status, shapes, timing, _ = _run(driver, model, [a, b], [23], MeasureTiming.YES)
    assert status == ErrorStatus.OUTPUT_INSUFFICIENT_SIZE
    assert shapes == [OutputShape((2, 3), False)]
    assert timing == NO_TIMING


def test_timing_measured_only_when_asked(driver) -> None:
    model = binary_model()
    x = np.ones((2, 2), np.float32)
    _, _, timing, _ = _run(driver, model, [x, x], measure=MeasureTiming.YES)
    assert 0 <= timing.time_on_device <= timing.time_in_driver < 10_000_000
    _, _, timing, _ = _run(driver, model, [x, x], measure=MeasureTiming.NO)
    assert timing == NO_TIMING


def test_async_paths(driver) -> None:
    model = binary_model()
    prepared = _prepare(driver, model)
    x = np.full((2, 2), 2, np.float32)
    with pack_request(model, [x, x]) as packed:
        callback = ExecutionCallback()
        assert prepared.execute(packed.request, callback) == ErrorStatus.NONE
        notification = callback.wait(10)
        assert (notification.method, notification.status) == ("notify", ErrorStatus.NONE)
        callback = ExecutionCallback()
        launch = prepared.execute_1_2(packed.request, MeasureTiming.NO, callback)
        notification = callback.wait(10)
        assert launch == ErrorStatus.NONE
        assert notification.method == "notify_1_2"
        assert notification.output_shapes == (OutputShape((2, 2), True),)
        np.testing.assert_array_equal(packed.output(0, (2, 2)), np.full((2, 2), 4))


def test_partial_driver_declines_and_fails_preparation() -> None:
    driver = ReferenceDriver(operations={MUL})
    model = binary_model(ADD)
    assert driver.get_supported_operations_1_2(model) == (ErrorStatus.NONE, [False])
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.LOW_POWER, callback)
    assert launch == ErrorStatus.NONE
    notification = callback.wait(10)
    assert (notification.status, notification.prepared_model) == (ErrorStatus.GENERAL_FAILURE, None)


def test_broadcast_mismatch_fails_execution(driver) -> None:
    model = binary_model(ADD, F32, (0,), (0,), output_dims=(0,))
    status, shapes, _, _ = _run(
        driver, model, [np.ones(2, np.float32), np.ones(3, np.float32)], output_sizes=[12]
    )
    assert (status, shapes) == (ErrorStatus.INVALID_ARGUMENT, [])


def test_quantize_multiplier() -> None:
    # 0.5 = 0.5 * 2**0, mantissa 0.5 -> 2**30; 0.75 -> 0.75 * 2**31; 3 = 0.75 * 2**2
    assert quantize_multiplier(0.5) == (1 << 30, 0)
    assert quantize_multiplier(0.75) == (3 << 29, 0)
    assert quantize_multiplier(3.0) == (3 << 29, 2)
    assert quantize_multiplier(0.0) == (0, 0)


def test_high_mul_nudge_is_asymmetric() -> None:
    # Real 0.5 is m0 = 2**30 with no shift, so all rounding is in the high multiply:
    # (x * 2**30 + 2**30) / 2**31 for x >= 0, (x * 2**30 + 1 - 2**30) / 2**31 below,
    # truncated. 3 -> (3 + 1) / 2 = 2; 5 -> 3; -3 -> (-4 * 2**30 + 1) / 2**31 = -1.99.. -> -1.
    m0, shift = quantize_multiplier(0.5)
    values = np.array([3, -3, 5, 4], dtype=np.int64)
    np.testing.assert_array_equal(
        multiply_by_quantized_multiplier(values, m0, shift), [2, -1, 3, 2]
    )


def test_rounding_divide_by_pot_rounds_half_away() -> None:
    # -3/2 = -1.5 -> -2, 3/2 -> 2, -5/2 -> -3, 5/2 -> 3, -1/4 -> 0, 7/4 = 1.75 -> 2
    values = np.array([-3, 3, -5, 5], dtype=np.int64)
    np.testing.assert_array_equal(rounding_divide_by_pot(values, 1), [-2, 2, -3, 3])
    np.testing.assert_array_equal(rounding_divide_by_pot(np.array([-1, 7]), 2), [0, 2])


def test_multiply_by_quantized_multiplier_close_to_exact() -> None:
    rng = np.random.default_rng(7)
    x = rng.integers(-(2**20), 2**20, size=1000)
    for real in (0.001, 0.3, 0.9999, 1.7, 12.5):
        m0, shift = quantize_multiplier(real)
        got = multiply_by_quantized_multiplier(x, m0, shift)
        assert np.max(np.abs(got - x * real)) <= 1.0


def test_quant8_activation_ranges() -> None:
    # RELU at zp 100 starts at 100; RELU6 at scale 0.1 zp 0 ends at 60; NONE is the full range
    assert quant8_activation_range(1, 0.5, 100) == (100, 255)
    assert quant8_activation_range(3, 0.1, 0) == (0, 60)
    assert quant8_activation_range(2, 0.5, 128) == (126, 130)
    assert quant8_activation_range(0, 0.5, 128) == (0, 255)


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("kind", ALLOCATABLE_KINDS)
def test_no_descriptor_leaks(driver, kind: str) -> None:
    model = binary_model()
    prepared = _prepare(driver, model)
    x = np.ones((2, 2), np.float32)
    before = _open_fds()
    for _ in range(50):
        with pack_request(model, [x, x], kind=kind) as packed:
            prepared.execute_synchronously(packed.request, MeasureTiming.YES)
            callback = ExecutionCallback()
            prepared.execute_1_2(packed.request, MeasureTiming.NO, callback)
            callback.wait(10)
            callback = ExecutionCallback()
            prepared.execute(packed.request, callback)
            callback.wait(10)
    assert _open_fds() == before


def test_plans_release_each_temporary_after_its_last_reader() -> None:
    from conformance.harness.generated import corpus
    from reference_driver.executor import Plan, PlanError

    checked = 0
    for test in corpus():
        model = test.model
        try:
            plan = Plan(model)
        except PlanError:
            continue
        outputs = set(model.output_indexes)
        written = [i for step in plan.steps for i in step.outputs]
        released = [i for step in plan.steps for i in step.release]
        assert sorted(released) == sorted(i for i in written if i not in outputs), test.test_id
        for position, step in enumerate(plan.steps):
            for index in step.release:
                later = [s for s in plan.steps[position + 1 :] if index in s.inputs]
                assert not later, f"{test.test_id}: operand {index} read after its release"
        checked += len(plan.steps) > 1
    assert checked > 20  # multi-operation models exist in the corpus


def test_capabilities_report_the_measured_performance_per_operand_type() -> None:
    from hal.types import OperandType
    from reference_driver import ReferenceDriver
    from reference_driver import performance as perf

    driver = ReferenceDriver()
    _, caps = driver.get_capabilities_1_2()
    by_type = {entry.type: entry.info for entry in caps.operand_performance}
    quant = {
        OperandType.TENSOR_QUANT8_ASYMM,
        OperandType.TENSOR_QUANT8_SYMM,
        OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
        OperandType.TENSOR_QUANT16_SYMM,
        OperandType.TENSOR_QUANT16_ASYMM,
    }
    for t, info in by_type.items():
        ratio = perf.QUANT8_RATIO if t in quant else perf.FLOAT32_RATIO
        assert (info.exec_time, info.power_usage) == (ratio, ratio), OperandType(t).name
    assert caps.relaxed_float32_to_float16_performance_tensor.exec_time == perf.FLOAT32_RATIO
    _, caps10 = driver.get_capabilities()
    assert caps10.quantized8_performance.exec_time == perf.QUANT8_RATIO
    assert caps10.float32_performance.exec_time == perf.FLOAT32_RATIO
