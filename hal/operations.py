"""The operation catalog: what each operation accepts, at which HAL version.

This is the one place these facts live. Every operation of ``OperationType``
has the version that introduced it; operations whose signatures are
catalogued also list each accepted signature (operand types of inputs and
outputs, and the first version accepting it) and any type-level constraints
beyond the types. ``hal.validation`` checks a model's operations against this
table; the reference driver, the suite and the report read it too.

Signatures are catalogued for ADD and MUL so far; the [catalog] issue adds the
other operations. An operation without catalogued signatures is checked only
for its type and version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hal.types import HalVersion, Model, OperandType, Operation, OperationType, describe_type

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8A = OperandType.TENSOR_QUANT8_ASYMM
I32 = OperandType.INT32

Constraint = Callable[[Model, Operation, HalVersion], "str | None"]
"""A type-level check beyond the signature: returns why the operation is invalid, or None."""


@dataclass(frozen=True)
class Signature:
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    since: HalVersion


@dataclass(frozen=True)
class OperationInfo:
    type: OperationType
    introduced: HalVersion
    signatures: tuple[Signature, ...] = ()
    constraints: tuple[Constraint, ...] = ()


def _introduced(op: OperationType) -> HalVersion:
    if op == OperationType.OEM_OPERATION or op <= OperationType.TANH:
        return HalVersion.V1_0
    if op <= OperationType.TRANSPOSE:
        return HalVersion.V1_1
    return HalVersion.V1_2


def _binary_with_activation(types: dict[int, HalVersion]) -> tuple[Signature, ...]:
    return tuple(Signature((t, t, I32), (t,), since) for t, since in types.items())


def _mul_output_scale(model: Model, operation: Operation, version: HalVersion) -> str | None:
    """Quantized MUL needs output scale > scale(A) * scale(B), at every version."""
    a, b = (model.operands[i] for i in operation.inputs[:2])
    out = model.operands[operation.outputs[0]]
    if a.type == Q8A and not out.scale > a.scale * b.scale:
        return (
            f"output scale {out.scale} must exceed input scales' product "
            f"{a.scale} * {b.scale} = {a.scale * b.scale}"
        )
    return None


_ADD_MUL_TYPES = {F32: HalVersion.V1_0, Q8A: HalVersion.V1_0, F16: HalVersion.V1_2}

_CATALOGUED: dict[OperationType, OperationInfo] = {
    OperationType.ADD: OperationInfo(
        OperationType.ADD, HalVersion.V1_0, _binary_with_activation(_ADD_MUL_TYPES)
    ),
    OperationType.MUL: OperationInfo(
        OperationType.MUL,
        HalVersion.V1_0,
        _binary_with_activation(_ADD_MUL_TYPES),
        (_mul_output_scale,),
    ),
}

CATALOG: dict[OperationType, OperationInfo] = {
    op: _CATALOGUED.get(op, OperationInfo(op, _introduced(op))) for op in OperationType
}


def operation_info(type_: int) -> OperationInfo | None:
    """The catalog entry of a non-extension operation type, or None if it has none."""
    try:
        return CATALOG[OperationType(type_)]
    except ValueError:
        return None


def check_signature(model: Model, operation: Operation, version: HalVersion) -> str | None:
    """Why ``operation`` matches none of its catalogued signatures at ``version``, or None.

    Operations without catalogued signatures (and OEM operations) pass.
    Assumes every index of the operation is inside ``model.operands``.
    """
    info = operation_info(operation.type)
    if info is None or not info.signatures:
        return None
    inputs = tuple(model.operands[i].type for i in operation.inputs)
    outputs = tuple(model.operands[i].type for i in operation.outputs)
    matching = [s for s in info.signatures if s.inputs == inputs and s.outputs == outputs]
    if not matching:
        return f"{info.type.name} takes no operands of types {_names(inputs)} -> {_names(outputs)}"
    if all(s.since > version for s in matching):
        since = min(s.since for s in matching)
        return f"{info.type.name} with {_names(inputs)} needs HAL {since}, model is {version}"
    for constraint in info.constraints:
        reason = constraint(model, operation, version)
        if reason is not None:
            return f"{info.type.name}: {reason}"
    return None


def _names(types: tuple[int, ...]) -> str:
    return "(" + ", ".join(describe_type(t) for t in types) + ")"
