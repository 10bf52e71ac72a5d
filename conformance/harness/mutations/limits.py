"""Our model families on what a HAL level, a value range or an operation's form allows:
1.2-only features through the 1.0 / 1.1 methods, relaxation through 1.0, empty models,
operand and operation types and dimensions out of range, constants of unknown dimensions,
required inputs omitted, input ranks."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    _CONSTANT,
    _DECLARED_PREFIX,
    _EXTENSION_NAME,
    BELOW_1_2,
    F16,
    F32,
    MODEL,
    OURS,
    V1_0,
    V1_2,
    V1_3,
    L,
    _add_pool,
    _append_values,
    _Draft,
    _edit,
    _family,
    _lifetime_name,
    _matched_signature,
    _op_name,
    _operand,
    _operation_label,
    _required_slots,
    _sampler,
    _set_dims,
    _set_type,
    _type_name,
    _types,
    _where,
)
from conformance.harness.mutations.extensions import _declare, _extension_operation
from conformance.harness.mutations.operations import _operation_type_draft
from hal.memory import HARDWARE_BUFFER_BLOB
from hal.operations import operation_info, signatures
from hal.types import (
    DataLocation,
    HalVersion,
    Model,
    Operand,
    OperandTypeRange,
    OperationType,
    OperationTypeRange,
    is_scalar_type,
    is_tensor_type,
    operand_byte_size,
)
from hal.validation import Tier, slot_positions


def _before(level: HalVersion) -> frozenset[HalVersion]:
    return frozenset(v for v in HalVersion if v < level)


@functools.cache
def _introduced_at(level: HalVersion) -> tuple[OperationType, ...]:
    """The operation types introduced at ``level``, in code order."""
    return tuple(
        op for op in OperationType if (info := operation_info(op)) and info.introduced == level
    )


def _newer_operation(model: Model, j: int, level: HalVersion) -> int | None:
    """An operation type introduced at ``level`` whose forms there take operation ``j``'s
    operand types (the first in code order)."""
    operation = model.operations[j]
    ins, outs = _types(model, operation.inputs), _types(model, operation.outputs)
    for op in _introduced_at(level):
        if op == operation.type:
            continue
        if any(s.accepts_types(ins, outs) for s in signatures(op, level)):
            return op
    return None


def _newer_tail(model: Model, j: int, level: HalVersion) -> int | None:
    """The scalar type of a trailing input that only forms of operation ``j`` dated
    ``level`` accept."""
    operation = model.operations[j]
    ins, outs = _types(model, operation.inputs), _types(model, operation.outputs)
    if any(not 0 <= v < len(model.operands) for v in operation.inputs):
        return None
    for s in signatures(operation.type, level):
        tail = s.inputs[len(ins) :]
        if (
            s.since == level
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
    for j in range(len(model.operations)):
        yield from _level_features(model, j, V1_2)
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


def _level_features(model: Model, j: int, level: HalVersion) -> Iterator[_Draft]:
    """Operation ``j`` made an operation ``level`` introduced taking its operand types, and
    given an optional input only the forms of ``level`` have (each as the catalog dates it),
    invalid through the methods of every level before ``level``."""
    operation = model.operations[j]
    newer = _newer_operation(model, j, level)
    if newer is not None:
        yield _Draft(
            f"operation{j}.type={OperationType(newer).name}",
            f"{_operation_label(model, j)} -> {OperationType(newer).name}, an operation of "
            f"HAL {level} taking the same operand types",
            _set_operation_type(j, newer),
            _before(level),
        )
    tail = _newer_tail(model, j, level)
    if tail is not None:
        yield _Draft(
            f"operation{j}.inputs+{_type_name(tail)}",
            f"{_operation_label(model, j)} given the optional {_type_name(tail)} input "
            f"{len(operation.inputs)} only its HAL {level} forms have",
            _append_scalar_input(j, tail),
            _before(level),
        )


@_family(
    "newer_1_3_feature",
    MODEL,
    Tier.PARITY,
    ("operation.type_version", "operation.type_known", "operation.signature"),
    OURS,
    "a model valid before HAL 1.3, one of whose operations a 1.3 operation could replace or a "
    "1.3-only optional input extend (a driver tested at 1.3)",
    "a HAL 1.3 feature sent through the 1.0-1.2 methods of a 1.3 driver: an operation 1.3 "
    "introduced taking the same operand types (HARD_SWISH, ELU, FILL, RANK, QUANTIZED_LSTM "
    "where their forms fit), an optional input only the operation's 1.3 forms have (the "
    "RESIZE flags); both found in the catalog",
    level=V1_3,
)
def _newer_1_3_feature(model: Model) -> Iterator[_Draft]:
    for j in range(len(model.operations)):
        yield from _level_features(model, j, V1_3)


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
        min_value=OperandTypeRange.FUNDAMENTAL_MAX_1_3 + 1, max_value=OperandTypeRange.OEM_MIN - 1
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
        min_value=OperationTypeRange.FUNDAMENTAL_MAX_1_3 + 1,
        max_value=OperationTypeRange.OEM_MIN - 1,
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
    "a model input in a required slot, or a CONSTANT_COPY, whose rank the catalog limits",
    "a model input given a rank outside the limits its operation defines (every input of a "
    "repeated slot, CONCATENATION's tensors); a constant given trailing dimensions of 1 "
    "past the highest rank (its data unchanged)",
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
            for position in slot_positions(operation, signature, slot):
                v = operation.inputs[position]
                operand = model.operands[v]
                if v in done or not operand.dimensions:
                    continue
                limits = f"{low}" if low == high else f"{low} to {high}"
                where = f"{_op_name(operation.type)} input {position} takes rank {limits}"
                if operand.lifetime == L.MODEL_INPUT:
                    done.add(v)
                    for rank in (high + 1, low - 1):
                        if rank >= 1:
                            yield _Draft(
                                f"operand{v}.rank={rank}",
                                f"{_operand(model, v)} dimensions {list(operand.dimensions)} -> "
                                f"{[1] * rank}: {where}",
                                _set_dims(v, [1] * rank),
                            )
                elif operand.lifetime == L.CONSTANT_COPY:
                    done.add(v)
                    dims = [*operand.dimensions, *[1] * (high + 1 - len(operand.dimensions))]
                    yield _Draft(
                        f"operand{v}.rank={high + 1}",
                        f"{_operand(model, v)} dimensions {list(operand.dimensions)} -> "
                        f"{dims} (the same data): {where}",
                        _set_dims(v, dims),
                    )


def _filter_batch_2(v: int) -> Callable[[Model], Model]:
    """Operand ``v``'s first dimension 1 -> 2; a CONSTANT_COPY gets its data twice, so its
    length still fits."""

    def change(m: Model) -> None:
        operand = m.operands[v]
        operand.dimensions = [2, *list(operand.dimensions)[1:]]
        if operand.lifetime == L.CONSTANT_COPY:
            location = operand.location
            data = bytes(m.operand_values)[location.offset : location.offset + location.length]
            operand.location = _append_values(m, data + data)

    return _edit(change)


@_family(
    "depthwise_filter_batch",
    MODEL,
    Tier.STRICT,
    ("operation.depthwise_filter",),
    OURS,
    "a DEPTHWISE_CONV_2D whose filter (a model input or CONSTANT_COPY) has first dimension 1",
    "a DEPTHWISE_CONV_2D filter given first dimension 2 (a constant's data doubled to fit), "
    "which Android 11 refuses for models of every version",
)
def _depthwise_filter_batch(model: Model) -> Iterator[_Draft]:
    done: set[int] = set()
    for operation in model.operations:
        if operation.type != OperationType.DEPTHWISE_CONV_2D or len(operation.inputs) < 2:
            continue
        v = operation.inputs[1]
        if not 0 <= v < len(model.operands) or v in done:
            continue
        operand = model.operands[v]
        dims = list(operand.dimensions)
        if not dims or dims[0] != 1 or operand.lifetime not in (L.MODEL_INPUT, L.CONSTANT_COPY):
            continue
        done.add(v)
        yield _Draft(
            f"operand{v}.dims[0]=2",
            f"{_operand(model, v)} dimensions {dims} -> {[2, *dims[1:]]}: a DEPTHWISE_CONV_2D "
            "filter has first dimension 1",
            _filter_batch_2(v),
        )
