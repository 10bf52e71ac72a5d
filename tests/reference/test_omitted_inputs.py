"""Omitted optional inputs in every idiom: validation, the reference driver, the mutations.

The models come from the generated ``*_omitted_*`` specs: every operation with optional
tensor inputs, each omitted as a zero-sized model input declared ``{0}``, as a model
input declared with its full shape (both sent with ``has_no_value``), and as a NO_VALUE
constant. Their golden values come from the oracles (``tests/spec_language/test_oracles.py``); the
generated suite runs them on every execution path. Here: ``hal.validation`` accepts each
model with every rule on, the reference driver supports and prepares it and computes the
goldens, the ``operation_input_rank`` mutations never touch an optional slot, and a rank
that is wrong for a required slot is still refused.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from conformance.harness.cases import GeneratedTest
from conformance.harness.generated import load_tests
from conformance.harness.mutations import FAMILIES
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.operations import match_signature
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    MeasureTiming,
    Model,
    OperandLifeTime,
    OperationType,
)
from hal.validation import validate_model
from reference_driver import ReferenceDriver

LT = OperandLifeTime
MODULES = {
    "V1_0.lsh_projection_omitted_weight": OperationType.LSH_PROJECTION,
    "V1_0.lstm_omitted_inputs": OperationType.LSTM,
    "V1_0.svdf_omitted_bias": OperationType.SVDF,
    "V1_1.squeeze_omitted_axes": OperationType.SQUEEZE,
    "V1_1.transpose_omitted_perm": OperationType.TRANSPOSE,
    "V1_2.bidirectional_sequence_lstm_omitted_inputs": OperationType.BIDIRECTIONAL_SEQUENCE_LSTM,
    "V1_2.bidirectional_sequence_rnn_omitted_aux": OperationType.BIDIRECTIONAL_SEQUENCE_RNN,
    "V1_2.lstm_v1_2_omitted_inputs": OperationType.LSTM,
    "V1_2.unidirectional_sequence_lstm_omitted_inputs": (
        OperationType.UNIDIRECTIONAL_SEQUENCE_LSTM
    ),
}
IDIOMS = ("zero_sized_input", "full_shape_input", "no_value_constant")


def _tests(module: str) -> list[GeneratedTest]:
    return load_tests(f"conformance.generated.{module}")


def _cases() -> list[tuple[str, GeneratedTest]]:
    # Android 11's lifetime variations put an ADD before the operation: the spec's own cases
    return [
        (module, test)
        for module in MODULES
        for test in _tests(module)
        if not test.lifetime_variation
    ]


CASES = _cases()
IDS = [f"{module.split('.')[1]}-{test.name}" for module, test in CASES]


def _idiom(test: GeneratedTest) -> str:
    (idiom,) = [i for i in IDIOMS if i in test.name]
    return idiom


def _omitted_slots(model: Model, test: GeneratedTest) -> list[tuple[int, int]]:
    """(slot, operand) of every omitted input of operation 0, checked against the idiom."""
    operation = model.operations[0]
    feed = test.feeds[0]
    empty_inputs = {
        model.input_indexes[k] for k, array in enumerate(feed.inputs) if array.size == 0
    }
    found = []
    for slot, index in enumerate(operation.inputs):
        operand = model.operands[index]
        if operand.lifetime == LT.NO_VALUE or index in empty_inputs:
            found.append((slot, index))
    return found


def _signature(model: Model):
    return match_signature(model, model.operations[0], HalVersion.V1_2).signature


@pytest.mark.parametrize(("module", "test"), CASES, ids=IDS)
def test_the_model_omits_optional_inputs_in_its_idiom(module: str, test: GeneratedTest) -> None:
    model = test.model
    assert model.operations[0].type == MODULES[module]
    omitted = _omitted_slots(model, test)
    assert omitted, "the case omits no input"
    signature = _signature(model)
    assert signature is not None
    idiom = _idiom(test)
    for slot, index in omitted:
        assert slot in signature.omittable
        operand = model.operands[index]
        if idiom == "no_value_constant":
            assert operand.lifetime == LT.NO_VALUE
        else:
            assert operand.lifetime == LT.MODEL_INPUT
            if idiom == "zero_sized_input":
                assert operand.dimensions == [0]
            else:
                assert operand.dimensions and 0 not in operand.dimensions


@pytest.mark.parametrize(("module", "test"), CASES, ids=IDS)
def test_validation_accepts_every_idiom_with_every_rule(module: str, test: GeneratedTest) -> None:
    result = validate_model(test.model, HalVersion.V1_2)
    assert result.ok, result


@pytest.mark.parametrize(("module", "test"), CASES, ids=IDS)
def test_the_reference_driver_supports_prepares_and_runs_every_idiom(
    module: str, test: GeneratedTest
) -> None:
    driver = ReferenceDriver()
    model = test.model
    assert driver.get_supported_operations_1_2(model) == (
        ErrorStatus.NONE,
        [True] * len(model.operations),
    )
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(30)
    assert launch == ErrorStatus.NONE
    assert notification.status == ErrorStatus.NONE
    prepared = notification.prepared_model
    feed = test.feeds[0]
    with pack_request(model, feed.inputs) as packed:
        status, shapes, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
        assert status == ErrorStatus.NONE
        for position, expected in enumerate(feed.outputs):
            if position in test.ignored_outputs:
                continue
            actual = packed.output(position, shapes[position].dimensions)
            tolerance = 5e-3 if "relaxed" in test.name or "float16" in test.name else 1e-5
            np.testing.assert_allclose(
                actual.astype(np.float64),
                expected.astype(np.float64),
                atol=tolerance,
                rtol=tolerance,
            )


def _bidi_rnn(idiom: str) -> GeneratedTest:
    name = f"bidirectional_sequence_rnn_omitted_aux_{idiom}"
    (test,) = [t for t in _tests("V1_2.bidirectional_sequence_rnn_omitted_aux") if t.name == name]
    return test


def test_a_rank_wrong_for_a_required_slot_is_still_refused() -> None:
    model = copy.deepcopy(_bidi_rnn("zero_sized_input").model)
    h0 = model.operations[0].inputs[4]  # fw_h0: a required rank-2 model input
    model.operands[h0].dimensions = [0]
    result = validate_model(model, HalVersion.V1_2)
    assert not result.ok
    assert "operation 0 (BIDIRECTIONAL_SEQUENCE_RNN): input 4 has rank 1, must be 2" in str(result)


def test_a_value_given_to_a_zero_sized_optional_input_is_refused_at_execution() -> None:
    # Declared {0} (rank 1), the auxiliary input cannot hold a [T, B, input] tensor: a
    # request that gives it one rank-1 value is INVALID_ARGUMENT, not a crash.
    test = _bidi_rnn("zero_sized_input")
    model, feed = test.model, test.feeds[0]
    inputs = list(feed.inputs)
    aux_positions = [
        k
        for k, index in enumerate(model.input_indexes)
        if index in model.operations[0].inputs[9:12]
    ]
    assert len(aux_positions) == 3
    for k in aux_positions:
        inputs[k] = np.ones(4, dtype=np.float32)
    driver = ReferenceDriver()
    callback = PreparedModelCallback()
    driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    prepared = callback.wait(30).prepared_model
    with pack_request(model, inputs) as packed:
        status, _, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
    assert status == ErrorStatus.INVALID_ARGUMENT


def test_operation_input_rank_mutations_skip_optional_slots() -> None:
    family = FAMILIES["operation_input_rank"]
    for idiom in ("zero_sized_input", "full_shape_input"):
        model = _bidi_rnn(idiom).model
        aux = set(model.operations[0].inputs[9:12])
        assert aux <= set(model.input_indexes)
        names = [m.name for m in family.mutations(model)]
        assert names, "the required model inputs still give mutations"
        touched = {int(name.split(".")[0].removeprefix("operand")) for name in names}
        assert not touched & aux
        assert model.operations[0].inputs[0] in touched  # x: required, rank 3


def test_an_optional_model_input_is_not_judged_by_its_declared_size_at_prepare() -> None:
    # LSH_PROJECTION's weight declared with 5 entries for 2 input rows: wrong if it were
    # given, but it is omitted (has_no_value), so the model prepares and runs.
    (test,) = [
        t
        for t in _tests("V1_0.lsh_projection_omitted_weight")
        if t.name == "lsh_projection_omitted_weight_full_shape_input"
    ]
    model = copy.deepcopy(test.model)
    weight = model.operations[0].inputs[2]
    model.operands[weight].dimensions = [5]
    assert validate_model(model, HalVersion.V1_2).ok
    driver = ReferenceDriver()
    assert driver.get_supported_operations_1_2(model) == (ErrorStatus.NONE, [True])
    callback = PreparedModelCallback()
    assert (
        driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
        == ErrorStatus.NONE
    )
    notification = callback.wait(30)
    assert notification.status == ErrorStatus.NONE
    with pack_request(model, test.feeds[0].inputs) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        assert status == ErrorStatus.NONE
        assert packed.output(0, shapes[0].dimensions).tolist() == [3, 2, 2, 1]
