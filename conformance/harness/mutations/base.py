"""The catalogue's shared machinery: records, the family registry, copies, helpers, corpus.

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

This module holds ``Mutation``, ``Family`` and the ``FAMILIES`` registry (``_family`` and
``_sampler`` register a family; each family module registers its own when the package imports
it), ``copy_model`` / ``copy_request`` / ``close_new_pools``, the helpers the family modules
share (model edits, descriptions, catalog queries) and the corpus the suite mutates
(``corpus``, ``case_id``, ``representatives``).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from hypothesis import strategies as st

from conformance.harness import generated
from conformance.harness.cases import GeneratedTest
from conformance.harness.items import CaseId
from hal import types as hal_types
from hal.memory import ASHMEM, Memory, allocate_with
from hal.operations import match_signature, operation_info, signatures
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
    OperationType,
    Request,
    RequestArgument,
    Subgraph,
    SymmPerChannelQuantParams,
    describe_type,
    is_oem_type,
    is_tensor_type,
    operand_byte_size,
    operand_type_introduced,
)
from hal.validation import RULES, Tier

V1_0, V1_1, V1_2, V1_3 = HalVersion.V1_0, HalVersion.V1_1, HalVersion.V1_2, HalVersion.V1_3
ALL_LEVELS = frozenset(HalVersion)
BELOW_1_2 = frozenset(v for v in HalVersion if v < V1_2)
BELOW_1_3 = frozenset(v for v in HalVersion if v < V1_3)
"""Where a value HAL 1.3 made valid (operand type 14, operation type 95, lifetime 6) is
still invalid."""
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
Q8AS, SUBGRAPH = T.TENSOR_QUANT8_ASYMM_SIGNED, T.SUBGRAPH
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
    level: HalVersion | None = None
    """The lowest tested HAL level whose drivers run the family's items (None: every level):
    a family about a later level's features is no business of an earlier level's driver,
    whose collected items stay what they were."""

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
    level: HalVersion | None = None,
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
            level=level,
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
    if not _plain_graphs(model):
        return copy.deepcopy(model, {id(pool): pool for pool in model.pools})
    return Model(
        _copy_operands(model.operands),
        _copy_operations(model.operations),
        _copied(model.input_indexes),
        _copied(model.output_indexes),
        _copied(model.operand_values),
        list(model.pools) if type(model.pools) is list else model.pools,
        _copied(model.relax_computation_float32_to_float16),
        _copied(model.extension_name_to_prefix),
        [
            Subgraph(
                _copy_operands(g.operands),
                _copy_operations(g.operations),
                _copied(g.input_indexes),
                _copied(g.output_indexes),
            )
            if type(g) is Subgraph
            else copy.deepcopy(g)
            for g in model.referenced
        ],
    )


def _plain_graphs(model: object) -> bool:
    """Whether ``model`` is a Model whose graphs are lists of plain operands (what the
    field-by-field copy knows how to copy)."""
    if type(model) is not Model or type(model.referenced) is not list:
        return False
    graphs = [model, *model.referenced]
    return all(
        type(g.operands) is list and all(type(o) is Operand for o in g.operands)
        for g in graphs
        if type(g) in (Model, Subgraph)
    )


def _copy_operands(operands: list) -> list:
    return [copy_operand(o) for o in operands]


def _copy_operations(operations: list) -> list:
    return [
        Operation(_copied(op.type), _copied(op.inputs), _copied(op.outputs))
        if type(op) is Operation
        else copy.deepcopy(op)
        for op in operations
    ]


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

    OEM and extension operations are the vendor's business: every level. IF and WHILE
    (1.3) have no catalog forms (the validation rules match them to their subgraphs):
    every level too, so no mutation counts on the catalog refusing them.
    """
    info = operation_info(op_type)
    if info is None or not info.signatures:
        return ALL_LEVELS
    return frozenset(
        level
        for level in HalVersion
        if any(s.accepts_types(inputs, outputs) for s in signatures(op_type, level))
    )


_CONTROL_FLOW = {OperationType.IF: (1, 2), OperationType.WHILE: (0, 1)}
"""The control-flow operations (1.3) and the input slots naming their subgraphs."""
CONTROL_FLOW_SIGNATURE_RULES = (
    "if.counts",
    "if.condition",
    "if.branch_refs",
    "if.branch_arity",
    "if.branch_compatible",
    "while.counts",
    "while.refs",
    "while.cond_signature",
    "while.body_signature",
    "operand.subgraph_pairing",
)
"""The rules that are IF's and WHILE's signature check (the catalog lists no form for them):
what refuses a family's retype, removal or addition of one of their operands."""


def _named_subgraph(model: Model, operand: Operand) -> Subgraph | None:
    """The referenced subgraph a SUBGRAPH operand names, None if it names none."""
    if operand.type != SUBGRAPH or operand.lifetime != L.SUBGRAPH:
        return None
    location = operand.location
    referenced = model.referenced
    if location.pool_index != 0 or location.length != 0:
        return None
    return referenced[location.offset] if 0 <= location.offset < len(referenced) else None


def _io_types(graph: Subgraph, field: str) -> tuple[int, ...] | None:
    indexes = getattr(graph, field)
    if any(not 0 <= i < len(graph.operands) for i in indexes):
        return None
    return tuple(graph.operands[i].type for i in indexes)


def _control_flow_fits(model: Model, op_type: int, ins: list, outs: list) -> bool:
    """Whether an IF or WHILE of these operand records has the shape of its operation: the
    counts, the condition's type, SUBGRAPH operands naming subgraphs, and every value of the
    type its subgraphs take there. The suite's own reading of HAL 1.3's definition of the
    two operations (the validator's rules are what the families are checked against)."""
    if len(ins) < 3 or not outs:
        return False
    graphs = [_named_subgraph(model, ins[k]) for k in _CONTROL_FLOW[op_type]]
    if any(g is None for g in graphs):
        return False
    values = tuple(o.type for o in ins[3 if op_type == OperationType.IF else 2 :])
    results = tuple(o.type for o in outs)
    if op_type == OperationType.IF:
        if ins[0].type != B8:
            return False
        return all(
            _io_types(g, "input_indexes") == values and _io_types(g, "output_indexes") == results
            for g in graphs
        )
    cond, body = graphs
    body_outs = _io_types(body, "output_indexes")
    return (
        _io_types(cond, "input_indexes") == values
        and _io_types(body, "input_indexes") == values
        and body_outs is not None
        and len(results) <= len(body_outs) <= len(values)
        and body_outs[: len(results)] == results
        and body_outs == values[: len(body_outs)]
    )


def _form_levels(model: Model, op_type: int, ins: list, outs: list) -> frozenset[HalVersion]:
    """The HAL levels at which an operation of type ``op_type`` taking these operand records
    has a form: the catalog's, or for IF and WHILE ``_control_flow_fits`` (none if it does
    not fit: below 1.3 they do not exist)."""
    if op_type in _CONTROL_FLOW:
        return ALL_LEVELS if _control_flow_fits(model, op_type, ins, outs) else frozenset()
    return _catalog_accepts(op_type, tuple(o.type for o in ins), tuple(o.type for o in outs))


def _levels_rejecting(model: Model, touched: Iterable[int]) -> frozenset[HalVersion]:
    """Levels at which some operation of ``touched`` has no form for its operand types (the
    catalog's; for IF and WHILE, the types of the subgraphs they name)."""
    rejecting: set[HalVersion] = set()
    for j in touched:
        operation = model.operations[j]
        if any(not 0 <= v < len(model.operands) for v in [*operation.inputs, *operation.outputs]):
            return ALL_LEVELS
        accepted = _form_levels(
            model,
            operation.type,
            [model.operands[v] for v in operation.inputs],
            [model.operands[v] for v in operation.outputs],
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


def _set_type(i: int, value: int) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], "type", value))


def _set_dims(i: int, dims: list[int]) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], "dimensions", list(dims)))


def _set_field(i: int, name: str, value: object) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], name, value))


def _touching(model: Model, i: int) -> list[int]:
    return [
        j
        for j, operation in enumerate(model.operations)
        if i in operation.inputs or i in operation.outputs
    ]


def _lifetime_name(value: int) -> str:
    try:
        return OperandLifeTime(value).name
    except ValueError:
        return str(value)


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


# ---------------------------------------------------------------------------
# The corpus the suite mutates
# ---------------------------------------------------------------------------


@functools.cache
def corpus() -> tuple[GeneratedTest, ...]:
    """The generated cases the validation tests (and the burst and caching tests, which
    take their cases from here) run on, built once per process (callers never change
    them): every case but those VTS 1.3's validation leaves out, Android 11's lifetime
    variations (``GeneratedTest.lifetime_variation``). Expected-failure cases are here: VTS
    1.3 mutates their models too; the request, burst and caching tests leave them out."""
    return tuple(validated(generated.corpus()))


def validated(cases: Iterable[GeneratedTest]) -> list[GeneratedTest]:
    """The cases of ``cases`` that ``corpus`` holds: not Android 11's lifetime variations."""
    return [test for test in cases if not test.lifetime_variation]


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
