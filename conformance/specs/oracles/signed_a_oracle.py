"""Offline oracle for the TENSOR_QUANT8_ASYMM_SIGNED specs of V1_3 (first half).

Specs: V1_3/{add,sub,mul,maximum_minimum,prelu,relu,logistic,tanh,softmax,
l2_normalization,comparisons,select,quantize,dequantize,argmax_argmin,
reduce_max_min,mean,topk_v2,gather,embedding_lookup}_quant8_signed.mod.py.

Plain Python, independent of the reference driver and of the generator. It
borrows the element-wise fixed-point helpers of elementwise_oracle.py (the
rounding multiply MBQM, broadcasting) and the axis walkers of
reduction_oracle.py, and works on int8 values in [-128, 127].

Each case gives float inputs and, per signed quantization variant, the scale
and zero point of every quantized operand. The script

* computes the float golden of every output (double, printed with 9
  significant digits: the specs carry these numbers);
* quantizes the inputs as the generator does (float32 divide, add the zero
  point, round half to even, clamp to [-128, 127]) and requires each to be
  exact (the real value is recovered), so that the float golden is the
  operation applied to what the driver receives;
* computes each quantized output with the HAL's integer arithmetic (the
  left-shift-20 scheme of ADD/SUB, MBQM for MUL and PRELU, requantization
  rounding half away from zero for MAXIMUM, MINIMUM and SELECT, raw int8
  comparisons for arg/reduce/topk, round half away of 256 * sigmoid - 128,
  128 * tanh, 256 * softmax - 128 and 128 * x / |x| for the fixed output
  quantizations, clamped to [-128, 127]);
* requires that to equal what the generator derives from the float golden,
  and prints the distance of each scaled golden from a rounding tie (a
  golden nearer than 0.05 to a tie is refused: fixed-point kernels may land
  on either side there).

Run: ``python conformance/specs/oracles/signed_a_oracle.py`` (prints the goldens) or
``--check`` (compares them with the specs).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from elementwise_oracle import (
    all_indexes,
    broadcast_shape,
    flat_at,
    mbqm,
    mbqm_fixed,
    quantize_multiplier,
    round_half_away,
)
from reduction_oracle import arg_extreme, reduce_axes, topk

QMIN, QMAX = -128, 127
MIN_TIE_DISTANCE = 0.05


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f16(x: float) -> float:
    return struct.unpack("<e", struct.pack("<e", x))[0]


def clamp8(q: int) -> int:
    return min(QMAX, max(QMIN, q))


def gen_quant(x: float, scale: float, zero_point: int) -> int:
    """The generator's quantization: float32 steps, round half to even, int8 clamp."""
    return clamp8(round(f32(f32(f32(x) / f32(scale)) + zero_point)))


def scaled(x: float, scale: float, zero_point: int) -> float:
    return f32(f32(f32(x) / f32(scale)) + zero_point)


def tie_distance(value: float) -> float:
    return abs(abs(value - math.floor(value)) - 0.5)


def exact_input(x: float, scale: float, zero_point: int) -> int:
    q = gen_quant(x, scale, zero_point)
    if f32(f32(scale) * (q - zero_point)) != f32(x):
        raise AssertionError(f"input {x} is not exact at ({scale}, {zero_point}): q {q}")
    return q


def dequant(q: int, params: tuple[float, int]) -> float:
    scale, zero_point = params
    return f32(scale) * (q - zero_point)


def requantize(q: int, source: tuple[float, int], target: tuple[float, int]) -> int:
    """An int8 value moved to another quantization: round half away from zero, clamp."""
    real = dequant(q, source) / f32(target[0])
    return clamp8(target[1] + round_half_away(real))


# Activations -------------------------------------------------------------------------

ACT_BOUNDS = {
    "none": (-math.inf, math.inf),
    "relu": (0.0, math.inf),
    "relu1": (-1.0, 1.0),
    "relu6": (0.0, 6.0),
}


def act_float(y: float, act: str) -> float:
    low, high = ACT_BOUNDS[act]
    return min(high, max(low, y))


def act_range(act: str, params: tuple[float, int]) -> tuple[int, int]:
    scale, zero_point = params
    low, high = ACT_BOUNDS[act]
    lo = QMIN if low == -math.inf else max(QMIN, zero_point + round_half_away(low / scale))
    hi = QMAX if high == math.inf else min(QMAX, zero_point + round_half_away(high / scale))
    return lo, hi


# Element-wise operations (broadcasting) ------------------------------------------------


def broadcast(fn, sa, a, sb, b):
    shape = broadcast_shape(sa, sb)
    return [fn(flat_at(a, sa, i), flat_at(b, sb, i)) for i in all_indexes(shape)]


def int_add_sub(sign, qa, qb, pa, pb, po, act):
    (sa, za), (sb, zb), (so, zo) = pa, pb, po
    twice = 2 * max(sa, sb)
    a = mbqm((qa - za) * 2**20, sa / twice)
    m0, shift = quantize_multiplier(sb / twice)
    b = mbqm_fixed((qb - zb) * 2**20, sign * m0, shift)
    lo, hi = act_range(act, po)
    return min(hi, max(lo, zo + mbqm(a + b, twice / (2**20 * so))))


def int_mul(qa, qb, pa, pb, po, act):
    (sa, za), (sb, zb), (so, zo) = pa, pb, po
    lo, hi = act_range(act, po)
    return min(hi, max(lo, zo + mbqm((qa - za) * (qb - zb), sa * sb / so)))


def int_prelu(qx, qalpha, px, palpha, po, act):
    (sx, zx), (sa, za), (so, zo) = px, palpha, po
    x = qx - zx
    raw = mbqm(x, sx / so) if x >= 0 else mbqm(x * (qalpha - za), sx * sa / so)
    return clamp8(zo + raw)


def binary(float_fn, int_fn):
    """A case runner for two broadcast inputs ``a``, ``b`` and output ``out``."""

    def floats(ins):
        (sa, a), (sb, b) = ins["a"], ins["b"]
        return {"out": broadcast(float_fn, sa, a, sb, b)}

    def ints(qins, params, act):
        (sa, a), (sb, b) = qins["a"], qins["b"]
        pa, pb, po = params["a"], params["b"], params["out"]
        return {"out": broadcast(lambda x, y: int_fn(x, y, pa, pb, po, act), sa, a, sb, b)}

    return floats, ints


def extremum(pick):
    def run(qa, qb, pa, pb, po, act):
        return pick(requantize(qa, pa, po), requantize(qb, pb, po))

    return run


# The cases -----------------------------------------------------------------------------
# Each case: (label, (floats, ints), inputs {name: (shape, values)}, activations,
# variants [(name, {operand: (scale, zero point)})], fixed output quantization or None).

CASES: list = []


def case(label, runner, inputs, variants, acts=("none",)):
    CASES.append((label, runner, inputs, acts, variants))


# ---- ADD
case(
    "add broadcast",
    binary(lambda x, y: x + y, lambda *a: int_add_sub(1, *a)),
    {"a": ((2, 3), [-3.0, -0.5, 0.0, 1.5, 4.0, 10.0]), "b": ((3,), [0.5, -1.0, 2.0])},
    [
        ("zp_neg", {"a": (0.5, -100), "b": (0.25, -50), "out": (0.25, -128)}),
        ("zp_zero", {"a": (0.125, 0), "b": (0.5, 0), "out": (0.0625, 0)}),
        ("zp_pos", {"a": (0.5, 100), "b": (0.5, 120), "out": (0.25, 90)}),
        ("scale_0_3", {"a": (0.5, -10), "b": (0.25, 5), "out": (0.3, -20)}),
    ],
    acts=("none", "relu", "relu1", "relu6"),
)


case(
    "add extremes",
    binary(lambda x, y: x + y, lambda *a: int_add_sub(1, *a)),
    {
        "a": ((1, 2, 2, 1), [0.0, 1.0, 31.75, 15.625]),
        "b": ((1, 2, 2, 1), [-16.0, -0.5, 0.0, -31.875]),
    },
    [
        ("out_zp_0", {"a": (0.125, -128), "b": (0.125, 127), "out": (0.125, 0)}),
        ("out_zp_min", {"a": (0.125, -128), "b": (0.125, 127), "out": (0.25, -128)}),
        ("out_scale_0_75", {"a": (0.125, -128), "b": (0.125, 127), "out": (0.75, 100)}),
    ],
)

# ---- SUB
case(
    "sub broadcast",
    binary(lambda x, y: x - y, lambda *a: int_add_sub(-1, *a)),
    {"a": ((3,), [-1.0, 2.5, 6.0]), "b": ((2, 3), [0.5, 3.0, -2.0, -4.0, 1.0, 8.0])},
    [
        ("zp_neg", {"a": (0.5, -120), "b": (0.25, -100), "out": (0.125, -64)}),
        ("zp_zero", {"a": (0.25, 0), "b": (0.125, 0), "out": (0.0625, 0)}),
        ("zp_pos", {"a": (0.25, 100), "b": (0.5, 110), "out": (0.5, 110)}),
        ("scale_0_7", {"a": (0.5, -20), "b": (0.25, 10), "out": (0.7, 3)}),
    ],
    acts=("none", "relu", "relu1", "relu6"),
)

case(
    "sub extremes",
    binary(lambda x, y: x - y, lambda *a: int_add_sub(-1, *a)),
    {
        "a": ((1, 2, 2, 1), [0.0, -1.0, -15.875, -31.875]),
        "b": ((1, 2, 2, 1), [0.0, 15.875, 0.125, 31.875]),
    },
    [
        ("out_zp_max", {"a": (0.125, 127), "b": (0.125, -128), "out": (0.125, 127)}),
        ("out_scale_0_3", {"a": (0.125, 127), "b": (0.125, -128), "out": (0.3, 0)}),
        ("out_scale_0_5", {"a": (0.125, 127), "b": (0.125, -128), "out": (0.5, -10)}),
    ],
)

# ---- MUL
case(
    "mul broadcast",
    binary(lambda x, y: x * y, int_mul),
    {"a": ((2, 2), [-2.0, 1.5, 3.0, -0.5]), "b": ((2, 1), [2.0, -1.5])},
    [
        ("zp_neg", {"a": (0.5, -100), "b": (0.5, -120), "out": (0.25, -100)}),
        ("zp_zero", {"a": (0.125, 0), "b": (0.25, 0), "out": (0.03125, 0)}),
        ("zp_pos", {"a": (0.25, 110), "b": (0.5, 100), "out": (0.0625, 60)}),
        ("scale_0_09", {"a": (0.5, -10), "b": (0.25, 20), "out": (0.09, -10)}),
    ],
    acts=("none", "relu", "relu1", "relu6"),
)

# ---- MAXIMUM, MINIMUM
EXTREMUM_INPUTS = {
    "a": ((2, 3), [-3.0, 0.5, 2.25, 7.0, -0.25, 1.0]),
    "b": ((3,), [1.0, -1.5, 2.0]),
}
EXTREMUM_VARIANTS = [
    ("zp_neg", {"a": (0.25, -100), "b": (0.5, -125), "out": (0.25, -128)}),
    ("zp_zero", {"a": (0.25, 0), "b": (0.125, 0), "out": (0.35, 0)}),
    ("zp_pos", {"a": (0.25, 90), "b": (0.5, 120), "out": (0.0625, 100)}),
]
case("maximum", binary(max, extremum(max)), EXTREMUM_INPUTS, EXTREMUM_VARIANTS)
case("minimum", binary(min, extremum(min)), EXTREMUM_INPUTS, EXTREMUM_VARIANTS)

# ---- PRELU
case(
    "prelu channels",
    binary(lambda x, alpha: x if x >= 0 else x * alpha, int_prelu),
    {
        "a": (
            (1, 2, 2, 3),
            [-4.0, -2.0, 1.0, 2.0, -1.0, -3.0, 0.0, 3.5, -0.5, -6.0, 6.0, -2.5],
        ),
        "b": ((3,), [0.25, -0.5, 1.5]),
    },
    [
        ("zp_neg", {"a": (0.5, -110), "b": (0.25, -120), "out": (0.25, -100)}),
        ("zp_zero", {"a": (0.25, 0), "b": (0.125, 0), "out": (0.125, 0)}),
        ("zp_pos", {"a": (0.5, 100), "b": (0.0625, 50), "out": (0.0625, 120)}),
        ("scale_0_15", {"a": (0.5, 10), "b": (0.25, -3), "out": (0.15, -5)}),
    ],
)


# ---- Unary operations: ``in`` -> ``out``


def unary(float_fn, int_fn):
    def floats(ins):
        return {"out": [float_fn(x) for x in ins["in"][1]]}

    def ints(qins, params, act):
        return {"out": [int_fn(q, params["in"], params["out"]) for q in qins["in"][1]]}

    return floats, ints


def clamp_to(act):
    def run(q, pin, pout):
        lo, hi = act_range(act, pin)
        return min(hi, max(lo, q))

    return run


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


RELU_INPUTS = {"in": ((1, 2, 2, 3), [-4.0, -1.5, -1.0, -0.25, 0.0, 0.5, 1.0, 1.25, 3.0, 6.0, 7.5, 10.0])}
RELU_VARIANTS = [
    ("zp_neg", {"in": (0.25, -112), "out": (0.25, -112)}),
    ("zp_zero", {"in": (0.125, 0), "out": (0.125, 0)}),
    ("zp_pos", {"in": (0.125, 47), "out": (0.125, 47)}),
]
case("relu", unary(lambda x: max(0.0, x), clamp_to("relu")), RELU_INPUTS, RELU_VARIANTS)
case("relu1", unary(lambda x: min(1.0, max(-1.0, x)), clamp_to("relu1")), RELU_INPUTS, RELU_VARIANTS)
case("relu6", unary(lambda x: min(6.0, max(0.0, x)), clamp_to("relu6")), RELU_INPUTS, RELU_VARIANTS)

RELU_LOW = {"in": ((6,), [0.0, 0.25, 1.0, 5.75, 6.0, 63.75])}
RELU_HIGH = {"in": ((6,), [-63.75, -6.0, -1.0, -0.75, -0.25, 0.0])}
for _op, _fn in (
    ("relu", lambda x: max(0.0, x)),
    ("relu1", lambda x: min(1.0, max(-1.0, x))),
    ("relu6", lambda x: min(6.0, max(0.0, x))),
):
    case(f"{_op} zp -128", unary(_fn, clamp_to(_op)), RELU_LOW,
         [("zp_min", {"in": (0.25, -128), "out": (0.25, -128)})])
    case(f"{_op} zp 127", unary(_fn, clamp_to(_op)), RELU_HIGH,
         [("zp_max", {"in": (0.25, 127), "out": (0.25, 127)})])

FIXED_INPUTS = {"in": ((2, 2, 2), [-4.0, -2.5, -0.75, -0.5, 0.0, 1.5, 3.0, 11.5])}
LOGISTIC_OUT = (1.0 / 256, -128)
TANH_OUT = (1.0 / 128, 0)
case(
    "logistic",
    unary(sigmoid, lambda q, pin, pout: clamp8(round_half_away(256 * sigmoid(dequant(q, pin))) - 128)),
    FIXED_INPUTS,
    [
        ("zp_neg", {"in": (0.0625, -64), "out": LOGISTIC_OUT}),
        ("zp_zero", {"in": (0.125, 0), "out": LOGISTIC_OUT}),
        ("zp_pos", {"in": (0.25, 80), "out": LOGISTIC_OUT}),
    ],
)
case(
    "tanh",
    unary(math.tanh, lambda q, pin, pout: clamp8(round_half_away(128 * math.tanh(dequant(q, pin))))),
    FIXED_INPUTS,
    [
        ("zp_neg", {"in": (0.0625, -64), "out": TANH_OUT}),
        ("zp_zero", {"in": (0.125, 0), "out": TANH_OUT}),
        ("zp_pos", {"in": (0.25, 80), "out": TANH_OUT}),
    ],
)

FIXED_LOW = {"in": ((6,), [0.0, 0.375, 1.25, 4.0, 8.0, 31.875])}
FIXED_HIGH = {"in": ((6,), [-31.875, -8.0, -4.0, -1.25, -0.375, 0.0])}
case(
    "logistic zp -128",
    unary(sigmoid, lambda q, pin, pout: clamp8(round_half_away(256 * sigmoid(dequant(q, pin))) - 128)),
    FIXED_LOW,
    [("zp_min", {"in": (0.125, -128), "out": LOGISTIC_OUT})],
)
case(
    "logistic zp 127",
    unary(sigmoid, lambda q, pin, pout: clamp8(round_half_away(256 * sigmoid(dequant(q, pin))) - 128)),
    FIXED_HIGH,
    [("zp_max", {"in": (0.125, 127), "out": LOGISTIC_OUT})],
)
case(
    "tanh zp -128",
    unary(math.tanh, lambda q, pin, pout: clamp8(round_half_away(128 * math.tanh(dequant(q, pin))))),
    FIXED_LOW,
    [("zp_min", {"in": (0.125, -128), "out": TANH_OUT})],
)
case(
    "tanh zp 127",
    unary(math.tanh, lambda q, pin, pout: clamp8(round_half_away(128 * math.tanh(dequant(q, pin))))),
    FIXED_HIGH,
    [("zp_max", {"in": (0.125, 127), "out": TANH_OUT})],
)


# ---- Operations along an axis (SOFTMAX, L2_NORMALIZATION)


def lines(shape, axis):
    """The flat positions of every line of ``shape`` along ``axis``."""
    rank = len(shape)
    axis = axis + rank if axis < 0 else axis
    rest = [d for i, d in enumerate(shape) if i != axis]
    strides = [1] * rank
    for i in range(rank - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    out = []
    for outer in all_indexes(rest):
        index = [*outer[:axis], 0, *outer[axis:]]
        base = sum(i * st for i, st in zip(index, strides, strict=True))
        out.append([base + k * strides[axis] for k in range(shape[axis])])
    return out


def along(line_fn, shape, axis, values):
    result = [0.0] * len(values)
    for positions in lines(shape, axis):
        for position, y in zip(positions, line_fn([values[p] for p in positions]), strict=True):
            result[position] = y
    return result


def softmax_line(beta):
    def run(xs):
        top = max(xs)
        exps = [math.exp(beta * (x - top)) for x in xs]
        total = sum(exps)
        return [e / total for e in exps]

    return run


def l2_line(xs):
    norm = math.sqrt(sum(x * x for x in xs))
    return [0.0 if norm == 0 else x / norm for x in xs]


def axis_op(line_fn, axis, to_int):
    def floats(ins):
        shape, values = ins["in"]
        return {"out": along(line_fn, shape, axis, values)}

    def ints(qins, params, act):
        shape, qs = qins["in"]
        reals = [dequant(q, params["in"]) for q in qs]
        return {"out": [clamp8(to_int(y)) for y in along(line_fn, shape, axis, reals)]}

    return floats, ints


SOFTMAX_OUT = (1.0 / 256, -128)
L2_OUT = (1.0 / 128, 0)
case(
    "softmax beta 1",
    axis_op(softmax_line(1.0), -1, lambda p: round_half_away(256 * p) - 128),
    {"in": ((2, 4), [1.0, 2.0, 3.0, 4.0, -1.0, -1.0, 0.5, -3.0])},
    [
        ("zp_neg", {"in": (0.25, -100), "out": SOFTMAX_OUT}),
        ("zp_zero", {"in": (0.125, 0), "out": SOFTMAX_OUT}),
        ("zp_pos", {"in": (0.5, 118), "out": SOFTMAX_OUT}),
    ],
)
case(
    "softmax axis 1 beta 0.5",
    axis_op(softmax_line(0.5), 1, lambda p: round_half_away(256 * p) - 128),
    {"in": ((2, 3, 2), [0.0, 4.0, 2.0, -2.0, 1.0, 6.0, -5.0, 3.0, 5.0, 3.0, -1.0, 2.5])},
    [
        ("zp_neg", {"in": (0.25, -108), "out": SOFTMAX_OUT}),
        ("zp_zero", {"in": (0.5, 0), "out": SOFTMAX_OUT}),
        ("zp_pos", {"in": (0.125, 79), "out": SOFTMAX_OUT}),
    ],
)
case(
    "l2_normalization last axis",
    axis_op(l2_line, -1, lambda y: round_half_away(128 * y)),
    {"in": ((1, 2, 2, 3), [3.0, -4.0, 0.0, 1.0, 2.0, 2.0, 0.0, 0.0, 0.0, -6.0, 0.5, 8.0])},
    [
        ("zp_neg", {"in": (0.5, -110), "out": L2_OUT}),
        ("zp_zero", {"in": (0.25, 0), "out": L2_OUT}),
        ("zp_pos", {"in": (0.5, 111), "out": L2_OUT}),
    ],
)
case(
    "l2_normalization axis 0",
    axis_op(l2_line, 0, lambda y: round_half_away(128 * y)),
    {"in": ((3, 2), [2.0, 0.0, -1.0, 5.0, 2.0, 0.0])},
    [
        ("zp_neg", {"in": (0.25, -120), "out": L2_OUT}),
        ("zp_pos", {"in": (0.125, 87), "out": L2_OUT}),
    ],
)


# ---- Comparisons: both inputs dequantized with their own parameters, then compared

COMPARISONS = {
    "equal": lambda x, y: x == y,
    "greater": lambda x, y: x > y,
    "greater_equal": lambda x, y: x >= y,
    "less": lambda x, y: x < y,
    "less_equal": lambda x, y: x <= y,
    "not_equal": lambda x, y: x != y,
}


def comparison(test):
    def floats(ins):
        (sa, a), (sb, b) = ins["a"], ins["b"]
        return {"out": broadcast(lambda x, y: 1 if test(x, y) else 0, sa, a, sb, b)}

    def ints(qins, params, act):
        (sa, a), (sb, b) = qins["a"], qins["b"]
        pa, pb = params["a"], params["b"]
        return {
            "out": broadcast(
                lambda x, y: 1 if test(dequant(x, pa), dequant(y, pb)) else 0, sa, a, sb, b
            )
        }

    return floats, ints


for _name, _test in COMPARISONS.items():
    case(
        f"comparison {_name}",
        comparison(_test),
        {"a": ((2, 3), [1.0, -2.0, 0.5, 3.0, -1.5, 0.0]), "b": ((3,), [1.0, -1.5, 0.5])},
        [
            ("zp_neg", {"a": (0.5, -120), "b": (0.25, -122)}),
            ("zp_zero", {"a": (0.25, 0), "b": (0.5, 0)}),
            ("zp_pos", {"a": (0.125, 103), "b": (0.0625, 100)}),
        ],
    )


# ---- SELECT: the chosen value requantized into the output's parameters


def select_runner():
    def floats(ins):
        cond, a, b = ins["cond"][1], ins["a"][1], ins["b"][1]
        return {"out": [x if c else y for c, x, y in zip(cond, a, b, strict=True)]}

    def ints(qins, params, act):
        cond, a, b = qins["cond"][1], qins["a"][1], qins["b"][1]
        pa, pb, po = params["a"], params["b"], params["out"]
        return {
            "out": [
                requantize(x, pa, po) if c else requantize(y, pb, po)
                for c, x, y in zip(cond, a, b, strict=True)
            ]
        }

    return floats, ints


case(
    "select",
    select_runner(),
    {
        "cond": ((2, 4), [1, 0, 0, 1, 1, 0, 1, 0]),
        "a": ((2, 4), [1.5, -2.0, 0.5, -3.0, 4.0, 2.5, 7.75, 0.0]),
        "b": ((2, 4), [-1.0, 3.0, -0.5, 2.0, 5.0, -4.0, 1.0, -6.0]),
    },
    [
        ("zp_neg", {"a": (0.25, -100), "b": (0.5, -116), "out": (0.25, -128)}),
        ("zp_zero", {"a": (0.25, 0), "b": (0.125, 0), "out": (0.3, 0)}),
        ("zp_pos", {"a": (0.0625, 0), "b": (0.5, 114), "out": (0.0625, 100)}),
    ],
)


# ---- QUANTIZE (float -> int8, written directly in the spec) and DEQUANTIZE


def hal_quantize(x, scale, zero_point):
    """q = clamp(round_half_away(x / scale) + zp, -128, 127), the division in float32."""
    return clamp8(round_half_away(f32(f32(x) / f32(scale))) + zero_point)


def quantize_runner(scale, zero_point):
    def floats(ins):
        return {"out": [hal_quantize(x, scale, zero_point) for x in ins["in"][1]]}

    return floats, None


case(
    "quantize scale 0.5 zp -1",
    quantize_runner(0.5, -1),
    {"in": ((2, 5), [-130.0, -1.5, -1.25, -0.25, 0.0, 0.25, 0.75, 1.25, 64.0, 100.0])},
    [],
)
case(
    "quantize scale 0.1 zp -128",
    quantize_runner(0.1, -128),
    {"in": ((8,), [-1.0, 0.0, 0.04, 0.05, 0.33, 12.3, 25.5, 30.0])},
    [],
)
case(
    "quantize scale 0.25 zp 127",
    quantize_runner(0.25, 127),
    {"in": ((2, 1, 3), [-40.0, -32.0, -0.625, -0.125, 0.0, 7.0])},
    [],
)


def dequantize_direct(scale, zero_point):
    def floats(ins):
        return {"out": [f32(f32(scale) * (q - zero_point)) for q in ins["in"][1]]}

    return floats, None


def dequantize_converted():
    def floats(ins):
        return {"out": list(ins["in"][1])}

    def ints(qins, params, act):
        return {"out": [dequant(q, params["in"]) for q in qins["in"][1]]}

    return floats, ints


case(
    "dequantize scale 0.5 zp -3",
    dequantize_direct(0.5, -3),
    {"in": ((2, 4), [-128, -100, -3, 0, 1, 50, 126, 127])},
    [],
)
case(
    "dequantize scale 0.1 zp 127",
    dequantize_direct(0.1, 127),
    {"in": ((5,), [-128, -1, 0, 100, 127])},
    [],
)
case(
    "dequantize converted",
    dequantize_converted(),
    {"in": ((1, 2, 3), [-4.0, -0.75, 0.0, 0.5, 2.25, 7.0])},
    [
        ("zp_neg", {"in": (0.25, -112)}),
        ("zp_zero", {"in": (0.0625, 0)}),
        ("zp_pos", {"in": (0.125, 71)}),
    ],
)


# ---- Raw int8 orderings: ARGMAX, ARGMIN, REDUCE_MAX, REDUCE_MIN, TOPK_V2; MEAN


def arg_runner(axis, better):
    def floats(ins):
        shape, values = ins["in"]
        return {"out": arg_extreme(values, shape, axis, better)[1]}

    def ints(qins, params, act):
        shape, qs = qins["in"]
        return {"out": arg_extreme(qs, shape, axis, better)[1]}

    return floats, ints


def reduce_runner(axes, keep, combine, int_combine=None):
    def floats(ins):
        shape, values = ins["in"]
        return {"out": reduce_axes(values, shape, axes, keep, combine)[1]}

    def ints(qins, params, act):
        shape, qs = qins["in"]
        return {"out": reduce_axes(qs, shape, axes, keep, int_combine or combine)[1]}

    return floats, ints


def mean_float(group):
    return float(sum(Fraction(x) for x in group) / len(group))


def mean_int(group):
    """The int32 sum of the raw values divided by the count, truncating (C division)."""
    total = sum(group)
    quotient = abs(total) // len(group)
    return quotient if total >= 0 else -quotient


def topk_runner(k):
    def floats(ins):
        shape, values = ins["in"]
        _, out_values, out_indices = topk(values, shape, k)
        return {"values": out_values, "indices": out_indices}

    def ints(qins, params, act):
        shape, qs = qins["in"]
        _, out_values, out_indices = topk(qs, shape, k)
        return {"values": out_values, "indices": out_indices}

    return floats, ints


ORDER_INPUT = {
    "in": ((2, 3, 2), [1.0, -2.0, 3.5, 0.0, -1.0, 3.5, -4.0, 2.5, 6.0, -0.5, 6.0, 1.0]),
}
ORDER_VARIANTS = [
    ("zp_neg", {"in": (0.5, -120), "out": (0.5, -120)}),
    ("zp_zero", {"in": (0.25, 0), "out": (0.25, 0)}),
    ("zp_pos", {"in": (0.25, 103), "out": (0.25, 103)}),
]
IN_ONLY = [(name, {"in": params["in"]}) for name, params in ORDER_VARIANTS]
case("argmax axis 1", arg_runner(1, lambda x, y: x > y), ORDER_INPUT, IN_ONLY)
case("argmin axis -1", arg_runner(-1, lambda x, y: x < y), ORDER_INPUT, IN_ONLY)
case("argmax axis 0", arg_runner(0, lambda x, y: x > y), ORDER_INPUT, IN_ONLY)
case("reduce_max axis 1", reduce_runner([1], False, max), ORDER_INPUT, ORDER_VARIANTS)
case("reduce_max axes 0 -1 keep", reduce_runner([0, -1], True, max), ORDER_INPUT, ORDER_VARIANTS)
case("reduce_min axis 1", reduce_runner([1], False, min), ORDER_INPUT, ORDER_VARIANTS)
case("reduce_min all axes", reduce_runner([2, 0, 1], False, min), ORDER_INPUT, ORDER_VARIANTS)
case(
    "topk_v2 k 3",
    topk_runner(3),
    {"in": ((2, 5), [1.0, -3.0, 4.5, 0.5, 2.0, -6.0, -1.5, 7.5, -0.5, 3.0])},
    [
        ("zp_neg", {"in": (0.5, -116), "values": (0.5, -116)}),
        ("zp_zero", {"in": (0.25, 0), "values": (0.25, 0)}),
        ("zp_pos", {"in": (0.125, 67), "values": (0.125, 67)}),
    ],
)
case(
    "mean axis 1",
    reduce_runner([1], False, mean_float, mean_int),
    {"in": ((2, 3, 2), [1.0, -2.0, 2.0, -3.5, 3.0, -0.5, 4.0, -4.0, 6.0, 0.5, -1.0, 2.0])},
    [
        ("zp_neg", {"in": (0.5, -116), "out": (0.5, -116)}),
        ("zp_zero", {"in": (0.25, 0), "out": (0.25, 0)}),
        ("zp_pos", {"in": (0.125, 79), "out": (0.125, 79)}),
    ],
)
case(
    "mean axes 0 2 keep",
    reduce_runner([0, 2], True, mean_float, mean_int),
    {"in": ((2, 2, 2), [1.5, -0.5, -3.0, -1.0, 3.0, 4.0, 0.5, -2.5])},
    [
        ("zp_neg", {"in": (0.5, -122), "out": (0.5, -122)}),
        ("zp_zero", {"in": (0.125, 0), "out": (0.125, 0)}),
        ("zp_pos", {"in": (0.25, 111), "out": (0.25, 111)}),
    ],
)


# ---- Copies: GATHER, EMBEDDING_LOOKUP


def gather(values, shape, axis, indices):
    axis = axis + len(shape) if axis < 0 else axis
    outer = math.prod(shape[:axis])
    inner = math.prod(shape[axis + 1 :])
    out = []
    for o in range(outer):
        for j in indices:
            base = (o * shape[axis] + j) * inner
            out.extend(values[base : base + inner])
    return out


def gather_runner(axis, data_name, indices_name):
    def floats(ins):
        shape, values = ins[data_name]
        return {"out": gather(values, shape, axis, ins[indices_name][1])}

    def ints(qins, params, act):
        shape, qs = qins[data_name]
        return {"out": gather(qs, shape, axis, qins[indices_name][1])}

    return floats, ints


COPY_VARIANTS = [
    ("zp_neg", {"in": (0.125, -112), "out": (0.125, -112)}),
    ("zp_zero", {"in": (0.125, 0), "out": (0.125, 0)}),
    ("zp_pos", {"in": (0.125, 63), "out": (0.125, 63)}),
]
case(
    "gather axis 0",
    gather_runner(0, "in", "indices"),
    {
        "in": ((3, 2, 2), [-2.0, 0.5, 1.0, -1.5, 8.0, 0.0, -0.25, 3.0, 2.5, -0.75, 4.0, 6.0]),
        "indices": ((3,), [2, 0, 2]),
    },
    COPY_VARIANTS,
)
case(
    "gather axis -1",
    gather_runner(-1, "in", "indices"),
    {
        "in": ((2, 4), [-2.0, 0.5, 1.0, 8.0, 6.0, -1.5, 0.0, 3.0]),
        "indices": ((2, 2), [3, 0, 1, 3]),
    },
    COPY_VARIANTS,
)
case(
    "embedding_lookup rank 3",
    gather_runner(0, "in", "lookups"),
    {
        "lookups": ((3,), [2, 0, 2]),
        "in": ((3, 2, 2), [-2.0, 0.5, 1.0, -1.5, 8.0, 0.0, -0.25, 3.0, 2.5, -0.75, 4.0, 6.0]),
    },
    COPY_VARIANTS,
)
case(
    "embedding_lookup rank 2",
    gather_runner(0, "in", "lookups"),
    {
        "lookups": ((2,), [3, 1]),
        "in": ((4, 3), [1.0, 2.0, 3.0, -2.0, 8.0, -0.5, 0.25, 0.0, -1.0, 7.5, -0.125, 4.0]),
    },
    COPY_VARIANTS,
)


# Running and printing --------------------------------------------------------------------


def fmt(value: float) -> str:
    if math.isnan(value):
        return "math.nan"
    if math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    if value == int(value) and abs(value) < 1e15:
        return f"{value:.1f}"
    return f"{value:.9g}"


def run_case(label, runner, inputs, acts, variants, problems):
    floats, ints = runner
    values = {name: (tuple(shape), list(data)) for name, (shape, data) in inputs.items()}
    goldens = floats(values)
    print(f"{label}:")
    for name, outs in goldens.items():
        print(f"  {name}: " + ", ".join(fmt(float(y)) for y in outs))
    for variant, params in variants:
        qins = {}
        for name, (shape, data) in values.items():
            if name in params:
                qins[name] = (shape, [exact_input(x, *params[name]) for x in data])
            else:
                qins[name] = (shape, data)
        for act in acts:
            expected = ints(qins, params, act)
            nearest = 1.0
            for name, outs in goldens.items():
                clamped = [act_float(y, act) for y in outs]
                if name in params:
                    derived = [gen_quant(y, *params[name]) for y in clamped]
                    for y in clamped:
                        v = scaled(y, *params[name])
                        if QMIN - 0.5 < v < QMAX + 0.5:
                            nearest = min(nearest, tie_distance(v))
                else:
                    derived = clamped
                got = expected[name]
                same = len(got) == len(derived) and all(
                    abs(float(g) - float(d)) <= 1e-6 + 2e-6 * abs(float(d))
                    for g, d in zip(got, derived, strict=True)
                )
                print(f"  {variant} {act} {name}: {got}")
                if not same:
                    problems.append(f"{label} {variant} {act} {name}: integer {got}, generator {derived}")
            print(f"  {variant} {act} nearest tie distance: {nearest:.3f}")
            if nearest < MIN_TIE_DISTANCE:
                problems.append(f"{label} {variant} {act}: a golden {nearest:.3f} from a tie")


def main() -> None:
    problems: list[str] = []
    for label, runner, inputs, acts, variants in CASES:
        run_case(label, runner, inputs, acts, variants, problems)
    for problem in problems:
        print("MISMATCH", problem)
    assert not problems, problems


# Spec outputs not computed here, skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
