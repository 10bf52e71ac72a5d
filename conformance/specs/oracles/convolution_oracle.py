"""Offline oracle for the convolution-family specs' golden values.

Plain Python loops over the definitions in the operation reference
(ops-00-47.md CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED, ops-48-94.md
GROUPED_CONV_2D / TRANSPOSE_CONV_2D, README.md implicit padding and fused
activations). Deliberately naive and independent of the reference driver and
the generator: nothing here is vectorised, nothing is imported from the
project. Everything is NHWC; the specs get NCHW through their layout
variations.

Run it by hand (``python conformance/specs/oracles/convolution_oracle.py``):
it prints, for every case in ``CASES``, the output values to paste into the
spec that names the case.
"""

from __future__ import annotations

import math


# ---------------------------------------------------------------------------
# Helpers on flat row-major lists
# ---------------------------------------------------------------------------


def flat_index(shape, index):
    flat = 0
    for size, i in zip(shape, index, strict=True):
        flat = flat * size + i
    return flat


def at(values, shape, *index):
    return values[flat_index(shape, index)]


def activation(value, code):
    """Fused activation: 0 none, 1 relu, 2 relu1, 3 relu6."""
    if code == 1:
        return max(0.0, value)
    if code == 2:
        return min(1.0, max(-1.0, value))
    if code == 3:
        return min(6.0, max(0.0, value))
    return value


def same_padding(size, stride, filter_size, dilation=1):
    """(head, tail) of SAME padding on one axis, as README.md defines it."""
    effective = (filter_size - 1) * dilation + 1
    out = math.ceil(size / stride)
    total = max(0, (out - 1) * stride + effective - size)
    return total // 2, total - total // 2


def transpose_same_padding(requested, stride, filter_size):
    """(head, tail) of TRANSPOSE_CONV_2D's implicit SAME padding for a requested size."""
    t = (math.ceil(requested / stride) - 1) * stride + filter_size
    head = max(0, t - requested) // 2
    return head, (t - requested) - head


# ---------------------------------------------------------------------------
# The operations
# ---------------------------------------------------------------------------


def grouped_conv(x, x_shape, f, f_shape, bias, pads, strides, dilations=(1, 1), groups=1, act=0):
    """CONV_2D (groups=1) and GROUPED_CONV_2D.

    pads = (left, right, top, bottom), strides and dilations = (w, h).
    out[b, y, x, o] = act(bias[o] + sum in[b, y*sh - pt + i*dh, x*sw - pl + j*dw,
    g*Cg + k] * filter[o, i, j, k]) with g = o // (Cout / G); outside taps are 0.
    """
    n, h, w, c = x_shape
    cout, fh, fw, cg = f_shape
    assert c == cg * groups and cout % groups == 0
    pl, pr, pt, pb = pads
    sw, sh = strides
    dw, dh = dilations
    oh = (h + pt + pb - ((fh - 1) * dh + 1)) // sh + 1
    ow = (w + pl + pr - ((fw - 1) * dw + 1)) // sw + 1
    per_group = cout // groups
    out = []
    for b in range(n):
        for y in range(oh):
            for xx in range(ow):
                for o in range(cout):
                    g = o // per_group
                    total = bias[o]
                    for i in range(fh):
                        for j in range(fw):
                            iy = y * sh - pt + i * dh
                            ix = xx * sw - pl + j * dw
                            if not (0 <= iy < h and 0 <= ix < w):
                                continue
                            for k in range(cg):
                                total += at(x, x_shape, b, iy, ix, g * cg + k) * at(
                                    f, f_shape, o, i, j, k
                                )
                    out.append(activation(total, act))
    return out, (n, oh, ow, cout)


def depthwise_conv(x, x_shape, f, f_shape, bias, pads, strides, multiplier, dilations=(1, 1), act=0):
    """DEPTHWISE_CONV_2D: output channel k*m + q reads input channel k only."""
    n, h, w, c = x_shape
    _, fh, fw, cout = f_shape
    assert cout == c * multiplier
    pl, pr, pt, pb = pads
    sw, sh = strides
    dw, dh = dilations
    oh = (h + pt + pb - ((fh - 1) * dh + 1)) // sh + 1
    ow = (w + pl + pr - ((fw - 1) * dw + 1)) // sw + 1
    out = []
    for b in range(n):
        for y in range(oh):
            for xx in range(ow):
                for o in range(cout):
                    k = o // multiplier
                    total = bias[o]
                    for i in range(fh):
                        for j in range(fw):
                            iy = y * sh - pt + i * dh
                            ix = xx * sw - pl + j * dw
                            if 0 <= iy < h and 0 <= ix < w:
                                total += at(x, x_shape, b, iy, ix, k) * at(f, f_shape, 0, i, j, o)
                    out.append(activation(total, act))
    return out, (n, oh, ow, cout)


def transpose_conv(x, x_shape, f, f_shape, bias, pads, strides, act=0):
    """TRANSPOSE_CONV_2D in its scatter form; pads = (left, right, top, bottom)."""
    n, h, w, c = x_shape
    cout, fh, fw, cin = f_shape
    assert cin == c
    pl, pr, pt, pb = pads
    sw, sh = strides
    oh = (h - 1) * sh + fh - pt - pb
    ow = (w - 1) * sw + fw - pl - pr
    sums = [0.0] * (n * oh * ow * cout)
    for b in range(n):
        for y in range(h):
            for xx in range(w):
                for k in range(cout):
                    for i in range(fh):
                        for j in range(fw):
                            oy = y * sh - pt + i
                            ox = xx * sw - pl + j
                            if not (0 <= oy < oh and 0 <= ox < ow):
                                continue
                            for d in range(c):
                                sums[flat_index((n, oh, ow, cout), (b, oy, ox, k))] += at(
                                    x, x_shape, b, y, xx, d
                                ) * at(f, f_shape, k, i, j, d)
    out = []
    for b in range(n):
        for y in range(oh):
            for xx in range(ow):
                for k in range(cout):
                    total = sums[flat_index((n, oh, ow, cout), (b, y, xx, k))] + bias[k]
                    out.append(activation(total, act))
    return out, (n, oh, ow, cout)


def fully_connected(x, weights, w_shape, bias, act=0):
    """FULLY_CONNECTED: the input flattened into rows of input_size."""
    units, size = w_shape
    assert len(x) % size == 0
    out = []
    for b in range(len(x) // size):
        for u in range(units):
            total = bias[u]
            for i in range(size):
                total += x[b * size + i] * weights[u * size + i]
            out.append(activation(total, act))
    return out, (len(x) // size, units)


# ---------------------------------------------------------------------------
# Data generators for the larger cases (deterministic, exactly representable)
# ---------------------------------------------------------------------------


def ramp(count, start, step, modulus, scale):
    """``scale * (((start + i * step) % modulus) - modulus // 2)``: small multiples of scale."""
    return [scale * (((start + i * step) % modulus) - modulus // 2) for i in range(count)]


def fmt(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


CASES = {}
"""Case name -> a function returning (outputs, shape). Filled by ``case``."""


def case(name):
    def register(function):
        CASES[name] = function
        return function

    return register


if __name__ == "__main__":
    import sys

    names = sys.argv[1:] or list(CASES)
    for name in names:
        values, shape = CASES[name]()
        print(f"{name} {shape}:\n  {fmt(values)}")
