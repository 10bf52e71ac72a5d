"""The checks of the shape and data-movement operations: RESHAPE, SQUEEZE, EXPAND_DIMS,
TRANSPOSE, CONCATENATION, SPLIT, SLICE, STRIDED_SLICE, TILE, GATHER, PAD, PAD_V2,
SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, CHANNEL_SHUFFLE.

Each operation has one ``shape`` function that checks its parameter values and
derives output shapes from input shapes whose entries may be unknown (None):
``validate`` runs it on the declared dimensions and the constants, ``prepare`` on
the actual arrays, so a bad constant is refused at preparation and a bad model input
at execution, both as INVALID_ARGUMENT.

Where the Android 10 CPU reference fixes a quant8 output's scale and zero point to
the input's, other declared parameters fail the execution (``OpFailure``); so do
zero-sized inputs, but for CONCATENATION, TRANSPOSE and SLICE. Android 11's
corrections are followed at every HAL level: a SQUEEZE or STRIDED_SLICE result that
would have rank 0 has shape [1], and STRIDED_SLICE refuses shrink_axis_mask on an
axis whose stride is negative. The signed forms (HAL 1.3) follow the same rules; a
signed PAD_V2 input's pad value (an INT32 in the input's quantization) must lie in
[-128, 127]. ``reference_driver/ops/shape.py`` moves the data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.checks.common import normalize_axis
from hal.checks.signed import Q8AS, QUANT8_ASYMM_TYPES, check_int8_scalar
from hal.types import Operand, OperandType, OperationType

Dims = tuple[int | None, ...]

Shape = Dims | None

"""A shape whose entries may be unknown (None); None itself is an unknown rank."""

ShapeFn = Callable[[OpArgs, list[Shape]], list[Shape]]

_Q8A = OperandType.TENSOR_QUANT8_ASYMM

_MAX_RANK = 4

_ANY_RANK = 2**31


# Parameter access -----------------------------------------------------------


def _int(args: OpArgs, slot: int) -> int | None:
    value = args.values[slot]
    return None if value is None else int(value.item())


def _ints(args: OpArgs, slot: int) -> list[int] | None:
    value = args.values[slot]
    return None if value is None else [int(v) for v in value.reshape(-1)]


def _known(shape: Shape) -> bool:
    return shape is not None and all(d is not None for d in shape)


def _check_rank(shape: Shape, low: int, high: int = _ANY_RANK) -> None:
    if shape is not None and not low <= len(shape) <= high:
        limit = f"at least {low}" if high == _ANY_RANK else f"{low} to {high}"
        raise OpInvalid(f"input 0 has rank {len(shape)}; the operation takes {limit}")


def _times(dim: int | None, factor: int) -> int | None:
    return None if dim is None else dim * factor


def _divide(dim: int | None, divisor: int, what: str) -> int | None:
    if dim is None:
        return None
    if dim % divisor:
        raise OpInvalid(f"{what} {dim} is not divisible by {divisor}")
    return dim // divisor


# Framework ------------------------------------------------------------------


@dataclass(frozen=True)
class _Spec:
    """How one operation is checked."""

    op: OperationType
    shape: ShapeFn
    forced_quant: bool = True
    zero_sized: bool = False


def _declared(operand: Operand) -> Shape:
    """Declared dimensions with 0 (unknown size) as None; None for an unknown rank."""
    dims = operand.dimensions
    return tuple(d or None for d in dims) if dims else None


def _check_forced_quant(args: OpArgs) -> None:
    source = args.inputs[0]
    for index, output in enumerate(args.outputs):
        if output.type in QUANT8_ASYMM_TYPES and (output.scale, output.zero_point) != (
            source.scale,
            source.zero_point,
        ):
            raise OpFailure(
                f"output {index} scale/zeroPoint ({output.scale}, {output.zero_point}) differ "
                f"from input 0's ({source.scale}, {source.zero_point}); they must be equal"
            )


def _reject_zero_sized(args: OpArgs) -> None:
    data = args.values[0]
    if data is not None and data.size == 0:
        raise OpFailure(f"input 0 is zero-sized {data.shape}; the operation rejects it")


def _check(spec: _Spec) -> OperationCheck:
    def validate(args: OpArgs) -> str | None:
        try:
            spec.shape(args, [_declared(operand) for operand in args.inputs])
        except OpInvalid as error:
            return str(error)
        return None

    def prepare(args: OpArgs) -> list[tuple[int, ...]]:
        if not spec.zero_sized:
            _reject_zero_sized(args)
        shapes = spec.shape(args, [None if v is None else v.shape for v in args.values])
        if spec.forced_quant:
            _check_forced_quant(args)
        return [tuple(int(d) for d in shape) for shape in shapes]

    return OperationCheck(spec.op, validate, prepare)


# RESHAPE, SQUEEZE, EXPAND_DIMS ----------------------------------------------


def _reshape_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    _check_rank(shapes[0], 1, _MAX_RANK)
    target = _ints(args, 1)
    if target is None:
        return [None]
    if target.count(-1) > 1 or any(d < 1 and d != -1 for d in target):
        raise OpInvalid(f"shape {target}: entries must be positive, with at most one -1")
    known = math.prod(d for d in target if d != -1)
    count = math.prod(shapes[0]) if _known(shapes[0]) else None
    if count is None:
        return [tuple(None if d == -1 else d for d in target)]
    if count % known if -1 in target else count != known:
        raise OpInvalid(f"shape {target} does not hold the input's {count} elements")
    return [tuple(count // known if d == -1 else d for d in target)]


def _squeeze_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape = shapes[0]
    _check_rank(shape, 1, _MAX_RANK)
    axes = _ints(args, 1)
    if shape is None:
        return [None]
    if not axes:  # omitted or empty (or not known yet): every size-1 dimension goes
        return [_rank0_as_1(tuple(d for d in shape if d != 1))] if _known(shape) else [None]
    chosen = {normalize_axis(axis, len(shape), "squeeze axis") for axis in axes}
    for axis in chosen:
        if shape[axis] not in (None, 1):
            raise OpInvalid(f"cannot squeeze axis {axis} of size {shape[axis]}")
    return [_rank0_as_1(tuple(d for i, d in enumerate(shape) if i not in chosen))]


def _rank0_as_1(shape: tuple) -> tuple:
    """A result that would have rank 0 (SQUEEZE or STRIDED_SLICE removing every axis)
    has shape [1], as in Android 11 (docs/operations.md, Android 11's corrections)."""
    return shape or (1,)


def _expand_dims_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape, axis = shapes[0], _int(args, 1)
    _check_rank(shape, 1)
    if shape is None or axis is None:
        return [None]
    where = normalize_axis(axis, len(shape) + 1)
    return [(*shape[:where], 1, *shape[where:])]


# TRANSPOSE, TILE, CHANNEL_SHUFFLE -------------------------------------------


def _permutation(args: OpArgs, rank: int) -> list[int]:
    perm = _ints(args, 1)
    # Omitted: the dimensions in reverse order. (While validating, a permutation
    # given as a model input is not known yet and takes this path harmlessly:
    # a reversal is always valid.)
    if perm is None:
        return list(range(rank))[::-1]
    if sorted(perm) != list(range(rank)):
        raise OpInvalid(f"{perm} is not a permutation of the {rank} input dimensions")
    return perm


def _transpose_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape = shapes[0]
    _check_rank(shape, 1, _MAX_RANK)
    if shape is None:
        return [None]
    return [tuple(shape[p] for p in _permutation(args, len(shape)))]


def _tile_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape, multiples = shapes[0], _ints(args, 1)
    _check_rank(shape, 1)
    if multiples is not None and min(multiples, default=1) < 1:
        raise OpInvalid(f"multiples {multiples} must all be positive")
    if shape is None or multiples is None:
        return [None]
    if len(multiples) != len(shape):
        raise OpInvalid(f"{len(multiples)} multiples for a rank-{len(shape)} input")
    return [tuple(_times(d, m) for d, m in zip(shape, multiples, strict=True))]


def _channel_shuffle_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape, groups, axis = shapes[0], _int(args, 1), _int(args, 2)
    _check_rank(shape, 1, _MAX_RANK)
    if groups is not None and groups < 1:
        raise OpInvalid(f"num_groups {groups} must be positive")
    if shape is None or axis is None:
        return [shape]
    where = normalize_axis(axis, len(shape))
    if groups is not None:
        _divide(shape[where], groups, f"dimension {where} of size")
    return [shape]


# CONCATENATION, SPLIT -------------------------------------------------------


def _concatenation_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    count = len(args.inputs) - 1
    axis = _int(args, count)
    known = [s for s in shapes[:count] if s is not None]
    for shape in known:
        _check_rank(shape, 1, _MAX_RANK)
    if not known or axis is None:
        return [None]
    rank = len(known[0])
    if any(len(s) != rank for s in known):
        raise OpInvalid(f"inputs of ranks {[len(s) for s in known]}; they must be equal")
    if not 0 <= axis < rank:  # Android 10 takes no negative axis here
        raise OpInvalid(f"axis {axis} is outside [0, {rank})")
    return [tuple(_concatenated(known, i, count, i == axis) for i in range(rank))]


def _concatenated(shapes: Sequence[Dims], index: int, count: int, along: bool) -> int | None:
    sizes = [s[index] for s in shapes]
    if along:
        return sum(sizes) if None not in sizes and len(sizes) == count else None
    known = set(sizes) - {None}
    if len(known) > 1:
        raise OpInvalid(f"dimension {index} differs between inputs: {sorted(known)}")
    return known.pop() if known else None


def _split_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape, axis, count = shapes[0], _int(args, 1), _int(args, 2)
    outputs = len(args.outputs)
    _check_rank(shape, 1)
    if count is not None and count != outputs:
        raise OpInvalid(f"num_splits {count} differs from the {outputs} outputs")
    if shape is None or axis is None:
        return [None] * outputs
    where = normalize_axis(axis, len(shape))
    part = _divide(shape[where], outputs, f"dimension {where} of size")
    return [(*shape[:where], part, *shape[where + 1 :])] * outputs


# SLICE, STRIDED_SLICE, GATHER -----------------------------------------------


def _slice_bounds(args: OpArgs, shape: Shape) -> list[tuple[int, int | None]] | None:
    """(begin, size) per axis, size None where the dimension is unknown."""
    begin, size = _ints(args, 1), _ints(args, 2)
    if shape is None or begin is None or size is None:
        return None
    if len(begin) != len(shape) or len(size) != len(shape):
        raise OpInvalid(f"begin {begin} and size {size} must have {len(shape)} entries")
    return [_slice_axis(b, s, d) for b, s, d in zip(begin, size, shape, strict=True)]


def _slice_axis(begin: int, size: int, dim: int | None) -> tuple[int, int | None]:
    if begin < 0 or size < -1:
        raise OpInvalid(f"begin {begin} must be >= 0 and size {size} >= -1")
    if dim is None:
        return begin, None if size == -1 else size
    if begin > dim or (size != -1 and begin + size > dim):
        raise OpInvalid(f"begin {begin} with size {size} overruns a dimension of {dim}")
    return begin, dim - begin if size == -1 else size


def _slice_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    _check_rank(shapes[0], 1)
    bounds = _slice_bounds(args, shapes[0])
    return [None if bounds is None else tuple(size for _, size in bounds)]


def _strided_index(value: int, masked: bool, dim: int, stride: int, is_end: bool) -> int:
    """A begin or end resolved as the CPU reference does: mask, clamp, wrap negatives."""
    if stride > 0:
        if masked:
            return dim if is_end else 0
        return dim if value >= dim else max(value, -dim) % dim
    if masked:
        return -1 if is_end else dim - 1
    return -1 if value < -dim else min(value, dim - 1) % dim


def _strided_axes(args: OpArgs, shape: Shape) -> list[tuple[int, int, int] | None] | None:
    """(start, stride, size) per axis (None where unknown); checks strides and shrinks."""
    begin, end, strides = (_ints(args, slot) for slot in (1, 2, 3))
    masks = [_int(args, slot) for slot in (4, 5, 6)]
    if shape is None or None in (begin, end, strides) or None in masks:
        return None
    rank = len(shape)
    if not len(begin) == len(end) == len(strides) == rank:
        raise OpInvalid(f"begin, end and strides must each have {rank} entries")
    return [_strided_axis(args, axis, shape[axis]) for axis in range(rank)]


def _strided_axis(args: OpArgs, axis: int, dim: int | None) -> tuple[int, int, int] | None:
    begin, end, stride = (_ints(args, slot)[axis] for slot in (1, 2, 3))
    begin_mask, end_mask, shrink = (_int(args, slot) >> axis & 1 for slot in (4, 5, 6))
    if stride == 0:
        raise OpInvalid(f"stride of axis {axis} is 0")
    if shrink and stride < 0:  # Android 11 keeps TFLite's refusal (docs/operations.md)
        raise OpInvalid(f"axis {axis} is shrunk with the negative stride {stride}")
    if dim is None:
        return None
    start = _strided_index(begin, bool(begin_mask), dim, stride, False)
    stop = _strided_index(end, bool(end_mask), dim, stride, True)
    size = max(0, -((start - stop) // stride))  # ceil((stop - start) / stride)
    if shrink and size != 1:
        raise OpInvalid(f"shrunk axis {axis} has {size} elements; it must have exactly 1")
    return start, stride, size


def _strided_slice_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    _check_rank(shapes[0], 1, _MAX_RANK)
    axes = _strided_axes(args, shapes[0])
    if axes is None:
        return [None]
    shrink = _int(args, 6)
    kept = [(axis, a) for axis, a in enumerate(axes) if not shrink >> axis & 1]
    return [_rank0_as_1(tuple(None if a is None else a[2] for _, a in kept))]


def _gather_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape, axis, indices = shapes[0], _int(args, 1), args.values[2]
    _check_rank(shape, 1)
    if shape is None or axis is None:
        return [None]
    where = normalize_axis(axis, len(shape))
    dim = shape[where]
    if indices is not None and dim is not None and indices.size:
        low, high = int(indices.min()), int(indices.max())
        if low < 0 or high >= dim:
            raise OpInvalid(f"indices must lie in [0, {dim}); they span {low}..{high}")
    if shapes[2] is None:
        return [None]
    return [(*shape[:where], *shapes[2], *shape[where + 1 :])]


# PAD, PAD_V2 ----------------------------------------------------------------


def _paddings(args: OpArgs, slot: int, rows: int) -> np.ndarray | None:
    pads = args.values[slot]
    if pads is None:
        return None
    if pads.shape != (rows, 2) or (pads < 0).any():
        raise OpInvalid(
            f"paddings {pads.tolist()} must be {rows} non-negative (before, after) rows"
        )
    return pads.astype(np.int64)


def _pad_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    shape = shapes[0]
    _check_rank(shape, 1, _MAX_RANK)
    if shape is None:
        return [None]
    pads = _paddings(args, 1, len(shape))
    if pads is None:
        return [None]
    return [
        tuple(None if d is None else d + int(p.sum()) for d, p in zip(shape, pads, strict=True))
    ]


def _pad_v2_shape(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
    """PAD's shape; a signed input's pad value (an INT32 in the input's quantization,
    HAL 1.3) must be an int8."""
    value = args.values[2] if len(args.values) > 2 else None
    if args.inputs[0].type == Q8AS and value is not None:
        check_int8_scalar(int(value.item()), "pad value (input 2)")
    return _pad_shape(args, shapes)


# Block rearrangements (rank 4, NHWC or NCHW) --------------------------------


def _layout(args: OpArgs, slot: int) -> bool | None:
    """True for NCHW; None when the layout input is not known yet."""
    if len(args.inputs) <= slot:
        return False
    value = args.values[slot]
    return None if value is None else bool(value.item())


def _to_nhwc(shape: Shape, nchw: bool) -> Shape:
    return (shape[0], shape[2], shape[3], shape[1]) if nchw and shape is not None else shape


def _from_nhwc(shape: Dims, nchw: bool) -> Dims:
    return (shape[0], shape[3], shape[1], shape[2]) if nchw else shape


def _image_op(slot: int, shape_nhwc: Callable[[OpArgs, Dims], Dims]) -> ShapeFn:
    """A rank-4 shape function taking its layout at ``slot``, written for NHWC."""

    def shape_fn(args: OpArgs, shapes: list[Shape]) -> list[Shape]:
        _check_rank(shapes[0], 4, 4)
        nchw = _layout(args, slot)
        if nchw is None:
            return [None]
        shape = _to_nhwc(shapes[0], nchw)
        return [None if shape is None else _from_nhwc(shape_nhwc(args, shape), nchw)]

    return shape_fn


def _block_size(args: OpArgs) -> int | None:
    block = _int(args, 1)
    if block is not None and block < 1:
        raise OpInvalid(f"block size {block} must be positive")
    return block


def _space_to_depth_nhwc(args: OpArgs, shape: Dims) -> Dims:
    n, h, w, c = shape
    b = _block_size(args)
    if b is None:
        return (n, None, None, None)
    return (n, _divide(h, b, "height"), _divide(w, b, "width"), _times(c, b * b))


def _depth_to_space_nhwc(args: OpArgs, shape: Dims) -> Dims:
    n, h, w, c = shape
    b = _block_size(args)
    if b is None:
        return (n, None, None, None)
    return (n, _times(h, b), _times(w, b), _divide(c, b * b, "depth"))


def _block_shape(args: OpArgs) -> tuple[int, int] | None:
    block = _ints(args, 1)
    if block is None:
        return None
    if len(block) != 2 or min(block) < 1:
        raise OpInvalid(f"block shape {block} must be 2 positive sizes")
    return block[0], block[1]


def _space_to_batch_nhwc(args: OpArgs, shape: Dims) -> Dims:
    n, h, w, c = shape
    block, pads = _block_shape(args), _paddings(args, 2, 2)
    if block is None or pads is None:
        return (None, None, None, c)
    (bh, bw), (ph, pw) = block, pads.sum(axis=1).tolist()
    height = _divide(None if h is None else h + ph, bh, "padded height")
    width = _divide(None if w is None else w + pw, bw, "padded width")
    return (_times(n, bh * bw), height, width, c)


def _batch_to_space_nhwc(args: OpArgs, shape: Dims) -> Dims:
    n, h, w, c = shape
    block = _block_shape(args)
    if block is None:
        return (None, None, None, c)
    bh, bw = block
    return (_divide(n, bh * bw, "batch"), _times(h, bh), _times(w, bw), c)


# Registry -------------------------------------------------------------------

_SPECS = (
    _Spec(OperationType.RESHAPE, _reshape_shape),
    _Spec(OperationType.SQUEEZE, _squeeze_shape),
    _Spec(OperationType.EXPAND_DIMS, _expand_dims_shape),
    _Spec(OperationType.TRANSPOSE, _transpose_shape, zero_sized=True),
    _Spec(OperationType.CONCATENATION, _concatenation_shape, forced_quant=False, zero_sized=True),
    _Spec(OperationType.SPLIT, _split_shape),
    _Spec(OperationType.SLICE, _slice_shape, forced_quant=False, zero_sized=True),
    _Spec(OperationType.STRIDED_SLICE, _strided_slice_shape),
    _Spec(OperationType.TILE, _tile_shape),
    _Spec(OperationType.GATHER, _gather_shape, forced_quant=False),
    _Spec(OperationType.PAD, _pad_shape),
    _Spec(OperationType.PAD_V2, _pad_v2_shape),
    _Spec(OperationType.SPACE_TO_DEPTH, _image_op(2, _space_to_depth_nhwc)),
    _Spec(OperationType.DEPTH_TO_SPACE, _image_op(2, _depth_to_space_nhwc)),
    _Spec(OperationType.SPACE_TO_BATCH_ND, _image_op(3, _space_to_batch_nhwc)),
    _Spec(OperationType.BATCH_TO_SPACE_ND, _image_op(2, _batch_to_space_nhwc)),
    _Spec(OperationType.CHANNEL_SHUFFLE, _channel_shuffle_shape),
)

CHECKS = tuple(_check(spec) for spec in _SPECS)
