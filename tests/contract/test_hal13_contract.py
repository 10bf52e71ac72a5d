"""HAL 1.3's types and interfaces in ``hal``, before 1.3 is a level.

The codes below are written out from HAL 1.3's ``types.hal`` (not derived from
``hal.types``). Besides them, these tests pin what keeps a 1.0-1.2 run as it was:
``HalVersion`` and ``LEVELS`` stop at 1.2, no level knows the new operand types or
lifetime, a 1.0-1.2 method or burst may not carry the new statuses, and a 1.3
driver is classed as the 1.2 driver it also is.
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from hal.burst import MalformedPacket, pack_result_packet, parse_result_packet
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.interfaces import (
    IDevice_1_2,
    IDevice_1_3,
    IExecutionCallback,
    IFencedExecutionCallback,
    IPreparedModel_1_2,
    IPreparedModel_1_3,
    IPreparedModelCallback,
)
from hal.levels import LEVELS, device_level, method_level
from hal.types import (
    DEFAULT_PRIORITY,
    LIFETIMES_1_0,
    NO_TIMING,
    STATUSES_1_0,
    TIME_POINT_MAX,
    UINT64_MAX,
    BufferDesc,
    BufferRole,
    Capabilities_1_3,
    ErrorStatus,
    HalVersion,
    LoopTimeoutDurationNs,
    OperandLifeTime,
    OperandPerformance,
    OperandType,
    OperandTypeRange,
    PerformanceInfo,
    Priority,
    Request,
    describe_type,
    element_byte_size,
    is_optional_nanoseconds,
    is_scalar_type,
    is_tensor_type,
    numpy_dtype,
    operand_byte_size,
    operand_type_introduced,
)
from hal.validation.core import _LIFETIMES

# ---------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------


def test_the_new_operand_types_have_their_hal_codes_sizes_and_dtypes() -> None:
    assert OperandType.TENSOR_QUANT8_ASYMM_SIGNED == 14
    assert OperandType.SUBGRAPH == 15
    assert OperandTypeRange.FUNDAMENTAL_MAX_1_3 == 15
    assert element_byte_size(14) == 1
    assert numpy_dtype(14) == np.dtype("i1")
    assert is_tensor_type(14) and not is_scalar_type(14)
    assert operand_byte_size(14, [2, 3]) == 6
    assert element_byte_size(15) == 0
    assert is_scalar_type(15) and not is_tensor_type(15)
    with pytest.raises(ValueError, match="no numpy dtype"):
        numpy_dtype(15)  # a subgraph reference has no data
    assert describe_type(14) == "TENSOR_QUANT8_ASYMM_SIGNED"


def test_the_new_operand_types_are_1_3_ones() -> None:
    assert max(HalVersion) is HalVersion.V1_3
    assert operand_type_introduced(14) is HalVersion.V1_3
    assert operand_type_introduced(15) is HalVersion.V1_3
    # The invalid types a 1.0-1.2 mutation draws start where they did: above 1.2's last type.
    assert OperandTypeRange.FUNDAMENTAL_MAX == 13


def test_lifetimes_gain_subgraph_and_the_13_names_are_aliases() -> None:
    assert OperandLifeTime.SUBGRAPH == 6
    assert OperandLifeTime.SUBGRAPH_INPUT is OperandLifeTime.MODEL_INPUT
    assert OperandLifeTime.SUBGRAPH_OUTPUT is OperandLifeTime.MODEL_OUTPUT
    assert OperandLifeTime(1).name == "MODEL_INPUT"  # messages keep the 1.2 names
    assert {int(x) for x in LIFETIMES_1_0} == set(range(6))
    assert _LIFETIMES == LIFETIMES_1_0  # validation at 1.0-1.2 refuses lifetime 6


def test_the_statuses_13_adds() -> None:
    assert {s.name: int(s) for s in ErrorStatus if s not in STATUSES_1_0} == {
        "MISSED_DEADLINE_TRANSIENT": 5,
        "MISSED_DEADLINE_PERSISTENT": 6,
        "RESOURCE_EXHAUSTED_TRANSIENT": 7,
        "RESOURCE_EXHAUSTED_PERSISTENT": 8,
    }
    assert {int(s) for s in STATUSES_1_0} == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("status", [5, 6, 7, 8])
def test_a_burst_result_never_carries_a_13_status(status: int) -> None:
    packet = pack_result_packet(ErrorStatus(status), [], NO_TIMING)
    with pytest.raises(MalformedPacket, match="not an ErrorStatus"):
        parse_result_packet(packet)


def test_priority_and_loop_timeouts() -> None:
    assert {p.name: int(p) for p in Priority} == {"LOW": 0, "MEDIUM": 1, "HIGH": 2}
    assert DEFAULT_PRIORITY is Priority.MEDIUM
    assert LoopTimeoutDurationNs.DEFAULT == 2_000_000_000
    assert LoopTimeoutDurationNs.MAXIMUM == 15_000_000_000


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 0, 1, TIME_POINT_MAX, UINT64_MAX])
def test_an_optional_time_is_none_or_an_unsigned_64_bit_count(value: object) -> None:
    assert is_optional_nanoseconds(value)


@pytest.mark.parametrize("value", [-1, UINT64_MAX + 1, 1.5, True, "5"])
def test_anything_else_is_no_optional_time(value: object) -> None:
    assert not is_optional_nanoseconds(value)


def test_none_and_zero_are_different_deadlines() -> None:
    assert TIME_POINT_MAX == 2**63 - 1
    assert is_optional_nanoseconds(0) and is_optional_nanoseconds(None) and 0 != None


def test_capabilities_1_3_fields() -> None:
    info = PerformanceInfo(0.5, 0.5)
    caps = Capabilities_1_3(
        info, info, (OperandPerformance(OperandType.FLOAT32, info),), info, info
    )
    assert [f.name for f in dataclasses.fields(Capabilities_1_3)] == [
        "relaxed_float32_to_float16_performance_scalar",
        "relaxed_float32_to_float16_performance_tensor",
        "operand_performance",
        "if_performance",
        "while_performance",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        caps.if_performance = info  # type: ignore[misc]


def test_a_request_pool_is_a_memory_or_a_token_and_buffers_are_described() -> None:
    request = Request(pools=[5])  # a token: 1.3's MemoryPool.token arm
    assert request.pools == [5]
    assert BufferDesc().dimensions == ()
    assert BufferRole(0, 1).frequency == 1.0


def test_the_wire_codec_carries_the_new_records_and_enums() -> None:
    from isolation import codec

    assert Priority in codec.ENUMS and LoopTimeoutDurationNs in codec.ENUMS
    assert Capabilities_1_3 in {schema.cls for schema in codec.RECORDS}
    info = PerformanceInfo(0.5, 0.25)
    caps = Capabilities_1_3(
        info, info, (OperandPerformance(OperandType.FLOAT32, info),), info, info
    )
    for value in (caps, Priority.HIGH, LoopTimeoutDurationNs.MAXIMUM, ErrorStatus(6)):
        body, fds = codec.encode(codec.Hello(value), None, is_open=lambda fd: True)
        back = codec.Decoder(fds, None).decode(body).value
        assert back == value and type(back) is type(value)


# ---------------------------------------------------------------------------
# Interfaces
# ---------------------------------------------------------------------------

DEVICE_1_3 = {
    "get_capabilities_1_3": ["self"],
    "get_supported_operations_1_3": ["self", "model"],
    "prepare_model_1_3": ["self", "model", "preference", "priority", "deadline", "callback"],
    "prepare_model_from_cache_1_3": [
        "self",
        "deadline",
        "model_cache",
        "data_cache",
        "token",
        "callback",
    ],
    "allocate": ["self", "desc", "prepared_models", "input_roles", "output_roles"],
}
PREPARED_MODEL_1_3 = {
    "execute_1_3": ["self", "request", "measure", "deadline", "loop_timeout_duration", "callback"],
    "execute_synchronously_1_3": [
        "self",
        "request",
        "measure",
        "deadline",
        "loop_timeout_duration",
    ],
    "execute_fenced": [
        "self",
        "request",
        "wait_for",
        "measure",
        "deadline",
        "loop_timeout_duration",
        "duration",
    ],
}


def _new_abstract(cls: type, parent: type) -> set[str]:
    return set(cls.__abstractmethods__) - set(parent.__abstractmethods__)


@pytest.mark.parametrize(
    ("cls", "parent", "methods"),
    [
        (IDevice_1_3, IDevice_1_2, DEVICE_1_3),
        (IPreparedModel_1_3, IPreparedModel_1_2, PREPARED_MODEL_1_3),
    ],
)
def test_the_13_interfaces_add_exactly_their_methods(cls, parent, methods) -> None:
    assert issubclass(cls, parent)
    assert _new_abstract(cls, parent) == set(methods)
    for name, parameters in methods.items():
        method = getattr(cls, name)
        assert list(inspect.signature(method).parameters) == parameters, name
        assert method.__doc__ and len(method.__doc__) > 40, name


def test_the_callbacks_gain_notify_1_3_and_the_fenced_callback_its_one_method() -> None:
    for cls in (IPreparedModelCallback, IExecutionCallback):
        assert {"notify", "notify_1_2", "notify_1_3"} == set(cls.__abstractmethods__)
    assert set(IFencedExecutionCallback.__abstractmethods__) == {"get_execution_info"}
    assert list(inspect.signature(IFencedExecutionCallback.get_execution_info).parameters) == [
        "self"
    ]


def test_the_harness_callbacks_record_notify_1_3() -> None:
    prepared = PreparedModelCallback()
    prepared.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, None)
    assert prepared.wait(1.0).method == "notify_1_3"
    executed = ExecutionCallback()
    executed.notify_1_3(ErrorStatus.NONE, [], NO_TIMING)
    notification = executed.wait(1.0)
    assert (notification.method, notification.output_shapes) == ("notify_1_3", ())


def _implementation(cls: type) -> type:
    """A concrete subclass of ``cls`` whose every abstract method returns None."""
    body = {name: (lambda self, *a, **k: None) for name in cls.__abstractmethods__}
    return type(f"Some{cls.__name__}", (cls,), body)


def test_a_13_driver_is_a_12_driver_of_level_13() -> None:
    device = _implementation(IDevice_1_3)()
    prepared = _implementation(IPreparedModel_1_3)()
    assert isinstance(device, IDevice_1_2) and isinstance(prepared, IPreparedModel_1_2)
    assert device_level(device) is HalVersion.V1_3
    assert device_level(_implementation(IDevice_1_2)()) is HalVersion.V1_2
    assert [str(level) for level in LEVELS] == ["1.0", "1.1", "1.2", "1.3"]
    for name in (*DEVICE_1_3, *PREPARED_MODEL_1_3):
        if name != "allocate":  # the memory-domain mix-in's method, not a level's
            assert method_level(name) is HalVersion.V1_3, name
