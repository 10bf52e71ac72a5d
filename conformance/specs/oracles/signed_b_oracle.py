"""Offline oracle for the HAL 1.3 TENSOR_QUANT8_ASYMM_SIGNED specs of the convolution,
pooling, resizing, shape and detection operations (``V1_3/*_quant8_signed.mod.py`` that
name this file).

Plain Python. The float arithmetic is the loops of the other oracles of this folder
(convolution_oracle, pooling_oracle, shape_oracle, detection_oracle, proposals_oracle),
imported, never the reference driver or the generator. Each case below builds its own
input data (deterministic draws of exact multiples of a step), computes the float
golden values, and prints inputs and outputs; the specs carry copies of both.

A spec's quantized expectation is the generator's quantization of the float golden, so
each case also proves that the signed integer arithmetic gives that same byte:

- convolutions, pooling by maximum, resizing (HAL 1.3's align_corners and
  half_pixel_centers too, through pooling_oracle.resize13) and the copies: every golden is an exact
  multiple of each output scale the specs use (``exact``), so no rounding is involved
  (the products of scales are powers of two);
- average pooling: every mean lies at least 0.1 of a step from a rounding tie at the
  specs' scale 0.5 (``margin``), where rounding half away from zero and half to even agree;
- the detection operations: every golden lies at least 0.02 of a step from a tie
  (``margin``), and ROI_ALIGN's integer path (docs/operations.md, ROI_ALIGN) is run
  through the unsigned form shifted by 128 (Android 11's coupling: a signed model's
  bytes are the unsigned model's bytes minus 128 when every zero point moves by 128).

Run ``python conformance/specs/oracles/signed_b_oracle.py`` to print the values,
``--check`` to compare them with the specs.
"""

from __future__ import annotations

import math
import random

import convolution_oracle as conv
import detection_oracle as det
import pooling_oracle as pool
import proposals_oracle as prop
import shape_oracle as shape


def draw(seed, count, low, high, step):
    """``count`` deterministic multiples of ``step`` in [low, high]."""
    rng = random.Random(seed)
    lo, hi = round(low / step), round(high / step)
    return [rng.randint(lo, hi) * step for _ in range(count)]


def exact(name, values, scales):
    """Every value is a whole number of steps at each scale (no rounding anywhere)."""
    for scale in scales:
        for v in values:
            steps = v / scale
            if abs(steps - round(steps)) > 1e-9:
                raise SystemExit(f"{name}: {v} is not a multiple of {scale}")


def margin(name, values, scale, limit):
    """Every value lies at least ``limit`` of a step away from a rounding tie."""
    for v in values:
        steps = v / scale
        distance = abs(steps - math.floor(steps) - 0.5)
        if distance < limit:
            raise SystemExit(f"{name}: {v} lies {distance} steps from a tie at {scale}")


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# ----------------------------------------------------------------------------- convolutions
# Inputs are whole numbers in [-4, 4] (scale 0.5), filters multiples of 0.25 in [-1, 1],
# biases multiples of 0.25: every golden is a multiple of 0.25, exact at the output
# scales 0.25 and 0.125 (multipliers 0.5 and 1, per channel 1 or 2).


@case
def conv_same():
    """CONV_2D [1,3,3,2] * [2,3,3,2], implicit SAME, stride 1."""
    x = draw(11, 18, -4, 4, 1)
    f = draw(12, 36, -1, 1, 0.25)
    b = [0.75, -1.5]
    out, dims = conv.grouped_conv(x, (1, 3, 3, 2), f, (2, 3, 3, 2), b, (1, 1, 1, 1), (1, 1))
    assert dims == (1, 3, 3, 2)
    exact("conv_same", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def conv_explicit_stride2():
    """CONV_2D [2,4,5,1] * [3,2,3,1], pads (l1, r1, t0, b1), strides (w2, h2)."""
    x = draw(13, 40, -4, 4, 1)
    f = draw(14, 18, -1, 1, 0.25)
    b = [0.25, 0.0, -0.5]
    out, dims = conv.grouped_conv(x, (2, 4, 5, 1), f, (3, 2, 3, 1), b, (1, 1, 0, 1), (2, 2))
    assert dims == (2, 2, 3, 3), dims
    exact("conv_explicit_stride2", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def depthwise():
    """DEPTHWISE_CONV_2D [1,3,3,2] * [1,2,2,4], multiplier 2, pads (l1, r0, t0, b1)."""
    x = draw(21, 18, -4, 4, 1)
    f = draw(22, 16, -1, 1, 0.25)
    b = [0.5, -0.25, 1.0, 0.0]
    out, dims = conv.depthwise_conv(x, (1, 3, 3, 2), f, (1, 2, 2, 4), b, (1, 0, 0, 1), (1, 1), 2)
    assert dims == (1, 3, 3, 4), dims
    exact("depthwise", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def grouped():
    """GROUPED_CONV_2D [1,3,3,4] * [4,2,2,2], 2 groups, implicit SAME, stride 1."""
    x = draw(31, 36, -4, 4, 1)
    f = draw(32, 32, -1, 1, 0.25)
    b = [-0.25, 0.5, 0.0, 1.25]
    out, dims = conv.grouped_conv(
        x, (1, 3, 3, 4), f, (4, 2, 2, 2), b, (0, 1, 0, 1), (1, 1), groups=2
    )
    assert dims == (1, 3, 3, 4), dims
    exact("grouped", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def transpose_conv():
    """TRANSPOSE_CONV_2D [1,2,2,2] -> [1,4,4,2] with a [2,3,3,2] filter, stride 2,
    explicit pads (l1, r0, t1, b0)."""
    x = draw(41, 8, -4, 4, 1)
    f = draw(42, 36, -1, 1, 0.25)
    b = [0.5, -0.75]
    out, dims = conv.transpose_conv(x, (1, 2, 2, 2), f, (2, 3, 3, 2), b, (1, 0, 1, 0), (2, 2))
    assert dims == (1, 4, 4, 2), dims
    exact("transpose_conv", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def conv_dilated_same():
    """CONV_2D [1,5,5,1] * [2,2,2,1], dilation 2 both ways (3x3 reach), implicit SAME,
    stride 1: pads 1 on every side."""
    x = draw(15, 25, -4, 4, 1)
    f = draw(16, 8, -1, 1, 0.25)
    b = [-0.75, 0.5]
    assert conv.same_padding(5, 1, 2, 2) == (1, 1)
    out, dims = conv.grouped_conv(
        x, (1, 5, 5, 1), f, (2, 2, 2, 1), b, (1, 1, 1, 1), (1, 1), dilations=(2, 2)
    )
    assert dims == (1, 5, 5, 2), dims
    exact("conv_dilated_same", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def conv_dilated_explicit():
    """CONV_2D [1,4,4,2] * [1,2,2,2], pads (l0, r1, t1, b0), stride 1, dilation 2 across
    and 1 down: out H = 4 + 1 - 2 + 1 = 4, out W = 4 + 1 - 3 + 1 = 3."""
    x = draw(17, 32, -4, 4, 1)
    f = draw(18, 8, -1, 1, 0.25)
    b = [1.5]
    out, dims = conv.grouped_conv(
        x, (1, 4, 4, 2), f, (1, 2, 2, 2), b, (0, 1, 1, 0), (1, 1), dilations=(2, 1)
    )
    assert dims == (1, 4, 3, 1), dims
    exact("conv_dilated_explicit", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def depthwise_same():
    """DEPTHWISE_CONV_2D [1,4,3,2] * [1,3,3,2], multiplier 1, implicit SAME, stride 2:
    pads top 0, bottom 1, left 1, right 1."""
    x = draw(23, 24, -4, 4, 1)
    f = draw(24, 18, -1, 1, 0.25)
    b = [0.25, -1.0]
    assert conv.same_padding(4, 2, 3) == (0, 1) and conv.same_padding(3, 2, 3) == (1, 1)
    out, dims = conv.depthwise_conv(x, (1, 4, 3, 2), f, (1, 3, 3, 2), b, (1, 1, 0, 1), (2, 2), 1)
    assert dims == (1, 2, 2, 2), dims
    exact("depthwise_same", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def depthwise_dilated_same():
    """DEPTHWISE_CONV_2D [1,4,4,2] * [1,2,2,2], multiplier 1, dilation 2, implicit SAME,
    stride 1: pads 1 on every side."""
    x = draw(25, 32, -4, 4, 1)
    f = draw(26, 8, -1, 1, 0.25)
    b = [0.0, 0.75]
    assert conv.same_padding(4, 1, 2, 2) == (1, 1)
    out, dims = conv.depthwise_conv(
        x, (1, 4, 4, 2), f, (1, 2, 2, 2), b, (1, 1, 1, 1), (1, 1), 1, dilations=(2, 2)
    )
    assert dims == (1, 4, 4, 2), dims
    exact("depthwise_dilated_same", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def depthwise_dilated_explicit():
    """DEPTHWISE_CONV_2D [1,5,4,1] * [1,2,2,3], multiplier 3, pads (l1, r1, t0, b0),
    stride 1, dilation 1 across and 2 down: out H = 5 - 3 + 1 = 3, W = 4 + 2 - 2 + 1 = 5."""
    x = draw(27, 20, -4, 4, 1)
    f = draw(28, 12, -1, 1, 0.25)
    b = [0.5, 0.0, -0.25]
    out, dims = conv.depthwise_conv(
        x, (1, 5, 4, 1), f, (1, 2, 2, 3), b, (1, 1, 0, 0), (1, 1), 3, dilations=(1, 2)
    )
    assert dims == (1, 3, 5, 3), dims
    exact("depthwise_dilated_explicit", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def transpose_conv_same():
    """TRANSPOSE_CONV_2D [1,2,3,1] -> requested [1,4,6,2], filter [2,3,3,1], stride 2,
    implicit SAME: pads top 0, bottom 1, left 0, right 1."""
    x = draw(43, 6, -4, 4, 1)
    f = draw(44, 18, -1, 1, 0.25)
    b = [-0.25, 1.0]
    assert conv.transpose_same_padding(4, 2, 3) == (0, 1)
    assert conv.transpose_same_padding(6, 2, 3) == (0, 1)
    out, dims = conv.transpose_conv(x, (1, 2, 3, 1), f, (2, 3, 3, 1), b, (0, 1, 0, 1), (2, 2))
    assert dims == (1, 4, 6, 2), dims
    exact("transpose_conv_same", out, (0.25,))
    return {"input": x, "filter": f, "bias": b, "output": out}


@case
def fully_connected():
    """FULLY_CONNECTED: input [3, 4], weights [3, 4], bias [3]."""
    x = draw(51, 12, -4, 4, 1)
    w = draw(52, 12, -1, 1, 0.25)
    b = [1.0, -0.25, 0.5]
    out, dims = conv.fully_connected(x, w, (3, 4), b)
    assert dims == (3, 3), dims
    exact("fully_connected", out, (0.25,))
    return {"input": x, "weights": w, "bias": b, "output": out}


@case
def fully_connected_rank4():
    """FULLY_CONNECTED: input [2, 1, 2, 3] read as 2 rows of 6, weights [2, 6], bias [2]."""
    x = draw(53, 12, -4, 4, 1)
    w = draw(54, 12, -1, 1, 0.25)
    b = [-0.5, 0.25]
    out, dims = conv.fully_connected(x, w, (2, 6), b)
    assert dims == (2, 2), dims
    exact("fully_connected_rank4", out, (0.25,))
    return {"input": x, "weights": w, "bias": b, "output": out}


# ----------------------------------------------------------------------------- pooling


@case
def avg_pool_same():
    """AVERAGE_POOL_2D [1,4,4,2], implicit SAME, 3x3 filter, stride 1 (windows of 4, 6
    and 9 cells); means at least 0.1 of a step from a tie at scale 0.5."""
    x = draw(728, 32, -4, 4, 0.5)
    out, dims = pool.pool("avg", x, (1, 4, 4, 2), (1, 1, 1, 1), (1, 1), (3, 3))
    assert dims == (1, 4, 4, 2), dims
    margin("avg_pool_same", out, 0.5, 0.1)
    return {"input": x, "output": out}


@case
def avg_pool_explicit():
    """AVERAGE_POOL_2D [2,3,4,1], pads (t0, b1, l1, r0), strides (h1, w2), 2x2 filter."""
    x = draw(193, 24, -4, 4, 0.5)
    out, dims = pool.pool("avg", x, (2, 3, 4, 1), (0, 1, 1, 0), (1, 2), (2, 2))
    assert dims == (2, 3, 2, 1), dims
    margin("avg_pool_explicit", out, 0.5, 0.1)
    return {"input": x, "output": out}


@case
def max_pool():
    """MAX_POOL_2D [1,4,5,2], pads (t1, b0, l0, r1), strides (h2, w2), 3x2 filter."""
    x = draw(63, 40, -6, 6, 0.5)
    out, dims = pool.pool("max", x, (1, 4, 5, 2), (1, 0, 0, 1), (2, 2), (3, 2))
    assert dims == (1, 2, 3, 2), dims
    exact("max_pool", out, (0.5,))
    return {"input": x, "output": out}


@case
def max_pool_same():
    """MAX_POOL_2D [1,3,5,2], implicit SAME, 2x2 filter, stride 2: pads bottom 1, right 1."""
    x = draw(64, 30, -6, 6, 0.5)
    pads = pool.implicit_pads((1, 3, 5, 2), "SAME", (2, 2), (2, 2))
    assert pads == (0, 1, 0, 1), pads
    out, dims = pool.pool("max", x, (1, 3, 5, 2), pads, (2, 2), (2, 2))
    assert dims == (1, 2, 3, 2), dims
    return {"input": x, "output": out}


# ----------------------------------------------------------------------------- resizing
# Bilinear inputs are multiples of 2 (4 steps at scale 0.5, 8 at 0.25): upscaling by 2
# and by 1.5 only blends with weights k/4, so every result is on the grid and how a
# driver rounds or truncates a blend never matters.


@case
def resize_bilinear_up():
    """RESIZE_BILINEAR [1,2,3,2] -> [1,4,6,2]: weights 0 and 1/2 per axis."""
    x = draw(71, 12, -8, 8, 2)
    out, dims = pool.resize("bilinear", x, (1, 2, 3, 2), 4, 6)
    assert dims == (1, 4, 6, 2)
    exact("resize_bilinear_up", out, (0.5, 0.25))
    return {"input": x, "output": out}


@case
def resize_bilinear_mixed():
    """RESIZE_BILINEAR [1,4,3,1] -> [1,2,2,1]: height halved (source rows 0, 2),
    width 3 -> 2 (source columns 0 and 1.5)."""
    x = draw(72, 12, -8, 8, 2)
    out, dims = pool.resize("bilinear", x, (1, 4, 3, 1), 2, 2)
    assert dims == (1, 2, 2, 1)
    exact("resize_bilinear_mixed", out, (0.5, 0.25))
    return {"input": x, "output": out}


@case
def resize_nearest_up():
    """RESIZE_NEAREST_NEIGHBOR [1,2,2,2] -> [1,3,5,2] (floor of dst * in / out)."""
    x = draw(73, 8, -6, 6, 0.5)
    out, dims = pool.resize("nearest", x, (1, 2, 2, 2), 3, 5)
    assert dims == (1, 3, 5, 2)
    return {"input": x, "output": out}


@case
def resize_nearest_down():
    """RESIZE_NEAREST_NEIGHBOR [2,4,5,1] -> [2,2,3,1]."""
    x = draw(74, 40, -6, 6, 0.5)
    out, dims = pool.resize("nearest", x, (2, 4, 5, 1), 2, 3)
    assert dims == (2, 2, 3, 1)
    return {"input": x, "output": out}


# HAL 1.3's align_corners and half_pixel_centers (pooling_oracle.resize13, exact
# fractions). Bilinear blends here weigh multiples of 1/4 (inputs multiples of 2) or of
# 1/16 (inputs multiples of 8): every result is on the grid of scales 0.5 and 0.25.


@case
def resize_bilinear_align():
    """RESIZE_BILINEAR [1,3,3,1] -> [1,5,5,1] with align_corners (scale 1/2 per axis)."""
    x = draw(75, 9, -8, 8, 2)
    out = pool.resize13("bilinear", x, (1, 3, 3, 1), 5, 5, True, False)
    exact("resize_bilinear_align", out, (0.5, 0.25))
    return {"input": x, "output": out}


@case
def resize_bilinear_half_pixel():
    """RESIZE_BILINEAR [1,2,4,1] -> [1,4,8,1] with half_pixel_centers: sources
    i / 2 - 1/4 (weights 1/4, 3/4; -1/4 clamps to cell 0)."""
    x = draw(76, 8, -48, 48, 8)
    out = pool.resize13("bilinear", x, (1, 2, 4, 1), 4, 8, False, True)
    exact("resize_bilinear_half_pixel", out, (0.5,))
    return {"input": x, "output": out}


@case
def resize_bilinear_half_pixel_down():
    """RESIZE_BILINEAR [1,4,4,2] by scale 0.5 -> [1,2,2,2] with half_pixel_centers:
    sources 2i + 1/2."""
    x = draw(77, 32, -8, 8, 2)
    out = pool.resize13("bilinear", x, (1, 4, 4, 2), 2, 2, False, True)
    exact("resize_bilinear_half_pixel_down", out, (0.5, 0.25))
    return {"input": x, "output": out}


@case
def resize_nearest_align():
    """RESIZE_NEAREST_NEIGHBOR [1,3,4,1] -> [1,4,6,1] with align_corners: rows
    round(i * 2/3), columns round(i * 3/5), none of them near a half."""
    x = draw(78, 12, -6, 6, 0.5)
    out = pool.resize13("nearest", x, (1, 3, 4, 1), 4, 6, True, False)
    return {"input": x, "output": out}


@case
def resize_nearest_half_pixel():
    """RESIZE_NEAREST_NEIGHBOR [1,3,3,2] -> [1,2,2,2] with half_pixel_centers:
    floor((i + 1/2) * 3/2) = 0, 2."""
    x = draw(79, 18, -6, 6, 0.5)
    out = pool.resize13("nearest", x, (1, 3, 3, 2), 2, 2, False, True)
    return {"input": x, "output": out}


@case
def resize_nearest_align_scale():
    """RESIZE_NEAREST_NEIGHBOR [1,2,3,2] by scale 2 -> [1,4,6,2] with align_corners:
    rows round(i / 3), columns round(i * 2/5)."""
    x = draw(80, 12, -6, 6, 0.5)
    out = pool.resize13("nearest", x, (1, 2, 3, 2), 4, 6, True, False)
    return {"input": x, "output": out}


# ----------------------------------------------------------------------------- copies
# Values are multiples of 0.5 in [-20, 20]: at scale 0.25 some of them saturate at -128
# or 127 with the specs' zero points, and the output (same quantization) saturates the
# same way.


def _values(seed, count):
    return draw(seed, count, -20, 20, 0.5)


@case
def concatenation():
    """CONCATENATION of [2,2] (multiples of 0.5), [2,3] (multiples of 0.25) on axis 1."""
    a = draw(81, 4, -6, 6, 0.5)
    b = draw(82, 6, -3, 3, 0.25)
    out, dims = shape.concatenation([(a, [2, 2]), (b, [2, 3])], 1)
    assert dims == [2, 5]
    exact("concatenation", out, (0.25,))
    return {"input0": a, "input1": b, "output": out}


@case
def concatenation_channels():
    """CONCATENATION of three [1,2,2,k] tensors (k = 1, 2, 1) on axis 3."""
    a = draw(83, 4, -4, 4, 0.5)
    b = draw(84, 8, -4, 4, 0.25)
    c = draw(85, 4, -8, 8, 1)
    out, dims = shape.concatenation([(a, [1, 2, 2, 1]), (b, [1, 2, 2, 2]), (c, [1, 2, 2, 1])], 3)
    assert dims == [1, 2, 2, 4]
    exact("concatenation_channels", out, (0.25,))
    return {"input0": a, "input1": b, "input2": c, "output": out}


@case
def depth_to_space():
    x = _values(91, 16)
    out, dims = shape.depth_to_space(x, [1, 2, 2, 4], 2)
    assert dims == [1, 4, 4, 1]
    return {"input": x, "output": out}


@case
def space_to_depth():
    x = _values(92, 32)
    out, dims = shape.space_to_depth(x, [1, 4, 4, 2], 2)
    assert dims == [1, 2, 2, 8]
    return {"input": x, "output": out}


@case
def batch_to_space():
    x = _values(93, 16)
    out, dims = shape.batch_to_space(x, [4, 2, 1, 2], [2, 2])
    assert dims == [1, 4, 2, 2]
    return {"input": x, "output": out}


@case
def space_to_batch():
    """Block [2, 2], paddings [[1, 0], [0, 1]]: the padding is real 0 (the zero point)."""
    x = _values(94, 18)
    out, dims = shape.space_to_batch(x, [1, 3, 3, 2], [2, 2], [(1, 0), (0, 1)], 0.0)
    assert dims == [4, 2, 2, 2], dims
    return {"input": x, "output": out}


@case
def reshape():
    x = _values(95, 12)
    return {"input": x, "output": list(x)}


@case
def squeeze():
    x = _values(96, 6)
    out, dims = shape.squeeze(x, [1, 3, 1, 2], [0, 2])
    assert dims == [3, 2], dims
    return {"input": x, "output": out}


@case
def expand_dims():
    x = _values(97, 6)
    return {"input": x, "output": list(x)}


@case
def strided_slice():
    """[3, 4] begin [2, 0] end [0, 4] strides [-1, 2], no masks -> [2, 2]."""
    x = _values(101, 12)
    out, dims = shape.strided_slice(x, [3, 4], [2, 0], [0, 4], [-1, 2], 0, 0, 0)
    assert dims == [2, 2], dims
    return {"input": x, "output": out}


@case
def slice_():
    """[2, 3, 4] begin [1, 0, 1] size [1, -1, 2] -> [1, 3, 2]."""
    x = _values(102, 24)
    out, dims = shape.slice_(x, [2, 3, 4], [1, 0, 1], [1, -1, 2])
    assert dims == [1, 3, 2], dims
    return {"input": x, "output": out}


@case
def split():
    """[2, 6] on axis -1 into 3 outputs of [2, 2]."""
    x = _values(103, 12)
    parts = shape.split(x, [2, 6], 1, 3)
    result = {"input": x}
    for k, (values, dims) in enumerate(parts):
        assert dims == [2, 2], dims
        result[f"output{k}"] = values
    return result


@case
def tile():
    """[2, 3] tiled [2, 2] -> [4, 6]."""
    x = _values(104, 6)
    out, dims = shape.tile(x, [2, 3], [2, 2])
    assert dims == [4, 6], dims
    return {"input": x, "output": out}


@case
def transpose():
    """[2, 3, 4] with perm [1, 2, 0] -> [3, 4, 2]."""
    x = _values(105, 24)
    out, dims = shape.transpose(x, [2, 3, 4], [1, 2, 0])
    assert dims == [3, 4, 2], dims
    return {"input": x, "output": out}


@case
def pad():
    """[1, 2, 3, 1] with paddings [[0, 0], [1, 1], [2, 0], [0, 1]] -> [1, 4, 5, 2]; the
    padding is real 0 (the zero point)."""
    x = _values(106, 6)
    out, dims = shape.pad(x, [1, 2, 3, 1], [(0, 0), (1, 1), (2, 0), (0, 1)], 0.0)
    assert dims == [1, 4, 5, 2], dims
    return {"input": x, "output": out}


@case
def pad_v2():
    """Raw signed bytes: [2, 3] with paddings [[1, 0], [0, 2]] and pad byte -100 -> [3, 5]."""
    x = [-128.0, -1.0, 0.0, 1.0, 127.0, -100.0]
    out, dims = shape.pad(x, [2, 3], [(1, 0), (0, 2)], -100.0)
    assert dims == [3, 5], dims
    return {"input": x, "output": out}


@case
def pad_v2_zero_point():
    """Raw signed bytes at zero point -128: [4] with paddings [[2, 1]] and pad byte -128."""
    x = [-128.0, -127.0, 100.0, 127.0]
    out, dims = shape.pad(x, [4], [(2, 1)], -128.0)
    assert dims == [7], dims
    return {"input": x, "output": out}


@case
def channel_shuffle():
    """[2, 2, 6], 3 groups, axis 2 (and -1)."""
    x = _values(107, 24)
    out, dims = shape.channel_shuffle(x, [2, 2, 6], 3, 2)
    assert dims == [2, 2, 6], dims
    return {"input": x, "output": out}


# ----------------------------------------------------------------------------- detection


@case
def bbox():
    """AXIS_ALIGNED_BBOX_TRANSFORM: 3 rois in 2 images (12x16, 20x20), 2 classes; deltas
    multiples of 0.125 in [-1, 1.5] (exact at scale 0.125)."""
    rois = [1, 2, 9, 6, 0, 0, 4, 12, 10, 4, 18, 20]
    deltas = [0.25, -0.5, 0.125, 0.0, -1.0, 0.5, 1.5, -0.25,
              0.0, 0.0, -0.5, 0.5, 0.75, 1.0, 0.0, 1.25,
              -0.125, 0.375, 0.25, -0.75, 1.0, -1.0, 0.5, 0.25]  # fmt: skip
    batches = [0, 1, 1]
    images = [12, 16, 20, 20]
    out = det.bbox_transform(rois, deltas, batches, images)
    margin("bbox", out, 0.125, 0.02)
    return {"rois": rois, "deltas": deltas, "image_info": images, "out": out}


NMS_SCORES = [
    0.25, 0.9375, 0.125,
    0.5, 0.625, 0.6875,
    0.0, 0.3125, 0.75,
    0.75, 0.8125, 0.375,
    0.125, 0.0625, 0.5,
]  # fmt: skip
NMS_ROIS = [
    0, 0, 1, 1, 0, 0, 4, 4, 8, 8, 12, 12,
    0, 0, 1, 1, 1, 1, 5, 5, 9, 8, 13, 12,
    0, 0, 1, 1, 10, 0, 14, 4, 2, 2, 6, 6,
    0, 0, 1, 1, 0, 1, 4, 5, 8, 9, 12, 13,
    0, 0, 1, 1, 0, 0, 2, 2, 20, 20, 24, 22,
]  # fmt: skip


@case
def nms():
    """BOX_WITH_NMS_LIMIT, hard NMS: score threshold 0.2, IoU 0.45, NMS score threshold
    0.2, unlimited; one image. Scores are multiples of 1/16."""
    params = (0.2, -1, "hard", 0.45, 1.0, 0.2)
    scores, boxes, classes, batches = det.box_with_nms_limit(
        NMS_SCORES, NMS_ROIS, [0] * 5, params, margin=0.02
    )
    exact("nms", scores, (1 / 16,))
    return {"scores": NMS_SCORES, "rois": NMS_ROIS, "out_scores": scores, "out_rois": boxes,
            "out_classes": classes, "out_batches": batches}  # fmt: skip


@case
def nms_linear():
    """BOX_WITH_NMS_LIMIT, linear soft NMS at IoU 0.3, max 3 detections, two images."""
    params = (0.2, 3, "linear", 0.3, 1.0, 0.2)
    scores, boxes, classes, batches = det.box_with_nms_limit(
        NMS_SCORES, NMS_ROIS, [0, 0, 0, 3, 3], params, margin=0.02
    )
    margin("nms_linear", scores, 1 / 64, 0.02)
    return {"scores": NMS_SCORES, "rois": NMS_ROIS, "out_scores": scores, "out_rois": boxes,
            "out_classes": classes, "out_batches": batches}  # fmt: skip


@case
def nms_gaussian():
    """BOX_WITH_NMS_LIMIT, gaussian soft NMS (sigma 0.75), at most 4 detections per image,
    images 0 (rois 0-1) and 1 (rois 2-4); the rescored 0.5096 is 0.27 and 0.11 of a step
    from a tie at 1/128 and 1/64."""
    params = (0.2, 4, "gaussian", 0.5, 0.75, 0.2)
    scores, boxes, classes, batches = det.box_with_nms_limit(
        NMS_SCORES, NMS_ROIS, [0, 0, 1, 1, 1], params, margin=0.02
    )
    margin("nms_gaussian", scores, 1 / 128, 0.1)
    margin("nms_gaussian", scores, 1 / 64, 0.1)
    return {"scores": NMS_SCORES, "rois": NMS_ROIS, "out_scores": scores, "out_rois": boxes,
            "out_classes": classes, "out_batches": batches}  # fmt: skip


GP_ANCHORS = [0.0, 0.0, 4.0, 2.0, -1.0, -2.0, 3.0, 6.0]
GP_SCORES = [0.5, 0.25, 0.75, 0.875, 0.125, 0.625, 0.375, 0.0,
             0.8125, 0.4375, 0.1875, 0.6875, 0.5625, 0.3125, 0.9375, 0.0625]  # fmt: skip
GP_DELTAS = [0.0, 0.1, 0.2, -0.1, 0.1, 0.0, 0.0, 0.3,
             -0.2, 0.0, 0.1, 0.1, 0.0, -0.3, -0.2, 0.0,
             0.3, 0.1, 0.0, 0.0, 0.0, 0.2, 0.1, -0.2,
             0.1, -0.1, -0.3, 0.2, 0.2, 0.0, 0.0, 0.1,
             0.0, 0.0, 0.4, 0.0, -0.1, 0.1, 0.0, 0.0,
             0.2, 0.2, 0.0, -0.1, 0.0, 0.0, 0.2, 0.2,
             -0.1, 0.0, 0.0, 0.0, 0.1, -0.2, 0.3, 0.1,
             0.0, 0.3, 0.1, 0.0, -0.3, 0.0, 0.0, -0.1]  # fmt: skip
GP_INFO = [8.0, 10.0, 10.0, 6.0]


@case
def proposals():
    """GENERATE_PROPOSALS: 2 images of 8x10 and 10x6, a 2x2 map of 2 anchors, strides 4,
    pre-NMS 3, post-NMS 2, IoU 0.5, min size 1. Scores multiples of 1/16, deltas of 0.1."""
    scores, boxes, batches = prop.generate_proposals(
        prop.nest(GP_SCORES, [2, 2, 2, 2]),
        prop.nest(GP_DELTAS, [2, 2, 2, 8]),
        prop.nest(GP_ANCHORS, [2, 4]),
        prop.nest(GP_INFO, [2, 2]),
        (4.0, 4.0),
        3,
        2,
        0.5,
        1.0,
    )
    exact("proposals", scores, (1 / 16,))
    margin("proposals", boxes, 0.125, 0.02)
    return {"scores": GP_SCORES, "deltas": GP_DELTAS, "anchors": GP_ANCHORS,
            "image_info": GP_INFO, "scores_out": scores, "rois_out": boxes,
            "batches_out": batches}  # fmt: skip


# 3 boxes x 3x3 heatmaps x 1 keypoint (NHWC [3, 3, 3, 1])
HM_X = [
    0.5, 3.0, 1.5, 2.0, -1.0, 0.0, -0.5, 1.0, 0.0,
    1.0, 2.5, 4.0, 6.5, 5.0, 3.5, 2.0, 1.5, 0.5,
    3.0, 1.0, 2.0, 4.0, 6.0, 2.5, 5.5, 0.0, 1.0,
]  # fmt: skip


@case
def heatmap():
    """HEATMAP_MAX_KEYPOINT: 3 boxes, 3x3 heatmaps, 1 keypoint."""
    boxes = [0.0, 0.0, 6.0, 6.0, 2.0, 1.0, 8.0, 4.0, 1.0, 3.0, 4.0, 9.0]
    heatmaps = [[[[HM_X[(b * 3 + y) * 3 + x]] for x in range(3)] for y in range(3)]
                for b in range(3)]  # fmt: skip
    scores, points = prop.heatmap_max_keypoint(heatmaps, [boxes[i : i + 4] for i in (0, 4, 8)])
    margin("heatmap scores", scores, 0.125, 0.02)
    margin("heatmap keypoints", points, 0.125, 0.02)
    return {"heatmap": HM_X, "boxes": boxes, "score": scores, "keypoint": points}


AL_X = draw(111, 32, -4, 4, 0.5)  # [1, 4, 4, 2]
AL_ROIS = [0, 0, 8, 8, 2, 1, 7, 6, 5, 4, 8, 8, 1, 2, 1.5, 2.25]


@case
def roi_align():
    """ROI_ALIGN [1,4,4,2], image ratio 2, 2x2 bins of 2x2 samples. The signed integer
    path (input 0.5 with zero point -3 or 100, output 0.15 with -100 or 120, saturating
    at 127 above 1.05) equals the
    unsigned one with the zero points moved by 128, minus 128."""
    args = (AL_X, (1, 4, 4, 2), AL_ROIS, [0] * 4, 2, 2, 2.0, 2.0, 2, 2)
    out = det.roi_align(*args)
    for s_in, zp_in, s_out, zp_out in ((0.5, -3, 0.15, -100), (0.5, 100, 0.15, 120)):
        unsigned = det.roi_align(*args, quant=(s_in, zp_in + 128, s_out, zp_out + 128))
        det.check_align_quant("roi_align", out, unsigned, s_out, zp_out + 128)
    return {"features": AL_X, "rois": AL_ROIS, "out": out}


AL_B_X = draw(113, 24, -4, 4, 0.5)  # [2, 3, 4, 1]
AL_B_ROIS = [0, 0, 8, 3, 2, 0.5, 6, 2.5, 1, 1, 3, 3]


@case
def roi_align_batches():
    """ROI_ALIGN [2,3,4,1], height ratio 1, width ratio 2, 2x3 bins, adaptive sampling
    (0: ceil of the bin size), rois in images 0, 1, 1. Signed paths checked as above:
    input 0.5 with zero point -20 or 60, output 0.07 with -88 (results below -2.8
    saturate at -128) or 0.125 with 10."""
    args = (AL_B_X, (2, 3, 4, 1), AL_B_ROIS, [0, 1, 1], 2, 3, 1.0, 2.0, 0, 0)
    out = det.roi_align(*args)
    for s_in, zp_in, s_out, zp_out in ((0.5, -20, 0.07, -88), (0.5, 60, 0.125, 10)):
        unsigned = det.roi_align(*args, quant=(s_in, zp_in + 128, s_out, zp_out + 128))
        det.check_align_quant("roi_align_batches", out, unsigned, s_out, zp_out + 128)
    return {"features": AL_B_X, "rois": AL_B_ROIS, "out": out}


RP_X = draw(112, 40, -6, 6, 0.5)  # [2, 4, 5, 1]
RP_ROIS = [0, 0, 9, 7, 2, 2, 6.5, 5, 4.5, 0, 10, 3.5]


@case
def roi_pooling():
    """ROI_POOLING [2,4,5,1], ratio 2 (image coordinates twice the map's), 2x2 bins,
    rois in images 1, 0, 1."""
    out = det.roi_pooling(RP_X, (2, 4, 5, 1), RP_ROIS, [1, 0, 1], 2, 2, 2.0, 2.0)
    return {"features": RP_X, "rois": RP_ROIS, "out": out}


def fmt(values):
    return "[" + ", ".join(f"{v:.7g}" for v in values) + "]"


def main():
    for name, fn in CASES.items():
        print(f"{name}:")
        for operand, values in fn().items():
            print(f"  {operand} = {fmt(values)}")


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
