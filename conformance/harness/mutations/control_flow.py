"""Ours: control flow (HAL 1.3), ``cf_reference_range`` .. ``cf_referenced_graph``.

Android 11's VTS mutates the main subgraph only, and never the references, the IF and
WHILE signatures or the referenced subgraphs (vts-parity.md). These families fill that
gap, one rule (or one tie of a rule) each, on a model whose main subgraph holds an IF or
a WHILE. Each is a family of HAL 1.3 (``level``): a driver tested at 1.2 never collects
it, and its mutations are tried at 1.3 only (below, the original model is invalid).

What a mutation may change is decided from HAL 1.3's definition of the operations and the
model's own structure (which operand is read by whom), never by asking the validator; the
tests hold every mutation to its family's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    B8,
    F16,
    F32,
    FAMILIES,
    MODEL,
    OURS,
    Q8A,
    Q8AS,
    Q16A,
    SUBGRAPH,
    UINT32_MAX,
    V1_3,
    L,
    T,
    _append_values,
    _Draft,
    _edit,
    _family,
    _sampler,
    _type_name,
    _writer,
    copy_model,
    copy_operand,
)
from hal.types import (
    DataLocation,
    Model,
    Operand,
    Operation,
    OperationType,
    Subgraph,
    is_tensor_type,
)
from hal.validation import Tier

IF, WHILE = OperationType.IF, OperationType.WHILE
_REFERENCE_SLOTS = {IF: (1, 2), WHILE: (0, 1)}
ONLY_1_3 = frozenset({V1_3})
_NUMBERS = {F32: F16, F16: F32, T.FLOAT32: T.INT32, T.INT32: T.FLOAT32}
"""A type each value type of these is retyped to (valid alone: no scale, no zero point)."""
_ZERO_POINT_RANGE = {Q8A: (0, 255), Q8AS: (-128, 127), Q16A: (0, 65535)}


# ---------------------------------------------------------------------------
# Reading a control-flow model
# ---------------------------------------------------------------------------


def _control_flow(graph) -> Iterator[tuple[int, Operation]]:
    for j, operation in enumerate(graph.operations):
        if operation.type in _REFERENCE_SLOTS:
            yield j, operation


def _named(model: Model, graph, i: int) -> int | None:
    """The referenced subgraph operand ``i`` of ``graph`` names (None: not a reference)."""
    operand = graph.operands[i]
    if operand.type != SUBGRAPH or operand.lifetime != L.SUBGRAPH:
        return None
    k = operand.location.offset
    return k if 0 <= k < len(model.referenced) else None


def _references(model: Model, graph) -> list[int]:
    found: list[int] = []
    for _j, operation in _control_flow(graph):
        for slot in _REFERENCE_SLOTS[operation.type]:
            k = _named(model, graph, operation.inputs[slot])
            if k is not None and k not in found:
                found.append(k)
    return found


def _reached(model: Model) -> list[int]:
    """The referenced subgraphs reached from main, in the order a walk meets them."""
    order: list[int] = []
    todo = _references(model, model)
    while todo:
        k = todo.pop(0)
        if k not in order:
            order.append(k)
            todo.extend(_references(model, model.referenced[k]))
    return order


def holds_control_flow(model: Model) -> bool:
    """Whether the main subgraph holds an IF or a WHILE (what every family here needs)."""
    return bool(getattr(model, "referenced", None)) and any(True for _ in _control_flow(model))


def _only_reader(graph, i: int, j: int) -> bool:
    """Whether operation ``j`` is the one operation of ``graph`` touching operand ``i``, once
    (so that changing the operand concerns nobody else)."""
    count = 0
    for n, operation in enumerate(graph.operations):
        hits = operation.inputs.count(i) + operation.outputs.count(i)
        if hits and n != j:
            return False
        count += hits
    return count == 1


def _distinct(model: Model, operation: Operation, slots: tuple[int, ...]) -> list[int]:
    """The referenced subgraphs the main subgraph's ``operation`` names in ``slots``, each
    once (both branches of an IF may be one subgraph)."""
    found: list[int] = []
    for slot in slots:
        k = _named(model, model, operation.inputs[slot])
        if k is not None and k not in found:
            found.append(k)
    return found


def _label(j: int, operation: Operation) -> str:
    return f"operation {j} ({OperationType(operation.type).name})"


# ---------------------------------------------------------------------------
# cf_reference_range: a reference naming no subgraph
# ---------------------------------------------------------------------------


def _set_offset(i: int, offset: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.operands[i].location = DataLocation(0, offset, 0)

    return _edit(change)


def _range_draft(model: Model, i: int, offset: int) -> _Draft:
    count = len(model.referenced)
    return _Draft(
        f"operand{i}.offset={offset}",
        f"operand {i} (SUBGRAPH) names referenced[{offset}], of {count} referenced subgraphs "
        "(operand.subgraph_location)",
        _set_offset(i, offset),
        ONLY_1_3,
    )


def _main_references(model: Model) -> list[int]:
    return [
        i
        for i, o in enumerate(model.operands)
        if o.type == SUBGRAPH and o.lifetime == L.SUBGRAPH and o.number_of_consumers
    ]


@_family(
    "cf_reference_range",
    MODEL,
    Tier.PARITY,
    ("operand.subgraph_location", "if.branch_refs", "while.refs"),
    OURS,
    "a model whose main subgraph holds an IF or a WHILE",
    "a SUBGRAPH operand of the main subgraph made to name a subgraph past the last of "
    "Model.referenced (sampled: any offset up to 2**32 - 1)",
    side_rules=("subgraph.reachable",),
    level=V1_3,
)
def _cf_reference_range(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    for i in _main_references(model):
        yield _range_draft(model, i, len(model.referenced))


@_sampler("cf_reference_range")
def _cf_reference_range_sample(model: Model) -> st.SearchStrategy[_Draft]:
    targets = _main_references(model) if holds_control_flow(model) else []
    if not targets:
        return st.nothing()
    offsets = st.integers(min_value=len(model.referenced), max_value=UINT32_MAX)
    return st.tuples(st.sampled_from(targets), offsets).map(lambda pair: _range_draft(model, *pair))


# ---------------------------------------------------------------------------
# cf_reference_cycle: a subgraph reaching itself
# ---------------------------------------------------------------------------


def _calling(model: Model, k: int, callee: int) -> Subgraph:
    """Subgraph ``k``'s inputs and outputs (the same operands) around one IF of a constant
    true condition whose two branches are subgraph ``callee`` (of ``k``'s signature): a
    graph that passes every rule but the one on reference cycles. Its constant is
    appended to ``model.operand_values``."""
    graph = model.referenced[k]
    operands = [copy_operand(graph.operands[i]) for i in graph.input_indexes]
    operands += [copy_operand(graph.operands[i]) for i in graph.output_indexes]
    for operand in operands[: len(graph.input_indexes)]:
        operand.number_of_consumers = 1
    for operand in operands[len(graph.input_indexes) :]:
        operand.number_of_consumers = 0
    condition = Operand(B8, [1], 1, lifetime=L.CONSTANT_COPY)
    condition.location = _append_values(model, b"\x01")
    reference = Operand(SUBGRAPH, [], 1, lifetime=L.SUBGRAPH, location=DataLocation(0, callee, 0))
    base = len(operands)
    operands += [condition, reference, copy_operand(reference)]
    n_in = len(graph.input_indexes)
    return Subgraph(
        operands=operands,
        operations=[
            Operation(IF, [base, base + 1, base + 2, *range(n_in)], list(range(n_in, base)))
        ],
        input_indexes=list(range(n_in)),
        output_indexes=list(range(n_in, base)),
    )


def _self_cycle(k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.referenced[k] = _calling(m, k, k)

    return _edit(change)


def _ancestor_cycle(k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        child = len(m.referenced)
        m.referenced.append(_calling(m, k, k))  # the child calls k, its ancestor
        m.referenced[k] = _calling(m, k, child)

    return _edit(change)


def _simple_io(graph) -> bool:
    """Inputs and outputs each listed once, none both (what ``_calling`` rebuilds)."""
    ins, outs = list(graph.input_indexes), list(graph.output_indexes)
    return len(set(ins)) == len(ins) and len(set(outs)) == len(outs) and not set(ins) & set(outs)


@_family(
    "cf_reference_cycle",
    MODEL,
    Tier.PARITY,
    ("model.no_reference_cycles",),
    OURS,
    "a model whose main subgraph holds an IF or a WHILE",
    "a referenced subgraph made to refer to itself, or to a new subgraph that refers back "
    "to it (its ancestor): each becomes one IF of a constant condition whose branches are "
    "of its own signature, so the cycle is the only fault",
    side_rules=("subgraph.reachable",),
    level=V1_3,
)
def _cf_reference_cycle(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    for k in _reached(model):
        if not _simple_io(model.referenced[k]):
            continue
        yield _Draft(
            f"referenced{k}.calls_itself",
            f"referenced[{k}] made an IF whose branches are referenced[{k}] itself: a cycle "
            f"referenced[{k}] -> referenced[{k}] (model.no_reference_cycles)",
            _self_cycle(k),
            ONLY_1_3,
        )
        child = len(model.referenced)
        yield _Draft(
            f"referenced{k}.calls_its_caller",
            f"referenced[{k}] made an IF calling a new referenced[{child}], itself an IF "
            f"calling referenced[{k}]: a cycle referenced[{k}] -> referenced[{child}] -> "
            f"referenced[{k}] (model.no_reference_cycles)",
            _ancestor_cycle(k),
            ONLY_1_3,
        )


# ---------------------------------------------------------------------------
# Ties: an IF's or a WHILE's operand against its subgraphs'
# ---------------------------------------------------------------------------


def _ties(model: Model, op_type: int) -> Iterator[tuple[int, Operation, str, int, str]]:
    """(j, operation, side, position, tie) of each value (not a reference) of each ``op_type``
    operation of the main subgraph read or written by it alone: what a tie mutation may
    change without touching any other operation. ``tie`` says what it is tied to."""
    for j, operation in _control_flow(model):
        if operation.type != op_type:
            continue
        first = 3 if op_type == IF else 2
        for p in range(first, len(operation.inputs)):
            i = operation.inputs[p]
            if _only_reader(model, i, j) and model.operands[i].lifetime == L.MODEL_INPUT:
                if op_type == IF:
                    tie = f"each branch's input {p - 3}"
                else:
                    tie = f"the condition's and the body's input {p - 2}"
                yield j, operation, "input", p, tie
        for p, i in enumerate(operation.outputs):
            if _only_reader(model, i, j):
                tie = f"each branch's output {p}" if op_type == IF else f"the body's output {p}"
                yield j, operation, "output", p, tie


def _field_changes(operand: Operand) -> Iterator[tuple[str, str, Callable[[Operand], None]]]:
    """(name, what, change) of each one-field change that keeps the operand valid alone
    but breaks its agreement with a tied operand: type, rank, a dimension, scale, zero
    point."""
    t = operand.type
    target = _NUMBERS.get(t)
    if target is not None and operand.extra_params is None:

        def retype(o: Operand, target=target) -> None:
            o.type, o.scale, o.zero_point = target, 0.0, 0

        yield f"type={target.name}", f"type {_type_name(t)} -> {target.name}", retype
    dims = list(operand.dimensions)
    if is_tensor_type(t) and dims and 0 not in dims:

        def ranked(o: Operand) -> None:
            o.dimensions = [*o.dimensions, 1]

        yield "rank+1", f"dimensions {dims} -> {[*dims, 1]} (rank {len(dims) + 1})", ranked

        def widened(o: Operand) -> None:
            o.dimensions = [o.dimensions[0] + 1, *o.dimensions[1:]]

        yield "dim0+1", f"dimensions {dims} -> {[dims[0] + 1, *dims[1:]]}", widened
    if t in _ZERO_POINT_RANGE and operand.scale > 0:

        def rescaled(o: Operand) -> None:
            o.scale = o.scale * 2

        yield "scale*2", f"scale {operand.scale!r} -> {operand.scale * 2!r}", rescaled
        low, high = _ZERO_POINT_RANGE[t]
        moved = operand.zero_point + 1 if operand.zero_point < high else operand.zero_point - 1
        if low <= moved <= high:

            def shifted(o: Operand, moved=moved) -> None:
                o.zero_point = moved

            yield (
                f"zero_point={moved}",
                f"zero point {operand.zero_point} -> {moved}",
                shifted,
            )


def _change_operand(i: int, change: Callable[[Operand], None]) -> Callable[[Model], Model]:
    return _edit(lambda m: change(m.operands[i]))


def _change_in_subgraph(
    k: int, i: int, change: Callable[[Operand], None]
) -> Callable[[Model], Model]:
    return _edit(lambda m: change(m.referenced[k].operands[i]))


def _tie_drafts(model: Model, op_type: int, rule: str) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    op_name = OperationType(op_type).name
    for j, operation, side, p, tie in _ties(model, op_type):
        i = (operation.inputs if side == "input" else operation.outputs)[p]
        for name, what, change in _field_changes(model.operands[i]):
            yield _Draft(
                f"operation{j}.{side}{p}.{name}",
                f"operand {i} ({op_name} {side} {p}) {what}, against {tie} ({rule})",
                _change_operand(i, change),
                ONLY_1_3,
            )
    # The subgraph's side of an output tie: a dimension of a branch's or the body's output
    # (its writer's shape is no rule's business, so nothing else breaks).
    for j, operation in _control_flow(model):
        if operation.type != op_type:
            continue
        for k in _distinct(model, operation, (1, 2) if op_type == IF else (1,)):
            graph = model.referenced[k]
            for p, i in enumerate(graph.output_indexes):
                operand = graph.operands[i]
                dims = list(operand.dimensions)
                if not (is_tensor_type(operand.type) and dims and 0 not in dims):
                    continue
                wider = [dims[0] + 1, *dims[1:]]
                against = (
                    f"{op_name} output {p}"
                    if op_type == IF
                    else f"the body's input {p}"
                    + (f" and WHILE output {p}" if p < len(operation.outputs) else "")
                )

                def widened(o: Operand, wider=wider) -> None:
                    o.dimensions = list(wider)

                yield _Draft(
                    f"operation{j}.referenced{k}.output{p}.dim0+1",
                    f"referenced[{k}] output {p} (operand {i}) dimensions {dims} -> {wider}, "
                    f"against {against} ({rule})",
                    _change_in_subgraph(k, i, widened),
                    ONLY_1_3,
                )


@_family(
    "cf_if_branch_mismatch",
    MODEL,
    Tier.PARITY,
    ("if.branch_compatible",),
    OURS,
    "an IF in the main subgraph with a value or an output no other operation touches, or a "
    "branch output of known dimensions",
    "an IF's value or output, or a branch's output, changed in one field (type, rank, a "
    "dimension, scale, zero point) so that it no longer agrees with its tied operand",
    level=V1_3,
)
def _cf_if_branch_mismatch(model: Model) -> Iterator[_Draft]:
    yield from _tie_drafts(model, IF, "if.branch_compatible")


@_family(
    "cf_while_signature_mismatch",
    MODEL,
    Tier.PARITY,
    ("while.cond_signature", "while.body_signature"),
    OURS,
    "a WHILE in the main subgraph with a value or an output no other operation touches, or a "
    "body output of known dimensions",
    "a WHILE's value or output, or a body output, changed in one field (type, rank, a "
    "dimension, scale, zero point) so that it no longer agrees with its tied operands (WHILE "
    "input and condition and body input; WHILE output and body output; body output and "
    "body input)",
    level=V1_3,
)
def _cf_while_signature_mismatch(model: Model) -> Iterator[_Draft]:
    yield from _tie_drafts(model, WHILE, "while.cond_signature, while.body_signature")


# ---------------------------------------------------------------------------
# The condition
# ---------------------------------------------------------------------------


def _condition_changes(operand: Operand, retype: bool) -> Iterator[tuple[str, str, Callable]]:
    def dims(value: list[int]) -> Callable[[Operand], None]:
        return lambda o: setattr(o, "dimensions", list(value))

    yield "dims=[2]", "dimensions [1] -> [2]", dims([2])
    yield "dims=[1,1]", "dimensions [1] -> [1, 1]", dims([1, 1])
    if retype:

        def to_int(o: Operand) -> None:
            o.type = T.TENSOR_INT32

        yield "type=TENSOR_INT32", "type TENSOR_BOOL8 -> TENSOR_INT32", to_int


@_family(
    "cf_condition",
    MODEL,
    Tier.PARITY,
    ("if.condition", "while.cond_signature"),
    OURS,
    "an IF in the main subgraph (its condition), or a WHILE (its condition subgraph's output)",
    "a condition that is not a TENSOR_BOOL8 of dimensions [1]: an IF's input 0 given "
    "dimensions [2] or [1, 1] (or, when only the IF reads it, type TENSOR_INT32), a WHILE "
    "condition subgraph's output given dimensions [2] or [1, 1]",
    level=V1_3,
)
def _cf_condition(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    for j, operation in _control_flow(model):
        if operation.type == IF:
            i = operation.inputs[0]
            alone = _only_reader(model, i, j) and model.operands[i].lifetime == L.MODEL_INPUT
            for name, what, change in _condition_changes(model.operands[i], alone):
                yield _Draft(
                    f"operation{j}.condition.{name}",
                    f"IF ({_label(j, operation)}) condition, operand {i}, {what} (if.condition)",
                    _change_operand(i, change),
                    ONLY_1_3,
                )
            continue
        k = _named(model, model, operation.inputs[0])
        if k is None or len(model.referenced[k].output_indexes) != 1:
            continue
        i = model.referenced[k].output_indexes[0]
        for name, what, change in _condition_changes(model.referenced[k].operands[i], False):
            yield _Draft(
                f"operation{j}.referenced{k}.output0.{name}",
                f"WHILE ({_label(j, operation)}) condition referenced[{k}] output 0, operand "
                f"{i}, {what} (while.cond_signature)",
                _change_in_subgraph(k, i, change),
                ONLY_1_3,
            )


# ---------------------------------------------------------------------------
# Counts: too few operands for the operation or its subgraphs
# ---------------------------------------------------------------------------


def _truncate_inputs(j: int, keep: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operation = m.operations[j]
        for i in operation.inputs[keep:]:
            m.operands[i].number_of_consumers -= 1
        del operation.inputs[keep:]

    return _edit(change)


def _demote_outputs(k: int, keep: int) -> Callable[[Model], Model]:
    """Referenced subgraph ``k`` keeps its first ``keep`` outputs; the others become
    temporaries (still written, read by nobody or by its own operations)."""

    def change(m: Model) -> None:
        graph = m.referenced[k]
        for i in graph.output_indexes[keep:]:
            graph.operands[i].lifetime = L.TEMPORARY_VARIABLE
        del graph.output_indexes[keep:]

    return _edit(change)


def _second_output(k: int) -> Callable[[Model], Model]:
    """Referenced subgraph ``k`` (a WHILE's condition) given a second output: the operation
    writing its output duplicated to write a new operand of the same kind."""

    def change(m: Model) -> None:
        graph = m.referenced[k]
        first = graph.output_indexes[0]
        j, _ = _writer(graph, first)
        operation = graph.operations[j]
        new = copy_operand(graph.operands[first])
        new.number_of_consumers = 0
        graph.operands.append(new)
        index = len(graph.operands) - 1
        graph.operations.insert(j + 1, Operation(operation.type, list(operation.inputs), [index]))
        for i in operation.inputs:
            graph.operands[i].number_of_consumers += 1
        graph.output_indexes.append(index)

    return _edit(change)


@_family(
    "cf_counts",
    MODEL,
    Tier.PARITY,
    ("if.counts", "if.branch_arity", "while.cond_signature", "while.body_signature"),
    OURS,
    "a model whose main subgraph holds an IF or a WHILE",
    "an operand count control flow forbids: an IF of 2 inputs; an IF branch or a WHILE body "
    "with one output fewer than it must have (the output made a temporary); a WHILE "
    "condition with two outputs",
    side_rules=("subgraph.reachable", "subgraph.io_nonempty"),
    level=V1_3,
)
def _cf_counts(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    for j, operation in _control_flow(model):
        label = _label(j, operation)
        if operation.type == IF:
            yield _Draft(
                f"operation{j}.inputs[2:].removed",
                f"{label} keeps inputs 0 and 1 only: fewer than 3 inputs (if.counts)",
                _truncate_inputs(j, 2),
                ONLY_1_3,
            )
            for k in _distinct(model, operation, (1, 2)):
                graph = model.referenced[k]
                if len(graph.output_indexes) != len(operation.outputs):
                    continue
                if not _simple_io(graph):
                    continue
                n = len(operation.outputs)
                yield _Draft(
                    f"operation{j}.referenced{k}.outputs={n - 1}",
                    f"{label} branch referenced[{k}] with {n - 1} outputs, the IF taking "
                    f"{n} (if.branch_arity)",
                    _demote_outputs(k, n - 1),
                    ONLY_1_3,
                )
            continue
        cond = _named(model, model, operation.inputs[0])
        if cond is not None and _writer(model.referenced[cond], _cond_output(model, cond)):
            yield _Draft(
                f"operation{j}.referenced{cond}.outputs=2",
                f"{label} condition referenced[{cond}] with 2 outputs (while.cond_signature)",
                _second_output(cond),
                ONLY_1_3,
            )
        body = _named(model, model, operation.inputs[1])
        if body is not None and _simple_io(model.referenced[body]):
            m = len(operation.outputs)
            yield _Draft(
                f"operation{j}.referenced{body}.outputs={m - 1}",
                f"{label} body referenced[{body}] with {m - 1} outputs, the WHILE taking {m} "
                "(while.body_signature)",
                _demote_outputs(body, m - 1),
                ONLY_1_3,
            )


def _cond_output(model: Model, k: int) -> int:
    outputs = model.referenced[k].output_indexes
    return outputs[0] if len(outputs) == 1 else -1


# ---------------------------------------------------------------------------
# Unknown dimensions
# ---------------------------------------------------------------------------


def _unknown_drafts(model: Model, op_type: int, rule: str) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    op_name = OperationType(op_type).name
    for j, operation, side, p, _ in _ties(model, op_type):
        i = (operation.inputs if side == "input" else operation.outputs)[p]
        dims = list(model.operands[i].dimensions)
        if not (is_tensor_type(model.operands[i].type) and dims and 0 not in dims):
            continue
        unknown = [0, *dims[1:]]
        yield _Draft(
            f"operation{j}.{side}{p}.dim0=0",
            f"operand {i} ({op_name} {side} {p}) dimensions {dims} -> {unknown}: not fully "
            f"specified ({rule})",
            _set_dims_to(i, unknown),
            ONLY_1_3,
        )


def _set_dims_to(i: int, dims: list[int]) -> Callable[[Model], Model]:
    return _edit(lambda m: setattr(m.operands[i], "dimensions", list(dims)))


@_family(
    "cf_if_unspecified",
    MODEL,
    Tier.STRICT,
    ("if.fully_specified",),
    OURS,
    "an IF in the main subgraph with a tensor value or output no other operation touches",
    "an IF's value or output given an unknown first dimension (0): the HAL text wants every "
    "operand of an IF fully specified, which Android 11 does not check",
    level=V1_3,
)
def _cf_if_unspecified(model: Model) -> Iterator[_Draft]:
    yield from _unknown_drafts(model, IF, "if.fully_specified")


@_family(
    "cf_while_unspecified",
    MODEL,
    Tier.PARITY,
    ("while.fully_specified",),
    OURS,
    "a WHILE in the main subgraph with a tensor value or output no other operation touches",
    "a WHILE's value or output given an unknown first dimension (0), which Android 11 refuses",
    level=V1_3,
)
def _cf_while_unspecified(model: Model) -> Iterator[_Draft]:
    yield from _unknown_drafts(model, WHILE, "while.fully_specified")


# ---------------------------------------------------------------------------
# SUBGRAPH operands
# ---------------------------------------------------------------------------


def _append_operand(operand: Operand) -> Callable[[Model], Model]:
    return _edit(lambda m: m.operands.append(copy_operand(operand)))


@_family(
    "cf_subgraph_operand",
    MODEL,
    Tier.PARITY,
    (
        "operand.subgraph_pairing",
        "operand.scalar_rank",
        "operand.scale",
        "operand.zero_point",
        "operand.extra_params",
    ),
    OURS,
    "a model whose main subgraph holds an IF or a WHILE",
    "the SUBGRAPH type and lifetime misused: an unused operand of type SUBGRAPH and lifetime "
    "NO_VALUE, or of type INT32 and lifetime SUBGRAPH; a reference given dimensions [1] "
    "(a SUBGRAPH operand is a scalar: its scale and zero point are operand_scale's and "
    "operand_zero_point's)",
    level=V1_3,
)
def _cf_subgraph_operand(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    n = len(model.operands)
    yield _Draft(
        f"operand{n}.added=SUBGRAPH/NO_VALUE",
        f"a new operand {n} of type SUBGRAPH and lifetime NO_VALUE, read by nobody "
        "(operand.subgraph_pairing)",
        _append_operand(Operand(SUBGRAPH, [], 0, lifetime=L.NO_VALUE)),
        ONLY_1_3,
    )
    yield _Draft(
        f"operand{n}.added=INT32/SUBGRAPH",
        f"a new operand {n} of type INT32 and lifetime SUBGRAPH naming referenced[0], read by "
        "nobody (operand.subgraph_pairing)",
        _append_operand(
            Operand(T.INT32, [], 0, lifetime=L.SUBGRAPH, location=DataLocation(0, 0, 0))
        ),
        ONLY_1_3,
    )
    for i in _main_references(model):
        yield _Draft(
            f"operand{i}.dims=[1]",
            f"operand {i} (SUBGRAPH) dimensions [] -> [1] (operand.scalar_rank)",
            _set_dims_to(i, [1]),
            ONLY_1_3,
        )


def _oem_reads(i: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        m.operands.append(Operand(T.TENSOR_OEM_BYTE, [1], 0, lifetime=L.TEMPORARY_VARIABLE))
        m.operations.append(Operation(OperationType.OEM_OPERATION, [i], [len(m.operands) - 1]))
        m.operands[i].number_of_consumers += 1

    return _edit(change)


@_family(
    "cf_subgraph_use",
    MODEL,
    Tier.STRICT,
    ("operand.subgraph_use",),
    OURS,
    "a model whose main subgraph holds an IF or a WHILE",
    "a SUBGRAPH operand read by an operation other than IF or WHILE: an OEM_OPERATION "
    "appended that reads it (an OEM operation takes any operand, so only this rule can "
    "refuse it)",
    level=V1_3,
)
def _cf_subgraph_use(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    for i in _main_references(model):
        yield _Draft(
            f"operand{i}.read_by_oem",
            f"operand {i} (SUBGRAPH) also read by a new OEM_OPERATION "
            f"(operation {len(model.operations)}) (operand.subgraph_use)",
            _oem_reads(i),
            ONLY_1_3,
        )


# ---------------------------------------------------------------------------
# cf_referenced_graph: a referenced subgraph broken as a graph
# ---------------------------------------------------------------------------

_INNER = (
    "operand_type_beyond",
    "lifetime_invalid",
    "io_index_range",
    "io_index_duplicate",
    "operation_removed",
    "write_removed",
)
"""The families applied inside a referenced subgraph: each breaks a rule every graph keeps
(an operand type, a lifetime, the input and output lists, an operation reading an
operand nobody writes)."""


def _as_model(model: Model, graph: Subgraph) -> Model:
    return Model(
        operands=graph.operands,
        operations=graph.operations,
        input_indexes=graph.input_indexes,
        output_indexes=graph.output_indexes,
        operand_values=model.operand_values,
        pools=model.pools,
        relax_computation_float32_to_float16=model.relax_computation_float32_to_float16,
        extension_name_to_prefix=model.extension_name_to_prefix,
        referenced=model.referenced,
    )


def _inside(k: int, apply: Callable[[Model], Model]) -> Callable[[Model], Model]:
    def mutate(model: Model) -> Model:
        m = copy_model(model)
        changed = apply(_as_model(m, m.referenced[k]))
        m.referenced[k] = Subgraph(
            changed.operands, changed.operations, changed.input_indexes, changed.output_indexes
        )
        m.operand_values, m.pools = changed.operand_values, changed.pools
        return m

    return mutate


@_family(
    "cf_referenced_graph",
    MODEL,
    Tier.PARITY,
    ("model.each_subgraph",),
    OURS,
    "a model whose main subgraph holds an IF or a WHILE",
    "a referenced subgraph mutated as a graph, as these families mutate a main one: "
    + ", ".join(_INNER)
    + " (VTS mutates the main subgraph only)",
    level=V1_3,
)
def _cf_referenced_graph(model: Model) -> Iterator[_Draft]:
    if not holds_control_flow(model):
        return
    for k in _reached(model):
        view = _as_model(model, model.referenced[k])
        for name in _INNER:
            for draft in FAMILIES[name].drafts(view):
                if V1_3 not in draft.levels:
                    continue
                yield _Draft(
                    f"referenced{k}.{name}.{draft.name}",
                    f"in referenced[{k}]: {draft.description} ({name}; model.each_subgraph)",
                    _inside(k, draft.apply),
                    ONLY_1_3,
                )


CONTROL_FLOW_FAMILIES = tuple(name for name in FAMILIES if name.startswith("cf_"))
"""The families of this module, in registration order (each of HAL 1.3, on models whose main
subgraph holds control flow)."""
