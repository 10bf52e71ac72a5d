"""Offline oracle for the LSH_PROJECTION specs' golden values.

Plain Python (arbitrary-precision integers masked to 64 bits, ``struct`` for
bytes), independent of the reference driver and of the generator. It holds:

* ``fingerprint64``: FarmHash's ``Fingerprint64`` (the "na" 64-bit hash),
  written from the published algorithm and its constants: the length picks a
  mixer (0-16, 17-32, 33-64 bytes), longer keys run 64-byte rounds over a
  56-byte state and finish on the last 64 bytes;
* ``lsh_projection``: the definition of docs/operations.md, LSH_PROJECTION (15).
  For hash function i
  and bit j the seed ``hash[i, j]`` as a float32 is prefixed to each input
  row's raw bytes; each key's fingerprint, read as a signed 64-bit integer
  and widened to double, is weighted (1.0 when the weight is omitted) and
  summed over the rows in order; the bit is ``sum > 0``. DENSE lists every
  bit; SPARSE packs the bits of hash function i most significant first, and
  type 3 adds ``i << num_bits``.

The other specs of the family (EMBEDDING_LOOKUP, HASHTABLE_LOOKUP,
RANDOM_MULTINOMIAL) are derived by hand in their own comments; the
parameter-space tests (conformance/harness/corners/lookup.py) run
``embedding_lookup`` and ``hashtable_lookup`` below (the definitions of
docs/operations.md), on the cases they draw, ``lsh_projection`` on theirs, and
``certain_multinomial`` on RANDOM_MULTINOMIAL cases whose samples are certain
(one class per row holds all the probability: the others' exp(logit - max)
is 0 even in double).

How to run (the FarmHash check needs ``pyfarmhash``, which is NOT a project
dependency; install it only in a throwaway environment)::

    python3 -m venv /tmp/farmvenv && /tmp/farmvenv/bin/pip install pyfarmhash numpy
    /tmp/farmvenv/bin/python conformance/specs/oracles/lookup_oracle.py --check-farmhash
    /tmp/farmvenv/bin/python conformance/specs/oracles/lookup_oracle.py

The first command compares ``fingerprint64`` with ``farmhash.fingerprint64``
on keys of every length from 0 to 300 bytes and prints the vectors that
tests/reference/test_ops_lookup.py pins; the second prints each spec case's output
with its smallest decision margin (|score| / sum |term|): every case in the
specs has a margin far from 0, so a driver summing in another order or
precision still gets the same bits.
"""

from __future__ import annotations

import math
import struct
import sys

MASK = (1 << 64) - 1
K0 = 0xC3A5C85C97CB3127
K1 = 0xB492B66FBE98F273
K2 = 0x9AE16A3B2F90404F


# ---------------------------------------------------------------------------
# FarmHash Fingerprint64
# ---------------------------------------------------------------------------


def _u64(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 8], "little")


def _u32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 4], "little")


def _rotr(value: int, shift: int) -> int:
    return ((value >> shift) | (value << (64 - shift))) & MASK


def _shift_mix(value: int) -> int:
    return value ^ (value >> 47)


def _mix16(u: int, v: int, mul: int) -> int:
    """Two words to one, Murmur style (``HashLen16`` with a multiplier)."""
    a = _shift_mix(((u ^ v) * mul) & MASK)
    b = _shift_mix(((v ^ a) * mul) & MASK)
    return (b * mul) & MASK


def _short(data: bytes) -> int:
    """Keys of 0 to 16 bytes."""
    n = len(data)
    mul = (K2 + 2 * n) & MASK
    if n >= 8:
        a = (_u64(data, 0) + K2) & MASK
        b = _u64(data, n - 8)
        c = (_rotr(b, 37) * mul + a) & MASK
        d = ((_rotr(a, 25) + b) * mul) & MASK
        return _mix16(c, d, mul)
    if n >= 4:
        return _mix16(n + (_u32(data, 0) << 3), _u32(data, n - 4), mul)
    if n > 0:
        y = data[0] + (data[n >> 1] << 8)
        z = n + (data[n - 1] << 2)
        return (_shift_mix(((y * K2) ^ (z * K0)) & MASK) * K2) & MASK
    return K2


def _medium(data: bytes) -> int:
    """Keys of 17 to 32 bytes."""
    n = len(data)
    mul = (K2 + 2 * n) & MASK
    a = (_u64(data, 0) * K1) & MASK
    b = _u64(data, 8)
    c = (_u64(data, n - 8) * mul) & MASK
    d = (_u64(data, n - 16) * K2) & MASK
    return _mix16(
        (_rotr((a + b) & MASK, 43) + _rotr(c, 30) + d) & MASK,
        (a + _rotr((b + K2) & MASK, 18) + c) & MASK,
        mul,
    )


def _long(data: bytes) -> int:
    """Keys of 33 to 64 bytes."""
    n = len(data)
    mul = (K2 + 2 * n) & MASK
    a = (_u64(data, 0) * K2) & MASK
    b = _u64(data, 8)
    c = (_u64(data, n - 8) * mul) & MASK
    d = (_u64(data, n - 16) * K2) & MASK
    y = (_rotr((a + b) & MASK, 43) + _rotr(c, 30) + d) & MASK
    z = _mix16(y, (a + _rotr((b + K2) & MASK, 18) + c) & MASK, mul)
    e = (_u64(data, 16) * mul) & MASK
    f = _u64(data, 24)
    g = ((y + _u64(data, n - 32)) * mul) & MASK
    h = ((z + _u64(data, n - 24)) * mul) & MASK
    return _mix16(
        (_rotr((e + f) & MASK, 43) + _rotr(g, 30) + h) & MASK,
        (e + _rotr((f + a) & MASK, 18) + g) & MASK,
        mul,
    )


def _weak32(data: bytes, at: int, a: int, b: int) -> tuple[int, int]:
    """Four words at ``at`` and two seeds to a pair of words."""
    w, x, y, z = (_u64(data, at + 8 * k) for k in range(4))
    a = (a + w) & MASK
    b = _rotr((b + a + z) & MASK, 21)
    c = a
    a = (a + x + y) & MASK
    b = (b + _rotr(a, 44)) & MASK
    return (a + z) & MASK, (b + c) & MASK


def _round(state: list, data: bytes, at: int, mul: int, last: bool) -> None:
    """One 64-byte round on state [x, y, z, v0, v1, w0, w1]."""
    x, y, z, v0, v1, w0, w1 = state
    times = 9 if last else 1
    x = (_rotr((x + y + v0 + _u64(data, at + 8)) & MASK, 37) * mul) & MASK
    y = (_rotr((y + v1 + _u64(data, at + 48)) & MASK, 42) * mul) & MASK
    x ^= (w1 * times) & MASK
    y = (y + v0 * times + _u64(data, at + 40)) & MASK
    z = (_rotr((z + w0) & MASK, 33) * mul) & MASK
    v0, v1 = _weak32(data, at, (v1 * mul) & MASK, (x + w0) & MASK)
    w0, w1 = _weak32(data, at + 32, (z + w1) & MASK, (y + _u64(data, at + 16)) & MASK)
    state[:] = [z, y, x, v0, v1, w0, w1]  # x and z trade places


def fingerprint64(data: bytes) -> int:
    """FarmHash ``Fingerprint64`` of ``data`` as an unsigned 64-bit integer."""
    n = len(data)
    if n <= 16:
        return _short(data)
    if n <= 32:
        return _medium(data)
    if n <= 64:
        return _long(data)
    y = (81 * K1 + 113) & MASK
    z = (_shift_mix((y * K2 + 113) & MASK) * K2) & MASK
    x = (81 * K2 + _u64(data, 0)) & MASK
    state = [x, y, z, 0, 0, 0, 0]
    for at in range(0, ((n - 1) // 64) * 64, 64):
        _round(state, data, at, K1, last=False)
    x, y, z, v0, v1, w0, w1 = state
    mul = (K1 + ((z & 0xFF) << 1)) & MASK
    w0 = (w0 + ((n - 1) & 63)) & MASK
    v0 = (v0 + w0) & MASK
    w0 = (w0 + v0) & MASK
    state = [x, y, z, v0, v1, w0, w1]
    _round(state, data, n - 64, mul, last=True)
    x, y, z, v0, v1, w0, w1 = state
    return _mix16(
        (_mix16(v0, w0, mul) + _shift_mix(y) * K0 + z) & MASK,
        (_mix16(v1, w1, mul) + x) & MASK,
        mul,
    )


def signed(value: int) -> int:
    return value - (1 << 64) if value >> 63 else value


# ---------------------------------------------------------------------------
# LSH_PROJECTION
# ---------------------------------------------------------------------------

_FORMAT = {"f32": "<f", "f16": "<e", "i32": "<i", "q8": "<B"}


def rows_bytes(values: list, rows: int, kind: str) -> list[bytes]:
    """Input values (flat, row-major) as ``rows`` byte strings in the operand's encoding."""
    per_row = len(values) // rows
    fmt = _FORMAT[kind]
    return [
        b"".join(struct.pack(fmt, v) for v in values[r * per_row : (r + 1) * per_row])
        for r in range(rows)
    ]


def _bit(seed: float, rows: list[bytes], weights: list | None) -> tuple[int, float]:
    """The sign bit for one seed, and its margin |score| / sum |term|."""
    key_prefix = struct.pack("<f", seed)
    score, magnitude = 0.0, 0.0
    for r, row in enumerate(rows):
        term = float(signed(fingerprint64(key_prefix + row)))
        if weights is not None:
            term = weights[r] * term
        score += term
        magnitude += abs(term)
    return (1 if score > 0 else 0), abs(score) / magnitude


def lsh_projection(hashes, num_bits, rows, weights, kind) -> tuple[list[int], float]:
    """Output of LSH_PROJECTION type ``kind`` (1, 2 or 3) and its smallest margin."""
    bits, margins = [], []
    for seed in hashes:
        bit, margin = _bit(seed, rows, weights)
        bits.append(bit)
        margins.append(margin)
    if kind == 2:
        return bits, min(margins)
    out = []
    for i in range(len(hashes) // num_bits):
        signature = 0
        for bit in bits[i * num_bits : (i + 1) * num_bits]:
            signature = (signature << 1) | bit
        if kind == 3:
            signature += i << num_bits
        signature &= 0xFFFFFFFF
        out.append(signature - (1 << 32) if signature >> 31 else signature)
    return out, min(margins)


# Each case: spec name, hash values (flat), num_bits, input values, input encoding,
# input rows, weights (None = omitted), type. Hash values and weights are chosen
# exactly representable in float16, so float16 variations hash the same seeds.
_HASH_4x2 = [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5]
_HASH_3x3 = [-0.25, 0.75, 1.5, -3.0, 5.25, 0.0625, -12.5, 2.0, 7.75]
CASES = {
    "V1_0/lsh_projection dense_int32": (_HASH_4x2, 2, [12, 7, -3, 40, 1000, -77], "i32", 3, [0.5, -1.25, 2.0], 2),
    "V1_0/lsh_projection sparse_float32": (_HASH_4x2, 2, [1.5, -2.25, 8.0, 0.5, 3.75, -1.0], "f32", 2, None, 1),
    "V1_0/lsh_projection dense_quant8": (_HASH_3x3, 3, [3, 200, 17, 128, 255], "q8", 5, [1.0, 2.0, -0.5, 0.25, 3.0], 2),
    "V1_0/lsh_projection sparse_rank3_int32": (_HASH_3x3, 3, [1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8], "i32", 4, None, 1),
    "V1_0/lsh_projection bits32_float32": (
        [0.5 * (k - 16) for k in range(32)], 32, [0.25 * k - 3.0 for k in range(20)], "f32", 2, None, 1),
    "V1_0/lsh_projection long_int32": (_HASH_4x2, 2, list(range(-20, 20)), "i32", 2, [1.0, -0.75], 2),
    "V1_0/lsh_projection two_rounds_int32": (_HASH_4x2, 2, [k * k - 50 for k in range(80)], "i32", 2, None, 1),
    "V1_2/lsh_projection_v1_2 sparse_float32": (_HASH_4x2, 2, [1.5, -2.25, 8.0, 0.5, 3.75, -1.0], "f32", 2, None, 3),
    "V1_2/lsh_projection_v1_2 sparse_quant8": (_HASH_3x3, 3, [3, 200, 17, 128, 255, 9], "q8", 3, None, 3),
    "V1_2/lsh_projection_v1_2 float16_float16": (_HASH_4x2, 2, [1.5, -2.25, 8.0, 0.5, 3.75, -1.0], "f16", 2, [2.0, -0.5], 2),
    "V1_2/lsh_projection_v1_2 float16_float32": (_HASH_3x3, 3, [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8], "f32", 4, None, 3),
    "V1_2/lsh_projection_v1_2 float32_float16": (_HASH_3x3, 3, [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8], "f16", 4, [1.0, 1.0, -1.0, 0.5], 2),
}  # fmt: skip


# ---------------------------------------------------------------------------
# EMBEDDING_LOOKUP and HASHTABLE_LOOKUP (for the parameter-space tests)
# ---------------------------------------------------------------------------


def embedding_lookup(lookups, values, shape):
    """Row ``lookups[i]`` of ``values`` (row-major, ``shape`` = [n, ...]) for each i:
    (output values, output shape)."""
    row = len(values) // shape[0]
    out = []
    for index in lookups:
        assert 0 <= index < shape[0], f"lookup {index} is outside the {shape[0]} rows"
        out += values[index * row : (index + 1) * row]
    return out, [len(lookups), *shape[1:]]


def hashtable_lookup(lookups, keys, values, shape):
    """For each lookup, the row of ``values`` at the position of an equal key (a hit, 1)
    or a row of zeros (a miss, 0): (output values, output shape, hits)."""
    row = len(values) // shape[0]
    out, hits = [], []
    for lookup in lookups:
        if lookup in keys[: shape[0]]:
            at = keys.index(lookup)
            out += values[at * row : (at + 1) * row]
            hits.append(1)
        else:
            out += [0] * row
            hits.append(0)
    return out, [len(lookups), *shape[1:]], hits


# ---------------------------------------------------------------------------
# RANDOM_MULTINOMIAL (for the parameter-space tests)
# ---------------------------------------------------------------------------


def certain_multinomial(logits, classes, num_samples):
    """RANDOM_MULTINOMIAL of ``logits`` (row-major [batches, classes]) where every sample
    is certain: per row, the probabilities are exp(logit - max finite logit) over their
    sum (a non-finite logit has probability 0), and exactly one class may have one that
    is not 0 in double (so in float32 too). Its index, ``num_samples`` times per row
    (row-major [batches, num_samples]); ValueError if some row leaves a choice."""
    out = []
    for at in range(0, len(logits), classes):
        row = logits[at : at + classes]
        finite = [v for v in row if math.isfinite(v)]
        top = max(finite)
        mass = [math.exp(v - top) if math.isfinite(v) else 0.0 for v in row]
        drawn = [j for j, p in enumerate(mass) if p > 0.0]
        if len(drawn) != 1:
            raise ValueError(f"row {row}: classes {drawn} may all be drawn")
        out += drawn * num_samples
    return out


def run_cases() -> None:
    for name, (hashes, num_bits, values, encoding, rows, weights, kind) in CASES.items():
        out, margin = lsh_projection(
            hashes, num_bits, rows_bytes(values, rows, encoding), weights, kind
        )
        key_bytes = 4 + len(rows_bytes(values, rows, encoding)[0])
        print(f"{name}: key {key_bytes} bytes, margin {margin:.3g}\n  {out}")


def check_farmhash() -> None:
    """Compare with pyfarmhash (the Google C++ code) on deterministic pseudo-random keys."""
    import farmhash  # only in a throwaway venv: see the module docstring

    state = 12345
    data = bytearray()
    for _ in range(300):
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK
        data.append(state >> 56)
    for n in range(301):
        key = bytes(data[:n])
        expected = farmhash.fingerprint64(key)
        actual = fingerprint64(key)
        assert actual == expected, f"length {n}: {actual:#x} != {expected:#x}"
    print("fingerprint64 matches pyfarmhash for lengths 0..300")
    for n in (0, 1, 3, 4, 7, 8, 16, 17, 32, 33, 64, 65, 128, 129, 200):
        print(f"  ({n}, {fingerprint64(bytes(data[:n])):#018x}),")
    print("key prefix (first 16 bytes):", bytes(data[:16]).hex())


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, run_cases, HAND_DERIVED):
        if "--check-farmhash" in sys.argv:
            check_farmhash()
        else:
            run_cases()
