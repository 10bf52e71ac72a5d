"""Helpers the box-based families (detection, proposals) share: inputs, IoU, NMS removal.

Not a family (it checks no operation); the check modules and the reference driver's
family modules import it as they import ``common``.
"""

from __future__ import annotations

import numpy as np

from hal.checks.base import OpArgs, OpFailure


def tensor_input(args: OpArgs, slot: int) -> np.ndarray:
    """Input ``slot``'s value; OpFailure when it has none."""
    value = args.values[slot]
    if value is None:
        raise OpFailure(f"input {slot} has no value")
    return value


def real_input(args: OpArgs, slot: int) -> np.ndarray:
    """Input ``slot`` in float32: widened, or dequantized as ``(q - zp) * scale`` in float."""
    value = tensor_input(args, slot)
    if value.dtype.kind == "f":
        return value.astype(np.float32)
    operand = args.inputs[slot]
    offsets = (value.astype(np.int64) - operand.zero_point).astype(np.float32)
    return offsets * np.float32(operand.scale)


def float_scalar(args: OpArgs, slot: int) -> np.float32:
    """A FLOAT32 or FLOAT16 scalar input as a C float."""
    return np.float32(args.scalar(slot))


def iou(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Intersection over union of ``box`` [4] with each of ``others`` [n, 4] (x1, y1, x2,
    y2), in float32, areas without the "+1" (0/0 gives NaN, which no threshold passes)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        area = (box[2] - box[0]) * (box[3] - box[1])
        areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
        width = np.maximum(np.minimum(others[:, 2], box[2]) - np.maximum(others[:, 0], box[0]), 0)
        height = np.maximum(np.minimum(others[:, 3], box[3]) - np.maximum(others[:, 1], box[1]), 0)
        inter = (width * height).astype(np.float32)
        return inter / (areas + area - inter)


def swap_remove(order: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``order`` without the entries ``keep`` rejects, in the order the Android 10
    reference's swap-with-last removal loop leaves them: scanning left to right, a
    removed entry is swapped with the last unexamined one, so each hole among the first
    ``keep.sum()`` places takes a survivor from the tail, the last one first."""
    count = int(keep.sum())
    result = order[:count].copy()
    holes = np.flatnonzero(~keep[:count])
    result[holes] = order[count:][keep[count:]][::-1]
    return result
