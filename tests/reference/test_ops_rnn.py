"""The reference driver's recurrent operations: RNN, the sequence RNNs, SVDF, QUANTIZED_16BIT_LSTM.

Every expected value is derived by hand in the comment beside it (or, for the
fixed-point logistic and tanh, compared with math.tanh / the logistic within
a stated number of LSBs); none comes from the driver's code. Omitted optional
inputs are NO_VALUE operands of the model here (the generated specs send
them as has_no_value request arguments instead).
"""

from __future__ import annotations

import math
import struct

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
from reference_driver.ops import rnn

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8 = OperandType.TENSOR_QUANT8_ASYMM
I32 = OperandType.TENSOR_INT32
Q16 = OperandType.TENSOR_QUANT16_SYMM
IN = OperandLifeTime.MODEL_INPUT

Spec = tuple | None
"""An operation input: ("in", type, dims[, scale, zp]), ("int", v), ("bool", v) or None (NO_VALUE)."""


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _model(op: OperationType, inputs: list[Spec], outputs: list[tuple]) -> Model:
    operands: list[Operand] = []
    values = bytearray()
    for spec in inputs:
        if spec is None:
            operands.append(Operand(F32, [], 1, lifetime=OperandLifeTime.NO_VALUE))
        elif spec[0] == "in":
            _, type_, dims, *quant = spec
            operands.append(Operand(type_, list(dims), 1, *quant, lifetime=IN))
        else:
            kind, value = spec
            data = struct.pack("<i", value) if kind == "int" else struct.pack("<?", value)
            scalar = OperandType.INT32 if kind == "int" else OperandType.BOOL
            location = DataLocation(0, len(values), len(data))
            operands.append(
                Operand(scalar, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
            )
            values += data
    first_output = len(operands)
    for type_, dims, *quant in outputs:
        operands.append(
            Operand(type_, list(dims), 0, *quant, lifetime=OperandLifeTime.MODEL_OUTPUT)
        )
    return Model(
        operands=operands,
        operations=[
            Operation(op, list(range(first_output)), list(range(first_output, len(operands))))
        ],
        input_indexes=[i for i, o in enumerate(operands) if o.lifetime == IN],
        output_indexes=list(range(first_output, len(operands))),
        operand_values=bytes(values),
    )


def _run(driver, model, inputs):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE), notification
    with pack_request(model, inputs) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        outputs = (
            [packed.output(i, s.dimensions) for i, s in enumerate(shapes)] if status == 0 else []
        )
    return status, outputs


def _arrays(dtype, *values):
    return [np.array(v, dtype) for v in values]


# ---------------------------------------------------------------------------
# RNN
# ---------------------------------------------------------------------------


def _rnn_model(type_, activation):
    tensors = [(2, 2), (2, 2), (2, 2), (2,), (2, 2)]
    return _model(
        OperationType.RNN,
        [*[("in", type_, d) for d in tensors], ("int", activation)],
        [(type_, (2, 2)), (type_, (2, 2))],
    )


# x = [[1, 2], [-1, 0]], W = [[1, 0], [0.5, -1]], R = [[0, 1], [1, 0]] (swaps h), b = [0, 1],
# h = [[2, 3], [0, -4]]:
#   row 0: [1 + 3, 1 + 0.5 - 2 + 2] = [4, 1.5]; row 1: [-1 - 4, 1 - 0.5 + 0] = [-5, 0.5]
_RNN_DATA = ([[1, 2], [-1, 0]], [[1, 0], [0.5, -1]], [[0, 1], [1, 0]], [0, 1], [[2, 3], [0, -4]])


@pytest.mark.parametrize(
    ("type_", "dtype", "activation", "expected"),
    [
        (F32, np.float32, 0, [[4, 1.5], [-5, 0.5]]),
        (F32, np.float32, 1, [[4, 1.5], [0, 0.5]]),  # RELU clears -5
        (F16, np.float16, 3, [[4, 1.5], [0, 0.5]]),  # RELU6: nothing above 6
        (F32, np.float32, 2, [[1, 1], [-1, 0.5]]),  # RELU1 as the HAL defines it
    ],
)
def test_rnn_step(driver, type_, dtype, activation, expected):
    status, outputs = _run(driver, _rnn_model(type_, activation), _arrays(dtype, *_RNN_DATA))
    assert status == ErrorStatus.NONE
    for output in outputs:  # hidden state and output hold the same values
        np.testing.assert_array_equal(output, np.array(expected, dtype))


def test_rnn_activation_outside_fused_codes_is_invalid(driver):
    callback = PreparedModelCallback()
    model = _rnn_model(F32, 4)  # TANH is not a FusedActivationFunc
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    assert launch == ErrorStatus.INVALID_ARGUMENT
    assert callback.wait(10).status == ErrorStatus.INVALID_ARGUMENT


# ---------------------------------------------------------------------------
# UNIDIRECTIONAL_SEQUENCE_RNN
# ---------------------------------------------------------------------------


# W = [[1]], R = [[0.5]], b = [0], h0 = [[0], [2]], activation NONE.
#   batch 0 sees x = 1, 3: h = 1, then 3 + 0.5 * 1 = 3.5
#   batch 1 sees x = 2, 4: h = 2 + 0.5 * 2 = 3, then 4 + 0.5 * 3 = 5.5
@pytest.mark.parametrize(
    ("time_major", "x", "expected"),
    [
        (1, [[[1], [2]], [[3], [4]]], [[[1], [3]], [[3.5], [5.5]]]),
        (0, [[[1], [3]], [[2], [4]]], [[[1], [3.5]], [[3], [5.5]]]),
    ],
)
def test_unidirectional_sequence_rnn_carries_state_in_both_majors(driver, time_major, x, expected):
    tensors = [(2, 2, 1), (1, 1), (1, 1), (1,), (2, 1)]
    model = _model(
        OperationType.UNIDIRECTIONAL_SEQUENCE_RNN,
        [*[("in", F32, d) for d in tensors], ("int", 0), ("int", time_major)],
        [(F32, (2, 2, 1))],
    )
    status, outputs = _run(driver, model, _arrays(np.float32, x, [[1]], [[0.5]], [0], [[0], [2]]))
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.array(expected, np.float32))


# ---------------------------------------------------------------------------
# BIDIRECTIONAL_SEQUENCE_RNN
# ---------------------------------------------------------------------------

# T = 2, B = 1, one unit each way, activation NONE, time-major, x = 1, 2.
#   forward  (W 1, R 1, b 0, h0 0): t0 = 1, t1 = 2 + 1 = 3
#   backward (W 2, R 0, b 1, h0 5): t1 = 1 + 4 = 5, t0 = 1 + 2 = 3
# With aux = 1, -1 (fw aux W 10, bw aux W 100):
#   forward  t0 = 1 + 10 = 11, t1 = 2 - 10 + 11 = 3
#   backward t1 = 1 + 4 - 100 = -95, t0 = 1 + 2 + 100 = 103 (R = 0)
_BIDI_MAIN = _arrays(np.float32, [[[1]], [[2]]], [[1]], [[1]], [0], [[0]], [[2]], [[0]], [1], [[5]])


def _bidi_model(with_aux: bool, merge: bool) -> Model:
    main = [("in", F32, d) for d in [(2, 1, 1), (1, 1), (1, 1), (1,), (1, 1)]]
    main += [("in", F32, d) for d in [(1, 1), (1, 1), (1,), (1, 1)]]
    aux = [("in", F32, (2, 1, 1)), ("in", F32, (1, 1)), ("in", F32, (1, 1))]
    inputs = [*main, *(aux if with_aux else [None, None, None])]
    inputs += [("int", 0), ("bool", True), ("bool", merge)]
    outputs = [(F32, (2, 1, 2))] if merge else [(F32, (2, 1, 1)), (F32, (2, 1, 1))]
    return _model(OperationType.BIDIRECTIONAL_SEQUENCE_RNN, inputs, outputs)


def test_bidirectional_sequence_rnn_with_omitted_aux_operands(driver):
    status, outputs = _run(driver, _bidi_model(with_aux=False, merge=False), _BIDI_MAIN)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0].ravel(), [1, 3])
    np.testing.assert_array_equal(outputs[1].ravel(), [3, 5])


def test_bidirectional_sequence_rnn_aux_input_merged(driver):
    aux = _arrays(np.float32, [[[1]], [[-1]]], [[10]], [[100]])
    status, outputs = _run(driver, _bidi_model(with_aux=True, merge=True), _BIDI_MAIN + aux)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], np.array([[[11, 103]], [[3, -95]]], np.float32))


# ---------------------------------------------------------------------------
# SVDF
# ---------------------------------------------------------------------------

# B = 1, I = 1, rank 2, one unit (2 filters), memory 2. Wf = [[1], [2]],
# Wt = [[1, 10], [100, 1000]], state [f0: 3, _ | f1: 4, _], x = 1:
#   newest columns: f0 = 1, f1 = 2; t0 = 3 + 10 = 13, t1 = 400 + 2000 = 2400; out = 2413
#   state out, shifted: [1, 0, 2, 0]
_SVDF_DATA = _arrays(np.float32, [[1]], [[1], [2]], [[1, 10], [100, 1000]])


@pytest.mark.parametrize(("bias", "expected"), [(None, 2413.0), ([0.5], 2413.5)])
def test_svdf_rank_2_bias_omitted_or_present(driver, bias, expected):
    bias_spec = None if bias is None else ("in", F32, (1,))
    tensors = [("in", F32, d) for d in [(1, 1), (2, 1), (2, 2)]]
    model = _model(
        OperationType.SVDF,
        [*tensors, bias_spec, ("in", F32, (1, 4)), ("int", 2), ("int", 0)],
        [(F32, (1, 4)), (F32, (1, 1))],
    )
    extra = [] if bias is None else _arrays(np.float32, bias)
    inputs = [*_SVDF_DATA, *extra, np.array([[3, 0, 4, 0]], np.float32)]
    status, outputs = _run(driver, model, inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(outputs[0], [[1, 0, 2, 0]])
    np.testing.assert_array_equal(outputs[1], [[expected]])


# ---------------------------------------------------------------------------
# QUANTIZED_16BIT_LSTM
# ---------------------------------------------------------------------------


def _qlstm_model(inputs: int, outputs: int, weights_scale: float, weights_zero: int) -> Model:
    half = (1.0 / 128.0, 128)
    cell = (2.0**-11, 0)
    weights = [("in", Q8, (outputs, inputs), weights_scale, weights_zero)] * 4
    weights += [("in", Q8, (outputs, outputs), weights_scale, weights_zero)] * 4
    biases = [("in", I32, (outputs,), weights_scale / 128.0, 0)] * 4
    specs = [("in", Q8, (1, inputs), *half), *weights, *biases]
    specs += [("in", Q16, (1, outputs), *cell), ("in", Q8, (1, outputs), *half)]
    return _model(
        OperationType.QUANTIZED_16BIT_LSTM,
        specs,
        [(Q16, (1, outputs), *cell), (Q8, (1, outputs), *half)],
    )


def _qlstm_inputs(x, w_in, w_rec, biases, cell, h):
    """w_in / w_rec: four matrices (input, forget, cell, output gates); biases likewise."""
    q8 = [np.array(a, np.uint8) for a in [x, *w_in, *w_rec]]
    return [
        *q8,
        *[np.array(b, np.int32) for b in biases],
        np.array(cell, np.int16),
        np.array(h, np.uint8),
    ]


def test_quantized_lstm_zero_pre_activations(driver):
    # Weights all at their zero point and zero biases: every pre-activation is 0, so
    # i = f = o = 0.5 (16384 in Q0.15) and g = tanh(0) = 0. c = 0.5 * c_prev, rounded:
    # (16384 * 2048 + 2**14) / 2**15 = 1024.5 -> 1024 (C division truncates); -2048 -> -1024;
    # 32767 -> (16384 * 32767 + 2**14) / 2**15 = 16384 exactly.
    # h = 128 + round(0.5 * tanh(2 * c / 2**12) * 128): c = 1024 is 0.5 in Q3.12,
    # 64 * tanh(0.5) = 29.6 -> 158 (and 98 for -1024); c = 16384 saturates the Q3.12
    # rescale at 8, 64 * tanh(8) = 64.0 -> 192.
    w_in, w_rec = [[[100]] * 4] * 4, [[[100] * 4] * 4] * 4
    inputs = _qlstm_inputs(
        [[255]], w_in, w_rec, [[0] * 4] * 4, [[2048, 0, -2048, 32767]], [[7, 9, 200, 128]]
    )
    status, (cell, h) = _run(driver, _qlstm_model(1, 4, 1.0 / 128.0, 100), inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(cell, [[1024, 0, -1024, 16384]])
    np.testing.assert_array_equal(h, [[158, 128, 98, 192]])


def test_quantized_lstm_saturates_cell_and_output(driver):
    # Biases of +-200000 at multiplier 4096 * 2**-14 = 0.25 give pre-activations of +-50000,
    # clamped to +-32767 (about +-8): the gates are 1 - 3e-4, g = +-1. Unit 0: c = i*g/16 +
    # f * 32767 = 2047 + 32756 saturates at 32767, h = 128 + round(127.95) clamped -> 255.
    # Unit 1 (cell bias negative, c_prev -32768): c saturates at -32768, h -> 128 - 128 = 0.
    w_in, w_rec = [[[128]] * 2] * 4, [[[128] * 2] * 2] * 4
    biases = [[200000] * 2, [200000] * 2, [200000, -200000], [200000] * 2]
    inputs = _qlstm_inputs([[128]], w_in, w_rec, biases, [[32767, -32768]], [[128, 128]])
    status, (cell, h) = _run(driver, _qlstm_model(1, 2, 1.0 / 128.0, 128), inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(cell, [[32767, -32768]])
    np.testing.assert_array_equal(h, [[255, 0]])


def test_quantized_lstm_pairs_x_with_recurrent_weight_columns(driver):
    # docs/operations.md, QUANTIZED_16BIT_LSTM (73): the reference multiplies [x, h] by
    # [W_recurrent | W_input]. With I = 1, O = 2, x - 128 = 64, h - 128 = 0 and only
    # recurrent_to_cell[0][0] away from the zero point (by 127), unit 0's cell pre-activation is
    # 64 * 127 * (4096 / 128) = 260096 -> clamped to 8, g = 1 (the textbook pairing would give
    # 0). i = f = o = 0.5, c_prev = 0: c = 0.5 * 1 in Q4.11 = 1024, h = 128 + 30 = 158 (as in
    # the zero test); unit 1 stays 0/128.
    w_in = [[[128], [128]]] * 4
    w_rec = [[[128, 128], [128, 128]]] * 4
    w_rec = [w_rec[0], w_rec[1], [[255, 128], [128, 128]], w_rec[3]]
    inputs = _qlstm_inputs([[192]], w_in, w_rec, [[0, 0]] * 4, [[0, 0]], [[128, 128]])
    status, (cell, h) = _run(driver, _qlstm_model(1, 2, 1.0, 128), inputs)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(cell, [[1024, 0]])
    np.testing.assert_array_equal(h, [[158, 128]])


def test_fixed_point_logistic_and_tanh_track_the_real_functions():
    raw = np.arange(-32768, 32768, dtype=np.int64)
    real = raw / 4096.0  # Q3.12
    assert rnn._logistic_q3(np.array([0]))[0] == 16384
    assert rnn._tanh(np.array([0]), 3)[0] == 0
    logistic = np.array([1 / (1 + math.exp(-v)) for v in real[::97]])
    tanh = np.tanh(real[::97])
    # 16-bit gemmlowp accuracy: within 16 LSBs of Q0.15 (the measured worst is about 12).
    assert np.abs(rnn._logistic_q3(raw[::97]) - logistic * 32768).max() <= 16
    assert np.abs(rnn._tanh(raw[::97], 3) - tanh * 32768).max() <= 16
