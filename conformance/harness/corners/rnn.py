"""Families of the recurrent operations: ``recurrent`` (RNN,
UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN, SVDF) and ``lstm`` (LSTM, its
unidirectional and bidirectional sequence forms, QUANTIZED_16BIT_LSTM)."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    _ZERO_POINTS,
    ACTIVATIONS,
    Corner,
    _activation,
    _array,
    _Builder,
    _classes,
    _exactly,
    _family,
    _floats,
    _omitted,
    _quant_classes_of,
    _scalar,
    oracle,
)
from hal.tensors import read_constants
from hal.types import Model, OperandLifeTime, OperandType

# ---------------------------------------------------------------------------
# recurrent: RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN, SVDF
# ---------------------------------------------------------------------------

_RECURRENT = ("RNN", "UNIDIRECTIONAL_SEQUENCE_RNN", "BIDIRECTIONAL_SEQUENCE_RNN", "SVDF")
_RNN_ACTIVATIONS = (0, 1, 3)
"""None, RELU, RELU6: the codes every Android 10 CPU path evaluates (RELU1 aborts it)."""


def _matrix(draw, rows: int, columns: int) -> list[list[float]]:
    values = _floats(draw, rows * columns)
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


def _bidirectional_rnn(draw, rnn: ModuleType) -> Corner:
    """BIDIRECTIONAL_SEQUENCE_RNN, float32: batch 1-2, 1-3 steps, 1-3 inputs, 1-3 forward
    and (drawn apart) backward units, time-major or batch-major, the two outputs merged
    into one or apart, with or without the auxiliary input and its two weights (all
    three or none, as HAL 1.2 has it; the auxiliary size is the input's, which Android
    10 assumes: docs/operations.md, BIDIRECTIONAL_SEQUENCE_RNN (43)), activation none,
    RELU or RELU6; every value in [-4, 4] by halves."""
    batch, steps, size = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    time_major, merged, aux = (draw(st.booleans()) for _ in range(3))
    code = draw(st.sampled_from(_RNN_ACTIVATIONS))
    sequence = [_matrix(draw, batch, size) for _ in range(steps)]  # [t][b][i]
    aux_sequence = [_matrix(draw, batch, size) for _ in range(steps)] if aux else None

    def laid_out(nested: list, width: int) -> np.ndarray:  # [t][b][...] in the case's layout
        if time_major:
            return _array(rnn.flat(nested), (steps, batch, width))
        return _array(rnn.flat(rnn.to_time_major(nested)), (batch, steps, width))

    builder = _Builder()
    inputs = [laid_out(sequence, size)]
    operands = [builder.input(inputs[0])]
    directions, aux_weights = [], []
    for reverse in (False, True):
        units = draw(st.integers(1, 3))
        w, r = _matrix(draw, units, size), _matrix(draw, units, units)
        bias, h0 = _floats(draw, units), _matrix(draw, batch, units)
        w_aux = _matrix(draw, units, size) if aux else None
        directions.append(
            rnn.run_direction(sequence, w, r, bias, h0, code, reverse, w_aux, aux_sequence)
        )
        aux_weights.append((units, w_aux))
        inputs.append(_array(h0, (batch, units)))
        operands += [
            builder.tensor(_array(rnn.flat(w), (units, size))),
            builder.tensor(_array(rnn.flat(r), (units, units))),
            builder.tensor(_array(bias, (units,))),
            builder.input(inputs[-1]),
        ]
    if aux_sequence is not None:
        inputs.append(laid_out(aux_sequence, size))
        operands.append(builder.input(inputs[-1]))
        operands += [builder.tensor(_array(rnn.flat(w), (u, size))) for u, w in aux_weights]
    else:
        operands.append(_omitted(builder, inputs[0].shape))
        operands += [_omitted(builder, (u, size)) for u, _ in aux_weights]
    operands += [builder.int32(code), builder.bool(time_major), builder.bool(merged)]
    fw, bw = directions  # [t][b][units]
    if merged:
        results = [[[fw[t][b] + bw[t][b] for b in range(batch)] for t in range(steps)]]
    else:
        results = [fw, bw]
    outputs = [laid_out(states, len(states[0][0])) for states in results]
    for array in outputs:
        builder.output(array.shape)
    model = builder.model("BIDIRECTIONAL_SEQUENCE_RNN", operands)
    parameters = {"batch": batch, "steps": steps, "input size": size,
                  "units (fw, bw)": tuple(u for u, _ in aux_weights),
                  "activation": ACTIVATIONS[code], "time_major": time_major,
                  "merge_outputs": merged, "aux input": aux}  # fmt: skip
    return Corner(
        "recurrent", "BIDIRECTIONAL_SEQUENCE_RNN", model, inputs, outputs,
        _classes(model, outputs), parameters, "rnn_oracle",
    )  # fmt: skip


def _svdf(draw, rnn: ModuleType) -> Corner:
    """SVDF (one step), float32: batch 1-2, 1-3 inputs and units, rank 1-3, memory 1-3, the
    bias given or omitted, activation none, RELU or RELU6; the weights, bias, input and
    state in [-4, 4] by halves (every sum exact). The weights have units * rank filters
    and the state [batch, memory * units * rank], as Android 10 and the generated tests
    have them (docs/operations.md, SVDF (27): the HAL text's sizes differ)."""
    batch, size, units = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    rank, memory = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    filters = units * rank
    wf, wt = _matrix(draw, filters, size), _matrix(draw, filters, memory)
    bias = _floats(draw, units) if draw(st.booleans()) else None
    code = draw(st.sampled_from(_RNN_ACTIVATIONS))
    x, state = _matrix(draw, batch, size), _matrix(draw, batch, filters * memory)
    state_out, out = rnn.svdf(x, wf, wt, bias, state, rank, code)
    builder = _Builder()
    inputs = [_array(x, (batch, size)), _array(state, (batch, filters * memory))]
    operands = [
        builder.input(inputs[0]),
        builder.tensor(_array(rnn.flat(wf), (filters, size))),
        builder.tensor(_array(rnn.flat(wt), (filters, memory))),
        _omitted(builder, (units,)) if bias is None else builder.tensor(_array(bias, (units,))),
        builder.input(inputs[1]),
        builder.int32(rank),
        builder.int32(code),
    ]
    outputs = [_array(state_out, (batch, filters * memory)), _array(out, (batch, units))]
    for array in outputs:
        builder.output(array.shape)
    model = builder.model("SVDF", operands)
    parameters = {"batch": batch, "input size": size, "units": units, "rank": rank,
                  "memory": memory, "bias": bias is not None,
                  "activation": ACTIVATIONS[code]}  # fmt: skip
    return Corner(
        "recurrent", "SVDF", model, inputs, outputs, _classes(model, outputs), parameters,
        "rnn_oracle",
    )  # fmt: skip


def _recurrent_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    x = list(model.operands[inputs[0]].dimensions)
    if name == "SVDF":
        return _svdf_classes(model, inputs, constants, x)
    bidirectional = name == "BIDIRECTIONAL_SEQUENCE_RNN"
    units = model.operands[inputs[1]].dimensions[0]
    if bidirectional:
        units = max(units, model.operands[inputs[5]].dimensions[0])
    classes = _activation(constants, inputs, 12 if bidirectional else 5)
    if units > 1:
        classes.append("units>1")
    if name == "RNN":
        return classes + (["batch>1"] if x[0] > 1 else [])
    time_major = _scalar(constants, inputs[13 if bidirectional else 6])
    steps, batch = (x[0], x[1]) if time_major else (x[1], x[0])
    classes.append("time-major" if time_major else "batch-major")
    classes += ["batch>1"] * (batch > 1) + ["steps>1"] * (steps > 1)
    if bidirectional:
        classes += _bidirectional_classes(model, operation, constants)
    return classes


def _bidirectional_classes(model, operation, constants) -> list[str]:
    """BIDIRECTIONAL_SEQUENCE_RNN: merged or separate outputs, forward and backward units
    differing, the auxiliary input given (a rank-3 operand with constant weights: an
    auxiliary input declared but sent empty, as specs omit it, gives no class)."""
    inputs = operation.inputs
    classes = ["merged-outputs" if len(operation.outputs) == 1 else "separate-outputs"]
    if model.operands[inputs[1]].dimensions[0] != model.operands[inputs[5]].dimensions[0]:
        classes.append("units:fw-bw-differ")
    aux = model.operands[inputs[9]]
    if (
        aux.lifetime != OperandLifeTime.NO_VALUE
        and len(aux.dimensions) == 3
        and inputs[10] in constants
    ):
        classes.append("aux-input")
    return classes


def _svdf_classes(model, inputs, constants, x) -> list[str]:
    """SVDF: rank, memory size, units (filters / rank), batch, the bias omitted."""
    filters, memory = model.operands[inputs[2]].dimensions
    rank = _scalar(constants, inputs[5])
    classes = _activation(constants, inputs, 6)
    if rank is not None and rank > 0:
        classes += ["rank>1"] * (rank > 1) + ["units>1"] * (filters // rank > 1)
    classes += ["memory>1"] * (memory > 1) + ["batch>1"] * (x[0] > 1)
    if model.operands[inputs[3]].lifetime == OperandLifeTime.NO_VALUE:
        classes.append("bias:omitted")
    return classes


@_family(
    "recurrent",
    operations=_RECURRENT,
    classes=(
        "activation:none", "activation:relu", "activation:relu6", "units>1", "batch>1", "steps>1",
        "time-major", "batch-major", "aux-input", "merged-outputs", "separate-outputs",
        "units:fw-bw-differ", "rank>1", "memory>1", "bias:omitted",
    ),
    classify=_recurrent_classes,
)  # fmt: skip
@st.composite
def recurrent(draw, operation: str | None = None) -> Corner:
    """RNN (one step) and UNIDIRECTIONAL_SEQUENCE_RNN (1-3 steps, time-major or
    batch-major), float32: batch 1-2, 1-3 inputs and units, the weights, bias and state
    in [-4, 4] by halves (every sum exact), activation none, RELU or RELU6.
    BIDIRECTIONAL_SEQUENCE_RNN and SVDF: ``_bidirectional_rnn`` and ``_svdf``."""
    rnn = oracle("rnn_oracle")
    operation = operation or draw(st.sampled_from(_RECURRENT))
    if operation == "BIDIRECTIONAL_SEQUENCE_RNN":
        return _bidirectional_rnn(draw, rnn)
    if operation == "SVDF":
        return _svdf(draw, rnn)
    batch, size, units = (draw(st.integers(1, 3 if i else 2)) for i in range(3))
    w, r = _matrix(draw, units, size), _matrix(draw, units, units)
    bias, code = _floats(draw, units), draw(st.sampled_from(_RNN_ACTIVATIONS))
    h0 = _matrix(draw, batch, units)
    builder = _Builder()
    weights = [
        builder.tensor(_array([v for row in w for v in row], (units, size))),
        builder.tensor(_array([v for row in r for v in row], (units, units))),
        builder.tensor(_array(bias, (units,))),
    ]
    parameters: dict[str, object] = {"batch": batch, "input size": size, "units": units,
                                     "activation": ACTIVATIONS[code]}  # fmt: skip
    if operation == "RNN":
        x = _matrix(draw, batch, size)
        out = rnn.rnn(x, w, r, bias, h0, code)
        inputs = [_array(x, (batch, size)), _array(h0, (batch, units))]
        x_operand, h_operand = (builder.input(a) for a in inputs)
        operands = [x_operand, *weights, h_operand, builder.int32(code)]
        outputs = [_array(out, (batch, units)), _array(out, (batch, units))]
    else:
        steps, time_major = draw(st.integers(1, 3)), draw(st.booleans())
        sequence = [_matrix(draw, batch, size) for _ in range(steps)]  # [t][b][i]
        states = rnn.run_direction(sequence, w, r, bias, h0, code, False)  # [t][b][u]
        if time_major:
            x_shape, out_shape, x, out = (
                (steps, batch, size),
                (steps, batch, units),
                sequence,
                states,
            )
        else:
            x_shape, out_shape = (batch, steps, size), (batch, steps, units)
            x = [[sequence[t][b] for t in range(steps)] for b in range(batch)]
            out = [[states[t][b] for t in range(steps)] for b in range(batch)]
        inputs = [_array(rnn.flat(x), x_shape), _array(h0, (batch, units))]
        x_operand, h_operand = (builder.input(a) for a in inputs)
        operands = [x_operand, *weights, h_operand, builder.int32(code),
                    builder.int32(int(time_major))]  # fmt: skip
        outputs = [_array(rnn.flat(out), out_shape)]
        parameters.update(steps=steps, time_major=time_major)
    for array in outputs:
        builder.output(array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "recurrent", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        "rnn_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# lstm: LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, BIDIRECTIONAL_SEQUENCE_LSTM, QUANTIZED_16BIT_LSTM
# ---------------------------------------------------------------------------

_LSTMS = (
    "LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM", "QUANTIZED_16BIT_LSTM",
)  # fmt: skip
_LSTM_ACTIVATIONS = {0: "none", 1: "relu", 2: "relu1", 3: "relu6", 4: "tanh", 5: "sign-bit",
                     6: "sigmoid"}  # fmt: skip
"""The float LSTMs' activation codes (TensorFlow Lite's set, docs/operations.md, Recurrent
activation codes) by name."""
_LSTM_DRAWN_ACTIVATIONS = (1, 3, 4, 6)
"""RELU, RELU6, tanh, sigmoid. Not NONE: the HAL text gives m = o * c there, while Android
10's CPU path leaves g(c) unwritten and in effect computes o * g(cell input)
(reference_driver/ops/lstm.py), so which to expect is the specs' business; not RELU1 (2)
nor the sign bit (5), outside the operations' documented set (docs/operations.md,
UNIDIRECTIONAL_SEQUENCE_LSTM (92))."""
_CELL_CLIPS = (0.0, 0.25, 0.5, 1.0)
_PROJECTION_CLIPS = (0.0, 0.125, 0.25, 0.5)
"""Clip values (0: none): small against cell states up to 2 and more, so often reached."""
_LN_SPREAD = 0.02
"""The least variance / mean square of the gate sums a layer normalisation of several
units is drawn with. The variance is mean(z^2) - mean(z)^2 (docs/operations.md,
UNIDIRECTIONAL_SEQUENCE_LSTM (92)), which float32 gets to about 2^-22 * mean(z^2): a
narrower spread would judge rounding (a spread of exactly 0 in double can be a tiny one in
float32, normalised to +-1 instead of 0)."""
_QLSTM_SCALES = (1 / 1024, 1 / 256, 3 / 1024, 0.005, 1 / 128, 1 / 64)
"""QUANTIZED_16BIT_LSTM weight scales: from gate sums inside the fixed-point activations'
curved range to sums saturating the Q3.12 pre-activation (|pre| >= 8)."""
_QLSTM_GATES = ("input", "forget", "cell", "output")
_QLSTM_STATE = 2.0**-11
"""The cell state's fixed quantization: TENSOR_QUANT16_SYMM, Q4.11 (docs/operations.md,
QUANTIZED_16BIT_LSTM (73))."""


def _eighths(draw, count: int, scale: float = 1.0) -> list[float]:
    """Multiples of 1/8 in [-1, 1] (as the LSTM specs' data), times ``scale``."""
    return [scale * v / 8 for v in draw(_exactly(st.integers(-8, 8), count))]


def _eighth_rows(draw, rows: int, columns: int, scale: float = 1.0) -> list[list[float]]:
    values = _eighths(draw, rows * columns, scale)
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


def _lstm_cell(draw, cells: ModuleType, inputs: int, aux: int, layer_norm: bool):
    """One direction's cell: (weights by the oracle's names, None where omitted; config).
    CIFG, peephole, projection (its bias or not) and, where the form has it, layer
    normalisation are drawn apart; 1-3 units, 1-3 outputs with a projection."""
    units = draw(st.integers(1, 3))
    cifg, peephole, projection = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    output = draw(st.integers(1, 3)) if projection else units
    projection_bias = projection and draw(st.booleans())
    normalised = layer_norm and draw(st.booleans())
    cfg = cells.CellConfig(
        units, output, cifg, peephole, projection, projection_bias, normalised, aux > 0
    )
    cell: dict[str, object] = {}
    for g in cells.GATES:
        absent = g == "i" and cifg
        cell["w_x" + g] = None if absent else _eighth_rows(draw, units, inputs)
        cell["w_h" + g] = None if absent else _eighth_rows(draw, units, output)
        cell["b_" + g] = None if absent else _eighths(draw, units)
        cell["aux_" + g] = _eighth_rows(draw, units, aux) if aux and not absent else None
        gamma = [v or 0.5 for v in _eighths(draw, units)] if normalised and not absent else None
        cell["ln_" + g] = gamma
    for g in "ifo":
        cell["w_c" + g] = _eighths(draw, units) if peephole and not (g == "i" and cifg) else None
    cell["w_proj"] = _eighth_rows(draw, output, units) if projection else None
    cell["b_proj"] = _eighths(draw, output) if projection_bias else None
    return cell, cfg


def _cell_dims(name: str, cfg, inputs: int) -> tuple[int, ...]:
    n, p = cfg.units, cfg.output
    by_name = {"w_proj": (p, n), "b_proj": (p,)}
    return by_name.get(name) or {"w_x": (n, inputs), "w_h": (n, p)}.get(name[:3], (n,))


def _lstm_tensor(builder: _Builder, cells: ModuleType, values, dims: Sequence[int]) -> int:
    """A float32 constant, or an omitted input (NO_VALUE) where ``values`` is None."""
    if values is None:
        return _omitted(builder, dims)
    return builder.tensor(_array(cells.flat(values), dims))


def _well_spread(trace: Sequence[tuple[list[float], float, float]]) -> bool:
    """Whether every layer normalisation the oracle made is well conditioned: one unit
    (mean z, variance 0 in any precision: normalised to 0) or a spread of ``_LN_SPREAD``."""
    return all(
        len(z) == 1 or (var > 0 and var >= _LN_SPREAD * (var + mean * mean))
        for z, mean, var in trace
    )


def _cell_shown(cfg) -> str:
    flags = [name for name in ("cifg", "peephole", "projection", "projection_bias",
                               "layer_norm") if getattr(cfg, name)]  # fmt: skip
    return f"units={cfg.units} output={cfg.output} " + ("+".join(flags) or "plain")


def _float_lstm(draw, operation: str) -> Corner:
    """LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, BIDIRECTIONAL_SEQUENCE_LSTM, float32."""
    from hypothesis import assume

    cells = oracle("lstm_oracle")
    bidi = operation == "BIDIRECTIONAL_SEQUENCE_LSTM"
    batch, size = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    steps = 1 if operation == "LSTM" else draw(st.integers(1, 3))
    time_major = operation != "LSTM" and draw(st.booleans())
    code = draw(st.sampled_from(_LSTM_DRAWN_ACTIVATIONS))
    cell_clip = draw(st.sampled_from(_CELL_CLIPS))
    proj_clip = draw(st.sampled_from(_PROJECTION_CLIPS))
    # LSTM: HAL 1.0's 23 inputs or HAL 1.2's 27 (the layer-norm weights given or omitted).
    form = draw(st.sampled_from(["plain", "layer-norm"])) if operation == "LSTM" else "layer-norm"
    aux = draw(st.integers(1, 3)) if bidi and draw(st.booleans()) else 0
    merged = bidi and draw(st.booleans())
    directions = [_lstm_cell(draw, cells, size, aux, form == "layer-norm") for _ in range(1 + bidi)]
    xs = [_eighth_rows(draw, batch, size) for _ in range(steps)]  # [t][b][i]
    auxs = [_eighth_rows(draw, batch, aux) for _ in range(steps)] if aux else None
    states = []  # h0 in [-1, 1], c0 in [-2, 2], per direction
    for _, cfg in directions:
        states += [_eighth_rows(draw, batch, cfg.output), _eighth_rows(draw, batch, cfg.units, 2)]
    trace: list = []
    args = (code, cell_clip, proj_clip, trace)
    if operation == "LSTM":
        ((cell, cfg),) = directions
        h_out, c_out = cells.lstm(cell, cfg, xs[0], *states, *args)
        gates = 3 if cfg.cifg else 4
        results = [[[0.0] * (cfg.units * gates)] * batch, h_out, c_out, h_out]  # scratch: zeros
    elif bidi:
        fw, bw = cells.bidirectional_lstm(*directions, xs, auxs, states, *args)
        results = [[[fw[t][b] + bw[t][b] for b in range(batch)] for t in range(steps)]]
        results = results if merged else [fw, bw]
    else:
        results = [cells.sequence_lstm(*directions[0], xs, *states, *args)]
    assume(_well_spread(trace))

    def laid_out(sequence: list) -> np.ndarray:  # [t][b][k] in the case's layout
        data = sequence if time_major else cells.batch_major(sequence)
        return _array(cells.flat(data), (len(data), len(data[0]), len(data[0][0])))

    builder = _Builder()
    inputs = [_array(cells.flat(xs[0]), (batch, size)) if operation == "LSTM" else laid_out(xs)]
    operands = [builder.input(inputs[0])]
    for cell, cfg in directions:
        operands += [_lstm_tensor(builder, cells, cell[name], _cell_dims(name, cfg, size))
                     for name in cells.CELL_NAMES]  # fmt: skip
    for state in states:
        inputs.append(_array(cells.flat(state), (batch, len(state[0]))))
        operands.append(builder.input(inputs[-1]))
    if bidi:
        if auxs is None:
            operands.append(_omitted(builder, inputs[0].shape))
        else:
            inputs.append(laid_out(auxs))
            operands.append(builder.input(inputs[-1]))
        for cell, cfg in directions:
            operands += [_lstm_tensor(builder, cells, cell["aux_" + g], (cfg.units, aux or size))
                         for g in cells.GATES]  # fmt: skip
    operands += [builder.int32(code), builder.float32(cell_clip), builder.float32(proj_clip)]
    if bidi:
        operands += [builder.bool(merged), builder.bool(time_major)]
    elif operation != "LSTM":
        operands.append(builder.bool(time_major))
    if form == "layer-norm":
        for cell, cfg in directions:
            operands += [_lstm_tensor(builder, cells, cell["ln_" + g], (cfg.units,))
                         for g in cells.GATES]  # fmt: skip
    if operation == "LSTM":
        outputs = [_array(cells.flat(r), (batch, len(r[0]))) for r in results]
    else:
        outputs = [laid_out(r) for r in results]
    for array in outputs:
        builder.output(array.shape)
    model = builder.model(operation, operands)
    parameters: dict[str, object] = {"batch": batch, "input size": size}
    if operation != "LSTM":
        parameters.update(steps=steps, time_major=time_major)
    else:
        parameters["inputs"] = 23 if form == "plain" else 27
    parameters["cell" if len(directions) == 1 else "cells (fw, bw)"] = tuple(
        _cell_shown(cfg) for _, cfg in directions
    )
    parameters.update(activation=_LSTM_ACTIVATIONS[code], cell_clip=cell_clip,
                      proj_clip=proj_clip)  # fmt: skip
    if bidi:
        parameters.update(merge_outputs=merged, aux_input_size=aux)
    return Corner(
        "lstm", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        "lstm_oracle", ignored=frozenset({0}) if operation == "LSTM" else frozenset(),
    )  # fmt: skip


def _quantized_lstm(draw) -> Corner:
    """QUANTIZED_16BIT_LSTM: batch 1-2, 1-3 inputs and 1-3 outputs (apart, so the
    reference's pairing of [x, h] with the columns [recurrent | input] shows:
    docs/operations.md, QUANTIZED_16BIT_LSTM (73), which the specs' goldens follow), the
    eight weights' common scale and zero point drawn (bytes over the whole range), biases up
    to 4 in real terms, the input, output state and cell state of fixed quantization any
    bytes and int16 (the state's extremes often); in a quarter of the cases the forget and
    output gates held open (biases of 8, the Q3.12 end), so the cell state saturates and the
    output nears its ends. The oracle follows the operation's integer steps bit for bit."""
    rnn = oracle("rnn_oracle")
    batch, size, units = (draw(st.integers(1, 3 if i else 2)) for i in range(3))
    scale = float(np.float32(draw(st.sampled_from(_QLSTM_SCALES))))
    zero = draw(_ZERO_POINTS)
    bias_scale = float(np.float32(scale) / np.float32(128))
    byte = st.integers(0, 255)
    w_in = {g: [draw(_exactly(byte, size)) for _ in range(units)] for g in _QLSTM_GATES}
    w_rec = {g: [draw(_exactly(byte, units)) for _ in range(units)] for g in _QLSTM_GATES}
    bound = int(4 / bias_scale)
    biases = {g: draw(_exactly(st.integers(-bound, bound), units)) for g in _QLSTM_GATES}
    if draw(st.integers(0, 3)) == 0:
        biases["forget"] = biases["output"] = [int(8 / bias_scale)] * units
    x = [draw(_exactly(byte, size)) for _ in range(batch)]
    state = st.one_of(st.sampled_from([-32768, 32767]), st.integers(-32768, 32767))
    c_prev = [draw(_exactly(state, units)) for _ in range(batch)]
    h_prev = [draw(_exactly(byte, units)) for _ in range(batch)]
    c_out, h_out = rnn.qlstm(x, w_in, w_rec, biases, c_prev, h_prev, zero, scale)
    quant8, quant16 = OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_SYMM
    builder = _Builder()
    inputs = [
        _array(rnn.flat(x), (batch, size), np.uint8),
        _array(rnn.flat(c_prev), (batch, units), np.int16),
        _array(rnn.flat(h_prev), (batch, units), np.uint8),
    ]
    operands = [builder.input(inputs[0], quant8, 1 / 128, 128)]

    def weights(rows: list[list[int]], columns: int) -> int:
        array = _array(rnn.flat(rows), (units, columns), np.uint8)
        return builder.constant(quant8, array.shape, array.tobytes(), scale, zero)

    operands += [weights(w_in[g], size) for g in _QLSTM_GATES]
    operands += [weights(w_rec[g], units) for g in _QLSTM_GATES]
    int32 = OperandType.TENSOR_INT32
    operands += [
        builder.constant(int32, (units,), np.asarray(biases[g], np.int32).tobytes(), bias_scale)
        for g in _QLSTM_GATES
    ]
    operands.append(builder.input(inputs[1], quant16, _QLSTM_STATE))
    operands.append(builder.input(inputs[2], quant8, 1 / 128, 128))
    outputs = [
        _array(rnn.flat(c_out), (batch, units), np.int16),
        _array(rnn.flat(h_out), (batch, units), np.uint8),
    ]
    builder.output((batch, units), quant16, _QLSTM_STATE)
    builder.output((batch, units), quant8, 1 / 128, 128)
    model = builder.model("QUANTIZED_16BIT_LSTM", operands)
    parameters = {"batch": batch, "input size": size, "output size": units,
                  "weights (scale, zero point)": (scale, zero)}  # fmt: skip
    return Corner(
        "lstm", "QUANTIZED_16BIT_LSTM", model, inputs, outputs, _classes(model, outputs),
        parameters, "rnn_oracle",
    )  # fmt: skip


def _lstm_present(model: Model, inputs: Sequence[int], slot: int) -> bool:
    """Whether the optional input at ``slot`` is given: not NO_VALUE, not a spec's "{0}"."""
    if slot >= len(inputs):
        return False
    operand = model.operands[inputs[slot]]
    return operand.lifetime != OperandLifeTime.NO_VALUE and 0 not in operand.dimensions


def _float_scalar(constants: dict[int, np.ndarray], index: int) -> float | None:
    value = constants.get(index)
    return None if value is None else float(value.reshape(-1)[0])


_LSTM_SLOTS = {  # cells (first slot, layer-norm slots), activation, time_major, merge
    "LSTM": (((1, (23, 24, 25, 26)),), 20, None, None),
    "UNIDIRECTIONAL_SEQUENCE_LSTM": (((1, (24, 25, 26, 27)),), 20, 23, None),
    "BIDIRECTIONAL_SEQUENCE_LSTM": (
        ((1, (53, 54, 55, 56)), (18, (57, 58, 59, 60))), 48, 52, 51,
    ),
}  # fmt: skip


def _lstm_classes(model, operation, constants, name) -> list[str]:
    """The float LSTMs: each cell's CIFG, peephole, projection (and bias), layer norm,
    sizes; activation, clips, batch, steps, layout; LSTM's input list; the bidirectional
    form's merged outputs, aux input and directions of different cells. QUANTIZED_16BIT_LSTM:
    batch, sizes, the weights' quantization."""
    inputs = operation.inputs
    x = list(model.operands[inputs[0]].dimensions)
    if name == "QUANTIZED_16BIT_LSTM":
        units, size = model.operands[inputs[1]].dimensions
        classes = ["batch>1"] * (x[0] > 1) + ["units>1"] * (units > 1)
        classes += ["input-size!=output-size"] * (size != units)
        return classes + _quant_classes_of(model, inputs[1:9])
    cells, act, time_major_slot, merge_slot = _LSTM_SLOTS[name]
    classes, shapes = [], []
    for first, layer_norm in cells:

        def has(k: int, first: int = first) -> bool:
            return _lstm_present(model, inputs, first + k - 1)

        found = [flag for flag, present in (
            ("cifg", not has(1)), ("peephole", has(10)), ("projection", has(16)),
            ("projection-bias", has(16) and has(17)),
            ("layer-norm", any(_lstm_present(model, inputs, s) for s in layer_norm)),
        ) if present]  # fmt: skip
        units = model.operands[inputs[first + 12]].dimensions[0]  # the forget gate's bias
        output = model.operands[inputs[first + 5]].dimensions[1]  # recurrent-to-forget
        found += ["units>1"] * (units > 1) + ["output-size!=units"] * (0 < output != units > 0)
        classes += found
        shapes.append((found, units, output))
    if len(shapes) > 1 and shapes[0] != shapes[1]:
        classes.append("directions-differ")
    if name == "LSTM":
        classes.append("inputs:layer-norm" if len(inputs) > 23 else "inputs:plain")
    code = _scalar(constants, inputs[act])
    if code in _LSTM_ACTIVATIONS:
        classes.append(f"activation:{_LSTM_ACTIVATIONS[code]}")
    cell_clip = _float_scalar(constants, inputs[act + 1])
    proj_clip = _float_scalar(constants, inputs[act + 2])
    if cell_clip:
        classes.append("clip:cell")
    if proj_clip and "projection" in classes:
        classes.append("clip:projection")
    batch, steps = x[0], 1
    if time_major_slot is not None:
        time_major = _scalar(constants, inputs[time_major_slot])
        if time_major is not None:
            classes.append("time-major" if time_major else "batch-major")
            steps, batch = (x[0], x[1]) if time_major else (x[1], x[0])
    classes += ["batch>1"] * (batch > 1) + ["steps>1"] * (steps > 1)
    if merge_slot is not None:
        merged = _scalar(constants, inputs[merge_slot])
        if merged is not None:
            classes.append("merged-outputs" if merged else "separate-outputs")
        if _lstm_present(model, inputs, 41):  # the forward cell's aux forget weights
            classes.append("aux-input")
    return classes


def _lstm_result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """A clip reached (an output at +-clip: LSTM's cell state, the output state of a cell
    with a projection); QUANTIZED_16BIT_LSTM's cell state saturated at an int16 end."""
    if name == "QUANTIZED_16BIT_LSTM":
        cell = outputs[0]
        return ["quant:cell-saturated"] if np.any(cell == 32767) or np.any(cell == -32768) else []
    try:
        constants = read_constants(model)
    except Exception:
        return []
    operation = next(o for o in model.operations if list(o.outputs) == list(model.output_indexes))
    inputs = operation.inputs
    act = _LSTM_SLOTS[name][1]
    cell_clip = _float_scalar(constants, inputs[act + 1])
    proj_clip = _float_scalar(constants, inputs[act + 2])
    classes = []
    cell_state = outputs[2] if name == "LSTM" and len(outputs) > 2 else None
    if cell_clip and cell_state is not None and np.any(np.abs(cell_state) == cell_clip):
        classes.append("clip:cell-reached")
    projected = any(_lstm_present(model, inputs, first + 15) for first, _ in _LSTM_SLOTS[name][0])
    states = outputs[1:2] if name == "LSTM" else outputs
    if proj_clip and projected and any(np.any(np.abs(s) == np.float32(proj_clip)) for s in states):
        classes.append("clip:projection-reached")
    return classes


@_family(
    "lstm",
    operations=_LSTMS,
    classes=(
        "cifg", "peephole", "projection", "projection-bias", "layer-norm", "clip:cell",
        "clip:projection", "clip:cell-reached", "clip:projection-reached", "batch>1", "units>1",
        "output-size!=units", "steps>1", "time-major", "batch-major", "activation:relu",
        "activation:relu6", "activation:tanh", "activation:sigmoid", "inputs:plain",
        "inputs:layer-norm", "merged-outputs", "separate-outputs", "aux-input", "directions-differ",
        "input-size!=output-size", "quant:zero-point-0", "quant:zero-point-255",
        "quant:output-at-range-end", "quant:cell-saturated",
    ),
    classify=_lstm_classes,
    results=_lstm_result_classes,
)  # fmt: skip
@st.composite
def lstm(draw, operation: str | None = None) -> Corner:
    """LSTM (one step; HAL 1.0's 23 inputs or 1.2's 27), UNIDIRECTIONAL_SEQUENCE_LSTM and
    BIDIRECTIONAL_SEQUENCE_LSTM (1-3 steps, time-major or batch-major), float32: batch
    1-2, 1-3 inputs, per direction 1-3 units with CIFG, peephole, projection (with its
    bias or not, 1-3 outputs) and layer normalisation (HAL 1.2 forms) drawn apart, the
    omitted tensors NO_VALUE; activation RELU, RELU6, tanh or sigmoid; cell and projection
    clips 0 or small (reached); BIDIRECTIONAL_SEQUENCE_LSTM's outputs merged or apart and
    its aux input (1-3 wide, with its weights) or none. Weights, inputs and the output
    state multiples of 1/8 in [-1, 1], the cell state in [-2, 2]. LSTM's scratch output is
    not compared. QUANTIZED_16BIT_LSTM: ``_quantized_lstm``."""
    operation = operation or draw(st.sampled_from(_LSTMS))
    if operation == "QUANTIZED_16BIT_LSTM":
        return _quantized_lstm(draw)
    return _float_lstm(draw, operation)
