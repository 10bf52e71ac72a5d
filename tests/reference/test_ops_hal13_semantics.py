"""HAL 1.3's changes to existing operations, as the reference driver computes them.

RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR's align_corners and half_pixel_centers,
the sequence operations' final-state outputs and the bidirectional operations'
parallel linking. Models are prepared through ``prepare_model_1_3``; every expected
value is derived by hand in the comment beside it.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.checks import CHECKS, OpArgs, OpInvalid
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
        return status, [
            packed.output(k, shape.dimensions).copy() for k, shape in enumerate(shapes)
        ]


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
