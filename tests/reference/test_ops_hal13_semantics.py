"""HAL 1.3's changes to existing operations, as the reference driver computes them.

RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR's align_corners and half_pixel_centers,
the sequence operations' final-state outputs and the bidirectional operations'
parallel linking. Models are prepared through ``prepare_model_1_3``; every expected
value is derived by hand in the comment beside it.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from conformance.harness.models import signature_model
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.checks import CHECKS, OpArgs, OpInvalid
from hal.operations import operation_info
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
    Priority,
)
from reference_driver import ReferenceDriver
from reference_driver.executor import operation_args, read_constants
from reference_driver.ops import REGISTRY
from reference_driver.ops.base import KERNEL_LEVEL

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8 = OperandType.TENSOR_QUANT8_ASYMM
INT32 = OperandType.INT32
BOOL = OperandType.BOOL
_FORMATS = {INT32: "<i", BOOL: "<?"}
NONE = ErrorStatus.NONE
INVALID = ErrorStatus.INVALID_ARGUMENT
BILINEAR = OperationType.RESIZE_BILINEAR
NEAREST = OperationType.RESIZE_NEAREST_NEIGHBOR


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _prepare(driver: ReferenceDriver, model: Model):
    """(status, prepared model) of ``prepare_model_1_3``."""
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_3(
        model, ExecutionPreference.FAST_SINGLE_ANSWER, Priority.MEDIUM, None, callback
    )
    notification = callback.wait(10)
    assert launch == notification.status
    return notification.status, notification.prepared_model


def _execute(prepared, model: Model, inputs: Sequence[np.ndarray | None]):
    """(status, outputs) of ``execute_synchronously_1_3``."""
    with pack_request(model, list(inputs), [1 << 12] * len(model.output_indexes)) as packed:
        status, shapes, _ = prepared.execute_synchronously_1_3(
            packed.request, MeasureTiming.NO, None, None
        )
        if status != NONE:
            return status, []
        return status, [packed.output(k, shape.dimensions).copy() for k, shape in enumerate(shapes)]


def _run(driver: ReferenceDriver, model: Model, inputs: Sequence[np.ndarray | None]):
    status, prepared = _prepare(driver, model)
    assert status == NONE
    status, outputs = _execute(prepared, model, inputs)
    assert status == NONE
    return outputs


# --------------------------------------------------------------------------- resizing


def _resize_model(
    operation: OperationType,
    type_: int,
    width: int,
    new_width: int,
    flags: Sequence[bool | None],
    quant: tuple[float, int] = (0.0, 0),
) -> Model:
    """``operation`` of a [1, 1, width, 1] NHWC image to [1, 1, new_width, 1] by size,
    then the layout (false) and ``flags`` (align_corners, half_pixel_centers): a
    constant BOOL each, or None for a BOOL model input."""
    values = bytearray()
    operands = [Operand(type_, [1, 1, width, 1], 1, *quant, OperandLifeTime.MODEL_INPUT)]
    inputs = [0]
    scalars = [(INT32, new_width), (INT32, 1), (BOOL, False), *((BOOL, f) for f in flags)]
    for scalar_type, value in scalars:
        if value is None:
            inputs.append(len(operands))
            operands.append(Operand(scalar_type, [], 1, lifetime=OperandLifeTime.MODEL_INPUT))
            continue
        data = struct.pack(_FORMATS[scalar_type], value)
        location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(
            Operand(scalar_type, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
        )
    operands.append(Operand(type_, [1, 1, new_width, 1], 0, *quant, OperandLifeTime.MODEL_OUTPUT))
    output = len(operands) - 1
    return Model(
        operands=operands,
        operations=[Operation(operation, list(range(output)), [output])],
        input_indexes=inputs,
        output_indexes=[output],
        operand_values=bytes(values),
    )


def _row(values: Sequence[float], dtype=np.float32) -> np.ndarray:
    return np.asarray(values, dtype).reshape(1, 1, -1, 1)


# A row of 4 to 2 cells. Scale 4 / 2 = 2, or (4 - 1) / (2 - 1) = 3 with align_corners.
# Nearest: default floor(0, 2) = 0, 2; align_corners round(0, 3) = 0, 3; half-pixel
# floor((0.5, 1.5) * 2) = 1, 3. Bilinear: default 0, 2; align_corners 0, 3; half-pixel
# (0.5, 1.5) * 2 - 0.5 = 0.5, 2.5: halfway between cells 0 and 1, and 2 and 3.
ROW4 = [10.0, 20.0, 30.0, 40.0]


@pytest.mark.parametrize(
    ("operation", "flags", "expected"),
    [
        (NEAREST, (False,), [10, 30]),
        (NEAREST, (True,), [10, 40]),
        (NEAREST, (False, False), [10, 30]),
        (NEAREST, (True, False), [10, 40]),
        (NEAREST, (False, True), [20, 40]),
        (BILINEAR, (False,), [10, 30]),
        (BILINEAR, (True,), [10, 40]),
        (BILINEAR, (True, False), [10, 40]),
        (BILINEAR, (False, True), [15, 35]),
    ],
)
@pytest.mark.parametrize("type_", [F32, F16])
def test_resize_flags_down(driver, operation, flags, expected, type_) -> None:
    dtype = np.float16 if type_ == F16 else np.float32
    model = _resize_model(operation, type_, 4, 2, flags)
    (result,) = _run(driver, model, [_row(ROW4, dtype)])
    assert result.dtype == dtype
    assert result.ravel().tolist() == expected


# A row of 2 to 4 cells. Bilinear with half-pixel centers: scale 0.5, coordinates
# (x + 0.5) * 0.5 - 0.5 = -0.25, 0.25, 0.75, 1.25; -0.25 reads cell 0 alone (low =
# max(floor, 0) = 0 = high) and 1.25 cell 1 alone (high = min(ceil, 1) = 1 = low):
# [0, 8] gives 0, 2, 6, 8. With align_corners: scale 1/3, coordinates 0, 1/3, 2/3, 1:
# 0, 8/3, 16/3, 8. Nearest with align_corners: round(0, 1/3, 2/3, 1) = 0, 0, 1, 1;
# with half-pixel centers floor(0.25, 0.75, 1.25, 1.75) = 0, 0, 1, 1.
@pytest.mark.parametrize(
    ("operation", "flags", "expected"),
    [
        (BILINEAR, (False, True), [0, 2, 6, 8]),
        (BILINEAR, (True, False), [0, 8 / 3, 16 / 3, 8]),
        (NEAREST, (True, False), [0, 0, 8, 8]),
        (NEAREST, (False, True), [0, 0, 8, 8]),
    ],
)
def test_resize_flags_up(driver, operation, flags, expected) -> None:
    model = _resize_model(operation, F32, 2, 4, flags)
    (result,) = _run(driver, model, [_row([0, 8])])
    np.testing.assert_allclose(result.ravel(), expected, rtol=1e-6)


def test_nearest_align_corners_rounds_half_away_from_zero(driver) -> None:
    # 2 to 3 cells with align_corners: scale 1 / 2, coordinates 0, 0.5, 1: round(0.5) = 1
    # (half away from zero; half to even would give 0): [3, 7] -> 3, 7, 7
    model = _resize_model(NEAREST, F32, 2, 3, (True, False))
    (result,) = _run(driver, model, [_row([3, 7])])
    assert result.ravel().tolist() == [3, 7, 7]


def test_resize_flags_to_one_cell_use_the_plain_scale(driver) -> None:
    # align_corners with a single output cell: the scale stays 4 / 1 (no division by
    # 0); coordinate 0 -> cell 0. Half-pixel: 0.5 * 4 - 0.5 = 1.5 (bilinear: 25),
    # nearest floor(0.5 * 4) = 2 (30).
    cases = [(BILINEAR, (True, False), 10), (BILINEAR, (False, True), 25)]
    cases += [(NEAREST, (True, False), 10), (NEAREST, (False, True), 30)]
    for operation, flags, expected in cases:
        model = _resize_model(operation, F32, 4, 1, flags)
        (result,) = _run(driver, model, [_row(ROW4)])
        assert result.ravel().tolist() == [expected], (operation, flags)


def test_quant8_bilinear_half_pixel_truncates(driver) -> None:
    # raw [0, 9] at scale 1, zero point 0, 2 to 4 cells with half-pixel centers:
    # 0, 2.25, 6.75, 9 truncated to 0, 2, 6, 9
    model = _resize_model(BILINEAR, Q8, 2, 4, (False, True), quant=(1.0, 0))
    (result,) = _run(driver, model, [_row([0, 9], np.uint8)])
    assert result.ravel().tolist() == [0, 2, 6, 9]


@pytest.mark.parametrize("operation", [BILINEAR, NEAREST])
def test_both_flags_true_is_refused_at_preparation(driver, operation) -> None:
    model = _resize_model(operation, F32, 4, 2, (True, True))
    assert _prepare(driver, model) == (INVALID, None)


@pytest.mark.parametrize("operation", [BILINEAR, NEAREST])
def test_both_flags_true_from_the_request_fail_the_execution(driver, operation) -> None:
    model = _resize_model(operation, F32, 4, 2, (None, None))
    status, prepared = _prepare(driver, model)
    assert status == NONE
    flag = np.array(True)
    assert _execute(prepared, model, [_row(ROW4), flag, flag]) == (INVALID, [])
    # one of them true is fine: half-pixel centers alone, as above
    status, (result,) = _execute(prepared, model, [_row(ROW4), np.array(False), flag])
    expected = [20, 40] if operation == NEAREST else [15, 35]
    assert (status, result.ravel().tolist()) == (NONE, expected)


@pytest.mark.parametrize("operation", [BILINEAR, NEAREST])
def test_the_public_checks_name_both_flags(operation) -> None:
    model = _resize_model(operation, F32, 4, 2, (True, True))
    operands = [model.operands[i] for i in model.operations[0].inputs]
    flag = np.array(True)
    values = [None, np.array(2), np.array(1), np.array(False), flag, flag]
    args = OpArgs(operands, [model.operands[-1]], values)
    message = "align_corners (input 4) and half_pixel_centers (input 5) are both true"
    assert CHECKS[operation].validate(args) == message
    args.values[0] = _row(ROW4)
    with pytest.raises(OpInvalid, match=r"^align_corners \(input 4\) and half_pixel"):
        CHECKS[operation].prepare(args)
    args.values[5] = np.array(False)
    assert CHECKS[operation].validate(args) is None
    assert CHECKS[operation].prepare(args) == [(1, 1, 2, 1)]


# --------------------------------------------------------------------------- sequences


@dataclass(frozen=True)
class Scalar:
    type: int
    value: float | int | bool


@dataclass(frozen=True)
class Omitted:
    """An omitted optional tensor: a NO_VALUE operand."""

    rank: int


Spec = np.ndarray | Scalar | Omitted

_SCALAR_DTYPES = {INT32: "<i4", OperandType.FLOAT32: "<f4", BOOL: "u1"}


def _seq_model(op: OperationType, inputs: Sequence[Spec], outputs: Sequence[Sequence[int]]):
    """``op`` with arrays as model inputs, scalars as constants, omitted tensors as
    NO_VALUE operands; float32 tensors."""
    operands: list[Operand] = []
    values = bytearray()
    for spec in inputs:
        if isinstance(spec, Scalar):
            data = np.asarray(spec.value, dtype=_SCALAR_DTYPES[spec.type]).tobytes()
            location = DataLocation(0, len(values), len(data))
            operands.append(
                Operand(spec.type, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY, location=location)
            )
            values += data
        elif isinstance(spec, Omitted):
            operands.append(Operand(F32, [0] * spec.rank, 1, lifetime=OperandLifeTime.NO_VALUE))
        else:
            operands.append(Operand(F32, list(spec.shape), 1, lifetime=OperandLifeTime.MODEL_INPUT))
    first = len(operands)
    operands += [Operand(F32, list(d), 0, lifetime=OperandLifeTime.MODEL_OUTPUT) for d in outputs]
    return Model(
        operands=operands,
        operations=[Operation(op, list(range(first)), list(range(first, len(operands))))],
        input_indexes=[
            i for i in range(first) if operands[i].lifetime == OperandLifeTime.MODEL_INPUT
        ],
        output_indexes=list(range(first, len(operands))),
        operand_values=bytes(values),
    )


def _seq_run(driver, op: OperationType, inputs: Sequence[Spec], outputs) -> list[np.ndarray]:
    model = _seq_model(op, inputs, outputs)
    return _run(driver, model, [s for s in inputs if isinstance(s, np.ndarray)])


def _check_args(op: OperationType, inputs: Sequence[Spec], count: int) -> OpArgs:
    """The operation's ``OpArgs`` at execution: every value known, omitted ones None."""
    model = _seq_model(op, inputs, [(0,)] * count)
    operation = model.operations[0]
    values = [
        None
        if isinstance(spec, Omitted)
        else np.asarray(spec.value)
        if isinstance(spec, Scalar)
        else spec
        for spec in inputs
    ]
    return OpArgs(
        [model.operands[i] for i in operation.inputs],
        [model.operands[i] for i in operation.outputs],
        values,
    )


def _refused(op: OperationType, inputs: Sequence[Spec], count: int, message: str) -> None:
    """The public checks refuse the operation with ``message``, at preparation (validate,
    on the constants and declared shapes) or at execution (prepare)."""
    args = _check_args(op, inputs, count)
    reason = CHECKS[op].validate(args)
    if reason is None:
        with pytest.raises(OpInvalid) as error:
            CHECKS[op].prepare(args)
        reason = str(error.value)
    assert reason == message


def _t(*values: float) -> np.ndarray:
    """A time-major [T, 1, 1] sequence."""
    return np.asarray(values, np.float32).reshape(-1, 1, 1)


def _m(rows: int, cols: int, value: float = 0.0) -> np.ndarray:
    return np.full((rows, cols), value, np.float32)


def _v(*values: float) -> np.ndarray:
    return np.asarray(values, np.float32)


UNI_RNN = OperationType.UNIDIRECTIONAL_SEQUENCE_RNN
BIDI_RNN = OperationType.BIDIRECTIONAL_SEQUENCE_RNN
UNI_LSTM = OperationType.UNIDIRECTIONAL_SEQUENCE_LSTM
BIDI_LSTM = OperationType.BIDIRECTIONAL_SEQUENCE_LSTM
PULSE = _t(1, 0, 0)


# RNN cells of one unit over input [1, 0, 0] (time-major, batch 1), activation NONE:
# h_t = W x_t + 0.5 h_{t-1}, W = 1, h0 = 0. Forward: 1, 0.5, 0.25 (final 0.25).
# Backward (t = 2, 1, 0): 0, 0, 1 (final, after t = 0: 1).


def _uni_rnn_inputs(x: np.ndarray) -> list[Spec]:
    return [x, _m(1, 1, 1), _m(1, 1, 0.5), _v(0), _m(1, 1), Scalar(INT32, 0), Scalar(INT32, 1)]


def test_unidirectional_rnn_final_state(driver) -> None:
    out, state = _seq_run(driver, UNI_RNN, _uni_rnn_inputs(PULSE), [(3, 1, 1), (1, 1)])
    assert out.ravel().tolist() == [1, 0.5, 0.25]
    assert state.tolist() == [[0.25]]


def test_a_1_2_model_cannot_have_the_state_output(driver) -> None:
    model = _seq_model(UNI_RNN, _uni_rnn_inputs(PULSE), [(3, 1, 1), (1, 1)])
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    assert (launch, callback.wait(10).status) == (INVALID, INVALID)


def _bidi_rnn_inputs(
    x: np.ndarray, aux: Spec, fw_aux: Spec, bw_aux: Spec, merge: bool, bw_inputs: int = 1
) -> list[Spec]:
    fw = [_m(1, 1, 1), _m(1, 1, 0.5), _v(0), _m(1, 1)]
    bw = [_m(1, bw_inputs, 1), _m(1, 1, 0.5), _v(0), _m(1, 1)]
    scalars = [Scalar(INT32, 0), Scalar(BOOL, True), Scalar(BOOL, merge)]
    return [x, *fw, *bw, aux, fw_aux, bw_aux, *scalars]


NO_AUX = (Omitted(3), Omitted(2), Omitted(2))


def test_bidirectional_rnn_final_states(driver) -> None:
    inputs = _bidi_rnn_inputs(PULSE, *NO_AUX, merge=False)
    fw, bw, fw_state, bw_state = _seq_run(
        driver, BIDI_RNN, inputs, [(3, 1, 1), (3, 1, 1), (1, 1), (1, 1)]
    )
    assert (fw.ravel().tolist(), bw.ravel().tolist()) == ([1, 0.5, 0.25], [1, 0, 0])
    assert (fw_state.tolist(), bw_state.tolist()) == ([[0.25]], [[1]])
    merged = _bidi_rnn_inputs(PULSE, *NO_AUX, merge=True)
    out, fw_state, bw_state = _seq_run(driver, BIDI_RNN, merged, [(3, 1, 2), (1, 1), (1, 1)])
    assert out.reshape(3, 2).tolist() == [[1, 1], [0.5, 0], [0.25, 0]]
    assert (fw_state.tolist(), bw_state.tolist()) == ([[0.25]], [[1]])


def test_bidirectional_rnn_parallel_linking(driver) -> None:
    # the aux input [0, 0, 2] without aux weights: the backward direction reads it
    # (t = 2: 2; t = 1: 0.5 * 2 = 1; t = 0: 0.5), the forward one reads x alone
    inputs = _bidi_rnn_inputs(PULSE, _t(0, 0, 2), Omitted(2), Omitted(2), merge=False)
    fw, bw, fw_state, bw_state = _seq_run(
        driver, BIDI_RNN, inputs, [(3, 1, 1), (3, 1, 1), (1, 1), (1, 1)]
    )
    assert (fw.ravel().tolist(), bw.ravel().tolist()) == ([1, 0.5, 0.25], [0.5, 1, 2])
    assert (fw_state.tolist(), bw_state.tolist()) == ([[0.25]], [[0.5]])


def test_bidirectional_rnn_parallel_linking_takes_the_aux_features(driver) -> None:
    # aux [3, 1, 2]: the backward weights [1, 2] (1, 1) read feature 0 + feature 1
    aux = np.asarray([0, 0, 0, 0, 1, 1], np.float32).reshape(3, 1, 2)
    inputs = _bidi_rnn_inputs(PULSE, aux, Omitted(2), Omitted(2), merge=True, bw_inputs=2)
    (out,) = _seq_run(driver, BIDI_RNN, inputs, [(3, 1, 2)])
    assert out.reshape(3, 2).tolist() == [[1, 0.5], [0.5, 1], [0.25, 2]]
    # the same weights against an aux input of one feature: the backward weights
    # must have the aux input's features
    inputs = _bidi_rnn_inputs(PULSE, _t(0, 0, 2), Omitted(2), Omitted(2), True, bw_inputs=2)
    _refused(BIDI_RNN, inputs, 1, "input 5 has shape [1, 2], expected [bw_units, aux] with aux = 1")


@pytest.mark.parametrize(
    ("aux", "merge", "count", "message"),
    [
        (NO_AUX, True, 2, "merge_outputs is True but the operation has 2 outputs"),
        (NO_AUX, True, 4, "merge_outputs is True but the operation has 4 outputs"),
        (NO_AUX, False, 3, "merge_outputs is False but the operation has 3 outputs"),
        (
            (_t(0, 0, 2), _m(1, 1), Omitted(2)),
            True,
            1,
            "the forward and backward auxiliary weights (inputs 10, 11) go together",
        ),
        (
            (Omitted(3), _m(1, 1), _m(1, 1)),
            True,
            1,
            "the auxiliary weights (inputs 10, 11) need the auxiliary input (input 9)",
        ),
    ],
)
def test_bidirectional_rnn_refusals(aux, merge, count, message) -> None:
    _refused(BIDI_RNN, _bidi_rnn_inputs(PULSE, *aux, merge=merge), count, message)


def test_unidirectional_rnn_output_count() -> None:
    message = "the operation has 3 outputs; it takes 1, or 2 with the final hidden state"
    _refused(UNI_RNN, _uni_rnn_inputs(PULSE), 3, message)


# LSTM cells of one unit over input size 1: every weight and bias 0 but the
# input-to-cell weight 1, so i = f = o = sigmoid(0) = 0.5; activation RELU:
# c_t = 0.5 c_{t-1} + 0.5 relu(x_t), h_t = 0.5 relu(c_t), from zero states.
# Over [1, 0, 0] forward: c = 0.5, 0.25, 0.125; h = 0.25, 0.125, 0.0625.
# Backward (t = 2, 1, 0): c = 0, 0, 0.5; h = 0, 0, 0.25 (final: h 0.25, c 0.5).


def _cell(inputs: int = 1) -> list[Spec]:
    w = _m(1, inputs)
    r = _m(1, 1)
    return [
        w, w, _m(1, inputs, 1), w, r, r, r, r,
        Omitted(1), Omitted(1), Omitted(1), _v(0), _v(0), _v(0), _v(0),
        Omitted(2), Omitted(1),
    ]  # fmt: skip


def _lstm_scalars() -> list[Spec]:
    return [Scalar(INT32, 1), Scalar(OperandType.FLOAT32, 0.0), Scalar(OperandType.FLOAT32, 0.0)]


def _uni_lstm_inputs(x: np.ndarray) -> list[Spec]:
    states = [_m(1, 1), _m(1, 1)]
    return [x, *_cell(), *states, *_lstm_scalars(), Scalar(BOOL, True), *[Omitted(1)] * 4]


def test_unidirectional_lstm_final_states(driver) -> None:
    out, h, c = _seq_run(driver, UNI_LSTM, _uni_lstm_inputs(PULSE), [(3, 1, 1), (1, 1), (1, 1)])
    assert out.ravel().tolist() == [0.25, 0.125, 0.0625]
    assert (h.tolist(), c.tolist()) == ([[0.0625]], [[0.125]])


def test_unidirectional_lstm_output_count() -> None:
    message = "the operation has 2 outputs; it takes 1, or 3 with the final output and cell states"
    _refused(UNI_LSTM, _uni_lstm_inputs(PULSE), 2, message)


def _bidi_lstm_inputs(
    x: np.ndarray, aux: Spec, fw_aux: list[Spec], bw_aux: list[Spec], merge: bool, bw_inputs=1
) -> list[Spec]:
    states = [_m(1, 1)] * 4
    flags = [Scalar(BOOL, merge), Scalar(BOOL, True)]
    return [
        x, *_cell(), *_cell(bw_inputs), *states, aux, *fw_aux, *bw_aux, *_lstm_scalars(),
        *flags, *[Omitted(1)] * 8,
    ]  # fmt: skip


NO_AUX_WEIGHTS = [Omitted(2)] * 4


def test_bidirectional_lstm_final_states(driver) -> None:
    inputs = _bidi_lstm_inputs(PULSE, Omitted(3), NO_AUX_WEIGHTS, NO_AUX_WEIGHTS, merge=False)
    outputs = [(3, 1, 1), (3, 1, 1), (1, 1), (1, 1), (1, 1), (1, 1)]
    fw, bw, fw_h, fw_c, bw_h, bw_c = _seq_run(driver, BIDI_LSTM, inputs, outputs)
    assert fw.ravel().tolist() == [0.25, 0.125, 0.0625]
    assert bw.ravel().tolist() == [0.25, 0, 0]
    states = [s.item() for s in (fw_h, fw_c, bw_h, bw_c)]
    assert states == [0.0625, 0.125, 0.25, 0.5]
    merged = _bidi_lstm_inputs(PULSE, Omitted(3), NO_AUX_WEIGHTS, NO_AUX_WEIGHTS, merge=True)
    out, *states = _seq_run(driver, BIDI_LSTM, merged, [(3, 1, 2), *outputs[2:]])
    assert out.reshape(3, 2).tolist() == [[0.25, 0.25], [0.125, 0], [0.0625, 0]]
    assert [s.item() for s in states] == [0.0625, 0.125, 0.25, 0.5]


def test_bidirectional_lstm_parallel_linking(driver) -> None:
    # the aux input [0, 0, 2] without aux weights, read by the backward direction:
    # t = 2: c = 1, h = 0.5; t = 1: c = 0.5, h = 0.25; t = 0: c = 0.25, h = 0.125
    inputs = _bidi_lstm_inputs(PULSE, _t(0, 0, 2), NO_AUX_WEIGHTS, NO_AUX_WEIGHTS, merge=True)
    out, fw_h, fw_c, bw_h, bw_c = _seq_run(
        driver, BIDI_LSTM, inputs, [(3, 1, 2), (1, 1), (1, 1), (1, 1), (1, 1)]
    )
    assert out.reshape(3, 2).tolist() == [[0.25, 0.125], [0.125, 0.25], [0.0625, 0.5]]
    assert [s.item() for s in (fw_h, fw_c, bw_h, bw_c)] == [0.0625, 0.125, 0.125, 0.25]


def test_bidirectional_lstm_parallel_linking_takes_the_aux_features(driver) -> None:
    # aux [3, 1, 2] of features (0, 0), (0, 0), (1, 1); backward input-to-cell
    # weights [1, 1]: t = 2 reads 2, as above
    aux = np.asarray([0, 0, 0, 0, 1, 1], np.float32).reshape(3, 1, 2)
    inputs = _bidi_lstm_inputs(PULSE, aux, NO_AUX_WEIGHTS, NO_AUX_WEIGHTS, True, bw_inputs=2)
    (out,) = _seq_run(driver, BIDI_LSTM, inputs, [(3, 1, 2)])
    assert out.reshape(3, 2).tolist() == [[0.25, 0.125], [0.125, 0.25], [0.0625, 0.5]]
    inputs = _bidi_lstm_inputs(PULSE, _t(0, 0, 2), NO_AUX_WEIGHTS, NO_AUX_WEIGHTS, True, 2)
    message = "input-to-gate weights has shape (1, 2), expected (1, 1)"
    _refused(BIDI_LSTM, inputs, 1, message)


AUX_WEIGHTS = [Omitted(2), _m(1, 1), _m(1, 1), _m(1, 1)]


@pytest.mark.parametrize(
    ("aux", "fw_aux", "bw_aux", "merge", "count", "message"),
    [
        (
            Omitted(3),
            NO_AUX_WEIGHTS,
            NO_AUX_WEIGHTS,
            True,
            2,
            "merge_outputs True needs 1 or 5 outputs, not 2",
        ),
        (
            Omitted(3),
            NO_AUX_WEIGHTS,
            NO_AUX_WEIGHTS,
            False,
            5,
            "merge_outputs False needs 2 or 6 outputs, not 5",
        ),
        (
            _t(0, 0, 2),
            AUX_WEIGHTS,
            NO_AUX_WEIGHTS,
            True,
            1,
            "the forward and backward aux weights must be given together",
        ),
        (
            Omitted(3),
            AUX_WEIGHTS,
            AUX_WEIGHTS,
            True,
            1,
            "the aux weights need the aux input (input 39)",
        ),
        (
            _t(0, 0, 2),
            [Omitted(2), _m(1, 1), Omitted(2), _m(1, 1)],
            AUX_WEIGHTS,
            True,
            1,
            "aux weights 41-43 must all be given or all be omitted",
        ),
        (
            _t(0, 0, 2),
            AUX_WEIGHTS,
            [_m(1, 1), *NO_AUX_WEIGHTS[1:]],
            True,
            1,
            "aux weights 44 (input gate) needs aux weights 45-47",
        ),
    ],
)
def test_bidirectional_lstm_refusals(aux, fw_aux, bw_aux, merge, count, message) -> None:
    _refused(BIDI_LSTM, _bidi_lstm_inputs(PULSE, aux, fw_aux, bw_aux, merge), count, message)


# --------------------------------------------------------------------------- claimed forms


def _claimed_1_3(op: OperationType) -> list:
    return [
        s
        for s in operation_info(op).signatures
        if s.since > KERNEL_LEVEL and s in REGISTRY[op].forms
    ]


@pytest.mark.parametrize(
    ("op", "count", "signed"),
    [
        # {shape, scale} x {+align_corners, +half_pixel_centers} x {F32, F16, Q8A}, and the
        # signed twins of the Q8A forms: of the 4 flag forms and of the 1.2 forms (4 for
        # RESIZE_BILINEAR, with and without the layout; 2 for RESIZE_NEAREST_NEIGHBOR)
        (BILINEAR, 20, 8),
        (NEAREST, 18, 6),
        # {separate, merged} x F32, F16
        (BIDI_RNN, 4, 0),
        (BIDI_LSTM, 4, 0),
        (UNI_RNN, 2, 0),
        (UNI_LSTM, 2, 0),
    ],
)
def test_the_1_3_forms_claimed(op: OperationType, count: int, signed: int) -> None:
    claimed = _claimed_1_3(op)
    assert len(claimed) == count
    assert [s.variant for s in claimed].count(OperandType.TENSOR_QUANT8_ASYMM_SIGNED) == signed
    for signature in claimed:
        model = signature_model(signature)
        operation = model.operations[0]
        args = operation_args(
            model, tuple(operation.inputs), tuple(operation.outputs), read_constants(model)
        )
        assert REGISTRY[op].supports(args), signature.describe()
