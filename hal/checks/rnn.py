"""The checks of the recurrent operations: RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
BIDIRECTIONAL_SEQUENCE_RNN, SVDF and QUANTIZED_16BIT_LSTM.

Each operand's dimensions are named (batch, input, units, memory...) and equal
names must have equal sizes: judged on the declared dimensions at preparation, on
the actual ones at execution. Activations must be 0..3 (at execution too, when
given as a model input), SVDF's rank must divide its filters, QUANTIZED_16BIT_LSTM's
quantization must be the fixed one. The sequence operations may have their HAL 1.3
final-state outputs (shaped as the state inputs), and BIDIRECTIONAL_SEQUENCE_RNN's
auxiliary input may come without its weights (HAL 1.3's parallel linking: the
backward direction reads it; hal.validation refuses it in older models). ``reference_driver/ops/rnn.py`` computes.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from hal.checks.base import (
    OpArgs,
    OperationCheck,
    OpFailure,
    OpInvalid,
)
from hal.checks.common import activation_code, unify_shapes, valid_activation
from hal.types import OperandLifeTime, OperationType

Shape = tuple[int, ...]

Layout = Mapping[int, tuple[str, ...]]

"""Input slot -> the names of its dimensions; equal names must have equal sizes."""


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def _declared(args: OpArgs, slot: int, optional: frozenset[int] = frozenset()) -> Shape | None:
    """Declared dims of input ``slot`` (0 = unknown); None if not to be judged at prepare.

    That is: omitted (NO_VALUE), of unknown rank, or an ``optional`` slot fed by a
    model input, which the request may give no value (its declared dims, often
    ``{0}``, then describe no tensor; a value it is given is checked at execution).
    """
    operand = args.inputs[slot]
    if operand.lifetime == OperandLifeTime.NO_VALUE or not operand.dimensions:
        return None
    if slot in optional and operand.lifetime == OperandLifeTime.MODEL_INPUT:
        return None
    return tuple(operand.dimensions)


def _actual(args: OpArgs, slot: int) -> Shape | None:
    value = args.values[slot]
    return None if value is None else value.shape


def _check_declared(
    args: OpArgs, layout: Layout, optional: frozenset[int] = frozenset()
) -> str | None:
    return unify_shapes(layout, lambda slot: _declared(args, slot, optional))[1] or None


def _check_actual(args: OpArgs, layout: Layout) -> dict[str, int]:
    """Sizes from the actual inputs: OpInvalid if they disagree, OpFailure if zero-sized."""
    for slot in layout:
        shape = _actual(args, slot)
        if shape is not None and 0 in shape:
            raise OpFailure(f"input {slot} is zero-sized {list(shape)}")
    sizes, reason = unify_shapes(layout, lambda slot: _actual(args, slot))
    if reason:
        raise OpInvalid(reason)
    return sizes


def _constant(args: OpArgs, slot: int) -> int | None:
    """A constant scalar's value (as int), None when it is not known at prepare time."""
    value = args.values[slot]
    return None if value is None else int(value.item())


def _rnn_validate(args: OpArgs) -> str | None:
    layout = {0: ("batch", "input"), 1: ("units", "input"), 2: ("units", "units")}
    layout |= {3: ("units",), 4: ("batch", "units")}
    return valid_activation(args, 5) or _check_declared(args, layout)


def _rnn_prepare(args: OpArgs) -> list[Shape]:
    layout = {0: ("batch", "input"), 1: ("units", "input"), 2: ("units", "units")}
    sizes = _check_actual(args, layout | {3: ("units",), 4: ("batch", "units")})
    shape = (sizes["batch"], sizes["units"])
    activation_code(args, 5)
    return [shape, shape]


# UNIDIRECTIONAL_SEQUENCE_RNN -------------------------------------------------


def _sequence(time_major: int | None, feature: str) -> tuple[str, ...] | None:
    if time_major is None:
        return None
    return ("time", "batch", feature) if time_major else ("batch", "time", feature)


def _time_major_int(args: OpArgs) -> int | None:
    value = _constant(args, 6)
    if value is not None and value not in (0, 1):
        raise OpInvalid(f"time_major is {value}; it must be 0 or 1")
    return value


def _uni_layout(time_major: int | None) -> dict[int, tuple[str, ...]]:
    layout = {1: ("units", "input"), 2: ("units", "units"), 3: ("units",), 4: ("batch", "units")}
    sequence = _sequence(time_major, "input")
    return layout if sequence is None else {0: sequence, **layout}


def _uni_outputs_reason(args: OpArgs) -> str | None:
    count = len(args.outputs)
    if count in (1, 2):
        return None
    return f"the operation has {count} outputs; it takes 1, or 2 with the final hidden state"


def _uni_validate(args: OpArgs) -> str | None:
    try:
        time_major = _time_major_int(args)
    except OpInvalid as error:
        return str(error)
    return (
        _uni_outputs_reason(args)
        or valid_activation(args, 5)
        or _check_declared(args, _uni_layout(time_major))
    )


def _uni_prepare(args: OpArgs) -> list[Shape]:
    reason = _uni_outputs_reason(args)
    if reason:
        raise OpInvalid(reason)
    time_major = _time_major_int(args)
    sizes = _check_actual(args, _uni_layout(time_major))
    activation_code(args, 5)
    shapes = [tuple(sizes[name] for name in _sequence(time_major, "units"))]
    if len(args.outputs) == 2:  # HAL 1.3: the final hidden state
        shapes.append((sizes["batch"], sizes["units"]))
    return shapes


# BIDIRECTIONAL_SEQUENCE_RNN --------------------------------------------------

_BIDI_WEIGHTS = {
    1: ("fw_units", "input"),
    2: ("fw_units", "fw_units"),
    3: ("fw_units",),
    4: ("batch", "fw_units"),
    5: ("bw_units", "input"),
    6: ("bw_units", "bw_units"),
    7: ("bw_units",),
    8: ("batch", "bw_units"),
    10: ("fw_units", "aux"),
    11: ("bw_units", "aux"),
}

_BIDI_OPTIONAL = frozenset({9, 10, 11})

"""The auxiliary input and its weights."""


def _bidi_layout(time_major: bool | None, parallel: bool) -> dict[int, tuple[str, ...]]:
    """The named dimensions; with parallel linking the backward weights (input 5) take
    the auxiliary input's features, which the backward direction reads."""
    layout = dict(_BIDI_WEIGHTS)
    if parallel:
        layout[5] = ("bw_units", "aux")
    if time_major is None:
        return layout
    return {0: _sequence(time_major, "input"), 9: _sequence(time_major, "aux")} | layout


def _bool_constant(args: OpArgs, slot: int) -> bool | None:
    value = args.values[slot]
    return None if value is None else bool(value.item())


def _aux_present(args: OpArgs, at_prepare: bool) -> list[bool]:
    if at_prepare:
        return [args.inputs[s].lifetime != OperandLifeTime.NO_VALUE for s in (9, 10, 11)]
    return [args.values[s] is not None for s in (9, 10, 11)]


def _aux_reason(present: list[bool]) -> str | None:
    """Why the auxiliary operands given do not make one of the three configurations: none;
    the input with both weights (cross-linking); the input alone (parallel linking, 1.3)."""
    aux, fw, bw = present
    if fw != bw:
        return "the forward and backward auxiliary weights (inputs 10, 11) go together"
    if fw and not aux:
        return "the auxiliary weights (inputs 10, 11) need the auxiliary input (input 9)"
    return None


def _is_parallel(present: list[bool]) -> bool:
    return present[0] and not present[1]


def _bidi_outputs_reason(args: OpArgs, merge: bool | None) -> str | None:
    """merge_outputs against the output count: 1 (merged) or 2, each with the two final
    hidden states after it since HAL 1.3 (3 or 4)."""
    count = len(args.outputs)
    if merge is None:
        return None if count in (1, 2, 3, 4) else f"the operation has {count} outputs"
    wanted = (1, 3) if merge else (2, 4)
    if count in wanted:
        return None
    return f"merge_outputs is {merge} but the operation has {count} outputs"


def _bidi_validate(args: OpArgs) -> str | None:
    present = _aux_present(args, at_prepare=True)
    reason = _aux_reason(present) or _bidi_outputs_reason(args, _bool_constant(args, 14))
    if reason:
        return reason
    layout = _bidi_layout(_bool_constant(args, 13), _is_parallel(present))
    return valid_activation(args, 12) or _check_declared(args, layout, _BIDI_OPTIONAL)


def _bidi_prepare(args: OpArgs) -> list[Shape]:
    present = _aux_present(args, at_prepare=False)
    time_major = bool(args.scalar(13))
    merge = bool(args.scalar(14))
    reason = _aux_reason(present) or _bidi_outputs_reason(args, merge)
    if reason:
        raise OpInvalid(reason)
    sizes = _check_actual(args, _bidi_layout(time_major, _is_parallel(present)))

    def shape(units: int) -> Shape:
        named = {**sizes, "units": units}
        return tuple(named[name] for name in _sequence(time_major, "units"))

    fw, bw = sizes["fw_units"], sizes["bw_units"]
    activation_code(args, 12)
    shapes = [shape(fw + bw)] if merge else [shape(fw), shape(bw)]
    if len(args.outputs) > (1 if merge else 2):  # HAL 1.3: the final forward and backward states
        shapes += [(sizes["batch"], fw), (sizes["batch"], bw)]
    return shapes


# ---------------------------------------------------------------------------
# SVDF
# ---------------------------------------------------------------------------

_SVDF_LAYOUT = {
    0: ("batch", "input"),
    1: ("filters", "input"),
    2: ("filters", "memory"),
    3: ("units",),
    4: ("batch", "state"),
}

_SVDF_OPTIONAL = frozenset({3})

"""The bias."""


def _svdf_sizes(sizes: dict[str, int], rank: int | None) -> str:
    """Why the filters, units, state sizes and rank do not fit together ('' if they do)."""
    if rank is None:
        return ""
    if rank <= 0:
        return f"rank is {rank}; it must be positive"
    filters = sizes.get("filters")
    if filters is None:
        return ""
    if filters % rank:
        return f"{filters} filters (weights_feature rows) are not a multiple of rank {rank}"
    units = sizes.get("units")
    if units is not None and units * rank != filters:
        return f"bias has {units} units; {filters} filters at rank {rank} make {filters // rank}"
    state, memory = sizes.get("state"), sizes.get("memory")
    if state is not None and memory is not None and state != filters * memory:
        return f"state has {state} columns; {filters} filters x memory {memory} need {filters * memory}"
    return ""


def _svdf_validate(args: OpArgs) -> str | None:
    sizes, reason = unify_shapes(_SVDF_LAYOUT, lambda slot: _declared(args, slot, _SVDF_OPTIONAL))
    return reason or valid_activation(args, 6) or _svdf_sizes(sizes, _constant(args, 5)) or None


def _svdf_prepare(args: OpArgs) -> list[Shape]:
    sizes = _check_actual(args, _SVDF_LAYOUT)
    rank = int(args.scalar(5))
    reason = _svdf_sizes(sizes, rank)
    if reason:
        raise OpInvalid(reason)
    batch, filters = sizes["batch"], sizes["filters"]
    activation_code(args, 6)
    return [(batch, filters * sizes["memory"]), (batch, filters // rank)]


_QLSTM_LAYOUT: dict[int, tuple[str, ...]] = {0: ("batch", "input")}
_QLSTM_LAYOUT |= dict.fromkeys((1, 2, 3, 4), ("output", "input"))
_QLSTM_LAYOUT |= dict.fromkeys((5, 6, 7, 8), ("output", "output"))
_QLSTM_LAYOUT |= dict.fromkeys((9, 10, 11, 12), ("output",))
_QLSTM_LAYOUT |= dict.fromkeys((13, 14), ("batch", "output"))

_HALF_Q8 = (1.0 / 128.0, 128)

_CELL_SCALE = 2.0**-11


def _qlstm_quantization(args: OpArgs) -> str | None:
    """The fixed quantization the operation works in (docs/operations.md,
    QUANTIZED_16BIT_LSTM (73))."""
    ins = args.inputs
    for slot in (0, 14):
        if (ins[slot].scale, ins[slot].zero_point) != _HALF_Q8:
            return f"input {slot} must have scale 1/128 and zeroPoint 128"
    weights = {(np.float32(ins[s].scale), ins[s].zero_point) for s in range(1, 9)}
    if len(weights) != 1:
        return "the eight weight tensors (inputs 1-8) must share scale and zeroPoint"
    bias_scale = np.float32(ins[1].scale) / 128.0
    if any(np.float32(ins[s].scale) != bias_scale or ins[s].zero_point for s in range(9, 13)):
        return "the biases (inputs 9-12) must have scale weights_scale / 128 and zeroPoint 0"
    if ins[13].scale != _CELL_SCALE or ins[13].zero_point != 0:
        return "the cell state (input 13) must have scale 2**-11 and zeroPoint 0"
    return None


def _qlstm_validate(args: OpArgs) -> str | None:
    return _qlstm_quantization(args) or _check_declared(args, _QLSTM_LAYOUT)


def _qlstm_prepare(args: OpArgs) -> list[Shape]:
    sizes = _check_actual(args, _QLSTM_LAYOUT)
    shape = (sizes["batch"], sizes["output"])
    return [shape, shape]


CHECKS = (
    OperationCheck(OperationType.RNN, _rnn_validate, _rnn_prepare),
    OperationCheck(OperationType.UNIDIRECTIONAL_SEQUENCE_RNN, _uni_validate, _uni_prepare),
    OperationCheck(OperationType.BIDIRECTIONAL_SEQUENCE_RNN, _bidi_validate, _bidi_prepare),
    OperationCheck(OperationType.SVDF, _svdf_validate, _svdf_prepare),
    OperationCheck(OperationType.QUANTIZED_16BIT_LSTM, _qlstm_validate, _qlstm_prepare),
)
