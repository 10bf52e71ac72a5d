"""The parameter-space family of HAL 1.3's control flow: ``control`` (IF, WHILE). Its cases
are HAL 1.3 models (``Corner.level``) whose one main operation runs referenced subgraphs;
their values are TENSOR_FLOAT32 halves and TENSOR_INT32 counters, so every result is exact.

* IF: one to three values of one shape passed to the branches, one or two outputs; the
  condition a model input (drawn true or false) or a constant (true or false); the two
  branches different subgraphs (each output a drawn ADD, SUB or MUL of the branch's
  values and constants) or one subgraph for both; a branch may itself hold an IF (on a
  constant condition of its own) or a WHILE (a counted loop): nesting depth 2 or 3.
* WHILE: a counter (TENSOR_INT32 [1]) from a constant start to a limit, input-output or
  state-only; one or two float accumulators (input-output), a float state-only value
  now and then, whose own step the accumulators add (so a state-only value lost between
  iterations changes the result); the limit and a float step input-only values or
  constants of the condition and body; loop counts 0, 1 and more; the condition LESS or
  GREATER with its operands swapped; the body may hold an IF choosing by the counter (both
  branches taken over the iterations) or a WHILE of its own.

Classes are read back from the model alone (following its SUBGRAPH operands, whatever
order the referenced subgraphs come in) and, for the loop count, from the expected outputs
when the counter is one of them, or from the constants when the limit is one. Cases have
no twin of unknown dimensions (HAL 1.3 wants every control-flow operand fully specified)
and no signed twin (no quantized operand).

Expected outputs: ``conformance/specs/oracles/control_flow_oracle.py`` (its interpreter of
subgraphs, ``evaluate``, run on the oracle graph built beside the model).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import Corner, _classes, _family, oracle
from hal.tensors import read_constants
from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Subgraph,
    numpy_dtype,
)

T = OperandType
LT = OperandLifeTime
_ORACLE = "control_flow_oracle"
_OPERATIONS = ("IF", "WHILE")
_ARITHMETIC = ("ADD", "SUB", "MUL")
_CODES = {T.TENSOR_FLOAT32: "<f", T.TENSOR_INT32: "<i", T.TENSOR_BOOL8: "<B"}
BUDGET = 1000
"""Iterations the oracle allows a loop (the drawn ones run at most a few dozen)."""
MAX_COUNT = 4
"""Largest loop limit drawn (an outer loop times an inner one stays small)."""


class _Net:
    """The model being drawn: its referenced subgraphs and the constants they all share."""

    def __init__(self) -> None:
        self.values = bytearray()
        self.referenced: list[Subgraph] = []


class _Graph:
    """One subgraph being drawn (the main one or a referenced one), with the oracle's graph
    of the same operations beside it."""

    def __init__(self, net: _Net, name: str) -> None:
        self.net = net
        self.name = name
        self.operands: list[Operand] = []
        self.operations: list[Operation] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self.graph = oracle(_ORACLE).Graph([], [])

    def _add(self, type_: int, dims: Sequence[int], lifetime: int, location=None) -> int:
        operand = Operand(type_, list(dims), 0, 0.0, 0, lifetime, location or DataLocation())
        self.operands.append(operand)
        index = len(self.operands) - 1
        if type_ == T.TENSOR_INT32:
            self.graph.integers.add(self.key(index))
        return index

    def key(self, index: int) -> str:
        """The oracle's name of operand ``index``."""
        return f"{self.name}_{index}"

    def input(self, type_: int, dims: Sequence[int]) -> int:
        index = self._add(type_, dims, LT.SUBGRAPH_INPUT)
        self.inputs.append(index)
        self.graph.inputs.append(self.key(index))
        return index

    def constant(self, type_: int, dims: Sequence[int], values: Sequence) -> int:
        values_ = self.net.values
        while len(values_) % 4:
            values_.append(0)
        code = _CODES.get(type_)
        data = (
            struct.pack("<i", int(values[0]))
            if code is None
            else b"".join(struct.pack(code, v) for v in values)
        )
        location = DataLocation(0, len(values_), len(data))
        values_ += data
        index = self._add(type_, dims, LT.CONSTANT_COPY, location)
        if type_ in _CODES:
            self.graph.constants[self.key(index)] = list(values)
        return index

    def temporary(self, type_: int, dims: Sequence[int]) -> int:
        return self._add(type_, dims, LT.TEMPORARY_VARIABLE)

    def reference(self, sub: _Graph) -> int:
        """A SUBGRAPH operand naming ``sub`` (added to the model's referenced subgraphs)."""
        self.net.referenced.append(sub.finish())
        location = DataLocation(0, len(self.net.referenced) - 1, 0)
        return self._add(T.SUBGRAPH, [], LT.SUBGRAPH, location)

    def arithmetic(self, kind: str, a: int, b: int, out: int) -> None:
        act = self.constant(T.INT32, [], [0])
        self.operations.append(Operation(OperationType[kind], [a, b, act], [out]))
        self.graph.op(kind, [self.key(a), self.key(b)], [self.key(out)])

    def compare(self, kind: str, a: int, b: int) -> int:
        out = self.temporary(T.TENSOR_BOOL8, [1])
        self.operations.append(Operation(OperationType[kind], [a, b], [out]))
        self.graph.op(kind, [self.key(a), self.key(b)], [self.key(out)])
        return out

    def control(self, kind: str, inputs: list, outs: list[int], graphs: list) -> None:
        """An IF or WHILE: ``inputs`` are operand indexes, its SUBGRAPH operands among them
        standing for ``graphs`` (the oracle's) in order."""
        self.operations.append(Operation(OperationType[kind], list(inputs), list(outs)))
        named, subs = [], iter(graphs)
        for index in inputs:
            lifetime = self.operands[index].lifetime
            named.append(next(subs) if lifetime == LT.SUBGRAPH else self.key(index))
        self.graph.op(kind, named, [self.key(o) for o in outs])

    def output(self, index: int) -> None:
        self.operands[index].lifetime = LT.SUBGRAPH_OUTPUT
        self.outputs.append(index)
        self.graph.outputs.append(self.key(index))

    def _count_consumers(self) -> None:
        for operand in self.operands:
            operand.number_of_consumers = 0
        for operation in self.operations:
            for index in operation.inputs:
                self.operands[index].number_of_consumers += 1

    def finish(self) -> Subgraph:
        self._count_consumers()
        return Subgraph(self.operands, self.operations, self.inputs, self.outputs)

    def model(self) -> Model:
        self._count_consumers()
        return Model(
            operands=self.operands,
            operations=self.operations,
            input_indexes=self.inputs,
            output_indexes=self.outputs,
            operand_values=bytes(self.net.values),
            referenced=self.net.referenced,
        )


F32, I32 = T.TENSOR_FLOAT32, T.TENSOR_INT32


def _halves(draw, count: int, bound: int = 4) -> list[float]:
    return [
        v / 2
        for v in draw(st.lists(st.integers(-2 * bound, 2 * bound), min_size=count, max_size=count))
    ]


def _array(values: Sequence, shape: Sequence[int], dtype=np.float32) -> np.ndarray:
    return np.asarray(values, dtype).reshape(tuple(shape))


# Drawing: the blocks a branch or a body is made of -----------------------------------------


def _arithmetic_block(draw, g: _Graph, values: list[int], shape, outputs: int) -> list[int]:
    """``outputs`` new operands, each a drawn ADD, SUB or MUL of two of ``values`` or of one
    and a constant; MUL only by a constant of 0.5, 1 or 2 (the results stay halves)."""
    made = []
    for _ in range(outputs):
        kind = draw(st.sampled_from(_ARITHMETIC))
        a = values[draw(st.integers(0, len(values) - 1))]
        if kind == "MUL":
            factor = draw(st.sampled_from([0.5, 1.0, 2.0, -1.0]))
            b = g.constant(F32, [1], [factor])
        elif draw(st.booleans()):
            b = values[draw(st.integers(0, len(values) - 1))]
        else:
            b = g.constant(F32, [1], _halves(draw, 1))
        out = g.temporary(F32, shape)
        g.arithmetic(kind, a, b, out)
        made.append(out)
    return made


def _branch(draw, net: _Net, name: str, shape, inputs: int, outputs: int, depth: int) -> _Graph:
    """A branch of an IF: ``inputs`` float values in, ``outputs`` out; below ``depth`` 1 it
    may hold an IF or a WHILE of its own."""
    g = _Graph(net, name)
    values = [g.input(F32, shape) for _ in range(inputs)]
    nested = draw(st.sampled_from(["none", "if", "while"])) if depth > 1 else "none"
    if nested == "if":  # on a constant of its own (a loop's body computes its conditions)
        cond = g.constant(T.TENSOR_BOOL8, [1], [draw(st.booleans())])
        results = _if_operation(draw, g, net, f"{name}i", cond, values, shape, outputs, depth - 1)
    elif nested == "while":
        results = _while_in(draw, g, net, f"{name}w", values, shape, outputs, depth - 1)
    else:
        results = _arithmetic_block(draw, g, values, shape, outputs)
    for out in results:
        g.output(out)
    return g


def _if_operation(draw, g: _Graph, net: _Net, name, cond, values, shape, outputs, depth):
    """An IF in ``g`` on ``cond`` over ``values``: its ``outputs`` new operands."""
    then = _branch(draw, net, f"{name}t", shape, len(values), outputs, depth)
    same = draw(st.integers(0, 4)) == 0
    other = then if same else _branch(draw, net, f"{name}e", shape, len(values), outputs, depth)
    then_ref = g.reference(then)
    other_ref = then_ref if same else g.reference(other)
    outs = [g.temporary(F32, shape) for _ in range(outputs)]
    g.control("IF", [cond, then_ref, other_ref, *values], outs, [then.graph, other.graph])
    return outs


def _while_in(draw, g: _Graph, net: _Net, name, values, shape, outputs, depth) -> list[int]:
    """A counted loop in ``g`` adding a constant step to each of its first ``outputs``
    values a drawn number of times (0 to 3): its results."""
    count = draw(st.integers(0, 3))
    start = g.constant(I32, [1], [0])
    limit = g.constant(I32, [1], [count])
    carried = [values[k % len(values)] for k in range(outputs)]
    loop = _loop_graphs(
        draw,
        net,
        name,
        shape,
        outputs,
        counter_state=False,
        state=False,
        input_only_step=False,
        input_only_limit=True,
        depth=depth,
    )
    cond_ref, body_ref = g.reference(loop.cond), g.reference(loop.body)
    outs = [g.temporary(F32, shape) for _ in range(outputs)] + [g.temporary(I32, [1])]
    g.control("WHILE", [cond_ref, body_ref, *carried, start, limit], outs,
              [loop.cond.graph, loop.body.graph])  # fmt: skip
    return outs[:outputs]


class _Loop:
    def __init__(self, cond: _Graph, body: _Graph) -> None:
        self.cond, self.body = cond, body


def _loop_graphs(
    draw, net, name, shape, accumulators, *, counter_state, state, input_only_step,
    input_only_limit, depth,
) -> _Loop:  # fmt: skip
    """The condition and body of a counted loop. Values in order: the ``accumulators``
    (input-output), the counter (input-output, or state-only with ``counter_state``), a
    float state-only value with ``state``; then the input-only ones: the step (with
    ``input_only_step``) and the limit (with ``input_only_limit``)."""
    cond = _Graph(net, f"{name}c")
    body = _Graph(net, f"{name}b")
    for g in (cond, body):
        accs = [g.input(F32, shape) for _ in range(accumulators)]
        counter = g.input(I32, [1])
        extra = g.input(F32, shape) if state else None
        step = g.input(F32, shape) if input_only_step else None
        limit = g.input(I32, [1]) if input_only_limit else None
        if g is cond:
            if limit is None:
                limit = g.constant(I32, [1], [draw(st.integers(0, MAX_COUNT))])
            if draw(st.booleans()):
                go = g.compare("LESS", counter, limit)
            else:
                go = g.compare("GREATER", limit, counter)
            g.output(go)
            continue
        if step is None:  # of the values' shape: an IF in the body passes it to its branches
            step = g.constant(F32, shape, _halves(draw, int(np.prod(shape)), 2))
        one = g.constant(I32, [1], [1])
        nested = draw(st.sampled_from(["none", "if", "while"])) if depth > 1 else "none"
        new_accs = []
        for k, acc in enumerate(accs):
            out = g.temporary(F32, shape)
            if k == 0 and nested == "if":
                # by the counter: below a drawn bound add the step, from it subtract it
                bound = g.constant(I32, [1], [draw(st.integers(0, 2))])
                choose = g.compare("LESS", counter, bound)
                (picked,) = _if_operation(draw, g, net, f"{name}bi", choose, [acc, step],
                                          shape, 1, depth - 1)  # fmt: skip
                g.arithmetic("ADD", picked, g.constant(F32, [1], [0.0]), out)
            elif k == 0 and nested == "while":
                (inner,) = _while_in(draw, g, net, f"{name}bw", [acc], shape, 1, depth - 1)
                g.arithmetic("ADD", inner, step, out)
            else:
                g.arithmetic(draw(st.sampled_from(["ADD", "SUB"])), acc, step, out)
            if extra is not None:
                summed = g.temporary(F32, shape)
                g.arithmetic("ADD", out, extra, summed)
                out = summed
            new_accs.append(out)
        next_counter = g.temporary(I32, [1])
        g.arithmetic("ADD", counter, one, next_counter)
        for out in new_accs:
            g.output(out)
        g.output(next_counter)
        if extra is not None:
            next_extra = g.temporary(F32, shape)
            g.arithmetic("ADD", extra, g.constant(F32, [1], [0.5]), next_extra)
            g.output(next_extra)
    return _Loop(cond, body)


# Drawing: the cases -----------------------------------------------------------------------


def _shape(draw) -> tuple[int, ...]:
    rank = draw(st.integers(1, 2))
    return tuple(draw(st.integers(1, 3)) for _ in range(rank))


def _if(draw) -> Corner:
    flow = oracle(_ORACLE)
    net = _Net()
    main = _Graph(net, "m")
    shape = _shape(draw)
    size = int(np.prod(shape))
    condition = draw(st.sampled_from(["input", "constant"]))
    flag = draw(st.booleans())
    inputs, feeds = [], []
    if condition == "input":
        cond = main.input(T.TENSOR_BOOL8, [1])
        feeds.append(_array([flag], [1], numpy_dtype(T.TENSOR_BOOL8)))
        inputs.append([flag])
    else:
        cond = main.constant(T.TENSOR_BOOL8, [1], [flag])
    count = draw(st.integers(1, 3))
    values = []
    for _ in range(count):
        values.append(main.input(F32, shape))
        data = _halves(draw, size)
        feeds.append(_array(data, shape))
        inputs.append(data)
    outputs = draw(st.integers(1, 2))
    depth = draw(st.integers(1, 3))
    outs = _if_operation(draw, main, net, "b", cond, values, shape, outputs, depth)
    for out in outs:
        main.output(out)
    model = main.model()
    results = flow.evaluate(main.graph, inputs, flow.FLOAT, BUDGET)
    expected = [_array(r, shape) for r in results]
    parameters = {
        "shape": shape, "condition": f"{condition} {flag}", "values": count,
        "outputs": outputs, "depth": depth,
    }  # fmt: skip
    return _corner("IF", model, feeds, expected, parameters)


def _while(draw) -> Corner:
    flow = oracle(_ORACLE)
    net = _Net()
    main = _Graph(net, "m")
    shape = _shape(draw)
    size = int(np.prod(shape))
    accumulators = draw(st.integers(1, 2))
    counter_state = draw(st.booleans())
    state = draw(st.booleans())
    input_only_step = draw(st.booleans())
    input_only_limit = draw(st.booleans())
    depth = draw(st.integers(1, 3))
    loop = _loop_graphs(
        draw, net, "w", shape, accumulators, counter_state=counter_state, state=state,
        input_only_step=input_only_step, input_only_limit=input_only_limit, depth=depth,
    )  # fmt: skip
    feeds, inputs, operands = [], [], []
    for _ in range(accumulators):
        operands.append(main.input(F32, shape))
        data = _halves(draw, size)
        feeds.append(_array(data, shape))
        inputs.append(data)
    start = draw(st.integers(0, 1))
    operands.append(main.constant(I32, [1], [start]))
    if state:
        operands.append(main.constant(F32, shape, _halves(draw, size, 2)))
    if input_only_step:
        operands.append(main.input(F32, shape))
        data = _halves(draw, size, 2)
        feeds.append(_array(data, shape))
        inputs.append(data)
    if input_only_limit:
        operands.append(main.input(I32, [1]))
        limit = draw(st.integers(0, MAX_COUNT))
        feeds.append(_array([limit], [1], np.int32))
        inputs.append([limit])
    cond_ref, body_ref = main.reference(loop.cond), main.reference(loop.body)
    carried = accumulators + (0 if counter_state else 1)
    outs = [main.temporary(F32, shape) for _ in range(accumulators)]
    if not counter_state:
        outs.append(main.temporary(I32, [1]))
    main.control("WHILE", [cond_ref, body_ref, *operands], outs, [loop.cond.graph, loop.body.graph])
    for out in outs[:carried]:
        main.output(out)
    model = main.model()
    results = flow.evaluate(main.graph, inputs, flow.FLOAT, BUDGET)
    expected = [_array(r, shape) for r in results[:accumulators]]
    if not counter_state:
        expected.append(_array(results[accumulators], [1], np.int32))
    parameters = {
        "shape": shape, "accumulators": accumulators,
        "counter": "state-only" if counter_state else "input-output", "state-only value": state,
        "step": "input-only" if input_only_step else "constant",
        "limit": "input-only" if input_only_limit else "constant", "start": start,
        "depth": depth,
    }  # fmt: skip
    return _corner("WHILE", model, feeds, expected, parameters)


def _corner(operation, model, inputs, outputs, parameters) -> Corner:
    return Corner(
        "control", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        _ORACLE, dynamic=False, level="V1_3",
    )  # fmt: skip


_DRAW = {"IF": _if, "WHILE": _while}


# Classes read back from a model ---------------------------------------------------------


def _sub(model: Model, graph, index: int):
    """The subgraph a SUBGRAPH operand of ``graph`` names."""
    return model.referenced[graph.operands[index].location.offset]


def _depth(model: Model, graph, seen: frozenset = frozenset()) -> int:
    """How deep control flow goes from ``graph`` (1: an IF or WHILE whose subgraphs hold
    none)."""
    deepest = 0
    for operation in graph.operations:
        if operation.type not in (OperationType.IF, OperationType.WHILE):
            continue
        below = 0
        for index in operation.inputs:
            if graph.operands[index].lifetime == LT.SUBGRAPH:
                k = graph.operands[index].location.offset
                if k not in seen:
                    below = max(below, _depth(model, model.referenced[k], seen | {k}))
        deepest = max(deepest, 1 + below)
    return deepest


def _nested(graphs) -> list[str]:
    kinds = {o.type for g in graphs for o in g.operations}
    found = []
    if OperationType.IF in kinds:
        found.append("nesting:if-inside")
    if OperationType.WHILE in kinds:
        found.append("nesting:while-inside")
    return found


def _classify(model: Model, operation, constants, name: str) -> list[str]:
    depth = _depth(model, model)
    classes = [f"nesting:depth-{min(depth, 3)}"]
    if len(operation.outputs) > 1:
        classes.append("outputs:several")
    if name == "IF":
        cond = operation.inputs[0]
        if model.operands[cond].lifetime == LT.SUBGRAPH_INPUT:
            classes.append("condition:input")
        elif cond in constants:
            flag = bool(constants[cond].reshape(-1)[0])
            classes.append(f"condition:constant-{'true' if flag else 'false'}")
        then, other = (model.operands[i].location.offset for i in operation.inputs[1:3])
        classes.append("branches:same-subgraph" if then == other else "branches:differ")
        if len(operation.inputs) > 4:
            classes.append("values:several")
        branches = [_sub(model, model, i) for i in operation.inputs[1:3]]
        return classes + _nested(branches)
    cond, body = (_sub(model, model, i) for i in operation.inputs[:2])
    m = len(operation.outputs)
    k = len(body.output_indexes) - m
    n = len(body.input_indexes) - m - k
    if k:
        classes.append("values:state-only")
    if n:
        classes.append("values:input-only")
    if not k and not n:
        classes.append("values:input-output-only")
    counter = _counter_position(body)
    if counter is not None:
        classes.append("counter:state-only" if counter >= m else "counter:input-output")
    limit = _constant_limit(model, cond)
    start = _start(model, operation, constants, counter)
    if limit is not None and start is not None:
        classes.append(_loop_class(max(0, limit - start)))
    return classes + _nested([body])


def _counter_position(body) -> int | None:
    """The position among the body's carried values of its TENSOR_INT32 one (the counter)."""
    carried = body.input_indexes[: len(body.output_indexes)]
    for position, index in enumerate(carried):
        if body.operands[index].type == T.TENSOR_INT32:
            return position
    return None


def _constant_limit(model: Model, cond) -> int | None:
    """The loop's limit when the condition compares the counter with a constant of its own."""
    constants = read_constants(model, cond)
    for operation in cond.operations:
        for index in operation.inputs:
            if index in constants and cond.operands[index].type == T.TENSOR_INT32:
                return int(constants[index].reshape(-1)[0])
    return None


def _start(model: Model, operation, constants, counter: int | None) -> int | None:
    if counter is None:
        return None
    index = operation.inputs[2 + counter]
    return int(constants[index].reshape(-1)[0]) if index in constants else None


def _loop_class(count: int) -> str:
    return "loop:zero" if count == 0 else "loop:one" if count == 1 else "loop:many"


def _result(model: Model, name: str, outputs) -> list[str]:
    """A WHILE whose counter is an output: how many times it ran (its final counter less
    its constant start)."""
    if name != "WHILE":
        return []
    (operation,) = model.operations
    body = _sub(model, model, operation.inputs[1])
    counter = _counter_position(body)
    if counter is None or counter >= len(operation.outputs) or counter >= len(outputs):
        return []
    start = _start(model, operation, read_constants(model), counter)
    if start is None:
        return []
    return [_loop_class(max(0, int(np.asarray(outputs[counter]).reshape(-1)[0]) - start))]


_CLASSES = (
    "nesting:depth-1", "nesting:depth-2", "nesting:depth-3", "nesting:if-inside",
    "nesting:while-inside", "outputs:several", "condition:input", "condition:constant-true",
    "condition:constant-false", "branches:same-subgraph", "branches:differ", "values:several",
    "values:state-only", "values:input-only", "values:input-output-only",
    "counter:state-only", "counter:input-output", "loop:zero", "loop:one", "loop:many",
)  # fmt: skip


@_family(
    "control",
    operations=_OPERATIONS,
    classes=_CLASSES,
    classify=_classify,
    results=_result,
    results_of=("WHILE",),
)
@st.composite
def control(draw, operation: str | None = None) -> Corner:
    """IF and WHILE over drawn subgraphs (see the module's docstring)."""
    operation = operation or draw(st.sampled_from(_OPERATIONS))
    return _DRAW[operation](draw)
