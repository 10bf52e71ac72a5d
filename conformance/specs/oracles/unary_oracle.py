"""Offline oracle for the unary operation specs' golden values.

Specs: V1_0/{floor,logistic,relu,relu1,relu6,tanh}.mod.py, V1_1/*_relaxed.mod.py
of the same operations, V1_2/{abs,exp,log,neg,rsqrt,sin,sqrt}.mod.py and
V1_2/{floor,logistic,relu,relu1,relu6,tanh}_v1_2.mod.py.

Written from the operation definitions in docs/operations.md and
independent of the reference driver and of the generator: plain Python on
float64 (``math``), one element at a time. IEEE special values follow the
edge cases listed there (LOG(0) = -inf, LOG(x<0) = NaN, SQRT(x<0) = NaN,
RSQRT(0) = +inf, EXP overflow = +inf, FLOOR passes inf and NaN through).

For the quantized examples it also checks that the golden values make sense
at the chosen scales: every input is exactly representable, and the output
the generator derives from the float golden (float32 division, round half to
even, clamp) equals what the fixed-point definition gives (round half away
from zero of 256*sigmoid(x) or 128 + 128*tanh(x), 256 saturating to 255;
RELU* clamp to the activation range of the input's quantization). It prints
the distance of each scaled golden from a rounding tie, so that ties are
avoided.

Run: ``python conformance/specs/oracles/unary_oracle.py`` and paste.
"""

from __future__ import annotations

import math
import struct

INF = math.inf
NAN = math.nan


FLT_MAX = 3.4028234663852886e38


def f32(x: float) -> float:
    """x rounded to float32 (as the generator's numpy arithmetic does)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def in_float32_range(x: float) -> float:
    """A golden float32 output: beyond float32's range it is an infinity."""
    return math.copysign(INF, x) if abs(x) > FLT_MAX else x


# The operations, from their definitions -------------------------------------------


def op_abs(x: float) -> float:
    return abs(x)


def op_exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return INF


def op_log(x: float) -> float:
    if math.isnan(x) or x < 0:
        return NAN
    if x == 0:
        return -INF
    return math.log(x)


def op_rsqrt(x: float) -> float:
    if math.isnan(x) or x < 0:
        return NAN
    if x == 0:
        return INF
    return 1.0 / math.sqrt(x)


def op_sin(x: float) -> float:
    if math.isinf(x) or math.isnan(x):
        return NAN
    return math.sin(x)


def op_sqrt(x: float) -> float:
    if math.isnan(x) or x < 0:
        return NAN
    return math.sqrt(x)


def op_neg(x: float) -> float:
    return -x


def op_floor(x: float) -> float:
    if math.isinf(x) or math.isnan(x):
        return x
    return float(math.floor(x))


def op_logistic(x: float) -> float:
    # 1 / (1 + e^-x), written to avoid overflowing e^-x for very negative x
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def op_tanh(x: float) -> float:
    return math.tanh(x)


def op_relu(x: float) -> float:
    return max(0.0, x)


def op_relu1(x: float) -> float:
    return min(1.0, max(-1.0, x))


def op_relu6(x: float) -> float:
    return min(6.0, max(0.0, x))


# Quantization checks ----------------------------------------------------------------


def round_half_away(x: float) -> int:
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def generator_quant(real: float, scale: float, zero_point: int) -> int:
    """How the spec generator quantizes a float32 golden: float32 ops, half to even."""
    q = round(f32(f32(real) / f32(scale)) + zero_point)  # Python round: half to even
    return min(255, max(0, q))


def exact_input_q(x: float, scale: float, zero_point: int) -> int:
    q = x / scale + zero_point
    assert q == int(q) and 0 <= q <= 255, f"{x} is not representable at ({scale}, {zero_point})"
    return int(q)


def activation_range(name: str, scale: float, zero_point: int) -> tuple[int, int]:
    def quant(v: float) -> int:
        return zero_point + round_half_away(v / scale)

    low, high = {"relu": (0.0, None), "relu1": (-1.0, 1.0), "relu6": (0.0, 6.0)}[name]
    return max(0, quant(low)), 255 if high is None else min(255, quant(high))


def fixed_point_output(op: str, x: float, scale: float, zero_point: int) -> int:
    """The quantized output by the definition (float64 stands in for the fixed point)."""
    q = exact_input_q(x, scale, zero_point)
    if op == "logistic":
        return min(255, round_half_away(256.0 * op_logistic(x)))
    if op == "tanh":
        return min(255, 128 + round_half_away(128.0 * op_tanh(x)))
    low, high = activation_range(op, scale, zero_point)
    return min(high, max(low, q))


def tie_distance(value: float) -> float:
    """How far a scaled value is from x.5 (0 means a rounding tie)."""
    return abs(abs(value - math.floor(value)) - 0.5)


# The examples ----------------------------------------------------------------------

OUT_QUANT = {"logistic": (1.0 / 256, 0), "tanh": (1.0 / 128, 128)}
FUNCTIONS = {
    "abs": op_abs,
    "exp": op_exp,
    "log": op_log,
    "rsqrt": op_rsqrt,
    "sin": op_sin,
    "sqrt": op_sqrt,
    "neg": op_neg,
    "floor": op_floor,
    "logistic": op_logistic,
    "tanh": op_tanh,
    "relu": op_relu,
    "relu1": op_relu1,
    "relu6": op_relu6,
}

# (spec, example, operation, inputs, input quantization or None)
EXAMPLES = [
    # V1_2 float math
    ("abs", "rank4", "abs", [-2.5, 3.0, -0.0, 0.0, -1000.0, 0.125, -6.75, 42.5], None),
    ("abs", "rank5", "abs", [-1.5, 1.5, -7.0, 0.5], None),
    ("abs", "special", "abs", [-INF, INF, NAN, -9.5367431640625e-07], None),
    ("exp", "rank2", "exp", [-2.0, -0.5, 0.0, 0.25, 1.0, 2.5], None),
    ("exp", "rank5", "exp", [10.0, -10.0, 3.75, -0.125], None),
    ("exp", "special", "exp", [100.0, -100.0, -INF, INF], None),
    ("log", "rank2", "log", [0.25, 1.0, 2.0, 3.0, 10.0, 100.0], None),
    ("log", "rank5", "log", [1024.0, 0.0009765625, 7.5, 1.5], None),
    ("log", "special", "log", [0.0, -0.0, -1.0, INF], None),
    ("rsqrt", "rank2", "rsqrt", [0.25, 1.0, 2.0, 4.0, 9.0, 100.0], None),
    ("rsqrt", "rank5", "rsqrt", [0.0625, 3.0, 1024.0, 0.5], None),
    ("rsqrt", "special", "rsqrt", [0.0, -1.0, INF, -INF], None),
    ("sin", "rank2", "sin", [0.0, 0.5, -1.0, 1.5, 3.0, -6.0], None),
    ("sin", "rank5", "sin", [100.0, -1000.0, 0.125, 12.5], None),
    ("sin", "special", "sin", [INF, -INF, NAN, -0.0], None),
    ("sqrt", "rank2", "sqrt", [0.0, 0.25, 1.0, 2.0, 6.25, 100.0], None),
    ("sqrt", "rank5", "sqrt", [1024.0, 3.0, 0.0625, 10000.0], None),
    ("sqrt", "special", "sqrt", [-1.0, INF, -INF, -0.0], None),
    ("neg", "integers", "neg", [-2.0, 0.0, 3.0, 7.0, -1000.0, 1024.0], None),
    ("neg", "rank5", "neg", [0.5, -1.25, -0.0, 3.75], None),
    ("neg", "int32_limits", "neg", [2147483647, -2147483647, 0, 123456789], None),
    # FLOOR
    ("floor", "rank4", "floor", [-1.5, -0.5, -0.0, 0.0, 0.5, 1.0, 1.75, -2.0], None),
    ("floor", "large", "floor", [-123456.75, 8388607.5, 1e30, 3.0e-5, -3.0e-5], None),
    ("floor", "special", "floor", [INF, -INF, NAN], None),
    ("floor_relaxed", "", "floor", [-0.25, 2.5, -7.0, 1000.5], None),
    ("floor_v1_2", "rank3", "floor", [-3.5, -0.75, 0.0, 0.75, 3.5, -1024.0], None),
    # LOGISTIC
    (
        "logistic",
        "centered",
        "logistic",
        [-8.0, -2.5, -1.0, -0.25, 0.0, 0.5, 1.5, 7.9375],
        (0.0625, 128),
    ),
    (
        "logistic",
        "saturating",
        "logistic",
        [-50.0, -7.5, -3.0, 0.0, 2.0, 7.5, 20.0, 77.5],
        (0.5, 100),
    ),
    ("logistic", "positive", "logistic", [0.0, 0.375, 1.0, 2.75, 31.875], (0.125, 0)),
    ("logistic_relaxed", "", "logistic", [-4.0, -1.5, 0.0, 0.75, 2.0, 6.0], None),
    (
        "logistic_v1_2",
        "rank3",
        "logistic",
        [-6.0, -2.0, -0.5, 0.0, 0.25, 1.0, 3.0, 10.0],
        (0.25, 64),
    ),
    ("logistic_v1_2", "large", "logistic", [-100.0, 100.0, -20.0, 20.0], None),
    # TANH
    ("tanh", "rank4", "tanh", [-10.0, -2.0, -0.75, -0.0, 0.0, 0.5, 1.25, 20.0], None),
    ("tanh", "rank1", "tanh", [0.125, -3.0, 100.0], None),
    ("tanh_relaxed", "", "tanh", [-3.0, -1.0, -0.25, 0.25, 1.0, 3.0], None),
    (
        "tanh_v1_2",
        "centered",
        "tanh",
        [-8.0, -2.0, -0.625, -0.125, 0.0, 0.375, 1.0, 7.9375],
        (0.0625, 128),
    ),
    ("tanh_v1_2", "offset", "tanh", [-40.0, -8.0, -1.5, 0.0, 2.5, 87.5], (0.5, 80)),
    # RELU family
    (
        "relu",
        "rank4",
        "relu",
        [
            -64.0,
            -10.5,
            -3.0,
            -0.5,
            0.0,
            0.5,
            1.0,
            2.5,
            3.0,
            7.5,
            10.0,
            15.5,
            20.0,
            33.0,
            50.0,
            63.5,
        ],
        (0.5, 128),
    ),
    ("relu", "offset", "relu", [-25.0, -0.25, 0.25, 38.75], (0.25, 100)),
    ("relu", "zero_point_255", "relu", [-127.5, -10.0, -0.5, 0.0], (0.5, 255)),
    ("relu", "zero_point_0", "relu", [0.0, 2.0, 510.0], (2.0, 0)),
    ("relu1", "rank3", "relu1", [-2.0, -1.0, -0.5, 0.0, 0.25, 1.0, 1.5, 31.75], (0.25, 128)),
    ("relu1", "coarse", "relu1", [-30.0, -3.0, 0.0, 3.0, 30.0], (3.0, 10)),
    ("relu1", "low_zero_point", "relu1", [-0.5, 0.0, 0.5, 1.5], (0.5, 1)),
    ("relu6", "rank2", "relu6", [-3.0, -0.5, 0.0, 0.5, 3.0, 5.75, 6.0, 10.0], (0.25, 64)),
    ("relu6", "fine", "relu6", [0.0, 1.0, 3.5, 3.984375], (1.0 / 64, 0)),
    ("relu6", "coarse", "relu6", [-7.5, 0.0, 3.75, 7.5], (3.75, 2)),
    ("relu_relaxed", "", "relu", [-2.5, -0.0, 0.0, 0.5, 3.0, 1000.0], None),
    ("relu1_relaxed", "", "relu1", [-2.5, -1.0, -0.25, 0.5, 1.0, 1000.0], None),
    ("relu6_relaxed", "", "relu6", [-2.5, 0.0, 0.25, 5.5, 6.0, 1000.0], None),
    (
        "relu_v1_2",
        "rank4",
        "relu",
        [-4.0, 3.5, -1.5, 0.0, 1.5, -8.0, 7.5, -1.0, 2.0, -2.5, 0.5, 6.5, -0.5, 10.0, -31.5, 31.5],
        (0.5, 64),
    ),
    (
        "relu1_v1_2",
        "rank4",
        "relu1",
        [
            -4.0,
            0.75,
            -0.25,
            0.0,
            1.25,
            -1.0,
            1.0,
            -0.75,
            2.0,
            -2.5,
            0.5,
            6.5,
            -0.5,
            10.0,
            -31.5,
            0.25,
        ],
        (0.25, 128),
    ),
    (
        "relu6_v1_2",
        "rank4",
        "relu6",
        [-4.0, 3.5, -1.5, 0.0, 1.5, 6.0, 7.5, 5.5, 2.0, -2.5, 0.5, 6.5, -0.5, 10.0, -31.5, 31.5],
        (0.5, 64),
    ),
]


def fmt(value: float) -> str:
    if math.isnan(value):
        return "math.nan"
    if math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    if value == int(value) and abs(value) < 1e15:
        return f"{value:.1f}"
    return f"{value:.9g}"


def main() -> None:
    for spec, name, op, inputs, quant in EXAMPLES:
        outputs = [in_float32_range(FUNCTIONS[op](float(x))) for x in inputs]
        print(f"{spec} {name}:")
        print("  in :", ", ".join(fmt(float(x)) for x in inputs))
        print("  out:", ", ".join(fmt(y) for y in outputs))
        if quant is None:
            continue
        scale, zero_point = quant
        out_scale, out_zp = OUT_QUANT.get(op, quant)
        expected = [fixed_point_output(op, float(x), scale, zero_point) for x in inputs]
        derived = [generator_quant(y, out_scale, out_zp) for y in outputs]
        ties = [tie_distance(f32(y) / out_scale) for y in outputs]
        print(f"  quant8 in ({scale}, {zero_point}) out ({out_scale}, {out_zp}):", expected)
        print(f"  nearest tie distance: {min(ties, default=1.0):.3f}")
        assert derived == expected, (spec, name, derived, expected)


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
