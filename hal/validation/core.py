"""What every validation rule shares: the rule records and their registry, readers
that never raise on a malformed field, and the facts of a model computed once for all
rules (``hal.validation`` is the public face)."""

from __future__ import annotations

import itertools
import numbers
import operator
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hal.extensions import operand_type_of
from hal.memory import POOL_NAME_INTRODUCED
from hal.operations import (
    Match,
    Signature,
    Tier,
    match_signature,
    operation_info,
)
from hal.types import (
    ENUMS,
    LIFETIMES_1_0,
    DataLocation,
    ErrorStatus,
    HalVersion,
    Model,
    OperandLifeTime,
    OperandType,
    OperandTypeRange,
    Operation,
    OperationType,
    describe_type,
    extension_prefix,
    extension_type_within,
    is_extension_type,
    is_oem_type,
    is_tensor_type,
    operand_byte_size,
)

_HAL_ENUMS = frozenset(ENUMS)
"""The HAL's IntEnum classes: a member's ``_value_`` is its plain int."""
_KNOWN_OPERAND_TYPES = frozenset(int(t) for t in OperandType)
_SEQUENCES = (list, tuple)
"""What a list field may be (a tuple of classes: ``list | tuple`` is built anew at each use)."""
_BASE_MAX = int(OperandTypeRange.BASE_MAX)

UINT32_MAX = 0xFFFF_FFFF
INT32_MAX = 0x7FFF_FFFF


@dataclass(frozen=True)
class Rule:
    name: str
    tier: Tier
    scope: str
    """``model`` or ``request``."""
    description: str


@dataclass(frozen=True)
class Violation:
    rule: Rule
    message: str
    """Names the operand, operation or argument (by index) and the offending value."""

    def __str__(self) -> str:
        return f"{self.rule.name}: {self.message}"


@dataclass(frozen=True)
class ValidationResult:
    violations: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def status(self) -> ErrorStatus:
        return ErrorStatus.NONE if self.ok else ErrorStatus.INVALID_ARGUMENT

    @property
    def rule_names(self) -> frozenset[str]:
        """Names of the rules violated at least once."""
        return frozenset(v.rule.name for v in self.violations)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "\n".join(str(v) for v in self.violations) if self.violations else "valid"


# ---------------------------------------------------------------------------
# Rule registry
# ---------------------------------------------------------------------------

RULES: dict[str, Rule] = {}
"""Every rule, keyed by name; filled once, at import time."""

_MODEL_CHECKS: dict[str, Callable[[_ModelFacts], Iterable[str]]] = {}
_REQUEST_CHECKS: dict[str, Callable[[Any], Iterable[str]]] = {}


# takes request_rules._RequestFacts
def _register(name: str, tier: Tier, scope: str, description: str) -> Rule:
    if name in RULES:
        raise ValueError(f"rule {name!r} is registered twice")
    RULES[name] = Rule(name, tier, scope, description)
    return RULES[name]


def _model_rule(name: str, tier: Tier, description: str):
    """Register a model check: a function yielding one message per violation."""

    def register(check: Callable[[_ModelFacts], Iterable[str]]):
        _register(name, tier, "model", description)
        _MODEL_CHECKS[name] = check
        return check

    return register


def _request_rule(name: str, tier: Tier, description: str):
    """Register a request check: a function yielding one message per violation."""

    def register(check: Callable[[Any], Iterable[str]]):
        _register(name, tier, "request", description)
        _REQUEST_CHECKS[name] = check
        return check

    return register


_NONE_DISABLED: frozenset[str] = frozenset()


def _checked_disabled(disabled: Collection[str]) -> frozenset[str]:
    if not disabled:
        return _NONE_DISABLED
    names = frozenset(disabled)
    unknown = sorted(names - RULES.keys())
    if unknown:
        raise ValueError(f"unknown validation rule(s): {', '.join(unknown)}")
    return names


def _run(
    checks: dict[str, Callable], facts: object, disabled: frozenset[str], limit: int | None
) -> ValidationResult:
    violations = (
        Violation(RULES[name], message)
        for name, check in checks.items()
        if name not in disabled
        for message in check(facts)
    )
    return ValidationResult(tuple(itertools.islice(violations, limit)))


def _checked_limit(limit: int | None) -> int | None:
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise ValueError(f"limit must be a positive integer or None, got {limit!r}")
    return limit


_PREFERENCE_RULE = _register(
    "model.execution_preference",
    Tier.PARITY,
    "model",
    "the execution preference is LOW_POWER, FAST_SINGLE_ANSWER or SUSTAINED_SPEED",
)

_PRIORITY_RULE = _register(
    "model.priority",
    Tier.PARITY,
    "model",
    "the priority given to prepare_model_1_3 is LOW, MEDIUM or HIGH (1.3)",
)

_TIME_RULE = _register(
    "request.time_arguments",
    Tier.STRICT,
    "request",
    "a deadline, loop timeout or duration (1.3) is None or a count of nanoseconds in "
    "[0, 2**64); every such value is valid: a deadline already passed is answered "
    "MISSED_DEADLINE_* (or ignored), never INVALID_ARGUMENT",
)


# ---------------------------------------------------------------------------
# Defensive readers: a malformed field reads as None, never raises
# ---------------------------------------------------------------------------


def _int(value: object) -> int | None:
    kind = value.__class__
    if kind is int:
        return value  # the common case, without the cost of operator.index
    if kind in _HAL_ENUMS:
        return value._value_  # a member's plain int, as operator.index gives it
    try:
        return operator.index(value)
    except TypeError:
        return None


def _real(value: object) -> float | None:
    if value.__class__ is float:
        return value
    return float(value) if isinstance(value, numbers.Real) else None


def _ints(values: object) -> tuple[int, ...] | None:
    """A list of integers as a tuple; None if it is not one."""
    if not isinstance(values, _SEQUENCES):
        return None
    try:
        return tuple(map(operator.index, values))  # _int of each, at C speed
    except TypeError:
        return None


def _items(values: object) -> Sequence:
    return values if isinstance(values, _SEQUENCES) else ()


def _location(location: object) -> tuple[int, int, int] | None:
    if location.__class__ is DataLocation:
        pool_index, offset, length = location.pool_index, location.offset, location.length
        if pool_index.__class__ is int and offset.__class__ is int and length.__class__ is int:
            return pool_index, offset, length
    fields = tuple(_int(getattr(location, f, None)) for f in ("pool_index", "offset", "length"))
    return None if None in fields else fields


def _describe_location(location: object) -> str:
    loc = _location(location)
    if loc is None:
        return f"{location!r} (not a DataLocation)"
    return f"(pool {loc[0]}, offset {loc[1]}, length {loc[2]})"


def _dims_ok(dims: tuple[int, ...] | None) -> bool:
    return dims is not None and (not dims or (min(dims) >= 0 and max(dims) <= UINT32_MAX))


def _lifetime_name(value: object) -> str:
    try:
        return OperandLifeTime(value).name
    except (ValueError, TypeError):
        return repr(value)


def _operation_name(value: object) -> str:
    t = _int(value)
    if t is None:
        return f"operation type {value!r}"
    try:
        return OperationType(t).name
    except ValueError:
        pass
    if is_extension_type(t):
        return (
            f"extension operation {t:#x} (prefix {extension_prefix(t)}, "
            f"type {extension_type_within(t)})"
        )
    return f"unknown operation type {t}"


def _type_name(value: object) -> str:
    t = _int(value)
    return f"operand type {value!r}" if t is None else describe_type(t)


_LIFETIMES = LIFETIMES_1_0
"""The lifetimes of a 1.0-1.2 model; ``lifetimes_at`` gives a level's."""
_LIFETIMES_1_3 = LIFETIMES_1_0 | {OperandLifeTime.SUBGRAPH}


def lifetimes_at(version: HalVersion) -> frozenset[OperandLifeTime]:
    """The operand lifetimes valid in a ``version`` model: SUBGRAPH (6) joins at 1.3."""
    return _LIFETIMES_1_3 if version >= HalVersion.V1_3 else _LIFETIMES


_WRITTEN_LIFETIMES = frozenset({OperandLifeTime.TEMPORARY_VARIABLE, OperandLifeTime.MODEL_OUTPUT})
_CONSTANT_LIFETIMES = frozenset({OperandLifeTime.CONSTANT_COPY, OperandLifeTime.CONSTANT_REFERENCE})


def is_token(pool: object) -> bool:
    """A request pool that is the token of a driver-managed buffer (an int, not a Memory)."""
    return isinstance(pool, numbers.Integral) and not isinstance(pool, bool)


def _pool_problems(
    pools: object, version: HalVersion, what: str, tokens: bool = False
) -> Iterator[str]:
    """Shared by model.pools and request.pools (``tokens``: int entries are judged elsewhere)."""
    for index, pool in enumerate(_items(pools)):
        if tokens and is_token(pool):
            continue
        name = getattr(pool, "name", None)
        introduced = POOL_NAME_INTRODUCED.get(name) if isinstance(name, str) else None
        if introduced is None:
            yield f"{what} {index}: memory name {name!r} is not a known pool kind"
        elif introduced > version:
            yield f"{what} {index}: {name} pools need HAL {introduced}, model is {version}"
        if getattr(pool, "handle", None) is None:
            yield f"{what} {index} ({name!r}) has no handle"


def _pool_size(pools: Sequence, pool_index: int) -> int | None:
    if not 0 <= pool_index < len(pools):
        return None
    return _int(getattr(pools[pool_index], "size", None))


def _bounds_problem(location: tuple[int, int, int], size: int) -> str | None:
    _, offset, length = location
    if offset < 0 or length < 0:
        return f"offset {offset} and length {length} must not be negative"
    if offset + length > size:
        return f"offset {offset} + length {length} = {offset + length} exceeds {size} bytes"
    return None


# ---------------------------------------------------------------------------
# Facts about a model, computed once and shared by the rules
# ---------------------------------------------------------------------------


def _operation_type_exists(t: int | None) -> bool:
    """An OperationType value (OEM included) or an extension operation of 32 bits."""
    if t is None:
        return False
    if is_extension_type(t):
        return t <= UINT32_MAX
    return operation_info(t) is not None


def _operation_type_valid(t: int | None, version: HalVersion) -> bool:
    """Usable at this version: existing, not newer than it, and extensions only at 1.2."""
    if not _operation_type_exists(t):
        return False
    if is_extension_type(t):
        return version >= HalVersion.V1_2
    return operation_info(t).introduced <= version


class _ModelFacts:
    """What the rules read about a model, each field read (defensively) once.

    Per operand, by index: ``types`` (the type as an int, None if not one),
    ``valid_types`` (the type if it is valid at this version, else None: the
    rules on a type apply only then), ``lifetimes`` and ``dims`` (a tuple of
    ints, None if the dimensions are not a list of integers).
    """

    def __init__(
        self,
        model: Model,
        version: HalVersion,
        *,
        graph: str = "main",
        disabled: frozenset[str] = frozenset(),
    ) -> None:
        self.model = model
        self.version = version
        #: "main", or "referenced[k]" for the facts of a referenced subgraph (its model
        #: holds the subgraph's operands and operations, and the model's other fields).
        self.graph = graph
        #: the rules switched off in this validation (the per-subgraph rule honours them).
        self.disabled = disabled
        operands = self.operands = _items(model.operands)
        self.operations: Sequence[Operation] = _items(model.operations)
        self.types = [_int(operand.type) for operand in operands]
        # A type is valid when some level knows it, or it is an extension type of 32 bits in
        # a 1.2 or later model (whether its level knows it is operand.type_version's).
        extensions = version >= HalVersion.V1_2
        self.valid_types = [
            t
            if t in _KNOWN_OPERAND_TYPES
            or (extensions and t is not None and _BASE_MAX < t <= UINT32_MAX)
            else None
            for t in self.types
        ]
        self.lifetimes = [_int(operand.lifetime) for operand in operands]
        self.dims = [_ints(operand.dimensions) for operand in operands]
        #: (index, operand, type) of every operand whose type is valid here.
        self.typed = [(i, operands[i], t) for i, t in enumerate(self.valid_types) if t is not None]

    def index(self, value: object) -> int | None:
        """``value`` as an operand index if it is one, else None."""
        i = _int(value)
        return i if i is not None and 0 <= i < len(self.operands) else None

    @cached_property
    def locations(self) -> list[tuple[int, int, int] | None]:
        """Each operand's location as (pool_index, offset, length); None if malformed."""
        return [_location(operand.location) for operand in self.operands]

    @cached_property
    def constant_lengths(self) -> list[tuple[bool, str]]:
        """The constants whose length is not their size, as (of an extension type, the
        problem): worked out once for the two rules that report them."""
        return _constant_lengths(self)

    @cached_property
    def extension_declarations(self) -> Sequence:
        """The model's ``extension_name_to_prefix`` entries (to size known extension types)."""
        return _items(self.model.extension_name_to_prefix)

    @cached_property
    def declared_prefixes(self) -> frozenset[int]:
        entries = _items(self.model.extension_name_to_prefix)
        return frozenset(_int(getattr(e, "prefix", None)) for e in entries) - {None}

    def operation_label(self, j: int) -> str:
        return f"operation {j} ({_operation_name(self.operations[j].type)})"

    def _slots(self, side: str) -> list[list[tuple[int, int]]]:
        count = len(self.operands)
        result = []
        for operation in self.operations:
            values = _items(getattr(operation, side))
            if all(v.__class__ is int and 0 <= v < count for v in values):
                result.append(list(enumerate(values)))
            else:
                indexes = ((slot, self.index(v)) for slot, v in enumerate(values))
                result.append([(slot, i) for slot, i in indexes if i is not None])
        return result

    @cached_property
    def input_slots(self) -> list[list[tuple[int, int]]]:
        """Per operation, (slot, operand index) of its inputs that are in range."""
        return self._slots("inputs")

    @cached_property
    def output_slots(self) -> list[list[tuple[int, int]]]:
        """Per operation, (slot, operand index) of its outputs that are in range."""
        return self._slots("outputs")

    @cached_property
    def written(self) -> frozenset[int]:
        return frozenset(i for slots in self.output_slots for _, i in slots)

    @cached_property
    def matches(self) -> dict[int, Match]:
        """Each checkable operation's catalog match, by operation position."""
        return {
            j: match_signature(self.model, operation, self.version)
            for j, operation in enumerate(self.operations)
            if _signature_checkable(self, operation)
        }

    def matched(self) -> Iterator[tuple[int, Operation, Signature]]:
        """(position, operation, signature) of every operation that matched a signature."""
        for j, match in self.matches.items():
            if match.signature is not None:
                yield j, self.operations[j], match.signature

    @cached_property
    def reads(self) -> Counter[int]:
        return Counter(i for slots in self.input_slots for _, i in slots)


def _constant_size(facts: _ModelFacts, i: int) -> tuple[int, tuple[int, ...], int] | None:
    """(type, dims, byte size) of constant ``i`` if its size is fixed; None if unknown."""
    t = facts.valid_types[i]
    if t is None or is_oem_type(t):
        return None
    # Extension types: sized only for an extension hal.extensions knows, found through
    # the model's own extension_name_to_prefix (the others are the vendor's business).
    declarations = facts.extension_declarations
    if is_extension_type(t) and operand_type_of(t, declarations) is None:
        return None
    dims = facts.dims[i]
    # An unknown-rank constant is operand.tensor_rank's to report; its size means nothing.
    if not _dims_ok(dims) or (is_tensor_type(t, declarations) and not dims):
        return None
    return t, dims, operand_byte_size(t, dims, declarations)


def _constant_lengths(facts: _ModelFacts) -> list[tuple[bool, str]]:
    """Each constant whose length is not its size: (of an extension type, the problem)."""
    found = []
    for i, lifetime in enumerate(facts.lifetimes):
        if lifetime not in _CONSTANT_LIFETIMES:
            continue
        known = _constant_size(facts, i)
        if known is None:
            continue
        loc = facts.locations[i]
        if loc is None or loc[2] == known[2]:
            continue
        t, dims, size = known
        found.append(
            (
                is_extension_type(t),
                f"operand {i}: constant {describe_type(t)} of dimensions {list(dims)} takes "
                f"{size} bytes, location.length is {loc[2]}",
            )
        )
    return found


def _signature_checkable(facts: _ModelFacts, operation: Operation) -> bool:
    """Only a well-formed operation of a valid type over valid operands can be matched."""
    if not _operation_type_valid(_int(operation.type), facts.version):
        return False
    inputs, outputs = operation.inputs, operation.outputs
    if not (isinstance(inputs, _SEQUENCES) and isinstance(outputs, _SEQUENCES)):
        return False
    valid, count = facts.valid_types, len(facts.valid_types)
    for side in (inputs, outputs):
        for v in side:
            i = v if v.__class__ is int else facts.index(v)  # facts.index, inlined for ints
            if i is None or not 0 <= i < count or valid[i] is None:
                return False
    return True
