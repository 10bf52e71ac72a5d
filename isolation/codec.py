"""The wire format of the isolation channel: a fixed schema of HAL values over msgpack.

A message is one msgpack document. Plain values travel as msgpack's own kinds
(nil, bool, integers of up to 64 bits, float64, UTF-8 strings, binary); every
other value is a msgpack array whose first element is a small integer *tag*
from a fixed table, followed by the value's parts:

* containers: ``[LIST, items...]``, ``[TUPLE, ...]``, ``[DICT, k, v, ...]``,
  ``[SET, ...]``, ``[FROZENSET, ...]``; ``[BYTEARRAY, bin]``, ``[BIGINT, text]``
  (an integer beyond 64 bits), ``[COMPLEX, re, im]``;
* HAL records: ``[RECORD_BASE + i, field values...]`` where ``i`` indexes the
  records of ``hal.types`` (plus ``hal.memory.Memory`` and
  ``hal.fmq.FmqDescriptor``) sorted by name; the fields are the dataclass's,
  in declaration order, all of them;
* HAL enums: ``[ENUM, i, value]`` (``i`` indexes the enums of ``hal.types``);
* numpy: ``[NDARRAY, dtype, shape, bin]`` and ``[NPSCALAR, dtype, bin]`` with
  the dtype from a fixed allow-list;
* things that are not data: ``[HANDLE, slots, ints]`` (a ``NativeHandle``,
  its descriptors riding on the frame as SCM_RIGHTS), ``[OBJECT, id,
  interfaces, class name]`` (an object implementing ``hal.interfaces``),
  ``[PEER, id]`` (the receiver's own object coming back), ``[OPAQUE, type
  name, text]`` (anything else: a stand-in carrying a bounded repr);
* the envelope at the top: ``Call``, ``Return``, ``Raise``, ``Release``,
  ``Hello``, each ``[tag, fields...]`` like a record.

The schema (tags, classes, field names, field types) is derived once, at
import, from the dataclass definitions. Decoding never looks a class up by a
name from the wire, never sets an attribute on an existing object and never
calls anything but the constructors of that table (``cls(*fields)`` after
checking each field's value against the field's declared type), the enums'
value lookup and numpy's ``frombuffer``. Every size is bounded (``Limits``):
the frame, each string, binary and list (checked by msgpack before it
allocates), the nesting depth, the number of values in a message, the text
of an opaque stand-in. A message that breaks a rule raises
``MalformedMessage`` naming the rule.
"""

from __future__ import annotations

import re
import types as pytypes
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum

import msgpack
import numpy as np

import hal.types as hal_types
from hal.fmq import FmqDescriptor
from hal.memory import Memory, NativeHandle

# ---------------------------------------------------------------------------
# Limits and errors
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """Bounds on one message; a message beyond any of them is refused."""

    max_frame: int = 256 << 20
    """Bytes of one frame's body (a model's constant values travel in it)."""
    max_depth: int = 64
    """Nesting of arrays (a record in a list in a tuple is depth 3)."""
    max_list: int = 1 << 20
    """Elements of one list, tuple, dict, set or record."""
    max_items: int = 1 << 22
    """Values in one message, all containers' elements together."""
    max_str: int = 1 << 20
    """Bytes of one string."""
    max_repr: int = 200
    """Characters of an opaque stand-in's text (longer texts are cut)."""


LIMITS = Limits()


class ProtocolError(Exception):
    """The other end sent something that is not a valid frame or message."""


class MalformedMessage(ProtocolError):
    """A frame's body is not a message of the schema, or breaks one of its limits."""


class EncodeError(ValueError):
    """A value cannot be sent (too deep, too many values, a descriptor count over the limit)."""


# ---------------------------------------------------------------------------
# Values that are not HAL records
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Opaque:
    """A value the other process sent that is not a HAL type: its type name and repr only."""

    type_name: str
    text: str

    def __repr__(self) -> str:
        return self.text


def bounded(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_repr(obj: object, limit: int = LIMITS.max_repr) -> str:
    """``repr(obj)`` cut to ``limit`` characters; a repr that raises is described instead."""
    try:
        text = repr(obj)
    except Exception as e:  # a driver's __repr__ may fail in any way
        text = f"<{type(obj).__qualname__} object (repr raised {type(e).__name__})>"
    if not isinstance(text, str):
        text = f"<{type(obj).__qualname__} object>"
    return bounded(text, limit)


# ---------------------------------------------------------------------------
# Envelopes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """Call ``method(*args)`` on object ``target`` of the receiver; answer ``call_id``."""

    call_id: int
    target: int
    method: str
    args: tuple


@dataclass(frozen=True)
class Return:
    call_id: int
    value: object


@dataclass(frozen=True)
class Raise:
    """The call raised: the exception's type name, message and traceback text."""

    call_id: int
    type_name: str
    message: str
    traceback: str


@dataclass(frozen=True)
class Release:
    """The sender dropped its proxies: (object id, how many times it had received it)."""

    items: list[tuple[int, int]]


@dataclass(frozen=True)
class Hello:
    """The first message of a connection (the service's greeting)."""

    value: object


ENVELOPES: tuple[type, ...] = (Call, Return, Raise, Release, Hello)

# ---------------------------------------------------------------------------
# The schema
# ---------------------------------------------------------------------------

LIST, TUPLE, DICT, SET, FROZENSET, BYTEARRAY, BIGINT, COMPLEX = range(8)
NDARRAY, NPSCALAR, HANDLE, OBJECT, PEER, OPAQUE, ENUM = range(8, 15)
ENVELOPE_BASE = 16
RECORD_BASE = 32

_INT64_MIN, _UINT64_MAX = -(1 << 63), (1 << 64) - 1
_MAX_BIGINT_DIGITS = 100
_BIGINT = re.compile(rf"-?[0-9]{{1,{_MAX_BIGINT_DIGITS}}}")
_MAX_NAME = 100
_MAX_NDIM = 32

DTYPES: frozenset[str] = frozenset(
    ["|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8"]
)
"""The numpy dtypes that may cross (as ``dtype.str``): bool, integers, floats, little-endian."""

_NUMBER = (int, float, np.integer, np.floating, np.bool_)
_INTEGER = (int, np.integer, np.bool_)


Check = Callable[[object], bool]


def _check_of(annotation: object) -> tuple[Check | None, str]:
    """A predicate for values of a field declared ``annotation`` (None: anything), and
    its description. Sequences accept a list or a tuple (drivers fill a record's
    tuple field with a list and the other way round); numbers accept numpy's."""
    if annotation is typing.Any or annotation is object:
        return None, "any value"
    if annotation is type(None):
        return (lambda v: v is None), "None"
    if annotation is bool:
        return (lambda v: isinstance(v, _INTEGER)), "bool"
    if annotation is int:
        return (lambda v: isinstance(v, _INTEGER)), "int"
    if annotation is float:
        return (lambda v: isinstance(v, _NUMBER)), "float"
    if annotation is str:
        return (lambda v: type(v) is str), "str"
    if annotation is bytes:
        return (lambda v: type(v) in (bytes, bytearray)), "bytes"
    if annotation in (list, tuple):
        return (lambda v: type(v) in (list, tuple)), annotation.__name__
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin in (typing.Union, pytypes.UnionType):
        parts = [_check_of(arm) for arm in arguments]
        if any(check is None for check, _ in parts):
            return None, "any value"
        checks = [check for check, _ in parts]
        return (lambda v: any(check(v) for check in checks)), " | ".join(d for _, d in parts)
    if origin in (list, tuple):
        if origin is tuple and arguments and arguments[-1] is not Ellipsis:
            items = [_check_of(arm) for arm in arguments]
            size = len(items)

            def fixed(v: object) -> bool:
                return (
                    type(v) in (list, tuple)
                    and len(v) == size
                    and all(c is None or c(x) for (c, _), x in zip(items, v, strict=True))
                )

            return fixed, f"{origin.__name__}[{', '.join(d for _, d in items)}]"
        item, described = _check_of(arguments[0]) if arguments else (None, "any value")
        if item is None:
            return (lambda v: type(v) in (list, tuple)), f"{origin.__name__}"
        return (
            lambda v: type(v) in (list, tuple) and all(item(x) for x in v)
        ), f"{origin.__name__}[{described}{', ...' if origin is tuple else ''}]"
    if isinstance(annotation, type):
        if annotation is NativeHandle:
            return (lambda v: isinstance(v, NativeHandle)), "NativeHandle"
        cls = annotation
        return (lambda v: type(v) is cls), cls.__name__
    raise TypeError(f"no wire check for field type {annotation!r}")


@dataclass(frozen=True)
class RecordSchema:
    tag: int
    cls: type
    names: tuple[str, ...]
    checks: tuple[Check | None, ...]
    described: tuple[str, ...]


def _record_schema(tag: int, cls: type) -> RecordSchema:
    hints = typing.get_type_hints(cls)
    names, checks, described = [], [], []
    for field in fields(cls):
        check, text = _check_of(hints[field.name])
        names.append(field.name)
        checks.append(check)
        described.append(text)
    return RecordSchema(tag, cls, tuple(names), tuple(checks), tuple(described))


def _hal_records() -> list[type]:
    found = [
        value
        for value in vars(hal_types).values()
        if isinstance(value, type)
        and value.__module__ == hal_types.__name__
        and is_dataclass(value)
    ]
    return sorted({*found, Memory, FmqDescriptor}, key=lambda cls: cls.__name__)


ENUMS: tuple[type[Enum], ...] = tuple(
    sorted(
        {
            value
            for value in vars(hal_types).values()
            if isinstance(value, type)
            and value.__module__ == hal_types.__name__
            and issubclass(value, Enum)
        },
        key=lambda cls: cls.__name__,
    )
)
"""The enums that cross as themselves, indexed by position."""
_ENUM_INDEX = {cls: i for i, cls in enumerate(ENUMS)}

RECORDS: tuple[RecordSchema, ...] = tuple(
    _record_schema(RECORD_BASE + i, cls) for i, cls in enumerate(_hal_records())
)
"""The HAL records that cross as themselves, with their tags, fields and field types."""
_ENVELOPE_SCHEMAS: tuple[RecordSchema, ...] = tuple(
    _record_schema(ENVELOPE_BASE + i, cls) for i, cls in enumerate(ENVELOPES)
)
_SCHEMA_BY_TYPE: dict[type, RecordSchema] = {s.cls: s for s in (*RECORDS, *_ENVELOPE_SCHEMAS)}
_SCHEMA_BY_TAG: dict[int, RecordSchema] = {s.tag: s for s in RECORDS}
_ENVELOPE_BY_TAG: dict[int, RecordSchema] = {s.tag: s for s in _ENVELOPE_SCHEMAS}


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


class Peer(typing.Protocol):
    """What the codec needs of a connection: remote-object references both ways."""

    def reference(self, obj: object) -> tuple | None: ...

    def resolve(self, pid: tuple) -> object: ...


_SCALARS = frozenset({type(None), bool, float, str, bytes})


class Encoder:
    """Turns one message into msgpack bytes plus the descriptors its handles carry."""

    def __init__(self, peer: Peer | None, limits: Limits = LIMITS, is_open=None) -> None:
        self._peer = peer
        self._limits = limits
        self._is_open = is_open
        self.fds: list[int] = []
        self._items = 0

    def encode(self, message: object) -> bytes:
        tree = self._value(message, 0)
        return msgpack.packb(tree, use_bin_type=True, unicode_errors="surrogatepass")

    def _count(self, n: int) -> None:
        self._items += n
        if self._items > self._limits.max_items:
            raise EncodeError(f"the message has over {self._limits.max_items} values")

    def _value(self, value: object, depth: int) -> object:
        kind = type(value)
        if kind in _SCALARS:
            return value
        if kind is int:
            return value if _INT64_MIN <= value <= _UINT64_MAX else [BIGINT, str(value)]
        if depth >= self._limits.max_depth:
            raise EncodeError(f"the message is nested deeper than {self._limits.max_depth}")
        depth += 1
        if kind is list or kind is tuple:
            self._count(len(value))
            out = [LIST if kind is list else TUPLE]
            for item in value:
                out.append(item if type(item) in _SCALARS else self._value(item, depth))
            return out
        schema = _SCHEMA_BY_TYPE.get(kind)
        if schema is not None:
            self._count(len(schema.names))
            out = [schema.tag]
            for name in schema.names:
                item = getattr(value, name)
                out.append(item if type(item) in _SCALARS else self._value(item, depth))
            return out
        index = _ENUM_INDEX.get(kind)
        if index is not None:
            return [ENUM, index, value.value]
        return self._other(value, kind, depth)

    def _other(self, value: object, kind: type, depth: int) -> object:
        if kind is dict:
            self._count(2 * len(value))
            out: list = [DICT]
            for key, item in value.items():
                out.append(self._value(key, depth))
                out.append(self._value(item, depth))
            return out
        if kind is set or kind is frozenset:
            self._count(len(value))
            return [SET if kind is set else FROZENSET, *(self._value(v, depth) for v in value)]
        if kind is bytearray:
            return [BYTEARRAY, bytes(value)]
        if kind is complex:
            return [COMPLEX, value.real, value.imag]
        if kind is Opaque:
            return [OPAQUE, value.type_name, value.text]
        if isinstance(value, NativeHandle):
            return self._handle(value)
        if self._peer is not None:
            reference = self._peer.reference(value)
            if reference is not None:
                if reference[0] == "peer":
                    return [PEER, reference[1]]
                _, remote_id, names, class_name = reference
                return [OBJECT, remote_id, list(names), class_name]
        if isinstance(value, np.ndarray) and value.dtype.str in DTYPES:
            return [
                NDARRAY,
                value.dtype.str,
                list(value.shape),
                np.ascontiguousarray(value).tobytes(),
            ]
        if isinstance(value, np.generic) and value.dtype.str in DTYPES:
            return [NPSCALAR, value.dtype.str, value.tobytes()]
        if isinstance(value, int) and not isinstance(value, Enum):
            return self._value(int(value), depth)
        return [
            OPAQUE,
            bounded(kind.__qualname__, _MAX_NAME),
            safe_repr(value, self._limits.max_repr),
        ]

    def _handle(self, handle: NativeHandle) -> list:
        # A descriptor that is not open cannot be sent; it arrives as a number that is
        # not open there either, so the driver's own check answers (not the channel).
        slots = []
        for fd in handle.fds:
            if self._is_open is not None and self._is_open(fd):
                slots.append(len(self.fds))
                self.fds.append(int(fd))
            else:
                slots.append(-1)
        ints = [int(i) for i in handle.ints]
        if any(not _INT64_MIN <= i <= _UINT64_MAX for i in ints):
            raise EncodeError("a NativeHandle int does not fit in 64 bits")
        return [HANDLE, slots, ints]


def encode(
    message: object, peer: Peer | None = None, limits: Limits = LIMITS, is_open=None
) -> tuple[bytes, list[int]]:
    """``message`` as a frame body, and the descriptors to send with it."""
    encoder = Encoder(peer, limits, is_open)
    return encoder.encode(message), encoder.fds


# ---------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------

_MSGPACK_LIMIT = re.compile(r"(-?\d+) exceeds max_(\w+)_len\((-?\d+)\)")
_PLAIN = frozenset({type(None), bool, int, float, str, bytes})


class Decoder:
    """Builds one message from a frame body, by the schema only."""

    def __init__(
        self,
        fds: Sequence[int],
        peer: Peer | None,
        limits: Limits = LIMITS,
        handle_factory: Callable[[list[int], list[int], list[int]], NativeHandle] | None = None,
        closed_fd: Callable[[], int] | None = None,
    ) -> None:
        self._fds = list(fds)
        self._claimed: set[int] = set()
        self._peer = peer
        self._limits = limits
        self._items = 0
        self._handle_factory = handle_factory
        self._closed_fd = closed_fd or (lambda: -1)

    def unclaimed(self) -> list[int]:
        """The frame's descriptors no handle of the message took (the caller closes them)."""
        return [fd for i, fd in enumerate(self._fds) if i not in self._claimed]

    # -- the top ------------------------------------------------------------

    def decode(self, body: bytes) -> object:
        limits = self._limits
        if len(body) > limits.max_frame:
            raise MalformedMessage(
                f"is a frame of {len(body)} bytes, over the max frame size {limits.max_frame}"
            )
        size = len(body)
        try:
            tree = msgpack.unpackb(
                body,
                use_list=True,
                raw=False,
                strict_map_key=True,
                unicode_errors="surrogatepass",
                max_str_len=min(limits.max_str, size),
                max_bin_len=size,
                max_array_len=min(limits.max_list, size),
                max_map_len=0,
                max_ext_len=0,
            )
        except msgpack.StackError:
            raise MalformedMessage(f"exceeds max nesting depth {limits.max_depth}") from None
        except msgpack.ExtraData:
            raise MalformedMessage("has extra bytes after the message") from None
        except ValueError as e:
            raise MalformedMessage(self._msgpack_error(str(e), size)) from None
        except Exception as e:  # FormatError, UnicodeDecodeError, ...
            raise MalformedMessage(
                f"is undecodable: {type(e).__name__}: {safe_repr(str(e), 120)}"
            ) from None
        if type(tree) is not list or not tree or _ENVELOPE_BY_TAG.get(_tag(tree[0])) is None:
            raise MalformedMessage(f"is not a message envelope but {self._describe(tree)}")
        try:
            return self._record(_ENVELOPE_BY_TAG[tree[0]], tree, 1)
        except RecursionError:
            raise MalformedMessage(f"exceeds max nesting depth {limits.max_depth}") from None

    def _msgpack_error(self, text: str, size: int) -> str:
        match = _MSGPACK_LIMIT.search(text)
        if match is None:
            if "incomplete" in text:
                return f"is truncated: the frame's {size} bytes end inside the message"
            return f"is undecodable: {bounded(text, 120)}"
        announced, kind, _ = match.groups()
        noun = {
            "array": "list",
            "str": "string",
            "bin": "binary",
            "map": "map",
            "ext": "extension value",
        }.get(kind, kind)
        limit = {"array": self._limits.max_list, "str": self._limits.max_str}.get(kind)
        if kind in ("map", "ext"):
            return f"holds a msgpack {noun}, which the schema has no use for"
        if limit is not None and int(announced) > limit:
            return f"exceeds max {noun} length {limit} (a {noun} of {announced} announced)"
        return f"announces a {noun} of {announced} in a frame of {size} bytes (truncated or forged)"

    @staticmethod
    def _describe(node: object) -> str:
        if type(node) is list:
            return f"an array of {len(node)} starting with {safe_repr(node[0], 40) if node else 'nothing'}"
        return f"a {type(node).__name__}"

    # -- values ---------------------------------------------------------------

    def _count(self, n: int) -> None:
        self._items += n
        if self._items > self._limits.max_items:
            raise MalformedMessage(f"exceeds max {self._limits.max_items} values in one message")

    def _value(self, node: object, depth: int) -> object:
        kind = type(node)
        if kind in _PLAIN:
            return node
        if kind is not list:
            raise MalformedMessage(f"holds a value of unknown kind {kind.__name__}")
        if depth >= self._limits.max_depth:
            raise MalformedMessage(f"exceeds max nesting depth {self._limits.max_depth}")
        if not node:
            raise MalformedMessage("holds an array without a type tag")
        tag = node[0]
        if type(tag) is not int:
            raise MalformedMessage(f"holds an array whose type tag is a {type(tag).__name__}")
        depth += 1
        self._count(len(node))
        if tag in (LIST, TUPLE):
            items = [x if type(x) in _PLAIN else self._value(x, depth) for x in node[1:]]
            return items if tag == LIST else tuple(items)
        schema = _SCHEMA_BY_TAG.get(tag)
        if schema is not None:
            return self._record(schema, node, depth)
        handler = _HANDLERS.get(tag)
        if handler is None:
            raise MalformedMessage(f"holds unknown type tag {tag}")
        return handler(self, node, depth)

    def _record(self, schema: RecordSchema, node: list, depth: int) -> object:
        names = schema.names
        if len(node) != len(names) + 1:
            raise MalformedMessage(
                f"holds {schema.cls.__name__} with {len(node) - 1} fields; it has {len(names)}"
            )
        values = [x if type(x) in _PLAIN else self._value(x, depth) for x in node[1:]]
        for value, check, name, described in zip(
            values, schema.checks, names, schema.described, strict=True
        ):
            if check is not None and not check(value):
                raise MalformedMessage(
                    f"holds {schema.cls.__name__}.{name} of type {_kind(value)}, not {described}"
                )
        return schema.cls(*values)

    def _exact(self, node: list, size: int, what: str) -> None:
        if len(node) != size:
            raise MalformedMessage(f"holds a malformed {what}")

    def _dict(self, node: list, depth: int) -> dict:
        if len(node) % 2 != 1:
            raise MalformedMessage("holds a dict with a key and no value")
        items = [self._value(x, depth) for x in node[1:]]
        try:
            return dict(zip(items[::2], items[1::2], strict=True))
        except TypeError:
            raise MalformedMessage("holds a dict with an unhashable key") from None

    def _set(self, node: list, depth: int) -> set | frozenset:
        items = [self._value(x, depth) for x in node[1:]]
        try:
            return set(items) if node[0] == SET else frozenset(items)
        except TypeError:
            raise MalformedMessage("holds a set with an unhashable element") from None

    def _bytearray(self, node: list, depth: int) -> bytearray:
        self._exact(node, 2, "bytearray")
        if type(node[1]) is not bytes:
            raise MalformedMessage("holds a bytearray that is not binary")
        return bytearray(node[1])

    def _bigint(self, node: list, depth: int) -> int:
        self._exact(node, 2, "big integer")
        text = node[1]
        if type(text) is not str or not _BIGINT.fullmatch(text):
            raise MalformedMessage(
                f"holds a big integer that is not at most {_MAX_BIGINT_DIGITS} decimal digits"
            )
        return int(text)

    def _complex(self, node: list, depth: int) -> complex:
        self._exact(node, 3, "complex number")
        if not all(type(part) in (int, float) for part in node[1:]):
            raise MalformedMessage("holds a complex number whose parts are not numbers")
        return complex(node[1], node[2])

    def _enum(self, node: list, depth: int) -> Enum:
        self._exact(node, 3, "enum value")
        index, value = node[1], node[2]
        if type(index) is not int or not 0 <= index < len(ENUMS):
            raise MalformedMessage(f"holds unknown enum {safe_repr(index, 40)}")
        cls = ENUMS[index]
        if type(value) is not int:
            raise MalformedMessage(f"holds a {cls.__name__} whose value is of type {_kind(value)}")
        try:
            return cls(value)
        except ValueError:
            raise MalformedMessage(
                f"holds {cls.__name__} value {value}, which is no member"
            ) from None

    def _dtype(self, code: object) -> np.dtype:
        if type(code) is not str or code not in DTYPES:
            raise MalformedMessage(
                f"holds a numpy value of dtype {safe_repr(code, 40)}, not allowed"
            )
        return np.dtype(code)

    def _ndarray(self, node: list, depth: int) -> np.ndarray:
        self._exact(node, 4, "numpy array")
        dtype, shape, data = self._dtype(node[1]), node[2], node[3]
        if (
            type(shape) is not list
            or len(shape) > _MAX_NDIM
            or not all(type(d) is int and d >= 0 for d in shape)
            or type(data) is not bytes
        ):
            raise MalformedMessage("holds a numpy array with a malformed shape or data")
        count = 1
        for d in shape:
            count *= d
        if count * dtype.itemsize != len(data):
            raise MalformedMessage(
                f"holds a numpy array of shape {shape} and dtype {dtype.str} "
                f"({count * dtype.itemsize} bytes) with {len(data)} bytes of data"
            )
        return np.frombuffer(data, dtype).reshape(shape).copy()

    def _npscalar(self, node: list, depth: int) -> np.generic:
        self._exact(node, 3, "numpy scalar")
        dtype, data = self._dtype(node[1]), node[2]
        if type(data) is not bytes or len(data) != dtype.itemsize:
            raise MalformedMessage(
                f"holds a numpy {dtype.str} scalar that is not {dtype.itemsize} bytes"
            )
        return np.frombuffer(data, dtype)[0]

    def _handle(self, node: list, depth: int) -> NativeHandle:
        self._exact(node, 3, "native handle")
        slots, ints = node[1], node[2]
        if (
            type(slots) is not list
            or type(ints) is not list
            or not all(type(i) is int for i in slots)
            or not all(type(i) is int for i in ints)
        ):
            raise MalformedMessage("holds a native handle whose slots or ints are not integers")
        carried = [i for i in slots if i != -1]
        if any(not 0 <= i < len(self._fds) or i in self._claimed for i in carried) or len(
            set(carried)
        ) != len(carried):
            raise MalformedMessage("holds a handle naming descriptors the frame did not carry")
        self._claimed.update(carried)
        fds = [self._closed_fd() if i == -1 else self._fds[i] for i in slots]
        owned = [self._fds[i] for i in carried]
        if self._handle_factory is None:
            return NativeHandle(fds, list(ints))
        return self._handle_factory(fds, list(ints), owned)

    def _object(self, node: list, depth: int) -> object:
        self._exact(node, 4, "remote object")
        _, remote_id, names, class_name = node
        if (
            type(remote_id) is not int
            or type(names) is not list
            or not names
            or len(names) > 16
            or not all(type(n) is str for n in names)
            or type(class_name) is not str
        ):
            raise MalformedMessage("holds a malformed remote object reference")
        if self._peer is None:
            raise MalformedMessage("holds a remote object where none may be")
        return self._peer.resolve(("obj", remote_id, tuple(names), bounded(class_name, _MAX_NAME)))

    def _peer_object(self, node: list, depth: int) -> object:
        self._exact(node, 2, "object reference")
        if type(node[1]) is not int or self._peer is None:
            raise MalformedMessage("holds a malformed object reference")
        return self._peer.resolve(("peer", node[1]))

    def _opaque(self, node: list, depth: int) -> Opaque:
        self._exact(node, 3, "opaque value")
        if type(node[1]) is not str or type(node[2]) is not str:
            raise MalformedMessage("holds an opaque value whose name or text is not a string")
        return Opaque(bounded(node[1], _MAX_NAME), bounded(node[2], self._limits.max_repr))


def _tag(value: object) -> int | None:
    return value if type(value) is int else None


def _kind(value: object) -> str:
    if isinstance(value, Opaque):
        return f"{value.type_name} ({value.text})"
    return type(value).__name__


_HANDLERS: dict[int, Callable[[Decoder, list, int], object]] = {
    DICT: Decoder._dict,
    SET: Decoder._set,
    FROZENSET: Decoder._set,
    BYTEARRAY: Decoder._bytearray,
    BIGINT: Decoder._bigint,
    COMPLEX: Decoder._complex,
    ENUM: Decoder._enum,
    NDARRAY: Decoder._ndarray,
    NPSCALAR: Decoder._npscalar,
    HANDLE: Decoder._handle,
    OBJECT: Decoder._object,
    PEER: Decoder._peer_object,
    OPAQUE: Decoder._opaque,
}


def decode(body: bytes, fds: Sequence[int] = (), peer: Peer | None = None, limits: Limits = LIMITS):
    """The message ``body`` holds (descriptors not claimed by a handle stay open)."""
    return Decoder(fds, peer, limits).decode(body)


__all__ = [
    "DTYPES",
    "ENUMS",
    "LIMITS",
    "RECORDS",
    "Call",
    "Decoder",
    "EncodeError",
    "Encoder",
    "Hello",
    "Limits",
    "MalformedMessage",
    "Opaque",
    "ProtocolError",
    "Raise",
    "Release",
    "Return",
    "decode",
    "encode",
    "safe_repr",
]
