"""The detection heads' numerics where they are easy to get wrong.

GENERATE_PROPOSALS' NMS breaks ties in the order the reference's swaps leave
the candidates, keeps zero-width boxes at the left border but not at the
right one, and rounds quantized boxes half away from zero; HEATMAP_MAX_KEYPOINT
treats nearly singular fits differently in float16 and float32 and rounds its
quantized scores half away from zero; the operations that do not take
zero-sized inputs fail on them. Every expected value is derived by hand in the
comment beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from conformance.invalid.proposals import (
    BOOL,
    FLOAT32,
    INT32,
    detection_model,
    head_model,
    proposals_model,
)
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    OperationType,
)
from reference_driver import ReferenceDriver
from reference_driver.executor import read_constants
from reference_driver.ops import REGISTRY, OpArgs, OpFailure

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q16A = OperandType.TENSOR_QUANT16_ASYMM
Q16S = OperandType.TENSOR_QUANT16_SYMM
I32T = OperandType.TENSOR_INT32
HEATMAP = OperationType.HEATMAP_MAX_KEYPOINT


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _run(driver: ReferenceDriver, model: Model, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    sizes = [1 << 12] * len(model.output_indexes)
    with pack_request(model, list(inputs), sizes) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        assert status == ErrorStatus.NONE
        return [packed.output(i, s.dimensions).copy() for i, s in enumerate(shapes)]


def _row_of_anchors(scores: Sequence[float], anchors: Sequence[Sequence[float]]) -> list:
    """Inputs of a 1 x W map with A anchors per cell, zero deltas, one 4x16 image."""
    count = len(anchors)
    width = len(scores) // count
    return [
        np.asarray(scores, np.float32).reshape(1, 1, width, count),
        np.zeros((1, 1, width, 4 * count), np.float32),
        np.asarray(anchors, np.float32),
        np.asarray([[4.0, 16.0]], np.float32),
    ]


# --------------------------------------------------------------------------- GENERATE_PROPOSALS


def _proposals(dims: Sequence[Sequence[int]], width_stride: float, iou: float, min_size: float):
    """Float32 GENERATE_PROPOSALS, NHWC, height stride 4, no pre/post NMS limit."""
    scalars = [(FLOAT32, 4.0), (FLOAT32, width_stride), (INT32, -1), (INT32, -1)]
    scalars += [(FLOAT32, iou), (FLOAT32, min_size), (BOOL, False)]
    return head_model(
        OperationType.GENERATE_PROPOSALS,
        [(F32, d) for d in dims],
        scalars,
        [(F32, [0]), (F32, [0, 0]), (I32T, [0])],
    )


def test_nms_ties_follow_the_swap_order(driver) -> None:
    # Width stride 3, one 4x4 anchor: boxes x = [0, 4], [3, 7], [6, 10], [9, 13]; neighbours
    # overlap by IoU 4/28 = 1/7 >= 0.1. Scores 0.9, 0.5, 0.5, 0.5. Pick box 0; box 1 is
    # suppressed and swapped with the last live candidate (box 3): the order is now
    # [3, 2], so box 3 wins the tie and suppresses box 2 (a stable order would keep box 2).
    model = _proposals([[1, 1, 4, 1], [1, 1, 4, 4], [1, 4], [1, 2]], 3.0, 0.1, 1.0)
    inputs = _row_of_anchors([0.9, 0.5, 0.5, 0.5], [[0, 0, 4, 4]])
    scores, rois, batches = _run(driver, model, inputs)
    np.testing.assert_array_equal(scores, np.float32([0.9, 0.5]))
    np.testing.assert_array_equal(rois, [[0, 0, 4, 4], [9, 0, 13, 4]])
    np.testing.assert_array_equal(batches, [0, 0])


def test_zero_width_boxes_at_the_borders(driver) -> None:
    # Width stride 20, anchors (0, 0, 4, 4) and (-8, 0, -4, 4), min size -1, image width
    # 16. Candidates, clipped: (0, 0, 4, 4) 0.9; (0, 0, 0, 4) 0.8, centre x 0 < 16: kept;
    # (16, 0, 16, 4) 0.7, centre x 16 is not < 16: dropped; (12, 0, 16, 4) 0.6. The
    # zero-area box overlaps nothing (IoU 0 / 16).
    model = _proposals([[1, 1, 2, 2], [1, 1, 2, 8], [2, 4], [1, 2]], 20.0, 0.5, -1.0)
    inputs = _row_of_anchors([0.9, 0.8, 0.7, 0.6], [[0, 0, 4, 4], [-8, 0, -4, 4]])
    scores, rois, _ = _run(driver, model, inputs)
    np.testing.assert_array_equal(scores, np.float32([0.9, 0.8, 0.6]))
    np.testing.assert_array_equal(rois, [[0, 0, 4, 4], [0, 0, 0, 4], [12, 0, 16, 4]])


def test_box_exactly_min_size_is_dropped(driver) -> None:
    # Min size 4: the 4x4 box (width not > 4) goes, the 8x4 box too (height 4); with min
    # size 3.5 both stay.
    inputs = _row_of_anchors([0.9, 0.8], [[0, 0, 4, 4], [4, 0, 12, 4]])
    dims = [[1, 1, 1, 2], [1, 1, 1, 8], [2, 4], [1, 2]]
    scores, _, _ = _run(driver, _proposals(dims, 4.0, 0.5, 4.0), inputs)
    assert scores.shape == (0,)
    scores, _, _ = _run(driver, _proposals(dims, 4.0, 0.5, 3.5), inputs)
    np.testing.assert_array_equal(scores, np.float32([0.9, 0.8]))


_QUANT_SCALARS = [(FLOAT32, 4.0), (FLOAT32, 4.0), (INT32, -1), (INT32, -1), (FLOAT32, 0.5)]
_QUANT_SCALARS += [(FLOAT32, 1.0), (BOOL, False)]
"""Strides 4, no NMS limits, IoU 0.5, min size 1, NHWC."""


def test_quantized_boxes_round_half_away(driver) -> None:
    # One 4x4 anchor moved right by dx = 1/64 of its width: 0.0625. Box (0.0625, 0, 4.0625,
    # 4) at scale 0.125: 0.5 -> 1 and 32.5 -> 33 (half away from zero; half to even would
    # give 0 and 32). Delta q = 129 at scale 1/64, zero point 128. The score keeps its q.
    model = head_model(
        OperationType.GENERATE_PROPOSALS,
        [
            (Q8A, [1, 1, 1, 1], 0.01, 0),
            (Q8A, [1, 1, 1, 4], 1 / 64, 128),
            (Q16S, [1, 4], 0.125, 0),
            (Q16A, [1, 2], 0.125, 0),
        ],
        _QUANT_SCALARS,
        [(Q8A, [0], 0.01, 0), (Q16A, [0, 0], 0.125, 0), (I32T, [0])],
    )
    inputs = [
        np.full((1, 1, 1, 1), 77, np.uint8),
        np.asarray([[[[129, 128, 128, 128]]]], np.uint8),
        np.asarray([[0, 0, 32, 32]], np.int16),
        np.asarray([[64, 64]], np.uint16),
    ]
    scores, rois, batches = _run(driver, model, inputs)
    np.testing.assert_array_equal(scores, [77])
    np.testing.assert_array_equal(rois, [[1, 0, 33, 32]])
    np.testing.assert_array_equal(batches, [0])


def _call(op: OperationType, model: Model, values: list[np.ndarray | None]) -> None:
    outputs = [model.operands[i] for i in model.output_indexes]
    REGISTRY[op].prepare(OpArgs(_operands(model), outputs, values))


def _operands(model: Model) -> list[Operand]:
    return [model.operands[i] for i in model.operations[0].inputs]


def _constants(model: Model) -> list[np.ndarray | None]:
    """The scalars of ``head_model`` decoded, None for the tensor inputs."""
    constants = read_constants(model)
    return [constants.get(i) for i in model.operations[0].inputs]


def test_proposals_reject_zero_sized_scores() -> None:
    model = proposals_model([[0, 1, 1, 1], [0, 1, 1, 4], [1, 4], [0, 2]])
    values = _constants(model)
    values[:4] = [
        np.zeros((0, 1, 1, 1), np.float32),
        np.zeros((0, 1, 1, 4), np.float32),
        np.zeros((1, 4), np.float32),
        np.zeros((0, 2), np.float32),
    ]
    with pytest.raises(OpFailure, match=r"input 0 of shape \(0, 1, 1, 1\) is zero-sized"):
        _call(OperationType.GENERATE_PROPOSALS, model, values)


def test_proposals_scores_keep_the_input_quantization() -> None:
    model = head_model(
        OperationType.GENERATE_PROPOSALS,
        [
            (Q8A, [1, 1, 1, 1], 0.01, 0),
            (Q8A, [1, 1, 1, 4], 0.05, 128),
            (Q16S, [1, 4], 0.125, 0),
            (Q16A, [1, 2], 0.125, 0),
        ],
        _QUANT_SCALARS,
        [(Q8A, [0], 0.02, 0), (Q16A, [0, 0], 0.125, 0), (I32T, [0])],
    )
    values = _constants(model)
    with pytest.raises(OpFailure, match=r"output 0 quantization \(0.02, 0\) must be input 0's"):
        _call(OperationType.GENERATE_PROPOSALS, model, values)


def test_detection_rejects_zero_anchors() -> None:
    model = detection_model([[1, 0, 3], [1, 0, 4], [0, 4]])
    values = _constants(model)
    values[:3] = [
        np.zeros((1, 0, 3), np.float32),
        np.zeros((1, 0, 4), np.float32),
        np.zeros((0, 4), np.float32),
    ]
    with pytest.raises(OpFailure, match=r"input 0 of shape \(1, 0, 3\) is zero-sized"):
        _call(OperationType.DETECTION_POSTPROCESSING, model, values)


# --------------------------------------------------------------------------- HEATMAP_MAX_KEYPOINT

# A 3x3 heatmap peaking at its centre: row 1 is (1 - 2^-7, 1, 1 - 3 * 2^-7), column 1 has
# 1 - 2^-6 above and below, the corners 0. So b = (2^-7, 0), A = diag(-2^-5, -2^-5), det A =
# 2^-10 ~ 0.00098: solvable against float32's 1e-5 tolerance, singular against float16's
# 1e-3 + 1e-3 * 2^-10. float32: dx = b0 / a00 = -0.25, score = 1 + 2^-7 / 4 - 2^-5 / 32 =
# 1.0009765625, x = (1 - 0.25 + 0.5) / 3 * 3 = 1.25. float16: delta 0, score 1, x = 1.5.
_NEAR_SINGULAR = [0.0, 1 - 2**-6, 0.0, 1 - 2**-7, 1.0, 1 - 3 * 2**-7, 0.0, 1 - 2**-6, 0.0]


@pytest.mark.parametrize(
    ("type_", "score", "x"),
    [(F32, 1.0009765625, 1.25), (F16, 1.0, 1.5)],
    ids=["float32-solved", "float16-singular"],
)
def test_heatmap_singularity_tolerance(driver, type_, score, x) -> None:
    dtype = np.float32 if type_ == F32 else np.float16
    model = head_model(
        HEATMAP,
        [(type_, [1, 3, 3, 1]), (type_, [1, 4])],
        [(BOOL, False)],
        [(type_, [0, 0]), (type_, [0, 0, 0])],
    )
    heatmap = np.asarray(_NEAR_SINGULAR, dtype).reshape(1, 3, 3, 1)
    scores, keypoints = _run(driver, model, [heatmap, np.asarray([[0, 0, 3, 3]], dtype)])
    np.testing.assert_array_equal(scores, np.asarray([[score]], dtype))
    np.testing.assert_array_equal(keypoints, np.asarray([[[x, 1.5]]], dtype))


def test_heatmap_quantized_score_rounds_half_away(driver) -> None:
    # A flat 2x2 heatmap of 2.5 (q 5 at scale 0.5): singular fit, score 2.5, which at
    # scale 1 is 2.5 -> 3 (half to even would give 2). Keypoint in box (0, 0, 2, 2): cell
    # (0, 0) centre = (0.5, 0.5) -> q 4 at scale 0.125.
    model = head_model(
        HEATMAP,
        [(Q8A, [1, 2, 2, 1], 0.5, 0), (Q16A, [1, 4], 0.125, 0)],
        [(BOOL, False)],
        [(Q8A, [0, 0], 1.0, 0), (Q16A, [0, 0, 0], 0.125, 0)],
    )
    heatmap = np.full((1, 2, 2, 1), 5, np.uint8)
    scores, keypoints = _run(driver, model, [heatmap, np.asarray([[0, 0, 16, 16]], np.uint16)])
    np.testing.assert_array_equal(scores, [[3]])
    np.testing.assert_array_equal(keypoints, [[[4, 4]]])


def test_heatmap_takes_zero_boxes() -> None:
    model = head_model(
        HEATMAP,
        [(F32, [0, 2, 2, 3]), (F32, [0, 4])],
        [(BOOL, False)],
        [(F32, [0, 0]), (F32, [0, 0, 0])],
    )
    values = _constants(model)
    values[:2] = [np.zeros((0, 2, 2, 3), np.float32), np.zeros((0, 4), np.float32)]
    args = OpArgs(_operands(model), [model.operands[i] for i in model.output_indexes], values)
    impl = REGISTRY[HEATMAP]
    shapes = impl.prepare(args)
    assert shapes == [(0, 3), (0, 3, 2)]
    outputs = impl.execute(args, shapes)
    assert [o.shape for o in outputs] == [(0, 3), (0, 3, 2)]


def test_heatmap_rejects_zero_keypoints() -> None:
    model = head_model(
        HEATMAP,
        [(F32, [1, 2, 2, 0]), (F32, [1, 4])],
        [(BOOL, False)],
        [(F32, [0, 0]), (F32, [0, 0, 0])],
    )
    values = _constants(model)
    values[:2] = [np.zeros((1, 2, 2, 0), np.float32), np.zeros((1, 4), np.float32)]
    with pytest.raises(OpFailure, match="only the box count may be 0"):
        _call(HEATMAP, model, values)


def test_unknown_layout_is_judged_at_execution() -> None:
    # A layout given as a model input is unknown at prepare: validate accepts the shapes.
    model = head_model(
        HEATMAP, [(F32, [1, 3, 2, 1]), (F32, [1, 4])], [(BOOL, False)], [(F32, [0, 0])] * 2
    )
    layout = model.operands[2]
    layout.lifetime = OperandLifeTime.MODEL_INPUT
    args = OpArgs(_operands(model), [], [None, None, None])
    assert REGISTRY[HEATMAP].validate(args) is None
