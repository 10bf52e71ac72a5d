"""The rules a model and a request must satisfy before a driver may use them.

A driver calls ``validate_model`` before it answers ``get_supported_operations*``
or prepares a model, ``validate_execution_preference`` on the preference given
to ``prepare_model_1_1``/``_1_2``, and ``validate_request`` before it executes;
any violation means INVALID_ARGUMENT. Each rule has a stable name, a tier
(``parity``: what Android 10 VTS for HAL 1.2 requires; ``strict``: our checks
beyond it) and a scope. ``RULES`` lists them all.

The validators report every problem (unless asked for at most ``limit``: a
driver needs only the first) and never raise on a malformed
record: any field may hold any integer (an enum value that does not exist, a
negative index, a size beyond 32 bits), a float field may be NaN, and optional
parts (handles, extra parameters, pools) may be missing. ``disabled`` switches
single rules off by name, so the suite can be shown to catch a driver that
lacks exactly that check.
"""

from __future__ import annotations

import itertools
import math
import numbers
import operator
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from hal.extensions import operand_type_of
from hal.extensions import operation_problem as extension_operation_problem
from hal.memory import POOL_NAME_INTRODUCED
from hal.operations import (
    ConstraintContext,
    Match,
    Signature,
    Tier,
    match_signature,
    operation_info,
)
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    ExtensionParams,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Request,
    SymmPerChannelQuantParams,
    describe_type,
    extension_prefix,
    extension_type_within,
    is_extension_type,
    is_oem_type,
    is_scalar_type,
    is_tensor_type,
    operand_byte_size,
    operand_type_introduced,
)

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
_REQUEST_CHECKS: dict[str, Callable[[_RequestFacts], Iterable[str]]] = {}


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

    def register(check: Callable[[_RequestFacts], Iterable[str]]):
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


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


def validate_model(
    model: Model,
    version: HalVersion,
    *,
    disabled: Collection[str] = (),
    limit: int | None = None,
) -> ValidationResult:
    """Every violation of the model rules by ``model`` taken as a ``version`` model.

    ``limit``: stop after that many violations (rules run in ``RULES`` order);
    a caller that needs only ``ok``, as a driver answering INVALID_ARGUMENT
    does, passes 1.
    """
    facts = _ModelFacts(model, version)
    return _run(_MODEL_CHECKS, facts, _checked_disabled(disabled), _checked_limit(limit))


def validate_request(
    request: Request,
    model: Model,
    version: HalVersion,
    *,
    disabled: Collection[str] = (),
    memory_domains: bool = False,
    limit: int | None = None,
) -> ValidationResult:
    """Every violation of the request rules by ``request`` for ``model`` prepared at ``version``.

    ``memory_domains``: the driver implements ``IMemoryDomains``, so token pools
    are allowed; whether a token names a live buffer in a declared role is for
    the driver to check, it alone knows its buffers. ``limit`` as for
    ``validate_model``.
    """
    validator = RequestValidator(model, version, disabled=disabled)
    return validator(request, memory_domains=memory_domains, limit=limit)


class RequestValidator:
    """``validate_request`` for the requests of one prepared model, the model read once.

    A driver makes one when it prepares a model and calls it on every request
    (``validator(request, memory_domains=..., limit=...)``, the arguments as for
    ``validate_request``), instead of reading the model's operands again each
    time. The model must not change while the validator is used, as a prepared
    model's may not.
    """

    def __init__(
        self, model: Model, version: HalVersion, *, disabled: Collection[str] = ()
    ) -> None:
        self._model = _ModelFacts(model, version)
        self._disabled = _checked_disabled(disabled)

    def __call__(
        self, request: Request, *, memory_domains: bool = False, limit: int | None = None
    ) -> ValidationResult:
        facts = _RequestFacts(request, self._model, memory_domains)
        return _run(_REQUEST_CHECKS, facts, self._disabled, _checked_limit(limit))


def minimum_version(model: Model, *, disabled: Collection[str] = ()) -> HalVersion | None:
    """The oldest HAL version at which ``model`` is valid, or None if it is valid at none.

    It decides which prepare methods a model may go through: a model whose
    minimum is 1.1 may be given to ``prepare_model_1_1`` and ``_1_2``, never
    to ``prepare_model``.
    """
    for version in HalVersion:
        if validate_model(model, version, disabled=disabled, limit=1).ok:
            return version
    return None


_PREFERENCE_RULE = _register(
    "model.execution_preference",
    Tier.PARITY,
    "model",
    "the execution preference is LOW_POWER, FAST_SINGLE_ANSWER or SUSTAINED_SPEED",
)


def validate_execution_preference(
    preference: int, *, disabled: Collection[str] = ()
) -> ValidationResult:
    """The preference given to ``prepare_model_1_1``/``_1_2`` must be one of the three."""
    names = _checked_disabled(disabled)
    if _int(preference) in set(ExecutionPreference) or _PREFERENCE_RULE.name in names:
        return ValidationResult()
    known = ", ".join(f"{p.name} ({p.value})" for p in ExecutionPreference)
    message = f"execution preference {preference!r} is not one of {known}"
    return ValidationResult((Violation(_PREFERENCE_RULE, message),))


# ---------------------------------------------------------------------------
# Defensive readers: a malformed field reads as None, never raises
# ---------------------------------------------------------------------------


def _int(value: object) -> int | None:
    if value.__class__ is int:
        return value  # the common case, without the cost of operator.index
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
    if not isinstance(values, list | tuple):
        return None
    if all(v.__class__ is int for v in values):
        return tuple(values)
    ints = tuple(_int(v) for v in values)
    return None if None in ints else ints


def _items(values: object) -> Sequence:
    return values if isinstance(values, list | tuple) else ()


def _location(location: object) -> tuple[int, int, int] | None:
    if location.__class__ is DataLocation:
        fields = (location.pool_index, location.offset, location.length)
        if all(f.__class__ is int for f in fields):
            return fields
    fields = tuple(_int(getattr(location, f, None)) for f in ("pool_index", "offset", "length"))
    return None if None in fields else fields


def _describe_location(location: object) -> str:
    loc = _location(location)
    if loc is None:
        return f"{location!r} (not a DataLocation)"
    return f"(pool {loc[0]}, offset {loc[1]}, length {loc[2]})"


def _dims_ok(dims: tuple[int, ...] | None) -> bool:
    return dims is not None and all(0 <= d <= UINT32_MAX for d in dims)


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


_LIFETIMES = frozenset(OperandLifeTime)
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


def _operand_type_valid(t: int | None, version: HalVersion) -> bool:
    if t is None:
        return False
    if is_extension_type(t):
        return t <= UINT32_MAX and version >= HalVersion.V1_2
    return operand_type_introduced(t) is not None


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

    def __init__(self, model: Model, version: HalVersion) -> None:
        self.model = model
        self.version = version
        operands = self.operands = _items(model.operands)
        self.operations: Sequence[Operation] = _items(model.operations)
        self.types = [_int(operand.type) for operand in operands]
        self.valid_types = [t if _operand_type_valid(t, version) else None for t in self.types]
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


# ---------------------------------------------------------------------------
# Model rules
# ---------------------------------------------------------------------------


@_model_rule("model.operands_nonempty", Tier.PARITY, "a model has at least one operand")
def _operands_nonempty(facts: _ModelFacts) -> Iterator[str]:
    if not facts.operands:
        yield "model has no operands"


@_model_rule("model.operations_nonempty", Tier.PARITY, "a model has at least one operation")
def _operations_nonempty(facts: _ModelFacts) -> Iterator[str]:
    if not facts.operations:
        yield "model has no operations"


@_model_rule(
    "operand.type_known",
    Tier.PARITY,
    "an operand type is fundamental, OEM, or (1.2 only) an extension type",
)
def _operand_type_known(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        if facts.valid_types[i] is not None:
            continue
        t = facts.types[i]
        if t is not None and is_extension_type(t) and t <= UINT32_MAX:
            yield f"operand {i}: {describe_type(t)} needs HAL 1.2, model is {facts.version}"
        elif t is not None and t > UINT32_MAX:
            yield f"operand {i}: type {t:#x} does not fit in 32 bits"
        else:
            yield f"operand {i}: {_type_name(operand.type)} is not an operand type"


@_model_rule(
    "operand.type_version",
    Tier.PARITY,
    "a non-extension operand type is no newer than the model's HAL version",
)
def _operand_type_version(facts: _ModelFacts) -> Iterator[str]:
    for i, t in enumerate(facts.types):
        introduced = operand_type_introduced(t) if t is not None else None
        if introduced is not None and introduced > facts.version:
            yield f"operand {i}: {describe_type(t)} needs HAL {introduced}, model is {facts.version}"


@_model_rule(
    "operand.extension_prefix",
    Tier.STRICT,
    "an extension operand type's prefix is declared in extension_name_to_prefix",
)
def _operand_extension_prefix(facts: _ModelFacts) -> Iterator[str]:
    for i, _, t in facts.typed:
        if is_extension_type(t) and extension_prefix(t) not in facts.declared_prefixes:
            yield (
                f"operand {i}: {describe_type(t)} uses prefix {extension_prefix(t)}, "
                "which the model does not declare"
            )


@_model_rule(
    "model.extension_prefixes",
    Tier.STRICT,
    "extension names and prefixes are each declared once; prefixes fit in 16 bits",
)
def _extension_prefixes(facts: _ModelFacts) -> Iterator[str]:
    names: dict[str, int] = {}
    prefixes: dict[int, int] = {}
    for k, entry in enumerate(_items(facts.model.extension_name_to_prefix)):
        name, prefix = getattr(entry, "name", None), getattr(entry, "prefix", None)
        if not (isinstance(name, str) and name):
            yield f"extension_name_to_prefix[{k}]: name {name!r} is not a non-empty string"
        elif name in names:
            yield f"extension_name_to_prefix[{k}]: name {name!r} repeats entry {names[name]}"
        else:
            names[name] = k
        p = _int(prefix)
        if p is None or not 0 <= p <= 0xFFFF:
            yield f"extension_name_to_prefix[{k}]: prefix {prefix!r} does not fit in 16 bits"
        elif p in prefixes:
            yield f"extension_name_to_prefix[{k}]: prefix {p} repeats entry {prefixes[p]}"
        else:
            prefixes[p] = k


@_model_rule(
    "model.extensions_version",
    Tier.PARITY,
    "only a 1.2 model may declare extensions",
)
def _extensions_version(facts: _ModelFacts) -> Iterator[str]:
    entries = _items(facts.model.extension_name_to_prefix)
    if entries and facts.version < HalVersion.V1_2:
        yield (
            f"model declares {len(entries)} extension prefix(es), which needs HAL 1.2, "
            f"model is {facts.version}"
        )


@_model_rule("operand.scalar_rank", Tier.PARITY, "a scalar operand has no dimensions")
def _scalar_rank(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        if not is_scalar_type(t):
            continue
        dims = _items(operand.dimensions)
        if dims:
            yield f"operand {i}: {describe_type(t)} is a scalar but has dimensions {list(dims)}"


@_model_rule(
    "operand.tensor_rank",
    Tier.PARITY,
    "a tensor of unknown rank (no dimensions) is only allowed at 1.2, and never as a constant",
)
def _tensor_rank(facts: _ModelFacts) -> Iterator[str]:
    for i, _, t in facts.typed:
        if facts.dims[i] != () or not is_tensor_type(t):
            continue
        lifetime = facts.lifetimes[i]
        if lifetime in _CONSTANT_LIFETIMES:
            yield f"operand {i}: constant {describe_type(t)} has unknown rank (no dimensions)"
        elif facts.version < HalVersion.V1_2:
            yield (
                f"operand {i}: {describe_type(t)} has unknown rank (no dimensions), "
                f"which needs HAL 1.2, model is {facts.version}"
            )


@_model_rule(
    "operand.dimensions_nonnegative",
    Tier.PARITY,
    "every dimension is an integer in [0, 2**32)",
)
def _dimensions_nonnegative(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        if _dims_ok(facts.dims[i]):
            continue
        dims = operand.dimensions
        if not isinstance(dims, list | tuple):
            yield f"operand {i}: dimensions {dims!r} is not a list"
            continue
        for k, d in enumerate(dims):
            value = _int(d)
            if value is None or not 0 <= value <= UINT32_MAX:
                yield f"operand {i}: dimensions[{k}] = {d!r} is not a uint32"


_SCALE_ZERO = frozenset(
    {
        OperandType.FLOAT32,
        OperandType.INT32,
        OperandType.UINT32,
        OperandType.BOOL,
        OperandType.FLOAT16,
        OperandType.TENSOR_FLOAT32,
        OperandType.TENSOR_FLOAT16,
        OperandType.TENSOR_BOOL8,
        OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
    }
)
_SCALE_POSITIVE = frozenset(
    {
        OperandType.TENSOR_QUANT8_ASYMM,
        OperandType.TENSOR_QUANT8_SYMM,
        OperandType.TENSOR_QUANT16_ASYMM,
        OperandType.TENSOR_QUANT16_SYMM,
    }
)


def _scale_problem(t: int, scale: float) -> str | None:
    if is_oem_type(t):
        return None
    if not math.isfinite(scale):
        return "is not finite"
    if (t in _SCALE_ZERO or is_extension_type(t)) and scale != 0:
        return "must be 0"
    if t == OperandType.TENSOR_INT32 and scale < 0:
        return "must be >= 0"
    if t in _SCALE_POSITIVE and not scale > 0:
        return "must be > 0"
    return None


@_model_rule(
    "operand.scale",
    Tier.PARITY,
    "scale is finite: 0 for unquantized and per-channel types, >= 0 for TENSOR_INT32, "
    "> 0 for the other quantized types, 0 for extensions; OEM types are not checked",
)
def _operand_scale(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        scale = _real(operand.scale)
        if scale is None and not is_oem_type(t):
            yield f"operand {i}: {describe_type(t)} scale {operand.scale!r} is not a number"
            continue
        problem = None if scale is None else _scale_problem(t, scale)
        if problem:
            yield f"operand {i}: {describe_type(t)} scale {scale!r} {problem}"


_ZERO_POINT_RANGE: dict[int, tuple[int, int]] = {
    OperandType.TENSOR_QUANT8_ASYMM: (0, 255),
    OperandType.TENSOR_QUANT16_ASYMM: (0, 65535),
}


@_model_rule(
    "operand.zero_point",
    Tier.PARITY,
    "zero_point is in [0, 255] for TENSOR_QUANT8_ASYMM, [0, 65535] for TENSOR_QUANT16_ASYMM, "
    "0 for every other type except OEM types",
)
def _operand_zero_point(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        if is_oem_type(t):
            continue
        low, high = _ZERO_POINT_RANGE.get(t, (0, 0))
        zero_point = _int(operand.zero_point)
        if zero_point is None or not low <= zero_point <= high:
            allowed = "0" if low == high else f"in [{low}, {high}]"
            yield (
                f"operand {i}: {describe_type(t)} zero_point {operand.zero_point!r} "
                f"must be {allowed}"
            )


def _channel_problem(params: object, dims: tuple[int, ...] | None) -> str | None:
    if not isinstance(params, SymmPerChannelQuantParams):
        return f"needs SymmPerChannelQuantParams, has {params!r}"
    channel_dim = _int(params.channel_dim)
    if dims is None or channel_dim is None or not 0 <= channel_dim < len(dims):
        return f"channel_dim {params.channel_dim!r} is not below the rank {len(dims or ())}"
    channels = dims[channel_dim]
    if channels == 0:
        return f"dimension {channel_dim} (the channel dimension) is 0"
    scales = _items(params.scales)
    if len(scales) != channels:
        return f"has {len(scales)} scales for {channels} channels"
    bad = [s for s in scales if _real(s) is None or not 0 < _real(s) < math.inf]
    if bad:
        return f"scales must be finite and > 0, has {bad[0]!r}"
    return None


def _extra_params_problem(t: int, operand: Operand, dims: tuple[int, ...] | None) -> str | None:
    params = operand.extra_params
    if is_oem_type(t):
        return None
    if t == OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
        return _channel_problem(params, dims)
    if is_extension_type(t):
        ok = params is None or isinstance(params, ExtensionParams)
        return None if ok else f"must be None or ExtensionParams, has {params!r}"
    return None if params is None else f"must be None, has {params!r}"


@_model_rule(
    "operand.extra_params",
    Tier.PARITY,
    "per-channel operands carry valid SymmPerChannelQuantParams; other fundamental types "
    "none; extension types none or ExtensionParams",
)
def _operand_extra_params(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        if operand.extra_params is None and t != OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
            continue  # None is right for every other type
        problem = _extra_params_problem(t, operand, facts.dims[i])
        if problem:
            yield f"operand {i}: {describe_type(t)} extra_params {problem}"


@_model_rule("operand.lifetime", Tier.PARITY, "lifetime is an OperandLifeTime value")
def _operand_lifetime(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        if facts.lifetimes[i] not in _LIFETIMES:
            yield f"operand {i}: lifetime {operand.lifetime!r} is not an OperandLifeTime"


def _location_problem(facts: _ModelFacts, lifetime: int, loc: tuple[int, int, int]) -> str | None:
    pool_index, offset, length = loc
    if lifetime == OperandLifeTime.CONSTANT_COPY:
        if pool_index != 0:
            return f"pool_index is {pool_index}, must be 0"
        values = facts.model.operand_values
        return _bounds_problem(loc, len(values) if isinstance(values, bytes | bytearray) else 0)
    if lifetime == OperandLifeTime.CONSTANT_REFERENCE:
        pools = _items(facts.model.pools)
        size = _pool_size(pools, pool_index)
        if size is None:
            return f"pool_index {pool_index} is not one of the model's {len(pools)} pools"
        return _bounds_problem(loc, size)
    if loc != (0, 0, 0):
        return f"location must be all 0, is (pool {pool_index}, offset {offset}, length {length})"
    return None


@_model_rule(
    "operand.location",
    Tier.PARITY,
    "constants lie inside operand_values (CONSTANT_COPY, pool 0) or their pool "
    "(CONSTANT_REFERENCE); every other lifetime has an all-zero location",
)
def _operand_location(facts: _ModelFacts) -> Iterator[str]:
    for i, (operand, loc) in enumerate(zip(facts.operands, facts.locations, strict=True)):
        lifetime = facts.lifetimes[i]
        if lifetime not in _LIFETIMES:
            continue
        problem = (
            f"location {operand.location!r} is not a DataLocation"
            if loc is None
            else _location_problem(facts, lifetime, loc)
        )
        if problem:
            yield f"operand {i} ({OperandLifeTime(lifetime).name}): {problem}"


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


@_model_rule(
    "operand.constant_length",
    Tier.PARITY,
    "a non-OEM, non-extension constant's location.length equals its data size",
)
def _constant_length(facts: _ModelFacts) -> Iterator[str]:
    yield from (problem for extension, problem in facts.constant_lengths if not extension)


@_model_rule(
    "operand.extension_constant_length",
    Tier.STRICT,
    "a constant of an extension type hal.extensions knows has a location.length equal to "
    "its data size (Android 10 sizes no extension type)",
)
def _extension_constant_length(facts: _ModelFacts) -> Iterator[str]:
    yield from (problem for extension, problem in facts.constant_lengths if extension)


@_model_rule(
    "operand.constant_unspecified",
    Tier.STRICT,
    "a constant tensor has no dimension of 0",
)
def _constant_unspecified(facts: _ModelFacts) -> Iterator[str]:
    for i, dims in enumerate(facts.dims):
        if dims and 0 in dims and facts.lifetimes[i] in _CONSTANT_LIFETIMES:
            yield f"operand {i}: constant has unspecified dimensions {list(dims)}"


def _io_index_problems(facts: _ModelFacts, field: str, lifetime: int) -> Iterator[str]:
    first: dict[int, int] = {}
    for k, value in enumerate(_items(getattr(facts.model, field))):
        i = facts.index(value)
        if i is None:
            count = len(facts.operands)
            yield f"{field}[{k}] = {value!r} is out of range (model has {count} operands)"
            continue
        if i in first:
            yield f"{field}[{k}] = {i} repeats {field}[{first[i]}]"
        first.setdefault(i, k)
        if facts.lifetimes[i] != lifetime:
            actual = _lifetime_name(facts.operands[i].lifetime)
            yield f"{field}[{k}] = {i}: lifetime is {actual}, must be {OperandLifeTime(lifetime).name}"


@_model_rule(
    "model.input_indexes",
    Tier.PARITY,
    "input_indexes are distinct operand indexes of MODEL_INPUT operands",
)
def _input_indexes(facts: _ModelFacts) -> Iterator[str]:
    return _io_index_problems(facts, "input_indexes", OperandLifeTime.MODEL_INPUT)


@_model_rule(
    "model.output_indexes",
    Tier.PARITY,
    "output_indexes are distinct operand indexes of MODEL_OUTPUT operands",
)
def _output_indexes(facts: _ModelFacts) -> Iterator[str]:
    return _io_index_problems(facts, "output_indexes", OperandLifeTime.MODEL_OUTPUT)


@_model_rule(
    "model.io_listed",
    Tier.STRICT,
    "every MODEL_INPUT operand is in input_indexes and every MODEL_OUTPUT one in output_indexes",
)
def _io_listed(facts: _ModelFacts) -> Iterator[str]:
    listed = {
        OperandLifeTime.MODEL_INPUT: ("input_indexes", facts.model.input_indexes),
        OperandLifeTime.MODEL_OUTPUT: ("output_indexes", facts.model.output_indexes),
    }
    listed_sets = {lt: {_int(v) for v in _items(vals)} for lt, (_, vals) in listed.items()}
    for i, lifetime in enumerate(facts.lifetimes):
        if lifetime in listed and i not in listed_sets[lifetime]:
            name = OperandLifeTime(lifetime).name
            yield f"operand {i} has lifetime {name} but is not in {listed[lifetime][0]}"


@_model_rule(
    "model.pools",
    Tier.PARITY,
    "each model pool has a memory name known at the model's version and a handle",
)
def _model_pools(facts: _ModelFacts) -> Iterator[str]:
    return _pool_problems(facts.model.pools, facts.version, "model pool")


@_model_rule(
    "model.relaxed_version",
    Tier.PARITY,
    "relax_computation_float32_to_float16 is only allowed from 1.1",
)
def _relaxed_version(facts: _ModelFacts) -> Iterator[str]:
    if facts.model.relax_computation_float32_to_float16 and facts.version < HalVersion.V1_1:
        yield (
            "relax_computation_float32_to_float16 is set, which needs HAL 1.1, "
            f"model is {facts.version}"
        )


_SUBGRAPHS_SINCE = 13
"""HAL 1.3, as ``HalVersion`` numbers levels: the first level with referenced subgraphs."""


@_model_rule(
    "model.referenced_version",
    Tier.PARITY,
    "a model refers to subgraphs (Model.referenced) only from HAL 1.3",
)
def _referenced_version(facts: _ModelFacts) -> Iterator[str]:
    referenced = facts.model.referenced
    if type(referenced) is not list:
        yield f"referenced is a {type(referenced).__name__}, not a list of subgraphs"
    elif referenced and facts.version < _SUBGRAPHS_SINCE:
        count = len(referenced)
        yield (
            f"the model refers to {count} subgraph{'s' if count != 1 else ''}, which needs "
            f"HAL 1.3, model is {facts.version}"
        )


# ---------------------------------------------------------------------------
# Operation rules
# ---------------------------------------------------------------------------


@_model_rule(
    "operation.type_known",
    Tier.PARITY,
    "an operation type is an OperationType, OEM_OPERATION, or (1.2 only) an extension operation",
)
def _operation_type_known(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        if not _operation_type_exists(t):
            yield f"operation {j}: {_operation_name(operation.type)} is not an operation type"
        elif is_extension_type(t) and facts.version < HalVersion.V1_2:
            yield f"operation {j}: {_operation_name(t)} needs HAL 1.2, model is {facts.version}"


@_model_rule(
    "operation.extension_prefix",
    Tier.STRICT,
    "an extension operation type's prefix is declared in extension_name_to_prefix",
)
def _operation_extension_prefix(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        if not (_operation_type_valid(t, facts.version) and is_extension_type(t)):
            continue
        if extension_prefix(t) not in facts.declared_prefixes:
            yield (
                f"operation {j}: {_operation_name(t)} uses prefix {extension_prefix(t)}, "
                "which the model does not declare"
            )


@_model_rule(
    "operation.extension_signature",
    Tier.STRICT,
    "an operation of an extension hal.extensions knows has the operand counts, types and "
    "shapes that extension defines",
)
def _operation_extension_signature(facts: _ModelFacts) -> Iterator[str]:
    declarations = _items(facts.model.extension_name_to_prefix)
    if not declarations:
        return
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        if not (_operation_type_valid(t, facts.version) and is_extension_type(t)):
            continue
        if not _signature_checkable(facts, operation):
            continue
        problem = extension_operation_problem(operation, facts.operands, declarations)
        if problem is not None:
            yield f"operation {j}: {problem}"


@_model_rule(
    "operation.type_version",
    Tier.PARITY,
    "an operation is no newer than the model's HAL version",
)
def _operation_type_version(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        info = operation_info(t) if t is not None else None
        if info is not None and info.introduced > facts.version:
            yield (
                f"operation {j}: {info.type.name} needs HAL {info.introduced}, "
                f"model is {facts.version}"
            )


@_model_rule(
    "operation.operand_indexes",
    Tier.PARITY,
    "every operation input and output is an index into operands",
)
def _operand_indexes(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        for side in ("inputs", "outputs"):
            values = getattr(operation, side)
            if not isinstance(values, list | tuple):
                yield f"{facts.operation_label(j)}: {side} {values!r} is not a list"
                continue
            for k, value in enumerate(values):
                if facts.index(value) is None:
                    yield (
                        f"{facts.operation_label(j)}: {side}[{k}] = {value!r} is out of range "
                        f"(model has {len(facts.operands)} operands)"
                    )


def _signature_checkable(facts: _ModelFacts, operation: Operation) -> bool:
    """Only a well-formed operation of a valid type over valid operands can be matched."""
    if not _operation_type_valid(_int(operation.type), facts.version):
        return False
    sides = (operation.inputs, operation.outputs)
    if not all(isinstance(side, list | tuple) for side in sides):
        return False
    indexes = [facts.index(v) for side in sides for v in side]
    return all(i is not None and facts.valid_types[i] is not None for i in indexes)


@_model_rule(
    "operation.signature",
    Tier.PARITY,
    "an operation's operand counts and types match a signature of the catalog at this version",
)
def _operation_signature(facts: _ModelFacts) -> Iterator[str]:
    for j, match in facts.matches.items():
        if match.reason:
            yield f"operation {j}: {match.reason}"


def _constraint_problems(facts: _ModelFacts, tier: Tier) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        context = ConstraintContext(facts.model, operation, facts.version)
        for constraint in signature.constraints:
            if constraint.tier != tier or not constraint.applies(facts.version):
                continue
            try:
                problem = constraint.check(context)
            except (TypeError, ValueError, ArithmeticError, AttributeError) as error:
                # A constraint reading a malformed field (a scale that is not a number).
                problem = f"cannot be checked: {error}"
            if problem:
                yield f"{facts.operation_label(j)} [{constraint.name}]: {problem}"


@_model_rule(
    "operation.constraint",
    Tier.PARITY,
    "an operation meets the type-level constraints Android 10's validator enforces",
)
def _operation_constraint(facts: _ModelFacts) -> Iterator[str]:
    return _constraint_problems(facts, Tier.PARITY)


@_model_rule(
    "operation.constraint_strict",
    Tier.STRICT,
    "an operation meets the type-level constraints the HAL states but Android 10 checks late",
)
def _operation_constraint_strict(facts: _ModelFacts) -> Iterator[str]:
    return _constraint_problems(facts, Tier.STRICT)


@_model_rule(
    "operation.rank",
    Tier.STRICT,
    "an operation's inputs of known rank are within the ranks the operation defines "
    "(each repeated input too; not a model input in an optional slot: it may be given "
    "no value)",
)
def _operation_rank(facts: _ModelFacts) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        for slot, low, high in signature.ranks:
            for position in slot_positions(operation, signature, slot):
                if position >= len(operation.inputs):
                    continue
                dims = facts.dims[operation.inputs[position]]
                lifetime = facts.lifetimes[operation.inputs[position]]
                if not dims or lifetime == OperandLifeTime.NO_VALUE:
                    continue  # unknown rank (or omitted): judged at execution
                if slot in signature.omittable and lifetime == OperandLifeTime.MODEL_INPUT:
                    # An optional input fed by the model may be sent with has_no_value;
                    # its declared dims (often "{0}") are then no tensor to judge.
                    continue
                if not low <= len(dims) <= high:
                    allowed = f"{low}" if low == high else f"{low} to {high}"
                    yield (
                        f"{facts.operation_label(j)}: input {position} has rank {len(dims)}, "
                        f"must be {allowed}"
                    )


def slot_positions(operation: Operation, signature: Signature, slot: int) -> range:
    """The operation's input positions that signature slot ``slot`` covers: several for a
    repeated slot (CONCATENATION's tensors), else one (slots after a repeated one shift)."""
    repeat = signature.repeat_input
    if repeat is None or slot < repeat:
        return range(slot, slot + 1)
    extra = len(operation.inputs) - len(signature.inputs)
    if slot == repeat:
        return range(slot, slot + extra + 1)
    return range(slot + extra, slot + extra + 1)


@_model_rule(
    "operation.depthwise_filter",
    Tier.STRICT,
    "a DEPTHWISE_CONV_2D filter whose first dimension is known has first dimension 1 "
    "(Android 11 checks it for models of every version)",
)
def _depthwise_filter(facts: _ModelFacts) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        if signature.operation != OperationType.DEPTHWISE_CONV_2D:
            continue
        dims = facts.dims[operation.inputs[1]]
        if dims and dims[0] not in (0, 1):  # 0: not known until execution
            yield (
                f"{facts.operation_label(j)}: the filter (input 1) has dimensions "
                f"{list(dims)}; its first dimension must be 1"
            )


@_model_rule(
    "operation.omitted_input",
    Tier.STRICT,
    "only inputs an operation defines as optional are NO_VALUE operands",
)
def _operation_omitted_input(facts: _ModelFacts) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        for slot, i in enumerate(operation.inputs):
            if facts.lifetimes[i] == OperandLifeTime.NO_VALUE and slot not in signature.omittable:
                yield f"{facts.operation_label(j)}: input {slot} (operand {i}) cannot be omitted"


@_model_rule(
    "operation.output_lifetime",
    Tier.PARITY,
    "every operation output is a TEMPORARY_VARIABLE or MODEL_OUTPUT operand",
)
def _output_lifetime(facts: _ModelFacts) -> Iterator[str]:
    for j, slots in enumerate(facts.output_slots):
        for k, i in slots:
            if facts.lifetimes[i] not in _WRITTEN_LIFETIMES:
                yield (
                    f"{facts.operation_label(j)}: outputs[{k}] = {i} has lifetime "
                    f"{_lifetime_name(facts.operands[i].lifetime)}, "
                    "must be TEMPORARY_VARIABLE or MODEL_OUTPUT"
                )


@_model_rule(
    "operation.single_writer",
    Tier.PARITY,
    "no operand is written by two operations, or twice by one",
)
def _single_writer(facts: _ModelFacts) -> Iterator[str]:
    writer: dict[int, tuple[int, int]] = {}
    for j, slots in enumerate(facts.output_slots):
        for k, i in slots:
            if i in writer:
                first_j, first_k = writer[i]
                yield (
                    f"operand {i} is written by operation {j} outputs[{k}] and already by "
                    f"operation {first_j} outputs[{first_k}]"
                )
            writer.setdefault(i, (j, k))


@_model_rule(
    "operation.all_written",
    Tier.PARITY,
    "every TEMPORARY_VARIABLE and MODEL_OUTPUT operand is written by some operation",
)
def _all_written(facts: _ModelFacts) -> Iterator[str]:
    for i, lifetime in enumerate(facts.lifetimes):
        if lifetime in _WRITTEN_LIFETIMES and i not in facts.written:
            yield f"operand {i} ({OperandLifeTime(lifetime).name}) is never written by an operation"


@_model_rule(
    "operand.number_of_consumers",
    Tier.STRICT,
    "number_of_consumers equals the number of operation input slots reading the operand",
)
def _number_of_consumers(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        declared, actual = operand.number_of_consumers, facts.reads[i]
        if _int(declared) != actual:
            yield (
                f"operand {i}: number_of_consumers is {declared!r}, but {actual} operation "
                "input(s) read it"
            )


@_model_rule(
    "operation.order",
    Tier.STRICT,
    "operations are in execution order: each reads only operands written by earlier ones "
    "(so there is no cycle)",
)
def _operation_order(facts: _ModelFacts) -> Iterator[str]:
    written: set[int] = set()
    for j, (inputs, outputs) in enumerate(zip(facts.input_slots, facts.output_slots, strict=True)):
        for k, i in inputs:
            if facts.lifetimes[i] in _WRITTEN_LIFETIMES and i not in written:
                yield (
                    f"{facts.operation_label(j)}: inputs[{k}] = {i} is read before an earlier "
                    "operation writes it"
                )
        written.update(i for _, i in outputs)


# ---------------------------------------------------------------------------
# Request rules
# ---------------------------------------------------------------------------


class _Argument:
    """One request argument with the model operand it stands for (None if unknown).

    Its fields are read once: ``no_value``, ``dims`` (None if not a list of
    integers) and ``loc`` (None if not a DataLocation of integers). ``token``:
    the token of the pool it lies in when that pool is a driver-managed buffer.
    """

    __slots__ = (
        "argument",
        "dims",
        "loc",
        "model_dims",
        "no_value",
        "operand_index",
        "operand_type",
        "position",
        "side",
        "token",
    )

    def __init__(
        self,
        side: str,
        position: int,
        argument: object,
        operand_index: int | None,
        operand_type: int | None,
        model_dims: tuple[int, ...] | None,
    ) -> None:
        self.side = side  # "input" or "output"
        self.position = position
        self.argument = argument
        self.operand_index = operand_index
        self.operand_type = operand_type
        self.model_dims = model_dims
        self.no_value = bool(getattr(argument, "has_no_value", False))
        self.dims = _ints(getattr(argument, "dimensions", None))
        self.loc = _location(getattr(argument, "location", None))
        self.token: int | None = None  # set by _RequestFacts, which knows the pools

    @property
    def label(self) -> str:
        at = "" if self.operand_index is None else f" (operand {self.operand_index})"
        return f"{self.side} {self.position}{at}"

    @property
    def model_rank(self) -> int | None:
        """The operand's rank if the model fixes it (a scalar, or a tensor with dimensions)."""
        if self.operand_type is None or self.model_dims is None:
            return None
        if self.model_dims or is_scalar_type(self.operand_type):
            return len(self.model_dims)
        return None

    @property
    def merged_dims(self) -> tuple[int, ...] | None:
        """The model's dimensions as the argument overrides them."""
        return self.dims or self.model_dims

    def unspecified(self) -> str | None:
        """Why the merged dimensions are not fully specified, or None if they are."""
        dims = self.merged_dims
        if dims is None or self.operand_type is None:
            return None
        if not dims and is_tensor_type(self.operand_type):
            return "rank is unknown"
        if any(d <= 0 for d in dims):
            return f"dimensions {list(dims)} are not all positive"
        return None


class _RequestFacts:
    def __init__(self, request: Request, model: _ModelFacts, memory_domains: bool) -> None:
        self.request = request
        self.model = model
        self.memory_domains = memory_domains
        self.pools: Sequence = _items(request.pools)
        self.inputs = self._arguments("input", request.inputs, model.model.input_indexes)
        self.outputs = self._arguments("output", request.outputs, model.model.output_indexes)
        self.arguments = [*self.inputs, *self.outputs]
        for arg in self.arguments:
            arg.token = self._token_of(arg)

    def _arguments(self, side: str, arguments: object, indexes: object) -> list[_Argument]:
        indexes = _items(indexes)
        result = []
        for k, argument in enumerate(_items(arguments)):
            i = self.model.index(indexes[k]) if k < len(indexes) else None
            t = self.model.valid_types[i] if i is not None else None
            dims = self.model.dims[i] if i is not None else None
            result.append(_Argument(side, k, argument, i, t, dims))
        return result

    def with_value(self) -> Iterator[_Argument]:
        return (a for a in self.arguments if not a.no_value)

    def _token_of(self, arg: _Argument) -> int | None:
        """The token of the pool ``arg`` lies in, if that pool is a driver-managed buffer."""
        loc = arg.loc
        if arg.no_value or loc is None or not 0 <= loc[0] < len(self.pools):
            return None
        pool = self.pools[loc[0]]
        return int(pool) if is_token(pool) else None


def _count_problem(facts: _RequestFacts, side: str, field: str) -> Iterator[str]:
    given = len(_items(getattr(facts.request, f"{side}s")))
    expected = len(_items(getattr(facts.model.model, field)))
    if given != expected:
        yield f"request has {given} {side} argument(s), model has {expected} {side}(s)"


@_request_rule(
    "request.input_count",
    Tier.PARITY,
    "the request has one input argument per model input",
)
def _input_count(facts: _RequestFacts) -> Iterator[str]:
    return _count_problem(facts, "input", "input_indexes")


@_request_rule(
    "request.output_count",
    Tier.PARITY,
    "the request has one output argument per model output",
)
def _output_count(facts: _RequestFacts) -> Iterator[str]:
    return _count_problem(facts, "output", "output_indexes")


@_request_rule(
    "request.no_value",
    Tier.PARITY,
    "an argument with has_no_value has an all-zero location and no dimensions",
)
def _no_value(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.arguments:
        if not arg.no_value:
            continue
        location = getattr(arg.argument, "location", None)
        dims = getattr(arg.argument, "dimensions", None)
        if arg.loc != (0, 0, 0) or arg.dims != ():
            yield (
                f"{arg.label}: has_no_value, but location is {_describe_location(location)} "
                f"and dimensions {dims!r}"
            )


@_request_rule(
    "request.no_value_required",
    Tier.STRICT,
    "only inputs that feed operation slots the catalog marks optional are given has_no_value",
)
def _no_value_required(facts: _RequestFacts) -> Iterator[str]:
    omitted = {arg.operand_index: arg for arg in facts.inputs if arg.no_value}
    omitted.pop(None, None)
    if not omitted:
        return
    for j, operation, signature in facts.model.matched():
        for slot, i in enumerate(operation.inputs):
            arg = omitted.get(i)
            if arg is not None and slot not in signature.omittable:
                yield (
                    f"{arg.label}: has_no_value, but {facts.model.operation_label(j)} "
                    f"input {slot} is required"
                )


@_request_rule(
    "request.pool_index",
    Tier.PARITY,
    "an argument's pool_index names one of the request's pools",
)
def _pool_index(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        loc = arg.loc
        if loc is None:
            location = getattr(arg.argument, "location", None)
            yield f"{arg.label}: location {location!r} is not a DataLocation"
        elif not 0 <= loc[0] < len(facts.pools):
            yield f"{arg.label}: pool_index {loc[0]} is not one of the {len(facts.pools)} pools"


@_request_rule(
    "request.location",
    Tier.PARITY,
    "an argument's offset and length are not negative and stay inside its pool (both 0 in "
    "a driver-managed buffer)",
)
def _request_location(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        loc = arg.loc
        token = arg.token
        if token is not None:
            if loc[1:] != (0, 0):
                yield (
                    f"{arg.label}: pool {loc[0]} is a driver-managed buffer (token {token}): "
                    f"offset {loc[1]} and length {loc[2]} must both be 0"
                )
            continue
        size = _pool_size(facts.pools, loc[0]) if loc is not None else None
        problem = None if size is None else _bounds_problem(loc, size)
        if problem:
            yield f"{arg.label}: pool {loc[0]}: {problem}"


@_request_rule(
    "request.dimensions_rank",
    Tier.PARITY,
    "argument dimensions, when given, have the operand's rank (when the model fixes it)",
)
def _dimensions_rank(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        dims, rank = arg.dims, arg.model_rank
        if dims and rank is not None and len(dims) != rank:
            yield f"{arg.label}: dimensions {list(dims)} have rank {len(dims)}, operand has {rank}"


@_request_rule(
    "request.dimensions_conflict",
    Tier.PARITY,
    "argument dimensions are a list of uint32 values, equal to the model's wherever those "
    "are not 0",
)
def _dimensions_conflict(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        dims, model_dims = arg.dims, arg.model_dims
        if dims is None:
            raw = getattr(arg.argument, "dimensions", None)
            yield f"{arg.label}: dimensions {raw!r} is not a list of integers"
            continue
        same_rank = model_dims is not None and len(model_dims) == len(dims)
        for k, d in enumerate(dims):
            model_d = model_dims[k] if same_rank else 0
            if not 0 <= d <= UINT32_MAX:
                yield f"{arg.label}: dimensions[{k}] = {d} is not a uint32"
            elif model_d != 0 and d != model_d:
                yield f"{arg.label}: dimensions[{k}] = {d} conflicts with the operand's {model_d}"


@_request_rule(
    "request.input_specified",
    Tier.PARITY,
    "every input with a value is fully specified (known rank, no 0) once its dimensions apply",
)
def _input_specified(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.inputs:
        # A driver-managed buffer brings its own dimensions; the driver checks them.
        problem = None if arg.no_value or arg.token is not None else arg.unspecified()
        if problem:
            yield f"{arg.label}: {problem}"


@_request_rule(
    "request.output_specified",
    Tier.PARITY,
    "below 1.2, every output is fully specified (known rank, no 0) once its dimensions apply",
)
def _output_specified(facts: _RequestFacts) -> Iterator[str]:
    if facts.model.version >= HalVersion.V1_2:
        return
    for arg in facts.outputs:
        problem = None if arg.no_value else arg.unspecified()
        if problem:
            yield f"{arg.label}: {problem}, which needs HAL 1.2, model is {facts.model.version}"


@_request_rule(
    "request.pools",
    Tier.PARITY,
    "each request pool has a memory name known at the model's version and a handle",
)
def _request_pools(facts: _RequestFacts) -> Iterator[str]:
    pools = _items(facts.request.pools)
    for index, pool in enumerate(pools):
        if is_token(pool) and not 0 < pool <= INT32_MAX:
            yield f"request pool {index}: token {pool} is not a positive int32"
    yield from _pool_problems(pools, facts.model.version, "request pool", tokens=True)


@_request_rule(
    "request.pool_token",
    Tier.STRICT,
    "a request pool is a driver-managed buffer's token only for drivers with memory domains",
)
def _pool_token(facts: _RequestFacts) -> Iterator[str]:
    if facts.memory_domains:
        return
    for index, pool in enumerate(_items(facts.request.pools)):
        if is_token(pool):
            yield (
                f"request pool {index} is the token {pool} of a driver-managed buffer; "
                "the driver does not implement memory domains (IMemoryDomains)"
            )


@_request_rule(
    "request.input_length",
    Tier.STRICT,
    "an input's location.length equals the byte size of its fully specified data",
)
def _input_length(facts: _RequestFacts) -> Iterator[str]:
    # Extension types: sized only for an extension hal.extensions knows, found through
    # the model's own extension_name_to_prefix (the others are the vendor's business).
    declarations = _items(facts.model.model.extension_name_to_prefix)
    for arg in facts.inputs:
        t, dims = arg.operand_type, arg.merged_dims
        loc = arg.loc
        if arg.no_value or t is None or is_oem_type(t):
            continue
        if is_extension_type(t) and (
            operand_type_of(t, declarations) is None
            or (not dims and is_tensor_type(t, declarations))
        ):
            continue
        if arg.token is not None:
            continue
        if loc is None or arg.unspecified() is not None or not _dims_ok(dims):
            continue
        size = operand_byte_size(t, dims, declarations)
        if loc[2] != size:
            yield (
                f"{arg.label}: {describe_type(t)} of dimensions {list(dims)} takes {size} "
                f"bytes, location.length is {loc[2]}"
            )


__all__ = [
    "RULES",
    "RequestValidator",
    "Rule",
    "Tier",
    "ValidationResult",
    "Violation",
    "is_token",
    "validate_execution_preference",
    "validate_model",
    "validate_request",
]


def rules_table() -> str:
    """Every rule as one line: name, tier, scope and what it demands (``nnhal-rules``)."""
    width = max(len(name) for name in RULES)
    return "\n".join(
        f"{rule.name:<{width}}  {rule.tier.value:<6}  {rule.scope:<7}  {rule.description}"
        for rule in sorted(RULES.values(), key=lambda r: (r.scope, r.name))
    )


def main() -> int:
    """``nnhal-rules``: print the validation rules a driver must enforce."""
    print(rules_table())
    return 0
