"""Catalog data for operations 0-47 (ADD ... DETECTION_POSTPROCESSING).

Source: the HAL 1.2 operation definitions and Android 10's validator. Each
entry lists every accepted form with its first HAL version: the version
Android 10's validator accepts it at (where the HAL documentation names a
later one, a strict ``documented_since`` rule keeps the documented version).

Tiers of the constraints: parity for what Android 10's validator rejects
(``validateOperation``), strict for what only its CPU reference rejects at
execution or only the documentation states. Shared conventions:

* Quantized outputs of data-movement operations carry the input's scale and
  zero point (the CPU reference fails the execution otherwise): strict.
* Operations with fixed quantized outputs (LOGISTIC, SOFTMAX, TANH,
  L2_NORMALIZATION, HASHTABLE_LOOKUP's hits, box coordinates) check them
  strictly too.
* ``ranks`` give the limits of the newest version; limits that differ in
  older versions are ``known_rank_in`` constraints.

HAL 1.3 (source: the HAL 1.3 operation definitions and Android 11's validator)
adds, all ``since`` V1_3: the TENSOR_QUANT8_ASYMM_SIGNED twin of every
TENSOR_QUANT8_ASYMM form of the operations in ``_SIGNED`` (``with_signed_forms``;
fixed output quantizations move their zero point by -128), TENSOR_INT32 forms of
ADD, MUL, SUB, DIV and ABS (activation NONE: strict), RESIZE_BILINEAR's optional
align_corners and half_pixel_centers BOOLs, the state outputs of the bidirectional
sequence operations and their parallel linking, CAST's identity forms and
EMBEDDING_LOOKUP's TENSOR_FLOAT16 values.
"""

from __future__ import annotations

from dataclasses import replace

from hal.catalog.build import (
    B8,
    BOOL,
    F16,
    F32,
    I32,
    I32T,
    Q8A,
    Q8AS,
    Q8C,
    Q8S,
    Q16A,
    Q16S,
    V1_0,
    V1_1,
    V1_2,
    V1_3,
    activation_none,
    all_inputs_same_quant_as_output,
    bias_scale,
    channel_dim,
    documented_since,
    entry,
    fixed_quant,
    fscalar,
    known_rank_in,
    linked_aux,
    not_both_true,
    optional_tail,
    output_scale_exceeds_product,
    per_type,
    same_quant,
    with_constraints,
    with_signed_forms,
    zero_point_zero,
)
from hal.forms import PARITY, STRICT, Constraint, ConstraintContext, Signature
from hal.types import OperandLifeTime, describe_type
from hal.types import OperationType as Op

Types = tuple[int, ...]

_ARITH = {F32: V1_0, Q8A: V1_0, F16: V1_2}
_FLOATS = {F32: V1_0, F16: V1_2}
_V1_1_ARITH = {F32: V1_1, Q8A: V1_1, F16: V1_2}
_V1_2_ALL = {F32: V1_2, F16: V1_2, Q8A: V1_2}

_LAYOUT = ((BOOL,), V1_2, "layout")
_DILATION = ((I32, I32), V1_2, "dilation")
_AXIS = ((I32,), V1_2, "axis")


def _upto4(*slots: int) -> tuple[tuple[int, int, int], ...]:
    """Rank 1 to 4 for each slot ("rank <= 4" in the documentation)."""
    return tuple((slot, 1, 4) for slot in slots)


def _exact(rank: int, *slots: int) -> tuple[tuple[int, int, int], ...]:
    return tuple((slot, rank, rank) for slot in slots)


def _unary(t: int) -> tuple[Types, Types]:
    return (t,), (t,)


def _binary(t: int) -> tuple[Types, Types]:
    return (t, t, I32), (t,)


def _conv_types(t: int) -> tuple[int, int]:
    """(filter, bias) types for a CONV-like input type."""
    return (t, I32T) if t == Q8A else (t, t)


# ---------------------------------------------------------------------------
# Convolutions and pooling
# ---------------------------------------------------------------------------


def _conv_2d_scale_quirk(ctx: ConstraintContext) -> str | None:
    """Android 10's CONV_2D validator: "output" scale > input x filter scale, before 1.2.

    It reads the "output" scale from input 0 (an implementation quirk), so it
    really demands input scale > input scale x filter scale.
    """
    x, w = ctx.inputs[0], ctx.inputs[1]
    if x.type == Q8A and w.type == Q8A and not x.scale > x.scale * w.scale:
        return (
            f"input 0 scale {x.scale} must exceed input 0 scale x filter scale = "
            f"{x.scale * w.scale} (Android 10 compares input 0 where the HAL says output)"
        )
    return None


def _scale_rules(op: Op) -> tuple[Constraint, ...]:
    """The pre-1.2 rule output scale > input scale x filter scale.

    Android 10's validator enforces it as documented for DEPTHWISE_CONV_2D and
    FULLY_CONNECTED (parity); for CONV_2D it checks the quirky form instead
    (parity) and the documented form is strict.
    """
    documented = output_scale_exceeds_product(0, 1, before=V1_2)
    if op != Op.CONV_2D:
        return (documented,)
    quirk = Constraint("conv_2d_scale_quirk", _conv_2d_scale_quirk, PARITY, V1_2)
    return quirk, replace(documented, tier=STRICT)


def _conv_like(op: Op, n_implicit: int, n_explicit: int, channel_rule: Constraint) -> list:
    """CONV_2D / DEPTHWISE_CONV_2D: (input, filter, bias, n scalars) -> output.

    Implicit and explicit padding forms, each with the optional layout BOOL
    then dilation pair (1.2), plus per-channel filter forms (1.2).
    """

    def plain(n_scalars):
        def make(t):
            f, b = _conv_types(t)
            return (t, f, b, *(I32,) * n_scalars), (t,)

        return make

    def per_channel(n_scalars):
        return lambda t: ((Q8A, Q8C, I32T, *(I32,) * n_scalars), (Q8A,))

    ranks = ((0, 4, 4), (1, 4, 4), (2, 1, 1))
    forms = []
    for form, n in (("implicit", n_implicit), ("explicit", n_explicit)):
        forms += per_type(op, _ARITH, plain(n), form=form, ranks=ranks)
        forms += per_type(op, {Q8C: V1_2}, per_channel(n), form=form, ranks=ranks)
    return with_constraints(
        optional_tail(forms, _LAYOUT, _DILATION),
        *_scale_rules(op),
        bias_scale(),
        channel_rule,
    )


def _pool(op: Op, types: dict[int, object]) -> list:
    """Pools: implicit (padding code, strides, filter, act) or explicit (4 pads ...)."""
    implicit = per_type(
        op, types, lambda t: ((t, *(I32,) * 6), (t,)), form="implicit", ranks=_exact(4, 0)
    )
    explicit = per_type(
        op, types, lambda t: ((t, *(I32,) * 9), (t,)), form="explicit", ranks=_exact(4, 0)
    )
    return optional_tail(implicit + explicit, _LAYOUT)


def _fully_connected() -> list:
    def make(t):
        w, b = _conv_types(t)
        return (t, w, b, I32), (t,)

    return with_constraints(
        per_type(Op.FULLY_CONNECTED, _ARITH, make, ranks=((0, 2, 4), (1, 2, 2), (2, 1, 1))),
        *_scale_rules(Op.FULLY_CONNECTED),
        bias_scale(),
    )


# ---------------------------------------------------------------------------
# Data movement and element-wise operations
# ---------------------------------------------------------------------------


def _int32_arithmetic(op: Op) -> list:
    """ADD, MUL, SUB, DIV on TENSOR_INT32 (1.3): the activation must be NONE (strict)."""
    return with_constraints(
        per_type(op, {I32T: V1_3}, _binary, ranks=_upto4(0, 1)), activation_none(2)
    )


def _moving(op: Op, types: dict, make, ranks, *tails, extra: tuple[Constraint, ...] = ()) -> list:
    """A data-movement operation: quantized output params = input 0's (strict)."""
    base = per_type(op, types, make, ranks=ranks)
    return with_constraints(optional_tail(base, *tails), same_quant(), *extra)


def _concatenation() -> list:
    # Tensors repeat (at least one), the INT32 axis comes last. Before 1.2 the
    # validator requires every quantized input to share the output's params.
    return with_constraints(
        per_type(
            Op.CONCATENATION,
            _ARITH,
            lambda t: ((t, I32), (t,)),
            repeat_input=0,
            ranks=_upto4(0),
        ),
        all_inputs_same_quant_as_output(before=V1_2),
    )


def _dequantize() -> list:
    # Q8A -> F32 since 1.0; every other (Q8A, Q8S, Q8C) -> (F32, F16) pair 1.2.
    signatures = []
    for source in (Q8A, Q8S, Q8C):
        for target in (F32, F16):
            since = V1_0 if (source, target) == (Q8A, F32) else V1_2
            signatures += per_type(
                Op.DEQUANTIZE,
                {source: since},
                lambda t, target=target: ((t,), (target,)),
                form=f"to {describe_type(target)}",
                ranks=_upto4(0),
            )
    return signatures


def _cast() -> list:
    # Any of F16, F32, I32, Q8A to any of them (quantization params ignored); since 1.3
    # also the identity casts of B8, Q16A, Q16S, Q8AS and Q8S (I32 to I32 is a 1.2 form).
    types = (F16, F32, I32T, Q8A)
    convert = [
        Signature(Op.CAST, source, (source,), (target,), V1_2, form=f"to {describe_type(target)}")
        for source in types
        for target in types
    ]
    identity = [
        Signature(Op.CAST, t, (t,), (t,), V1_3, form=f"to {describe_type(t)}")
        for t in (B8, Q16A, Q16S, Q8AS, Q8S)
    ]
    return convert + identity


_ALIGN_CORNERS = ((BOOL,), V1_3, "align_corners")
_HALF_PIXEL = ((BOOL,), V1_3, "half_pixel_centers")


def _resize_bilinear() -> list:
    # By output size (INT32 pair, 1.0) or by scale (float pair, 1.2: FLOAT16
    # for F16, FLOAT32 for F32 and Q8A); then the optional layout (1.2), then
    # align_corners and half_pixel_centers (1.3; not both true, strict).
    types = {F32: V1_0, F16: V1_2, Q8A: V1_2}
    by_shape = per_type(
        Op.RESIZE_BILINEAR,
        types,
        lambda t: ((t, I32, I32), (t,)),
        form="shape",
        ranks=_exact(4, 0),
    )
    by_scale = per_type(
        Op.RESIZE_BILINEAR,
        {t: V1_2 for t in types},
        lambda t: ((t, fscalar(t), fscalar(t)), (t,)),
        form="scale",
        ranks=_exact(4, 0),
    )
    return with_constraints(
        optional_tail(by_shape + by_scale, _LAYOUT, _ALIGN_CORNERS, _HALF_PIXEL),
        same_quant(),
        not_both_true(4, 5, "align_corners and half_pixel_centers"),
    )


def _softmax() -> list:
    # Beta is FLOAT32 for F32 and Q8A, FLOAT16 for F16. Without the axis the
    # 1.0/1.1 validator takes ranks 2 and 4 only.
    base = per_type(Op.SOFTMAX, _ARITH, lambda t: ((t, fscalar(t)), (t,)), ranks=_upto4(0))
    return with_constraints(
        optional_tail(base, _AXIS),
        known_rank_in(0, (2, 4), before=V1_2),
        fixed_quant(0, 1 / 256, 0, side="output"),
    )


def _l2_normalization() -> list:
    # Ranks other than 4 and the axis input need 1.2 (validator).
    base = per_type(Op.L2_NORMALIZATION, {F32: V1_0, F16: V1_2, Q8A: V1_2}, _unary, ranks=_upto4(0))
    return with_constraints(
        optional_tail(base, _AXIS),
        known_rank_in(0, (4,), before=V1_2),
        fixed_quant(0, 1 / 128, 128, side="output"),
    )


def _local_response_normalization() -> list:
    def make(t):
        f = fscalar(t)
        return (t, I32, f, f, f), (t,)

    base = per_type(Op.LOCAL_RESPONSE_NORMALIZATION, _FLOATS, make, ranks=_upto4(0))
    return with_constraints(optional_tail(base, _AXIS), known_rank_in(0, (4,), before=V1_2))


# ---------------------------------------------------------------------------
# Lookups and hashing
# ---------------------------------------------------------------------------


def _embedding_lookup() -> list:
    # The values (input 1) set the variant. I32 and Q8A values: documented from
    # 1.2, accepted by Android 10's validator at any version (docs/operations.md,
    # EMBEDDING_LOOKUP (7)). F16 values: 1.3.
    def make(t):
        return (I32T, t), (t,)

    ranks = _exact(1, 0)
    f32 = per_type(Op.EMBEDDING_LOOKUP, {F32: V1_0, F16: V1_3}, make, ranks=ranks)
    later = with_constraints(
        per_type(Op.EMBEDDING_LOOKUP, {I32T: V1_0, Q8A: V1_0}, make, ranks=ranks),
        documented_since(V1_2, "EMBEDDING_LOOKUP with TENSOR_INT32 or QUANT8_ASYMM values"),
    )
    return with_constraints(f32 + later, same_quant(1, 0))


def _hashtable_lookup() -> list:
    # Values (input 2) set the variant; output 1 (hits) is Q8A with scale 1, zero point 0.
    return with_constraints(
        per_type(
            Op.HASHTABLE_LOOKUP,
            {F32: V1_0, I32T: V1_0, Q8A: V1_0},
            lambda t: ((I32T, I32T, t), (t, Q8A)),
            ranks=_exact(1, 0, 1),
        ),
        same_quant(2, 0),
        fixed_quant(1, 1.0, 0, side="output"),
    )


def _lsh_projection() -> list:
    # Hash (input 0, the variant) and weight share F32 (1.0) or F16 (1.2);
    # input 1 may be F32, I32, Q8A or F16; the weight (input 2) is optional.
    # Android 10's validator gates only the hash type, but a TENSOR_FLOAT16
    # operand needs 1.2 anyway, so an F16 input 1 is 1.2 as documented.
    return [
        Signature(
            Op.LSH_PROJECTION,
            hash_type,
            (hash_type, input_type, hash_type, I32),
            (I32T,),
            V1_2 if F16 in (hash_type, input_type) else V1_0,
            form=f"input {describe_type(input_type)}",
            omittable=frozenset({2}),
            ranks=((0, 2, 2), (2, 1, 1)),
        )
        for hash_type in (F32, F16)
        for input_type in (F32, I32T, Q8A, F16)
    ]


# ---------------------------------------------------------------------------
# Recurrent networks
# ---------------------------------------------------------------------------

# LSTM cell inputs 1-17, relative to the cell's first weight (input 1 of LSTM).
_LSTM_OPTIONAL = (1, 5, 9, 10, 11, 12, 16, 17)
_LSTM_RANK2 = (1, 2, 3, 4, 5, 6, 7, 8, 16)
_LSTM_RANK1 = (9, 10, 11, 12, 13, 14, 15, 17)


def _lstm_groups(first: int, layer_norm: tuple[int, ...] = ()) -> Constraint:
    """The optional-group rules of one LSTM cell (docs/operations.md, LSTM (16)).

    ``first`` is the slot of the cell's input-to-input weights (LSTM input 1);
    ``layer_norm`` the slots of its four layer-norm weights, if the form has
    them. CIFG: input-to-input and recurrent-to-input weights absent together,
    and then the input gate bias is absent too (present otherwise); peephole:
    cell-to-forget and cell-to-output together, cell-to-input with them unless
    CIFG; projection bias only with projection weights; layer norm: none, or
    forget/cell/output plus input unless CIFG. The Android 10 CPU reference
    checks these when preparing the execution, so the rule is strict.
    """

    def slot(k: int) -> int:
        return first + k - 1

    def check(ctx: ConstraintContext) -> str | None:
        def present(s: int) -> bool:
            return ctx.inputs[s].lifetime != OperandLifeTime.NO_VALUE

        def has(k: int) -> bool:
            return present(slot(k))

        if has(1) != has(5):
            return f"inputs {slot(1)} and {slot(5)} (CIFG) must be omitted together"
        cifg = not has(1)
        if has(12) == cifg:
            return f"input {slot(12)} (input gate bias) must be {'absent' if cifg else 'present'}"
        if has(10) != has(11):
            return f"inputs {slot(10)} and {slot(11)} (peephole) must be omitted together"
        if has(9) != (has(10) and not cifg):
            return f"input {slot(9)} (cell-to-input weights) contradicts the peephole/CIFG choice"
        if has(17) and not has(16):
            return f"input {slot(17)} (projection bias) needs input {slot(16)} (projection weights)"
        if any(present(s) for s in layer_norm):
            ln_i, *rest = layer_norm
            if not all(present(s) for s in rest) or present(ln_i) == cifg:
                return f"layer-norm weights {list(layer_norm)} are incomplete for this cell"
        return None

    return Constraint(f"lstm_optional_groups(in{first})", check, STRICT)


def _lstm() -> list:
    # 23 inputs (1.0) or 27 with layer-norm weights (1.2); F16 needs 1.2.
    def make(n_layer_norm):
        return lambda t: ((*(t,) * 20, I32, fscalar(t), fscalar(t), *(t,) * n_layer_norm), (t,) * 4)

    ranks = _exact(2, 0, *_LSTM_RANK2, 18, 19) + _exact(1, *_LSTM_RANK1)
    plain = with_constraints(
        per_type(Op.LSTM, _FLOATS, make(0), ranks=ranks, omittable=frozenset(_LSTM_OPTIONAL)),
        _lstm_groups(1),
    )
    layer_norm = with_constraints(
        per_type(
            Op.LSTM,
            {F32: V1_2, F16: V1_2},
            make(4),
            form="layer_norm",
            ranks=ranks + _exact(1, 23, 24, 25, 26),
            omittable=frozenset((*_LSTM_OPTIONAL, 23, 24, 25, 26)),
        ),
        _lstm_groups(1, (23, 24, 25, 26)),
    )
    return plain + layer_norm


def _sequence_outputs(states: int) -> tuple[tuple[int, str, object], ...]:
    """(output count, form, first version) of a bidirectional sequence operation: separate
    or merged outputs (1.2), then each with its ``states`` final-state outputs (1.3)."""
    return (
        (2, "separate outputs", V1_2),
        (1, "merged outputs", V1_2),
        (2 + states, "separate outputs+states", V1_3),
        (1 + states, "merged outputs+states", V1_3),
    )


_SEQUENCE_OUTPUTS_4 = _sequence_outputs(4)
_SEQUENCE_OUTPUTS_2 = _sequence_outputs(2)


def _bidirectional_lstm() -> list:
    # 61 inputs: input, forward cell 1-17, backward cell 18-34, states 35-38,
    # aux input 39 and aux weights 40-47, activation 48, clips 49-50, BOOLs
    # 51-52, layer-norm weights 53-60. One output if merged, else two; since 1.3
    # four more, the final states (forward h and c, backward h and c).
    def make(n_out):
        return lambda t: (
            (*(t,) * 48, I32, fscalar(t), fscalar(t), BOOL, BOOL, *(t,) * 8),
            (t,) * n_out,
        )

    bw = 17  # the backward cell's slots are the forward ones + 17
    optional = (
        *_LSTM_OPTIONAL,
        *(k + bw for k in _LSTM_OPTIONAL),
        *range(39, 48),
        *range(53, 61),
    )
    cell_ranks = _exact(2, *_LSTM_RANK2, *(k + bw for k in _LSTM_RANK2)) + _exact(
        1, *_LSTM_RANK1, *(k + bw for k in _LSTM_RANK1)
    )
    ranks = (
        _exact(3, 0, 39)
        + cell_ranks
        + _exact(2, 35, 36, 37, 38, *range(40, 48))
        + _exact(1, *range(53, 61))
    )
    signatures = []
    for n_out, form, since in _SEQUENCE_OUTPUTS_4:
        signatures += per_type(
            Op.BIDIRECTIONAL_SEQUENCE_LSTM,
            {F32: since, F16: since},
            make(n_out),
            form=form,
            ranks=ranks,
            omittable=frozenset(optional),
        )
    return with_constraints(
        signatures,
        _lstm_groups(1, (53, 54, 55, 56)),
        _lstm_groups(18, (57, 58, 59, 60)),
        # Aux input with the forget/cell/output aux weights of both directions (or,
        # since 1.3, alone: parallel linking).
        linked_aux(39, (41, 42, 43, 45, 46, 47)),
    )


def _bidirectional_rnn() -> list:
    # 15 inputs (12 tensors, activation, timeMajor, mergeOutputs); aux input
    # and aux weights (9-11) are optional, all together (since 1.3 the aux input
    # may come alone). 1 output if merged; since 1.3 two more, the final forward
    # and backward hidden states.
    signatures = []
    for n_out, form, since in _SEQUENCE_OUTPUTS_2:
        signatures += per_type(
            Op.BIDIRECTIONAL_SEQUENCE_RNN,
            {F32: since, F16: since},
            lambda t, n_out=n_out: ((*(t,) * 12, I32, BOOL, BOOL), (t,) * n_out),
            form=form,
            ranks=_exact(3, 0, 9) + _exact(2, 1, 2, 4, 5, 6, 8, 10, 11) + _exact(1, 3, 7),
            omittable=frozenset({9, 10, 11}),
        )
    return with_constraints(signatures, linked_aux(9, (10, 11)))


# ---------------------------------------------------------------------------
# Detection
# ---------------------------------------------------------------------------

_BOX_QUANT = (0.125, 0)  # TENSOR_QUANT16_ASYMM box coordinates


def _axis_aligned_bbox_transform() -> list:
    # Rois, deltas, image sizes of the primary type T; Q16A rois take Q8A deltas.
    def make(t):
        deltas = Q8A if t == Q16A else t
        return (t, deltas, I32T, t), (t,)

    return with_constraints(
        per_type(
            Op.AXIS_ALIGNED_BBOX_TRANSFORM,
            {F32: V1_2, F16: V1_2, Q16A: V1_2},
            make,
            ranks=((0, 2, 2), (1, 2, 2), (2, 1, 1), (3, 2, 2)),
        ),
        # The CPU reference checks the rois' and image sizes' params when preparing.
        fixed_quant(0, *_BOX_QUANT),
        fixed_quant(3, *_BOX_QUANT),
        fixed_quant(0, *_BOX_QUANT, side="output"),
    )


def _box_with_nms_limit() -> list:
    # Scalars 3, 6, 7, 8 are FLOAT16 for F16 (validator and tests; the doc
    # text says FLOAT32), FLOAT32 for F32 and Q8A. Q8A scores go with Q16A boxes.
    def make(t):
        f = fscalar(t)
        boxes = Q16A if t == Q8A else t
        return (t, boxes, I32T, f, I32, I32, f, f, f), (t, boxes, I32T, I32T)

    return with_constraints(
        per_type(
            Op.BOX_WITH_NMS_LIMIT,
            {F32: V1_2, F16: V1_2, Q8A: V1_2},
            make,
            ranks=((0, 2, 2), (1, 2, 2), (2, 1, 1)),
        ),
        fixed_quant(1, *_BOX_QUANT),
        same_quant(0, 0),
        fixed_quant(1, *_BOX_QUANT, side="output"),
    )


def _detection_postprocessing() -> list:
    # Scalars 3-6, 11-12 are FLOAT16 for F16 (validator; the doc labels 3-6 FLOAT32).
    def make(t):
        f = fscalar(t)
        return (t, t, t, f, f, f, f, BOOL, I32, I32, I32, f, f, BOOL), (t, t, I32T, I32T)

    return per_type(
        Op.DETECTION_POSTPROCESSING,
        {F32: V1_2, F16: V1_2},
        make,
        ranks=((0, 3, 3), (1, 3, 3), (2, 2, 2)),
    )


# ---------------------------------------------------------------------------
# TRANSPOSE: the permutation may be omitted
# ---------------------------------------------------------------------------


def _omitted_perm_needs_rank_2(ctx: ConstraintContext) -> str | None:
    perm, data = ctx.inputs[1], ctx.inputs[0]
    rank = len(data.dimensions)
    if perm.lifetime == OperandLifeTime.NO_VALUE and rank and rank != 2:
        return (
            f"an omitted permutation needs a rank-2 input (Android 10 CPU), input 0 has rank {rank}"
        )
    return None


# The doc defines an omitted perm as "reverse the dimensions" for any rank;
# the Android 10 CPU reference implements it for rank 2 only (strict).
_TRANSPOSE_OMITTED_PERM = Constraint("omitted_perm_rank_2", _omitted_perm_needs_rank_2, STRICT)


_ENTRIES = {
    Op.ADD: entry(
        Op.ADD,
        V1_0,
        per_type(Op.ADD, _ARITH, _binary, ranks=_upto4(0, 1)),
        _int32_arithmetic(Op.ADD),
    ),
    Op.AVERAGE_POOL_2D: entry(
        Op.AVERAGE_POOL_2D, V1_0, with_constraints(_pool(Op.AVERAGE_POOL_2D, _ARITH), same_quant())
    ),
    Op.CONCATENATION: entry(Op.CONCATENATION, V1_0, _concatenation()),
    # CONV_2D: the validator requires a per-channel filter's channelDim to be 0.
    Op.CONV_2D: entry(Op.CONV_2D, V1_0, _conv_like(Op.CONV_2D, 4, 7, channel_dim(1, 0))),
    # DEPTHWISE_CONV_2D: channelDim 3 is documented only (Android 10 checks nothing).
    Op.DEPTHWISE_CONV_2D: entry(
        Op.DEPTHWISE_CONV_2D,
        V1_0,
        _conv_like(Op.DEPTHWISE_CONV_2D, 5, 8, channel_dim(1, 3, tier=STRICT)),
    ),
    Op.DEPTH_TO_SPACE: entry(
        Op.DEPTH_TO_SPACE,
        V1_0,
        _moving(Op.DEPTH_TO_SPACE, _ARITH, lambda t: ((t, I32), (t,)), _exact(4, 0), _LAYOUT),
    ),
    Op.DEQUANTIZE: entry(Op.DEQUANTIZE, V1_0, _dequantize()),
    Op.EMBEDDING_LOOKUP: entry(Op.EMBEDDING_LOOKUP, V1_0, _embedding_lookup()),
    Op.FLOOR: entry(Op.FLOOR, V1_0, per_type(Op.FLOOR, _FLOATS, _unary, ranks=_upto4(0))),
    Op.FULLY_CONNECTED: entry(Op.FULLY_CONNECTED, V1_0, _fully_connected()),
    Op.HASHTABLE_LOOKUP: entry(Op.HASHTABLE_LOOKUP, V1_0, _hashtable_lookup()),
    Op.L2_NORMALIZATION: entry(Op.L2_NORMALIZATION, V1_0, _l2_normalization()),
    Op.L2_POOL_2D: entry(Op.L2_POOL_2D, V1_0, _pool(Op.L2_POOL_2D, _FLOATS)),
    Op.LOCAL_RESPONSE_NORMALIZATION: entry(
        Op.LOCAL_RESPONSE_NORMALIZATION, V1_0, _local_response_normalization()
    ),
    Op.LOGISTIC: entry(
        Op.LOGISTIC,
        V1_0,
        with_constraints(
            per_type(Op.LOGISTIC, _ARITH, _unary, ranks=_upto4(0)),
            fixed_quant(0, 1 / 256, 0, side="output"),
        ),
    ),
    Op.LSH_PROJECTION: entry(Op.LSH_PROJECTION, V1_0, _lsh_projection()),
    Op.LSTM: entry(Op.LSTM, V1_0, _lstm()),
    Op.MAX_POOL_2D: entry(
        Op.MAX_POOL_2D, V1_0, with_constraints(_pool(Op.MAX_POOL_2D, _ARITH), same_quant())
    ),
    # MUL: output scale > product of the input scales in every version (validator).
    Op.MUL: entry(
        Op.MUL,
        V1_0,
        with_constraints(
            per_type(Op.MUL, _ARITH, _binary, ranks=_upto4(0, 1)),
            output_scale_exceeds_product(0, 1),
        ),
        _int32_arithmetic(Op.MUL),
    ),
    Op.RELU: entry(Op.RELU, V1_0, _moving(Op.RELU, _ARITH, _unary, _upto4(0))),
    Op.RELU1: entry(Op.RELU1, V1_0, _moving(Op.RELU1, _ARITH, _unary, _upto4(0))),
    Op.RELU6: entry(Op.RELU6, V1_0, _moving(Op.RELU6, _ARITH, _unary, _upto4(0))),
    Op.RESHAPE: entry(
        Op.RESHAPE,
        V1_0,
        _moving(Op.RESHAPE, _ARITH, lambda t: ((t, I32T), (t,)), _upto4(0) + _exact(1, 1)),
    ),
    Op.RESIZE_BILINEAR: entry(Op.RESIZE_BILINEAR, V1_0, _resize_bilinear()),
    Op.RNN: entry(
        Op.RNN,
        V1_0,
        per_type(
            Op.RNN,
            _FLOATS,
            lambda t: ((t, t, t, t, t, I32), (t, t)),
            ranks=_exact(2, 0, 1, 2, 4) + _exact(1, 3),
        ),
    ),
    Op.SOFTMAX: entry(Op.SOFTMAX, V1_0, _softmax()),
    Op.SPACE_TO_DEPTH: entry(
        Op.SPACE_TO_DEPTH,
        V1_0,
        _moving(Op.SPACE_TO_DEPTH, _ARITH, lambda t: ((t, I32), (t,)), _exact(4, 0), _LAYOUT),
    ),
    # SVDF: the bias (input 3) is optional.
    Op.SVDF: entry(
        Op.SVDF,
        V1_0,
        per_type(
            Op.SVDF,
            _FLOATS,
            lambda t: ((t, t, t, t, t, I32, I32), (t, t)),
            ranks=_exact(2, 0, 1, 2, 4) + _exact(1, 3),
            omittable=frozenset({3}),
        ),
    ),
    Op.TANH: entry(
        Op.TANH,
        V1_0,
        with_constraints(
            per_type(Op.TANH, {F32: V1_0, F16: V1_2, Q8A: V1_2}, _unary, ranks=_upto4(0)),
            fixed_quant(0, 1 / 128, 128, side="output"),
        ),
    ),
    # --- introduced in 1.1 ---
    Op.BATCH_TO_SPACE_ND: entry(
        Op.BATCH_TO_SPACE_ND,
        V1_1,
        _moving(
            Op.BATCH_TO_SPACE_ND,
            _V1_1_ARITH,
            lambda t: ((t, I32T), (t,)),
            _exact(4, 0) + _exact(1, 1),
            _LAYOUT,
        ),
    ),
    Op.DIV: entry(
        Op.DIV,
        V1_1,
        per_type(Op.DIV, {F32: V1_1, F16: V1_2}, _binary, ranks=_upto4(0, 1)),
        _int32_arithmetic(Op.DIV),
    ),
    Op.MEAN: entry(
        Op.MEAN,
        V1_1,
        _moving(Op.MEAN, _V1_1_ARITH, lambda t: ((t, I32T, I32), (t,)), _upto4(0) + _exact(1, 1)),
    ),
    # PAD, SPACE_TO_BATCH_ND: a Q8A input with a nonzero zero point needs 1.2 (validator).
    Op.PAD: entry(
        Op.PAD,
        V1_1,
        _moving(
            Op.PAD,
            _V1_1_ARITH,
            lambda t: ((t, I32T), (t,)),
            _upto4(0) + _exact(2, 1),
            extra=(zero_point_zero(0, before=V1_2),),
        ),
    ),
    Op.SPACE_TO_BATCH_ND: entry(
        Op.SPACE_TO_BATCH_ND,
        V1_1,
        _moving(
            Op.SPACE_TO_BATCH_ND,
            _V1_1_ARITH,
            lambda t: ((t, I32T, I32T), (t,)),
            _exact(4, 0) + _exact(1, 1) + _exact(2, 2),
            _LAYOUT,
            extra=(zero_point_zero(0, before=V1_2),),
        ),
    ),
    # SQUEEZE: the axes (input 1) may be omitted.
    Op.SQUEEZE: entry(
        Op.SQUEEZE,
        V1_1,
        with_constraints(
            per_type(
                Op.SQUEEZE,
                _V1_1_ARITH,
                lambda t: ((t, I32T), (t,)),
                ranks=_upto4(0) + _exact(1, 1),
                omittable=frozenset({1}),
            ),
            same_quant(),
        ),
    ),
    Op.STRIDED_SLICE: entry(
        Op.STRIDED_SLICE,
        V1_1,
        _moving(
            Op.STRIDED_SLICE,
            _V1_1_ARITH,
            lambda t: ((t, I32T, I32T, I32T, I32, I32, I32), (t,)),
            _upto4(0) + _exact(1, 1, 2, 3),
        ),
    ),
    Op.SUB: entry(
        Op.SUB,
        V1_1,
        per_type(Op.SUB, {F32: V1_1, F16: V1_2, Q8A: V1_2}, _binary, ranks=_upto4(0, 1)),
        _int32_arithmetic(Op.SUB),
    ),
    # TRANSPOSE: the permutation (input 1) may be omitted.
    Op.TRANSPOSE: entry(
        Op.TRANSPOSE,
        V1_1,
        with_constraints(
            per_type(
                Op.TRANSPOSE,
                _V1_1_ARITH,
                lambda t: ((t, I32T), (t,)),
                ranks=_upto4(0) + _exact(1, 1),
                omittable=frozenset({1}),
            ),
            same_quant(),
            _TRANSPOSE_OMITTED_PERM,
        ),
    ),
    # --- introduced in 1.2 ---
    Op.ABS: entry(Op.ABS, V1_2, per_type(Op.ABS, {F32: V1_2, F16: V1_2, I32T: V1_3}, _unary)),
    Op.ARGMAX: entry(
        Op.ARGMAX,
        V1_2,
        per_type(
            Op.ARGMAX, {F16: V1_2, F32: V1_2, I32T: V1_2, Q8A: V1_2}, lambda t: ((t, I32), (I32T,))
        ),
    ),
    Op.ARGMIN: entry(
        Op.ARGMIN,
        V1_2,
        per_type(
            Op.ARGMIN, {F16: V1_2, F32: V1_2, I32T: V1_2, Q8A: V1_2}, lambda t: ((t, I32), (I32T,))
        ),
    ),
    Op.AXIS_ALIGNED_BBOX_TRANSFORM: entry(
        Op.AXIS_ALIGNED_BBOX_TRANSFORM, V1_2, _axis_aligned_bbox_transform()
    ),
    Op.BIDIRECTIONAL_SEQUENCE_LSTM: entry(
        Op.BIDIRECTIONAL_SEQUENCE_LSTM, V1_2, _bidirectional_lstm()
    ),
    Op.BIDIRECTIONAL_SEQUENCE_RNN: entry(Op.BIDIRECTIONAL_SEQUENCE_RNN, V1_2, _bidirectional_rnn()),
    Op.BOX_WITH_NMS_LIMIT: entry(Op.BOX_WITH_NMS_LIMIT, V1_2, _box_with_nms_limit()),
    Op.CAST: entry(Op.CAST, V1_2, _cast()),
    Op.CHANNEL_SHUFFLE: entry(
        Op.CHANNEL_SHUFFLE,
        V1_2,
        _moving(Op.CHANNEL_SHUFFLE, _V1_2_ALL, lambda t: ((t, I32, I32), (t,)), _upto4(0)),
    ),
    Op.DETECTION_POSTPROCESSING: entry(
        Op.DETECTION_POSTPROCESSING, V1_2, _detection_postprocessing()
    ),
}


_SIGNED = frozenset(
    {
        Op.ADD,
        Op.AVERAGE_POOL_2D,
        Op.CONCATENATION,
        Op.CONV_2D,
        Op.DEPTHWISE_CONV_2D,
        Op.DEPTH_TO_SPACE,
        Op.DEQUANTIZE,
        Op.EMBEDDING_LOOKUP,
        Op.FULLY_CONNECTED,
        Op.L2_NORMALIZATION,
        Op.LOGISTIC,
        Op.MAX_POOL_2D,
        Op.MUL,
        Op.RELU,
        Op.RELU1,
        Op.RELU6,
        Op.RESHAPE,
        Op.RESIZE_BILINEAR,
        Op.SOFTMAX,
        Op.SPACE_TO_DEPTH,
        Op.TANH,
        Op.BATCH_TO_SPACE_ND,
        Op.MEAN,
        Op.PAD,
        Op.SPACE_TO_BATCH_ND,
        Op.SQUEEZE,
        Op.STRIDED_SLICE,
        Op.SUB,
        Op.TRANSPOSE,
        Op.ARGMAX,
        Op.ARGMIN,
        Op.AXIS_ALIGNED_BBOX_TRANSFORM,
        Op.BOX_WITH_NMS_LIMIT,
        Op.CHANNEL_SHUFFLE,
    }
)
"""The operations whose TENSOR_QUANT8_ASYMM forms gain a signed twin at 1.3 (CAST's
signed form is its identity, listed with CAST)."""

ENTRIES = {op: with_signed_forms(info) if op in _SIGNED else info for op, info in _ENTRIES.items()}
