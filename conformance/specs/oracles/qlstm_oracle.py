"""Offline oracle for the QUANTIZED_LSTM (95) specs (V1_3 quantized_lstm*.mod.py).

Written from the operation's fixed-point procedure (docs/operations.md, QUANTIZED_LSTM
(95)) in plain Python integers: one batch row and one unit at a time, every 16-bit
and 32-bit fixed-point helper spelled out as a scalar function below, no numpy,
nothing shared with the reference driver or the generator. Floats that Android 11
computes in single precision (the effective scales of the weighted sums and of the
projection, the clip thresholds) are rounded to float32 through ``struct``.

The step, per batch row b and unit n (G is an int16 pre-activation):

* weighted sums: G = sat16(MBQM(-z_x sum_k Wx[n][k] + sum_k x[b][k] Wx[n][k], M_x));
  then G = sat16(MBQM(-z_h sum_k Wh[n][k] + sum_k h[b][k] Wh[n][k], M_h) + G);
* peephole: G = sat16(G + MBQM(w_c[n] c[b][n], M_c)), with the previous cell state for
  the input and forget gates and the new one for the output gate;
* layer norm with the gate bias (no bias at all without layer norm, as Android 11);
* forget, input, output gates: the int16 logistic of Q3.12; the cell gate: the int16
  tanh of Q3.12; with CIFG the input gate is 32767 - forget;
* c' = sat16(rdiv(f c, 15) + rdiv(i g, 30 + cs)), then the cell clip;
* hidden = clamp8(MBQM(o tanh_{cs+15}(c'), 2^-30 / s_hid) - z_hid);
* projection: out = clamp8(MBQM(z_hid sum W_p + bias_p + sum hidden W_p, M_p) + z_h), then
  the projection clip; without projection out = hidden.

``FAULT`` (set by ``--fault``) rescales the hidden state with a truncating shift in place
of MBQM's rounding one: what tests/support/faulty_drivers_13.py's driver does. A
hidden value then moves by at most 1, within the suite's quantized tolerance, but the
projection multiplies it: ``--fault`` prints, per case and step, the largest change of
the output it causes, and so which spec examples that one rounding step fails.

Hand-derived checks (``hand_checks``, run before anything is printed):

* logistic(0) = 2^14 (one half, Q0.15) and tanh(0) = 0, by the definition's zero case;
* logistic(2^15 - 1) (x = 8 - 2^-12 in Q3.12): 1/(1 + e^-8) = 0.99966, 32756 in Q0.15
  (the Newton steps land within 1 of 32756.0);
* tanh of x = 1.0 in Q3.12 (4096): tanh(1) = 0.761594 -> 24955.8 in Q0.15, within 12
  (the int16 Newton steps are good to about 3.6e-4, 12 units of Q0.15);
* the quantized multiplier of 0.75: frexp gives 0.75 * 2^0, m0 = 0.75 * 2^31 = 1610612736;
  MBQM(1000, (1610612736, 0)) = 750; of 2^-20: m0 = 2^30, shift -19 and
  MBQM(3 * 2^19, ...) = 1.5 rounded away from zero = 2;
* the inverse square root multiplier of 4: 1/2 = m0 2^(shift - 31) within 1e-6;
  of 1: (2^31 - 1, 0) by the definition's special case;
* rdiv(-5, 1) = -3 (half away from zero), rdiv(5, 1) = 3, rdiv(-6, 2) = -2;
* a step with every weight 0, no layer norm, cs = -11, z_hid = 0, s_hid = 2^-7, N = O = 1:
  all four pre-activations are 0, so f = i = o = 2^14 and g = tanh(0) = 0; c' =
  rdiv(2^14 c, 15) = rdiv(c, 1), for c = 1001: 501 (500.5 away from zero); the hidden
  state is MBQM(2^14 tanh_4(501), 2^-30 / 2^-7 = 2^-23): tanh(501 / 2^11 = 0.2446) =
  0.23988 -> 7860.4 in Q0.15 (within 12), and 2^14 t / 2^23 = t / 512 lies in
  [15.33, 15.38] for any such t -> 15.
"""

from __future__ import annotations

import math
import random
import struct
import sys

FAULT = "--fault" in sys.argv

INT16_MIN, INT16_MAX = -(1 << 15), (1 << 15) - 1
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


# ---------------------------------------------------------------------------
# Integer helpers
# ---------------------------------------------------------------------------


def f32(value: float) -> float:
    """``value`` rounded to the nearest float32."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def trunc_div(a: int, b: int) -> int:
    """C's integer division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def wrap(value: int, bits: int) -> int:
    half = 1 << (bits - 1)
    return (value + half) % (1 << bits) - half


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def rdiv(x: int, exponent: int) -> int:
    """Rounding division by 2**exponent, ties away from zero (gemmlowp's RoundingDivideByPOT)."""
    if exponent == 0:
        return x
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def high_mul(a: int, b: int, bits: int) -> int:
    """Saturating rounding doubling high multiply of two ``bits``-bit raws."""
    low = -(1 << (bits - 1))
    if a == low and b == low:
        return (1 << (bits - 1)) - 1
    product = a * b
    nudge = (1 << (bits - 2)) if product >= 0 else 1 - (1 << (bits - 2))
    return trunc_div(product + nudge, 1 << (bits - 1))


def times_pot(raw: int, exponent: int, bits: int) -> int:
    """Multiplication by 2**exponent: saturating to the ``bits``-bit range when exponent > 0,
    a rounding division when it is < 0."""
    if exponent < 0:
        return rdiv(raw, -exponent)
    if exponent == 0:
        return raw
    limit = (1 << (bits - 1 - exponent)) - 1
    if raw > limit:
        return (1 << (bits - 1)) - 1
    if raw < -limit:
        return -(1 << (bits - 1))
    return raw << exponent


def quantize_multiplier(real: float) -> tuple[int, int]:
    """(m0, shift) with real = m0 * 2**(shift - 31), m0 in [2**30, 2**31); tiny ones 0."""
    if real == 0:
        return 0, 0
    mantissa, shift = math.frexp(real)
    scaled = mantissa * (1 << 31)
    m0 = math.floor(scaled + 0.5)  # std::round of a positive value
    if m0 == 1 << 31:
        m0 //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return m0, shift


def mbqm(x: int, multiplier: tuple[int, int]) -> int:
    """x * real for a quantized multiplier, on int32 (the left shift wraps as in C)."""
    m0, shift = multiplier
    left, right = max(shift, 0), max(-shift, 0)
    return rdiv(high_mul(wrap(x * (1 << left), 32), m0, 32), right)


def mbqm_truncating(x: int, multiplier: tuple[int, int]) -> int:
    """``mbqm`` with its final division by a power of two truncating (an arithmetic shift,
    toward minus infinity) instead of rounding: the fault ``--fault`` models."""
    m0, shift = multiplier
    left, right = max(shift, 0), max(-shift, 0)
    return high_mul(wrap(x * (1 << left), 32), m0, 32) >> right


# ---------------------------------------------------------------------------
# int16 fixed point: exp, logistic, tanh (gemmlowp's)
# ---------------------------------------------------------------------------


def const16(raw32: int) -> int:
    """A constant given as a 32-bit raw, narrowed to 16 bits (rounding shift by 16)."""
    return rdiv(raw32, 16)


def mul16(a: int, b: int) -> int:
    return high_mul(a, b, 16)


def add16(a: int, b: int) -> int:
    """Raw int16 addition (wraps)."""
    return wrap(a + b, 16)


def exp_small(a: int) -> int:
    """exp(a) for a in [-1/4, 0) in Q0.15: Taylor series around -1/8."""
    x = add16(a, 1 << 12)  # a + 1/8
    x2 = mul16(x, x)
    x3 = mul16(x2, x)
    x4 = mul16(x2, x2)
    x4_over_4 = rdiv(x4, 2)
    poly = rdiv(add16(mul16(add16(x4_over_4, x3), const16(715827883)), x2), 1)
    e = const16(1895147668)  # exp(-1/8)
    return clamp(e + mul16(e, add16(x, poly)), INT16_MIN, INT16_MAX)


BARREL = [(-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
          (2, 39332535), (3, 720401), (4, 242)]  # fmt: skip


def exp_negative(a: int, integer_bits: int) -> int:
    """exp(a) in Q0.15 for a <= 0 with ``integer_bits`` integer bits."""
    fractional = 15 - integer_bits
    quarter = 1 << (fractional - 2)
    shifted = add16(a & (quarter - 1), -quarter)
    result = exp_small(times_pot(shifted, integer_bits, 16))
    remainder = add16(shifted, -a)
    for exponent, raw in BARREL:
        if integer_bits > exponent and remainder & (1 << (fractional + exponent)):
            result = mul16(result, const16(raw))
    if integer_bits > 5 and a < const16(-(1 << (36 - integer_bits))):
        result = 0  # below -32
    return INT16_MAX if a == 0 else result


def newton(a: int) -> int:
    """x ~ 1 / ((1 + a) / 2) in Q2.13 for a in Q0.15, three Newton-Raphson steps."""
    s = a + INT16_MAX
    half = trunc_div(s + (1 if s >= 0 else -1), 2)
    x = add16(const16(1515870810), mul16(half, const16(-1010580540)))
    for _ in range(3):
        error = add16(1 << 13, -mul16(half, x))
        x = add16(x, times_pot(mul16(x, error), 2, 16))
    return x


def logistic(a: int) -> int:
    """logistic(a / 2^12) in Q0.15."""
    if a == 0:
        return 1 << 14
    magnitude = a if a > 0 else wrap(-a, 16)
    positive = times_pot(newton(exp_negative(wrap(-magnitude, 16), 3)), 1, 16)
    return positive if a > 0 else add16(INT16_MAX, -positive)


def tanh(a: int, integer_bits: int) -> int:
    """tanh(a / 2^(15 - integer_bits)) in Q0.15."""
    if a == 0:
        return 0
    n = a if a < 0 else wrap(-a, 16)
    t = times_pot(add16(newton(exp_negative(n, integer_bits + 1)), -(1 << 13)), 2, 16)
    return wrap(-t, 16) if a < 0 else t


# ---------------------------------------------------------------------------
# Layer norm and its inverse square root (32-bit fixed point)
# ---------------------------------------------------------------------------


def mul32(a: int, b: int) -> int:
    return high_mul(a, b, 32)


def inverse_sqrt(value: int) -> tuple[int, int]:
    """(m0, shift) with 1 / sqrt(value) ~ m0 * 2**(shift - 31), shift <= 0."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= 1 << 29:
        value //= 4
        shift += 1
    zeros = 32 - value.bit_length()
    pairs = (zeros - 1) // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    x = value >> 1  # Q3.28
    half = rdiv(x, 1)
    y = 1 << 28
    for _ in range(5):
        cube = times_pot(mul32(mul32(y, y), y), 6, 32)  # Q9.22 -> Q3.28
        y = times_pot(wrap(mul32((1 << 28) + (1 << 27), y) - mul32(half, cube), 32), 3, 32)
    y = mul32(y, 1518500250)  # times sqrt(2) / 2
    if shift < 0:
        y = wrap(y << -shift, 32)
        shift = 0
    return y, -shift


def layer_norm(row: list[int], weights: list[int], bias: list[int], scale: float) -> list[int]:
    n = len(row)
    total = sum(row)
    squares = sum(v * v for v in row)
    mean = trunc_div(total * 1024, n)
    variance = trunc_div(squares * trunc_div(1 << 20, n) - mean * mean, 1 << 20)
    if variance < 1:
        variance = min(1, math.trunc(f32(10000 * scale)))
    inverse = inverse_sqrt(variance)
    m0, shift = quantize_multiplier(scale)
    out = []
    for v, w, b in zip(row, weights, bias, strict=True):
        r = mbqm(wrap(1024 * v - mean, 32), inverse)
        p = wrap(wrap(r * w, 32) + b, 32)
        p4 = trunc_div(p + 512, 1024) if p > 0 else trunc_div(p - 512, 1024)
        out.append(clamp(mbqm(p4, (m0, shift + 12)), INT16_MIN, INT16_MAX))
    return out


# ---------------------------------------------------------------------------
# The step
# ---------------------------------------------------------------------------

GATES = "ifco"


def gate_sum(
    case: dict, gate: str, x: list[int], h: list[int], c_peep: list[int] | None
) -> list[int]:
    q = case["q"]
    wx, wh = case["w"]["x" + gate], case["w"]["h" + gate]
    s_g = f32(q["inter_" + gate])
    m_x = quantize_multiplier(f32(f32(f32(q["wx_" + gate]) * f32(q["x"][0])) / s_g))
    m_h = quantize_multiplier(f32(f32(f32(q["wh_" + gate]) * f32(q["h"][0])) / s_g))
    out = []
    for n in range(len(wx)):
        acc = -q["x"][1] * sum(wx[n]) + sum(a * b for a, b in zip(x, wx[n], strict=True))
        g = clamp(mbqm(wrap(acc, 32), m_x), INT16_MIN, INT16_MAX)
        acc = -q["h"][1] * sum(wh[n]) + sum(a * b for a, b in zip(h, wh[n], strict=True))
        g = clamp(mbqm(wrap(acc, 32), m_h) + g, INT16_MIN, INT16_MAX)
        out.append(g)
    peep = case["w"].get("c" + gate)
    if peep is not None and c_peep is not None:
        m_c = quantize_multiplier(2.0 ** q["cs"] * f32(q["wc_" + gate]) / s_g)
        out = [clamp(g + mbqm(w * c, m_c), INT16_MIN, INT16_MAX)
               for g, w, c in zip(out, peep, c_peep, strict=True)]  # fmt: skip
    norm = case["w"].get("ln_" + gate)
    if norm is not None:
        out = layer_norm(out, norm, case["w"]["b" + gate], f32(q["ln_" + gate]))
    return out


def step(case: dict, x: list[int], h: list[int], c: list[int]) -> tuple[list[int], list[int]]:
    """One batch row: (output, new cell state)."""
    q, w = case["q"], case["w"]
    cs = q["cs"]
    f = [logistic(g) for g in gate_sum(case, "f", x, h, c)]
    g = [tanh(v, 3) for v in gate_sum(case, "c", x, h, c)]
    if "xi" in w:
        i = [logistic(v) for v in gate_sum(case, "i", x, h, c)]
    else:
        i = [INT16_MAX - v for v in f]
    cell = []
    for fn, cn, i_n, gn in zip(f, c, i, g, strict=True):
        kept = rdiv(fn * cn, 15)
        value = clamp(wrap(kept, 16) + wrap(rdiv(i_n * gn, 30 + cs), 16), INT16_MIN, INT16_MAX)
        if q["cell_clip"] > 0:
            ratio = f32(f32(q["cell_clip"]) / f32(q["c"]))
            limit = math.trunc(min(max(ratio, -32768.0), 32767.0))
            if limit > 0:
                value = clamp(value, -limit, limit)
        cell.append(value)
    o = [logistic(v) for v in gate_sum(case, "o", x, h, cell)]
    z_hid, s_hid = q["hidden"][0], f32(q["hidden"][1])
    m_hid = quantize_multiplier(2.0**-15 / s_hid * 2.0**-15)
    rescale = mbqm_truncating if FAULT else mbqm
    hidden = [clamp(rescale(on * tanh(cn, cs + 15), m_hid) - z_hid, -128, 127)
              for on, cn in zip(o, cell, strict=True)]  # fmt: skip
    if "proj" not in w:
        return hidden, cell
    m_p = quantize_multiplier(f32(f32(f32(q["proj"]) * s_hid) / f32(q["h"][0])))
    out = []
    for o_index, row in enumerate(w["proj"]):
        bias = w["proj_bias"][o_index] if "proj_bias" in w else 0
        acc = bias + z_hid * sum(row) + sum(a * b for a, b in zip(hidden, row, strict=True))
        value = clamp(mbqm(wrap(acc, 32), m_p) + q["h"][1], -128, 127)
        if q["proj_clip"] > 0:
            ratio = f32(f32(q["proj_clip"]) / f32(q["proj"]))
            limit = math.trunc(min(max(ratio, -128.0), 127.0))
            if limit > 0:
                value = clamp(value, -limit, limit)
        out.append(value)
    return out, cell


def run(case: dict, x: list[list[int]], h: list[list[int]], c: list[list[int]]):
    results = [step(case, xb, hb, cb) for xb, hb, cb in zip(x, h, c, strict=True)]
    return [r[0] for r in results], [r[1] for r in results]


# ---------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------


def _matrix(rng: random.Random, rows: int, cols: int, low: int, high: int) -> list[list[int]]:
    return [[rng.randint(low, high) for _ in range(cols)] for _ in range(rows)]


def make_case(
    name: str,
    seed: int,
    batch: int,
    inputs: int,
    units: int,
    output: int,
    cifg: bool = False,
    peephole: bool = False,
    layer_norm: bool = True,
    projection: bool = False,
    projection_bias: bool = True,
    cell_clip: float = 0.0,
    proj_clip: float = 0.0,
    hidden_zero: int = 0,
    steps: int = 2,
    hidden_scale: float = 0.0078125,
    proj_scale: float = 0.00625,
) -> dict:
    """A case's quantization, weights and the inputs of its first step, drawn from a seeded
    generator; each later step takes new x and the previous step's states."""
    rng = random.Random(seed)
    q: dict = {
        "x": (0.0078125, 3),  # input 0
        "h": (0.0078125, -2),  # input 18 (and the output with projection)
        "c": 2.0**-11,
        "cs": -11,
        "cell_clip": cell_clip,
        "proj_clip": proj_clip,
        "hidden": (hidden_zero, hidden_scale),
    }
    gates = "fco" if cifg else "ifco"
    w: dict = {}
    for g in gates:
        q["wx_" + g] = 0.00625 + 0.00125 * GATES.index(g)
        q["wh_" + g] = 0.005 + 0.00125 * GATES.index(g)
        q["inter_" + g] = 0.0007 + 0.0001 * GATES.index(g) if layer_norm else 2.0**-12
        w["x" + g] = _matrix(rng, units, inputs, -110, 110)
        w["h" + g] = _matrix(rng, units, output, -110, 110)
        w["b" + g] = [rng.randint(-300000, 300000) for _ in range(units)]
        if layer_norm:
            q["ln_" + g] = 2.0**-10 if g != "c" else 0.0009765625 * 0.75
            w["ln_" + g] = [rng.randint(700, 1500) for _ in range(units)]
        if peephole and g != "c":
            q["wc_" + g] = 2.0**-10
            w["c" + g] = [rng.randint(-600, 600) for _ in range(units)]
    if projection:
        q["proj"] = proj_scale
        w["proj"] = _matrix(rng, output, units, -100, 100)
        if projection_bias:
            w["proj_bias"] = [rng.randint(-2000, 2000) for _ in range(output)]
    xs = [_matrix(rng, batch, inputs, -128, 127) for _ in range(steps)]
    h0 = _matrix(rng, batch, output, -100, 100)
    c0 = _matrix(rng, batch, units, -12000, 12000)
    return {"name": name, "q": q, "w": w, "xs": xs, "h0": h0, "c0": c0,
            "batch": batch, "inputs": inputs, "units": units, "output": output}  # fmt: skip


COARSE_HIDDEN = {"hidden_scale": 2.0**-4, "proj_scale": 0.004}
"""A hidden state eight times coarser than the output state, so that one unit of it moves
the projected output by 0.004 * 2^-4 / 2^-7 = 0.032 per unit of projection weight (the
fault of ``--fault`` shows there)."""

CASES = [
    make_case("cifg_layer_norm", 951, 2, 3, 4, 4, cifg=True, hidden_zero=2),
    make_case("layer_norm_projection", 952, 2, 3, 4, 3, projection=True, cell_clip=3.0,
              proj_clip=0.3, hidden_zero=-3, **COARSE_HIDDEN),
    make_case("cifg_layer_norm_projection", 953, 3, 2, 4, 2, cifg=True, projection=True,
              **COARSE_HIDDEN),
    make_case("peephole_layer_norm", 954, 2, 3, 3, 3, peephole=True),
    make_case("cifg_peephole_layer_norm_projection", 955, 2, 2, 3, 2, cifg=True,
              peephole=True, projection=True, projection_bias=False, **COARSE_HIDDEN),
    make_case("no_layer_norm", 956, 2, 3, 3, 3, layer_norm=False),
    make_case("saturated_hidden", 9594, 2, 3, 3, 3, cifg=True, hidden_scale=2.0**-13),
]  # fmt: skip
"""saturated_hidden: a hidden scale of 2^-13 clamps all but one hidden value to the int8
range (the seed was picked for it); the fault of ``--fault`` changes none of its outputs."""


def steps_of(case: dict) -> list[dict]:
    h, c = case["h0"], case["c0"]
    result = []
    for x in case["xs"]:
        out, cell = run(case, x, h, c)
        result.append({"x": x, "h_in": h, "c_in": c, "h_out": out, "c_out": cell})
        h, c = out, cell
    return result


def flat(m: list[list[int]]) -> list[int]:
    return [v for row in m for v in row]


def show(case: dict) -> None:
    print(f"# ---- {case['name']} ----")
    print(f"SIZES = {(case['batch'], case['inputs'], case['units'], case['output'])!r}")
    print("Q = " + repr(case["q"]))
    print("W = {")
    for key, value in case["w"].items():
        values = flat(value) if isinstance(value[0], list) else value
        print(f"    {key!r}: {values!r},")
    print("}")
    print("STEPS = [")
    for s in steps_of(case):
        print("    {" + ", ".join(f"{k!r}: {flat(v)!r}" for k, v in s.items()) + "},")
    print("]")


# ---------------------------------------------------------------------------
# Hand-derived checks
# ---------------------------------------------------------------------------


def hand_checks() -> None:
    assert logistic(0) == 1 << 14 and tanh(0, 3) == 0
    assert abs(logistic(INT16_MAX) - 32756) <= 1
    assert abs(tanh(4096, 3) - 24955.8) <= 12
    assert quantize_multiplier(0.75) == (1610612736, 0) and mbqm(1000, (1610612736, 0)) == 750
    assert quantize_multiplier(2.0**-20) == (1 << 30, -19)
    assert mbqm(3 << 19, quantize_multiplier(2.0**-20)) == 2
    m0, shift = inverse_sqrt(4)
    assert abs(m0 * 2.0 ** (shift - 31) - 0.5) < 1e-6
    assert inverse_sqrt(1) == (INT32_MAX, 0)
    assert (rdiv(-5, 1), rdiv(5, 1), rdiv(-6, 2)) == (-3, 3, -2)
    zero = {"q": {"x": (0.0078125, 0), "h": (0.0078125, 0), "c": 2.0**-11, "cs": -11,
                  "cell_clip": 0.0, "proj_clip": 0.0, "hidden": (0, 0.0078125)},
            "w": {}}  # fmt: skip
    for g in GATES:
        zero["q"]["wx_" + g] = zero["q"]["wh_" + g] = 0.01
        zero["q"]["inter_" + g] = 2.0**-12
        zero["w"]["x" + g], zero["w"]["h" + g] = [[0]], [[0]]
        zero["w"]["b" + g] = [12345]  # ignored without layer norm
    assert abs(tanh(501, 4) - 7860.4) <= 12
    if not FAULT:
        assert step(zero, [7], [-5], [1001]) == ([15], [501])


def fault_effects() -> None:
    """Per case and step, the largest change of each output the fault causes."""
    global FAULT
    for case in CASES:
        FAULT = False
        good = steps_of(case)
        FAULT = True
        for index, step_ in enumerate(good):
            out, cell = run(case, step_["x"], step_["h_in"], step_["c_in"])
            d_out = max(abs(a - b) for a, b in zip(flat(out), flat(step_["h_out"]), strict=True))
            d_cell = max(abs(a - b) for a, b in zip(flat(cell), flat(step_["c_out"]), strict=True))
            print(
                f"{case['name']} ex{index}: output changes by up to {d_out}, cell state by {d_cell}"
            )


def main() -> None:
    if FAULT:
        fault_effects()
        return
    hand_checks()
    for case in CASES:
        show(case)


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
