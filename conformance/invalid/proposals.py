"""Invalid parameter values for GENERATE_PROPOSALS, DETECTION_POSTPROCESSING and HEATMAP_MAX_KEYPOINT.

Every model holds one operation whose tensors are model inputs (first, in
the operation's order) and whose scalars are constants. The values are ones
the definitions forbid (docs/operations.md, GENERATE_PROPOSALS (52),
HEATMAP_MAX_KEYPOINT (56) and DETECTION_POSTPROCESSING (47)):
tensor shapes that disagree (box deltas not 4 per anchor, image info for
another batch, heatmaps that are not square or smaller than 2x2, one class),
non-positive box scales or detection counts, and boxes whose corners are
reversed. Shapes and constants in the model are refused at prepare; shapes
given by the request and box values at execution.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from conformance.invalid.case import InvalidCase
from hal.types import DataLocation, Model, Operand, OperandLifeTime, OperandType, Operation
from hal.types import OperationType as Op

F32 = OperandType.TENSOR_FLOAT32
I32T = OperandType.TENSOR_INT32
INT32 = OperandType.INT32
FLOAT32 = OperandType.FLOAT32
BOOL = OperandType.BOOL
_FORMATS = {INT32: "<i", FLOAT32: "<f", BOOL: "<?", OperandType.FLOAT16: "<e"}

Tensor = tuple[int, Sequence[int]] | tuple[int, Sequence[int], float, int]
"""(type, dims) or (type, dims, scale, zero point); dims of 0 are unknown."""
Scalar = tuple[int, int | float | bool]


def _tensor(spec: Tensor, lifetime: OperandLifeTime, consumers: int) -> Operand:
    type_, dims, *quant = spec
    scale, zero_point = quant if quant else (0.0, 0)
    return Operand(type_, list(dims), consumers, scale, zero_point, lifetime)


def head_model(
    operation: Op, tensors: Sequence[Tensor], scalars: Sequence[Scalar], outputs: Sequence[Tensor]
) -> Model:
    """``operation(*tensors, *scalars) -> outputs``: tensors are model inputs, scalars constants."""
    operands = [_tensor(spec, OperandLifeTime.MODEL_INPUT, 1) for spec in tensors]
    values = bytearray()
    for scalar_type, value in scalars:
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
        input_indexes=list(range(len(tensors))),
        output_indexes=list(range(first_output, len(operands))),
        operand_values=bytes(values),
    )


# --------------------------------------------------------------------------- GENERATE_PROPOSALS


def proposals_model(dims: Sequence[Sequence[int]], pre: int = -1, post: int = -1) -> Model:
    """Float32 GENERATE_PROPOSALS, NHWC, strides 4, IoU 0.5, min size 0; outputs of
    unknown size."""
    scalars = [(FLOAT32, 4.0), (FLOAT32, 4.0), (INT32, pre), (INT32, post)]
    scalars += [(FLOAT32, 0.5), (FLOAT32, 0.0), (BOOL, False)]
    outputs = [(F32, [0]), (F32, [0, 0]), (I32T, [0])]
    return head_model(Op.GENERATE_PROPOSALS, [(F32, d) for d in dims], scalars, outputs)


def _proposal_inputs(anchor: Sequence[float], info_batches: int = 1) -> list[np.ndarray]:
    """One image, a 1x1 map, one anchor: scores, zero deltas, the anchor, a 16x16 image."""
    return [
        np.full((1, 1, 1, 1), 0.5, np.float32),
        np.zeros((1, 1, 1, 4), np.float32),
        np.asarray([anchor], np.float32),
        np.full((info_batches, 2), 16.0, np.float32),
    ]


_UNKNOWN_PROPOSALS = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0], [0, 0]]


# --------------------------------------------------------------------------- DETECTION_POSTPROCESSING


def detection_model(
    dims: Sequence[Sequence[int]],
    *,
    scales: Sequence[float] = (10.0, 10.0, 5.0, 5.0),
    regular: bool = True,
    counts: Sequence[int] = (2, 1, 1),
) -> Model:
    """Float32 DETECTION_POSTPROCESSING, score threshold 0.1, IoU 0.5, background not in
    the label; ``counts`` = max detections, max classes per detection, max per class."""
    scalars = [(FLOAT32, s) for s in scales] + [(BOOL, regular)]
    scalars += [(INT32, c) for c in counts] + [(FLOAT32, 0.1), (FLOAT32, 0.5), (BOOL, False)]
    outputs = [(F32, [0, 0]), (F32, [0, 0, 0]), (I32T, [0, 0]), (I32T, [0])]
    return head_model(Op.DETECTION_POSTPROCESSING, [(F32, d) for d in dims], scalars, outputs)


_DETECTION_DIMS = [[1, 2, 3], [1, 2, 4], [2, 4]]


# --------------------------------------------------------------------------- HEATMAP_MAX_KEYPOINT


def heatmap_model(dims: Sequence[Sequence[int]], nchw: bool = False) -> Model:
    """Float32 HEATMAP_MAX_KEYPOINT with outputs of unknown size."""
    outputs = [(F32, [0, 0]), (F32, [0, 0, 0])]
    tensors = [(F32, d) for d in dims]
    return head_model(Op.HEATMAP_MAX_KEYPOINT, tensors, [(BOOL, nchw)], outputs)


def _heatmap_inputs(box: Sequence[float]) -> list[np.ndarray]:
    return [np.zeros((1, 2, 2, 1), np.float32), np.asarray([box], np.float32)]


CASES: list[InvalidCase] = [
    InvalidCase(
        "GENERATE_PROPOSALS/deltas_not_4_per_anchor",
        lambda: proposals_model([[1, 2, 2, 2], [1, 2, 2, 6], [2, 4], [1, 2]]),
    ),
    InvalidCase(
        "GENERATE_PROPOSALS/image_info_batch_input",
        lambda: proposals_model(_UNKNOWN_PROPOSALS),
        lambda: _proposal_inputs([0.0, 0.0, 4.0, 4.0], info_batches=2),
    ),
    InvalidCase(
        "GENERATE_PROPOSALS/anchor_corners_reversed",
        lambda: proposals_model([[1, 1, 1, 1], [1, 1, 1, 4], [1, 4], [1, 2]]),
        lambda: _proposal_inputs([4.0, 0.0, 0.0, 4.0]),
    ),
    InvalidCase(
        "DETECTION_POSTPROCESSING/x_scale_0",
        lambda: detection_model(_DETECTION_DIMS, scales=(10.0, 0.0, 5.0, 5.0)),
    ),
    InvalidCase(
        "DETECTION_POSTPROCESSING/max_num_detections_0",
        lambda: detection_model(_DETECTION_DIMS, counts=(0, 1, 1)),
    ),
    InvalidCase(
        "DETECTION_POSTPROCESSING/max_classes_per_detection_0",
        lambda: detection_model(_DETECTION_DIMS, regular=False, counts=(2, 0, 1)),
    ),
    InvalidCase(
        "DETECTION_POSTPROCESSING/only_background_class",
        lambda: detection_model([[1, 2, 1], [1, 2, 4], [2, 4]]),
    ),
    InvalidCase(
        "DETECTION_POSTPROCESSING/encoding_length_3_input",
        lambda: detection_model([[0, 0, 0], [0, 0, 0], [0, 0]]),
        lambda: [
            np.full((1, 2, 3), 0.5, np.float32),
            np.zeros((1, 2, 3), np.float32),
            np.ones((2, 4), np.float32),
        ],
    ),
    InvalidCase(
        "HEATMAP_MAX_KEYPOINT/heatmap_not_square",
        lambda: heatmap_model([[1, 3, 2, 1], [1, 4]]),
    ),
    InvalidCase(
        "HEATMAP_MAX_KEYPOINT/heatmap_1x1_nchw",
        lambda: heatmap_model([[1, 2, 1, 1], [1, 4]], nchw=True),
    ),
    InvalidCase(
        "HEATMAP_MAX_KEYPOINT/box_corners_reversed",
        lambda: heatmap_model([[1, 2, 2, 1], [1, 4]]),
        lambda: _heatmap_inputs([0.0, 5.0, 4.0, 1.0]),
    ),
]
