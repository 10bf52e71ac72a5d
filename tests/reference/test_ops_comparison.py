"""The reference driver's comparisons, logical operations and SELECT, through the HAL.

Every expected value is derived by hand in the comment beside it (float32
products written out where they decide a result); none comes from the
driver's code.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    OutputShape,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure

B8 = OperandType.TENSOR_BOOL8
F16 = OperandType.TENSOR_FLOAT16
F32 = OperandType.TENSOR_FLOAT32
I32 = OperandType.TENSOR_INT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
Op = OperationType


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _tensor(type_: int, dims, scale: float = 0.0, zero_point: int = 0) -> Operand:
    return Operand(type_, list(dims), scale=scale, zero_point=zero_point)


def _model(op: int, inputs: list[Operand], output: Operand) -> Model:
    for operand in inputs:
        operand.lifetime, operand.number_of_consumers = OperandLifeTime.MODEL_INPUT, 1
    output.lifetime = OperandLifeTime.MODEL_OUTPUT
    count = len(inputs)
    return Model(
        operands=[*inputs, output],
        operations=[Operation(op, list(range(count)), [count])],
        input_indexes=list(range(count)),
        output_indexes=[count],
    )


def _run(driver, model: Model, inputs: list[np.ndarray]):
    callback = PreparedModelCallback()
    assert driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback) == 0
    notification = callback.wait(10)
    assert notification.status == ErrorStatus.NONE, notification
    with pack_request(model, inputs, [1 << 10]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = [packed.output(0, shapes[0].dimensions)] if status == ErrorStatus.NONE else []
    return status, shapes, outputs


def _compare(driver, op, type_, a, b, quant=((0.0, 0), (0.0, 0))):
    a, b = np.asarray(a), np.asarray(b)
    out_shape = np.broadcast_shapes(a.shape, b.shape)
    model = _model(
        op,
        [_tensor(type_, a.shape, *quant[0]), _tensor(type_, b.shape, *quant[1])],
        _tensor(B8, out_shape),
    )
    status, shapes, outputs = _run(driver, model, [a, b])
    assert status == ErrorStatus.NONE
    assert shapes == [OutputShape(out_shape, True)]
    return outputs[0]


@pytest.mark.parametrize(
    ("op", "a", "b", "quant", "expected"),
    [
        # 3 * 0.1f = 0.30000000447 rounds to the float32 0.3f = 1 * 0.3f: equal in
        # float32, as the CPU reference computes (in double they would differ).
        (Op.EQUAL, [3], [1], ((0.1, 0), (0.3, 0)), [1]),
        # zero points differ: 0.5 * (130 - 128) = 1.0 and 0.25 * (14 - 10) = 1.0
        (Op.EQUAL, [130, 129], [14, 14], ((0.5, 128), (0.25, 10)), [1, 0]),
        # 0.5 * (129 - 128) = 0.5 > 0.25 * (10 - 10) = 0; 0.5 * (0 - 128) = -64 < 0
        (Op.GREATER, [129, 0], [10, 10], ((0.5, 128), (0.25, 10)), [1, 0]),
        # 2.0 * (0 - 0) = 0 <= 0.5 * (255 - 255) = 0; 2.0 * 1 = 2 > 0.5 * 3 = 1.5
        (Op.LESS_EQUAL, [0, 1], [255, 3], ((2.0, 0), (0.5, 0)), [1, 0]),
    ],
    ids=["float32-products", "zero-points", "greater", "less-equal"],
)
def test_quant8_compares_real_values(driver, op, a, b, quant, expected) -> None:
    a, b = np.asarray(a, np.uint8), np.asarray(b, np.uint8)
    np.testing.assert_array_equal(_compare(driver, op, Q8, a, b, quant), expected)


def test_bool8_compares_raw_bytes(driver) -> None:
    # 1 and 2 are both "true" but different bytes: EQUAL is false, GREATER(2, 1) true.
    a, b = np.array([1, 2, 0], np.uint8), np.array([2, 1, 0], np.uint8)
    np.testing.assert_array_equal(_compare(driver, Op.EQUAL, B8, a, b), [0, 0, 1])
    np.testing.assert_array_equal(_compare(driver, Op.GREATER, B8, a, b), [0, 1, 0])


def test_float_specials(driver) -> None:
    # NaN is unordered: only NOT_EQUAL holds; -0 == +0.
    a = np.array([np.nan, np.nan, -0.0], np.float32)
    b = np.array([np.nan, 1.0, 0.0], np.float32)
    np.testing.assert_array_equal(_compare(driver, Op.NOT_EQUAL, F32, a, b), [1, 1, 0])
    np.testing.assert_array_equal(_compare(driver, Op.EQUAL, F32, a, b), [0, 0, 1])
    np.testing.assert_array_equal(_compare(driver, Op.GREATER_EQUAL, F32, a, b), [0, 0, 1])


def test_float16_and_int32(driver) -> None:
    # 1 + 2**-10 is the float16 right after 1.0
    a, b = np.array([1.0009765625, 1.0], np.float16), np.array([1.0, 1.0], np.float16)
    np.testing.assert_array_equal(_compare(driver, Op.GREATER, F16, a, b), [1, 0])
    big = np.array([2**31 - 1, -(2**31)], np.int32)
    np.testing.assert_array_equal(_compare(driver, Op.LESS, I32, big[::-1], big), [1, 0])


def test_broadcast_both_ways(driver) -> None:
    # {2, 1} against {3}: out[i][j] = a[i] < b[j]; [[1 < 0, 1 < 1, 1 < 2], [2 < 0, 2 < 1, 2 < 2]]
    a, b = np.array([[1], [2]], np.int32), np.array([0, 1, 2], np.int32)
    out = _compare(driver, Op.LESS, I32, a, b)
    np.testing.assert_array_equal(out, [[0, 0, 1], [0, 0, 0]])


@pytest.mark.parametrize(
    ("op", "expected"),
    [(Op.LOGICAL_AND, [0, 0, 0, 1, 1]), (Op.LOGICAL_OR, [0, 1, 1, 1, 1])],
)
def test_logical_any_nonzero_is_true(driver, op, expected) -> None:
    # pairs (0, 0), (0, 255), (2, 0), (2, 255), (1, 7): outputs are canonical 0/1
    a = np.array([0, 0, 2, 2, 1], np.uint8)
    b = np.array([0, 255, 0, 255, 7], np.uint8)
    model = _model(op, [_tensor(B8, [5]), _tensor(B8, [5])], _tensor(B8, [5]))
    status, _, outputs = _run(driver, model, [a, b])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], expected)


def test_logical_not(driver) -> None:
    # 0 -> 1; every nonzero byte (1, 2, 255) -> 0
    x = np.array([[0, 1], [2, 255]], np.uint8)
    model = _model(Op.LOGICAL_NOT, [_tensor(B8, [2, 2])], _tensor(B8, [2, 2]))
    status, _, outputs = _run(driver, model, [x])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[1, 0], [0, 0]])


def _select(driver, type_, cond, a, b, quant=((0.0, 0),) * 3):
    shape = np.shape(cond)
    model = _model(
        Op.SELECT,
        [_tensor(B8, shape), _tensor(type_, shape, *quant[0]), _tensor(type_, shape, *quant[1])],
        _tensor(type_, shape, *quant[2]),
    )
    status, _, outputs = _run(driver, model, [np.asarray(cond, np.uint8), a, b])
    assert status == ErrorStatus.NONE
    return outputs[0]


def test_select_requantizes_half_away_from_zero(driver) -> None:
    # a at 0.25/0, b at 1.0/100, out at 0.5/10: out = round(real / 0.5) + 10
    # a: q 1 -> 0.25 -> 10.5 -> 11 (half away, not 10); q 5 -> 1.25 -> 12.5 -> 13
    # b: q 97 -> -3 -> 4; q 90 -> -10 -> -10 -> clamped 0; q 255 -> 155 -> 320 -> 255
    cond = [1, 1, 0, 0, 0]
    a = np.array([1, 5, 0, 0, 0], np.uint8)
    b = np.array([0, 0, 97, 90, 255], np.uint8)
    out = _select(driver, Q8, cond, a, b, ((0.25, 0), (1.0, 100), (0.5, 10)))
    np.testing.assert_array_equal(out, [11, 13, 4, 0, 255])


def test_select_condition_any_nonzero(driver) -> None:
    # condition bytes 0, 1, 255: b, a, a
    a = np.array([1.5, 2.5, 3.5], np.float32)
    b = np.array([-1.0, -2.0, -3.0], np.float32)
    out = _select(driver, F32, [0, 1, 255], a, b)
    np.testing.assert_array_equal(out, [-1.0, 2.5, 3.5])


def test_select_int32_and_float16(driver) -> None:
    out = _select(
        driver,
        I32,
        [1, 0],
        np.array([2**31 - 1, 0], np.int32),
        np.array([0, -(2**31)], np.int32),
    )
    np.testing.assert_array_equal(out, [2**31 - 1, -(2**31)])
    halves = _select(
        driver, F16, [0, 1], np.array([1, 65504], np.float16), np.array([-0.5, 2], np.float16)
    )
    np.testing.assert_array_equal(halves, np.array([-0.5, 65504], np.float16))


@pytest.mark.parametrize(
    "op", [Op.EQUAL, Op.LOGICAL_AND, Op.LOGICAL_NOT, Op.SELECT], ids=lambda op: op.name
)
def test_zero_sized_inputs_fail(op) -> None:
    # The CPU reference rejects zero-sized inputs for all of these: a failure, not
    # an invalid argument.
    count = {Op.LOGICAL_NOT: 1, Op.SELECT: 3}.get(op, 2)
    type_ = F32 if op in (Op.EQUAL, Op.SELECT) else B8
    inputs = [_tensor(B8 if op == Op.SELECT and i == 0 else type_, [0, 2]) for i in range(count)]
    values = [np.zeros((0, 2), np.uint8 if t.type == B8 else np.float32) for t in inputs]
    args = OpArgs(inputs, [_tensor(type_ if op == Op.SELECT else B8, [0, 2])], values)
    with pytest.raises(OpFailure) as error:
        REGISTRY[op].prepare(args)
    assert type(error.value) is OpFailure


@pytest.mark.parametrize(
    ("dims", "reason"),
    [(([2, 3], [2]), "broadcast"), (([0, 3], [2, 0]), None), (([], [4]), None)],
)
def test_declared_shapes_checked_at_prepare(dims, reason) -> None:
    # Known sizes 3 and 2 on the last axis never broadcast; 0 (unknown) and an
    # unknown rank are left to execution.
    args = OpArgs([_tensor(F32, d) for d in dims], [_tensor(B8, [0])], [None, None])
    result = REGISTRY[Op.EQUAL].validate(args)
    assert (result is None) if reason is None else (reason in result)
