"""Catalog data for operations 48-94 (EQUAL ... RESIZE_NEAREST_NEIGHBOR) and OEM_OPERATION.

Source: the HAL 1.2 operation definitions and Android 10's validator. Each
entry lists every accepted form with its first HAL version. Every operation
here came with HAL 1.2, and so did every operand type it accepts: all
signatures are ``since`` V1_2.

Conventions of this range:

* Android 10's validator checks only operand counts and types (plus the
  per-channel ``channelDim == 0`` of GROUPED_CONV_2D and TRANSPOSE_CONV_2D),
  so every other rule is ``STRICT``: quantization the reference enforces at
  execution ("output quant forced = input"), what the NDK header says should
  hold (GATHER, SLICE, TOPK_V2), and fixed box/state quantizations.
* Float scalars follow the tensor type (``fscalar``): FLOAT16 with
  TENSOR_FLOAT16, FLOAT32 otherwise. For GENERATE_PROPOSALS, ROI_ALIGN and
  ROI_POOLING types.hal says FLOAT32 throughout; the reference and the CTS
  float16 variants use FLOAT16, and so does this catalog (docs/operations.md,
  GENERATE_PROPOSALS (52), ROI_ALIGN (81), ROI_POOLING (82); docs/vts-parity.md 4.3 agrees).
* ``ranks`` are given where docs/operations.md states a finite limit. "Rank >= 1"
  alone is not recorded: a tensor operand of rank 0 has unknown rank, which
  the rank rule leaves to execution anyway.

HAL 1.3 (the HAL 1.3 operation definitions and Android 11's validator) adds, all
``since`` V1_3: the TENSOR_QUANT8_ASYMM_SIGNED twin of every TENSOR_QUANT8_ASYMM
form of the operations in ``_SIGNED`` (``with_signed_forms``: boxes stay
TENSOR_QUANT16_ASYMM with zero point 0, PAD_V2's pad value stays INT32),
RESIZE_NEAREST_NEIGHBOR's optional align_corners and half_pixel_centers BOOLs, and
the final-state outputs of the unidirectional sequence operations.
"""

from __future__ import annotations

from hal.catalog.build import (
    B8,
    BOOL,
    F16,
    F32,
    I32,
    I32T,
    Q8A,
    Q8C,
    Q16A,
    Q16S,
    V1_0,
    V1_2,
    V1_3,
    bias_scale,
    channel_dim,
    entry,
    fixed_quant,
    fscalar,
    inputs_share_quant,
    not_both_true,
    optional_tail,
    outputs_same_quant,
    per_type,
    same_quant,
    with_constraints,
    with_signed_forms,
)
from hal.forms import STRICT, Constraint, ConstraintContext, OperationInfo, Signature
from hal.types import OperandLifeTime
from hal.types import OperationType as Op

Types = tuple[int, ...]
Make = tuple[Types, Types]

# Primary type sets (all since 1.2).
_FLOATS = {F16: V1_2, F32: V1_2}
_FLOATS_Q8 = {F16: V1_2, F32: V1_2, Q8A: V1_2}
_FLOATS_I32_Q8 = {F16: V1_2, F32: V1_2, I32T: V1_2, Q8A: V1_2}
_COMPARABLE = {B8: V1_2, F16: V1_2, F32: V1_2, I32T: V1_2, Q8A: V1_2}
_BOOL8 = {B8: V1_2}
_FLOATS_1_3 = {F16: V1_3, F32: V1_3}

# Box coordinates in TENSOR_QUANT16_ASYMM (rois, boxes, keypoints, image info).
_BOX_SCALE, _BOX_ZERO_POINT = 0.125, 0


# ---------------------------------------------------------------------------
# Elementwise and shape operations
# ---------------------------------------------------------------------------


def _unary(t: int) -> Make:
    return (t,), (t,)


def _binary(t: int) -> Make:
    return (t, t), (t,)


def _compare(t: int) -> Make:
    return (t, t), (B8,)


def _same_as_input(op: Op, types, make, **fields) -> list[Signature]:
    """Forms whose quantized output 0 must carry input 0's params (reference or header)."""
    return with_constraints(per_type(op, types, make, **fields), same_quant(0, 0, tier=STRICT))


def _expand_dims() -> list[Signature]:
    return _same_as_input(Op.EXPAND_DIMS, _FLOATS_I32_Q8, lambda t: ((t, I32), (t,)))


def _gather() -> list[Signature]:
    # The NDK header asks for the input's params; the reference copies bytes unchecked.
    return _same_as_input(Op.GATHER, _FLOATS_I32_Q8, lambda t: ((t, I32, I32T), (t,)))


def _log_softmax() -> list[Signature]:
    return per_type(Op.LOG_SOFTMAX, _FLOATS, lambda t: ((t, fscalar(t), I32), (t,)))


def _pad_v2() -> list[Signature]:
    def make(t: int) -> Make:
        # The pad value: FLOAT16/FLOAT32 with the float types, the quantized byte as INT32.
        value = I32 if t == Q8A else fscalar(t)
        return (t, I32T, value), (t,)

    return _same_as_input(Op.PAD_V2, _FLOATS_Q8, make, ranks=((0, 1, 4), (1, 2, 2)))


def _reduce(op: Op, types, *, forced: bool = False) -> list[Signature]:
    # Input rank <= 4 (doc); axes a 1-D TENSOR_INT32; keep_dims a BOOL.
    signatures = per_type(
        op, types, lambda t: ((t, I32T, BOOL), (t,)), ranks=((0, 1, 4), (1, 1, 1))
    )
    return with_constraints(signatures, same_quant(0, 0, tier=STRICT)) if forced else signatures


def _select() -> list[Signature]:
    # The variant is T, the type of inputs 1 and 2 (input 0 is always the BOOL8 condition).
    # No broadcasting, but shapes are not a type-level rule. Output quantization is free.
    return per_type(Op.SELECT, _FLOATS_I32_Q8, lambda t: ((B8, t, t), (t,)))


def _slice() -> list[Signature]:
    # Same params as the input: header only (not checked by the reference).
    return _same_as_input(
        Op.SLICE, _FLOATS_I32_Q8, lambda t: ((t, I32T, I32T), (t,)), ranks=((1, 1, 1), (2, 1, 1))
    )


def _split() -> list[Signature]:
    # One or more outputs of T (docs/vts-parity.md 4.3: "any number"; num_splits >= 1 outputs are
    # needed, and Android 10 checks the count against num_splits only at execution).
    # Every quantized output is forced to the input's params.
    return with_constraints(
        per_type(Op.SPLIT, _FLOATS_I32_Q8, lambda t: ((t, I32, I32), (t,)), repeat_output=0),
        outputs_same_quant(0),
    )


def _tile() -> list[Signature]:
    return _same_as_input(Op.TILE, _FLOATS_I32_Q8, lambda t: ((t, I32T), (t,)), ranks=((1, 1, 1),))


def _topk_v2() -> list[Signature]:
    # Values keep the input's params (header "should"; the reference copies bytes unchecked).
    return _same_as_input(Op.TOPK_V2, _FLOATS_I32_Q8, lambda t: ((t, I32), (t, I32T)))


# ---------------------------------------------------------------------------
# Image operations
# ---------------------------------------------------------------------------

_RANK4 = (0, 4, 4)
_CONV_RANKS = ((0, 4, 4), (1, 4, 4), (2, 1, 1))


def _conv_operand_types(t: int) -> tuple[int, int, int]:
    """(input, filter, bias) for a conv-like variant; Q8C is Q8A data with a per-channel filter."""
    if t == Q8C:
        return Q8A, Q8C, I32T
    if t == Q8A:
        return Q8A, Q8A, I32T
    return t, t, t


_CONV_VARIANTS = {F32: V1_2, F16: V1_2, Q8A: V1_2, Q8C: V1_2}


def _conv_like(
    op: Op, explicit: Types, implicit: Types, implicit_ranks: tuple = ()
) -> list[Signature]:
    """Both padding forms of GROUPED_CONV_2D / TRANSPOSE_CONV_2D.

    ``explicit``/``implicit`` are the inputs after (input, filter, bias), ending
    with the mandatory layout BOOL; ``implicit_ranks`` adds rank limits of the
    implicit form's own tensors.
    """

    def form(tail: Types):
        def make(t: int) -> Make:
            x, w, b = _conv_operand_types(t)
            return (x, w, b, *tail), (x,)

        return make

    signatures = per_type(
        op, _CONV_VARIANTS, form(explicit), form="explicit", ranks=_CONV_RANKS
    ) + per_type(
        op, _CONV_VARIANTS, form(implicit), form="implicit", ranks=_CONV_RANKS + implicit_ranks
    )
    return with_constraints(
        signatures,
        channel_dim(1, 0),  # parity: Android 10's validator rejects another channelDim
        bias_scale(),  # strict: the reference checks it at execution (Q8A filters only)
    )


def _grouped_conv_2d() -> list[Signature]:
    # Explicit: 4 pads, 2 strides, groups, activation, layout (12 inputs).
    # Implicit: padding scheme, 2 strides, groups, activation, layout (9 inputs).
    # The layout BOOL is mandatory in both. Output quantization is free.
    return _conv_like(Op.GROUPED_CONV_2D, (*(I32,) * 8, BOOL), (*(I32,) * 5, BOOL))


def _transpose_conv_2d() -> list[Signature]:
    # Explicit: 4 pads, 2 strides, activation, layout (11 inputs).
    # Implicit: output shape tensor, padding scheme, 2 strides, activation, layout (9 inputs).
    # The output shape is a [4] TENSOR_INT32.
    return _conv_like(
        Op.TRANSPOSE_CONV_2D, (*(I32,) * 7, BOOL), (I32T, *(I32,) * 4, BOOL), ((3, 1, 1),)
    )


def _instance_normalization() -> list[Signature]:
    # The doc says n-D; the Android 10 reference requires rank 4 (docs/operations.md,
    # INSTANCE_NORMALIZATION (57)).
    def make(t: int) -> Make:
        f = fscalar(t)
        return (t, f, f, f, BOOL), (t,)

    return per_type(Op.INSTANCE_NORMALIZATION, _FLOATS, make, ranks=(_RANK4,))


def _resize_nearest_neighbor() -> list[Signature]:
    # The layout BOOL is required: exactly 4 inputs (docs/operations.md,
    # RESIZE_NEAREST_NEIGHBOR (94); docs/vts-parity.md 4.3 agrees). Since 1.3 the
    # optional align_corners and half_pixel_centers BOOLs follow (not both true: strict).
    by_shape = per_type(
        Op.RESIZE_NEAREST_NEIGHBOR,
        _FLOATS_Q8,
        lambda t: ((t, I32, I32, BOOL), (t,)),
        form="shape",
        ranks=(_RANK4,),
    )
    by_scale = per_type(
        Op.RESIZE_NEAREST_NEIGHBOR,
        _FLOATS_Q8,
        lambda t: ((t, fscalar(t), fscalar(t), BOOL), (t,)),
        form="scale",
        ranks=(_RANK4,),
    )
    return with_constraints(
        optional_tail(
            by_shape + by_scale,
            ((BOOL,), V1_3, "align_corners"),
            ((BOOL,), V1_3, "half_pixel_centers"),
        ),
        same_quant(0, 0, tier=STRICT),
        not_both_true(4, 5, "align_corners and half_pixel_centers"),
    )


# ---------------------------------------------------------------------------
# Detection operations: boxes in Q16A (scale 0.125, zero point 0) with quantized data
# ---------------------------------------------------------------------------


def _boxes(t: int) -> int:
    return Q16A if t == Q8A else t


def _box_quant(slot: int, side: str = "input") -> Constraint:
    return fixed_quant(slot, _BOX_SCALE, _BOX_ZERO_POINT, side=side)


def _generate_proposals() -> list[Signature]:
    # Quant form: anchors Q16S (scale 0.125) and image info Q16A (0.125, 0). types.hal says
    # image info is Q16S; the Android 10 reference (whose validate() is the validator) and
    # CTS use Q16A (docs/operations.md, GENERATE_PROPOSALS (52)), so only Q16A is accepted.
    def make(t: int) -> Make:
        anchors, info = (Q16S, Q16A) if t == Q8A else (t, t)
        f = fscalar(t)
        inputs = (t, t, anchors, info, f, f, I32, I32, f, f, BOOL)
        return inputs, (t, _boxes(t), I32T)

    return with_constraints(
        per_type(
            Op.GENERATE_PROPOSALS,
            _FLOATS_Q8,
            make,
            ranks=((0, 4, 4), (1, 4, 4), (2, 2, 2), (3, 2, 2)),
        ),
        same_quant(0, 0, tier=STRICT),  # scores keep input 0's params
        fixed_quant(2, 0.125, 0),  # anchors (Q16S)
        _box_quant(3),  # image info
        _box_quant(1, "output"),  # output rois
    )


def _heatmap_max_keypoint() -> list[Signature]:
    # Scores (output 0) have free quantization; keypoints (output 1) take the box type.
    def make(t: int) -> Make:
        return (t, _boxes(t), BOOL), (t, _boxes(t))

    return with_constraints(
        per_type(Op.HEATMAP_MAX_KEYPOINT, _FLOATS_Q8, make, ranks=((0, 4, 4), (1, 2, 2))),
        _box_quant(1),
        _box_quant(1, "output"),
    )


def _roi_align() -> list[Signature]:
    # Output quantization is free.
    def make(t: int) -> Make:
        f = fscalar(t)
        return (t, _boxes(t), I32T, I32, I32, f, f, I32, I32, BOOL), (t,)

    return with_constraints(
        per_type(Op.ROI_ALIGN, _FLOATS_Q8, make, ranks=((0, 4, 4), (1, 2, 2), (2, 1, 1))),
        _box_quant(1),
    )


def _roi_pooling() -> list[Signature]:
    # Output quantization forced = input (the reference checks it at execution).
    def make(t: int) -> Make:
        f = fscalar(t)
        return (t, _boxes(t), I32T, I32, I32, f, f, BOOL), (t,)

    return with_constraints(
        per_type(Op.ROI_POOLING, _FLOATS_Q8, make, ranks=((0, 4, 4), (1, 2, 2), (2, 1, 1))),
        _box_quant(1),
        same_quant(0, 0, tier=STRICT),
    )


# ---------------------------------------------------------------------------
# Recurrent and random operations
# ---------------------------------------------------------------------------

# UNIDIRECTIONAL_SEQUENCE_LSTM input slots
_CIFG = (1, 5, 12)  # input-to-input and recurrent-to-input weights, input gate bias
_PEEPHOLE = (9, 10, 11)
_PROJECTION = (16, 17)
_LAYER_NORM = (24, 25, 26, 27)
_LSTM_OPTIONAL = frozenset(_CIFG + _PEEPHOLE + _PROJECTION + _LAYER_NORM)


def _lstm_optional_sets() -> Constraint:
    """The reference's consistency rules on which optional LSTM inputs are omitted.

    CIFG omits 1, 5 and 12 together; peephole weights 9-11 come all or none
    (9 may be missing under CIFG); layer-norm weights 24-27 come all or none,
    and under CIFG 24 is missing (then 25-27 all or none). Only NO_VALUE
    operands are seen here; inputs given no value at execution are judged
    there.
    """

    def check(ctx: ConstraintContext) -> str | None:
        omitted = {
            slot
            for slot, operand in enumerate(ctx.inputs)
            if operand.lifetime == OperandLifeTime.NO_VALUE
        }

        def mixed(slots: tuple[int, ...]) -> bool:
            return 0 < len(omitted.intersection(slots)) < len(slots)

        if mixed(_CIFG):
            return f"inputs {_CIFG} (CIFG) must be omitted together or given together"
        cifg = set(_CIFG) <= omitted
        if mixed(_PEEPHOLE[1:]) or (not cifg and mixed(_PEEPHOLE)):
            return f"peephole inputs {_PEEPHOLE} must be omitted together or given together"
        if cifg and 9 not in omitted and 10 in omitted:
            return "input 9 (peephole) needs inputs 10 and 11"
        if cifg and 24 not in omitted:
            return "input 24 (input gate layer norm) must be omitted with CIFG"
        if mixed(_LAYER_NORM[1:]) or (not cifg and mixed(_LAYER_NORM)):
            return f"layer norm inputs {_LAYER_NORM} must be omitted together or given together"
        return None

    return Constraint("lstm_optional_sets", check, STRICT)


def _unidirectional_sequence_lstm() -> list[Signature]:
    # 28 inputs: x, 8 weight matrices, 3 peephole vectors, 4 biases, projection weights and
    # bias, output and cell state (20 tensors); activation, cell clip, projection clip,
    # time_major; 4 layer-norm weight vectors. One output in 1.2; since 1.3 three, the
    # output then the final output state and cell state (both or neither).
    def make(n_out: int):
        def tensors(t: int) -> Make:
            f = fscalar(t)
            return ((t,) * 20 + (I32, f, f, BOOL) + (t,) * 4), (t,) * n_out

        return tensors

    matrices = (1, 2, 3, 4, 5, 6, 7, 8, 16, 18, 19)
    vectors = (9, 10, 11, 12, 13, 14, 15, 17, 24, 25, 26, 27)
    ranks = ((0, 3, 3), *((s, 2, 2) for s in matrices), *((s, 1, 1) for s in vectors))
    signatures = []
    for n_out, types, form in ((1, _FLOATS, ""), (3, _FLOATS_1_3, "states")):
        signatures += per_type(
            Op.UNIDIRECTIONAL_SEQUENCE_LSTM,
            types,
            make(n_out),
            form=form,
            omittable=_LSTM_OPTIONAL,
            ranks=tuple(sorted(ranks)),
        )
    return with_constraints(signatures, _lstm_optional_sets())


def _unidirectional_sequence_rnn() -> list[Signature]:
    # x, weights, recurrent weights, bias, hidden state; activation; time_major as INT32.
    # One output; since 1.3 a second, the final hidden state.
    ranks = ((0, 3, 3), (1, 2, 2), (2, 2, 2), (3, 1, 1), (4, 2, 2))
    return [
        *per_type(
            Op.UNIDIRECTIONAL_SEQUENCE_RNN,
            _FLOATS,
            lambda t: ((t, t, t, t, t, I32, I32), (t,)),
            ranks=ranks,
        ),
        *per_type(
            Op.UNIDIRECTIONAL_SEQUENCE_RNN,
            _FLOATS_1_3,
            lambda t: ((t, t, t, t, t, I32, I32), (t, t)),
            form="state",
            ranks=ranks,
        ),
    ]


_Q_ACTIVATION = (1.0 / 128.0, 128)  # x_t, h_{t-1}, h_t: range [-1, 127/128]
_Q_CELL_SCALE = 2.0**-11  # Q4.11 cell state


def _quantized_16bit_lstm() -> list[Signature]:
    # 15 inputs: x (Q8A), 8 weight matrices (Q8A), 4 gate biases (TENSOR_INT32), previous cell
    # state (Q16S), previous output (Q8A); outputs: cell state (Q16S), output (Q8A).
    # The fixed quantizations are checked by the reference when preparing (strict).
    inputs = (Q8A,) * 9 + (I32T,) * 4 + (Q16S, Q8A)
    ranks = tuple((s, 2, 2) for s in range(9)) + tuple((s, 1, 1) for s in range(9, 13))
    scale, zero_point = _Q_ACTIVATION
    return with_constraints(
        [
            Signature(
                Op.QUANTIZED_16BIT_LSTM,
                Q8A,
                inputs,
                (Q16S, Q8A),
                V1_2,
                ranks=(*ranks, (13, 2, 2), (14, 2, 2)),
            )
        ],
        fixed_quant(0, scale, zero_point),
        inputs_share_quant(range(1, 9)),
        *(bias_scale(0, 1, slot) for slot in range(9, 13)),  # = weights scale / 128, zp 0
        # The reference accepts a power-of-two scale whose log2 is within 1e-3 of -11.
        fixed_quant(13, _Q_CELL_SCALE, 0, rel_tol=7e-4),
        fixed_quant(14, scale, zero_point),
        same_quant(13, 0, tier=STRICT),
        fixed_quant(0, _Q_CELL_SCALE, 0, side="output", rel_tol=7e-4),
        fixed_quant(1, scale, zero_point, side="output"),
    )


def _random_multinomial() -> list[Signature]:
    # logits [batches, classes]; num_samples; seeds [2]. All three inputs required.
    return per_type(
        Op.RANDOM_MULTINOMIAL,
        _FLOATS,
        lambda t: ((t, I32, I32T), (I32T,)),
        ranks=((0, 2, 2), (2, 1, 1)),
    )


def _quantize() -> list[Signature]:
    # The output's params define the quantization (free).
    return per_type(Op.QUANTIZE, _FLOATS, lambda t: ((t,), (Q8A,)))


_COMPARISONS = (Op.EQUAL, Op.GREATER, Op.GREATER_EQUAL, Op.LESS, Op.LESS_EQUAL, Op.NOT_EQUAL)
_FLOAT_UNARY = (Op.EXP, Op.LOG, Op.RSQRT, Op.SIN, Op.SQRT)


def _entries() -> dict[Op, OperationInfo]:
    table = {op: per_type(op, _COMPARABLE, _compare) for op in _COMPARISONS}
    table |= {op: per_type(op, _FLOATS, _unary) for op in _FLOAT_UNARY}
    table |= {
        Op.EXPAND_DIMS: _expand_dims(),
        Op.GATHER: _gather(),
        Op.GENERATE_PROPOSALS: _generate_proposals(),
        Op.GROUPED_CONV_2D: _grouped_conv_2d(),
        Op.HEATMAP_MAX_KEYPOINT: _heatmap_max_keypoint(),
        Op.INSTANCE_NORMALIZATION: _instance_normalization(),
        Op.LOGICAL_AND: per_type(Op.LOGICAL_AND, _BOOL8, _binary),
        Op.LOGICAL_NOT: per_type(Op.LOGICAL_NOT, _BOOL8, _unary),
        Op.LOGICAL_OR: per_type(Op.LOGICAL_OR, _BOOL8, _binary),
        Op.LOG_SOFTMAX: _log_softmax(),
        # Output quantization free: each input is requantized into the output's params.
        Op.MAXIMUM: per_type(Op.MAXIMUM, _FLOATS_I32_Q8, _binary),
        Op.MINIMUM: per_type(Op.MINIMUM, _FLOATS_I32_Q8, _binary),
        Op.NEG: per_type(Op.NEG, {F16: V1_2, F32: V1_2, I32T: V1_2}, _unary),
        Op.PAD_V2: _pad_v2(),
        Op.POW: per_type(Op.POW, _FLOATS, _binary),
        Op.PRELU: per_type(Op.PRELU, _FLOATS_Q8, _binary),  # alpha and output params free
        Op.QUANTIZE: _quantize(),
        Op.QUANTIZED_16BIT_LSTM: _quantized_16bit_lstm(),
        Op.RANDOM_MULTINOMIAL: _random_multinomial(),
        Op.REDUCE_ALL: _reduce(Op.REDUCE_ALL, _BOOL8),
        Op.REDUCE_ANY: _reduce(Op.REDUCE_ANY, _BOOL8),
        Op.REDUCE_MAX: _reduce(Op.REDUCE_MAX, _FLOATS_Q8, forced=True),
        Op.REDUCE_MIN: _reduce(Op.REDUCE_MIN, _FLOATS_Q8, forced=True),
        Op.REDUCE_PROD: _reduce(Op.REDUCE_PROD, _FLOATS),
        Op.REDUCE_SUM: _reduce(Op.REDUCE_SUM, _FLOATS),
        Op.ROI_ALIGN: _roi_align(),
        Op.ROI_POOLING: _roi_pooling(),
        Op.SELECT: _select(),
        Op.SLICE: _slice(),
        Op.SPLIT: _split(),
        Op.TILE: _tile(),
        Op.TOPK_V2: _topk_v2(),
        Op.TRANSPOSE_CONV_2D: _transpose_conv_2d(),
        Op.UNIDIRECTIONAL_SEQUENCE_LSTM: _unidirectional_sequence_lstm(),
        Op.UNIDIRECTIONAL_SEQUENCE_RNN: _unidirectional_sequence_rnn(),
        Op.RESIZE_NEAREST_NEIGHBOR: _resize_nearest_neighbor(),
    }
    entries = {op: entry(op, V1_2, table[op]) for op in sorted(table)}
    return {op: with_signed_forms(info) if op in _SIGNED else info for op, info in entries.items()}


_SIGNED = frozenset(
    {
        *_COMPARISONS,
        Op.EXPAND_DIMS,
        Op.GATHER,
        Op.GENERATE_PROPOSALS,
        Op.GROUPED_CONV_2D,
        Op.HEATMAP_MAX_KEYPOINT,
        Op.MAXIMUM,
        Op.MINIMUM,
        Op.PAD_V2,
        Op.PRELU,
        Op.QUANTIZE,
        Op.REDUCE_MAX,
        Op.REDUCE_MIN,
        Op.ROI_ALIGN,
        Op.ROI_POOLING,
        Op.SELECT,
        Op.SLICE,
        Op.SPLIT,
        Op.TILE,
        Op.TOPK_V2,
        Op.TRANSPOSE_CONV_2D,
        Op.RESIZE_NEAREST_NEIGHBOR,
    }
)
"""The operations whose TENSOR_QUANT8_ASYMM forms gain a signed twin at 1.3."""


ENTRIES = _entries()
# OEM operations are the vendor's business: the validator accepts them without checks.
ENTRIES[Op.OEM_OPERATION] = entry(Op.OEM_OPERATION, V1_0)
