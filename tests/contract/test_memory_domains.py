"""Unit tests of memory domains: the request rules for token pools, and the reference
driver's buffers (reference_driver/buffers.py).

The conformance module conformance/test_memory_domains.py holds the reference
driver to the HAL's rules end to end; these tests pin the pieces underneath:
how ``validate_request`` treats tokens with and without memory domains, how
dimensions combine, and the answers of the registry and the buffers.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.interfaces import IBuffer, IMemoryDomains
from hal.memory import ASHMEM, allocate, allocate_with, map_memory
from hal.types import (
    BufferDesc,
    BufferRole,
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    MeasureTiming,
    OperandLifeTime,
)
from hal.validation import is_token, validate_request
from reference_driver import ReferenceDriver
from reference_driver.buffers import _Invalid, combine

NONE = ErrorStatus.NONE
INVALID = ErrorStatus.INVALID_ARGUMENT
FAILURE = ErrorStatus.GENERAL_FAILURE
V1_2 = HalVersion.V1_2
A = np.arange(4, dtype=np.float32).reshape(2, 2)


@pytest.fixture
def packed():
    with pack_request(binary_model(), [A, A]) as request:
        yield request


def _to_token(request, token, location=None) -> None:
    """Output 0 moves into request pool 1, which becomes ``token``."""
    request.pools[1] = token
    request.outputs[0].location = location or DataLocation(1, 0, 0)


# ---------------------------------------------------------------------------
# validate_request and tokens
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [(1, True), (np.int32(5), True), (0, True), (True, False), (1.0, False), (None, False)],
)
def test_is_token(value, expected) -> None:
    assert is_token(value) is expected


def test_token_pool_is_accepted_with_memory_domains(packed) -> None:
    _to_token(packed.request, 7)
    assert validate_request(packed.request, binary_model(), V1_2, memory_domains=True).ok
    result = validate_request(packed.request, binary_model(), V1_2)
    assert result.rule_names == {"request.pool_token"}


def test_token_must_be_a_positive_int32_with_memory_domains(packed) -> None:
    _to_token(packed.request, -3)
    result = validate_request(packed.request, binary_model(), V1_2, memory_domains=True)
    assert [str(v) for v in result.violations] == [
        "request.pools: request pool 1: token -3 is not a positive int32"
    ]


def test_token_argument_needs_offset_and_length_0(packed) -> None:
    _to_token(packed.request, 7, DataLocation(1, 4, 0))
    result = validate_request(packed.request, binary_model(), V1_2, memory_domains=True)
    assert [str(v) for v in result.violations] == [
        "request.location: output 0 (operand 3): pool 1 is a driver-managed buffer (token 7): "
        "offset 4 and length 0 must both be 0"
    ]


def test_input_from_a_buffer_needs_no_dimensions_or_length() -> None:
    model = binary_model(dims=(0, 0), other_dims=(2, 2), output_dims=(2, 2))
    with pack_request(model, [A, A]) as packed:
        request = packed.request
        request.pools.append(9)
        request.inputs[0].location = DataLocation(2, 0, 0)
        request.inputs[0].dimensions = []
        assert validate_request(request, model, V1_2, memory_domains=True).ok
        # The same argument in an ordinary pool: unknown rank and a wrong length.
        request.inputs[0].location = DataLocation(0, 0, 0)
        names = validate_request(request, model, V1_2, memory_domains=True).rule_names
        assert names == {"request.input_specified"}


def test_memory_pool_rules_still_apply_beside_tokens(packed) -> None:
    _to_token(packed.request, 7)
    packed.request.pools[0] = None
    result = validate_request(packed.request, binary_model(), V1_2, memory_domains=True)
    assert "request pool 0 (None) has no handle" in [v.message for v in result.violations]


# ---------------------------------------------------------------------------
# Dimensions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "combined"),
    [
        (None, None, None),
        (None, (2, 3), (2, 3)),
        ((2, 0), None, (2, 0)),
        ((2, 0), (0, 3), (2, 3)),
        ((0, 0), (4, 0), (4, 0)),
    ],
)
def test_combine(first, second, combined) -> None:
    assert combine(first, second) == combined


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ((2, 2), (2, 2, 1), "rank 2 conflicts with rank 3"),
        ((2, 3), (2, 4), "axis 1: 3 conflicts with 4"),
    ],
)
def test_combine_conflicts(first, second, message) -> None:
    with pytest.raises(_Invalid) as info:
        combine(first, second)
    assert str(info.value) == message


# ---------------------------------------------------------------------------
# The reference driver's registry and buffers
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _prepared(driver, model=None):
    callback = PreparedModelCallback()
    model = model or binary_model()
    status = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    assert status == NONE
    notification = callback.wait(10.0)
    assert notification.status == NONE
    return notification.prepared_model


def test_reference_driver_has_the_mix_in(driver) -> None:
    assert isinstance(driver, IMemoryDomains)


def test_allocate_gives_a_buffer_and_a_token(driver) -> None:
    prepared = _prepared(driver)
    status, buffer, token = driver.allocate(BufferDesc(), [prepared], [], [BufferRole(0, 0)])
    assert status == NONE and isinstance(buffer, IBuffer) and token > 0
    assert buffer.declared == (2, 2)
    buffer.release()
    buffer.release()  # harmless twice


def test_scalar_roles_are_declined(driver) -> None:
    # ADD with its activation scalar as model input 2.
    model = binary_model()
    model.operands[2].lifetime = OperandLifeTime.MODEL_INPUT
    model.operands[2].location = DataLocation()
    model.input_indexes = [0, 1, 2]
    prepared = _prepared(driver, model)
    assert driver.allocate(BufferDesc(), [prepared], [BufferRole(0, 2)], []) == (FAILURE, None, 0)


def test_a_declining_driver_answers_general_failure() -> None:
    declining = ReferenceDriver(memory_domains=False)
    prepared = _prepared(declining)
    answer = declining.allocate(BufferDesc(), [prepared], [], [BufferRole(0, 0)])
    assert answer == (FAILURE, None, 0)
    # Its prepared models refuse tokens as a driver without memory domains does.
    with pack_request(binary_model(), [A, A]) as packed:
        _to_token(packed.request, 1)
        status, shapes, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
    assert (status, shapes) == (INVALID, [])


def test_a_failed_execution_uninitialises_its_output_buffer(driver) -> None:
    prepared = _prepared(driver)
    _, buffer, token = driver.allocate(
        BufferDesc(), [prepared], [BufferRole(0, 0)], [BufferRole(0, 0)]
    )
    with allocate_with(ASHMEM, A.tobytes()) as memory:
        assert buffer.copy_from(memory, []) == NONE
    with pack_request(binary_model(), [A, A]) as packed:
        _to_token(packed.request, token)
        packed.request.pools[0].close()  # the inputs cannot be mapped: the run fails
        status, _, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
    assert status == FAILURE
    with allocate(ASHMEM, 16) as memory:
        assert buffer.copy_to(memory) == FAILURE
    buffer.release()


def test_copy_to_writes_the_whole_memory(driver) -> None:
    prepared = _prepared(driver)
    _, buffer, _ = driver.allocate(BufferDesc(), [prepared], [BufferRole(0, 0)], [])
    with allocate_with(ASHMEM, (A * 2).tobytes()) as memory:
        assert buffer.copy_from(memory, [2, 2]) == NONE
    with allocate(ASHMEM, 16) as memory:
        assert buffer.copy_to(memory) == NONE
        with map_memory(memory) as mapping:
            assert mapping.read(0, 16) == (A * 2).tobytes()
    buffer.release()
