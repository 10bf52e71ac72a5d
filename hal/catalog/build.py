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

from hal.operations import (
    PARITY,
    STRICT,
    Constraint,
    ConstraintContext,
    OperationInfo,
    Signature,
)
from hal.types import HalVersion, OperandType, OperationType, SymmPerChannelQuantParams

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


def _is_quant8_asymm(operand) -> bool:
    return operand.type == Q8A


def same_quant(
    input_slot: int = 0,
    output_slot: int = 0,
    *,
    tier: str = STRICT,
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

    return Constraint(f"same_quant(in{input_slot},out{output_slot})", check, tier, before)


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

    return Constraint("bias_scale", check, STRICT)


def channel_dim(slot: int, dim: int, *, tier: str = PARITY) -> Constraint:
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

    return Constraint(f"channel_dim(in{slot}={dim})", check, tier)
