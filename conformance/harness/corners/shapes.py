"""Families of the operations that move, cut or repeat a tensor's values without computing
new ones: ``shape`` (PAD, SLICE, TRANSPOSE), ``moves`` (SPACE_TO_DEPTH, DEPTH_TO_SPACE,
SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND), ``select`` (SPLIT, GATHER, STRIDED_SLICE) and
``layout`` (CHANNEL_SHUFFLE, EXPAND_DIMS, PAD_V2, RESHAPE, SQUEEZE, TILE)."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    _SCALES,
    _ZERO_POINTS,
    Corner,
    _array,
    _axis_position,
    _Builder,
    _classes,
    _count_classes,
    _exactly,
    _family,
    _floats,
    _scalar,
    _shapes_of,
    _to_nchw,
    oracle,
)
from hal.types import OperandType

# ---------------------------------------------------------------------------
# shape: PAD, SLICE, TRANSPOSE
# ---------------------------------------------------------------------------

_SHAPE_OPERATIONS = ("PAD", "SLICE", "TRANSPOSE")


def _shape_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    rank = len(model.operands[inputs[0]].dimensions)
    dims = list(model.operands[inputs[0]].dimensions)
    classes = [f"rank:{rank}"]
    if name == "TRANSPOSE":
        perm = [int(p) for p in constants[inputs[1]].reshape(-1)]
        if perm == sorted(perm):
            classes.append("perm:identity")
        elif perm == sorted(perm, reverse=True):
            classes.append("perm:reverse")
        else:
            classes.append("perm:other")
    elif name == "PAD":
        pairs = constants[inputs[1]].reshape(-1, 2).tolist()
        if any(before != after for before, after in pairs):
            classes.append("pad:asymmetric")
        classes.append("pad:every-axis" if all(b or a for b, a in pairs) else "pad:some-axes")
    else:
        begin = [int(b) for b in constants[inputs[1]].reshape(-1)]
        size = [int(v) for v in constants[inputs[2]].reshape(-1)]
        if -1 in size:
            classes.append("size:-1")
        if any(b > 0 for b in begin):
            classes.append("slice:offset")
        if any(v != -1 and b + v < d for b, v, d in zip(begin, size, dims, strict=True)):
            classes.append("slice:short-of-end")
    return classes


@_family(
    "shape",
    operations=_SHAPE_OPERATIONS,
    classes=(
        "rank:1", "rank:4", "perm:identity", "perm:reverse", "perm:other", "pad:asymmetric",
        "pad:every-axis", "pad:some-axes", "size:-1", "slice:offset", "slice:short-of-end",
    ),
    classify=_shape_classes,
)  # fmt: skip
@st.composite
def shape(draw, operation: str | None = None) -> Corner:
    """PAD, SLICE and TRANSPOSE, float32, ranks 1-4: paddings of 0-2 on each side of
    each axis, slices anywhere with sizes given or -1 (to the end), any permutation."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_SHAPE_OPERATIONS))
    rank = draw(st.integers(1, 4))
    dims = [draw(st.integers(1, 3)) for _ in range(rank)]
    x = _floats(draw, int(np.prod(dims)))
    builder = _Builder()
    inputs = [_array(x, dims)]
    operands = [builder.input(inputs[0])]
    if operation == "TRANSPOSE":
        perm = draw(st.permutations(list(range(rank))))
        out, out_shape = shapes.transpose(x, dims, perm)
        operands.append(builder.int32s(perm))
        parameters: dict[str, object] = {"input": tuple(dims), "perm": list(perm)}
    elif operation == "PAD":
        paddings = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(rank)]
        out, out_shape = shapes.pad(x, dims, paddings, 0.0)
        operands.append(
            builder.constant(
                OperandType.TENSOR_INT32,
                [rank, 2],
                struct.pack(f"<{2 * rank}i", *(v for pair in paddings for v in pair)),
            )
        )
        parameters = {"input": tuple(dims), "paddings": paddings}
    else:
        begin = [draw(st.integers(0, d - 1)) for d in dims]
        size = [
            draw(st.sampled_from([-1, *range(1, d - b + 1)]))
            for d, b in zip(dims, begin, strict=True)
        ]
        out, out_shape = shapes.slice_(x, dims, begin, size)
        operands += [builder.int32s(begin), builder.int32s(size)]
        parameters = {"input": tuple(dims), "begin": begin, "size": size}
    out_array = _array(out, out_shape)
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "shape", operation, model, inputs, [out_array], _classes(model, [out_array]),
        parameters, "shape_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# moves: BATCH_TO_SPACE_ND, DEPTH_TO_SPACE, SPACE_TO_BATCH_ND, SPACE_TO_DEPTH
# ---------------------------------------------------------------------------

_MOVES = ("BATCH_TO_SPACE_ND", "DEPTH_TO_SPACE", "SPACE_TO_BATCH_ND", "SPACE_TO_DEPTH")
_MOVE_LAYOUT_AT = {"SPACE_TO_BATCH_ND": 3}
"""Where each block rearrangement takes its optional layout (2 for the others)."""


def _move_classes(model, operation, constants, name) -> list[str]:
    """The block rearrangements: layout and input list, the image's batch and channels
    (DEPTH_TO_SPACE: its output's; BATCH_TO_SPACE_ND: the batch its output has), block
    sizes, SPACE_TO_BATCH_ND's paddings."""
    inputs = operation.inputs
    layout_at = _MOVE_LAYOUT_AT.get(name, 2)
    with_layout = len(inputs) > layout_at
    nchw = with_layout and bool(constants[inputs[layout_at]].reshape(-1)[0])
    dims = list(model.operands[inputs[0]].dimensions)
    batch, _, _, channels = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    blocks = [int(v) for v in constants[inputs[1]].reshape(-1)]
    if name in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        (block,) = blocks
        if name == "DEPTH_TO_SPACE" and block > 0:
            channels //= block * block
    else:
        bh, bw = blocks
        if name == "BATCH_TO_SPACE_ND" and bh * bw > 0:
            batch //= bh * bw
    classes = ["layout:nchw" if nchw else "layout:nhwc"]
    classes.append("inputs:layout" if with_layout else "inputs:plain")
    classes += _count_classes(batch, channels)
    if max(blocks) > 2:
        classes.append("block>2")
    if len(blocks) == 2:
        if blocks[0] != blocks[1]:
            classes.append("block:unequal")
        if 1 in blocks:
            classes.append("block:1")
    if name == "SPACE_TO_BATCH_ND":
        (top, bottom), (left, right) = constants[inputs[2]].reshape(2, 2).tolist()
        if not any((top, bottom, left, right)):
            classes.append("pad:none")
        elif top != bottom or left != right:
            classes.append("pad:asymmetric")
    return classes


@_family(
    "moves",
    operations=_MOVES,
    classes=(
        "layout:nchw", "layout:nhwc", "inputs:plain", "inputs:layout", "batch>1", "channels>1",
        "block>2", "block:unequal", "block:1", "pad:none", "pad:asymmetric",
    ),
    classify=_move_classes,
)  # fmt: skip
@st.composite
def moves(draw, operation: str | None = None) -> Corner:
    """SPACE_TO_DEPTH, DEPTH_TO_SPACE (block size 2-3), SPACE_TO_BATCH_ND (a block of 1-3
    per spatial axis, paddings of 0-2 on each side, the padded sizes multiples of the
    block), BATCH_TO_SPACE_ND (a block of 1-3 per axis, the batch a multiple of the block's
    cells), float32: batch 1-2, 1-3 channels, NHWC/NCHW, and both input lists (without the
    HAL 1.2 layout, with it)."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_MOVES))
    batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    form = draw(st.sampled_from(("plain", "layout")))
    nchw = form == "layout" and draw(st.booleans())
    builder = _Builder()
    parameters: dict[str, object] = {}
    if operation in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        block = draw(st.integers(2, 3))
        if operation == "SPACE_TO_DEPTH":
            x_shape = (batch, block * draw(st.integers(1, 2)), block * draw(st.integers(1, 2)), c)
        else:
            x_shape = (batch, draw(st.integers(1, 2)), draw(st.integers(1, 2)), block * block * c)
        x = _floats(draw, int(np.prod(x_shape)))
        move = shapes.space_to_depth if operation == "SPACE_TO_DEPTH" else shapes.depth_to_space
        out, out_shape = move(x, x_shape, block)
        parameters["block size"] = block
    else:
        bh, bw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        parameters["block shape (h, w)"] = (bh, bw)
        if operation == "SPACE_TO_BATCH_ND":
            pads = [(0, 0), (0, 0)]
            if draw(st.integers(0, 3)):  # a quarter of the cases unpadded
                pads = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(2)]
            sizes = []
            for (head, tail), block in zip(pads, (bh, bw), strict=True):
                # The smallest padded size holding a real cell, then maybe one block more.
                cells = (head + tail) // block + 1 + draw(st.integers(0, 1))
                sizes.append(cells * block - head - tail)
            x_shape = (batch, sizes[0], sizes[1], c)
            x = _floats(draw, int(np.prod(x_shape)))
            out, out_shape = shapes.space_to_batch(x, x_shape, (bh, bw), pads, 0.0)
            parameters["paddings ((t, b), (l, r))"] = pads
        else:
            x_shape = (batch * bh * bw, draw(st.integers(1, 2)), draw(st.integers(1, 2)), c)
            x = _floats(draw, int(np.prod(x_shape)))
            out, out_shape = shapes.batch_to_space(x, x_shape, (bh, bw))
    x_nhwc, out_nhwc = _array(x, x_shape), _array(out, out_shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    operands = [builder.input(x_array)]
    if operation in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        operands.append(builder.int32(block))
    else:
        operands.append(builder.int32s([bh, bw]))
    if operation == "SPACE_TO_BATCH_ND":
        flat = [v for pair in pads for v in pair]
        operands.append(
            builder.constant(OperandType.TENSOR_INT32, [2, 2], struct.pack("<4i", *flat))
        )
    if form == "layout":
        operands.append(builder.bool(nchw))
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    parameters = {
        "input": x_shape, **parameters, "layout": "NCHW" if nchw else "NHWC", "inputs": form,
    }  # fmt: skip
    return Corner(
        "moves", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "shape_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# select: GATHER, SPLIT, STRIDED_SLICE
# ---------------------------------------------------------------------------

_SELECTIONS = ("GATHER", "SPLIT", "STRIDED_SLICE")


@st.composite
def _strided_axis(draw, dim: int) -> tuple[int, int, int, bool, bool, bool]:
    """One axis of a STRIDED_SLICE taking at least one element: (begin, end, stride,
    begin masked, end masked, shrunk). The begin and end are drawn as the indexes they
    resolve to, then written plainly, from the end (negative), masked or (an end) beyond
    the axis. Only an axis of positive stride is shrunk."""
    stride = draw(st.sampled_from((1, 2, -1, -2)))
    shrink = stride > 0 and draw(st.booleans())
    begin_masked = draw(st.booleans())
    if begin_masked:
        start = 0 if stride > 0 else dim - 1
        begin = draw(st.integers(-dim, dim - 1))  # ignored: the mask decides
    else:
        start = draw(st.integers(0, dim - 1))
        begin = start - dim if draw(st.booleans()) else start
    if stride > 0:  # the resolved end, past the last element taken
        stop = draw(st.integers(start + 1, min(start + stride, dim) if shrink else dim))
        outside = dim
    else:
        stop = draw(st.integers(-1, start - 1))
        outside = -1
    end_masked = stop == outside and draw(st.booleans())
    if end_masked:
        end = draw(st.integers(-dim, dim))  # ignored: the mask decides
    elif stop == outside:  # past either end of the axis: clamped back to it
        end = dim + draw(st.integers(0, 1)) if stride > 0 else -dim - 1
    else:
        end = stop - dim if draw(st.booleans()) else stop
    return begin, end, stride, begin_masked, end_masked, shrink


def _select_classes(model, operation, constants, name) -> list[str]:
    """SPLIT and GATHER: the axis, the number of outputs, the indices' rank, repeats and
    where they come from; STRIDED_SLICE: strides, begins and ends from the end or beyond
    the axis, and the mask bits set (a mask bit only counts on an axis of the input)."""
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    rank = len(dims)
    if not rank:
        raise ValueError("an input of unknown rank")  # no axis to read against
    classes = [f"rank:{rank}"]
    if name in ("SPLIT", "GATHER"):
        classes += _axis_position(int(constants[inputs[1]].reshape(-1)[0]), rank)
    if name == "SPLIT":
        classes.append("splits:several" if len(operation.outputs) > 1 else "splits:1")
    elif name == "GATHER":
        where = inputs[2]
        classes.append(f"indices:rank-{len(model.operands[where].dimensions)}")
        if where in model.input_indexes:
            classes.append("indices:model-input")
        elif where in constants:
            classes.append("indices:constant")
            picked = constants[where].reshape(-1).tolist()
            if len(set(picked)) < len(picked):
                classes.append("indices:repeated")
    elif name == "STRIDED_SLICE":
        begin, end, strides = (
            [int(v) for v in constants[inputs[k]].reshape(-1)] for k in (1, 2, 3)
        )
        every = (1 << rank) - 1
        begin_mask, end_mask, shrink = (
            int(constants[inputs[k]].reshape(-1)[0]) & every for k in (4, 5, 6)
        )
        if any(s < 0 for s in strides):
            classes.append("stride:negative")
        if any(abs(s) > 1 for s in strides):
            classes.append("stride>1")
        plain_begins = [b for axis, b in enumerate(begin) if not begin_mask >> axis & 1]
        plain_ends = [
            (e, d) for axis, (e, d) in enumerate(zip(end, dims, strict=True))
            if not end_mask >> axis & 1
        ]  # fmt: skip
        if any(b < 0 for b in plain_begins):
            classes.append("begin:negative")
        if any(e < 0 for e, _ in plain_ends):
            classes.append("end:negative")
        if any(e > d or e < -d for e, d in plain_ends):
            classes.append("end:beyond")
        for mask, label in ((begin_mask, "begin"), (end_mask, "end"), (shrink, "shrink")):
            if mask:
                classes.append(f"mask:{label}")
    return classes


@_family(
    "select",
    operations=_SELECTIONS,
    classes=(
        "rank:1", "rank:4", "axis:negative", "axis:first", "axis:inner", "axis:last", "splits:1",
        "splits:several", "indices:rank-2", "indices:repeated", "indices:model-input",
        "indices:constant", "stride:negative", "stride>1", "begin:negative", "end:negative",
        "end:beyond", "mask:begin", "mask:end", "mask:shrink",
    ),
    classify=_select_classes,
)  # fmt: skip
@st.composite
def select(draw, operation: str | None = None) -> Corner:
    """SPLIT, GATHER and STRIDED_SLICE, float32, ranks 1-4: SPLIT into 1-3 outputs along
    an axis counted from either end; GATHER along an axis counted from either end, its
    indices of rank 1-2 with repeats, a model input or a constant (the output of rank 4 at
    most); STRIDED_SLICE with begins and ends counted from either end or beyond the axis,
    strides of 1-2 either way, and begin, end and shrink-axis mask bits."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_SELECTIONS))
    builder = _Builder()
    if operation == "GATHER":
        indices_rank = draw(st.integers(1, 2))
        rank = draw(st.integers(1, 5 - indices_rank))
    else:
        rank = draw(st.integers(1, 4))
    dims = [draw(st.integers(1, 3 if operation != "STRIDED_SLICE" else 4)) for _ in range(rank)]
    chosen = draw(st.integers(-rank, rank - 1))
    parameters: dict[str, object] = {}
    if operation == "SPLIT":
        count = draw(st.integers(1, 3))
        dims[chosen] = count * draw(st.integers(1, 2))
        x = _floats(draw, int(np.prod(dims)))
        inputs = [_array(x, dims)]
        operands = [builder.input(inputs[0]), builder.int32(chosen), builder.int32(count)]
        outputs = [
            _array(values, part) for values, part in shapes.split(x, dims, chosen % rank, count)
        ]
        parameters = {"input": tuple(dims), "axis": chosen, "num_splits": count}
    elif operation == "GATHER":
        indices_shape = [draw(st.integers(1, 3)) for _ in range(indices_rank)]
        size = int(np.prod(indices_shape))
        limit = dims[chosen] - 1
        picked = draw(_exactly(st.integers(0, limit), size))
        x = _floats(draw, int(np.prod(dims)))
        indices = _array(picked, indices_shape, np.int32)
        as_input = draw(st.booleans())
        inputs = [_array(x, dims)]
        operands = [builder.input(inputs[0]), builder.int32(chosen)]
        if as_input:
            operands.append(builder.input(indices, OperandType.TENSOR_INT32))
            inputs.append(indices)
        else:
            operands.append(
                builder.constant(OperandType.TENSOR_INT32, indices_shape, indices.tobytes())
            )
        out, out_shape = shapes.gather(x, dims, chosen % rank, picked, indices_shape)
        outputs = [_array(out, out_shape)]
        parameters = {
            "input": tuple(dims), "axis": chosen, "indices": indices.tolist(),
            "indices given as": "model input" if as_input else "constant",
        }  # fmt: skip
    else:
        axes = [draw(_strided_axis(d)) for d in dims]
        begin, end, strides = ([a[k] for a in axes] for k in range(3))
        begin_mask, end_mask, shrink = (
            sum(1 << i for i, a in enumerate(axes) if a[k]) for k in range(3, 6)
        )
        if shrink == (1 << rank) - 1:  # keep one axis: no output of rank 0
            shrink &= ~(1 << (rank - 1))
        x = _floats(draw, int(np.prod(dims)))
        out, out_shape = shapes.strided_slice(
            x, dims, begin, end, strides, begin_mask, end_mask, shrink
        )
        inputs = [_array(x, dims)]
        operands = [builder.input(inputs[0])]
        operands += [builder.int32s(v) for v in (begin, end, strides)]
        operands += [builder.int32(v) for v in (begin_mask, end_mask, shrink)]
        outputs = [_array(out, out_shape)]
        parameters = {
            "input": tuple(dims), "begin": begin, "end": end, "strides": strides,
            "begin_mask": begin_mask, "end_mask": end_mask, "shrink_axis_mask": shrink,
        }  # fmt: skip
    for out_array in outputs:
        builder.output(out_array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "select", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        "shape_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# layout: CHANNEL_SHUFFLE, EXPAND_DIMS, PAD_V2, RESHAPE, SQUEEZE, TILE
# ---------------------------------------------------------------------------

_LAYOUTS = ("CHANNEL_SHUFFLE", "EXPAND_DIMS", "PAD_V2", "RESHAPE", "SQUEEZE", "TILE")


def _layout_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    rank = len(dims)
    out_rank = len(model.operands[operation.outputs[0]].dimensions)
    classes = [f"rank:{rank}"]
    if name == "CHANNEL_SHUFFLE":
        groups, chosen = _scalar(constants, inputs[1]), _scalar(constants, inputs[2])
        classes += _axis_position(chosen, rank)
        channels = dims[chosen % rank]
        classes.append(
            "groups:1" if groups == 1 else "groups:all" if groups == channels else "groups:some"
        )
    elif name == "EXPAND_DIMS":
        chosen = _scalar(constants, inputs[1])
        classes += ["axis:negative"] if chosen < 0 else []
        position = chosen + rank + 1 if chosen < 0 else chosen
        classes.append(
            "axis:prepend" if position == 0 else "axis:append" if position == rank else "axis:inner"
        )
    elif name == "PAD_V2":
        pairs = constants[inputs[1]].reshape(-1, 2).tolist()
        if any(before != after for before, after in pairs):
            classes.append("pad:asymmetric")
        fill = constants[inputs[2]].reshape(-1)[0]
        classes.append("pad-value:nonzero" if fill != 0 else "pad-value:zero")
    elif name == "RESHAPE":
        given = [int(v) for v in constants[inputs[1]].reshape(-1)]
        classes += ["shape:-1"] if -1 in given else []
        classes.append("rank:changes" if out_rank != rank else "rank:kept")
    elif name == "SQUEEZE":
        given = [int(v) for v in constants[inputs[1]].reshape(-1)]
        classes += ["axis:negative"] if any(a < 0 for a in given) else []
        ones = sum(d == 1 for d in dims)
        classes.append("squeeze:every-1" if len(set(given)) == ones else "squeeze:some-1")
    else:
        multiples = [int(v) for v in constants[inputs[1]].reshape(-1)]
        classes.append("multiples:all-1" if set(multiples) == {1} else "multiples>1")
    kinds = {OperandType.TENSOR_INT32: "type:int32", OperandType.TENSOR_QUANT8_ASYMM: "quant8"}
    kind = kinds.get(model.operands[inputs[0]].type)
    return classes + ([kind] if kind else [])


@_family(
    "layout",
    operations=_LAYOUTS,
    classes=(
        "rank:1", "rank:4", "axis:negative", "axis:first", "axis:inner", "axis:last",
        "axis:prepend", "axis:append", "groups:1", "groups:all", "groups:some", "pad:asymmetric",
        "pad-value:nonzero", "shape:-1", "rank:changes", "squeeze:every-1", "squeeze:some-1",
        "multiples>1", "type:int32", "quant8",
    ),
    classify=_layout_classes,
)  # fmt: skip
@st.composite
def layout(draw, operation: str | None = None) -> Corner:
    """CHANNEL_SHUFFLE, EXPAND_DIMS, PAD_V2, RESHAPE, SQUEEZE, TILE, float32 (PAD_V2 and
    TILE also TENSOR_QUANT8_ASYMM, TILE also TENSOR_INT32), ranks 1-4: shuffles of 1 to
    all channels in groups along an axis counted from either end; a size-1 axis inserted
    anywhere (prepended, appended, counted from either end); padding of 0-2 on each side
    with a value of its own (for quant8 a byte); reshapes to any rank holding the same
    elements, one size given as -1 or not; squeezes of some or all size-1 axes named
    from either end; tiles of 1-3 along each axis."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_LAYOUTS))
    low = 2 if operation == "SQUEEZE" else 1  # a size-1 axis to squeeze, another kept
    rank = draw(st.integers(low, 3 if operation == "EXPAND_DIMS" else 4))
    dims = [draw(st.integers(1, 3)) for _ in range(rank)]
    parameters: dict[str, object] = {}
    if operation == "SQUEEZE" and (1 not in dims or set(dims) == {1}):
        dims = [1, *[d + 1 for d in dims[1:]]]
    kind = "float32"
    if operation in ("PAD_V2", "TILE"):
        kind = draw(st.sampled_from(["float32", "quant8", *(["int32"] * (operation == "TILE"))]))
    count = int(np.prod(dims))
    builder = _Builder()
    if kind == "quant8":
        scale, zero_point = draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)
        x = draw(_exactly(st.integers(0, 255), count))
        x_array = _array(x, dims, np.uint8)
        quant = (OperandType.TENSOR_QUANT8_ASYMM, scale, zero_point)
        parameters["quant (scale, zero point)"] = (scale, zero_point)
    elif kind == "int32":
        x = draw(_exactly(st.integers(-(2**31), 2**31 - 1), count))
        x_array = _array(x, dims, np.int32)
        quant = (OperandType.TENSOR_INT32,)
    else:
        x = _floats(draw, count)
        x_array = _array(x, dims)
        quant = ()
    operands = [builder.input(x_array, *quant)]
    parameters["input"] = tuple(dims)
    if operation == "CHANNEL_SHUFFLE":
        chosen = draw(st.integers(-rank, rank - 1))
        groups, size = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        dims[chosen] = groups * size
        x = _floats(draw, int(np.prod(dims)))
        x_array = _array(x, dims)
        builder = _Builder()
        out, out_shape = shapes.channel_shuffle(x, dims, groups, chosen % rank)
        operands = [builder.input(x_array), builder.int32(groups), builder.int32(chosen)]
        parameters = {"input": tuple(dims), "groups": groups, "axis": chosen}
    elif operation == "EXPAND_DIMS":
        chosen = draw(st.integers(-(rank + 1), rank))
        position = chosen + rank + 1 if chosen < 0 else chosen
        out, out_shape = x, [*dims[:position], 1, *dims[position:]]
        operands.append(builder.int32(chosen))
        parameters["axis"] = chosen
    elif operation == "PAD_V2":
        paddings = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(rank)]
        if kind == "quant8":
            fill = draw(st.integers(0, 255))
            value = builder.int32(fill)
        else:
            fill = draw(st.integers(-8, 8)) / 2
            value = builder.float32(fill)
        out, out_shape = shapes.pad(x, dims, paddings, fill)
        operands += [
            builder.constant(
                OperandType.TENSOR_INT32,
                [rank, 2],
                struct.pack(f"<{2 * rank}i", *(v for pair in paddings for v in pair)),
            ),
            value,
        ]
        parameters.update(paddings=paddings, value=fill)
    elif operation == "RESHAPE":
        target = list(draw(st.sampled_from(_shapes_of(count, draw(st.integers(1, 4))))))
        given = list(target)
        if draw(st.booleans()):
            given[draw(st.integers(0, len(given) - 1))] = -1
        out, out_shape = x, shapes.reshape_dims(count, given)
        operands.append(builder.int32s(given))
        parameters["shape"] = given
    elif operation == "SQUEEZE":
        ones = [i for i, d in enumerate(dims) if d == 1]
        picked = draw(st.lists(st.sampled_from(ones), min_size=1, max_size=len(ones), unique=True))
        if len(picked) == rank:
            picked = picked[:-1]
        given = [a - rank if draw(st.booleans()) else a for a in picked]
        out, out_shape = x, [d for i, d in enumerate(dims) if i not in picked]
        operands.append(builder.int32s(given))
        parameters["axes"] = given
    else:
        multiples = [draw(st.integers(1, 3)) for _ in range(rank)]
        out, out_shape = shapes.tile(x, dims, multiples)
        operands.append(builder.int32s(multiples))
        parameters["multiples"] = multiples
    out_array = _array(out, out_shape, x_array.dtype)
    builder.output(out_array.shape, *quant)
    model = builder.model(operation, operands)
    return Corner(
        "layout", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "shape_oracle",
    )  # fmt: skip
