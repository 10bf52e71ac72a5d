"""The reference driver's reductions: numerics and edge cases docs/operations.md spells out.

MEAN, REDUCE_*, ARGMAX/ARGMIN and TOPK_V2 run through the HAL (prepare, then
execute_synchronously). Every expected value is derived by hand in the comment
beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
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

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8 = OperandType.TENSOR_QUANT8_ASYMM
I32T = OperandType.TENSOR_INT32
B8 = OperandType.TENSOR_BOOL8
I32 = OperandType.INT32
BOOL = OperandType.BOOL
Op = OperationType


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _model(
    operation: Op,
    tensor: Operand,
    scalars: Sequence[tuple[int, Sequence[int], object]],
    outputs: Sequence[Operand],
) -> Model:
    """``operation`` on one model-input tensor and constant parameters (type, dims, value)."""
    values = bytearray()
    operands = [tensor]
    for type_, dims, value in scalars:
        data = np.asarray(value, dtype=numpy_dtype(type_)).tobytes()
        operands.append(
            Operand(
                type_,
                list(dims),
                1,
                lifetime=OperandLifeTime.CONSTANT_COPY,
                location=DataLocation(0, len(values), len(data)),
            )
        )
        values += data
    first = len(operands)
    operands += outputs
    return Model(
        operands=operands,
        operations=[Operation(operation, list(range(first)), list(range(first, len(operands))))],
        input_indexes=[0],
        output_indexes=list(range(first, len(operands))),
        operand_values=bytes(values),
    )


def _input(type_: int, dims: Sequence[int], scale: float = 0.0, zero_point: int = 0) -> Operand:
    return Operand(type_, list(dims), 1, scale, zero_point, OperandLifeTime.MODEL_INPUT)


def _output(type_: int, dims: Sequence[int], scale: float = 0.0, zero_point: int = 0) -> Operand:
    return Operand(type_, list(dims), 0, scale, zero_point, OperandLifeTime.MODEL_OUTPUT)


def _run(driver: ReferenceDriver, model: Model, data: np.ndarray):
    """(status, output shapes, output arrays) of one synchronous execution."""
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    sizes = [1 << 10] * len(model.output_indexes)
    with pack_request(model, [data], sizes) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if not status else []
        )
    return status, [tuple(s.dimensions) for s in shapes], outputs


def _reduce(
    driver: ReferenceDriver,
    operation: Op,
    data: np.ndarray,
    type_: int,
    axes: Sequence[int],
    keep: object,
    out_dims: Sequence[int],
    quant: tuple[float, int] = (0.0, 0),
):
    keep_type = I32 if operation == Op.MEAN else BOOL
    model = _model(
        operation,
        _input(type_, data.shape, *quant),
        [(I32T, [len(axes)], axes), (keep_type, [], keep)],
        [_output(type_, out_dims, *quant)],
    )
    return _run(driver, model, data)


# MEAN ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "zero_point", "expected"),
    [
        # raw bytes summed, then divided truncating: 205 / 2 = 102.5 -> 102
        ([[102, 103]], 100, [102]),
        # 415 / 4 = 103.75 -> 103 (rounding would give 104)
        ([[102, 96, 105, 112]], 100, [103]),
        # 305 / 3 = 101.67 -> 101: the zero point passes through, no requantization
        ([[101, 102, 102]], 100, [101]),
        # below the zero point: 3 + 4 = 7, 7 / 2 = 3 (real -6.5 * 0.5; 3 = 10 - 7)
        ([[3, 4]], 10, [3]),
        # 255 + 255 + 254 = 764, / 3 = 254.67 -> 254
        ([[255, 255, 254]], 0, [254]),
    ],
    ids=["half", "three_quarters", "two_thirds", "below_zero_point", "top_of_range"],
)
def test_mean_quant8_truncates(driver, data, zero_point, expected) -> None:
    array = np.asarray(data, dtype=np.uint8)
    status, shapes, outputs = _reduce(
        driver, Op.MEAN, array, Q8, [1], 0, [1], quant=(0.5, zero_point)
    )
    assert status == ErrorStatus.NONE
    assert shapes == [(1,)]
    np.testing.assert_array_equal(outputs[0], np.asarray(expected, np.uint8))


@pytest.mark.parametrize(
    ("keep", "out_dims", "expected_shape"),
    [
        (1, [2, 1], (2, 1)),
        (2, [2, 1], (2, 1)),  # any positive INT32 keeps the axis
        (0, [2], (2,)),
        (-1, [2], (2,)),  # negative does not
    ],
)
def test_mean_keep_dims_is_positive_int32(driver, keep, out_dims, expected_shape) -> None:
    # rows [1, 2, 4] and [-3, 0, 0]: means 7/3 and -1
    data = np.asarray([[1, 2, 4], [-3, 0, 0]], np.float32)
    status, shapes, outputs = _reduce(driver, Op.MEAN, data, F32, [-1], keep, out_dims)
    assert status == ErrorStatus.NONE
    assert shapes == [expected_shape]
    np.testing.assert_allclose(outputs[0].reshape(-1), [7 / 3, -1.0], rtol=1e-6)


def test_mean_duplicate_axes_count_once(driver) -> None:
    # axes [0, -2] of a {2, 2} tensor both name axis 0: column means (1+3)/2, (2+6)/2;
    # counting axis 0 twice would divide by 4
    data = np.asarray([[1, 2], [3, 6]], np.float32)
    status, shapes, outputs = _reduce(driver, Op.MEAN, data, F32, [0, -2], 0, [2])
    assert status == ErrorStatus.NONE
    assert shapes == [(2,)]
    np.testing.assert_array_equal(outputs[0], np.asarray([2.0, 4.0], np.float32))


# REDUCE_* -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "data", "expected"),
    [
        # float16 accumulates in float16: 2048 + 1 = 2049 rounds to 2048 (ties to even),
        # twice; a float32 accumulator would give 2050
        (Op.REDUCE_SUM, [2048, 1, 1], 2048),
        # 60000 + 60000 overflows float16 to inf, and inf - 60000 stays inf
        (Op.REDUCE_SUM, [60000, 60000, -60000], np.inf),
        # 256 * 256 = 65536 > 65504 overflows to inf; inf * 0.5 = inf
        (Op.REDUCE_PROD, [256, 256, 0.5], np.inf),
        # 3 * 0.5 = 1.5, 1.5 * -4 = -6, exact
        (Op.REDUCE_PROD, [3, 0.5, -4], -6),
    ],
    ids=["sum_rounds_each_step", "sum_overflows", "prod_overflows", "prod_exact"],
)
def test_float16_accumulates_in_float16(driver, operation, data, expected) -> None:
    array = np.asarray([data], np.float16)
    status, _, outputs = _reduce(driver, operation, array, F16, [1], False, [1])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.asarray([expected], np.float16))


@pytest.mark.parametrize(
    ("operation", "type_", "expected"),
    [
        # the fold starts from the lowest finite value, so all -inf gives -FLT_MAX
        (Op.REDUCE_MAX, F32, np.finfo(np.float32).min),
        (Op.REDUCE_MAX, F16, -65504.0),
        (Op.REDUCE_MIN, F32, np.finfo(np.float32).max),
        (Op.REDUCE_MIN, F16, 65504.0),
    ],
)
def test_max_min_start_from_finite_extremes(driver, operation, type_, expected) -> None:
    sign = -1 if operation == Op.REDUCE_MAX else 1
    dtype = numpy_dtype(type_)
    data = np.full((1, 2), sign * np.inf, dtype)
    status, _, outputs = _reduce(driver, operation, data, type_, [1], False, [1])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.asarray([expected], dtype))


def test_max_quant8_compares_raw_bytes(driver) -> None:
    # zero point 200: byte 10 is real -95, byte 250 is real 25; the max byte is 250 and
    # the output carries the input's parameters, so the byte passes through
    data = np.asarray([[10, 250, 199]], np.uint8)
    status, _, outputs = _reduce(
        driver, Op.REDUCE_MAX, data, Q8, [-1], True, [1, 1], quant=(0.5, 200)
    )
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.asarray([[250]], np.uint8))


@pytest.mark.parametrize(
    ("operation", "expected"),
    # rows [2, 255, 1] (all nonzero) and [0, 7, 0]: ANY -> 1, 1; ALL -> 1, 0, written 0/1
    [(Op.REDUCE_ANY, [1, 1]), (Op.REDUCE_ALL, [1, 0])],
)
def test_bool_reductions_treat_nonzero_as_true(driver, operation, expected) -> None:
    data = np.asarray([[2, 255, 1], [0, 7, 0]], np.uint8)
    status, _, outputs = _reduce(driver, operation, data, B8, [1], False, [2])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.asarray(expected, np.uint8))


def test_float16_product_takes_a_zero_factor_as_zero(driver) -> None:
    # Android 11: rows (300, 300, 0): 90000 overflows float16 to inf, inf x 0 gives 0 (not
    # NaN); (0, inf): 0; (2, -1.5, 4) = -12; float32 keeps IEEE's 0 x inf = NaN
    data = np.asarray([[300, 300, 0], [0, np.inf, 1], [2, -1.5, 4]], np.float16)
    status, _, outputs = _reduce(driver, Op.REDUCE_PROD, data, F16, [1], False, [3])
    assert status == ErrorStatus.NONE
    assert outputs[0].tolist() == [0.0, 0.0, -12.0]
    status, _, outputs = _reduce(
        driver, Op.REDUCE_PROD, data.astype(np.float32), F32, [1], False, [3]
    )
    assert status == ErrorStatus.NONE
    assert np.isnan(outputs[0][1]) and outputs[0].tolist()[::2] == [0.0, -12.0]


@pytest.mark.parametrize("declared", [[1], [0]])
def test_reducing_every_axis_gives_shape_1(driver, declared) -> None:
    # 1 + 2 + 3 + 4 = 10: a result that would have rank 0 has shape [1] (Android 11)
    data = np.asarray([[1, 2], [3, 4]], np.float32)
    status, shapes, outputs = _reduce(driver, Op.REDUCE_SUM, data, F32, [1, 0], False, declared)
    assert status == ErrorStatus.NONE
    assert shapes == [(1,)]
    assert outputs[0].reshape(-1).tolist() == [10.0]


def test_reducing_every_axis_into_a_declared_rank_2_fails(driver) -> None:
    # the result has shape [1]; an output declared [1, 1] does not hold it
    data = np.asarray([[1, 2], [3, 4]], np.float32)
    status, _, _ = _reduce(driver, Op.REDUCE_SUM, data, F32, [1, 0], False, [1, 1])
    assert status == ErrorStatus.GENERAL_FAILURE


# ARGMAX / ARGMIN ----------------------------------------------------------------


def _arg(driver, operation: Op, data: np.ndarray, type_: int, axis: int, out_dims, quant=(0.0, 0)):
    model = _model(
        operation,
        _input(type_, data.shape, *quant),
        [(I32, [], axis)],
        [_output(I32T, out_dims)],
    )
    return _run(driver, model, data)


@pytest.mark.parametrize(
    ("operation", "type_", "data", "expected"),
    [
        # ties resolve to the lowest index: row 0 max 5 at 1 and 2 -> 1; row 1 all equal -> 0
        (Op.ARGMAX, F32, [[0, 5, 5], [7, 7, 7]], [1, 0]),
        (Op.ARGMIN, F32, [[4, -1, -1], [7, 7, 7]], [1, 0]),
        (Op.ARGMAX, I32T, [[-(2**31), 2**31 - 1, 2**31 - 1], [3, 2, 3]], [1, 0]),
        (Op.ARGMIN, F16, [[0.5, 0.25, 0.25], [-1, -2, -2]], [1, 1]),
        # quant8 compares raw bytes whatever the zero point
        (Op.ARGMAX, Q8, [[0, 255, 128], [9, 9, 8]], [1, 0]),
    ],
)
def test_arg_ties_go_to_the_lowest_index(driver, operation, type_, data, expected) -> None:
    array = np.asarray(data, numpy_dtype(type_))
    quant = (0.5, 128) if type_ == Q8 else (0.0, 0)
    status, shapes, outputs = _arg(driver, operation, array, type_, -1, [2], quant)
    assert status == ErrorStatus.NONE
    assert shapes == [(2,)]
    np.testing.assert_array_equal(outputs[0], np.asarray(expected, np.int32))


def test_arg_of_a_vector_gives_one_index(driver) -> None:
    # [1, 9, 9]: the first 9 at 1; the empty result shape fits the declared {1}
    status, shapes, outputs = _arg(
        driver, Op.ARGMAX, np.asarray([1, 9, 9], np.float32), F32, 0, [1]
    )
    assert status == ErrorStatus.NONE
    assert shapes == [(1,)]
    np.testing.assert_array_equal(outputs[0], np.asarray([1], np.int32))


# TOPK_V2 ------------------------------------------------------------------------


def _topk(driver, data: np.ndarray, type_: int, k: int, quant=(0.0, 0)):
    out_dims = [*data.shape[:-1], k]
    model = _model(
        Op.TOPK_V2,
        _input(type_, data.shape, *quant),
        [(I32, [], k)],
        [_output(type_, out_dims, *quant), _output(I32T, out_dims)],
    )
    return _run(driver, model, data)


@pytest.mark.parametrize(
    ("type_", "data", "k", "values", "indices"),
    [
        # equal values: the larger index first (ascending (value, index) pairs, reversed)
        (F32, [[1, 3, 3, 2]], 2, [[3, 3]], [[2, 1]]),
        (F32, [[4, 4, 4, 4]], 3, [[4, 4, 4]], [[3, 2, 1]]),
        # a tie straddling the cut keeps the larger index: 5 at 0 and 3, k = 2 after 9
        (I32T, [[5, 9, 0, 5]], 2, [[9, 5]], [[1, 3]]),
        (F16, [[-0.5, 0.25, -0.5]], 2, [[0.25, -0.5]], [[1, 2]]),
        # quant8: raw bytes ordered and copied
        (Q8, [[7, 200, 7, 13]], 3, [[200, 13, 7]], [[1, 3, 2]]),
    ],
)
def test_topk_ties_put_the_larger_index_first(driver, type_, data, k, values, indices) -> None:
    dtype = numpy_dtype(type_)
    quant = (0.25, 7) if type_ == Q8 else (0.0, 0)
    status, shapes, outputs = _topk(driver, np.asarray(data, dtype), type_, k, quant)
    assert status == ErrorStatus.NONE
    assert shapes == [(1, k), (1, k)]
    np.testing.assert_array_equal(outputs[0], np.asarray(values, dtype))
    np.testing.assert_array_equal(outputs[1], np.asarray(indices, np.int32))
