"""Catalog data for operations 95-101 (QUANTIZED_LSTM ... RANK), all new in HAL 1.3.

Source: the HAL 1.3 operation definitions and Android 11's validator. Every
operation here came with HAL 1.3, and every signature is ``since`` V1_3; a 1.0-1.2
model may not hold any of them (``operation.type_version``).

IF (96) and WHILE (97) take operands of any type: their inputs and outputs must
match the subgraphs their SUBGRAPH operands name, which no list of operand types
can say. Their entries have no signatures, so ``match_signature`` leaves them
alone (as it leaves OEM_OPERATION), and the validation rules ``if.*`` and
``while.*`` of ``hal.validation.subgraph_rules`` check them instead: counts,
the condition, the subgraph references, and each tied pair of operands.

Conventions, as for 0-94: rules Android 11's validator enforces are parity, rules
only its executor (at preparation or execution) or only the HAL text states are
strict. None of these operations has a rank limit of 4 (the specs use rank 5).
"""

from __future__ import annotations

from hal.catalog.build import (
    B8,
    F16,
    F32,
    FLOAT32,
    I32,
    I32T,
    Q8A,
    Q8AS,
    Q8C,
    Q8S,
    Q16A,
    Q16S,
    V1_3,
    entry,
    fscalar,
    per_type,
    with_constraints,
)
from hal.forms import STRICT, Constraint, ConstraintContext, OperationInfo, Signature
from hal.types import OperandLifeTime
from hal.types import OperationType as Op

Types = tuple[int, ...]

# ---------------------------------------------------------------------------
# QUANTIZED_LSTM (95)
# ---------------------------------------------------------------------------

# Input slots: 1-4 input-to-gate weights, 5-8 recurrent-to-gate weights, 9-11 peephole,
# 12-15 gate biases, 16-17 projection, 18-19 states, 20-23 layer norm, 24-31 scalars.
_QLSTM_INPUTS: Types = (
    Q8AS,
    *(Q8S,) * 8,
    *(Q16S,) * 3,
    *(I32T,) * 4,
    Q8S,
    I32T,
    Q8AS,
    Q16S,
    *(Q16S,) * 4,
    *(FLOAT32,) * 6,
    I32,
    FLOAT32,
)
_QLSTM_OUTPUTS: Types = (Q8AS, Q16S, Q8AS)
_QLSTM_OMITTABLE = frozenset({1, 5, 9, 10, 11, 12, 16, 17, 20, 21, 22, 23, 24, 25})
"""Optional inputs: CIFG, peephole, input gate bias, projection, layer norm, and the two
clips (the HAL text marks them optional; Android 11 reads them anyway, so 0.0 is the
portable way to say "no clipping")."""
_QLSTM_RANKS = (
    *((slot, 2, 2) for slot in (0, *range(1, 9), 16, 18, 19)),
    *((slot, 1, 1) for slot in (*range(9, 16), 17, *range(20, 24))),
)


def _qlstm_presence(ctx: ConstraintContext) -> str | None:
    """Which optional QUANTIZED_LSTM inputs may be omitted together (Android 11 checks it
    when preparing the execution: strict). CIFG omits 1, 5, 12 and 20 together;
    peephole weights 10 and 11 come together, with 9 unless CIFG; layer-norm weights
    21-23 come together, with 20 unless CIFG."""
    omitted = {
        slot
        for slot, operand in enumerate(ctx.inputs)
        if operand.lifetime == OperandLifeTime.NO_VALUE
    }
    cifg = 1 in omitted
    if (5 in omitted) != cifg:
        return "inputs 1 and 5 (CIFG) must be omitted together"
    if cifg and not {12, 20} <= omitted:
        return "with CIFG, inputs 12 (input gate bias) and 20 (its layer norm) must be omitted"
    if not cifg and 12 in omitted:
        return "input 12 (input gate bias) is required without CIFG"
    peephole = {10, 11} if cifg else {9, 10, 11}
    if cifg and 9 not in omitted:
        return "with CIFG, input 9 (cell-to-input peephole) must be omitted"
    if 0 < len(peephole & omitted) < len(peephole):
        return f"peephole inputs {sorted(peephole)} must be omitted together"
    layer_norm = {21, 22, 23} if cifg else {20, 21, 22, 23}
    if 0 < len(layer_norm & omitted) < len(layer_norm):
        return f"layer-norm inputs {sorted(layer_norm)} must be omitted together"
    return None


def _quantized_lstm() -> list[Signature]:
    return with_constraints(
        [
            Signature(
                Op.QUANTIZED_LSTM,
                Q8AS,
                _QLSTM_INPUTS,
                _QLSTM_OUTPUTS,
                V1_3,
                omittable=_QLSTM_OMITTABLE,
                ranks=_QLSTM_RANKS,
            )
        ],
        Constraint("qlstm_optional_sets", _qlstm_presence, STRICT),
    )


# ---------------------------------------------------------------------------
# ELU (98), HARD_SWISH (99), FILL (100), RANK (101)
# ---------------------------------------------------------------------------

_FLOATS = {F16: V1_3, F32: V1_3}


def _elu() -> list[Signature]:
    # alpha is FLOAT16 with F16, FLOAT32 with F32.
    return per_type(Op.ELU, _FLOATS, lambda t: ((t, fscalar(t)), (t,)))


def _hard_swish() -> list[Signature]:
    # Quantized output params are free (they may differ from the input's).
    return per_type(Op.HARD_SWISH, {F16: V1_3, F32: V1_3, Q8A: V1_3, Q8AS: V1_3}, _unary)


def _unary(t: int) -> tuple[Types, Types]:
    return (t,), (t,)


_FILL_VALUE = {F16: fscalar(F16), F32: fscalar(F32), I32T: I32}


def _fill() -> list[Signature]:
    # The variant is the output type; input 0 is the rank-1 shape, input 1 the value.
    return per_type(
        Op.FILL,
        {t: V1_3 for t in _FILL_VALUE},
        lambda t: ((I32T, _FILL_VALUE[t]), (t,)),
        ranks=((0, 1, 1),),
    )


_RANK_TYPES = (F16, F32, I32T, Q8A, Q16S, B8, Q8C, Q16A, Q8S, Q8AS)


def _rank() -> list[Signature]:
    # Any tensor of these types in, its rank out as an INT32 scalar.
    return per_type(Op.RANK, {t: V1_3 for t in _RANK_TYPES}, lambda t: ((t,), (I32,)))


def _entries() -> dict[Op, OperationInfo]:
    return {
        Op.QUANTIZED_LSTM: entry(Op.QUANTIZED_LSTM, V1_3, _quantized_lstm()),
        # IF and WHILE: checked by the control-flow rules (see the module docstring).
        Op.IF: entry(Op.IF, V1_3),
        Op.WHILE: entry(Op.WHILE, V1_3),
        Op.ELU: entry(Op.ELU, V1_3, _elu()),
        Op.HARD_SWISH: entry(Op.HARD_SWISH, V1_3, _hard_swish()),
        Op.FILL: entry(Op.FILL, V1_3, _fill()),
        Op.RANK: entry(Op.RANK, V1_3, _rank()),
    }


ENTRIES = _entries()

CONTROL_FLOW = frozenset({Op.IF, Op.WHILE})
"""The operations whose operands no signature lists: validation rules check them."""
