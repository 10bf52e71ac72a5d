"""The reference driver's element-wise operations beyond what test_reference_driver covers.

SUB, DIV, MAXIMUM, MINIMUM, POW and PRELU numerics that are easy to get
wrong (rounding of quantized ties, the CPU reference's float clamps, std::max
ordering with NaN, zero-sized inputs), driven through the HAL. Every expected
value is derived by hand in the comment beside it; none comes from the
driver's code.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    FusedActivationFunc,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure, OpInvalid

F16 = OperandType.TENSOR_FLOAT16
F32 = OperandType.TENSOR_FLOAT32
I32 = OperandType.TENSOR_INT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
Op = OperationType
FLT_MAX = float(np.finfo(np.float32).max)
Quant = tuple[float, int]


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _two_input_model(
    op: int, type_: int, a_dims, b_dims, quant: tuple[Quant, Quant, Quant] | None = None
) -> Model:
    """``out = op(a, b)`` for the operations without an activation, output shape broadcast."""
    quant = quant or ((0.0, 0),) * 3
    out_dims = np.broadcast_shapes(tuple(a_dims), tuple(b_dims))
    operands = [
        Operand(type_, list(a_dims), 1, *quant[0], OperandLifeTime.MODEL_INPUT),
        Operand(type_, list(b_dims), 1, *quant[1], OperandLifeTime.MODEL_INPUT),
        Operand(type_, list(out_dims), 0, *quant[2], OperandLifeTime.MODEL_OUTPUT),
    ]
    return Model(
        operands=operands,
        operations=[Operation(op, [0, 1], [2])],
        input_indexes=[0, 1],
        output_indexes=[2],
    )


def _run(driver, model: Model, inputs: list[np.ndarray]) -> tuple[int, list[np.ndarray]]:
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    with pack_request(model, inputs) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if not status else []
        )
    return status, outputs


def _values(driver, model: Model, *inputs) -> np.ndarray:
    types = [model.operands[i].type for i in model.input_indexes]
    dtypes = {F32: np.float32, F16: np.float16, I32: np.int32, Q8: np.uint8}
    arrays = [np.asarray(x, dtype=dtypes[t]) for x, t in zip(inputs, types, strict=True)]
    status, outputs = _run(driver, model, arrays)
    assert status == ErrorStatus.NONE
    return outputs[0]


# ---------------------------------------------------------------------------
# Float
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "type_", "a", "b", "activation", "expected"),
    [
        # The CPU reference clamps float32 results to the activation range, which for
        # NONE is [-FLT_MAX, FLT_MAX]: 1/0 and -1/0 come out as +-FLT_MAX, not +-inf.
        (Op.DIV, F32, [1, -1], [0, 0], 0, [FLT_MAX, -FLT_MAX]),
        # ... and under RELU6 1/0 = inf is clamped to 6, -1/0 to 0.
        (Op.DIV, F32, [1, -1], [0, 0], FusedActivationFunc.RELU6, [6, 0]),
        # 0/0 is NaN, and the clamp keeps NaN.
        (Op.DIV, F32, [0], [0], 0, [np.nan]),
        # Float16: the float32 FLT_MAX rounds to inf when narrowed.
        (Op.DIV, F16, [1, -1], [0, 0], 0, [np.inf, -np.inf]),
        # 3e38 + 3e38 overflows float32 to inf; clamped to FLT_MAX.
        (Op.ADD, F32, [3e38], [3e38], 0, [FLT_MAX]),
        # -3e38 * 2 = -inf -> -FLT_MAX.
        (Op.MUL, F32, [-3e38], [2], 0, [-FLT_MAX]),
        # SUB applies the activation after subtracting: [5 - 7, 0.5 - 0] = [-2, 0.5]
        # -> RELU1 [-1, 0.5].
        (Op.SUB, F32, [5, 0.5], [7, 0], FusedActivationFunc.RELU1, [-1, 0.5]),
        # [6] - [[1, 2], [7, 8]] broadcasts the first operand: [5, 4, -1, -2].
        (Op.SUB, F32, [6], [[1, 2], [7, 8]], 0, [[5, 4], [-1, -2]]),
        # A negative divisor under RELU: [4 / -2, -4 / -2] = [-2, 2] -> [0, 2].
        (Op.DIV, F32, [4, -4], [-2], FusedActivationFunc.RELU, [0, 2]),
        # Float16 division rounds once from float32: 1/3 = 0.33333334 -> nearest half
        # 0.333251953125 (1365 * 2**-12).
        (Op.DIV, F16, [1], [3], 0, [0.333251953125]),
    ],
    ids=[
        "div-by-zero-flt-max",
        "div-by-zero-relu6",
        "div-zero-by-zero-nan",
        "div-f16-by-zero-inf",
        "add-overflow-flt-max",
        "mul-overflow-flt-max",
        "sub-relu1",
        "sub-broadcast-first",
        "div-negative-divisor-relu",
        "div-f16-rounding",
    ],
)
def test_float_activated(driver, op, type_, a, b, activation, expected) -> None:
    a, b = np.asarray(a), np.asarray(b)
    model = binary_model(op, type_, a.shape, b.shape, activation=activation)
    result = _values(driver, model, a, b)
    np.testing.assert_array_equal(result, np.asarray(expected, dtype=result.dtype))


def test_extremum_nan_follows_std_max_and_min(driver) -> None:
    # std::max(a, b) is `a < b ? b : a` and std::min(a, b) is `b < a ? b : a`: every
    # comparison with NaN is false, so a NaN first operand is returned and a NaN
    # second operand is not. max(NaN, 1) = NaN, max(1, NaN) = 1; min likewise.
    a, b = [np.nan, 1.0], [1.0, np.nan]
    for op in (Op.MAXIMUM, Op.MINIMUM):
        result = _values(driver, _two_input_model(op, F32, [2], [2]), a, b)
        np.testing.assert_array_equal(result, [np.nan, 1.0])


def test_extremum_int32_broadcast(driver) -> None:
    # [[INT32_MIN], [7]] against [0, -9]: max [[0, -9], [7, 7]], min [[MIN, MIN], [0, -9]].
    a, b = [[-(2**31)], [7]], [0, -9]
    maximum = _values(driver, _two_input_model(Op.MAXIMUM, I32, [2, 1], [2]), a, b)
    minimum = _values(driver, _two_input_model(Op.MINIMUM, I32, [2, 1], [2]), a, b)
    np.testing.assert_array_equal(maximum, [[0, -9], [7, 7]])
    np.testing.assert_array_equal(minimum, [[-(2**31), -(2**31)], [0, -9]])


@pytest.mark.parametrize(
    ("type_", "base", "exponent", "expected"),
    [
        # 0**0 = 1, 0**-1 = +inf, (-2)**3 = -8, (-8)**(1/3) is NaN (negative base,
        # non-integer exponent).
        (F32, [0, 0, -2, -8], [0, -1, 3, 1 / 3], [1, np.inf, -8, np.nan]),
        # Float16: sqrt(3) = 1.7320508 in float32, 1773.6 steps of 2**-10 -> 1774 * 2**-10.
        (F16, [3], [0.5], [1.732421875]),
        # Broadcast both ways: [[2], [3]] ** [1, 2] = [[2, 4], [3, 9]].
        (F32, [[2], [3]], [1, 2], [[2, 4], [3, 9]]),
    ],
    ids=["edges", "f16-rounding", "broadcast"],
)
def test_pow(driver, type_, base, exponent, expected) -> None:
    base, exponent = np.asarray(base), np.asarray(exponent)
    model = _two_input_model(Op.POW, type_, base.shape, exponent.shape)
    result = _values(driver, model, base, exponent)
    np.testing.assert_array_equal(result, np.asarray(expected, dtype=result.dtype))


def test_prelu_float_keeps_negative_zero(driver) -> None:
    # -0.0 >= 0 holds, so -0.0 passes through unchanged (sign kept); -2 * 0.5 = -1;
    # 3 passes; alpha broadcast over the last axis.
    model = _two_input_model(Op.PRELU, F32, [3], [1])
    result = _values(driver, model, [-0.0, -2.0, 3.0], [0.5])
    np.testing.assert_array_equal(result, [0.0, -1.0, 3.0])
    assert np.signbit(result[0])


# ---------------------------------------------------------------------------
# Quant8
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quant", "a", "b", "activation", "expected"),
    [
        # Scales 1, 1 -> 2: 3 - 4 = -1 is -0.5 at the output scale; the final
        # rounding divide is half away from zero -> -1, + zp 128 = 127. 4 - 3 -> 129.
        (((1.0, 0), (1.0, 0), (2.0, 128)), [3, 4], [4, 3], 0, [127, 129]),
        # Zero points: 0.5 * (20 - 10) - 0.25 * (40 - 0) = 5 - 10 = -5 at scale 1 zp 100
        # -> 95; RELU clamps it at the zero point 100.
        (((0.5, 10), (0.25, 0), (1.0, 100)), [20], [40], 0, [95]),
        (((0.5, 10), (0.25, 0), (1.0, 100)), [20], [40], FusedActivationFunc.RELU, [100]),
        # Saturation: 0 - 255 at scales 1 -> 0.5 is -510 bytes, clamped to 0; 255 - 0 -> 255.
        (((1.0, 0), (1.0, 0), (0.5, 0)), [0, 255], [255, 0], 0, [0, 255]),
    ],
    ids=["tie-away-from-zero", "zero-points", "relu-at-zero-point", "saturation"],
)
def test_quant_sub(driver, quant, a, b, activation, expected) -> None:
    model = binary_model(Op.SUB, Q8, (len(a),), (len(b),), activation=activation, quant=quant)
    np.testing.assert_array_equal(_values(driver, model, a, b), expected)


@pytest.mark.parametrize(
    ("op", "quant", "a", "b", "expected"),
    [
        # Requantize rounds after adding the output zero point, half away from zero:
        # a = (7 - 10) * 0.5 = -1.5 -> -1.5 / 1 + 10 = 8.5 -> 9 (rounding -1.5 first would
        # give 8); b = (0 - 10) * 0.5 = -5 -> 5; max(9, 5) = 9.
        (Op.MAXIMUM, ((0.5, 10), (0.5, 10), (1.0, 10)), [7], [0], [9]),
        # 0.5 * 5 = 2.5 -> 3 and 0.5 * 3 = 1.5 -> 2 (both away from zero); min = 2.
        (Op.MINIMUM, ((0.5, 0), (0.5, 0), (1.0, 0)), [5], [3], [2]),
        # Saturation of the requantized inputs: a = 200 at scale 1 -> 200 / 0.5 = 400
        # -> 255; b = 0 at scale 1 zp 100 is -100 -> -200 -> 0. max 255, min 0.
        (Op.MAXIMUM, ((1.0, 0), (1.0, 100), (0.5, 0)), [200], [0], [255]),
        (Op.MINIMUM, ((1.0, 0), (1.0, 100), (0.5, 0)), [200], [0], [0]),
    ],
    ids=["max-rounds-after-zero-point", "min-ties", "max-saturates", "min-saturates"],
)
def test_quant_extremum(driver, op, quant, a, b, expected) -> None:
    model = _two_input_model(op, Q8, [len(a)], [len(b)], quant)
    np.testing.assert_array_equal(_values(driver, model, a, b), expected)


@pytest.mark.parametrize(
    ("quant", "x", "alpha", "expected"),
    [
        # Positive branch, multiplier s_in / s_out = 1 / 0.25 = 4 (above 1: a left
        # shift): x = 3 -> 12, + zp 50 = 62.
        (((1.0, 0), (0.5, 0), (0.25, 50)), [3], [1], [62]),
        # Negative branch, multiplier 1 * 0.5 / 1 = 0.5 with no shift: x * alpha =
        # (7 - 10) * 1 = -3 -> -1.5; the high multiply's nudge rounds a negative half
        # toward zero: (-3 * 2**30 + 1 - 2**30) / 2**31 truncates to -1. zp 100 -> 99.
        (((1.0, 10), (0.5, 0), (1.0, 100)), [7], [1], [99]),
        # The same for +1.5 on the positive branch (s_in 0.5, s_out 1): 3 -> 2.
        (((0.5, 0), (0.5, 0), (1.0, 100)), [3], [1], [102]),
        # Alpha with a zero point, negative: alpha = 0.1 * (0 - 10) = -1; x = 0.5 * (6 - 10)
        # = -2 -> alpha * x = 2 at scale 0.5 -> 4, + zp 20 = 24.
        (((0.5, 10), (0.1, 10), (0.5, 20)), [6], [0], [24]),
    ],
    ids=["positive-multiplier-above-1", "negative-tie", "positive-tie", "alpha-zero-point"],
)
def test_quant_prelu(driver, quant, x, alpha, expected) -> None:
    model = _two_input_model(Op.PRELU, Q8, [len(x)], [len(alpha)], quant)
    np.testing.assert_array_equal(_values(driver, model, x, alpha), expected)


# ---------------------------------------------------------------------------
# Shapes: zero-sized inputs, rank, unknown rank
# ---------------------------------------------------------------------------


def _impl_args(op: int, a: np.ndarray, b: np.ndarray) -> OpArgs:
    operand = Operand(F32, [0] * a.ndim)
    other = Operand(F32, [0] * b.ndim)
    values: list[np.ndarray | None] = [a, b]
    inputs = [operand, other]
    if op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV):
        inputs.append(Operand(OperandType.INT32, []))
        values.append(np.array(0, np.int32))
    return OpArgs(inputs, [Operand(F32, [])], values)


@pytest.mark.parametrize("op", [Op.ADD, Op.SUB, Op.MUL, Op.DIV])
def test_zero_sized_inputs_accepted_by_arithmetic(op) -> None:
    # A 0 dimension broadcasts only against 0 or 1, and the output keeps the 0:
    # [0, 3] with [1, 3] -> [0, 3], no arithmetic.
    impl = REGISTRY[op]
    args = _impl_args(op, np.zeros((0, 3), np.float32), np.ones((1, 3), np.float32))
    shapes = impl.prepare(args)
    assert shapes == [(0, 3)]
    assert impl.execute(args, shapes)[0].shape == (0, 3)
    # 0 against 2 does not broadcast.
    with pytest.raises(OpInvalid):
        impl.prepare(_impl_args(op, np.zeros((0,), np.float32), np.ones((2,), np.float32)))


@pytest.mark.parametrize("op", [Op.MAXIMUM, Op.MINIMUM, Op.POW, Op.PRELU])
def test_zero_sized_inputs_fail_the_1_2_operations(op) -> None:
    # These fail the execution (GENERAL_FAILURE), not as an invalid argument.
    args = _impl_args(op, np.zeros((0, 3), np.float32), np.ones((1, 3), np.float32))
    with pytest.raises(OpFailure) as failure:
        REGISTRY[op].prepare(args)
    assert not isinstance(failure.value, OpInvalid)


def test_unknown_rank_up_to_4_runs_and_5_is_refused(driver) -> None:
    # ADD of unknown-rank operands: a request of rank 4 runs ([1, 1, 1, 2] + [2]);
    # rank 5 is beyond the arithmetic operations' limit of 4.
    model = binary_model(Op.ADD, dims=(0,), other_dims=(0,), output_dims=(0,))
    for index in (0, 1, 3):
        model.operands[index].dimensions = []
    two = np.array([1.0, 2.0], np.float32)
    callback = PreparedModelCallback()
    driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    prepared = callback.wait(10).prepared_model
    for shape, status in (
        ((1, 1, 1, 2), ErrorStatus.NONE),
        ((1, 1, 1, 1, 2), ErrorStatus.INVALID_ARGUMENT),
    ):
        with pack_request(model, [np.ones(shape, np.float32), two], [64]) as packed:
            got, shapes, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
            assert got == status
            if got == ErrorStatus.NONE:
                np.testing.assert_array_equal(packed.output(0, shapes[0].dimensions), [[[[2, 3]]]])
