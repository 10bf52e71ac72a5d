"""Offline oracle for the element-wise specs' golden values.

Covers ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, POW and PRELU (the specs
V1_0/add, mul; V1_1/sub, div; V1_2/sub_v1_2, div_v1_2, maximum, minimum,
pow, prelu). Deliberately naive and independent of the reference driver and
the generator: plain Python, one output element at a time, written from the
definitions in docs/operations.md (its shared sections and each operation's):

* broadcasting: shapes aligned at the trailing dimension, size 1 stretches;
* float results computed in double and rounded to float32 (and to float16,
  to check a float16 variation stays within 5 * 2**-10 of the float32 golden);
* quant8: the value the generator will derive from the float golden
  (float32 arithmetic, round half to even) next to the integer fixed-point
  result of the HAL's requantization (docs/operations.md, Quantization); the spec data
  is chosen so that the two agree exactly.

Run it by hand (``python conformance/specs/oracles/elementwise_oracle.py``)
and paste what it prints into the specs; a line marked MISMATCH means the
spec data must change.
"""

from __future__ import annotations

import math
import struct

# ---------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------


def f32(x):
    """x rounded to the nearest float32 (inf stays inf)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f16(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_half_even(x):
    return round(x)  # Python's round() is half to even


def round_half_away(x):
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


# ---------------------------------------------------------------------------
# Broadcasting
# ---------------------------------------------------------------------------


def broadcast_shape(sa, sb):
    rank = max(len(sa), len(sb))
    pa = [1] * (rank - len(sa)) + list(sa)
    pb = [1] * (rank - len(sb)) + list(sb)
    out = []
    for da, db in zip(pa, pb, strict=True):
        if da != db and da != 1 and db != 1:
            raise ValueError(f"{sa} and {sb} do not broadcast")
        out.append(db if da == 1 else da)
    return out


def all_indexes(shape):
    if not shape:
        yield ()
        return
    for head in range(shape[0]):
        for rest in all_indexes(shape[1:]):
            yield (head, *rest)


def flat_at(values, shape, out_index):
    """The element of ``values`` (of ``shape``) broadcast to ``out_index``."""
    index = out_index[len(out_index) - len(shape) :]
    flat = 0
    for size, i in zip(shape, index, strict=True):
        flat = flat * size + (0 if size == 1 else i)
    return values[flat]


def elementwise(fn, sa, a, sb, b):
    shape = broadcast_shape(sa, sb)
    return shape, [fn(flat_at(a, sa, i), flat_at(b, sb, i)) for i in all_indexes(shape)]


# ---------------------------------------------------------------------------
# Float definitions
# ---------------------------------------------------------------------------


def f_pow(x, y):
    if x == 0.0 and y < 0:
        return math.inf
    try:
        return math.pow(x, y)
    except ValueError:
        return math.nan


FLOAT_OPS = {
    "ADD": lambda x, y: x + y,
    "SUB": lambda x, y: x - y,
    "MUL": lambda x, y: x * y,
    "DIV": lambda x, y: x / y,
    "MAXIMUM": max,
    "MINIMUM": min,
    "POW": f_pow,
    "PRELU": lambda x, alpha: x if x >= 0 else x * alpha,
}

ACTIVATIONS = {
    "none": (-math.inf, math.inf),
    "relu": (0.0, math.inf),
    "relu1": (-1.0, 1.0),
    "relu6": (0.0, 6.0),
}


# ---------------------------------------------------------------------------
# Quantization: the generator's, and the HAL's fixed point
# ---------------------------------------------------------------------------


def generator_quantize(x, scale, zero_point):
    """What the generator emits for a float golden: float32 divide and add, half to even."""
    q = round_half_even(f32(f32(f32(x) / f32(scale)) + zero_point))
    return min(255, max(0, q))


def dequantize(q, scale, zero_point):
    return scale * (q - zero_point)


def quantize_multiplier(real):
    """real = m0 * 2**(shift - 31), m0 in [2**30, 2**31)."""
    if real == 0:
        return 0, 0
    mantissa, shift = math.frexp(real)
    m0 = round_half_away(mantissa * 2**31)
    if m0 == 2**31:
        m0 //= 2
        shift += 1
    return m0, shift


def high_mul(a, m0):
    """Saturating rounding doubling high multiply on Python ints."""
    product = a * m0
    nudge = 2**30 if product >= 0 else 1 - 2**30
    total = product + nudge
    return abs(total) // 2**31 * (1 if total >= 0 else -1)  # C division truncates


def divide_by_pot(x, exponent):
    """x / 2**exponent rounded half away from zero."""
    if exponent <= 0:
        return x
    quotient = abs(x) // 2**exponent
    remainder = abs(x) - quotient * 2**exponent
    if 2 * remainder >= 2**exponent:
        quotient += 1
    return quotient if x >= 0 else -quotient


def mbqm_fixed(x, m0, shift):
    if shift > 0:
        return high_mul(x * 2**shift, m0)
    return divide_by_pot(high_mul(x, m0), -shift)


def mbqm(x, real):
    return mbqm_fixed(x, *quantize_multiplier(real))


def act_range(activation, scale, zero_point):
    low, high = ACTIVATIONS[activation]
    lo = 0 if low == -math.inf else max(0, zero_point + round_half_away(low / scale))
    hi = 255 if high == math.inf else min(255, zero_point + round_half_away(high / scale))
    return lo, hi


def fixed_add_sub(sign, qa, qb, qa_params, qb_params, out_params, activation):
    (sa, za), (sb, zb), (so, zo) = qa_params, qb_params, out_params
    twice = 2 * max(sa, sb)
    a = mbqm((qa - za) * 2**20, sa / twice)
    # SUB: ADD with the second input's fixed-point multiplier negated.
    m0, shift = quantize_multiplier(sb / twice)
    b = mbqm_fixed((qb - zb) * 2**20, sign * m0, shift)
    lo, hi = act_range(activation, so, zo)
    return min(hi, max(lo, zo + mbqm(a + b, twice / (2**20 * so))))


def fixed_mul(qa, qb, qa_params, qb_params, out_params, activation):
    (sa, za), (sb, zb), (so, zo) = qa_params, qb_params, out_params
    lo, hi = act_range(activation, so, zo)
    return min(hi, max(lo, zo + mbqm((qa - za) * (qb - zb), sa * sb / so)))


def requantize(q, source, target):
    real = dequantize(q, *source) / target[0] + target[1]
    return min(255, max(0, round_half_away(real)))


def fixed_prelu(qx, qalpha, x_params, alpha_params, out_params, activation):
    (sx, zx), (sa, za), (so, zo) = x_params, alpha_params, out_params
    x = qx - zx
    raw = mbqm(x, sx / so) if x >= 0 else mbqm(x * (qalpha - za), sx * sa / so)
    return min(255, max(0, zo + raw))


def fixed_extremum(pick):
    def run(qa, qb, qa_params, qb_params, out_params, activation):
        return pick(requantize(qa, qa_params, out_params), requantize(qb, qb_params, out_params))

    return run


FIXED_OPS = {
    "ADD": lambda *args: fixed_add_sub(1, *args),
    "SUB": lambda *args: fixed_add_sub(-1, *args),
    "MUL": fixed_mul,
    "MAXIMUM": fixed_extremum(max),
    "MINIMUM": fixed_extremum(min),
    "PRELU": fixed_prelu,
}


# ---------------------------------------------------------------------------
# The specs' data
# ---------------------------------------------------------------------------

# (spec/example, op, shape a, a, shape b, b, activations, quant8 variants
#  ((scale, zp) of a, b, out), float16 variation?)
CASES = [
    (
        "V1_0/add saturation",
        "ADD",
        [1, 2, 2, 1],
        [-10.0, 2.5, 20.0, 100.0],
        [1],
        [1.5],
        ["none"],
        [((0.5, 20), (0.125, 0), (0.25, 30))],
        False,
    ),
    (
        "V1_0/mul ranks",
        "MUL",
        [2, 1, 2],
        [1.0, 2.0, -3.0, 0.5],
        [3, 1],
        [2.0, -1.0, 0.5],
        ["none"],
        [((0.5, 128), (0.25, 100), (0.25, 128))],
        False,
    ),
    (
        "V1_1/sub",
        "SUB",
        [2, 3],
        [1.0, -2.0, 3.5, 0.0, 8.0, -0.5],
        [3],
        [0.5, -1.0, 4.0],
        ["none", "relu", "relu1", "relu6"],
        [],
        False,
    ),
    (
        "V1_1/sub constant",
        "SUB",
        [2, 2],
        [10.0, 0.0, -3.0, 2.25],
        [2, 2],
        [4.0, -6.0, -3.0, 0.25],
        ["none"],
        [],
        False,
    ),
    (
        "V1_1/div",
        "DIV",
        [2, 2],
        [6.0, -3.0, 1.0, 10.0],
        [2],
        [2.0, -4.0],
        ["none", "relu", "relu1", "relu6"],
        [],
        False,
    ),
    (
        "V1_1/div constant",
        "DIV",
        [4],
        [1.0, 3.0, -7.0, 2.0],
        [4],
        [8.0, -0.5, 2.0, 3.0],
        ["none"],
        [],
        False,
    ),
    (
        "V1_2/sub_v1_2 reversed broadcast",
        "SUB",
        [2],
        [1.0, 2.0],
        [2, 2],
        [0.5, 3.0, -1.0, 2.0],
        ["none"],
        [((0.5, 120), (0.25, 140), (0.125, 100))],
        True,
    ),
    (
        "V1_2/div_v1_2 ranks",
        "DIV",
        [2, 1, 2],
        [8.0, -6.0, 1.0, 3.0],
        [2, 1],
        [2.0, -0.5],
        ["none"],
        [],
        True,
    ),
    (
        "V1_2/maximum same shape",
        "MAXIMUM",
        [2, 3],
        [3.0, -1.5, 0.0, 7.5, -4.0, 2.0],
        [2, 3],
        [1.0, -0.5, 0.0, 8.0, -6.0, 2.5],
        ["none"],
        [((0.5, 100), (0.25, 80), (0.5, 90))],
        True,
    ),
    (
        "V1_2/maximum broadcast",
        "MAXIMUM",
        [3, 1],
        [-2.0, 0.5, 4.0],
        [1, 2],
        [0.0, 1.0],
        ["none"],
        [((0.5, 10), (0.0625, 0), (0.03125, 128))],
        True,
    ),
    (
        "V1_2/minimum same shape",
        "MINIMUM",
        [2, 3],
        [3.0, -1.5, 0.0, 7.5, -4.0, 2.0],
        [2, 3],
        [1.0, -0.5, 0.0, 8.0, -6.0, 2.5],
        ["none"],
        [((0.5, 100), (0.25, 80), (0.5, 90))],
        True,
    ),
    (
        "V1_2/minimum broadcast",
        "MINIMUM",
        [3, 1],
        [-2.0, 0.5, 4.0],
        [1, 2],
        [0.0, 1.0],
        ["none"],
        [((0.5, 10), (0.0625, 0), (0.03125, 128))],
        True,
    ),
    (
        "V1_2/pow scalar exponent",
        "POW",
        [2, 3],
        [2.0, -3.0, 0.5, 4.0, 0.0, 1.5],
        [1],
        [2.0],
        ["none"],
        [],
        True,
    ),
    (
        "V1_2/pow both broadcast",
        "POW",
        [2, 1],
        [2.0, -2.0],
        [1, 3],
        [0.0, 3.0, -1.0],
        ["none"],
        [],
        True,
    ),
    (
        "V1_2/pow special",
        "POW",
        [4],
        [0.0, 0.0, 4.0, 9.0],
        [4],
        [0.0, -1.0, 0.5, -0.5],
        ["none"],
        [],
        True,
    ),
    (
        "V1_2/prelu channel alpha",
        "PRELU",
        [1, 2, 2, 3],
        [-2.0, 1.0, 0.0, 3.0, -4.0, -1.0, -1.0, 0.5, 2.0, -8.0, 6.0, -2.0],
        [1, 1, 3],
        [0.25, 0.5, -1.0],
        ["none"],
        [
            ((0.25, 128), (0.25, 50), (0.125, 120)),
            ((0.5, 100), (0.125, 64), (0.25, 80)),
        ],
        True,
    ),
    (
        "V1_2/prelu larger alpha",
        "PRELU",
        [2],
        [-4.0, 2.0],
        [3, 2],
        [0.5, 2.0, -1.0, 1.5, 0.25, 3.0],
        ["none"],
        [((0.5, 128), (0.25, 128), (0.25, 100))],
        True,
    ),
]


# Quant8 examples written directly in quantized form (no generator conversion):
# (spec/example, op, shape a, qa, shape b, qb, activations, (scale, zp) of a, b, out).
# The expected byte is the exact real result requantized (half away from zero),
# next to the fixed-point result.
RAW_QUANT_CASES = [
    (
        "V1_0/add different scales",
        "ADD",
        [4],
        [7, 17, 27, 107],
        [4],
        [3, 13, 23, 53],
        ["none", "relu", "relu1", "relu6"],
        ((0.3, 7), (0.7, 3), (0.5, 10)),
    ),
    (
        "V1_0/mul different scales",
        "MUL",
        [2, 2],
        [10, 20, 35, 0],
        [2, 2],
        [40, 20, 0, 100],
        ["none"],
        ((0.2, 10), (0.15, 0), (0.04, 5)),
    ),
    (
        "V1_2/sub_v1_2 different scales",
        "SUB",
        [4],
        [0, 50, 100, 255],
        [4],
        [10, 0, 50, 200],
        ["none", "relu", "relu1", "relu6"],
        ((0.2, 50), (0.3, 10), (0.5, 128)),
    ),
]


def check_raw_quant(op, sa, qa, sb, qb, activation, params):
    pa, pb, po = params
    lo, hi = act_range(activation, *po)

    def exact(x, y):
        real = FLOAT_OPS[op](dequantize(x, *pa), dequantize(y, *pb))
        return min(hi, max(lo, po[1] + round_half_away(real / po[0])))

    _, expected = elementwise(exact, sa, qa, sb, qb)
    _, fixed = elementwise(lambda x, y: FIXED_OPS[op](x, y, pa, pb, po, activation), sa, qa, sb, qb)
    return expected, fixed


def float_golden(op, sa, a, sb, b, activation):
    low, high = ACTIVATIONS[activation]
    shape, raw = elementwise(FLOAT_OPS[op], sa, a, sb, b)
    return shape, [f32(min(high, max(low, v))) if not math.isnan(v) else v for v in raw]


def check_float16(op, sa, a, sb, b, golden):
    _, half = elementwise(FLOAT_OPS[op], sa, [f16(x) for x in a], sb, [f16(x) for x in b])
    problems = []
    for expected, got in zip(golden, (f16(v) for v in half), strict=True):
        if math.isinf(expected) or math.isnan(expected):
            ok = expected == got or (math.isnan(expected) and math.isnan(got))
        else:
            ok = abs(expected - got) <= 5 * 2**-10 * (1 + abs(expected))
        if not ok:
            problems.append((expected, got))
    return problems


def check_quant(op, sa, a, sb, b, params, activation, golden):
    pa, pb, po = params
    qa = [generator_quantize(x, *pa) for x in a]
    qb = [generator_quantize(x, *pb) for x in b]
    lo, hi = act_range(activation, *po)
    expected = [min(hi, max(lo, generator_quantize(v, *po))) for v in golden]
    _, fixed = elementwise(lambda x, y: FIXED_OPS[op](x, y, pa, pb, po, activation), sa, qa, sb, qb)
    return qa, qb, expected, fixed


def main():
    for name, op, sa, a, sb, b, activations, quants, half in CASES:
        for activation in activations:
            shape, golden = float_golden(op, sa, a, sb, b, activation)
            print(f"{name} [{activation}] {op} -> shape {shape}")
            print(f"  float32: {golden}")
            if half and activation == "none":
                problems = check_float16(op, sa, a, sb, b, golden)
                print(f"  float16: {'ok' if not problems else f'MISMATCH {problems}'}")
            for params in quants:
                qa, qb, expected, fixed = check_quant(op, sa, a, sb, b, params, activation, golden)
                verdict = "ok" if expected == fixed else "MISMATCH"
                print(f"  quant8 {params}: a {qa} b {qb}")
                print(f"    generator {expected}")
                print(f"    fixed pt. {fixed}  {verdict}")
    for name, op, sa, qa, sb, qb, activations, params in RAW_QUANT_CASES:
        for activation in activations:
            expected, fixed = check_raw_quant(op, sa, qa, sb, qb, activation, params)
            verdict = "ok" if expected == fixed else "MISMATCH"
            print(f"{name} [{activation}] {op} quant8 {params}")
            print(f"  exact     {expected}")
            print(f"  fixed pt. {fixed}  {verdict}")


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED = {
    ("V1_0/add.mod.py", "out"): "by hand in the spec",
    ("V1_0/add.mod.py", "y"): "by hand in the spec",
    ("V1_0/mul.mod.py", "out"): "by hand in the spec",
    ("V1_2/div_v1_2.mod.py", "z"): "float16 division by zero, by hand",
    ("V1_2/maximum.mod.py", "k"): "TENSOR_INT32 extremes, by hand",
    ("V1_2/minimum.mod.py", "k"): "TENSOR_INT32 extremes, by hand",
}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
