"""Offline oracle for the golden values of the pooling-family specs.

Specs: V1_0/avg_pool, max_pool, l2_pool, resize_bilinear, softmax,
local_response_normalization, l2_normalization; their V1_1 relaxed and V1_2
twins; V1_2/resize_nearest_neighbor, log_softmax, instance_normalization; and, in
a section of its own (HAL 1.3), V1_3/resize_bilinear_v1_3 and
resize_nearest_neighbor_v1_3.

Written from the operation definitions in the ops reference (each operation's
section of docs/operations.md), deliberately naive: plain Python loops over every output cell,
double precision, no numpy, and nothing imported from the reference driver or
the generator. Tensors are flat row-major lists with a shape beside them; the
image operations take NHWC (the specs' NCHW variations are derived by the
generator's layout converter).

Run it by hand (``python conformance/specs/oracles/pooling_oracle.py [case ...]``)
and paste what it prints into the spec that names the case. For quantized
variations it also prints each output divided by the output scale, plus the
zero point, so values that would land on a rounding tie can be avoided.
"""

from __future__ import annotations

import math
import struct
import sys
from fractions import Fraction


def index(shape, *position):
    flat = 0
    for size, i in zip(shape, position, strict=True):
        flat = flat * size + i
    return flat


def product(values):
    result = 1
    for v in values:
        result *= v
    return result


# ----------------------------------------------------------------------------- pooling


def same_padding(length, stride, size):
    """SAME: ceil(length / stride) outputs; the odd padding cell goes to the end."""
    out = (length + stride - 1) // stride
    total = max(0, (out - 1) * stride + size - length)
    return total // 2, total - total // 2


def pool(kind, x, shape, pads, strides, sizes, act=0):
    """kind in avg, max, l2; pads (top, bottom, left, right); strides, sizes (h, w).

    Each window covers in-image cells only: padding is never summed, counted
    or compared.
    """
    n, h, w, c = shape
    top, bottom, left, right = pads
    sh, sw = strides
    fh, fw = sizes
    oh = (h + top + bottom - fh) // sh + 1
    ow = (w + left + right - fw) // sw + 1
    out = []
    for b in range(n):
        for oy in range(oh):
            for ox in range(ow):
                for ch in range(c):
                    cells = []
                    for dy in range(fh):
                        for dx in range(fw):
                            y = oy * sh - top + dy
                            xx = ox * sw - left + dx
                            if 0 <= y < h and 0 <= xx < w:
                                cells.append(x[index(shape, b, y, xx, ch)])
                    if kind == "avg":
                        value = sum(cells) / len(cells)
                    elif kind == "max":
                        value = max(cells)
                    else:
                        value = math.sqrt(sum(v * v for v in cells) / len(cells))
                    out.append(activation(value, act))
    return out, (n, oh, ow, c)


def activation(value, act):
    if act == 1:
        return max(0.0, value)
    if act == 2:
        return min(1.0, max(-1.0, value))
    if act == 3:
        return min(6.0, max(0.0, value))
    return value


def implicit_pads(shape, padding, strides, sizes):
    if padding == "VALID":
        return (0, 0, 0, 0)
    top, bottom = same_padding(shape[1], strides[0], sizes[0])
    left, right = same_padding(shape[2], strides[1], sizes[1])
    return (top, bottom, left, right)


# ----------------------------------------------------------------------------- resizing


def resize(kind, x, shape, new_h, new_w):
    """kind in bilinear, nearest; no corner alignment, no half-pixel offset."""
    n, h, w, c = shape
    ry, rx = h / new_h, w / new_w
    out = []
    for b in range(n):
        for oy in range(new_h):
            for ox in range(new_w):
                for ch in range(c):
                    sy, sx = oy * ry, ox * rx
                    if kind == "nearest":
                        y = min(math.floor(sy), h - 1)
                        xx = min(math.floor(sx), w - 1)
                        out.append(x[index(shape, b, y, xx, ch)])
                        continue
                    y0, x0 = math.floor(sy), math.floor(sx)
                    y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
                    fy, fx = sy - y0, sx - x0

                    def at(y, xx, b=b, ch=ch):
                        return x[index(shape, b, y, xx, ch)]

                    out.append(
                        (1 - fy) * (1 - fx) * at(y0, x0)
                        + fy * (1 - fx) * at(y1, x0)
                        + (1 - fy) * fx * at(y0, x1)
                        + fy * fx * at(y1, x1)
                    )
    return out, (n, new_h, new_w, c)


# ----------------------------------------------------------------------------- along an axis


def lines(shape, axis):
    """Every line along ``axis``: the flat indexes of its cells, in order."""
    axis %= len(shape)
    outer = product(shape[:axis])
    inner = product(shape[axis + 1 :])
    depth = shape[axis]
    for o in range(outer):
        for i in range(inner):
            yield [(o * depth + d) * inner + i for d in range(depth)]


def along(fn, x, shape, axis):
    out = [None] * len(x)
    for line in lines(shape, axis):
        for k, value in zip(line, fn([x[k] for k in line]), strict=True):
            out[k] = value
    return out


def softmax(x, shape, beta, axis=-1):
    def fn(v):
        top = max(v)
        exps = [math.exp(beta * (e - top)) for e in v]
        total = sum(exps)
        return [e / total for e in exps]

    return along(fn, x, shape, axis)


def log_softmax(x, shape, beta, axis):
    def fn(v):
        top = max(v)
        log_sum = math.log(sum(math.exp(beta * (e - top)) for e in v))
        return [beta * (e - top) - log_sum for e in v]

    return along(fn, x, shape, axis)


def l2_normalization(x, shape, axis=-1):
    """x / max(sqrt(sum of squares), 1e-6) along the axis: Android 11's float kernel, for
    every HAL version (Android 10 had no floor, so an all-zero vector gave 0 / 0)."""

    def fn(v):
        norm = max(math.sqrt(sum(e * e for e in v)), 1e-6)
        return [e / norm for e in v]

    return along(fn, x, shape, axis)


def local_response_normalization(x, shape, radius, bias, alpha, beta, axis=-1):
    def fn(v):
        out = []
        for d, e in enumerate(v):
            window = v[max(0, d - radius) : min(len(v), d + radius + 1)]
            out.append(e * (bias + alpha * sum(k * k for k in window)) ** -beta)
        return out

    return along(fn, x, shape, axis)


def _channel_means(x, shape):
    """NHWC: for each cell, the mean of its batch and channel over H x W."""
    n, h, w, c = shape
    out = [None] * len(x)
    for b in range(n):
        for ch in range(c):
            cells = [index(shape, b, y, xx, ch) for y in range(h) for xx in range(w)]
            for k in cells:
                out[k] = sum(x[j] for j in cells) / len(cells)
    return out


def instance_normalization(x, shape, gamma, beta, epsilon):
    """NHWC; the HAL text and Android 11: (x - mean) * gamma / sqrt(variance + epsilon) + beta,
    the variance being the mean of (x - mean)^2 over H x W per batch and channel.

    (Android 10 divided by sqrt(mean(x^2) + epsilon): ``instance_normalization_android_10``;
    docs/operations.md, INSTANCE_NORMALIZATION (57).)
    """
    return _instance_normalization(x, shape, gamma, beta, epsilon, centre=True)


def instance_normalization_android_10(x, shape, gamma, beta, epsilon):
    """NHWC; Android 10's kernel: (x - mean) * gamma / sqrt(mean(x^2) + epsilon) + beta.
    Printed for comparison only: no spec expects it."""
    return _instance_normalization(x, shape, gamma, beta, epsilon, centre=False)


def _instance_normalization(x, shape, gamma, beta, epsilon, centre):
    n, h, w, c = shape
    out = [None] * len(x)
    for b in range(n):
        for ch in range(c):
            cells = [index(shape, b, y, xx, ch) for y in range(h) for xx in range(w)]
            mean = sum(x[k] for k in cells) / len(cells)
            origin = mean if centre else 0.0
            spread = sum((x[k] - origin) ** 2 for k in cells) / len(cells)
            for k in cells:
                out[k] = (x[k] - mean) * gamma / math.sqrt(spread + epsilon) + beta
    return out


# ----------------------------------------------------------------------------- the cases


def ramp(count, start, step):
    return [start + step * k for k in range(count)]


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# Shared pooling inputs (NHWC), multiples of 0.5 so quant8 at scale 0.5 is exact.
POOL_A_SHAPE = (2, 3, 4, 2)
POOL_A = [
    1.0, -2.0, 3.5, 0.5, -1.5, 4.0, 2.0, 6.5,
    0.0, 2.5, 5.0, -3.0, 4.5, 1.0, -0.5, 3.0,
    7.0, -1.0, 2.5, 5.5, -4.0, 0.5, 6.0, 2.5,
    -2.5, 3.0, 1.5, 4.5, 8.0, -1.5, 0.5, -3.5,
    3.5, 1.0, -1.0, 2.0, 5.5, 0.0, 2.5, 7.5,
    -0.5, 6.0, 4.0, -2.0, 1.0, 3.5, 9.0, 2.0,
]  # fmt: skip
POOL_A_EXPLICIT = dict(pads=(1, 1, 2, 1), strides=(2, 2), sizes=(2, 3))

POOL_B_SHAPE = (1, 5, 4, 1)
POOL_B = [
    2.0, -1.0, 4.5, 3.0,
    -3.5, 6.0, 0.5, 1.0,
    5.0, 2.5, -2.0, 7.5,
    1.5, -4.5, 3.5, 0.0,
    -1.0, 4.0, 8.5, -2.5,
]  # fmt: skip
POOL_B_IMPLICIT = dict(strides=(2, 2), sizes=(2, 3))  # SAME: pads (0, 1, 0, 1)

POOL_C_SHAPE = (1, 3, 3, 3)
POOL_C = ramp(27, -6.5, 0.5)  # VALID, the filter covers the image: global pooling

POOL_D_SHAPE = (1, 4, 4, 1)
# all negative: padding must never win a max
POOL_D = [
    -1.5,
    -3.0,
    -0.5,
    -4.0,
    -6.0,
    -1.5,
    -3.5,
    -2.0,
    -2.0,
    -4.5,
    -7.0,
    -0.5,
    -5.0,
    -2.5,
    -1.0,
    -6.5,
]  # fmt: skip
# Stride 3 > filter 2 (row and column 2 are never read); SAME pads (0, 1, 0, 1).
POOL_D_STRIDED = dict(strides=(3, 3), sizes=(2, 2))


def _pool_cases(kind):
    explicit, _ = pool(kind, POOL_A, POOL_A_SHAPE, **POOL_A_EXPLICIT)
    pads_b = implicit_pads(POOL_B_SHAPE, "SAME", **POOL_B_IMPLICIT)
    same, _ = pool(kind, POOL_B, POOL_B_SHAPE, pads_b, **POOL_B_IMPLICIT)
    valid, _ = pool(kind, POOL_C, POOL_C_SHAPE, (0, 0, 0, 0), (1, 1), (3, 3))
    pads_d = implicit_pads(POOL_D_SHAPE, "SAME", **POOL_D_STRIDED)
    strided, _ = pool(kind, POOL_D, POOL_D_SHAPE, pads_d, **POOL_D_STRIDED)
    return {"explicit": explicit, "same": same, "valid": valid, "strided": strided}


@case
def avg_pool():
    return _pool_cases("avg")


@case
def max_pool():
    return _pool_cases("max")


@case
def l2_pool():
    cases = _pool_cases("l2")
    cases.pop("strided")
    return cases


RESIZE_SHAPE = (2, 2, 3, 2)
RESIZE_INPUT = [
    1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
    3.0, 30.0, 6.0, 60.0, 5.0, 50.0,
    -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
    6.0, 4.0, -6.0, 12.0, 4.0, 0.0,
]  # fmt: skip
DOWN_SHAPE = (1, 4, 4, 1)
DOWN_INPUT = ramp(16, 0.0, 3.0)


@case
def resize_bilinear():
    up, _ = resize("bilinear", RESIZE_INPUT, RESIZE_SHAPE, 3, 5)  # x1.5 and x1.67
    down, _ = resize("bilinear", DOWN_INPUT, DOWN_SHAPE, 3, 2)  # x0.75 and x0.5
    return {"up_3x5": up, "down_3x2": down}


# V1_2/resize_bilinear_v1_2's quant8 upscale (scale 0.5, zero point 30, in and out):
# Android 10's kernel interpolates the raw bytes in float32 and truncates, newer
# kernels round, and the generator rounds the float golden half to even. On this
# data they all agree: per batch and channel the raw bytes (q = 2 v + 30) of the two
# rows were chosen so that every interpolated value is either a whole byte or lies
# 0.2, 1/3 or 0.4 of a step above one (never at or past a half). The two columns at
# 0.2 and 0.8 between cells 1 and 2 sum to q1 + q2, so one of their fractions is at
# least a half unless both are whole: q1 = q2 (mod 5) makes them whole.
RESIZE_V1_2_INPUT = [
    4.5, 58.0, 8.0, 19.0, 10.5, 26.5,
    10.0, 48.5, -3.0, 53.0, 7.0, 53.0,
    9.5, 28.0, 23.0, 44.0, 48.0, 46.5,
    -9.0, 50.0, 25.5, 4.5, 35.5, 52.0,
]  # fmt: skip
RESIZE_V1_2_QUANT = (0.5, 30)


def f32(x):
    """``x`` rounded to float32 (an exact float32 operation on float32 operands is the
    double result rounded once: a double holds the exact sum or product)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def resize_bilinear_truncated(q, shape, new_h, new_w):
    """Android 10's quant8 RESIZE_BILINEAR on raw bytes ``q``: the ratio, each sample
    position, its fraction and each product and sum in float32, in the kernel's order
    (top-left, bottom-left, top-right, bottom-right), the total truncated."""
    n, h, w, c = shape
    ry, rx = f32(h / new_h), f32(w / new_w)
    out = []
    for b in range(n):
        for oy in range(new_h):
            sy = f32(oy * ry)
            y0 = math.floor(sy)
            y1, fy = min(y0 + 1, h - 1), f32(sy - y0)
            for ox in range(new_w):
                sx = f32(ox * rx)
                x0 = math.floor(sx)
                x1, fx = min(x0 + 1, w - 1), f32(sx - x0)
                for ch in range(c):
                    terms = (
                        (q[index(shape, b, y0, x0, ch)], f32(1 - fy), f32(1 - fx)),
                        (q[index(shape, b, y1, x0, ch)], fy, f32(1 - fx)),
                        (q[index(shape, b, y0, x1, ch)], f32(1 - fy), fx),
                        (q[index(shape, b, y1, x1, ch)], fy, fx),
                    )
                    total = 0.0
                    for value, wy, wx in terms:
                        total = f32(total + f32(f32(value * wy) * wx))
                    out.append(math.trunc(total))
    return out


def check_resize_quant(values, x, shape, new_h, new_w, quant):
    """Refuse data where the quant8 golden (the float golden rounded half to even in
    float32, as the generator does) is not both the exact interpolation of the raw
    bytes rounded down and Android 10's truncated float32 result, or where the exact
    value lies within 0.05 of a step below a half (rounding up and down would part)."""
    scale, zero_point = quant
    q = [Fraction(v) / Fraction(scale) + zero_point for v in x]
    assert all(v.denominator == 1 and 0 <= v <= 255 for v in q), "inputs not exact"
    exact, _ = resize("bilinear", q, shape, new_h, new_w)
    truncated = resize_bilinear_truncated([int(v) for v in q], shape, new_h, new_w)
    for k, (real, whole, value) in enumerate(zip(exact, truncated, values, strict=True)):
        golden = round(f32(f32(float(f"{value:.7g}")) / f32(scale)) + zero_point)
        if not golden == math.floor(real) == whole or real - math.floor(real) > 0.45:
            raise SystemExit(
                f"resize_bilinear_v1_2: output {k} is {float(real):.4f} steps: golden "
                f"{golden}, truncated kernel {whole}"
            )


@case
def resize_bilinear_v1_2():
    up, _ = resize("bilinear", RESIZE_V1_2_INPUT, RESIZE_SHAPE, 3, 5)
    check_resize_quant(up, RESIZE_V1_2_INPUT, RESIZE_SHAPE, 3, 5, RESIZE_V1_2_QUANT)
    # The spec's downscales keep V1_0's data (case resize_bilinear): every result is
    # a whole byte there, which the check confirms.
    down, _ = resize("bilinear", DOWN_INPUT, DOWN_SHAPE, 3, 2)
    check_resize_quant(down, DOWN_INPUT, DOWN_SHAPE, 3, 2, RESIZE_V1_2_QUANT)
    return {"up_3x5": up}


@case
def resize_nearest_neighbor():
    up, _ = resize("nearest", RESIZE_INPUT, RESIZE_SHAPE, 3, 5)
    down, _ = resize("nearest", DOWN_INPUT, DOWN_SHAPE, 3, 2)
    scale, _ = resize("nearest", RESIZE_INPUT, RESIZE_SHAPE, 5, 4)  # scales 2.5, 1.5
    return {"up_3x5": up, "down_3x2": down, "scale_5x4": scale}


SOFTMAX_2D = [1.0, 2.0, 3.0, 4.0, -1.0, -1.0, 2.0, 0.5]  # [2, 4]
# [1, 2, 2, 3]
SOFTMAX_4D = [
    0.5,
    1.5,
    -1.0,
    2.0,
    2.0,
    2.0,
    -3.0,
    0.0,
    3.0,
    1.0,
    -0.5,
    4.5,
]  # fmt: skip


# [2, 2, 2, 3]: eight lines along the last axis
SOFTMAX_AXIS = [
    1.0,
    2.0,
    3.0,
    0.5,
    0.5,
    0.5,
    -2.0,
    4.0,
    1.0,
    6.0,
    -6.0,
    0.0,
    3.5,
    -1.5,
    3.5,
    0.0,
    -0.5,
    -4.0,
    2.5,
    1.0,
    -3.0,
    -10.0,
    10.0,
    5.0,
]  # fmt: skip
# [2, 1, 2, 4]
SOFTMAX_NO_AXIS = [
    0.0,
    1.0,
    -1.0,
    2.0,
    4.0,
    4.0,
    3.0,
    -4.0,
    -2.5,
    0.5,
    1.5,
    -0.5,
    7.0,
    0.0,
    2.0,
    1.0,
]  # fmt: skip


@case
def softmax_cases():
    return {
        "rank2_beta1": softmax(SOFTMAX_2D, (2, 4), 1.0),
        "rank2_beta0.5": softmax(SOFTMAX_2D, (2, 4), 0.5),
        "rank4_beta1": softmax(SOFTMAX_4D, (1, 2, 2, 3), 1.0),
        "rank4_beta2": softmax(SOFTMAX_4D, (1, 2, 2, 3), 2.0),
        "axis_beta1": softmax(SOFTMAX_AXIS, (2, 2, 2, 3), 1.0),
        "no_axis_beta0.5": softmax(SOFTMAX_NO_AXIS, (2, 1, 2, 4), 0.5),
    }


# [2, 2, 4], large logits in the second row
LOG_SOFTMAX_INPUT = [
    1.0,
    3.0,
    -2.0,
    0.5,
    100.0,
    101.0,
    99.0,
    102.0,
    -4.0,
    -4.0,
    -4.0,
    -4.0,
    2.5,
    -1.5,
    0.0,
    7.0,
]  # fmt: skip


@case
def log_softmax_cases():
    return {
        "beta1": log_softmax(LOG_SOFTMAX_INPUT, (2, 2, 4), 1.0, -1),
        "beta0.5": log_softmax(LOG_SOFTMAX_INPUT, (2, 2, 4), 0.5, -1),
    }


# [1, 2, 2, 3]: each row normalises to exact values
L2_INPUT = [
    3.0,
    0.0,
    4.0,
    1.0,
    -2.0,
    2.0,
    -6.0,
    3.0,
    2.0,
    0.0,
    5.0,
    0.0,
]  # fmt: skip


@case
def l2_normalization_cases():
    return {
        "rank4": l2_normalization(L2_INPUT, (1, 2, 2, 3)),
        # the floor: an all-zero row, a row of norm 5, a row of norm 5e-7 (below 1e-6)
        "zero_vector 3x3": l2_normalization(
            [0.0, 0.0, 0.0, 3.0, 0.0, -4.0, 0.0, 0.0, 0.0], (3, 3)
        ),
        "below_floor 2x3": l2_normalization([3e-7, -4e-7, 0.0, 1.5, 2.0, 0.0], (2, 3)),
    }


# [1, 1, 2, 6]
LRN_INPUT = [
    1.0,
    -2.0,
    3.0,
    0.5,
    2.0,
    -1.0,
    -0.5,
    4.0,
    1.5,
    -3.0,
    0.0,
    2.5,
]  # fmt: skip


@case
def lrn_cases():
    return {
        "r1_b1_a0.5_beta0.5": local_response_normalization(
            LRN_INPUT, (1, 1, 2, 6), 1, 1.0, 0.5, 0.5
        ),
        "r2_b2_a0.25_beta0.75": local_response_normalization(
            LRN_INPUT, (1, 1, 2, 6), 2, 2.0, 0.25, 0.75
        ),
        "r9_b1_a0.125_beta1": local_response_normalization(
            LRN_INPUT, (1, 1, 2, 6), 9, 1.0, 0.125, 1.0
        ),
        "r0_b1_a1_beta0.5": local_response_normalization(LRN_INPUT, (1, 1, 2, 6), 0, 1.0, 1.0, 0.5),
    }


INSTANCE_SHAPE = (2, 2, 2, 2)
# batch 0: channel means 3 and 2; batch 1: channel means 0 and 0
INSTANCE_INPUT = [
    1.0,
    3.0,
    2.0,
    -1.0,
    3.0,
    1.0,
    6.0,
    5.0,
    -1.0,
    0.5,
    3.0,
    2.5,
    1.0,
    -1.5,
    -3.0,
    -1.5,
]  # fmt: skip


# one batch, 2 x 2 cells, 3 channels, every channel mean far from 0:
# 1002 (variance 3.5), -499 (variance 5) and 8 (variance 1.25)
INSTANCE_LARGE_MEAN_SHAPE = (1, 2, 2, 3)
INSTANCE_LARGE_MEAN_INPUT = [
    1000.0, -500.0, 7.5,
    1002.0, -496.0, 8.5,
    1001.0, -498.0, 6.5,
    1005.0, -502.0, 9.5,
]  # fmt: skip


@case
def instance_normalization_cases():
    return {
        "g1_b0_e1e-4": instance_normalization(INSTANCE_INPUT, INSTANCE_SHAPE, 1.0, 0.0, 1e-4),
        "g2_b0.5_e0.25": instance_normalization(INSTANCE_INPUT, INSTANCE_SHAPE, 2.0, 0.5, 0.25),
        "large_mean_g1.5_b-0.25_e0.01": instance_normalization(
            INSTANCE_LARGE_MEAN_INPUT, INSTANCE_LARGE_MEAN_SHAPE, 1.5, -0.25, 0.01
        ),
        # Android 10's kernel, for comparison only (no spec expects these)
        "android_10_g1_b0_e1e-4": instance_normalization_android_10(
            INSTANCE_INPUT, INSTANCE_SHAPE, 1.0, 0.0, 1e-4
        ),
        "android_10_large_mean_g1.5_b-0.25_e0.01": instance_normalization_android_10(
            INSTANCE_LARGE_MEAN_INPUT, INSTANCE_LARGE_MEAN_SHAPE, 1.5, -0.25, 0.01
        ),
    }


# ----------------------------------------------------------------------------- HAL 1.3
# RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR with align_corners and half_pixel_centers
# (V1_3/resize_bilinear_v1_3, resize_nearest_neighbor_v1_3), computed in exact
# fractions from the definition: the scale is (size - 1) / (new - 1) with align_corners
# and more than one output cell, else size / new. Bilinear source coordinate: index *
# scale, or (index + 1/2) * scale - 1/2 with half-pixel centers; low = max(floor, 0),
# high = min(ceil, size - 1), weight of high = coordinate - low. Nearest: (index (+ 1/2
# with half-pixel centers)) * scale, rounded half away from zero with align_corners,
# else floored; then at most size - 1 (and at least 0). Every scale of the cases is a
# dyadic fraction, so a float32 kernel lands on the same cells.


def _scale13(size, new, align):
    if align and new > 1:
        return Fraction(size - 1, new - 1)
    return Fraction(size, new)


def _round_half_away(value):
    whole = math.floor(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def nearest_index13(size, new, index, align, half):
    source = (index + (Fraction(1, 2) if half else 0)) * _scale13(size, new, align)
    chosen = _round_half_away(source) if align else math.floor(source)
    chosen = min(chosen, size - 1)
    return max(chosen, 0) if half else chosen


def bilinear_axis13(size, new, index, align, half):
    scale = _scale13(size, new, align)
    source = (index + Fraction(1, 2)) * scale - Fraction(1, 2) if half else index * scale
    low = max(math.floor(source), 0)
    high = min(math.ceil(source), size - 1)
    return low, high, source - low


def resize13(kind, x, shape, new_h, new_w, align, half):
    """NHWC ``x`` resized to new_h x new_w with the HAL 1.3 flags (exact fractions)."""
    n, h, w, c = shape
    out = []
    for b in range(n):
        for oy in range(new_h):
            for ox in range(new_w):
                for ch in range(c):

                    def at(y, xx, b=b, ch=ch):
                        return Fraction(x[index(shape, b, y, xx, ch)])

                    if kind == "nearest":
                        y = nearest_index13(h, new_h, oy, align, half)
                        xx = nearest_index13(w, new_w, ox, align, half)
                        out.append(at(y, xx))
                        continue
                    y0, y1, fy = bilinear_axis13(h, new_h, oy, align, half)
                    x0, x1, fx = bilinear_axis13(w, new_w, ox, align, half)
                    out.append(
                        (1 - fy) * (1 - fx) * at(y0, x0)
                        + fy * (1 - fx) * at(y1, x0)
                        + (1 - fy) * fx * at(y0, x1)
                        + fy * fx * at(y1, x1)
                    )
    return [float(v) for v in out]


# [1, 2, 3, 2]; multiples of 2, so every value below is a multiple of 0.5 (exact in
# quant8 at scale 0.5: no rounding or truncation question)
RESIZE13_IN = [0.0, 20.0, 8.0, 2.0, 4.0, 10.0,
               12.0, -4.0, 2.0, 14.0, 6.0, 8.0]  # fmt: skip
RESIZE13_SHAPE = (1, 2, 3, 2)
# [1, 2, 2, 1]; multiples of 8: sixteenths of them are multiples of 0.5
RESIZE13_SMALL = [0.0, 16.0, 40.0, 8.0]
RESIZE13_SMALL_SHAPE = (1, 2, 2, 1)
# [1, 4, 4, 1]
RESIZE13_RAMP = [2.0 * k for k in range(16)]
RESIZE13_RAMP_SHAPE = (1, 4, 4, 1)


@case
def resize_bilinear_v1_3():
    return {
        "align_corners 2x3->3x5": resize13(
            "bilinear", RESIZE13_IN, RESIZE13_SHAPE, 3, 5, True, False
        ),
        "half_pixel 2x2->4x4": resize13(
            "bilinear", RESIZE13_SMALL, RESIZE13_SMALL_SHAPE, 4, 4, False, True
        ),
        "half_pixel 4x4->2x2": resize13(
            "bilinear", RESIZE13_RAMP, RESIZE13_RAMP_SHAPE, 2, 2, False, True
        ),
        "align_corners 4x4->2x2": resize13(
            "bilinear", RESIZE13_RAMP, RESIZE13_RAMP_SHAPE, 2, 2, True, False
        ),
        "no flags 4x4->2x2": resize13(
            "bilinear", RESIZE13_RAMP, RESIZE13_RAMP_SHAPE, 2, 2, False, False
        ),
    }


@case
def resize_nearest_neighbor_v1_3():
    return {
        "align_corners 2x3->3x5": resize13(
            "nearest", RESIZE13_IN, RESIZE13_SHAPE, 3, 5, True, False
        ),
        "half_pixel 4x4->2x2": resize13(
            "nearest", RESIZE13_RAMP, RESIZE13_RAMP_SHAPE, 2, 2, False, True
        ),
        "align_corners 4x4->2x2": resize13(
            "nearest", RESIZE13_RAMP, RESIZE13_RAMP_SHAPE, 2, 2, True, False
        ),
        "half_pixel 2x3->4x6": resize13(
            "nearest", RESIZE13_IN, RESIZE13_SHAPE, 4, 6, False, True
        ),
        "no flags 4x4->2x2": resize13(
            "nearest", RESIZE13_RAMP, RESIZE13_RAMP_SHAPE, 2, 2, False, False
        ),
    }


def show(name, results, quant=None):
    print(f"# {name}")
    for key, values in results.items():
        print(f"{key}: [{', '.join(f'{v:.7g}' for v in values)}]")
        if quant:
            scale, zero_point = quant
            scaled = [v / scale + zero_point for v in values]
            ties = [k for k, v in enumerate(scaled) if abs(v - math.floor(v) - 0.5) < 0.02]
            print(f"  /{scale}+{zero_point}: {[round(v, 3) for v in scaled]}")
            if ties:
                print(f"  near a rounding tie at {ties}")


QUANT = {
    "avg_pool": (0.25, 100),
    "max_pool": (0.5, 100),
    "softmax_cases": (1 / 256, 0),
    "l2_normalization_cases": (1 / 128, 128),
    "resize_bilinear": (0.5, 30),
    "resize_bilinear_v1_2": RESIZE_V1_2_QUANT,
    "resize_nearest_neighbor": (0.5, 30),
    "resize_bilinear_v1_3": (0.5, 30),
    "resize_nearest_neighbor_v1_3": (0.5, 30),
}


def main():
    for name in CASES:
        show(name, CASES[name](), QUANT.get(name))


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED = {
    ("V1_1/avg_pool_relaxed.mod.py", "out"): "the oracle's values clamped to [0, 6] by hand",
    ("V1_1/max_pool_relaxed.mod.py", "out"): "the oracle's maxima clamped to [-1, 1] by hand",
    ("V1_2/instance_normalization.mod.py", "out2"): "constant channels give beta, by hand",
    ("V1_3/l2_normalization_zero_vector_quant8.mod.py", "qout"): "quant8 zero rows, by hand",
}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        for name in sys.argv[1:] or CASES:
            show(name, CASES[name](), QUANT.get(name))
