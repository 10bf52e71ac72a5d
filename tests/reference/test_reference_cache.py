"""The reference driver's cache format and argument checks (reference_driver/cache.py)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from conformance.harness.caching import CacheFiles
from hal.memory import NativeHandle
from hal.types import (
    DataLocation,
    ExtensionNameAndPrefix,
    ExtensionParams,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    SymmPerChannelQuantParams,
)
from reference_driver.cache import (
    CacheArgumentError,
    CacheRejected,
    check_handle,
    check_token,
    open_sealed,
    read_all,
    seal,
    write_all,
)

KEY = bytes(range(32))
TOKEN = bytes(32)
LT = OperandLifeTime


def _model() -> tuple[Model, dict[int, np.ndarray]]:
    weights = np.array([1, -2, 3, -4], np.int8).reshape(2, 2)
    model = Model(
        operands=[
            Operand(OperandType.TENSOR_FLOAT32, [2, 2], 1, lifetime=LT.MODEL_INPUT),
            Operand(
                OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
                [2, 2],
                1,
                lifetime=LT.CONSTANT_REFERENCE,
                location=DataLocation(0, 8, 4),
                extra_params=SymmPerChannelQuantParams((0.5, 0.25), 0),
            ),
            Operand(
                OperandType.INT32, [], 1, lifetime=LT.CONSTANT_COPY, location=DataLocation(0, 0, 4)
            ),
            Operand(
                OperandType.TENSOR_FLOAT32,
                [2, 2],
                0,
                0.1,
                lifetime=LT.MODEL_OUTPUT,
                extra_params=ExtensionParams(b"\x01\x02"),
            ),
        ],
        operations=[Operation(3, [0, 1, 2], [3])],
        input_indexes=[0],
        output_indexes=[3],
        operand_values=np.int32(7).tobytes(),
        relax_computation_float32_to_float16=True,
        extension_name_to_prefix=[ExtensionNameAndPrefix("com.example", 3)],
    )
    return model, {1: weights, 2: np.array(7, np.int32)}


def test_seal_and_open_give_back_the_model_with_constants_inline() -> None:
    model, constants = _model()
    model_cache, data_cache = seal(KEY, TOKEN, model, constants, HalVersion.V1_1)
    # Constants in operand order: the per-channel weights, then the scalar.
    assert data_cache == constants[1].tobytes() + constants[2].tobytes()
    rebuilt, version = open_sealed(KEY, TOKEN, model_cache, data_cache)
    assert version == HalVersion.V1_1
    assert rebuilt.operands[1].lifetime == LT.CONSTANT_COPY
    assert rebuilt.operands[1].location == DataLocation(0, 0, 4)
    assert rebuilt.operands[2].location == DataLocation(0, 4, 4)
    assert rebuilt.operands[1].extra_params == SymmPerChannelQuantParams((0.5, 0.25), 0)
    assert rebuilt.operands[3].extra_params == ExtensionParams(b"\x01\x02")
    assert rebuilt.operands[3].scale == 0.1
    assert rebuilt.operand_values == data_cache and rebuilt.pools == []
    assert rebuilt.operations == model.operations
    assert rebuilt.relax_computation_float32_to_float16 is True
    assert rebuilt.extension_name_to_prefix == model.extension_name_to_prefix


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m, d, t: (m[:10], d, t), "model cache does not start with this driver's header"),
        (
            lambda m, d, t: (b"x" + m[1:], d, t),
            "model cache does not start with this driver's header",
        ),
        (lambda m, d, t: (m + b"\0", d, t), "model cache body has"),
        (
            lambda m, d, t: (m[:-1] + b"}", d, t) if m[-1:] != b"}" else (m[:-1] + b"]", d, t),
            "model cache was not written by this driver for this token",
        ),
        (
            lambda m, d, t: (m, d, b"\1" + t[1:]),
            "model cache was not written by this driver for this token",
        ),
        (lambda m, d, t: (m, d + b"\0", t), "data cache does not match the model cache"),
        (
            lambda m, d, t: (m, bytes([d[0] ^ 1]) + d[1:], t),
            "data cache does not match the model cache",
        ),
    ],
    ids=["short", "magic", "appended", "body_changed", "token", "data_appended", "data_flipped"],
)
def test_any_change_is_rejected(change, message: str) -> None:
    model, constants = _model()
    model_cache, data_cache, token = change(
        *seal(KEY, TOKEN, model, constants, HalVersion.V1_2), TOKEN
    )
    with pytest.raises(CacheRejected, match="^" + re.escape(message)):
        open_sealed(KEY, token, model_cache, data_cache)


def test_another_key_is_rejected() -> None:
    model, constants = _model()
    model_cache, data_cache = seal(KEY, TOKEN, model, constants, HalVersion.V1_2)
    with pytest.raises(CacheRejected, match="not written by this driver"):
        open_sealed(bytes(32), TOKEN, model_cache, data_cache)


def test_without_authentication_a_broken_body_is_still_only_rejected() -> None:
    model, constants = _model()
    model_cache, data_cache = seal(KEY, TOKEN, model, constants, HalVersion.V1_2)
    broken = model_cache[:-5] + b"xxxxx"
    with pytest.raises(CacheRejected, match=r"^model cache body is malformed: "):
        open_sealed(KEY, TOKEN, broken, data_cache, authenticate=False)


@pytest.mark.parametrize(
    ("token", "message"),
    [
        (bytes(31), "token has 31 bytes, expected 32"),
        (bytes(33), "token has 33 bytes, expected 32"),
        ("0" * 32, "token is a str, not bytes"),
    ],
)
def test_check_token(token, message: str) -> None:
    with pytest.raises(CacheArgumentError, match=f"^{message}$"):
        check_token(token)
    assert check_token(bytearray(32)) == bytes(32)


def test_check_handle_messages(tmp_path) -> None:
    with CacheFiles() as files:
        fd = files.open("model")
        assert check_handle(NativeHandle([fd]), "model_cache", writing=True) == fd

        def refused(handle, writing: bool, message: str) -> None:
            with pytest.raises(CacheArgumentError, match=f"^{message}$"):
                check_handle(handle, "model_cache", writing=writing)

        refused(None, True, "model_cache is a NoneType, not a NativeHandle")
        refused(NativeHandle([]), True, "model_cache holds 0 file descriptors, expected 1")
        refused(NativeHandle([fd, fd]), True, "model_cache holds 2 file descriptors, expected 1")
        refused(NativeHandle(["3"]), True, "model_cache file descriptor '3' is not an int")
        read_only = files.open("model", os.O_RDONLY)
        refused(
            NativeHandle([read_only]),
            True,
            f"model_cache file descriptor {read_only} is not open for writing",
        )
        write_only = files.open("model", os.O_WRONLY)
        refused(
            NativeHandle([write_only]),
            False,
            f"model_cache file descriptor {write_only} is not open for reading",
        )
        os.lseek(fd, 3, os.SEEK_SET)
        refused(NativeHandle([fd]), True, "model_cache file offset is 3, expected 0")
        files.write("data", b"abc")
        full = files.open("data")
        refused(
            NativeHandle([full]), True, "model_cache file holds 3 bytes, expected an empty file"
        )
        assert check_handle(NativeHandle([full]), "model_cache", writing=False) == full
        reader, writer = os.pipe()
        try:
            refused(
                NativeHandle([reader]),
                False,
                f"model_cache file descriptor {reader} is not a regular file",
            )
        finally:
            os.close(reader)
            os.close(writer)
        refused(NativeHandle([reader]), False, f"model_cache file descriptor {reader} is not open")


def test_write_all_and_read_all_round_trip_large_data() -> None:
    data = os.urandom(3 << 20)
    with CacheFiles() as files:
        write_all(files.open("model"), data)
        assert read_all(files.open("model", os.O_RDONLY)) == data
