"""Basic device tests: status, identity, capabilities, supported operations, preparation.

The counterpart of VTS ``BasicTests`` (docs/vts-parity.md 2.2), run at every
HAL level the driver claims, plus the checks VTS leaves out (finite values,
one bool per operation, unique operand types in the capabilities, exactly one
notify through the method of the driver's level).
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter

import pytest

from conformance.harness import items
from conformance.harness.calls import (
    capabilities,
    prepare,
    refused_problems,
    status_and_value,
    supported_operations,
)
from conformance.harness.marks import level_marks
from conformance.harness.models import binary_model, chain_model
from hal.levels import LEVELS as HAL_LEVELS
from hal.levels import level as level_of
from hal.show import show, show_text, show_type
from hal.types import (
    Capabilities_1_2,
    DeviceStatus,
    DeviceType,
    ErrorStatus,
    ExecutionPreference,
    Extension,
    HalVersion,
    Model,
    Operand,
    OperandPerformance,
    OperandType,
    OperandTypeInformation,
    OperandTypeRange,
    Operation,
    OperationType,
    PerformanceInfo,
)

LEVELS = [
    pytest.param(r.version, id=r.spec_folder, marks=level_marks(r.version)) for r in HAL_LEVELS
]
"""Every HAL level; a test taking ``level`` runs once per level up to the tested one."""
_EXTENSION_NAME = re.compile(r"^[a-z0-9_.]*\.[a-z0-9_.]*$")
MAX_ENTRIES = 1 << 16
"""Most entries a list in the driver's answers may have (one per 16-bit operand type)."""
MAX_NAME = 1024
"""Longest version string or extension name accepted."""


def _bounded_list(value: object, what: str, types: type | tuple[type, ...]) -> list | tuple:
    """``value`` if it is a list or tuple of at most MAX_ENTRIES entries of exactly
    ``types``; fails the test, naming ``what``, otherwise."""
    types = types if type(types) is tuple else (types,)
    assert type(value) is list or type(value) is tuple, f"{what} is {show(value)}, not a list"
    assert len(value) <= MAX_ENTRIES, f"{what} has {len(value)} entries, more than {MAX_ENTRIES}"
    for k, entry in enumerate(value):
        assert type(entry) in types, f"{what}[{k}] is {show(entry)}, not a {types[0].__name__}"
    return value


def _gate(version: HalVersion, hal_level: HalVersion) -> HalVersion:
    if version > hal_level:
        pytest.skip(f"the driver is tested at HAL {hal_level}")
    return version


@pytest.fixture(params=LEVELS)
def level(request: pytest.FixtureRequest, hal_level: HalVersion) -> HalVersion:
    """Each HAL level up to the one under test."""
    return _gate(request.param, hal_level)


@pytest.fixture(params=LEVELS[1:])
def preference_level(request: pytest.FixtureRequest, hal_level: HalVersion) -> HalVersion:
    """Each level from 1.1 (the first whose prepare takes an execution preference)."""
    return _gate(request.param, hal_level)


def _check_performance(name: str, info: object) -> None:
    assert type(info) is PerformanceInfo, f"{name} is a {show_type(info)}"
    for field in ("exec_time", "power_usage"):
        value = getattr(info, field)
        assert type(value) in (int, float), f"{name}.{field} is {show(value)}, not a number"
        assert math.isfinite(value) and value > 0, (
            f"{name}.{field} is {value}, must be finite and > 0"
        )


@pytest.mark.tier("parity")
def test_status(device: object) -> None:
    status = device.get_status()
    known = type(status) is DeviceStatus or type(status) is int
    assert known and status == DeviceStatus.AVAILABLE, (
        f"get_status() returned {show(status)}, expected AVAILABLE"
    )


@pytest.mark.tier("parity")
def test_capabilities(device: object, level: HalVersion) -> None:
    status, caps = capabilities(device, level)
    assert status == ErrorStatus.NONE, f"status {status.name}"
    expected = level_of(level).capabilities_type
    assert type(caps) is expected, f"got a {show_type(caps)}, expected {expected.__name__}"
    if level >= HalVersion.V1_2:  # performance per operand type
        _check_performance(
            "relaxed_float32_to_float16_performance_scalar",
            caps.relaxed_float32_to_float16_performance_scalar,
        )
        _check_performance(
            "relaxed_float32_to_float16_performance_tensor",
            caps.relaxed_float32_to_float16_performance_tensor,
        )
        entries = _bounded_list(caps.operand_performance, "operand_performance", OperandPerformance)
        for k, entry in enumerate(entries):
            assert type(entry.type) in (int, OperandType), (
                f"operand_performance[{k}].type is {show(entry.type)}, not an operand type"
            )
            _check_performance(f"operand_performance[type={entry.type}].info", entry.info)
        types = [entry.type for entry in entries]
        assert types == sorted(types), f"operand_performance is not sorted by type: {show(types)}"
        if level >= HalVersion.V1_3:  # control flow; a subgraph reference has no figures
            _check_performance("if_performance", caps.if_performance)
            _check_performance("while_performance", caps.while_performance)
            assert OperandType.SUBGRAPH not in types, (
                "operand_performance has an entry for SUBGRAPH, which has no performance"
            )
        return
    _check_performance("float32_performance", caps.float32_performance)
    _check_performance("quantized8_performance", caps.quantized8_performance)
    if level == HalVersion.V1_1:  # the one level with a single relaxed figure
        _check_performance(
            "relaxed_float32_to_float16_performance", caps.relaxed_float32_to_float16_performance
        )


@pytest.mark.tier("strict")
@pytest.mark.hal_level("1.2")
def test_capabilities_operand_types_unique(device: object) -> None:
    _, caps = capabilities(device, HalVersion.V1_2)
    assert type(caps) is Capabilities_1_2, f"got a {show_type(caps)}, expected Capabilities_1_2"
    entries = _bounded_list(caps.operand_performance, "operand_performance", OperandPerformance)
    types = [entry.type for entry in entries]
    for t in types:
        assert type(t) in (int, OperandType), (
            f"operand_performance lists type {show(t)}, not an operand type"
        )
    duplicates = sorted(t for t, n in Counter(types).items() if n > 1)
    assert not duplicates, f"operand_performance lists types {show(duplicates)} more than once"


@pytest.mark.tier("parity")
@pytest.mark.hal_level("1.2")
def test_version_string(device: object) -> None:
    status, version = status_and_value(device, "get_version_string")
    assert status == ErrorStatus.NONE, f"status {status.name}"
    assert type(version) is str and 0 < len(version) <= MAX_NAME, (
        f"version string is {show(version)}; expected 1 to {MAX_NAME} characters"
    )


@pytest.mark.tier("parity")
@pytest.mark.hal_level("1.2")
def test_type(device: object) -> None:
    status, device_type = status_and_value(device, "get_type")
    assert status == ErrorStatus.NONE, f"status {status.name}"
    assert type(device_type) is DeviceType or (
        type(device_type) is int and device_type in {int(t) for t in DeviceType}
    ), f"get_type returned {show(device_type)}"


@pytest.mark.tier("parity")
@pytest.mark.hal_level("1.2")
def test_supported_extensions(device: object) -> None:
    status, extensions = status_and_value(device, "get_supported_extensions")
    assert status == ErrorStatus.NONE, f"status {status.name}"
    _bounded_list(extensions, "the supported extensions", Extension)
    for extension in extensions:
        name = extension.name
        assert type(name) is str and len(name) <= MAX_NAME and _EXTENSION_NAME.match(name), (
            f"extension name {show(name)} must be a string of at most {MAX_NAME} characters, "
            "use only [a-z0-9_.] and contain a '.'"
        )


@pytest.mark.tier("strict")
@pytest.mark.hal_level("1.2")
def test_supported_extensions_operand_types(device: object) -> None:
    _, extensions = status_and_value(device, "get_supported_extensions")
    _bounded_list(extensions, "the supported extensions", Extension)
    names = [extension.name for extension in extensions]
    for name in names:
        assert type(name) is str, f"extension name {show(name)} is not a string"
    assert len(names) == len(set(names)), f"extension names repeat: {show(names)}"
    for extension in extensions:
        name = show_text(extension.name)
        infos = _bounded_list(
            extension.operand_types, f"{name}: operand types", OperandTypeInformation
        )
        for info in infos:
            for field in ("type", "byte_size"):
                value = getattr(info, field)
                assert type(value) is int, (
                    f"{name}: operand type {field} {show(value)} is not an int"
                )
        types = [info.type for info in infos]
        assert len(types) == len(set(types)), f"{name}: operand types repeat: {show(types)}"
        for info in infos:
            assert 0 <= info.type <= 0xFFFF, f"{name}: type {show(info.type)} exceeds 16 bits"
            assert info.byte_size >= 0, f"{name}: type {info.type} byte size {info.byte_size}"


@pytest.mark.tier("parity")
@pytest.mark.hal_level("1.2")
def test_caching_supported_answers(device: object) -> None:
    status, supported = status_and_value(device, "is_caching_supported")
    assert status == ErrorStatus.NONE, f"status {status.name}"
    assert type(supported) is bool, f"is_caching_supported returned {show(supported)}, not a bool"


@pytest.mark.tier("parity")
@pytest.mark.parametrize("model_name", ["add", "chain3"])
def test_supported_operations_valid_model(
    device: object, level: HalVersion, model_name: str
) -> None:
    model = binary_model() if model_name == "add" else chain_model(3)
    status, answers = supported_operations(device, model, level)
    assert status == ErrorStatus.NONE, f"status {status.name} for a valid model"
    # supported_operations checks a NONE answer: exactly one bool per operation.
    assert type(answers) is list and len(answers) == len(model.operations), (
        f"get_supported_operations at HAL {level} gave {len(answers)} answers for "
        f"{len(model.operations)} operations"
    )


INVALID_OPERAND_TYPE = OperandTypeRange.FUNDAMENTAL_MAX + 1
"""An operand type no HAL version defines."""


def _invalid_model() -> Model:
    model = binary_model()
    model.operands[0].type = INVALID_OPERAND_TYPE
    return model


@pytest.mark.tier("parity")
def test_supported_operations_invalid_model(device: object, level: HalVersion) -> None:
    status, _ = supported_operations(device, _invalid_model(), level)
    assert status == ErrorStatus.INVALID_ARGUMENT, (
        f"status {status.name} for a model whose operand 0 has type {INVALID_OPERAND_TYPE}"
    )


@pytest.mark.tier("parity")
def test_prepare_invalid_model(device: object, level: HalVersion, hal_timeout: float) -> None:
    preparation = prepare(device, _invalid_model(), level, hal_timeout)
    problems = refused_problems(preparation, ErrorStatus.INVALID_ARGUMENT)
    assert not problems, (
        f"{preparation.method} (HAL {level}) of a model whose operand 0 has type "
        f"{INVALID_OPERAND_TYPE}: " + "; ".join(problems)
    )


@pytest.mark.tier("parity")
@pytest.mark.parametrize("preference", [-1, 3])
def test_prepare_invalid_preference(
    device: object, preference_level: HalVersion, hal_timeout: float, preference: int
) -> None:
    preparation = prepare(device, binary_model(), preference_level, hal_timeout, preference)
    problems = refused_problems(preparation, ErrorStatus.INVALID_ARGUMENT)
    assert not problems, (
        f"{preparation.method} (HAL {preference_level}) with execution preference "
        f"{preference}: " + "; ".join(problems)
    )


@pytest.mark.tier("parity")
@pytest.mark.parametrize("preference", list(ExecutionPreference), ids=lambda p: p.name)
def test_prepare_valid_model_with_preference(
    device: object,
    preference_level: HalVersion,
    hal_timeout: float,
    preference: ExecutionPreference,
) -> None:
    _check_valid_preparation(device, preference_level, hal_timeout, preference)


@pytest.mark.tier("parity")
def test_prepare_valid_model(device: object, level: HalVersion, hal_timeout: float) -> None:
    _check_valid_preparation(device, level, hal_timeout, ExecutionPreference.FAST_SINGLE_ANSWER)


def _check_valid_preparation(
    device: object, level: HalVersion, hal_timeout: float, preference: ExecutionPreference
) -> None:
    model = binary_model()
    _, answers = supported_operations(device, copy.deepcopy(model), level)
    preparation = prepare(device, model, level, hal_timeout, preference)
    assert preparation.launch_status == ErrorStatus.NONE, (
        f"{preparation.method} launch status {preparation.launch_status.name} for a valid model"
    )
    if preparation.status != ErrorStatus.NONE:
        if not all(answers):
            items.unsupported("unsupported: the driver does not support ADD of TENSOR_FLOAT32")
        pytest.fail(
            f"{preparation.method} failed with {preparation.status.name} for a model "
            "get_supported_operations said it fully supports"
        )


def _cycle_model() -> Model:
    """Three ADDs whose first two feed each other (operand 3 = ADD(0, 4), 4 = ADD(1, 3),
    5 = ADD(4, 0)), every tensor FLOAT32 [1], the activation a model input: no order of the
    operations computes it, so it is invalid."""
    f32 = [OperandType.TENSOR_FLOAT32, [1]]
    consumers = [2, 1, 3, 1, 2, 0]
    lifetimes = [1, 1, 1, 0, 0, 2]  # MODEL_INPUT, TEMPORARY_VARIABLE, MODEL_OUTPUT
    operands = [
        Operand(*(f32 if k != 2 else [OperandType.INT32, []]), consumers[k], lifetime=life)
        for k, life in enumerate(lifetimes)
    ]
    operations = [
        Operation(OperationType.ADD, [0, 4, 2], [3]),
        Operation(OperationType.ADD, [1, 3, 2], [4]),
        Operation(OperationType.ADD, [4, 0, 2], [5]),
    ]
    return Model(operands, operations, input_indexes=[0, 1, 2], output_indexes=[5])


@pytest.mark.tier("parity")
@pytest.mark.parametrize("level", [pytest.param(HalVersion.V1_3, marks=level_marks(13))])
def test_a_model_with_a_cycle_is_refused(
    device: object, hal_level: HalVersion, hal_timeout: float, level: HalVersion
) -> None:
    """VTS 1.3's CycleTest: both calls refuse a model whose operations feed each other."""
    _gate(level, hal_level)
    model = _cycle_model()
    status, _ = supported_operations(device, model, level)
    assert status == ErrorStatus.INVALID_ARGUMENT, (
        f"{level_of(level).supported_operations} of a model with a cycle (operands 3 and 4 "
        f"computed from each other) answered {status.name}, expected INVALID_ARGUMENT"
    )
    preparation = prepare(device, model, level, hal_timeout)
    problems = []
    if preparation.launch_status == ErrorStatus.NONE:
        problems.append("launch status NONE")
    if preparation.status == ErrorStatus.NONE:
        problems.append("callback status NONE")
    if preparation.prepared_model is not None:
        problems.append("a prepared model was delivered")
    assert not problems, (
        f"{preparation.method} of a model with a cycle must fail at launch and in the "
        "callback, with no prepared model: " + "; ".join(problems)
    )
