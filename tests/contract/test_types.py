"""Unit tests for ``hal.types``: enum codes, HAL versions and the operand helpers.

The expected values are written out here from the HAL 1.2 ``types.hal`` and
the HAL 1.2 operand-type definitions (sizes, signedness), never derived from
``hal.types`` itself, so a wrong code or size in the module fails a test.
"""

from __future__ import annotations

import numpy as np
import pytest

from hal.types import (
    Constant,
    ErrorStatus,
    HalVersion,
    Operand,
    OperandType,
    OperandTypeRange,
    OperationType,
    OperationTypeRange,
    describe_type,
    element_byte_size,
    extension_prefix,
    extension_type_within,
    is_extension_type,
    is_fully_specified,
    is_scalar_type,
    is_tensor_type,
    make_extension_type,
    numpy_dtype,
    operand_byte_size,
    operand_type_introduced,
)

# code, bytes per element, HAL version that introduced it, numpy dtype (None: none)
OPERAND_TYPE_TABLE = {
    "FLOAT32": (0, 4, "1.0", "<f4"),
    "INT32": (1, 4, "1.0", "<i4"),
    "UINT32": (2, 4, "1.0", "<u4"),
    "TENSOR_FLOAT32": (3, 4, "1.0", "<f4"),
    "TENSOR_INT32": (4, 4, "1.0", "<i4"),
    "TENSOR_QUANT8_ASYMM": (5, 1, "1.0", "u1"),
    "BOOL": (6, 1, "1.2", "u1"),
    "TENSOR_QUANT16_SYMM": (7, 2, "1.2", "<i2"),
    "TENSOR_FLOAT16": (8, 2, "1.2", "<f2"),
    "TENSOR_BOOL8": (9, 1, "1.2", "u1"),
    "FLOAT16": (10, 2, "1.2", "<f2"),
    "TENSOR_QUANT8_SYMM_PER_CHANNEL": (11, 1, "1.2", "i1"),
    "TENSOR_QUANT16_ASYMM": (12, 2, "1.2", "<u2"),
    "TENSOR_QUANT8_SYMM": (13, 1, "1.2", "i1"),
    "OEM": (10000, 0, "1.0", None),
    "TENSOR_OEM_BYTE": (10001, 1, "1.0", "u1"),
}

# HAL 1.3's types (tests/contract/test_hal13_contract.py checks them): not yet of a level.
HAL_1_3_TYPES = {"TENSOR_QUANT8_ASYMM_SIGNED": 14, "SUBGRAPH": 15}

SCALAR_TYPES = {"FLOAT32", "INT32", "UINT32", "BOOL", "FLOAT16", "OEM"}
TENSOR_TYPES = set(OPERAND_TYPE_TABLE) - SCALAR_TYPES

# ---------------------------------------------------------------------------
# Enum codes
# ---------------------------------------------------------------------------


def test_error_status_codes():
    assert {s.name: s.value for s in ErrorStatus} == {
        "NONE": 0,
        "DEVICE_UNAVAILABLE": 1,
        "GENERAL_FAILURE": 2,
        "OUTPUT_INSUFFICIENT_SIZE": 3,
        "INVALID_ARGUMENT": 4,
        "MISSED_DEADLINE_TRANSIENT": 5,
        "MISSED_DEADLINE_PERSISTENT": 6,
        "RESOURCE_EXHAUSTED_TRANSIENT": 7,
        "RESOURCE_EXHAUSTED_PERSISTENT": 8,
    }


def test_operand_type_codes_match_the_hal():
    assert {t.name: t.value for t in OperandType} == {
        **{name: row[0] for name, row in OPERAND_TYPE_TABLE.items()},
        **HAL_1_3_TYPES,
    }


def test_operand_type_range_bounds():
    assert OperandTypeRange.BASE_MIN == 0
    assert OperandTypeRange.FUNDAMENTAL_MIN == 0
    assert OperandTypeRange.FUNDAMENTAL_MAX == 13
    assert OperandTypeRange.OEM_MIN == 10000
    assert OperandTypeRange.OEM_MAX == 10001
    assert OperandTypeRange.BASE_MAX == 0xFFFF
    fundamental = [t for t in OperandType if t < OperandTypeRange.OEM_MIN]
    assert max(fundamental) == OperandTypeRange.FUNDAMENTAL_MAX_1_3 == 15
    # FUNDAMENTAL_MAX stays 1.2's bound (the suite draws invalid types above it).
    assert max(t for t in fundamental if t.name not in HAL_1_3_TYPES) == 13


def test_operation_type_has_102_fundamental_members_and_oem():
    fundamental = sorted(op.value for op in OperationType if op != OperationType.OEM_OPERATION)
    assert fundamental == list(range(102))
    assert OperationType.OEM_OPERATION == 10000
    assert len(OperationType) == 103
    # FUNDAMENTAL_MAX stays 1.2's bound (the suite draws invalid operation types above it).
    assert OperationTypeRange.FUNDAMENTAL_MAX == 94
    assert OperationTypeRange.FUNDAMENTAL_MAX_1_3 == max(fundamental) == 101


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ADD", 0),
        ("CONV_2D", 3),
        ("FULLY_CONNECTED", 9),
        ("LSTM", 16),
        ("RELU6", 21),
        ("TANH", 28),
        ("BATCH_TO_SPACE_ND", 29),
        ("TRANSPOSE", 37),
        ("ABS", 38),
        ("DETECTION_POSTPROCESSING", 47),
        ("EQUAL", 48),
        ("GROUPED_CONV_2D", 55),
        ("LOG_SOFTMAX", 64),
        ("QUANTIZED_16BIT_LSTM", 73),
        ("REDUCE_SUM", 80),
        ("TOPK_V2", 90),
        ("UNIDIRECTIONAL_SEQUENCE_RNN", 93),
        ("RESIZE_NEAREST_NEIGHBOR", 94),
        ("QUANTIZED_LSTM", 95),
        ("IF", 96),
        ("WHILE", 97),
        ("ELU", 98),
        ("HARD_SWISH", 99),
        ("FILL", 100),
        ("RANK", 101),
        ("OEM_OPERATION", 10000),
    ],
)
def test_operation_type_spot_checks(name, code):
    assert OperationType[name] == code


def test_operation_type_range_bounds():
    assert OperationTypeRange.BASE_MIN == 0
    assert OperationTypeRange.FUNDAMENTAL_MIN == 0
    assert OperationTypeRange.FUNDAMENTAL_MAX == 94
    assert OperationTypeRange.FUNDAMENTAL_MAX_1_3 == 101
    assert OperationTypeRange.OEM_MIN == 10000
    assert OperationTypeRange.OEM_MAX == 10000
    assert OperationTypeRange.BASE_MAX == 0xFFFF


def test_constants():
    assert Constant.MAX_NUMBER_OF_CACHE_FILES == 32
    assert Constant.BYTE_SIZE_OF_CACHE_TOKEN == 32


# ---------------------------------------------------------------------------
# HalVersion
# ---------------------------------------------------------------------------


def test_hal_version_ordering():
    assert HalVersion.V1_0 < HalVersion.V1_1 < HalVersion.V1_2 < HalVersion.V1_3
    assert max(HalVersion) is HalVersion.V1_3
    assert sorted([HalVersion.V1_2, HalVersion.V1_3, HalVersion.V1_0, HalVersion.V1_1]) == [
        HalVersion.V1_0,
        HalVersion.V1_1,
        HalVersion.V1_2,
        HalVersion.V1_3,
    ]


def test_hal_version_str():
    assert [str(v) for v in HalVersion] == ["1.0", "1.1", "1.2", "1.3"]
    assert f"{HalVersion.V1_1}" == "1.1"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.0", HalVersion.V1_0),
        ("1.1", HalVersion.V1_1),
        ("1.2", HalVersion.V1_2),
        ("V1_2", HalVersion.V1_2),
        ("v1_1", HalVersion.V1_1),
        ("10", HalVersion.V1_0),
        ("12", HalVersion.V1_2),
        (" 1.2\n", HalVersion.V1_2),
    ],
)
def test_hal_version_parse(text, expected):
    assert HalVersion.parse(text) is expected


@pytest.mark.parametrize("text", ["1.4", "V1_4", "2", "", "one.two"])
def test_hal_version_parse_unknown(text):
    with pytest.raises(ValueError) as info:
        HalVersion.parse(text)
    assert str(info.value) == f"unknown HAL version {text!r} (known: 1.0, 1.1, 1.2, 1.3)"


def test_hal_version_parse_round_trips_str():
    for version in HalVersion:
        assert HalVersion.parse(str(version)) is version


# ---------------------------------------------------------------------------
# Sizes and dtypes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(OPERAND_TYPE_TABLE))
def test_element_byte_size(name):
    code, size, _, _ = OPERAND_TYPE_TABLE[name]
    assert element_byte_size(code) == size
    assert element_byte_size(OperandType[name]) == size


@pytest.mark.parametrize("name", sorted(OPERAND_TYPE_TABLE))
def test_numpy_dtype(name):
    code, size, _, dtype = OPERAND_TYPE_TABLE[name]
    if dtype is None:
        with pytest.raises(ValueError) as info:
            numpy_dtype(code)
        assert str(info.value) == f"no numpy dtype for operand type {code}"
        return
    got = numpy_dtype(code)
    assert got == np.dtype(dtype)
    assert got.itemsize == size == element_byte_size(code)
    # Operand data is little-endian on the wire whatever the host is.
    assert got.newbyteorder("<") == got


@pytest.mark.parametrize("value", [16, 99, 9999, 10002, 0xFFFF, make_extension_type(1, 0), -1])
def test_unknown_type_has_no_size_or_dtype(value):
    with pytest.raises(ValueError) as info:
        element_byte_size(value)
    assert str(info.value) == f"no element size for operand type {value}"
    with pytest.raises(ValueError) as info:
        numpy_dtype(value)
    assert str(info.value) == f"no numpy dtype for operand type {value}"


@pytest.mark.parametrize(
    ("type_", "dimensions", "expected"),
    [
        (OperandType.FLOAT32, [], 4),
        (OperandType.INT32, [], 4),
        (OperandType.BOOL, [], 1),
        (OperandType.FLOAT16, [], 2),
        (OperandType.OEM, [], 0),
        (OperandType.TENSOR_FLOAT32, [2, 3], 24),
        (OperandType.TENSOR_FLOAT16, [2, 3, 5], 60),
        (OperandType.TENSOR_QUANT8_ASYMM, [7], 7),
        (OperandType.TENSOR_QUANT16_ASYMM, [1, 4], 8),
        (OperandType.TENSOR_INT32, [3, 0, 2], 0),
        (OperandType.TENSOR_OEM_BYTE, [10], 10),
        # Unknown rank: the size is not known, reported as 0.
        (OperandType.TENSOR_FLOAT32, [], 0),
        (OperandType.TENSOR_QUANT8_SYMM, [], 0),
        (OperandType.TENSOR_BOOL8, [], 0),
    ],
)
def test_operand_byte_size(type_, dimensions, expected):
    assert operand_byte_size(type_, dimensions) == expected
    assert operand_byte_size(type_, tuple(dimensions)) == expected


@pytest.mark.parametrize(
    ("type_", "dimensions", "expected"),
    [
        (OperandType.FLOAT32, [], True),
        (OperandType.INT32, [], True),
        (OperandType.TENSOR_FLOAT32, [1, 2, 3], True),
        (OperandType.TENSOR_FLOAT32, [], False),
        (OperandType.TENSOR_FLOAT32, [1, 0, 3], False),
        (OperandType.TENSOR_INT32, [0], False),
        (OperandType.TENSOR_QUANT8_ASYMM, [4], True),
    ],
)
def test_is_fully_specified(type_, dimensions, expected):
    assert is_fully_specified(Operand(type=type_, dimensions=dimensions)) is expected


@pytest.mark.parametrize("name", sorted(OPERAND_TYPE_TABLE))
def test_scalar_or_tensor(name):
    code = OPERAND_TYPE_TABLE[name][0]
    assert is_scalar_type(code) is (name in SCALAR_TYPES)
    assert is_tensor_type(code) is (name in TENSOR_TYPES)


# ---------------------------------------------------------------------------
# Extension types
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "within", "encoded"),
    [
        (1, 0, 0x0001_0000),
        (1, 5, 0x0001_0005),
        (0x1234, 0xABCD, 0x1234_ABCD),
        (0xFFFF, 0xFFFF, 0xFFFF_FFFF),
    ],
)
def test_extension_type_round_trip(prefix, within, encoded):
    value = make_extension_type(prefix, within)
    assert value == encoded
    assert is_extension_type(value)
    assert extension_prefix(value) == prefix
    assert extension_type_within(value) == within


@pytest.mark.parametrize("value", [0, 13, 10000, 10001, 0xFFFF])
def test_base_values_are_not_extension_types(value):
    assert not is_extension_type(value)


def test_extension_boundary():
    assert not is_extension_type(OperandTypeRange.BASE_MAX)
    assert is_extension_type(OperandTypeRange.BASE_MAX + 1)


# ---------------------------------------------------------------------------
# describe_type and operand_type_introduced
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(OPERAND_TYPE_TABLE))
def test_describe_known_type(name):
    assert describe_type(OPERAND_TYPE_TABLE[name][0]) == name


def test_describe_extension_type():
    assert describe_type(make_extension_type(3, 7)) == "extension type 0x30007 (prefix 3, type 7)"
    assert describe_type(0x1234_ABCD) == "extension type 0x1234abcd (prefix 4660, type 43981)"


@pytest.mark.parametrize("value", [16, 9999, 10002, 0xFFFF, -1])
def test_describe_unknown_type(value):
    assert describe_type(value) == f"unknown operand type {value}"


@pytest.mark.parametrize("name", sorted(OPERAND_TYPE_TABLE))
def test_operand_type_introduced(name):
    code, _, since, _ = OPERAND_TYPE_TABLE[name]
    assert operand_type_introduced(code) is HalVersion.parse(since)


def test_operand_type_introduced_split():
    v1_0 = {t.name for t in OperandType if operand_type_introduced(t) is HalVersion.V1_0}
    v1_2 = {t.name for t in OperandType if operand_type_introduced(t) is HalVersion.V1_2}
    assert v1_0 == {
        "FLOAT32",
        "INT32",
        "UINT32",
        "TENSOR_FLOAT32",
        "TENSOR_INT32",
        "TENSOR_QUANT8_ASYMM",
        "OEM",
        "TENSOR_OEM_BYTE",
    }
    assert v1_2 == set(OPERAND_TYPE_TABLE) - v1_0
    # No operand type arrived in 1.1.
    assert not any(operand_type_introduced(t) is HalVersion.V1_1 for t in OperandType)


@pytest.mark.parametrize("value", [16, 9999, 10002, make_extension_type(1, 0), -1])
def test_operand_type_introduced_unknown(value):
    assert operand_type_introduced(value) is None
