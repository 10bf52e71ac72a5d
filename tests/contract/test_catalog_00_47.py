"""Catalog entries of operations 0-47 (ADD ... DETECTION_POSTPROCESSING).

Three kinds of checks:

* every signature yields a minimal model that validates from its first
  version on (the generic ``signature_model`` adjusted where an operation
  fixes a rank or an output's quantization, see ``_model``);
* a table written by hand from the HAL 1.2 operation definitions and what
  Android 10's VTS checks, not derived from the catalog, for the valid input
  counts per version and the first version of each primary type;
* models breaking the encoded constraints are rejected under the right rule
  name (``operation.constraint`` for parity, ``operation.constraint_strict``
  for strict) and accepted where the rule does not apply.
"""

from __future__ import annotations

import pytest

from conformance.harness.models import signature_model
from hal.operations import Signature, coverage_triples, operation_info, signatures
from hal.types import (
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    OperationType,
    SymmPerChannelQuantParams,
)
from hal.validation import validate_model

Op = OperationType
V1_0, V1_1, V1_2, V1_3 = HalVersion.V1_0, HalVersion.V1_1, HalVersion.V1_2, HalVersion.V1_3
F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32T = OperandType.TENSOR_INT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
Q8S = OperandType.TENSOR_QUANT8_SYMM
Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL
Q16A = OperandType.TENSOR_QUANT16_ASYMM
Q16S = OperandType.TENSOR_QUANT16_SYMM
B8 = OperandType.TENSOR_BOOL8
INT32 = OperandType.INT32

PARITY_RULE = "operation.constraint"
STRICT_RULE = "operation.constraint_strict"

OPS = [op for op in OperationType if op <= Op.DETECTION_POSTPROCESSING]
SIGNATURES = [s for op in OPS for s in operation_info(op).signatures]


def _id(s: Signature) -> str:
    form = s.form.replace(" ", "_") or "plain"
    return f"{s.operation.name}-{OperandType(s.variant).name}-{form}-{len(s.inputs)}in-{s.since}"


# ---------------------------------------------------------------------------
# Minimal valid models
# ---------------------------------------------------------------------------


def _model(signature: Signature) -> Model:
    """The minimal model; CONCATENATION gets three tensors so their scales can differ."""
    count = 4 if signature.operation == Op.CONCATENATION else None
    return signature_model(signature, input_count=count)


def test_every_operation_0_47_is_catalogued() -> None:
    assert len(OPS) == 48
    assert [op.name for op in OPS if not operation_info(op).signatures] == []


# ---------------------------------------------------------------------------
# Hand-written cross-check
# ---------------------------------------------------------------------------

_ALL = range(0, 80)  # every input count considered
_V1_0_TO_V1_3 = (V1_0, V1_1, V1_2, V1_3)
_V1_1_TO_V1_3 = (V1_1, V1_2, V1_3)
_SIGNED = {Q8AS: V1_3}  # the TENSOR_QUANT8_ASYMM_SIGNED twin HAL 1.3 adds


def _from_1_2(counts: set[int], counts_1_3: set[int] | None = None) -> dict:
    """Counts accepted at 1.2 and, unless given otherwise, the same at 1.3."""
    return {V1_2: counts, V1_3: counts if counts_1_3 is None else counts_1_3}


def _old(older: set[int], newer: set[int], newest: set[int] | None = None) -> dict:
    """Counts of a 1.0 operation: ``older`` at 1.0 and 1.1, ``newer`` at 1.2, then 1.3."""
    return {V1_0: older, V1_1: older, **_from_1_2(newer, newest)}


# op: ({version: valid input counts}, {primary type: first version}, output counts)
# Versions missing from the first map accept no count (the op is newer). The 1.3
# column is written from the HAL 1.3 operation definitions.
EXPECTED = {
    Op.CONV_2D: (
        _old({7, 10}, {7, 8, 10, 11, 13}),
        {F32: V1_0, Q8A: V1_0, F16: V1_2, Q8C: V1_2, **_SIGNED},
        {1},
    ),
    Op.DEPTHWISE_CONV_2D: (
        _old({8, 11}, {8, 9, 11, 12, 14}),
        {F32: V1_0, Q8A: V1_0, F16: V1_2, Q8C: V1_2, **_SIGNED},
        {1},
    ),
    Op.AVERAGE_POOL_2D: (
        _old({7, 10}, {7, 8, 10, 11}),
        {F32: V1_0, Q8A: V1_0, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.L2_POOL_2D: (
        _old({7, 10}, {7, 8, 10, 11}),
        {F32: V1_0, F16: V1_2},
        {1},
    ),
    Op.SOFTMAX: (
        _old({2}, {2, 3}),
        {F32: V1_0, Q8A: V1_0, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.L2_NORMALIZATION: (
        _old({1}, {1, 2}),
        {F32: V1_0, Q8A: V1_2, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.LOCAL_RESPONSE_NORMALIZATION: (
        _old({5}, {5, 6}),
        {F32: V1_0, F16: V1_2},
        {1},
    ),
    Op.LSTM: (
        _old({23}, {23, 27}),
        {F32: V1_0, F16: V1_2},
        {4},
    ),
    # CAST: identity casts of five more types at 1.3.
    Op.CAST: (
        _from_1_2({1}),
        {F32: V1_2, F16: V1_2, I32T: V1_2, Q8A: V1_2}
        | dict.fromkeys((B8, Q16A, Q16S, Q8AS, Q8S), V1_3),
        {1},
    ),
    Op.CONCATENATION: (
        {v: set(range(2, 80)) for v in _V1_0_TO_V1_3},
        {F32: V1_0, Q8A: V1_0, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.FULLY_CONNECTED: (
        {v: {4} for v in _V1_0_TO_V1_3},
        {F32: V1_0, Q8A: V1_0, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.DEQUANTIZE: (
        {v: {1} for v in _V1_0_TO_V1_3},
        {Q8A: V1_0, Q8S: V1_2, Q8C: V1_2, **_SIGNED},
        {1},
    ),
    Op.BOX_WITH_NMS_LIMIT: (_from_1_2({9}), {F32: V1_2, F16: V1_2, Q8A: V1_2, **_SIGNED}, {4}),
    Op.DETECTION_POSTPROCESSING: (_from_1_2({14}), {F32: V1_2, F16: V1_2}, {4}),
    Op.AXIS_ALIGNED_BBOX_TRANSFORM: (
        _from_1_2({4}),
        {F32: V1_2, F16: V1_2, Q16A: V1_2, **_SIGNED},  # signed deltas with Q16A rois
        {1},
    ),
    Op.RESHAPE: (
        {v: {2} for v in _V1_0_TO_V1_3},
        {F32: V1_0, Q8A: V1_0, F16: V1_2, **_SIGNED},
        {1},
    ),
    # RESIZE_BILINEAR: align_corners, then half_pixel_centers, at 1.3.
    Op.RESIZE_BILINEAR: (
        _old({3}, {3, 4}, {3, 4, 5, 6}),
        {F32: V1_0, Q8A: V1_2, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.TANH: (
        {v: {1} for v in _V1_0_TO_V1_3},
        {F32: V1_0, F16: V1_2, Q8A: V1_2, **_SIGNED},
        {1},
    ),
    Op.LOGISTIC: (
        {v: {1} for v in _V1_0_TO_V1_3},
        {F32: V1_0, Q8A: V1_0, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.EMBEDDING_LOOKUP: (
        {v: {2} for v in _V1_0_TO_V1_3},
        # the validator's versions (doc: I32/Q8A 1.2); F16 values at 1.3
        {F32: V1_0, I32T: V1_0, Q8A: V1_0, F16: V1_3, **_SIGNED},
        {1},
    ),
    Op.HASHTABLE_LOOKUP: (
        {v: {3} for v in _V1_0_TO_V1_3},
        {F32: V1_0, I32T: V1_0, Q8A: V1_0},
        {2},
    ),
    Op.LSH_PROJECTION: ({v: {4} for v in _V1_0_TO_V1_3}, {F32: V1_0, F16: V1_2}, {1}),
    Op.RNN: ({v: {6} for v in _V1_0_TO_V1_3}, {F32: V1_0, F16: V1_2}, {2}),
    Op.SVDF: ({v: {7} for v in _V1_0_TO_V1_3}, {F32: V1_0, F16: V1_2}, {2}),
    Op.MEAN: (
        {v: {3} for v in _V1_1_TO_V1_3},
        {F32: V1_1, Q8A: V1_1, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.PAD: (
        {v: {2} for v in _V1_1_TO_V1_3},
        {F32: V1_1, Q8A: V1_1, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.SPACE_TO_BATCH_ND: (
        {V1_1: {3}, **_from_1_2({3, 4})},
        {F32: V1_1, Q8A: V1_1, F16: V1_2, **_SIGNED},
        {1},
    ),
    Op.BATCH_TO_SPACE_ND: (
        {V1_1: {2}, **_from_1_2({2, 3})},
        {F32: V1_1, Q8A: V1_1, F16: V1_2, **_SIGNED},
        {1},
    ),
    # SUB, DIV (and ADD, MUL, ABS): TENSOR_INT32 forms at 1.3; DIV has no signed form.
    Op.SUB: (
        {v: {3} for v in _V1_1_TO_V1_3},
        {F32: V1_1, F16: V1_2, Q8A: V1_2, I32T: V1_3, **_SIGNED},
        {1},
    ),
    Op.DIV: ({v: {3} for v in _V1_1_TO_V1_3}, {F32: V1_1, F16: V1_2, I32T: V1_3}, {1}),
    Op.ADD: (
        {v: {3} for v in _V1_0_TO_V1_3},
        {F32: V1_0, Q8A: V1_0, F16: V1_2, I32T: V1_3, **_SIGNED},
        {1},
    ),
    Op.MUL: (
        {v: {3} for v in _V1_0_TO_V1_3},
        {F32: V1_0, Q8A: V1_0, F16: V1_2, I32T: V1_3, **_SIGNED},
        {1},
    ),
    Op.ABS: (_from_1_2({1}), {F32: V1_2, F16: V1_2, I32T: V1_3}, {1}),
    Op.STRIDED_SLICE: (
        {v: {7} for v in _V1_1_TO_V1_3},
        {F32: V1_1, Q8A: V1_1, F16: V1_2, **_SIGNED},
        {1},
    ),
    # The sequence operations: the final states as optional outputs at 1.3.
    Op.BIDIRECTIONAL_SEQUENCE_LSTM: (_from_1_2({61}), {F32: V1_2, F16: V1_2}, {1, 2, 5, 6}),
    Op.BIDIRECTIONAL_SEQUENCE_RNN: (_from_1_2({15}), {F32: V1_2, F16: V1_2}, {1, 2, 3, 4}),
    Op.ARGMAX: (_from_1_2({2}), {F32: V1_2, F16: V1_2, I32T: V1_2, Q8A: V1_2, **_SIGNED}, {1}),
}


def _accepts_count(s: Signature, n: int) -> bool:
    return n >= len(s.inputs) if s.repeat_input is not None else n == len(s.inputs)


@pytest.mark.parametrize("op", list(EXPECTED), ids=lambda op: op.name)
def test_input_counts_per_version(op: OperationType) -> None:
    counts, _, _ = EXPECTED[op]
    for version in HalVersion:
        found = {n for n in _ALL if any(_accepts_count(s, n) for s in signatures(op, version))}
        assert found == counts.get(version, set()), f"{op.name} at {version}"


@pytest.mark.parametrize("op", list(EXPECTED), ids=lambda op: op.name)
def test_first_version_per_type(op: OperationType) -> None:
    _, types, _ = EXPECTED[op]
    found = {variant: since for o, variant, since in coverage_triples() if o == op}
    assert found == types


@pytest.mark.parametrize("op", list(EXPECTED), ids=lambda op: op.name)
def test_output_counts(op: OperationType) -> None:
    _, _, outputs = EXPECTED[op]
    assert {len(s.outputs) for s in operation_info(op).signatures} == outputs


def _pairs(op: OperationType) -> dict[tuple[int, int], HalVersion]:
    return {(s.inputs[0], s.outputs[0]): s.since for s in operation_info(op).signatures}


def test_dequantize_type_pairs() -> None:
    expected = {(Q8A, F32): V1_0}
    for source in (Q8A, Q8S, Q8C):
        for target in (F32, F16):
            expected.setdefault((source, target), V1_2)
    expected |= {(Q8AS, F32): V1_3, (Q8AS, F16): V1_3}
    assert _pairs(Op.DEQUANTIZE) == expected


def test_cast_type_pairs() -> None:
    four = (F16, F32, I32T, Q8A)
    identities = {(t, t): V1_3 for t in (B8, Q16A, Q16S, Q8AS, Q8S)}
    assert _pairs(Op.CAST) == {(a, b): V1_2 for a in four for b in four} | identities


def test_lsh_projection_input_types() -> None:
    found = {
        (s.inputs[0], s.inputs[1]): s.since for s in operation_info(Op.LSH_PROJECTION).signatures
    }
    # Android 10's validator gates the hash type only, but float16 operands need 1.2.
    expected = {(F32, t): V1_0 for t in (F32, I32T, Q8A)} | {(F32, F16): V1_2}
    expected |= {(F16, t): V1_2 for t in (F32, I32T, Q8A, F16)}
    assert found == expected


def test_float16_forms_take_float16_scalars() -> None:
    # Scalars that are FLOAT32 with F32 tensors are FLOAT16 with F16 tensors.
    for op in (
        Op.SOFTMAX,
        Op.LOCAL_RESPONSE_NORMALIZATION,
        Op.LSTM,
        Op.BOX_WITH_NMS_LIMIT,
        Op.DETECTION_POSTPROCESSING,
        Op.BIDIRECTIONAL_SEQUENCE_LSTM,
    ):
        for s in operation_info(op).signatures:
            if s.variant == F16:
                assert OperandType.FLOAT32 not in s.inputs, s.describe()
                assert OperandType.FLOAT16 in s.inputs, s.describe()


# docs/vts-parity.md 2.3, removeOperationInputSkip: with `count` inputs, dropping the
# last one (the optional layout/axis) leaves a valid operation.
_OPTIONAL_LAST = [
    (Op.CONV_2D, 11),
    (Op.CONV_2D, 8),
    (Op.AVERAGE_POOL_2D, 11),
    (Op.AVERAGE_POOL_2D, 8),
    (Op.MAX_POOL_2D, 11),
    (Op.MAX_POOL_2D, 8),
    (Op.L2_POOL_2D, 11),
    (Op.L2_POOL_2D, 8),
    (Op.DEPTHWISE_CONV_2D, 12),
    (Op.DEPTHWISE_CONV_2D, 9),
    (Op.RESIZE_BILINEAR, 4),
    (Op.SPACE_TO_DEPTH, 3),
    (Op.DEPTH_TO_SPACE, 3),
    (Op.BATCH_TO_SPACE_ND, 3),
    (Op.SPACE_TO_BATCH_ND, 4),
    (Op.L2_NORMALIZATION, 2),
    (Op.LOCAL_RESPONSE_NORMALIZATION, 6),
    (Op.SOFTMAX, 3),
]


@pytest.mark.parametrize(("op", "count"), _OPTIONAL_LAST, ids=lambda v: str(getattr(v, "name", v)))
def test_trailing_optional_input(op: OperationType, count: int) -> None:
    full = [s for s in signatures(op, V1_2) if len(s.inputs) == count]
    assert full, f"{op.name} has no {count}-input form"
    for s in full:
        shorter = s.inputs[:-1]
        assert any(t.accepts_types(shorter, s.outputs) for t in signatures(op, V1_2)), s.describe()
        # ... and the long form needs 1.2.
        assert not any(t.accepts_types(s.inputs, s.outputs) for t in signatures(op, V1_1))


@pytest.mark.parametrize(
    ("op", "count"),
    [(Op.L2_NORMALIZATION, 1), (Op.LOCAL_RESPONSE_NORMALIZATION, 5), (Op.SOFTMAX, 2)],
    ids=lambda v: str(getattr(v, "name", v)),
)
def test_trailing_int32_axis_may_be_added(op: OperationType, count: int) -> None:
    # docs/vts-parity.md 2.3, addOperationInputTest skips these: one more INT32 is legal.
    for s in signatures(op, V1_2):
        if len(s.inputs) == count:
            longer = (*s.inputs, INT32)
            assert any(t.accepts_types(longer, s.outputs) for t in signatures(op, V1_2))


# ---------------------------------------------------------------------------
# Constraints
# ---------------------------------------------------------------------------


def _signature(op: OperationType, variant: int, n_inputs: int, form: str = "") -> Signature:
    for s in operation_info(op).signatures:
        if s.variant == variant and len(s.inputs) == n_inputs and (not form or s.form == form):
            return s
    raise LookupError(f"{op.name} has no {n_inputs}-input {OperandType(variant).name} form")


def _operand(model: Model, side: str, slot: int) -> Operand:
    return model.operands[getattr(model.operations[0], side)[slot]]


def _omit(model: Model, *slots: int) -> Model:
    """Make the given inputs NO_VALUE operands (no longer model inputs)."""
    for slot in slots:
        index = model.operations[0].inputs[slot]
        operand = model.operands[index]
        operand.lifetime = OperandLifeTime.NO_VALUE
        operand.dimensions = [0] * len(operand.dimensions)
        model.input_indexes = [i for i in model.input_indexes if i != index]
    return model


def _rules(model: Model, version: HalVersion) -> frozenset[str]:
    return validate_model(model, version).rule_names


def test_concatenation_quant_params_must_match_before_1_2() -> None:
    model = _model(_signature(Op.CONCATENATION, Q8A, 2))
    _operand(model, "inputs", 1).scale = 0.25
    assert _rules(model, V1_0) == {PARITY_RULE}
    assert _rules(model, V1_1) == {PARITY_RULE}
    assert _rules(model, V1_2) == frozenset()


def test_per_channel_channel_dim() -> None:
    # CONV_2D: Android 10's validator requires channelDim 0 (parity).
    conv = signature_model(_signature(Op.CONV_2D, Q8C, 7))
    assert _rules(conv, V1_2) == frozenset()
    _operand(conv, "inputs", 1).extra_params = SymmPerChannelQuantParams((1.0,), 3)
    assert _rules(conv, V1_2) == {PARITY_RULE}
    # DEPTHWISE_CONV_2D: channelDim 3 is documented only (strict).
    depthwise = signature_model(_signature(Op.DEPTHWISE_CONV_2D, Q8C, 8))
    assert _rules(depthwise, V1_2) == frozenset()
    filt = _operand(depthwise, "inputs", 1)
    filt.extra_params = SymmPerChannelQuantParams((1.0,), 0)
    assert _rules(depthwise, V1_2) == {STRICT_RULE}


@pytest.mark.parametrize(
    ("op", "n_inputs", "rule"),
    [
        (Op.FULLY_CONNECTED, 4, PARITY_RULE),
        (Op.DEPTHWISE_CONV_2D, 8, PARITY_RULE),
        # Android 10's CONV_2D validator compares input 0's scale, not the output's.
        (Op.CONV_2D, 7, STRICT_RULE),
    ],
)
def test_output_scale_above_product_before_1_2(op: OperationType, n_inputs: int, rule: str) -> None:
    model = _model(_signature(op, Q8A, n_inputs))
    _operand(model, "outputs", 0).scale = 0.2  # input 0.5 x filter 0.5 = 0.25
    assert _rules(model, V1_1) == {rule}
    assert _rules(model, V1_2) == frozenset()


def test_conv_2d_scale_quirk_is_parity() -> None:
    # Filter scale 4: input 0.5 x 4 = 2 exceeds input 0's own scale, which is
    # what Android 10 compares; the output scale 3 meets the documented rule.
    model = _model(_signature(Op.CONV_2D, Q8A, 10, "explicit"))
    _operand(model, "inputs", 1).scale = 4.0
    _operand(model, "inputs", 2).scale = 2.0  # bias = input x filter
    _operand(model, "outputs", 0).scale = 3.0
    assert _rules(model, V1_0) == {PARITY_RULE}
    assert _rules(model, V1_2) == frozenset()


def test_mul_output_scale_above_product_always() -> None:
    model = _model(_signature(Op.MUL, Q8A, 3))
    _operand(model, "outputs", 0).scale = 0.25  # = 0.5 x 0.5, not above it
    assert _rules(model, V1_2) == {PARITY_RULE}


def test_bias_scale_is_strict() -> None:
    model = _model(_signature(Op.FULLY_CONNECTED, Q8A, 4))
    _operand(model, "inputs", 2).scale = 0.5
    assert _rules(model, V1_0) == {STRICT_RULE}


@pytest.mark.parametrize(("op", "n_inputs"), [(Op.PAD, 2), (Op.SPACE_TO_BATCH_ND, 3)])
def test_nonzero_zero_point_needs_1_2(op: OperationType, n_inputs: int) -> None:
    model = _model(_signature(op, Q8A, n_inputs))
    for side in ("inputs", "outputs"):
        _operand(model, side, 0).zero_point = 3
    assert _rules(model, V1_1) == {PARITY_RULE}
    assert _rules(model, V1_2) == frozenset()


@pytest.mark.parametrize(
    ("op", "n_inputs", "rank", "ok_before_1_2"),
    [
        (Op.SOFTMAX, 2, 3, False),
        (Op.SOFTMAX, 2, 4, True),
        (Op.SOFTMAX, 2, 2, True),
        (Op.L2_NORMALIZATION, 1, 2, False),
        (Op.LOCAL_RESPONSE_NORMALIZATION, 5, 3, False),
    ],
)
def test_ranks_before_1_2(op: OperationType, n_inputs: int, rank: int, ok_before_1_2: bool) -> None:
    model = _model(_signature(op, F32, n_inputs))
    _operand(model, "inputs", 0).dimensions = [1] * rank
    assert _rules(model, V1_0) == (frozenset() if ok_before_1_2 else {PARITY_RULE})
    assert _rules(model, V1_2) == frozenset()


def test_rank_limit_of_the_newest_version() -> None:
    model = _model(_signature(Op.SOFTMAX, F32, 3))
    _operand(model, "inputs", 0).dimensions = [1] * 5
    assert _rules(model, V1_2) == {"operation.rank"}


@pytest.mark.parametrize(
    ("op", "variant", "n_inputs", "side", "slot", "field", "value"),
    [
        (Op.LOGISTIC, Q8A, 1, "outputs", 0, "scale", 0.5),
        (Op.TANH, Q8A, 1, "outputs", 0, "zero_point", 0),
        (Op.SOFTMAX, Q8A, 2, "outputs", 0, "scale", 1 / 128),
        (Op.L2_NORMALIZATION, Q8A, 1, "outputs", 0, "zero_point", 0),
        (Op.HASHTABLE_LOOKUP, F32, 3, "outputs", 1, "scale", 0.5),
        (Op.RESHAPE, Q8A, 2, "outputs", 0, "zero_point", 7),
        (Op.MAX_POOL_2D, Q8A, 7, "outputs", 0, "scale", 0.25),
        (Op.EMBEDDING_LOOKUP, Q8A, 2, "outputs", 0, "scale", 0.25),
        (Op.BOX_WITH_NMS_LIMIT, Q8A, 9, "inputs", 1, "scale", 0.25),
        (Op.BOX_WITH_NMS_LIMIT, Q8A, 9, "outputs", 0, "scale", 0.25),
        (Op.AXIS_ALIGNED_BBOX_TRANSFORM, Q16A, 4, "inputs", 3, "scale", 0.25),
        (Op.AXIS_ALIGNED_BBOX_TRANSFORM, Q16A, 4, "outputs", 0, "zero_point", 1),
    ],
)
def test_quantization_params_are_strict(
    op: OperationType, variant: int, n_inputs: int, side: str, slot: int, field: str, value
) -> None:
    model = _model(_signature(op, variant, n_inputs))
    assert _rules(model, V1_2) == frozenset()
    setattr(_operand(model, side, slot), field, value)
    assert _rules(model, V1_2) == {STRICT_RULE}


def test_documented_version_is_strict() -> None:
    model = _model(_signature(Op.EMBEDDING_LOOKUP, Q8A, 2))
    assert _rules(model, V1_0) == {STRICT_RULE}
    assert validate_model(model, V1_0, disabled=[STRICT_RULE]).ok
    assert _rules(model, V1_2) == frozenset()


class TestLstmOptionalInputs:
    def _lstm(self) -> Model:
        return _model(_signature(Op.LSTM, F32, 23))

    def test_cifg_without_peephole_or_projection(self) -> None:
        model = _omit(self._lstm(), 1, 5, 12, 9, 10, 11, 16, 17)
        assert _rules(model, V1_0) == frozenset()

    def test_half_of_cifg(self) -> None:
        assert _rules(_omit(self._lstm(), 1), V1_0) == {STRICT_RULE}

    def test_projection_bias_without_weights(self) -> None:
        assert _rules(_omit(self._lstm(), 16), V1_0) == {STRICT_RULE}

    def test_required_input(self) -> None:
        assert _rules(_omit(self._lstm(), 2), V1_0) == {"operation.omitted_input"}

    def test_layer_norm_with_cifg(self) -> None:
        model = _model(_signature(Op.LSTM, F32, 27))
        assert _rules(_omit(model, 1, 5, 12, 9, 23), V1_2) == frozenset()
        incomplete = _model(_signature(Op.LSTM, F32, 27))
        assert _rules(_omit(incomplete, 24), V1_2) == {STRICT_RULE}


def test_bidirectional_rnn_aux_inputs_together() -> None:
    signature = _signature(Op.BIDIRECTIONAL_SEQUENCE_RNN, F16, 15, "merged outputs")
    assert _rules(_omit(_model(signature), 9, 10, 11), V1_2) == frozenset()
    assert _rules(_omit(_model(signature), 9), V1_2) == {STRICT_RULE}


def test_transpose_omitted_permutation_needs_rank_2() -> None:
    model = _omit(_model(_signature(Op.TRANSPOSE, F32, 2)), 1)
    _operand(model, "inputs", 0).dimensions = [2, 3]
    assert _rules(model, V1_1) == frozenset()
    _operand(model, "inputs", 0).dimensions = [2, 3, 4]
    assert _rules(model, V1_1) == {STRICT_RULE}


def test_svdf_bias_may_be_omitted() -> None:
    model = _omit(_model(_signature(Op.SVDF, F32, 7)), 3)
    assert _rules(model, V1_0) == frozenset()
    assert _rules(_omit(_model(_signature(Op.SVDF, F32, 7)), 2), V1_0) == {
        "operation.omitted_input"
    }
