"""CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D and FULLY_CONNECTED.

NCHW inputs are viewed as NHWC, computed, and the result viewed back.
Float16 is widened to float32 and rounded back, as the Android 10 CPU
reference does; relaxed models compute in float32.

Speed: convolutions and grouped convolutions gather their input windows
(im2col over a strided view; none for a 1x1 stride-1 filter) and run one BLAS
matrix product (grouped: one batched product); a depthwise convolution is one
``einsum`` per column phase of the width stride (one in all for stride 1), a
fused multiply-add of each filter tap along whole output rows; a transposed
convolution is one product followed by a scatter-add per filter tap;
FULLY_CONNECTED is one product. The bias is added along whole NHWC rows.

Quant8: the products of ``(q - zeroPoint)`` are summed exactly in floating
point (float32 when the sum provably stays below 2**24, float64 otherwise), the
int32 bias is added, and the sum is requantized with the fixed-point scheme of
docs/operations.md, Quantization (``_requantize``), per output channel for a
TENSOR_QUANT8_SYMM_PER_CHANNEL filter.

Work that depends only on a filter (its matrix, multipliers, exactness
bound) is cached keyed on the filter's array; ``validate`` computes it for
constant filters when the model is prepared.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.convolution``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import as_strided

from hal.checks.convolution import (
    _CONV,
    _DEPTHWISE,
    _GROUPED,
    _NCHW_FROM_NHWC,
    _Q8C,
    _TRANSPOSE,
    _bias_checked,
    _Conv,
    _fc_activation,
    _Geometry,
    _nhwc,
    _Params,
    _requested_shape,
    _run_params,
    _shapes,
)
from hal.types import Operand, OperationType
from reference_driver.ops.base import (
    Cost,
    OpArgs,
    OperationImpl,
    OpFailure,
    OpInvalid,
    checked,
    default_cost,
    elements,
)
from reference_driver.ops.common import (
    FLOAT_TYPES,
    Q8A,
    apply_float_activation,
    clamp_quant8,
    to_float_type,
)

_TYPES = (*FLOAT_TYPES, Q8A)

_EXACT_FLOAT32 = float(1 << 24)

"""Integer sums below this are exact in float32, whatever the summation order."""

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


# ---------------------------------------------------------------------------
# Filter-derived data, cached on the filter array
# ---------------------------------------------------------------------------

_DERIVED: dict[tuple, tuple[weakref.ref, object]] = {}

"""(id of a filter array, purpose...) -> (weak reference to the array, derived data)."""


def _derived(array: np.ndarray, key: tuple, make: Callable[[], object]) -> object:
    """``make()``, computed once per live ``array`` and ``key``."""
    full = (id(array), *key)
    entry = _DERIVED.get(full)
    if entry is not None and entry[0]() is array:
        return entry[1]
    value = make()
    # The callback holds the table itself: at interpreter shutdown this module's globals
    # are cleared (None) while arrays held elsewhere may still die after that.
    _DERIVED[full] = (weakref.ref(array, functools.partial(_forget, _DERIVED, full)), value)
    return value


def _forget(table: dict, key: tuple, ref: weakref.ref) -> None:
    """Drop ``table[key]`` when its array dies, unless a newer array took the key."""
    entry = table.get(key)
    if entry is not None and entry[0] is ref:
        del table[key]


@dataclass(frozen=True)
class _Prepared:
    """A filter ready to compute with."""

    weights: np.ndarray
    """In the compute dtype, laid out for the operation's kernel."""
    dtype: np.dtype
    multiplier: tuple[np.ndarray, np.ndarray] | None = None
    """Quant8: fixed-point (m0, shift) per output channel (or one for all)."""
    input_offset: int = 0
    bound: float = 0.0
    """Quant8: the largest |sum of products| the filter allows (bias excluded)."""


def _fixed_point(real: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each multiplier as ``m0 * 2**(shift - 31)``, m0 in [2**30, 2**31) (QuantizeMultiplier)."""
    mantissa, exponent = np.frexp(np.asarray(real, dtype=np.float64))
    m0 = np.floor(mantissa * 2.0**31 + 0.5).astype(np.int64)
    carry = m0 == 1 << 31
    m0 = np.where(carry, m0 // 2, m0)
    shift = np.where(real == 0, 0, exponent + carry).astype(np.int64)
    return m0, shift


def _requantize(acc: np.ndarray, m0: np.ndarray, shift: np.ndarray, saturate=True) -> np.ndarray:
    """MultiplyByQuantizedMultiplier on int64, broadcast along the last (channel) axis.

    The reference's steps: a left shift (``acc`` saturated to int32 first, unless
    ``saturate`` is False because it provably fits), the doubling high multiply
    ``(x * m0 + 2**30) >> 31`` (equal to its truncating form), then a division
    by ``2**right`` rounding half away from zero. For right <= 31 the last two
    are one shift: ``(p + 2**30 + 2**(30 + right) - [p < -2**30] * 2**31) >>
    (31 + right)``, by the nested-floor identity (the sign test moves before
    the first shift because ``x < 0`` exactly when ``p < -2**30``).
    """
    left = np.maximum(shift, 0)
    right = np.maximum(-shift, 0)
    x = acc << left if left.any() else acc
    x = np.clip(x, _INT32_MIN, _INT32_MAX) if saturate or left.any() else x.copy()
    x *= m0
    if right.max() > 31:
        return _requantize_in_two_steps(x, np.minimum(right, 40))
    negative = x < -(1 << 30)
    if not (right > 0).all():
        negative &= right > 0
    x += (1 << 30) + np.where(right > 0, np.left_shift(1, 30 + right), 0)
    x -= negative * np.int64(1 << 31)
    x >>= 31 + right
    return x


def _requantize_in_two_steps(product: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The high multiply's rounding shift, then the rounding division (large ``right``)."""
    product += 1 << 30
    product >>= 31
    half = np.where(right > 0, np.left_shift(1, np.maximum(right - 1, 0)), 0)
    product -= (product < 0) & (right > 0)
    product += half
    product >>= right
    return product


def _multipliers(args: OpArgs, channels: int) -> tuple[np.ndarray, np.ndarray]:
    """Fixed-point input x filter / output scales, per output channel for a per-channel filter."""
    x, w, out = args.inputs[0], args.inputs[1], args.outputs[0]
    if w.type == _Q8C:
        scales = np.asarray(w.extra_params.scales, dtype=np.float64)
        if scales.size != channels:
            raise OpInvalid(f"{scales.size} per-channel scales for {channels} output channels")
    else:
        scales = np.full(1, w.scale, dtype=np.float64)
    return _fixed_point(x.scale * scales / out.scale)


def _input_bound(operand: Operand) -> int:
    """The largest |q - zeroPoint| of a quant8 input."""
    return max(operand.zero_point, 255 - operand.zero_point)


def _compute_dtype(bound: float) -> np.dtype:
    """float32 when every exact integer sum stays below 2**24, else float64."""
    return np.dtype(np.float32 if bound < _EXACT_FLOAT32 else np.float64)


def _prepared(
    args: OpArgs, kind: tuple[str, int], layout: Callable[[np.ndarray], np.ndarray]
) -> _Prepared:
    """The filter of ``args`` in kernel ``layout``; ``kind`` is (operation kind, groups)."""
    w_operand, x_operand, out = args.inputs[1], args.inputs[0], args.outputs[0]
    filt = args.values[1]
    assert filt is not None
    if x_operand.type != Q8A:
        key = (*kind, "float")
        return _derived(filt, key, lambda: _Prepared(layout(filt.astype(np.float32)), np.float32))
    key = (*kind, x_operand.scale, x_operand.zero_point, out.scale, w_operand.zero_point)

    def make() -> _Prepared:
        centred = filt.astype(np.int64) - w_operand.zero_point
        # Output channels lie on axis 0 except for DEPTHWISE_CONV_2D (axis 3).
        channel_axis = 3 if kind[0] == "depthwise" else 0
        other = tuple(a for a in range(centred.ndim) if a != channel_axis)
        abs_sums = np.abs(centred).sum(axis=other)
        bound = float(abs_sums.max(initial=0)) * _input_bound(x_operand)
        dtype = _compute_dtype(bound)
        channels = filt.shape[channel_axis]
        return _Prepared(
            layout(centred.astype(dtype)),
            dtype,
            _multipliers(args, channels),
            x_operand.zero_point,
            bound,
        )

    return _derived(filt, key, make)


# ---------------------------------------------------------------------------
# Kernels (NHWC, any float dtype)
# ---------------------------------------------------------------------------


def _store_centred(out: np.ndarray, x: np.ndarray, offset: int) -> None:
    """``out[...] = x - offset`` in ``out``'s dtype: a converting copy, then (quant8) an
    in-place subtraction; on strided views much faster than one ``np.subtract``."""
    np.copyto(out, x)
    if offset:
        out -= offset


def _padded(x: np.ndarray, g: _Geometry, offset: int, dtype: np.dtype) -> np.ndarray:
    """``x - offset`` in ``dtype``, surrounded by the geometry's zero pads."""
    top, bottom, left, right = g.pads
    n, h, w, c = x.shape
    if not any(g.pads):
        # C order whatever ``x`` is (an NCHW input arrives as a transposed view): the
        # kernels read the result through strided views that assume it.
        out = np.ascontiguousarray(x, dtype=dtype)
        return out - offset if offset else out
    out = np.empty((n, top + h + bottom, left + w + right, c), dtype=dtype)
    # Zero only the frame: the interior is written once, by the subtraction.
    out[:, :top] = 0
    out[:, top + h :] = 0
    out[:, top : top + h, :left] = 0
    out[:, top : top + h, left + w :] = 0
    _store_centred(out[:, top : top + h, left : left + w], x, offset)
    return out


def _view(base: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """Read-only strided view of ``base`` from its first element (``as_strided``, made
    directly when ``base`` is contiguous: a few microseconds less per call)."""
    if not base.flags.c_contiguous:
        return as_strided(base, shape, strides, writeable=False)
    view = np.ndarray(shape, base.dtype, base, 0, strides)
    view.flags.writeable = False
    return view


def _windows(xp: np.ndarray, g: _Geometry) -> np.ndarray:
    """Read-only view [N, outH, outW, fH, fW, C] of every filter window."""
    n, _, _, c = xp.shape
    s0, s1, s2, s3 = xp.strides
    (sh, sw), (dh, dw) = g.strides, g.dilations
    shape = (n, *g.out_hw, *g.filter_hw, c)
    strides = (s0, s1 * sh, s2 * sw, s1 * dh, s2 * dw, s3)
    return _view(xp, shape, strides)


def _conv_kernel(xp: np.ndarray, weights: np.ndarray, g: _Geometry) -> np.ndarray:
    """Grouped im2col convolution: weights [G, fH*fW*C/G, Cout/G] -> [N, outH, outW, Cout]."""
    groups, depth, per_group = weights.shape
    n, c = xp.shape[0], xp.shape[3]
    rows = n * g.out_hw[0] * g.out_hw[1]
    windows = _windows(xp, g)
    if groups == 1:
        result = windows.reshape(rows, depth) @ weights[0]
    else:
        split = windows.reshape(*windows.shape[:5], groups, c // groups)
        cols = split.transpose(5, 0, 1, 2, 3, 4, 6).reshape(groups, rows, depth)
        result = np.matmul(cols, weights).transpose(1, 0, 2).reshape(rows, groups * per_group)
    return result.reshape(n, *g.out_hw, groups * per_group)


def _column_phases(x: np.ndarray, g: _Geometry, offset: int, dtype: np.dtype) -> np.ndarray:
    """``_padded`` with its columns dealt into the width stride's phases: [N, paddedH,
    sw, ceil(paddedW / sw), C], phase p holding padded columns p, p + sw, p + 2*sw...

    Along a phase's rows the columns one filter tap meets for consecutive outputs are
    adjacent, so each tap reads a contiguous run of outW*C values. Built in one pass
    over ``x`` (width stride 1: the padded input itself).
    """
    n, h, w, c = x.shape
    sw = g.strides[1]
    if sw == 1:
        xp = _padded(x, g, offset, dtype)
        return xp.reshape(n, xp.shape[1], 1, xp.shape[2], c)
    top, bottom, left, right = g.pads
    width = -(-(left + w + right) // sw)
    out = np.empty((n, top + h + bottom, sw, width, c), dtype=dtype)
    out[:, :top] = 0
    out[:, top + h :] = 0
    for phase in range(sw):
        first = (phase - left) % sw  # the first input column that falls in this phase
        cols = x[:, :, first::sw]
        start, stop = (left + first) // sw, (left + first) // sw + cols.shape[2]
        plane = out[:, top : top + h, phase]
        plane[:, :, :start] = 0
        plane[:, :, stop:] = 0
        _store_centred(plane[:, :, start:stop], cols, offset)
    return out


def _tiled_taps(taps: np.ndarray, out_w: int) -> np.ndarray:
    """taps [fH, fW, C] repeated along an output row: [fH, fW, outW*C] (cached per width)."""

    def make() -> np.ndarray:
        fh, fw, c = taps.shape
        return np.ascontiguousarray(
            np.broadcast_to(taps[:, :, None, :], (fh, fw, out_w, c))
        ).reshape(fh, fw, out_w * c)

    return _derived(taps, ("tiled", out_w), make)


def _depthwise_kernel(planes: np.ndarray, taps: np.ndarray, g: _Geometry) -> np.ndarray:
    """Sum over filter taps of shifted input times tap weights: taps [fH, fW, C].

    ``planes`` is the input from ``_column_phases``. The filter columns that read
    the same phase form windows [N, outH, fH, taps, outW*C] of it, one ``einsum``
    each: every tap is a fused multiply-add along a whole output row (channels
    included), so numpy's inner loops are long and each output is written once.
    """
    n, _, sw, _, c = planes.shape
    (sh, _), (dh, dw), (oh, ow), (fh, fw) = g.strides, g.dilations, g.out_hw, g.filter_hw
    s0, s1, _, s3, s4 = planes.strides
    step = sw // math.gcd(dw, sw)  # filter columns j and j + step read the same phase
    tiled = _tiled_taps(taps, ow)
    out: np.ndarray | None = None
    for j in range(min(step, fw)):
        phase, start = (j * dw) % sw, (j * dw) // sw
        count = len(range(j, fw, step))
        shape = (n, oh, fh, count, ow * c)
        strides = (s0, s1 * sh, s1 * dh, s3 * (step * dw // sw), s4)
        windows = _view(planes[:, :, phase, start:], shape, strides)
        part = np.einsum("nhijk,ijk->nhk", windows, tiled[:, j::step])
        if out is None:
            out = part
        else:
            out += part
    assert out is not None
    return out.reshape(n, oh, ow, c)


def _transpose_kernel(x: np.ndarray, weights: np.ndarray, g: _Geometry) -> np.ndarray:
    """Scatter form: weights [Cin, fH*fW*Cout]; each tap adds a strided block of the canvas."""
    n, h, w, cin = x.shape
    (fh, fw), (sh, sw) = g.filter_hw, g.strides
    top, _, left, _ = g.pads
    cout = weights.shape[1] // (fh * fw)
    contrib = (x.reshape(-1, cin) @ weights).reshape(n, h, w, fh, fw, cout)
    full_h = max((h - 1) * sh + fh, top + g.out_hw[0])
    full_w = max((w - 1) * sw + fw, left + g.out_hw[1])
    canvas = np.zeros((n, full_h, full_w, cout), dtype=contrib.dtype)
    for i in range(fh):
        for j in range(fw):
            canvas[:, i : i + (h - 1) * sh + 1 : sh, j : j + (w - 1) * sw + 1 : sw] += contrib[
                :, :, :, i, j
            ]
    return canvas[:, top : top + g.out_hw[0], left : left + g.out_hw[1]]


def _check_bias_scale(args: OpArgs) -> None:
    """The CPU reference fails the execution when a quant8 filter's bias scale is off."""
    x, w, bias = args.inputs[0], args.inputs[1], args.inputs[2]
    if w.type == Q8A:
        expected = x.scale * w.scale
        if abs(expected - bias.scale) > 1e-6 * min(expected, bias.scale):
            raise OpFailure(f"bias scale {bias.scale} is not input x filter scale {expected}")


def _add_bias(acc: np.ndarray, bias: np.ndarray) -> None:
    """``acc += bias`` along the last (channel) axis, in place.

    A contiguous NHWC accumulator takes it as rows of W*C values plus the bias
    tiled along a row (cached per bias and width): numpy then loops over whole
    rows instead of buffering C values at a time (about twice as fast).
    """
    if acc.ndim != 4 or not acc.flags.c_contiguous:
        acc += bias.astype(acc.dtype, copy=False)
        return
    width = acc.shape[2]
    rows = acc.reshape(-1, width * acc.shape[3])
    key = ("tiled", acc.dtype.str, width)
    rows += _derived(bias, key, lambda: np.tile(bias.astype(acc.dtype), width))


def _finish(args: OpArgs, acc: np.ndarray, prep: _Prepared, activation: int) -> np.ndarray:
    """Bias, activation and the output type, for an accumulator with channels last."""
    bias = _bias_checked(args, acc.shape[-1])
    dtype = args.values[0].dtype
    if prep.multiplier is None:
        _add_bias(acc, bias)
        out = apply_float_activation(acc, activation, in_place=True)
        return out if out.dtype == dtype else to_float_type(out, dtype)
    _check_bias_scale(args)
    total = acc.astype(np.int64)
    _add_bias(total, bias)
    saturate = prep.bound + float(np.abs(bias).max(initial=0)) >= 2.0**31
    raw = _requantize(total, *prep.multiplier, saturate=saturate)
    raw += args.outputs[0].zero_point
    return clamp_quant8(raw, activation, args.outputs[0])


def _conv_layout(kind: str, groups: int) -> Callable[[np.ndarray], np.ndarray]:
    """How each kernel wants its filter (given in the HAL's layout, quant8 already centred)."""
    if kind == "depthwise":
        return lambda f: np.ascontiguousarray(f[0])
    if kind == "transpose":
        return lambda f: np.ascontiguousarray(f.transpose(3, 1, 2, 0).reshape(f.shape[3], -1))

    def im2col(f: np.ndarray) -> np.ndarray:
        # [Cout, fH, fW, C/G] -> [G, fH*fW*C/G, Cout/G]: rows in the windows' (fh, fw, c) order.
        cout = f.shape[0]
        per_group = f.reshape(groups, cout // groups, -1)
        return np.ascontiguousarray(per_group.transpose(0, 2, 1))

    return im2col


def _conv_prepared(args: OpArgs, conv: _Conv, p: _Params) -> _Prepared:
    groups = p.extra if conv.kind == "grouped" else 1
    return _prepared(args, (conv.kind, groups), _conv_layout(conv.kind, groups))


def _conv_compute(
    conv: _Conv, args: OpArgs, p: _Params, g: _Geometry, prep: _Prepared
) -> np.ndarray:
    x = _nhwc(args.values[0], p.nchw)
    offset = prep.input_offset
    if conv.kind == "transpose":
        return _transpose_kernel(x.astype(prep.dtype) - offset, prep.weights, g)
    if conv.kind == "depthwise":
        if p.extra > 1:
            x = np.repeat(x, p.extra, axis=3)
        return _depthwise_kernel(_column_phases(x, g, offset, prep.dtype), prep.weights, g)
    return _conv_kernel(_padded(x, g, offset, prep.dtype), prep.weights, g)


def _make_execute(conv: _Conv) -> Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]]:
    def execute(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
        p = _run_params(args, conv)
        x = _nhwc(args.values[0], p.nchw)
        g, shape = _shapes(conv, p, x.shape, args.values[1].shape, _requested_shape(args, conv, p))
        dtype = args.values[0].dtype
        if 0 in shape:
            return [np.zeros(shapes[0], dtype=dtype)]
        prep = _conv_prepared(args, conv, p)
        acc = _conv_compute(conv, args, p, g, prep)
        out = _finish(args, acc, prep, p.activation)
        return [out.transpose(_NCHW_FROM_NHWC) if p.nchw else out]

    return execute


def _supports(args: OpArgs) -> bool:
    return args.inputs[0].type in _TYPES


def _conv_impl(op: OperationType, conv: _Conv) -> OperationImpl:
    return checked(op, _supports, _make_execute(conv), via_unsigned=True)


def _fc_prepared(args: OpArgs) -> _Prepared:
    return _prepared(args, ("fully_connected", 1), lambda w: np.ascontiguousarray(w.T))


def _fc_execute(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    activation = _fc_activation(args)
    batch = shapes[0][0]
    x = args.values[0]
    if batch == 0:
        return [np.zeros(shapes[0], dtype=x.dtype)]
    prep = _fc_prepared(args)
    rows = x.reshape(batch, -1).astype(prep.dtype)
    if prep.input_offset:
        rows -= prep.input_offset
    return [_finish(args, rows @ prep.weights, prep, activation)]


# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# Costs
# ---------------------------------------------------------------------------


def _make_cost(conv: _Conv) -> Callable[[OpArgs, list[tuple[int, ...]] | None], Cost]:
    """Multiply-adds of every output (filter taps x input channels per group), and the
    padded input plus the im2col (or, transposed, contribution and canvas) temporaries,
    at 8 bytes a value: what the kernels above allocate for these strides and pads."""

    def cost(args: OpArgs, shapes: list[tuple[int, ...]] | None) -> Cost:
        base = default_cost(args, shapes)
        x, filt = args.values[0], args.values[1]
        if x is None or filt is None or x.ndim != 4 or filt.ndim != 4:
            return base
        try:
            p = _run_params(args, conv)
            x_shape = _nhwc(x, p.nchw).shape
            g, shape = _shapes(conv, p, x_shape, filt.shape, _requested_shape(args, conv, p))
        except OpFailure:
            return base
        n, h, w, c = x_shape
        (fh, fw), (oh, ow) = g.filter_hw, g.out_hw
        top, bottom, left, right = g.pads
        out = elements(shape)
        if conv.kind == "transpose":
            cout = shape[3]
            contributions = n * h * w * fh * fw * cout
            full_h = max((h - 1) * g.strides[0] + fh, top + oh)
            full_w = max((w - 1) * g.strides[1] + fw, left + ow)
            canvas = n * full_h * full_w * cout
            return Cost(
                work=base.work + contributions * (c + 1) + canvas,
                scratch=base.scratch + 8 * (contributions + canvas),
            )
        padded = n * (top + h + bottom) * (left + w + right) * c
        if conv.kind == "depthwise":
            return Cost(
                work=base.work + out * fh * fw,
                scratch=base.scratch + 8 * (2 * padded + fh * fw * ow * shape[3]),
            )
        depth = fh * fw * filt.shape[3]  # per group
        columns = n * oh * ow * fh * fw * c
        return Cost(
            work=base.work + out * depth,
            scratch=base.scratch + 8 * (padded + 2 * columns),
        )

    return cost


def _fc_cost(args: OpArgs, shapes: list[tuple[int, ...]] | None) -> Cost:
    base = default_cost(args, shapes)
    weights = args.values[1]
    if shapes is None or weights is None:
        return base
    return Cost(work=base.work + shapes[0][0] * weights.size, scratch=base.scratch)


IMPLEMENTATIONS = (
    _conv_impl(OperationType.CONV_2D, _CONV),
    _conv_impl(OperationType.DEPTHWISE_CONV_2D, _DEPTHWISE),
    _conv_impl(OperationType.GROUPED_CONV_2D, _GROUPED),
    _conv_impl(OperationType.TRANSPOSE_CONV_2D, _TRANSPOSE),
    checked(OperationType.FULLY_CONNECTED, _supports, _fc_execute, via_unsigned=True),
)

COSTS = {
    OperationType.CONV_2D: _make_cost(_CONV),
    OperationType.DEPTHWISE_CONV_2D: _make_cost(_DEPTHWISE),
    OperationType.GROUPED_CONV_2D: _make_cost(_GROUPED),
    OperationType.TRANSPOSE_CONV_2D: _make_cost(_TRANSPOSE),
    OperationType.FULLY_CONNECTED: _fc_cost,
}
