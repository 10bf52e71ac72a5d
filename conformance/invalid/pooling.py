"""Invalid parameter values of the pooling, resizing and normalisation operations.

Each model holds one operation whose tensor input is a model input and whose
scalars are constants (or, where named, a model input given at execution).
The values are ones the operation's definition forbids (each operation's
section of docs/operations.md): non-positive strides and filters, a padding as
wide as the filter, an output of no cells, a non-positive softmax beta, an axis
outside the input's rank, a negative LRN radius, an input of the wrong rank.
Zero-sized inputs are not here: they fail the execution (GENERAL_FAILURE) where
the operation does not take them.
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
Q8A = OperandType.TENSOR_QUANT8_ASYMM
INT32 = OperandType.INT32
FLOAT32 = OperandType.FLOAT32
BOOL = OperandType.BOOL
_FORMATS = {INT32: "<i", FLOAT32: "<f", BOOL: "<?"}

Scalar = tuple[int, int | float | bool]
"""(scalar operand type, value)."""


def _model(
    operation: OperationType,
    dims: Sequence[int],
    scalars: Sequence[Scalar],
    output_dims: Sequence[int],
    *,
    type_: int = F32,
    quant: tuple[float, int] = (0.0, 0),
    output_quant: tuple[float, int] | None = None,
    scalar_input: int | None = None,
) -> Model:
    """``operation(input, *scalars) -> output``; scalar ``scalar_input`` is a model input."""
    values = bytearray()
    operands = [Operand(type_, list(dims), 1, *quant, OperandLifeTime.MODEL_INPUT)]
    inputs = [0]
    for slot, (scalar_type, value) in enumerate(scalars):
        if slot == scalar_input:
            operands.append(Operand(scalar_type, [], 1, lifetime=OperandLifeTime.MODEL_INPUT))
            inputs.append(len(operands) - 1)
            continue
        data = struct.pack(_FORMATS[scalar_type], value)
        location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(
            Operand(scalar_type, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
        )
    out_scale, out_zero_point = quant if output_quant is None else output_quant
    operands.append(
        Operand(
            type_, list(output_dims), 0, out_scale, out_zero_point, OperandLifeTime.MODEL_OUTPUT
        )
    )
    output = len(operands) - 1
    return Model(
        operands=operands,
        operations=[Operation(operation, list(range(output)), [output])],
        input_indexes=inputs,
        output_indexes=[output],
        operand_values=bytes(values),
    )


def _ints(*values: int) -> list[Scalar]:
    return [(INT32, v) for v in values]


def _ones(*shape: int) -> Callable[[], list[np.ndarray]]:
    return lambda: [np.ones(shape, np.float32)]


AVG = OperationType.AVERAGE_POOL_2D
MAX = OperationType.MAX_POOL_2D
L2 = OperationType.L2_POOL_2D
BILINEAR = OperationType.RESIZE_BILINEAR
NEAREST = OperationType.RESIZE_NEAREST_NEIGHBOR
SOFTMAX = OperationType.SOFTMAX
LOG_SOFTMAX = OperationType.LOG_SOFTMAX
L2_NORM = OperationType.L2_NORMALIZATION
LRN = OperationType.LOCAL_RESPONSE_NORMALIZATION
INSTANCE = OperationType.INSTANCE_NORMALIZATION
IMAGE = (1, 4, 4, 1)
POOLED = (1, 2, 2, 1)


def _explicit_pool(op: OperationType, *scalars: int) -> Model:
    """pad left, right, top, bottom, stride w, h, filter w, h, activation on a 4x4 image."""
    return _model(op, IMAGE, _ints(*scalars), POOLED)


def _implicit_pool(op: OperationType, *scalars: int, dims: Sequence[int] = IMAGE) -> Model:
    """padding code, stride w, h, filter w, h, activation on a 4x4 image (or ``dims``)."""
    return _model(op, dims, _ints(*scalars), POOLED)


def _pool_cases() -> list[InvalidCase]:
    return [
        InvalidCase(
            "AVERAGE_POOL_2D/stride_w_0", lambda: _explicit_pool(AVG, 0, 0, 0, 0, 0, 2, 2, 2, 0)
        ),
        InvalidCase("AVERAGE_POOL_2D/filter_h_0", lambda: _implicit_pool(AVG, 2, 1, 1, 2, 0, 0)),
        InvalidCase(
            "AVERAGE_POOL_2D/pad_left_equals_filter_w",
            lambda: _explicit_pool(AVG, 2, 0, 0, 0, 2, 2, 2, 2, 0),
        ),
        InvalidCase(
            "AVERAGE_POOL_2D/pad_top_negative",
            lambda: _explicit_pool(AVG, 0, 0, -1, 0, 2, 2, 2, 2, 0),
        ),
        InvalidCase("AVERAGE_POOL_2D/activation_4", lambda: _implicit_pool(AVG, 2, 2, 2, 2, 2, 4)),
        InvalidCase(
            "AVERAGE_POOL_2D/filter_wider_than_image",
            lambda: _implicit_pool(AVG, 2, 1, 1, 5, 1, 0),
        ),
        InvalidCase(
            "AVERAGE_POOL_2D/filter_wider_than_image_at_execution",
            lambda: _implicit_pool(AVG, 2, 1, 1, 3, 1, 0, dims=(0, 0, 0, 0)),
            _ones(1, 2, 2, 1),
        ),
        InvalidCase("MAX_POOL_2D/stride_h_0", lambda: _implicit_pool(MAX, 1, 1, 0, 2, 2, 0)),
        InvalidCase(
            "MAX_POOL_2D/pad_bottom_above_filter_h",
            lambda: _explicit_pool(MAX, 0, 0, 0, 3, 2, 2, 2, 2, 0),
        ),
        InvalidCase(
            "MAX_POOL_2D/quant8_filter_w_negative",
            lambda: _model(
                MAX, IMAGE, _ints(1, 1, 1, -2, 2, 0), POOLED, type_=Q8A, quant=(0.5, 10)
            ),
        ),
        InvalidCase("L2_POOL_2D/filter_w_0", lambda: _explicit_pool(L2, 0, 0, 0, 0, 1, 1, 0, 2, 0)),
        InvalidCase("L2_POOL_2D/stride_negative", lambda: _implicit_pool(L2, 1, -1, 1, 2, 2, 0)),
    ]


def _resize(
    op: OperationType, first: Scalar, second: Scalar, *, dims: Sequence[int] = IMAGE
) -> Model:
    """op(input, width-ish, height-ish, layout NHWC) with the 1.2 layout input."""
    output_dims = (0, 0, 0, 0)
    return _model(op, dims, [first, second, (BOOL, False)], output_dims)


def _resize_cases() -> list[InvalidCase]:
    return [
        InvalidCase(
            "RESIZE_BILINEAR/width_0", lambda: _model(BILINEAR, IMAGE, _ints(0, 2), (1, 2, 0, 1))
        ),
        InvalidCase(
            "RESIZE_BILINEAR/scale_negative",
            lambda: _resize(BILINEAR, (FLOAT32, 2.0), (FLOAT32, -1.0)),
        ),
        InvalidCase(
            "RESIZE_BILINEAR/scale_to_no_column_at_execution",
            lambda: _resize(BILINEAR, (FLOAT32, 0.25), (FLOAT32, 1.0), dims=(0, 0, 0, 0)),
            _ones(1, 3, 3, 1),
        ),
        InvalidCase(
            "RESIZE_NEAREST_NEIGHBOR/height_0", lambda: _resize(NEAREST, (INT32, 2), (INT32, 0))
        ),
        InvalidCase(
            "RESIZE_NEAREST_NEIGHBOR/scale_0",
            lambda: _resize(NEAREST, (FLOAT32, 0.0), (FLOAT32, 1.0)),
        ),
        InvalidCase(
            "RESIZE_NEAREST_NEIGHBOR/width_negative",
            lambda: _resize(NEAREST, (INT32, -3), (INT32, 2)),
        ),
    ]


def _axis_cases() -> list[InvalidCase]:
    return [
        InvalidCase("SOFTMAX/beta_0", lambda: _model(SOFTMAX, (2, 4), [(FLOAT32, 0.0)], (2, 4))),
        InvalidCase(
            "SOFTMAX/quant8_beta_negative",
            lambda: _model(
                SOFTMAX,
                (2, 4),
                [(FLOAT32, -1.0)],
                (2, 4),
                type_=Q8A,
                quant=(0.5, 128),
                output_quant=(1.0 / 256, 0),
            ),
        ),
        InvalidCase(
            "SOFTMAX/axis_4_of_rank_4",
            lambda: _model(SOFTMAX, (1, 2, 2, 2), [(FLOAT32, 1.0), (INT32, 4)], (1, 2, 2, 2)),
        ),
        InvalidCase(
            "SOFTMAX/axis_input_out_of_range",
            lambda: _model(SOFTMAX, (2, 4), [(FLOAT32, 1.0), (INT32, 0)], (2, 4), scalar_input=1),
            lambda: [np.ones((2, 4), np.float32), np.array(-3, np.int32)],
        ),
        InvalidCase(
            "LOG_SOFTMAX/axis_minus_3_of_rank_2",
            lambda: _model(LOG_SOFTMAX, (2, 4), [(FLOAT32, 1.0), (INT32, -3)], (2, 4)),
        ),
        InvalidCase(
            "LOG_SOFTMAX/axis_beyond_rank_at_execution",
            lambda: _model(LOG_SOFTMAX, (), [(FLOAT32, 1.0), (INT32, 2)], ()),
            _ones(3, 4),
        ),
        InvalidCase(
            "L2_NORMALIZATION/axis_1_of_rank_1",
            lambda: _model(L2_NORM, (4,), [(INT32, 1)], (4,)),
        ),
        InvalidCase(
            "LOCAL_RESPONSE_NORMALIZATION/radius_negative",
            lambda: _model(LRN, (1, 1, 1, 4), _lrn_scalars(-1), (1, 1, 1, 4)),
        ),
        InvalidCase(
            "LOCAL_RESPONSE_NORMALIZATION/axis_minus_5_of_rank_4",
            lambda: _model(LRN, (1, 1, 1, 4), [*_lrn_scalars(1), (INT32, -5)], (1, 1, 1, 4)),
        ),
        InvalidCase(
            "INSTANCE_NORMALIZATION/rank_3_input_at_execution",
            lambda: _model(
                INSTANCE, (), [(FLOAT32, 1.0), (FLOAT32, 0.0), (FLOAT32, 1e-4), (BOOL, False)], ()
            ),
            _ones(2, 2, 2),
        ),
    ]


def _lrn_scalars(radius: int) -> list[Scalar]:
    """radius, bias 1, alpha 0.5, beta 0.5"""
    return [(INT32, radius), (FLOAT32, 1.0), (FLOAT32, 0.5), (FLOAT32, 0.5)]


CASES: list[InvalidCase] = [*_pool_cases(), *_resize_cases(), *_axis_cases()]
