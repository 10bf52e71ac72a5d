"""The pooling family's numerics where they are easy to get wrong.

Pools count only in-image cells, SAME puts the odd padding cell at the end,
quantized averages round half up, bilinear quant8 truncates, SOFTMAX and
L2_NORMALIZATION produce their fixed output quantizations, INSTANCE_NORMALIZATION
divides by the variance (the HAL text and Android 11), and batches of 0 pass through where the HAL
allows them. Every expected value is derived by hand in the comment beside it.
"""

from __future__ import annotations

import math
import struct
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
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8 = OperandType.TENSOR_QUANT8_ASYMM
INT32 = OperandType.INT32
FLOAT32 = OperandType.FLOAT32
BOOL = OperandType.BOOL
_FORMATS = {INT32: "<i", FLOAT32: "<f", BOOL: "<?", OperandType.FLOAT16: "<e"}

AVG = OperationType.AVERAGE_POOL_2D
MAX = OperationType.MAX_POOL_2D
L2 = OperationType.L2_POOL_2D


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _model(
    operation: OperationType,
    type_: int,
    dims: Sequence[int],
    scalars: Sequence[tuple[int, float | int | bool]],
    *,
    quant: tuple[float, int] = (0.0, 0),
    output_quant: tuple[float, int] | None = None,
) -> Model:
    """``operation(input, *scalars)`` with an output of unknown dimensions."""
    values = bytearray()
    operands = [Operand(type_, list(dims), 1, *quant, OperandLifeTime.MODEL_INPUT)]
    for scalar_type, value in scalars:
        data = struct.pack(_FORMATS[scalar_type], value)
        location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(
            Operand(scalar_type, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
        )
    scale, zero_point = quant if output_quant is None else output_quant
    operands.append(
        Operand(type_, [0] * len(dims), 0, scale, zero_point, OperandLifeTime.MODEL_OUTPUT)
    )
    output = len(operands) - 1
    return Model(
        operands=operands,
        operations=[Operation(operation, list(range(output)), [output])],
        input_indexes=[0],
        output_indexes=[output],
        operand_values=bytes(values),
    )


def _run(driver: ReferenceDriver, model: Model, values: np.ndarray) -> np.ndarray:
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    with pack_request(model, [values], [1 << 12]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        assert status == ErrorStatus.NONE
        return packed.output(0, shapes[0].dimensions).copy()


def _ints(*values: int) -> list[tuple[int, int]]:
    return [(INT32, v) for v in values]


def _row(values: Sequence[float], dtype=np.float32) -> np.ndarray:
    """A [1, 1, W, 1] image."""
    return np.asarray(values, dtype).reshape(1, 1, -1, 1)


# --------------------------------------------------------------------------- pooling


@pytest.mark.parametrize(
    ("op", "values", "expected"),
    [
        # filter 2 wide, pads 1 left and right, stride 1 over [3, 6, 9]: windows
        # {3}, {3, 6}, {6, 9}, {9}; padding neither summed nor counted.
        (AVG, [3, 6, 9], [3, 4.5, 7.5, 9]),
        # the maximum of all-negative cells: padding does not inject a 0
        (MAX, [-3, -6, -9], [-3, -3, -6, -9]),
        # sqrt(mean of squares): {3} -> 3, {3, 4} -> sqrt(12.5), {4} -> 4
        (L2, [3, 4], [3, math.sqrt(12.5), 4]),
    ],
    ids=["average", "max", "l2"],
)
def test_pool_counts_only_cells_in_the_image(driver, op, values, expected) -> None:
    # explicit: pad left 1, right 1, top 0, bottom 0, stride 1x1, filter 2 wide x 1 high
    model = _model(op, F32, (1, 1, len(values), 1), _ints(1, 1, 0, 0, 1, 1, 2, 1, 0))
    result = _run(driver, model, _row(values))
    np.testing.assert_allclose(result.ravel(), expected, rtol=1e-6)


def test_same_padding_puts_the_odd_cell_at_the_end(driver) -> None:
    # 4 columns, filter 3, stride 2: 2 outputs need 2 * 2 + 1 = 5 columns, 1 of
    # padding, at the right: windows {1, 2, 3} -> 2 and {3, 4} -> 3.5. (At the
    # left it would give {1, 2} -> 1.5 and {2, 3, 4} -> 3.)
    model = _model(AVG, F32, (1, 1, 4, 1), _ints(1, 2, 1, 3, 1, 0))
    np.testing.assert_allclose(_run(driver, model, _row([1, 2, 3, 4])).ravel(), [2, 3.5])


def test_valid_padding_skips_what_the_stride_jumps_over(driver) -> None:
    # 5 columns, filter 1, stride 3, VALID: (5 - 1) // 3 + 1 = 2 outputs, columns 0 and 3
    model = _model(MAX, F32, (1, 1, 5, 1), _ints(2, 3, 1, 1, 1, 0))
    np.testing.assert_array_equal(_run(driver, model, _row([7, 1, 2, 5, 9])).ravel(), [7, 5])


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([0, 1], 1),  # 0.5 rounds up: (1 + 2 // 2) // 2
        ([1, 2], 2),  # 1.5 -> 2
        ([2, 5], 4),  # 3.5 -> 4
        ([2, 3, 3, 3], 3),  # 2.75 -> 3: (11 + 2) // 4
        ([2, 2, 2, 3], 2),  # 2.25 -> 2: (9 + 2) // 4
    ],
)
def test_quant8_average_rounds_half_up(driver, values, expected) -> None:
    # VALID, one window over the whole row; the output keeps the input's quantization
    model = _model(
        AVG, Q8, (1, 1, len(values), 1), _ints(2, 1, 1, len(values), 1, 0), quant=(0.5, 0)
    )
    assert _run(driver, model, _row(values, np.uint8)).ravel().tolist() == [expected]


def test_quant8_pool_activation_clamps_in_the_quantized_domain(driver) -> None:
    # scale 0.5, zero point 100: RELU6 keeps [100, 100 + 6 / 0.5 = 112]; filter 1
    # copies each cell, so 90 (-5.0) -> 100, 105 -> 105, 120 (10.0) -> 112.
    model = _model(MAX, Q8, (1, 1, 3, 1), _ints(2, 1, 1, 1, 1, 3), quant=(0.5, 100))
    assert _run(driver, model, _row([90, 105, 120], np.uint8)).ravel().tolist() == [100, 105, 112]


def test_pool_nchw_layout(driver) -> None:
    # NCHW [1, 2, 1, 3]: channel 0 = [1, 2, 3], channel 1 = [10, 20, 60]; a VALID
    # filter 3 wide averages each channel: [[2], [30]] in NCHW, shape [1, 2, 1, 1].
    model = _model(AVG, F32, (1, 2, 1, 3), [*_ints(2, 1, 1, 3, 1, 0), (BOOL, True)])
    values = np.array([1, 2, 3, 10, 20, 60], np.float32).reshape(1, 2, 1, 3)
    result = _run(driver, model, values)
    assert result.shape == (1, 2, 1, 1)
    np.testing.assert_allclose(result.ravel(), [2, 30])


def test_float16_pool_rounds_back_to_half(driver) -> None:
    # (1 + 2 + 2) / 3 = 1 + 0.6667: float16 has steps of 2^-10 in [1, 2), and
    # 0.6667 * 1024 = 682.67 rounds to 683: 1 + 683 / 1024 = 1.6669921875
    model = _model(AVG, F16, (1, 1, 3, 1), _ints(2, 1, 1, 3, 1, 0))
    result = _run(driver, model, _row([1, 2, 2], np.float16))
    assert result.dtype == np.float16
    assert result.ravel().tolist() == [1.6669921875]


# --------------------------------------------------------------------------- resizing


def test_bilinear_quant8_truncates(driver) -> None:
    # width 2 -> 4: sources 0, 0.5, 1.0, 1.5 (the last cell repeats past the edge):
    # [0, 1.5, 3, 3] -> Android 10 truncates 1.5 to 1.
    model = _model(OperationType.RESIZE_BILINEAR, Q8, (1, 1, 2, 1), _ints(4, 1), quant=(1.0, 0))
    assert _run(driver, model, _row([0, 3], np.uint8)).ravel().tolist() == [0, 1, 3, 3]


def test_bilinear_float_no_corner_alignment(driver) -> None:
    model = _model(OperationType.RESIZE_BILINEAR, F32, (1, 1, 2, 1), _ints(4, 1))
    np.testing.assert_allclose(_run(driver, model, _row([0, 3])).ravel(), [0, 1.5, 3, 3])


def test_resize_by_scale_floors_the_size(driver) -> None:
    # width 3 * 1.5 = 4.5 -> 4 columns, height 1 * 1.0 -> 1; nearest sources
    # floor(x * 3 / 4) = 0, 0, 1, 2
    model = _model(
        OperationType.RESIZE_NEAREST_NEIGHBOR,
        F32,
        (1, 1, 3, 1),
        [(FLOAT32, 1.5), (FLOAT32, 1.0), (BOOL, False)],
    )
    result = _run(driver, model, _row([5, 6, 7]))
    assert result.shape == (1, 1, 4, 1)
    assert result.ravel().tolist() == [5, 5, 6, 7]


def test_nearest_upscale_uses_floor_of_the_ratio(driver) -> None:
    # width 3 -> 5: floor(x * 0.6) = 0, 0, 1, 1, 2
    model = _model(
        OperationType.RESIZE_NEAREST_NEIGHBOR,
        Q8,
        (1, 1, 3, 1),
        [*_ints(5, 1), (BOOL, False)],
        quant=(0.5, 7),
    )
    assert _run(driver, model, _row([10, 20, 30], np.uint8)).ravel().tolist() == [
        10,
        10,
        20,
        20,
        30,
    ]


# --------------------------------------------------------------------------- softmax


def _softmax_q8(driver, values: list[int], scale: float, beta: float = 1.0) -> list[int]:
    model = _model(
        OperationType.SOFTMAX,
        Q8,
        (1, len(values)),
        [(FLOAT32, beta)],
        quant=(scale, 128),
        output_quant=(1.0 / 256, 0),
    )
    return _run(driver, model, np.array([values], np.uint8)).ravel().tolist()


def test_softmax_quant8_fixed_output_scale(driver) -> None:
    assert _softmax_q8(driver, [140, 140], 0.1) == [128, 128]  # 0.5 each -> 128 / 256
    assert _softmax_q8(driver, [9, 9, 9, 9], 0.1) == [64, 64, 64, 64]  # 0.25 each
    # a difference of 100 at scale 1: p = 1 saturates at 255, exp(-100) -> 0
    assert _softmax_q8(driver, [200, 100], 1.0) == [255, 0]


def test_softmax_quant8_beta(driver) -> None:
    # beta * scale * (q1 - q0) = ln(3) * 0.5 * 2 = ln 3: p = [1/4, 3/4] -> [64, 192]
    assert _softmax_q8(driver, [128, 130], 0.5, beta=math.log(3)) == [64, 192]


def test_softmax_float_beta_and_axis(driver) -> None:
    # beta 2 on [0, ln(3) / 2] along axis 0 of a [2, 1] tensor: exp(0), exp(ln 3) -> [1/4, 3/4]
    model = _model(OperationType.SOFTMAX, F32, (2, 1), [(FLOAT32, 2.0), (INT32, 0)])
    values = np.array([[0.0], [math.log(3) / 2]], np.float32)
    np.testing.assert_allclose(_run(driver, model, values).ravel(), [0.25, 0.75], rtol=1e-6)


def test_log_softmax_large_logits_and_single_class(driver) -> None:
    # [1000, 1000]: log(1/2) each, with no overflow
    model = _model(OperationType.LOG_SOFTMAX, F32, (1, 2), [(FLOAT32, 1.0), (INT32, -1)])
    np.testing.assert_allclose(
        _run(driver, model, np.array([[1000, 1000]], np.float32)).ravel(), [-math.log(2)] * 2
    )
    # an axis of size 1: log(1) = 0 whatever the logit
    model = _model(OperationType.LOG_SOFTMAX, F32, (2, 1), [(FLOAT32, 1.0), (INT32, 1)])
    assert _run(driver, model, np.array([[5.0], [-7.0]], np.float32)).ravel().tolist() == [0, 0]


# --------------------------------------------------------------------------- normalisation


def test_l2_normalization_quant8(driver) -> None:
    # zero point 100: differences (3, 4) / 5 = (0.6, 0.8) -> 128 + 76.8 = 205 and
    # 128 + 102.4 = 230 at the fixed output quantization 1/128, 128
    model = _model(
        OperationType.L2_NORMALIZATION,
        Q8,
        (1, 2),
        [],
        quant=(0.25, 100),
        output_quant=(1 / 128, 128),
    )
    assert _run(driver, model, np.array([[103, 104]], np.uint8)).ravel().tolist() == [205, 230]
    # 1.0 saturates at 255, and an all-zero vector stays at the zero point
    assert _run(driver, model, np.array([[107, 100]], np.uint8)).ravel().tolist() == [255, 128]
    assert _run(driver, model, np.array([[100, 100]], np.uint8)).ravel().tolist() == [128, 128]


def test_float_l2_normalization_floors_the_norm_at_1e_6(driver) -> None:
    # Android 11: x / max(norm, 1e-6). Rows: (0, 0) -> (0, 0), not 0 / 0 = NaN;
    # (3e-7, -4e-7) of norm 5e-7 -> (0.3, -0.4); (3, 4) -> (0.6, 0.8)
    model = _model(OperationType.L2_NORMALIZATION, F32, (3, 2), [])
    values = np.array([[0, 0], [3e-7, -4e-7], [3, 4]], np.float32)
    result = _run(driver, model, values)
    np.testing.assert_allclose(result.ravel(), [0, 0, 0.3, -0.4, 0.6, 0.8], rtol=1e-6)


def test_local_response_normalization_window_and_alpha(driver) -> None:
    # radius 5 covers the whole depth of 2; alpha is not divided by the window size:
    # x / (1 + 1 * (1 + 4))^1 = [1/6, 2/6]
    scalars = [(INT32, 5), (FLOAT32, 1.0), (FLOAT32, 1.0), (FLOAT32, 1.0)]
    model = _model(OperationType.LOCAL_RESPONSE_NORMALIZATION, F32, (1, 1, 1, 2), scalars)
    result = _run(driver, model, np.array([1, 2], np.float32).reshape(1, 1, 1, 2))
    np.testing.assert_allclose(result.ravel(), [1 / 6, 2 / 6], rtol=1e-6)


def test_instance_normalization_divides_by_the_variance(driver) -> None:
    # one channel [1, 2, 3, 6]: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5; the HAL text
    # and Android 11 divide by sqrt(3.5 + 0) = 1.870829, so the first cell is
    # -2 / 1.870829 = -1.069045 (Android 10's mean of squares, 12.5, gave -0.565685)
    scalars = [(FLOAT32, 1.0), (FLOAT32, 0.0), (FLOAT32, 0.0), (BOOL, False)]
    model = _model(OperationType.INSTANCE_NORMALIZATION, F32, (1, 2, 2, 1), scalars)
    result = _run(driver, model, np.array([1, 2, 3, 6], np.float32).reshape(1, 2, 2, 1))
    expected = [(v - 3) / math.sqrt(3.5) for v in (1, 2, 3, 6)]
    np.testing.assert_allclose(result.ravel(), expected, rtol=1e-6)


def test_instance_normalization_keeps_precision_at_a_large_mean(driver) -> None:
    # one channel [10000, 10001, 10003, 10004]: mean 10002, variance (4 + 1 + 1 + 4) / 4
    # = 2.5, so the cells are [-2, -1, 1, 2] / sqrt(2.5): centring first loses nothing
    scalars = [(FLOAT32, 1.0), (FLOAT32, 0.0), (FLOAT32, 0.0), (BOOL, False)]
    model = _model(OperationType.INSTANCE_NORMALIZATION, F32, (1, 2, 2, 1), scalars)
    values = np.array([10000, 10001, 10003, 10004], np.float32).reshape(1, 2, 2, 1)
    result = _run(driver, model, values)
    expected = [d / math.sqrt(2.5) for d in (-2, -1, 1, 2)]
    np.testing.assert_allclose(result.ravel(), expected, rtol=1e-6)


# --------------------------------------------------------------------------- zero-sized


def _scalar(type_: int, value) -> tuple[Operand, np.ndarray]:
    dtype = {INT32: np.int32, FLOAT32: np.float32, BOOL: np.bool_}[type_]
    return Operand(type_, []), np.array(value, dtype)


def _call(operation: OperationType, values: np.ndarray, scalars, output: Operand) -> np.ndarray:
    """The implementation itself: a zero-sized tensor cannot be a request input."""
    pairs = [(Operand(F32, list(values.shape)), values), *(_scalar(*s) for s in scalars)]
    args = OpArgs([p[0] for p in pairs], [output], [p[1] for p in pairs])
    impl = REGISTRY[operation]
    return impl.execute(args, impl.prepare(args))[0]


@pytest.mark.parametrize(
    ("operation", "scalars", "shape"),
    [
        (AVG, _ints(0, 0, 0, 0, 1, 1, 2, 2, 0), (0, 1, 1, 3)),
        (MAX, _ints(1, 2, 2, 2, 2, 0), (0, 1, 1, 3)),
        (L2, _ints(2, 1, 1, 1, 1, 0), (0, 2, 2, 3)),
        (OperationType.RESIZE_BILINEAR, _ints(3, 5), (0, 5, 3, 3)),
        (OperationType.RESIZE_NEAREST_NEIGHBOR, [*_ints(1, 1), (BOOL, False)], (0, 1, 1, 3)),
        (OperationType.SOFTMAX, [(FLOAT32, 1.0)], (0, 2, 2, 3)),
    ],
)
def test_zero_batch_passes_through(operation, scalars, shape) -> None:
    result = _call(operation, np.zeros((0, 2, 2, 3), np.float32), scalars, Operand(F32, []))
    assert result.shape == shape


@pytest.mark.parametrize(
    ("operation", "scalars"),
    [
        (OperationType.L2_NORMALIZATION, []),
        (OperationType.LOG_SOFTMAX, [(FLOAT32, 1.0), (INT32, -1)]),
        (
            OperationType.INSTANCE_NORMALIZATION,
            [(FLOAT32, 1.0), (FLOAT32, 0.0), (FLOAT32, 1e-4), (BOOL, False)],
        ),
    ],
)
def test_zero_sized_input_fails_where_not_allowed(operation, scalars) -> None:
    with pytest.raises(OpFailure):
        _call(operation, np.zeros((0, 2, 2, 3), np.float32), scalars, Operand(F32, []))


def test_zero_sized_image_dimension_fails() -> None:
    with pytest.raises(OpFailure):
        _call(AVG, np.zeros((1, 0, 2, 3), np.float32), _ints(1, 1, 1, 1, 1, 0), Operand(F32, []))
