"""The reference driver's CAST, QUANTIZE and DEQUANTIZE, through the HAL.

Every expected value is derived by hand in the comment beside it; none comes
from the driver's code.
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
    SymmPerChannelQuantParams,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure, OpInvalid

F16 = OperandType.TENSOR_FLOAT16
F32 = OperandType.TENSOR_FLOAT32
I32 = OperandType.TENSOR_INT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
Q8S = OperandType.TENSOR_QUANT8_SYMM
Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL
Op = OperationType
DTYPES = {F16: np.float16, F32: np.float32, I32: np.int32, Q8: np.uint8, Q8S: np.int8, Q8C: np.int8}


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _run(driver, op: int, source: Operand, target: Operand, values) -> np.ndarray:
    """Run ``op`` on one model input; the output keeps the input's shape."""
    source.lifetime, source.number_of_consumers = OperandLifeTime.MODEL_INPUT, 1
    target.lifetime = OperandLifeTime.MODEL_OUTPUT
    model = Model(
        operands=[source, target],
        operations=[Operation(op, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )
    callback = PreparedModelCallback()
    assert driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback) == 0
    notification = callback.wait(10)
    assert notification.status == ErrorStatus.NONE, notification
    array = np.asarray(values, DTYPES[source.type])
    with pack_request(model, [array], [1 << 10]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        assert status == ErrorStatus.NONE
        assert shapes[0].dimensions == array.shape
        return packed.output(0, shapes[0].dimensions)


def _tensor(type_: int, count: int, scale: float = 0.0, zero_point: int = 0) -> Operand:
    return Operand(type_, [count], scale=scale, zero_point=zero_point)


def _q8(count: int) -> Operand:
    # CAST ignores quantization parameters: these must change nothing.
    return _tensor(Q8, count, 0.5, 128)


@pytest.mark.parametrize(
    ("source", "target", "values", "expected"),
    [
        # truncation toward zero, not rounding
        (F32, I32, [-1.7, -0.5, 0.5, 1.7, 255.9], [-1, 0, 0, 1, 255]),
        (F16, I32, [-2.75, 2.75, 1000.5], [-2, 2, 1000]),
        # clamp to [0, 255] first, then truncate
        (F32, Q8, [-1.0, -0.9, 0.9, 254.99, 255.9, 256.0, 1e9], [0, 0, 0, 254, 255, 255, 255]),
        (F16, Q8, [-65504.0, 3.5, 65504.0], [0, 3, 255]),
        (I32, Q8, [-(2**31), -1, 0, 7, 255, 256, 2**31 - 1], [0, 0, 0, 7, 255, 255, 255]),
        # raw stored values: quantization parameters 0.5 / 128 are ignored
        (Q8, F32, [0, 128, 255], [0.0, 128.0, 255.0]),
        (Q8, I32, [0, 128, 255], [0, 128, 255]),
        (Q8, Q8, [0, 128, 255], [0, 128, 255]),
        # to float16: nearest, ties to even (2049 -> 2048, 2051 -> 2052); 65520 and
        # beyond overflow to infinity, 65519 stays finite
        (I32, F16, [2049, 2051, 65519, 65520, -70000], [2048, 2052, 65504, np.inf, -np.inf]),
        (F32, F16, [1e5, 0.1, -3.0], [np.inf, np.float16(0.1), -3.0]),
        # int32 to float32: 2**24 + 1 is not a float32; it rounds to the even 2**24
        (I32, F32, [2**24 + 1, -7], [2.0**24, -7.0]),
        (F16, F32, [0.099975586, -0.0], [0.099975586, -0.0]),
    ],
)
def test_cast(driver, source, target, values, expected) -> None:
    count = len(values)
    make_source = _q8 if source == Q8 else (lambda n: _tensor(source, n))
    make_target = _q8 if target == Q8 else (lambda n: _tensor(target, n))
    out = _run(driver, Op.CAST, make_source(count), make_target(count), values)
    assert out.dtype == DTYPES[target]
    np.testing.assert_array_equal(out, np.asarray(expected, DTYPES[target]))


def test_cast_rejects_zero_sized_input() -> None:
    args = OpArgs([_tensor(F32, 0)], [_tensor(I32, 0)], [np.zeros(0, np.float32)])
    with pytest.raises(OpFailure) as error:
        REGISTRY[Op.CAST].prepare(args)
    assert type(error.value) is OpFailure


@pytest.mark.parametrize(
    ("source", "scale", "zero_point", "values", "expected"),
    [
        # x / 0.5 = [-2.5, -0.5, 0.5, 2.5] round half away -> [-3, -1, 1, 3], then + 10.
        # Rounding after adding the zero point would give round(7.5) = 8 for the first.
        (F32, 0.5, 10, [-1.25, -0.25, 0.25, 1.25], [7, 9, 11, 13]),
        # 0.05f / 0.1f is exactly 0.5 (same mantissa) -> 1; 0.04 / 0.1 -> 0.4 -> 0;
        # 0.15f / 0.1f = 1.49999999255 rounds to the float32 1.5 -> 2
        (F32, 0.1, 0, [0.05, 0.04, 0.15], [1, 0, 2]),
        # saturation both ends, infinities, and NaN (std::min(255, NaN) keeps 255)
        (F32, 1.0, 128, [-200.0, 200.0, -np.inf, np.inf, np.nan], [0, 255, 0, 255, 255]),
        # float16 input: 1.5 / 0.25 = 6 -> 106; -2.5 / 0.25 = -10 -> 90; 0.125 / 0.25 = 0.5 -> 101
        (F16, 0.25, 100, [1.5, -2.5, 0.125], [106, 90, 101]),
    ],
    ids=["ties", "float32-division", "saturation", "float16"],
)
def test_quantize(driver, source, scale, zero_point, values, expected) -> None:
    count = len(values)
    out = _run(
        driver, Op.QUANTIZE, _tensor(source, count), _tensor(Q8, count, scale, zero_point), values
    )
    np.testing.assert_array_equal(out, np.asarray(expected, np.uint8))


@pytest.mark.parametrize(
    ("source", "target", "values", "expected"),
    [
        # 0.5 * (q - 255): zero point at the top of the range
        (_tensor(Q8, 3, 0.5, 255), F32, [0, 254, 255], [-127.5, -0.5, 0.0]),
        # symmetric int8, scale 0.25
        (_tensor(Q8S, 3, 0.25), F32, [-128, -1, 127], [-32.0, -0.25, 31.75]),
        # float16 output: 255 * 300 = 76500 overflows to inf; 218 * 300 = 65400 -> 65408
        (_tensor(Q8, 3, 300.0, 0), F16, [255, 218, 1], [np.inf, 65408.0, 300.0]),
        # 0.1f * 3 = 0.30000000447 rounds to the float32 0.3f
        (_tensor(Q8, 1, 0.1, 0), F32, [3], [np.float32(0.3)]),
    ],
    ids=["zp255", "symm", "float16-overflow", "float32-product"],
)
def test_dequantize(driver, source, target, values, expected) -> None:
    out = _run(driver, Op.DEQUANTIZE, source, _tensor(target, len(values)), values)
    np.testing.assert_array_equal(out, np.asarray(expected, DTYPES[target]))


def test_dequantize_per_channel_middle_dimension(driver) -> None:
    # {2, 2, 2} with channelDim 1, scales [0.5, 3]: element [i, c, j] * scales[c]
    q = np.array([[[2, -2], [1, -1]], [[4, 6], [10, -128]]], np.int8)
    params = SymmPerChannelQuantParams((0.5, 3.0), 1)
    source = Operand(Q8C, [2, 2, 2], extra_params=params)
    out = _run(driver, Op.DEQUANTIZE, source, Operand(F32, [2, 2, 2]), q)
    np.testing.assert_array_equal(out, [[[1, -1], [3, -3]], [[2, 3], [30, -384]]])


def test_quantize_and_dequantize_accept_zero_sized_inputs() -> None:
    empty = np.zeros((0, 3), np.float32)
    args = OpArgs([Operand(F32, [0, 3])], [Operand(Q8, [0, 3], scale=0.5)], [empty])
    impl = REGISTRY[Op.QUANTIZE]
    shapes = impl.prepare(args)
    assert shapes == [(0, 3)]
    assert impl.execute(args, shapes)[0].shape == (0, 3)
    quantized = np.zeros((2, 0), np.uint8)
    args = OpArgs([Operand(Q8, [2, 0], scale=0.5)], [Operand(F16, [2, 0])], [quantized])
    impl = REGISTRY[Op.DEQUANTIZE]
    (result,) = impl.execute(args, impl.prepare(args))
    assert result.shape == (2, 0) and result.dtype == np.float16


def test_dequantize_rank_above_4_is_invalid() -> None:
    args = OpArgs([Operand(Q8, [], scale=1.0)], [Operand(F32, [])], [np.zeros((1,) * 5, np.uint8)])
    with pytest.raises(OpInvalid):
        REGISTRY[Op.DEQUANTIZE].prepare(args)


@pytest.mark.parametrize(
    ("op", "source", "target", "reason"),
    [
        (Op.CAST, ([2, 3], F32), ([6], I32), "differs"),
        (Op.QUANTIZE, ([2, 3], F32), ([2, 4], Q8), "differs"),
        (Op.DEQUANTIZE, ([2, 0], Q8), ([0, 5], F32), None),
        (Op.CAST, ([4], F16), ([], F32), None),
    ],
)
def test_declared_output_shape_checked_at_prepare(op, source, target, reason) -> None:
    # Known sizes that differ can never match; 0 and an unknown rank match anything.
    args = OpArgs(
        [Operand(source[1], source[0], scale=1.0 if source[1] == Q8 else 0.0)],
        [Operand(target[1], target[0], scale=1.0 if target[1] == Q8 else 0.0)],
        [None],
    )
    result = REGISTRY[op].validate(args)
    assert (result is None) if reason is None else (reason in result)
