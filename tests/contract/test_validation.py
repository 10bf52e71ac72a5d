"""Unit tests of ``hal.validation``, and of the reference driver enforcing it.

One table, ``CASES``, holds a minimal violating input per rule (usually
several): a valid base model or request and the mutation that breaks exactly
that rule. Each case is checked against the library (the rule fires, with the
expected message; disabling the rule makes the input valid) and against the
reference driver (it rejects the input with INVALID_ARGUMENT on every path of
the case's HAL version, and accepts it when built without that rule).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from conformance.harness.models import binary_model, chain_model, signature_model
from conformance.harness.requests import pack_request
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.memory import ASHMEM, HARDWARE_BUFFER_BLOB, MMAP_FD, Memory, allocate_with
from hal.operations import signatures
from hal.types import (
    NO_TIMING,
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    ExtensionNameAndPrefix,
    ExtensionParams,
    HalVersion,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Priority,
    Request,
    Subgraph,
    SymmPerChannelQuantParams,
    make_extension_type,
    numpy_dtype,
)
from hal.validation import (
    RULES,
    RequestValidator,
    Rule,
    Tier,
    ValidationResult,
    Violation,
    validate_execution_preference,
    validate_model,
    validate_priority,
    validate_request,
    validate_time_argument,
)

V1_0, V1_1, V1_2, V1_3 = HalVersion.V1_0, HalVersion.V1_1, HalVersion.V1_2, HalVersion.V1_3
F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8A = OperandType.TENSOR_QUANT8_ASYMM
LT = OperandLifeTime
INVALID = ErrorStatus.INVALID_ARGUMENT
WAIT = 10.0
"""Seconds to wait for a driver callback."""

# ---------------------------------------------------------------------------
# Owned resources: pools created for a test are closed after it
# ---------------------------------------------------------------------------


class Kit:
    """Creates the pools a test's models and requests need, and closes them afterwards."""

    def __init__(self) -> None:
        self._owned: list[Memory] = []

    def pool(self, data: bytes, kind: str = ASHMEM) -> Memory:
        memory = allocate_with(kind, data)
        self._owned.append(memory)
        return memory

    def request(self, model: Model, inputs: list, **options: Any) -> Request:
        packed = pack_request(model, inputs, **options)
        self._owned.extend(packed.pools)
        return packed.request

    def close(self) -> None:
        for memory in self._owned:
            memory.close()


@pytest.fixture
def kit() -> Iterator[Kit]:
    owner = Kit()
    yield owner
    owner.close()


# ---------------------------------------------------------------------------
# Valid bases
# ---------------------------------------------------------------------------

Builder = Callable[[Kit], Model]
RequestBuilder = Callable[[Kit, Model], Request]


def _float(kit: Kit) -> Model:
    """ADD of two [2, 2] TENSOR_FLOAT32 inputs; operand 2 is the activation constant."""
    return binary_model()


def _quant(kit: Kit) -> Model:
    return binary_model(type_=Q8A)


def _chain(kit: Kit) -> Model:
    """x -> ADD -> t (operand 2) -> ADD -> out (operand 3)."""
    return chain_model(2)


def _constant(kit: Kit) -> Model:
    """Operand 1 is a [2, 2] CONSTANT_COPY at offset 0; the activation follows at 16."""
    return binary_model(constant_b=np.ones((2, 2), np.float32))


def _reference(kind: str = ASHMEM) -> Builder:
    """Operand 1 is a [2, 2] CONSTANT_REFERENCE filling model pool 0."""

    def build(kit: Kit) -> Model:
        model = _constant(kit)
        operand = model.operands[1]
        operand.lifetime = LT.CONSTANT_REFERENCE
        model.pools = [kit.pool(model.operand_values[:16], kind)]
        return model

    return build


def _unary(operation: int) -> Builder:
    def build(kit: Kit) -> Model:
        return Model(
            operands=[
                Operand(F32, [2], 1, lifetime=LT.MODEL_INPUT),
                Operand(F32, [2], 0, lifetime=LT.MODEL_OUTPUT),
            ],
            operations=[Operation(operation, [0], [1])],
            input_indexes=[0],
            output_indexes=[1],
        )

    return build


def _binary(**options: Any) -> Builder:
    return lambda kit: binary_model(**options)


def _signature_base(operation: int, variant: int) -> Builder:
    """The catalog's first form of ``operation`` for ``variant``, as a minimal model."""
    signature = next(s for s in signatures(operation, V1_2) if s.variant == variant)
    return lambda kit: signature_model(signature)


def _extended(base: Builder, *prefixes: int) -> Builder:
    """``base`` declaring extensions with the given prefixes."""

    def build(kit: Kit) -> Model:
        model = base(kit)
        model.extension_name_to_prefix = [
            ExtensionNameAndPrefix(f"com.example.ext{p}", p) for p in prefixes
        ]
        return model

    return build


def _plus(base: Builder, *mutations: Callable[[Model], None]) -> Builder:
    """``base`` with some (validity-preserving) changes."""

    def build(kit: Kit) -> Model:
        model = base(kit)
        for mutate in mutations:
            mutate(model)
        return model

    return build


def _packed(
    output_sizes: list[int] | None = None,
    kind: str = ASHMEM,
    dims: list[int] | None = None,
    output_dims: list[int] | None = None,
) -> RequestBuilder:
    """Every input a [2, 2] array of ones, packed as VTS does; arguments' dimensions optional."""

    def build(kit: Kit, model: Model) -> Request:
        dtypes = [numpy_dtype(model.operands[i].type) for i in model.input_indexes]
        inputs = [np.ones((2, 2), dtype) for dtype in dtypes]
        request = kit.request(model, inputs, output_sizes=output_sizes, kind=kind)
        if dims is not None:
            for argument in request.inputs:
                argument.dimensions = list(dims)
        if output_dims is not None:
            request.outputs[0].dimensions = list(output_dims)
        return request

    return build


_ones = _packed()


def _transpose(kit: Kit) -> Model:
    """TRANSPOSE of a [2, 2] TENSOR_FLOAT32 input; its permutation (optional) is input 1."""
    return Model(
        operands=[
            Operand(F32, [2, 2], 1, lifetime=LT.MODEL_INPUT),
            Operand(OperandType.TENSOR_INT32, [2], 1, lifetime=LT.MODEL_INPUT),
            Operand(F32, [2, 2], 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.TRANSPOSE, [0, 1], [2])],
        input_indexes=[0, 1],
        output_indexes=[2],
    )


def _transpose_request(kit: Kit, model: Model, perm: bool = True) -> Request:
    data = np.arange(4, dtype=np.float32).reshape(2, 2)
    return kit.request(model, [data, np.array([1, 0], np.int32) if perm else None])


# -- HAL 1.3: a model with referenced subgraphs ------------------------------

B8 = OperandType.TENSOR_BOOL8
SUBGRAPH = OperandType.SUBGRAPH


def _subgraph_ref(k: int, consumers: int = 1) -> Operand:
    """A SUBGRAPH operand naming ``Model.referenced[k]``."""
    return Operand(SUBGRAPH, [], consumers, lifetime=LT.SUBGRAPH, location=DataLocation(0, k, 0))


def _unary_graph(operation: int, dims: list[int] | None = None) -> Subgraph:
    """One unary operation from a TENSOR_FLOAT32 input to an output, [2] unless given."""
    dims = dims or [2]
    return Subgraph(
        operands=[
            Operand(F32, list(dims), 1, lifetime=LT.MODEL_INPUT),
            Operand(F32, list(dims), 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(operation, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )


def _if(kit: Kit) -> Model:
    """IF(cond (operand 0), then = referenced[0] (operand 2), else = referenced[1]
    (operand 3), x (operand 1)) -> out (operand 4); then is RELU, else FLOOR, on [2]."""
    return Model(
        operands=[
            Operand(B8, [1], 1, lifetime=LT.MODEL_INPUT),
            Operand(F32, [2], 1, lifetime=LT.MODEL_INPUT),
            _subgraph_ref(0),
            _subgraph_ref(1),
            Operand(F32, [2], 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.IF, [0, 2, 3, 1], [4])],
        input_indexes=[0, 1],
        output_indexes=[4],
        referenced=[_unary_graph(OperationType.RELU), _unary_graph(OperationType.FLOOR)],
    )


def _while(kit: Kit) -> Model:
    """WHILE(cond = referenced[0] (operand 0), body = referenced[1] (operand 1), x
    (operand 2)) -> out (operand 3): while x < 10, x = x + 1, on [1] tensors."""

    def constant(type_: int, offset: int) -> Operand:
        dims = [] if type_ == OperandType.INT32 else [1]
        return Operand(
            type_, dims, 1, lifetime=LT.CONSTANT_COPY, location=DataLocation(0, offset, 4)
        )

    cond = Subgraph(
        operands=[
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),
            constant(F32, 0),
            Operand(B8, [1], 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.LESS, [0, 1], [2])],
        input_indexes=[0],
        output_indexes=[2],
    )
    body = Subgraph(
        operands=[
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),
            constant(F32, 4),
            constant(OperandType.INT32, 8),
            Operand(F32, [1], 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.ADD, [0, 1, 2], [3])],
        input_indexes=[0],
        output_indexes=[3],
    )
    return Model(
        operands=[
            _subgraph_ref(0),
            _subgraph_ref(1),
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),
            Operand(F32, [1], 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.WHILE, [0, 1, 2], [3])],
        input_indexes=[2],
        output_indexes=[3],
        operand_values=np.array([10.0, 1.0], np.float32).tobytes() + bytes(4),
        referenced=[cond, body],
    )


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------

Mutation = Callable[[Any], None]


def _set(obj: object, fields: dict[str, Any]) -> None:
    for name, value in fields.items():
        setattr(obj, name, copy.deepcopy(value))


def _operand(i: int, **fields: Any) -> Mutation:
    return lambda model: _set(model.operands[i], fields)


def _operand_location(i: int, **fields: Any) -> Mutation:
    def mutate(model: Model) -> None:
        model.operands[i].location = replace(model.operands[i].location, **fields)

    return mutate


def _operation(j: int, **fields: Any) -> Mutation:
    return lambda model: _set(model.operations[j], fields)


def _model(**fields: Any) -> Mutation:
    return lambda model: _set(model, fields)


def _add_operand(operand: Operand, listed_in: str | None = None) -> Mutation:
    """Append an unused operand, listed in ``input_indexes``/``output_indexes`` if named."""

    def mutate(model: Model) -> None:
        model.operands.append(copy.deepcopy(operand))
        if listed_in:
            getattr(model, listed_in).append(len(model.operands) - 1)

    return mutate


def _add_input(type_: int, dims: list[int] | None = None, **fields: Any) -> Mutation:
    return _add_operand(
        Operand(type_, dims or [], lifetime=LT.MODEL_INPUT, **fields), "input_indexes"
    )


def _steps(*mutations: Mutation) -> Mutation:
    def mutate(target: Any) -> None:
        for step in mutations:
            step(target)

    return mutate


def _argument(side: str, k: int, **fields: Any) -> Mutation:
    return lambda request: _set(getattr(request, side)[k], fields)


def _argument_location(side: str, k: int, **fields: Any) -> Mutation:
    def mutate(request: Request) -> None:
        argument = getattr(request, side)[k]
        argument.location = replace(argument.location, **fields)

    return mutate


def _request(**fields: Any) -> Mutation:
    return lambda request: _set(request, fields)


def _request_pool(k: int, **fields: Any) -> Mutation:
    def mutate(request: Request) -> None:
        request.pools[k] = replace(request.pools[k], **fields)

    return mutate


def _model_pool(k: int, **fields: Any) -> Mutation:
    def mutate(model: Model) -> None:
        model.pools[k] = replace(model.pools[k], **fields)

    return mutate


def _graph(k: int, mutate: Mutation) -> Mutation:
    """``mutate`` applied to ``Model.referenced[k]`` (it has a model's graph fields)."""
    return lambda model: mutate(model.referenced[k])


def _no_value_branches(model: Model) -> None:
    """IF with no values: each branch turns a constant [2] into its output, no inputs."""
    model.operations[0].inputs = [0, 2, 3]
    model.operands[1].number_of_consumers = 0
    model.operand_values = bytes(8)
    for graph in model.referenced:
        graph.operands[0] = Operand(
            F32, [2], 1, lifetime=LT.CONSTANT_COPY, location=DataLocation(0, 0, 8)
        )
        graph.input_indexes = []


def _oem_reads_subgraph(model: Model) -> None:
    """An OEM operation reads the then branch's SUBGRAPH operand (operand 2)."""
    model.operands.append(Operand(F32, [2], 0, lifetime=LT.TEMPORARY_VARIABLE))
    model.operations.append(Operation(OperationType.OEM_OPERATION, [2], [5]))
    model.operands[2].number_of_consumers = 2


def _model_pop_last(model: Model) -> None:
    """Drop the last referenced subgraph (valid when nothing names it any more)."""
    model.referenced.pop()


def _nest_while_in_then(model: Model) -> None:
    """The then branch becomes a WHILE over [2] tensors (its subgraphs appended): control
    flow nested in a referenced subgraph, checked there by model.each_subgraph."""
    loop = _while(Kit())
    base = len(model.referenced)
    for operand in loop.operands[:2]:
        operand.location = DataLocation(0, base + operand.location.offset, 0)
    model.operand_values = loop.operand_values
    then = Subgraph(loop.operands, loop.operations, loop.input_indexes, loop.output_indexes)
    for graph in (then, *loop.referenced):
        for operand in graph.operands:
            if operand.type == F32 and operand.lifetime != LT.CONSTANT_COPY:
                operand.dimensions = [2]  # the constants ([1]) broadcast
    model.referenced = [then, model.referenced[1], *loop.referenced]


def _reverse_operations(model: Model) -> None:
    model.operations.reverse()


def _duplicate_operation(model: Model) -> None:
    model.operations.append(copy.deepcopy(model.operations[0]))
    for i in model.operations[0].inputs:
        model.operands[i].number_of_consumers = 2


def _make_self_loop(model: Model) -> None:
    """ADD(a, out) -> out: operand 3 is read by its own writer; b (operand 1) goes unused."""
    model.operations[0].inputs = [0, 3, 2]
    model.operands[1].number_of_consumers = 0
    model.operands[3].number_of_consumers = 1


def _make_cycle(model: Model) -> None:
    """In the chain, the first ADD reads operand 3, which only the second ADD writes."""
    model.operations[0].inputs = [0, 3, 1]
    model.operands[0].number_of_consumers = 1
    model.operands[3].number_of_consumers = 1


# ---------------------------------------------------------------------------
# The violation table
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    rule: str
    name: str
    mutate: Mutation | None = None
    """Applied to a copy of the valid model (model rules) or request (request rules)."""
    base: Builder = _float
    version: HalVersion = V1_2
    message: str | None = None
    """The exact text of one violation of ``rule`` this case produces."""
    request: RequestBuilder = _ones
    preference: int = ExecutionPreference.FAST_SINGLE_ANSWER
    priority: int = Priority.MEDIUM
    time_value: object = None
    """The deadline, loop timeout or duration of a ``request.time_arguments`` case."""
    alone: bool = True
    """``rule`` is the only rule the input violates."""
    driver_checks_again: bool = False
    """The reference driver's own operation code rejects the input too, rule or no rule."""

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.name}"

    @property
    def kind(self) -> str:
        if self.rule in _ARGUMENT_KINDS:
            return _ARGUMENT_KINDS[self.rule]
        return RULES[self.rule].scope if self.rule in RULES else "model"


_ARGUMENT_KINDS = {
    "model.execution_preference": "preference",
    "model.priority": "priority",
    "request.time_arguments": "time",
}
"""The rules on a call's arguments rather than on a model or request."""


@dataclass
class Built:
    """A case's inputs: the valid model (and request), and the violating one."""

    model: Model
    request: Request | None = None
    bad_model: Model | None = None
    bad_request: Request | None = None


def build(case: Case, kit: Kit) -> Built:
    model = case.base(kit)
    assert validate_model(model, case.version).ok, "the case's base model must be valid"
    if case.kind in _ARGUMENT_KINDS.values():
        return Built(model, bad_model=model)
    if case.kind == "model":
        bad = copy.deepcopy(model)
        case.mutate(bad)
        return Built(model, bad_model=bad)
    request = case.request(kit, model)
    assert validate_request(request, model, case.version).ok, "the case's base request is valid"
    bad_request = copy.deepcopy(request)
    case.mutate(bad_request)
    return Built(model, request, model, bad_request)


def evaluate(case: Case, built: Built, disabled: frozenset[str] = frozenset()) -> ValidationResult:
    if case.kind == "preference":
        return validate_execution_preference(case.preference, disabled=disabled)
    if case.kind == "priority":
        return validate_priority(case.priority, disabled=disabled)
    if case.kind == "time":
        return validate_time_argument(case.time_value, disabled=disabled)
    if case.kind == "model":
        return validate_model(built.bad_model, case.version, disabled=disabled)
    return validate_request(built.bad_request, built.model, case.version, disabled=disabled)


PER_CHANNEL = Operand(
    OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
    [2, 3],
    lifetime=LT.MODEL_INPUT,
    extra_params=SymmPerChannelQuantParams((1.0, 1.0), 0),
)
"""An unused per-channel model input, operand 4 once added to a binary model."""
_with_per_channel = _plus(_float, _add_operand(PER_CHANNEL, "input_indexes"))
EXT_1 = make_extension_type(1, 1)
_with_extension = _extended(_plus(_float, _add_input(EXT_1)), 1)
_dynamic_output = _binary(output_dims=(0, 0))
DEMO_Q16 = make_extension_type(7, 1)
"""org.nnhal_conformance.demo's TENSOR_Q16 (type 1) as a model declaring it at prefix 7."""


def _demo(kit: Kit) -> Model:
    """SATURATING_ADD of two [2, 2] TENSOR_Q16 inputs; the demo extension at prefix 7, an
    unknown one at prefix 1 (the harness's own number for the demo: never read here)."""
    return Model(
        operands=[
            Operand(DEMO_Q16, [2, 2], 1, lifetime=LT.MODEL_INPUT),
            Operand(DEMO_Q16, [2, 2], 1, lifetime=LT.MODEL_INPUT),
            Operand(DEMO_Q16, [2, 2], 0, lifetime=LT.MODEL_OUTPUT),
        ],
        operations=[Operation(make_extension_type(7, 1), [0, 1], [2])],
        input_indexes=[0, 1],
        output_indexes=[2],
        extension_name_to_prefix=[
            ExtensionNameAndPrefix("com.example.other", 1),
            ExtensionNameAndPrefix("org.nnhal_conformance.demo", 7),
        ],
    )


def _demo_constant(kit: Kit) -> Model:
    """``_demo`` with its second input a CONSTANT_COPY of 8 bytes (four Q16 zeros)."""
    model = _demo(kit)
    model.operands[1].lifetime = LT.CONSTANT_COPY
    model.operands[1].location = DataLocation(0, 0, 8)
    model.operand_values = bytes(8)
    model.input_indexes = [0]
    return model


_SAT_ADD = "operation 0: org.nnhal_conformance.demo:SATURATING_ADD"
_dynamic_input = _binary(dims=(0, 2), other_dims=(2, 2), output_dims=(2, 2))
_unknown_rank_input = _binary(dims=(), other_dims=(2, 2), output_dims=(2, 2))
_pc = "operand 4: TENSOR_QUANT8_SYMM_PER_CHANNEL extra_params"


MODEL_CASES = [
    Case(
        "model.operands_nonempty",
        "no_operands",
        _model(
            operands=[],
            operations=[Operation(OperationType.OEM_OPERATION, [], [])],
            input_indexes=[],
            output_indexes=[],
            operand_values=b"",
        ),
        message="model has no operands",
    ),
    Case(
        "model.operations_nonempty",
        "no_operations",
        _model(
            operands=[Operand(F32, [2], lifetime=LT.MODEL_INPUT)],
            operations=[],
            input_indexes=[0],
            output_indexes=[],
            operand_values=b"",
        ),
        message="model has no operations",
    ),
    Case(
        "operand.type_known",
        "fundamental_max_plus_1",
        _operand(0, type=16),
        message="operand 0: unknown operand type 16 is not an operand type",
    ),
    Case(
        "operand.type_known",
        "negative",
        _operand(0, type=-1),
        message="operand 0: unknown operand type -1 is not an operand type",
    ),
    Case("operand.type_known", "oem_max_plus_1", _operand(0, type=10002)),
    Case("operand.type_known", "oem_min_minus_1", _operand(3, type=9999)),
    Case(
        "operand.type_known",
        "beyond_32_bits",
        _operand(0, type=2**32),
        message="operand 0: type 0x100000000 does not fit in 32 bits",
    ),
    Case(
        "operand.type_known",
        "extension_at_1_0",
        _operand(0, type=0xFFFFFFFF),
        version=V1_0,
        message=(
            "operand 0: extension type 0xffffffff (prefix 65535, type 65535) needs HAL 1.2, "
            "model is 1.0"
        ),
    ),
    Case(
        "operand.type_version",
        "bool_at_1_0",
        _add_input(OperandType.BOOL),
        version=V1_0,
        message="operand 4: BOOL needs HAL 1.2, model is 1.0",
    ),
    Case(
        "operand.type_version",
        "float16_at_1_1",
        _add_input(F16, [2]),
        version=V1_1,
        message="operand 4: TENSOR_FLOAT16 needs HAL 1.2, model is 1.1",
    ),
    Case(
        "operand.type_version",
        "float16_add_at_1_0",
        _steps(*(_operand(i, type=F16) for i in (0, 1, 3))),
        version=V1_0,
        alone=False,  # the ADD signature is 1.2 too
    ),
    Case(
        "operand.extension_prefix",
        "undeclared",
        _add_input(make_extension_type(5, 1)),
        message=(
            "operand 4: extension type 0x50001 (prefix 5, type 1) uses prefix 5, "
            "which the model does not declare"
        ),
    ),
    Case(
        "operand.extension_prefix",
        "other_prefix_declared",
        _steps(
            _add_input(make_extension_type(5, 1)),
            _model(extension_name_to_prefix=[ExtensionNameAndPrefix("com.example.a", 4)]),
        ),
    ),
    Case(
        "model.extension_prefixes",
        "duplicate_name",
        _model(
            extension_name_to_prefix=[
                ExtensionNameAndPrefix("com.example.a", 1),
                ExtensionNameAndPrefix("com.example.a", 2),
            ]
        ),
        message="extension_name_to_prefix[1]: name 'com.example.a' repeats entry 0",
    ),
    Case(
        "model.extension_prefixes",
        "duplicate_prefix",
        _model(
            extension_name_to_prefix=[
                ExtensionNameAndPrefix("com.example.a", 1),
                ExtensionNameAndPrefix("com.example.b", 1),
            ]
        ),
        message="extension_name_to_prefix[1]: prefix 1 repeats entry 0",
    ),
    Case(
        "model.extension_prefixes",
        "prefix_beyond_16_bits",
        _model(extension_name_to_prefix=[ExtensionNameAndPrefix("com.example.a", 0x10000)]),
        message="extension_name_to_prefix[0]: prefix 65536 does not fit in 16 bits",
    ),
    Case(
        "model.extensions_version",
        "declared_at_1_1",
        _model(extension_name_to_prefix=[ExtensionNameAndPrefix("com.example.a", 1)]),
        version=V1_1,
        message="model declares 1 extension prefix(es), which needs HAL 1.2, model is 1.1",
    ),
    Case(
        "operand.scalar_rank",
        "int32_rank_1",
        _operand(2, dimensions=[1]),
        message="operand 2: INT32 is a scalar but has dimensions [1]",
    ),
    Case(
        "operand.scalar_rank",
        "vts_rank_1_zero",
        _operand(2, dimensions=[0]),
        alone=False,  # a constant of size 0: also constant_length and constant_unspecified
    ),
    Case(
        "operand.tensor_rank",
        "constant_unknown_rank",
        _operand(1, dimensions=[]),
        base=_constant,
        message="operand 1: constant TENSOR_FLOAT32 has unknown rank (no dimensions)",
    ),
    Case(
        "operand.tensor_rank",
        "unknown_rank_at_1_0",
        _operand(0, dimensions=[]),
        version=V1_0,
        message=(
            "operand 0: TENSOR_FLOAT32 has unknown rank (no dimensions), which needs HAL 1.2, "
            "model is 1.0"
        ),
    ),
    Case(
        "operand.dimensions_nonnegative",
        "negative",
        _operand(0, dimensions=[2, -1]),
        message="operand 0: dimensions[1] = -1 is not a uint32",
        driver_checks_again=True,  # ADD refuses declared shapes that cannot broadcast
    ),
    Case("operand.dimensions_nonnegative", "beyond_32_bits", _operand(3, dimensions=[2, 2**32])),
    Case(
        "operand.scale",
        "float_nonzero",
        _operand(0, scale=1.0),
        message="operand 0: TENSOR_FLOAT32 scale 1.0 must be 0",
    ),
    Case("operand.scale", "int32_scalar_nonzero", _operand(2, scale=1.0)),
    Case(
        "operand.scale",
        "quant8_zero",
        _operand(0, scale=0.0),
        base=_quant,
        version=V1_0,
        message="operand 0: TENSOR_QUANT8_ASYMM scale 0.0 must be > 0",
    ),
    Case(
        "operand.scale",
        "quant8_nan",
        _operand(0, scale=math.nan),
        base=_quant,
        message="operand 0: TENSOR_QUANT8_ASYMM scale nan is not finite",
    ),
    Case("operand.scale", "quant8_infinite", _operand(1, scale=math.inf), base=_quant),
    Case(
        "operand.scale",
        "tensor_int32_negative",
        _add_input(OperandType.TENSOR_INT32, [2], scale=-1.0),
        message="operand 4: TENSOR_INT32 scale -1.0 must be >= 0",
    ),
    Case(
        "operand.scale",
        "quant16_symm_zero",
        _add_input(OperandType.TENSOR_QUANT16_SYMM, [2], scale=0.0),
    ),
    Case("operand.scale", "per_channel_nonzero", _operand(4, scale=0.5), base=_with_per_channel),
    Case(
        "operand.scale",
        "extension_nonzero",
        _operand(4, scale=0.5),
        base=_with_extension,
        message="operand 4: extension type 0x10001 (prefix 1, type 1) scale 0.5 must be 0",
    ),
    Case(
        "operand.zero_point",
        "quant8_256",
        _operand(0, zero_point=256),
        base=_quant,
        message="operand 0: TENSOR_QUANT8_ASYMM zero_point 256 must be in [0, 255]",
    ),
    Case("operand.zero_point", "quant8_negative", _operand(3, zero_point=-1), base=_quant),
    Case(
        "operand.zero_point",
        "float_nonzero",
        _operand(0, zero_point=1),
        message="operand 0: TENSOR_FLOAT32 zero_point 1 must be 0",
    ),
    Case(
        "operand.zero_point",
        "quant16_asymm_65536",
        _add_input(OperandType.TENSOR_QUANT16_ASYMM, [2], scale=1.0, zero_point=65536),
        message="operand 4: TENSOR_QUANT16_ASYMM zero_point 65536 must be in [0, 65535]",
    ),
    Case(
        "operand.zero_point",
        "quant8_symm_nonzero",
        _add_input(OperandType.TENSOR_QUANT8_SYMM, [2], scale=1.0, zero_point=1),
    ),
    Case(
        "operand.zero_point", "extension_nonzero", _operand(4, zero_point=3), base=_with_extension
    ),
    Case(
        "operand.extra_params",
        "channel_dim_not_below_rank",
        _operand(4, extra_params=SymmPerChannelQuantParams((1.0, 1.0), 2)),
        base=_with_per_channel,
        message=f"{_pc} channel_dim 2 is not below the rank 2",
    ),
    Case(
        "operand.extra_params",
        "scales_count",
        _operand(4, extra_params=SymmPerChannelQuantParams((1.0, 1.0, 1.0), 0)),
        base=_with_per_channel,
        message=f"{_pc} has 3 scales for 2 channels",
    ),
    Case(
        "operand.extra_params",
        "scale_zero",
        _operand(4, extra_params=SymmPerChannelQuantParams((1.0, 0.0), 0)),
        base=_with_per_channel,
        message=f"{_pc} scales must be finite and > 0, has 0.0",
    ),
    Case(
        "operand.extra_params",
        "scale_nan",
        _operand(4, extra_params=SymmPerChannelQuantParams((math.nan, 1.0), 0)),
        base=_with_per_channel,
    ),
    Case(
        "operand.extra_params",
        "per_channel_missing",
        _operand(4, extra_params=None),
        base=_with_per_channel,
        message=f"{_pc} needs SymmPerChannelQuantParams, has None",
    ),
    Case(
        "operand.extra_params",
        "channel_dimension_zero",
        _operand(4, dimensions=[0, 3], extra_params=SymmPerChannelQuantParams((), 0)),
        base=_with_per_channel,
        message=f"{_pc} dimension 0 (the channel dimension) is 0",
    ),
    Case(
        "operand.extra_params",
        "on_float",
        _operand(0, extra_params=ExtensionParams(b"x")),
        message="operand 0: TENSOR_FLOAT32 extra_params must be None, has ExtensionParams(data=b'x')",
    ),
    Case(
        "operand.extra_params",
        "channel_quant_on_extension",
        _operand(4, extra_params=SymmPerChannelQuantParams((1.0,), 0)),
        base=_with_extension,
    ),
    Case(
        "operand.lifetime",
        "unknown",
        _add_operand(Operand(F32, [2], lifetime=7)),
        message="operand 4: lifetime 7 is not an OperandLifeTime",
    ),
    Case("operand.lifetime", "negative", _add_operand(Operand(F32, [2], lifetime=-1))),
    Case(
        "operand.location",
        "copy_past_end",
        _operand_location(2, offset=1),
        message="operand 2 (CONSTANT_COPY): offset 1 + length 4 = 5 exceeds 4 bytes",
    ),
    Case(
        "operand.location",
        "copy_pool_index",
        _operand_location(2, pool_index=1),
        message="operand 2 (CONSTANT_COPY): pool_index is 1, must be 0",
    ),
    Case(
        "operand.location",
        "copy_negative_offset",
        _operand_location(2, offset=-1),
        message="operand 2 (CONSTANT_COPY): offset -1 and length 4 must not be negative",
    ),
    Case("operand.location", "copy_uint32_wrap", _operand_location(2, offset=0xFFFFFFFF)),
    Case(
        "operand.location",
        "reference_pool_index",
        _operand_location(1, pool_index=1),
        base=_reference(),
        message="operand 1 (CONSTANT_REFERENCE): pool_index 1 is not one of the model's 1 pools",
    ),
    Case(
        "operand.location",
        "reference_past_end",
        _operand_location(1, offset=8),
        base=_reference(),
        message="operand 1 (CONSTANT_REFERENCE): offset 8 + length 16 = 24 exceeds 16 bytes",
    ),
    Case(
        "operand.location",
        "input_nonzero",
        _operand_location(0, length=16),
        message="operand 0 (MODEL_INPUT): location must be all 0, is (pool 0, offset 0, length 16)",
    ),
    Case("operand.location", "temporary_nonzero", _operand_location(2, offset=4), base=_chain),
    Case("operand.location", "output_nonzero", _operand_location(3, pool_index=1)),
    Case("operand.location", "not_a_location", _operand(0, location=None)),
    Case(
        "operand.constant_length",
        "scalar_short",
        _operand_location(2, length=3),
        message="operand 2: constant INT32 of dimensions [] takes 4 bytes, location.length is 3",
    ),
    Case(
        "operand.constant_length",
        "tensor_short",
        _operand_location(1, length=12),
        base=_constant,
        message=(
            "operand 1: constant TENSOR_FLOAT32 of dimensions [2, 2] takes 16 bytes, "
            "location.length is 12"
        ),
    ),
    Case(
        "operand.constant_length",
        "reference_short",
        _operand_location(1, length=8),
        base=_reference(),
    ),
    Case(
        "operand.constant_unspecified",
        "zero_dimension",
        _steps(_operand(1, dimensions=[2, 0]), _operand_location(1, length=0)),
        base=_constant,
        message="operand 1: constant has unspecified dimensions [2, 0]",
    ),
    Case(
        "model.input_indexes",
        "out_of_range",
        _model(input_indexes=[0, 1, 9]),
        message="input_indexes[2] = 9 is out of range (model has 4 operands)",
    ),
    Case("model.input_indexes", "negative", _model(input_indexes=[0, 1, -1])),
    Case(
        "model.input_indexes",
        "duplicate",
        _model(input_indexes=[0, 1, 1]),
        message="input_indexes[2] = 1 repeats input_indexes[1]",
    ),
    Case(
        "model.input_indexes",
        "constant_listed",
        _model(input_indexes=[0, 1, 2]),
        message="input_indexes[2] = 2: lifetime is CONSTANT_COPY, must be MODEL_INPUT",
    ),
    Case(
        "model.output_indexes",
        "duplicate",
        _model(output_indexes=[3, 3]),
        message="output_indexes[1] = 3 repeats output_indexes[0]",
    ),
    Case(
        "model.output_indexes",
        "input_listed",
        _model(output_indexes=[3, 0]),
        message="output_indexes[1] = 0: lifetime is MODEL_INPUT, must be MODEL_OUTPUT",
    ),
    Case("model.output_indexes", "out_of_range", _model(output_indexes=[3, 4])),
    Case(
        "model.io_listed",
        "input_unlisted",
        _model(input_indexes=[0]),
        message="operand 1 has lifetime MODEL_INPUT but is not in input_indexes",
    ),
    Case(
        "model.io_listed",
        "output_unlisted",
        _model(output_indexes=[]),
        message="operand 3 has lifetime MODEL_OUTPUT but is not in output_indexes",
    ),
    Case(
        "model.pools",
        "unknown_name",
        _model_pool(0, name="bogus"),
        base=_reference(),
        message="model pool 0: memory name 'bogus' is not a known pool kind",
    ),
    Case(
        "model.pools",
        "no_handle",
        _model_pool(0, handle=None),
        base=_reference(),
        message="model pool 0 ('ashmem') has no handle",
    ),
    Case(
        "model.pools",
        "hardware_buffer_blob_at_1_0",
        _model_pool(0, name=HARDWARE_BUFFER_BLOB),
        base=_reference(),
        version=V1_0,
        message="model pool 0: hardware_buffer_blob pools need HAL 1.2, model is 1.0",
    ),
    Case(
        "model.relaxed_version",
        "relaxed_at_1_0",
        _model(relax_computation_float32_to_float16=True),
        version=V1_0,
        message=("relax_computation_float32_to_float16 is set, which needs HAL 1.1, model is 1.0"),
    ),
    Case(
        "model.referenced_version",
        "one_subgraph_at_1_2",
        _model(referenced=[Subgraph()]),
        message="the model refers to 1 subgraph, which needs HAL 1.3, model is 1.2",
    ),
    Case(
        "model.referenced_version",
        "not_a_list",
        _model(referenced=None),
        message="referenced is a NoneType, not a list of subgraphs",
    ),
    Case(
        "operation.type_known",
        "fundamental_max_plus_1",
        _operation(0, type=102),
        version=V1_3,
        message="operation 0: unknown operation type 102 is not an operation type",
    ),
    Case(
        "operation.type_version",
        "hal_1_3_operation_at_1_2",
        _operation(0, type=OperationType.ELU),
        base=_unary(OperationType.RELU),
        message="operation 0: ELU needs HAL 1.3, model is 1.2",
    ),
    Case("operation.type_known", "oem_min_minus_1", _operation(0, type=9999)),
    Case("operation.type_known", "oem_max_plus_1", _operation(0, type=10001)),
    Case("operation.type_known", "negative", _operation(0, type=-1)),
    Case("operation.type_known", "beyond_32_bits", _operation(0, type=2**32)),
    Case(
        "operation.type_known",
        "extension_at_1_0",
        _operation(0, type=make_extension_type(1, 0)),
        version=V1_0,
        message="operation 0: extension operation 0x10000 (prefix 1, type 0) needs HAL 1.2, "
        "model is 1.0",
    ),
    Case(
        "operation.extension_prefix",
        "undeclared",
        _operation(0, type=make_extension_type(5, 1)),
        message=(
            "operation 0: extension operation 0x50001 (prefix 5, type 1) uses prefix 5, "
            "which the model does not declare"
        ),
    ),
    Case(
        "operand.extension_constant_length",
        "demo_short",
        _operand_location(1, length=6),
        base=_demo_constant,
        message=(
            "operand 1: constant extension type 0x70001 (prefix 7, type 1) of dimensions "
            "[2, 2] takes 8 bytes, location.length is 6"
        ),
    ),
    Case(
        "operation.extension_signature",
        "input_type",
        _operand(1, type=OperandType.TENSOR_INT32),
        base=_demo,
        message=f"{_SAT_ADD} input 1 must be org.nnhal_conformance.demo:TENSOR_Q16",
    ),
    Case(
        "operation.extension_signature",
        "shape_mismatch",
        _operand(1, dimensions=[2, 3]),
        base=_demo,
        message=f"{_SAT_ADD} inputs of shapes [2, 2] and [2, 3] differ (no broadcasting)",
    ),
    Case(
        "operation.extension_signature",
        "output_shape",
        _operand(2, dimensions=[4]),
        base=_demo,
        message=f"{_SAT_ADD} output of shape [4] differs from input shape [2, 2]",
    ),
    Case(
        "operation.extension_signature",
        "one_input",
        _operation(0, inputs=[0]),
        base=_demo,
        message=f"{_SAT_ADD} takes 2 inputs and 1 output, has 1 and 1",
        alone=False,  # operand 1 then has a consumer count no operation matches
    ),
    Case(
        "operation.type_version",
        "abs_at_1_0",
        _operation(0, type=OperationType.ABS),
        base=_unary(OperationType.FLOOR),
        version=V1_0,
        message="operation 0: ABS needs HAL 1.2, model is 1.0",
    ),
    Case(
        "operation.type_version",
        "abs_at_1_1",
        _operation(0, type=OperationType.ABS),
        base=_unary(OperationType.FLOOR),
        version=V1_1,
    ),
    Case(
        "operation.type_version",
        "div_at_1_0",
        _operation(0, type=OperationType.DIV),
        version=V1_0,
        message="operation 0: DIV needs HAL 1.1, model is 1.0",
    ),
    Case(
        "operation.operand_indexes",
        "input_out_of_range",
        _operation(0, inputs=[0, 1, 2, 9]),
        message="operation 0 (ADD): inputs[3] = 9 is out of range (model has 4 operands)",
    ),
    Case("operation.operand_indexes", "input_negative", _operation(0, inputs=[0, 1, 2, -1])),
    Case(
        "operation.operand_indexes",
        "output_out_of_range",
        _operation(0, outputs=[3, 4]),
        message="operation 0 (ADD): outputs[1] = 4 is out of range (model has 4 operands)",
    ),
    Case(
        "operation.signature",
        "activation_type",
        _operand(2, type=OperandType.FLOAT32),
        message=(
            "operation 0: ADD accepts no 3 inputs (TENSOR_FLOAT32, TENSOR_FLOAT32, FLOAT32) "
            "with 1 outputs (TENSOR_FLOAT32)"
        ),
    ),
    Case(
        "operation.signature",
        "missing_input",
        _steps(_operation(0, inputs=[0, 1]), _operand(2, number_of_consumers=0)),
    ),
    Case(
        "operation.constraint",
        "mul_output_scale",
        _operand(3, scale=0.25),
        base=_binary(operation=OperationType.MUL, type_=Q8A),
        message=(
            "operation 0 (MUL) [output_scale_exceeds_product]: output scale 0.25 must exceed "
            "input 0 scale x input 1 scale = 0.5 x 0.5 = 0.25"
        ),
    ),
    Case(
        "operation.constraint_strict",
        "tile_output_quant",
        _operand(2, scale=0.25),
        base=_signature_base(OperationType.TILE, Q8A),
        message=(
            "operation 0 (TILE) [same_quant(in0,out0)]: output 0 scale/zeroPoint (0.25, 0) "
            "must equal input 0's (0.5, 0)"
        ),
    ),
    Case(
        "operation.rank",
        "add_rank_5",
        _operand(0, dimensions=[1, 1, 1, 2, 2]),
        message="operation 0 (ADD): input 0 has rank 5, must be 1 to 4",
        driver_checks_again=True,
    ),
    Case(
        "operation.rank",
        "concatenation_second_input_rank_5",
        _steps(
            _add_input(F32, [1, 1, 1, 1, 1], number_of_consumers=1),
            _operation(0, inputs=[0, 3, 1]),
        ),
        base=_signature_base(OperationType.CONCATENATION, F32),
        message="operation 0 (CONCATENATION): input 1 has rank 5, must be 1 to 4",
        driver_checks_again=True,
    ),
    Case(
        "operation.depthwise_filter",
        "filter_first_dimension_2",
        _operand(1, dimensions=[2, 1, 1, 1]),
        base=_signature_base(OperationType.DEPTHWISE_CONV_2D, F32),
        message=(
            "operation 0 (DEPTHWISE_CONV_2D): the filter (input 1) has dimensions [2, 1, 1, 1]; "
            "its first dimension must be 1"
        ),
        driver_checks_again=True,  # the catalog's model has strides of 0; see
        # test_validation_suite for a driver lacking only this rule
    ),
    Case(
        "operation.depthwise_filter",
        "filter_first_dimension_2_at_1_0",
        _operand(1, dimensions=[2, 1, 1, 1]),
        base=_signature_base(OperationType.DEPTHWISE_CONV_2D, F32),
        version=V1_0,
        message=(
            "operation 0 (DEPTHWISE_CONV_2D): the filter (input 1) has dimensions [2, 1, 1, 1]; "
            "its first dimension must be 1"
        ),
        driver_checks_again=True,  # the catalog's model has strides of 0; see
        # test_validation_suite for a driver lacking only this rule
    ),
    Case(
        "operation.omitted_input",
        "add_input_omitted",
        _steps(_operand(1, lifetime=LT.NO_VALUE), _model(input_indexes=[0])),
        message="operation 0 (ADD): input 1 (operand 1) cannot be omitted",
    ),
    Case(
        "operation.output_lifetime",
        "no_value_output",
        _operand(2, lifetime=LT.NO_VALUE),
        base=_chain,
        alone=False,  # the next ADD reads it: operation.omitted_input too
        message=(
            "operation 0 (ADD): outputs[0] = 2 has lifetime NO_VALUE, "
            "must be TEMPORARY_VARIABLE or MODEL_OUTPUT"
        ),
    ),
    Case(
        "operation.output_lifetime",
        "model_input_output",
        _steps(_operand(2, lifetime=LT.MODEL_INPUT), _model(input_indexes=[0, 2])),
        base=_chain,
    ),
    Case(
        "operation.single_writer",
        "two_writers",
        _duplicate_operation,
        message="operand 3 is written by operation 1 outputs[0] and already by operation 0 "
        "outputs[0]",
    ),
    Case(
        "operation.single_writer",
        "written_twice_by_one",
        _operation(0, type=OperationType.OEM_OPERATION, outputs=[3, 3]),
        message="operand 3 is written by operation 0 outputs[1] and already by operation 0 "
        "outputs[0]",
    ),
    Case(
        "operation.all_written",
        "output_never_written",
        _add_operand(Operand(F32, [2], lifetime=LT.MODEL_OUTPUT), "output_indexes"),
        message="operand 4 (MODEL_OUTPUT) is never written by an operation",
    ),
    Case(
        "operation.all_written",
        "temporary_never_written",
        _add_operand(Operand(F32, [2], lifetime=LT.TEMPORARY_VARIABLE)),
        message="operand 4 (TEMPORARY_VARIABLE) is never written by an operation",
    ),
    Case(
        "operand.number_of_consumers",
        "one_too_many",
        _operand(0, number_of_consumers=2),
        message="operand 0: number_of_consumers is 2, but 1 operation input(s) read it",
    ),
    Case(
        "operand.number_of_consumers",
        "slots_counted",
        _operand(0, number_of_consumers=1),
        base=_chain,
        message="operand 0: number_of_consumers is 1, but 2 operation input(s) read it",
    ),
    Case("operand.number_of_consumers", "output_read_by_none", _operand(3, number_of_consumers=1)),
    Case(
        "operation.order",
        "reader_first",
        _reverse_operations,
        base=_chain,
        message="operation 0 (ADD): inputs[0] = 2 is read before an earlier operation writes it",
    ),
    Case(
        "operation.order",
        "self_loop",
        _make_self_loop,
        message="operation 0 (ADD): inputs[1] = 3 is read before an earlier operation writes it",
    ),
    Case("operation.order", "cycle", _make_cycle, base=_chain),
    Case(
        "model.execution_preference",
        "sustained_speed_plus_1",
        preference=3,
        message=(
            "execution preference 3 is not one of LOW_POWER (0), FAST_SINGLE_ANSWER (1), "
            "SUSTAINED_SPEED (2)"
        ),
    ),
    Case("model.execution_preference", "low_power_minus_1", preference=-1),
]

REQUEST_CASES = [
    Case(
        "request.input_count",
        "missing",
        lambda request: request.inputs.pop(),
        message="request has 1 input argument(s), model has 2 input(s)",
    ),
    Case(
        "request.input_count",
        "extra",
        lambda request: request.inputs.append(copy.deepcopy(request.inputs[0])),
    ),
    Case(
        "request.output_count",
        "missing",
        _request(outputs=[]),
        message="request has 0 output argument(s), model has 1 output(s)",
    ),
    Case(
        "request.output_count",
        "extra",
        lambda request: request.outputs.append(copy.deepcopy(request.outputs[0])),
    ),
    Case(
        "request.no_value",
        "with_location",
        _argument("inputs", 1, has_no_value=True),
        base=_transpose,
        request=_transpose_request,
        message=(
            "input 1 (operand 1): has_no_value, but location is (pool 0, offset 16, length 8) "
            "and dimensions []"
        ),
    ),
    Case(
        "request.no_value",
        "with_dimensions",
        _argument("inputs", 1, has_no_value=True, location=DataLocation(), dimensions=[2]),
        base=_transpose,
        request=_transpose_request,
        message=(
            "input 1 (operand 1): has_no_value, but location is (pool 0, offset 0, length 0) "
            "and dimensions [2]"
        ),
    ),
    Case(
        "request.no_value_required",
        "binary_input",
        _argument("inputs", 1, has_no_value=True, location=DataLocation(), dimensions=[]),
        message="input 1 (operand 1): has_no_value, but operation 0 (ADD) input 1 is required",
    ),
    Case(
        "request.no_value_required",
        "transpose_data",
        _argument("inputs", 0, has_no_value=True, location=DataLocation(), dimensions=[]),
        base=_transpose,
        request=_transpose_request,
        message=(
            "input 0 (operand 0): has_no_value, but operation 0 (TRANSPOSE) input 0 is required"
        ),
    ),
    Case(
        "request.pool_index",
        "past_end",
        _argument_location("inputs", 0, pool_index=2),
        message="input 0 (operand 0): pool_index 2 is not one of the 2 pools",
    ),
    Case("request.pool_index", "negative", _argument_location("inputs", 1, pool_index=-1)),
    Case(
        "request.pool_index",
        "output",
        _argument_location("outputs", 0, pool_index=5),
        message="output 0 (operand 3): pool_index 5 is not one of the 2 pools",
    ),
    Case(
        "request.location",
        "input_past_end",
        _argument_location("inputs", 1, offset=24),
        message="input 1 (operand 1): pool 0: offset 24 + length 16 = 40 exceeds 32 bytes",
    ),
    Case(
        "request.location",
        "negative_offset",
        _argument_location("inputs", 0, offset=-1),
        message="input 0 (operand 0): pool 0: offset -1 and length 16 must not be negative",
    ),
    Case("request.location", "uint32_wrap", _argument_location("inputs", 1, offset=0xFFFFFFF8)),
    Case(
        "request.location",
        "output_past_end",
        _argument_location("outputs", 0, length=17),
        message="output 0 (operand 3): pool 1: offset 0 + length 17 = 17 exceeds 16 bytes",
    ),
    Case(
        "request.dimensions_rank",
        "input",
        _argument("inputs", 0, dimensions=[4]),
        message="input 0 (operand 0): dimensions [4] have rank 1, operand has 2",
    ),
    Case("request.dimensions_rank", "output", _argument("outputs", 0, dimensions=[2, 2, 1])),
    Case(
        "request.dimensions_conflict",
        "input",
        _argument("inputs", 0, dimensions=[1, 4]),
        message="input 0 (operand 0): dimensions[0] = 1 conflicts with the operand's 2",
    ),
    Case("request.dimensions_conflict", "output", _argument("outputs", 0, dimensions=[4, 1])),
    Case(
        "request.dimensions_conflict",
        "negative_output_dimension",
        _argument("outputs", 0, dimensions=[-1, 2]),
        base=_dynamic_output,
        request=_packed([16]),
        message="output 0 (operand 3): dimensions[0] = -1 is not a uint32",
    ),
    Case(
        "request.input_specified",
        "dynamic_input_not_given",
        _argument("inputs", 0, dimensions=[]),
        base=_dynamic_input,
        request=_packed(dims=[2, 2]),
        message="input 0 (operand 0): dimensions [0, 2] are not all positive",
    ),
    Case(
        "request.input_specified",
        "zero_in_argument",
        _argument("inputs", 0, dimensions=[0, 2]),
        base=_dynamic_input,
        request=_packed(dims=[2, 2]),
    ),
    Case(
        "request.input_specified",
        "unknown_rank",
        _argument("inputs", 0, dimensions=[]),
        base=_unknown_rank_input,
        request=_packed(dims=[2, 2]),
        message="input 0 (operand 0): rank is unknown",
    ),
    Case(
        "request.output_specified",
        "dynamic_output_at_1_0",
        _argument("outputs", 0, dimensions=[]),
        base=_dynamic_output,
        request=_packed([16], output_dims=[2, 2]),
        version=V1_0,
        message=(
            "output 0 (operand 3): dimensions [0, 0] are not all positive, which needs HAL 1.2, "
            "model is 1.0"
        ),
    ),
    Case(
        "request.output_specified",
        "zero_in_argument_at_1_1",
        _argument("outputs", 0, dimensions=[2, 0]),
        base=_dynamic_output,
        request=_packed([16], output_dims=[2, 2]),
        version=V1_1,
    ),
    Case(
        "request.pools",
        "unknown_name",
        _request_pool(1, name="bogus"),
        message="request pool 1: memory name 'bogus' is not a known pool kind",
    ),
    Case(
        "request.pools",
        "no_handle",
        _request_pool(0, handle=None),
        message="request pool 0 ('ashmem') has no handle",
    ),
    Case(
        "request.pools",
        "hardware_buffer_blob_at_1_0",
        _request_pool(0, name=HARDWARE_BUFFER_BLOB),
        version=V1_0,
        message="request pool 0: hardware_buffer_blob pools need HAL 1.2, model is 1.0",
    ),
    Case(
        "request.input_length",
        "short",
        _argument_location("inputs", 0, length=12),
        message=(
            "input 0 (operand 0): TENSOR_FLOAT32 of dimensions [2, 2] takes 16 bytes, "
            "location.length is 12"
        ),
    ),
    Case("request.input_length", "long", _argument_location("inputs", 0, length=20)),
    Case(
        "request.input_length",
        "given_dimensions",
        _argument_location("inputs", 0, length=8),
        base=_dynamic_input,
        request=_packed(dims=[2, 2]),
        version=V1_2,
    ),
]


def _token_pool(k: int, token: int, location: DataLocation | None = None) -> Mutation:
    """Request pool ``k`` becomes a driver-managed buffer's ``token``; output 0 moves into it."""

    def mutate(request: Request) -> None:
        request.pools[k] = token
        request.outputs[0].location = location or DataLocation(k, 0, 0)

    return mutate


REQUEST_CASES += [
    Case(
        "request.pool_token",
        "token_without_memory_domains",
        _token_pool(1, 7),
        message=(
            "request pool 1 is the token 7 of a driver-managed buffer; the driver does not "
            "implement memory domains (IMemoryDomains)"
        ),
        # The reference driver has memory domains: it rejects the unknown token itself.
        driver_checks_again=True,
    ),
    Case(
        "request.pools",
        "token_zero",
        _token_pool(1, 0),
        message="request pool 1: token 0 is not a positive int32",
        alone=False,
    ),
    Case(
        "request.pools",
        "token_beyond_int32",
        _token_pool(1, 2**31),
        message="request pool 1: token 2147483648 is not a positive int32",
        alone=False,
    ),
    Case(
        "request.location",
        "token_pool_nonzero",
        _token_pool(1, 3, DataLocation(1, 0, 16)),
        message=(
            "output 0 (operand 3): pool 1 is a driver-managed buffer (token 3): offset 0 and "
            "length 16 must both be 0"
        ),
        alone=False,
    ),
]

# -- HAL 1.3 (docs/validation.md; the rules of subgraph_rules.py, priorities, times) --

_IF_LABEL = "operation 0 (IF)"
_WHILE_LABEL = "operation 0 (WHILE)"

MODEL_CASES_1_3 = [
    Case(
        "operand.lifetime",
        "subgraph_lifetime_at_1_2",
        _operand(0, lifetime=LT.SUBGRAPH),
        message="operand 0: lifetime SUBGRAPH needs HAL 1.3, model is 1.2",
        alone=False,  # operand 0 is a model input with another lifetime now
    ),
    Case(
        "operand.lifetime",
        "subgraph_operand_at_1_2",
        _add_operand(Operand(OperandType.INT32, [], 0, lifetime=LT.SUBGRAPH)),
        message="operand 4: lifetime SUBGRAPH needs HAL 1.3, model is 1.2",
    ),
    Case(
        "operand.scalar_rank",
        "subgraph_with_dimensions",
        _operand(2, dimensions=[1]),
        base=_if,
        version=V1_3,
        message="operand 2: SUBGRAPH is a scalar but has dimensions [1]",
    ),
    Case(
        "operand.subgraph_pairing",
        "type_without_lifetime",
        _add_operand(Operand(SUBGRAPH, [], 0, lifetime=LT.NO_VALUE)),
        base=_if,
        version=V1_3,
        message="operand 5: type SUBGRAPH has lifetime NO_VALUE, must be SUBGRAPH",
    ),
    Case(
        "operand.subgraph_pairing",
        "lifetime_without_type",
        _add_operand(Operand(OperandType.INT32, [], 0, lifetime=LT.SUBGRAPH)),
        base=_if,
        version=V1_3,
        message="operand 5: lifetime SUBGRAPH has type INT32, must be SUBGRAPH",
    ),
    Case(
        "operand.subgraph_location",
        "pool_1",
        _add_operand(
            Operand(SUBGRAPH, [], 0, lifetime=LT.SUBGRAPH, location=DataLocation(1, 0, 0))
        ),
        base=_if,
        version=V1_3,
        message=(
            "operand 5 (SUBGRAPH): location (pool 1, offset 0, length 0) must be pool 0, "
            "length 0 and an offset below 2 (the number of referenced subgraphs)"
        ),
    ),
    Case(
        "operand.subgraph_location",
        "offset_past_end",
        _operand_location(3, offset=2),
        base=_if,
        version=V1_3,
        alone=False,  # the IF's else branch then names no subgraph either
    ),
    Case(
        "operand.subgraph_use",
        "read_by_oem_operation",
        _oem_reads_subgraph,
        base=_if,
        version=V1_3,
        message=(
            "operation 1 (OEM_OPERATION): input 0 (operand 2) is a SUBGRAPH; only IF inputs "
            "1 and 2 and WHILE inputs 0 and 1 take a subgraph"
        ),
    ),
    Case(
        "model.no_reference_cycles",
        "then_names_itself",
        _graph(0, _add_operand(_subgraph_ref(0, consumers=0))),
        base=_if,
        version=V1_3,
        message="the subgraph references form a cycle: referenced[0] -> referenced[0]",
    ),
    Case(
        "model.no_reference_cycles",
        "body_names_the_loop_again",
        _graph(1, _add_operand(_subgraph_ref(1, consumers=0))),
        base=_while,
        version=V1_3,
        message="the subgraph references form a cycle: referenced[1] -> referenced[1]",
    ),
    Case(
        "subgraph.reachable",
        "unused_third_subgraph",
        lambda model: model.referenced.append(_unary_graph(OperationType.RELU)),
        base=_if,
        version=V1_3,
        message="referenced[2] is not reached from the main subgraph",
    ),
    Case(
        "subgraph.io_nonempty",
        "branches_without_inputs",
        _no_value_branches,
        base=_if,
        version=V1_3,
        message="referenced[0] has no inputs",
    ),
    Case(
        "model.each_subgraph",
        "consumer_count_in_a_branch",
        _graph(0, _operand(0, number_of_consumers=5)),
        base=_if,
        version=V1_3,
        message=(
            "referenced[0]: operand.number_of_consumers: operand 0: number_of_consumers is 5, "
            "but 1 operation input(s) read it"
        ),
    ),
    Case(
        "model.each_subgraph",
        "unknown_operation_in_the_body",
        _graph(1, _operation(0, type=9999)),
        base=_while,
        version=V1_3,
        message=(
            "referenced[1]: operation.type_known: operation 0: unknown operation type 9999 is "
            "not an operation type"
        ),
    ),
    Case(
        "if.counts",
        "no_values",
        _steps(
            _operation(0, inputs=[0, 2]),
            _operand(1, number_of_consumers=0),
            _operand(3, number_of_consumers=0),
        ),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: has 2 inputs and 1 outputs; needs at least 3 inputs (condition, "
            "then, else) and 1 output"
        ),
    ),
    Case(
        "if.condition",
        "two_elements",
        _operand(0, dimensions=[2]),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: input 0 (operand 0) is TENSOR_BOOL8 of dimensions [2]; the "
            "condition is a TENSOR_BOOL8 of dimensions [1]"
        ),
    ),
    Case(
        "if.condition",
        "float_condition",
        _operand(0, type=F32),
        base=_if,
        version=V1_3,
    ),
    Case(
        "if.branch_refs",
        "else_is_the_condition",
        _steps(
            _operation(0, inputs=[0, 2, 0, 1]),
            _operand(0, number_of_consumers=2),
            _operand(3, number_of_consumers=0),
        ),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: input 2 (operand 0) is not a SUBGRAPH operand naming one of the 2 "
            "referenced subgraphs"
        ),
    ),
    Case(
        "if.branch_arity",
        "one_value_too_many",
        _steps(_operation(0, inputs=[0, 2, 3, 1, 1]), _operand(1, number_of_consumers=2)),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: the then branch referenced[0] has 1 inputs and 1 outputs; the IF "
            "passes 2 values and takes 1 results"
        ),
    ),
    Case(
        "if.branch_compatible",
        "else_of_another_size",
        lambda model: model.referenced.__setitem__(1, _unary_graph(OperationType.FLOOR, dims=[3])),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: input 3 (operand 1) and referenced[1] input 0 differ: dimensions "
            "[2] against [3]"
        ),
    ),
    Case(
        "if.branch_compatible",
        "then_of_another_type",
        _graph(0, _steps(_operand(0, type=F16), _operand(1, type=F16))),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: output 0 (operand 4) and referenced[0] output 0 differ: type "
            "TENSOR_FLOAT32 against TENSOR_FLOAT16"
        ),
    ),
    Case(
        "if.fully_specified",
        "output_of_unknown_size",
        _operand(4, dimensions=[0]),
        base=_if,
        version=V1_3,
        message=(
            f"{_IF_LABEL}: output 0 (operand 4) is TENSOR_FLOAT32 of dimensions [0], not fully "
            "specified; IF operands must be"
        ),
    ),
    Case(
        "while.counts",
        "no_values",
        _steps(_operation(0, inputs=[0, 1]), _operand(2, number_of_consumers=0)),
        base=_while,
        version=V1_3,
        message=(
            f"{_WHILE_LABEL}: has 2 inputs and 1 outputs; needs at least 3 inputs (condition, "
            "body, a value) and 1 output"
        ),
    ),
    Case(
        "while.refs",
        "body_is_a_tensor",
        _steps(
            _operation(0, inputs=[0, 2, 2]),
            _operand(2, number_of_consumers=2),
            _operand(1, number_of_consumers=0),
        ),
        base=_while,
        version=V1_3,
        message=(
            f"{_WHILE_LABEL}: input 1 (operand 2) is not a SUBGRAPH operand naming one of the "
            "2 referenced subgraphs"
        ),
    ),
    Case(
        "while.cond_signature",
        "condition_of_two_elements",
        _graph(0, _operand(2, dimensions=[2])),
        base=_while,
        version=V1_3,
        message=(
            f"{_WHILE_LABEL}: the condition referenced[0] returns TENSOR_BOOL8 of dimensions "
            "[2]; it must return one TENSOR_BOOL8 of dimensions [1]"
        ),
    ),
    Case(
        "while.body_signature",
        "body_output_grows",
        _graph(1, _operand(3, dimensions=[2])),
        base=_while,
        version=V1_3,
        message=(
            f"{_WHILE_LABEL}: output 0 (operand 3) and referenced[1] output 0 differ: "
            "dimensions [1] against [2]"
        ),
    ),
    Case(
        "while.fully_specified",
        "body_output_of_unknown_size",
        _graph(1, _operand(3, dimensions=[0])),
        base=_while,
        version=V1_3,
        message=(
            f"{_WHILE_LABEL}: referenced[1] output 0 is TENSOR_FLOAT32 of dimensions [0], not "
            "fully specified; WHILE operands must be"
        ),
    ),
    Case(
        "model.priority",
        "three",
        priority=3,
        version=V1_3,
        message="priority 3 is not one of LOW (0), MEDIUM (1), HIGH (2)",
    ),
    Case("model.priority", "negative", priority=-1, version=V1_3),
    Case(
        "request.time_arguments",
        "negative_deadline",
        time_value=-1,
        version=V1_3,
        message="deadline -1 is neither None nor a count of nanoseconds in [0, 2**64)",
    ),
    Case("request.time_arguments", "float_deadline", time_value=1.5, version=V1_3),
    Case("request.time_arguments", "beyond_64_bits", time_value=2**64, version=V1_3),
]

MODEL_CASES += MODEL_CASES_1_3

CASES = MODEL_CASES + REQUEST_CASES
ALONE = [case for case in CASES if case.alone]


# ---------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_violation_is_reported(case: Case, kit: Kit) -> None:
    built = build(case, kit)
    result = evaluate(case, built)
    assert result.status == INVALID, str(result)
    assert not result.ok and not result
    assert case.rule in result.rule_names, str(result)
    if case.alone:
        assert result.rule_names == {case.rule}, str(result)
    if case.message is not None:
        messages = [v.message for v in result.violations if v.rule.name == case.rule]
        assert case.message in messages


@pytest.mark.parametrize("case", ALONE, ids=lambda case: case.id)
def test_disabling_the_rule_accepts_the_input(case: Case, kit: Kit) -> None:
    result = evaluate(case, build(case, kit), frozenset({case.rule}))
    assert result.ok, str(result)
    assert result.status == ErrorStatus.NONE


def test_every_rule_has_cases() -> None:
    by_rule = {name: [c for c in CASES if c.rule == name] for name in RULES}
    assert not {c.rule for c in CASES} - RULES.keys(), "cases for rules that do not exist"
    assert [n for n, cases in by_rule.items() if not any(c.alone for c in cases)] == []
    assert [n for n, cases in by_rule.items() if not any(c.message for c in cases)] == []


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))


def test_rules_are_consistent() -> None:
    for name, rule in RULES.items():
        assert rule.name == name
        assert rule.scope == ("request" if name.startswith("request.") else "model")
        assert rule.description
    strict = {name for name, rule in RULES.items() if rule.tier == Tier.STRICT}
    assert strict == {
        "operand.extension_prefix",
        "model.extension_prefixes",
        "operand.constant_unspecified",
        "model.io_listed",
        "operation.extension_prefix",
        "operation.extension_signature",
        "operand.extension_constant_length",
        "operand.number_of_consumers",
        "operation.order",
        "operation.constraint_strict",
        "operation.rank",
        "operation.depthwise_filter",
        "operation.omitted_input",
        "request.input_length",
        "request.no_value_required",
        "request.pool_token",
        "request.time_arguments",
        "operand.subgraph_use",
        "subgraph.reachable",
        "subgraph.io_nonempty",
        "if.fully_specified",
    }


def test_unknown_disabled_rule_is_refused(kit: Kit) -> None:
    model = binary_model()
    request = _ones(kit, model)
    with pytest.raises(ValueError, match=r"rule\(s\): model\.no_such_rule, nope$"):
        validate_model(model, V1_2, disabled={"nope", "model.no_such_rule", "operand.scale"})
    with pytest.raises(ValueError, match="nope"):
        validate_request(request, model, V1_2, disabled=["nope"])
    with pytest.raises(ValueError, match="nope"):
        validate_execution_preference(0, disabled=["nope"])


def test_disabling_one_rule_keeps_the_others(kit: Kit) -> None:
    model = binary_model()
    model.operands[0].scale = 1.0
    model.operands[0].zero_point = 1
    result = validate_model(model, V1_2, disabled={"operand.scale"})
    assert result.rule_names == {"operand.zero_point"}


def test_all_violations_are_collected() -> None:
    model = binary_model()
    model.operands[0].scale = 1.0
    model.operands[1].scale = 2.0
    model.input_indexes.append(9)
    result = validate_model(model, V1_2)
    assert [v.rule.name for v in result.violations] == [
        "operand.scale",
        "operand.scale",
        "model.input_indexes",
    ]
    assert str(result).splitlines() == [
        "operand.scale: operand 0: TENSOR_FLOAT32 scale 1.0 must be 0",
        "operand.scale: operand 1: TENSOR_FLOAT32 scale 2.0 must be 0",
        "model.input_indexes: input_indexes[2] = 9 is out of range (model has 4 operands)",
    ]


def test_limit_stops_after_that_many_violations_in_rule_order(kit: Kit) -> None:
    model = binary_model()
    model.operands[0].scale = 1.0
    model.operands[1].scale = 2.0
    model.input_indexes.append(9)
    every = validate_model(model, V1_2).violations
    assert validate_model(model, V1_2, limit=1).violations == every[:1]
    assert validate_model(model, V1_2, limit=2).violations == every[:2]
    assert validate_model(model, V1_2, limit=50).violations == every
    assert validate_model(binary_model(), V1_2, limit=1).ok
    request = _ones(kit, binary_model())
    request.inputs[0].dimensions = [7]
    request.inputs[1].dimensions = [7]
    all_request = validate_request(request, binary_model(), V1_2).violations
    assert len(all_request) >= 2
    assert validate_request(request, binary_model(), V1_2, limit=1).violations == all_request[:1]


def test_a_request_validator_answers_as_validate_request(kit: Kit) -> None:
    """One validator per model, called on every request case's good and bad request."""
    validators: dict[int, RequestValidator] = {}
    for case in REQUEST_CASES:
        built = build(case, kit)
        key = id(built.model)
        validators.setdefault(key, RequestValidator(built.model, case.version))
        for request in (built.request, built.bad_request):
            for domains in (False, True):
                expected = validate_request(
                    request, built.model, case.version, memory_domains=domains
                )
                got = validators[key](request, memory_domains=domains)
                assert got == expected, case.id
        first = validators[key](built.bad_request, limit=1)
        assert (
            first.violations
            == validate_request(built.bad_request, built.model, case.version).violations[:1]
        )


def test_a_request_validator_reads_the_model_when_made(kit: Kit) -> None:
    model = binary_model()
    request = _ones(kit, model)
    validator = RequestValidator(model, V1_2)
    model.operands[0].dimensions = [3]  # the prepared model's copy would not change
    assert validator(request).ok
    assert not validate_request(request, model, V1_2).ok
    with pytest.raises(ValueError, match=r"^unknown validation rule\(s\): nope$"):
        RequestValidator(model, V1_2, disabled=["nope"])


@pytest.mark.parametrize("limit", [0, -1, 1.5, "1"])
def test_limit_must_be_a_positive_integer(limit: object) -> None:
    message = f"limit must be a positive integer or None, got {limit!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        validate_model(binary_model(), V1_2, limit=limit)


def test_result_of_a_valid_input() -> None:
    result = validate_model(binary_model(), V1_2)
    assert result.ok and bool(result)
    assert result.status == ErrorStatus.NONE
    assert result.violations == ()
    assert str(result) == "valid"


def test_violation_str_names_the_rule() -> None:
    rule = Rule("x.y", Tier.PARITY, "model", "d")
    assert str(Violation(rule, "what")) == "x.y: what"


@pytest.mark.parametrize("preference", list(ExecutionPreference), ids=lambda p: p.name)
def test_valid_execution_preference(preference: int) -> None:
    assert validate_execution_preference(preference).ok


@pytest.mark.parametrize("priority", list(Priority), ids=lambda p: p.name)
def test_valid_priority(priority: int) -> None:
    assert validate_priority(priority).ok


@pytest.mark.parametrize("value", [None, 0, 1, 2**63 - 1, 2**64 - 1])
def test_every_deadline_is_valid(value: object) -> None:
    # A deadline long past (0) or never reached is valid: never INVALID_ARGUMENT.
    for what in ("deadline", "loop timeout", "duration"):
        assert validate_time_argument(value, what).ok


def test_a_rule_disabled_is_disabled_in_the_subgraphs_too(kit: Kit) -> None:
    model = _if(kit)
    model.referenced[0].operands[0].number_of_consumers = 5
    assert validate_model(model, V1_3).rule_names == {"model.each_subgraph"}
    assert validate_model(model, V1_3, disabled={"operand.number_of_consumers"}).ok


def test_subgraph_rules_bind_1_3_models_only(kit: Kit) -> None:
    # Below 1.3 the older rules refuse every part of a control-flow model already.
    found = validate_model(_while(kit), V1_2).rule_names
    assert found == {
        "operand.type_version",
        "operand.lifetime",
        "model.referenced_version",
        "operation.type_version",
    }


# -- valid inputs ------------------------------------------------------------

VALID_MODELS: list[tuple[str, Builder, HalVersion]] = [
    ("float32_add", _float, V1_0),
    ("float32_mul", _binary(operation=OperationType.MUL), V1_0),
    ("quant8_add", _quant, V1_0),
    ("quant8_mul", _binary(operation=OperationType.MUL, type_=Q8A), V1_0),
    ("float16_add", _binary(type_=F16), V1_2),
    ("float16_mul", _binary(operation=OperationType.MUL, type_=F16), V1_2),
    ("float32_chain", lambda kit: chain_model(3), V1_0),
    ("float16_chain", lambda kit: chain_model(2, F16), V1_2),
    ("constant_copy", _constant, V1_0),
    ("constant_reference_ashmem", _reference(ASHMEM), V1_0),
    ("constant_reference_mmap_fd", _reference(MMAP_FD), V1_0),
    ("constant_reference_hardware_buffer_blob", _reference(HARDWARE_BUFFER_BLOB), V1_2),
    ("dynamic_output", _dynamic_output, V1_0),
    ("dynamic_input", _dynamic_input, V1_0),
    ("unknown_rank_output", _binary(output_dims=()), V1_2),
    ("unknown_rank_input", _unknown_rank_input, V1_2),
    ("relaxed", _plus(_float, _model(relax_computation_float32_to_float16=True)), V1_1),
    ("unused_scalar_input", _plus(_float, _add_input(OperandType.FLOAT32)), V1_0),
    (
        "tensor_int32_scale",
        _plus(_float, _add_input(OperandType.TENSOR_INT32, [2], scale=0.5)),
        V1_0,
    ),
    (
        "quant16_asymm_zero_point_max",
        _plus(
            _float, _add_input(OperandType.TENSOR_QUANT16_ASYMM, [2], scale=1.0, zero_point=65535)
        ),
        V1_2,
    ),
    ("per_channel", _with_per_channel, V1_2),
    ("extension_operand", _with_extension, V1_2),
    (
        "extension_operand_params",
        _plus(_with_extension, _operand(4, extra_params=ExtensionParams(b"\x01"))),
        V1_2,
    ),
    (
        "extension_operation",
        _extended(_plus(_float, _operation(0, type=make_extension_type(3, 7))), 3),
        V1_2,
    ),
    ("oem_operation", _plus(_float, _operation(0, type=OperationType.OEM_OPERATION)), V1_0),
    ("if", _if, V1_3),
    ("while", _while, V1_3),
    ("if_same_branch_twice", _plus(_if, _operand_location(3, offset=0), _model_pop_last), V1_3),
    (
        "while_in_an_if_branch",
        _plus(_if, _nest_while_in_then),
        V1_3,
    ),
    (
        "signed_quant8_add",
        _binary(
            type_=OperandType.TENSOR_QUANT8_ASYMM_SIGNED,
            quant=((0.5, -3), (0.5, 0), (1.0, -128)),
        ),
        V1_3,
    ),
    ("priority_free_time_values", _float, V1_0),
    (
        "oem_scalar_unchecked",
        _plus(_float, _add_input(OperandType.OEM, scale=math.nan, zero_point=-7)),
        V1_0,
    ),
    (
        "oem_tensor_unchecked",
        _plus(
            _float,
            _add_input(OperandType.TENSOR_OEM_BYTE, [3], scale=-1.0, extra_params=b"anything"),
        ),
        V1_0,
    ),
]


@pytest.mark.parametrize(
    ("name", "builder", "since"), VALID_MODELS, ids=[v[0] for v in VALID_MODELS]
)
@pytest.mark.parametrize("version", list(HalVersion), ids=str)
def test_valid_model(
    name: str, builder: Builder, since: HalVersion, version: HalVersion, kit: Kit
) -> None:
    result = validate_model(builder(kit), version)
    assert result.ok == (version >= since), str(result)


VALID_REQUESTS: list[tuple[str, Builder, RequestBuilder, HalVersion]] = [
    ("float32", _float, _ones, V1_0),
    ("quant8", _quant, _ones, V1_0),
    ("mmap_fd_pools", _float, _packed(kind=MMAP_FD), V1_0),
    ("hardware_buffer_blob_pools", _float, _packed(kind=HARDWARE_BUFFER_BLOB), V1_2),
    ("dynamic_output_unspecified", _dynamic_output, _packed([16]), V1_2),
    (
        "dynamic_output_given",
        _dynamic_output,
        _packed([16], output_dims=[2, 2]),
        V1_0,
    ),
    ("dynamic_input_given", _dynamic_input, _packed(dims=[2, 2]), V1_0),
    ("unknown_rank_input_given", _unknown_rank_input, _packed(dims=[2, 2]), V1_2),
    ("matching_dimensions", _float, _packed(dims=[2, 2]), V1_0),
    ("output_longer", _float, _packed([20]), V1_0),
    ("output_shorter", _float, _packed([15]), V1_0),
    (
        "no_value_optional_input",
        _transpose,
        lambda kit, model: _transpose_request(kit, model, perm=False),
        V1_0,
    ),
]


@pytest.mark.parametrize(
    ("name", "builder", "request_builder", "since"),
    VALID_REQUESTS,
    ids=[v[0] for v in VALID_REQUESTS],
)
def test_valid_request(
    name: str, builder: Builder, request_builder: RequestBuilder, since: HalVersion, kit: Kit
) -> None:
    model = builder(kit)
    request = request_builder(kit, model)
    # Judged at every version the model itself is valid at.
    versions = [v for v in HalVersion if validate_model(model, v).ok]
    assert versions
    for version in versions:
        result = validate_request(request, model, version)
        assert result.ok == (version >= since), f"at {version}: {result}"


# -- robustness ----------------------------------------------------------------

_ODD_INTS = [-1, 0xFFFFFFFF, 2**32, 2**64, 14, 10002]
_ODD_VALUES = [None, "x", 1.5, math.nan]
_ODD_FIELDS: list[tuple[str, Callable[[Model], object], str, list]] = [
    ("operand.type", lambda m: m.operands[0], "type", _ODD_INTS + _ODD_VALUES),
    (
        "operand.dimensions",
        lambda m: m.operands[0],
        "dimensions",
        [None, "ab", [-1], [2**40, 2], [None], [1.5, 2]],
    ),
    (
        "operand.number_of_consumers",
        lambda m: m.operands[0],
        "number_of_consumers",
        [-1, 2**64, None],
    ),
    ("operand.scale", lambda m: m.operands[3], "scale", [math.nan, math.inf, -math.inf, None, "x"]),
    ("operand.zero_point", lambda m: m.operands[3], "zero_point", [-1, 2**64, None, 0.5]),
    ("operand.lifetime", lambda m: m.operands[2], "lifetime", [-1, 6, 2**64, None]),
    (
        "operand.location",
        lambda m: m.operands[2],
        "location",
        [None, DataLocation(-1, -1, -1), DataLocation(2**64, 0, 4), DataLocation(0, None, 4)],
    ),
    (
        "operand.extra_params",
        lambda m: m.operands[0],
        "extra_params",
        [object(), SymmPerChannelQuantParams((), 5), SymmPerChannelQuantParams(None, None)],
    ),
    (
        "operation.type",
        lambda m: m.operations[0],
        "type",
        [-1, 95, 9999, 10001, 0xFFFFFFFF, 2**32, 2**64, *_ODD_VALUES],
    ),
    (
        "operation.inputs",
        lambda m: m.operations[0],
        "inputs",
        [None, [None, 1, 2], [2**64, 1, 2], [-5, 1, 2]],
    ),
    ("operation.outputs", lambda m: m.operations[0], "outputs", [None, [-1], [3, None]]),
    ("model.input_indexes", lambda m: m, "input_indexes", [None, [None], [-1, 1], [2**64, 1]]),
    ("model.operand_values", lambda m: m, "operand_values", [None, 5]),
    (
        "model.pools",
        lambda m: m,
        "pools",
        [[None], [Memory("ashmem", None, -1)], [Memory(None, None, None)]],
    ),
    (
        "model.extension_name_to_prefix",
        lambda m: m,
        "extension_name_to_prefix",
        [[None], [ExtensionNameAndPrefix(None, -1)], [ExtensionNameAndPrefix(["x"], None)]],
    ),
]


@pytest.mark.parametrize(
    ("name", "target", "attribute", "values"), _ODD_FIELDS, ids=[f[0] for f in _ODD_FIELDS]
)
@pytest.mark.parametrize("version", list(HalVersion), ids=str)
def test_malformed_model_is_rejected_without_raising(
    name: str, target: Callable, attribute: str, values: list, version: HalVersion
) -> None:
    for value in values:
        model = binary_model(type_=Q8A)
        setattr(target(model), attribute, value)
        result = validate_model(model, version)
        assert not result.ok, f"{name} = {value!r} was accepted"
        assert all(isinstance(v.message, str) and v.message for v in result.violations)


_ODD_REQUEST_FIELDS: list[tuple[str, Callable[[Request], object], str, list]] = [
    ("argument.has_no_value", lambda r: r.inputs[0], "has_no_value", [1, "yes"]),
    (
        "argument.location",
        lambda r: r.inputs[0],
        "location",
        [None, DataLocation(None, 0, 16), DataLocation(0, 2**64, 16), DataLocation(-3, 0, 16)],
    ),
    (
        "argument.dimensions",
        lambda r: r.inputs[0],
        "dimensions",
        [None, [None, 2], [2**40, 2], [-2, -2]],
    ),
    ("request.inputs", lambda r: r, "inputs", [None, [None, None]]),
    (
        "request.pools",
        lambda r: r,
        "pools",
        [None, [None, None], [Memory("ashmem", None, None)] * 2],
    ),
]


@pytest.mark.parametrize(
    ("name", "target", "attribute", "values"),
    _ODD_REQUEST_FIELDS,
    ids=[f[0] for f in _ODD_REQUEST_FIELDS],
)
def test_malformed_request_is_rejected_without_raising(
    name: str, target: Callable, attribute: str, values: list, kit: Kit
) -> None:
    model = binary_model()
    for value in values:
        request = copy.deepcopy(_ones(kit, model))
        setattr(target(request), attribute, value)
        result = validate_request(request, model, V1_2)
        assert not result.ok, f"{name} = {value!r} was accepted"


def test_request_against_a_malformed_model_does_not_raise(kit: Kit) -> None:
    model = binary_model()
    request = _ones(kit, model)
    model.input_indexes = [9, None]
    model.output_indexes = [-1]
    model.operands[3].type = 2**40
    # Arguments whose operand cannot be found are judged on counts, pools and bounds
    # only; what is wrong with the model is validate_model's to report.
    assert validate_request(request, model, V1_2).ok
    request.inputs[0].dimensions = [7]
    assert validate_request(request, model, V1_2).ok
    request.inputs[0].location = DataLocation(0, 30, 16)
    assert validate_request(request, model, V1_2).rule_names == {"request.location"}


# ---------------------------------------------------------------------------
# The reference driver
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def driver_class() -> type:
    module = pytest.importorskip("reference_driver")
    return module.ReferenceDriver


@pytest.fixture(scope="module")
def driver(driver_class: type) -> Any:
    """One driver enforcing every rule, shared by the module's tests."""
    return driver_class()


def _prepare(driver: Any, model: Model, version: HalVersion, preference: int) -> tuple:
    """(launch status, notification) of the prepare method of ``version``."""
    callback = PreparedModelCallback()
    if version == V1_0:
        status = driver.prepare_model(model, callback)
    elif version == V1_1:
        status = driver.prepare_model_1_1(model, preference, callback)
    else:
        status = driver.prepare_model_1_2(model, preference, callback)
    return status, callback.wait(timeout=WAIT)


_SUPPORTED = {
    V1_0: "get_supported_operations",
    V1_1: "get_supported_operations_1_1",
    V1_2: "get_supported_operations_1_2",
}


def _prepared(driver: Any, model: Model, version: HalVersion) -> Any:
    status, notification = _prepare(driver, model, version, ExecutionPreference.FAST_SINGLE_ANSWER)
    assert status == ErrorStatus.NONE and notification.status == ErrorStatus.NONE
    assert notification.prepared_model is not None
    return notification.prepared_model


def _execute(prepared: Any, request: Request, version: HalVersion) -> tuple:
    """(launch status, notification) of the asynchronous execute of ``version``."""
    callback = ExecutionCallback()
    if version < V1_2:
        status = prepared.execute(request, callback)
    else:
        status = prepared.execute_1_2(request, MeasureTiming.NO, callback)
    return status, callback.wait(timeout=WAIT)


def _assert_rejects(case: Case, built: Built, driver: Any) -> None:
    if case.kind == "model":
        assert getattr(driver, _SUPPORTED[case.version])(built.bad_model) == (INVALID, [])
    if case.kind in ("model", "preference"):
        status, notification = _prepare(driver, built.bad_model, case.version, case.preference)
        assert (status, notification.status) == (INVALID, INVALID)
        assert notification.prepared_model is None
        return
    prepared = _prepared(driver, built.model, case.version)
    if case.version == V1_2:
        assert prepared.execute_synchronously(built.bad_request, MeasureTiming.NO) == (
            INVALID,
            [],
            NO_TIMING,
        )
    status, notification = _execute(prepared, built.bad_request, case.version)
    assert (status, notification.status) == (INVALID, INVALID)
    assert notification.output_shapes == ()


_DRIVER_LEVEL_CASES = [
    case for case in CASES if case.version in _SUPPORTED and case.kind not in ("priority", "time")
]
_DRIVER_CASES = _DRIVER_LEVEL_CASES + [
    replace(case, name=f"{case.name}-1_1", version=V1_1)
    for case in CASES
    if case.kind == "preference"
]
"""Every case at its own version; preference cases also through ``prepare_model_1_1``.
The reference driver is a HAL 1.2 driver: the 1.3 cases (and the priority and time
arguments, which only 1.3 methods take) wait for its 1.3 level."""


@pytest.mark.parametrize("case", _DRIVER_CASES, ids=lambda case: case.id)
def test_reference_driver_rejects(case: Case, kit: Kit, driver: Any) -> None:
    _assert_rejects(case, build(case, kit), driver)


@pytest.mark.parametrize("case", [c for c in _DRIVER_CASES if c.alone], ids=lambda case: case.id)
def test_reference_driver_without_the_rule_accepts(
    case: Case, kit: Kit, driver_class: type
) -> None:
    if case.driver_checks_again:
        pytest.skip("the operation's own checks reject this input with the rule off too")
    built = build(case, kit)
    driver = driver_class(disabled_rules={case.rule})
    if case.kind in ("model", "preference"):
        status, _ = _prepare(driver, built.bad_model, case.version, case.preference)
    else:
        status, _ = _execute(
            _prepared(driver, built.model, case.version), built.bad_request, case.version
        )
    assert status == ErrorStatus.NONE


def test_fast_paths_read_fields_as_the_general_path_does() -> None:
    """The validator's shortcuts for common values (plain ints, the HAL's enum members,
    float scales, well-formed dimensions and locations) give the answers the general path
    gives for the same values in other clothes (numpy scalars, bools, int subclasses)."""
    from hal.types import ENUMS
    from hal.validation.core import _dims_ok, _int, _location

    for enum in ENUMS:
        for member in enum:
            value = _int(member)
            assert type(value) is int and value == member
    assert _int(np.int64(7)) == 7 and _int(True) == 1 and _int(2.0) is None
    assert _dims_ok(()) and _dims_ok((0, 4294967295)) and not _dims_ok((1, -1))
    assert not _dims_ok((4294967296,)) and not _dims_ok(None)
    assert _location(DataLocation(0, 4, 8)) == (0, 4, 8)
    assert _location(DataLocation(np.int32(0), 4, 8)) == (0, 4, 8)
    assert _location(DataLocation(0, 4.0, 8)) is None

    def verdicts(model) -> list[tuple[str, str]]:
        return [(v.rule.name, v.message) for v in validate_model(model, HalVersion.V1_2).violations]

    for scale, quantized_ok, float_ok in [
        (0.0, False, True),
        (0.5, True, False),
        (math.inf, False, False),
        (math.nan, False, False),
        (-0.5, False, False),
    ]:
        for kind in (float, np.float32, np.float64):
            quantized = binary_model(type_=OperandType.TENSOR_QUANT8_ASYMM)
            quantized.operands[0].scale = kind(scale)
            unquantized = binary_model()
            unquantized.operands[0].scale = kind(scale)
            found = [verdicts(quantized), verdicts(unquantized)]
            assert [not f for f in found] == [quantized_ok, float_ok], (scale, kind, found)
            if kind is not float:  # the same messages as for the float
                quantized.operands[0].scale = float(scale)
                unquantized.operands[0].scale = float(scale)
                assert found == [verdicts(quantized), verdicts(unquantized)]
