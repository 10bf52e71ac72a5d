"""Recurrent operations: RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN,
SVDF, QUANTIZED_16BIT_LSTM and QUANTIZED_LSTM.

What the operations take and compute is in docs/operations.md (RNN (24), SVDF (27),
BIDIRECTIONAL_SEQUENCE_RNN (43), QUANTIZED_16BIT_LSTM (73) and
UNIDIRECTIONAL_SEQUENCE_RNN (93)):

* the basic RNN cell is ``h_t = act(W x_t + R h_{t-1} + b)``; the sequence
  forms run it over time (time-major ``[T, B, I]`` or batch-major
  ``[B, T, I]``), the bidirectional one twice (forward from t = 0, backward
  from t = T - 1, each with its own weights and an optional auxiliary input:
  with its weights it adds to both directions; alone, HAL 1.3's parallel
  linking, the backward direction reads it instead of input 0); since HAL 1.3
  the sequence forms may also output each direction's hidden state after its
  last step;
* SVDF keeps a ``[batch, filters * memory]`` state: the newest column is the
  feature projection of the input, the output sums ``rank`` time-filtered
  filters per unit, and the state comes back shifted one step;
* QUANTIZED_16BIT_LSTM is one 8-bit LSTM step in the CPU reference's 16-bit
  fixed point (gemmlowp logistic and tanh), bit for bit, including the
  reference's pairing of the concatenated ``[x, h]`` vector with the weight
  columns ``[recurrent | input]`` (the discrepancy QUANTIZED_16BIT_LSTM (73)
  describes);
* QUANTIZED_LSTM (HAL 1.3) is Android 11's integer LSTM step on signed 8-bit
  activations, bit for bit (docs/operations.md, QUANTIZED_LSTM (95)): the same
  16-bit logistic and tanh, 32-bit requantizations, an integer layer norm, and
  Android 11's choices where the HAL text is silent or differs.

The activation scalar of the float operations is a FusedActivationFunc (0..3)
as the HAL defines it; the Android 10 CPU reference aborts on RELU1 for the
RNN family, which is computed here as the HAL defines it. Float16 is computed
in float32 and rounded back (the hidden state of a sequence is rounded to
float16 after every step, as the reference stores it); the CPU reference
accumulates in float16, which the float16 tolerance covers. No operation here
accepts a zero-sized input.

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.rnn``'s (QUANTIZED_LSTM's: ``hal.checks.qlstm``'s); this module computes,
and builds each implementation around them (``checked``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hal.checks import qlstm as qlstm_checks
from hal.checks.rnn import (
    Shape,
    _time_major_int,
)
from hal.forms import Signature
from hal.types import OperationType
from reference_driver.ops.base import (
    PYTHON_STEP,
    Cost,
    OpArgs,
    OpFailure,
    Shapes,
    checked,
    recurrent_cost,
)
from reference_driver.ops.common import (
    FLOAT_TYPES,
    Q8A,
    activation_code,
    apply_float_activation,
    to_float_type,
)
from reference_driver.quant import (
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul,
)

Array = np.ndarray


def _tensor(args: OpArgs, slot: int) -> Array:
    value = args.values[slot]
    if value is None:
        raise OpFailure(f"input {slot} has no value")
    return value


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


def _rnn_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    projected = _widen(args, 0) @ _widen(args, 1).T + _widen(args, 3)
    dtype = args.values[0].dtype
    h = _run_cell(
        projected[None], _widen(args, 2), _widen(args, 4), activation_code(args, 5), dtype, False
    )[0]
    out = to_float_type(h, dtype)
    return [out, out.copy()]


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
    results = [to_float_type(_time_first(states, time_major), dtype)]
    if len(shapes) == 2:  # HAL 1.3: the hidden state after the last step
        results.append(to_float_type(states[-1], dtype))
    return results


def _bidi_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    """Both directions; with the auxiliary input and its weights (cross-linking) each
    direction adds the projected auxiliary input, and with the auxiliary input alone
    (HAL 1.3's parallel linking) the backward direction reads it instead of input 0."""
    time_major = bool(args.scalar(13))
    merge = bool(args.scalar(14))
    dtype = args.values[0].dtype
    code = activation_code(args, 12)
    inputs = _time_first(_widen(args, 0), time_major)
    aux = None if args.values[9] is None else _time_first(_widen(args, 9), time_major)
    parallel = aux is not None and args.values[10] is None
    directions, finals = [], []
    for first, aux_slot, reverse in ((1, 10, False), (5, 11, True)):
        source = aux if parallel and reverse else inputs
        projected = source @ _widen(args, first).T + _widen(args, first + 2)
        if aux is not None and not parallel:
            projected = projected + aux @ _widen(args, aux_slot).T
        states = _run_cell(
            projected, _widen(args, first + 1), _widen(args, first + 3), code, dtype, reverse
        )
        directions.append(_time_first(states, time_major))
        finals.append(states[0] if reverse else states[-1])
    if merge:
        results = [to_float_type(np.concatenate(directions, axis=2), dtype)]
    else:
        results = [to_float_type(states, dtype) for states in directions]
    if len(shapes) > len(results):  # HAL 1.3: each direction's state after its last step
        results += [to_float_type(state, dtype) for state in finals]
    return results


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
    if integer_bits > 5:
        # gemmlowp flushes inputs below -32 to 0 (QUANTIZED_LSTM's hidden tanh with a cell
        # scale of 2**-10 or 2**-9 takes 6 or 7 integer bits): -32 as a 32-bit raw constant
        # narrowed to 16 bits with a rounding shift, as gemmlowp's constants are.
        clamp = _constant16(-(1 << (36 - integer_bits)))
        result = np.where(a < clamp, 0, result)
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
# QUANTIZED_LSTM (95): Android 11's integer LSTM step, bit for bit
# ---------------------------------------------------------------------------

_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1


def _wrap32(x: Array) -> Array:
    """What storing an int result into an int32 does: keep the low 32 bits."""
    return ((x + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def _multiplier(real: float, what: str) -> tuple[int, int]:
    """Android 11's QuantizeMultiplier: ``(m0, shift)`` with ``real = m0 * 2**(shift - 31)``;
    a multiplier below 2**-31 is flushed to 0."""
    if not math.isfinite(real) or real <= 0:
        raise OpFailure(f"{what}: effective scale {real} is not a positive number")
    m0, shift = quantize_multiplier(real)
    if shift < -31:
        return 0, 0
    if shift > 30:
        raise OpFailure(f"{what}: effective scale {real} is too large")
    return m0, shift


def _mbqm32(x: Array, multiplier: tuple[int, int]) -> Array:
    """MultiplyByQuantizedMultiplier on int32 values (the left shift wraps, as in C)."""
    m0, shift = multiplier
    left, right = max(shift, 0), max(-shift, 0)
    high = saturating_rounding_doubling_high_mul(_wrap32(x.astype(np.int64) << left), m0)
    return rounding_divide_by_pot(high, right)


def _srdhm(a: int, b: int) -> int:
    """gemmlowp's SaturatingRoundingDoublingHighMul of two int32 raws."""
    if a == b == _INT32_MIN:
        return _INT32_MAX
    product = a * b
    total = product + ((1 << 30) if product >= 0 else 1 - (1 << 30))
    return total // (1 << 31) if total >= 0 else -((-total) // (1 << 31))


def _times_pot_saturating(raw: int, exponent: int) -> int:
    """gemmlowp's SaturatingRoundingMultiplyByPOT with a positive exponent, on int32."""
    threshold = (1 << (31 - exponent)) - 1
    if raw > threshold:
        return _INT32_MAX
    if raw < -threshold:
        return _INT32_MIN
    return raw << exponent


def _inverse_sqrt(value: int) -> tuple[int, int]:
    """``(m0, shift)`` with ``1 / sqrt(value) = m0 * 2**(shift - 31)`` as Android 11's
    GetInvSqrtQuantizedMultiplierExp finds it (32-bit fixed point, Q3.28 Newton steps),
    its shift already negated for MultiplyByQuantizedMultiplier."""
    if value <= 1:
        return _INT32_MAX, 0
    shift = 11
    while value >= 1 << 29:
        value //= 4
        shift += 1
    pairs = (32 - value.bit_length() - 1) // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    x = value >> 1
    half = int(rounding_divide_by_pot(np.int64(x), 1))
    three_halves = (1 << 28) + (1 << 27)
    y = 1 << 28
    for _ in range(5):
        cube = _times_pot_saturating(_srdhm(_srdhm(y, y), y), 6)
        difference = _wrap32(np.int64(_srdhm(three_halves, y) - _srdhm(half, cube)))
        y = _times_pot_saturating(int(difference), 3)
    y = _srdhm(y, 1518500250)
    if shift < 0:
        y = int(_wrap32(np.int64(y) << -shift))
        shift = 0
    return y, -shift


def _layer_norm(g: Array, weights: Array, bias: Array, scale: tuple[int, int], limit: int) -> Array:
    """Android 11's ApplyLayerNorm of int16 pre-activations ``g`` [B, N], bias included."""
    units = g.shape[1]
    total = g.sum(axis=1)
    squares = (g * g).sum(axis=1)
    out = np.empty_like(g)
    for row in range(g.shape[0]):
        scaled = int(total[row]) * 1024
        mean = abs(scaled) // units * (1 if scaled >= 0 else -1)
        variance = int(squares[row]) * ((1 << 20) // units) - mean * mean
        variance = abs(variance) // (1 << 20) * (1 if variance >= 0 else -1)
        if variance < 1:
            variance = limit
        inverse = _inverse_sqrt(variance)
        rescaled = _mbqm32(_wrap32(1024 * g[row] - mean), inverse)
        product = _wrap32(_wrap32(rescaled * weights) + bias)
        rounded = np.where(product > 0, product + 512, product - 512)
        quarter = np.where(rounded >= 0, rounded // 1024, -((-rounded) // 1024))
        out[row] = np.clip(_mbqm32(quarter, (scale[0], scale[1] + 12)), _INT16_MIN, _INT16_MAX)
    return out


@dataclass(frozen=True)
class _QGate:
    """One gate's tensors and multipliers; ``peephole`` and ``norm`` may be None."""

    wx: Array
    wh: Array
    eff_x: Array
    eff_h: Array
    mx: tuple[int, int]
    mh: tuple[int, int]
    bias: Array | None
    peephole: Array | None
    mc: tuple[int, int] | None
    norm: Array | None
    mnorm: tuple[int, int] | None
    limit: int


def _q_input(args: OpArgs, slot: int) -> Array | None:
    value = args.values[slot]
    return None if value is None else value.astype(np.int64)


def _q_gate(args: OpArgs, gate: int, cell_shift: int) -> _QGate:
    """Gate ``gate`` (0 input, 1 forget, 2 cell, 3 output) of the operation's inputs."""
    ins = args.inputs
    wx, wh = _q_input(args, 1 + gate), _q_input(args, 5 + gate)
    f32 = np.float32
    intermediate = f32(args.scalar(26 + gate))
    what = f"gate {gate}"
    mx = _multiplier(float(f32(ins[1 + gate].scale) * f32(ins[0].scale) / intermediate), what)
    mh = _multiplier(float(f32(ins[5 + gate].scale) * f32(ins[18].scale) / intermediate), what)
    slot_c = 9 + gate if gate < 2 else 11
    peephole = _q_input(args, slot_c) if gate != 2 else None
    mc = None
    if peephole is not None:
        real = 2.0**cell_shift * float(f32(ins[slot_c].scale)) / float(intermediate)
        mc = _multiplier(real, what)
    norm = _q_input(args, 20 + gate)
    norm_scale = f32(ins[20 + gate].scale)
    mnorm = None if norm is None else _multiplier(float(norm_scale), what)
    limit = min(1, int(np.float32(10000) * norm_scale)) if math.isfinite(norm_scale) else 1
    return _QGate(
        wx=wx,
        wh=wh,
        eff_x=-ins[0].zero_point * wx.sum(axis=1),
        eff_h=-ins[18].zero_point * wh.sum(axis=1),
        mx=mx,
        mh=mh,
        bias=_q_input(args, 12 + gate),
        peephole=peephole,
        mc=mc,
        norm=norm,
        mnorm=mnorm,
        limit=limit,
    )


def _accumulate(g: Array, vectors: Array, weights: Array, eff: Array, m: tuple[int, int]) -> Array:
    """``g`` plus one weighted sum of ``vectors`` [B, K] (int16 saturation)."""
    acc = _wrap32(vectors @ weights.T + eff)
    return np.clip(_wrap32(_mbqm32(acc, m) + g), _INT16_MIN, _INT16_MAX)


def _pre_activation(gate: _QGate, x: Array, h: Array, cell: Array) -> Array:
    """The gate's int16 pre-activation: weighted sums, peephole, then layer norm with the
    bias (without layer norm Android 11 adds no bias: docs/operations.md)."""
    g = np.zeros((x.shape[0], gate.wx.shape[0]), np.int64)
    g = _accumulate(g, x, gate.wx, gate.eff_x, gate.mx)
    g = _accumulate(g, h, gate.wh, gate.eff_h, gate.mh)
    if gate.peephole is not None:
        product = _mbqm32(gate.peephole * cell, gate.mc)
        g = np.clip(product + g, _INT16_MIN, _INT16_MAX)
    if gate.norm is not None:
        g = _layer_norm(g, gate.norm, gate.bias, gate.mnorm, gate.limit)
    return g


def _clip_limit(clip: float, scale: float, bound: int) -> int:
    """A clip value in the quantized domain (0: no clipping), as Android 11 derives it."""
    if not clip > 0:
        return 0
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        q = np.float32(clip) / np.float32(scale)
    return int(min(max(float(q), -bound - 1.0), float(bound)))


def _hidden_state(product: Array, m_hidden: tuple[int, int], zero: int) -> Array:
    """The int8 hidden state of output gate x tanh(cell) products (Q0.30): rescaled, less
    the hidden zero point (Android 11 subtracts it), clamped."""
    return np.clip(_mbqm32(product, m_hidden) - zero, -128, 127)


def _qlstm95_execute(args: OpArgs, shapes: list[Shape], hidden_state=_hidden_state) -> list[Array]:
    """The step; ``hidden_state`` is the hidden-state rescale (a faulty driver of the
    project's tests swaps it for one that truncates)."""
    ins = args.inputs
    cell_shift = qlstm_checks.cell_shift(ins[19].scale)
    x, h, c = (_q_input(args, slot) for slot in (0, 18, 19))
    cifg = args.values[1] is None
    forget_gate, cell_gate, output_gate = (_q_gate(args, g, cell_shift) for g in (1, 2, 3))
    forget = _logistic_q3(_pre_activation(forget_gate, x, h, c))
    modulation = _tanh(_pre_activation(cell_gate, x, h, c), 3)
    if cifg:
        input_ = _INT16_MAX - forget
    else:
        input_ = _logistic_q3(_pre_activation(_q_gate(args, 0, cell_shift), x, h, c))
    kept = _wrap16(rounding_divide_by_pot(forget * c, 15))
    added = _wrap16(rounding_divide_by_pot(input_ * modulation, 30 + cell_shift))
    cell = np.clip(kept + added, _INT16_MIN, _INT16_MAX)
    cell_clip = _clip_limit(_clip_value(args, 24), ins[19].scale, _INT16_MAX)
    if cell_clip > 0:
        cell = np.clip(cell, -cell_clip, cell_clip)
    output = _logistic_q3(_pre_activation(output_gate, x, h, cell))
    # The hidden state: its zero point is read as an int8 (the INT32's low byte).
    zero = (int(args.scalar(30)) + 128) % 256 - 128
    hidden_scale = float(args.scalar(31))
    m_hidden = _multiplier(2.0**-15 / hidden_scale * 2.0**-15, "hidden state")
    hidden = hidden_state(output * _tanh(cell, cell_shift + 15), m_hidden, zero)
    projection = _q_input(args, 16)
    if projection is None:
        out = hidden
    else:
        f32 = np.float32
        real = f32(ins[16].scale) * f32(hidden_scale) / f32(ins[18].scale)
        m_projection = _multiplier(float(real), "projection")
        bias = _q_input(args, 17)
        eff = zero * projection.sum(axis=1) + (0 if bias is None else bias)
        acc = _wrap32(hidden @ projection.T + eff)
        out = np.clip(_mbqm32(acc, m_projection) + ins[18].zero_point, -128, 127)
        projection_clip = _clip_limit(_clip_value(args, 25), ins[16].scale, 127)
        if projection_clip > 0:
            out = np.clip(out, -projection_clip, projection_clip)
    out = out.astype(np.int8)
    return [out, cell.astype(np.int16), out.copy()]


def _clip_value(args: OpArgs, slot: int) -> float:
    """A clip scalar; an omitted one means no clipping."""
    value = args.values[slot]
    return 0.0 if value is None else float(value.item())


def _qlstm95_form(form: Signature) -> bool:
    """The one QUANTIZED_LSTM form (since 1.3) has its kernel here."""
    return form.operation == OperationType.QUANTIZED_LSTM


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def _states_form(form: Signature) -> bool:
    """HAL 1.3's final-state outputs of the sequence operations (float32 and float16)."""
    return "state" in form.form


def _any(args: OpArgs) -> bool:
    return True


def _qlstm_supports(args: OpArgs) -> bool:
    return args.inputs[0].type == Q8A


IMPLEMENTATIONS = (
    checked(OperationType.RNN, _float_supports, _rnn_execute),
    checked(
        OperationType.UNIDIRECTIONAL_SEQUENCE_RNN, _float_supports, _uni_execute, newer=_states_form
    ),
    checked(
        OperationType.BIDIRECTIONAL_SEQUENCE_RNN, _float_supports, _bidi_execute, newer=_states_form
    ),
    checked(OperationType.SVDF, _float_supports, _svdf_execute),
    checked(OperationType.QUANTIZED_16BIT_LSTM, _qlstm_supports, _qlstm_execute),
    checked(OperationType.QUANTIZED_LSTM, _any, _qlstm95_execute, newer=_qlstm95_form),
)


def _qlstm95_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """``recurrent_cost``, plus QUANTIZED_LSTM's Python-level layer norm (one loop step per
    batch row and gate with layer-norm weights) and its int64 working copies: of every
    input, and some thirty [B, N] temporaries."""
    base = recurrent_cost(args, shapes)
    x, cell = args.values[0], args.values[19]
    if x is None or x.ndim != 2 or cell is None:
        return base
    norms = sum(1 for slot in range(20, 24) if args.values[slot] is not None)
    copies = sum(v.size for v in args.values if v is not None) + 32 * cell.size
    return Cost(base.work + x.shape[0] * norms * PYTHON_STEP, base.scratch + 8 * copies)


COSTS = {
    impl.type: _qlstm95_cost if impl.type == OperationType.QUANTIZED_LSTM else recurrent_cost
    for impl in IMPLEMENTATIONS
}

"""Every operation here runs its input rows through its weight matrices."""
