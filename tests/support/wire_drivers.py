"""Drivers that attack the wire: each answers ``get_type`` by writing a forged frame
straight onto its service's socket, then answers as the reference driver would.

test_codec.py runs them behind ``isolation.proxy.DriverService`` (and once through
the pytest plugin): the harness must refuse the frame with a ``MalformedAnswer``
naming the rule it breaks, and a restarted service must answer the next call.
The frames are written by hand here, with msgpack and the tag numbers of the
format (isolation/codec.py's docstring), not with the codec's encoder.
"""

from __future__ import annotations

import os
import struct
import sys

import msgpack

from reference_driver import ReferenceDriver

RETURN = 17
"""The tag of the Return envelope: [RETURN, call id, value]."""
LIST = 0
NDARRAY = 8
OBJECT = 11
OPAQUE = 13
HEADER = struct.Struct("<QI")


def channel_fd() -> int:
    """The service's socket: the ``--socket`` descriptor it was started with."""
    if "--socket" in sys.argv:
        value = sys.argv[sys.argv.index("--socket") + 1]
        if value.isdigit():
            return int(value)
    for name in sorted(os.listdir("/proc/self/fd"), key=int):  # any other start-up
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                return int(name)
        except OSError:
            continue
    raise RuntimeError("no socket to attack")


def write_raw(data: bytes) -> None:
    fd = channel_fd()
    while data:
        data = data[os.write(fd, data) :]


def frame(body: bytes) -> bytes:
    return HEADER.pack(len(body), 0) + body


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [LIST, value]
    return value


def forged_pickle() -> bytes:
    """A pickle that would set an attribute on the harness's ErrorStatus class (BUILD with a
    slot-state dict on a global the old restricted unpickler allowed)."""
    return (
        b"\x80\x02"  # PROTO 2
        b"chal.types\nErrorStatus\n"  # GLOBAL hal.types.ErrorStatus
        b"N"  # NONE: no instance dict
        b"}"  # EMPTY_DICT: the slot state
        b"X\x0e\x00\x00\x00nnhal_tampered"  # BINUNICODE key
        b"\x88"  # NEWTRUE
        b"s"  # SETITEM
        b"\x86"  # TUPLE2: (None, {"nnhal_tampered": True})
        b"b"  # BUILD: setattr(ErrorStatus, "nnhal_tampered", True)
        b"."  # STOP
    )


ATTACKS: dict[str, bytes] = {
    "deep": frame(msgpack.packb([RETURN, 1, nested(100)])),
    "amplified": frame(msgpack.packb([RETURN, 1, [NDARRAY, "<f4", [1 << 30], b"\0" * 4]])),
    "pickle": frame(forged_pickle()),
    "unknown-tag": frame(msgpack.packb([RETURN, 1, [250, "anything"]])),
    "huge-header": HEADER.pack(1 << 30, 0),
    "truncated": frame(msgpack.packb([RETURN, 1, [LIST, 1, 2, 3]])[:-2]),
}


def many_classes(count: int = 300_000) -> bytes:
    """An answer holding ``count`` remote objects, each of a class name of its own (every
    one used to become a proxy class of its own, kept for the run: 68 s and 2.8 GB)."""
    objects = [[OBJECT, i + 1, ["IBuffer"], f"Class{i}"] for i in range(count)]
    return frame(msgpack.packb([RETURN, 1, [LIST, *objects]]))


def empty_arrays(count: int = 16_000_000) -> bytes:
    """An answer of ``count`` empty arrays (one byte each) in lists of a million: msgpack
    built them all (some 60 bytes each) before any value was counted."""
    inner = b"\xdd" + (1_000_000).to_bytes(4, "big") + b"\x90" * 1_000_000
    lists = count // 1_000_000
    return frame(b"\x93\x11\x01\xdc" + (lists + 1).to_bytes(2, "big") + b"\x00" + inner * lists)


def slow_answer(count: int = 1_000_000) -> bytes:
    """A well-formed answer within every limit that takes a second or more to build: a list
    of ``count`` opaque stand-ins."""
    return frame(msgpack.packb([RETURN, 1, [LIST, *[[OPAQUE, "Verdict", "x"]] * count]]))


LAZY_ATTACKS = {"many-classes": many_classes, "empty-arrays": empty_arrays, "slow": slow_answer}
"""Attacks whose frames are large: made when they are sent."""


class _Attacker(ReferenceDriver):
    attack = ""

    def get_type(self):
        made = LAZY_ATTACKS.get(self.attack)
        write_raw(made() if made is not None else ATTACKS[self.attack])
        return super().get_type()


class DeepAnswer(_Attacker):
    attack = "deep"


class AmplifiedAnswer(_Attacker):
    attack = "amplified"


class PickleAnswer(_Attacker):
    attack = "pickle"


class UnknownTagAnswer(_Attacker):
    attack = "unknown-tag"


class HugeHeaderAnswer(_Attacker):
    attack = "huge-header"


class TruncatedAnswer(_Attacker):
    attack = "truncated"


class ManyClassesAnswer(_Attacker):
    attack = "many-classes"


class EmptyArraysAnswer(_Attacker):
    attack = "empty-arrays"


class SlowAnswer(_Attacker):
    attack = "slow"
