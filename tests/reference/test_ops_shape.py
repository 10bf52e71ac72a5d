"""The reference driver's shape operations: the numerics and edge cases easy to get wrong.

Models are single operations built with ``conformance.invalid.shape.operation_model``
and run through the HAL; every expected value is derived by hand in the
comment beside it.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from conformance.invalid.shape import Arg, graph_model, ints, operation_model, scalar, tensor
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    OperandType,
    OperationType,
)
from reference_driver import ReferenceDriver

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32T = OperandType.TENSOR_INT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
Op = OperationType


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _run(driver, model, inputs):
    """(prepare status, execution status, outputs) of one synchronous execution."""
    callback = PreparedModelCallback()
    driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    if notification.status != ErrorStatus.NONE:
        return notification.status, None, []
    sizes = [1 << 12] * len(model.output_indexes)
    with pack_request(model, inputs, sizes) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if not status else []
        )
    return ErrorStatus.NONE, status, outputs


def _values(driver, model, inputs):
    prepared, executed, outputs = _run(driver, model, inputs)
    assert (prepared, executed) == (ErrorStatus.NONE, ErrorStatus.NONE)
    return outputs


def _q8(dims, scale, zero_point):
    return tensor(dims, Q8, scale, zero_point)


# CONCATENATION requantization (HAL 1.2) ---------------------------------------


@pytest.mark.parametrize(
    ("source", "q_in", "expected"),
    [
        # scale 0.25 -> 0.5 halves: 1 -> 0.5 rounds away from zero to 1; 3 -> 1.5 -> 2; 4 -> 2
        ((0.25, 0), [1, 3, 4], [1, 2, 2]),
        # zp 10: (9 - 10) * 0.5 = -0.5 -> -1, (11 - 10) * 0.5 = 0.5 -> 1; plus output zp 0
        ((0.25, 10), [9, 11, 10], [0, 1, 0]),
        # scale 2.0 -> 0.5 quadruples: 70 -> 280 saturates at 255; 0 -> 0
        ((2.0, 0), [70, 0, 63], [255, 0, 252]),
    ],
    ids=["round-half-away", "zero-point", "saturate"],
)
def test_concatenation_requantizes_each_input(driver, source, q_in, expected) -> None:
    # The first input shares the output's (0.5, 0) and is copied; the second is requantized.
    model = operation_model(
        Op.CONCATENATION,
        [_q8((1,), 0.5, 0), _q8((3,), *source), scalar(0)],
        [_q8((4,), 0.5, 0)],
    )
    a = np.array([7], np.uint8)
    outputs = _values(driver, model, [a, np.array(q_in, np.uint8)])
    np.testing.assert_array_equal(outputs[0], [7, *expected])


def test_concatenation_requantizes_into_the_output_zero_point(driver) -> None:
    # input (1.0, 0) -> output (0.5, 100): q 3 is real 3.0 -> 100 + 6 = 106; q 0 -> 100;
    # q 80 -> 100 + 160 = 260 -> 255.
    model = operation_model(Op.CONCATENATION, [_q8((3,), 1.0, 0), scalar(0)], [_q8((3,), 0.5, 100)])
    outputs = _values(driver, model, [np.array([3, 0, 80], np.uint8)])
    np.testing.assert_array_equal(outputs[0], [106, 100, 255])


def test_concatenation_of_float16_keeps_bits(driver) -> None:
    # Data movement only: inf, a subnormal and -0.0 come through unchanged.
    values = np.array([np.inf, 6e-8, -0.0], np.float16)
    model = operation_model(
        Op.CONCATENATION, [tensor((3,), F16), tensor((1,), F16), scalar(0)], [tensor((4,), F16)]
    )
    outputs = _values(driver, model, [values, np.array([1.5], np.float16)])
    assert outputs[0].tobytes() == np.concatenate([values, [1.5]]).astype(np.float16).tobytes()


# Forced output quantization ---------------------------------------------------


def test_forced_output_quantization_fails_execution() -> None:
    # With the strict catalog rule off, RESHAPE prepares but its execution fails: the
    # output (0.25, 0) must carry the input's (0.5, 0).
    driver = ReferenceDriver(disabled_rules={"operation.constraint_strict"})
    model = operation_model(Op.RESHAPE, [_q8((2,), 0.5, 0), ints([2])], [_q8((2,), 0.25, 0)])
    prepared, executed, _ = _run(driver, model, [np.array([1, 2], np.uint8)])
    assert (prepared, executed) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)


def test_gather_copies_bytes_whatever_the_output_quantization() -> None:
    # GATHER is not forced (the reference copies bytes): output params are ignored.
    driver = ReferenceDriver(disabled_rules={"operation.constraint_strict"})
    model = operation_model(
        Op.GATHER, [_q8((3,), 0.5, 0), scalar(0), ints([2, 0])], [_q8((2,), 0.25, 7)]
    )
    outputs = _values(driver, model, [np.array([10, 20, 30], np.uint8)])
    np.testing.assert_array_equal(outputs[0], [30, 10])


# STRIDED_SLICE index resolution --------------------------------------------------


@pytest.mark.parametrize(
    ("begin", "end", "stride", "masks", "expected"),
    [
        # positive stride: begin -9 < -4 clamps to 0, end 9 >= 4 clamps to 4
        (-9, 9, 1, (0, 0), [10, 11, 12, 13]),
        # negative stride: begin 9 >= 4 clamps to 3, end -9 < -4 becomes -1 (index 0 included)
        (9, -9, -1, (0, 0), [13, 12, 11, 10]),
        # negative stride with masks: begin -> 3, end -> -1, every second element
        (0, 0, -2, (1, 1), [13, 11]),
        # negative begin/end wrap: -1 -> 3, -4 -> 0, stride -1 stops before 0
        (-1, -4, -1, (0, 0), [13, 12, 11]),
        # begin after end with a positive stride: an empty result
        (3, 1, 1, (0, 0), []),
    ],
    ids=["clamp-positive", "clamp-negative", "masks-negative", "wrap", "empty"],
)
def test_strided_slice_resolves_indices(driver, begin, end, stride, masks, expected) -> None:
    model = operation_model(
        Op.STRIDED_SLICE,
        [
            tensor((4,)),
            ints([begin]),
            ints([end]),
            ints([stride]),
            scalar(masks[0]),
            scalar(masks[1]),
            scalar(0),
        ],
        [tensor((0,))],
    )
    outputs = _values(driver, model, [np.array([10, 11, 12, 13], np.float32)])
    np.testing.assert_array_equal(outputs[0], expected)


def test_strided_slice_shrink_drops_axes(driver) -> None:
    # [2, 3] = 0..5: shrink axis 0 (row 1 only, dropped), columns 0 and 2 (stride 2)
    # -> [3, 5] of rank 1.
    model = operation_model(
        Op.STRIDED_SLICE,
        [tensor((2, 3)), ints([1, 0]), ints([2, 3]), ints([1, 2]), scalar(0), scalar(0), scalar(1)],
        [tensor((0,))],
    )
    outputs = _values(driver, model, [np.arange(6, dtype=np.float32)])
    np.testing.assert_array_equal(outputs[0], [3, 5])


def _shape_1_answers(driver, model, value):
    """(status, reported dimensions, values) of a synchronous execution at 1.2."""
    callback = PreparedModelCallback()
    driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert notification.status == ErrorStatus.NONE
    with pack_request(model, [value], [1 << 12]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        return status, [list(s.dimensions) for s in shapes], packed.output(0, (1,)).tolist()


@pytest.mark.parametrize("declared", [(1,), (0,)], ids=["declared-1", "unknown"])
def test_strided_slice_shrinking_every_axis_gives_shape_1(driver, declared) -> None:
    # [2, 3] = 0..5, both axes shrunk at row 1, column 2: in[1, 2] = 5, shape [1]
    # (Android 11; Android 10 computed a result of rank 0)
    model = operation_model(
        Op.STRIDED_SLICE,
        [tensor((2, 3)), ints([1, 2]), ints([2, 3]), ints([1, 1]), scalar(0), scalar(0), scalar(3)],
        [tensor(declared)],
    )
    answer = _shape_1_answers(driver, model, np.arange(6, dtype=np.float32))
    assert answer == (ErrorStatus.NONE, [[1]], [5.0])


@pytest.mark.parametrize("declared", [(1,), (0,)], ids=["declared-1", "unknown"])
@pytest.mark.parametrize(
    "axes", [ints([0, -1]), Arg(I32T, (0,), omitted=True)], ids=["listed", "omitted"]
)
def test_squeezing_every_axis_gives_shape_1(driver, axes, declared) -> None:
    # [1, 1] = 7 with both axes listed, or the axes omitted: shape [1] (Android 11)
    model = operation_model(Op.SQUEEZE, [tensor((1, 1)), axes], [tensor(declared)])
    answer = _shape_1_answers(driver, model, np.array([[7]], np.float32))
    assert answer == (ErrorStatus.NONE, [[1]], [7.0])


def test_strided_slice_shrinking_an_axis_of_negative_stride_is_refused(driver) -> None:
    # [4], begin 2, end 1, stride -1: one element (in[2]), but shrunk with a negative
    # stride, which Android 11 refuses (TFLite's rule): INVALID_ARGUMENT at prepare
    model = operation_model(
        Op.STRIDED_SLICE,
        [tensor((4,)), ints([2]), ints([1]), ints([-1]), scalar(0), scalar(0), scalar(1)],
        [tensor((1,))],
    )
    prepared, _, _ = _run(driver, model, [np.arange(4, dtype=np.float32)])
    assert prepared == ErrorStatus.INVALID_ARGUMENT


# Padding values -------------------------------------------------------------------


def test_pad_quant8_fills_with_the_zero_point(driver) -> None:
    # Real 0.0 at zero point 37 is the byte 37.
    model = operation_model(Op.PAD, [_q8((2,), 0.5, 37), ints([[1, 2]])], [_q8((5,), 0.5, 37)])
    outputs = _values(driver, model, [np.array([0, 255], np.uint8)])
    np.testing.assert_array_equal(outputs[0], [37, 0, 255, 37, 37])


def test_pad_v2_quant8_uses_the_low_byte_of_the_value(driver) -> None:
    # The INT32 pad value is already quantized; 261 = 0x105 keeps its low byte 5.
    model = operation_model(
        Op.PAD_V2,
        [_q8((1,), 0.5, 3), ints([[1, 1]]), scalar(261)],
        [_q8((3,), 0.5, 3)],
    )
    outputs = _values(driver, model, [np.array([200], np.uint8)])
    np.testing.assert_array_equal(outputs[0], [5, 200, 5])


def test_pad_v2_float16_value(driver) -> None:
    # FLOAT16 pad value -0.5 around [2.0].
    model = operation_model(
        Op.PAD_V2,
        [tensor((1,), F16), ints([[2, 0]]), Arg(OperandType.FLOAT16, (), -0.5)],
        [tensor((3,), F16)],
    )
    outputs = _values(driver, model, [np.array([2.0], np.float16)])
    np.testing.assert_array_equal(outputs[0], [-0.5, -0.5, 2.0])


def test_space_to_batch_quant8_pads_with_the_zero_point(driver) -> None:
    # [1, 1, 1, 1] padded to [1, 1, 2, 1] on the right (zero point 9), block [1, 2]:
    # batch 0 takes column 0 (the value 50), batch 1 column 1 (the pad 9).
    model = operation_model(
        Op.SPACE_TO_BATCH_ND,
        [_q8((1, 1, 1, 1), 0.5, 9), ints([1, 2]), ints([[0, 0], [0, 1]])],
        [_q8((2, 1, 1, 1), 0.5, 9)],
    )
    outputs = _values(driver, model, [np.array([[[[50]]]], np.uint8)])
    np.testing.assert_array_equal(outputs[0].ravel(), [50, 9])


# Layouts, omitted inputs, groups ----------------------------------------------------


def test_batch_to_space_nchw(driver) -> None:
    # NCHW [4, 2, 1, 1] (two channels), block [2, 2] -> NCHW [1, 2, 2, 2]. Batch b = i*2 + j
    # lands at (y, x) = (i, j): channel 0 gets batches 0..3 = [0, 2, 4, 6] row by row,
    # channel 1 gets [1, 3, 5, 7].
    model = operation_model(
        Op.BATCH_TO_SPACE_ND,
        [tensor((4, 2, 1, 1)), ints([2, 2]), scalar(True)],
        [tensor((1, 2, 2, 2))],
    )
    outputs = _values(driver, model, [np.arange(8, dtype=np.float32).reshape(4, 2, 1, 1)])
    np.testing.assert_array_equal(outputs[0].ravel(), [0, 2, 4, 6, 1, 3, 5, 7])


def test_depth_to_space_nchw(driver) -> None:
    # NCHW [1, 4, 1, 1], block 2: channel (i*2 + j) goes to (y, x) = (i, j) -> [1, 1, 2, 2].
    model = operation_model(
        Op.DEPTH_TO_SPACE, [tensor((1, 4, 1, 1)), scalar(2), scalar(True)], [tensor((1, 1, 2, 2))]
    )
    outputs = _values(driver, model, [np.array([1, 2, 3, 4], np.float32).reshape(1, 4, 1, 1)])
    np.testing.assert_array_equal(outputs[0].ravel(), [1, 2, 3, 4])


def test_transpose_with_an_omitted_permutation_swaps_rank_2(driver) -> None:
    model = operation_model(
        Op.TRANSPOSE, [tensor((2, 3)), Arg(I32T, (0,), omitted=True)], [tensor((3, 2))]
    )
    outputs = _values(driver, model, [np.arange(6, dtype=np.float32).reshape(2, 3)])
    np.testing.assert_array_equal(outputs[0], [[0, 3], [1, 4], [2, 5]])


def test_squeeze_with_omitted_axes_removes_every_unit_dimension(driver) -> None:
    model = operation_model(
        Op.SQUEEZE, [tensor((1, 2, 1, 1)), Arg(I32T, (0,), omitted=True)], [tensor((0,))]
    )
    prepared, executed, outputs = _run(driver, model, [np.array([4, 5], np.float32)])
    assert (prepared, executed) == (ErrorStatus.NONE, ErrorStatus.NONE)
    assert outputs[0].shape == (2,)


def test_channel_shuffle_with_one_channel_per_group_is_the_identity(driver) -> None:
    # G = C = 3: S = 1, out[k*3 + g] = in[g] for k = 0.
    model = operation_model(
        Op.CHANNEL_SHUFFLE, [tensor((2, 3)), scalar(3), scalar(-1)], [tensor((2, 3))]
    )
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(_values(driver, model, [data])[0], data)


def test_split_gives_one_output_per_part(driver) -> None:
    # [1, 4] on axis -1 into 2: [a, b] and [c, d].
    model = operation_model(
        Op.SPLIT,
        [tensor((1, 4), I32T), scalar(-1), scalar(2)],
        [tensor((0, 0), I32T), tensor((0, 0), I32T)],
    )
    outputs = _values(driver, model, [np.array([[1, 2, 3, 4]], np.int32)])
    np.testing.assert_array_equal(outputs[0], [[1, 2]])
    np.testing.assert_array_equal(outputs[1], [[3, 4]])


def test_reshape_infers_minus_one_from_request_dimensions(driver) -> None:
    # The input's first dimension comes with the request: 3 x 4 = 12 -> [-1, 6] = [2, 6].
    model = operation_model(Op.RESHAPE, [tensor((0, 4)), ints([-1, 6])], [tensor((0, 0))])
    outputs = _values(driver, model, [np.zeros((3, 4), np.float32)])
    assert outputs[0].shape == (2, 6)


# Zero-sized inputs ----------------------------------------------------------------------


def _after_empty_slice(op: int, extra: list[Arg], output: Arg):
    """``x [2, 2] -> SLICE size [0, 2] -> op(empty, *extra)``: op sees a zero-sized input."""
    empty = tensor((0, 2))
    return graph_model(
        [
            (Op.SLICE, [tensor((2, 2)), ints([0, 0]), ints([0, 2])], [empty]),
            (op, [empty, *extra], [output]),
        ]
    )


def test_zero_sized_input_is_rejected_where_the_reference_rejects_it(driver) -> None:
    model = _after_empty_slice(Op.RESHAPE, [ints([-1])], tensor((0,)))
    prepared, executed, _ = _run(driver, model, [np.ones((2, 2), np.float32)])
    assert (prepared, executed) == (ErrorStatus.NONE, ErrorStatus.GENERAL_FAILURE)


def test_zero_sized_input_passes_through_transpose(driver) -> None:
    # [0, 2] transposed is [2, 0]: an empty output of that shape.
    model = _after_empty_slice(Op.TRANSPOSE, [ints([1, 0])], tensor((2, 0)))
    prepared, executed, outputs = _run(driver, model, [np.ones((2, 2), np.float32)])
    assert (prepared, executed) == (ErrorStatus.NONE, ErrorStatus.NONE)
    assert outputs[0].shape == (2, 0)
