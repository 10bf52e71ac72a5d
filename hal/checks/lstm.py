"""The checks of LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM.

Their scalar parameters (activation, cell and projection clips, merge_outputs against
the output count) must be valid at preparation; at execution every weight, bias and
state must agree with the batch, input, cell and output sizes the others give. HAL 1.3
adds the sequence operations' final-state outputs (UNIDIRECTIONAL: 3 outputs;
BIDIRECTIONAL: 5 merged or 6) and BIDIRECTIONAL's parallel linking (the aux input
without aux weights: the backward direction reads it as its input). The output shapes are
derived by the code that runs the cells (``_uni_run`` and ``_bidi_run`` with
``compute`` off), so the cells' arithmetic lives here and ``reference_driver/ops/lstm.py`` calls it to
compute.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hal.checks.base import (
    OpArgs,
    OperationCheck,
    OpFailure,
    OpInvalid,
)
from hal.types import OperationType

Array = np.ndarray

Shape = tuple[int, ...]

_I, _F, _C, _O = range(4)  # gate order of every group of four tensors

_ACTIVATIONS = {
    0: lambda v: v,
    1: lambda v: np.maximum(v, np.float32(0)),
    2: lambda v: np.clip(v, np.float32(-1), np.float32(1)),
    3: lambda v: np.clip(v, np.float32(0), np.float32(6)),
    4: np.tanh,
    5: lambda v: np.signbit(v).astype(np.float32),
    6: lambda v: _sigmoid(v),
}

_LAYER_NORM_EPSILON = np.float32(1e-8)


# ---------------------------------------------------------------------------
# Where a cell's operands are
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Slots:
    """One cell's input slots in an operation.

    ``first`` holds the input-to-input weights (LSTM input 1); the cell's 17
    tensors follow in LSTM order. ``layer_norm`` and ``aux`` are the first of
    four slots (input, forget, cell, output gates) when the form has them.
    """

    first: int
    h0: int
    c0: int
    layer_norm: int | None = None
    aux: int | None = None

    def cell(self, k: int) -> int:
        """Slot of the cell's tensor ``k``, numbered as LSTM inputs 1-17."""
        return self.first + k - 1


@dataclass(frozen=True)
class _Scalars:
    activation: int
    cell_clip: int
    proj_clip: int
    negative_clip_invalid: bool


@dataclass
class _Cell:
    """One cell's tensors in float32; per-gate lists hold None where absent."""

    wx: list[Array | None]
    wh: list[Array | None]
    peephole: list[Array | None]  # input, forget, output (the cell gate has none)
    bias: list[Array | None]
    layer_norm: list[Array | None]
    aux: list[Array | None]
    projection: Array | None
    projection_bias: Array | None

    @property
    def cifg(self) -> bool:
        return self.wx[_I] is None

    @property
    def units(self) -> int:
        return self.wx[_O].shape[0]

    @property
    def output_size(self) -> int:
        return self.wh[_O].shape[1]


# ---------------------------------------------------------------------------
# Reading and checking a cell
# ---------------------------------------------------------------------------


def _float(value: Array | None) -> Array | None:
    if value is None:
        return None
    if value.size == 0:
        raise OpFailure(f"zero-sized tensor {value.shape}: the operation needs data")
    return value.astype(np.float32)


def _four(args: OpArgs, first: int | None) -> list[Array | None]:
    if first is None or first >= len(args.values):
        return [None] * 4
    return [_float(args.values[first + k]) for k in range(4)]


def _read_cell(args: OpArgs, slots: _Slots) -> _Cell:
    def at(k: int) -> Array | None:
        return _float(args.values[slots.cell(k)])

    return _Cell(
        wx=[at(1), at(2), at(3), at(4)],
        wh=[at(5), at(6), at(7), at(8)],
        peephole=[at(9), at(10), at(11)],
        bias=[at(12), at(13), at(14), at(15)],
        layer_norm=_four(args, slots.layer_norm),
        aux=_four(args, slots.aux),
        projection=at(16),
        projection_bias=at(17),
    )


def _required(cell: _Cell, slots: _Slots) -> None:
    for k, value in ((2, cell.wx[_F]), (3, cell.wx[_C]), (4, cell.wx[_O])):
        if value is None:
            raise OpInvalid(f"input {slots.cell(k)} (input-to-gate weights) is required")
    for k, value in zip((6, 7, 8, 13, 14, 15), (*cell.wh[1:], *cell.bias[1:]), strict=True):
        if value is None:
            raise OpInvalid(f"input {slots.cell(k)} is required")


def _check_groups(cell: _Cell, slots: _Slots) -> None:
    """The optional-tensor combinations the definition allows (OpInvalid otherwise)."""
    _required(cell, slots)
    present = [v is not None for v in (*cell.wx, *cell.wh)]
    if present[0] != present[4]:
        raise OpInvalid(f"inputs {slots.cell(1)} and {slots.cell(5)} (CIFG) must be given together")
    if (cell.bias[_I] is None) != cell.cifg:
        state = "omitted with CIFG" if cell.cifg else "given without CIFG"
        raise OpInvalid(f"input {slots.cell(12)} (input gate bias) must be {state}")
    peep_i, peep_f, peep_o = (v is not None for v in cell.peephole)
    if peep_f != peep_o or (not cell.cifg and peep_i != peep_f):
        raise OpInvalid(f"peephole inputs {slots.cell(9)}-{slots.cell(11)} are incomplete")
    if cell.projection_bias is not None and cell.projection is None:
        raise OpInvalid(f"input {slots.cell(17)} (projection bias) needs input {slots.cell(16)}")
    norm = [v is not None for v in cell.layer_norm]
    if (cell.cifg and norm[_I]) or (any(norm[1:]) and not all(norm[1:])):
        raise OpInvalid(f"layer-norm inputs from {slots.layer_norm} are incomplete")
    if not cell.cifg and any(norm) and not norm[_I]:
        raise OpInvalid(f"layer-norm input {slots.layer_norm} (input gate) is required")


def _expect(value: Array | None, shape: Shape, what: str) -> None:
    if value is not None and value.shape != shape:
        raise OpInvalid(f"{what} has shape {value.shape}, expected {shape}")


def _check_shapes(cell: _Cell, batch: int, inputs: int, h0: Array, c0: Array) -> None:
    n, p = cell.units, cell.output_size
    for gate in range(4):
        _expect(cell.wx[gate], (n, inputs), "input-to-gate weights")
        _expect(cell.wh[gate], (n, p), "recurrent weights")
        _expect(cell.bias[gate], (n,), "gate bias")
        _expect(cell.layer_norm[gate], (n,), "layer-norm weights")
    for peephole in cell.peephole:
        _expect(peephole, (n,), "peephole weights")
    _expect(cell.projection, (p, n), "projection weights")
    _expect(cell.projection_bias, (p,), "projection bias")
    if cell.projection is None and p != n:
        raise OpInvalid(f"output size {p} differs from {n} units without projection weights")
    _expect(h0, (batch, p), "output state")
    _expect(c0, (batch, n), "cell state")


def _state(args: OpArgs, slot: int) -> Array:
    value = args.values[slot]
    if value is None:
        raise OpInvalid(f"input {slot} (state) is required")
    return _float(value)


def _cell_and_states(
    args: OpArgs, slots: _Slots, batch: int, inputs: int
) -> tuple[_Cell, Array, Array]:
    cell = _read_cell(args, slots)
    _check_groups(cell, slots)
    h0, c0 = _state(args, slots.h0), _state(args, slots.c0)
    _check_shapes(cell, batch, inputs, h0, c0)
    return cell, h0, c0


# ---------------------------------------------------------------------------
# Scalars
# ---------------------------------------------------------------------------


def _activation_reason(code: int) -> str | None:
    if code in _ACTIVATIONS:
        return None
    return f"activation {code} is not one of 0 (none), 1, 2, 3 (relu..relu6), 4 (tanh), 5, 6"


def _scalar_reasons(args: OpArgs, scalars: _Scalars) -> str | None:
    """For ``validate``: why the constant activation or clips are invalid, or None."""
    values = args.values
    if values[scalars.activation] is not None:
        reason = _activation_reason(int(values[scalars.activation].item()))
        if reason:
            return reason
    if scalars.negative_clip_invalid:
        for slot in (scalars.cell_clip, scalars.proj_clip):
            if values[slot] is not None and float(values[slot].item()) < 0:
                return f"clip value {float(values[slot].item())} (input {slot}) is negative"
    return None


@dataclass(frozen=True)
class _Params:
    activation: int
    cell_clip: float
    proj_clip: float


def _params(args: OpArgs, scalars: _Scalars) -> _Params:
    reason = _scalar_reasons(args, scalars)
    if reason:
        raise OpInvalid(reason)
    return _Params(
        int(args.scalar(scalars.activation)),
        float(args.scalar(scalars.cell_clip)),
        float(args.scalar(scalars.proj_clip)),
    )


# ---------------------------------------------------------------------------
# The cell step
# ---------------------------------------------------------------------------


def _sigmoid(v: Array) -> Array:
    with np.errstate(over="ignore"):
        return np.float32(1) / (np.float32(1) + np.exp(-v))


def _normalize(z: Array) -> Array:
    """(z - mean) / std over the units of each batch row; epsilon only for a zero variance."""
    mean = z.mean(axis=1, keepdims=True)
    variance = (z * z).mean(axis=1, keepdims=True) - mean * mean
    variance = np.where(variance == 0, _LAYER_NORM_EPSILON, variance)
    return (z - mean) / np.sqrt(variance)


def _clip(v: Array, limit: float) -> Array:
    return np.clip(v, np.float32(-limit), np.float32(limit)) if limit > 0 else v


def _gate(
    cell: _Cell, gate: int, x: Array, aux: Array | None, h: Array, peep: Array | None
) -> Array:
    """The gate's pre-activation: weighted sums (+ peephole), layer norm, then bias."""
    z = x @ cell.wx[gate].T + h @ cell.wh[gate].T
    if aux is not None and cell.aux[gate] is not None:
        z = z + aux @ cell.aux[gate].T
    if peep is not None:
        z = z + peep
    if cell.layer_norm[gate] is not None:
        z = _normalize(z) * cell.layer_norm[gate]
    return z + cell.bias[gate]


def _step(
    cell: _Cell, params: _Params, x: Array, aux: Array | None, h: Array, c: Array
) -> tuple[Array, Array]:
    """One time step for the whole batch: (new output state, new cell state)."""
    act = _ACTIVATIONS[params.activation]
    peep_i, peep_f, peep_o = cell.peephole

    def peephole(weights: Array | None, state: Array) -> Array | None:
        return None if weights is None else weights * state

    forget = _sigmoid(_gate(cell, _F, x, aux, h, peephole(peep_f, c)))
    if cell.cifg:
        input_gate = np.float32(1) - forget
    else:
        input_gate = _sigmoid(_gate(cell, _I, x, aux, h, peephole(peep_i, c)))
    cell_input = act(_gate(cell, _C, x, aux, h, None))
    c_new = _clip(forget * c + input_gate * cell_input, params.cell_clip)
    output_gate = _sigmoid(_gate(cell, _O, x, aux, h, peephole(peep_o, c_new)))
    m = output_gate * act(c_new)
    if cell.projection is None:
        return m, c_new
    h_new = m @ cell.projection.T
    if cell.projection_bias is not None:
        h_new = h_new + cell.projection_bias
    return _clip(h_new, params.proj_clip), c_new


def _sequence(
    cell: _Cell,
    params: _Params,
    x: Array,
    aux: Array | None,
    state: tuple[Array, Array],
    reverse: bool = False,
) -> tuple[Array, Array, Array]:
    """Run time-major ``x`` [T, B, I]: (outputs [T, B, P], last h, last c)."""
    h, c = state
    outputs = np.empty((x.shape[0], x.shape[1], cell.output_size), np.float32)
    steps = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
    with np.errstate(invalid="ignore"):  # inf - inf in a saturated gate gives NaN, as in C
        for t in steps:
            h, c = _step(cell, params, x[t], None if aux is None else aux[t], h, c)
            outputs[t] = h
    return outputs, h, c


# ---------------------------------------------------------------------------
# LSTM (one step, 23 or 27 inputs, 4 outputs)
# ---------------------------------------------------------------------------

_LSTM_SCALARS = _Scalars(20, 21, 22, negative_clip_invalid=True)


def _lstm_slots(args: OpArgs) -> _Slots:
    return _Slots(1, 18, 19, layer_norm=23 if len(args.inputs) == 27 else None)


def _lstm_input(args: OpArgs) -> Array:
    x = args.values[0]
    if x is None:
        raise OpInvalid("input 0 is required")
    if x.ndim != 2:
        raise OpInvalid(f"input 0 has rank {x.ndim}; LSTM takes [batch, input_size]")
    return _float(x)


def _lstm_prepare(args: OpArgs) -> list[Shape]:
    x = _lstm_input(args)
    cell, _, _ = _cell_and_states(args, _lstm_slots(args), *x.shape)
    _params(args, _LSTM_SCALARS)
    batch, n, p = x.shape[0], cell.units, cell.output_size
    return [(batch, n * (3 if cell.cifg else 4)), (batch, p), (batch, n), (batch, p)]


# ---------------------------------------------------------------------------
# Sequences
# ---------------------------------------------------------------------------


def _sequence_input(args: OpArgs, slot: int, time_major: bool) -> Array:
    """Input ``slot`` [T, B, I] (time-major) or [B, T, I], as time-major float32."""
    x = args.values[slot]
    if x is None:
        raise OpInvalid(f"input {slot} is required")
    if x.ndim != 3:
        raise OpInvalid(f"input {slot} has rank {x.ndim}; the operation takes rank 3")
    x = _float(x)
    return x if time_major else x.transpose(1, 0, 2)


def _to_layout(outputs: Array, time_major: bool, dtype: np.dtype) -> Array:
    return (outputs if time_major else outputs.transpose(1, 0, 2)).astype(dtype)


def _layout_shape(steps: int, batch: int, size: int, time_major: bool) -> Shape:
    return (steps, batch, size) if time_major else (batch, steps, size)


_UNI_SCALARS = _Scalars(20, 21, 22, negative_clip_invalid=False)

_UNI_SLOTS = _Slots(1, 18, 19, layer_norm=24)

_UNI_TIME_MAJOR = 23


def _uni_outputs_reason(args: OpArgs) -> str | None:
    count = len(args.outputs)
    if count in (1, 3):
        return None
    return (
        f"the operation has {count} outputs; it takes 1, or 3 with the final output and cell states"
    )


def _uni_run(args: OpArgs, compute: bool) -> tuple[list[Shape], list[Array]]:
    reason = _uni_outputs_reason(args)
    if reason:
        raise OpInvalid(reason)
    time_major = bool(args.scalar(_UNI_TIME_MAJOR))
    x = _sequence_input(args, 0, time_major)
    steps, batch, inputs = x.shape
    cell, h0, c0 = _cell_and_states(args, _UNI_SLOTS, batch, inputs)
    params = _params(args, _UNI_SCALARS)
    shapes = [_layout_shape(steps, batch, cell.output_size, time_major)]
    states = len(args.outputs) == 3  # HAL 1.3: the output and cell states after the last step
    if states:
        shapes += [(batch, cell.output_size), (batch, cell.units)]
    if not compute:
        return shapes, []
    outputs, h, c = _sequence(cell, params, x, None, (h0, c0))
    dtype = args.values[0].dtype
    results = [_to_layout(outputs, time_major, dtype)]
    return shapes, results + ([h.astype(dtype), c.astype(dtype)] if states else [])


def _uni_validate(args: OpArgs) -> str | None:
    return _uni_outputs_reason(args) or _scalar_reasons(args, _UNI_SCALARS)


def _uni_prepare(args: OpArgs) -> list[Shape]:
    return _uni_run(args, compute=False)[0]


_BIDI_SCALARS = _Scalars(48, 49, 50, negative_clip_invalid=True)

_BIDI_FW = _Slots(1, 35, 36, layer_norm=53, aux=40)

_BIDI_BW = _Slots(18, 37, 38, layer_norm=57, aux=44)

_BIDI_AUX_INPUT, _BIDI_MERGE, _BIDI_TIME_MAJOR = 39, 51, 52


def _bidi_merge_reason(args: OpArgs) -> str | None:
    """merge_outputs against the output count: 1 (merged) or 2, each with the four final
    states after it since HAL 1.3 (5 or 6)."""
    merge = args.values[_BIDI_MERGE]
    count = len(args.outputs)
    if merge is None:
        return None if count in (1, 2, 5, 6) else f"the operation has {count} outputs"
    wanted = (1, 5) if merge.item() else (2, 6)
    if count in wanted:
        return None
    return (
        f"merge_outputs {bool(merge.item())} needs {wanted[0]} or {wanted[1]} outputs, not {count}"
    )


def _aux_weights_given(args: OpArgs, slots: _Slots) -> bool:
    """Whether one direction has its forget, cell and output aux weights (its input-gate
    one stays optional, as in HAL 1.2); OpInvalid for a part of those three."""
    assert slots.aux is not None
    given = [args.values[slots.aux + k] is not None for k in (1, 2, 3)]
    if any(given) and not all(given):
        raise OpInvalid(
            f"aux weights {slots.aux + 1}-{slots.aux + 3} must all be given or all be omitted"
        )
    if args.values[slots.aux] is not None and not all(given):
        raise OpInvalid(
            f"aux weights {slots.aux} (input gate) needs aux weights {slots.aux + 1}-{slots.aux + 3}"
        )
    return all(given)


def _bidi_aux_mode(args: OpArgs) -> str:
    """How the aux input is linked: 'none', 'cross' (the aux input and every aux weight:
    both directions add it) or 'parallel' (HAL 1.3: the aux input alone, the backward
    direction reads it as its input); OpInvalid for any other combination."""
    fw = _aux_weights_given(args, _BIDI_FW)
    bw = _aux_weights_given(args, _BIDI_BW)
    if fw != bw:
        raise OpInvalid("the forward and backward aux weights must be given together")
    given = args.values[_BIDI_AUX_INPUT] is not None
    if fw and not given:
        raise OpInvalid(f"the aux weights need the aux input (input {_BIDI_AUX_INPUT})")
    if not given:
        return "none"
    return "cross" if fw else "parallel"


def _bidi_run(args: OpArgs, compute: bool) -> tuple[list[Shape], list[Array]]:
    reason = _bidi_merge_reason(args)
    if reason:
        raise OpInvalid(reason)
    time_major = bool(args.scalar(_BIDI_TIME_MAJOR))
    merge = bool(args.scalar(_BIDI_MERGE))
    x = _sequence_input(args, 0, time_major)
    steps, batch, inputs = x.shape
    mode = _bidi_aux_mode(args)
    aux = None
    if mode != "none":
        aux = _sequence_input(args, _BIDI_AUX_INPUT, time_major)
        if aux.shape[:2] != x.shape[:2]:
            raise OpInvalid(f"aux input steps and batch {aux.shape[:2]} differ from {x.shape[:2]}")
    bw_x = aux if mode == "parallel" else x
    fw, fw_h0, fw_c0 = _cell_and_states(args, _BIDI_FW, batch, inputs)
    bw, bw_h0, bw_c0 = _cell_and_states(args, _BIDI_BW, batch, bw_x.shape[2])
    if mode == "cross":
        for cell in (fw, bw):
            for weights in cell.aux:
                _expect(weights, (cell.units, aux.shape[2]), "aux input weights")
    params = _params(args, _BIDI_SCALARS)
    sizes = [fw.output_size + bw.output_size] if merge else [fw.output_size, bw.output_size]
    shapes = [_layout_shape(steps, batch, size, time_major) for size in sizes]
    states = len(args.outputs) > len(shapes)  # HAL 1.3: the final states of each direction
    if states:
        for cell in (fw, bw):
            shapes += [(batch, cell.output_size), (batch, cell.units)]
    if not compute:
        return shapes, []
    cross = aux if mode == "cross" else None
    fw_out, fw_h, fw_c = _sequence(fw, params, x, cross, (fw_h0, fw_c0))
    bw_out, bw_h, bw_c = _sequence(bw, params, bw_x, cross, (bw_h0, bw_c0), reverse=True)
    results = [np.concatenate((fw_out, bw_out), axis=2)] if merge else [fw_out, bw_out]
    dtype = args.values[0].dtype
    results = [_to_layout(r, time_major, dtype) for r in results]
    if states:
        results += [state.astype(dtype) for state in (fw_h, fw_c, bw_h, bw_c)]
    return shapes, results


def _bidi_prepare(args: OpArgs) -> list[Shape]:
    return _bidi_run(args, compute=False)[0]


CHECKS = (
    OperationCheck(
        OperationType.LSTM, lambda args: _scalar_reasons(args, _LSTM_SCALARS), _lstm_prepare
    ),
    OperationCheck(OperationType.UNIDIRECTIONAL_SEQUENCE_LSTM, _uni_validate, _uni_prepare),
    OperationCheck(
        OperationType.BIDIRECTIONAL_SEQUENCE_LSTM,
        lambda args: _scalar_reasons(args, _BIDI_SCALARS) or _bidi_merge_reason(args),
        _bidi_prepare,
    ),
)
