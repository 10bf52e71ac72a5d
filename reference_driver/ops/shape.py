"""Shape and data-movement operations: reshaping, slicing, padding, block rearrangements.

RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, CONCATENATION, SPLIT, SLICE,
STRIDED_SLICE, TILE, GATHER, PAD, PAD_V2, SPACE_TO_DEPTH, DEPTH_TO_SPACE,
SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND and CHANNEL_SHUFFLE move elements without
arithmetic, so every operand type (float16 and int32 included) is handled
alike. Only CONCATENATION computes: since HAL 1.2 its quant8 inputs may carry
other parameters than the output, and are then requantized in float as the
Android 10 CPU reference does. PAD and SPACE_TO_BATCH_ND fill with a real 0
(a quant8 tensor's zero point), PAD_V2 with its pad value.

The signed forms (TENSOR_QUANT8_ASYMM_SIGNED, HAL 1.3) run on the operation's unsigned
view (``checked``'s ``via_unsigned``): bytes and zero points moved by 128, PAD_V2's
pad value with them (a signed input's pad value must be an int8), CONCATENATION's
requantization unchanged.

Each operation has one ``shape`` function that checks its parameter values
and derives output shapes from input shapes whose entries may be unknown
(None): ``validate`` runs it on the declared dimensions and the constants,
``prepare`` on the actual arrays, so a bad constant is refused at prepare time
and a bad model input at execution, both as INVALID_ARGUMENT.

Quantized outputs: where the CPU reference fixes the output's scale and zero
point to the input's ("forced"), other declared parameters fail the execution
(GENERAL_FAILURE), as there; GATHER and SLICE copy bytes without checking.
Zero-sized inputs: CONCATENATION, TRANSPOSE and SLICE accept them; every other
operation here fails the execution.

Android 11's corrections, followed at every HAL level: a SQUEEZE or
STRIDED_SLICE result that would have rank 0 has shape [1], and STRIDED_SLICE
refuses shrink_axis_mask on an axis whose stride is negative.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.shape``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hal.checks.shape import (
    _Q8A,
    _block_shape,
    _int,
    _ints,
    _layout,
    _paddings,
    _permutation,
    _slice_bounds,
    _strided_axes,
)
from hal.types import Operand, OperandType, OperationType, numpy_dtype
from reference_driver.ops.base import OpArgs, OperationImpl, OpFailure, checked
from reference_driver.ops.common import normalize_axis

RunFn = Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]]

_F32 = OperandType.TENSOR_FLOAT32

_F16 = OperandType.TENSOR_FLOAT16

_I32 = OperandType.TENSOR_INT32

_ARITH = (_F32, _F16, _Q8A)

_WITH_INT = (_F32, _F16, _I32, _Q8A)


def _tensor(args: OpArgs, slot: int) -> np.ndarray:
    value = args.values[slot]
    if value is None:
        raise OpFailure(f"input {slot} has no value")
    return value


def _make(op: OperationType, types: tuple[int, ...], run: RunFn) -> OperationImpl:
    def supports(args: OpArgs) -> bool:
        return args.inputs[0].type in types

    def execute(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
        results = run(args, shapes)
        return [
            np.ascontiguousarray(result, dtype=numpy_dtype(output.type))
            for result, output in zip(results, args.outputs, strict=True)
        ]

    quantized_scalars = (2,) if op == OperationType.PAD_V2 else ()
    return checked(op, supports, execute, via_unsigned=True, quantized_scalars=quantized_scalars)


def _reshape_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    return [_tensor(args, 0).reshape(shapes[0])]


def _transpose_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data = _tensor(args, 0)
    return [np.transpose(data, _permutation(args, data.ndim))]


def _tile_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    return [np.tile(_tensor(args, 0), _ints(args, 1))]


def _channel_shuffle_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data, groups = _tensor(args, 0), _int(args, 1)
    axis = normalize_axis(_int(args, 2), data.ndim)
    split = (*data.shape[:axis], groups, data.shape[axis] // groups, *data.shape[axis + 1 :])
    # out[k*G + g] = in[g*S + k]: view the axis as (G, S) and read it as (S, G).
    return [np.swapaxes(data.reshape(split), axis, axis + 1).reshape(data.shape)]


def _requantize(values: np.ndarray, source: Operand, target: Operand) -> np.ndarray:
    """The CPU reference's float requantization: round(q*s + b) + zp_out, half away from 0."""
    if (source.scale, source.zero_point) == (target.scale, target.zero_point):
        return values
    scale = np.float32(source.scale) / np.float32(target.scale)
    bias = -np.float32(source.zero_point) * scale
    real = (values.astype(np.float32) * scale + bias).astype(np.float64)
    rounded = np.where(real >= 0, np.floor(real + 0.5), np.ceil(real - 0.5))
    return np.clip(rounded + target.zero_point, 0, 255).astype(np.uint8)


def _concatenation_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    count = len(args.inputs) - 1
    parts = [_tensor(args, i) for i in range(count)]
    if args.outputs[0].type == _Q8A:
        parts = [_requantize(p, args.inputs[i], args.outputs[0]) for i, p in enumerate(parts)]
    return [np.concatenate(parts, axis=_int(args, count))]


def _split_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data = _tensor(args, 0)
    axis = normalize_axis(_int(args, 1), data.ndim)
    return np.split(data, len(args.outputs), axis=axis)


def _slice_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data = _tensor(args, 0)
    bounds = _slice_bounds(args, data.shape)
    return [data[tuple(slice(b, b + s) for b, s in bounds)]]


def _strided_slice_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data = _tensor(args, 0)
    for axis, (start, stride, size) in enumerate(_strided_axes(args, data.shape)):
        data = np.take(data, start + stride * np.arange(size), axis=axis)
    return [data.reshape(shapes[0])]


def _gather_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data = _tensor(args, 0)
    axis = normalize_axis(_int(args, 1), data.ndim)
    return [np.take(data, _tensor(args, 2), axis=axis)]


def _pad_value(args: OpArgs) -> float | int:
    """PAD: a real 0; PAD_V2: input 2, for quant8 the low byte of an already quantized INT32."""
    if len(args.inputs) < 3:
        return args.inputs[0].zero_point if args.inputs[0].type == _Q8A else 0
    value = args.scalar(2)
    return int(value) & 0xFF if args.inputs[0].type == _Q8A else value


def _pad_run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    data = _tensor(args, 0)
    pads = _paddings(args, 1, data.ndim)
    return [np.pad(data, pads, constant_values=np.array(_pad_value(args), dtype=data.dtype))]


def _image_run(slot: int, move: Callable[[OpArgs, np.ndarray], np.ndarray]) -> RunFn:
    """Run ``move`` on the NHWC view of input 0 and give the result back in its layout."""

    def run(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
        nchw = bool(_layout(args, slot))
        data = _tensor(args, 0)
        result = move(args, np.transpose(data, (0, 2, 3, 1)) if nchw else data)
        return [np.transpose(result, (0, 3, 1, 2)) if nchw else result]

    return run


def _space_to_depth_move(args: OpArgs, data: np.ndarray) -> np.ndarray:
    n, h, w, c = data.shape
    b = _int(args, 1)
    blocks = data.reshape(n, h // b, b, w // b, b, c)  # [n, y, i, x, j, c]
    return blocks.transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


def _depth_to_space_move(args: OpArgs, data: np.ndarray) -> np.ndarray:
    n, h, w, c = data.shape
    b = _int(args, 1)
    blocks = data.reshape(n, h, w, b, b, c // (b * b))
    return blocks.transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def _space_to_batch_move(args: OpArgs, data: np.ndarray) -> np.ndarray:
    bh, bw = _block_shape(args)
    pads = np.concatenate([[[0, 0]], _paddings(args, 2, 2), [[0, 0]]])
    fill = args.inputs[0].zero_point if args.inputs[0].type == _Q8A else 0
    padded = np.pad(data, pads, constant_values=np.array(fill, dtype=data.dtype))
    n, h, w, c = padded.shape
    blocks = padded.reshape(n, h // bh, bh, w // bw, bw, c)  # [n, y, i, x, j, c]
    return blocks.transpose(2, 4, 0, 1, 3, 5).reshape(bh * bw * n, h // bh, w // bw, c)


def _batch_to_space_move(args: OpArgs, data: np.ndarray) -> np.ndarray:
    bh, bw = _block_shape(args)
    b, h, w, c = data.shape
    n = b // (bh * bw)
    blocks = data.reshape(bh, bw, n, h, w, c)  # [i, j, n, y, x, c]
    return blocks.transpose(2, 3, 0, 4, 1, 5).reshape(n, h * bh, w * bw, c)


_RUNS: tuple[tuple[OperationType, tuple[int, ...], RunFn], ...] = (
    (OperationType.RESHAPE, _ARITH, _reshape_run),
    (OperationType.SQUEEZE, _ARITH, _reshape_run),
    (OperationType.EXPAND_DIMS, _WITH_INT, _reshape_run),
    (OperationType.TRANSPOSE, _ARITH, _transpose_run),
    (OperationType.CONCATENATION, _ARITH, _concatenation_run),
    (OperationType.SPLIT, _WITH_INT, _split_run),
    (OperationType.SLICE, _WITH_INT, _slice_run),
    (OperationType.STRIDED_SLICE, _ARITH, _strided_slice_run),
    (OperationType.TILE, _WITH_INT, _tile_run),
    (OperationType.GATHER, _WITH_INT, _gather_run),
    (OperationType.PAD, _ARITH, _pad_run),
    (OperationType.PAD_V2, _ARITH, _pad_run),
    (OperationType.SPACE_TO_DEPTH, _ARITH, _image_run(2, _space_to_depth_move)),
    (OperationType.DEPTH_TO_SPACE, _ARITH, _image_run(2, _depth_to_space_move)),
    (OperationType.SPACE_TO_BATCH_ND, _ARITH, _image_run(3, _space_to_batch_move)),
    (OperationType.BATCH_TO_SPACE_ND, _ARITH, _image_run(2, _batch_to_space_move)),
    (OperationType.CHANNEL_SHUFFLE, _ARITH, _channel_shuffle_run),
)

IMPLEMENTATIONS: tuple[OperationImpl, ...] = tuple(_make(*run) for run in _RUNS)
