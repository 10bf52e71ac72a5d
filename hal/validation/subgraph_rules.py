"""The rules HAL 1.3 adds for referenced subgraphs and control flow.

A 1.3 model is a main subgraph (``Model``'s own fields) and the subgraphs its IF and
WHILE operations refer to (``Model.referenced``), each through a SUBGRAPH operand
whose location's offset names one. The rules here, all of which bind a model of 1.3
or later only (below 1.3 ``model.referenced_version``, ``operand.type_version``,
``operand.lifetime`` and ``operation.type_version`` already refuse every part of
it):

* the references: SUBGRAPH type and lifetime go together, a reference names an
  existing subgraph, is read only by IF or WHILE, and following references from the
  main subgraph never comes back to a subgraph on the way (no cycles); every
  referenced subgraph is reached and has inputs and outputs (strict: the HAL text);
* every referenced subgraph passes, as a graph, every rule a main subgraph passes
  (``model.each_subgraph``: operands, operations, inputs and outputs, order, and the
  IF/WHILE rules for control flow nested in it);
* IF (``if.*``) and WHILE (``while.*``): operand counts, the condition, the
  references, the subgraphs' arity, each tied pair of operands agreeing in type,
  scale, zero point, extra parameters and known dimensions, and fully specified
  operands (parity for WHILE, which Android 11 checks; strict for IF, which only the
  HAL text demands).

The operation catalog lists no signature for IF and WHILE (their operands may be of
any type): these rules are their signature check.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hal.forms import Tier
from hal.types import (
    HalVersion,
    Model,
    OperandLifeTime,
    OperandType,
    OperationType,
    describe_type,
    is_tensor_type,
)
from hal.validation.core import (
    _MODEL_CHECKS,
    _int,
    _ints,
    _items,
    _lifetime_name,
    _location,
    _model_rule,
    _ModelFacts,
    _type_name,
)

_V1_3 = HalVersion.V1_3
_SUBGRAPH_TYPE = OperandType.SUBGRAPH
_SUBGRAPH_LIFETIME = OperandLifeTime.SUBGRAPH
_IF, _WHILE = OperationType.IF, OperationType.WHILE
_REFERENCE_SLOTS = {_IF: (1, 2), _WHILE: (0, 1)}
"""The input slots of each control-flow operation that take a subgraph reference."""


def _referenced(model: Model) -> Sequence:
    return _items(getattr(model, "referenced", None))


def referenced_index(model: Model, operand: object) -> int | None:
    """The index into ``model.referenced`` a SUBGRAPH operand names; None when it names
    none (another type or lifetime, a location not (0, k, 0), k out of range). Read
    defensively: the reference driver's executor resolves IF and WHILE through it too."""
    if _int(getattr(operand, "type", None)) != _SUBGRAPH_TYPE:
        return None
    if _int(getattr(operand, "lifetime", None)) != _SUBGRAPH_LIFETIME:
        return None
    loc = _location(getattr(operand, "location", None))
    if loc is None or loc[0] != 0 or loc[2] != 0:
        return None
    return loc[1] if 0 <= loc[1] < len(_referenced(model)) else None


def _graph_references(model: Model, graph: object) -> list[int]:
    """The referenced subgraphs a graph's SUBGRAPH operands name, each once, in order."""
    found: list[int] = []
    for operand in _items(getattr(graph, "operands", None)):
        k = referenced_index(model, operand)
        if k is not None and k not in found:
            found.append(k)
    return found


# ---------------------------------------------------------------------------
# SUBGRAPH operands (every graph)
# ---------------------------------------------------------------------------


@_model_rule(
    "operand.subgraph_pairing",
    Tier.PARITY,
    "an operand of type SUBGRAPH has lifetime SUBGRAPH, and only such an operand has it (1.3)",
)
def _subgraph_pairing(facts: _ModelFacts) -> Iterator[str]:
    if facts.version < _V1_3:
        return
    for i, (t, lifetime) in enumerate(zip(facts.types, facts.lifetimes, strict=True)):
        if (t == _SUBGRAPH_TYPE) == (lifetime == _SUBGRAPH_LIFETIME):
            continue
        if t == _SUBGRAPH_TYPE:
            name = _lifetime_name(facts.operands[i].lifetime)
            yield f"operand {i}: type SUBGRAPH has lifetime {name}, must be SUBGRAPH"
        else:
            yield f"operand {i}: lifetime SUBGRAPH has type {_type_name(t)}, must be SUBGRAPH"


@_model_rule(
    "operand.subgraph_location",
    Tier.PARITY,
    "a SUBGRAPH lifetime's location is pool 0, length 0, and an offset naming one of "
    "Model.referenced (1.3)",
)
def _subgraph_location(facts: _ModelFacts) -> Iterator[str]:
    if facts.version < _V1_3:
        return
    count = len(_referenced(facts.model))
    for i, lifetime in enumerate(facts.lifetimes):
        if lifetime != _SUBGRAPH_LIFETIME:
            continue
        loc = facts.locations[i]
        if loc is None:
            yield f"operand {i} (SUBGRAPH): location {facts.operands[i].location!r} is not a DataLocation"
        elif loc[0] != 0 or loc[2] != 0 or not 0 <= loc[1] < count:
            yield (
                f"operand {i} (SUBGRAPH): location (pool {loc[0]}, offset {loc[1]}, length "
                f"{loc[2]}) must be pool 0, length 0 and an offset below {count} (the number "
                "of referenced subgraphs)"
            )


@_model_rule(
    "operand.subgraph_use",
    Tier.STRICT,
    "a SUBGRAPH operand is read only as a subgraph input of IF (inputs 1, 2) or WHILE "
    "(inputs 0, 1) (1.3; Android 11 refuses other uses only through the operations' types)",
)
def _subgraph_use(facts: _ModelFacts) -> Iterator[str]:
    if facts.version < _V1_3:
        return
    for j, slots in enumerate(facts.input_slots):
        allowed = _REFERENCE_SLOTS.get(_int(facts.operations[j].type), ())
        for k, i in slots:
            if facts.types[i] == _SUBGRAPH_TYPE and k not in allowed:
                yield (
                    f"{facts.operation_label(j)}: input {k} (operand {i}) is a SUBGRAPH; only "
                    "IF inputs 1 and 2 and WHILE inputs 0 and 1 take a subgraph"
                )


# ---------------------------------------------------------------------------
# The model's subgraphs as a whole (main graph only)
# ---------------------------------------------------------------------------


def _whole_model(facts: _ModelFacts) -> bool:
    return facts.version >= _V1_3 and facts.graph == "main"


@_model_rule(
    "model.no_reference_cycles",
    Tier.PARITY,
    "following subgraph references from the main subgraph never returns to a subgraph "
    "on the way (1.3)",
)
def _no_reference_cycles(facts: _ModelFacts) -> Iterator[str]:
    if not _whole_model(facts):
        return
    model = facts.model
    referenced = _referenced(model)
    edges = [_graph_references(model, graph) for graph in referenced]
    reported: set[tuple[int, ...]] = set()
    path: list[int] = []
    done: set[int] = set()

    def visit(k: int) -> Iterator[str]:
        if k in path:
            cycle = path[path.index(k) :]
            key = tuple(sorted(cycle))
            if key not in reported:
                reported.add(key)
                names = " -> ".join(f"referenced[{n}]" for n in (*cycle, k))
                yield f"the subgraph references form a cycle: {names}"
            return
        if k in done:
            return
        path.append(k)
        for nxt in edges[k]:
            yield from visit(nxt)
        path.pop()
        done.add(k)

    for k in _graph_references(model, model):
        yield from visit(k)


@_model_rule(
    "subgraph.reachable",
    Tier.STRICT,
    "every referenced subgraph is reached by following references from the main subgraph (1.3)",
)
def _subgraph_reachable(facts: _ModelFacts) -> Iterator[str]:
    if not _whole_model(facts):
        return
    model = facts.model
    referenced = _referenced(model)
    reached: set[int] = set()
    todo = _graph_references(model, model)
    while todo:
        k = todo.pop()
        if k not in reached:
            reached.add(k)
            todo.extend(_graph_references(model, referenced[k]))
    for k in range(len(referenced)):
        if k not in reached:
            yield f"referenced[{k}] is not reached from the main subgraph"


@_model_rule(
    "subgraph.io_nonempty",
    Tier.STRICT,
    "every referenced subgraph has at least one input and one output (1.3; the HAL text)",
)
def _subgraph_io_nonempty(facts: _ModelFacts) -> Iterator[str]:
    if not _whole_model(facts):
        return
    for k, graph in enumerate(_referenced(facts.model)):
        for field, what in (("input_indexes", "inputs"), ("output_indexes", "outputs")):
            if not _items(getattr(graph, field, None)):
                yield f"referenced[{k}] has no {what}"


_WHOLE_MODEL_RULES = frozenset(
    {
        "model.extension_prefixes",
        "model.extensions_version",
        "model.pools",
        "model.relaxed_version",
        "model.referenced_version",
        "model.no_reference_cycles",
        "subgraph.reachable",
        "subgraph.io_nonempty",
        "model.each_subgraph",
    }
)
"""Rules on the model as a whole: checked once, not again for each referenced subgraph."""


def _as_model(model: Model, graph: object) -> Model:
    """A referenced subgraph as a model: its own graph, the model's other fields."""
    return Model(
        operands=getattr(graph, "operands", None),
        operations=getattr(graph, "operations", None),
        input_indexes=getattr(graph, "input_indexes", None),
        output_indexes=getattr(graph, "output_indexes", None),
        operand_values=model.operand_values,
        pools=model.pools,
        relax_computation_float32_to_float16=model.relax_computation_float32_to_float16,
        extension_name_to_prefix=model.extension_name_to_prefix,
        referenced=model.referenced,
    )


@_model_rule(
    "model.each_subgraph",
    Tier.PARITY,
    "every referenced subgraph passes the rules of a graph (operands, operations, inputs "
    "and outputs, order, control flow) as the main subgraph does (1.3)",
)
def _each_subgraph(facts: _ModelFacts) -> Iterator[str]:
    if not _whole_model(facts):
        return
    checks = [
        (name, check)
        for name, check in _MODEL_CHECKS.items()
        if name not in _WHOLE_MODEL_RULES and name not in facts.disabled
    ]
    for k, graph in enumerate(_referenced(facts.model)):
        where = f"referenced[{k}]"
        if not all(hasattr(graph, f) for f in ("operands", "operations")):
            yield f"{where} is a {type(graph).__name__}, not a Subgraph"
            continue
        sub = _ModelFacts(
            _as_model(facts.model, graph), facts.version, graph=where, disabled=facts.disabled
        )
        for name, check in checks:
            for message in check(sub):
                yield f"{where}: {name}: {message}"


# ---------------------------------------------------------------------------
# IF and WHILE (every graph)
# ---------------------------------------------------------------------------


def _control_flow(
    facts: _ModelFacts, op: OperationType, *, counted: bool = True
) -> Iterator[tuple[int, list, list]]:
    """(position, input operands, output operands) of each ``op`` operation whose operand
    indexes are all in range (the others are operation.operand_indexes' to report) and,
    if ``counted``, whose counts are right (at least 3 inputs, 1 output: the others are
    if.counts' or while.counts' to report)."""
    if facts.version < _V1_3:
        return
    for j, operation in enumerate(facts.operations):
        if _int(operation.type) != op:
            continue
        sides = (_items(operation.inputs), _items(operation.outputs))
        indexes = [[facts.index(v) for v in side] for side in sides]
        if any(i is None for side in indexes for i in side):
            continue
        if counted and (len(indexes[0]) < 3 or not indexes[1]):
            continue
        yield j, indexes[0], indexes[1]


def _graph_io(graph: object, field: str) -> list | None:
    """A subgraph's input or output operands, None if an index is not one of its operands."""
    operands = _items(getattr(graph, "operands", None))
    result = []
    for value in _items(getattr(graph, field, None)):
        i = _int(value)
        if i is None or not 0 <= i < len(operands):
            return None
        result.append(operands[i])
    return result


def _mismatch(a: object, b: object) -> str | None:
    """How two operands tied by control flow differ (None: they agree). Dimensions agree
    where both are known: an unknown rank or a 0 matches anything."""
    ta, tb = _int(getattr(a, "type", None)), _int(getattr(b, "type", None))
    if ta != tb:
        return f"type {_type_name(ta)} against {_type_name(tb)}"
    for field in ("scale", "zero_point", "extra_params"):
        va, vb = getattr(a, field, None), getattr(b, field, None)
        if va != vb:
            return f"{field} {va!r} against {vb!r}"
    da, db = _ints(getattr(a, "dimensions", None)), _ints(getattr(b, "dimensions", None))
    if da and db:
        if len(da) != len(db):
            return f"rank {len(da)} against {len(db)}"
        if any(x and y and x != y for x, y in zip(da, db, strict=True)):
            return f"dimensions {list(da)} against {list(db)}"
    return None


def _specified(operand: object) -> bool:
    """Fully specified: a tensor of known rank with no 0, or a scalar."""
    dims = _ints(getattr(operand, "dimensions", None))
    if dims is None:
        return False
    t = _int(getattr(operand, "type", None))
    if t is not None and is_tensor_type(t) and not dims:
        return False
    return 0 not in dims


def _is_condition(operand: object) -> bool:
    return _int(getattr(operand, "type", None)) == OperandType.TENSOR_BOOL8 and _ints(
        getattr(operand, "dimensions", None)
    ) == (1,)


def _describe(operand: object) -> str:
    t = _int(getattr(operand, "type", None))
    name = describe_type(t) if t is not None else repr(getattr(operand, "type", None))
    return f"{name} of dimensions {list(_items(getattr(operand, 'dimensions', None)))}"


def _branches(
    facts: _ModelFacts, inputs: list[int], slots: Sequence[int]
) -> list[tuple[int, int, object]]:
    """(slot, subgraph index, subgraph) of each reference slot that names a subgraph."""
    referenced = _referenced(facts.model)
    found = []
    for slot in slots:
        if slot < len(inputs):
            k = referenced_index(facts.model, facts.operands[inputs[slot]])
            if k is not None:
                found.append((slot, k, referenced[k]))
    return found


def _too_few(facts: _ModelFacts, kind: int, roles: str) -> Iterator[str]:
    """Each control-flow operation of ``kind`` with fewer than 3 inputs or no output."""
    for j, inputs, outputs in _control_flow(facts, kind, counted=False):
        if len(inputs) < 3 or not outputs:
            yield (
                f"{facts.operation_label(j)}: has {len(inputs)} inputs and {len(outputs)} "
                f"outputs; needs at least 3 inputs ({roles}) and 1 output"
            )


@_model_rule("if.counts", Tier.PARITY, "an IF has at least 3 inputs and 1 output (1.3)")
def _if_counts(facts: _ModelFacts) -> Iterator[str]:
    yield from _too_few(facts, _IF, "condition, then, else")


@_model_rule(
    "if.condition",
    Tier.PARITY,
    "an IF's input 0, the condition, is a TENSOR_BOOL8 of dimensions [1] (1.3)",
)
def _if_condition(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, _ in _control_flow(facts, _IF):
        if inputs and not _is_condition(facts.operands[inputs[0]]):
            yield (
                f"{facts.operation_label(j)}: input 0 (operand {inputs[0]}) is "
                f"{_describe(facts.operands[inputs[0]])}; the condition is a TENSOR_BOOL8 "
                "of dimensions [1]"
            )


def _reference_problems(
    facts: _ModelFacts, op: OperationType, slots: tuple[int, ...]
) -> Iterator[str]:
    count = len(_referenced(facts.model))
    for j, inputs, _ in _control_flow(facts, op):
        for slot in slots:
            if slot >= len(inputs):
                continue
            operand = facts.operands[inputs[slot]]
            if referenced_index(facts.model, operand) is None:
                yield (
                    f"{facts.operation_label(j)}: input {slot} (operand {inputs[slot]}) is not "
                    f"a SUBGRAPH operand naming one of the {count} referenced subgraphs"
                )


@_model_rule(
    "if.branch_refs",
    Tier.PARITY,
    "an IF's inputs 1 and 2 are SUBGRAPH operands naming referenced subgraphs (1.3)",
)
def _if_branch_refs(facts: _ModelFacts) -> Iterator[str]:
    return _reference_problems(facts, _IF, (1, 2))


_BRANCH_NAMES = {1: "then", 2: "else"}


@_model_rule(
    "if.branch_arity",
    Tier.PARITY,
    "each IF branch has as many inputs as the IF passes (its inputs less 3) and as many "
    "outputs as the IF has (1.3)",
)
def _if_branch_arity(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, outputs in _control_flow(facts, _IF):
        for slot, k, graph in _branches(facts, inputs, (1, 2)):
            n_in = len(_items(getattr(graph, "input_indexes", None)))
            n_out = len(_items(getattr(graph, "output_indexes", None)))
            if (n_in, n_out) != (len(inputs) - 3, len(outputs)):
                yield (
                    f"{facts.operation_label(j)}: the {_BRANCH_NAMES[slot]} branch "
                    f"referenced[{k}] has {n_in} inputs and {n_out} outputs; the IF passes "
                    f"{len(inputs) - 3} values and takes {len(outputs)} results"
                )


def _pairs_problems(label: str, pairs: Iterator[tuple[str, object, str, object]]) -> Iterator[str]:
    for name_a, a, name_b, b in pairs:
        problem = _mismatch(a, b)
        if problem:
            yield f"{label}: {name_a} and {name_b} differ: {problem}"


@_model_rule(
    "if.branch_compatible",
    Tier.PARITY,
    "each IF branch's input i agrees with the IF's input 3 + i and its output j with the "
    "IF's output j: type, scale, zero point, extra parameters, known dimensions (1.3)",
)
def _if_branch_compatible(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, outputs in _control_flow(facts, _IF):
        for _, k, graph in _branches(facts, inputs, (1, 2)):
            ins, outs = _graph_io(graph, "input_indexes"), _graph_io(graph, "output_indexes")
            if ins is None or outs is None:
                continue  # its own indexes are model.each_subgraph's to report
            if (len(ins), len(outs)) != (len(inputs) - 3, len(outputs)):
                continue  # if.branch_arity's
            pairs = [
                (
                    f"input {3 + i} (operand {inputs[3 + i]})",
                    facts.operands[inputs[3 + i]],
                    f"referenced[{k}] input {i}",
                    ins[i],
                )
                for i in range(len(ins))
            ] + [
                (
                    f"output {i} (operand {outputs[i]})",
                    facts.operands[outputs[i]],
                    f"referenced[{k}] output {i}",
                    outs[i],
                )
                for i in range(len(outs))
            ]
            yield from _pairs_problems(facts.operation_label(j), iter(pairs))


def _unspecified(label: str, named: list[tuple[str, object]], what: str) -> Iterator[str]:
    for name, operand in named:
        if not _specified(operand):
            yield (
                f"{label}: {name} is {_describe(operand)}, not fully specified; {what} "
                "operands must be"
            )


def _own_operands(
    facts: _ModelFacts, inputs: list[int], outputs: list[int], subgraph_slots: tuple[int, ...]
) -> list[tuple[str, object]]:
    """A control-flow operation's inputs but those naming subgraphs, and its outputs, each
    with the name its message gives it."""
    return [
        (f"input {slot} (operand {i})", facts.operands[i])
        for slot, i in enumerate(inputs)
        if slot not in subgraph_slots
    ] + [(f"output {slot} (operand {i})", facts.operands[i]) for slot, i in enumerate(outputs)]


def _graph_operands(k: int, graph: object, fields: tuple[str, ...]) -> list[tuple[str, object]]:
    """The inputs (``input_indexes``) or outputs (``output_indexes``) of referenced subgraph
    ``k``, each with the name its message gives it."""
    named = []
    for field in fields:
        side = field.removesuffix("_indexes")
        operands = _graph_io(graph, field) or []
        named += [(f"referenced[{k}] {side} {n}", o) for n, o in enumerate(operands)]
    return named


_BOTH = ("input_indexes", "output_indexes")


@_model_rule(
    "if.fully_specified",
    Tier.STRICT,
    "an IF's condition, values and outputs, and its branches' inputs and outputs, are "
    "fully specified (1.3; the HAL text: Android 11 does not check it)",
)
def _if_fully_specified(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, outputs in _control_flow(facts, _IF):
        named = _own_operands(facts, inputs, outputs, (1, 2))
        for _, k, graph in _branches(facts, inputs, (1, 2)):
            named += _graph_operands(k, graph, _BOTH)
        yield from _unspecified(facts.operation_label(j), named, "IF")


@_model_rule("while.counts", Tier.PARITY, "a WHILE has at least 3 inputs and 1 output (1.3)")
def _while_counts(facts: _ModelFacts) -> Iterator[str]:
    yield from _too_few(facts, _WHILE, "condition, body, a value")


@_model_rule(
    "while.refs",
    Tier.PARITY,
    "a WHILE's inputs 0 and 1 are SUBGRAPH operands naming referenced subgraphs (1.3)",
)
def _while_refs(facts: _ModelFacts) -> Iterator[str]:
    return _reference_problems(facts, _WHILE, (0, 1))


@_model_rule(
    "while.cond_signature",
    Tier.PARITY,
    "a WHILE's condition subgraph takes the WHILE's inputs less 2, each agreeing with "
    "WHILE input 2 + i, and returns one TENSOR_BOOL8 of dimensions [1] (1.3)",
)
def _while_cond_signature(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, _ in _control_flow(facts, _WHILE):
        label = facts.operation_label(j)
        for _, k, graph in _branches(facts, inputs, (0,)):
            ins, outs = _graph_io(graph, "input_indexes"), _graph_io(graph, "output_indexes")
            if ins is None or outs is None:
                continue
            if len(ins) != len(inputs) - 2:
                yield (
                    f"{label}: the condition referenced[{k}] has {len(ins)} inputs; the WHILE "
                    f"passes {len(inputs) - 2}"
                )
                continue
            if len(outs) != 1 or not _is_condition(outs[0]):
                found = ", ".join(_describe(o) for o in outs) or "nothing"
                yield (
                    f"{label}: the condition referenced[{k}] returns {found}; it must return "
                    "one TENSOR_BOOL8 of dimensions [1]"
                )
            pairs = [
                (
                    f"input {2 + i} (operand {inputs[2 + i]})",
                    facts.operands[inputs[2 + i]],
                    f"referenced[{k}] input {i}",
                    ins[i],
                )
                for i in range(len(ins))
            ]
            yield from _pairs_problems(label, iter(pairs))


@_model_rule(
    "while.body_signature",
    Tier.PARITY,
    "a WHILE's body takes the WHILE's inputs less 2 and returns at least the WHILE's "
    "outputs and at most its inputs; body input i agrees with WHILE input 2 + i, body "
    "output j with WHILE output j and with body input j (1.3)",
)
def _while_body_signature(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, outputs in _control_flow(facts, _WHILE):
        label = facts.operation_label(j)
        for _, k, graph in _branches(facts, inputs, (1,)):
            ins, outs = _graph_io(graph, "input_indexes"), _graph_io(graph, "output_indexes")
            if ins is None or outs is None:
                continue
            body = f"the body referenced[{k}]"
            if len(ins) != len(inputs) - 2:
                yield f"{label}: {body} has {len(ins)} inputs; the WHILE passes {len(inputs) - 2}"
                continue
            if not len(outputs) <= len(outs) <= len(ins):
                yield (
                    f"{label}: {body} has {len(outs)} outputs; it needs at least the WHILE's "
                    f"{len(outputs)} and at most its own {len(ins)} inputs"
                )
                continue
            pairs = (
                [
                    (
                        f"input {2 + i} (operand {inputs[2 + i]})",
                        facts.operands[inputs[2 + i]],
                        f"referenced[{k}] input {i}",
                        ins[i],
                    )
                    for i in range(len(ins))
                ]
                + [
                    (
                        f"output {i} (operand {outputs[i]})",
                        facts.operands[outputs[i]],
                        f"referenced[{k}] output {i}",
                        outs[i],
                    )
                    for i in range(len(outputs))
                ]
                + [
                    (f"referenced[{k}] output {i}", outs[i], f"referenced[{k}] input {i}", ins[i])
                    for i in range(len(outs))
                ]
            )
            yield from _pairs_problems(label, iter(pairs))


@_model_rule(
    "while.fully_specified",
    Tier.PARITY,
    "a WHILE's values and outputs, its condition's inputs and its body's inputs and outputs "
    "are fully specified (1.3; Android 11 checks it)",
)
def _while_fully_specified(facts: _ModelFacts) -> Iterator[str]:
    for j, inputs, outputs in _control_flow(facts, _WHILE):
        named = _own_operands(facts, inputs, outputs, (0, 1))
        for slot, k, graph in _branches(facts, inputs, (0, 1)):
            # the condition's inputs; the body's inputs and outputs
            named += _graph_operands(k, graph, ("input_indexes",) if slot == 0 else _BOTH)
        yield from _unspecified(facts.operation_label(j), named, "WHILE")
