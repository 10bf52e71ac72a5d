"""Invalid parameter values of the shape and data-movement operations.

Each case is one operation whose operand types and counts are right (the model
passes ``hal.validation``) but whose parameter values or shapes the operation's
definition forbids: a reshape that does not hold the elements, an axis out of
range, a block size of 0, a permutation with a repeated entry, paddings below
zero, indices outside the gathered dimension. Bad constants must be refused at
prepare; bad model inputs (a parameter given at execution, or input dimensions
given by the request) at execution.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
    numpy_dtype,
)

F32 = OperandType.TENSOR_FLOAT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
I32T = OperandType.TENSOR_INT32
INT32 = OperandType.INT32
BOOL = OperandType.BOOL
Op = OperationType


@dataclass(frozen=True, eq=False)
class Arg:
    """One operand of a model ``graph_model`` builds: the same object, the same operand.

    ``value`` None makes a model input (or, produced by an operation, a model
    output or a temporary); otherwise a CONSTANT_COPY holding it. ``omitted``
    makes a NO_VALUE operand.
    """

    type: int
    dims: Sequence[int] = ()
    value: object = None
    scale: float = 0.0
    zero_point: int = 0
    omitted: bool = False


def tensor(dims: Sequence[int], type_: int = F32, scale: float = 0.0, zero_point: int = 0) -> Arg:
    """A model input (or output) tensor; quant8 defaults to scale 0.5."""
    if type_ == Q8A and scale == 0.0:
        scale = 0.5
    return Arg(type_, tuple(dims), None, scale, zero_point)


def ints(values: Sequence[int] | np.ndarray, dims: Sequence[int] | None = None) -> Arg:
    """A constant TENSOR_INT32 (1-D unless ``dims`` says otherwise)."""
    array = np.asarray(values, dtype=np.int32)
    return Arg(I32T, tuple(array.shape if dims is None else dims), array)


def scalar(value: int | bool) -> Arg:
    """A constant INT32 (or BOOL for a bool) scalar."""
    return Arg(BOOL if isinstance(value, bool) else INT32, (), value)


def _encode(arg: Arg) -> bytes:
    if arg.type == INT32:
        return struct.pack("<i", int(arg.value))  # type: ignore[call-overload]
    if arg.type == BOOL:
        return bytes([1 if arg.value else 0])
    return np.ascontiguousarray(arg.value, dtype=numpy_dtype(arg.type)).tobytes()


Step = tuple[int, Sequence[Arg], Sequence[Arg]]
"""One operation: (type, inputs, outputs)."""


def graph_model(steps: Sequence[Step]) -> Model:
    """A model of ``steps`` in order; an ``Arg`` object is one operand wherever it appears.

    An output some later step reads is a temporary; every other output is a
    model output. Inputs without a value are model inputs.
    """
    order: list[Arg] = []
    index: dict[int, int] = {}
    for _, inputs, outputs in steps:
        for arg in (*inputs, *outputs):
            if id(arg) not in index:
                index[id(arg)] = len(order)
                order.append(arg)
    consumers = [0] * len(order)
    for _, inputs, _ in steps:
        for arg in inputs:
            consumers[index[id(arg)]] += 1
    produced = {index[id(arg)] for _, _, outputs in steps for arg in outputs}
    values = bytearray()
    operands = [_operand(arg, i in produced, consumers[i], values) for i, arg in enumerate(order)]
    return Model(
        operands=operands,
        operations=[
            Operation(op, [index[id(a)] for a in ins], [index[id(a)] for a in outs])
            for op, ins, outs in steps
        ],
        input_indexes=[
            i for i, o in enumerate(operands) if o.lifetime == OperandLifeTime.MODEL_INPUT
        ],
        output_indexes=[
            i for i, o in enumerate(operands) if o.lifetime == OperandLifeTime.MODEL_OUTPUT
        ],
        operand_values=bytes(values),
    )


def _operand(arg: Arg, produced: bool, consumers: int, values: bytearray) -> Operand:
    location = DataLocation()
    if produced:
        lifetime = OperandLifeTime.TEMPORARY_VARIABLE if consumers else OperandLifeTime.MODEL_OUTPUT
    elif arg.omitted:
        lifetime = OperandLifeTime.NO_VALUE
    elif arg.value is None:
        lifetime = OperandLifeTime.MODEL_INPUT
    else:
        data = _encode(arg)
        lifetime, location = OperandLifeTime.CONSTANT_COPY, DataLocation(0, len(values), len(data))
        values += data
    return Operand(
        arg.type, list(arg.dims), consumers, arg.scale, arg.zero_point, lifetime, location
    )


def operation_model(op: int, inputs: Sequence[Arg], outputs: Sequence[Arg]) -> Model:
    """A model running one operation ``op`` on ``inputs`` into ``outputs``."""
    return graph_model([(op, inputs, outputs)])


Feed = Callable[[], list[np.ndarray]]


def _case(
    name: str, op: int, inputs: Sequence[Arg], outputs: Sequence[Arg], feed: Feed | None = None
) -> InvalidCase:
    return InvalidCase(name, lambda: operation_model(op, inputs, outputs), feed)


def _floats(*shape: int) -> Feed:
    """Execution inputs: one float32 tensor of ``shape``."""
    return lambda: [np.ones(shape, np.float32)]


_X = tensor((2, 3))
_OUT = tensor((0, 0))
_IMAGE = tensor((1, 2, 2, 4))
_IMAGE_OUT = tensor((0, 0, 0, 0))

CASES: list[InvalidCase] = [
    _case("RESHAPE/two_minus_ones", Op.RESHAPE, [_X, ints([-1, -1])], [_OUT]),
    _case("RESHAPE/element_count_differs", Op.RESHAPE, [_X, ints([4, 2])], [_OUT]),
    # A 0 in the target shape (docs/operations.md, RESHAPE (22): zero-sized not
    # accepted): next to -1 the inferred size would divide by 0, and next to the
    # other sizes the product 0 cannot hold the 6 elements.
    _case("RESHAPE/zero_with_minus_one", Op.RESHAPE, [_X, ints([0, -1])], [_OUT]),
    _case("RESHAPE/zero_entry", Op.RESHAPE, [_X, ints([2, 0, 3])], [tensor((0, 0, 0))]),
    _case(
        "RESHAPE/input_dims_do_not_fit",
        Op.RESHAPE,
        [tensor((0, 3)), ints([4, 2])],
        [_OUT],
        _floats(3, 3),
    ),
    _case("SQUEEZE/axis_of_size_3", Op.SQUEEZE, [_X, ints([1])], [tensor((0,))]),
    _case("SQUEEZE/axis_out_of_range", Op.SQUEEZE, [tensor((1, 3)), ints([2])], [tensor((0,))]),
    _case("EXPAND_DIMS/axis_3_of_rank_2", Op.EXPAND_DIMS, [_X, scalar(3)], [tensor((0, 0, 0))]),
    _case(
        "EXPAND_DIMS/axis_minus_4_of_rank_2",
        Op.EXPAND_DIMS,
        [_X, scalar(-4)],
        [tensor((0, 0, 0))],
    ),
    _case("TRANSPOSE/repeated_entry", Op.TRANSPOSE, [_X, ints([0, 0])], [_OUT]),
    _case("TRANSPOSE/entry_out_of_range", Op.TRANSPOSE, [_X, ints([0, 2])], [_OUT]),
    _case(
        "TRANSPOSE/permutation_length_differs",
        Op.TRANSPOSE,
        [_X, tensor((0,), I32T)],
        [_OUT],
        lambda: [np.ones((2, 3), np.float32), np.array([2, 1, 0], np.int32)],
    ),
    _case("CONCATENATION/negative_axis", Op.CONCATENATION, [_X, _X, scalar(-1)], [_OUT]),
    _case("CONCATENATION/axis_2_of_rank_2", Op.CONCATENATION, [_X, _X, scalar(2)], [_OUT]),
    _case(
        "CONCATENATION/other_dimension_differs",
        Op.CONCATENATION,
        [_X, tensor((2, 4)), scalar(0)],
        [_OUT],
    ),
    _case(
        "CONCATENATION/request_dims_differ",
        Op.CONCATENATION,
        [tensor((2, 0)), tensor((2, 0)), scalar(0)],
        [_OUT],
        lambda: [np.ones((2, 3), np.float32), np.ones((2, 2), np.float32)],
    ),
    _case(
        "SPLIT/not_divisible",
        Op.SPLIT,
        [_X, scalar(1), scalar(2)],
        [tensor((0, 0)), tensor((0, 0))],
    ),
    _case("SPLIT/axis_out_of_range", Op.SPLIT, [_X, scalar(2), scalar(1)], [_OUT]),
    _case(
        "SPLIT/num_splits_differs_from_outputs",
        Op.SPLIT,
        [_X, scalar(0), scalar(1)],
        [tensor((0, 0)), tensor((0, 0))],
    ),
    _case("SPLIT/num_splits_0", Op.SPLIT, [_X, scalar(0), scalar(0)], [_OUT]),
    _case("SLICE/overrun", Op.SLICE, [_X, ints([1, 1]), ints([1, 3])], [_OUT]),
    _case("SLICE/negative_begin", Op.SLICE, [_X, ints([-1, 0]), ints([1, 1])], [_OUT]),
    _case("SLICE/size_minus_2", Op.SLICE, [_X, ints([0, 0]), ints([1, -2])], [_OUT]),
    _case(
        "STRIDED_SLICE/stride_0",
        Op.STRIDED_SLICE,
        [_X, ints([0, 0]), ints([2, 3]), ints([1, 0]), scalar(0), scalar(0), scalar(0)],
        [_OUT],
    ),
    _case(
        "STRIDED_SLICE/shrink_axis_of_size_2",
        Op.STRIDED_SLICE,
        [_X, ints([0, 0]), ints([2, 3]), ints([1, 1]), scalar(0), scalar(0), scalar(1)],
        [tensor((0,))],
    ),
    # Android 11 refuses shrink_axis_mask on an axis of negative stride (TFLite's rule),
    # though the axis holds one element here (row 1 from begin 1 to end 0, stride -1)
    _case(
        "STRIDED_SLICE/shrink_axis_of_negative_stride",
        Op.STRIDED_SLICE,
        [_X, ints([1, 0]), ints([0, 3]), ints([-1, 1]), scalar(0), scalar(0), scalar(1)],
        [tensor((0,))],
    ),
    _case(
        "STRIDED_SLICE/begin_length_differs",
        Op.STRIDED_SLICE,
        [_X, ints([0]), ints([2, 3]), ints([1, 1]), scalar(0), scalar(0), scalar(0)],
        [_OUT],
    ),
    _case("TILE/multiples_length_differs", Op.TILE, [_X, ints([2])], [_OUT]),
    _case("TILE/negative_multiple", Op.TILE, [_X, ints([1, -2])], [_OUT]),
    _case("GATHER/axis_out_of_range", Op.GATHER, [_X, scalar(2), ints([0])], [_OUT]),
    _case("GATHER/index_too_large", Op.GATHER, [_X, scalar(1), ints([0, 3])], [_OUT]),
    _case(
        "GATHER/negative_index_at_execution",
        Op.GATHER,
        [_X, scalar(0), tensor((1,), I32T)],
        [_OUT],
        lambda: [np.ones((2, 3), np.float32), np.array([-1], np.int32)],
    ),
    _case("PAD/negative_padding", Op.PAD, [_X, ints([[0, 0], [-1, 1]])], [_OUT]),
    _case("PAD/paddings_rows_differ", Op.PAD, [_X, ints([[1, 1]])], [_OUT]),
    _case(
        "PAD_V2/negative_padding",
        Op.PAD_V2,
        [_X, ints([[0, -1], [0, 0]]), Arg(OperandType.FLOAT32, (), 1.5)],
        [_OUT],
    ),
    _case(
        "PAD_V2/paddings_rows_differ_at_execution",
        Op.PAD_V2,
        [tensor(()), ints([[1, 1], [1, 1]]), Arg(OperandType.FLOAT32, (), 0.0)],
        [tensor((0, 0, 0))],
        _floats(1, 2, 2),
    ),
    _case("SPACE_TO_DEPTH/block_0", Op.SPACE_TO_DEPTH, [_IMAGE, scalar(0)], [_IMAGE_OUT]),
    _case(
        "SPACE_TO_DEPTH/height_not_divisible",
        Op.SPACE_TO_DEPTH,
        [tensor((1, 3, 2, 1)), scalar(2)],
        [_IMAGE_OUT],
    ),
    _case(
        "SPACE_TO_DEPTH/nchw_width_not_divisible",
        Op.SPACE_TO_DEPTH,
        [tensor((1, 1, 2, 3)), scalar(2), scalar(True)],
        [_IMAGE_OUT],
    ),
    _case("DEPTH_TO_SPACE/block_0", Op.DEPTH_TO_SPACE, [_IMAGE, scalar(0)], [_IMAGE_OUT]),
    _case(
        "DEPTH_TO_SPACE/depth_not_divisible",
        Op.DEPTH_TO_SPACE,
        [_IMAGE, scalar(3)],
        [_IMAGE_OUT],
    ),
    _case(
        "DEPTH_TO_SPACE/block_at_execution",
        Op.DEPTH_TO_SPACE,
        [_IMAGE, Arg(INT32)],
        [_IMAGE_OUT],
        lambda: [np.ones((1, 2, 2, 4), np.float32), np.array(-2, np.int32)],
    ),
    _case(
        "SPACE_TO_BATCH_ND/block_0",
        Op.SPACE_TO_BATCH_ND,
        [_IMAGE, ints([0, 1]), ints([[0, 0], [0, 0]])],
        [_IMAGE_OUT],
    ),
    _case(
        "SPACE_TO_BATCH_ND/padded_width_not_divisible",
        Op.SPACE_TO_BATCH_ND,
        [_IMAGE, ints([2, 2]), ints([[0, 0], [0, 1]])],
        [_IMAGE_OUT],
    ),
    _case(
        "SPACE_TO_BATCH_ND/negative_padding",
        Op.SPACE_TO_BATCH_ND,
        [_IMAGE, ints([1, 1]), ints([[-1, 1], [0, 0]])],
        [_IMAGE_OUT],
    ),
    _case(
        "BATCH_TO_SPACE_ND/batch_not_divisible",
        Op.BATCH_TO_SPACE_ND,
        [tensor((3, 1, 1, 1)), ints([2, 1])],
        [_IMAGE_OUT],
    ),
    _case(
        "BATCH_TO_SPACE_ND/block_0",
        Op.BATCH_TO_SPACE_ND,
        [tensor((4, 1, 1, 1)), ints([2, 0])],
        [_IMAGE_OUT],
    ),
    _case(
        "BATCH_TO_SPACE_ND/request_batch_not_divisible",
        Op.BATCH_TO_SPACE_ND,
        [tensor((0, 1, 1, 1)), ints([2, 2])],
        [_IMAGE_OUT],
        _floats(6, 1, 1, 1),
    ),
    _case(
        "CHANNEL_SHUFFLE/groups_do_not_divide",
        Op.CHANNEL_SHUFFLE,
        [_X, scalar(2), scalar(1)],
        [_OUT],
    ),
    _case("CHANNEL_SHUFFLE/groups_0", Op.CHANNEL_SHUFFLE, [_X, scalar(0), scalar(-1)], [_OUT]),
    _case(
        "CHANNEL_SHUFFLE/axis_out_of_range",
        Op.CHANNEL_SHUFFLE,
        [_X, scalar(1), scalar(2)],
        [_OUT],
    ),
]
