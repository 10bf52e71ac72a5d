"""Compilation caching for the reference driver: the two cache files and their seal.

``save_to_cache`` writes two files the client hands over as file descriptors:

* the **model cache** (security sensitive): a header, an authentication tag
  and a JSON body describing the model (operands, operations, inputs and
  outputs, the HAL level it was prepared at, and the length and SHA-256 of
  the data cache);
* the **data cache**: every constant operand's bytes, one after the other.

The tag is an HMAC-SHA256, under a key only the driver holds, over the
header, the 32-byte token and the body. Because the body carries the data
cache's digest, the tag covers the constants too. ``prepare_model_from_cache``
reads both files whole (once: a file changed afterwards cannot change what is
used), checks the tag with a constant-time comparison *before* parsing
anything, then checks the data cache's length and digest. Reading is bounded:
``read_model_cache`` refuses a model cache whose size or header announces a
body over ``MODEL_CACHE_LIMIT`` before reading it, and feeds the body to the
HMAC chunk by chunk as it reads, so a forged model cache is refused before the
data cache is even opened; the data cache is read with a cap (the driver's
memory budget) checked against the file's size first. So any change to
the model cache, the data cache or the token is refused with GENERAL_FAILURE;
a tampered data cache never yields wrong values or a crash here (a driver
that only authenticated the model cache could at worst compute with wrong
constants, which the HAL allows).

Argument rules (the [caching] issue's reading of the HAL text): each cache is
a handle holding exactly one open file descriptor of a regular file, at
offset 0; for saving it is empty and open for writing, for preparing it is
open for reading; the token is exactly ``BYTE_SIZE_OF_CACHE_TOKEN`` bytes.
Anything else is INVALID_ARGUMENT (``CacheArgumentError``). The driver never
keeps or closes the client's descriptors: everything is read or written before
the call returns.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import stat
from collections.abc import Mapping

import numpy as np

from hal.tensors import read_constants
from hal.types import (
    Constant,
    DataLocation,
    ExtensionNameAndPrefix,
    ExtensionParams,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    Operation,
    Subgraph,
    SymmPerChannelQuantParams,
)

MAGIC = b"nnhal-reference-cache\x00v1"
"""The model cache's first bytes: the format and its version."""
_TAG_SIZE = 32
_LENGTH_SIZE = 8
_HEADER_SIZE = len(MAGIC) + _TAG_SIZE + _LENGTH_SIZE
MAX_CACHE_BYTES = 1 << 32
"""Cache files larger than this are refused before they are read (``read_all``'s default
cap; the driver reads its data caches with its memory budget as the cap)."""
MODEL_CACHE_LIMIT = 64 << 20
"""Largest model cache body read (the JSON description of a model, never its weights)."""
_CHUNK = 1 << 20


class CacheArgumentError(ValueError):
    """A cache handle or token the HAL's rules forbid: INVALID_ARGUMENT."""


class CacheRejected(Exception):
    """Cache contents that are not a cache this driver wrote for this token: GENERAL_FAILURE."""


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------


def check_token(token: object) -> bytes:
    size = Constant.BYTE_SIZE_OF_CACHE_TOKEN
    if not isinstance(token, bytes | bytearray):
        raise CacheArgumentError(f"token is a {type(token).__name__}, not bytes")
    if len(token) != size:
        raise CacheArgumentError(f"token has {len(token)} bytes, expected {size}")
    return bytes(token)


def check_handle(handle: object, name: str, *, writing: bool) -> int:
    """The handle's one file descriptor, after every argument rule for it holds."""
    fds = getattr(handle, "fds", None)
    if not isinstance(fds, list | tuple):
        raise CacheArgumentError(f"{name} is a {type(handle).__name__}, not a NativeHandle")
    if len(fds) != 1:
        raise CacheArgumentError(f"{name} holds {len(fds)} file descriptors, expected 1")
    fd = fds[0]
    if not isinstance(fd, int) or isinstance(fd, bool):
        raise CacheArgumentError(f"{name} file descriptor {fd!r} is not an int")
    if fd < 0:
        raise CacheArgumentError(f"{name} file descriptor {fd} is negative")
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        info = os.fstat(fd)
    except (OSError, OverflowError, ValueError):
        raise CacheArgumentError(f"{name} file descriptor {fd} is not open") from None
    if not stat.S_ISREG(info.st_mode):
        raise CacheArgumentError(f"{name} file descriptor {fd} is not a regular file")
    mode = flags & os.O_ACCMODE
    if writing and mode == os.O_RDONLY:
        raise CacheArgumentError(f"{name} file descriptor {fd} is not open for writing")
    if not writing and mode == os.O_WRONLY:
        raise CacheArgumentError(f"{name} file descriptor {fd} is not open for reading")
    offset = os.lseek(fd, 0, os.SEEK_CUR)
    if offset != 0:
        raise CacheArgumentError(f"{name} file offset is {offset}, expected 0")
    if writing and info.st_size != 0:
        raise CacheArgumentError(f"{name} file holds {info.st_size} bytes, expected an empty file")
    return fd


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    offset = 0
    while offset < len(view):
        offset += os.pwrite(fd, view[offset:], offset)


def read_all(fd: int, limit: int = MAX_CACHE_BYTES) -> bytes:
    """The whole file, read in chunks; CacheRejected (before reading anything) when it holds
    more than ``limit`` bytes, or as soon as it has grown past ``limit`` while read."""
    size = os.fstat(fd).st_size
    if size > limit:
        raise CacheRejected(f"cache file of {size} bytes is larger than {limit}")
    chunks: list[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, min(max(size - offset, 1 << 16), _CHUNK), offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)
        if offset > limit:
            raise CacheRejected(f"cache file grew beyond {limit} bytes while read")


def read_model_cache(
    fd: int,
    key: bytes,
    token: bytes,
    *,
    limit: int = MODEL_CACHE_LIMIT,
    authenticate: bool = True,
) -> bytes:
    """The model cache's bytes, read once with its tag checked as they arrive.

    CacheRejected, before the body is read, when the file's size or the header's
    length is over ``limit`` (plus the header) or the header is not this driver's;
    while reading, as soon as the body runs past its announced length; and at the
    end when it is shorter or (``authenticate``) the HMAC, fed chunk by chunk,
    does not match the tag.
    """
    size = os.fstat(fd).st_size
    if size > _HEADER_SIZE + limit:
        raise CacheRejected(f"model cache of {size} bytes is larger than {_HEADER_SIZE + limit}")
    header = os.pread(fd, _HEADER_SIZE, 0)
    if len(header) < _HEADER_SIZE or not header.startswith(MAGIC):
        raise CacheRejected("model cache does not start with this driver's header")
    length = int.from_bytes(header[len(MAGIC) + _TAG_SIZE :], "little")
    if length > limit:
        raise CacheRejected(f"model cache header announces {length} bytes, over {limit}")
    mac = hmac.new(key, MAGIC + token, hashlib.sha256)
    chunks: list[bytes] = [header]
    got = 0
    while True:
        chunk = os.pread(fd, min(length + 1 - got, _CHUNK), _HEADER_SIZE + got)
        if not chunk:
            break
        got += len(chunk)
        if got > length:
            raise CacheRejected(f"model cache body is longer than the {length} bytes announced")
        mac.update(chunk)
        chunks.append(chunk)
    if got != length:
        raise CacheRejected(f"model cache body has {got} bytes, header says {length}")
    tag = header[len(MAGIC) : len(MAGIC) + _TAG_SIZE]
    if authenticate and not hmac.compare_digest(tag, mac.digest()):
        raise CacheRejected("model cache was not written by this driver for this token")
    return b"".join(chunks)


# ---------------------------------------------------------------------------
# Sealing and opening
# ---------------------------------------------------------------------------


def _tag(key: bytes, token: bytes, body: bytes) -> bytes:
    return hmac.new(key, MAGIC + token + body, hashlib.sha256).digest()


def seal(
    key: bytes,
    token: bytes,
    model: Model,
    constants: Mapping[int, np.ndarray],
    version: HalVersion,
) -> tuple[bytes, bytes]:
    """The (model cache, data cache) contents for a prepared model."""
    data_parts: list[bytes] = []
    operands = _sealed_operands(model.operands, constants, data_parts)
    referenced = [
        {
            "operands": _sealed_operands(g.operands, read_constants(model, g), data_parts),
            "operations": _operations(g.operations),
            "inputs": list(g.input_indexes),
            "outputs": list(g.output_indexes),
        }
        for g in model.referenced
    ]
    data = b"".join(data_parts)
    body = json.dumps(
        {
            "version": int(version),
            "data_length": len(data),
            "data_sha256": hashlib.sha256(data).hexdigest(),
            "operands": operands,
            "operations": _operations(model.operations),
            "inputs": list(model.input_indexes),
            "outputs": list(model.output_indexes),
            "relaxed": bool(model.relax_computation_float32_to_float16),
            "extensions": [[e.name, e.prefix] for e in model.extension_name_to_prefix],
            "referenced": referenced,
        },
        separators=(",", ":"),
    ).encode()
    header = MAGIC + _tag(key, token, body) + len(body).to_bytes(_LENGTH_SIZE, "little")
    return header + body, data


def _sealed_operands(
    operands: list[Operand], constants: Mapping[int, np.ndarray], data_parts: list[bytes]
) -> list[dict]:
    """Each operand described; a constant's value appended to ``data_parts`` (the data
    cache) and the operand made a CONSTANT_COPY at its offset there."""
    described_all = []
    for index, operand in enumerate(operands):
        described = _describe_operand(operand)
        if index in constants:
            raw = np.ascontiguousarray(constants[index]).tobytes()
            offset = sum(len(part) for part in data_parts)
            described["lifetime"] = int(OperandLifeTime.CONSTANT_COPY)
            described["location"] = [0, offset, len(raw)]
            data_parts.append(raw)
        described_all.append(described)
    return described_all


def _operations(operations: list[Operation]) -> list:
    return [[int(op.type), list(op.inputs), list(op.outputs)] for op in operations]


def open_sealed(
    key: bytes, token: bytes, model_cache: bytes, data_cache: bytes, *, authenticate: bool = True
) -> tuple[Model, HalVersion]:
    """The model a sealed cache describes; ``CacheRejected`` unless it is intact and ours.

    ``authenticate=False`` exists only so tests can build a driver that trusts
    its model cache blindly and prove the suite catches it.
    """
    if len(model_cache) < _HEADER_SIZE or not model_cache.startswith(MAGIC):
        raise CacheRejected("model cache does not start with this driver's header")
    tag = model_cache[len(MAGIC) : len(MAGIC) + _TAG_SIZE]
    length = int.from_bytes(model_cache[len(MAGIC) + _TAG_SIZE : _HEADER_SIZE], "little")
    body = model_cache[_HEADER_SIZE:]
    if length != len(body):
        raise CacheRejected(f"model cache body has {len(body)} bytes, header says {length}")
    if authenticate and not hmac.compare_digest(tag, _tag(key, token, body)):
        raise CacheRejected("model cache was not written by this driver for this token")
    try:
        facts = json.loads(body)
        if authenticate and (
            facts["data_length"] != len(data_cache)
            or facts["data_sha256"] != hashlib.sha256(data_cache).hexdigest()
        ):
            raise CacheRejected("data cache does not match the model cache")
        return _model(facts, data_cache), HalVersion(facts["version"])
    except CacheRejected:
        raise
    except Exception as error:  # a trusted-but-broken body (authenticate=False only)
        raise CacheRejected(f"model cache body is malformed: {error}") from None


def _describe_operand(operand: Operand) -> dict:
    extra = operand.extra_params
    if isinstance(extra, SymmPerChannelQuantParams):
        extra_json: object = {"scales": list(extra.scales), "channel_dim": extra.channel_dim}
    elif isinstance(extra, ExtensionParams):
        extra_json = {"extension": extra.data.hex()}
    else:
        extra_json = None
    location = operand.location
    return {
        "type": int(operand.type),
        "dimensions": list(operand.dimensions),
        "consumers": operand.number_of_consumers,
        "scale": operand.scale,
        "zero_point": operand.zero_point,
        "lifetime": int(operand.lifetime),
        "location": [location.pool_index, location.offset, location.length],
        "extra": extra_json,
    }


def _operand(facts: dict) -> Operand:
    extra = facts["extra"]
    if extra is None:
        extra_params = None
    elif "extension" in extra:
        extra_params = ExtensionParams(bytes.fromhex(extra["extension"]))
    else:
        extra_params = SymmPerChannelQuantParams(tuple(extra["scales"]), extra["channel_dim"])
    return Operand(
        type=facts["type"],
        dimensions=list(facts["dimensions"]),
        number_of_consumers=facts["consumers"],
        scale=facts["scale"],
        zero_point=facts["zero_point"],
        lifetime=facts["lifetime"],
        location=DataLocation(*facts["location"]),
        extra_params=extra_params,
    )


def _model(facts: dict, data: bytes) -> Model:
    return Model(
        operands=[_operand(o) for o in facts["operands"]],
        operations=[Operation(t, list(i), list(o)) for t, i, o in facts["operations"]],
        referenced=[
            Subgraph(
                [_operand(o) for o in g["operands"]],
                [Operation(t, list(i), list(o)) for t, i, o in g["operations"]],
                list(g["inputs"]),
                list(g["outputs"]),
            )
            for g in facts.get("referenced", [])
        ],
        input_indexes=list(facts["inputs"]),
        output_indexes=list(facts["outputs"]),
        operand_values=data,
        pools=[],
        relax_computation_float32_to_float16=bool(facts["relaxed"]),
        extension_name_to_prefix=[ExtensionNameAndPrefix(n, p) for n, p in facts["extensions"]],
    )
