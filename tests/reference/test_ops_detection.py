"""The detection family's numerics where they are easy to get wrong.

Equal NMS scores select as Android 10's swap-with-last loop leaves its
candidates; boxes of one image are runs of equal batch indices; quantized
scores and boxes round half away from zero; quant8 ROI_ALIGN weighs its
samples with round(w * 255); ROI_POOLING refuses 0 rois and a requantized
output. Every expected value is derived by hand in the comment beside it.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from conformance.invalid.detection import (
    ALIGN,
    BBOX,
    F32,
    FLOAT32,
    I32,
    INT32,
    NMS,
    POOLING,
    Q8A,
    Q16A,
    detection_model,
    nms_model,
    roi_model,
)
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    numpy_dtype,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure, OpInvalid

OUTPUT_BYTES = 1 << 12


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _run(driver: ReferenceDriver, model: Model, inputs: list[np.ndarray]):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    sizes = [OUTPUT_BYTES] * len(model.output_indexes)
    with pack_request(model, inputs, sizes) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = [packed.output(i, s.dimensions) for i, s in enumerate(shapes)]
    return status, outputs


def _nms(driver, scores, boxes, batches, **model_args):
    """Run ``nms_model(**model_args)`` on float32 data; returns the four outputs."""
    status, outputs = _run(
        driver,
        nms_model(**model_args),
        [
            np.asarray(scores, np.float32),
            np.asarray(boxes, np.float32),
            np.asarray(batches, np.int32),
        ],
    )
    assert status == ErrorStatus.NONE
    return outputs


def test_equal_scores_select_in_swap_order(driver) -> None:
    # Class 1 candidates in roi order A 0.9 [0,0,2,2], B 0.5 [0,0,2,2], C 0.5
    # [10,0,12,2], D 0.5 [10,0,12,2.5]. A is kept and suppresses B (IoU 1), which
    # the reference swaps with the last candidate: the order becomes D, C. Of the
    # equal D and C it takes the first, D, which suppresses C (IoU 4/5 >= 0.5).
    # Taking the lowest roi index instead would keep C.
    bg = [0, 0, 1, 1]
    boxes = [[*bg, 0, 0, 2, 2], [*bg, 0, 0, 2, 2], [*bg, 10, 0, 12, 2], [*bg, 10, 0, 12, 2.5]]
    scores = [[0, 0.9], [0, 0.5], [0, 0.5], [0, 0.5]]
    out_scores, out_boxes, classes, batches = _nms(driver, scores, boxes, [0] * 4)
    np.testing.assert_array_equal(out_scores, np.float32([0.9, 0.5]))
    np.testing.assert_array_equal(out_boxes, [[0, 0, 2, 2], [10, 0, 12, 2.5]])
    np.testing.assert_array_equal(classes, [1, 1])
    np.testing.assert_array_equal(batches, [0, 0])


def test_images_are_runs_of_equal_batch_indices(driver) -> None:
    # Batch indices 0, 1, 0: three runs, each its own image, output in input order
    # with its own index (grouping by value would give 0, 0, 1). The identical boxes
    # of the two runs of image 0 never meet, so neither suppresses the other.
    boxes = [[0, 0, 1, 1, 0, 0, 2, 2]] * 3
    scores = [[0, 0.5], [0, 0.75], [0, 0.25]]
    out_scores, _, _, batches = _nms(driver, scores, boxes, [0, 1, 0])
    np.testing.assert_array_equal(out_scores, np.float32([0.5, 0.75, 0.25]))
    np.testing.assert_array_equal(batches, [0, 1, 0])


def test_quant8_scores_round_half_away(driver) -> None:
    # Scores at scale 0.25, zero point 0; linear kernel, IoU threshold 0.5. Class 1:
    # q 8 = 2.0 [0,0,4,4] is kept; q 5 = 1.25 [0,0,4,2] (IoU 8/16 = 0.5) becomes
    # 1.25 * 0.5 = 0.625 = q 2.5, rounded half away from zero to 3 (half to even: 2);
    # q 4 = 1.0 [8,0,12,4] (IoU 0) stays and comes before it.
    model = detection_model(
        NMS,
        [(Q8A, [3, 2], 0.25, 0), (Q16A, [3, 8], 0.125, 0), (I32, [3])],
        [(FLOAT32, 0.1), (INT32, -1), (INT32, 1), (FLOAT32, 0.5), (FLOAT32, 1.0), (FLOAT32, 0.1)],
        [(Q8A, [0], 0.25, 0), (Q16A, [0, 4], 0.125, 0), (I32, [0]), (I32, [0])],
    )
    bg = [0, 0, 8, 8]
    boxes = np.array([[*bg, 0, 0, 32, 32], [*bg, 0, 0, 32, 16], [*bg, 64, 0, 96, 32]], np.uint16)
    scores = np.array([[0, 8], [0, 5], [0, 4]], np.uint8)
    status, (out_scores, out_boxes, _, _) = _run(
        driver, model, [scores, boxes, np.zeros(3, np.int32)]
    )
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(out_scores, [8, 4, 3])
    np.testing.assert_array_equal(out_boxes, [[0, 0, 32, 32], [64, 0, 96, 32], [0, 0, 32, 16]])


def test_bbox_quant16_rounds_half_away(driver) -> None:
    # Roi [0,0,1,1] (q 0,0,8,8), deltas at scale 0.0625, zero point 128: dx = q 129 =
    # 0.0625, dy = dw = dh = 0. Centre x 0.5 + 0.0625 * 1 = 0.5625, width 1: x1 =
    # 0.0625 = 0.5 steps of 0.125 -> 1, x2 = 1.0625 = 8.5 steps -> 9 (half to even: 0, 8).
    model = detection_model(
        BBOX,
        [
            (Q16A, [1, 4], 0.125, 0),
            (Q8A, [1, 4], 0.0625, 128),
            (I32, [1]),
            (Q16A, [1, 2], 0.125, 0),
        ],
        [],
        [(Q16A, [1, 4], 0.125, 0)],
    )
    inputs = [
        np.array([[0, 0, 8, 8]], np.uint16),
        np.array([[129, 128, 128, 128]], np.uint8),
        np.array([0], np.int32),
        np.array([[32, 32]], np.uint16),
    ]
    status, outputs = _run(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[1, 0, 9, 8]])


def test_bbox_clamps_to_the_roi_image(driver) -> None:
    # Roi [1,1,3,3] doubled (dw = dh = ln 2 -> width 4) around its centre (2, 2):
    # [0,0,4,4], clamped to image 1 (3 high, 2 wide) -> [0,0,2,3]; in image 0 (8x8) it fits.
    model = detection_model(
        BBOX, [(F32, [2, 4]), (F32, [2, 4]), (I32, [2]), (F32, [2, 2])], [], [(F32, [2, 4])]
    )
    grow = [0, 0, np.log(2), np.log(2)]
    inputs = [
        np.array([[1, 1, 3, 3]] * 2, np.float32),
        np.array([grow] * 2, np.float32),
        np.array([1, 0], np.int32),
        np.array([[8, 8], [3, 2]], np.float32),
    ]
    status, outputs = _run(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_allclose(outputs[0], [[0, 0, 2, 3], [0, 0, 4, 4]], atol=1e-5)


def test_roi_align_quant8_weights_round_to_255ths(driver) -> None:
    # A 1x2 map of q 200, 200 (scale 1, zero point 0), roi [0,0,1,1], one 1x1 bin of
    # one sample at (x 0.5, y 0.5): the row is the last one (weight 0 below), the
    # columns weigh 0.5 each, round(0.5 * 255) = 128. Sum 128 * 200 * 2 = 51200 times
    # 1 / 255 = 200.78 -> 201, where the real average is 200.
    model = roi_model(ALIGN, out_size=(1, 1), sampling=(1, 1), type_=Q8A)
    model.operands[0].scale = model.operands[-1].scale = 1.0
    inputs = [
        np.full((1, 1, 2, 1), 200, np.uint8),
        np.array([[0, 0, 8, 8]], np.uint16),
        np.array([0], np.int32),
    ]
    status, outputs = _run(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[[[201]]]])


def test_roi_align_quant8_multiplier_of_1_fails(driver) -> None:
    # Input scale 255, output scale 1, one sample: 255 / 1 / 255 / 1 = 1 is not below 1.
    model = roi_model(ALIGN, out_size=(1, 1), sampling=(1, 1), type_=Q8A)
    model.operands[0].scale, model.operands[-1].scale = 255.0, 1.0
    inputs = [np.ones((1, 1, 2, 1), np.uint8), np.array([[0, 0, 8, 8]], np.uint16)]
    status, _ = _run(driver, model, [*inputs, np.array([0], np.int32)])
    assert status == ErrorStatus.GENERAL_FAILURE


def _args(model: Model, values: list[np.ndarray]) -> OpArgs:
    operation = model.operations[0]
    known = dict(zip(model.input_indexes, values, strict=True))
    for index in operation.inputs:
        if index not in known:  # a constant scalar: decode it as the executor would
            operand = model.operands[index]
            location = operand.location
            data = model.operand_values[location.offset : location.offset + location.length]
            known[index] = np.frombuffer(data, numpy_dtype(operand.type)).reshape(())
    return OpArgs(
        [model.operands[i] for i in operation.inputs],
        [model.operands[i] for i in operation.outputs],
        [known[i] for i in operation.inputs],
    )


def test_roi_pooling_refuses_zero_rois() -> None:
    # Android 10 registers ROI_POOLING without zero-sized inputs: an execution failure
    # (GENERAL_FAILURE), not an invalid argument.
    args = _args(
        roi_model(POOLING),
        [np.ones((1, 2, 2, 1), np.float32), np.zeros((0, 4), np.float32), np.zeros(0, np.int32)],
    )
    with pytest.raises(OpFailure, match="zero-sized rois") as error:
        REGISTRY[POOLING].prepare(args)
    assert not isinstance(error.value, OpInvalid)


def test_roi_pooling_refuses_a_requantized_output() -> None:
    # The output must keep the feature map's (0.5, 0); hal.validation refuses such a
    # model first, so only a driver skipping that rule reaches this check.
    model = roi_model(POOLING, type_=Q8A)
    output: Operand = model.operands[-1]
    output.scale = 0.25
    args = _args(
        model,
        [
            np.ones((1, 2, 2, 1), np.uint8),
            np.array([[0, 0, 8, 8]], np.uint16),
            np.zeros(1, np.int32),
        ],
    )
    with pytest.raises(OpFailure, match=r"must be the input's \(0.5, 0\)"):
        REGISTRY[POOLING].prepare(args)


def test_roi_pooling_empty_bin_is_the_zero_point(driver) -> None:
    # A 1x2 map at (0.5, 7), the output too; roi [8, 0, 16, 8] at 0.125 = [1, 0, 2, 1],
    # ratio 1: columns 1..2 inclusive, 2 bins of 1: [1, 2) holds q 9, [2, 3) lies past
    # the edge -> the zero point 7. Rows 0..1 inclusive, clipped to the one row.
    model = roi_model(POOLING, out_size=(1, 2), type_=Q8A)
    model.operands[0].zero_point = model.operands[-1].zero_point = 7
    inputs = [
        np.array([[[[5], [9]]]], np.uint8),
        np.array([[8, 0, 16, 8]], np.uint16),
        np.array([0], np.int32),
    ]
    status, outputs = _run(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[[[9], [7]]]])
