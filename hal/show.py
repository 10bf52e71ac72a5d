"""Bounded, side-effect-free text for values a driver handed over.

Failure messages quote what a driver returned. A driver is not trusted, so
formatting its answer must not cost more than a fixed amount of work or text,
whatever the answer is: a list shared with itself forty levels deep (whose
plain ``repr`` is 2**40 items long), a string of a gigabyte, an int of a
million digits, or an object whose ``__repr__``, ``__len__``, ``__iter__``,
``__eq__`` or ``__hash__`` raises, hangs or lies.

``show`` formats with a ``reprlib.Repr`` that dispatches on the exact type
(never on a type's name, which a driver's class can borrow), lists only the
first few items of a container and only a few levels deep, and cuts long
strings, bytes and ints. Only types whose formatting this module controls are
looked into: the built-in scalars and containers (exact types, not
subclasses), the HAL's enums and the HAL's dataclasses (field by field, each
field through ``show`` again), and the few harness types registered with
``register_type``. Anything else is shown as ``<TypeName object>``: its own
``__repr__`` is never called. The result is never longer than
``MAX_LENGTH`` characters.

Text is also safe to print: a driver's string (a version, a class name, an
exception's message) may hold terminal escape sequences that clear the screen
and draw a fake verdict, carriage returns that overwrite a line, newlines that
add one, or bidirectional overrides that reorder it. ``printable`` shows every
character ``str.isprintable`` refuses as an escape (``\\x1b``, ``\\n``,
``\\u202e``), as ``repr`` does, and every function here that returns a
driver's text unquoted (``show_text``, ``show_type``, ``show_exception``)
applies it (to what is kept of a long text).
"""

from __future__ import annotations

import dataclasses
import enum
import reprlib
import sys
from collections.abc import Callable
from itertools import islice
from typing import Any

MAX_LENGTH = 400
"""Most characters ``show`` returns."""
MAX_INT_BITS = 128
"""Ints wider than this are shown by their width only (``<int of N bits>``)."""
_HAL_PACKAGE = "hal."


class _BoundedRepr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxtuple = 8
        self.maxlist = 8
        self.maxarray = 8
        self.maxdict = 6
        self.maxset = 6
        self.maxfrozenset = 6
        self.maxdeque = 6
        self.maxstring = 80
        self.maxlong = 40
        self.maxother = 60
        self.fillvalue = "..."

    def repr1(self, x: object, level: int) -> str:
        kind = type(x)
        # Looked up by identity: hashing the class could run its metaclass's __hash__.
        method = _EXACT.get(id(kind))
        if method is not None:
            return method(self, x, level)
        registered = _REGISTERED.get(id(kind))
        if registered is not None:
            return registered(x)
        if is_hal_type(kind):
            if isinstance(x, enum.Enum):
                return f"<{kind.__name__}.{x._name_}: {self.repr1(x._value_, level)}>"
            if dataclasses.is_dataclass(kind):
                return self._dataclass(x, kind, level)
        return f"<{_type_name(kind)} object>"

    def _dataclass(self, x: object, kind: type, level: int) -> str:
        if level <= 0:
            return f"{kind.__name__}(...)"
        parts = []
        for field in dataclasses.fields(kind):
            try:
                value = object.__getattribute__(x, field.name)
            except AttributeError:
                parts.append(f"{field.name}=<missing>")
                continue
            parts.append(f"{field.name}={self.repr1(value, level - 1)}")
        return f"{kind.__name__}({', '.join(parts)})"

    def repr_int(self, x: int, level: int) -> str:
        bits = x.bit_length()
        if bits > MAX_INT_BITS:
            return f"<int of {bits} bits>"
        return super().repr_int(x, level)

    def repr_bool(self, x: bool, level: int) -> str:
        return "True" if x else "False"

    def repr_float(self, x: float, level: int) -> str:
        return float.__repr__(x)

    def repr_complex(self, x: complex, level: int) -> str:
        return complex.__repr__(x)

    def repr_none(self, x: None, level: int) -> str:
        return "None"

    def repr_bytes(self, x: bytes | bytearray, level: int) -> str:
        length = len(x)
        head = bytes(x[: self.maxstring])
        text = repr(head)
        if type(x) is not bytes:
            text = f"{type(x).__name__}({text})"
        if length > self.maxstring:
            text += f"... ({length} bytes)"
        return text

    def repr_str(self, x: str, level: int) -> str:
        if len(x) <= self.maxstring:
            return str.__repr__(x)
        head = str.__repr__(x[: self.maxstring])
        return f"{head}... ({len(x)} characters)"

    def repr_dict(self, x: dict, level: int) -> str:
        # reprlib sorts the keys, which calls the keys' __lt__: a driver's code.
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        shown = [
            f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}"
            for k, v in islice(dict.items(x), self.maxdict)
        ]
        if len(x) > self.maxdict:
            shown.append(self.fillvalue)
        return "{" + ", ".join(shown) + "}"

    def _unsorted(self, x, level: int, left: str, right: str, most: int) -> str:
        if not x:
            return f"{type(x).__name__}()"
        if level <= 0:
            return left + self.fillvalue + right
        shown = [self.repr1(item, level - 1) for item in islice(x, most)]
        if len(x) > most:
            shown.append(self.fillvalue)
        return left + ", ".join(shown) + right

    def repr_set(self, x: set, level: int) -> str:
        return self._unsorted(x, level, "{", "}", self.maxset)

    def repr_frozenset(self, x: frozenset, level: int) -> str:
        return self._unsorted(x, level, "frozenset({", "})", self.maxfrozenset)


def is_hal_type(kind: type) -> bool:
    """Whether ``kind`` is a class the HAL itself defines: found under its own name in an
    imported module of the ``hal`` package (a driver's class naming itself so is not)."""
    module_name = type.__dict__["__module__"].__get__(kind)
    if type(module_name) is not str or not module_name.startswith(_HAL_PACKAGE):
        return False
    module = sys.modules.get(module_name)
    name = type.__dict__["__qualname__"].__get__(kind)
    return module is not None and module.__dict__.get(name) is kind


def _type_name(kind: type) -> str:
    name = printable(type.__dict__["__name__"].__get__(kind))
    return name if len(name) <= 80 else name[:80] + "..."


def printable(text: str, keep: str = "") -> str:
    """``text`` with every character ``str.isprintable`` refuses (control characters, the
    escape that starts a terminal sequence, line and paragraph separators, bidirectional
    and other format characters, unassigned code points) shown as a backslash escape, as
    ``repr`` shows it: safe to print to a terminal or put in a one-line message. The
    characters of ``keep`` (``"\\n"`` for a text of several lines) stay as they are."""
    if text.isprintable():  # the usual case, checked in C
        return text
    # repr of a character isprintable refuses is its escape in quotes (no quote or
    # backslash is refused, so none comes back doubled).
    return "".join(c if c.isprintable() or c in keep else repr(c)[1:-1] for c in text)


_EXACT = {
    id(kind): method
    for kind, method in {
        int: _BoundedRepr.repr_int,
        bool: _BoundedRepr.repr_bool,
        float: _BoundedRepr.repr_float,
        complex: _BoundedRepr.repr_complex,
        type(None): _BoundedRepr.repr_none,
        str: _BoundedRepr.repr_str,
        bytes: _BoundedRepr.repr_bytes,
        bytearray: _BoundedRepr.repr_bytes,
        list: _BoundedRepr.repr_list,
        tuple: _BoundedRepr.repr_tuple,
        dict: _BoundedRepr.repr_dict,
        set: _BoundedRepr.repr_set,
        frozenset: _BoundedRepr.repr_frozenset,
    }.items()
}

_REPR = _BoundedRepr()
_REGISTERED: dict[int, Callable[[Any], str]] = {}
"""Formatters by the id of their class (the classes live as long as their modules)."""


def register_type(kind: type, formatter: Callable[[Any], str]) -> None:
    """Show values of exactly ``kind`` with ``formatter`` (the harness's own stand-ins,
    e.g. the placeholder the isolation channel decodes a driver's unknown object into).
    The formatter must be bounded itself; its text is cut to ``MAX_LENGTH`` anyway."""
    _REGISTERED[id(kind)] = formatter


def show(value: object) -> str:
    """``value`` as text of at most ``MAX_LENGTH`` characters, in bounded time."""
    text = _REPR.repr(value)
    if len(text) > MAX_LENGTH:
        text = text[: MAX_LENGTH - 3] + "..."
    return text


def show_text(value: object, most: int = 80) -> str:
    """A string a driver gave (a name, a version), unquoted and cut to ``most`` characters;
    anything that is not exactly a str goes through ``show``."""
    if type(value) is not str:
        return show(value)
    if len(value) <= most:
        return printable(value)
    return f"{printable(value[:most])}... ({len(value)} characters)"


def show_type(value: object) -> str:
    """The name of ``value``'s class, cut to 80 characters (no code of the class runs)."""
    return _type_name(type(value))


def show_exception(error: BaseException) -> str:
    """``TypeName: message`` for an exception a driver raised, bounded like ``show``.

    The exception's own ``__str__`` is never called: a single string argument is the
    message (cut to 200 characters); other arguments are shown with ``show``.
    """
    try:
        args = BaseException.__dict__["args"].__get__(error)
    except TypeError:
        args = ()
    if type(args) is tuple and len(args) == 1 and type(args[0]) is str:
        message = show_text(args[0], 200)
    elif type(args) is tuple and not args:
        message = ""
    else:
        message = show(args)
    name = show_type(error)
    return f"{name}: {message}" if message else name
