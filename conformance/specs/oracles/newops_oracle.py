"""Offline oracle for the specs of ELU (98), HARD_SWISH (99), FILL (100) and RANK (101).

Specs: V1_3/{elu,hard_swish,fill,rank}.mod.py.

Plain Python, one element at a time, written from the operations' definitions in
docs/operations.md and independent of the reference driver and of the generator:

* ELU: ``max(0, x) + min(0, alpha * (exp(x) - 1))`` in float64.
* HARD_SWISH on floats: ``x * min(6, max(0, x + 3)) / 6`` in float64.
* HARD_SWISH on quantized tensors: the integer procedure, step by step on Python
  ints with every int16 store made explicit (``store16``): the two multipliers
  from the scales in float32 (``f32``), turned into a Q31 mantissa and an exponent,
  narrowed to Q15; per element the centred input times 128, the rounding doubling
  high multiply by the output multiplier, the relu-ish value (saturating left
  shifts around a rounding multiply, or a rounding right shift), mapped to [0, 1],
  the truncating doubling high multiply of the two, the output exponent's rounding
  right shift on int16, the zero point added on int16, the clamp.
* FILL: the value repeated ``prod(shape)`` times. RANK: the number of dimensions.

``self_test`` checks the building blocks and a few whole HARD_SWISH elements
against values derived by hand (in the comments beside them) every time the
oracle runs. ``main`` prints every example's golden values, in the order the
specs use them.

Run: ``python conformance/specs/oracles/newops_oracle.py`` and paste;
``--check`` compares the specs with it.
"""

from __future__ import annotations

import math
import struct

INT16_MIN, INT16_MAX = -32768, 32767
RANGES = {"Q8A": (0, 255), "Q8AS": (-128, 127)}


def f32(x: float) -> float:
    """``x`` rounded to float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# Integer building blocks (int16 semantics on Python ints) ------------------------


def store16(x: int) -> int:
    """The int16 a C assignment keeps of ``x``: its low 16 bits, signed."""
    x &= 0xFFFF
    return x - 0x10000 if x >= 0x8000 else x


def saturate16(x: int) -> int:
    return min(max(x, INT16_MIN), INT16_MAX)


def div_toward_zero(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def rounding_doubling_high_mul(a: int, b: int) -> int:
    """int16 ``a * b * 2 / 2**16`` rounded half away from zero; -32768 * -32768 gives
    32767."""
    if a == b == INT16_MIN:
        return INT16_MAX
    product = a * b
    nudge = (1 << 14) if product >= 0 else 1 - (1 << 14)
    return store16(div_toward_zero(product + nudge, 1 << 15))


def doubling_high_mul(a: int, b: int) -> int:
    """The same product truncated toward zero (no rounding)."""
    if a == b == INT16_MIN:
        return INT16_MAX
    return store16(div_toward_zero(a * b, 1 << 15))


def rounding_shift_right16(x: int, exponent: int) -> int:
    """int16 rounding right shift: the mask is an int16 (all ones from exponent 16)."""
    mask = store16((1 << exponent) - 1)
    remainder = store16(x & mask)
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return store16((x >> exponent) + (1 if remainder > threshold else 0))


def q31(real: float) -> tuple[int, int]:
    """``real = m * 2**(e - 31)``, ``m`` in [2**30, 2**31); exponents below -31 give (0, 0)."""
    if real == 0.0:
        return 0, 0
    mantissa, exponent = math.frexp(real)
    m = int(mantissa * 2**31 + 0.5)  # mantissa > 0: floor(x + 0.5) is round half away
    if m == 2**31:
        m, exponent = m // 2, exponent + 1
    if exponent < -31:
        return 0, 0
    return m, exponent


def q15(m: int) -> int:
    """A Q31 multiplier narrowed to Q15 (rounded), 32767 when that would overflow."""
    if m >= 2**31 - 1 - 2**15:
        return INT16_MAX
    return (m + 2**15) // 2**16


def hard_swish_params(s_in: float, s_out: float) -> tuple[int, int, int, int]:
    """(output multiplier, output exponent, relu-ish multiplier, relu-ish exponent)."""
    hires = f32(f32(1 / 128) * f32(s_in))
    out_m, out_e = q31(f32(hires / f32(s_out)))
    relu_m, relu_e = q31(f32(hires / f32(3 / 32768)))
    return q15(out_m), out_e, q15(relu_m), relu_e


def hard_swish_q(q: int, s_in: float, z_in: int, s_out: float, z_out: int, kind: str) -> int:
    out_m, out_e, relu_m, relu_e = hard_swish_params(s_in, s_out)
    assert out_e <= 0, "Android 11 fails HARD_SWISH when the output exponent is above 0"
    hires = store16(store16(q - z_in) * 128)
    preshift = rounding_doubling_high_mul(hires, out_m)
    reluish = hires
    if relu_e > 0:
        reluish = saturate16(reluish * 2 ** (relu_e - 1))
    reluish = rounding_doubling_high_mul(reluish, relu_m)
    if relu_e > 0:
        reluish = saturate16(reluish * 2)
    if relu_e < 0:
        reluish = rounding_shift_right16(reluish, -relu_e)
    reluish = store16((reluish + 32768) >> 1)
    value = rounding_shift_right16(doubling_high_mul(reluish, preshift), -out_e)
    value = store16(value + z_out)
    low, high = RANGES[kind]
    return min(max(value, low), high)


# Float definitions -----------------------------------------------------------------


def elu(x: float, alpha: float) -> float:
    negative = alpha * (math.exp(x) - 1.0) if x < 700 else math.inf
    return max(0.0, x) + min(0.0, negative)


def hard_swish(x: float) -> float:
    return x * min(6.0, max(0.0, x + 3.0)) / 6.0


def fill(shape: list[int], value: float) -> list[float]:
    return [value] * math.prod(shape)


def rank(shape: list[int]) -> int:
    return len(shape)


# Hand-derived checks ---------------------------------------------------------------


def self_test() -> None:
    # store16: 32768 wraps to -32768; -32769 to 32767.
    assert store16(32768) == -32768 and store16(-32769) == 32767
    # 16384 * 16384 * 2 / 65536 = 8192 exactly (nudge 16384 truncated away).
    assert rounding_doubling_high_mul(16384, 16384) == 8192
    # 3 * 16384 = 49152; (49152 + 16384) / 32768 = 2.0 -> 2; truncating: 1.5 -> 1.
    assert rounding_doubling_high_mul(3, 16384) == 2 and doubling_high_mul(3, 16384) == 1
    # -3 * 16384 = -49152, nudged by -16383: -65535 / 32768 = -1.99997, truncated toward
    # zero: -1 (the negative nudge is one short of a half, so -1.5 does not reach -2).
    assert rounding_doubling_high_mul(-3, 16384) == -1
    assert rounding_doubling_high_mul(-32768, -32768) == 32767
    # 5 >> 1 with rounding: 2.5 -> 3; -5: -2.5 -> -3; 4 >> 2: 1; 6 >> 2: 1.5 -> 2.
    assert rounding_shift_right16(5, 1) == 3 and rounding_shift_right16(-5, 1) == -3
    assert rounding_shift_right16(4, 2) == 1 and rounding_shift_right16(6, 2) == 2
    # Exponent 16: the int16 mask is all ones, 0 gives 1 and -7 gives -1.
    assert rounding_shift_right16(0, 16) == 1 and rounding_shift_right16(-7, 16) == -1
    # 0.75 = 0.75 * 2**0 -> (0.75 * 2**31, 0) = (1610612736, 0); Q15: 24576.
    assert q31(0.75) == (1610612736, 0) and q15(1610612736) == 24576
    # 2**-40: exponent -39 < -31 -> flushed.
    assert q31(2.0**-40) == (0, 0)
    # s_in = 0.5, s_out = 0.25: hires 2**-8, output multiplier 2**-6 = 0.5 * 2**-5 ->
    # (2**30, -5) -> Q15 16384; relu-ish 2**-8 / (3 * 2**-15) = 128 / 3 = 42.67
    # = 0.6667 * 2**6 -> m = round(2**31 * 2 / 3) = 1431655765, Q15 21845, exponent 6.
    assert hard_swish_params(0.5, 0.25) == (16384, -5, 21845, 6)
    # One element, q = 138, z_in = 128 (x = 5.0 >= 3, so y = x = 5.0 -> 20 steps of
    # 0.25 above z_out = 128: 148). By the procedure: v = 10, hires = 1280; preshift
    # = 1280 * 16384 * 2 / 65536 = 640; relu-ish: 1280 << 5 = 40960 -> 32767; times
    # 21845: 32767 * 21845 / 32768 = 21844.33 -> 21844; << 1 = 43688 -> 32767; mapped
    # (32767 + 32768) >> 1 = 32767; 32767 * 640 / 32768 = 639.98 -> 639 (truncated);
    # 639 >> 5 rounded: 19.97 -> 20; + 128 = 148.
    assert hard_swish_q(138, 0.5, 128, 0.25, 128, "Q8A") == 148
    # q = 126 (x = -1.0): y = -1 * 2 / 6 = -0.333 -> -1.33 steps -> 128 - 1 = 127.
    # Procedure: v = -2, hires = -256; preshift = -256 * 16384 / 32768 = -128; relu-ish:
    # -256 << 5 = -8192; * 21845: -8192 * 21845 / 32768 = -5461.25, nudged toward
    # -infinity by 0.5 then truncated: -5461.75 -> -5461; << 1 = -10922;
    # (-10922 + 32768) >> 1 = 10923; 10923 * -128 / 32768 = -42.67 -> -42;
    # -42 >> 5 rounded: -1.3125 -> -1; + 128 = 127.
    assert hard_swish_q(126, 0.5, 128, 0.25, 128, "Q8A") == 127
    # Q8AS, q = -128, z_in = 0, s_in = 0.5 (x = -64 < -3): y = 0 -> z_out = -5.
    assert hard_swish_q(-128, 0.5, 0, 0.25, -5, "Q8AS") == -5
    # The int16 wrap: s_in = 511/512, s_out = 2**-7, so the output multiplier is s_in
    # itself, 0.998046875 = 0.998 * 2**0 (exponent 0): Q31 2143289344, Q15 (+ 2**15) >> 16
    # = 32704. The relu-ish multiplier 2**-7 * 511/512 / (3 * 2**-15) = 85.17 = 0.665 * 2**7.
    # q = 255, z_in = 0: hires 32640; preshift (32640 * 32704 + 16384) / 32768 = 32576.3
    # -> 32576; relu-ish saturates to 32767 (x >= 3); 32767 * 32576 / 32768 = 32575.006
    # -> 32575; + 255 = 32830, which an int16 keeps as 32830 - 65536 = -32706 -> 0.
    assert hard_swish_params(0.998046875, 0.0078125)[:2] == (32704, 0)
    assert hard_swish_q(255, 0.998046875, 0, 0.0078125, 255, "Q8A") == 0
    # q = 254: hires 32512; (32512 * 32704 + 16384) / 32768 = 32448.98 -> 32448;
    # 32767 * 32448 / 32768 = 32447.01 -> 32447; + 255 = 32702 fits -> clamped to 255.
    assert hard_swish_q(254, 0.998046875, 0, 0.0078125, 255, "Q8A") == 255
    # Floats: hard_swish(1) = 1 * 4 / 6; elu(-1, 2) = 2 * (e**-1 - 1).
    assert hard_swish(1.0) == 4.0 / 6.0 and hard_swish(-4.0) == 0.0 and hard_swish(4.0) == 4.0
    assert elu(-1.0, 2.0) == 2.0 * (math.exp(-1.0) - 1.0) and elu(3.0, 0.5) == 3.0
    assert elu(-1000.0, 0.1) == -0.1


# The specs' examples -----------------------------------------------------------------

ELU_EXAMPLES = [
    # (name, inputs, alpha)
    ("elu alpha 1", [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, -0.25], 1.0),
    ("elu alpha 0.1", [-3.0, -1.5, -0.1, 0.0, 0.1, 1.5, 3.0, -6.0], 0.1),
    ("elu alpha 10", [-2.5, -0.75, -0.05, 0.0, 0.05, 0.75, 2.5, -4.0], 10.0),
    ("elu large negative", [-1000.0, -100.0, -30.0, -20.0, 20.0, 100.0], 0.5),
    ("elu rank 5", [-1.0, 1.0, -2.0, 2.0, -0.5, 0.5], 2.0),
]

HARD_SWISH_FLOAT = [
    ("hard_swish float", [-6.0, -3.5, -3.0, -2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5, 3.0, 4.5]),
    ("hard_swish float rank 5", [-4.0, -2.0, -1.5, 1.5, 2.0, 7.0]),
]

HARD_SWISH_QUANT = [
    # (name, kind, inputs (quantized), (s_in, z_in), (s_out, z_out))
    ("hard_swish q8a same scale", "Q8A", list(range(96, 161, 4)), (0.125, 128), (0.125, 128)),
    (
        "hard_swish q8a wide",
        "Q8A",
        [0, 20, 64, 100, 120, 127, 128, 129, 136, 150, 200, 255],
        (0.1, 128),
        (0.05, 30),
    ),
    (
        "hard_swish q8a saturating",
        "Q8A",
        [0, 40, 90, 100, 110, 128, 140, 160, 192, 224, 240, 255],
        (0.0625, 100),
        (0.02, 0),
    ),
    (
        "hard_swish q8a coarse input",
        "Q8A",
        [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16],
        (1.5, 4),
        (0.5, 20),
    ),
    ("hard_swish q8as same scale", "Q8AS", list(range(-32, 33, 4)), (0.125, 0), (0.125, 0)),
    (
        "hard_swish q8as wide",
        "Q8AS",
        [-128, -100, -64, -30, -10, -1, 0, 1, 10, 30, 64, 127],
        (0.1, 0),
        (0.05, -98),
    ),
    (
        "hard_swish q8as saturating",
        "Q8AS",
        [-128, -90, -40, -20, -8, 0, 8, 20, 40, 80, 100, 127],
        (0.0625, -28),
        (0.02, -128),
    ),
    (
        "hard_swish q8as small input scale",
        "Q8AS",
        [-128, -64, -16, -1, 0, 1, 16, 64, 100, 127, -100, 50],
        (0.01, -5),
        (0.004, -20),
    ),
    ("hard_swish rank 5 q8a", "Q8A", [100, 120, 130, 140, 150, 160], (0.1, 128), (0.1, 128)),
    (
        "hard_swish q8a zero point wrap",
        "Q8A",
        [0, 1, 2, 4, 64, 128, 200, 253, 254, 255],
        (0.998046875, 0),
        (0.0078125, 255),
    ),
]

FILL_EXAMPLES = [
    # (name, shape, value)
    ("fill rank 1", [5], 1.5),
    ("fill rank 3", [2, 3, 2], -0.25),
    ("fill rank 5", [1, 2, 1, 2, 2], 7.0),
    ("fill rank 3 int32", [2, 1, 3], -7),
    ("fill rank 5 int32", [2, 1, 1, 2, 1], 123456),
    ("fill from rank", [2, 2, 1], 3),
]

RANK_EXAMPLES = [
    # (name, input shape)
    ("rank 1", [4]),
    ("rank 2", [2, 3]),
    ("rank 3", [1, 2, 2]),
    ("rank 4", [1, 1, 2, 2]),
    ("rank 5", [1, 2, 1, 1, 2]),
    ("rank 6", [1, 1, 1, 1, 1, 2]),
]


def fmt(value: float) -> str:
    if math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    if value == int(value) and abs(value) < 1e15:
        return f"{value:.1f}"
    return f"{value:.9g}"


def main() -> None:
    self_test()
    for name, inputs, alpha in ELU_EXAMPLES:
        print(f"{name}:", ", ".join(fmt(elu(x, alpha)) for x in inputs))
    for name, inputs in HARD_SWISH_FLOAT:
        print(f"{name}:", ", ".join(fmt(hard_swish(x)) for x in inputs))
    for name, kind, inputs, (s_in, z_in), (s_out, z_out) in HARD_SWISH_QUANT:
        outputs = [hard_swish_q(q, s_in, z_in, s_out, z_out, kind) for q in inputs]
        print(f"{name} ({kind}, in {s_in}/{z_in}, out {s_out}/{z_out}):", outputs)
    for name, shape, value in FILL_EXAMPLES:
        print(f"{name} {shape}:", fill(shape, value))
    for name, shape in RANK_EXAMPLES:
        print(f"{name} {shape}:", [rank(shape)])


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {
    (
        "V1_3/hard_swish.mod.py",
        "passed_through",
    ): "zero_sized: the output is the input x (no rows added)",
}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
