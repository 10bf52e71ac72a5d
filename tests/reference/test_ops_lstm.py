"""The reference driver's LSTM family: numerics and edge cases docs/operations.md spells out.

LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM run through
the HAL (prepare, then execute_synchronously) on cells of one or two units
whose weights are mostly 0, so every gate is sigmoid(bias) and each expected
value is derived by hand in the comment beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)
from reference_driver import ReferenceDriver

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Op = OperationType
LN3 = math.log(3.0)  # sigmoid(ln 3) = 0.75


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


@dataclass(frozen=True)
class Scalar:
    type: int
    value: float | int | bool


@dataclass(frozen=True)
class Omitted:
    """An omitted optional tensor: a NO_VALUE operand, or a model input given has_no_value."""

    rank: int


Spec = np.ndarray | Scalar | Omitted


def _model(
    op: Op,
    inputs: Sequence[Spec],
    outputs: Sequence[tuple[int, ...]],
    tensor: int,
    in_request: bool,
) -> Model:
    """``op`` with array inputs as model inputs, scalars as constants; omitted tensors
    are NO_VALUE operands, or model inputs of dims 0 when ``in_request``."""
    operands: list[Operand] = []
    values = bytearray()
    for spec in inputs:
        if isinstance(spec, Scalar):
            dtype = {
                OperandType.INT32: "<i4",
                OperandType.FLOAT32: "<f4",
                OperandType.FLOAT16: "<f2",
                OperandType.BOOL: "u1",
            }[spec.type]
            data = np.asarray(spec.value, dtype=dtype).tobytes()
            location = DataLocation(0, len(values), len(data))
            operands.append(
                Operand(spec.type, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
            )
            values += data
        elif isinstance(spec, Omitted):
            lifetime = OperandLifeTime.MODEL_INPUT if in_request else OperandLifeTime.NO_VALUE
            operands.append(Operand(tensor, [0] * spec.rank, 1, lifetime=lifetime))
        else:
            operands.append(
                Operand(tensor, list(spec.shape), 1, lifetime=OperandLifeTime.MODEL_INPUT)
            )
    first = len(operands)
    operands += [
        Operand(tensor, list(d), 0, lifetime=OperandLifeTime.MODEL_OUTPUT) for d in outputs
    ]
    return Model(
        operands=operands,
        operations=[Operation(op, list(range(first)), list(range(first, len(operands))))],
        input_indexes=[
            i for i in range(first) if operands[i].lifetime == OperandLifeTime.MODEL_INPUT
        ],
        output_indexes=list(range(first, len(operands))),
        operand_values=bytes(values),
    )


def _prepare(driver: ReferenceDriver, model: Model):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    return launch, notification


def _run(
    driver: ReferenceDriver,
    op: Op,
    inputs: Sequence[Spec],
    outputs: Sequence[tuple[int, ...]],
    tensor: int = F32,
    in_request: bool = False,
):
    """(status, output arrays) of one synchronous execution."""
    dtype = np.float16 if tensor == F16 else np.float32
    inputs = [s.astype(dtype) if isinstance(s, np.ndarray) else s for s in inputs]
    model = _model(op, inputs, outputs, tensor, in_request)
    launch, notification = _prepare(driver, model)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    data = [
        s for s in inputs if isinstance(s, np.ndarray) or (in_request and isinstance(s, Omitted))
    ]
    data = [None if isinstance(s, Omitted) else s for s in data]
    with pack_request(model, data, [1 << 10] * len(outputs)) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        arrays = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if not status else []
        )
    return status, arrays


def _a(*values: float) -> np.ndarray:
    return np.asarray(values, np.float32)


def _m(rows: int, cols: int, value: float = 0.0) -> np.ndarray:
    return np.full((rows, cols), value, np.float32)


@dataclass
class Cell:
    """A one-unit cell (input size 1), every weight 0 unless given; biases per gate."""

    b_i: float | None = 0.0  # None: CIFG (input-gate weights and bias omitted)
    b_f: float = 0.0
    b_c: float = 0.0
    b_o: float = 0.0
    w_xc: float = 0.0
    projection: tuple[float, float | None] | None = None  # (weight, bias)

    def tensors(self) -> list[Spec]:
        cifg = self.b_i is None
        w = _m(1, 1)
        proj_w = Omitted(2) if self.projection is None else _m(1, 1, self.projection[0])
        proj_b: Spec = Omitted(1)
        if self.projection is not None and self.projection[1] is not None:
            proj_b = _a(self.projection[1])
        return [
            Omitted(2) if cifg else w, w, _m(1, 1, self.w_xc), w,
            Omitted(2) if cifg else w, w, w, w,
            Omitted(1), Omitted(1), Omitted(1),
            Omitted(1) if cifg else _a(self.b_i), _a(self.b_f), _a(self.b_c), _a(self.b_o),
            proj_w, proj_b,
        ]  # fmt: skip


def _scalars(
    activation: int, cell_clip: float, proj_clip: float, tensor: int = F32
) -> list[Scalar]:
    f = OperandType.FLOAT16 if tensor == F16 else OperandType.FLOAT32
    return [Scalar(OperandType.INT32, activation), Scalar(f, cell_clip), Scalar(f, proj_clip)]


def _lstm(
    driver, cell: Cell, x, h, c, activation=4, cell_clip=0.0, proj_clip=0.0, in_request=False
):
    inputs = [_a(x).reshape(1, 1), *cell.tensors(), _a(h).reshape(1, 1), _a(c).reshape(1, 1)]
    inputs += _scalars(activation, cell_clip, proj_clip)
    gates = 3 if cell.b_i is None else 4
    outputs = [(1, gates), (1, 1), (1, 1), (1, 1)]
    return _run(driver, Op.LSTM, inputs, outputs, in_request=in_request)


# ---------------------------------------------------------------------------
# LSTM
# ---------------------------------------------------------------------------


def test_lstm_step_gates_at_one_half(driver) -> None:
    # biases 0: i = f = o = 0.5; c = 0.5 * 0.4 + 0.5 * tanh(0) = 0.2; h = 0.5 * tanh(0.2)
    status, (scratch, h, c, out) = _lstm(driver, Cell(), 0.75, -0.5, 0.4)
    assert status == ErrorStatus.NONE
    assert scratch.shape == (1, 4)
    np.testing.assert_allclose(c, [[0.2]], rtol=1e-6)
    np.testing.assert_allclose(h, [[0.5 * math.tanh(0.2)]], rtol=1e-6)
    np.testing.assert_array_equal(out, h)


@pytest.mark.parametrize("in_request", [False, True], ids=["no_value_operands", "has_no_value"])
def test_lstm_cifg_input_gate_is_one_minus_forget(driver, in_request) -> None:
    # f = sigmoid(ln 3) = 0.75, so i = 0.25; relu(b_c = 2) = 2; c = 0.75 * 1 + 0.25 * 2 = 1.25;
    # o = 0.5, h = 0.5 * relu(1.25) = 0.625. The scratch buffer has 3 gates.
    cell = Cell(b_i=None, b_f=LN3, b_c=2.0)
    status, (scratch, h, c, _) = _lstm(
        driver, cell, 0.0, 0.0, 1.0, activation=1, in_request=in_request
    )
    assert status == ErrorStatus.NONE
    assert scratch.shape == (1, 3)
    np.testing.assert_allclose([c[0, 0], h[0, 0]], [1.25, 0.625], rtol=1e-6)


def test_lstm_cell_and_projection_clips(driver) -> None:
    # As above, c = 1.25 clipped to 1.0; m = 0.5 * relu(1.0) = 0.5;
    # projection 2 * 0.5 + 0.25 = 1.25, clipped to 0.8
    cell = Cell(b_i=None, b_f=LN3, b_c=2.0, projection=(2.0, 0.25))
    status, (_, h, c, _) = _lstm(
        driver, cell, 0.0, 0.0, 1.0, activation=1, cell_clip=1.0, proj_clip=0.8
    )
    assert status == ErrorStatus.NONE
    np.testing.assert_allclose([c[0, 0], h[0, 0]], [1.0, 0.8], rtol=1e-6)


def test_lstm_projection_without_bias(driver) -> None:
    # m = 0.625 (CIFG case above), projection -2 * 0.625 = -1.25, no clip
    cell = Cell(b_i=None, b_f=LN3, b_c=2.0, projection=(-2.0, None))
    status, (_, h, _, _) = _lstm(driver, cell, 0.0, 0.0, 1.0, activation=1)
    assert status == ErrorStatus.NONE
    np.testing.assert_allclose(h, [[-1.25]], rtol=1e-6)


def test_lstm_activation_none_multiplies_the_cell_state(driver) -> None:
    # The definition: m = o * g(c) with g the identity. i = f = o = 0.5, cell input
    # b_c = 2, c = 0.5 * 0 + 0.5 * 2 = 1, h = 0.5 * 1 = 0.5 (not o * cell input = 1.0,
    # what the Android 10 CPU reference's unwritten scratch vector gives).
    status, (_, h, c, _) = _lstm(driver, Cell(b_c=2.0), 0.0, 0.0, 0.0, activation=0)
    assert status == ErrorStatus.NONE
    np.testing.assert_allclose([c[0, 0], h[0, 0]], [1.0, 0.5], rtol=1e-6)


def test_lstm_sigmoid_activation(driver) -> None:
    # g = sigmoid: cell input sigmoid(0) = 0.5, c = 0.5 * 0.5 = 0.25, h = 0.5 * sigmoid(0.25)
    status, (_, h, _, _) = _lstm(driver, Cell(), 0.0, 0.0, 0.0, activation=6)
    assert status == ErrorStatus.NONE
    np.testing.assert_allclose(h, [[0.5 / (1 + math.exp(-0.25))]], rtol=1e-6)


def _layer_norm_lstm(x: float, w_xf: tuple[float, float]):
    """27-input LSTM, 2 units, layer norm on every gate (weights 1), biases 0,
    input-to-forget weights ``w_xf``; c_prev = [1, 1], h_prev = 0."""
    w2 = _m(2, 1)
    zero = _a(0.0, 0.0)
    cell = [w2, _m(2, 1), w2, w2, _m(2, 2), _m(2, 2), _m(2, 2), _m(2, 2)]
    cell[1] = np.asarray(w_xf, np.float32).reshape(2, 1)
    inputs: list[Spec] = [_a(x).reshape(1, 1), *cell, Omitted(1), Omitted(1), Omitted(1)]
    inputs += [zero, zero, zero, zero, Omitted(2), Omitted(1), _m(1, 2), _m(1, 2, 1.0)]
    inputs += [*_scalars(4, 0.0, 0.0), *([_a(1.0, 1.0)] * 4)]
    return inputs


def test_lstm_layer_norm_normalises_each_gate(driver) -> None:
    # z_f = [1, 3]: mean 2, variance (1 + 9) / 2 - 4 = 1, normalised [-1, 1];
    # f = [sigmoid(-1), sigmoid(1)]. The other gates' sums are 0 (variance exactly
    # 0, normalised to 0): i = o = 0.5, cell input tanh(0) = 0.
    # c = f * 1 + 0.5 * 0 = f; h = 0.5 * tanh(f).
    inputs = _layer_norm_lstm(1.0, (1.0, 3.0))
    status, (_, h, c, _) = _run(driver, Op.LSTM, inputs, [(1, 8), (1, 2), (1, 2), (1, 2)])
    assert status == ErrorStatus.NONE
    f = [1 / (1 + math.exp(1)), 1 / (1 + math.exp(-1))]
    np.testing.assert_allclose(c[0], f, rtol=1e-6)
    np.testing.assert_allclose(h[0], [0.5 * math.tanh(v) for v in f], rtol=1e-6)


def test_lstm_layer_norm_zero_variance_is_not_nan(driver) -> None:
    # Every gate sum is 0 (x = 0): normalised to 0, so f = 0.5, c = 0.5, h = 0.5 * tanh(0.5)
    inputs = _layer_norm_lstm(0.0, (1.0, 3.0))
    status, (_, h, c, _) = _run(driver, Op.LSTM, inputs, [(1, 8), (1, 2), (1, 2), (1, 2)])
    assert status == ErrorStatus.NONE
    np.testing.assert_allclose(c[0], [0.5, 0.5], rtol=1e-6)
    np.testing.assert_allclose(h[0], [0.5 * math.tanh(0.5)] * 2, rtol=1e-6)


@pytest.mark.parametrize(
    ("activation", "cell_clip", "reason"),
    [(7, 0.0, "activation 7"), (-1, 0.0, "activation -1"), (4, -1.0, "negative cell clip")],
)
def test_lstm_invalid_scalars_refused_at_prepare(driver, activation, cell_clip, reason) -> None:
    inputs = [_a(0.0).reshape(1, 1), *Cell().tensors(), _m(1, 1), _m(1, 1)]
    inputs += _scalars(activation, cell_clip, 0.0)
    model = _model(Op.LSTM, inputs, [(1, 4), (1, 1), (1, 1), (1, 1)], F32, False)
    launch, notification = _prepare(driver, model)
    assert (launch, notification.status) == (ErrorStatus.INVALID_ARGUMENT,) * 2, reason


def test_lstm_output_size_must_equal_units_without_projection(driver) -> None:
    # 1 unit, recurrent weights [1, 2] (output size 2), no projection: INVALID_ARGUMENT
    tensors = Cell().tensors()
    for k in (4, 5, 6, 7):  # recurrent weights, LSTM inputs 5-8
        tensors[k] = _m(1, 2)
    inputs = [_m(1, 1), *tensors, _m(1, 2), _m(1, 1), *_scalars(4, 0.0, 0.0)]
    status, _ = _run(driver, Op.LSTM, inputs, [(1, 4), (1, 2), (1, 1), (1, 2)])
    assert status == ErrorStatus.INVALID_ARGUMENT


@pytest.mark.parametrize("omit", [5, 12], ids=["recurrent_to_input", "input_gate_bias"])
def test_lstm_half_omitted_cifg_group_fails_at_execution(driver, omit) -> None:
    # Input-to-input weights given, but input ``omit`` has no value in the request
    tensors = Cell().tensors()
    tensors[omit - 1] = Omitted(tensors[omit - 1].ndim)
    inputs = [_m(1, 1), *tensors, _m(1, 1), _m(1, 1), *_scalars(4, 0.0, 0.0)]
    status, _ = _run(driver, Op.LSTM, inputs, [(1, 4), (1, 1), (1, 1), (1, 1)], in_request=True)
    assert status == ErrorStatus.INVALID_ARGUMENT


# ---------------------------------------------------------------------------
# UNIDIRECTIONAL_SEQUENCE_LSTM
# ---------------------------------------------------------------------------


def _sequence_cell(w_xc: float = 0.0) -> list[Spec]:
    # i = f = o = 0.5 (biases 0); cell input relu(w_xc * x + 1)
    return Cell(b_c=1.0, w_xc=w_xc).tensors()


def _unidirectional(driver, x: np.ndarray, time_major: bool, cell_clip=0.0, tensor=F32):
    steps, batch = x.shape[:2] if time_major else x.shape[1::-1]
    inputs = [x, *_sequence_cell(), _m(batch, 1), _m(batch, 1)]
    inputs += [*_scalars(1, cell_clip, 0.0, tensor), Scalar(OperandType.BOOL, time_major)]
    inputs += [Omitted(1)] * 4
    out = (steps, batch, 1) if time_major else (batch, steps, 1)
    return _run(driver, Op.UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, [out], tensor)


# c_t = 0.5 c_{t-1} + 0.5 relu(1): c = 0.5, 0.75, 0.875; h = 0.5 c = 0.25, 0.375, 0.4375
CARRIED = [0.25, 0.375, 0.4375]


@pytest.mark.parametrize("tensor", [F32, F16], ids=["float32", "float16"])
def test_unidirectional_carries_state_over_steps(driver, tensor) -> None:
    status, (out,) = _unidirectional(driver, np.zeros((3, 2, 1), np.float32), True, tensor=tensor)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(out[:, :, 0], [[v, v] for v in CARRIED])


def test_unidirectional_batch_major(driver) -> None:
    # [batch 2, steps 3, 1]: the same per-step values along axis 1
    status, (out,) = _unidirectional(driver, np.zeros((2, 3, 1), np.float32), False)
    assert status == ErrorStatus.NONE
    assert out.shape == (2, 3, 1)
    np.testing.assert_array_equal(out[:, :, 0], [CARRIED, CARRIED])


def test_unidirectional_negative_clip_disables_clipping(driver) -> None:
    # cell clip -1 is "off" for this operation: the unclipped values above
    status, (out,) = _unidirectional(driver, np.zeros((3, 1, 1), np.float32), True, cell_clip=-1.0)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(out[:, 0, 0], CARRIED)


# ---------------------------------------------------------------------------
# BIDIRECTIONAL_SEQUENCE_LSTM
# ---------------------------------------------------------------------------


def _bidirectional(driver, x: np.ndarray, aux: np.ndarray | None, merge: bool, time_major=True):
    """Both directions: 1 unit, cell input relu(x + aux), b_c = 0; 1 aux input (same size)."""
    w_xc = 0.0 if aux is not None else 1.0
    cell = Cell(w_xc=w_xc).tensors()
    aux_inputs: list[Spec] = [Omitted(3), *([Omitted(2)] * 8)]
    if aux is not None:
        ones = _m(1, 1, 1.0)
        aux_inputs = [
            aux,
            Omitted(2),
            _m(1, 1),
            ones,
            _m(1, 1),
            Omitted(2),
            _m(1, 1),
            ones,
            _m(1, 1),
        ]
    steps, batch = x.shape[:2] if time_major else x.shape[1::-1]
    states = [_m(batch, 1)] * 4
    inputs = [x, *cell, *cell, *states, *aux_inputs, *_scalars(1, 0.0, 0.0)]
    inputs += [Scalar(OperandType.BOOL, merge), Scalar(OperandType.BOOL, time_major)]
    inputs += [Omitted(1)] * 8
    dims = (steps, batch) if time_major else (batch, steps)
    outputs = [(*dims, 2)] if merge else [(*dims, 1), (*dims, 1)]
    return _run(driver, Op.BIDIRECTIONAL_SEQUENCE_LSTM, inputs, outputs)


# Input [1, 0, 0] over 3 steps (batch 1), cell input relu(x), i = f = o = 0.5:
# forward c = 0.5, 0.25, 0.125 -> h = 0.25, 0.125, 0.0625;
# backward (t = 2, 1, 0) c = 0, 0, 0.5 -> h at t = 0, 1, 2: 0.25, 0, 0.
FORWARD, BACKWARD = [0.25, 0.125, 0.0625], [0.25, 0.0, 0.0]
PULSE = np.asarray([1.0, 0.0, 0.0], np.float32).reshape(3, 1, 1)


def test_bidirectional_backward_runs_in_reverse(driver) -> None:
    status, (fw, bw) = _bidirectional(driver, PULSE, None, merge=False)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(fw[:, 0, 0], FORWARD)
    np.testing.assert_array_equal(bw[:, 0, 0], BACKWARD)


def test_bidirectional_merged_outputs_forward_first(driver) -> None:
    status, (out,) = _bidirectional(driver, PULSE, None, merge=True)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(out[:, 0, :], np.stack([FORWARD, BACKWARD], axis=1))


def test_bidirectional_batch_major(driver) -> None:
    status, (out,) = _bidirectional(
        driver, PULSE.transpose(1, 0, 2), None, merge=True, time_major=False
    )
    assert status == ErrorStatus.NONE
    assert out.shape == (1, 3, 2)
    np.testing.assert_array_equal(out[0], np.stack([FORWARD, BACKWARD], axis=1))


def test_bidirectional_aux_input_feeds_both_directions(driver) -> None:
    # x = 0 and the pulse on the aux input (aux-to-cell weight 1): the same outputs
    status, (fw, bw) = _bidirectional(driver, np.zeros((3, 1, 1), np.float32), PULSE, merge=False)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(fw[:, 0, 0], FORWARD)
    np.testing.assert_array_equal(bw[:, 0, 0], BACKWARD)
