"""Builders and shared constraints for writing the catalog's data compactly.

A data module declares each operation with ``entry(op, introduced, ...)``,
passing lists of ``Signature``s made by ``per_type`` (one signature per
primary operand type, each with its own first version) and extended with
``optional_tail`` (cumulative optional trailing inputs, e.g. a layout BOOL
then a dilation pair). The constraints here are the type-level rules several
operations share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from hal.forms import (
    PARITY,
    STRICT,
    Constraint,
    ConstraintContext,
    OperationInfo,
    Signature,
    Tier,
)
from hal.types import (
    HalVersion,
    OperandLifeTime,
    OperandType,
    OperationType,
    SymmPerChannelQuantParams,
)

V1_0, V1_1, V1_2 = HalVersion.V1_0, HalVersion.V1_1, HalVersion.V1_2

# Tensor types
F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32T = OperandType.TENSOR_INT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q8S = OperandType.TENSOR_QUANT8_SYMM
Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL
Q16A = OperandType.TENSOR_QUANT16_ASYMM
Q16S = OperandType.TENSOR_QUANT16_SYMM
B8 = OperandType.TENSOR_BOOL8
# Scalar types
I32 = OperandType.INT32
U32 = OperandType.UINT32
FLOAT32 = OperandType.FLOAT32
FLOAT16 = OperandType.FLOAT16
BOOL = OperandType.BOOL

Types = tuple[int, ...]


def fscalar(tensor_type: int) -> int:
    """The float scalar that goes with a tensor type: FLOAT16 for F16, else FLOAT32."""
    return FLOAT16 if tensor_type == F16 else FLOAT32


def entry(op: OperationType, introduced: HalVersion, *groups: Iterable[Signature]) -> OperationInfo:
    """An operation's catalog entry from any number of signature lists."""
    signatures = tuple(s for group in groups for s in group)
    for s in signatures:
        if s.operation != op:
            raise ValueError(f"{op.name} entry holds a signature of {s.operation.name}")
        if s.since < introduced:
            raise ValueError(f"{s.describe()} predates {op.name} ({introduced})")
    return OperationInfo(op, introduced, signatures)


def per_type(
    op: OperationType,
    types: dict[int, HalVersion],
    make: Callable[[int], tuple[Types, Types]],
    **fields: object,
) -> list[Signature]:
    """One signature per primary type: ``make(T)`` gives (inputs, outputs) for T."""
    result = []
    for variant, since in types.items():
        inputs, outputs = make(variant)
        result.append(Signature(op, variant, tuple(inputs), tuple(outputs), since, **fields))
    return result


def optional_tail(
    base: Iterable[Signature], *tails: tuple[Types, HalVersion, str]
) -> list[Signature]:
    """Each base signature, then with each cumulative optional tail appended.

    ``tails`` are (extra input types, first version, form label); tail k is
    accepted only with tails 0..k-1 present. A tail's version never precedes
    its base's.
    """
    result = []
    for signature in base:
        result.append(signature)
        current = signature
        for extra, since, label in tails:
            form = f"{current.form}+{label}" if current.form else label
            current = replace(
                current,
                inputs=current.inputs + tuple(extra),
                since=max(since, current.since),
                form=form,
            )
            result.append(current)
    return result


def with_constraints(signatures: Iterable[Signature], *constraints: Constraint) -> list[Signature]:
    return [replace(s, constraints=s.constraints + constraints) for s in signatures]


def only(signatures: Iterable[Signature], variants: Iterable[int]) -> list[Signature]:
    wanted = set(variants)
    return [s for s in signatures if s.variant in wanted]


# ---------------------------------------------------------------------------
# Shared constraints
# ---------------------------------------------------------------------------


def _copy_quant(source, target) -> None:
    if source.type == target.type and source.type in (Q8A, Q8S, Q16A, Q16S):
        target.scale, target.zero_point = source.scale, source.zero_point


def _is_quant8_asymm(operand) -> bool:
    return operand.type == Q8A


def same_quant(
    input_slot: int = 0,
    output_slot: int = 0,
    *,
    tier: Tier = STRICT,
    before: HalVersion | None = None,
) -> Constraint:
    """Output ``output_slot`` carries input ``input_slot``'s scale and zero point (quant types)."""

    def check(ctx: ConstraintContext) -> str | None:
        a, out = ctx.inputs[input_slot], ctx.outputs[output_slot]
        if a.type in (Q8A, Q8S, Q16A, Q16S) and (a.scale, a.zero_point) != (
            out.scale,
            out.zero_point,
        ):
            return (
                f"output {output_slot} scale/zeroPoint ({out.scale}, {out.zero_point}) must equal "
                f"input {input_slot}'s ({a.scale}, {a.zero_point})"
            )
        return None

    def fix(ctx: ConstraintContext) -> None:
        _copy_quant(ctx.inputs[input_slot], ctx.outputs[output_slot])

    return Constraint(f"same_quant(in{input_slot},out{output_slot})", check, tier, before, fix)


def all_inputs_same_quant_as_output(*, before: HalVersion) -> Constraint:
    """Every quantized tensor input shares the output's scale and zero point."""

    def check(ctx: ConstraintContext) -> str | None:
        out = ctx.outputs[0]
        for slot, operand in enumerate(ctx.inputs):
            if _is_quant8_asymm(operand) and (operand.scale, operand.zero_point) != (
                out.scale,
                out.zero_point,
            ):
                return (
                    f"input {slot} scale/zeroPoint ({operand.scale}, {operand.zero_point}) must "
                    f"equal the output's ({out.scale}, {out.zero_point}) before HAL {before}"
                )
        return None

    return Constraint("inputs_same_quant_as_output", check, PARITY, before)


def output_scale_exceeds_product(
    a_slot: int = 0, b_slot: int = 1, *, before: HalVersion | None = None
) -> Constraint:
    """Quant8: output scale > scale(a) * scale(b) (MUL always; conv-like ops before 1.2)."""

    def check(ctx: ConstraintContext) -> str | None:
        a, b, out = ctx.inputs[a_slot], ctx.inputs[b_slot], ctx.outputs[0]
        if not _is_quant8_asymm(a) or b.type != Q8A:
            return None
        product = a.scale * b.scale
        if not out.scale > product:
            return (
                f"output scale {out.scale} must exceed input {a_slot} scale x input {b_slot} "
                f"scale = {a.scale} x {b.scale} = {product}"
            )
        return None

    return Constraint("output_scale_exceeds_product", check, PARITY, before)


def bias_scale(input_slot: int = 0, filter_slot: int = 1, bias_slot: int = 2) -> Constraint:
    """Quantized bias: scale = input scale x filter scale (relative 1e-6), zero point 0.

    The Android 10 CPU reference checks this at execution, so it is strict
    here; a per-channel filter makes the bias scale irrelevant.
    """

    def check(ctx: ConstraintContext) -> str | None:
        x, w, bias = ctx.inputs[input_slot], ctx.inputs[filter_slot], ctx.inputs[bias_slot]
        if bias.type != I32T or w.type != Q8A:
            return None
        expected = x.scale * w.scale
        if abs(expected - bias.scale) > 1e-6 * min(expected, bias.scale):
            return f"bias scale {bias.scale} must equal input scale x filter scale = {expected}"
        return None

    def fix(ctx: ConstraintContext) -> None:
        x, w, bias = ctx.inputs[input_slot], ctx.inputs[filter_slot], ctx.inputs[bias_slot]
        if bias.type == I32T and w.type == Q8A:
            bias.scale = x.scale * w.scale

    return Constraint("bias_scale", check, STRICT, fix=fix)


def channel_dim(slot: int, dim: int, *, tier: Tier = PARITY) -> Constraint:
    """A per-channel quantized input's channelDim must be ``dim``."""

    def check(ctx: ConstraintContext) -> str | None:
        operand = ctx.inputs[slot]
        params = operand.extra_params
        if (
            operand.type == Q8C
            and isinstance(params, SymmPerChannelQuantParams)
            and params.channel_dim != dim
        ):
            return f"input {slot} channelDim is {params.channel_dim}, must be {dim}"
        return None

    def fix(ctx: ConstraintContext) -> None:
        operand = ctx.inputs[slot]
        if operand.type == Q8C:
            operand.dimensions = [1] * max(len(operand.dimensions), dim + 1)
            operand.extra_params = SymmPerChannelQuantParams((1.0,), dim)

    return Constraint(f"channel_dim(in{slot}={dim})", check, tier, fix=fix)


# ---------------------------------------------------------------------------
# Added for operations 48-94: fixed and shared quantization parameters
# ---------------------------------------------------------------------------

_QUANT_TYPES = (Q8A, Q8S, Q16A, Q16S)


def fixed_quant(
    slot: int,
    scale: float,
    zero_point: int,
    *,
    side: str = "input",
    rel_tol: float = 1e-6,
    tier: Tier = STRICT,
) -> Constraint:
    """A quantized operand (``side`` "input" or "output", at ``slot``) has fixed params.

    E.g. box coordinates in TENSOR_QUANT16_ASYMM carry scale 0.125, zero point
    0. Float-typed forms of the same slot are not affected. ``rel_tol``: the
    relative tolerance on the scale.
    """
    if side not in ("input", "output"):
        raise ValueError(f"side must be 'input' or 'output', not {side!r}")

    def check(ctx: ConstraintContext) -> str | None:
        operands = ctx.inputs if side == "input" else ctx.outputs
        operand = operands[slot]
        if operand.type not in _QUANT_TYPES:
            return None
        if abs(operand.scale - scale) > rel_tol * scale or operand.zero_point != zero_point:
            return (
                f"{side} {slot} scale/zeroPoint ({operand.scale}, {operand.zero_point}) "
                f"must be ({scale}, {zero_point})"
            )
        return None

    def fix(ctx: ConstraintContext) -> None:
        operand = (ctx.inputs if side == "input" else ctx.outputs)[slot]
        if operand.type in _QUANT_TYPES:
            operand.scale, operand.zero_point = scale, zero_point

    name = f"fixed_quant({side[:-3]}{slot}={scale},{zero_point})"
    return Constraint(name, check, tier, fix=fix)


def outputs_same_quant(input_slot: int = 0, *, tier: Tier = STRICT) -> Constraint:
    """Every quantized output carries input ``input_slot``'s scale and zero point.

    For operations with a repeated output slot (SPLIT), where ``same_quant``
    would name one output only.
    """

    def check(ctx: ConstraintContext) -> str | None:
        a = ctx.inputs[input_slot]
        if a.type not in _QUANT_TYPES:
            return None
        for k, out in enumerate(ctx.outputs):
            if (out.scale, out.zero_point) != (a.scale, a.zero_point):
                return (
                    f"output {k} scale/zeroPoint ({out.scale}, {out.zero_point}) must equal "
                    f"input {input_slot}'s ({a.scale}, {a.zero_point})"
                )
        return None

    def fix(ctx: ConstraintContext) -> None:
        for out in ctx.outputs:
            _copy_quant(ctx.inputs[input_slot], out)

    return Constraint(f"outputs_same_quant(in{input_slot})", check, tier, fix=fix)


def inputs_share_quant(slots: Iterable[int], *, tier: Tier = STRICT) -> Constraint:
    """The quantized inputs at ``slots`` share one scale and zero point (the first one's)."""
    wanted = tuple(slots)

    def check(ctx: ConstraintContext) -> str | None:
        first = ctx.inputs[wanted[0]]
        for slot in wanted[1:]:
            operand = ctx.inputs[slot]
            if operand.type in _QUANT_TYPES and (operand.scale, operand.zero_point) != (
                first.scale,
                first.zero_point,
            ):
                return (
                    f"input {slot} scale/zeroPoint ({operand.scale}, {operand.zero_point}) must "
                    f"equal input {wanted[0]}'s ({first.scale}, {first.zero_point})"
                )
        return None

    def fix(ctx: ConstraintContext) -> None:
        for slot in wanted[1:]:
            _copy_quant(ctx.inputs[wanted[0]], ctx.inputs[slot])

    name = f"inputs_share_quant(in{','.join(map(str, wanted))})"
    return Constraint(name, check, tier, fix=fix)


# ---------------------------------------------------------------------------
# Added for operations 0-47: version-staged ranks and zero points, documented
# versions the validator does not enforce, groups of optional inputs
# ---------------------------------------------------------------------------


def known_rank_in(
    slot: int, allowed: Iterable[int], *, before: HalVersion, tier: Tier = PARITY
) -> Constraint:
    """Input ``slot``, when its rank is known, has one of the ``allowed`` ranks.

    For rank limits a later version lifted while keeping the operand types
    (SOFTMAX took ranks 2 and 4 only before 1.2); ``Signature.ranks`` holds
    the limits of the newest version.
    """
    wanted = tuple(sorted(set(allowed)))

    def check(ctx: ConstraintContext) -> str | None:
        rank = len(ctx.inputs[slot].dimensions)
        if rank and rank not in wanted:
            names = " or ".join(str(r) for r in wanted)
            return f"input {slot} has rank {rank}; before HAL {before} it must be {names}"
        return None

    def fix(ctx: ConstraintContext) -> None:
        operand = ctx.inputs[slot]
        if operand.dimensions and len(operand.dimensions) not in wanted:
            operand.dimensions = [1] * wanted[0]

    return Constraint(f"rank(in{slot} in {list(wanted)})", check, tier, before, fix)


def zero_point_zero(slot: int = 0, *, before: HalVersion, tier: Tier = PARITY) -> Constraint:
    """A TENSOR_QUANT8_ASYMM input ``slot`` has zero point 0 (PAD before 1.2)."""

    def check(ctx: ConstraintContext) -> str | None:
        operand = ctx.inputs[slot]
        if _is_quant8_asymm(operand) and operand.zero_point != 0:
            return (
                f"input {slot} zeroPoint is {operand.zero_point}; before HAL {before} it must be 0"
            )
        return None

    return Constraint(f"zero_point(in{slot}=0)", check, tier, before)


def documented_since(version: HalVersion, what: str) -> Constraint:
    """The HAL documentation gives this form ``version``; Android 10's validator accepts it earlier.

    The signature's ``since`` is the validator's version (parity); this strict
    rule keeps the documented one.
    """

    def check(ctx: ConstraintContext) -> str | None:
        return f"{what} is documented from HAL {version} only"

    return Constraint(f"documented_since({version})", check, STRICT, version)


def _omitted(ctx: ConstraintContext, slot: int) -> bool:
    return ctx.inputs[slot].lifetime == OperandLifeTime.NO_VALUE


def all_or_none(slots: Iterable[int], *, tier: Tier = STRICT) -> Constraint:
    """The optional inputs at ``slots`` are all omitted (NO_VALUE) or all present."""
    wanted = tuple(slots)

    def check(ctx: ConstraintContext) -> str | None:
        omitted = [slot for slot in wanted if _omitted(ctx, slot)]
        if omitted and len(omitted) != len(wanted):
            return f"inputs {list(wanted)} must all be omitted or all present; omitted: {omitted}"
        return None

    return Constraint(f"all_or_none(in{','.join(map(str, wanted))})", check, tier)
