"""EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION and RANDOM_MULTINOMIAL.

The two lookups move raw rows: EMBEDDING_LOOKUP gathers ``values[lookups]``
(an index outside the values' first dimension is INVALID_ARGUMENT);
HASHTABLE_LOOKUP binary-searches each lookup in the sorted keys, copies the
matching row or writes an all-zero row (raw zeros, not the zero point) and
reports hits as 0/1 in a TENSOR_QUANT8_ASYMM of scale 1, zero point 0.

LSH_PROJECTION hashes, for each seed ``hash[i, j]`` (as a float32, float16
seeds widened), the key ``seed bytes + one input row's raw bytes`` with
FarmHash ``Fingerprint64`` (vectorised here over every key), reads the hash as
a signed 64-bit integer, sums the weighted values over the input rows in
order in double and takes ``sum > 0`` as the bit. As in the Android 10 CPU
reference, the sparse types (1 SPARSE_DEPRECATED, 3 SPARSE) run only with
the weight omitted and DENSE (2) only with it present; the other pairings
fail the execution. Type 0 (UNKNOWN) and values above 3 are invalid.

RANDOM_MULTINOMIAL draws from softmax(logits) per row, non-finite logits
having probability 0, with a Philox generator keyed by the two seeds: the
same seeds give the same samples. Seeds {0, 0} mean "fresh randomness", as in
the CPU reference. The definition does not fix the generator, so the
samples differ from the CPU reference's; only their distribution is checked.

None of the four accepts a zero-sized input.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.lookup``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import numpy as np

from hal.checks.lookup import (
    _DENSE,
    _SPARSE,
    Q8A,
    Array,
    Shapes,
    _lsh_type,
)
from hal.types import OperandType, OperationType
from reference_driver.ops.base import (
    PYTHON_STEP,
    Cost,
    OpArgs,
    checked,
    default_cost,
    elements,
)

F32 = OperandType.TENSOR_FLOAT32

F16 = OperandType.TENSOR_FLOAT16

I32T = OperandType.TENSOR_INT32


def _embedding_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    return [args.values[1][args.values[0]]]


def _hashtable_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    lookups, keys, values = args.values[0], args.values[1], args.values[2]
    found = np.minimum(np.searchsorted(keys, lookups), keys.shape[0] - 1)
    hits = keys[found] == lookups
    hit_rows = hits.reshape((-1,) + (1,) * (values.ndim - 1))
    rows = np.where(hit_rows, values[found], np.zeros((), values.dtype))
    return [rows.astype(values.dtype), hits.astype(np.uint8)]


# ---------------------------------------------------------------------------
# FarmHash Fingerprint64 over many keys of one length
# ---------------------------------------------------------------------------

_U = np.uint64

_K0, _K1, _K2 = _U(0xC3A5C85C97CB3127), _U(0xB492B66FBE98F273), _U(0x9AE16A3B2F90404F)


def _word(keys: Array, at: int) -> Array:
    """The little-endian 64-bit word at byte ``at`` of every key."""
    return np.ascontiguousarray(keys[:, at : at + 8]).view("<u8")[:, 0].astype(_U)


def _half_word(keys: Array, at: int) -> Array:
    return np.ascontiguousarray(keys[:, at : at + 4]).view("<u4")[:, 0].astype(_U)


def _rotr(value: Array, shift: int) -> Array:
    return (value >> _U(shift)) | (value << _U(64 - shift))


def _shift_mix(value: Array) -> Array:
    return value ^ (value >> _U(47))


def _mix16(u: Array, v: Array, mul: Array) -> Array:
    a = _shift_mix((u ^ v) * mul)
    return _shift_mix((v ^ a) * mul) * mul


def _hash_short(keys: Array, n: int) -> Array:
    """Keys of 4 to 16 bytes (LSH keys hold at least a 4-byte seed and one byte)."""
    mul = _K2 + _U(2 * n)
    if n >= 8:
        a = _word(keys, 0) + _K2
        b = _word(keys, n - 8)
        return _mix16(_rotr(b, 37) * mul + a, (_rotr(a, 25) + b) * mul, mul)
    return _mix16(_U(n) + (_half_word(keys, 0) << _U(3)), _half_word(keys, n - 4), mul)


def _hash_medium(keys: Array, n: int) -> Array:
    """Keys of 17 to 32 bytes."""
    mul = _K2 + _U(2 * n)
    a, b = _word(keys, 0) * _K1, _word(keys, 8)
    c, d = _word(keys, n - 8) * mul, _word(keys, n - 16) * _K2
    return _mix16(_rotr(a + b, 43) + _rotr(c, 30) + d, a + _rotr(b + _K2, 18) + c, mul)


def _hash_long(keys: Array, n: int) -> Array:
    """Keys of 33 to 64 bytes."""
    mul = _K2 + _U(2 * n)
    a, b = _word(keys, 0) * _K2, _word(keys, 8)
    c, d = _word(keys, n - 8) * mul, _word(keys, n - 16) * _K2
    y = _rotr(a + b, 43) + _rotr(c, 30) + d
    z = _mix16(y, a + _rotr(b + _K2, 18) + c, mul)
    e, f = _word(keys, 16) * mul, _word(keys, 24)
    g, h = (y + _word(keys, n - 32)) * mul, (z + _word(keys, n - 24)) * mul
    return _mix16(_rotr(e + f, 43) + _rotr(g, 30) + h, e + _rotr(f + a, 18) + g, mul)


def _weak32(keys: Array, at: int, a: Array, b: Array) -> tuple[Array, Array]:
    w, x, y, z = (_word(keys, at + 8 * k) for k in range(4))
    a = a + w
    b = _rotr(b + a + z, 21)
    c = a
    a = a + x + y
    return a + z, b + _rotr(a, 44) + c


def _hash_round(state: list[Array], keys: Array, at: int, mul: Array, times: int) -> None:
    """One 64-byte round on [x, y, z, v0, v1, w0, w1]; ``times`` is 9 in the final one."""
    x, y, z, v0, v1, w0, w1 = state
    x = _rotr(x + y + v0 + _word(keys, at + 8), 37) * mul
    y = _rotr(y + v1 + _word(keys, at + 48), 42) * mul
    x = x ^ (w1 * _U(times))
    y = y + v0 * _U(times) + _word(keys, at + 40)
    z = _rotr(z + w0, 33) * mul
    v0, v1 = _weak32(keys, at, v1 * mul, x + w0)
    w0, w1 = _weak32(keys, at + 32, z + w1, y + _word(keys, at + 16))
    state[:] = [z, y, x, v0, v1, w0, w1]  # x and z trade places


def _hash_rounds(keys: Array, n: int) -> Array:
    """Keys over 64 bytes: 64-byte rounds (a sequential chain), then the last 64 bytes."""
    count = keys.shape[0]
    y = _U(81) * _K1 + _U(113)
    z = _shift_mix(y * _K2 + _U(113)) * _K2
    zero = np.zeros(count, _U)
    x = _U(81) * _K2 + _word(keys, 0)
    state = [x, np.full(count, y), np.full(count, z), zero, zero, zero, zero]
    for at in range(0, (n - 1) // 64 * 64, 64):
        _hash_round(state, keys, at, _K1, 1)
    x, y, z, v0, v1, w0, w1 = state
    mul = _K1 + ((z & _U(0xFF)) << _U(1))
    w0 = w0 + _U((n - 1) & 63)
    v0 = v0 + w0
    w0 = w0 + v0
    state = [x, y, z, v0, v1, w0, w1]
    _hash_round(state, keys, n - 64, mul, 9)
    x, y, z, v0, v1, w0, w1 = state
    return _mix16(_mix16(v0, w0, mul) + _shift_mix(y) * _K0 + z, _mix16(v1, w1, mul) + x, mul)


def fingerprint64(keys: Array) -> Array:
    """FarmHash ``Fingerprint64`` of each row of a uint8 array [count, n], n >= 4."""
    n = keys.shape[1]
    with np.errstate(over="ignore"):
        if n <= 16:
            return _hash_short(keys, n)
        if n <= 32:
            return _hash_medium(keys, n)
        if n <= 64:
            return _hash_long(keys, n)
        return _hash_rounds(keys, n)


def _lsh_keys(hashes: Array, data: Array) -> Array:
    """Keys [seeds * rows, 4 + row bytes]: each seed's float32 bytes, then one row's bytes."""
    seeds = hashes.astype("<f4").reshape(-1, 1).view(np.uint8)
    rows = np.ascontiguousarray(data).view(np.uint8).reshape(data.shape[0], -1)
    count, rows_count = seeds.shape[0], rows.shape[0]
    return np.concatenate(
        (
            np.broadcast_to(seeds[:, None, :], (count, rows_count, 4)),
            np.broadcast_to(rows[None, :, :], (count, rows_count, rows.shape[1])),
        ),
        axis=2,
    ).reshape(count * rows_count, -1)


def _lsh_bits(args: OpArgs) -> Array:
    """One bit per seed [num_hash, num_bits]: sign of the weighted sum of row hashes."""
    hashes, data, weight = args.values[0], args.values[1], args.values[2]
    signed = fingerprint64(_lsh_keys(hashes, data)).view(np.int64).astype(np.float64)
    terms = signed.reshape(hashes.size, data.shape[0])
    if weight is not None:
        terms = terms * weight.astype(np.float64)
    # A running sum, row after row, as the CPU reference accumulates.
    score = np.cumsum(terms, axis=1)[:, -1]
    return (score > 0).astype(np.int64).reshape(hashes.shape)


def _lsh_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    kind = _lsh_type(args)
    bits = _lsh_bits(args)
    if kind == _DENSE:
        return [bits.reshape(-1).astype(np.int32)]
    num_hash, num_bits = bits.shape
    weights = np.left_shift(np.int64(1), np.arange(num_bits - 1, -1, -1, dtype=np.int64))
    signatures = bits @ weights
    if kind == _SPARSE:
        signatures = signatures + (np.arange(num_hash, dtype=np.int64) << num_bits)
    # Two's-complement wrap to int32, as the CPU reference's int arithmetic does.
    return [signatures.astype(np.uint32).view(np.int32)]


def _generator(seeds: Array) -> np.random.Generator:
    low, high = (int(s) & 0xFFFFFFFF for s in seeds)
    if low == high == 0:
        return np.random.Generator(np.random.Philox())  # fresh entropy, as the reference
    return np.random.Generator(np.random.Philox(key=low | (high << 32)))


def _normalised_cdf(logits: Array) -> Array:
    """Per row, the cumulative softmax over finite logits, ending at exactly 1 (every row
    has one: ``prepare`` refuses a row without)."""
    finite = np.isfinite(logits)
    peak = np.max(np.where(finite, logits, -np.inf), axis=1, keepdims=True)
    with np.errstate(invalid="ignore", over="ignore"):
        weights = np.where(finite, np.exp(logits - peak), 0.0)
    cdf = np.cumsum(weights, axis=1)
    return cdf / cdf[:, -1:]


def _multinomial_execute(args: OpArgs, shapes: Shapes) -> list[Array]:
    logits = args.values[0].astype(np.float32).astype(np.float64)
    batches, classes = logits.shape
    samples = shapes[0][1]
    # Row b's cdf is shifted to [2b, 2b + 1] so one sorted search serves every row;
    # upper_bound (side="right") never lands on a class of probability 0.
    offsets = 2.0 * np.arange(batches, dtype=np.float64)[:, None]
    shifted = (_normalised_cdf(logits) + offsets).reshape(-1)
    draws = _generator(args.values[2]).random((batches, samples)) + offsets
    draws = np.minimum(draws, np.nextafter(offsets + 1.0, offsets))
    found = np.searchsorted(shifted, draws.reshape(-1), side="right").reshape(batches, samples)
    return [(found - np.arange(batches)[:, None] * classes).astype(np.int32)]


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def _supports_values(slot: int, types: tuple[int, ...]):
    def supports(args: OpArgs) -> bool:
        return args.inputs[slot].type in types

    return supports


# ---------------------------------------------------------------------------
# Costs
# ---------------------------------------------------------------------------


def _lsh_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """A key per (seed, input row): the row's bytes behind the seed's, hashed in rounds of
    64 bytes (a Python loop over the key length) with a dozen uint64 lanes per key."""
    base = default_cost(args, shapes)
    hashes, data = args.values[0], args.values[1]
    if hashes is None or data is None or data.ndim == 0:
        return base
    keys = hashes.size * data.shape[0]
    length = 4 + (data.nbytes // data.shape[0] if data.shape[0] else 0)
    rounds = length // 64 + 1
    return Cost(
        work=base.work + keys * length * 4 + rounds * PYTHON_STEP,
        scratch=base.scratch + keys * (2 * length + 128),
    )


def _multinomial_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """Per sample: a float64 draw, its shifted copy and a sorted search over the cdfs."""
    base = default_cost(args, shapes)
    logits = args.values[0]
    if shapes is None or logits is None or logits.ndim != 2:
        return base
    samples = elements(shapes[0])
    search = max(logits.size, 1).bit_length()
    return Cost(
        work=base.work + samples * (search + 4) + 8 * logits.size,
        scratch=base.scratch + 32 * samples + 32 * logits.size,
    )


COSTS = {
    OperationType.LSH_PROJECTION: _lsh_cost,
    OperationType.RANDOM_MULTINOMIAL: _multinomial_cost,
}

IMPLEMENTATIONS = (
    checked(
        OperationType.EMBEDDING_LOOKUP,
        _supports_values(1, (F32, F16, I32T, Q8A)),
        _embedding_execute,
        lambda form: form.outputs == (F16,),  # HAL 1.3's TENSOR_FLOAT16 values
        via_unsigned=True,
    ),
    checked(
        OperationType.HASHTABLE_LOOKUP, _supports_values(2, (F32, I32T, Q8A)), _hashtable_execute
    ),
    checked(
        OperationType.LSH_PROJECTION,
        lambda args: (
            args.inputs[0].type in (F32, F16) and args.inputs[1].type in (F32, F16, I32T, Q8A)
        ),
        _lsh_execute,
    ),
    checked(
        OperationType.RANDOM_MULTINOMIAL, _supports_values(0, (F32, F16)), _multinomial_execute
    ),
)
