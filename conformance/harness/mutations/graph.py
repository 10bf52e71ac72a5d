"""Model families later VTS versions added (still HAL 1.2): execution order, lifetimes,
input/output roles, consumer counts, writers and cycles of the graph."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    _CONSTANT,
    MODEL,
    UINT32_MAX,
    UPSTREAM,
    L,
    _append_values,
    _consumers,
    _Draft,
    _edit,
    _family,
    _fully_specified_size,
    _lifetime_name,
    _operand,
    _operation_label,
    _sampler,
    _set_field,
    _writer,
)
from hal.types import DataLocation, Model, Operand
from hal.validation import Tier

# ---------------------------------------------------------------------------
# Model families later VTS versions added (still HAL 1.2)
# ---------------------------------------------------------------------------

_WRITTEN = frozenset({L.TEMPORARY_VARIABLE, L.MODEL_OUTPUT})


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
