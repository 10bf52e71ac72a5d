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
* the same records in a *compact* layout, ``[COMPACT_BASE + i, field
  values...]``, when every enum field holds a member of its enum (sent as the
  member's bare value) and every sequence field the very container type it
  declares (sent as a bare array of its items): the usual case for operands,
  operations, models and requests, a third as many nodes to build and check;
* HAL enums: ``[ENUM_BASE + i, value]`` (``i`` indexes ``hal.types``'s enums
  by name); numpy: ``[NDARRAY, dtype, shape, bin]`` and ``[NPSCALAR, dtype,
  bin]``, the dtype from a fixed allow-list;
* things that are not data: ``[HANDLE, slots, ints]`` (a ``NativeHandle``,
  its descriptors riding on the frame as SCM_RIGHTS), ``[FENCE, slot]`` (a
  ``SyncFence``, ``isolation.fencewire``), ``[OBJECT, id,
  interfaces, class name]`` (an object implementing ``hal.interfaces``),
  ``[PEER, id]`` (the receiver's own object coming back), ``[OPAQUE, type
  name, text]`` (anything else: a stand-in carrying a bounded repr);
* the envelope at the top: ``Call``, ``Return``, ``Raise``, ``Release``,
  ``Hello``, ``Calls``, ``Flush``, each ``[tag, fields...]`` like a record;
  ``Batch`` is ``[tag, [LIST, envelope, ...]]``, answers and one-way calls
  sent together (each part encoded on its own, the parts joined: ``batch``).

The schema (tags, classes, field names, field types) is derived once, at
import, from the dataclass definitions. Decoding never looks a class up by a
name from the wire, never sets an attribute on an existing object and never
calls anything but the constructors of that table (``cls(*fields)`` after
checking each field's value against the field's declared type), the enums'
value lookup and numpy's ``frombuffer``. Every size is bounded (``Limits``):
the frame, each string, binary and list (checked by msgpack before it
allocates), the nesting depth, the number of values in a message (counted
while msgpack parses a body larger than that number of bytes), the remote
objects in a message, the text of an opaque stand-in. A message that breaks a
rule raises ``MalformedMessage`` naming the rule. A decoder given a deadline
stops there (``DecodeTimeout``).

Each record's encoder and decoder (and the test of a model delta) is Python
written out from its schema at import ("Compiled record paths" at the end).
"""

from __future__ import annotations

import gc
import operator
import re
import threading
import time
import types as pytypes
import typing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum

import msgpack
import numpy as np

import hal.types as hal_types
from hal.fences import SyncFence
from hal.fmq import FmqDescriptor
from hal.memory import Memory, NativeHandle
from hal.show import register_type, show_text
from hal.types import Model, Operand, Operation, Request, RequestArgument
from isolation.fencewire import FENCE, FenceRefused, fence_node, fence_of

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
    max_objects: int = 4096
    """Remote objects (``OBJECT``) in one message: each becomes a proxy, so the count
    bounds what one message can make the receiver build. (A sequence of 32 mutations'
    calls carries a few hundred callbacks; an answer, a handful at most.)"""


LIMITS = Limits()


class ProtocolError(Exception):
    """The other end sent something that is not a valid frame or message."""


class MalformedMessage(ProtocolError):
    """A frame's body is not a message of the schema, or breaks one of its limits."""


class DecodeTimeout(Exception):
    """The decoding of one message ran past its deadline (the time left to the call the
    message may answer): it was stopped where it was. Not a ``ProtocolError``: the
    message may be well formed, only too slow to build, and the caller whose time ran
    out reports a hang."""


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


# A driver's object of no HAL type arrives as an Opaque: shown by its type name only, as
# hal.show shows such an object in-process (its text was made by the driver).
register_type(Opaque, lambda value: f"<{show_text(value.type_name)} object>")


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


ONEWAY_CALL = 0
"""The call id of a one-way call: for a method of ``hal.levels.ONEWAY_METHODS``."""


@dataclass(slots=True)
class Call:
    """Call ``method(*args)`` on object ``target`` of the receiver; answer ``call_id``
    (``ONEWAY_CALL``: a one-way call, never answered)."""

    call_id: int
    target: int
    method: str
    args: tuple


@dataclass(slots=True)
class Return:
    call_id: int
    value: object


@dataclass(slots=True)
class Raise:
    """The call raised: the exception's type name, message and traceback text."""

    call_id: int
    type_name: str
    message: str
    traceback: str


@dataclass(slots=True)
class Release:
    """The sender dropped its proxies: (object id, how many times it had received it)."""

    items: list[tuple[int, int]]


@dataclass(slots=True)
class Hello:
    """The first message of a connection (the service's greeting)."""

    value: object


@dataclass(slots=True)
class Calls:
    """Calls to run one after another, in this order, on one thread of the receiver, each
    (call id, target, method, argument positions in ``values``) answered as its own
    ``Call`` would be. One frame carries them all, and an argument several calls take (a
    model, a request) crosses once and arrives as one object, as it would in-process."""

    values: list
    calls: list[tuple[int, int, str, list[int]]]


@dataclass(slots=True)
class Batch:
    """Messages sent together in one frame, to be taken in this order (answers and
    one-way calls: never a call that waits for an answer, never a batch)."""

    messages: list


@dataclass(slots=True)
class Flush:
    """Asks the receiver to send what it holds back (see ``Batch``) at once."""


ENVELOPES: tuple[type, ...] = (Call, Return, Raise, Release, Hello, Calls, Batch, Flush)
"""The messages themselves. Plain (not frozen) slotted dataclasses: nothing changes a
message once made, and a frozen dataclass's constructor costs four times as much (one
``object.__setattr__`` per field), paid for every message sent and received."""

# ---------------------------------------------------------------------------
# The schema
# ---------------------------------------------------------------------------

LIST, TUPLE, DICT, SET, FROZENSET, BYTEARRAY, BIGINT, COMPLEX = range(8)
NDARRAY, NPSCALAR, HANDLE, OBJECT, PEER, OPAQUE = range(8, 14)
SAME_OPERAND, SAME_OPERATION, SAME_INPUT, SAME_OUTPUT = 14, 15, 24, 25
"""``[SAME_OPERAND, i]`` in a model's operands (``SAME_OPERATION`` in its operations,
``SAME_INPUT`` and ``SAME_OUTPUT`` in a request's arguments): a copy of entry i of that
list of the first model (request) of the message (see ``Encoder``'s ``deltas``)."""
_DELTAS = {SAME_OPERAND: (0, 0), SAME_OPERATION: (0, 1), SAME_INPUT: (1, 0), SAME_OUTPUT: (1, 1)}
"""Tag -> (0 for the model, 1 for the request; which of its two lists)."""
ENVELOPE_BASE = 16
RECORD_BASE = 32
ENUM_BASE = 96

_INT64_MIN, _UINT64_MAX = -(1 << 63), (1 << 64) - 1
_MAX_BIGINT_DIGITS = 100
_BIGINT = re.compile(rf"-?[0-9]{{1,{_MAX_BIGINT_DIGITS}}}")
_MAX_NAME = 100
_PAUSE_GC_FROM = 1 << 20
"""Bodies of more bytes than this are parsed with the cyclic garbage collector paused."""
_CLOCK_EVERY = 1 << 14
"""Values decoded between two looks at the clock when a message has a deadline (a few
milliseconds of decoding at most)."""
_MAX_NDIM = 32

DTYPES: frozenset[str] = frozenset(
    ["|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8"]
)
"""The numpy dtypes that may cross (as ``dtype.str``): bool, integers, floats, little-endian."""

_NUMBER = (int, float, np.integer, np.floating, np.bool_)
_INTEGER = (int, np.integer, np.bool_)


Check = Callable[[object], bool]


def _never(value: object) -> bool:
    return False


@dataclass(frozen=True)
class FieldType:
    """What a field of the schema accepts: any value whose exact type is in ``fast``
    (None: any value at all), or one ``check`` accepts; ``text`` describes it."""

    fast: frozenset[type] | None
    check: Check
    text: str
    outer: frozenset[type] | None = None
    """For a sequence: the container types (its items are then ``check``'s business)."""
    items: frozenset[type] = frozenset()
    """For a sequence of items of one kind: the exact types of item accepted at once."""

    def accepts(self, value: object) -> bool:
        return self.fast is None or type(value) in self.fast or self.check(value)


_ANY = FieldType(None, _never, "any value")
_INT_ENUMS = frozenset(hal_types.ENUMS)


def _field_type(annotation: object) -> FieldType:
    """The FieldType of a field declared ``annotation``. Sequences accept a list or a
    tuple (drivers fill a record's tuple field with a list and the other way round);
    numbers accept numpy's scalars and the HAL's int enums."""
    if annotation is typing.Any or annotation is object:
        return _ANY
    if annotation is type(None):
        return FieldType(frozenset({type(None)}), _never, "None")
    if annotation is int or annotation is bool:
        return FieldType(
            frozenset({int, bool}) | _INT_ENUMS,
            lambda v: isinstance(v, _INTEGER),
            annotation.__name__,
        )
    if annotation is float:
        return FieldType(
            frozenset({float, int, bool}) | _INT_ENUMS, lambda v: isinstance(v, _NUMBER), "float"
        )
    if annotation is str:
        return FieldType(frozenset({str}), _never, "str")
    if annotation is bytes:
        return FieldType(frozenset({bytes, bytearray}), _never, "bytes")
    if annotation in (list, tuple):
        return FieldType(frozenset({list, tuple}), _never, annotation.__name__)
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin in (typing.Union, pytypes.UnionType):
        arms = [_field_type(arm) for arm in arguments]
        text = " | ".join(arm.text for arm in arms)
        if any(arm.fast is None for arm in arms):
            return FieldType(None, _never, text)
        checks = [arm.check for arm in arms if arm.check is not _never]
        fast = frozenset().union(*(arm.fast for arm in arms))
        return FieldType(fast, lambda v: any(check(v) for check in checks), text)
    if origin in (list, tuple):
        if origin is tuple and arguments and arguments[-1] is not Ellipsis:
            items = [_field_type(arm) for arm in arguments]

            def fixed(v: object) -> bool:
                return (
                    type(v) in (list, tuple)
                    and len(v) == len(items)
                    and all(item.accepts(x) for item, x in zip(items, v, strict=True))
                )

            text = f"tuple[{', '.join(i.text for i in items)}]"
            return FieldType(frozenset(), fixed, text, frozenset({list, tuple}))
        item = _field_type(arguments[0]) if arguments else _ANY
        text = f"{origin.__name__}[{item.text}{', ...' if origin is tuple else ''}]"
        if item.fast is None:
            return FieldType(frozenset({list, tuple}), _never, text)
        item_fast = item.fast

        def sequence(v: object) -> bool:
            return type(v) in (list, tuple) and (
                set(map(type, v)) <= item_fast or all(item.accepts(x) for x in v)
            )

        return FieldType(frozenset(), sequence, text, frozenset({list, tuple}), item_fast)
    if isinstance(annotation, type):
        if annotation is NativeHandle:  # and the receiver's subclass of it
            return FieldType(
                frozenset({NativeHandle}), lambda v: isinstance(v, NativeHandle), "NativeHandle"
            )
        return FieldType(frozenset({annotation}), _never, annotation.__name__)
    raise TypeError(f"no wire check for field type {annotation!r}")


@dataclass(frozen=True)
class RecordSchema:
    """One record of the schema: its tag, class, fields and their types."""

    tag: int
    cls: type
    names: tuple[str, ...]
    types: tuple[FieldType, ...]

    @property
    def getter(self) -> Callable[[object], tuple]:
        return _getter(self.names)


def _getter(names: tuple[str, ...]) -> Callable[[object], tuple]:
    if not names:
        return lambda value: ()
    get = operator.attrgetter(*names)
    return get if len(names) > 1 else (lambda value: (get(value),))


def _record_schema(tag: int, cls: type) -> RecordSchema:
    hints = typing.get_type_hints(cls)
    names = tuple(field.name for field in fields(cls))
    return RecordSchema(tag, cls, names, tuple(_field_type(hints[name]) for name in names))


def _hal_records() -> list[type]:
    found = [
        value
        for value in vars(hal_types).values()
        if isinstance(value, type)
        and value.__module__ == hal_types.__name__
        and is_dataclass(value)
    ]
    return sorted({*found, Memory, FmqDescriptor}, key=lambda cls: cls.__name__)


ENUMS: tuple[type[Enum], ...] = hal_types.ENUMS
"""The enums that cross as themselves, indexed by position (sorted by name)."""
_ENUM_TAGS: dict[type, int] = {cls: ENUM_BASE + i for i, cls in enumerate(ENUMS)}
_ENUM_MEMBERS: dict[int, tuple[type[Enum], dict[object, Enum]]] = {
    ENUM_BASE + i: (cls, {member.value: member for member in cls}) for i, cls in enumerate(ENUMS)
}

RECORDS: tuple[RecordSchema, ...] = tuple(
    _record_schema(RECORD_BASE + i, cls) for i, cls in enumerate(_hal_records())
)
"""The HAL records that cross as themselves, with their tags, fields and field types."""
_ENVELOPE_SCHEMAS: tuple[RecordSchema, ...] = tuple(
    _record_schema(ENVELOPE_BASE + i, cls) for i, cls in enumerate(ENVELOPES)
)
_SHAREABLE = frozenset({list, tuple, dict, set, frozenset})
"""Containers besides the HAL records that one message may hold more than once."""

_SCHEMA_BY_TYPE: dict[type, tuple[int, Callable[[object], tuple]]] = {
    s.cls: (s.tag, s.getter) for s in (*RECORDS, *_ENVELOPE_SCHEMAS)
}
_ENVELOPE_BY_TAG: dict[int, RecordSchema] = {s.tag: s for s in _ENVELOPE_SCHEMAS}
assert all(kind.fast is not None for s in RECORDS for kind in s.types), "a record field of any type"

# The compact layout. A record whose enum fields hold members of their enum and whose
# sequence fields hold the very container type declared goes as
# ``[COMPACT_BASE + i, field values...]``: an enum field as the member's bare value, a
# sequence field as a bare array of its items; other fields as usual. Its class, the
# enum and the container come from the schema, so the nodes a model or request is made
# of are mostly records and their plain values (a third as many to build, encode and
# check). Any other value of such a field sends the record in the layout above.

COMPACT_BASE = 128
"""``COMPACT_BASE + i``: record ``RECORD_BASE + i`` in the compact layout."""
_FIELD_ENUMS: dict[tuple[type, str], type[Enum]] = {
    (Operand, "type"): hal_types.OperandType,
    (Operand, "lifetime"): hal_types.OperandLifeTime,
    (Operation, "type"): hal_types.OperationType,
    (hal_types.OperandPerformance, "type"): hal_types.OperandType,
}
"""Fields declared ``int`` (an extension's values are plain ints) that mostly hold a member
of one enum: in the compact layout they hold that member only."""


def _compact_kind(schema: RecordSchema, index: int) -> object:
    """A field's kind in the compact layout: an enum class, ``list`` or ``tuple`` (a
    sequence field), or None (any value, as in the other layout)."""
    name, kind = schema.names[index], schema.types[index]
    hint = _FIELD_ENUMS.get((schema.cls, name))
    if hint is not None:
        return hint
    if kind.fast is not None and len(kind.fast) == 1 and next(iter(kind.fast)) in _ENUM_TAGS:
        return next(iter(kind.fast))
    if kind.outer is not None:
        annotation = typing.get_type_hints(schema.cls)[name]
        origin = typing.get_origin(annotation) or annotation
        if origin in (list, tuple):
            return origin
    return None


_COMPACT_KINDS: dict[type, tuple[int, tuple]] = {}
"""Record class -> (compact tag, each field's kind), for the records with a compact layout."""
_COMPACT_PLANS: dict[int, tuple] = {}
"""Compact tag -> what decoding it needs: the (index, name, enum, members) of its enum
fields, the (index, name, container) of its sequence fields, the indexes of the others."""
for _schema in RECORDS:
    _kinds = tuple(_compact_kind(_schema, i) for i in range(len(_schema.names)))
    if any(k is not None for k in _kinds):
        _tag = COMPACT_BASE + _schema.tag - RECORD_BASE
        _COMPACT_KINDS[_schema.cls] = (_tag, _kinds)
        _COMPACT_PLANS[_tag] = (
            tuple(
                (i, _schema.names[i], k, _ENUM_MEMBERS[_ENUM_TAGS[k]][1])
                for i, k in enumerate(_kinds)
                if k is not None and k not in (list, tuple)
            ),
            tuple((i, _schema.names[i], k) for i, k in enumerate(_kinds) if k in (list, tuple)),
            tuple(i for i, k in enumerate(_kinds) if k is None),
        )
del _schema, _kinds
assert ENUM_BASE + len(ENUMS) <= COMPACT_BASE and COMPACT_BASE + len(RECORDS) < 256


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


class Peer(typing.Protocol):
    """What the codec needs of a connection: remote-object references both ways."""

    def reference(self, obj: object) -> tuple | None: ...

    def resolve(self, pid: tuple) -> object: ...


_SCALARS = frozenset({type(None), bool, float, str, bytes})
_INLINE = _SCALARS | {int}
"""Kinds placed in the tree as they are; an int beyond 64 bits then makes msgpack raise
OverflowError and the message is encoded again with every int checked."""


_PACKERS = threading.local()


def _packer() -> msgpack.Packer:
    """This thread's msgpack packer (made once: a packer allocates its buffer when made; it
    empties it after each ``pack``, whether packing succeeded or raised)."""
    try:
        return _PACKERS.packer
    except AttributeError:
        _PACKERS.packer = msgpack.Packer(use_bin_type=True, unicode_errors="surrogatepass")
        return _PACKERS.packer


class Encoder:
    """Turns one message into msgpack bytes plus the descriptors its handles carry."""

    def __init__(
        self, peer: Peer | None, limits: Limits = LIMITS, is_open=None, deltas: bool = False
    ) -> None:
        self._peer = peer
        self._deltas = deltas
        """Send the operands and operations of a model that are the very ones (field by
        field the same objects) as the first model's of the message as references to
        them, and likewise a request's arguments: the validation tests send many copies of
        one model or request, each with one change."""
        self._reference: list[tuple[list, list] | None] = [None, None]
        """The operands and operations of the message's first model, the inputs and
        outputs of its first request (as they were encoded)."""
        self._limits = limits
        self._max_depth = limits.max_depth
        self._max_items = limits.max_items
        self._is_open = is_open
        self.fds: list[int] = []
        self._items = 0
        self._scalars = _INLINE
        self._references: list[tuple | None] = []
        self._replay: Iterator[tuple | None] | None = None
        self._seen: dict[int, tuple[object, object, int]] = {}
        """Each container already encoded in this message, by id: the container (held, so
        its id is not reused while encoding), its encoding and its count of values. A
        container met again counts its values at once (msgpack writes them again: the
        limit is reached in a few steps whatever the sharing) and reuses its encoding (a
        handle in it names the same descriptors again: the receiver's one handle for them)."""

    def encode(self, message: object) -> bytes:
        tree = self._value(message, 0)
        try:
            return _packer().pack(tree)
        except OverflowError:  # an int beyond 64 bits went inline: again, checking each int
            # (the remote objects met the first time are not exported a second time)
            self._scalars, self._items, self.fds, self._seen = _SCALARS, 0, [], {}
            self._replay, self._reference = iter(self._references), [None, None]
            tree = self._value(message, 0)
            return _packer().pack(tree)

    def _count(self, n: int) -> None:
        self._items += n
        if self._items > self._limits.max_items:
            raise EncodeError(f"the message has over {self._limits.max_items} values")

    def _too_deep(self) -> typing.NoReturn:
        raise EncodeError(f"the message is nested deeper than {self._limits.max_depth}")

    def _value(self, value: object, depth: int) -> object:
        kind = type(value)
        if kind in _SCALARS:
            return value
        if kind is int:
            return value if _INT64_MIN <= value <= _UINT64_MAX else [BIGINT, str(value)]
        if depth >= self._limits.max_depth:
            raise EncodeError(f"the message is nested deeper than {self._limits.max_depth}")
        depth += 1
        encoder = _ENCODERS.get(kind)
        if encoder is not None:  # a record: its compiled encoder (below; the memo in it)
            return encoder(self, value, depth)
        if kind in _SHAREABLE:
            if (kind is list or kind is tuple) and self._scalars.issuperset(map(type, value)):
                self._count(len(value))  # plain values only: nothing in it met again
                return [LIST if kind is list else TUPLE, *value]
            seen = self._seen.get(id(value))
            if seen is not None and seen[0] is value:
                self._count(seen[2])
                return seen[1]
            start = self._items
            out = self._container(value, kind, depth)
            self._seen[id(value)] = (value, out, self._items - start)
            return out
        tag = _ENUM_TAGS.get(kind)
        if tag is not None:
            return [tag, value._value_]
        return self._other(value, kind, depth)

    def _container(self, value: object, kind: type, depth: int) -> object:
        scalars = self._scalars
        if kind is list or kind is tuple:
            self._items += len(value)
            if self._items > self._limits.max_items:
                self._count(0)
            out = [LIST if kind is list else TUPLE]
            out += [item if type(item) in scalars else self._value(item, depth) for item in value]
            return out
        return self._other(value, kind, depth)

    def _items_of(self, items: list | tuple, depth: int) -> list:
        """A sequence as a bare array of its items (nested one level deeper)."""
        if depth >= self._limits.max_depth:
            raise EncodeError(f"the message is nested deeper than {self._limits.max_depth}")
        self._items += len(items)
        if self._items > self._limits.max_items:
            self._count(0)
        scalars = self._scalars
        return [item if type(item) in scalars else self._value(item, depth + 1) for item in items]

    def _model(self, value: Model | Request, tag: int, parts: tuple, depth: int) -> list:
        """A model (request), its operands and operations (inputs and outputs) by
        reference where they are the first model's (request's) of the message."""
        which = 0 if type(value) is Model else 1
        reference = self._reference[which]
        compact = _COMPACT_KINDS[type(value)]
        bare = _fits(parts, compact[1])
        out = [compact[0] if bare else tag]
        for index, part in enumerate(parts):
            if reference is not None and index < 2 and type(part) is list:
                out.append(self._like(part, reference[index], 2 * which + index, depth, bare))
            elif bare and compact[1][index] is not None:
                out.append(self._items_of(part, depth))
            else:
                out.append(part if type(part) in self._scalars else self._value(part, depth))
        if reference is None and type(parts[0]) is list and type(parts[1]) is list:
            self._reference[which] = (list(parts[0]), list(parts[1]))
        return out

    def _like(self, items: list, reference: list, index: int, depth: int, bare: bool) -> list:
        if depth >= self._limits.max_depth:
            raise EncodeError(f"the message is nested deeper than {self._limits.max_depth}")
        self._count(len(items))
        same = (SAME_OPERAND, SAME_OPERATION, SAME_INPUT, SAME_OUTPUT)[index]
        out: list = [] if bare else [LIST]
        for i, item in enumerate(items):
            if i < len(reference) and _same_fields(item, reference[i]):
                out.append([same, i])
            else:
                out.append(self._value(item, depth + 1))
        return out

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
            if self._replay is not None:
                reference = next(self._replay)
            else:
                reference = self._peer.reference(value)
                self._references.append(reference)
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

    def _fence(self, fence: SyncFence) -> list:
        seen = self._seen.get(id(fence))  # met again: the same slot
        if seen is None or seen[0] is not fence:
            seen = self._seen[id(fence)] = (fence, fence_node(fence, self.fds), 0)
        return seen[1]

    def _handle(self, handle: NativeHandle) -> list:
        # A descriptor that is not open cannot be sent; it arrives as a number that is
        # not open there either, so the driver's own check answers (not the channel).
        # A handle met again names the same slots: its descriptors go once.
        seen = self._seen.get(id(handle))
        if seen is not None and seen[0] is handle:
            return seen[1]
        slots = []
        for fd in handle.fds:
            if self._is_open is not None and self._is_open(fd):
                slots.append(len(self.fds))
                self.fds.append(int(fd))
            else:
                slots.append(-1)
        ints = [int(i) for i in handle.ints]
        if ints and (min(ints) < _INT64_MIN or max(ints) > _UINT64_MAX):
            raise EncodeError("a NativeHandle int does not fit in 64 bits")
        out = [HANDLE, slots, ints]
        self._seen[id(handle)] = (handle, out, 0)
        return out


def _fits(parts: tuple, kinds: tuple) -> bool:
    """Whether a record's fields (``parts``) can go in its compact layout (``kinds``): each
    enum or sequence field holds exactly its enum or container type."""
    for part, kind in zip(parts, kinds, strict=True):
        if kind is not None and type(part) is not kind:
            return False
    return True


def batch(bodies: list[bytes]) -> bytes:
    """The body of a ``Batch`` of messages already encoded (``bodies``, each one
    message's body): msgpack lets the parts be joined as they are."""
    packer = msgpack.Packer(use_bin_type=True)
    return b"".join(
        (
            packer.pack_array_header(2),
            packer.pack(_SCHEMA_BY_TYPE[Batch][0]),
            packer.pack_array_header(len(bodies) + 1),
            packer.pack(LIST),
            *bodies,
        )
    )


_LISTED = frozenset({Operand, Operation, RequestArgument})  # what a model delta refers to


def _same_source(names: tuple[str, ...]) -> str:
    """``_same_fields`` for a record of fields ``names``, written out field by field (the
    encoder asks it of every operand of every mutated model)."""
    checks = "".join(
        f"    mine, theirs = item.{name}, other.{name}\n"
        "    if mine is not theirs and not (type(mine) is list and type(theirs) is list\n"
        "            and len(mine) == len(theirs) and all(map(is_, mine, theirs))):\n"
        "        return False\n"
        for name in names
    )
    return f"def same(item, other):\n{checks}    return True\n"


def _same_fields(item: object, other: object) -> bool:
    """Whether ``item`` is an Operand, Operation or RequestArgument whose every field is the
    very object ``other``'s is (a list field: a list of the very same objects)."""
    same = _SAME.get(type(item))
    return same is not None and type(other) is type(item) and same(item, other)


def encode(
    message: object,
    peer: Peer | None = None,
    limits: Limits = LIMITS,
    is_open=None,
    deltas: bool = False,
) -> tuple[bytes, list[int]]:
    """``message`` as a frame body, and the descriptors to send with it."""
    encoder = Encoder(peer, limits, is_open, deltas)
    return encoder.encode(message), encoder.fds


# ---------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------

_MSGPACK_LIMIT = re.compile(r"(-?\d+) exceeds max_(\w+)_len\((-?\d+)\)")
_PLAIN = frozenset({type(None), bool, int, float, str, bytes})
_INT_ONLY = frozenset({int})


class Decoder:
    """Builds one message from a frame body, by the schema only."""

    def __init__(
        self,
        fds: Sequence[int],
        peer: Peer | None,
        limits: Limits = LIMITS,
        handle_factory: Callable[[list[int], list[int], list[int]], NativeHandle] | None = None,
        closed_fd: Callable[[], int] | None = None,
        deltas: bool = False,
        deadline: float | None = None,
    ) -> None:
        self._deltas = deltas
        """Accept the model and request deltas (``_DELTAS``): the service, from the harness."""
        self._reference: list[tuple[list, list] | None] = [None, None]
        self._fds = list(fds)
        self._claimed: set[int] = set()
        self._handles: dict[tuple[tuple, tuple], NativeHandle] = {}
        """The handles built, by (slots, ints): met again, the same handle comes back (each
        descriptor has one owner)."""
        self.fences: dict[int, SyncFence] = {}  # the message's open fences, by slot
        self._peer = peer
        self._limits = limits
        self._max_depth = limits.max_depth
        self._deadline = deadline
        """``time.monotonic()`` past which decoding stops (``DecodeTimeout``); None: none."""
        self._items = 0
        self._max_items = limits.max_items
        """Where the count of values is next looked at (``_checkpoint``): the limit on
        values, or before it, with a deadline, the next time to look at the clock. The
        paths that count values compare with it anyway, so the deadline costs them
        nothing more."""
        if deadline is not None:
            self._max_items = min(limits.max_items, _CLOCK_EVERY)
        self._objects = 0
        self._size = 0
        self._started = 0.0
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
        size = self._size = len(body)
        if self._deadline is not None:
            self._started = time.monotonic()
        # msgpack bounds each array's length but not how many arrays a body holds: every
        # byte may be an empty array, some 60 bytes of memory each (16 MiB of them made
        # 1.1 GB before the walk below counted a value). A body of more bytes than the
        # limit on values is therefore counted as msgpack builds it, a hook per array (a
        # third more time for a body of small arrays); a smaller one cannot hold more.
        self._parsed = 0
        self._parse_check = min(limits.max_items, _CLOCK_EVERY)
        counted = self._counted if size > limits.max_items else None
        # The cyclic collector, run again and again over the millions of lists a large body
        # can hold, took 8 times as long as the parse itself (2.6 s instead of 0.3 s for
        # 300,000 small arrays); a parse makes no cycles, so it runs without it.
        collecting = size > _PAUSE_GC_FROM and gc.isenabled()
        if collecting:
            gc.disable()
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
                list_hook=counted,
            )
        except (MalformedMessage, DecodeTimeout):
            raise
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
        finally:
            if collecting:
                gc.enable()
        if type(tree) is not list or not tree or _ENVELOPE_BY_TAG.get(_tag(tree[0])) is None:
            raise MalformedMessage(f"is not a message envelope but {self._describe(tree)}")
        if self._deadline is not None:
            self._clock()
        try:
            if _ENVELOPE_BY_TAG[tree[0]].cls is Batch:
                return self._batch(tree)
            return self._envelope(_ENVELOPE_BY_TAG[tree[0]], tree)
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

    def _counted(self, items: list) -> list:
        """msgpack's hook for each array it built (a large body's): counts it and its
        items against the limit on values and, now and then, looks at the clock."""
        self._parsed += len(items) or 1  # as the walk counts (an empty array counts one)
        if self._parsed > self._parse_check:
            limit = self._limits.max_items
            if self._parsed > limit:
                raise MalformedMessage(f"exceeds max {limit} values in one message")
            if self._deadline is not None:
                self._clock()
            self._parse_check = min(limit, self._parsed + _CLOCK_EVERY)
        return items

    def _checkpoint(self) -> None:
        """The count of values passed ``_max_items``: over the limit, the message is refused;
        short of it (a deadline's checkpoint), the clock is looked at and the next
        checkpoint set."""
        limit = self._limits.max_items
        if self._items > limit:
            raise MalformedMessage(f"exceeds max {limit} values in one message")
        self._clock()
        self._max_items = min(limit, self._items + _CLOCK_EVERY)

    def _clock(self) -> None:
        now = time.monotonic()
        if now >= self._deadline:
            raise DecodeTimeout(
                f"({self._size} bytes) was still being decoded when the call's time ran out: "
                f"stopped after {now - self._started:.1f} s, at value {self._items or self._parsed} "
                f"of the message, with {self._objects} remote objects built"
            )

    @staticmethod
    def _describe(node: object) -> str:
        if type(node) is list:
            return f"an array of {len(node)} starting with {safe_repr(node[0], 40) if node else 'nothing'}"
        return f"a {type(node).__name__}"

    # -- values ---------------------------------------------------------------

    def _value(self, node: object, depth: int) -> object:
        if type(node) is not list:  # (the callers keep plain values from coming here)
            if type(node) in _PLAIN:
                return node
            raise MalformedMessage(f"holds a value of unknown kind {type(node).__name__}")
        if depth >= self._max_depth:
            raise MalformedMessage(f"exceeds max nesting depth {self._max_depth}")
        if not node:
            raise MalformedMessage("holds an array without a type tag")
        tag = node[0]
        if type(tag) is not int:
            raise MalformedMessage(f"holds an array whose type tag is a {type(tag).__name__}")
        self._items += len(node)
        if self._items > self._max_items:
            self._checkpoint()
        decoder = _DECODERS.get(tag)
        if decoder is not None:  # a record (either layout): its compiled decoder (below)
            return decoder(self, node, depth + 1)
        depth += 1
        if tag in (LIST, TUPLE):
            items = node[1:]
            if not _PLAIN.issuperset(map(type, items)):  # leaves are common: checked in C
                items = [x if type(x) in _PLAIN else self._value(x, depth) for x in items]
            return items if tag == LIST else tuple(items)
        enum = _ENUM_MEMBERS.get(tag)
        if enum is not None:
            if len(node) == 2 and type(node[1]) is int:
                member = enum[1].get(node[1])
                if member is not None:
                    return member
            return self._enum(enum, node)  # says what is wrong
        handler = _HANDLERS.get(tag)
        if handler is None:
            raise MalformedMessage(f"holds unknown type tag {tag}")
        return handler(self, node, depth)

    def _envelope(self, schema: RecordSchema, node: list) -> object:
        return _ENVELOPE_DECODERS[schema.tag](self, node, 1)

    def _batch(self, node: list) -> Batch:
        if len(node) != 2 or type(node[1]) is not list or not node[1] or node[1][0] != LIST:
            raise MalformedMessage("holds a malformed batch")
        messages = []
        for part in node[1][1:]:
            schema = _ENVELOPE_BY_TAG.get(_tag(part[0])) if type(part) is list and part else None
            if schema is None or schema.cls not in _BATCHED:
                raise MalformedMessage(f"holds a batch of {self._describe(part)}")
            message = self._envelope(schema, part)
            if type(message) is Call and message.call_id != ONEWAY_CALL:
                raise MalformedMessage("holds a batch with a call that waits for an answer")
            messages.append(message)
        return Batch(messages)

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

    @staticmethod
    def _enum(enum: tuple[type[Enum], dict[object, Enum]], node: list) -> Enum:
        cls, members = enum
        if len(node) != 2:
            raise MalformedMessage(f"holds a malformed {cls.__name__}")
        value = node[1]
        member = members.get(value) if type(value) is int else None
        if member is None:
            raise MalformedMessage(
                f"holds {cls.__name__} value {safe_repr(value, 40)}, which is no member"
            )
        return member

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
        if len(node) != 3:
            raise MalformedMessage("holds a malformed native handle")
        _, slots, ints = node
        if (
            type(slots) is not list
            or type(ints) is not list
            or not _INT_ONLY.issuperset(map(type, slots))
            or not _INT_ONLY.issuperset(map(type, ints))
        ):
            raise MalformedMessage("holds a native handle whose slots or ints are not integers")
        fds, claimed = self._fds, self._claimed
        carried = [i for i in slots if i != -1]
        if carried:
            key = (tuple(slots), tuple(ints))
            again = self._handles.get(key)
            if again is not None:
                return again
            for i in carried:
                if not 0 <= i < len(fds) or i in claimed:
                    raise MalformedMessage(
                        "holds a handle naming descriptors the frame did not carry"
                    )
                claimed.add(i)  # a slot named twice in one handle is refused just above
        owned = [fds[i] for i in carried]
        if len(carried) == len(slots):
            numbers = owned
        else:
            numbers = [self._closed_fd() if i == -1 else fds[i] for i in slots]
        if self._handle_factory is None:
            handle = NativeHandle(numbers, ints)
        else:
            handle = self._handle_factory(numbers, ints, owned)
        if carried:
            self._handles[key] = handle
        return handle

    def _fence(self, node: list, depth: int) -> SyncFence:
        try:
            return fence_of(node, self._fds, self._claimed, self.fences)
        except FenceRefused as error:
            raise MalformedMessage(str(error)) from None

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
        self._objects += 1
        if self._objects > self._limits.max_objects:
            raise MalformedMessage(
                f"holds over {self._limits.max_objects} remote objects in one message"
            )
        return self._peer.resolve(("obj", remote_id, tuple(names), bounded(class_name, _MAX_NAME)))

    def _peer_object(self, node: list, depth: int) -> object:
        self._exact(node, 2, "object reference")
        if type(node[1]) is not int or self._peer is None:
            raise MalformedMessage("holds a malformed object reference")
        return self._peer.resolve(("peer", node[1]))

    def _same(self, node: list, depth: int) -> object:
        """A copy of an operand or operation of the message's first model, or an argument of
        its first request (list fields copied too: the copies are as independent as the
        ones the harness sent)."""
        if not self._deltas:
            raise MalformedMessage("holds a model delta, which only the harness sends")
        self._exact(node, 2, "model delta")
        index, (record, which) = node[1], _DELTAS[node[0]]
        listed = self._reference[record]
        reference = None if listed is None else listed[which]
        if reference is None or type(index) is not int or not 0 <= index < len(reference):
            raise MalformedMessage("holds a model delta naming nothing")
        original = reference[index]
        kind = type(original)
        if kind is Operand and type(original.dimensions) is list:  # most of them: spelt out,
            o = original  # twice as fast as the general copy below
            return Operand(
                o.type, o.dimensions[:], o.number_of_consumers, o.scale, o.zero_point,
                o.lifetime, o.location, o.extra_params,
            )  # fmt: skip
        if kind not in _LISTED:
            raise MalformedMessage("holds a model delta naming no operand, operation or argument")
        fields = _SCHEMA_BY_TYPE[kind][1](original)
        return kind(*[v[:] if type(v) is list else v for v in fields])

    def _opaque(self, node: list, depth: int) -> Opaque:
        self._exact(node, 3, "opaque value")
        if type(node[1]) is not str or type(node[2]) is not str:
            raise MalformedMessage("holds an opaque value whose name or text is not a string")
        return Opaque(bounded(node[1], _MAX_NAME), bounded(node[2], self._limits.max_repr))


_BATCHED = frozenset({Call, Return, Raise, Release})
"""What a batch may hold."""


def _check_fields(schema: RecordSchema, values: list) -> None:
    """MalformedMessage naming the first of ``values`` its field's type does not accept."""
    for name, kind, value in zip(schema.names, schema.types, values, strict=True):
        if not kind.accepts(value):
            raise MalformedMessage(
                f"holds {schema.cls.__name__}.{name} of type {_kind(value)}, not {kind.text}"
            )


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
    NDARRAY: Decoder._ndarray,
    NPSCALAR: Decoder._npscalar,
    HANDLE: Decoder._handle,
    FENCE: Decoder._fence,
    OBJECT: Decoder._object,
    PEER: Decoder._peer_object,
    OPAQUE: Decoder._opaque,
    **dict.fromkeys(_DELTAS, Decoder._same),
}


# ---------------------------------------------------------------------------
# Compiled record paths
# ---------------------------------------------------------------------------
# The generic walks above look each record's layout up field by field. Most of a
# message is records, so each record gets an encoder and a decoder of its own, written
# out as straight-line Python from its schema once, at import: the same layouts, checks,
# limits and messages, without the per-field loops and lookups. The source is made from
# the schema's own field names (checked to be identifiers) and tags, never from a
# message. ``Encoder._container`` and ``Decoder._value`` dispatch to them by class and by
# tag; the generic code stays for deltas and the slow paths.


def _encoder_source(schema: RecordSchema, compact: tuple[int, tuple] | None) -> str:
    """An encoder ``enc(self, value, depth)`` for one record: the compact layout where its
    fields fit it, the other layout otherwise, as ``Encoder._container`` would write it.

    A record whose fields are all plain values (an enum field a member of its enum, a
    sequence field a sequence of plain values) is written at once: nothing in it can be
    met again, so it skips the memo of shared containers. Any other goes through it."""
    n = len(schema.names)
    assert all(name.isidentifier() for name in schema.names), schema.names
    fields_ = [f"f{i}" for i in range(n)]
    read = [f"    f{i} = value.{name}" for i, name in enumerate(schema.names)]
    lines = ["def body(self, value, depth):", *read]
    lines += [f"    self._items += {n}", "    S = self._scalars"]
    if schema.cls in (Model, Request):
        lines += [
            "    if self._deltas:",
            f"        return self._model(value, {schema.tag}, ({', '.join(fields_)},), depth)",
        ]

    def plain(i: int) -> str:  # a record (or handle) straight to its encoder, as _value would
        return (
            f"(f{i} if type(f{i}) in S else e(self, f{i}, depth + 1) if depth < self._max_depth"
            f" and (e := ENCODERS.get(type(f{i}))) is not None else self._value(f{i}, depth))"
        )

    def sequence(i: int, indent: str) -> list[str]:
        return [
            f"{indent}if depth >= self._max_depth:",
            f"{indent}    self._too_deep()",
            f"{indent}self._items += len(f{i})",
            f"{indent}if self._items > self._max_items:",
            f"{indent}    self._count(0)",
        ]

    kinds = compact[1] if compact is not None else (None,) * n
    if compact is not None:
        tests = [f"type(f{i}) is K{i}" for i, k in enumerate(kinds) if k is not None]
        lines.append(f"    if {' and '.join(tests)}:")
        out = []
        for i, k in enumerate(kinds):
            if k is None:
                out.append(plain(i))
            elif k is list or k is tuple:
                lines += sequence(i, "        ")
                lines += [
                    f"        if not S.issuperset(map(type, f{i})):",
                    f"            f{i} = [x if type(x) in S else self._value(x, depth + 1) for x in f{i}]",
                ]
                out.append(f"f{i}")
            else:
                out.append(f"f{i}._value_")
        lines.append(f"        return [{compact[0]}, {', '.join(out)}]")
    lines.append(f"    return [{schema.tag}{''.join(', ' + plain(i) for i in range(n))}]")

    # The entry: a record of plain values at once, any other through the memo.
    lines += ["", "def enc(self, value, depth):"]
    if schema.cls not in (Model, Request):  # (their deltas need their lists: the memo way)
        lines += [*read, "    S = self._scalars"]
        leaf, out = [], []
        for i, k in enumerate(kinds):
            if k is None:
                leaf.append(f"type(f{i}) in S")
                out.append(f"f{i}")
            elif k is list or k is tuple:
                leaf.append(f"type(f{i}) is K{i} and S.issuperset(map(type, f{i}))")
                out.append(f"f{i}")
            else:
                leaf.append(f"type(f{i}) is K{i}")
                out.append(f"f{i}._value_")
        tag = schema.tag if compact is None else compact[0]
        lines += [f"    if {' and '.join(leaf) or 'True'}:", f"        self._items += {n}"]
        for i, k in enumerate(kinds):
            if k is list or k is tuple:
                lines += sequence(i, "        ")
        if not any(k is list or k is tuple for k in kinds):
            lines += ["        if self._items > self._max_items:", "            self._count(0)"]
        lines.append(f"        return [{tag}{''.join(', ' + o for o in out)}]")
    lines += [
        "    seen = self._seen.get(id(value))",
        "    if seen is not None and seen[0] is value:",
        "        self._count(seen[2])",
        "        return seen[1]",
        "    start = self._items",
        "    out = body(self, value, depth)",
        "    self._seen[id(value)] = (value, out, self._items - start)",
        "    return out",
    ]
    return "\n".join(lines)


def _decoder_source(schema: RecordSchema, compact: tuple | None) -> str:
    """A decoder ``dec(self, node, depth)`` for one record's layout (``compact``: its
    compact plan), as ``Decoder._value`` would build it: fields decoded, checked against
    the schema, then the constructor."""
    n = len(schema.names)
    name = schema.cls.__name__
    fields_ = ", ".join(f"f{i}" for i in range(n))
    lines = [
        "def dec(self, node, depth):",
        f"    if len(node) != {n + 1}:",
        f"        raise MM(f'holds {name} with {{len(node) - 1}} fields; it has {n}')",
        f"    _, {fields_}{',' if n == 1 else ''} = node",
    ]
    enums = sequences = ()
    others = range(n)
    if compact is not None:
        enums, sequences, others = compact
    lines += [
        f"    if type(f{i}) not in PLAIN:\n        f{i} = self._value(f{i}, depth)" for i in others
    ]
    for i, field_name, enum, _members in enums:
        lines += [
            f"    g = M{i}.get(f{i}) if type(f{i}) is int else None",
            "    if g is None:",
            f"        raise MM(f'holds {name}.{field_name} {{safe_repr(f{i}, 40)}}, "
            f"which is no {enum.__name__}')",
            f"    f{i} = g",
        ]
    for i, field_name, container in sequences:
        lines += [
            f"    if type(f{i}) is not list:",
            f"        raise MM(f'holds {name}.{field_name} of type {{_kind(f{i})}}, not a sequence')",
            "    if depth >= self._max_depth:",
            "        raise MM(f'exceeds max nesting depth {self._max_depth}')",
            f"    self._items += len(f{i})",
            "    if self._items > self._max_items:",
            "        self._checkpoint()",
            f"    if not PLAIN.issuperset(map(type, f{i})):",
            f"        f{i} = [x if type(x) in PLAIN else self._value(x, depth + 1) for x in f{i}]",
        ]
        if container is tuple:
            lines.append(f"    f{i} = tuple(f{i})")
    tests = []
    for i, kind in enumerate(schema.types):
        if kind.outer is not None:  # a sequence: its container, then its items
            items = f"I{i}.issuperset(map(type, f{i})) or " if kind.items else ""
            tests.append(f"type(f{i}) in O{i} and ({items}C{i}(f{i}))")
        elif kind.fast is not None:  # as ``FieldType.accepts``
            check = "" if kind.check is _never else f" or C{i}(f{i})"
            tests.append(f"(type(f{i}) in T{i}{check})")
    lines += [
        f"    if not ({' and '.join(tests) or 'True'}):",
        f"        _check_fields(SCHEMA, [{fields_}])",
    ]
    if schema.cls in (Model, Request):
        which = int(schema.cls is Request)
        lines += [
            f"    if self._deltas and self._reference[{which}] is None "
            "and type(f0) is list and type(f1) is list:",
            f"        self._reference[{which}] = (list(f0), list(f1))",
        ]
    lines.append(f"    return CLS({fields_})")
    return "\n".join(lines)


def _compile(source: str, name: str, namespace: dict) -> Callable:
    """Function ``name`` of ``source`` (a traceback shows it as ``<codec: name Record>``)."""
    where = f"<codec: {name} {namespace['CLS'].__name__}>"
    exec(compile(source, where, "exec"), namespace)  # made from the schema only
    return namespace.pop(name)


def _compiled_paths() -> tuple[dict[type, Callable], dict[int, Callable]]:
    encoders: dict[type, Callable] = {}
    decoders: dict[int, Callable] = {}
    shared = {
        "MM": MalformedMessage,
        "PLAIN": _PLAIN,
        "safe_repr": safe_repr,
        "_kind": _kind,
        "_check_fields": _check_fields,
        "ENCODERS": encoders,
    }
    for schema in (*RECORDS, *_ENVELOPE_SCHEMAS):
        compact = _COMPACT_KINDS.get(schema.cls)
        namespace = dict(shared, CLS=schema.cls, SCHEMA=schema)
        if compact is not None:
            namespace.update({f"K{i}": k for i, k in enumerate(compact[1]) if k is not None})
        encoders[schema.cls] = _compile(_encoder_source(schema, compact), "enc", namespace)
        for i, kind in enumerate(schema.types):
            namespace.update({f"T{i}": kind.fast, f"O{i}": kind.outer, f"C{i}": kind.check})
            namespace[f"I{i}"] = kind.items
        decoders[schema.tag] = _compile(_decoder_source(schema, None), "dec", namespace)
        if compact is not None:
            plan = _COMPACT_PLANS[compact[0]]
            namespace.update({f"M{i}": members for i, _, _, members in plan[0]})
            decoders[compact[0]] = _compile(_decoder_source(schema, plan), "dec", namespace)
    encoders[NativeHandle] = lambda self, value, depth: self._handle(value)  # (not a record)
    encoders[SyncFence] = lambda self, value, depth: self._fence(value)  # (nor this)
    envelopes = {s.tag: decoders.pop(s.tag) for s in _ENVELOPE_SCHEMAS}
    return encoders, decoders, envelopes


_ENCODERS, _DECODERS, _ENVELOPE_DECODERS = _compiled_paths()
"""Record and envelope class -> its compiled encoder; record tag (either layout) -> its
compiled decoder; envelope tag -> its compiled decoder (an envelope is never a value)."""
_SAME = {s.cls: _compile(_same_source(s.names), "same", {"is_": operator.is_, "CLS": s.cls})
         for s in RECORDS if s.cls in _LISTED}  # fmt: skip
"""Each class of ``_LISTED`` -> its compiled ``_same_fields`` test."""


def decode(body: bytes, fds: Sequence[int] = (), peer: Peer | None = None, limits: Limits = LIMITS):
    """The message ``body`` holds (descriptors not claimed by a handle stay open)."""
    return Decoder(fds, peer, limits).decode(body)


__all__ = [
    "DTYPES",
    "ENUMS",
    "LIMITS",
    "ONEWAY_CALL",
    "RECORDS",
    "Batch",
    "Call",
    "Calls",
    "DecodeTimeout",
    "Decoder",
    "EncodeError",
    "Encoder",
    "Flush",
    "Hello",
    "Limits",
    "MalformedMessage",
    "Opaque",
    "ProtocolError",
    "Raise",
    "Release",
    "Return",
    "batch",
    "decode",
    "encode",
    "safe_repr",
]
