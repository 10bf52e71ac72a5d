"""Invalid parameter values and shapes of the convolution operations.

Each model is float32 with the filter and bias as constants (zeros: the
values do not matter, the shapes do) and every scalar a constant, so the
driver can refuse at prepare; the ``at_execution`` cases leave the input's
dimensions unknown and only the request's input shows the problem.
"""

from __future__ import annotations

import struct

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
INT32 = OperandType.INT32
BOOL = OperandType.BOOL
Op = OperationType

Scalar = tuple[int, int | bool | list[int]]
"""(operand type, value): INT32, BOOL, or TENSOR_INT32 given as a list."""


def _constant(type_: int, dims: list[int], data: bytes, values: bytearray) -> Operand:
    location = DataLocation(0, len(values), len(data))
    values += data
    return Operand(type_, dims, 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)


def _scalar(type_: int, value, values: bytearray) -> Operand:
    if type_ == OperandType.TENSOR_INT32:
        return _constant(type_, [len(value)], struct.pack(f"<{len(value)}i", *value), values)
    data = struct.pack("<?" if type_ == BOOL else "<i", value)
    return _constant(type_, [], data, values)


def conv_model(
    operation: int,
    input_dims: list[int],
    filter_dims: list[int],
    bias_dims: list[int],
    scalars: list[Scalar],
    output_dims: list[int],
) -> Model:
    """``operation(input, filter, bias, *scalars) -> output``, float32, one model input."""
    values = bytearray()
    operands = [Operand(F32, input_dims, 1, lifetime=OperandLifeTime.MODEL_INPUT)]
    for dims in (filter_dims, bias_dims):
        operands.append(_constant(F32, dims, bytes(4 * int(np.prod(dims))), values))
    operands += [_scalar(type_, value, values) for type_, value in scalars]
    operands.append(Operand(F32, output_dims, 0, lifetime=OperandLifeTime.MODEL_OUTPUT))
    last = len(operands) - 1
    return Model(
        operands=operands,
        operations=[Operation(operation, list(range(last)), [last])],
        input_indexes=[0],
        output_indexes=[last],
        operand_values=bytes(values),
    )


def _ints(*values: int) -> list[Scalar]:
    return [(INT32, v) for v in values]


def _conv(*scalars: int, x=(1, 3, 3, 2), f=(1, 2, 2, 2), out=(1, 2, 2, 1), tail=()) -> Model:
    """CONV_2D, explicit padding when 7 INT32 scalars are given, implicit when 4."""
    return conv_model(Op.CONV_2D, list(x), list(f), [f[0]], [*_ints(*scalars), *tail], list(out))


def _depthwise(*scalars: int, x=(1, 3, 3, 2), f=(1, 2, 2, 2), out=(1, 2, 2, 2)) -> Model:
    return conv_model(Op.DEPTHWISE_CONV_2D, list(x), list(f), [f[3]], _ints(*scalars), list(out))


def _depthwise_filter_fed() -> Model:
    """DEPTHWISE_CONV_2D (implicit padding, multiplier 1) whose filter is a model input of
    dimensions [0, 2, 2, 2]: its first dimension is known only at execution."""
    model = _depthwise(2, 1, 1, 1, 0)
    model.operands[1] = Operand(F32, [0, 2, 2, 2], 1, lifetime=OperandLifeTime.MODEL_INPUT)
    model.input_indexes = [0, 1]
    return model


def _grouped(*scalars: int, x=(1, 3, 3, 4), f=(4, 2, 2, 2), out=(1, 2, 2, 4)) -> Model:
    layout = [(BOOL, False)]
    return conv_model(
        Op.GROUPED_CONV_2D, list(x), list(f), [f[0]], [*_ints(*scalars), *layout], list(out)
    )


def _transpose(*scalars, x=(1, 2, 2, 1), f=(1, 2, 2, 1), out=(1, 3, 3, 1)) -> Model:
    items = [s if isinstance(s, tuple) else (INT32, s) for s in scalars]
    return conv_model(
        Op.TRANSPOSE_CONV_2D, list(x), list(f), [f[0]], [*items, (BOOL, False)], list(out)
    )


def _fc(x, w, bias, activation=0, out=(0, 0)) -> Model:
    return conv_model(
        Op.FULLY_CONNECTED, list(x), list(w), list(bias), _ints(activation), list(out)
    )


def _ones(*shape: int):
    return lambda: [np.ones(shape, np.float32)]


CASES: list[InvalidCase] = [
    # CONV_2D: filter [out, h, w, in] must match the input's channels.
    InvalidCase("CONV_2D/filter_input_channel_mismatch", lambda: _conv(2, 1, 1, 0, f=(1, 2, 2, 3))),
    InvalidCase("CONV_2D/stride_0", lambda: _conv(2, 0, 1, 0)),
    InvalidCase("CONV_2D/activation_5", lambda: _conv(2, 1, 1, 5)),
    InvalidCase("CONV_2D/negative_pad", lambda: _conv(-1, 0, 0, 0, 1, 1, 0)),
    # Each pad must be smaller than the filter extent on its axis (2 here).
    InvalidCase(
        "CONV_2D/pad_not_below_filter", lambda: _conv(2, 0, 0, 0, 1, 1, 0, out=(1, 2, 3, 1))
    ),
    InvalidCase("CONV_2D/filter_larger_than_input", lambda: _conv(2, 1, 1, 0, f=(1, 4, 4, 2))),
    InvalidCase(
        "CONV_2D/bias_length_mismatch",
        lambda: conv_model(
            Op.CONV_2D, [1, 3, 3, 2], [1, 2, 2, 2], [2], _ints(2, 1, 1, 0), [1, 2, 2, 1]
        ),
    ),
    InvalidCase(
        "CONV_2D/dilation_0",
        lambda: _conv(2, 1, 1, 0, tail=[(BOOL, False), (INT32, 0), (INT32, 1)]),
    ),
    InvalidCase(
        "CONV_2D/channel_mismatch_at_execution",
        lambda: _conv(2, 1, 1, 0, x=(0, 0, 0, 0), out=(0, 0, 0, 0)),
        _ones(1, 3, 3, 3),
    ),
    # DEPTHWISE_CONV_2D: filter channels = input channels x depth multiplier.
    InvalidCase("DEPTHWISE_CONV_2D/depth_multiplier_mismatch", lambda: _depthwise(2, 1, 1, 2, 0)),
    InvalidCase("DEPTHWISE_CONV_2D/depth_multiplier_0", lambda: _depthwise(2, 1, 1, 0, 0)),
    InvalidCase("DEPTHWISE_CONV_2D/stride_0", lambda: _depthwise(2, 1, 0, 1, 0)),
    InvalidCase("DEPTHWISE_CONV_2D/activation_4", lambda: _depthwise(2, 1, 1, 1, 4)),
    InvalidCase(
        "DEPTHWISE_CONV_2D/multiplier_mismatch_at_execution",
        lambda: _depthwise(2, 1, 1, 1, 0, x=(0, 0, 0, 0), out=(0, 0, 0, 0)),
        _ones(1, 3, 3, 3),
    ),
    # Android 11 (every HAL version): the filter is [1, H, W, C_out]. A filter whose first
    # dimension the model leaves unknown, given as 2 at execution, is refused there (a
    # known one is hal.validation's, tested by the family depthwise_filter_batch).
    InvalidCase(
        "DEPTHWISE_CONV_2D/filter_first_dimension_2_at_execution",
        _depthwise_filter_fed,
        lambda: [np.ones((1, 3, 3, 2), np.float32), np.ones((2, 2, 2, 2), np.float32)],
    ),
    # GROUPED_CONV_2D: input channels = groups x filter depth, output channels % groups = 0.
    InvalidCase("GROUPED_CONV_2D/groups_do_not_match_channels", lambda: _grouped(2, 1, 1, 3, 0)),
    InvalidCase("GROUPED_CONV_2D/groups_0", lambda: _grouped(2, 1, 1, 0, 0)),
    InvalidCase(
        "GROUPED_CONV_2D/output_channels_not_divisible",
        lambda: _grouped(2, 1, 1, 2, 0, f=(3, 2, 2, 2), out=(1, 2, 2, 3)),
    ),
    InvalidCase("GROUPED_CONV_2D/stride_0", lambda: _grouped(2, 1, 0, 2, 0)),
    # TRANSPOSE_CONV_2D: left/top pads >= 0, strides > 0, a 4-entry shape, output > 0.
    InvalidCase("TRANSPOSE_CONV_2D/negative_left_pad", lambda: _transpose(-1, 0, 0, 0, 1, 1, 0)),
    InvalidCase("TRANSPOSE_CONV_2D/stride_0", lambda: _transpose(0, 0, 0, 0, 0, 1, 0)),
    InvalidCase(
        "TRANSPOSE_CONV_2D/output_shape_of_3_entries",
        lambda: _transpose((OperandType.TENSOR_INT32, [1, 3, 3]), 1, 1, 1, 0),
    ),
    InvalidCase(
        "TRANSPOSE_CONV_2D/empty_output",
        lambda: _transpose(2, 1, 0, 0, 1, 1, 0),
    ),
    # FULLY_CONNECTED: the input must split into rows of input_size; bias = num_units.
    InvalidCase(
        "FULLY_CONNECTED/input_size_does_not_divide", lambda: _fc((2, 5), (3, 4), (3,), out=(2, 3))
    ),
    InvalidCase(
        "FULLY_CONNECTED/bias_length_mismatch", lambda: _fc((2, 4), (3, 4), (2,), out=(2, 3))
    ),
    InvalidCase("FULLY_CONNECTED/activation_4", lambda: _fc((2, 4), (3, 4), (3,), 4, out=(2, 3))),
    InvalidCase(
        "FULLY_CONNECTED/input_size_does_not_divide_at_execution",
        lambda: _fc((0, 0), (2, 4), (2,)),
        _ones(3, 3),
    ),
]
