"""Per-file state of a spec evaluation, and how DSL calls find it.

Every spec file runs with its own ``SpecContext``: the name registries, the
models and examples it declares, its ``Configuration`` and its version
overrides. The DSL finds the context of the spec being run through a context
variable, so the DSL names stay plain importable classes while no state
survives from one file to the next.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from generator.errors import DslError


class NameRegistry:
    """Names made unique by appending a counter, as the NNAPI generator does.

    Operands use no separator and count from 1 (a second ``op1`` is ``op11``);
    types show the counter from 0 (``type0``); test names use ``_`` and count
    from 2 (``name_2``).
    """

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def claim(self, base: str, sep: str = "", show_zero: bool = False, start: int = 0) -> str:
        """The first free name among ``base`` (or ``base+sep+start``), ``base+sep+(start+1)``, ..."""
        name = self.peek(base, sep, show_zero, start)
        self._taken.add(name)
        return name

    def peek(self, base: str, sep: str = "", show_zero: bool = False, start: int = 0) -> str:
        """The name ``claim`` would give now, without taking it."""
        name = f"{base}{sep}{start}" if show_zero else base
        while name in self._taken:
            start += 1
            name = f"{base}{sep}{start}"
        return name


@dataclass
class ConfigurationState:
    """What a spec sets through ``Configuration``."""

    use_shm_for_weights: bool = False
    force_regenerate: bool = False
    test_dynamic_output_shape: bool = True


@dataclass
class SpecContext:
    """Everything one spec file declares while it runs."""

    filename: str
    """The file name the spec's code was compiled with (finds the spec's frames)."""
    spec_name: str
    """The spec file's basename cut at its first dot."""
    version: str | None
    """The HAL version a new ``Model`` records (``V1_2``), from the spec's path."""
    names: NameRegistry = field(default_factory=NameRegistry)
    """Operands, types and identifiers share this registry."""
    test_names: NameRegistry = field(default_factory=NameRegistry)
    type_names: dict[str, str] = field(default_factory=dict)
    models: list[Any] = field(default_factory=list)
    examples: list[Any] = field(default_factory=list)
    configuration: ConfigurationState = field(default_factory=ConfigurationState)
    version_overrides: dict[str, Any] = field(default_factory=dict)

    def type_name(self, key: str) -> str:
        """The ``typeN`` of a type identity key, claiming a new name the first time."""
        if key not in self.type_names:
            self.type_names[key] = self.names.claim("type", show_zero=True)
        return self.type_names[key]


_ACTIVE: ContextVar[SpecContext | None] = ContextVar("nnhal_spec_context", default=None)


def current_context() -> SpecContext | None:
    """The context of the spec being evaluated, or None outside an evaluation."""
    return _ACTIVE.get()


def active_context() -> SpecContext:
    """The context of the spec being evaluated; DslError outside an evaluation."""
    context = _ACTIVE.get()
    if context is None:
        raise DslError("the spec language is only usable while a spec file is evaluated")
    return context


@contextmanager
def activate(context: SpecContext) -> Iterator[SpecContext]:
    """Make ``context`` the active one for the duration of the block."""
    token = _ACTIVE.set(context)
    try:
        yield context
    finally:
        _ACTIVE.reset(token)


def call_line() -> int:
    """The line of the innermost spec-file frame on the stack (0 if none)."""
    context = _ACTIVE.get()
    if context is None:
        return 0
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == context.filename:
            return frame.f_lineno
        frame = frame.f_back
    return 0
