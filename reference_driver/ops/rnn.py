"""Recurrent operations: RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN,
SVDF and QUANTIZED_16BIT_LSTM.

What the operations take and compute is in docs/operations.md (RNN (24), SVDF (27),
BIDIRECTIONAL_SEQUENCE_RNN (43), QUANTIZED_16BIT_LSTM (73) and
UNIDIRECTIONAL_SEQUENCE_RNN (93)):

* the basic RNN cell is ``h_t = act(W x_t + R h_{t-1} + b)``; the sequence
  forms run it over time (time-major ``[T, B, I]`` or batch-major
  ``[B, T, I]``), the bidirectional one twice (forward from t = 0, backward
  from t = T - 1, each with its own weights and an optional auxiliary input);
* SVDF keeps a ``[batch, filters * memory]`` state: the newest column is the
  feature projection of the input, the output sums ``rank`` time-filtered
  filters per unit, and the state comes back shifted one step;
* QUANTIZED_16BIT_LSTM is one 8-bit LSTM step in the CPU reference's 16-bit
  fixed point (gemmlowp logistic and tanh), bit for bit, including the
  reference's pairing of the concatenated ``[x, h]`` vector with the weight
  columns ``[recurrent | input]`` (the discrepancy QUANTIZED_16BIT_LSTM (73)
  describes).

The activation scalar of the float operations is a FusedActivationFunc (0..3)
as the HAL defines it; the Android 10 CPU reference aborts on RELU1 for the
RNN family, which is computed here as the HAL defines it. Float16 is computed
in float32 and rounded back (the hidden state of a sequence is rounded to
float16 after every step, as the reference stores it); the CPU reference
accumulates in float16, which the float16 tolerance covers. No operation here
accepts a zero-sized input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from hal.types import OperandLifeTime, OperationType
from reference_driver.ops.base import (
    OpArgs,
    OperationImpl,
    OpFailure,
    OpInvalid,
    recurrent_cost,
)
from reference_driver.ops.common import (
    FLOAT_TYPES,
    Q8A,
    activation_code,
    apply_float_activation,
    to_float_type,
    valid_activation,
)
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    rounding_divide_by_pot,
)

Array = np.ndarray
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


def _unify(layout: Layout, dims_of: Callable[[int], Shape | None]) -> tuple[dict[str, int], str]:
    """The size of every named dimension, and why the shapes disagree ('' if they do not)."""
    sizes: dict[str, int] = {}
    for slot, names in layout.items():
        dims = dims_of(slot)
        if dims is None:
            continue
        expected = f"[{', '.join(names)}]"
        if len(dims) != len(names):
            return sizes, f"input {slot} has shape {list(dims)}, expected {expected}"
        for name, size in zip(names, dims, strict=True):
            if size == 0:
                continue
            if sizes.setdefault(name, size) != size:
                return sizes, (
                    f"input {slot} has shape {list(dims)}, expected {expected} with "
                    f"{name} = {sizes[name]}"
                )
    return sizes, ""


def _check_declared(
    args: OpArgs, layout: Layout, optional: frozenset[int] = frozenset()
) -> str | None:
    return _unify(layout, lambda slot: _declared(args, slot, optional))[1] or None


def _check_actual(args: OpArgs, layout: Layout) -> dict[str, int]:
    """Sizes from the actual inputs: OpInvalid if they disagree, OpFailure if zero-sized."""
    for slot in layout:
        shape = _actual(args, slot)
        if shape is not None and 0 in shape:
            raise OpFailure(f"input {slot} is zero-sized {list(shape)}")
    sizes, reason = _unify(layout, lambda slot: _actual(args, slot))
    if reason:
        raise OpInvalid(reason)
    return sizes


def _tensor(args: OpArgs, slot: int) -> Array:
    value = args.values[slot]
    if value is None:
        raise OpFailure(f"input {slot} has no value")
    return value


def _constant(args: OpArgs, slot: int) -> int | None:
    """A constant scalar's value (as int), None when it is not known at prepare time."""
    value = args.values[slot]
    return None if value is None else int(value.item())


def _float_supports(args: OpArgs) -> bool:
    return args.inputs[0].type in FLOAT_TYPES


# ---------------------------------------------------------------------------
# The basic RNN cell, one step and over time
# ---------------------------------------------------------------------------


def _widen(args: OpArgs, slot: int) -> Array:
    return _tensor(args, slot).astype(np.float32)


def _run_cell(
    projected: Array, recurrent: Array, h0: Array, code: int, dtype: np.dtype, reverse: bool
) -> Array:
    """Hidden states ``[T, B, U]`` of ``h_t = act(projected_t + R h_{t-1})``.

    ``projected`` ``[T, B, U]`` already holds ``W x_t (+ W_aux aux_t) + b``;
    with ``reverse`` time runs from T - 1 down to 0.
    """
    states = np.empty_like(projected)
    h = h0
    steps = range(projected.shape[0])
    for t in reversed(steps) if reverse else steps:
        h = apply_float_activation(projected[t] + h @ recurrent.T, code)
        h = h.astype(dtype).astype(np.float32)  # the state is held in the tensor's type
        states[t] = h
    return states


def _rnn_validate(args: OpArgs) -> str | None:
    layout = {0: ("batch", "input"), 1: ("units", "input"), 2: ("units", "units")}
    layout |= {3: ("units",), 4: ("batch", "units")}
    return valid_activation(args, 5) or _check_declared(args, layout)


def _rnn_prepare(args: OpArgs) -> list[Shape]:
    layout = {0: ("batch", "input"), 1: ("units", "input"), 2: ("units", "units")}
    sizes = _check_actual(args, layout | {3: ("units",), 4: ("batch", "units")})
    shape = (sizes["batch"], sizes["units"])
    return [shape, shape]


def _rnn_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    projected = _widen(args, 0) @ _widen(args, 1).T + _widen(args, 3)
    dtype = args.values[0].dtype
    h = _run_cell(
        projected[None], _widen(args, 2), _widen(args, 4), activation_code(args, 5), dtype, False
    )[0]
    out = to_float_type(h, dtype)
    return [out, out.copy()]


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


def _uni_validate(args: OpArgs) -> str | None:
    try:
        time_major = _time_major_int(args)
    except OpInvalid as error:
        return str(error)
    return valid_activation(args, 5) or _check_declared(args, _uni_layout(time_major))


def _uni_prepare(args: OpArgs) -> list[Shape]:
    time_major = _time_major_int(args)
    sizes = _check_actual(args, _uni_layout(time_major))
    return [tuple(sizes[name] for name in _sequence(time_major, "units"))]


def _time_first(values: Array, time_major: bool) -> Array:
    """A sequence tensor as ``[T, B, F]`` (or back: the swap is its own inverse)."""
    return values if time_major else values.transpose(1, 0, 2)


def _uni_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    time_major = bool(_time_major_int(args))
    dtype = args.values[0].dtype
    inputs = _time_first(_widen(args, 0), time_major)
    projected = inputs @ _widen(args, 1).T + _widen(args, 3)
    states = _run_cell(
        projected, _widen(args, 2), _widen(args, 4), activation_code(args, 5), dtype, False
    )
    return [to_float_type(_time_first(states, time_major), dtype)]


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


def _bidi_layout(time_major: bool | None) -> dict[int, tuple[str, ...]]:
    if time_major is None:
        return dict(_BIDI_WEIGHTS)
    sequences = {0: _sequence(time_major, "input"), 9: _sequence(time_major, "aux")}
    return sequences | _BIDI_WEIGHTS


def _bool_constant(args: OpArgs, slot: int) -> bool | None:
    value = args.values[slot]
    return None if value is None else bool(value.item())


def _aux_present(args: OpArgs, at_prepare: bool) -> list[bool]:
    if at_prepare:
        return [args.inputs[s].lifetime != OperandLifeTime.NO_VALUE for s in (9, 10, 11)]
    return [args.values[s] is not None for s in (9, 10, 11)]


def _bidi_validate(args: OpArgs) -> str | None:
    present = _aux_present(args, at_prepare=True)
    if any(present) and not all(present):
        return "the auxiliary input and its two weights (inputs 9-11) go together"
    merge = _bool_constant(args, 14)
    if merge is not None and len(args.outputs) != (1 if merge else 2):
        return f"merge_outputs is {merge} but the operation has {len(args.outputs)} outputs"
    layout = _bidi_layout(_bool_constant(args, 13))
    return valid_activation(args, 12) or _check_declared(args, layout, _BIDI_OPTIONAL)


def _bidi_prepare(args: OpArgs) -> list[Shape]:
    present = _aux_present(args, at_prepare=False)
    if any(present) and not all(present):
        raise OpInvalid("the auxiliary input and its two weights (inputs 9-11) go together")
    time_major = bool(args.scalar(13))
    merge = bool(args.scalar(14))
    if len(args.outputs) != (1 if merge else 2):
        raise OpInvalid(
            f"merge_outputs is {merge} but the operation has {len(args.outputs)} outputs"
        )
    sizes = _check_actual(args, _bidi_layout(time_major))

    def shape(units: int) -> Shape:
        named = {**sizes, "units": units}
        return tuple(named[name] for name in _sequence(time_major, "units"))

    fw, bw = sizes["fw_units"], sizes["bw_units"]
    return [shape(fw + bw)] if merge else [shape(fw), shape(bw)]


def _bidi_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    time_major = bool(args.scalar(13))
    dtype = args.values[0].dtype
    code = activation_code(args, 12)
    inputs = _time_first(_widen(args, 0), time_major)
    aux = None if args.values[9] is None else _time_first(_widen(args, 9), time_major)
    directions = []
    for first, aux_slot, reverse in ((1, 10, False), (5, 11, True)):
        projected = inputs @ _widen(args, first).T + _widen(args, first + 2)
        if aux is not None:
            projected = projected + aux @ _widen(args, aux_slot).T
        states = _run_cell(
            projected, _widen(args, first + 1), _widen(args, first + 3), code, dtype, reverse
        )
        directions.append(_time_first(states, time_major))
    if bool(args.scalar(14)):
        return [to_float_type(np.concatenate(directions, axis=2), dtype)]
    return [to_float_type(states, dtype) for states in directions]


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
    sizes, reason = _unify(_SVDF_LAYOUT, lambda slot: _declared(args, slot, _SVDF_OPTIONAL))
    return reason or valid_activation(args, 6) or _svdf_sizes(sizes, _constant(args, 5)) or None


def _svdf_prepare(args: OpArgs) -> list[Shape]:
    sizes = _check_actual(args, _SVDF_LAYOUT)
    rank = int(args.scalar(5))
    reason = _svdf_sizes(sizes, rank)
    if reason:
        raise OpInvalid(reason)
    batch, filters = sizes["batch"], sizes["filters"]
    return [(batch, filters * sizes["memory"]), (batch, filters // rank)]


def _svdf_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    dtype = args.values[0].dtype
    weights_time = _widen(args, 2)
    filters, memory = weights_time.shape
    batch = args.values[0].shape[0]
    state = _widen(args, 4).reshape(batch, filters, memory).copy()
    state[:, :, -1] = _widen(args, 0) @ _widen(args, 1).T
    filtered = (state * weights_time).sum(axis=2)
    units = shapes[1][1]
    output = filtered.reshape(batch, units, filters // units).sum(axis=2)
    if args.values[3] is not None:
        output = output + _widen(args, 3)
    output = apply_float_activation(output, activation_code(args, 6))
    shifted = np.concatenate([state[:, :, 1:], np.zeros((batch, filters, 1), np.float32)], axis=2)
    return [to_float_type(shifted.reshape(shapes[0]), dtype), to_float_type(output, dtype)]


# ---------------------------------------------------------------------------
# QUANTIZED_16BIT_LSTM: gemmlowp 16-bit fixed point, vectorised on int64 arrays
# ---------------------------------------------------------------------------

_INT16_MIN, _INT16_MAX = -(1 << 15), (1 << 15) - 1


def _wrap16(x: Array) -> Array:
    """What storing an int result into an int16 does: keep the low 16 bits."""
    return ((x + (1 << 15)) & 0xFFFF) - (1 << 15)


def _mul16(a: Array, b: Array | int) -> Array:
    """Fixed-point product: saturating rounding doubling high multiply on int16."""
    product = a * b
    total = product + np.where(product >= 0, 1 << 14, 1 - (1 << 14))
    result = np.where(total >= 0, total >> 15, -((-total) >> 15))  # C division truncates
    return np.where((a == _INT16_MIN) & (b == _INT16_MIN), _INT16_MAX, result)


def _saturating_add16(a: Array, b: Array | int) -> Array:
    return np.clip(a + b, _INT16_MIN, _INT16_MAX)


def _shift_left16(x: Array, exponent: int) -> Array:
    """Multiplication by 2**exponent saturating at the int16 range (a Rescale to fewer bits)."""
    if exponent == 0:
        return x
    threshold = (1 << (15 - exponent)) - 1
    return np.where(x > threshold, _INT16_MAX, np.where(x < -threshold, _INT16_MIN, x << exponent))


def _constant16(raw32: int) -> int:
    """A 32-bit fixed-point constant narrowed to 16 bits (rounding shift by 16)."""
    return int(rounding_divide_by_pot(np.int64(raw32), 16))


_EXP_MINUS_ONE_EIGHTH = _constant16(1895147668)
_ONE_THIRD = _constant16(715827883)
_BARREL = [(e, _constant16(m)) for e, m in ((-2, 1672461947), (-1, 1302514674), (0, 790015084))]
_BARREL += [(e, _constant16(m)) for e, m in ((1, 290630308), (2, 39332535), (3, 720401), (4, 242))]
_FORTY_EIGHT_SEVENTEENTHS = _constant16(1515870810)  # Q2.13
_MINUS_THIRTY_TWO_SEVENTEENTHS = _constant16(-1010580540)  # Q2.13
_ONE_Q0, _ONE_Q2, _HALF_Q0 = _INT16_MAX, 1 << 13, 1 << 14


def _exp_quarter_interval(a: Array) -> Array:
    """exp(a) for a in [-1/4, 0), Q0.15: Taylor expansion around -1/8."""
    x = _wrap16(a + (1 << 12))
    x2 = _mul16(x, x)
    x3 = _mul16(x2, x)
    x4_over_4 = rounding_divide_by_pot(_mul16(x2, x2), 2)
    tail = rounding_divide_by_pot(_wrap16(_mul16(_wrap16(x4_over_4 + x3), _ONE_THIRD) + x2), 1)
    correction = _mul16(np.full_like(x, _EXP_MINUS_ONE_EIGHTH), _wrap16(x + tail))
    return _saturating_add16(correction, _EXP_MINUS_ONE_EIGHTH)


def _exp_negative(a: Array, integer_bits: int) -> Array:
    """exp(a) for a <= 0 given with ``integer_bits`` integer bits; the result in Q0.15."""
    fractional = 15 - integer_bits
    quarter = 1 << (fractional - 2)
    a_mod = _wrap16((a & (quarter - 1)) - quarter)
    result = _exp_quarter_interval(_shift_left16(a_mod, integer_bits))
    remainder = _wrap16(a_mod - a)
    for exponent, multiplier in _BARREL:
        if integer_bits > exponent:
            bit = (remainder & (1 << (fractional + exponent))) != 0
            result = np.where(bit, _mul16(result, multiplier), result)
    return np.where(a == 0, _ONE_Q0, result)


def _newton_reciprocal(a: Array) -> Array:
    """About 2 / (1 + a) in Q2.13 for a in (0, 1) Q0.15: three Newton-Raphson steps."""
    total = a + _ONE_Q0
    half_denominator = np.where(total >= 0, (total + 1) >> 1, -((1 - total) >> 1))
    x = _wrap16(
        _FORTY_EIGHT_SEVENTEENTHS + _mul16(half_denominator, _MINUS_THIRTY_TWO_SEVENTEENTHS)
    )
    for _ in range(3):
        error = _wrap16(_ONE_Q2 - _mul16(half_denominator, x))
        x = _wrap16(x + _shift_left16(_mul16(x, error), 2))
    return x


def _logistic_q3(a: Array) -> Array:
    """logistic(a) in Q0.15 for a in Q3.12."""
    positive = a > 0
    magnitude = np.where(positive, a, _wrap16(-a))
    exp_negative = _exp_negative(_wrap16(-magnitude), 3)
    if_positive = _shift_left16(_newton_reciprocal(exp_negative), 1)
    result = np.where(positive, if_positive, _wrap16(_ONE_Q0 - if_positive))
    return np.where(a == 0, _HALF_Q0, result)


def _tanh(a: Array, integer_bits: int) -> Array:
    """tanh(a) in Q0.15 for a with ``integer_bits`` integer bits."""
    negative = a < 0
    non_positive = np.where(negative, a, _wrap16(-a))
    exp_twice = _exp_negative(non_positive, integer_bits + 1)  # exp(2a): same raw, one more bit
    magnitude = _shift_left16(_wrap16(_newton_reciprocal(exp_twice) - _ONE_Q2), 2)
    return np.where(a == 0, 0, np.where(negative, _wrap16(-magnitude), magnitude))


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


def _qlstm_gates(args: OpArgs) -> Array:
    """Pre-activations ``[B, 4 * O]`` in Q3.12, gate blocks in order input, cell, forget, output."""
    ints = [_tensor(args, slot).astype(np.int64) for slot in range(15)]
    weights_zero = args.inputs[1].zero_point
    # The reference's weight matrix: per gate, columns [recurrent | input] against [x | h].
    rows = [np.concatenate([ints[g + 4], ints[g]], axis=1) for g in (1, 3, 2, 4)]
    weights = np.concatenate(rows, axis=0) - weights_zero
    bias = np.concatenate([ints[9], ints[11], ints[10], ints[12]])
    vector = np.concatenate([ints[0], ints[14]], axis=1) - 128
    accumulator = vector @ weights.T + bias
    multiplier = quantize_multiplier(4096.0 * float(np.float32(args.inputs[9].scale)))
    return np.clip(multiply_by_quantized_multiplier(accumulator, *multiplier), -32768, 32767)


def _qlstm_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    gates = np.split(_qlstm_gates(args), 4, axis=1)
    input_gate, forget_gate, output_gate = (_logistic_q3(gates[i]) for i in (0, 2, 3))
    modulation = _tanh(gates[1], 3)
    previous = _tensor(args, 13).astype(np.int64)
    new_input = rounding_divide_by_pot(_mul16(input_gate, modulation), 4)  # Q0.15 -> Q4.11
    cell = _saturating_add16(new_input, _mul16(forget_gate, previous))
    hidden = _mul16(output_gate, _tanh(_shift_left16(cell, 1), 3))  # tanh of the cell in Q3.12
    output = 128 + np.clip(rounding_divide_by_pot(hidden, 8), -128, 127)
    return [cell.astype(np.int16), output.astype(np.uint8)]


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def _qlstm_supports(args: OpArgs) -> bool:
    return args.inputs[0].type == Q8A


IMPLEMENTATIONS = (
    OperationImpl(OperationType.RNN, _float_supports, _rnn_validate, _rnn_prepare, _rnn_execute),
    OperationImpl(
        OperationType.UNIDIRECTIONAL_SEQUENCE_RNN,
        _float_supports,
        _uni_validate,
        _uni_prepare,
        _uni_execute,
    ),
    OperationImpl(
        OperationType.BIDIRECTIONAL_SEQUENCE_RNN,
        _float_supports,
        _bidi_validate,
        _bidi_prepare,
        _bidi_execute,
    ),
    OperationImpl(
        OperationType.SVDF, _float_supports, _svdf_validate, _svdf_prepare, _svdf_execute
    ),
    OperationImpl(
        OperationType.QUANTIZED_16BIT_LSTM,
        _qlstm_supports,
        _qlstm_validate,
        _qlstm_prepare,
        _qlstm_execute,
    ),
)

COSTS = {impl.type: recurrent_cost for impl in IMPLEMENTATIONS}
"""Every operation here runs its input rows through its weight matrices."""
