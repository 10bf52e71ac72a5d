"""The checks of CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D and
FULLY_CONNECTED.

Scalar parameters (paddings, strides, dilations, the depth multiplier or number of
groups, the activation) are judged as soon as they are known; the geometry (filter
depth against the input's channels, paddings below the filter extent, a filter no
larger than the padded input, a bias of one entry per output channel, a transposed
convolution's output shape) as soon as the filter and the input's dimensions are.
NCHW inputs are judged as their NHWC view. ``reference_driver/ops/convolution.py``
computes, and keeps the filters it re-lays out.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.checks.base import (
    OpArgs,
    OperationCheck,
    OpFailure,
    OpInvalid,
)
from hal.checks.signed import QUANT8_ASYMM_TYPES
from hal.types import OperandType, OperationType

_Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL

_SAME = 1

_NHWC_FROM_NCHW = (0, 2, 3, 1)

_NCHW_FROM_NHWC = (0, 3, 1, 2)


# ---------------------------------------------------------------------------
# Scalar parameters
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Form:
    """Where an operation keeps its scalars."""

    extra: str | None
    """Name of the INT32 after the strides (depth multiplier, group count), if any."""
    shape_slot: bool = False
    """TRANSPOSE_CONV_2D: the implicit form has an output-shape tensor at input 3."""
    pad_limit: bool = True
    """Explicit pads must be smaller than the effective filter (not for transposed)."""
    zero_batch: bool = True
    """A zero-sized batch is accepted (the output gets batch 0)."""


@dataclass(frozen=True)
class _Params:
    """An operation's scalar inputs; None where not known (a non-constant at prepare time)."""

    implicit: bool
    padding: tuple[int | None, ...]
    """(code,) for implicit padding, else (left, right, top, bottom)."""
    strides: tuple[int | None, int | None]
    """(height, width)."""
    dilations: tuple[int | None, int | None]
    extra: int | None
    activation: int | None
    nchw: bool | None


def _known(args: OpArgs, slot: int) -> int | None:
    value = args.values[slot] if slot < len(args.values) else None
    return None if value is None else int(value.item())


def _params(args: OpArgs, form: _Form) -> _Params:
    n = len(args.inputs)
    base = 3 + form.shape_slot
    implicit_count = base + 4 + (form.extra is not None)
    implicit = n == implicit_count or args.inputs[implicit_count].type == OperandType.BOOL
    if implicit:
        padding: tuple[int | None, ...] = (_known(args, base),)
        slot = base + 1
    else:
        padding = tuple(_known(args, s) for s in range(3, 7))
        slot = 7
    strides = (_known(args, slot + 1), _known(args, slot))
    slot += 2
    extra = 1
    if form.extra is not None:
        extra = _known(args, slot)
        slot += 1
    layout = _known(args, slot + 1) if n > slot + 1 else 0
    dilations = (_known(args, slot + 3), _known(args, slot + 2)) if n > slot + 2 else (1, 1)
    return _Params(
        implicit,
        padding,
        strides,
        dilations,
        extra,
        _known(args, slot),
        None if layout is None else bool(layout),
    )


@functools.lru_cache(maxsize=1024)
def _params_problem(p: _Params, form: _Form) -> str | None:
    """Why known scalar values are invalid, or None (memoized: asked at every execution)."""
    if p.activation is not None and p.activation not in (0, 1, 2, 3):
        return f"fused activation {p.activation} is not one of 0 (NONE) .. 3 (RELU6)"
    for name, values in (("stride", p.strides), ("dilation factor", p.dilations)):
        if any(v is not None and v <= 0 for v in values):
            return f"{name}s {values} (height, width) must be positive"
    if form.extra is not None and p.extra is not None and p.extra <= 0:
        return f"{form.extra} {p.extra} must be positive"
    if not p.implicit:
        # TRANSPOSE_CONV_2D may crop with negative right/bottom pads.
        checked = p.padding if form.pad_limit else (p.padding[0], p.padding[2])
        if any(v is not None and v < 0 for v in checked):
            return f"paddings (left, right, top, bottom) {p.padding} must not be negative"
    return None


def _complete(p: _Params) -> bool:
    return None not in (*p.padding, *p.strides, *p.dilations, p.extra, p.activation, p.nchw)


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Geometry:
    """One convolution's spatial arrangement, height first."""

    pads: tuple[int, int, int, int]
    """top, bottom, left, right."""
    strides: tuple[int, int]
    dilations: tuple[int, int]
    filter_hw: tuple[int, int]
    out_hw: tuple[int, int]


def _same_pads(size: int, stride: int, extent: int) -> tuple[int, int]:
    """SAME padding of one axis (docs/operations.md, Padding): the extra unit goes to the tail."""
    out = (size + stride - 1) // stride
    total = max(0, (out - 1) * stride + extent - size)
    return total // 2, total - total // 2


def _axis_pads(p: _Params, axis: int, size: int, extent: int) -> tuple[int, int]:
    if p.implicit:
        code, stride = p.padding[0], p.strides[axis]
        return _same_pads(size, stride, extent) if code == _SAME else (0, 0)
    left, right, top, bottom = p.padding
    return (top, bottom) if axis == 0 else (left, right)


def _geometry(p: _Params, form: _Form, in_hw: tuple[int, int], f_hw: tuple[int, int]) -> _Geometry:
    """Pads and output size of a (dilated, strided) convolution; OpInvalid when impossible."""
    pads, out = [], []
    for axis in (0, 1):
        extent = (f_hw[axis] - 1) * p.dilations[axis] + 1
        head, tail = _axis_pads(p, axis, in_hw[axis], extent)
        if form.pad_limit and not (head < extent and tail < extent):
            raise OpInvalid(
                f"paddings {head}, {tail} must be smaller than the filter extent {extent}"
            )
        size = (in_hw[axis] + head + tail - extent) // p.strides[axis] + 1
        if size < 1:
            raise OpInvalid(
                f"filter extent {extent} exceeds the padded input {in_hw[axis] + head + tail}"
            )
        pads += [head, tail]
        out.append(size)
    return _Geometry(tuple(pads), p.strides, p.dilations, f_hw, tuple(out))


def _transpose_geometry(
    p: _Params, in_hw: tuple[int, int], f_hw: tuple[int, int], requested: tuple[int, ...] | None
) -> _Geometry:
    """TRANSPOSE_CONV_2D: out = (in - 1) * stride + filter - head - tail."""
    pads, out = [], []
    for axis in (0, 1):
        stride, f = p.strides[axis], f_hw[axis]
        if p.implicit:
            head, tail = 0, 0
            if p.padding[0] == _SAME:
                wanted = int(requested[1 + axis + (1 if p.nchw else 0)])
                total = ((wanted + stride - 1) // stride - 1) * stride + f - wanted
                head = max(0, total) // 2
                tail = total - head
        else:
            head, tail = _axis_pads(p, axis, 0, 0)
        size = (in_hw[axis] - 1) * stride + f - head - tail
        if size < 1:
            raise OpInvalid(f"transposed convolution output size {size} must be positive")
        pads += [head, tail]
        out.append(size)
    return _Geometry(tuple(pads), p.strides, (1, 1), f_hw, tuple(out))


# ---------------------------------------------------------------------------
# Bias, activation, output
# ---------------------------------------------------------------------------


def _bias_checked(args: OpArgs, channels: int) -> np.ndarray:
    bias = args.values[2]
    assert bias is not None
    if bias.shape != (channels,):
        raise OpInvalid(
            f"bias has shape {bias.shape}; {channels} output channels need ({channels},)"
        )
    return bias


# ---------------------------------------------------------------------------
# The convolution family
# ---------------------------------------------------------------------------


def _nhwc(x: np.ndarray, nchw: bool) -> np.ndarray:
    return x.transpose(_NHWC_FROM_NCHW) if nchw else x


def _layout_shape(shape: tuple[int, ...], nchw: bool) -> tuple[int, ...]:
    return tuple(shape[i] for i in _NCHW_FROM_NHWC) if nchw else shape


@dataclass(frozen=True)
class _Conv:
    """One member of the convolution family: its form and its shape rules."""

    form: _Form
    kind: str

    def channels(self, x_c: int, filt: tuple[int, ...], extra: int) -> int:
        """Output channels; OpInvalid when the filter does not fit the input."""
        if self.kind == "depthwise":
            cout = filt[3]
            if cout != x_c * extra:
                raise OpInvalid(
                    f"filter has {cout} channels; input {x_c} x multiplier {extra} needed"
                )
            return cout
        cout, per_group = filt[0], filt[3]
        if self.kind == "grouped":
            if x_c != extra * per_group or cout % extra:
                raise OpInvalid(
                    f"{extra} groups do not fit {x_c} input channels, filter depth {per_group} "
                    f"and {cout} output channels"
                )
        elif per_group != x_c:
            raise OpInvalid(f"filter depth {per_group} differs from the input's {x_c} channels")
        return cout


def _shapes(
    conv: _Conv, p: _Params, x_shape: tuple[int, ...], filt: tuple[int, ...], requested=None
) -> tuple[_Geometry, tuple[int, ...]]:
    """Geometry and NHWC output shape; OpInvalid/OpFailure for shapes the op refuses.

    Memoized (every execution asks twice, prepare then execute, with the same values).
    """
    wanted = None if requested is None else tuple(int(v) for v in requested)
    return _shapes_of(conv, p, tuple(x_shape), tuple(filt), wanted)


@functools.lru_cache(maxsize=1024)
def _shapes_of(
    conv: _Conv,
    p: _Params,
    x_shape: tuple[int, ...],
    filt: tuple[int, ...],
    requested: tuple[int, ...] | None,
) -> tuple[_Geometry, tuple[int, ...]]:
    if len(x_shape) != 4 or len(filt) != 4:
        raise OpInvalid(f"input {x_shape} and filter {filt} must have rank 4")
    n, h, w, c = x_shape
    if min(h, w, c) == 0 or (n == 0 and not conv.form.zero_batch):
        raise OpFailure(f"{conv.kind} convolution does not take the zero-sized input {x_shape}")
    if min(filt) <= 0:
        raise OpInvalid(f"filter dimensions {filt} must be positive")
    cout = conv.channels(c, filt, p.extra)
    if conv.kind == "transpose":
        g = _transpose_geometry(p, (h, w), filt[1:3], requested)
    else:
        g = _geometry(p, conv.form, (h, w), filt[1:3])
    return g, (n, *g.out_hw, cout)


def _requested_shape(args: OpArgs, conv: _Conv, p: _Params) -> np.ndarray | None:
    if conv.kind != "transpose" or not p.implicit:
        return None
    shape = args.values[3]
    if shape is not None and shape.shape != (4,):
        raise OpInvalid(f"output shape tensor has shape {shape.shape}; (4,) expected")
    return shape


def _make_validate(conv: _Conv) -> Callable[[OpArgs], str | None]:
    def validate(args: OpArgs) -> str | None:
        p = _params(args, conv.form)
        problem = _params_problem(p, conv.form)
        if problem is not None or not _complete(p) or args.values[1] is None:
            return problem
        try:
            if _check_known_shapes(args, conv, p):
                _check_per_channel_scales(args, conv)
        except OpInvalid as error:
            return str(error)
        return None

    return validate


def _check_per_channel_scales(args: OpArgs, conv: _Conv) -> None:
    """A per-channel quant8 filter has one scale per output channel (``hal.validation``
    checks it too, unless a driver turns the rule off)."""
    x, w, filt = args.inputs[0], args.inputs[1], args.values[1]
    if x.type not in QUANT8_ASYMM_TYPES or w.type != _Q8C or filt is None:
        return
    scales = np.asarray(w.extra_params.scales, dtype=np.float64)
    channels = filt.shape[3 if conv.kind == "depthwise" else 0]
    if scales.size != channels:
        raise OpInvalid(f"{scales.size} per-channel scales for {channels} output channels")


def _check_known_shapes(args: OpArgs, conv: _Conv, p: _Params) -> bool:
    """Shape rules on the model's declared dimensions; False when they are not all known."""
    x_dims, filt = args.inputs[0].dimensions, args.values[1]
    requested = _requested_shape(args, conv, p)
    if (
        len(x_dims) != 4
        or 0 in x_dims
        or (conv.kind == "transpose" and p.implicit and requested is None)
    ):
        return False
    x_shape = tuple(x_dims[i] for i in _NHWC_FROM_NCHW) if p.nchw else tuple(x_dims)
    _, shape = _shapes(conv, p, x_shape, filt.shape, requested)
    if args.values[2] is not None:
        _bias_checked(args, shape[3])
    return True


def _run_params(args: OpArgs, conv: _Conv) -> _Params:
    p = _params(args, conv.form)
    problem = _params_problem(p, conv.form)
    if problem is not None:
        raise OpInvalid(problem)
    if not _complete(p):
        raise OpFailure("a scalar parameter has no value")
    return p


def _make_prepare(conv: _Conv) -> Callable[[OpArgs], list[tuple[int, ...]]]:
    def prepare(args: OpArgs) -> list[tuple[int, ...]]:
        p = _run_params(args, conv)
        x = _nhwc(args.values[0], p.nchw)
        if conv.kind == "depthwise":
            _depthwise_filter_batch(args)
        _, shape = _shapes(conv, p, x.shape, args.values[1].shape, _requested_shape(args, conv, p))
        return [_layout_shape(shape, p.nchw)]

    return prepare


def _depthwise_filter_batch(args: OpArgs) -> None:
    """A depthwise filter whose first dimension the model left unknown must come with 1
    (Android 11, every HAL version); a known one is hal.validation's
    operation.depthwise_filter."""
    declared = args.inputs[1].dimensions
    batch = args.values[1].shape[0] if args.values[1].ndim else None
    if (not declared or declared[0] == 0) and batch != 1:
        raise OpInvalid(f"the filter's first dimension is {batch}; it must be 1")


# ---------------------------------------------------------------------------
# FULLY_CONNECTED
# ---------------------------------------------------------------------------


def _fc_shape(x_shape: tuple[int, ...], w_shape: tuple[int, ...], bias_shape) -> tuple[int, int]:
    if len(w_shape) != 2 or min(w_shape) <= 0:
        raise OpInvalid(f"weights have shape {w_shape}; [num_units > 0, input_size > 0] expected")
    units, size = w_shape
    if not 2 <= len(x_shape) <= 4:
        raise OpInvalid(f"input has rank {len(x_shape)}; 2 to 4 expected")
    count = math.prod(x_shape)
    if count % size:
        raise OpInvalid(f"{count} input elements do not split into rows of input_size {size}")
    if bias_shape is not None and tuple(bias_shape) != (units,):
        raise OpInvalid(f"bias has shape {tuple(bias_shape)}; ({units},) expected")
    return count // size, units


def _fc_activation(args: OpArgs) -> int | None:
    code = _known(args, 3)
    if code is not None and code not in (0, 1, 2, 3):
        raise OpInvalid(f"fused activation {code} is not one of 0 (NONE) .. 3 (RELU6)")
    return code


def _fc_validate(args: OpArgs) -> str | None:
    try:
        _fc_activation(args)
        weights, bias = args.values[1], args.values[2]
        if weights is None:
            return None
        x_dims = args.inputs[0].dimensions
        bias_shape = None if bias is None else bias.shape
        if x_dims and 0 not in x_dims:
            _fc_shape(tuple(x_dims), weights.shape, bias_shape)
        else:
            _fc_shape((1, weights.shape[1]), weights.shape, bias_shape)
    except OpInvalid as error:
        return str(error)
    return None


def _fc_prepare(args: OpArgs) -> list[tuple[int, ...]]:
    _fc_activation(args)
    return [_fc_shape(args.values[0].shape, args.values[1].shape, args.values[2].shape)]


_CONV = _Conv(_Form(None), "conv")

_DEPTHWISE = _Conv(_Form("depth multiplier", zero_batch=False), "depthwise")

_GROUPED = _Conv(_Form("number of groups", zero_batch=False), "grouped")

_TRANSPOSE = _Conv(_Form(None, shape_slot=True, pad_limit=False), "transpose")

CHECKS = (
    OperationCheck(OperationType.CONV_2D, _make_validate(_CONV), _make_prepare(_CONV)),
    OperationCheck(
        OperationType.DEPTHWISE_CONV_2D, _make_validate(_DEPTHWISE), _make_prepare(_DEPTHWISE)
    ),
    OperationCheck(
        OperationType.GROUPED_CONV_2D, _make_validate(_GROUPED), _make_prepare(_GROUPED)
    ),
    OperationCheck(
        OperationType.TRANSPOSE_CONV_2D, _make_validate(_TRANSPOSE), _make_prepare(_TRANSPOSE)
    ),
    OperationCheck(OperationType.FULLY_CONNECTED, _fc_validate, _fc_prepare),
)
