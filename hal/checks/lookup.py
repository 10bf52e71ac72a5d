"""The checks of EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION and
RANDOM_MULTINOMIAL.

Lookups must index rows that exist (known constants at preparation, every index at
execution), LSH_PROJECTION's type and hash count be valid, RANDOM_MULTINOMIAL's
sample count positive, its seeds two, and every batch of logits hold a finite logit
to sample from. ``reference_driver/ops/lookup.py`` computes.
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import (
    OpArgs,
    OperationCheck,
    OpFailure,
    OpInvalid,
)
from hal.checks.signed import QUANT8_ASYMM_TYPES
from hal.types import Operand, OperandLifeTime, OperandType, OperationType

Q8A = OperandType.TENSOR_QUANT8_ASYMM

Array = np.ndarray

Shapes = list[tuple[int, ...]]

_SPARSE_DEPRECATED, _DENSE, _SPARSE = 1, 2, 3

_LSH_TYPES = {_SPARSE_DEPRECATED: "SPARSE_DEPRECATED", _DENSE: "DENSE", _SPARSE: "SPARSE"}

_MAX_BITS = 32


# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------


def _value(args: OpArgs, slot: int) -> Array:
    value = args.values[slot]
    if value is None:
        raise OpFailure(f"input {slot} has no value")
    if value.size == 0:
        raise OpFailure(f"input {slot} is zero-sized {value.shape}; the operation rejects it")
    return value


def _ranked(args: OpArgs, slot: int, rank: int) -> Array:
    """Input ``slot`` (non-empty), which must have exactly ``rank`` dimensions."""
    value = _value(args, slot)
    if value.ndim != rank:
        raise OpInvalid(f"input {slot} has rank {value.ndim}; the operation takes {rank}")
    return value


def _known(operand: Operand) -> tuple[int, ...] | None:
    """Declared dimensions when the rank and every size are known, else None."""
    dims = tuple(operand.dimensions)
    return dims if dims and 0 not in dims else None


def _forced_quant(output: Operand, index: int, scale: float, zero_point: int) -> None:
    """A TENSOR_QUANT8_ASYMM output must carry the parameters the operation fixes."""
    if output.type in QUANT8_ASYMM_TYPES and (output.scale, output.zero_point) != (
        scale,
        zero_point,
    ):
        raise OpFailure(
            f"output {index} scale/zeroPoint ({output.scale}, {output.zero_point}) must be "
            f"({scale}, {zero_point})"
        )


# ---------------------------------------------------------------------------
# EMBEDDING_LOOKUP
# ---------------------------------------------------------------------------


def _index_problem(lookups: Array, rows: int) -> str | None:
    bad = lookups[(lookups < 0) | (lookups >= rows)]
    return f"lookup {int(bad[0])} is outside [0, {rows})" if bad.size else None


def _embedding_validate(args: OpArgs) -> str | None:
    dims = args.inputs[1].dimensions
    if dims and len(dims) < 2:
        return f"values have rank {len(dims)}; at least 2 is required"
    lookups = args.values[0]
    if lookups is not None and dims and dims[0]:
        return _index_problem(lookups, dims[0])
    return None


def _embedding_prepare(args: OpArgs) -> Shapes:
    lookups, values = _ranked(args, 0, 1), _value(args, 1)
    if values.ndim < 2:
        raise OpInvalid(f"values have rank {values.ndim}; at least 2 is required")
    problem = _index_problem(lookups, values.shape[0])
    if problem:
        raise OpInvalid(problem)
    source = args.inputs[1]
    _forced_quant(args.outputs[0], 0, source.scale, source.zero_point)
    return [(lookups.shape[0], *values.shape[1:])]


# ---------------------------------------------------------------------------
# HASHTABLE_LOOKUP
# ---------------------------------------------------------------------------


def _hashtable_validate(args: OpArgs) -> str | None:
    keys, values = _known(args.inputs[1]), _known(args.inputs[2])
    if keys and values and keys[0] != values[0]:
        return f"{keys[0]} keys for {values[0]} value rows; the two must be equal"
    return None


def _hashtable_prepare(args: OpArgs) -> Shapes:
    lookups, keys, values = _ranked(args, 0, 1), _ranked(args, 1, 1), _value(args, 2)
    if keys.shape[0] != values.shape[0]:
        raise OpInvalid(f"{keys.shape[0]} keys for {values.shape[0]} value rows")
    source = args.inputs[2]
    _forced_quant(args.outputs[0], 0, source.scale, source.zero_point)
    _forced_quant(args.outputs[1], 1, 1.0, 0)
    return [(lookups.shape[0], *values.shape[1:]), (lookups.shape[0],)]


# ---------------------------------------------------------------------------
# LSH_PROJECTION
# ---------------------------------------------------------------------------


def _lsh_type(args: OpArgs) -> int:
    kind = int(args.scalar(3))
    if kind not in _LSH_TYPES:
        raise OpInvalid(f"type {kind} is not 1 (SPARSE_DEPRECATED), 2 (DENSE) or 3 (SPARSE)")
    return kind


def _lsh_validate(args: OpArgs) -> str | None:
    if args.values[3] is not None:
        kind = int(args.values[3].item())
        if kind not in _LSH_TYPES:
            return f"type {kind} is not 1 (SPARSE_DEPRECATED), 2 (DENSE) or 3 (SPARSE)"
    hash_dims = args.inputs[0].dimensions
    if len(hash_dims) == 2 and hash_dims[1] > _MAX_BITS:
        return f"{hash_dims[1]} bits per hash function; at most {_MAX_BITS} are supported"
    weight, data = _known(args.inputs[2]), _known(args.inputs[1])
    # A NO_VALUE weight is omitted; one fed by a model input may be (has_no_value),
    # so its declared dims are judged only when a value comes, at execution.
    may_be_omitted = args.inputs[2].lifetime in (
        OperandLifeTime.NO_VALUE,
        OperandLifeTime.MODEL_INPUT,
    )
    if weight and data and not may_be_omitted and weight[0] != data[0]:
        return f"weight has {weight[0]} entries for {data[0]} input rows"
    return None


def _lsh_prepare(args: OpArgs) -> Shapes:
    kind = _lsh_type(args)
    hashes, data = _ranked(args, 0, 2), _value(args, 1)
    if hashes.shape[1] > _MAX_BITS:
        raise OpInvalid(f"{hashes.shape[1]} bits per hash function; at most {_MAX_BITS}")
    weight = args.values[2]
    if (weight is None) != (kind != _DENSE):
        raise OpFailure(
            f"{_LSH_TYPES[kind]} projection with the weight "
            f"{'omitted' if weight is None else 'given'}: the CPU reference refuses it"
        )
    if weight is not None and weight.ndim != 1:
        raise OpInvalid(f"weight has rank {weight.ndim}; it must be 1-D")
    if weight is not None and weight.shape[0] != data.shape[0]:
        raise OpInvalid(f"weight has {weight.shape[0]} entries for {data.shape[0]} input rows")
    count = hashes.shape[0] * (hashes.shape[1] if kind == _DENSE else 1)
    return [(count,)]


# ---------------------------------------------------------------------------
# RANDOM_MULTINOMIAL
# ---------------------------------------------------------------------------


def _multinomial_validate(args: OpArgs) -> str | None:
    if args.values[1] is not None and int(args.values[1].item()) <= 0:
        return f"num_samples {int(args.values[1].item())} must be positive"
    seeds = args.inputs[2].dimensions
    if len(seeds) == 1 and seeds[0] not in (0, 2):
        return f"seeds hold {seeds[0]} values; exactly 2 are required"
    return None


def _multinomial_prepare(args: OpArgs) -> Shapes:
    logits, seeds = _ranked(args, 0, 2), _value(args, 2)
    samples = int(args.scalar(1))
    if samples <= 0:
        raise OpInvalid(f"num_samples {samples} must be positive")
    if seeds.shape != (2,):
        raise OpInvalid(f"seeds hold {seeds.size} values; exactly 2 are required")
    if logits.size:
        empty = ~np.isfinite(logits).any(axis=1)
        if empty.any():
            raise OpInvalid(f"batch {int(np.argmax(empty))} has no finite logit to sample from")
    return [(logits.shape[0], samples)]


CHECKS = (
    OperationCheck(OperationType.EMBEDDING_LOOKUP, _embedding_validate, _embedding_prepare),
    OperationCheck(OperationType.HASHTABLE_LOOKUP, _hashtable_validate, _hashtable_prepare),
    OperationCheck(OperationType.LSH_PROJECTION, _lsh_validate, _lsh_prepare),
    OperationCheck(
        OperationType.RANDOM_MULTINOMIAL,
        _multinomial_validate,
        _multinomial_prepare,
        frozenset({0}),
    ),
)
