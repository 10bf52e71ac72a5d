"""The reference driver's ELU, HARD_SWISH, FILL and RANK (HAL 1.3), called at HAL 1.3.

ELU and float HARD_SWISH values and their NaN behaviour, float16 rounding, quantized
HARD_SWISH bit for bit (elements derived by hand through the integer procedure, the
int16 wrap of the zero point, the output exponent Android 11 fails), FILL's shape from
a constant or from the request (its refusals and its budget), RANK's scalar output,
the zero-sized rules, and what ``hal.checks`` answers for each. Every expected value
is derived by hand in the comment beside it; none comes from the driver's code.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.checks import check_execution, check_model
from hal.checks.newops import hard_swish_multipliers
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Priority,
    numpy_dtype,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure, OpInvalid

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32T = OperandType.TENSOR_INT32
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
B8 = OperandType.TENSOR_BOOL8
INT32 = OperandType.INT32
FLOAT32 = OperandType.FLOAT32
FLOAT16 = OperandType.FLOAT16
Op = OperationType
NONE = ErrorStatus.NONE
INVALID = ErrorStatus.INVALID_ARGUMENT
FAILURE = ErrorStatus.GENERAL_FAILURE
V1_3 = HalVersion.V1_3

Spec = tuple[int, Sequence[int], object]
"""(operand type, dimensions, value): value None makes a model input, else a constant;
a type given as (type, scale, zero point) carries quantization."""


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _operand(spec, dims, consumers, lifetime, location=None) -> Operand:
    type_, scale, zero_point = spec if isinstance(spec, tuple) else (spec, 0.0, 0)
    return Operand(
        type_, list(dims), consumers, scale, zero_point, lifetime, location or DataLocation()
    )


def op_model(op: int, inputs: Sequence[Spec], outputs: Sequence[tuple[object, Sequence[int]]]):
    """``op(inputs) -> outputs`` as a one-operation model (outputs are model outputs)."""
    values = bytearray()
    operands: list[Operand] = []
    model_inputs: list[int] = []
    for type_, dims, value in inputs:
        if value is None:
            model_inputs.append(len(operands))
            operands.append(_operand(type_, dims, 1, OperandLifeTime.MODEL_INPUT))
            continue
        code = type_[0] if isinstance(type_, tuple) else type_
        data = np.asarray(value, dtype=numpy_dtype(code)).tobytes()
        while len(values) % 4:
            values.append(0)
        location = DataLocation(0, len(values), len(data))
        values += data
        operands.append(_operand(type_, dims, 1, OperandLifeTime.CONSTANT_COPY, location))
    first_output = len(operands)
    for type_, dims in outputs:
        operands.append(_operand(type_, dims, 0, OperandLifeTime.MODEL_OUTPUT))
    return Model(
        operands=operands,
        operations=[
            Operation(op, list(range(first_output)), list(range(first_output, len(operands))))
        ],
        input_indexes=model_inputs,
        output_indexes=list(range(first_output, len(operands))),
        operand_values=bytes(values),
    )


def prepare(driver: ReferenceDriver, model: Model):
    """(launch status, callback status, prepared model) of prepare_model_1_3."""
    callback = PreparedModelCallback()
    fast = ExecutionPreference.FAST_SINGLE_ANSWER
    launch = driver.prepare_model_1_3(model, fast, Priority.MEDIUM, None, callback)
    notification = callback.wait(30)
    return launch, notification.status, notification.prepared_model


def run(driver: ReferenceDriver, model: Model, inputs, sizes=None):
    """(status, output shapes, output 0 or None) of executing ``model`` at HAL 1.3."""
    launch, status, prepared = prepare(driver, model)
    assert (launch, status) == (NONE, NONE)
    sizes = sizes or [1 << 12] * len(model.output_indexes)
    with pack_request(model, inputs, sizes) as packed:
        status, shapes, _ = prepared.execute_synchronously_1_3(
            packed.request, MeasureTiming.NO, None, None
        )
        output = packed.output(0, shapes[0].dimensions) if status == NONE else None
    return status, shapes, output


def unary(driver, op, type_, values, in_quant=(0.0, 0), out_quant=None, extra=()):
    """``op`` on ``values`` (a model input) with the same shape out: the output array."""
    x = np.asarray(values, dtype=numpy_dtype(type_))
    source = (type_, *in_quant)
    target = (type_, *(in_quant if out_quant is None else out_quant))
    model = op_model(op, [(source, x.shape, None), *extra], [(target, x.shape)])
    status, _, output = run(driver, model, [x])
    assert status == NONE
    return output


def _alpha(value: float, type_=FLOAT32) -> Spec:
    return (type_, [], value)


# ELU ---------------------------------------------------------------------------------


def test_elu_float32_values(driver) -> None:
    # alpha 2: x = -1 -> 2 * (e**-1 - 1) = -1.2642411; x = 0.5 -> 0.5; x = -1000 ->
    # exp underflows, 2 * (0 - 1) = -2; x = 0 -> 0 + min(0, 2 * 0) = 0.
    out = unary(driver, Op.ELU, F32, [-1.0, 0.5, -1000.0, 0.0], extra=(_alpha(2.0),))
    np.testing.assert_allclose(out, [2 * (math.exp(-1) - 1), 0.5, -2.0, 0.0], rtol=1e-6)


def test_elu_nan_gives_zero_as_the_c_comparisons_do(driver) -> None:
    # std::max(0.f, NaN) is 0 (NaN < ... is false) and std::min(0.f, NaN) is 0.
    out = unary(driver, Op.ELU, F32, [math.nan, -math.inf, math.inf], extra=(_alpha(1.0),))
    # -inf: exp = 0 -> 1 * (0 - 1) = -1; +inf: inf + min(0, inf) = inf.
    assert out[0] == 0.0 and out[1] == -1.0 and out[2] == math.inf


def test_elu_float16_alpha_is_float16(driver) -> None:
    # alpha 0.1 as float16 is 1638 * 2**-14 = 0.0999755859375; x = -10: exp(-10) =
    # 4.54e-5, so 0.0999755859 * (4.54e-5 - 1) = -0.0999710477. Float16 steps near 0.1
    # are 2**-14: the neighbours are -1638 * 2**-14 (4.5e-6 away) and -1637 * 2**-14
    # (5.6e-5 away), so -0.0999755859375.
    out = unary(driver, Op.ELU, F16, [-10.0, 2.0], extra=(_alpha(0.1, FLOAT16),))
    assert out.dtype == np.float16
    assert out.tolist() == [-0.0999755859375, 2.0]


def _zero_sized_args(op: int, *extra: np.ndarray) -> OpArgs:
    source = Operand(F32, [0, 2], 1, lifetime=OperandLifeTime.TEMPORARY_VARIABLE)
    scalars = [Operand(FLOAT32, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY) for _ in extra]
    target = Operand(F32, [0, 2], 0, lifetime=OperandLifeTime.MODEL_OUTPUT)
    return OpArgs([source, *scalars], [target], [np.zeros((0, 2), np.float32), *extra])


def test_elu_of_a_zero_sized_input_fails_the_execution() -> None:
    # Android 11 registers ELU without zero-sized support: the HAL allows it, so the
    # execution fails (OpFailure: GENERAL_FAILURE), never a violation (OpInvalid). A
    # zero-sized input reaches an operation only from another one (a request's empty
    # input is an omitted one), so the check is called directly.
    args = _zero_sized_args(Op.ELU, np.array(1.0, np.float32))
    with pytest.raises(
        OpFailure, match=r"^ELU does not accept the zero-sized input \(0, 2\)$"
    ) as raised:
        REGISTRY[Op.ELU].prepare(args)
    assert not isinstance(raised.value, OpInvalid)


def test_elu_output_of_another_shape_is_refused_at_preparation(driver) -> None:
    model = op_model(Op.ELU, [(F32, [2, 3], None), _alpha(1.0)], [(F32, [3, 2])])
    launch, status, _ = prepare(driver, model)
    assert (launch, status) == (INVALID, INVALID)
    assert check_model(model, V1_3).violation.message == (
        "output dimensions [3, 2] differ from the input's [2, 3]"
    )


# HARD_SWISH on floats ----------------------------------------------------------------


def test_hard_swish_float_values(driver) -> None:
    # -4 -> -4 * 0 / 6 = -0; -1 -> -1 * 2 / 6 = -1/3; 1 -> 4/6; 3 -> 3 * 6 / 6 = 3;
    # 10 -> 10; NaN stays NaN (NaN * 0).
    out = unary(driver, Op.HARD_SWISH, F32, [-4.0, -1.0, 1.0, 3.0, 10.0, math.nan])
    np.testing.assert_allclose(out[:5], [0.0, -1 / 3, 2 / 3, 3.0, 10.0], rtol=1e-7)
    assert math.copysign(1.0, out[0]) == -1.0 and math.isnan(out[5])


def test_hard_swish_float16_rounds_once(driver) -> None:
    # 0.5 -> 0.5 * 3.5 / 6 = 0.291666..., float16 nearest 0.291748046875 (spacing 2**-12).
    out = unary(driver, Op.HARD_SWISH, F16, [0.5])
    assert out.tolist() == [0.291748046875]


# HARD_SWISH on quantized tensors ----------------------------------------------------


def test_hard_swish_multipliers_by_hand() -> None:
    # s_in 0.5, s_out 0.25: output multiplier 2**-8 / 2**-2 = 2**-6 = 0.5 * 2**-5 -> Q31
    # 2**30, Q15 16384, exponent -5; relu-ish 2**-8 / (3 * 2**-15) = 42.67 = 0.667 * 2**6
    # -> Q31 round(2**31 * 2/3) = 1431655765, Q15 (+2**15) >> 16 = 21845, exponent 6.
    source = Operand(Q8A, [1], 1, 0.5, 128, OperandLifeTime.MODEL_INPUT)
    target = Operand(Q8A, [1], 0, 0.25, 128, OperandLifeTime.MODEL_OUTPUT)
    assert hard_swish_multipliers(source, target) == (16384, -5, 21845, 6)


def test_hard_swish_quant8_elements_by_hand(driver) -> None:
    # (0.5, 128) -> (0.25, 128). q = 138 (x = 5): hires 1280; preshift 1280 * 16384 * 2
    # / 65536 = 640; relu-ish 1280 << 5 saturates to 32767, * 21845 -> 21844, << 1
    # saturates, mapped to 32767; 32767 * 640 / 32768 = 639.98 -> 639 (truncated);
    # 639 / 32 rounded = 20; + 128 = 148. q = 126 (x = -1): hires -256; preshift -128;
    # relu-ish -8192 * 21845 / 32768 = -5461.25 -> -5461, doubled -10922, mapped
    # (-10922 + 32768) >> 1 = 10923; 10923 * -128 / 32768 = -42.67 -> -42; -42 / 32
    # rounded = -1; + 128 = 127. q = 0 (x = -64): relu-ish saturates to -32768 at both
    # shifts, mapped to 0: 128.
    out = unary(driver, Op.HARD_SWISH, Q8A, [138, 126, 0], (0.5, 128), (0.25, 128))
    assert out.tolist() == [148, 127, 128]


def test_hard_swish_quant8_signed(driver) -> None:
    # (0.5, 0) -> (0.25, -5): q = -128 (x = -64) -> 0 -> the zero point -5; q = 10
    # (x = 5, as q = 138 above) -> 20 steps -> 15; q = -2 (x = -1) -> -1 step -> -6.
    out = unary(driver, Op.HARD_SWISH, Q8AS, [-128, 10, -2], (0.5, 0), (0.25, -5))
    assert out.dtype == np.int8
    assert out.tolist() == [-5, 15, -6]


def test_hard_swish_quant8_zero_point_wraps_on_int16(driver) -> None:
    # (511/512, 0) -> (2**-7, 255): the output multiplier 0.998046875 has exponent 0,
    # Q15 32704. q = 255: hires 32640, preshift (32640 * 32704 + 16384) / 32768 -> 32576,
    # relu-ish 32767, 32767 * 32576 / 32768 -> 32575, + 255 = 32830 kept by an int16 as
    # -32706, clamped to 0. q = 254: preshift 32448, -> 32447, + 255 = 32702 -> 255.
    out = unary(driver, Op.HARD_SWISH, Q8A, [255, 254], (0.998046875, 0), (0.0078125, 255))
    assert out.tolist() == [0, 255]


def test_hard_swish_quant8_large_output_exponent_rounds_to_one(driver) -> None:
    # s_out = 1024 * s_in: output multiplier 2**-17 = 0.5 * 2**-16, exponent -16. The
    # int16 rounding shift by 16 has an all-ones mask: 0 -> 1, any negative -> -1. q = 128
    # (x = 0) -> 0 + 1 + 128 = 129; q = 120 (x = -1): product negative -> -1 -> 127.
    out = unary(driver, Op.HARD_SWISH, Q8A, [128, 120], (0.125, 128), (128.0, 128))
    assert out.tolist() == [129, 127]


def test_hard_swish_output_exponent_above_zero_is_declined(driver) -> None:
    # s_out = s_in / 256: output multiplier (s_in / 128) / (s_in / 256) = 2 = 0.5 * 2**2,
    # exponent 2 > 0, which Android 11 fails: the driver says it does not support the
    # operation, its preparation fails, and the checks fail the execution (no violation).
    model = op_model(Op.HARD_SWISH, [((Q8A, 0.5, 128), [2], None)], [((Q8A, 0.5 / 256, 0), [2])])
    assert driver.get_supported_operations_1_3(model) == (NONE, [False])
    launch, status, _ = prepare(driver, model)
    assert (launch, status) == (NONE, FAILURE)
    assert check_model(model, V1_3).ok
    found = check_execution(model, [np.array([1, 2], np.uint8)], V1_3)
    assert found.ok and found.output_shapes == (None,)
    args = OpArgs([model.operands[0]], [model.operands[1]], [np.array([1, 2], np.uint8)])
    with pytest.raises(OpFailure, match="exponent 2 is above 0") as raised:
        REGISTRY[Op.HARD_SWISH].prepare(args)
    assert not isinstance(raised.value, OpInvalid)


def test_hard_swish_zero_sized_input_gives_a_zero_sized_output() -> None:
    impl = REGISTRY[Op.HARD_SWISH]
    args = _zero_sized_args(Op.HARD_SWISH)
    shapes = impl.prepare(args)
    assert shapes == [(0, 2)]
    (out,) = impl.execute(args, shapes)
    assert out.shape == (0, 2) and out.dtype == np.float32


# FILL --------------------------------------------------------------------------------


def test_fill_with_a_constant_shape(driver) -> None:
    model = op_model(Op.FILL, [(I32T, [3], [2, 1, 2]), (FLOAT32, [], 1.25)], [(F32, [2, 1, 2])])
    status, shapes, out = run(driver, model, [])
    assert status == NONE and shapes[0].dimensions == (2, 1, 2)
    assert out.tolist() == [[[1.25, 1.25]], [[1.25, 1.25]]]


def test_fill_shape_from_the_request_and_int32_values(driver) -> None:
    model = op_model(Op.FILL, [(I32T, [5], None), (INT32, [], -9)], [(I32T, [0, 0, 0, 0, 0])])
    status, shapes, out = run(driver, model, [np.array([1, 2, 1, 1, 2], np.int32)])
    assert status == NONE and shapes[0].dimensions == (1, 2, 1, 1, 2)
    assert out.dtype == np.int32 and out.size == 4 and set(out.flat) == {-9}


def test_fill_float16_value(driver) -> None:
    # 0.1 as FLOAT16 is 0.0999755859375, stored as is.
    model = op_model(Op.FILL, [(I32T, [1], [3]), (FLOAT16, [], 0.1)], [(F16, [3])])
    status, _, out = run(driver, model, [])
    assert status == NONE and out.tolist() == [0.0999755859375] * 3


def test_fill_with_a_zero_size_gives_a_zero_sized_output(driver) -> None:
    model = op_model(Op.FILL, [(I32T, [2], None), (FLOAT32, [], 1.0)], [(F32, [0, 0])])
    status, shapes, _ = run(driver, model, [np.array([3, 0], np.int32)], [1])
    assert status == NONE and shapes[0].dimensions == (3, 0)


def test_fill_refuses_a_negative_constant_size_at_preparation(driver) -> None:
    model = op_model(Op.FILL, [(I32T, [2], [2, -1]), (FLOAT32, [], 1.0)], [(F32, [])])
    found = check_model(model, V1_3)
    assert found.violation.message == "input 0 holds the negative sizes [-1]: [2, -1] is no shape"
    launch, status, _ = prepare(driver, model)
    assert (launch, status) == (INVALID, INVALID)


def test_fill_refuses_a_shape_of_no_size() -> None:
    # Input 0 of shape [0] (a zero-sized tensor only another operation can make): the
    # output would have rank 0, which FILL's definition forbids.
    sizes = Operand(I32T, [0], 1, lifetime=OperandLifeTime.TEMPORARY_VARIABLE)
    value = Operand(FLOAT32, [], 1, lifetime=OperandLifeTime.CONSTANT_COPY)
    target = Operand(F32, [], 0, lifetime=OperandLifeTime.MODEL_OUTPUT)
    args = OpArgs([sizes, value], [target], [np.zeros(0, np.int32), np.array(1.0, np.float32)])
    with pytest.raises(OpInvalid, match=r"^input 0 holds no size: the output would have rank 0$"):
        REGISTRY[Op.FILL].prepare(args)


def test_fill_refuses_a_negative_size_from_the_request(driver) -> None:
    model = op_model(Op.FILL, [(I32T, [2], None), (FLOAT32, [], 1.0)], [(F32, [0, 0])])
    status, shapes, _ = run(driver, model, [np.array([2, -3], np.int32)])
    assert (status, shapes) == (INVALID, [])
    found = check_execution(model, [np.array([2, -3], np.int32)], V1_3)
    assert found.violation.message == "input 0 holds the negative sizes [-3]: [2, -3] is no shape"


def test_fill_refuses_a_shape_input_of_rank_2_at_execution(driver) -> None:
    # Input 0 of unknown rank in the model; the request gives it [1, 2].
    model = op_model(Op.FILL, [(I32T, [], None), (FLOAT32, [], 1.0)], [(F32, [])])
    status, _, _ = run(driver, model, [np.array([[2, 2]], np.int32)])
    assert status == INVALID
    found = check_execution(model, [np.array([[2, 2]], np.int32)], V1_3)
    assert found.violation.message == "input 0 has rank 2; FILL takes a rank-1 shape"


def test_fill_refuses_a_declared_output_the_shape_contradicts(driver) -> None:
    # Constant shape [2, 3] against a declared [3, 2]: at preparation.
    model = op_model(Op.FILL, [(I32T, [2], [2, 3]), (FLOAT32, [], 1.0)], [(F32, [3, 2])])
    assert check_model(model, V1_3).violation.message == (
        "output dimensions [3, 2] differ from the shape in input 0 [2, 3]"
    )
    assert prepare(driver, model)[:2] == (INVALID, INVALID)
    # A shape input of 3 sizes against a declared rank-2 output: at preparation too.
    model = op_model(Op.FILL, [(I32T, [3], None), (FLOAT32, [], 1.0)], [(F32, [0, 0])])
    assert check_model(model, V1_3).violation.message == (
        "output rank 2 differs from the 3 sizes input 0 holds"
    )
    # The sizes from the request against a declared [2, 2]: at execution.
    model = op_model(Op.FILL, [(I32T, [2], None), (FLOAT32, [], 1.0)], [(F32, [2, 2])])
    status, _, _ = run(driver, model, [np.array([2, 5], np.int32)])
    assert status == INVALID


def test_a_huge_fill_from_the_request_fails_at_once_without_allocating() -> None:
    # [65536, 65536] float32 = 16 GiB: over the default memory budget; refused before
    # anything is allocated (in well under a second), and a small fill still works.
    driver = ReferenceDriver()
    model = op_model(Op.FILL, [(I32T, [2], None), (FLOAT32, [], 1.0)], [(F32, [0, 0])])
    start = time.monotonic()
    status, shapes, _ = run(driver, model, [np.array([1 << 16, 1 << 16], np.int32)], [16])
    assert (status, shapes) == (FAILURE, [])
    assert time.monotonic() - start < 5.0
    status, shapes, _ = run(driver, model, [np.array([2, 2], np.int32)])
    assert status == NONE and shapes[0].dimensions == (2, 2)


def test_a_huge_constant_fill_fails_at_preparation() -> None:
    model = op_model(Op.FILL, [(I32T, [2], [1 << 16, 1 << 16]), (INT32, [], 3)], [(I32T, [0, 0])])
    launch, status, _ = prepare(ReferenceDriver(), model)
    assert (launch, status) == (NONE, FAILURE)


def test_fill_counts_only_its_output_against_the_memory_budget() -> None:
    # A 1 MiB budget: a [256, 256] float32 fill (256 KiB of output) fits; a [512, 512]
    # one (1 MiB of output, plus the inputs' 12 bytes) does not.
    driver = ReferenceDriver(memory_budget=1 << 20)
    model = op_model(Op.FILL, [(I32T, [2], None), (FLOAT32, [], 1.0)], [(F32, [0, 0])])
    status, _, _ = run(driver, model, [np.array([256, 256], np.int32)], [1 << 18])
    assert status == NONE
    status, _, _ = run(driver, model, [np.array([512, 512], np.int32)], [1 << 20])
    assert status == FAILURE


# RANK --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_", "dims"),
    [(F32, [3]), (I32T, [2, 1, 2]), ((Q8A, 0.5, 128), [1, 1, 1, 2, 1]), (B8, [1, 1, 1, 1, 1, 1])],
)
def test_rank_writes_the_number_of_dimensions_as_a_scalar(driver, type_, dims) -> None:
    code = type_[0] if isinstance(type_, tuple) else type_
    model = op_model(Op.RANK, [(type_, dims, None)], [(INT32, [])])
    status, shapes, out = run(driver, model, [np.ones(dims, numpy_dtype(code))], [4])
    assert status == NONE and shapes[0].dimensions == ()
    assert out.dtype == np.int32 and out.shape == () and int(out) == len(dims)


def test_rank_of_an_input_of_unknown_rank_is_its_rank_at_execution(driver) -> None:
    model = op_model(Op.RANK, [(F32, [], None)], [(INT32, [])])
    status, _, out = run(driver, model, [np.ones((2, 1, 3), np.float32)], [4])
    assert status == NONE and int(out) == 3


def test_rank_of_a_zero_sized_input_fails_the_execution() -> None:
    # Android 11 registers RANK without zero-sized support (GENERAL_FAILURE).
    args = _zero_sized_args(Op.RANK)
    args.outputs[0] = Operand(INT32, [], 0, lifetime=OperandLifeTime.MODEL_OUTPUT)
    with pytest.raises(
        OpFailure, match=r"^RANK does not accept the zero-sized input \(0, 2\)$"
    ) as raised:
        REGISTRY[Op.RANK].prepare(args)
    assert not isinstance(raised.value, OpInvalid)


def test_rank_output_buffer_too_small_is_insufficient(driver) -> None:
    # A 3-byte buffer for the 4-byte scalar: OUTPUT_INSUFFICIENT_SIZE, its shape () reported.
    model = op_model(Op.RANK, [(F32, [2], None)], [(INT32, [])])
    status, shapes, _ = run(driver, model, [np.ones(2, np.float32)], [3])
    assert status == ErrorStatus.OUTPUT_INSUFFICIENT_SIZE
    assert shapes[0].dimensions == () and shapes[0].is_sufficient is False


def test_every_form_of_the_four_operations_is_claimed() -> None:
    from hal.operations import operation_info

    for op in (Op.ELU, Op.HARD_SWISH, Op.FILL, Op.RANK):
        assert REGISTRY[op].forms == operation_info(op).signatures


def test_a_budget_of_a_few_bytes_refuses_quantized_hard_swish_before_it_runs() -> None:
    # 1000 uint8 elements: 1000 bytes in, 1000 out, and 8 int64 temporaries of 8000 bytes
    # each (the cost's estimate, 64000): the declared dimensions decide it, so a 32 KiB
    # budget refuses it at preparation, and a 128 KiB one runs it.
    q8a = (Q8A, 0.5, 128)
    model = op_model(Op.HARD_SWISH, [(q8a, [1000], None)], [(q8a, [1000])])
    launch, status, _ = prepare(ReferenceDriver(memory_budget=1 << 15), model)
    assert (launch, status) == (NONE, FAILURE)
    status, _, out = run(
        ReferenceDriver(memory_budget=1 << 17), model, [np.full(1000, 130, np.uint8)]
    )
    # q = 130 (x = 1): 1 * 4 / 6 = 0.667 -> 1.33 steps of 0.5 -> 128 + 1 = 129.
    assert status == NONE and set(out.tolist()) == {129}
