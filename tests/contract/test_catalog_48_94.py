"""Catalog entries of operations 48-94 (EQUAL ... RESIZE_NEAREST_NEIGHBOR) and OEM_OPERATION.

Three kinds of check:

1. every catalogued form is 1.2's or (a signed twin, a new optional input or
   output) 1.3's;
2. a table written by hand from the HAL 1.2 operation definitions (not derived from
   the catalog) agrees with it on input counts, primary types and exact type
   lists of selected forms, and forms the doc excludes are not accepted;
3. the constraints encoded for these operations reject violating models under
   the right rule (parity: ``operation.constraint``; strict:
   ``operation.constraint_strict``; ranks and omitted inputs their own rules).
"""

from __future__ import annotations

import copy

import pytest

from conformance.harness.models import signature_model
from hal.operations import Signature, coverage_triples, operation_info, signatures
from hal.types import (
    DataLocation,
    HalVersion,
    Model,
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
Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL
Q16A = OperandType.TENSOR_QUANT16_ASYMM
Q16S = OperandType.TENSOR_QUANT16_SYMM
B8 = OperandType.TENSOR_BOOL8
I = OperandType.INT32  # noqa: E741
F = OperandType.FLOAT32
H = OperandType.FLOAT16
BOOL = OperandType.BOOL

RANGE = [op for op in Op if 48 <= op <= 94]

SIGNATURES = [
    pytest.param(s, id=f"{op.name}-{OperandType(s.variant).name}-{s.form or 'plain'}-{i}")
    for op in RANGE
    for i, s in enumerate(operation_info(op).signatures)
]


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------


def _set_quant(model: Model, index: int, scale: float, zero_point: int) -> None:
    model.operands[index].scale = scale
    model.operands[index].zero_point = zero_point


def _model(signature: Signature, **kwargs) -> Model:
    if signature.operation == Op.SPLIT:
        kwargs.setdefault("output_count", 3)
    return signature_model(signature, **kwargs)


def _form(op: Op, variant: int, form: str = "") -> Signature:
    found = [s for s in operation_info(op).signatures if s.variant == variant and s.form == form]
    assert len(found) == 1, f"{op.name} {variant} {form!r}: {found}"
    return found[0]


def _omit(model: Model, slot: int) -> None:
    """Input ``slot`` of the operation becomes a NO_VALUE operand."""
    index = model.operations[0].inputs[slot]
    operand = model.operands[index]
    operand.lifetime = OperandLifeTime.NO_VALUE
    operand.location = DataLocation()
    model.input_indexes = [i for i in model.input_indexes if i != index]


def _rules(model: Model) -> frozenset[str]:
    return validate_model(model, V1_2).rule_names


# ---------------------------------------------------------------------------
# 1. Every form is 1.2's, or one of the kinds 1.3 added
# ---------------------------------------------------------------------------

# The 1.3 forms of the range that are not signed twins: optional inputs and outputs.
_NEW_COUNTS_1_3 = {
    Op.RESIZE_NEAREST_NEIGHBOR: "inputs",
    Op.UNIDIRECTIONAL_SEQUENCE_LSTM: "outputs",
    Op.UNIDIRECTIONAL_SEQUENCE_RNN: "outputs",
}


def test_every_operation_of_the_range_is_catalogued() -> None:
    assert len(RANGE) == 47
    for op in RANGE:
        info = operation_info(op)
        assert info.introduced == V1_2 and info.signatures, op.name
        assert all(s.since in (V1_2, V1_3) for s in info.signatures), op.name
        older = [s for s in info.signatures if s.since == V1_2]
        for s in info.signatures:
            if s.since == V1_2:
                continue
            signed = Q8AS in (*s.inputs, *s.outputs)
            side = _NEW_COUNTS_1_3.get(op)
            longer = side is not None and all(
                len(getattr(s, side)) > len(getattr(o, side)) for o in older
            )
            assert signed or longer, s.describe()
    oem = operation_info(Op.OEM_OPERATION)
    assert oem.introduced == V1_0 and oem.signatures == ()


@pytest.mark.parametrize("count", [1, 2, 4])
def test_split_takes_any_number_of_outputs(count: int) -> None:
    model = signature_model(_form(Op.SPLIT, Q8A), output_count=count)
    assert len(model.operations[0].outputs) == count
    assert validate_model(model, V1_2).ok


def test_split_needs_an_output() -> None:
    model = signature_model(_form(Op.SPLIT, F32))
    model.operations[0].outputs = []
    model.output_indexes = []
    model.operands.pop()
    assert "operation.signature" in _rules(model)


# ---------------------------------------------------------------------------
# 2. Cross-check against a table written by hand from docs/operations.md
# ---------------------------------------------------------------------------


def _both(value: set[int]) -> dict[HalVersion, set[int]]:
    """The same accepted counts at 1.2 and 1.3."""
    return {V1_2: value, V1_3: value}


def _signed(*types: int) -> dict[int, HalVersion]:
    """The 1.2 primary types, and the signed twin HAL 1.3 adds."""
    return {**dict.fromkeys(types, V1_2), Q8AS: V1_3}


# op: ({version: accepted input counts}, {primary type: first version},
#      {version: output counts}); the 1.3 columns from the HAL 1.3 definitions.
EXPECTED = {
    Op.GENERATE_PROPOSALS: (_both({11}), _signed(F16, F32, Q8A), _both({3})),
    Op.ROI_ALIGN: (_both({10}), _signed(F16, F32, Q8A), _both({1})),
    Op.GROUPED_CONV_2D: (_both({9, 12}), _signed(F16, F32, Q8A, Q8C), _both({1})),
    Op.TRANSPOSE_CONV_2D: (_both({9, 11}), _signed(F16, F32, Q8A, Q8C), _both({1})),
    Op.SELECT: (_both({3}), _signed(F16, F32, I32T, Q8A), _both({1})),
    Op.EQUAL: (_both({2}), _signed(B8, F16, F32, I32T, Q8A), _both({1})),
    Op.UNIDIRECTIONAL_SEQUENCE_LSTM: (
        _both({28}),
        {F16: V1_2, F32: V1_2},
        {V1_2: {1}, V1_3: {1, 3}},
    ),
    Op.UNIDIRECTIONAL_SEQUENCE_RNN: (
        _both({7}),
        {F16: V1_2, F32: V1_2},
        {V1_2: {1}, V1_3: {1, 2}},
    ),
    Op.QUANTIZED_16BIT_LSTM: (_both({15}), {Q8A: V1_2}, _both({2})),
    Op.RESIZE_NEAREST_NEIGHBOR: (
        {V1_2: {4}, V1_3: {4, 5, 6}},
        _signed(F16, F32, Q8A),
        _both({1}),
    ),
    Op.PAD_V2: (_both({3}), _signed(F16, F32, Q8A), _both({1})),
    Op.TOPK_V2: (_both({2}), _signed(F16, F32, I32T, Q8A), _both({2})),
    Op.SPLIT: (_both({3}), _signed(F16, F32, I32T, Q8A), _both({1})),  # SPLIT: at least 1
    Op.LOG_SOFTMAX: (_both({3}), {F16: V1_2, F32: V1_2}, _both({1})),  # no signed form
}


@pytest.mark.parametrize("op", list(EXPECTED), ids=lambda op: op.name)
def test_counts_and_types_agree_with_the_doc(op: Op) -> None:
    counts, types, outputs = EXPECTED[op]
    assert signatures(op, V1_1) == []
    for version in (V1_2, V1_3):
        forms = signatures(op, version)
        assert {len(s.inputs) for s in forms} == counts[version], version
        assert {s.variant for s in forms} == {t for t, v in types.items() if v <= version}
        assert {len(s.outputs) for s in forms} == outputs[version], version
    triples = {(variant, since) for o, variant, since in coverage_triples() if o == op}
    assert triples == set(types.items())


_CONV_TAIL_EXPLICIT_GROUPED = (I,) * 8 + (BOOL,)
_CONV_TAIL_IMPLICIT_GROUPED = (I,) * 5 + (BOOL,)

# (op, inputs, outputs) forms the doc gives, spelled out.
ACCEPTED = [
    (
        Op.GENERATE_PROPOSALS,
        (Q8A, Q8A, Q16S, Q16A, F, F, I, I, F, F, BOOL),
        (Q8A, Q16A, I32T),
    ),
    (Op.GENERATE_PROPOSALS, (F16,) * 4 + (H, H, I, I, H, H, BOOL), (F16, F16, I32T)),
    (Op.GENERATE_PROPOSALS, (F32,) * 4 + (F, F, I, I, F, F, BOOL), (F32, F32, I32T)),
    (Op.ROI_ALIGN, (F16, F16, I32T, I, I, H, H, I, I, BOOL), (F16,)),
    (Op.ROI_ALIGN, (Q8A, Q16A, I32T, I, I, F, F, I, I, BOOL), (Q8A,)),
    (Op.ROI_POOLING, (F16, F16, I32T, I, I, H, H, BOOL), (F16,)),
    (Op.ROI_POOLING, (Q8A, Q16A, I32T, I, I, F, F, BOOL), (Q8A,)),
    (Op.HEATMAP_MAX_KEYPOINT, (Q8A, Q16A, BOOL), (Q8A, Q16A)),
    (Op.GROUPED_CONV_2D, (F32, F32, F32, *_CONV_TAIL_EXPLICIT_GROUPED), (F32,)),
    (Op.GROUPED_CONV_2D, (Q8A, Q8A, I32T, *_CONV_TAIL_IMPLICIT_GROUPED), (Q8A,)),
    (Op.GROUPED_CONV_2D, (Q8A, Q8C, I32T, *_CONV_TAIL_EXPLICIT_GROUPED), (Q8A,)),
    (Op.TRANSPOSE_CONV_2D, (F16, F16, F16, *(I,) * 7, BOOL), (F16,)),
    (Op.TRANSPOSE_CONV_2D, (Q8A, Q8C, I32T, I32T, I, I, I, I, BOOL), (Q8A,)),
    (Op.TRANSPOSE_CONV_2D, (Q8A, Q8A, I32T, I32T, I, I, I, I, BOOL), (Q8A,)),
    (Op.SELECT, (B8, I32T, I32T), (I32T,)),
    (Op.EQUAL, (Q8A, Q8A), (B8,)),
    (Op.EQUAL, (B8, B8), (B8,)),
    (Op.UNIDIRECTIONAL_SEQUENCE_LSTM, (F16,) * 20 + (I, H, H, BOOL) + (F16,) * 4, (F16,)),
    (Op.UNIDIRECTIONAL_SEQUENCE_LSTM, (F32,) * 20 + (I, F, F, BOOL) + (F32,) * 4, (F32,)),
    (Op.UNIDIRECTIONAL_SEQUENCE_RNN, (F16,) * 5 + (I, I), (F16,)),
    (Op.QUANTIZED_16BIT_LSTM, (Q8A,) * 9 + (I32T,) * 4 + (Q16S, Q8A), (Q16S, Q8A)),
    (Op.RESIZE_NEAREST_NEIGHBOR, (F16, H, H, BOOL), (F16,)),
    (Op.RESIZE_NEAREST_NEIGHBOR, (F16, I, I, BOOL), (F16,)),
    (Op.RESIZE_NEAREST_NEIGHBOR, (Q8A, F, F, BOOL), (Q8A,)),
    (Op.PAD_V2, (Q8A, I32T, I), (Q8A,)),
    (Op.PAD_V2, (F16, I32T, H), (F16,)),
    (Op.PAD_V2, (F32, I32T, F), (F32,)),
    (Op.TOPK_V2, (I32T, I), (I32T, I32T)),
    (Op.SPLIT, (Q8A, I, I), (Q8A, Q8A, Q8A)),
    (Op.INSTANCE_NORMALIZATION, (F16, H, H, H, BOOL), (F16,)),
    (Op.LOG_SOFTMAX, (F16, H, I), (F16,)),
    (Op.QUANTIZE, (F16,), (Q8A,)),
    (Op.RANDOM_MULTINOMIAL, (F16, I, I32T), (I32T,)),
    (Op.REDUCE_ANY, (B8, I32T, BOOL), (B8,)),
    (Op.NEG, (I32T,), (I32T,)),
    (Op.GATHER, (Q8A, I, I32T), (Q8A,)),
]

# Forms the doc rules out (each with the reason).
REJECTED = [
    # types.hal's QUANT16_SYMM image info: the Android 10 validator takes QUANT16_ASYMM.
    (Op.GENERATE_PROPOSALS, (Q8A, Q8A, Q16S, Q16S, F, F, I, I, F, F, BOOL), (Q8A, Q16A, I32T)),
    # FLOAT32 ratios with a FLOAT16 feature map: the reference wants FLOAT16.
    (Op.ROI_ALIGN, (F16, F16, I32T, I, I, F, F, I, I, BOOL), (F16,)),
    (Op.ROI_POOLING, (F16, F16, I32T, I, I, F, F, BOOL), (F16,)),
    # The layout of GROUPED_CONV_2D is mandatory.
    (Op.GROUPED_CONV_2D, (F32, F32, F32, *(I,) * 8), (F32,)),
    (Op.GROUPED_CONV_2D, (F32, F32, F32, *(I,) * 5), (F32,)),
    # A per-channel filter needs quantized data.
    (Op.TRANSPOSE_CONV_2D, (F32, Q8C, F32, *(I,) * 7, BOOL), (F32,)),
    # RESIZE_NEAREST_NEIGHBOR's layout is required; width and height share one type.
    (Op.RESIZE_NEAREST_NEIGHBOR, (F32, I, I), (F32,)),
    (Op.RESIZE_NEAREST_NEIGHBOR, (F32, I, F, BOOL), (F32,)),
    (Op.RESIZE_NEAREST_NEIGHBOR, (Q8A, H, H, BOOL), (Q8A,)),
    # One output in 1.2 (state outputs came with 1.3).
    (
        Op.UNIDIRECTIONAL_SEQUENCE_LSTM,
        (F32,) * 20 + (I, F, F, BOOL) + (F32,) * 4,
        (F32, F32, F32),
    ),
    (Op.UNIDIRECTIONAL_SEQUENCE_LSTM, (F32,) * 20 + (I, F, F, BOOL), (F32,)),
    # time_major is an INT32 for the RNN.
    (Op.UNIDIRECTIONAL_SEQUENCE_RNN, (F32,) * 5 + (I, BOOL), (F32,)),
    (Op.QUANTIZED_16BIT_LSTM, (Q8A,) * 9 + (I32T,) * 4 + (Q16S, Q8A), (Q16S,)),
    (Op.PAD_V2, (Q8A, I32T, F), (Q8A,)),
    (Op.TOPK_V2, (F32, I), (F32,)),
    (Op.SELECT, (F32, F32, F32), (F32,)),
    (Op.SELECT, (B8, F32, F16), (F32,)),
    (Op.EQUAL, (F32, F32), (F32,)),
    (Op.EQUAL, (F32, F16), (B8,)),
    (Op.LOGICAL_AND, (F32, F32), (B8,)),
    (Op.EXP, (Q8A,), (Q8A,)),
    (Op.NEG, (Q8A,), (Q8A,)),
    (Op.REDUCE_SUM, (Q8A, I32T, BOOL), (Q8A,)),
    (Op.REDUCE_MAX, (F32, I32T, I), (F32,)),
]


def _accepts(op: Op, inputs: tuple[int, ...], outputs: tuple[int, ...]) -> bool:
    return any(s.accepts_types(inputs, outputs) for s in signatures(op, V1_2))


@pytest.mark.parametrize(("op", "inputs", "outputs"), ACCEPTED)
def test_documented_form_is_accepted(op: Op, inputs, outputs) -> None:
    assert _accepts(op, inputs, outputs)


@pytest.mark.parametrize(("op", "inputs", "outputs"), REJECTED)
def test_excluded_form_is_rejected(op: Op, inputs, outputs) -> None:
    assert not _accepts(op, inputs, outputs)


def test_unidirectional_sequence_lstm_optional_inputs() -> None:
    optional = {1, 5, 9, 10, 11, 12, 16, 17, 24, 25, 26, 27}
    for s in signatures(Op.UNIDIRECTIONAL_SEQUENCE_LSTM, V1_2):
        assert s.omittable == optional
    for op in RANGE:
        if op != Op.UNIDIRECTIONAL_SEQUENCE_LSTM:
            assert all(not s.omittable for s in signatures(op, V1_2)), op.name


# ---------------------------------------------------------------------------
# 3. Constraints reject violating models under the right rule
# ---------------------------------------------------------------------------

PARITY = frozenset({"operation.constraint"})
STRICT = frozenset({"operation.constraint_strict"})


@pytest.mark.parametrize("op", [Op.GROUPED_CONV_2D, Op.TRANSPOSE_CONV_2D], ids=lambda o: o.name)
@pytest.mark.parametrize("form", ["explicit", "implicit"])
def test_per_channel_filter_needs_channel_dim_0(op: Op, form: str) -> None:
    signature = _form(op, Q8C, form)
    model = signature_model(signature)
    assert validate_model(model, V1_2).ok
    model.operands[model.operations[0].inputs[1]].extra_params = SymmPerChannelQuantParams(
        (1.0,), 1
    )
    assert _rules(model) == PARITY


@pytest.mark.parametrize("op", [Op.GROUPED_CONV_2D, Op.TRANSPOSE_CONV_2D], ids=lambda o: o.name)
def test_quantized_bias_scale(op: Op) -> None:
    model = signature_model(_form(op, Q8A, "explicit"))
    bias = model.operations[0].inputs[2]
    model.operands[bias].scale *= 2
    assert _rules(model) == STRICT
    # A per-channel filter makes the bias operand's scale irrelevant.
    model = signature_model(_form(op, Q8C, "explicit"))
    model.operands[model.operations[0].inputs[2]].scale = 0.75
    assert validate_model(model, V1_2).ok


@pytest.mark.parametrize(
    "op",
    [
        Op.TILE,
        Op.EXPAND_DIMS,
        Op.GATHER,
        Op.PAD_V2,
        Op.REDUCE_MAX,
        Op.REDUCE_MIN,
        Op.SLICE,
        Op.TOPK_V2,
        Op.ROI_POOLING,
        Op.GENERATE_PROPOSALS,
    ],
    ids=lambda o: o.name,
)
def test_output_quant_forced_to_input(op: Op) -> None:
    model = signature_model(_form(op, Q8A))
    _set_quant(model, model.operations[0].outputs[0], 0.25, 0)
    assert _rules(model) == STRICT
    model = signature_model(_form(op, Q8A))
    _set_quant(model, model.operations[0].outputs[0], 0.5, 3)
    assert _rules(model) == STRICT


def test_resize_nearest_neighbor_output_quant_forced() -> None:
    for form in ("shape", "scale"):
        model = signature_model(_form(Op.RESIZE_NEAREST_NEIGHBOR, Q8A, form))
        _set_quant(model, model.operations[0].outputs[0], 1.0, 0)
        assert _rules(model) == STRICT


def test_split_every_output_forced_to_input() -> None:
    model = signature_model(_form(Op.SPLIT, Q8A), output_count=3)
    _set_quant(model, model.operations[0].outputs[2], 0.5, 1)
    assert _rules(model) == STRICT


@pytest.mark.parametrize(
    "op", [Op.SELECT, Op.MAXIMUM, Op.MINIMUM, Op.PRELU, Op.ROI_ALIGN, Op.HEATMAP_MAX_KEYPOINT]
)
def test_free_output_quant(op: Op) -> None:
    model = signature_model(_form(op, Q8A))
    _set_quant(model, model.operations[0].outputs[0], 0.3, 7)
    assert validate_model(model, V1_2).ok


@pytest.mark.parametrize(
    ("op", "side", "slot"),
    [
        (Op.ROI_ALIGN, "inputs", 1),
        (Op.ROI_POOLING, "inputs", 1),
        (Op.HEATMAP_MAX_KEYPOINT, "inputs", 1),
        (Op.HEATMAP_MAX_KEYPOINT, "outputs", 1),
        (Op.GENERATE_PROPOSALS, "inputs", 2),  # anchors (QUANT16_SYMM, 0.125)
        (Op.GENERATE_PROPOSALS, "inputs", 3),
        (Op.GENERATE_PROPOSALS, "outputs", 1),
    ],
)
def test_box_quantization_is_fixed(op: Op, side: str, slot: int) -> None:
    model = signature_model(_form(op, Q8A))
    index = getattr(model.operations[0], side)[slot]
    model.operands[index].scale = 0.25
    assert _rules(model) == STRICT
    if model.operands[index].type == Q16A:
        model = signature_model(_form(op, Q8A))
        model.operands[index].zero_point = 1
        assert _rules(model) == STRICT


def test_quantized_16bit_lstm_fixed_quantization() -> None:
    signature = _form(Op.QUANTIZED_16BIT_LSTM, Q8A)
    model = signature_model(signature)
    assert validate_model(model, V1_2).ok
    inputs, outputs = model.operations[0].inputs, model.operations[0].outputs
    cases = [
        (inputs[0], 1 / 128, 127),  # x zero point
        (inputs[14], 1 / 64, 128),  # previous output scale
        (inputs[5], 0.25, 0),  # one weight differs from the others
        (inputs[11], 0.5 / 64, 0),  # a gate bias scale
        (inputs[13], 2.0**-10, 0),  # cell state with 5 integer bits
        (outputs[0], 2.0**-12, 0),
        (outputs[1], 1 / 128, 0),
    ]
    for index, scale, zero_point in cases:
        broken = copy.deepcopy(model)
        _set_quant(broken, index, scale, zero_point)
        assert _rules(broken) == STRICT, (index, scale, zero_point)
    # Within the reference's tolerance on the cell-state scale's log2 (1e-3).
    close = copy.deepcopy(model)
    _set_quant(close, inputs[13], 2.0 ** (-11 + 5e-4), 0)
    _set_quant(close, outputs[0], 2.0 ** (-11 + 5e-4), 0)
    assert validate_model(close, V1_2).ok


def _lstm_model(*omitted: int) -> Model:
    model = signature_model(_form(Op.UNIDIRECTIONAL_SEQUENCE_LSTM, F32))
    for slot in omitted:
        _omit(model, slot)
    return model


@pytest.mark.parametrize(
    "omitted",
    [
        (),
        (9, 10, 11),  # no peephole
        (16, 17),  # no projection
        (17,),  # projection without bias
        (24, 25, 26, 27),  # no layer norm
        (1, 5, 12, 24),  # CIFG (with layer norm, whose input-gate weights go too)
        (1, 5, 12, 24, 25, 26, 27),  # CIFG without layer norm
        (1, 5, 12, 24, 9),  # CIFG with peephole: input 9 may go
        (1, 5, 9, 10, 11, 12, 16, 17, 24, 25, 26, 27),  # everything optional omitted
    ],
)
def test_lstm_valid_omissions(omitted: tuple[int, ...]) -> None:
    result = validate_model(_lstm_model(*omitted), V1_2)
    assert result.ok, str(result)


@pytest.mark.parametrize(
    "omitted",
    [
        (1,),  # half a CIFG
        (5, 12),
        (10,),  # part of the peephole
        (9,),  # input 9 missing without CIFG
        (1, 5, 12, 24, 10, 11),  # CIFG: input 9 without 10 and 11
        (25,),  # part of the layer norm
        (24,),  # input 24 missing without CIFG
        (1, 5, 12, 24, 26),  # CIFG: 25-27 all or none
        (1, 5, 12),  # CIFG with input 24 given
    ],
)
def test_lstm_inconsistent_omissions(omitted: tuple[int, ...]) -> None:
    assert _rules(_lstm_model(*omitted)) == STRICT


@pytest.mark.parametrize("slot", [0, 2, 13, 18, 19])
def test_lstm_required_input_cannot_be_omitted(slot: int) -> None:
    assert _rules(_lstm_model(slot)) == frozenset({"operation.omitted_input"})


def test_only_lstm_omits_inputs() -> None:
    model = signature_model(_form(Op.ROI_ALIGN, F32))
    _omit(model, 2)
    assert _rules(model) == frozenset({"operation.omitted_input"})


@pytest.mark.parametrize(
    ("op", "variant", "slot", "rank"),
    [
        (Op.INSTANCE_NORMALIZATION, F32, 0, 3),
        (Op.RESIZE_NEAREST_NEIGHBOR, F16, 0, 5),
        (Op.GROUPED_CONV_2D, F32, 2, 2),
        (Op.ROI_ALIGN, Q8A, 1, 3),
        (Op.PAD_V2, F32, 0, 5),
        (Op.REDUCE_SUM, F32, 0, 5),
        (Op.QUANTIZED_16BIT_LSTM, Q8A, 0, 3),
        (Op.UNIDIRECTIONAL_SEQUENCE_LSTM, F32, 0, 2),
    ],
)
def test_rank_limits(op: Op, variant: int, slot: int, rank: int) -> None:
    signature = next(s for s in signatures(op, V1_2) if s.variant == variant)
    model = _model(signature)
    model.operands[model.operations[0].inputs[slot]].dimensions = [1] * rank
    assert _rules(model) == frozenset({"operation.rank"})
