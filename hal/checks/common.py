"""Helpers several operation families' checks share: fused activations, axes, ranks,
declared shapes, named dimensions.

Check modules import from here and never from each other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from hal.checks.base import OpArgs, OpInvalid
from hal.types import OperandType

FLOAT_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)
Q8A = OperandType.TENSOR_QUANT8_ASYMM

FLOAT_CLAMP = {0: (None, None), 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}
"""Fused activation code -> (low, high) bounds on float outputs."""


def activation_code(args: OpArgs, slot: int) -> int:
    """The fused activation at input ``slot``; OpInvalid unless it is 0..3."""
    code = int(args.scalar(slot))
    if code not in FLOAT_CLAMP:
        raise OpInvalid(f"fused activation {code} is not one of 0 (NONE) .. 3 (RELU6)")
    return code


def valid_activation(args: OpArgs, slot: int) -> str | None:
    """For ``validate``: why the (constant) activation at ``slot`` is invalid, or None."""
    if args.values[slot] is None:
        return None
    code = int(args.values[slot].item())
    return None if code in FLOAT_CLAMP else f"fused activation {code} is not one of 0..3"


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """``axis`` in [-rank, rank) as a non-negative index; OpInvalid otherwise."""
    if not -rank <= axis < rank:
        raise OpInvalid(f"{what} {axis} is outside [-{rank}, {rank})")
    return axis % rank


def check_rank(values: np.ndarray, low: int, high: int, what: str = "input 0") -> None:
    if not low <= values.ndim <= high:
        raise OpInvalid(f"{what} has rank {values.ndim}; the operation takes {low} to {high}")


def declared_shape_reason(args: OpArgs) -> str | None:
    """The output has the input's shape: why the declared shapes cannot agree, or None."""
    source, target = args.inputs[0].dimensions, args.outputs[0].dimensions
    if not source or not target:  # an unknown rank matches anything
        return None
    if len(source) != len(target) or any(
        a and b and a != b for a, b in zip(source, target, strict=True)
    ):
        return f"output dimensions {list(target)} differ from the input's {list(source)}"
    return None


def unify_shapes(
    layout: Mapping[int, Sequence[str]],
    dims_of: Callable[[int], Sequence[int] | None],
    label: Callable[[int], str] = lambda slot: f"input {slot}",
) -> tuple[dict[str, int], str]:
    """The size of every named dimension of the inputs ``layout`` names (slot -> the names
    of its axes; a shape of None, or an axis of 0, is unknown and binds nothing), and why
    the shapes disagree ('' if they do not); ``label`` names a slot in the reason."""
    sizes: dict[str, int] = {}
    for slot, names in layout.items():
        dims = dims_of(slot)
        if dims is None:
            continue
        expected = f"[{', '.join(names)}]"
        if len(dims) != len(names):
            return sizes, f"{label(slot)} has shape {list(dims)}, expected {expected}"
        for name, size in zip(names, dims, strict=True):
            if size == 0:
                continue
            if sizes.setdefault(name, size) != size:
                return sizes, (
                    f"{label(slot)} has shape {list(dims)}, expected {expected} with "
                    f"{name} = {sizes[name]}"
                )
    return sizes, ""
