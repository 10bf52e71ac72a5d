"""The checks of QUANTIZED_LSTM (95): one step of an LSTM on signed 8-bit activations,
8-bit symmetric weights and a 16-bit cell state (docs/operations.md, QUANTIZED_LSTM (95)).

Which of the 32 inputs may be left out, and in which combinations (CIFG, peephole,
projection, layer norm), is judged twice: on NO_VALUE operands by the catalog's
``qlstm_optional_sets`` rule when the model is validated, and here, at execution, on
what the request actually gives (an optional input fed by a model input may come
without a value). Every operand's dimensions are named (batch, input, units, output)
and equal names must have equal sizes, on the declared dimensions at preparation and
on the actual ones at execution.

Quantization: the four intermediate scales (inputs 26-29; the input gate's only
without CIFG) and the hidden-state scale (input 31) must be positive and finite
(INVALID_ARGUMENT). The cell state's scale must be a power of two 2**cs with
-15 <= cs <= -9: Android 11 fails the execution when it is not a power of two or
cs > -9 (GENERAL_FAILURE here too), and has no tanh for cs < -15 (which
TensorFlow Lite refuses); both are failures of a valid model, not invalid ones.
``reference_driver/ops/rnn.py`` computes.
"""

from __future__ import annotations

import math

import numpy as np

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.checks.common import unify_shapes
from hal.types import OperandLifeTime, OperationType

Shape = tuple[int, ...]

NAMES = {
    0: "input",
    1: "input-to-input weights",
    2: "input-to-forget weights",
    3: "input-to-cell weights",
    4: "input-to-output weights",
    5: "recurrent-to-input weights",
    6: "recurrent-to-forget weights",
    7: "recurrent-to-cell weights",
    8: "recurrent-to-output weights",
    9: "cell-to-input weights",
    10: "cell-to-forget weights",
    11: "cell-to-output weights",
    12: "input gate bias",
    13: "forget gate bias",
    14: "cell gate bias",
    15: "output gate bias",
    16: "projection weights",
    17: "projection bias",
    18: "output state",
    19: "cell state",
    20: "input layer-norm weights",
    21: "forget layer-norm weights",
    22: "cell layer-norm weights",
    23: "output layer-norm weights",
    24: "cell clip",
    25: "projection clip",
    26: "input gate intermediate scale",
    27: "forget gate intermediate scale",
    28: "cell gate intermediate scale",
    29: "output gate intermediate scale",
    30: "hidden-state zero point",
    31: "hidden-state scale",
}
"""Every input slot's name, as the messages say it."""

REQUIRED = (0, 2, 3, 4, 6, 7, 8, 13, 14, 15, 18, 19, 26, 27, 28, 29, 30, 31)
"""Inputs that may never be left out (the two clips may: no clipping)."""

LAYOUT: dict[int, tuple[str, ...]] = {0: ("batch", "input")}
LAYOUT |= dict.fromkeys((1, 2, 3, 4), ("units", "input"))
LAYOUT |= dict.fromkeys((5, 6, 7, 8), ("units", "output"))
LAYOUT |= dict.fromkeys((9, 10, 11, 12, 13, 14, 15), ("units",))
LAYOUT |= {16: ("output", "units"), 17: ("output",)}
LAYOUT |= {18: ("batch", "output"), 19: ("batch", "units")}
LAYOUT |= dict.fromkeys((20, 21, 22, 23), ("units",))

_OPTIONAL = frozenset({1, 5, 9, 10, 11, 12, 16, 17, 20, 21, 22, 23, 24, 25})

CELL_SHIFT_RANGE = (-15, -9)
"""The exponents cs the cell state's scale 2**cs may have."""


# ---------------------------------------------------------------------------
# Which inputs are given
# ---------------------------------------------------------------------------


def presence_reason(given: list[bool]) -> str | None:
    """Why this combination of given (True) and omitted optional inputs is not one the
    operation defines, or None."""
    for slot in REQUIRED:
        if not given[slot]:
            return f"input {slot} ({NAMES[slot]}) is required"
    cifg = not given[1]
    if given[5] == cifg:
        return "inputs 1 and 5 (input-to-input, recurrent-to-input weights) go together (CIFG)"
    if given[12] == cifg:
        state = "omitted with CIFG" if cifg else "given without CIFG"
        return f"input 12 (input gate bias) must be {state}"
    if cifg and given[9]:
        return "input 9 (cell-to-input weights) must be omitted with CIFG"
    peephole = [given[s] for s in (9, 10, 11)]
    if any(peephole) and not (given[10] and given[11] and (given[9] or cifg)):
        return "peephole inputs 9-11 (cell-to-gate weights) are incomplete"
    if cifg and given[20]:
        return "input 20 (input layer-norm weights) must be omitted with CIFG"
    norm = [given[s] for s in ((21, 22, 23) if cifg else (20, 21, 22, 23))]
    if any(norm) and not all(norm):
        first = 21 if cifg else 20
        return f"layer-norm inputs {first}-23 must be given together or all omitted"
    if given[17] and not given[16]:
        return "input 17 (projection bias) needs input 16 (projection weights)"
    return None


def _qlstm_shapes(dims_of) -> tuple[dict[str, int], str]:
    """The size of every named dimension, and why the shapes disagree ('' if they do not)."""
    return unify_shapes(LAYOUT, dims_of, lambda slot: f"input {slot} ({NAMES[slot]})")


def _given_at_execution(args: OpArgs) -> list[bool]:
    return [value is not None for value in args.values]


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def _declared(args: OpArgs, slot: int) -> Shape | None:
    operand = args.inputs[slot]
    if operand.lifetime == OperandLifeTime.NO_VALUE or not operand.dimensions:
        return None
    if slot in _OPTIONAL and operand.lifetime == OperandLifeTime.MODEL_INPUT:
        return None  # the request may give it no value
    return tuple(operand.dimensions)


def _projection_reason(sizes: dict[str, int], projection: bool) -> str:
    units, output = sizes.get("units"), sizes.get("output")
    if projection or units is None or output is None or units == output:
        return ""
    return f"output size {output} differs from {units} units without projection weights"


# ---------------------------------------------------------------------------
# Scalars and quantization
# ---------------------------------------------------------------------------


def _scale_reason(slot: int, value: float) -> str | None:
    if math.isfinite(value) and value > 0:
        return None
    return f"input {slot} ({NAMES[slot]}) is {value}; a scale must be positive and finite"


def _scales_reason(args: OpArgs, cifg: bool | None) -> str | None:
    """Why a known intermediate or hidden-state scale is not a scale (the input gate's
    is judged only when CIFG is known to be off)."""
    slots = (27, 28, 29, 31) if cifg in (True, None) else (26, 27, 28, 29, 31)
    for slot in slots:
        value = args.values[slot]
        if value is not None:
            reason = _scale_reason(slot, float(value.item()))
            if reason:
                return reason
    return None


def cell_shift(scale: float) -> int | None:
    """The exponent cs of a cell-state scale 2**cs, as Android 11 finds it (a float32
    log2 within 1e-3 of an integer), or None when the scale is no power of two."""
    if not math.isfinite(scale) or scale <= 0:
        return None
    inverse_ln2 = np.float32(1.0) / np.float32(math.log(2.0))
    log2 = float(np.float32(math.log(np.float32(scale))) * inverse_ln2)
    rounded = math.copysign(math.floor(abs(log2) + 0.5), log2)  # std::round
    if abs(log2 - rounded) >= 1e-3:
        return None
    return int(rounded)


def _cell_scale_failure(args: OpArgs) -> None:
    scale = args.inputs[19].scale
    shift = cell_shift(scale)
    low, high = CELL_SHIFT_RANGE
    if shift is None:
        raise OpFailure(f"cell state scale {scale} (input 19) is not a power of two")
    if not low <= shift <= high:
        raise OpFailure(f"cell state scale 2**{shift} (input 19) is outside 2**{low} .. 2**{high}")


# ---------------------------------------------------------------------------
# validate and prepare
# ---------------------------------------------------------------------------


def _validate(args: OpArgs) -> str | None:
    """What the constants and declared dimensions already decide."""
    lifetime = args.inputs[1].lifetime
    cifg: bool | None = None
    if lifetime == OperandLifeTime.NO_VALUE:
        cifg = True
    elif lifetime in (OperandLifeTime.CONSTANT_COPY, OperandLifeTime.CONSTANT_REFERENCE):
        cifg = False
    reason = _scales_reason(args, cifg)
    if reason:
        return reason
    sizes, reason = _qlstm_shapes(lambda slot: _declared(args, slot))
    if reason:
        return reason
    projection = args.inputs[16].lifetime in (
        OperandLifeTime.CONSTANT_COPY,
        OperandLifeTime.CONSTANT_REFERENCE,
    )
    if args.inputs[16].lifetime == OperandLifeTime.NO_VALUE or projection:
        return _projection_reason(sizes, projection) or None
    return None


def _prepare(args: OpArgs) -> list[Shape]:
    given = _given_at_execution(args)
    reason = presence_reason(given)
    if reason:
        raise OpInvalid(reason)
    for slot in LAYOUT:
        value = args.values[slot]
        if value is not None and value.size == 0:
            raise OpFailure(f"input {slot} ({NAMES[slot]}) is zero-sized {list(value.shape)}")
    sizes, reason = _qlstm_shapes(
        lambda slot: None if args.values[slot] is None else args.values[slot].shape
    )
    reason = reason or _projection_reason(sizes, given[16])
    if reason:
        raise OpInvalid(reason)
    reason = _scales_reason(args, not given[1])
    if reason:
        raise OpInvalid(reason)
    _cell_scale_failure(args)
    batch, units, output = sizes["batch"], sizes["units"], sizes["output"]
    return [(batch, output), (batch, units), (batch, output)]


CHECKS = (OperationCheck(OperationType.QUANTIZED_LSTM, _validate, _prepare),)
