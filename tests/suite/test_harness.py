"""The harness pieces the generated suite is built from: tolerance, layouts, twins, checks."""

from __future__ import annotations

import numpy as np
import pytest
from control_flow_models import fib_model

from conformance.harness.execution import PATHS_BY_ID, Execution, check_shapes, check_timing, run
from conformance.harness.models import binary_model, chain_model, with_constants_in_pool
from conformance.harness.pools import has_constants
from conformance.harness.requests import GUARD, GUARD_SIZE, SCATTERED, pack_request
from conformance.harness.runner import _multinomial_problems, describe_operations, dynamic_twin
from conformance.harness.tolerance import (
    ANDROID_10,
    ANDROID_11,
    ANDROID_11_STRICT,
    bias_applies,
    compare,
    rules_for,
    tolerance_for,
)
from hal.callbacks import PreparedModelCallback
from hal.interfaces import IPreparedModel_1_2
from hal.memory import map_memory
from hal.types import (
    NO_TIMING,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    OperandLifeTime,
    OperandType,
    OperationType,
    OutputShape,
    Priority,
    SymmPerChannelQuantParams,
    Timing,
)
from reference_driver import ReferenceDriver

F32, F16, Q8 = (
    OperandType.TENSOR_FLOAT32,
    OperandType.TENSOR_FLOAT16,
    OperandType.TENSOR_QUANT8_ASYMM,
)


# -- tolerance ---------------------------------------------------------------


def test_tolerance_choice() -> None:
    assert (tolerance_for(binary_model(), "add.mod.py").atol) == 1e-5
    relaxed = binary_model()
    relaxed.relax_computation_float32_to_float16 = True
    assert tolerance_for(relaxed, "add.mod.py").rtol == 5 * 2**-10
    assert "relaxed" in tolerance_for(relaxed, "add.mod.py").reason
    assert tolerance_for(binary_model(type_=F16), "x.mod.py").atol == 5 * 2**-10
    assert tolerance_for(binary_model(type_=Q8), "add.mod.py").quant == 1
    assert tolerance_for(binary_model(type_=Q8), "mobilenet_quantized.mod.py").quant == 2


def test_the_tested_level_chooses_the_release_and_the_strict_tier_keeps_int32_exact() -> None:
    assert rules_for(HalVersion.V1_0) is ANDROID_10 and rules_for(HalVersion.V1_2) is ANDROID_10
    assert rules_for(HalVersion.V1_2, strict=True) is ANDROID_10
    assert rules_for(HalVersion.V1_3) is ANDROID_11
    assert rules_for(HalVersion.V1_3, strict=True) is ANDROID_11_STRICT


def test_android_11_rules_by_hand() -> None:
    """VTS 1.3's table: float32 rtol five float32 ULPs, INT32 within 1, mobilenet within 3,
    a float16 operand anywhere loosening the float tolerance."""
    plain = tolerance_for(binary_model(), "add", ANDROID_11)
    assert (plain.atol, plain.rtol, plain.quant, plain.int32) == (1e-5, 5 * 2**-23, 1, 1)
    assert plain.describe() == (
        "atol=1e-05 rtol=5.96046e-07 quant=+-1 int32=+-1 (float32; quantized within 1; Android 11)"
    )
    q8 = binary_model(type_=Q8)
    assert tolerance_for(q8, "mobilenet_quantized", ANDROID_11).quant == 3
    assert tolerance_for(q8, "mobilenet_quantized", ANDROID_10).quant == 2
    # 100 and 100 + 1e-4: within 1e-5 + 1e-5 * 100 (Android 10), beyond 1e-5 + 5.96e-5 (11)
    expected, actual = np.array([100.0], np.float32), np.array([100.0001], np.float32)
    assert compare(expected, actual, F32, tolerance_for(binary_model(), "add")).ok
    assert not compare(expected, actual, F32, plain).ok
    # a float16 operand that is neither input nor output (here the activation operand, the
    # rule reads types only): Android 11 loosens, Android 10 (inputs and outputs) does not
    inner = binary_model()
    inner.operands[2].type = F16
    assert tolerance_for(inner, "add", ANDROID_11).rtol == 5 * 2**-10
    assert tolerance_for(inner, "add", ANDROID_10).rtol == 1e-5
    assert "a float16 operand" in tolerance_for(inner, "add", ANDROID_11).reason
    # INT32 tensors and scalars within 1 under Android 11, exact in its strict form and in 10
    ints, off_by_one = np.array([4, 7], np.int32), np.array([5, 6], np.int32)
    for type_ in (OperandType.TENSOR_INT32, OperandType.INT32):
        assert compare(ints, off_by_one, type_, plain).ok
        assert not compare(ints, ints + 2, type_, plain).ok
        strict = tolerance_for(binary_model(), "add", ANDROID_11_STRICT)
        assert not compare(ints, off_by_one, type_, strict).ok
        assert not compare(ints, off_by_one, type_, tolerance_for(binary_model(), "add")).ok
    # other integer types stay exact under every rule
    uints = np.array([4], np.uint32)
    assert not compare(uints, uints + 1, OperandType.UINT32, plain).ok


def test_signed_8_bit_outputs_are_judged_as_unsigned_ones() -> None:
    """VTS 1.3 gives TENSOR_QUANT8_ASYMM_SIGNED outputs the quantized allowance (within 1),
    and the bias criterion judges them; they are not integers compared exactly."""
    signed = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
    tolerance = tolerance_for(binary_model(type_=Q8), "mean", ANDROID_11)
    expected = np.array([-20, -128, 127], np.int8)
    assert compare(expected, np.array([-21, -127, 126], np.int8), signed, tolerance).ok
    result = compare(expected, np.array([-22, -128, 127], np.int8), signed, tolerance)
    assert (result.ok, result.mismatches, result.max_abs_error) == (False, 1, 2)
    assert bias_applies(np.zeros(16, np.int8), signed)
    assert not bias_applies(np.zeros(16, np.int32), OperandType.TENSOR_INT32)


def test_float_comparison_bounds() -> None:
    tol = tolerance_for(binary_model(), "add")
    expected = np.array([0.0, 100.0, np.inf, np.nan], np.float32)
    # allowed error: 1e-5 at 0; 1e-5 + 1e-3 = 1.01e-3 at 100; inf and NaN only as themselves
    inside = np.array([0.9e-5, 100.001, np.inf, np.nan], np.float32)
    assert compare(expected, inside, F32, tol).ok
    outside = np.array([2e-5, 100.002, -np.inf, 1.0], np.float32)
    result = compare(expected, outside, F32, tol)
    assert (result.ok, result.mismatches) == (False, 4)
    assert result.max_abs_error == np.inf and result.worst_index == (2,)
    # Each value printed as float32 prints it, shortest first: 2e-05, not 1.9999999494757503e-05.
    assert result.excerpt == (
        "[0]: expected 0.0, got 2e-05; [1]: expected 100.0, got 100.002; "
        "[2]: expected inf, got -inf; [3]: expected nan, got 1.0"
    )


def test_quant_bool_and_int_comparison() -> None:
    tol = tolerance_for(binary_model(type_=Q8), "add")
    assert compare(np.array([10, 20], np.uint8), np.array([11, 19], np.uint8), Q8, tol).ok
    off = compare(np.array([10, 20], np.uint8), np.array([12, 20], np.uint8), Q8, tol)
    assert (off.ok, off.mismatches, off.max_abs_error, off.worst_index) == (False, 1, 2.0, (0,))
    assert off.excerpt == "[0]: expected 10, got 12"
    bools = np.array([0, 1, 2], np.uint8)
    assert compare(bools, np.array([0, 5, 1], np.uint8), OperandType.TENSOR_BOOL8, tol).ok
    ints = np.array([1, 2], np.int32)
    assert not compare(ints, np.array([1, 3], np.int32), OperandType.TENSOR_INT32, tol).ok


def test_signed_quant8_outputs_are_within_the_quantized_allowance() -> None:
    # TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3) is judged like TENSOR_QUANT8_ASYMM: one step off
    # passes, two fail, and a long enough output has a bias criterion.
    q8as = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
    tol = tolerance_for(binary_model(type_=Q8), "add")
    expected = np.array([-128, 0, 127], np.int8)
    assert compare(expected, np.array([-127, 1, 126], np.int8), q8as, tol).ok
    off = compare(expected, np.array([-126, 0, 127], np.int8), q8as, tol)
    assert (off.ok, off.mismatches, off.max_abs_error) == (False, 1, 2.0)
    assert bias_applies(np.zeros(16, np.int8), q8as)
    assert not bias_applies(np.zeros(15, np.int8), q8as)


def test_a_scalar_int32_output_is_compared_by_the_level_s_rule() -> None:
    # RANK's INT32 scalar (a 0-d expected array): within 1 for a 1.3 driver (VTS 1.3), exact
    # in the strict tier and below 1.3.
    expected = np.array(3, np.int32)
    model = binary_model()
    assert compare(
        expected, np.array(4, np.int32), OperandType.INT32, tolerance_for(model, "rank", ANDROID_11)
    ).ok
    two_off = compare(
        expected, np.array(5, np.int32), OperandType.INT32, tolerance_for(model, "rank", ANDROID_11)
    )
    assert (two_off.ok, two_off.mismatches, two_off.worst_index) == (False, 1, ())
    assert two_off.excerpt == "[]: expected 3, got 5"
    for rules in (ANDROID_11_STRICT, ANDROID_10):
        assert not compare(
            expected, np.array(4, np.int32), OperandType.INT32, tolerance_for(model, "rank", rules)
        ).ok


def test_a_scalar_output_gets_a_four_byte_buffer_read_back_as_a_0_d_array() -> None:
    from hal.types import Model, Operand, OperandLifeTime, Operation, OperationType

    model = Model(
        operands=[
            Operand(F32, [2, 3], 1, lifetime=OperandLifeTime.MODEL_INPUT),
            Operand(OperandType.INT32, [], 0, lifetime=OperandLifeTime.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.RANK, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )
    with pack_request(model, [np.zeros((2, 3), np.float32)]) as packed:
        assert packed.request.outputs[0].location.length == 4
        assert packed.request.outputs[0].dimensions == []
        with map_memory(packed.pools[1]) as mapping:
            mapping.write(packed.request.outputs[0].location.offset, np.int32(2).tobytes())
        value = packed.output(0, ())
    assert value.shape == () and value.dtype == np.int32 and int(value) == 2


def test_identical_outputs_pass_and_equal_values_of_other_bytes_still_compare() -> None:
    tol = tolerance_for(binary_model(), "add")
    expected = np.array([0.0, -1.5, np.inf, np.nan], np.float32)
    assert compare(expected, expected.copy(), F32, tol).ok
    assert compare(expected, np.array([-0.0, -1.5, np.inf, np.nan], np.float32), F32, tol).ok
    assert compare(expected, expected.astype(np.float64), F32, tol).ok
    wrong = compare(expected, np.array([0.0, -1.5, np.inf, 0.0], np.float32), F32, tol)
    assert (wrong.ok, wrong.mismatches, wrong.worst_index) == (False, 1, (3,))


# -- models and requests -------------------------------------------------------


def test_dynamic_twin_hides_output_dimensions_only() -> None:
    model = binary_model(dims=(2, 3))
    model.operands[3].extra_params = SymmPerChannelQuantParams((1.0,), 0)
    twin = dynamic_twin(model)
    assert twin.operands[3].dimensions == [0, 0] and twin.operands[3].extra_params is None
    assert twin.operands[0].dimensions == [2, 3] and model.operands[3].dimensions == [2, 3]
    assert model.operands[3].extra_params == SymmPerChannelQuantParams((1.0,), 0)
    # nothing mutable is shared: editing the twin leaves the original as it was
    twin.operands[0].dimensions.append(7)
    twin.operations[0].inputs.append(9)
    twin.input_indexes.append(5)
    assert model.operands[0].dimensions == [2, 3]
    assert len(model.operations[0].inputs) == len(twin.operations[0].inputs) - 1
    assert 5 not in model.input_indexes


def test_scattered_layout_and_untouched_check() -> None:
    model = binary_model()
    x = np.ones((2, 2), np.float32)
    with pack_request(model, [x, x], layout=SCATTERED) as packed:
        request = packed.request
        assert [a.location.pool_index for a in (*request.inputs, *request.outputs)] == [0, 1, 2]
        assert all(a.location.offset == GUARD_SIZE for a in (*request.inputs, *request.outputs))
        assert packed.untouched_problems() == []
        out = request.outputs[0].location
        with map_memory(request.pools[out.pool_index]) as mapping:
            mapping.write(out.offset, bytes(16))  # inside the output: allowed
            mapping.write(out.offset + 16, b"\x00")  # the first guard byte after it
        with map_memory(request.pools[1]) as mapping:
            mapping.write(GUARD_SIZE + 3, b"\x7f")  # into input 1
        assert packed.untouched_problems() == [
            "the driver wrote 1 byte(s) into input 1 in pool 1 (first at offset 16, byte 3 of the "
            "input, 0x3F -> 0x7F; last at 16)",
            "the driver wrote 1 byte(s) outside every output location in pool 2 "
            "(first at offset 29, 0xA5 -> 0x00; last at 29)",
        ]
        assert packed.output_bytes(0) == bytes(16)
    with pack_request(model, [x, x]) as packed:
        assert packed.output_bytes(0) == bytes([GUARD]) * 16


def test_packed_layout_untouched_check() -> None:
    model = binary_model()
    x = np.ones((2, 2), np.float32)
    with pack_request(model, [x, x]) as packed:
        with map_memory(packed.request.pools[1]) as mapping:
            mapping.write(0, bytes(16))  # the whole output: allowed
        assert packed.untouched_problems() == []
        with map_memory(packed.request.pools[0]) as mapping:
            mapping.write(31, b"\x00")  # the last byte of input 1
        assert packed.untouched_problems() == [
            "the driver wrote 1 byte(s) into input 1 in pool 0 (first at offset 31, byte 15 of the "
            "input, 0x3F -> 0x00; last at 31)"
        ]


def test_zero_sized_input_has_no_value() -> None:
    model = binary_model()
    with pack_request(model, [np.ones((2, 2), np.float32), np.zeros((0,), np.float32)]) as packed:
        assert packed.request.inputs[1].has_no_value
        assert packed.request.inputs[1].location.length == 0


def test_unknown_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown request layout 'diagonal'"):
        pack_request(binary_model(), [None, None], layout="diagonal")


def test_constants_move_into_a_pool_and_still_compute() -> None:
    constant = np.arange(64, dtype=np.float32)  # 256 bytes
    model = binary_model(dims=(64,), constant_b=constant)
    assert with_constants_in_pool(binary_model()) is None
    moved, pool = with_constants_in_pool(model)
    try:
        b = moved.operands[1]
        assert b.lifetime == OperandLifeTime.CONSTANT_REFERENCE
        assert (b.location.pool_index, b.location.offset, b.location.length) == (0, 1, 256)
        assert moved.operands[2].lifetime == OperandLifeTime.CONSTANT_COPY  # 4 bytes: stays
        driver = ReferenceDriver()
        callback = PreparedModelCallback()
        driver.prepare_model_1_2(moved, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
        prepared = callback.wait(10).prepared_model
        with pack_request(moved, [np.ones(64, np.float32)]) as packed:
            status, _, _ = prepared.execute_synchronously(packed.request, 0)
            assert status == ErrorStatus.NONE
            np.testing.assert_array_equal(packed.output(0, (64,)), constant + 1)
    finally:
        pool.close()


# -- protocol checks -------------------------------------------------------------


def _execution(path: str, status=ErrorStatus.NONE, shapes=(), timing=NO_TIMING, wall=1000):
    return Execution(PATHS_BY_ID[path], status, tuple(shapes), timing, wall)


def test_timing_rules() -> None:
    check_timing(_execution("sync"))
    check_timing(_execution("sync-timed", timing=Timing(10, 20)))
    check_timing(_execution("sync-timed", status=ErrorStatus.GENERAL_FAILURE))
    with pytest.raises(AssertionError, match="timing must be UINT64_MAX in both fields"):
        check_timing(_execution("sync", timing=Timing(1, 2)))
    with pytest.raises(AssertionError, match="time_on_device 30 us exceeds time_in_driver 20 us"):
        check_timing(_execution("sync-timed", timing=Timing(30, 20)))
    with pytest.raises(AssertionError, match="time_in_driver 2000 us is not within the call"):
        check_timing(_execution("async-timed", timing=Timing(10, 2000)))


def test_shape_rules() -> None:
    shape = OutputShape((2,), True)
    check_shapes(_execution("sync"), 1, dynamic=False)
    check_shapes(_execution("sync", shapes=[shape]), 1, dynamic=True)
    with pytest.raises(AssertionError, match="0 output shapes for 1 outputs; one per output"):
        check_shapes(_execution("sync"), 1, dynamic=True)
    with pytest.raises(AssertionError, match="an error status must come with no output shapes"):
        check_shapes(_execution("sync", ErrorStatus.GENERAL_FAILURE, [shape]), 1, dynamic=False)


class _BadReturn(IPreparedModel_1_2):
    def execute(self, request, callback):
        raise RuntimeError("boom")

    def execute_1_2(self, request, measure, callback):
        return ErrorStatus.NONE

    def execute_synchronously(self, request, measure):
        return ErrorStatus.NONE

    def configure_execution_burst(self, callback, request_channel, result_channel):
        return ErrorStatus.GENERAL_FAILURE, None

    def save_to_cache(self, model_cache, data_cache, token):
        return ErrorStatus.GENERAL_FAILURE


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "sync",
            "execute_synchronously returned <ErrorStatus.NONE: 0>; expected (ErrorStatus, "
            "output shapes, Timing)",
        ),
        ("async10", "_BadReturn.execute raised RuntimeError: boom"),
        (
            "async",
            "execute_1_2 (launch status NONE): the driver did not notify the execution "
            "callback within 0.05 s",
        ),
    ],
)
def test_protocol_breaches_fail_with_the_method_named(path: str, message: str) -> None:
    with pytest.raises(pytest.fail.Exception) as info:
        run(_BadReturn(), None, PATHS_BY_ID[path], 0.05)
    assert str(info.value) == message


def test_multinomial_check() -> None:
    logits = np.log(np.array([[0.5, 0.25, 0.25]]))
    fair = np.array([[0, 0, 1, 2] * 25])  # frequencies 0.5, 0.25, 0.25
    assert _multinomial_problems(logits, fair, 0.025) == []
    skewed = np.array([[0] * 70 + [1] * 15 + [2] * 15])  # class 0 at 0.70
    assert _multinomial_problems(logits, skewed, 0.025) == [
        "batch 0: class 0 drawn with frequency 0.7000, softmax gives 0.5000 "
        "(multinomial tolerance 0.025)"
    ]
    assert "outside [0, 3)" in _multinomial_problems(logits, np.array([[3]]), 0.025)[0]


def test_multinomial_check_with_non_finite_logits() -> None:
    # A non-finite logit has probability 0: drawing only class 0 is wrong when class 2 has
    # half the mass, and drawing the NaN class is wrong whatever the frequencies.
    logits = np.array([[0.0, np.nan, 0.0]])
    only_first = np.array([[0] * 100])
    assert _multinomial_problems(logits, only_first, 0.025) == [
        "batch 0: class 0 drawn with frequency 1.0000, softmax gives 0.5000 "
        "(multinomial tolerance 0.025)"
    ]
    assert _multinomial_problems(logits, np.array([[0, 2] * 50]), 0.025) == []
    assert _multinomial_problems(np.array([[0.0, np.inf, 0.0]]), np.array([[1] * 10]), 0.025) == [
        "batch 0: class 1 drawn with frequency 1.0000, softmax gives 0.0000 "
        "(multinomial tolerance 0.025)"
    ]
    assert _multinomial_problems(np.array([[np.nan, -np.inf]]), np.array([[0]]), 0.025) == [
        "batch 0: no finite logit, so no class can be drawn"
    ]


def test_copy_model_is_deep_except_for_pools_and_immutable_values() -> None:
    from conformance.harness.generated import corpus
    from conformance.harness.mutations import copy_model
    from hal.types import Operand

    for test in corpus()[:200]:
        original = test.model
        copied = copy_model(original)
        assert copied == original
        for a, b in zip(copied.operands, original.operands, strict=True):
            assert a is not b and a.dimensions is not b.dimensions
        for a, b in zip(copied.operations, original.operations, strict=True):
            assert a is not b and a.inputs is not b.inputs and a.outputs is not b.outputs
        assert copied.input_indexes is not original.input_indexes
        assert all(a is b for a, b in zip(copied.pools, original.pools, strict=True))
    # A mutated model may hold anything: odd values are deep-copied, not shared.
    odd = corpus()[0].model
    odd = copy_model(odd)
    odd.operands[0].dimensions = [[1, 2], 3]
    again = copy_model(odd)
    assert again.operands[0].dimensions == [[1, 2], 3]
    assert again.operands[0].dimensions[0] is not odd.operands[0].dimensions[0]
    assert type(again.operands[0]) is Operand


def test_unsupported_operations_are_named_with_their_types() -> None:
    model = binary_model(OperationType.MUL, OperandType.TENSOR_QUANT8_ASYMM)
    assert describe_operations(model, [0]) == "operation 0 MUL (TENSOR_QUANT8_ASYMM)"
    chain = chain_model(6)
    assert describe_operations(chain, [0, 2]) == (
        "operations 0 ADD (TENSOR_FLOAT32), 2 ADD (TENSOR_FLOAT32)"
    )
    assert describe_operations(chain, [0, 1, 2, 3, 4, 5]) == (
        "operations 0 ADD (TENSOR_FLOAT32), 1 ADD (TENSOR_FLOAT32), 2 ADD (TENSOR_FLOAT32), "
        "3 ADD (TENSOR_FLOAT32), 2 more"
    )
    chain.operations[1].type = 9999  # not an operation type
    assert describe_operations(chain, [1]) == "operation 1 type 9999 (TENSOR_FLOAT32)"


class _DeclinesUnknownShapes(ReferenceDriver):
    """Runs what the reference runs, but no model with an output of unknown dimensions."""

    def _support(self, model):
        unknown = any(0 in model.operands[i].dimensions for i in model.output_indexes)
        return [not unknown and ok for ok in super()._support(model)]


def test_a_declined_dynamic_twin_does_not_decline_its_case() -> None:
    """prepare_case remembers a decline for the case only when the case itself was
    declined: a driver may run a model of known shapes and decline its dynamic twin."""
    from conformance.harness.runner import prepare_case

    driver = _DeclinesUnknownShapes()
    model = binary_model()
    with pytest.raises(pytest.skip.Exception, match="does not support operation 0 ADD"):
        prepare_case(driver, dynamic_twin(model), HalVersion.V1_3, 5.0, case=model)
    assert prepare_case(driver, model, HalVersion.V1_3, 5.0) is not None


def test_constants_of_referenced_subgraphs_move_into_the_pool_too() -> None:
    # fib_model's constants are the body's: 1 and 0, four bytes each, at 4-byte offsets.
    model = fib_model()
    assert has_constants(model)
    moved, pool = with_constants_in_pool(model, threshold=0)
    try:
        body = moved.referenced[1]
        locations = [
            (o.location.pool_index, o.location.offset, o.location.length)
            for o in body.operands
            if o.lifetime == OperandLifeTime.CONSTANT_REFERENCE
        ]
        # one, zero and the three ADDs' activations, each after one byte: odd offsets
        assert locations == [(0, 1, 4), (0, 6, 4), (0, 11, 4), (0, 16, 4), (0, 21, 4)]
        assert not any(
            o.lifetime == OperandLifeTime.CONSTANT_COPY
            for _, g in moved.graphs()
            for o in g.operands
        )
        assert model.referenced[1].operands[4].lifetime == OperandLifeTime.CONSTANT_COPY  # a copy
        driver = ReferenceDriver()
        callback = PreparedModelCallback()
        driver.prepare_model_1_3(
            moved, ExecutionPreference.FAST_SINGLE_ANSWER, Priority.MEDIUM, None, callback
        )
        prepared = callback.wait(10).prepared_model
        inputs = [np.array([v], np.float32) for v in (0, 0, 1, 5)]  # i, a, b, n
        with pack_request(moved, inputs) as packed:
            status, _, _ = prepared.execute_synchronously(packed.request, 0)
            assert status == ErrorStatus.NONE
            # (i, a, b): (0,0,1) -> (1,1,1) -> (2,1,2) -> (3,2,3) -> (4,3,5) -> (5,5,8)
            assert [packed.output(k, (1,))[0] for k in range(3)] == [5, 5, 8]
    finally:
        pool.close()
