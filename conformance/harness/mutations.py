"""The validation suite's catalogue: named mutations that make a valid Model or Request invalid.

A ``Family`` is one way of breaking an input (``operand_scale``: an operand's
scale set to a value its type forbids). It has a scope (``model`` or
``request``), a tier (``parity``: a driver faithful to Android 10 must reject
it, because every rule it breaks is one Android 10 enforces; ``strict``: it
breaks one of our rules beyond that), the ``hal.validation`` rule(s) that
catch it, where it comes from (``vts``: a family of Android 10's VTS 1.2,
reproduced with its values and skip lists; ``upstream``: added by later VTS
versions; ``ours``), a precondition, and two generators over a subject (a
``Model``, or a ``RequestSubject``): ``mutations(subject)``, the deterministic
enumeration (every operand x every VTS value, ...), and ``strategy(subject)``,
a hypothesis strategy over the same family's larger space (any invalid scale,
any out-of-range offset, ...), which defaults to sampling the enumeration.

A ``Mutation`` is one concrete change: a stable ``name``, a one-sentence
``description`` ("operand 3 type TENSOR_FLOAT32 -> TENSOR_INT32 in CONV_2D
input 1"), the HAL ``levels`` at which the result is invalid (a 1.2-only
feature is invalid only through the 1.0 and 1.1 methods), and ``apply``, a
function from the original Model (or Request) to a mutated copy; the original
is never changed. Families that need a model pool allocate a new one in
``apply``: the caller closes it with ``close_new_pools``. Request mutations
reuse the request's pools (new ``Memory`` records share their handles).

Where a family must not demand the impossible (a retyped operand the operation
also accepts, an input whose removal leaves a form the operation defines),
generation consults the operation catalog (``hal.operations``), never the
validator: the suite states its own expectations.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from hypothesis import strategies as st

from conformance.harness import generated
from conformance.harness.cases import GeneratedTest
from conformance.harness.items import CaseId
from hal import types as hal_types
from hal.extensions import operand_type_of
from hal.memory import ASHMEM, HARDWARE_BUFFER_BLOB, Memory, allocate_with
from hal.operations import match_signature, operation_info, signatures
from hal.types import (
    DataLocation,
    ExecutionPreference,
    ExtensionNameAndPrefix,
    ExtensionParams,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    OperandTypeRange,
    Operation,
    OperationType,
    OperationTypeRange,
    Request,
    RequestArgument,
    SymmPerChannelQuantParams,
    describe_type,
    is_oem_type,
    is_scalar_type,
    is_tensor_type,
    make_extension_type,
    operand_byte_size,
    operand_type_introduced,
)
from hal.validation import RULES, Tier

V1_0, V1_1, V1_2 = HalVersion.V1_0, HalVersion.V1_1, HalVersion.V1_2
ALL_LEVELS = frozenset(HalVersion)
BELOW_1_2 = frozenset({V1_0, V1_1})
UINT32_MAX = 0xFFFF_FFFF

MODEL = "model"
REQUEST = "request"
VTS = "vts"
"""Origin: a family of Android 10's VTS for HAL 1.2 (ValidateModel.cpp / ValidateRequest.cpp)."""
UPSTREAM = "upstream"
"""Origin: a family later VTS versions (still HAL 1.2) added."""
OURS = "ours"
"""Origin: this project's."""

T = OperandType
L = OperandLifeTime
F32, F16, I32T, Q8A, Q8S, Q8C, Q16A, Q16S, B8 = (
    T.TENSOR_FLOAT32,
    T.TENSOR_FLOAT16,
    T.TENSOR_INT32,
    T.TENSOR_QUANT8_ASYMM,
    T.TENSOR_QUANT8_SYMM,
    T.TENSOR_QUANT8_SYMM_PER_CHANNEL,
    T.TENSOR_QUANT16_ASYMM,
    T.TENSOR_QUANT16_SYMM,
    T.TENSOR_BOOL8,
)
_VTS_SCALARS = frozenset({T.FLOAT16, T.FLOAT32, T.INT32, T.UINT32, T.BOOL})
_WRITTEN = frozenset({L.TEMPORARY_VARIABLE, L.MODEL_OUTPUT})
_CONSTANT = frozenset({L.CONSTANT_COPY, L.CONSTANT_REFERENCE})
_UNDECLARED_PREFIX = 0x7A11
"""An extension prefix no mutated model declares."""
_DECLARED_PREFIX = 0x0ABC
_EXTENSION_NAME = "com.example.nnhal_conformance"


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Mutation:
    """One concrete change to one Model (or Request)."""

    family: str
    name: str
    """Stable within its family and subject, e.g. ``operand3.type=14``."""
    description: str
    """One sentence: what changed, where, from what to what."""
    apply: Callable = field(repr=False)
    """Original -> mutated copy; the original is left unchanged."""
    levels: frozenset[HalVersion] = ALL_LEVELS
    """HAL levels at which the mutated input is invalid."""
    preference: int | None = None
    """For ``execution_preference``: the preference to prepare with (the model is unchanged)."""

    @property
    def tier(self) -> Tier:
        return FAMILIES[self.family].tier

    @property
    def precondition(self) -> str:
        return FAMILIES[self.family].precondition

    def __repr__(self) -> str:
        return f"<{self.family}: {self.description}>"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        # hypothesis reports drawn values through this printer protocol
        printer.text(repr(self))


@dataclass(frozen=True)
class _Draft:
    name: str
    description: str
    apply: Callable
    levels: frozenset[HalVersion] = ALL_LEVELS
    preference: int | None = None


@dataclass(frozen=True)
class RequestSubject:
    """What a request family mutates: a valid request for ``model``."""

    model: Model
    request: Request


@dataclass(frozen=True)
class Family:
    """One named way of making a valid input invalid (see the module docstring)."""

    name: str
    scope: str
    """``model`` or ``request``."""
    tier: Tier
    rules: tuple[str, ...]
    """The ``hal.validation`` rules that catch this family's mutations."""
    origin: str
    """``vts``, ``upstream`` or ``ours``."""
    upstream: str
    """The VTS test this family reproduces (or, for our fixed forms, corrects); "" if none."""
    precondition: str
    description: str
    enumerate: Callable[[object], Iterable[_Draft]] = field(repr=False)
    sample: Callable[[object], st.SearchStrategy] | None = field(default=None, repr=False)
    side_rules: tuple[str, ...] = ()
    """Other rules some of its mutations break as a side effect of the upstream form (VTS leaves
    consumer counts as they were); a driver must lack these too before the family can pass."""
    twin: bool = False
    """Request family run on the case's dynamic-output twin (outputs of unknown dimensions)."""

    def drafts(self, subject: object) -> Iterator[_Draft]:
        return iter(self.enumerate(subject))

    def mutations(self, subject: object) -> list[Mutation]:
        """Every mutation of the deterministic enumeration, in a stable order."""
        return [self._finish(d) for d in self.drafts(subject)]

    def applies(self, subject: object, levels: Iterable[HalVersion] = ALL_LEVELS) -> bool:
        """Whether some mutation exists at one of ``levels`` (the precondition holds)."""
        wanted = frozenset(levels)
        return any(d.levels & wanted for d in self.drafts(subject))

    def strategy(self, subject: object) -> st.SearchStrategy[Mutation]:
        """Hypothesis strategy over this family's mutations of ``subject``."""
        drafts = self.sample(subject) if self.sample is not None else None
        if drafts is None:
            listed = list(self.drafts(subject))
            drafts = st.sampled_from(listed) if listed else st.nothing()
        return _finished(drafts, self._finish)

    @property
    def pending(self) -> tuple[str, ...]:
        """Rules this family needs that ``hal.validation`` does not define yet."""
        return tuple(r for r in self.rules if r not in RULES)

    def _finish(self, draft: _Draft) -> Mutation:
        return Mutation(
            self.name, draft.name, draft.description, draft.apply, draft.levels, draft.preference
        )


@st.composite
def _finished(draw, drafts: st.SearchStrategy[_Draft], finish) -> Mutation:
    # Drawn through a composite, so hypothesis reports the mutation by its own sentence.
    return finish(draw(drafts))


FAMILIES: dict[str, Family] = {}
"""Every family, model families first, in catalogue order."""


def _family(
    name: str,
    scope: str,
    tier: Tier,
    rules: tuple[str, ...],
    origin: str,
    precondition: str,
    description: str,
    upstream: str = "",
    side_rules: tuple[str, ...] = (),
    twin: bool = False,
):
    def register(enumerate_: Callable[[object], Iterable[_Draft]]):
        if name in FAMILIES:
            raise ValueError(f"mutation family {name!r} is registered twice")
        FAMILIES[name] = Family(
            name,
            scope,
            Tier(tier),
            rules,
            origin,
            upstream,
            precondition,
            description,
            enumerate_,
            side_rules=side_rules,
            twin=twin,
        )
        return enumerate_

    return register


def _sampler(name: str):
    """Attach a hypothesis strategy (subject -> strategy of drafts) to a family."""

    def register(sample: Callable[[object], st.SearchStrategy]):
        FAMILIES[name] = dataclasses.replace(FAMILIES[name], sample=sample)
        return sample

    return register


def model_families() -> list[Family]:
    return [f for f in FAMILIES.values() if f.scope == MODEL]


def request_families() -> list[Family]:
    return [f for f in FAMILIES.values() if f.scope == REQUEST]


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------


_SHARED = (
    int,
    float,
    str,
    bytes,
    type(None),
    DataLocation,
    ExtensionNameAndPrefix,
    ExtensionParams,
)
"""Values a copy may share with the original: immutable (the records are frozen, of scalars)."""
_SHARED_EXACTLY = frozenset({bool, *_SHARED, *hal_types.ENUMS})
"""The exact types of ``_SHARED`` values (the HAL's enums are ints), for a set lookup."""


def _copied(value: object) -> object:
    kind = type(value)
    if kind in _SHARED_EXACTLY:
        return value
    if kind is list:
        if _SHARED_EXACTLY.issuperset(map(type, value)):
            return value[:]
        return copy.deepcopy(value)
    shared = isinstance(value, _SHARED) or (
        isinstance(value, SymmPerChannelQuantParams) and isinstance(value.scales, tuple)
    )
    return value if shared else copy.deepcopy(value)


def copy_operand(operand: Operand) -> Operand:
    """A deep copy of ``operand`` (immutable values shared; see ``copy_model``)."""
    if type(operand) is not Operand:
        return copy.deepcopy(operand)
    o = operand
    return Operand(
        _copied(o.type), _copied(o.dimensions), _copied(o.number_of_consumers),
        _copied(o.scale), _copied(o.zero_point), _copied(o.lifetime), _copied(o.location),
        _copied(o.extra_params),
    )  # fmt: skip


def copy_model(model: Model) -> Model:
    """A deep copy sharing the model's pools (their descriptors belong to the original).

    Built field by field (mutations copy a model for every variant they make, and
    ``copy.deepcopy`` was the largest cost of the validation suite): lists are new,
    immutable values are shared, anything unexpected (a mutated model may hold odd
    values) is deep-copied.
    """
    if type(model) is not Model or any(type(o) is not Operand for o in model.operands):
        return copy.deepcopy(model, {id(pool): pool for pool in model.pools})
    operands = [copy_operand(o) for o in model.operands]
    operations = [
        Operation(_copied(op.type), _copied(op.inputs), _copied(op.outputs))
        if type(op) is Operation
        else copy.deepcopy(op)
        for op in model.operations
    ]
    return Model(
        operands,
        operations,
        _copied(model.input_indexes),
        _copied(model.output_indexes),
        _copied(model.operand_values),
        list(model.pools) if type(model.pools) is list else model.pools,
        _copied(model.relax_computation_float32_to_float16),
        _copied(model.extension_name_to_prefix),
    )


def copy_request(request: Request) -> Request:
    """A copy with fresh arguments and the same pool records (built field by field, as
    ``copy_model`` is: fresh lists, immutable values shared)."""
    if not (type(request.inputs) is list and type(request.outputs) is list) or any(
        type(a) is not RequestArgument for a in [*request.inputs, *request.outputs]
    ):
        return Request(
            inputs=copy.deepcopy(request.inputs),
            outputs=copy.deepcopy(request.outputs),
            pools=list(request.pools),
        )
    return Request(
        inputs=[_copied_argument(a) for a in request.inputs],
        outputs=[_copied_argument(a) for a in request.outputs],
        pools=list(request.pools),
    )


def _copied_argument(argument: RequestArgument) -> RequestArgument:
    return RequestArgument(
        _copied(argument.has_no_value), _copied(argument.location), _copied(argument.dimensions)
    )


def close_new_pools(original: Model, mutated: Model) -> None:
    """Close the pools a mutation allocated (those of ``mutated`` that ``original`` lacks)."""
    kept = {id(pool) for pool in original.pools}
    for pool in getattr(mutated, "pools", ()):
        if id(pool) not in kept and isinstance(pool, Memory):
            pool.close()


def _edit(change: Callable[[Model], None]) -> Callable[[Model], Model]:
    def apply(model: Model) -> Model:
        mutated = copy_model(model)
        change(mutated)
        return mutated

    return apply


def _edit_request(change: Callable[[Request], None]) -> Callable[[RequestSubject], Request]:
    def apply(request: Request) -> Request:
        mutated = copy_request(request)
        change(mutated)
        return mutated

    return apply


def _op_name(value: int) -> str:
    try:
        return OperationType(value).name
    except ValueError:
        return f"operation type {value}"


def _type_name(value: int) -> str:
    return describe_type(value)


def _operation_label(model: Model, j: int) -> str:
    name = _op_name(model.operations[j].type)
    return name if len(model.operations) == 1 else f"operation {j} ({name})"


def _where(model: Model, i: int) -> str:
    """Where operand ``i`` is used, for descriptions: "CONV_2D input 1", "model input 0"..."""
    for j, operation in enumerate(model.operations):
        for k, v in enumerate(operation.inputs):
            if v == i:
                return f"{_operation_label(model, j)} input {k}"
    for j, operation in enumerate(model.operations):
        for k, v in enumerate(operation.outputs):
            if v == i:
                return f"{_operation_label(model, j)} output {k}"
    if i in model.input_indexes:
        return f"model input {model.input_indexes.index(i)}"
    return "no operation"


def _operand(model: Model, i: int) -> str:
    return f"operand {i} ({_type_name(model.operands[i].type)}, {_where(model, i)})"


def _consumers(model: Model, i: int) -> list[tuple[int, int]]:
    return [
        (j, k)
        for j, operation in enumerate(model.operations)
        for k, v in enumerate(operation.inputs)
        if v == i
    ]


def _writer(model: Model, i: int) -> tuple[int, int] | None:
    for j, operation in enumerate(model.operations):
        for k, v in enumerate(operation.outputs):
            if v == i:
                return j, k
    return None


def _fully_specified_size(operand: Operand) -> int | None:
    """Byte size of a fundamental, non-OEM operand whose dimensions are all known."""
    t = operand.type
    if operand_type_introduced(t) is None or is_oem_type(t):
        return None
    if is_tensor_type(t) and (not operand.dimensions or 0 in operand.dimensions):
        return None
    return operand_byte_size(t, operand.dimensions)


def _types(model: Model, indexes: Iterable[int]) -> tuple[int, ...]:
    return tuple(model.operands[i].type for i in indexes)


def _catalog_accepts(op_type: int, inputs: tuple[int, ...], outputs: tuple[int, ...]) -> frozenset:
    """The HAL levels at which the catalog has a form of ``op_type`` taking these types.

    OEM and extension operations are the vendor's business: every level.
    """
    info = operation_info(op_type)
    if info is None or info.type == OperationType.OEM_OPERATION:
        return ALL_LEVELS
    return frozenset(
        level
        for level in HalVersion
        if any(s.accepts_types(inputs, outputs) for s in signatures(op_type, level))
    )


def _levels_rejecting(model: Model, touched: Iterable[int]) -> frozenset[HalVersion]:
    """Levels at which some operation of ``touched`` has no catalog form for its operand types."""
    rejecting: set[HalVersion] = set()
    for j in touched:
        operation = model.operations[j]
        if any(not 0 <= v < len(model.operands) for v in [*operation.inputs, *operation.outputs]):
            return ALL_LEVELS
        accepted = _catalog_accepts(
            operation.type, _types(model, operation.inputs), _types(model, operation.outputs)
        )
        rejecting |= ALL_LEVELS - accepted
    return frozenset(rejecting)


def _append_values(model: Model, data: bytes) -> DataLocation:
    """Append ``data`` to operand_values; its location."""
    offset = len(model.operand_values)
    model.operand_values = bytes(model.operand_values) + data
    return DataLocation(0, offset, len(data))


def _matched_signature(model: Model, j: int):
    """The catalog form operation ``j`` uses at the newest level it matches, or None."""
    operation = model.operations[j]
    if any(not 0 <= v < len(model.operands) for v in [*operation.inputs, *operation.outputs]):
        return None
    for level in reversed(HalVersion):
        match = match_signature(model, operation, level)
        if match.signature is not None:
            return match.signature
    return None


def _int32(value: int) -> bytes:
    return struct.pack("<i", value)


# ---------------------------------------------------------------------------
# Model families of Android 10 VTS 1.2 (ValidateModel.cpp), parity form
# ---------------------------------------------------------------------------

_VTS_INVALID_TYPES_1_2 = (
    (UINT32_MAX, "FUNDAMENTAL_MIN - 1 as uint32"),
    (OperandTypeRange.FUNDAMENTAL_MAX + 1, "FUNDAMENTAL_MAX + 1"),
    (OperandTypeRange.OEM_MIN - 1, "OEM_MIN - 1"),
    (OperandTypeRange.OEM_MAX + 1, "OEM_MAX + 1"),
)
_VTS_INVALID_TYPES_OLD = (
    (-1, "FLOAT32 - 1", ALL_LEVELS),
    (T.TENSOR_QUANT8_ASYMM + 1, "TENSOR_QUANT8_ASYMM + 1, unknown before 1.2", BELOW_1_2),
)


def _set_type(i: int, value: int) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], "type", value))


@_family(
    "operand_type_invalid",
    MODEL,
    Tier.PARITY,
    ("operand.type_known", "operand.type_version", "operation.signature"),
    VTS,
    "any operand",
    "an operand's type set to a value outside every operand type range (VTS's four values; "
    "the 1.0/1.1 VTS values through the 1.0 and 1.1 methods)",
    upstream="mutateOperandTypeTest",
)
def _operand_type_invalid(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        for value, label in _VTS_INVALID_TYPES_1_2:
            yield _Draft(
                f"operand{i}.type={value}",
                f"operand {i} type {_type_name(operand.type)} -> {value} ({label}) in "
                f"{_where(model, i)}",
                _set_type(i, value),
            )
        for value, label, levels in _VTS_INVALID_TYPES_OLD:
            if value != operand.type:
                yield _Draft(
                    f"operand{i}.type={value}",
                    f"operand {i} type {_type_name(operand.type)} -> {value} ({label}) in "
                    f"{_where(model, i)}",
                    _set_type(i, value),
                    levels,
                )


def _set_dims(i: int, dims: list[int]) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], "dimensions", list(dims)))


@_family(
    "operand_rank",
    MODEL,
    Tier.PARITY,
    ("operand.scalar_rank", "operand.tensor_rank"),
    VTS,
    "a scalar operand (FLOAT16, FLOAT32, INT32, UINT32, BOOL), or a tensor of known rank",
    "a scalar given rank 1 (dimensions [0]); a tensor given unknown rank, which only 1.2 "
    "allows and never for a constant (the 1.0/1.1 VTS form)",
    upstream="mutateOperandRankTest",
)
def _operand_rank(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.type in _VTS_SCALARS:
            yield _Draft(
                f"operand{i}.dims=[0]",
                f"{_operand(model, i)} dimensions [] -> [0]: a scalar of rank 1",
                _set_dims(i, [0]),
            )
        elif is_tensor_type(operand.type) and not is_oem_type(operand.type) and operand.dimensions:
            constant = operand.lifetime in _CONSTANT
            yield _Draft(
                f"operand{i}.dims=[]",
                f"{_operand(model, i)} dimensions {list(operand.dimensions)} -> []: "
                + ("a constant of unknown rank" if constant else "unknown rank before HAL 1.2"),
                _set_dims(i, []),
                ALL_LEVELS if constant else BELOW_1_2,
            )


_SCALE_MUST_BE_ZERO = _VTS_SCALARS | {B8, F16, F32, Q8C}
_SCALE_MUST_BE_POSITIVE = frozenset({Q8A, Q8S, Q16A, Q16S})


def _vts_invalid_scale(t: int) -> float | None:
    if t in _SCALE_MUST_BE_ZERO:
        return 1.0
    if t == I32T:
        return -1.0
    if t in _SCALE_MUST_BE_POSITIVE:
        return 0.0
    return None  # OEM types are not checked; extension types want 0


def _set_field(i: int, name: str, value: object) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], name, value))


def _scale_draft(model: Model, i: int, scale: float) -> _Draft:
    operand = model.operands[i]
    return _Draft(
        f"operand{i}.scale={scale!r}",
        f"{_operand(model, i)} scale {operand.scale!r} -> {scale!r}",
        _set_field(i, "scale", scale),
    )


@_family(
    "operand_scale",
    MODEL,
    Tier.PARITY,
    ("operand.scale",),
    VTS,
    "an operand of a fundamental type",
    "an operand's scale set to a value its type forbids (VTS: 1.0 where it must be 0, -1.0 for "
    "TENSOR_INT32, 0.0 where it must be positive; sampled: any such value, NaN and infinities)",
    upstream="mutateOperandScaleTest",
)
def _operand_scale(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        scale = _vts_invalid_scale(operand.type)
        if scale is not None:
            yield _scale_draft(model, i, scale)


def _invalid_scales(t: int) -> st.SearchStrategy[float]:
    not_finite = st.sampled_from([math.nan, math.inf, -math.inf])
    if t in _SCALE_MUST_BE_ZERO:
        return st.floats().filter(lambda s: s != 0)
    if t == I32T:
        return st.one_of(st.floats(max_value=-5e-324), not_finite)
    return st.one_of(st.floats(max_value=0.0), not_finite)


@_sampler("operand_scale")
def _operand_scale_sample(model: Model) -> st.SearchStrategy[_Draft]:
    targets = [i for i, o in enumerate(model.operands) if _vts_invalid_scale(o.type) is not None]
    if not targets:
        return st.nothing()
    return st.sampled_from(targets).flatmap(
        lambda i: _invalid_scales(model.operands[i].type).map(lambda s: _scale_draft(model, i, s))
    )


def _vts_invalid_zero_points(t: int) -> tuple[int, ...]:
    if t in _VTS_SCALARS or t in (B8, F16, F32, I32T, Q8C):
        return (1,)
    return {
        Q8A: (-1, 256),
        Q8S: (-129, -1, 1, 128),
        Q16A: (-1, 65536),
        Q16S: (-32769, -1, 1, 32768),
    }.get(t, ())


def _zero_point_draft(model: Model, i: int, zero_point: int) -> _Draft:
    return _Draft(
        f"operand{i}.zero_point={zero_point}",
        f"{_operand(model, i)} zero_point {model.operands[i].zero_point} -> {zero_point}",
        _set_field(i, "zero_point", zero_point),
    )


@_family(
    "operand_zero_point",
    MODEL,
    Tier.PARITY,
    ("operand.zero_point",),
    VTS,
    "an operand of a fundamental type",
    "an operand's zero point set outside its type's range (VTS's values; sampled: any int32 "
    "outside it)",
    upstream="mutateOperandZeroPointTest",
)
def _operand_zero_point(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        for zero_point in _vts_invalid_zero_points(operand.type):
            yield _zero_point_draft(model, i, zero_point)


def _invalid_zero_points(t: int) -> st.SearchStrategy[int]:
    low, high = {Q8A: (0, 255), Q16A: (0, 65535)}.get(t, (0, 0))
    return st.one_of(
        st.integers(min_value=-(2**31), max_value=low - 1),
        st.integers(min_value=high + 1, max_value=2**31 - 1),
    )


@_sampler("operand_zero_point")
def _operand_zero_point_sample(model: Model) -> st.SearchStrategy[_Draft]:
    targets = [i for i, o in enumerate(model.operands) if _vts_invalid_zero_points(o.type)]
    if not targets:
        return st.nothing()
    return st.sampled_from(targets).flatmap(
        lambda i: _invalid_zero_points(model.operands[i].type).map(
            lambda z: _zero_point_draft(model, i, z)
        )
    )


def _vts_retyped(operand: Operand, target: int) -> Operand:
    """VTS's ``mutateOperand``: the operand made valid by itself for ``target``.

    Its side effects are kept on purpose (parity): ``extra_params`` survives a
    move away from the per-channel type, and a constant's length is not
    adjusted to the new element size.
    """
    new = copy_operand(operand)
    new.type = target
    dims = list(operand.dimensions) or [1]
    if target in _VTS_SCALARS:
        new.dimensions, new.scale, new.zero_point = [], 0.0, 0
    elif target in (B8, F16, F32):
        new.dimensions, new.scale, new.zero_point = dims, 0.0, 0
    elif target == I32T:
        new.dimensions, new.zero_point = dims, 0
    elif target in _SCALE_MUST_BE_POSITIVE:
        new.dimensions = dims
        new.scale = operand.scale or 1.0
    elif target == Q8C:
        new.dimensions, new.scale, new.zero_point = dims, 0.0, 0
        new.extra_params = SymmPerChannelQuantParams((1.0,) * dims[0], 0)
    return new


_CONVOLUTIONS = frozenset(
    {
        OperationType.CONV_2D,
        OperationType.DEPTHWISE_CONV_2D,
        OperationType.GROUPED_CONV_2D,
        OperationType.TRANSPOSE_CONV_2D,
    }
)


def _vts_retype_skipped(model: Model, i: int, target: int) -> bool:
    """VTS's ``mutateOperationOperandTypeSkip``."""
    if target == model.operands[i].type or is_oem_type(target):
        return True
    for operation in model.operations:
        ins, outs, op = operation.inputs, operation.outputs, operation.type
        if op == OperationType.LSH_PROJECTION and len(ins) > 1 and ins[1] == i:
            return True
        if op in (OperationType.CAST, OperationType.ARGMAX, OperationType.ARGMIN) and target in (
            F16,
            F32,
            I32T,
            Q8A,
        ):
            return True  # model-wide, as upstream
        if (
            op in (OperationType.QUANTIZE, OperationType.RANDOM_MULTINOMIAL)
            and ins[:1] == [i]
            and target in (F16, F32)
        ):
            return True
        if op == OperationType.DEQUANTIZE:
            if ins[:1] == [i] and target in (Q8A, Q8S, Q8C):
                return True
            if outs[:1] == [i] and target in (F16, F32):
                return True
        if op in _CONVOLUTIONS and len(ins) > 1 and ins[1] == i and target in (Q8A, Q8C):
            return True
    return False


def _touching(model: Model, i: int) -> list[int]:
    return [
        j
        for j, operation in enumerate(model.operations)
        if i in operation.inputs or i in operation.outputs
    ]


def _retype_levels(model: Model, i: int, target: int) -> frozenset[HalVersion]:
    """Levels at which retyping operand ``i`` breaks a signature (or the type is too new)."""
    retyped = copy.copy(model)
    retyped.operands = list(model.operands)
    retyped.operands[i] = dataclasses.replace(model.operands[i], type=target)
    levels = set(_levels_rejecting(retyped, _touching(model, i)))
    introduced = operand_type_introduced(target)
    levels |= {level for level in HalVersion if introduced is not None and introduced > level}
    return frozenset(levels)


def _replace_operand(i: int, new: Operand, values: bytes | None = None):
    def change(m: Model) -> None:
        operand = copy_operand(new)
        if values is not None:
            operand.location = _append_values(m, values)
        m.operands[i] = operand

    return _edit(change)


@_family(
    "operand_retype_vts",
    MODEL,
    Tier.PARITY,
    ("operation.signature", "operand.constant_length", "operand.extra_params"),
    VTS,
    "an operand used by an operation, and a target type VTS does not skip for it",
    "an operand retyped to another fundamental type the operation does not accept there, "
    "rewritten as VTS's mutateOperand does (stale extra params and constant lengths kept)",
    upstream="mutateOperationOperandTypeTest",
)
def _operand_retype_vts(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if not _touching(model, i):
            continue
        for target in OperandType:
            if _vts_retype_skipped(model, i, target):
                continue
            levels = _retype_levels(model, i, target)
            if levels:
                yield _Draft(
                    f"operand{i}.retype={target.name}",
                    f"operand {i} type {_type_name(operand.type)} -> {target.name} in "
                    f"{_where(model, i)}",
                    _replace_operand(i, _vts_retyped(operand, target)),
                    levels,
                )


@_family(
    "operand_retype_clean",
    MODEL,
    Tier.PARITY,
    ("operation.signature",),
    OURS,
    "an operand used by an operation, and a fundamental type the operation does not take there",
    "an operand retyped with everything else made valid for the new type (constant data of the "
    "new size, no stale extra params), so only the signature is wrong (the fixed form of "
    "mutateOperationOperandTypeTest)",
    upstream="mutateOperationOperandTypeTest",
)
def _operand_retype_clean(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if not _touching(model, i) or operand.lifetime not in set(OperandLifeTime):
            continue
        for target in OperandType:
            if target == operand.type or is_oem_type(target):
                continue
            levels = _retype_levels(model, i, target)
            if not levels:
                continue
            new = _vts_retyped(operand, target)
            if target != Q8C:
                new.extra_params = None
            if target in (Q8S, Q16S):
                new.zero_point = 0
            elif target == Q8A:
                new.zero_point = min(max(new.zero_point, 0), 255)
            elif target == Q16A:
                new.zero_point = min(max(new.zero_point, 0), 65535)
            values = None
            if operand.lifetime in _CONSTANT:
                size = _fully_specified_size(new)
                if size is None:
                    continue
                values = bytes(size)
                new.lifetime = L.CONSTANT_COPY
            yield _Draft(
                f"operand{i}.retype={target.name}",
                f"operand {i} type {_type_name(operand.type)} -> {target.name} (made valid for "
                f"it) in {_where(model, i)}",
                _replace_operand(i, new, values),
                levels,
            )


def _operation_type_draft(model: Model, j: int, value: int, label: str) -> _Draft:
    def change(m: Model) -> None:
        m.operations[j].type = value

    return _Draft(
        f"operation{j}.type={value}",
        f"operation {j} type {_op_name(model.operations[j].type)} -> {value} ({label})",
        _edit(change),
    )


@_family(
    "operation_type_invalid",
    MODEL,
    Tier.PARITY,
    ("operation.type_known",),
    VTS,
    "any operation",
    "an operation's type set to FUNDAMENTAL_MAX + 1, OEM_MIN - 1 or OEM_MAX + 1",
    upstream="mutateOperationTypeTest",
)
def _operation_type_invalid(model: Model) -> Iterator[_Draft]:
    values = (
        (OperationTypeRange.FUNDAMENTAL_MAX + 1, "FUNDAMENTAL_MAX + 1"),
        (OperationTypeRange.OEM_MIN - 1, "OEM_MIN - 1"),
        (OperationTypeRange.OEM_MAX + 1, "OEM_MAX + 1"),
    )
    for j in range(len(model.operations)):
        for value, label in values:
            yield _operation_type_draft(model, j, value, label)


def _slot_index_draft(model: Model, j: int, side: str, k: int, value: int) -> _Draft:
    def change(m: Model) -> None:
        getattr(m.operations[j], side)[k] = value

    old = getattr(model.operations[j], side)[k]
    return _Draft(
        f"operation{j}.{side}[{k}]={value}",
        f"{_operation_label(model, j)} {side[:-1]} {k} operand index {old} -> {value} "
        f"(the model has {len(model.operands)} operands)",
        _edit(change),
    )


def _slot_index_family(side: str):
    def enumerate_(model: Model) -> Iterator[_Draft]:
        for j, operation in enumerate(model.operations):
            for k in range(len(getattr(operation, side))):
                yield _slot_index_draft(model, j, side, k, len(model.operands))

    def sample(model: Model) -> st.SearchStrategy[_Draft]:
        slots = [
            (j, k)
            for j, operation in enumerate(model.operations)
            for k in range(len(getattr(operation, side)))
        ]
        if not slots:
            return st.nothing()
        out_of_range = st.one_of(
            st.integers(min_value=len(model.operands), max_value=2**32 + 7),
            st.integers(min_value=-(2**31), max_value=-1),
        )
        return st.tuples(st.sampled_from(slots), out_of_range).map(
            lambda t: _slot_index_draft(model, t[0][0], side, t[0][1], t[1])
        )

    return enumerate_, sample


for _side, _vts_name in (("inputs", "Input"), ("outputs", "Output")):
    _enum, _sample = _slot_index_family(_side)
    _family(
        f"operation_{_side[:-1]}_index",
        MODEL,
        Tier.PARITY,
        ("operation.operand_indexes",),
        VTS,
        f"an operation with an {_side[:-1]}",
        f"an operation {_side[:-1]} index set past the last operand (sampled: any index out of "
        "range, negative or beyond 32 bits)",
        upstream=f"mutateOperation{_vts_name}OperandIndexTest",
        side_rules=(
            ("operand.number_of_consumers",) if _side == "inputs" else ("operation.all_written",)
        ),
    )(_enum)
    _sampler(f"operation_{_side[:-1]}_index")(_sample)


_LENIENT_OUTPUTS = frozenset(
    {
        OperationType.SPLIT,
        OperationType.BIDIRECTIONAL_SEQUENCE_LSTM,
        OperationType.BIDIRECTIONAL_SEQUENCE_RNN,
    }
)


def _remove_operand_vts(i: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        del m.operands[i]
        for operation in m.operations:
            operation.inputs = [v for v in operation.inputs if v != i]
            operation.outputs = [v for v in operation.outputs if v != i]
        m.input_indexes = [v for v in m.input_indexes if v != i]
        m.output_indexes = [v for v in m.output_indexes if v != i]
        # VTS means to decrement the indexes above i but its transform does not:
        # they keep their values, pointing one operand further (or out of range).

    return _edit(change)


@_family(
    "operand_removed_vts",
    MODEL,
    Tier.PARITY,
    (
        "operation.signature",
        "operation.operand_indexes",
        "model.input_indexes",
        "model.output_indexes",
    ),
    VTS,
    "an operand that is not an output of SPLIT or a bidirectional sequence operation",
    "an operand deleted with every reference to it, the indexes above it left as they were "
    "(VTS's removeOperand, whose renumbering has no effect)",
    upstream="removeOperandTest",
)
def _operand_removed_vts(model: Model) -> Iterator[_Draft]:
    for i in range(len(model.operands)):
        if any(
            operation.type in _LENIENT_OUTPUTS and i in operation.outputs
            for operation in model.operations
        ):
            continue
        yield _Draft(
            f"operand{i}.removed",
            f"{_operand(model, i)} removed; indexes above {i} not renumbered",
            _remove_operand_vts(i),
        )


def _remove_operand_clean(model: Model, i: int) -> Model:
    m = copy_model(model)
    del m.operands[i]

    def renumber(values: list[int]) -> list[int]:
        return [v - 1 if v > i else v for v in values if v != i]

    for operation in m.operations:
        operation.inputs = renumber(operation.inputs)
        operation.outputs = renumber(operation.outputs)
    m.input_indexes = renumber(m.input_indexes)
    m.output_indexes = renumber(m.output_indexes)
    return m


@_family(
    "operand_removed_clean",
    MODEL,
    Tier.PARITY,
    ("operation.signature",),
    OURS,
    "an operand used by an operation whose remaining operand types fit no form of it",
    "an operand deleted with every reference to it and the indexes above it renumbered, so the "
    "only fault is the operation's arity (the fixed form of VTS's removeOperandTest)",
    upstream="removeOperandTest",
)
def _operand_removed_clean(model: Model) -> Iterator[_Draft]:
    for i in range(len(model.operands)):
        touched = _touching(model, i)
        if not touched:
            continue
        removed = _remove_operand_clean(model, i)
        levels = _levels_rejecting(removed, touched)
        if levels:
            yield _Draft(
                f"operand{i}.removed",
                f"{_operand(model, i)} removed, indexes above it renumbered",
                functools.partial(_remove_operand_clean, i=i),
                levels,
            )


def _remove_operation(j: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        for v in m.operations[j].inputs:
            m.operands[v].number_of_consumers -= 1
        del m.operations[j]

    return _edit(change)


@_family(
    "operation_removed",
    MODEL,
    Tier.PARITY,
    ("operation.all_written",),
    VTS,
    "any operation",
    "an operation deleted (its inputs' consumer counts decremented), so its outputs are never "
    "written",
    upstream="removeOperationTest",
)
def _operation_removed(model: Model) -> Iterator[_Draft]:
    for j in range(len(model.operations)):
        yield _Draft(
            f"operation{j}.removed", f"{_operation_label(model, j)} removed", _remove_operation(j)
        )


_VTS_OPTIONAL_INPUTS: dict[int, tuple[tuple[int, int], ...]] = {
    OperationType.DEPTHWISE_CONV_2D: ((12, 11), (9, 8)),
    OperationType.CONV_2D: ((11, 10), (8, 7)),
    OperationType.AVERAGE_POOL_2D: ((11, 10), (8, 7)),
    OperationType.MAX_POOL_2D: ((11, 10), (8, 7)),
    OperationType.L2_POOL_2D: ((11, 10), (8, 7)),
    OperationType.RESIZE_BILINEAR: ((4, 3),),
    OperationType.SPACE_TO_DEPTH: ((3, 2),),
    OperationType.DEPTH_TO_SPACE: ((3, 2),),
    OperationType.BATCH_TO_SPACE_ND: ((3, 2),),
    OperationType.SPACE_TO_BATCH_ND: ((4, 3),),
    OperationType.L2_NORMALIZATION: ((2, 1),),
    OperationType.LOCAL_RESPONSE_NORMALIZATION: ((6, 5),),
    OperationType.SOFTMAX: ((3, 2),),
}
"""VTS's ``removeOperationInputSkip``: (input count, slot) pairs that are legally optional."""


def _vts_input_removal_skipped(operation: Operation, k: int) -> bool:
    n = len(operation.inputs)
    if operation.type == OperationType.CONCATENATION and n > 2 and k != n - 1:
        return True
    return (n, k) in _VTS_OPTIONAL_INPUTS.get(operation.type, ())


def _drop_input(j: int, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operation = m.operations[j]
        m.operands[operation.inputs[k]].number_of_consumers -= 1
        del operation.inputs[k]

    return _edit(change)


@_family(
    "operation_input_removed",
    MODEL,
    Tier.PARITY,
    ("operation.signature",),
    VTS,
    "an operation input that is not legally optional (VTS's skip list, and the catalog's forms)",
    "an operation input slot dropped (its operand's consumer count decremented)",
    upstream="removeOperationInputTest",
)
def _operation_input_removed(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        for k in range(len(operation.inputs)):
            if _vts_input_removal_skipped(operation, k):
                continue
            ins = _types(model, operation.inputs[:k] + operation.inputs[k + 1 :])
            levels = ALL_LEVELS - _catalog_accepts(
                operation.type, ins, _types(model, operation.outputs)
            )
            if levels:
                yield _Draft(
                    f"operation{j}.inputs[{k}].removed",
                    f"{_operation_label(model, j)} input {k} (operand {operation.inputs[k]}) "
                    "removed",
                    _drop_input(j, k),
                    levels,
                )


def _drop_output(j: int, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        del m.operations[j].outputs[k]

    return _edit(change)


@_family(
    "operation_output_removed",
    MODEL,
    Tier.PARITY,
    ("operation.signature", "operation.all_written"),
    VTS,
    "any operation output",
    "an operation output slot dropped, leaving its operand never written",
    upstream="removeOperationOutputTest",
)
def _operation_output_removed(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        for k in range(len(operation.outputs)):
            yield _Draft(
                f"operation{j}.outputs[{k}].removed",
                f"{_operation_label(model, j)} output {k} (operand {operation.outputs[k]}) removed",
                _drop_output(j, k),
            )


_VTS_EXTRA_INPUT_OK = {
    OperationType.L2_NORMALIZATION: 1,
    OperationType.LOCAL_RESPONSE_NORMALIZATION: 5,
    OperationType.SOFTMAX: 2,
}
"""VTS's ``addOperationInputSkip``: input counts at which one more INT32 is legal."""


def _add_slot(j: int, side: str) -> Callable[[Model], Model]:
    lifetime = L.MODEL_INPUT if side == "inputs" else L.MODEL_OUTPUT

    def change(m: Model) -> None:
        m.operands.append(Operand(T.INT32, [], 1, lifetime=lifetime))
        index = len(m.operands) - 1
        getattr(m.operations[j], side).append(index)
        (m.input_indexes if side == "inputs" else m.output_indexes).append(index)

    return _edit(change)


def _added_slot_levels(model: Model, j: int, side: str) -> frozenset[HalVersion]:
    operation = model.operations[j]
    ins, outs = _types(model, operation.inputs), _types(model, operation.outputs)
    if side == "inputs":
        ins += (T.INT32,)
    else:
        outs += (T.INT32,)
    return ALL_LEVELS - _catalog_accepts(operation.type, ins, outs)


@_family(
    "operation_input_added",
    MODEL,
    Tier.PARITY,
    ("operation.signature",),
    VTS,
    "an operation whose forms take no further INT32 input (VTS's skip list, and the catalog's)",
    "a new INT32 model input appended to an operation's inputs",
    upstream="addOperationInputTest",
)
def _operation_input_added(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        if _VTS_EXTRA_INPUT_OK.get(operation.type) == len(operation.inputs):
            continue
        levels = _added_slot_levels(model, j, "inputs")
        if levels:
            yield _Draft(
                f"operation{j}.inputs+INT32",
                f"{_operation_label(model, j)} given an extra input: a new INT32 model input "
                f"(operand {len(model.operands)})",
                _add_slot(j, "inputs"),
                levels,
            )


@_family(
    "operation_output_added",
    MODEL,
    Tier.PARITY,
    ("operation.signature",),
    VTS,
    "an operation whose forms take no further INT32 output",
    "a new INT32 model output appended to an operation's outputs (given one consumer, as VTS does)",
    upstream="addOperationOutputTest",
    side_rules=("operand.number_of_consumers",),
)
def _operation_output_added(model: Model) -> Iterator[_Draft]:
    for j in range(len(model.operations)):
        levels = _added_slot_levels(model, j, "outputs")
        if levels:
            yield _Draft(
                f"operation{j}.outputs+INT32",
                f"{_operation_label(model, j)} given an extra output: a new INT32 model output "
                f"(operand {len(model.operands)})",
                _add_slot(j, "outputs"),
                levels,
            )


_PREFERENCE_LEVELS = frozenset({V1_1, V1_2})


def _preference_draft(value: int) -> _Draft:
    return _Draft(
        f"preference={value}",
        f"execution preference {value} (valid: "
        + ", ".join(f"{p.name} {p.value}" for p in ExecutionPreference)
        + ")",
        copy_model,
        _PREFERENCE_LEVELS,
        preference=value,
    )


@_family(
    "execution_preference",
    MODEL,
    Tier.PARITY,
    ("model.execution_preference",),
    VTS,
    "any model (prepare_model_1_1 and _1_2 only)",
    "the unchanged model prepared with LOW_POWER - 1 or SUSTAINED_SPEED + 1 (sampled: any "
    "other value)",
    upstream="mutateExecutionPreferenceTest",
)
def _execution_preference(model: Model) -> Iterator[_Draft]:
    yield _preference_draft(ExecutionPreference.LOW_POWER - 1)
    yield _preference_draft(ExecutionPreference.SUSTAINED_SPEED + 1)


@_sampler("execution_preference")
def _execution_preference_sample(model: Model) -> st.SearchStrategy[_Draft]:
    return (
        st.integers(min_value=-(2**31), max_value=2**32)
        .filter(lambda v: v not in set(ExecutionPreference))
        .map(_preference_draft)
    )


# ---------------------------------------------------------------------------
# Model families later VTS versions added (still HAL 1.2)
# ---------------------------------------------------------------------------


def _move_operation(source: int, target: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operation = m.operations.pop(source)
        m.operations.insert(target, operation)

    return _edit(change)


def _dependencies(model: Model) -> Iterator[tuple[int, int, int]]:
    """(writer position, reader position, operand) of every edge of the graph, in order."""
    seen: set[tuple[int, int]] = set()
    for reader, operation in enumerate(model.operations):
        for v in operation.inputs:
            writer = _writer(model, v) if 0 <= v < len(model.operands) else None
            if writer is not None and writer[0] < reader and (writer[0], reader) not in seen:
                seen.add((writer[0], reader))
                yield writer[0], reader, v


@_family(
    "execution_order",
    MODEL,
    Tier.STRICT,
    ("operation.order",),
    UPSTREAM,
    "an operation reading an operand another operation writes",
    "operations out of execution order: a reader moved before its writer, or a writer after "
    "its reader",
    upstream="mutateExecutionOrderTest",
)
def _execution_order(model: Model) -> Iterator[_Draft]:
    for writer, reader, v in _dependencies(model):
        yield _Draft(
            f"operation{reader}.before{writer}",
            f"{_operation_label(model, reader)} moved before "
            f"{_operation_label(model, writer)}, which writes its input operand {v}",
            _move_operation(reader, writer),
        )
        yield _Draft(
            f"operation{writer}.after{reader}",
            f"{_operation_label(model, writer)} moved after {_operation_label(model, reader)}, "
            f"which reads its output operand {v}",
            _move_operation(writer, reader),
        )


def _set_lifetime(i: int, lifetime: int, values: bytes | None = None, lists: bool = True):
    """Give operand ``i`` a new lifetime; with ``lists``, keep input/output_indexes consistent."""

    def change(m: Model) -> None:
        operand = m.operands[i]
        operand.lifetime = lifetime
        operand.location = _append_values(m, values) if values is not None else DataLocation()
        if not lists:
            return
        m.input_indexes = [v for v in m.input_indexes if v != i]
        m.output_indexes = [v for v in m.output_indexes if v != i]
        if lifetime == L.MODEL_INPUT:
            m.input_indexes.append(i)
        elif lifetime == L.MODEL_OUTPUT:
            m.output_indexes.append(i)

    return _edit(change)


def _lifetime_name(value: int) -> str:
    try:
        return OperandLifeTime(value).name
    except ValueError:
        return str(value)


_CONSTANT_LIMIT = 1 << 16
"""Largest operand turned into a CONSTANT_COPY by a mutation (upstream keeps under the binder
limit; we keep models small)."""


@_family(
    "operand_lifetime_swap",
    MODEL,
    Tier.PARITY,
    ("operation.output_lifetime", "operation.all_written"),
    UPSTREAM,
    "an operation output, or an operation input that no operation writes",
    "an operand moved between written and unwritten lifetimes (an operation output made a model "
    "input or a constant; a model input or constant made a temporary), index lists kept "
    "consistent",
    upstream="mutateOperandLifeTimeTest",
)
def _operand_lifetime_swap(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        old = _lifetime_name(operand.lifetime)
        if operand.lifetime in _WRITTEN and _writer(model, i) is not None:
            yield _Draft(
                f"operand{i}.lifetime=MODEL_INPUT",
                f"{_operand(model, i)} lifetime {old} -> MODEL_INPUT",
                _set_lifetime(i, L.MODEL_INPUT),
            )
            size = _fully_specified_size(operand)
            if size is not None and size <= _CONSTANT_LIMIT:
                yield _Draft(
                    f"operand{i}.lifetime=CONSTANT_COPY",
                    f"{_operand(model, i)} lifetime {old} -> CONSTANT_COPY",
                    _set_lifetime(i, L.CONSTANT_COPY, bytes(size)),
                )
        elif operand.lifetime in (L.MODEL_INPUT, *_CONSTANT) and _consumers(model, i):
            yield _Draft(
                f"operand{i}.lifetime=TEMPORARY_VARIABLE",
                f"{_operand(model, i)} lifetime {old} -> TEMPORARY_VARIABLE, written by nothing",
                _set_lifetime(i, L.TEMPORARY_VARIABLE),
            )


@_family(
    "io_role_dropped",
    MODEL,
    Tier.PARITY,
    ("model.input_indexes", "model.output_indexes"),
    UPSTREAM,
    "a model input of known size, or a model output",
    "a listed model input made a constant, or a listed model output a temporary, without "
    "updating input_indexes / output_indexes",
    upstream="mutateOperandInputOutputTest",
)
def _io_role_dropped(model: Model) -> Iterator[_Draft]:
    for k, i in enumerate(model.input_indexes):
        size = _fully_specified_size(model.operands[i])
        if size is not None and size <= _CONSTANT_LIMIT:
            yield _Draft(
                f"operand{i}.lifetime=CONSTANT_COPY",
                f"model input {k} ({_operand(model, i)}) made a CONSTANT_COPY but left in "
                "input_indexes",
                _set_lifetime(i, L.CONSTANT_COPY, bytes(size), lists=False),
            )
    for k, i in enumerate(model.output_indexes):
        yield _Draft(
            f"operand{i}.lifetime=TEMPORARY_VARIABLE",
            f"model output {k} ({_operand(model, i)}) made a TEMPORARY_VARIABLE but left in "
            "output_indexes",
            _set_lifetime(i, L.TEMPORARY_VARIABLE, lists=False),
        )


def _unlist(field_name: str, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        del getattr(m, field_name)[k]

    return _edit(change)


@_family(
    "io_role_unlisted",
    MODEL,
    Tier.STRICT,
    ("model.io_listed",),
    UPSTREAM,
    "any model (a constant, temporary or listed model input or output)",
    "an operand given the MODEL_INPUT or MODEL_OUTPUT lifetime without being listed in "
    "input_indexes / output_indexes, or a model input or output dropped from its list",
    upstream="mutateOperandInputOutputTest",
)
def _io_role_unlisted(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        old = _lifetime_name(operand.lifetime)
        if operand.lifetime in _CONSTANT:
            yield _Draft(
                f"operand{i}.lifetime=MODEL_INPUT",
                f"{_operand(model, i)} lifetime {old} -> MODEL_INPUT, not in input_indexes",
                _set_lifetime(i, L.MODEL_INPUT, lists=False),
            )
        elif operand.lifetime == L.TEMPORARY_VARIABLE:
            yield _Draft(
                f"operand{i}.lifetime=MODEL_OUTPUT",
                f"{_operand(model, i)} lifetime {old} -> MODEL_OUTPUT, not in output_indexes",
                _set_lifetime(i, L.MODEL_OUTPUT, lists=False),
            )
    for field_name, what in (("input_indexes", "input"), ("output_indexes", "output")):
        for k, i in enumerate(getattr(model, field_name)):
            yield _Draft(
                f"{field_name}[{k}].dropped",
                f"model {what} {k} ({_operand(model, i)}) dropped from {field_name}",
                _unlist(field_name, k),
            )


def _consumer_draft(model: Model, i: int, value: int) -> _Draft:
    return _Draft(
        f"operand{i}.consumers={value}",
        f"{_operand(model, i)} number_of_consumers {model.operands[i].number_of_consumers} -> "
        f"{value}",
        _set_field(i, "number_of_consumers", value),
    )


@_family(
    "consumer_count",
    MODEL,
    Tier.STRICT,
    ("operand.number_of_consumers",),
    UPSTREAM,
    "any operand",
    "an operand's number_of_consumers off by one (sampled: any other value)",
    upstream="mutateOperandNumberOfConsumersTest",
)
def _consumer_count(model: Model) -> Iterator[_Draft]:
    for i in range(len(model.operands)):
        actual = len(_consumers(model, i))
        yield _consumer_draft(model, i, actual + 1)
        if actual > 0:
            yield _consumer_draft(model, i, actual - 1)


@_sampler("consumer_count")
def _consumer_count_sample(model: Model) -> st.SearchStrategy[_Draft]:
    def draft(t: tuple[int, int]) -> _Draft:
        i, value = t
        return _consumer_draft(model, i, value)

    return (
        st.tuples(
            st.integers(min_value=0, max_value=len(model.operands) - 1),
            st.integers(min_value=-(2**31), max_value=UINT32_MAX),
        )
        .filter(lambda t: t[1] != len(_consumers(model, t[0])))
        .map(draft)
    )


def _duplicate_operation(j: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        twin = copy.deepcopy(m.operations[j])
        for v in twin.inputs:
            m.operands[v].number_of_consumers += 1
        m.operations.insert(j + 1, twin)

    return _edit(change)


@_family(
    "second_writer",
    MODEL,
    Tier.PARITY,
    ("operation.single_writer",),
    UPSTREAM,
    "any operation",
    "an operation duplicated, so each of its outputs has two writers",
    upstream="mutateOperandAddWriterTest",
)
def _second_writer(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        yield _Draft(
            f"operation{j}.duplicated",
            f"{_operation_label(model, j)} duplicated: operands {operation.outputs} written twice",
            _duplicate_operation(j),
        )


def _redirect_output(j: int, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        original = m.operands[m.operations[j].outputs[k]]
        fresh = copy.deepcopy(original)
        fresh.lifetime, fresh.number_of_consumers = L.TEMPORARY_VARIABLE, 0
        m.operands.append(fresh)
        m.operations[j].outputs[k] = len(m.operands) - 1

    return _edit(change)


@_family(
    "write_removed",
    MODEL,
    Tier.PARITY,
    ("operation.all_written",),
    UPSTREAM,
    "any operation output",
    "an operation output redirected to a new temporary, so the operand it wrote is never written",
    upstream="mutateOperationRemoveWriteTest",
)
def _write_removed(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        for k, v in enumerate(operation.outputs):
            yield _Draft(
                f"operation{j}.outputs[{k}].redirected",
                f"{_operation_label(model, j)} output {k} redirected from operand {v} to a new "
                f"temporary (operand {len(model.operands)}): operand {v} is never written",
                _redirect_output(j, k),
            )


def _same_kind(a: Operand, b: Operand) -> bool:
    return (a.type, a.scale, a.zero_point, a.extra_params) == (
        b.type,
        b.scale,
        b.zero_point,
        b.extra_params,
    )


def _rewire_input(j: int, k: int, w: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operation = m.operations[j]
        m.operands[operation.inputs[k]].number_of_consumers -= 1
        m.operands[w].number_of_consumers += 1
        operation.inputs[k] = w

    return _edit(change)


@_family(
    "graph_cycle",
    MODEL,
    Tier.STRICT,
    ("operation.order",),
    UPSTREAM,
    "an operation input of the same type and quantization as an output of that operation or a "
    "later one",
    "an operation made to read an operand that it, or a later operation, writes: a cycle "
    "(consumer counts kept right)",
    upstream="CycleTest",
)
def _graph_cycle(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        for k, v in enumerate(operation.inputs):
            candidates = [
                (later, w)
                for later in range(j, len(model.operations))
                for w in model.operations[later].outputs
                if w != v and _same_kind(model.operands[w], model.operands[v])
            ]
            if not candidates:
                continue
            later, w = candidates[0]
            by = "itself" if later == j else _operation_label(model, later)
            yield _Draft(
                f"operation{j}.inputs[{k}]={w}",
                f"{_operation_label(model, j)} input {k} operand {v} -> {w}, written by {by}: "
                "a cycle",
                _rewire_input(j, k, w),
            )


# ---------------------------------------------------------------------------
# Our model families: lifetimes, locations, pools, lists, parameters, versions
# ---------------------------------------------------------------------------


def _set_location(i: int, location: DataLocation) -> Callable[[Model], Model]:
    return _set_field(i, "location", location)


def _location_draft(model: Model, i: int, location: DataLocation, why: str) -> _Draft:
    old = model.operands[i].location
    return _Draft(
        f"operand{i}.location=({location.pool_index},{location.offset},{location.length})",
        f"{_operand(model, i)} location (pool {old.pool_index}, offset {old.offset}, length "
        f"{old.length}) -> (pool {location.pool_index}, offset {location.offset}, length "
        f"{location.length}): {why}",
        _set_location(i, location),
    )


@_family(
    "constant_copy_location",
    MODEL,
    Tier.PARITY,
    ("operand.location",),
    OURS,
    "a CONSTANT_COPY operand",
    "a CONSTANT_COPY location outside operand_values: pool index not 0, one byte past the end, "
    "or an offset whose sum with the length wraps in 32 bits (sampled: any offset past the end)",
)
def _constant_copy_location(model: Model) -> Iterator[_Draft]:
    size = len(model.operand_values)
    for i, operand in enumerate(model.operands):
        if operand.lifetime != L.CONSTANT_COPY:
            continue
        loc = operand.location
        yield _location_draft(
            model, i, dataclasses.replace(loc, pool_index=1), "CONSTANT_COPY uses pool 0"
        )
        yield _location_draft(
            model,
            i,
            dataclasses.replace(loc, offset=size - loc.length + 1),
            f"ends one byte past operand_values ({size} bytes)",
        )
        yield _location_draft(
            model,
            i,
            dataclasses.replace(loc, offset=UINT32_MAX),
            "offset + length exceeds 2**32 (wraps in uint32 arithmetic)",
        )


@_sampler("constant_copy_location")
def _constant_copy_location_sample(model: Model) -> st.SearchStrategy[_Draft]:
    size = len(model.operand_values)
    targets = [i for i, o in enumerate(model.operands) if o.lifetime == L.CONSTANT_COPY]
    if not targets:
        return st.nothing()

    def draft(t: tuple[int, int]) -> _Draft:
        i, offset = t
        loc = model.operands[i].location
        return _location_draft(
            model, i, dataclasses.replace(loc, offset=offset), f"past operand_values ({size} bytes)"
        )

    return (
        st.sampled_from(targets)
        .flatmap(
            lambda i: st.tuples(
                st.just(i),
                st.integers(
                    min_value=size - model.operands[i].location.length + 1, max_value=2**33
                ),
            )
        )
        .map(draft)
    )


def _constant_bytes(model: Model, i: int) -> bytes:
    loc = model.operands[i].location
    return bytes(model.operand_values[loc.offset : loc.offset + loc.length])


def _to_reference(i: int, location: Callable[[int, int, int], DataLocation], kind: str = ASHMEM):
    """Move CONSTANT_COPY operand ``i`` into a new pool, then give it ``location(pool, size,
    length)``."""

    def apply(model: Model) -> Model:
        data = _constant_bytes(model, i)
        m = copy_model(model)
        pool = allocate_with(kind, data)
        m.pools = [*m.pools, pool]
        operand = m.operands[i]
        operand.lifetime = L.CONSTANT_REFERENCE
        operand.location = location(len(m.pools) - 1, pool.size, len(data))
        return m

    return apply


@_family(
    "constant_reference_location",
    MODEL,
    Tier.PARITY,
    ("operand.location",),
    OURS,
    "a constant of at least one byte (moved into a new model pool first)",
    "a CONSTANT_REFERENCE location outside its pool: a pool index past the last pool, one byte "
    "past the pool's end, or an offset whose sum with the length wraps in 32 bits",
)
def _constant_reference_location(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime != L.CONSTANT_COPY or operand.location.length == 0:
            continue
        where = _operand(model, i)
        yield _Draft(
            f"operand{i}.reference.pool+1",
            f"{where} moved into model pool {len(model.pools)}, location pool index "
            f"{len(model.pools) + 1}: no such pool",
            _to_reference(i, lambda p, size, n: DataLocation(p + 1, 0, n)),
        )
        yield _Draft(
            f"operand{i}.reference.past_end",
            f"{where} moved into model pool {len(model.pools)} of {operand.location.length} "
            "bytes, location one byte past its end",
            _to_reference(i, lambda p, size, n: DataLocation(p, size - n + 1, n)),
        )
        yield _Draft(
            f"operand{i}.reference.wrap",
            f"{where} moved into model pool {len(model.pools)}, offset {UINT32_MAX}: offset + "
            "length wraps in uint32 arithmetic",
            _to_reference(i, lambda p, size, n: DataLocation(p, UINT32_MAX, n)),
        )


def _add_pool(name: str, with_handle: bool = True) -> Callable[[Model], Model]:
    def apply(model: Model) -> Model:
        m = copy_model(model)
        if with_handle:
            real = allocate_with(ASHMEM, bytes(16))
            m.pools = [*m.pools, Memory(name, real.handle, real.size)]
        else:
            m.pools = [*m.pools, Memory(name, None, 16)]
        return m

    return apply


@_family(
    "model_pool_invalid",
    MODEL,
    Tier.PARITY,
    ("model.pools",),
    OURS,
    "any model",
    "a model pool with an unknown memory name or without a handle",
)
def _model_pool_invalid(model: Model) -> Iterator[_Draft]:
    yield _Draft(
        "pool.name=bogus",
        f"model pool {len(model.pools)} added with memory name 'nnhal_bogus_memory'",
        _add_pool("nnhal_bogus_memory"),
    )
    yield _Draft(
        "pool.handle=None",
        f"model pool {len(model.pools)} added as 'ashmem' without a handle",
        _add_pool(ASHMEM, with_handle=False),
    )


@_family(
    "location_not_zero",
    MODEL,
    Tier.PARITY,
    ("operand.location",),
    OURS,
    "an operand that is not a constant",
    "a location on an operand that must have none (temporary, model input or output, no value)",
)
def _location_not_zero(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime in _CONSTANT or operand.lifetime not in set(OperandLifeTime):
            continue
        length = _fully_specified_size(operand) or 4
        yield _location_draft(
            model, i, DataLocation(0, 0, length), f"a {_lifetime_name(operand.lifetime)} has none"
        )
        yield _location_draft(
            model, i, DataLocation(1, 0, 0), f"a {_lifetime_name(operand.lifetime)} has none"
        )


@_family(
    "constant_length",
    MODEL,
    Tier.PARITY,
    ("operand.constant_length",),
    OURS,
    "a constant of a fundamental type with known dimensions",
    "a constant's location length one byte short of (or, inside operand_values, past) its data "
    "size",
)
def _constant_length(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime != L.CONSTANT_COPY or _fully_specified_size(operand) is None:
            continue
        loc = operand.location
        if loc.length > 0:
            yield _location_draft(
                model, i, dataclasses.replace(loc, length=loc.length - 1), "one byte short"
            )
        if loc.offset + loc.length + 1 <= len(model.operand_values):
            yield _location_draft(
                model, i, dataclasses.replace(loc, length=loc.length + 1), "one byte too long"
            )


@_family(
    "lifetime_invalid",
    MODEL,
    Tier.PARITY,
    ("operand.lifetime",),
    OURS,
    "any operand",
    "an operand lifetime that is not an OperandLifeTime (NO_VALUE + 1, 2**32 - 1)",
)
def _lifetime_invalid(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        for value in (L.NO_VALUE + 1, UINT32_MAX):
            yield _Draft(
                f"operand{i}.lifetime={value}",
                f"{_operand(model, i)} lifetime {_lifetime_name(operand.lifetime)} -> {value}",
                _set_field(i, "lifetime", value),
            )


def _append_index(field_name: str, value: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        getattr(m, field_name).append(value)

    return _edit(change)


_IO_RULES = ("model.input_indexes", "model.output_indexes")


@_family(
    "io_index_duplicate",
    MODEL,
    Tier.PARITY,
    _IO_RULES,
    OURS,
    "a model with an input or an output",
    "a model input or output listed twice",
)
def _io_index_duplicate(model: Model) -> Iterator[_Draft]:
    for field_name in ("input_indexes", "output_indexes"):
        values = getattr(model, field_name)
        if values:
            yield _Draft(
                f"{field_name}+{values[0]}",
                f"{field_name} {values} -> {[*values, values[0]]}: operand {values[0]} twice",
                _append_index(field_name, values[0]),
            )


@_family(
    "io_index_lifetime",
    MODEL,
    Tier.PARITY,
    _IO_RULES,
    OURS,
    "an operand whose lifetime is not MODEL_INPUT (for inputs) or not MODEL_OUTPUT (outputs)",
    "an operand of another lifetime listed as a model input or output",
)
def _io_index_lifetime(model: Model) -> Iterator[_Draft]:
    for field_name, lifetime in (
        ("input_indexes", L.MODEL_INPUT),
        ("output_indexes", L.MODEL_OUTPUT),
    ):
        for i, operand in enumerate(model.operands):
            if operand.lifetime != lifetime:
                yield _Draft(
                    f"{field_name}+{i}",
                    f"{_operand(model, i)}, a {_lifetime_name(operand.lifetime)}, appended to "
                    f"{field_name}",
                    _append_index(field_name, i),
                )
                break


def _io_range_draft(model: Model, field_name: str, value: int) -> _Draft:
    return _Draft(
        f"{field_name}+{value}",
        f"operand index {value} appended to {field_name} (the model has {len(model.operands)} "
        "operands)",
        _append_index(field_name, value),
    )


@_family(
    "io_index_range",
    MODEL,
    Tier.PARITY,
    _IO_RULES,
    OURS,
    "any model",
    "a model input or output index past the last operand (sampled: any out of range, negative or "
    "beyond 32 bits)",
)
def _io_index_range(model: Model) -> Iterator[_Draft]:
    for field_name in ("input_indexes", "output_indexes"):
        yield _io_range_draft(model, field_name, len(model.operands))


@_sampler("io_index_range")
def _io_index_range_sample(model: Model) -> st.SearchStrategy[_Draft]:
    values = st.one_of(
        st.integers(min_value=len(model.operands), max_value=2**33),
        st.integers(min_value=-(2**31), max_value=-1),
    )
    return st.tuples(st.sampled_from(["input_indexes", "output_indexes"]), values).map(
        lambda t: _io_range_draft(model, t[0], t[1])
    )


def _extra_draft(model: Model, i: int, extra: object, why: str) -> _Draft:
    return _Draft(
        f"operand{i}.extra={extra!r}",
        f"{_operand(model, i)} extra_params {model.operands[i].extra_params!r} -> {extra!r}: {why}",
        _set_field(i, "extra_params", extra),
    )


@_family(
    "extra_params_invalid",
    MODEL,
    Tier.PARITY,
    ("operand.extra_params",),
    OURS,
    "any operand of a fundamental type",
    "per-channel parameters inconsistent with the operand (channel dimension out of range, one "
    "scale too many, a zero scale, none at all), or extra parameters on a type that takes none",
)
def _extra_params_invalid(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        t, params = operand.type, operand.extra_params
        if t == Q8C and isinstance(params, SymmPerChannelQuantParams):
            rank = len(operand.dimensions)
            yield _extra_draft(
                model,
                i,
                dataclasses.replace(params, channel_dim=rank),
                f"channel_dim {rank} is not below the rank",
            )
            yield _extra_draft(
                model,
                i,
                dataclasses.replace(params, scales=(*params.scales, 1.0)),
                "one scale more than channels",
            )
            if params.scales:
                yield _extra_draft(
                    model,
                    i,
                    dataclasses.replace(params, scales=(0.0, *params.scales[1:])),
                    "scale 0 for channel 0",
                )
            yield _extra_draft(model, i, None, "the per-channel type needs its parameters")
        elif operand_type_introduced(t) is not None and not is_oem_type(t) and params is None:
            yield _extra_draft(
                model,
                i,
                SymmPerChannelQuantParams((1.0,), 0),
                "only TENSOR_QUANT8_SYMM_PER_CHANNEL takes per-channel parameters",
            )
            yield _extra_draft(
                model, i, ExtensionParams(b"\x00"), "only extension types take extension data"
            )


def _extension_operation(j: int, prefix: int, declare: bool, operand: int | None = None):
    def change(m: Model) -> None:
        m.operations[j].type = make_extension_type(prefix, 1)
        if declare:
            m.extension_name_to_prefix = [
                *m.extension_name_to_prefix,
                ExtensionNameAndPrefix(_EXTENSION_NAME, prefix),
            ]
        if operand is not None:
            target = m.operands[operand]
            target.type = make_extension_type(_UNDECLARED_PREFIX, 2)
            target.scale, target.zero_point, target.extra_params = 0.0, 0, None

    return _edit(change)


@_family(
    "extension_undeclared",
    MODEL,
    Tier.STRICT,
    ("operation.extension_prefix", "operand.extension_prefix", "operation.type_known"),
    OURS,
    "any operation (and an operand only it uses)",
    "an extension operation or operand type whose prefix the model does not declare in "
    "extension_name_to_prefix",
)
def _extension_undeclared(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        yield _Draft(
            f"operation{j}.extension",
            f"{_operation_label(model, j)} type -> extension operation (prefix "
            f"{_UNDECLARED_PREFIX}, type 1), prefix not declared",
            _extension_operation(j, _UNDECLARED_PREFIX, declare=False),
        )
        for i in operation.inputs:
            if _touching(model, i) == [j]:
                yield _Draft(
                    f"operation{j}.extension+operand{i}",
                    f"{_operation_label(model, j)} made an extension operation (prefix "
                    f"{_DECLARED_PREFIX}, declared) and its {_operand(model, i)} an extension "
                    f"type of prefix {_UNDECLARED_PREFIX}, not declared",
                    _extension_operation(j, _DECLARED_PREFIX, declare=True, operand=i),
                )
                break


def _declare(entries: list[tuple[str, int]]) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.extension_name_to_prefix = [
            *m.extension_name_to_prefix,
            *(ExtensionNameAndPrefix(n, p) for n, p in entries),
        ]

    return _edit(change)


@_family(
    "extension_declarations",
    MODEL,
    Tier.STRICT,
    ("model.extension_prefixes", "model.extensions_version"),
    OURS,
    "any model",
    "extension_name_to_prefix inconsistent: a name declared twice, a prefix declared twice, a "
    "prefix beyond 16 bits, an empty name",
)
def _extension_declarations(model: Model) -> Iterator[_Draft]:
    cases = (
        ("name_twice", [(_EXTENSION_NAME, 1), (_EXTENSION_NAME, 2)], "one name, two prefixes"),
        ("prefix_twice", [(_EXTENSION_NAME, 1), (_EXTENSION_NAME + ".b", 1)], "one prefix twice"),
        ("prefix_17_bits", [(_EXTENSION_NAME, 0x1_0000)], "prefix 65536 beyond 16 bits"),
        ("empty_name", [("", 1)], "an empty extension name"),
    )
    for key, entries, why in cases:
        yield _Draft(
            f"extensions.{key}", f"extension_name_to_prefix {entries}: {why}", _declare(entries)
        )


def _known_extension_operands(model: Model) -> list[int]:
    """The operands of an extension type ``hal.extensions`` knows, found through the
    model's own ``extension_name_to_prefix``."""
    declared = model.extension_name_to_prefix
    return [
        i
        for i, operand in enumerate(model.operands)
        if declared and operand_type_of(operand.type, declared) is not None
    ]


@_family(
    "extension_operand_fields",
    MODEL,
    Tier.PARITY,
    ("operand.scale", "operand.zero_point", "operand.extra_params"),
    OURS,
    "an operand of a declared extension type",
    "an extension operand given a scale, a zero point or per-channel parameters (an "
    "extension type takes scale 0, zero point 0, and no parameters or ExtensionParams)",
)
def _extension_operand_fields(model: Model) -> Iterator[_Draft]:
    for i in _known_extension_operands(model):
        yield _scale_draft(model, i, 0.5)
        yield _zero_point_draft(model, i, 3)
        yield _extra_draft(
            model,
            i,
            SymmPerChannelQuantParams((1.0,), 0),
            "an extension type takes no per-channel parameters",
        )


@_family(
    "extension_constant_short",
    MODEL,
    Tier.STRICT,
    ("operand.extension_constant_length",),
    OURS,
    "a CONSTANT_COPY operand of an extension type hal.extensions knows (its size is known)",
    "a constant of a known extension type whose location.length is one element short of its "
    "data size (Android 10 sizes no extension type)",
)
def _extension_constant_short(model: Model) -> Iterator[_Draft]:
    declared = model.extension_name_to_prefix
    for i in _known_extension_operands(model):
        operand = model.operands[i]
        if operand.lifetime != L.CONSTANT_COPY or not operand.dimensions:
            continue
        element = operand_type_of(operand.type, declared)[1].byte_size
        location = operand.location
        if location.length <= element:
            continue
        short = DataLocation(location.pool_index, location.offset, location.length - element)
        yield _Draft(
            f"operand{i}.length-{element}",
            f"{_operand(model, i)} location.length {location.length} -> "
            f"{short.length}: one element short",
            _set_field(i, "location", short),
        )


def _newer_operation(model: Model, j: int) -> int | None:
    """A 1.2-only operation type whose 1.2 forms take operation ``j``'s operand types."""
    operation = model.operations[j]
    ins, outs = _types(model, operation.inputs), _types(model, operation.outputs)
    for op in OperationType:
        info = operation_info(op)
        if info is None or info.introduced != V1_2 or op == operation.type:
            continue
        if any(s.accepts_types(ins, outs) for s in signatures(op, V1_2)):
            return op
    return None


def _newer_tail(model: Model, j: int) -> int | None:
    """The scalar type of a trailing input that only 1.2 forms of operation ``j`` accept."""
    operation = model.operations[j]
    ins, outs = _types(model, operation.inputs), _types(model, operation.outputs)
    if any(not 0 <= v < len(model.operands) for v in operation.inputs):
        return None
    for s in signatures(operation.type, V1_2):
        tail = s.inputs[len(ins) :]
        if (
            s.since == V1_2
            and len(s.inputs) == len(ins) + 1
            and s.accepts_types((*ins, *tail), outs)
            and is_scalar_type(tail[0])
        ):
            return tail[0]
    return None


def _append_scalar_input(j: int, type_: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        size = operand_byte_size(type_, [])
        location = _append_values(m, bytes(size))
        m.operands.append(Operand(type_, [], 1, lifetime=L.CONSTANT_COPY, location=location))
        m.operations[j].inputs.append(len(m.operands) - 1)

    return _edit(change)


def _set_operation_type(j: int, value: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.operations[j].type = value

    return _edit(change)


@_family(
    "newer_feature",
    MODEL,
    Tier.PARITY,
    (
        "model.extensions_version",
        "model.pools",
        "operation.type_version",
        "operation.type_known",
        "operation.signature",
        "operand.type_version",
    ),
    OURS,
    "a model valid at HAL 1.0 or 1.1 (tested through those methods only)",
    "a 1.2-only feature sent through prepare_model / _1_1: an extension declared or used, a "
    "hardware_buffer_blob pool, a 1.2 operation, a 1.2-only optional input, a 1.2 operand type",
)
def _newer_feature(model: Model) -> Iterator[_Draft]:
    yield _Draft(
        "extension.declared",
        f"extension {_EXTENSION_NAME!r} declared (prefix {_DECLARED_PREFIX})",
        _declare([(_EXTENSION_NAME, _DECLARED_PREFIX)]),
        BELOW_1_2,
    )
    yield _Draft(
        "pool.hardware_buffer_blob",
        f"model pool {len(model.pools)} added as hardware_buffer_blob",
        _add_pool(HARDWARE_BUFFER_BLOB),
        BELOW_1_2,
    )
    for j, operation in enumerate(model.operations):
        newer = _newer_operation(model, j)
        if newer is not None:
            yield _Draft(
                f"operation{j}.type={OperationType(newer).name}",
                f"{_operation_label(model, j)} -> {OperationType(newer).name}, an operation of "
                "HAL 1.2 taking the same operand types",
                _set_operation_type(j, newer),
                BELOW_1_2,
            )
        tail = _newer_tail(model, j)
        if tail is not None:
            yield _Draft(
                f"operation{j}.inputs+{_type_name(tail)}",
                f"{_operation_label(model, j)} given the optional {_type_name(tail)} input "
                f"{len(operation.inputs)} only its HAL 1.2 forms have",
                _append_scalar_input(j, tail),
                BELOW_1_2,
            )
        yield _Draft(
            f"operation{j}.extension",
            f"{_operation_label(model, j)} -> an extension operation of declared prefix "
            f"{_DECLARED_PREFIX}",
            _extension_operation(j, _DECLARED_PREFIX, declare=True),
            BELOW_1_2,
        )
    for i, operand in enumerate(model.operands):
        if operand.lifetime == L.MODEL_INPUT and operand.type == F32:
            yield _Draft(
                f"operand{i}.type=TENSOR_FLOAT16",
                f"{_operand(model, i)} type -> TENSOR_FLOAT16, a HAL 1.2 type",
                _set_type(i, F16),
                BELOW_1_2,
            )
            break


@_family(
    "relaxed_on_v1_0",
    MODEL,
    Tier.PARITY,
    ("model.relaxed_version",),
    OURS,
    "a model valid at HAL 1.0 without relax_computation_float32_to_float16",
    "relax_computation_float32_to_float16 set on a model sent through prepare_model (1.0)",
)
def _relaxed_on_v1_0(model: Model) -> Iterator[_Draft]:
    if not model.relax_computation_float32_to_float16:
        yield _Draft(
            "relaxed=True",
            "relax_computation_float32_to_float16 False -> True through HAL 1.0",
            _edit(lambda m: setattr(m, "relax_computation_float32_to_float16", True)),
            frozenset({V1_0}),
        )


def _emptied(everything: bool) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.operations = []
        if everything:
            m.operands, m.input_indexes, m.output_indexes = [], [], []
            m.operand_values = b""

    return _edit(change)


@_family(
    "model_empty",
    MODEL,
    Tier.PARITY,
    ("model.operands_nonempty", "model.operations_nonempty"),
    OURS,
    "any model",
    "a model with no operations, or with nothing at all",
)
def _model_empty(model: Model) -> Iterator[_Draft]:
    yield _Draft("operations=[]", "every operation removed", _emptied(False))
    yield _Draft("empty", "every operand and operation removed", _emptied(True))


_INVALID_TYPE_VALUES = st.one_of(
    st.integers(min_value=-(2**63), max_value=-1),
    st.integers(
        min_value=OperandTypeRange.FUNDAMENTAL_MAX + 1, max_value=OperandTypeRange.OEM_MIN - 1
    ),
    st.integers(min_value=OperandTypeRange.OEM_MAX + 1, max_value=OperandTypeRange.BASE_MAX),
    st.integers(min_value=2**32, max_value=2**64),
)


def _beyond_type_draft(model: Model, i: int, value: int) -> _Draft:
    return _Draft(
        f"operand{i}.type={value}",
        f"operand {i} type {_type_name(model.operands[i].type)} -> {value} in {_where(model, i)}",
        _set_type(i, value),
    )


@_family(
    "operand_type_beyond",
    MODEL,
    Tier.PARITY,
    ("operand.type_known",),
    OURS,
    "any operand",
    "an operand type no range defines: negative, or beyond 32 bits (2**32 + the original type, "
    "which a driver truncating to 32 bits would mistake for it); sampled: any such value",
)
def _operand_type_beyond(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        for value in (-1, 2**32 + operand.type):
            yield _beyond_type_draft(model, i, value)


@_sampler("operand_type_beyond")
def _operand_type_beyond_sample(model: Model) -> st.SearchStrategy[_Draft]:
    return st.tuples(
        st.integers(min_value=0, max_value=len(model.operands) - 1), _INVALID_TYPE_VALUES
    ).map(lambda t: _beyond_type_draft(model, *t))


_INVALID_OPERATION_VALUES = st.one_of(
    st.integers(min_value=-(2**63), max_value=-1),
    st.integers(
        min_value=OperationTypeRange.FUNDAMENTAL_MAX + 1, max_value=OperationTypeRange.OEM_MIN - 1
    ),
    st.integers(min_value=OperationTypeRange.OEM_MAX + 1, max_value=OperationTypeRange.BASE_MAX),
    st.integers(min_value=2**32, max_value=2**64),
)


@_family(
    "operation_type_beyond",
    MODEL,
    Tier.PARITY,
    ("operation.type_known",),
    OURS,
    "any operation",
    "an operation type no range defines: negative, or 2**32 + the original type (sampled: any "
    "such value)",
)
def _operation_type_beyond(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        yield _operation_type_draft(model, j, -1, "negative")
        yield _operation_type_draft(
            model, j, 2**32 + operation.type, "beyond 32 bits; truncated it is the original type"
        )


@_sampler("operation_type_beyond")
def _operation_type_beyond_sample(model: Model) -> st.SearchStrategy[_Draft]:
    return st.tuples(
        st.integers(min_value=0, max_value=len(model.operations) - 1), _INVALID_OPERATION_VALUES
    ).map(lambda t: _operation_type_draft(model, t[0], t[1], "outside every range"))


def _dimension_draft(model: Model, i: int, k: int, value: int) -> _Draft:
    dims = list(model.operands[i].dimensions)
    new = [*dims[:k], value, *dims[k + 1 :]]
    return _Draft(
        f"operand{i}.dims[{k}]={value}",
        f"{_operand(model, i)} dimensions {dims} -> {new}: not a uint32",
        _set_dims(i, new),
    )


def _dimension_targets(model: Model) -> list[tuple[int, int]]:
    return [
        (i, k)
        for i, operand in enumerate(model.operands)
        if operand.lifetime not in _CONSTANT and is_tensor_type(operand.type)
        for k in range(len(operand.dimensions))
    ]


@_family(
    "dimension_range",
    MODEL,
    Tier.PARITY,
    ("operand.dimensions_nonnegative",),
    OURS,
    "a non-constant tensor of known rank",
    "a dimension that is not a uint32: -1, or 2**32 + the original (truncated it is the "
    "original); sampled: any such value",
)
def _dimension_range(model: Model) -> Iterator[_Draft]:
    for i, k in _dimension_targets(model):
        yield _dimension_draft(model, i, k, -1)
        yield _dimension_draft(model, i, k, 2**32 + model.operands[i].dimensions[k])


@_sampler("dimension_range")
def _dimension_range_sample(model: Model) -> st.SearchStrategy[_Draft]:
    targets = _dimension_targets(model)
    if not targets:
        return st.nothing()
    values = st.one_of(
        st.integers(min_value=-(2**63), max_value=-1),
        st.integers(min_value=2**32, max_value=2**64),
    )
    return st.tuples(st.sampled_from(targets), values).map(
        lambda t: _dimension_draft(model, t[0][0], t[0][1], t[1])
    )


def _unspecified_constant(i: int, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operand = m.operands[i]
        operand.dimensions[k] = 0
        operand.location = dataclasses.replace(operand.location, length=0)

    return _edit(change)


@_family(
    "constant_unspecified",
    MODEL,
    Tier.STRICT,
    ("operand.constant_unspecified",),
    OURS,
    "a constant tensor of known rank",
    "a constant tensor given a dimension of 0 (and the matching length 0)",
)
def _constant_unspecified(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime == L.CONSTANT_COPY and is_tensor_type(operand.type):
            for k in range(len(operand.dimensions)):
                dims = list(operand.dimensions)
                dims[k] = 0
                yield _Draft(
                    f"operand{i}.dims[{k}]=0",
                    f"{_operand(model, i)} dimensions {list(operand.dimensions)} -> {dims}, "
                    "length 0: a constant must be fully specified",
                    _unspecified_constant(i, k),
                )


def _required_slots(model: Model) -> Iterator[tuple[int, int, int]]:
    """(operation, slot, operand) of every input slot the operation's form does not let be
    omitted."""
    for j, operation in enumerate(model.operations):
        signature = _matched_signature(model, j)
        if signature is None:
            continue
        for k, v in enumerate(operation.inputs):
            if k not in signature.omittable:
                yield j, k, v


def _omit_operand(i: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operand = m.operands[i]
        operand.lifetime, operand.location = L.NO_VALUE, DataLocation()
        m.input_indexes = [v for v in m.input_indexes if v != i]

    return _edit(change)


@_family(
    "required_input_omitted",
    MODEL,
    Tier.STRICT,
    ("operation.omitted_input",),
    OURS,
    "a model input or constant feeding an input slot the catalog does not mark omittable",
    "an operation input the operation requires given as a NO_VALUE operand",
)
def _required_input_omitted(model: Model) -> Iterator[_Draft]:
    done: set[int] = set()
    for j, k, v in _required_slots(model):
        operand = model.operands[v]
        if v in done or operand.lifetime not in (L.MODEL_INPUT, L.CONSTANT_COPY):
            continue
        done.add(v)
        yield _Draft(
            f"operand{v}.lifetime=NO_VALUE",
            f"operand {v} ({_type_name(operand.type)}, {_operation_label(model, j)} input {k}, "
            "which is required) lifetime "
            f"{_lifetime_name(operand.lifetime)} -> NO_VALUE",
            _omit_operand(v),
        )


@_family(
    "operation_input_rank",
    MODEL,
    Tier.STRICT,
    ("operation.rank",),
    OURS,
    "a model input in a required slot whose rank the catalog limits",
    "a model input given a rank outside the limits its operation defines",
)
def _operation_input_rank(model: Model) -> Iterator[_Draft]:
    """Never an optional slot: a model input there may be sent with has_no_value, so its
    declared dims (``{0}``, or any) are no rank violation."""
    done: set[int] = set()
    for j, operation in enumerate(model.operations):
        signature = _matched_signature(model, j)
        if signature is None:
            continue
        for slot, low, high in signature.ranks:
            if slot >= len(operation.inputs) or slot in signature.omittable:
                continue
            v = operation.inputs[slot]
            operand = model.operands[v]
            if v in done or operand.lifetime != L.MODEL_INPUT or not operand.dimensions:
                continue
            done.add(v)
            limits = f"{low}" if low == high else f"{low} to {high}"
            for rank in (high + 1, low - 1):
                if rank >= 1:
                    yield _Draft(
                        f"operand{v}.rank={rank}",
                        f"{_operand(model, v)} dimensions {list(operand.dimensions)} -> "
                        f"{[1] * rank}: {_op_name(operation.type)} input {slot} takes rank "
                        f"{limits}",
                        _set_dims(v, [1] * rank),
                    )


# ---------------------------------------------------------------------------
# Request families
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Argument:
    side: str
    """``inputs`` or ``outputs``."""
    position: int
    argument: RequestArgument
    operand: int

    @property
    def label(self) -> str:
        return f"{self.side[:-1]} {self.position} (operand {self.operand})"


def _arguments(subject: RequestSubject, with_value: bool = True) -> list[_Argument]:
    model, request = subject.model, subject.request
    result = []
    for side, indexes in (("inputs", model.input_indexes), ("outputs", model.output_indexes)):
        for k, argument in enumerate(getattr(request, side)):
            if with_value and argument.has_no_value:
                continue
            result.append(_Argument(side, k, argument, indexes[k]))
    return result


def _change_argument(side: str, k: int, **changes: object) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        arguments = getattr(r, side)
        arguments[k] = dataclasses.replace(arguments[k], **changes)

    return _edit_request(change)


def _describe_location(loc: DataLocation) -> str:
    return f"(pool {loc.pool_index}, offset {loc.offset}, length {loc.length})"


def _drop_argument(side: str, k: int) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        del getattr(r, side)[k]

    return _edit_request(change)


def _removed_family(side: str, vts_name: str, rule: str):
    def enumerate_(subject: RequestSubject) -> Iterator[_Draft]:
        for k in range(len(getattr(subject.request, side))):
            yield _Draft(
                f"{side}[{k}].removed",
                f"request {side[:-1]} argument {k} removed ({len(getattr(subject.request, side))}"
                f" -> {len(getattr(subject.request, side)) - 1} for a model of "
                f"{len(getattr(subject.request, side))})",
                _drop_argument(side, k),
            )

    _family(
        f"request_{side[:-1]}_removed",
        REQUEST,
        Tier.PARITY,
        (rule,),
        VTS,
        f"a model with an {side[:-1]}",
        f"one request {side[:-1]} argument removed",
        upstream=vts_name,
    )(enumerate_)


_removed_family("inputs", "removeInputTest", "request.input_count")
_removed_family("outputs", "removeOutputTest", "request.output_count")


def _add_argument(side: str, argument: RequestArgument) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        getattr(r, side).append(copy.deepcopy(argument))

    return _edit_request(change)


@_family(
    "request_argument_added",
    REQUEST,
    Tier.PARITY,
    ("request.input_count", "request.output_count"),
    OURS,
    "any request",
    "one request input or output argument more than the model has inputs or outputs",
)
def _request_argument_added(subject: RequestSubject) -> Iterator[_Draft]:
    request = subject.request
    extra_input = request.inputs[0] if request.inputs else RequestArgument(has_no_value=True)
    yield _Draft(
        "inputs+1",
        f"request input argument {len(request.inputs)} added (a copy of input 0) for a model of "
        f"{len(request.inputs)} inputs",
        _add_argument("inputs", extra_input),
    )
    if request.outputs:
        yield _Draft(
            "outputs+1",
            f"request output argument {len(request.outputs)} added (a copy of output 0) for a "
            f"model of {len(request.outputs)} outputs",
            _add_argument("outputs", request.outputs[0]),
        )


def _pool_index_draft(arg: _Argument, value: int, pools: int) -> _Draft:
    loc = arg.argument.location
    return _Draft(
        f"{arg.side}[{arg.position}].pool={value}",
        f"request {arg.label} pool index {loc.pool_index} -> {value} (the request has {pools} "
        "pools)",
        _change_argument(
            arg.side, arg.position, location=dataclasses.replace(loc, pool_index=value)
        ),
    )


@_family(
    "request_pool_index",
    REQUEST,
    Tier.PARITY,
    ("request.pool_index",),
    OURS,
    "a request argument with a value",
    "an argument's pool index past the last pool, or 2**32 - 1 (sampled: any out of range)",
)
def _request_pool_index(subject: RequestSubject) -> Iterator[_Draft]:
    pools = len(subject.request.pools)
    for arg in _arguments(subject):
        yield _pool_index_draft(arg, pools, pools)
        yield _pool_index_draft(arg, UINT32_MAX, pools)


@_sampler("request_pool_index")
def _request_pool_index_sample(subject: RequestSubject) -> st.SearchStrategy[_Draft]:
    arguments, pools = _arguments(subject), len(subject.request.pools)
    if not arguments:
        return st.nothing()
    values = st.one_of(
        st.integers(min_value=pools, max_value=2**33), st.integers(min_value=-(2**31), max_value=-1)
    )
    return st.tuples(st.sampled_from(arguments), values).map(
        lambda t: _pool_index_draft(t[0], t[1], pools)
    )


def _location_change(arg: _Argument, pool_size: int, offset: int, length: int) -> _Draft:
    loc = arg.argument.location
    new = DataLocation(loc.pool_index, offset, length)
    return _Draft(
        f"{arg.side}[{arg.position}].location=({offset},{length})",
        f"request {arg.label} location {_describe_location(loc)} -> {_describe_location(new)} "
        f"in a pool of {pool_size} bytes",
        _change_argument(arg.side, arg.position, location=new),
    )


@_family(
    "request_location",
    REQUEST,
    Tier.PARITY,
    ("request.location",),
    OURS,
    "a request argument with a value",
    "an argument's location outside its pool: one byte past the end, an offset whose sum with "
    "the length wraps in 32 bits, (outputs) a length past the end or one that wraps "
    "(sampled: any offset or length beyond the pool)",
)
def _request_location(subject: RequestSubject) -> Iterator[_Draft]:
    pools = subject.request.pools
    for arg in _arguments(subject):
        loc = arg.argument.location
        size = pools[loc.pool_index].size
        yield _location_change(arg, size, size - loc.length + 1, loc.length)
        yield _location_change(arg, size, UINT32_MAX, loc.length)
        if arg.side == "outputs":
            yield _location_change(arg, size, loc.offset, size - loc.offset + 1)
            yield _location_change(arg, size, loc.offset, 2**32 - loc.offset + 1)


@_sampler("request_location")
def _request_location_sample(subject: RequestSubject) -> st.SearchStrategy[_Draft]:
    arguments = _arguments(subject)
    if not arguments:
        return st.nothing()
    pools = subject.request.pools

    def for_argument(arg: _Argument) -> st.SearchStrategy[_Draft]:
        loc = arg.argument.location
        size = pools[loc.pool_index].size
        offsets = st.integers(min_value=size - loc.length + 1, max_value=2**33).map(
            lambda o: _location_change(arg, size, o, loc.length)
        )
        negative = st.integers(min_value=-(2**31), max_value=-1).map(
            lambda o: _location_change(arg, size, o, loc.length)
        )
        if arg.side == "inputs":
            return st.one_of(offsets, negative)
        lengths = st.integers(min_value=size - loc.offset + 1, max_value=2**33).map(
            lambda n: _location_change(arg, size, loc.offset, n)
        )
        return st.one_of(offsets, negative, lengths)

    return st.sampled_from(arguments).flatmap(for_argument)


def _model_dims(subject: RequestSubject, arg: _Argument) -> list[int]:
    return list(subject.model.operands[arg.operand].dimensions)


def _effective_dims(subject: RequestSubject, arg: _Argument) -> list[int] | None:
    """The argument's dimensions as the model and argument fix them, if fully known."""
    operand = subject.model.operands[arg.operand]
    dims = list(arg.argument.dimensions) or list(operand.dimensions)
    if is_tensor_type(operand.type) and not dims:
        return None
    return None if 0 in dims else dims


def _dims_draft(arg: _Argument, dims: list[int], why: str) -> _Draft:
    return _Draft(
        f"{arg.side}[{arg.position}].dims={dims}",
        f"request {arg.label} dimensions {list(arg.argument.dimensions)} -> {dims}: {why}",
        _change_argument(arg.side, arg.position, dimensions=list(dims)),
    )


@_family(
    "request_dims_rank",
    REQUEST,
    Tier.PARITY,
    ("request.dimensions_rank",),
    OURS,
    "an argument with a value whose operand has a known rank",
    "argument dimensions of another rank than the operand's (same element count: a trailing 1 "
    "added, or the last two dimensions merged)",
)
def _request_dims_rank(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        operand = subject.model.operands[arg.operand]
        dims = _effective_dims(subject, arg)
        if dims is None or (not operand.dimensions and not is_scalar_type(operand.type)):
            continue  # the model leaves the rank open
        rank = len(dims)
        yield _dims_draft(arg, [*dims, 1], f"rank {rank + 1}, the operand has rank {rank}")
        if rank >= 2:
            yield _dims_draft(
                arg,
                [*dims[:-2], dims[-2] * dims[-1]],
                f"rank {rank - 1}, the operand has rank {rank}",
            )


@_family(
    "request_dims_conflict",
    REQUEST,
    Tier.PARITY,
    ("request.dimensions_conflict",),
    OURS,
    "an argument with a value whose operand has fully specified dimensions",
    "argument dimensions of the operand's rank contradicting a dimension the model fixes (one "
    "dimension + 1; inputs: two dimensions swapped, same size; sampled: any contradicting list)",
)
def _request_dims_conflict(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        model_dims = _model_dims(subject, arg)
        if not model_dims or 0 in model_dims:
            continue
        for k in range(len(model_dims)):
            dims = list(model_dims)
            dims[k] += 1
            yield _dims_draft(arg, dims, f"dimension {k} conflicts with the operand's {model_dims}")
        if arg.side == "inputs" and len(model_dims) >= 2 and model_dims[0] != model_dims[-1]:
            dims = [model_dims[-1], *model_dims[1:-1], model_dims[0]]
            yield _dims_draft(
                arg, dims, f"same size, but conflicts with the operand's {model_dims}"
            )


@_sampler("request_dims_conflict")
def _request_dims_conflict_sample(subject: RequestSubject) -> st.SearchStrategy[_Draft]:
    targets = [
        (arg, _model_dims(subject, arg))
        for arg in _arguments(subject)
        if _model_dims(subject, arg) and 0 not in _model_dims(subject, arg)
    ]
    if not targets:
        return st.nothing()

    def for_target(target: tuple[_Argument, list[int]]) -> st.SearchStrategy[_Draft]:
        arg, model_dims = target
        rank = len(model_dims)
        return (
            st.lists(st.integers(min_value=1, max_value=UINT32_MAX), min_size=rank, max_size=rank)
            .filter(lambda dims: dims != model_dims)
            .map(lambda dims: _dims_draft(arg, dims, f"conflicts with the operand's {model_dims}"))
        )

    return st.sampled_from(targets).flatmap(for_target)


@_family(
    "request_no_value_location",
    REQUEST,
    Tier.PARITY,
    ("request.no_value",),
    OURS,
    "a request argument with a value",
    "an argument marked has_no_value that keeps a non-zero location, or carries dimensions",
)
def _request_no_value_location(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        loc = arg.argument.location
        if loc != DataLocation():
            yield _Draft(
                f"{arg.side}[{arg.position}].no_value+location",
                f"request {arg.label} has_no_value False -> True, location "
                f"{_describe_location(loc)} kept",
                _change_argument(arg.side, arg.position, has_no_value=True),
            )
        dims = _effective_dims(subject, arg) or [1]
        yield _Draft(
            f"{arg.side}[{arg.position}].no_value+dims",
            f"request {arg.label} has_no_value False -> True with location all 0 and dimensions "
            f"{dims}",
            _change_argument(
                arg.side, arg.position, has_no_value=True, location=DataLocation(), dimensions=dims
            ),
        )


@_family(
    "request_pools_empty",
    REQUEST,
    Tier.PARITY,
    ("request.pool_index",),
    OURS,
    "a request argument with a value",
    "a request whose pool list is empty",
)
def _request_pools_empty(subject: RequestSubject) -> Iterator[_Draft]:
    if _arguments(subject):
        yield _Draft(
            "pools=[]",
            f"request pools ({len(subject.request.pools)}) -> none; arguments keep their locations",
            _edit_request(lambda r: setattr(r, "pools", [])),
        )


def _replace_pool(k: int, name: str | None, keep_handle: bool) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        pool = r.pools[k]
        r.pools[k] = Memory(
            pool.name if name is None else name, pool.handle if keep_handle else None, pool.size
        )

    return _edit_request(change)


@_family(
    "request_pool_invalid",
    REQUEST,
    Tier.PARITY,
    ("request.pools",),
    OURS,
    "a request with a pool",
    "a request pool with an unknown memory name, without a handle, or (before 1.2) of the 1.2-only "
    "hardware_buffer_blob kind",
)
def _request_pool_invalid(subject: RequestSubject) -> Iterator[_Draft]:
    for k, pool in enumerate(subject.request.pools):
        yield _Draft(
            f"pools[{k}].name=bogus",
            f"request pool {k} memory name {pool.name!r} -> 'nnhal_bogus_memory'",
            _replace_pool(k, "nnhal_bogus_memory", True),
        )
        yield _Draft(
            f"pools[{k}].handle=None",
            f"request pool {k} ({pool.name}) handle -> none",
            _replace_pool(k, None, False),
        )
        if pool.name != HARDWARE_BUFFER_BLOB:
            yield _Draft(
                f"pools[{k}].name=hardware_buffer_blob",
                f"request pool {k} memory name {pool.name!r} -> 'hardware_buffer_blob' before "
                "HAL 1.2",
                _replace_pool(k, HARDWARE_BUFFER_BLOB, True),
                BELOW_1_2,
            )


@_family(
    "request_output_unspecified",
    REQUEST,
    Tier.PARITY,
    ("request.output_specified",),
    OURS,
    "a case valid before 1.2 with an output tensor (run on its dynamic-output twin)",
    "a request leaving output dimensions unknown (the model leaves them 0, the argument gives "
    "none) for a model prepared at 1.0 or 1.1, which have no dynamic output shapes",
    twin=True,
)
def _request_output_unspecified(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        operand = subject.model.operands[arg.operand]
        if arg.side != "outputs" or not is_tensor_type(operand.type) or arg.argument.dimensions:
            continue
        if 0 in operand.dimensions or not operand.dimensions:
            yield _Draft(
                f"outputs[{arg.position}].unspecified",
                f"request {arg.label} gives no dimensions for the model's "
                f"{list(operand.dimensions)}, prepared before HAL 1.2",
                copy_request,
                BELOW_1_2,
            )
            return


@_family(
    "request_input_length",
    REQUEST,
    Tier.STRICT,
    ("request.input_length",),
    OURS,
    "an input argument with a value and fully specified dimensions",
    "an input location length one byte shorter (or, inside the pool, longer) than its data",
)
def _request_input_length(subject: RequestSubject) -> Iterator[_Draft]:
    pools = subject.request.pools
    for arg in _arguments(subject):
        if arg.side != "inputs" or _effective_dims(subject, arg) is None:
            continue
        loc = arg.argument.location
        size = pools[loc.pool_index].size
        if loc.length > 0:
            yield _location_change(arg, size, loc.offset, loc.length - 1)
        if loc.offset + loc.length + 1 <= size:
            yield _location_change(arg, size, loc.offset, loc.length + 1)


@_family(
    "request_required_no_value",
    REQUEST,
    Tier.STRICT,
    ("request.no_value_required",),
    OURS,
    "an input feeding an operation input slot the catalog does not mark omittable",
    "a required input given as has_no_value (all-zero location, no dimensions)",
)
def _request_required_no_value(subject: RequestSubject) -> Iterator[_Draft]:
    required = {v: (j, k) for j, k, v in _required_slots(subject.model)}
    for arg in _arguments(subject):
        if arg.side == "inputs" and arg.operand in required:
            j, k = required[arg.operand]
            yield _Draft(
                f"inputs[{arg.position}].no_value",
                f"request {arg.label} given no value, but it feeds "
                f"{_operation_label(subject.model, j)} input {k}, which is required",
                _change_argument(
                    "inputs",
                    arg.position,
                    has_no_value=True,
                    location=DataLocation(),
                    dimensions=[],
                ),
            )


# ---------------------------------------------------------------------------
# The corpus the suite mutates
# ---------------------------------------------------------------------------


corpus = generated.corpus
"""Every generated case, built once per process (callers never change them)."""


def case_id(test: GeneratedTest) -> str:
    """``V1_2/conv2d_v1_2/nchw_quant8``: folder / spec / the rest of the name (``base``)."""
    return CaseId.of(test).case


def case_kind(test: GeneratedTest) -> tuple:
    """What distinguishes cases of one spec for the ``full`` profile: operand types, relaxation."""
    model = test.model
    return (
        tuple(o.type for o in model.operands),
        tuple(op.type for op in model.operations),
        model.relax_computation_float32_to_float16,
    )


def representatives(cases: Iterable[GeneratedTest], profile: str) -> list[GeneratedTest]:
    """The cases deterministic families run on: one per spec (``ci``), one per spec and kind
    (``full``), every case (``thorough``)."""
    cases = list(cases)
    if profile == "thorough":
        return cases
    seen: set = set()
    chosen = []
    for test in cases:
        key = (test.hal_folder, test.provenance.spec)
        if profile != "ci":
            key += case_kind(test)
        if key not in seen:
            seen.add(key)
            chosen.append(test)
    return chosen


def families_table() -> str:
    """Every family as one line: name, scope, tier, origin, rules."""
    width = max(len(name) for name in FAMILIES)
    return "\n".join(
        f"{f.name:<{width}}  {f.scope:<7}  {f.tier.value:<6}  {f.origin:<8}  {', '.join(f.rules)}"
        for f in FAMILIES.values()
    )


if __name__ == "__main__":
    print(families_table())
