"""Builders and shared constraints for writing the catalog's data compactly.

A data module declares each operation with ``entry(op, introduced, ...)``,
passing lists of ``Signature``s made by ``per_type`` (one signature per
primary operand type, each with its own first version) and extended with
``optional_tail`` (cumulative optional trailing inputs, e.g. a layout BOOL
then a dilation pair). ``with_signed_forms`` adds HAL 1.3's
TENSOR_QUANT8_ASYMM_SIGNED twin of every TENSOR_QUANT8_ASYMM form of an entry.
The constraints here are the type-level rules several operations share; those on
quantization parameters read a TENSOR_QUANT8_ASYMM_SIGNED operand as they read a
TENSOR_QUANT8_ASYMM one, with fixed zero points moved down by 128.
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

V1_0, V1_1, V1_2, V1_3 = HalVersion.V1_0, HalVersion.V1_1, HalVersion.V1_2, HalVersion.V1_3

# Tensor types
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
SUBGRAPH = OperandType.SUBGRAPH
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


def signed_twin(signature: Signature) -> Signature | None:
    """The TENSOR_QUANT8_ASYMM_SIGNED form of a signature with TENSOR_QUANT8_ASYMM operands
    (each of them becomes signed; every other operand keeps its type), since 1.3; None
    for a signature without one. The twin's variant is the signed type."""
    if Q8A not in signature.inputs and Q8A not in signature.outputs:
        return None

    def swap(types: Types) -> Types:
        return tuple(Q8AS if t == Q8A else t for t in types)

    return replace(
        signature,
        variant=Q8AS,
        inputs=swap(signature.inputs),
        outputs=swap(signature.outputs),
        since=max(signature.since, V1_3),
    )


def with_signed_forms(info: OperationInfo) -> OperationInfo:
    """An entry with the signed twin of each of its TENSOR_QUANT8_ASYMM forms added after
    them (HAL 1.3: the same shapes and rules, fixed zero points moved by 128; the shared
    constraints read the signed type)."""
    twins = [t for t in map(signed_twin, info.signatures) if t is not None]
    if not twins:
        raise ValueError(f"{info.type.name} has no TENSOR_QUANT8_ASYMM form to twin")
    return replace(info, signatures=info.signatures + tuple(twins))


def with_constraints(signatures: Iterable[Signature], *constraints: Constraint) -> list[Signature]:
    return [replace(s, constraints=s.constraints + constraints) for s in signatures]


def only(signatures: Iterable[Signature], variants: Iterable[int]) -> list[Signature]:
    wanted = set(variants)
    return [s for s in signatures if s.variant in wanted]


# ---------------------------------------------------------------------------
# Shared constraints
# ---------------------------------------------------------------------------


_QUANT_TYPES = (Q8A, Q8S, Q16A, Q16S, Q8AS)
"""The quantized types with one scale and zero point (per-channel has its own params)."""


def _copy_quant(source, target) -> None:
    if source.type == target.type and source.type in _QUANT_TYPES:
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
        if a.type in _QUANT_TYPES and (a.scale, a.zero_point) != (
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
    """Quantized bias: scale = input scale x filter scale (relative 1e-6), zero point 0
    (per-tensor TENSOR_QUANT8_ASYMM or, since 1.3, TENSOR_QUANT8_ASYMM_SIGNED filters).

    The Android 10 CPU reference checks this at execution, so it is strict
    here; a per-channel filter makes the bias scale irrelevant.
    """

    def check(ctx: ConstraintContext) -> str | None:
        x, w, bias = ctx.inputs[input_slot], ctx.inputs[filter_slot], ctx.inputs[bias_slot]
        if bias.type != I32T or w.type not in (Q8A, Q8AS):
            return None
        expected = x.scale * w.scale
        if abs(expected - bias.scale) > 1e-6 * min(expected, bias.scale):
            return f"bias scale {bias.scale} must equal input scale x filter scale = {expected}"
        return None

    def fix(ctx: ConstraintContext) -> None:
        x, w, bias = ctx.inputs[input_slot], ctx.inputs[filter_slot], ctx.inputs[bias_slot]
        if bias.type == I32T and w.type in (Q8A, Q8AS):
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

SIGNED_SHIFT = 128
"""What separates a TENSOR_QUANT8_ASYMM_SIGNED value or zero point from its unsigned twin's:
an operand with a fixed quantization has the unsigned zero point minus this (LOGISTIC and
SOFTMAX: 0 -> -128; TANH and L2_NORMALIZATION: 128 -> 0)."""


def fixed_zero_point(operand_type: int, zero_point: int) -> int:
    """The zero point an operation fixes for an output of ``operand_type``, given the
    unsigned type's (LOGISTIC's 0 is -128 for a signed output, TANH's 128 is 0)."""
    return zero_point - SIGNED_SHIFT if operand_type == Q8AS else zero_point


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
    relative tolerance on the scale. ``zero_point`` is the unsigned types' value: a
    TENSOR_QUANT8_ASYMM_SIGNED operand (1.3) has it minus 128.
    """
    if side not in ("input", "output"):
        raise ValueError(f"side must be 'input' or 'output', not {side!r}")

    def check(ctx: ConstraintContext) -> str | None:
        operands = ctx.inputs if side == "input" else ctx.outputs
        operand = operands[slot]
        if operand.type not in _QUANT_TYPES:
            return None
        wanted = fixed_zero_point(operand.type, zero_point)
        if abs(operand.scale - scale) > rel_tol * scale or operand.zero_point != wanted:
            return (
                f"{side} {slot} scale/zeroPoint ({operand.scale}, {operand.zero_point}) "
                f"must be ({scale}, {wanted})"
            )
        return None

    def fix(ctx: ConstraintContext) -> None:
        operand = (ctx.inputs if side == "input" else ctx.outputs)[slot]
        if operand.type in _QUANT_TYPES:
            operand.scale = scale
            operand.zero_point = fixed_zero_point(operand.type, zero_point)

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


# ---------------------------------------------------------------------------
# Added for HAL 1.3: rules on constant scalars, the sequence operations' links
# ---------------------------------------------------------------------------


def constant_scalar(ctx: ConstraintContext, slot: int) -> int | None:
    """Input ``slot``'s value when it is a CONSTANT_COPY INT32 or BOOL scalar of the main
    graph (4 or 1 bytes of ``operand_values``); None when it is not known from the model
    (a model input, a pool constant, a malformed location)."""
    operand = ctx.inputs[slot]
    if operand.lifetime != OperandLifeTime.CONSTANT_COPY or operand.type not in (I32, BOOL):
        return None
    size = 4 if operand.type == I32 else 1
    location = operand.location
    values = ctx.model.operand_values
    offset = getattr(location, "offset", None)
    if (
        not isinstance(values, bytes | bytearray)
        or not isinstance(offset, int)
        or getattr(location, "length", None) != size
        or not 0 <= offset <= len(values) - size
    ):
        return None
    return int.from_bytes(values[offset : offset + size], "little", signed=True)


def activation_none(slot: int) -> Constraint:
    """TENSOR_INT32 arithmetic (1.3): the fused activation at ``slot``, when a constant, is
    NONE (0). Android 11 fails the execution otherwise, so the rule is strict."""

    def check(ctx: ConstraintContext) -> str | None:
        if ctx.outputs[0].type != I32T:
            return None
        value = constant_scalar(ctx, slot)
        if value not in (None, 0):
            return f"input {slot} (fused activation) is {value}; TENSOR_INT32 forms take NONE (0)"
        return None

    return Constraint(f"int32_activation_none(in{slot})", check, STRICT)


def not_both_true(first: int, second: int, what: str) -> Constraint:
    """Two optional BOOL inputs (RESIZE_*'s align_corners and half_pixel_centers, 1.3) are
    not both constant true. Android 11 fails the execution on it: strict."""

    def check(ctx: ConstraintContext) -> str | None:
        if len(ctx.inputs) <= second:
            return None
        if constant_scalar(ctx, first) and constant_scalar(ctx, second):
            return f"inputs {first} and {second} ({what}) are both true"
        return None

    return Constraint(f"not_both_true(in{first},in{second})", check, STRICT)


def linked_aux(aux_input: int, weights: Iterable[int], *, tier: Tier = STRICT) -> Constraint:
    """The auxiliary input and weights of a bidirectional sequence operation.

    Before 1.3 the auxiliary input and ``weights`` are all omitted or all given. Since 1.3
    the auxiliary input may also come alone ("parallel linking": the backward direction
    reads it as its input); auxiliary weights without the auxiliary input stay invalid,
    and the weights are all given or all omitted.
    """
    wanted = tuple(weights)

    def check(ctx: ConstraintContext) -> str | None:
        aux = not _omitted(ctx, aux_input)
        given = [slot for slot in wanted if not _omitted(ctx, slot)]
        if given and len(given) != len(wanted):
            return f"auxiliary weights {list(wanted)} must all be omitted or all present"
        if given and not aux:
            return f"auxiliary weights {list(wanted)} need the auxiliary input {aux_input}"
        if aux and not given and ctx.version < V1_3:
            return (
                f"the auxiliary input {aux_input} without auxiliary weights (parallel "
                f"linking) needs HAL 1.3, model is {ctx.version}"
            )
        return None

    slots = ",".join(map(str, (aux_input, *wanted)))
    return Constraint(f"linked_aux(in{slots})", check, tier)
