"""HAL 1.3's TENSOR_QUANT8_ASYMM_SIGNED forms, judged and computed through their unsigned twins.

A TENSOR_QUANT8_ASYMM_SIGNED (Q8AS) operand holds int8 values ``q`` with a zero point
``z`` in [-128, 127]: real = scale * (q - z). Moving every value and the zero point
up by 128 gives a TENSOR_QUANT8_ASYMM (Q8A) operand with the same real values
(``q + 128`` in [0, 255], zero point ``z + 128``). ``unsigned_view`` presents an
operation's operands that way, so that a rule or a kernel written for Q8A serves the
signed form unchanged; ``signed_results`` moves a Q8A result back down.

Android 11 computes most Q8AS forms exactly so (the signed result is the unsigned
result minus 128), and where it has its own int8 kernel the two agree within one
quantization step. What the view does not carry by itself:

* a fixed output quantization is the unsigned one moved by 128 (LOGISTIC and SOFTMAX:
  1/256 with zero point -128; TANH and L2_NORMALIZATION: 1/128 with zero point 0):
  ``fixed_zero_point`` gives it, and the view of such an output is the unsigned one;
* a quantized value held in an INT32 scalar (PAD_V2's pad value, in the input's
  quantization) must move too: ``unsigned_view``'s ``quantized_scalars``;
* the 16-bit box operands next to quantized scores keep their own types and
  parameters (scale 0.125, zero point 0): only Q8AS operands are moved.

Messages shown to a user name the operand's own (signed) values, never the view's:
the checks judge the signed operands themselves and use this module only for the
fixed zero points.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from hal.catalog.build import SIGNED_SHIFT, fixed_zero_point
from hal.checks.base import OpArgs, OpInvalid
from hal.types import Operand, OperandType

Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
QUANT8_ASYMM_TYPES = (Q8A, Q8AS)
"""The two 8-bit asymmetric types: rules on one apply to the other (signed zero points
moved by 128)."""

SHIFT = SIGNED_SHIFT
"""What separates a signed value or zero point from its unsigned twin."""

INT8_RANGE = (-128, 127)


def has_signed(args: OpArgs) -> bool:
    """Whether any operand of the operation is TENSOR_QUANT8_ASYMM_SIGNED."""
    return any(o.type == Q8AS for o in args.inputs) or any(o.type == Q8AS for o in args.outputs)


def _unsigned_operand(operand: Operand) -> Operand:
    if operand.type != Q8AS:
        return operand
    return replace(operand, type=Q8A, zero_point=operand.zero_point + SHIFT)


def to_unsigned(values: np.ndarray) -> np.ndarray:
    """int8 values moved up by 128, as uint8 (a new array)."""
    return values.view(np.uint8) ^ np.uint8(0x80)


def to_signed(values: np.ndarray) -> np.ndarray:
    """uint8 values moved down by 128, as int8 (a new array)."""
    return (np.asarray(values, dtype=np.uint8) ^ np.uint8(0x80)).view(np.int8)


def check_int8_scalar(value: int, what: str) -> None:
    """A quantized value held in an INT32 scalar for a signed operand fits int8."""
    low, high = INT8_RANGE
    if not low <= value <= high:
        raise OpInvalid(f"{what} {value} is outside [{low}, {high}] (TENSOR_QUANT8_ASYMM_SIGNED)")


def unsigned_view(args: OpArgs, quantized_scalars: Iterable[int] = ()) -> OpArgs:
    """``args`` with every TENSOR_QUANT8_ASYMM_SIGNED operand presented as its unsigned
    twin (type TENSOR_QUANT8_ASYMM, zero point and values moved up by 128).

    ``quantized_scalars``: input slots of INT32 scalars holding a value in input 0's
    quantization; moved up by 128 too when input 0 is signed (they must fit int8).
    Operands of other types, and their values, are passed as they are.
    """
    signed_input = bool(args.inputs) and args.inputs[0].type == Q8AS
    values: list[np.ndarray | None] = []
    for slot, (operand, value) in enumerate(zip(args.inputs, args.values, strict=True)):
        if value is not None and operand.type == Q8AS:
            value = to_unsigned(value)
        elif value is not None and signed_input and slot in quantized_scalars:
            check_int8_scalar(int(value.item()), f"input {slot}")
            value = np.asarray(value, dtype=value.dtype) + SHIFT
        values.append(value)
    return OpArgs(
        [_unsigned_operand(o) for o in args.inputs],
        [_unsigned_operand(o) for o in args.outputs],
        values,
    )


def signed_results(args: OpArgs, results: list[np.ndarray]) -> list[np.ndarray]:
    """The results the unsigned view gave, each output that is TENSOR_QUANT8_ASYMM_SIGNED
    in ``args`` moved back down by 128."""
    return [
        to_signed(result) if operand.type == Q8AS else result
        for operand, result in zip(args.outputs, results, strict=True)
    ]


__all__ = [
    "INT8_RANGE",
    "Q8A",
    "Q8AS",
    "QUANT8_ASYMM_TYPES",
    "SHIFT",
    "check_int8_scalar",
    "fixed_zero_point",
    "has_signed",
    "signed_results",
    "to_signed",
    "to_unsigned",
    "unsigned_view",
]
