"""Offline oracle for the convolution-family specs' golden values.

Plain Python loops over the definitions in the operation reference
(docs/operations.md, CONV_2D (3), DEPTHWISE_CONV_2D (4), FULLY_CONNECTED (9),
GROUPED_CONV_2D (55) and TRANSPOSE_CONV_2D (91); its sections Padding and
Fused activation). Deliberately naive and independent of the reference driver and
the generator: nothing here is vectorised, nothing is imported from the
project. Everything is NHWC; the specs get NCHW through their layout
variations.

Run it by hand (``python conformance/specs/oracles/convolution_oracle.py``):
it prints, for every case in ``SPEC_CASES`` (or those named on the command
line), the input, filter, bias and output values to paste into the spec that
names the case.
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
    """(head, tail) of SAME padding on one axis, as docs/operations.md, Padding defines it."""
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


def depthwise_conv(
    x, x_shape, f, f_shape, bias, pads, strides, multiplier, dilations=(1, 1), act=0
):
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


def ramp(count, seed, modulus, scale):
    """``count`` multiples of ``scale`` in [-(modulus // 2), modulus // 2] * scale.

    A linear congruential sequence picks the multiples, so channels and rows
    do not repeat one another.
    """
    state, out = seed, []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % 2**31
        out.append(scale * ((state >> 16) % modulus - modulus // 2))
    return out


def fmt(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


# ---------------------------------------------------------------------------
# The cases the specs use (inputs built here, outputs printed for pasting)
# ---------------------------------------------------------------------------


def conv_case(x_shape, f_shape, bias, pads, strides, dilations=(1, 1), groups=1, seeds=(0, 3)):
    x = ramp(math.prod(x_shape), seeds[0], 17, 0.5)  # multiples of 0.5 in [-4, 4]
    f = ramp(math.prod(f_shape), seeds[1], 9, 0.25)  # multiples of 0.25 in [-1, 1]
    out, shape = grouped_conv(x, x_shape, f, f_shape, bias, pads, strides, dilations, groups)
    return {"input": x, "filter": f, "bias": bias, "output": out, "shape": shape}


def depthwise_case(x_shape, f_shape, bias, pads, strides, multiplier, dilations=(1, 1)):
    x = ramp(math.prod(x_shape), 1, 17, 0.5)
    f = ramp(math.prod(f_shape), 2, 9, 0.25)
    out, shape = depthwise_conv(x, x_shape, f, f_shape, bias, pads, strides, multiplier, dilations)
    return {"input": x, "filter": f, "bias": bias, "output": out, "shape": shape}


def transpose_case(x_shape, f_shape, bias, pads, strides):
    x = ramp(math.prod(x_shape), 2, 17, 0.5)
    f = ramp(math.prod(f_shape), 4, 9, 0.25)
    out, shape = transpose_conv(x, x_shape, f, f_shape, bias, pads, strides)
    return {"input": x, "filter": f, "bias": bias, "output": out, "shape": shape}


def fc_case(x_count, w_shape, bias):
    x = ramp(x_count, 5, 17, 0.5)
    w = ramp(math.prod(w_shape), 1, 9, 0.25)
    out, shape = fully_connected(x, w, w_shape, bias)
    return {"input": x, "filter": w, "bias": bias, "output": out, "shape": shape}


SPEC_CASES = {
    # V1_0/conv2d.mod.py, V1_1/conv2d_relaxed.mod.py: SAME, stride 2 on 5x5, batch 2.
    "conv_same_stride2": lambda: conv_case(
        (2, 5, 5, 2), (3, 3, 3, 2), [0.5, -1.0, 0.25], (1, 1, 1, 1), (2, 2)
    ),
    # V1_0/conv2d.mod.py: explicit asymmetric pads, 2x3 filter, strides w 2 h 1.
    "conv_explicit": lambda: conv_case(
        (1, 4, 6, 3), (2, 2, 3, 3), [1.0, -0.5], (1, 2, 0, 1), (2, 1), seeds=(4, 1)
    ),
    # V1_0/conv2d.mod.py: VALID, stride 2 leaving a remainder, 1 channel.
    "conv_valid_stride2": lambda: conv_case(
        (1, 5, 4, 1), (1, 2, 2, 1), [0.25], (0, 0, 0, 0), (2, 2), seeds=(2, 5)
    ),
    # V1_2/conv2d_v1_2.mod.py: SAME with dilation w 2, h 1 (effective 5 wide, 3 high).
    "conv_same_dilated": lambda: conv_case(
        (1, 5, 5, 2), (2, 3, 3, 2), [0.5, -0.25], (2, 2, 1, 1), (1, 1), (2, 1), seeds=(6, 2)
    ),
    # V1_2/conv2d_v1_2.mod.py: explicit pads with dilation 2 and stride 2, batch 2.
    "conv_explicit_dilated_stride2": lambda: conv_case(
        (2, 6, 5, 1), (2, 2, 2, 1), [0.0, 0.5], (1, 0, 2, 1), (2, 2), (2, 2), seeds=(3, 7)
    ),
    # V1_0/depthwise_conv2d.mod.py: SAME, depth multiplier 2, 3x4 input.
    "depthwise_same_multiplier2": lambda: depthwise_case(
        (1, 3, 4, 2), (1, 2, 2, 4), [0.5, 0.0, -0.5, 1.0], (0, 1, 0, 1), (1, 1), 2
    ),
    # V1_0/depthwise_conv2d.mod.py: explicit pads, stride 2, batch 2, 3 channels.
    "depthwise_explicit_stride2": lambda: depthwise_case(
        (2, 5, 5, 3), (1, 3, 3, 3), [0.25, -0.25, 0.5], (1, 0, 1, 1), (2, 2), 1
    ),
    # V1_2/depthwise_conv2d_v1_2.mod.py: SAME with dilation w 2, h 3, multiplier 2.
    "depthwise_same_dilated": lambda: depthwise_case(
        (1, 6, 5, 2), (1, 2, 3, 4), [0.0, 0.5, -0.5, 0.25], (2, 2, 1, 2), (1, 1), 2, (2, 3)
    ),
    # V1_2/depthwise_conv2d_v1_2.mod.py: explicit pads, dilation 2, stride 2 (w) 1 (h).
    "depthwise_explicit_dilated": lambda: depthwise_case(
        (1, 5, 6, 2), (1, 2, 2, 2), [0.5, -0.5], (1, 1, 0, 1), (2, 1), 1, (2, 2)
    ),
    # V1_2/grouped_conv2d.mod.py: 2 groups of 2 channels, explicit pads, strides w 1 h 2.
    "grouped_explicit": lambda: conv_case(
        (1, 3, 3, 4), (4, 2, 2, 2), [0.5, -0.5, 0.25, 0.0], (1, 0, 0, 1), (1, 2), groups=2
    ),
    # V1_2/grouped_conv2d.mod.py: groups = channels (2), SAME stride 2, batch 2, 2 per group.
    "grouped_same_stride2": lambda: conv_case(
        (2, 4, 4, 2),
        (4, 3, 3, 1),
        [0.0, 0.25, -0.5, 0.5],
        same_padding(4, 2, 3) * 2,  # (0, 1) on both axes
        (2, 2),
        groups=2,
        seeds=(5, 6),
    ),
    # V1_2/transpose_conv2d.mod.py: explicit pads, right pad -1, strides w 2 h 1, 3x2 filter.
    "transpose_explicit": lambda: transpose_case(
        (1, 2, 3, 2), (3, 3, 2, 2), [0.5, -0.25, 0.0], (1, -1, 0, 1), (2, 1)
    ),
    # V1_2/transpose_conv2d.mod.py: implicit SAME, stride 2, requested 4x4: pads 0 head, 1 tail.
    "transpose_same_stride2": lambda: transpose_case(
        (2, 2, 2, 1), (2, 3, 3, 1), [0.25, -0.5], (0, 1, 0, 1), (2, 2)
    ),
    # V1_2/transpose_conv2d.mod.py: implicit VALID, stride 2: output (2-1)*2+3 = 5.
    "transpose_valid_stride2": lambda: transpose_case(
        (1, 2, 2, 2), (1, 3, 3, 2), [0.5], (0, 0, 0, 0), (2, 2)
    ),
    # V1_0/fully_connected.mod.py: rank 2, 3 rows of 5.
    "fc_rank2": lambda: fc_case(15, (4, 5), [0.5, -1.0, 0.0, 0.25]),
    # V1_0/fully_connected.mod.py: rank 4 [2, 1, 2, 3] flattened to 2 rows of 6.
    "fc_rank4": lambda: fc_case(12, (2, 6), [1.0, -0.5]),
    # V1_0/fully_connected.mod.py: batch^2 = element count: [2, 2] with 3 units.
    "fc_square": lambda: fc_case(4, (3, 2), [0.0, 0.5, -0.25]),
}


def show(name):
    data = SPEC_CASES[name]()
    print(f"{name}: output shape {data['shape']}")
    for key in ("input", "filter", "bias", "output"):
        print(f"  {key}: {fmt(data[key])}")


def main():
    for name in SPEC_CASES:
        show(name)


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        import sys

        for name in sys.argv[1:] or list(SPEC_CASES):
            show(name)
