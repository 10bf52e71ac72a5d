"""Invalid values of AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, ROI_ALIGN and ROI_POOLING.

Constants the definitions forbid are refused at prepare: an NMS kernel other
than 0 (hard), 1 (linear) or 2 (gaussian), an output size or a ratio that is
not positive, a negative sampling ratio. Values that only show in a request
are refused at execution: a batch index outside the images, a box with
x2 < x1 or y2 < y1, a roi outside the feature map, deltas that are not 4 per
class, scores of a single class, a kernel given as an input.
(ROI_POOLING refusing 0 rois is an execution failure, not an invalid value:
tests/reference/test_ops_detection.py covers it.)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence

import numpy as np

from conformance.invalid.case import InvalidCase
from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32 = OperandType.TENSOR_INT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q16A = OperandType.TENSOR_QUANT16_ASYMM
INT32 = OperandType.INT32
FLOAT32 = OperandType.FLOAT32
FLOAT16 = OperandType.FLOAT16
BOOL = OperandType.BOOL
_FORMATS = {INT32: "<i", FLOAT32: "<f", FLOAT16: "<e", BOOL: "<?"}

Tensor = tuple[int, Sequence[int]] | tuple[int, Sequence[int], float, int]
"""(tensor type, dims[, scale, zero point]); dims of 0 are unknown."""
Scalar = tuple[int, int | float | bool]
"""(scalar type, value)."""


def _tensor(spec: Tensor, lifetime: int, consumers: int) -> Operand:
    type_, dims, *quant = spec
    scale, zero_point = quant or (0.0, 0)
    return Operand(type_, list(dims), consumers, scale, zero_point, lifetime)


def detection_model(
    operation: OperationType,
    tensors: Sequence[Tensor],
    scalars: Sequence[Scalar],
    outputs: Sequence[Tensor],
    scalar_input: int | None = None,
) -> Model:
    """``operation(*tensors, *scalars) -> outputs``: tensors are model inputs, scalars
    constants except the one at operation input ``scalar_input`` (a model input)."""
    values = bytearray()
    operands = [_tensor(spec, OperandLifeTime.MODEL_INPUT, 1) for spec in tensors]
    inputs = list(range(len(operands)))
    for scalar_type, value in scalars:
        if len(operands) == scalar_input:
            inputs.append(len(operands))
            operands.append(Operand(scalar_type, [], 1, lifetime=OperandLifeTime.MODEL_INPUT))
            continue
        data = struct.pack(_FORMATS[scalar_type], value)
        location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(
            Operand(scalar_type, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
        )
    first_output = len(operands)
    operands += [_tensor(spec, OperandLifeTime.MODEL_OUTPUT, 0) for spec in outputs]
    return Model(
        operands=operands,
        operations=[
            Operation(
                operation, list(range(first_output)), list(range(first_output, len(operands)))
            )
        ],
        input_indexes=inputs,
        output_indexes=list(range(first_output, len(operands))),
        operand_values=bytes(values),
    )


def _arrays(*values: Sequence | np.ndarray, dtypes: Sequence[type]) -> Callable:
    return lambda: [np.asarray(v, d) for v, d in zip(values, dtypes, strict=True)]


# ----------------------------------------------------------------------------- bbox transform

BBOX = OperationType.AXIS_ALIGNED_BBOX_TRANSFORM


def bbox_model(type_: int = F32) -> Model:
    """Rois [?, 4], deltas [?, ?], batch indices [?], image sizes [?, 2]: all sizes known
    only at execution."""
    quant = type_ == Q16A
    boxes: Tensor = (Q16A, [0, 4], 0.125, 0) if quant else (type_, [0, 4])
    deltas: Tensor = (Q8A, [0, 0], 0.125, 128) if quant else (type_, [0, 0])
    images: Tensor = (Q16A, [0, 2], 0.125, 0) if quant else (type_, [0, 2])
    out: Tensor = (Q16A, [0, 0], 0.125, 0) if quant else (type_, [0, 0])
    return detection_model(BBOX, [boxes, deltas, (I32, [0]), images], [], [out])


def _bbox_cases() -> list[InvalidCase]:
    floats = (np.float32, np.float32, np.int32, np.float32)
    return [
        InvalidCase(
            "AXIS_ALIGNED_BBOX_TRANSFORM/batch_index_out_of_range",
            bbox_model,
            _arrays([[0, 0, 2, 2]], [[0, 0, 0, 0]], [1], [[4, 4]], dtypes=floats),
        ),
        InvalidCase(
            "AXIS_ALIGNED_BBOX_TRANSFORM/roi_x2_less_than_x1",
            lambda: bbox_model(Q16A),
            _arrays(
                [[16, 0, 8, 16]],
                [[128] * 4],
                [0],
                [[64, 64]],
                dtypes=(np.uint16, np.uint8, np.int32, np.uint16),
            ),
        ),
        InvalidCase(
            "AXIS_ALIGNED_BBOX_TRANSFORM/deltas_not_4_per_class",
            bbox_model,
            _arrays([[0, 0, 2, 2]], [[0] * 6], [0], [[4, 4]], dtypes=floats),
        ),
    ]


# ----------------------------------------------------------------------------- NMS

NMS = OperationType.BOX_WITH_NMS_LIMIT


def nms_model(
    kernel: int = 0,
    scalar_input: int | None = None,
    type_: int = F32,
    classes: int = 2,
) -> Model:
    """BOX_WITH_NMS_LIMIT on [?, classes] scores (threshold 0.1, unlimited detections,
    ``kernel``, IoU threshold 0.5, sigma 1, NMS score threshold 0.1); ``classes`` 0
    leaves the number of classes to the request."""
    f = FLOAT16 if type_ == F16 else FLOAT32
    scalars = [(f, 0.1), (INT32, -1), (INT32, kernel), (f, 0.5), (f, 1.0), (f, 0.1)]
    return detection_model(
        NMS,
        [(type_, [0, classes]), (type_, [0, 4 * classes]), (I32, [0])],
        scalars,
        [(type_, [0]), (type_, [0, 4]), (I32, [0]), (I32, [0])],
        scalar_input,
    )


def _nms_cases() -> list[InvalidCase]:
    dtypes = (np.float32, np.float32, np.int32)
    boxes = [[0, 0, 1, 1, 0, 0, 2, 2]]
    return [
        InvalidCase("BOX_WITH_NMS_LIMIT/kernel_3", lambda: nms_model(3)),
        InvalidCase("BOX_WITH_NMS_LIMIT/kernel_minus_1", lambda: nms_model(-1, type_=F16)),
        InvalidCase(
            "BOX_WITH_NMS_LIMIT/kernel_input_4",
            lambda: nms_model(scalar_input=5),
            lambda: [
                np.array([[0.5, 0.5]], np.float32),
                np.array(boxes, np.float32),
                np.array([0], np.int32),
                np.array(4, np.int32),
            ],
        ),
        InvalidCase(
            "BOX_WITH_NMS_LIMIT/box_x2_less_than_x1",
            nms_model,
            _arrays([[0.5, 0.5]], [[0, 0, 1, 1, 3, 0, 2, 2]], [0], dtypes=dtypes),
        ),
        InvalidCase(
            "BOX_WITH_NMS_LIMIT/one_class",
            lambda: nms_model(classes=0),
            _arrays([[0.5]], [[0, 0, 1, 1]], [0], dtypes=dtypes),
        ),
    ]


# ----------------------------------------------------------------------------- ROI ops

ALIGN = OperationType.ROI_ALIGN
POOLING = OperationType.ROI_POOLING


def roi_model(
    operation: OperationType,
    out_size: tuple[int, int] = (2, 2),
    ratios: tuple[float, float] = (1.0, 1.0),
    sampling: tuple[int, int] = (2, 2),
    type_: int = F32,
    nchw: bool = False,
) -> Model:
    """ROI_ALIGN or ROI_POOLING of a [?, ?, ?, ?] feature map and [?, 4] rois, output
    of unknown size (quant8: feature map and output at (0.5, 0))."""
    quant = type_ == Q8A
    f = FLOAT16 if type_ == F16 else FLOAT32
    image: Tensor = (Q8A, [0] * 4, 0.5, 0) if quant else (type_, [0] * 4)
    boxes: Tensor = (Q16A, [0, 4], 0.125, 0) if quant else (type_, [0, 4])
    scalars: list[Scalar] = [(INT32, out_size[0]), (INT32, out_size[1]), (f, ratios[0])]
    scalars.append((f, ratios[1]))
    if operation == ALIGN:
        scalars += [(INT32, sampling[0]), (INT32, sampling[1])]
    scalars.append((BOOL, nchw))
    return detection_model(operation, [image, boxes, (I32, [0])], scalars, [image])


def _roi_inputs(rois: Sequence[float], batch: int = 0, quant: bool = False) -> Callable:
    """A [1, 4, 4, 1] feature map, one roi, its batch index."""
    if quant:
        dtypes = (np.uint8, np.uint16, np.int32)
        return _arrays(np.ones((1, 4, 4, 1)), [rois], [batch], dtypes=dtypes)
    return _arrays(np.ones((1, 4, 4, 1)), [rois], [batch], dtypes=(np.float32,) * 2 + (np.int32,))


def _roi_cases() -> list[InvalidCase]:
    return [
        InvalidCase("ROI_ALIGN/output_height_0", lambda: roi_model(ALIGN, out_size=(0, 2))),
        InvalidCase("ROI_ALIGN/height_ratio_0", lambda: roi_model(ALIGN, ratios=(0.0, 1.0))),
        InvalidCase(
            "ROI_ALIGN/width_ratio_minus_1", lambda: roi_model(ALIGN, ratios=(1.0, -1.0), type_=F16)
        ),
        InvalidCase("ROI_ALIGN/sampling_ratio_minus_1", lambda: roi_model(ALIGN, sampling=(2, -1))),
        InvalidCase(
            "ROI_ALIGN/roi_outside_feature_map",
            lambda: roi_model(ALIGN),
            _roi_inputs([0, 0, 5, 2]),
        ),
        InvalidCase(
            "ROI_ALIGN/batch_index_out_of_range",
            lambda: roi_model(ALIGN, type_=Q8A),
            _roi_inputs([0, 0, 16, 16], batch=1, quant=True),
        ),
        InvalidCase(
            "ROI_POOLING/output_width_minus_1", lambda: roi_model(POOLING, out_size=(2, -1))
        ),
        InvalidCase(
            "ROI_POOLING/height_ratio_minus_1", lambda: roi_model(POOLING, ratios=(-1.0, 1.0))
        ),
        InvalidCase(
            "ROI_POOLING/roi_x2_less_than_x1",
            lambda: roi_model(POOLING),
            _roi_inputs([3, 0, 1, 2]),
        ),
        InvalidCase(
            "ROI_POOLING/negative_roi",
            lambda: roi_model(POOLING),
            _roi_inputs([-1, 0, 1, 2]),
        ),
    ]


CASES: list[InvalidCase] = [*_bbox_cases(), *_nms_cases(), *_roi_cases()]
