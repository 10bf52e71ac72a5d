"""Model families of Android 10 VTS 1.2 (ValidateModel.cpp) on operand fields: type, rank,
scale, zero point, and an operand retyped in an operation (parity form and our clean form)."""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Iterator

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    _CONSTANT,
    ALL_LEVELS,
    B8,
    BELOW_1_2,
    BELOW_1_3,
    CONTROL_FLOW_SIGNATURE_RULES,
    F16,
    F32,
    I32T,
    MODEL,
    OURS,
    Q8A,
    Q8AS,
    Q8C,
    Q8S,
    Q16A,
    Q16S,
    SUBGRAPH,
    UINT32_MAX,
    VTS,
    L,
    T,
    _append_values,
    _Draft,
    _edit,
    _family,
    _fully_specified_size,
    _levels_rejecting,
    _operand,
    _sampler,
    _set_dims,
    _set_field,
    _set_type,
    _touching,
    _type_name,
    _where,
    copy_operand,
)
from hal.types import (
    LIFETIMES_1_0,
    HalVersion,
    Model,
    Operand,
    OperandType,
    OperandTypeRange,
    OperationType,
    SymmPerChannelQuantParams,
    is_oem_type,
    is_tensor_type,
    operand_type_introduced,
)
from hal.validation import Tier

# ---------------------------------------------------------------------------
# Model families of Android 10 VTS 1.2 (ValidateModel.cpp), parity form
# ---------------------------------------------------------------------------

_VTS_SCALARS = frozenset({T.FLOAT16, T.FLOAT32, T.INT32, T.UINT32, T.BOOL})
_VTS_INVALID_TYPES_1_2 = (
    (UINT32_MAX, "FUNDAMENTAL_MIN - 1 as uint32", ALL_LEVELS),
    # 14 is TENSOR_QUANT8_ASYMM_SIGNED from 1.3 on: invalid through the 1.0-1.2 methods only.
    (OperandTypeRange.FUNDAMENTAL_MAX + 1, "FUNDAMENTAL_MAX + 1, a 1.3 type", BELOW_1_3),
    (OperandTypeRange.OEM_MIN - 1, "OEM_MIN - 1", ALL_LEVELS),
    (OperandTypeRange.OEM_MAX + 1, "OEM_MAX + 1", ALL_LEVELS),
)
_VTS_INVALID_TYPES_1_3 = (
    # VTS 1.3's FUNDAMENTAL_MAX + 1 (16): no level knows it.
    (OperandTypeRange.FUNDAMENTAL_MAX_1_3 + 1, "FUNDAMENTAL_MAX_1_3 + 1", ALL_LEVELS),
)
_VTS_INVALID_TYPES_OLD = (
    (-1, "FLOAT32 - 1", ALL_LEVELS),
    (T.TENSOR_QUANT8_ASYMM + 1, "TENSOR_QUANT8_ASYMM + 1, unknown before 1.2", BELOW_1_2),
)


@_family(
    "operand_type_invalid",
    MODEL,
    Tier.PARITY,
    (
        "operand.type_known",
        "operand.type_version",
        "operation.signature",
        *CONTROL_FLOW_SIGNATURE_RULES,
    ),
    VTS,
    "any operand",
    "an operand's type set to a value outside every operand type range (VTS's four values; "
    "the 1.0/1.1 VTS values through the 1.0 and 1.1 methods; 1.2's FUNDAMENTAL_MAX + 1 "
    "through the 1.0-1.2 methods, 1.3's at every level)",
    upstream="mutateOperandTypeTest",
)
def _operand_type_invalid(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        for value, label, levels in _VTS_INVALID_TYPES_1_2 + _VTS_INVALID_TYPES_1_3:
            if value == operand.type:
                continue
            yield _Draft(
                f"operand{i}.type={value}",
                f"operand {i} type {_type_name(operand.type)} -> {value} ({label}) in "
                f"{_where(model, i)}",
                _set_type(i, value),
                levels,
            )
        for value, label, levels in _VTS_INVALID_TYPES_OLD:
            if value != operand.type:
                yield _Draft(
                    f"operand{i}.type={value}",
                    f"operand {i} type {_type_name(operand.type)} -> {value} ({label}) in "
                    f"{_where(model, i)}",
                    _set_type(i, value),
                    levels,
                )


@_family(
    "operand_rank",
    MODEL,
    Tier.PARITY,
    ("operand.scalar_rank", "operand.tensor_rank"),
    VTS,
    "a scalar operand (FLOAT16, FLOAT32, INT32, UINT32, BOOL), or a tensor of known rank",
    "a scalar given rank 1 (dimensions [0]); a tensor given unknown rank, which only 1.2 "
    "allows and never for a constant (the 1.0/1.1 VTS form)",
    upstream="mutateOperandRankTest",
)
def _operand_rank(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.type in _VTS_SCALARS:
            yield _Draft(
                f"operand{i}.dims=[0]",
                f"{_operand(model, i)} dimensions [] -> [0]: a scalar of rank 1",
                _set_dims(i, [0]),
            )
        elif is_tensor_type(operand.type) and not is_oem_type(operand.type) and operand.dimensions:
            constant = operand.lifetime in _CONSTANT
            yield _Draft(
                f"operand{i}.dims=[]",
                f"{_operand(model, i)} dimensions {list(operand.dimensions)} -> []: "
                + ("a constant of unknown rank" if constant else "unknown rank before HAL 1.2"),
                _set_dims(i, []),
                ALL_LEVELS if constant else BELOW_1_2,
            )


_SCALE_MUST_BE_ZERO = _VTS_SCALARS | {B8, F16, F32, Q8C, SUBGRAPH}
_SCALE_MUST_BE_POSITIVE = frozenset({Q8A, Q8S, Q16A, Q16S})


def _vts_invalid_scale(t: int) -> float | None:
    if t in _SCALE_MUST_BE_ZERO:
        return 1.0
    if t == I32T:
        return -1.0
    if t in _SCALE_MUST_BE_POSITIVE or t == Q8AS:  # VTS 1.3: signed in the default branch
        return 0.0
    return None  # OEM types are not checked; extension types want 0


def _scale_draft(model: Model, i: int, scale: float) -> _Draft:
    operand = model.operands[i]
    return _Draft(
        f"operand{i}.scale={scale!r}",
        f"{_operand(model, i)} scale {operand.scale!r} -> {scale!r}",
        _set_field(i, "scale", scale),
    )


@_family(
    "operand_scale",
    MODEL,
    Tier.PARITY,
    ("operand.scale",),
    VTS,
    "an operand of a fundamental type",
    "an operand's scale set to a value its type forbids (VTS: 1.0 where it must be 0, -1.0 for "
    "TENSOR_INT32, 0.0 where it must be positive; sampled: any such value, NaN and infinities)",
    upstream="mutateOperandScaleTest",
)
def _operand_scale(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        scale = _vts_invalid_scale(operand.type)
        if scale is not None:
            yield _scale_draft(model, i, scale)


def _invalid_scales(t: int) -> st.SearchStrategy[float]:
    not_finite = st.sampled_from([math.nan, math.inf, -math.inf])
    if t in _SCALE_MUST_BE_ZERO:
        return st.floats().filter(lambda s: s != 0)
    if t == I32T:
        return st.one_of(st.floats(max_value=-5e-324), not_finite)
    return st.one_of(st.floats(max_value=0.0), not_finite)


@_sampler("operand_scale")
def _operand_scale_sample(model: Model) -> st.SearchStrategy[_Draft]:
    targets = [i for i, o in enumerate(model.operands) if _vts_invalid_scale(o.type) is not None]
    if not targets:
        return st.nothing()
    return st.sampled_from(targets).flatmap(
        lambda i: _invalid_scales(model.operands[i].type).map(lambda s: _scale_draft(model, i, s))
    )


def _vts_invalid_zero_points(t: int) -> tuple[int, ...]:
    if t in _VTS_SCALARS or t in (B8, F16, F32, I32T, Q8C, SUBGRAPH):
        return (1,)
    return {
        Q8A: (-1, 256),
        Q8S: (-129, -1, 1, 128),
        Q16A: (-1, 65536),
        Q16S: (-32769, -1, 1, 32768),
        # VTS 1.3 leaves the signed type alone; the values just outside its range are ours.
        Q8AS: (-129, 128),
    }.get(t, ())


def _zero_point_draft(model: Model, i: int, zero_point: int) -> _Draft:
    return _Draft(
        f"operand{i}.zero_point={zero_point}",
        f"{_operand(model, i)} zero_point {model.operands[i].zero_point} -> {zero_point}",
        _set_field(i, "zero_point", zero_point),
    )


@_family(
    "operand_zero_point",
    MODEL,
    Tier.PARITY,
    ("operand.zero_point",),
    VTS,
    "an operand of a fundamental type",
    "an operand's zero point set outside its type's range (VTS's values; sampled: any int32 "
    "outside it)",
    upstream="mutateOperandZeroPointTest",
)
def _operand_zero_point(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        for zero_point in _vts_invalid_zero_points(operand.type):
            yield _zero_point_draft(model, i, zero_point)


def _invalid_zero_points(t: int) -> st.SearchStrategy[int]:
    low, high = {Q8A: (0, 255), Q16A: (0, 65535), Q8AS: (-128, 127)}.get(t, (0, 0))
    return st.one_of(
        st.integers(min_value=-(2**31), max_value=low - 1),
        st.integers(min_value=high + 1, max_value=2**31 - 1),
    )


@_sampler("operand_zero_point")
def _operand_zero_point_sample(model: Model) -> st.SearchStrategy[_Draft]:
    targets = [i for i, o in enumerate(model.operands) if _vts_invalid_zero_points(o.type)]
    if not targets:
        return st.nothing()
    return st.sampled_from(targets).flatmap(
        lambda i: _invalid_zero_points(model.operands[i].type).map(
            lambda z: _zero_point_draft(model, i, z)
        )
    )


def _vts_retyped(operand: Operand, target: int) -> Operand:
    """VTS's ``mutateOperand``: the operand made valid by itself for ``target``.

    Its side effects are kept on purpose (parity): ``extra_params`` survives a
    move away from the per-channel type, and a constant's length is not
    adjusted to the new element size.
    """
    new = copy_operand(operand)
    new.type = target
    dims = list(operand.dimensions) or [1]
    if target in _VTS_SCALARS:
        new.dimensions, new.scale, new.zero_point = [], 0.0, 0
    elif target in (B8, F16, F32):
        new.dimensions, new.scale, new.zero_point = dims, 0.0, 0
    elif target == I32T:
        new.dimensions, new.zero_point = dims, 0
    elif target in _SCALE_MUST_BE_POSITIVE:
        new.dimensions = dims
        new.scale = operand.scale or 1.0
    elif target == Q8C:
        new.dimensions, new.scale, new.zero_point = dims, 0.0, 0
        new.extra_params = SymmPerChannelQuantParams((1.0,) * dims[0], 0)
    return new


_CONVOLUTIONS = frozenset(
    {
        OperationType.CONV_2D,
        OperationType.DEPTHWISE_CONV_2D,
        OperationType.GROUPED_CONV_2D,
        OperationType.TRANSPOSE_CONV_2D,
    }
)


def _vts_retype_skipped(model: Model, i: int, target: int) -> bool:
    """VTS's ``mutateOperationOperandTypeSkip``."""
    if target == model.operands[i].type or is_oem_type(target):
        return True
    for operation in model.operations:
        ins, outs, op = operation.inputs, operation.outputs, operation.type
        if op == OperationType.LSH_PROJECTION and len(ins) > 1 and ins[1] == i:
            return True
        if op in (OperationType.CAST, OperationType.ARGMAX, OperationType.ARGMIN) and target in (
            F16,
            F32,
            I32T,
            Q8A,
        ):
            return True  # model-wide, as upstream
        if (
            op in (OperationType.QUANTIZE, OperationType.RANDOM_MULTINOMIAL)
            and ins[:1] == [i]
            and target in (F16, F32)
        ):
            return True
        if op == OperationType.DEQUANTIZE:
            if ins[:1] == [i] and target in (Q8A, Q8S, Q8C):
                return True
            if outs[:1] == [i] and target in (F16, F32):
                return True
        if op in _CONVOLUTIONS and len(ins) > 1 and ins[1] == i and target in (Q8A, Q8C):
            return True
    return False


_VTS13_SKIPS = {
    OperationType.QUANTIZE: ("outputs", 0, (Q8A, Q8AS)),
    OperationType.DEQUANTIZE: ("inputs", 0, (Q8AS,)),
    OperationType.AXIS_ALIGNED_BBOX_TRANSFORM: ("inputs", 1, (Q8A, Q8AS)),
}
"""VTS 1.3's additions to the slot skips: operation -> (side, slot, target types)."""


def _vts13_retype_skipped(model: Model, i: int, target: int) -> bool:
    """What VTS 1.3's ``mutateOperationOperandTypeSkip`` adds to 1.2's: the signed type where
    CAST, ARGMAX and ARGMIN take it (model-wide, as upstream), QUANTIZE's output as either
    8-bit asymmetric type, DEQUANTIZE's input as the signed type,
    AXIS_ALIGNED_BBOX_TRANSFORM's input 1 as either, and RANK's input as any tensor type.
    Such a retype is tried below 1.3 as VTS 1.2 tries it, and not at 1.3."""
    for operation in model.operations:
        op = operation.type
        if op in (OperationType.CAST, OperationType.ARGMAX, OperationType.ARGMIN):
            if target == Q8AS:
                return True
            continue
        if op == OperationType.RANK:
            if operation.inputs[:1] == [i] and is_tensor_type(target):
                return True
            continue
        skip = _VTS13_SKIPS.get(op)
        if skip is not None:
            side, slot, targets = skip
            slots = getattr(operation, side)
            if slot < len(slots) and slots[slot] == i and target in targets:
                return True
    return False


_KNOWN_TYPES = tuple(t for t in OperandType if operand_type_introduced(t) is not None)
"""The operand types some level knows: the retyping families' targets (a type no level
knows is ``operand_type_beyond``'s business)."""


def _retype_levels(model: Model, i: int, target: int) -> frozenset[HalVersion]:
    """Levels at which retyping operand ``i`` breaks a signature (or the type is too new)."""
    retyped = copy.copy(model)
    retyped.operands = list(model.operands)
    retyped.operands[i] = dataclasses.replace(model.operands[i], type=target)
    levels = set(_levels_rejecting(retyped, _touching(model, i)))
    introduced = operand_type_introduced(target)
    if introduced is not None and introduced >= HalVersion.V1_3:
        # A retype to a type of 1.3 or later is tried where the type exists: below, an
        # unknown type is operand_type_invalid's (and 1.0-1.2's retypes stay VTS 1.2's).
        return frozenset(level for level in levels if level >= introduced)
    levels |= {level for level in HalVersion if introduced is not None and introduced > level}
    return frozenset(levels)


def _replace_operand(i: int, new: Operand, values: bytes | None = None):
    def change(m: Model) -> None:
        operand = copy_operand(new)
        if values is not None:
            operand.location = _append_values(m, values)
        m.operands[i] = operand

    return _edit(change)


@_family(
    "operand_retype_vts",
    MODEL,
    Tier.PARITY,
    (
        "operation.signature",
        "operand.constant_length",
        "operand.extra_params",
        *CONTROL_FLOW_SIGNATURE_RULES,
    ),
    VTS,
    "an operand used by an operation, and a target type VTS does not skip for it (VTS 1.2's "
    "skip list; at 1.3 VTS 1.3's, which adds the signed type's)",
    "an operand retyped to another fundamental type the operation does not accept there, "
    "rewritten as VTS's mutateOperand does (stale extra params and constant lengths kept; a "
    "retype to TENSOR_QUANT8_ASYMM_SIGNED changes the type alone, as VTS 1.3's does)",
    upstream="mutateOperationOperandTypeTest",
)
def _operand_retype_vts(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if not _touching(model, i):
            continue
        for target in _KNOWN_TYPES:
            if _vts_retype_skipped(model, i, target):
                continue
            levels = _retype_levels(model, i, target)
            if _vts13_retype_skipped(model, i, target):
                levels -= {HalVersion.V1_3}
            if levels:
                yield _Draft(
                    f"operand{i}.retype={target.name}",
                    f"operand {i} type {_type_name(operand.type)} -> {target.name} in "
                    f"{_where(model, i)}",
                    _replace_operand(i, _vts_retyped(operand, target)),
                    levels,
                )


@_family(
    "operand_retype_clean",
    MODEL,
    Tier.PARITY,
    ("operation.signature", *CONTROL_FLOW_SIGNATURE_RULES),
    OURS,
    "an operand used by an operation, and a fundamental type the operation does not take there",
    "an operand retyped with everything else made valid for the new type (constant data of the "
    "new size, no stale extra params), so only the signature is wrong (the fixed form of "
    "mutateOperationOperandTypeTest)",
    upstream="mutateOperationOperandTypeTest",
)
def _operand_retype_clean(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if not _touching(model, i) or operand.lifetime not in LIFETIMES_1_0:
            continue
        for target in _KNOWN_TYPES:
            if target == operand.type or is_oem_type(target):
                continue
            levels = _retype_levels(model, i, target)
            if not levels:
                continue
            new = _vts_retyped(operand, target)
            if target != Q8C:
                new.extra_params = None
            if target in (Q8S, Q16S):
                new.zero_point = 0
            elif target == Q8A:
                new.zero_point = min(max(new.zero_point, 0), 255)
            elif target == Q8AS:  # VTS changes only the type; made valid here
                new.dimensions = list(operand.dimensions) or [1]
                new.scale = operand.scale or 1.0
                new.zero_point = min(max(new.zero_point, -128), 127)
            elif target == Q16A:
                new.zero_point = min(max(new.zero_point, 0), 65535)
            values = None
            if operand.lifetime in _CONSTANT:
                size = _fully_specified_size(new)
                if size is None:
                    continue
                values = bytes(size)
                new.lifetime = L.CONSTANT_COPY
            yield _Draft(
                f"operand{i}.retype={target.name}",
                f"operand {i} type {_type_name(operand.type)} -> {target.name} (made valid for "
                f"it) in {_where(model, i)}",
                _replace_operand(i, new, values),
                levels,
            )
