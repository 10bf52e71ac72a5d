"""Invalid parameter values of EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION
and RANDOM_MULTINOMIAL.

Each model passes ``hal.validation`` (types, counts and declared ranks are
right) but uses a value or shape the operation's definition forbids: a
lookup outside the values' rows, values of rank 1 for EMBEDDING_LOOKUP, keys
and values of different lengths, an LSH projection type outside 1..3, more
than 32 bits per hash function, a weight whose length is not the input's
row count (a constant weight; a model input's, at execution), a
non-positive sample count, seeds that are not a pair. Bad constants (and
shapes the model declares) are refused at prepare; shapes or values that
first appear in the request, at execution.
"""

from __future__ import annotations

import numpy as np

from conformance.invalid.case import InvalidCase
from conformance.invalid.shape import Arg, ints, operation_model, scalar, tensor
from hal.types import OperandType, OperationType

F32 = OperandType.TENSOR_FLOAT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
I32T = OperandType.TENSOR_INT32
Op = OperationType


def _hits(dims: tuple[int, ...] = (0,)) -> Arg:
    return tensor(dims, Q8A, 1.0, 0)


def _hash(rows: int, bits: int) -> Arg:
    """A constant float32 hash tensor [rows, bits] of distinct seeds."""
    return Arg(F32, (rows, bits), np.arange(rows * bits, dtype=np.float32) * 0.5)


_NO_WEIGHT = Arg(F32, (0,), omitted=True)


def _lsh(name: str, kind: int, hashes: Arg, weight: Arg, data: Arg, feed=None) -> InvalidCase:
    out = tensor((0,), I32T)
    return InvalidCase(
        f"LSH_PROJECTION/{name}",
        lambda: operation_model(Op.LSH_PROJECTION, [hashes, data, weight, scalar(kind)], [out]),
        feed,
    )


def _multinomial(name: str, samples: int, seeds: Arg) -> InvalidCase:
    inputs = [tensor((1, 3)), scalar(samples), seeds]
    return InvalidCase(
        f"RANDOM_MULTINOMIAL/{name}",
        lambda: operation_model(Op.RANDOM_MULTINOMIAL, inputs, [tensor((0, 0), I32T)]),
    )


CASES: list[InvalidCase] = [
    InvalidCase(
        "EMBEDDING_LOOKUP/lookup_past_last_row_at_execution",
        lambda: operation_model(
            Op.EMBEDDING_LOOKUP, [tensor((2,), I32T), tensor((3, 2))], [tensor((0, 0))]
        ),
        lambda: [np.array([0, 3], np.int32), np.ones((3, 2), np.float32)],
    ),
    InvalidCase(
        "EMBEDDING_LOOKUP/negative_lookup",
        lambda: operation_model(
            Op.EMBEDDING_LOOKUP, [ints([1, -1]), tensor((3, 2))], [tensor((0, 0))]
        ),
    ),
    InvalidCase(
        "EMBEDDING_LOOKUP/values_of_rank_1",
        lambda: operation_model(Op.EMBEDDING_LOOKUP, [ints([0]), tensor((3,))], [tensor((0,))]),
    ),
    InvalidCase(
        "HASHTABLE_LOOKUP/keys_and_value_rows_differ",
        lambda: operation_model(
            Op.HASHTABLE_LOOKUP,
            [tensor((2,), I32T), ints([1, 2, 3]), tensor((2, 2))],
            [tensor((0, 0)), _hits()],
        ),
    ),
    InvalidCase(
        "HASHTABLE_LOOKUP/keys_and_value_rows_differ_at_execution",
        lambda: operation_model(
            Op.HASHTABLE_LOOKUP,
            [tensor((2,), I32T), tensor((0,), I32T), tensor((0, 2))],
            [tensor((0, 0)), _hits()],
        ),
        lambda: [
            np.array([1, 5], np.int32),
            np.array([1, 2, 3], np.int32),
            np.ones((2, 2), np.float32),
        ],
    ),
    _lsh("type_0_unknown", 0, _hash(2, 2), _NO_WEIGHT, tensor((3, 2), I32T)),
    _lsh("type_4", 4, _hash(2, 2), tensor((3,)), tensor((3, 2), I32T)),
    _lsh("33_bits_per_hash", 1, _hash(1, 33), _NO_WEIGHT, tensor((3, 2), I32T)),
    # A constant weight: a model input in this optional slot may still be omitted at
    # execution, so only its value settles the length, and only the request can show it.
    _lsh(
        "weight_length_differs",
        2,
        _hash(2, 2),
        Arg(F32, (2,), np.ones(2, np.float32)),
        tensor((3, 2), I32T),
    ),
    _lsh(
        "weight_length_differs_at_execution",
        2,
        _hash(2, 2),
        tensor((0,)),
        tensor((0, 2), I32T),
        lambda: [np.ones((3, 2), np.int32), np.ones(2, np.float32)],
    ),
    _multinomial("num_samples_negative", -1, ints([1, 2])),
    _multinomial("three_seeds", 4, ints([1, 2, 3])),
]
