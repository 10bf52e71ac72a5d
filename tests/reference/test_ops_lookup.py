"""The reference driver's EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION and
RANDOM_MULTINOMIAL, mostly through the HAL.

Expected values are derived by hand in the comment beside them, or come from
outside this code: the FarmHash vectors from the ``pyfarmhash`` package (the
Google C++ code) and the LSH outputs from
conformance/specs/oracles/lookup_oracle.py, whose own FarmHash was checked
against that package on every key length from 0 to 300 bytes.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from conformance.invalid.shape import Arg, operation_model, scalar, tensor
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandType,
    OperationType,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure
from reference_driver.ops.lookup import fingerprint64

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32T = OperandType.TENSOR_INT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
INT32 = OperandType.INT32
Op = OperationType
HASH_4x2 = [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5]


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _execute(driver, model: Model, inputs, output_bytes: int = 1 << 16):
    """(status, outputs) of one synchronous execution of ``model``."""
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE), notification
    sizes = [output_bytes] * len(model.output_indexes)
    with pack_request(model, inputs, sizes) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if not status else []
        )
    return status, outputs


def _prepare_status(driver, model: Model) -> ErrorStatus:
    callback = PreparedModelCallback()
    driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    return callback.wait(10).status


# ---------------------------------------------------------------------------
# FarmHash Fingerprint64
# ---------------------------------------------------------------------------


def _lcg_bytes(count: int) -> bytes:
    """The oracle's deterministic key bytes: the top byte of a 64-bit LCG's states."""
    state, out = 12345, bytearray()
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(state >> 56)
    return bytes(out)


# farmhash.fingerprint64(first n bytes) from pyfarmhash 0.5.1: one length per
# branch edge (4-7, 8-16, 17-32, 33-64, one 64-byte round, two, three).
FARMHASH_VECTORS = [
    (4, 0xC23957B3231E63B8),
    (7, 0x370AB80ED4E9EE18),
    (8, 0x39DC643D95A85722),
    (16, 0x6C945F4200D60DC1),
    (17, 0xCC56D712C1AFD18C),
    (32, 0xF1F6424013F55B0C),
    (33, 0x619723BFD3D497FC),
    (64, 0x5790FCF2AEB77A91),
    (65, 0xE99F14C10A8AD9A8),
    (128, 0xEA683F89234BB2B3),
    (129, 0x8F6C49B587234238),
    (200, 0x505AF15BE50CB2A1),
]


def test_fingerprint64_matches_published_farmhash() -> None:
    data = np.frombuffer(_lcg_bytes(200), np.uint8)
    assert data[:4].tobytes().hex() == "1c43e2d5"  # the key the vectors were taken on
    for length, expected in FARMHASH_VECTORS:
        assert int(fingerprint64(data[None, :length])[0]) == expected, length


def test_fingerprint64_hashes_each_row_on_its_own() -> None:
    # pyfarmhash: fingerprint64(b"hello") = 13009744463427800296; the second row
    # (65 bytes) must still give the table's value whatever the first row holds.
    data = _lcg_bytes(65)
    hello = np.frombuffer(b"hello", np.uint8)[None, :]
    assert int(fingerprint64(hello)[0]) == 13009744463427800296
    keys = np.frombuffer(bytes(65) + data, np.uint8).reshape(2, 65)
    assert int(fingerprint64(keys)[1]) == 0xE99F14C10A8AD9A8


# ---------------------------------------------------------------------------
# LSH_PROJECTION
# ---------------------------------------------------------------------------


def _lsh_model(kind: int, weight: Arg, hash_type: int = F32) -> Model:
    hashes = Arg(hash_type, (4, 2), np.array(HASH_4x2))
    count = 8 if kind == 2 else 4
    return operation_model(
        Op.LSH_PROJECTION,
        [hashes, tensor((2, 3)), weight, scalar(kind)],
        [tensor((count,), I32T)],
    )


SPARSE_INPUT = np.array([[1.5, -2.25, 8.0], [0.5, 3.75, -1.0]], np.float32)


@pytest.mark.parametrize(
    ("kind", "expected"),
    # Oracle cases "sparse_float32": type 1 [3, 2, 2, 1]; type 3 adds i << 2.
    [(1, [3, 2, 2, 1]), (3, [3, 6, 10, 13])],
    ids=["sparse-deprecated", "sparse"],
)
def test_lsh_weight_omitted_in_the_model(driver, kind, expected) -> None:
    omitted = Arg(F32, (0,), omitted=True)  # lifetime NO_VALUE
    status, outputs = _execute(driver, _lsh_model(kind, omitted), [SPARSE_INPUT])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.array(expected, np.int32))


def test_lsh_weight_omitted_in_the_request(driver) -> None:
    # The same case with the weight a model input given no value (hasNoValue).
    status, outputs = _execute(driver, _lsh_model(1, tensor((0,))), [SPARSE_INPUT, None])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.array([3, 2, 2, 1], np.int32))


def test_lsh_float16_seeds_hash_their_float32_bytes(driver) -> None:
    # Every seed is exact in float16, so float16 seeds give the float32 case's output.
    omitted = Arg(F16, (0,), omitted=True)
    status, outputs = _execute(driver, _lsh_model(3, omitted, F16), [SPARSE_INPUT])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.array([3, 6, 10, 13], np.int32))


@pytest.mark.parametrize(
    ("kind", "weight", "inputs"),
    [
        (2, Arg(F32, (0,), omitted=True), [SPARSE_INPUT]),
        (1, tensor((2,)), [SPARSE_INPUT, np.ones(2, np.float32)]),
        (3, tensor((2,)), [SPARSE_INPUT, np.ones(2, np.float32)]),
    ],
    ids=["dense-without-weight", "sparse-deprecated-with-weight", "sparse-with-weight"],
)
def test_lsh_weight_pairings_the_cpu_reference_refuses(driver, kind, weight, inputs) -> None:
    # Android 10's CPU reference runs sparse types only without a weight and
    # DENSE only with one; the others fail the execution.
    status, _ = _execute(driver, _lsh_model(kind, weight), inputs)
    assert status == ErrorStatus.GENERAL_FAILURE


def test_lsh_32_bit_sparse_signature_wraps_to_negative() -> None:
    # Oracle case "bits32_float32": the first bit lands in the sign bit.
    seeds = np.array([[0.5 * (k - 16) for k in range(32)]], np.float32)
    data = np.array([0.25 * k - 3.0 for k in range(20)], np.float32).reshape(2, 10)
    args = OpArgs(
        [Operand(F32, [1, 32]), Operand(F32, [2, 10]), Operand(F32, [0]), Operand(INT32, [])],
        [Operand(I32T, [1])],
        [seeds, data, None, np.array(1, np.int32)],
    )
    impl = REGISTRY[Op.LSH_PROJECTION]
    out = impl.execute(args, impl.prepare(args))[0]
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [-1720699471])


@pytest.mark.parametrize(
    ("dims", "kind", "reason"),
    [
        ((1, 33), 1, "33 bits per hash function; at most 32 are supported"),
        ((2, 2), 0, "type 0 is not 1 (SPARSE_DEPRECATED), 2 (DENSE) or 3 (SPARSE)"),
    ],
)
def test_lsh_validate_reasons(dims, kind, reason) -> None:
    args = OpArgs(
        [Operand(F32, list(dims)), Operand(I32T, [3]), Operand(F32, [0]), Operand(INT32, [])],
        [Operand(I32T, [0])],
        [None, None, None, np.array(kind, np.int32)],
    )
    assert REGISTRY[Op.LSH_PROJECTION].validate(args) == reason


# ---------------------------------------------------------------------------
# EMBEDDING_LOOKUP and HASHTABLE_LOOKUP
# ---------------------------------------------------------------------------


def test_embedding_lookup_quant8_rows_are_raw_bytes(driver) -> None:
    model = operation_model(
        Op.EMBEDDING_LOOKUP,
        [tensor((3,), I32T), tensor((2, 2), Q8A, 0.5, 7)],
        [tensor((3, 2), Q8A, 0.5, 7)],
    )
    values = np.array([[0, 255], [7, 8]], np.uint8)
    # lookups [1, 0, 1] -> rows 1, 0, 1 byte for byte
    status, outputs = _execute(driver, model, [np.array([1, 0, 1], np.int32), values])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[7, 8], [0, 255], [7, 8]])


@pytest.mark.parametrize("lookups", [[0, 3], [-1, 0]], ids=["past-end", "negative"])
def test_embedding_lookup_index_outside_rows_is_invalid(driver, lookups) -> None:
    model = operation_model(
        Op.EMBEDDING_LOOKUP, [tensor((2,), I32T), tensor((3, 2))], [tensor((0, 0))]
    )
    inputs = [np.array(lookups, np.int32), np.ones((3, 2), np.float32)]
    assert _execute(driver, model, inputs)[0] == ErrorStatus.INVALID_ARGUMENT


def test_embedding_lookup_validate_reasons() -> None:
    impl = REGISTRY[Op.EMBEDDING_LOOKUP]
    rank1 = OpArgs([Operand(I32T, [1]), Operand(F32, [3])], [Operand(F32, [1])], [None, None])
    assert impl.validate(rank1) == "values have rank 1; at least 2 is required"
    constant = OpArgs(
        [Operand(I32T, [2]), Operand(F32, [3, 2])],
        [Operand(F32, [2, 2])],
        [np.array([2, 3], np.int32), None],
    )
    assert impl.validate(constant) == "lookup 3 is outside [0, 3)"


def _hashtable_model(values_dims, values_type=F32, scale=0.0, zero_point=0) -> Model:
    count = (2, *values_dims[1:])
    return operation_model(
        Op.HASHTABLE_LOOKUP,
        [tensor((2,), I32T), tensor((values_dims[0],), I32T),
         tensor(values_dims, values_type, scale, zero_point)],
        [tensor(count, values_type, scale, zero_point), tensor((2,), Q8A, 1.0, 0)],
    )  # fmt: skip


def test_hashtable_lookup_quant8_miss_is_raw_zero(driver) -> None:
    # keys [-5, 9]; lookups [9, 4]: a hit (row of key 9) and a miss (raw 0, not zp 128)
    model = _hashtable_model((2, 3), Q8A, 0.25, 128)
    values = np.array([[1, 2, 3], [250, 128, 129]], np.uint8)
    inputs = [np.array([9, 4], np.int32), np.array([-5, 9], np.int32), values]
    status, outputs = _execute(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[250, 128, 129], [0, 0, 0]])
    np.testing.assert_array_equal(outputs[1], [1, 0])


def test_hashtable_lookup_accepts_rank_1_values(driver) -> None:
    # The CPU reference takes 1-D values (rows of one element): keys [2, 3] own
    # 0.5 and -8; lookups [3, 1] -> -8 (hit), 0 (miss).
    model = _hashtable_model((2,))
    inputs = [np.array([3, 1], np.int32), np.array([2, 3], np.int32), np.array([0.5, -8], "f4")]
    status, outputs = _execute(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [-8.0, 0.0])
    np.testing.assert_array_equal(outputs[1], [1, 0])


def test_hashtable_lookup_hits_must_be_scale_1_zero_point_0() -> None:
    args = OpArgs(
        [Operand(I32T, [1]), Operand(I32T, [1]), Operand(F32, [1, 2])],
        [Operand(F32, [1, 2]), Operand(Q8A, [1], scale=0.5)],
        [np.array([1], np.int32), np.array([1], np.int32), np.ones((1, 2), np.float32)],
    )
    with pytest.raises(OpFailure, match=r"output 1 scale/zeroPoint \(0.5, 0\) must be \(1.0, 0\)"):
        REGISTRY[Op.HASHTABLE_LOOKUP].prepare(args)


# ---------------------------------------------------------------------------
# RANDOM_MULTINOMIAL
# ---------------------------------------------------------------------------


def _multinomial(driver, logits: np.ndarray, samples: int, seeds, type_: int = F32):
    model = operation_model(
        Op.RANDOM_MULTINOMIAL,
        [tensor(logits.shape, type_), scalar(samples), tensor((2,), I32T)],
        [tensor((0, 0), I32T)],
    )
    return _execute(driver, model, [logits, np.array(seeds, np.int32)], 1 << 20)


def test_multinomial_same_seeds_same_samples(driver) -> None:
    logits = np.zeros((2, 6), np.float32)
    first = _multinomial(driver, logits, 50, [7, -3])
    again = _multinomial(driver, logits, 50, [7, -3])
    other = _multinomial(driver, logits, 50, [8, -3])
    assert first[0] == again[0] == other[0] == ErrorStatus.NONE
    assert first[1][0].shape == (2, 50)
    np.testing.assert_array_equal(first[1][0], again[1][0])
    # 100 uniform draws over 6 classes: another key agreeing everywhere would be a 6**-100 event
    assert not np.array_equal(first[1][0], other[1][0])


@pytest.mark.parametrize("type_", [F32, F16], ids=["float32", "float16"])
def test_multinomial_frequencies_follow_softmax(driver, type_) -> None:
    # Row 0: logits 0, ln 3 -> 0.25, 0.75, and two classes of probability 0 (-inf,
    # NaN). Row 1: -1000 (exp underflows to 0 against 4), 4, 4, -inf -> 0, 0.5, 0.5, 0.
    # 20000 draws: a frequency's standard deviation is at most 0.0036.
    dtype = np.float16 if type_ == F16 else np.float32
    logits = np.array([[0.0, np.log(3.0), -np.inf, np.nan], [-1000.0, 4.0, 4.0, -np.inf]], dtype)
    status, outputs = _multinomial(driver, logits, 20000, [1, 2], type_)
    assert status == ErrorStatus.NONE
    counts = np.stack([np.bincount(row, minlength=4) for row in outputs[0]]) / 20000
    np.testing.assert_array_equal(counts[0, 2:], 0.0)
    np.testing.assert_array_equal(counts[1, [0, 3]], 0.0)
    np.testing.assert_allclose(counts, [[0.25, 0.75, 0, 0], [0, 0.5, 0.5, 0]], atol=0.02)


def test_multinomial_zero_seeds_still_sample_the_distribution(driver) -> None:
    # Seeds {0, 0} draw fresh seeds; with logits this peaked every draw is class 2.
    logits = np.array([[0.0, 0.0, 200.0]], np.float32)
    status, outputs = _multinomial(driver, logits, 9, [0, 0])
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.full((1, 9), 2))


def test_multinomial_row_without_a_finite_logit_is_invalid(driver) -> None:
    logits = np.array([[0.0, 1.0], [np.nan, -np.inf]], np.float32)
    assert _multinomial(driver, logits, 3, [1, 2])[0] == ErrorStatus.INVALID_ARGUMENT


@pytest.mark.parametrize(
    ("samples", "seed_dims", "reason"),
    [
        (0, [2], "num_samples 0 must be positive"),
        (3, [3], "seeds hold 3 values; exactly 2 are required"),
    ],
)
def test_multinomial_validate_reasons(samples, seed_dims, reason) -> None:
    args = OpArgs(
        [Operand(F32, [1, 3]), Operand(INT32, []), Operand(I32T, seed_dims)],
        [Operand(I32T, [1, 3])],
        [None, np.array(samples, np.int32), None],
    )
    assert REGISTRY[Op.RANDOM_MULTINOMIAL].validate(args) == reason


def test_zero_sized_inputs_fail(driver) -> None:
    args = OpArgs(
        [Operand(I32T, [0]), Operand(F32, [3, 2])],
        [Operand(F32, [0, 2])],
        [np.zeros(0, np.int32), np.ones((3, 2), np.float32)],
    )
    with pytest.raises(OpFailure, match="zero-sized"):
        REGISTRY[Op.EMBEDDING_LOOKUP].prepare(args)
