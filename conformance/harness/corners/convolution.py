"""Families of the operations that slide a window over an image, and FULLY_CONNECTED:
``conv2d`` (CONV_2D, DEPTHWISE_CONV_2D), ``pool2d`` (the three 2-D pools), ``convx``
(GROUPED_CONV_2D, TRANSPOSE_CONV_2D) and ``dense``. The convolutions and the pools share how
a padding scheme is named and how their models are read (``_window_classes``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    ACTIVATIONS,
    Corner,
    _activation,
    _array,
    _Builder,
    _classes,
    _count_classes,
    _family,
    _floats,
    _quant_classes_of,
    _scalar,
    _shapes_of,
    _to_nchw,
    oracle,
)
from hal.types import OperandType

# ---------------------------------------------------------------------------
# Shared by the convolutions and the pools
# ---------------------------------------------------------------------------

_PADDING_CODES = {"SAME": 1, "VALID": 2}


def _padding_class(heads: Sequence[int], tails: Sequence[int], implicit: str) -> str:
    if implicit == "VALID":
        return "padding:valid"
    totals = [h + t for h, t in zip(heads, tails, strict=True)]
    if implicit == "SAME":
        return "padding:same-odd" if any(t % 2 for t in totals) else "padding:same-even"
    return "padding:explicit-asymmetric" if heads != tails else "padding:explicit"


def _common_classes(batch: int, channels: int, strides, dilations) -> list[str]:
    classes = _count_classes(batch, channels)
    if max(strides) > 1:
        classes.append("stride>1")
    if max(dilations) > 1:
        classes.append("dilation>1")
        if max(strides) > 1:
            classes.append("dilation>1+stride>1")
    return classes


def _window_classes(model, operation, constants, name) -> list[str]:
    """The convolutions and the 2-D pools: padding, strides, dilations, layout, batch,
    channels, depth multiplier, which input list."""
    inputs = operation.inputs
    count = len(inputs)
    kind = {"CONV_2D": "conv", "DEPTHWISE_CONV_2D": "depthwise"}.get(name, "pool")
    first = 1 if kind == "pool" else 3  # the first padding input
    bool_at = lambda i: count > i and model.operands[inputs[i]].type == OperandType.BOOL  # noqa: E731
    if kind == "conv":  # 10 inputs: explicit without a layout, or implicit with dilations
        explicit = count in (11, 13) or (count == 10 and not bool_at(7))
    elif kind == "depthwise":
        explicit = count >= 11 and not bool_at(8)
    else:
        explicit = count in (10, 11)
    strides_at = first + (4 if explicit else 1)
    value = functools.partial(_scalar, constants)
    sw, sh = value(inputs[strides_at]), value(inputs[strides_at + 1])
    multiplier = 1
    if kind == "pool":
        fw, fh = value(inputs[strides_at + 2]), value(inputs[strides_at + 3])
        act_at = strides_at + 4
    else:
        _, fh, fw, _ = model.operands[inputs[1]].dimensions
        act_at = strides_at + 2
        if kind == "depthwise":
            multiplier = value(inputs[act_at])
            act_at += 1
    layout_at = act_at + 1
    nchw = count > layout_at and bool(value(inputs[layout_at]))
    dilated = kind != "pool" and count > layout_at + 2
    dw, dh = (value(inputs[layout_at + 1]), value(inputs[layout_at + 2])) if dilated else (1, 1)
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, c = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    if explicit:
        pl, pr, pt, pb = (value(inputs[first + k]) for k in range(4))
        padding = _padding_class((pt, pl), (pb, pr), "explicit")
    else:
        scheme = {1: "SAME", 2: "VALID"}[value(inputs[first])]
        same = oracle("convolution_oracle").same_padding
        (pt, pb), (pl, pr) = same(h, sh, fh, dh), same(w, sw, fw, dw)
        padding = _padding_class((pt, pl), (pb, pr), scheme)
    classes = [padding]
    classes += _common_classes(batch, c, (sh, sw), (dh, dw))
    classes += _activation(constants, inputs, act_at)
    classes.append("layout:nchw" if nchw else "layout:nhwc")
    if kind != "pool":
        classes.append(
            "inputs:dilations"
            if dilated
            else "inputs:layout"
            if count > layout_at
            else "inputs:plain"
        )
    if multiplier > 1:
        classes.append("multiplier>1")
    if kind == "pool" and (fh > sh or fw > sw):
        classes.append("window>stride")
    classes += _quant_classes_of(model, inputs[:1])
    return classes


# ---------------------------------------------------------------------------
# conv2d: CONV_2D, DEPTHWISE_CONV_2D
# ---------------------------------------------------------------------------

_CONV_FORMS = ("plain", "layout", "dilations")
"""The input lists drawn: without the HAL 1.2 inputs, with the layout, with layout and
dilations."""


@_family(
    "conv2d",
    operations=("CONV_2D", "DEPTHWISE_CONV_2D"),
    classes=(
        "padding:same-odd", "padding:same-even", "padding:valid", "padding:explicit",
        "padding:explicit-asymmetric", "stride>1", "dilation>1", "dilation>1+stride>1", "batch>1",
        "channels>1", "layout:nchw", "layout:nhwc", "activation:relu6", "inputs:plain",
        "inputs:layout", "inputs:dilations", "multiplier>1",
    ),
    classify=_window_classes,
)  # fmt: skip
@st.composite
def conv2d(draw, operation: str | None = None) -> Corner:
    """CONV_2D and DEPTHWISE_CONV_2D, float32: implicit (SAME/VALID) or explicit padding,
    strides, dilations, NHWC/NCHW, batch and channel counts, depth multipliers, fused
    activations, and the three input lists (without the layout, with it, with dilations)."""
    conv = oracle("convolution_oracle")
    operation = operation or draw(st.sampled_from(["CONV_2D", "DEPTHWISE_CONV_2D"]))
    depthwise = operation == "DEPTHWISE_CONV_2D"
    batch, cin = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    multiplier = draw(st.integers(1, 2)) if depthwise else 1
    cout = cin * multiplier if depthwise else draw(st.integers(1, 2))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    form = draw(st.sampled_from(_CONV_FORMS))
    dh, dw = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) if form == "dilations" else (1, 1)
    nchw = form != "plain" and draw(st.booleans())
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    h = draw(st.integers((fh - 1) * dh + 1 if scheme == "VALID" else 1, 6))
    w = draw(st.integers((fw - 1) * dw + 1 if scheme == "VALID" else 1, 6))
    if scheme == "explicit":
        # Each pad below the effective filter size of its axis (a CPU precondition).
        eh, ew = (fh - 1) * dh + 1, (fw - 1) * dw + 1
        pt, pb = draw(st.integers(0, eh - 1)), draw(st.integers(0, eh - 1))
        pl, pr = draw(st.integers(0, ew - 1)), draw(st.integers(0, ew - 1))
        h, w = max(h, eh - pt - pb), max(w, ew - pl - pr)
    elif scheme == "SAME":
        pt, pb = conv.same_padding(h, sh, fh, dh)
        pl, pr = conv.same_padding(w, sw, fw, dw)
    else:
        pl = pr = pt = pb = 0
    act = draw(st.integers(0, 3))
    x = _floats(draw, batch * h * w * cin)
    f = _floats(draw, cout * fh * fw * (1 if depthwise else cin))
    bias = _floats(draw, cout)
    x_shape, pads = (batch, h, w, cin), (pl, pr, pt, pb)
    if depthwise:
        f_shape = (1, fh, fw, cout)
        out, shape = conv.depthwise_conv(
            x, x_shape, f, f_shape, bias, pads, (sw, sh), multiplier, (dw, dh), act
        )
    else:
        f_shape = (cout, fh, fw, cin)
        out, shape = conv.grouped_conv(
            x, x_shape, f, f_shape, bias, pads, (sw, sh), (dw, dh), 1, act
        )
    x_nhwc, out_nhwc = _array(x, x_shape), _array(out, shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    b = _Builder()
    operands = [b.input(x_array), b.tensor(_array(f, f_shape)), b.tensor(_array(bias, (cout,)))]
    if scheme == "explicit":
        operands += [b.int32(v) for v in (pl, pr, pt, pb)]
    else:
        operands.append(b.int32(_PADDING_CODES[scheme]))
    operands += [b.int32(sw), b.int32(sh)]
    if depthwise:
        operands.append(b.int32(multiplier))
    operands.append(b.int32(act))
    if form != "plain":
        operands.append(b.bool(nchw))
    if form == "dilations":
        operands += [b.int32(dw), b.int32(dh)]
    b.output(out_array.shape)
    model = b.model(operation, operands)
    parameters = {
        "input": x_shape, "filter": f_shape, "padding": scheme, "pads (l, r, t, b)": pads,
        "strides (w, h)": (sw, sh), "dilations (w, h)": (dw, dh),
        "activation": ACTIVATIONS[act], "layout": "NCHW" if nchw else "NHWC",
        "inputs": form,
    }  # fmt: skip
    if depthwise:
        parameters["depth multiplier"] = multiplier
    return Corner(
        "conv2d", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "convolution_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# pool2d: AVERAGE_POOL_2D, L2_POOL_2D, MAX_POOL_2D
# ---------------------------------------------------------------------------

_POOLS = {"AVERAGE_POOL_2D": "avg", "MAX_POOL_2D": "max", "L2_POOL_2D": "l2"}


@_family(
    "pool2d",
    operations=tuple(sorted(_POOLS)),
    classes=(
        "padding:same-odd", "padding:same-even", "padding:valid", "padding:explicit-asymmetric",
        "stride>1", "window>stride", "batch>1", "channels>1", "layout:nchw", "activation:relu1",
    ),
    classify=_window_classes,
)  # fmt: skip
@st.composite
def pool2d(draw, operation: str | None = None) -> Corner:
    """AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D, float32: implicit or explicit padding,
    strides, window sizes, NHWC/NCHW, batch and channel counts, fused activations."""
    pools = oracle("pooling_oracle")
    operation = operation or draw(st.sampled_from(sorted(_POOLS)))
    batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    h = draw(st.integers(fh if scheme == "VALID" else 1, 6))
    w = draw(st.integers(fw if scheme == "VALID" else 1, 6))
    if scheme == "explicit":
        # A pad smaller than the window: every window holds an in-image cell.
        pt, pb = draw(st.integers(0, fh - 1)), draw(st.integers(0, fh - 1))
        pl, pr = draw(st.integers(0, fw - 1)), draw(st.integers(0, fw - 1))
        if h + pt + pb < fh or w + pl + pr < fw:
            h, w = max(h, fh), max(w, fw)
        pads = (pt, pb, pl, pr)
    else:
        pads = pools.implicit_pads((batch, h, w, c), scheme, (sh, sw), (fh, fw))
    act = draw(st.integers(0, 3))
    with_layout = draw(st.booleans())  # without it: the input list of HAL 1.0
    nchw = with_layout and draw(st.booleans())
    x = _floats(draw, batch * h * w * c)
    out, shape = pools.pool(_POOLS[operation], x, (batch, h, w, c), pads, (sh, sw), (fh, fw), act)
    x_nhwc, out_nhwc = _array(x, (batch, h, w, c)), _array(out, shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    b = _Builder()
    operands = [b.input(x_array)]
    pt, pb, pl, pr = pads
    if scheme == "explicit":
        operands += [b.int32(v) for v in (pl, pr, pt, pb)]
    else:
        operands.append(b.int32(_PADDING_CODES[scheme]))
    operands += [b.int32(v) for v in (sw, sh, fw, fh, act)]
    if with_layout:
        operands.append(b.bool(nchw))
    b.output(out_array.shape)
    model = b.model(operation, operands)
    classes = _classes(model, [out_array])
    parameters = {
        "input": (batch, h, w, c), "window (w, h)": (fw, fh), "padding": scheme,
        "pads (l, r, t, b)": (pl, pr, pt, pb), "strides (w, h)": (sw, sh),
        "activation": ACTIVATIONS[act], "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    return Corner(
        "pool2d", operation, model, [x_array], [out_array], classes, parameters,
        "pooling_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# convx: GROUPED_CONV_2D, TRANSPOSE_CONV_2D
# ---------------------------------------------------------------------------

_CONVX = ("GROUPED_CONV_2D", "TRANSPOSE_CONV_2D")


@dataclass
class _ConvxCase:
    """A drawn GROUPED_CONV_2D or TRANSPOSE_CONV_2D case, NHWC, before the model is built."""

    x: list[float]
    x_shape: tuple[int, ...]
    f: list[float]
    f_shape: tuple[int, ...]
    bias: list[float]
    out: list[float]
    shape: tuple[int, ...]
    scalars: list[int]
    """The INT32 inputs after the bias (and the output-shape tensor), in order."""
    requested: tuple[int, int] | None
    """The implicit TRANSPOSE_CONV_2D's output size (height, width), for its shape tensor."""
    parameters: dict[str, object]


def _grouped_conv(draw, conv, batch: int, act: int) -> _ConvxCase:
    """A GROUPED_CONV_2D case."""
    groups = draw(st.integers(1, 3))
    per_group_in, per_group_out = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    cin, cout = groups * per_group_in, groups * per_group_out
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    h = draw(st.integers(fh if scheme == "VALID" else 1, 5))
    w = draw(st.integers(fw if scheme == "VALID" else 1, 5))
    if scheme == "explicit":
        # Each pad below the filter size of its axis (a CPU precondition).
        pt, pb = draw(st.integers(0, fh - 1)), draw(st.integers(0, fh - 1))
        pl, pr = draw(st.integers(0, fw - 1)), draw(st.integers(0, fw - 1))
        h, w = max(h, fh - pt - pb), max(w, fw - pl - pr)
    elif scheme == "SAME":
        (pt, pb), (pl, pr) = conv.same_padding(h, sh, fh), conv.same_padding(w, sw, fw)
    else:
        pl = pr = pt = pb = 0
    x_shape, f_shape = (batch, h, w, cin), (cout, fh, fw, per_group_in)
    x = _floats(draw, batch * h * w * cin)
    f = _floats(draw, cout * fh * fw * per_group_in)
    bias = _floats(draw, cout)
    out, shape = conv.grouped_conv(
        x, x_shape, f, f_shape, bias, (pl, pr, pt, pb), (sw, sh), (1, 1), groups, act
    )
    scalars = [pl, pr, pt, pb] if scheme == "explicit" else [_PADDING_CODES[scheme]]
    scalars += [sw, sh, groups, act]
    parameters = {
        "input": x_shape, "filter": f_shape, "groups": groups, "padding": scheme,
        "pads (l, r, t, b)": (pl, pr, pt, pb), "strides (w, h)": (sw, sh),
    }  # fmt: skip
    return _ConvxCase(x, x_shape, f, f_shape, bias, out, shape, scalars, None, parameters)


def _transpose_conv(draw, conv, batch: int, act: int) -> _ConvxCase:
    """A TRANSPOSE_CONV_2D case."""
    cin, cout = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    requested: tuple[int, int] | None = None
    if scheme == "SAME":
        # The input a requested size needs (ceil(size / stride)): then it is honoured.
        requested = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        h, w = (-(-size // stride) for size, stride in zip(requested, (sh, sw), strict=True))
        (pt, pb), (pl, pr) = (
            conv.transpose_same_padding(size, stride, f)
            for size, stride, f in zip(requested, (sh, sw), (fh, fw), strict=True)
        )
    else:
        h, w = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        pl = pr = pt = pb = 0
        if scheme == "explicit":
            # Heads of 0 to filter - 1; tails from -1 (one more output row or column,
            # bias only) up to what keeps the output at least 1 long.
            pt, pl = draw(st.integers(0, fh - 1)), draw(st.integers(0, fw - 1))
            pb = draw(st.integers(-1, min(fh - 1, (h - 1) * sh + fh - pt - 1)))
            pr = draw(st.integers(-1, min(fw - 1, (w - 1) * sw + fw - pl - 1)))
    x_shape, f_shape = (batch, h, w, cin), (cout, fh, fw, cin)
    x = _floats(draw, batch * h * w * cin)
    f = _floats(draw, cout * fh * fw * cin)
    bias = _floats(draw, cout)
    out, shape = conv.transpose_conv(x, x_shape, f, f_shape, bias, (pl, pr, pt, pb), (sw, sh), act)
    if scheme == "VALID":  # the formula's size: VALID leaves the requested one unused
        requested = (shape[1], shape[2])
    scalars = [pl, pr, pt, pb] if scheme == "explicit" else [_PADDING_CODES[scheme]]
    scalars += [sw, sh, act]
    parameters = {
        "input": x_shape, "filter": f_shape, "padding": scheme,
        "pads (l, r, t, b)": (pl, pr, pt, pb), "strides (w, h)": (sw, sh),
    }  # fmt: skip
    if requested is not None:
        parameters["output shape (h, w)"] = requested
    return _ConvxCase(x, x_shape, f, f_shape, bias, out, shape, scalars, requested, parameters)


def _convx_classes(model, operation, constants, name) -> list[str]:
    """GROUPED_CONV_2D and TRANSPOSE_CONV_2D: padding (TRANSPOSE_CONV_2D's implicit SAME
    read from its output-shape tensor; a negative tail), strides (beyond the filter: output
    cells no tap reaches), groups (depthwise-like: one input channel each), layout, batch,
    channels, activation."""
    inputs = operation.inputs
    count = len(inputs)
    transpose = name == "TRANSPOSE_CONV_2D"
    explicit = count == (11 if transpose else 12)
    with_shape = transpose and not explicit
    first = 3 + with_shape  # the first padding input
    strides_at = first + (4 if explicit else 1)
    value = functools.partial(_scalar, constants)
    sw, sh = value(inputs[strides_at]), value(inputs[strides_at + 1])
    act_at = strides_at + 2 + (not transpose)
    nchw = bool(value(inputs[act_at + 1]))
    cout, fh, fw, per_group_in = model.operands[inputs[1]].dimensions
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, c = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    if explicit:
        pl, pr, pt, pb = (value(inputs[first + k]) for k in range(4))
        classes = [_padding_class((pt, pl), (pb, pr), "explicit")]
    else:
        scheme = {1: "SAME", 2: "VALID"}[value(inputs[first])]
        conv = oracle("convolution_oracle")
        if scheme == "VALID":
            pt = pb = pl = pr = 0
        elif transpose:
            requested = [int(v) for v in constants[inputs[3]].reshape(-1)]
            rh, rw = requested[2:4] if nchw else requested[1:3]
            (pt, pb), (pl, pr) = (
                conv.transpose_same_padding(rh, sh, fh),
                conv.transpose_same_padding(rw, sw, fw),
            )
        else:
            (pt, pb), (pl, pr) = conv.same_padding(h, sh, fh), conv.same_padding(w, sw, fw)
        classes = [_padding_class((pt, pl), (pb, pr), scheme)]
        if with_shape:
            classes.append("output-shape:tensor")
    if classes[0] != "padding:valid" and min(pb, pr) < 0:
        classes.append("padding:negative-tail")
    classes += _common_classes(batch, c, (sh, sw), (1, 1))
    if transpose and (sh > fh or sw > fw):
        classes.append("stride>filter")
    if not transpose:
        groups = value(inputs[act_at - 1])
        classes.append("groups>1" if groups > 1 else "groups:1")
        if groups > 1 and per_group_in == 1:
            classes.append("groups:depthwise-like")
        if cout > groups:
            classes.append("groups:outputs>1")
    classes += _activation(constants, inputs, act_at)
    classes.append("layout:nchw" if nchw else "layout:nhwc")
    return classes


@_family(
    "convx",
    operations=_CONVX,
    classes=(
        "groups:1", "groups>1", "groups:depthwise-like", "groups:outputs>1", "output-shape:tensor",
        "padding:same-odd", "padding:same-even", "padding:valid", "padding:explicit",
        "padding:explicit-asymmetric", "padding:negative-tail", "stride>1", "stride>filter",
        "batch>1", "channels>1", "layout:nchw", "layout:nhwc", "activation:relu1",
        "activation:relu6",
    ),
    classify=_convx_classes,
)  # fmt: skip
@st.composite
def convx(draw, operation: str | None = None) -> Corner:
    """GROUPED_CONV_2D and TRANSPOSE_CONV_2D, float32, batch 1-2, NHWC/NCHW, fused
    activations. GROUPED_CONV_2D: 1-3 groups of 1-2 input and 1-2 output channels each,
    filter 1-3, strides 1-2, SAME, VALID or explicit pads (below the filter size).
    TRANSPOSE_CONV_2D: 1-3 input and 1-2 output channels, filter 1-3, strides 1-3, explicit
    pads (a tail of -1 included) or the implicit form's output-shape tensor with SAME (the
    input ceil(size / stride), so the requested size is the output's) or VALID (the tensor
    holding the size the formula gives)."""
    conv = oracle("convolution_oracle")
    operation = operation or draw(st.sampled_from(_CONVX))
    batch, act, nchw = draw(st.integers(1, 2)), draw(st.integers(0, 3)), draw(st.booleans())
    draw_case = _grouped_conv if operation == "GROUPED_CONV_2D" else _transpose_conv
    case = draw_case(draw, conv, batch, act)
    x_nhwc, out_nhwc = _array(case.x, case.x_shape), _array(case.out, case.shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    b = _Builder()
    cout = case.f_shape[0]
    operands = [b.input(x_array), b.tensor(_array(case.f, case.f_shape))]
    operands.append(b.tensor(_array(case.bias, (cout,))))
    if case.requested is not None:  # in the chosen layout; only its height and width count
        rh, rw = case.requested
        operands.append(b.int32s([batch, cout, rh, rw] if nchw else [batch, rh, rw, cout]))
    operands += [b.int32(v) for v in case.scalars]
    operands.append(b.bool(nchw))
    b.output(out_array.shape)
    model = b.model(operation, operands)
    parameters = {**case.parameters, "activation": ACTIVATIONS[act]}
    parameters["layout"] = "NCHW" if nchw else "NHWC"
    return Corner(
        "convx", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "convolution_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# dense: FULLY_CONNECTED
# ---------------------------------------------------------------------------


def _dense_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    units, size = model.operands[inputs[1]].dimensions
    classes = [f"rank:{len(dims)}"]
    if int(np.prod(dims)) // size > 1:
        classes.append("batch>1")
    if units > 1:
        classes.append("units>1")
    return classes + _activation(constants, inputs, 3)


@_family(
    "dense",
    operations=("FULLY_CONNECTED",),
    classes=(
        "rank:2", "rank:4", "batch>1", "units>1", "activation:none", "activation:relu",
        "activation:relu1", "activation:relu6",
    ),
    classify=_dense_classes,
)  # fmt: skip
@st.composite
def dense(draw, operation: str | None = None) -> Corner:
    """FULLY_CONNECTED, float32: an input of rank 2-4 flattened into rows of the weights'
    input size (batch 1-3, so a rank-4 input of several rows), 1-3 units, a bias, each
    fused activation."""
    convolution = oracle("convolution_oracle")
    rank = draw(st.integers(2, 4))
    size, units, batch = (draw(st.integers(1, 3)) for _ in range(3))
    cells = batch * size
    dims = list(draw(st.sampled_from(_shapes_of(cells, rank))))
    x = _floats(draw, cells)
    weights = _floats(draw, units * size)
    bias = _floats(draw, units)
    act = draw(st.integers(0, 3))
    out, out_shape = convolution.fully_connected(x, weights, (units, size), bias, act)
    builder = _Builder()
    x_array = _array(x, dims)
    operands = [
        builder.input(x_array),
        builder.tensor(_array(weights, (units, size))),
        builder.tensor(_array(bias, (units,))),
        builder.int32(act),
    ]
    out_array = _array(out, out_shape)
    builder.output(out_array.shape)
    model = builder.model("FULLY_CONNECTED", operands)
    parameters = {"input": tuple(dims), "units": units, "input size": size,
                  "activation": ACTIVATIONS[act]}  # fmt: skip
    return Corner(
        "dense", "FULLY_CONNECTED", model, [x_array], [out_array],
        _classes(model, [out_array]), parameters, "convolution_oracle",
    )  # fmt: skip
