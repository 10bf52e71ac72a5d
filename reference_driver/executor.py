"""Plan a model once at prepare time, then run it for each request.

The plan holds the operations in order with their implementations, and every
constant decoded to a numpy array. A run reads the inputs out of the request's
pools, computes each operation's output shapes then values, and writes the
outputs back, reporting OUTPUT_INSUFFICIENT_SIZE (with every output's shape)
when an output location is too short.

Bounded resources (``Budgets``): before an operation runs, its output shapes are
computed and checked against the model's declared dimensions, then its outputs'
bytes, the temporaries its family's ``cost`` estimates, and the values the run
already holds are checked against the memory budget, and its estimated work,
added to what the run has spent, against the work budget. Over either budget the
operation never starts: ``OverBudget``, GENERAL_FAILURE (a valid model this device
cannot run). At prepare time the same checks run over every operation whose
inputs the constants and the fully specified dimensions already decide
(placeholders without memory stand for the non-constant tensors), so a model
that can never fit fails preparation with GENERAL_FAILURE.

Control flow (HAL 1.3's IF and WHILE): every referenced subgraph is planned once, at
prepare time, like the main one (its constants decoded, its steps and releases
worked out, its SUBGRAPH operands resolved to the subgraphs they name), and an IF or
WHILE step calls the subgraphs it names with the values of the run: an IF runs only
the branch its condition (one TENSOR_BOOL8 byte, non-zero: true) picks, a WHILE
evaluates its condition, then its body while the condition holds, the body's m + k
outputs becoming the next iteration's m input-output and k state-only values, the n
input-only values passed unchanged to every evaluation. Each WHILE has its own loop
budget (``loop_timeout_ns``), counted from just before its first condition
evaluation; after an evaluation that yields true, a budget exceeded aborts the
execution with MISSED_DEADLINE_TRANSIENT before the body runs, as Android 11's CPU
executor does, so an overrunning loop stops at most one condition evaluation and one
body run late. The deadline is checked before every operation of every subgraph.
A run's budgets cover its subgraphs: every iteration's work is added to the run's
(with ``PYTHON_STEP`` for the iteration itself), a finished iteration's values are
released, so a loop cannot grow the memory held, and one that would exceed the work
budget ends as ``OverBudget`` (GENERAL_FAILURE) instead of running on. The shape of a
control-flow output is the one its subgraph computed, checked against the operand's
declared dimensions (an unknown size there, which the ``if.fully_specified`` and
``while.fully_specified`` rules refuse, takes the computed size).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from hal import tensors
from hal.memory import Mapping, MemoryError_, open_memory
from hal.types import (
    ErrorStatus,
    LoopTimeoutDurationNs,
    Model,
    OperandLifeTime,
    OperationType,
    OutputShape,
    Request,
    Subgraph,
    numpy_dtype,
)
from hal.validation import referenced_index
from reference_driver.ops import (
    Cost,
    OpArgs,
    OperationImpl,
    OpFailure,
    OpInvalid,
    OverBudget,
    cost_of,
    default_cost,
    implementation,
)
from reference_driver.ops.base import PYTHON_STEP

if TYPE_CHECKING:
    from reference_driver.buffers import Binding, ReferenceBuffer


LOG = logging.getLogger("reference_driver")

DEFAULT_MEMORY_BUDGET = 1 << 30
"""Bytes one execution may hold at once: inputs read, temporaries, outputs (1 GiB)."""
DEFAULT_WORK_BUDGET = 1 << 31
"""Elementary steps one execution may spend over all its operations (about 2.1e9:
seconds of numpy on one core)."""


@dataclass(frozen=True)
class Budgets:
    """What one execution may spend (``ReferenceDriver(memory_budget=, work_budget=)``)."""

    memory: int = DEFAULT_MEMORY_BUDGET
    work: int = DEFAULT_WORK_BUDGET

    def __post_init__(self) -> None:
        for name in ("memory", "work"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"{name} budget {value!r} must be a positive int")


class _Spending:
    """One run's (or the prepare-time check's) running totals."""

    def __init__(self, budgets: Budgets) -> None:
        self.budgets = budgets
        self.held = 0
        """Bytes of the values the run holds (inputs read, temporaries, outputs)."""
        self.work = 0

    def hold(self, nbytes: int, what: str) -> None:
        if self.held + nbytes > self.budgets.memory:
            raise OverBudget(
                f"{what} needs {nbytes} bytes with {self.held} already held: over the "
                f"memory budget of {self.budgets.memory} bytes"
            )
        self.held += nbytes

    def spend(self, cost: Cost, outputs: int, what: str) -> None:
        """Admit an operation that allocates ``outputs`` bytes and costs ``cost``."""
        need = outputs + max(0, int(cost.scratch))
        if self.held + need > self.budgets.memory:
            raise OverBudget(
                f"{what} needs {outputs} bytes of outputs and {cost.scratch} of temporaries "
                f"with {self.held} already held: over the memory budget of "
                f"{self.budgets.memory} bytes"
            )
        self._check_steps(cost, what)
        self.held += outputs
        self.work += max(0, int(cost.work))

    def check_work(self, cost: Cost, what: str) -> None:
        """Before ``prepare`` (which may itself do the work, as NMS does): the work and
        temporaries the inputs alone already imply."""
        if self.held + max(0, int(cost.scratch)) > self.budgets.memory:
            raise OverBudget(
                f"{what} needs {cost.scratch} bytes of temporaries with {self.held} already "
                f"held: over the memory budget of {self.budgets.memory} bytes"
            )
        self._check_steps(cost, what)

    def _check_steps(self, cost: Cost, what: str) -> None:
        if self.work + max(0, int(cost.work)) > self.budgets.work:
            raise OverBudget(
                f"{what} needs {cost.work} steps with {self.work} already spent: over the "
                f"work budget of {self.budgets.work}"
            )


PREMAPPED: ContextVar[dict[int, Mapping] | None] = ContextVar("premapped", default=None)
"""Mappings a caller keeps between executions, by ``id()`` of their Memory (a burst's
memory cache sets this around each execution); ``Plan.run`` uses them instead of
mapping those pools again, and leaves them open."""


class PlanError(Exception):
    """The model cannot be prepared (GENERAL_FAILURE through the callback)."""


class PlanInvalid(PlanError):
    """An operation's parameter values are invalid (INVALID_ARGUMENT at launch)."""


class MissedDeadline(Exception):
    """The run passed its deadline, or a WHILE its loop budget: MISSED_DEADLINE_TRANSIENT."""


CONTROL_FLOW = frozenset({OperationType.IF, OperationType.WHILE})
"""The operations that call referenced subgraphs; the executor runs them itself."""
REFERENCE_SLOTS = {OperationType.IF: (1, 2), OperationType.WHILE: (0, 1)}
"""The input slots of each control-flow operation that name a referenced subgraph: IF's
then and else branches, WHILE's condition and body."""
MAX_NESTING = 32
"""The longest chain of subgraph calls a plan accepts (an IF or WHILE of the main subgraph
calling a subgraph is one level): each level is a few Python frames of the run, and a
deeper model is one this device cannot run (GENERAL_FAILURE at preparation)."""


def _control_flow_marker(op_type: OperationType) -> OperationImpl:
    """What an IF or WHILE step holds as its ``impl``: the operation's type, for code that
    reads ``step.impl.type``. The executor runs these steps itself (``Plan._control``):
    nothing calls these functions but by mistake, and then they refuse."""

    def refuse(*_: object) -> list:
        raise OpFailure(f"{op_type.name} runs its subgraphs through the executor")

    return OperationImpl(op_type, lambda args: True, lambda args: None, refuse, refuse)


CONTROL_FLOW_IMPLS = {op: _control_flow_marker(op) for op in sorted(CONTROL_FLOW)}


@dataclass(frozen=True)
class _Step:
    impl: OperationImpl
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    release: tuple[int, ...] = ()
    """Temporaries no later step reads (and no model output): dropped once this step ran."""
    graphs: tuple[int, ...] = ()
    """An IF's or WHILE's referenced subgraphs (then and else; condition and body), by
    index into ``Model.referenced``; empty for every other operation."""


@dataclass
class _Graph:
    """One planned subgraph: the main one, or a referenced one seen as a model of its own
    (``subgraph_model``), its constants decoded once and its steps in order."""

    model: Model
    constants: dict[int, np.ndarray]
    steps: list[_Step]
    where: str
    """``main`` or ``referenced[k]``: how messages name it."""

    def label(self, position: int) -> str:
        prefix = "" if self.where == "main" else f"{self.where} "
        return f"{prefix}operation {position}"


@dataclass
class _Run:
    """What one execution carries into every subgraph it runs."""

    spending: _Spending
    deadline_ns: int | None
    loop_timeout_ns: int


@dataclass
class RunResult:
    status: ErrorStatus
    output_shapes: list[OutputShape]


def operation_args(
    model: Model, inputs: tuple[int, ...], outputs: tuple[int, ...], values: dict[int, np.ndarray]
) -> OpArgs:
    return OpArgs(
        [model.operands[i] for i in inputs],
        [model.operands[i] for i in outputs],
        [values.get(i) for i in inputs],
    )


def read_constants(model: Model) -> dict[int, np.ndarray]:
    """Every CONSTANT_COPY and CONSTANT_REFERENCE operand, decoded (``hal.tensors``); a
    pool that cannot give them is a PlanError."""
    try:
        return tensors.read_constants(model)
    except MemoryError_ as e:
        raise PlanError(f"constant pool cannot be read: {e}") from None


def subgraph_model(model: Model, graph: Subgraph) -> Model:
    """A referenced subgraph as a model of its own: its operands, operations, inputs and
    outputs, with ``model``'s constant values, pools, relaxation, extension prefixes and
    referenced subgraphs (which its own SUBGRAPH operands name)."""
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


def subgraph_calls(model: Model, graph: Model | Subgraph) -> list[int]:
    """The referenced subgraphs ``graph``'s IF and WHILE operations name, in order, each
    once."""
    found: dict[int, None] = {}
    for operation in graph.operations:
        for slot in REFERENCE_SLOTS.get(operation.type, ()):
            if slot < len(operation.inputs) and 0 <= operation.inputs[slot] < len(graph.operands):
                k = referenced_index(model, graph.operands[operation.inputs[slot]])
                if k is not None:
                    found[k] = None
    return list(found)


def call_order(model: Model) -> list[int] | None:
    """The referenced subgraphs the main subgraph reaches, each after every subgraph it
    calls; None when following the references from the main subgraph comes back to a
    subgraph on the way (a cycle: ``model.no_reference_cycles``). Iterative, so a long
    chain of references cannot exhaust Python's stack."""
    calls = [subgraph_calls(model, graph) for graph in model.referenced]
    order: list[int] = []
    state: dict[int, bool] = {}  # False: on the current path; True: done
    stack: list[tuple[int | None, Iterator[int]]] = [(None, iter(subgraph_calls(model, model)))]
    while stack:
        node, callees = stack[-1]
        callee = next(callees, None)
        if callee is None:
            stack.pop()
            if node is not None:
                state[node] = True
                order.append(node)
            continue
        if callee in state:
            if not state[callee]:
                return None
            continue
        state[callee] = False
        stack.append((callee, iter(calls[callee])))
    return order


def _robust(estimate: Callable[[OpArgs, list | None], Cost]):
    """``estimate``, falling back to ``default_cost`` (and logging) if it raises anything
    but an OpFailure: a bug in an estimate must not turn a valid execution into a failure."""

    def cost(args: OpArgs, shapes: list | None) -> Cost:
        try:
            return estimate(args, shapes)
        except OpFailure:
            return default_cost(args, shapes)
        except Exception:
            LOG.exception("a cost estimate raised; using the default estimate")
            return default_cost(args, shapes)

    return cost


def _with_releases(steps: list[_Step], model: Model) -> list[_Step]:
    """``steps`` with each temporary released after its last reader (or its writer, when
    nothing reads it), so a run holds only the intermediates still needed."""
    keep = set(model.output_indexes)
    last: dict[int, int] = {}
    for position, step in enumerate(steps):
        for index in step.outputs:
            if index not in keep:
                last[index] = position
    for position, step in enumerate(steps):
        for index in step.inputs:
            if index in last:
                last[index] = max(last[index], position)
    released: dict[int, list[int]] = {}
    for index, position in last.items():
        released.setdefault(position, []).append(index)
    return [
        dataclasses.replace(step, release=tuple(sorted(released.get(position, ()))))
        for position, step in enumerate(steps)
    ]


def _truth(condition: np.ndarray) -> bool:
    """A TENSOR_BOOL8 condition's value: its one byte, non-zero is true."""
    return bool(np.asarray(condition).reshape(-1)[0] != 0)


class Plan:
    """A prepared model's executable form: the main subgraph's plan (``main``, whose
    ``steps`` and ``constants`` are the plan's own) and one per referenced subgraph the
    main one reaches (``referenced``, by index; None for a subgraph nothing calls)."""

    def __init__(self, model: Model, budgets: Budgets | None = None) -> None:
        self.model = model
        self.budgets = budgets or Budgets()
        order = call_order(model)
        if order is None:
            raise PlanError(
                "following the subgraph references from the main subgraph comes back to a "
                "subgraph on the way (a reference cycle)"
            )
        self.referenced: list[_Graph | None] = [None] * len(model.referenced)
        height: dict[int, int] = {}
        for k in order:
            view = subgraph_model(model, model.referenced[k])
            height[k] = 1 + max((height[c] for c in subgraph_calls(model, view)), default=0)
            self.referenced[k] = self._plan_graph(view, f"referenced[{k}]")
        depth = max((height[c] for c in subgraph_calls(model, model)), default=0)
        if depth > MAX_NESTING:
            raise PlanError(
                f"control flow nests {depth} subgraph calls deep; this device runs at most "
                f"{MAX_NESTING}"
            )
        self.main = self._plan_graph(model, "main")
        for graph in (self.main, *self.referenced):
            if graph is not None:
                self._check_known_costs(graph)

    @property
    def constants(self) -> dict[int, np.ndarray]:
        """The main subgraph's constants, decoded."""
        return self.main.constants

    @property
    def steps(self) -> list[_Step]:
        """The main subgraph's steps (a test driver may replace them)."""
        return self.main.steps

    @steps.setter
    def steps(self, steps: list[_Step]) -> None:
        self.main.steps = steps

    def _plan_graph(self, view: Model, where: str) -> _Graph:
        graph = _Graph(view, read_constants(view), [], where)
        steps: list[_Step] = []
        for position, operation in enumerate(view.operations):
            if operation.type in CONTROL_FLOW:
                steps.append(self._control_step(graph, position, operation))
                continue
            impl = implementation(view, operation.type)
            if impl is None:
                raise PlanError(f"{graph.label(position)} (type {operation.type}) is not supported")
            step = _Step(impl, tuple(operation.inputs), tuple(operation.outputs))
            try:
                reason = impl.validate(
                    operation_args(view, step.inputs, step.outputs, graph.constants)
                )
            except OpFailure as error:
                reason = str(error)
            if reason is not None:
                raise PlanInvalid(f"{graph.label(position)} ({impl.type.name}): {reason}")
            steps.append(step)
        graph.steps = _with_releases(steps, view)
        return graph

    def _control_step(self, graph: _Graph, position: int, operation) -> _Step:
        """An IF or WHILE step, its subgraph references resolved, refused (PlanError) when
        the subgraphs cannot be called with its operands (the ``if.*`` and ``while.*``
        rules refuse such models first, unless a test driver disabled them)."""
        kind = OperationType(operation.type)
        what = f"{graph.label(position)} ({kind.name})"
        inputs, outputs = tuple(operation.inputs), tuple(operation.outputs)
        if len(inputs) < 3 or not outputs:
            raise PlanError(f"{what} has {len(inputs)} inputs and {len(outputs)} outputs")
        refs = []
        for slot in REFERENCE_SLOTS[kind]:
            k = referenced_index(self.model, graph.model.operands[inputs[slot]])
            if k is None:
                raise PlanError(f"{what}: input {slot} names no referenced subgraph")
            refs.append(k)
        first, second = (self.model.referenced[k] for k in refs)
        if kind == OperationType.IF:
            if graph.model.operands[inputs[0]].lifetime == OperandLifeTime.NO_VALUE:
                raise PlanError(f"{what}: the condition (input 0) has no value")
            for name, branch in (("then", first), ("else", second)):
                if (len(branch.input_indexes), len(branch.output_indexes)) != (
                    len(inputs) - 3,
                    len(outputs),
                ):
                    raise PlanError(
                        f"{what}: the {name} branch has {len(branch.input_indexes)} inputs and "
                        f"{len(branch.output_indexes)} outputs for {len(inputs) - 3} and "
                        f"{len(outputs)}"
                    )
        else:
            carried = len(inputs) - 2
            if (
                len(first.input_indexes) != carried
                or len(first.output_indexes) != 1
                or len(second.input_indexes) != carried
                or not len(outputs) <= len(second.output_indexes) <= carried
            ):
                raise PlanError(
                    f"{what}: its condition ({len(first.input_indexes)} inputs, "
                    f"{len(first.output_indexes)} outputs) and body "
                    f"({len(second.input_indexes)} inputs, {len(second.output_indexes)} "
                    f"outputs) do not fit its {carried} values and {len(outputs)} outputs"
                )
        return _Step(CONTROL_FLOW_IMPLS[kind], inputs, outputs, graphs=tuple(refs))

    def _dtype(self, operand) -> np.dtype:
        """The operand's element dtype (extension types through the model's prefixes)."""
        return numpy_dtype(operand.type, self.model.extension_name_to_prefix)

    def _output_bytes(self, graph: _Graph, step: _Step, shapes: list[tuple[int, ...]]) -> int:
        total = 0
        for index, shape in zip(step.outputs, shapes, strict=True):
            operand = graph.model.operands[index]
            total += math.prod(shape) * self._dtype(operand).itemsize
        return total

    def _admit(
        self, graph: _Graph, position: int, step: _Step, args: OpArgs, spending: _Spending
    ) -> list[tuple[int, ...]]:
        """The step's output shapes, once they, its outputs and its cost fit the budgets."""
        what = f"{graph.label(position)} ({step.impl.type.name})"
        estimate = _robust(cost_of(step.impl.type))
        spending.check_work(estimate(args, None), what)
        shapes = [tuple(shape) for shape in step.impl.prepare(args)]
        if len(shapes) != len(step.outputs) or any(
            not all(isinstance(d, int | np.integer) and d >= 0 for d in shape) for shape in shapes
        ):
            raise OpFailure(f"{what} computed output shapes {shapes}")
        shapes = [tuple(int(d) for d in shape) for shape in shapes]
        for index, shape in zip(step.outputs, shapes, strict=True):
            self._check_declared_shape(graph, index, shape)
        spending.spend(estimate(args, shapes), self._output_bytes(graph, step, shapes), what)
        return shapes

    def _check_known_costs(self, graph: _Graph) -> None:
        """The budgets over what the constants and the declared dimensions decide.

        Non-constant tensors with fully specified dimensions are stood for by
        zero-filled read-only placeholders that take no memory; an operation with
        an input of unknown dimensions (or a non-constant scalar) is skipped, and
        so is everything computed from it, and so is an IF or WHILE (what it holds
        is its subgraphs', each checked on its own). Only ``OverBudget`` counts here
        (as a ``PlanError``: GENERAL_FAILURE); any other complaint is the
        execution's to make with the real values.
        """
        model = graph.model
        known: dict[int, np.ndarray] = dict(graph.constants)
        spending = _Spending(self.budgets)
        prefix = "model" if graph.where == "main" else graph.where
        for index in model.input_indexes:
            placeholder = self._placeholder(graph, index, model.operands[index].dimensions)
            if placeholder is not None:
                try:
                    spending.hold(
                        placeholder.size * placeholder.itemsize, f"{prefix} input operand {index}"
                    )
                except OverBudget as error:
                    raise PlanError(str(error)) from None
                known[index] = placeholder
        omitted = {
            i
            for i, operand in enumerate(model.operands)
            if operand.lifetime == OperandLifeTime.NO_VALUE
        }
        for position, step in enumerate(graph.steps):
            if step.graphs or not all(i in known or i in omitted for i in step.inputs):
                continue
            args = operation_args(model, step.inputs, step.outputs, known)
            try:
                shapes = self._admit(graph, position, step, args, spending)
            except OverBudget as error:
                raise PlanError(str(error)) from None
            except Exception:
                continue  # judged with the real values at execution
            for index, shape in zip(step.outputs, shapes, strict=True):
                placeholder = self._placeholder(graph, index, list(shape))
                if placeholder is not None:
                    known[index] = placeholder

    def _placeholder(self, graph: _Graph, index: int, dims: list[int]) -> np.ndarray | None:
        operand = graph.model.operands[index]
        if not dims or 0 in dims:
            return None  # a scalar (its value matters) or dimensions not known yet
        zero = np.zeros((), dtype=self._dtype(operand))
        return np.broadcast_to(zero, tuple(dims))

    def run(
        self,
        request: Request,
        binding: Binding | None = None,
        deadline_ns: int | None = None,
        loop_timeout_ns: int = int(LoopTimeoutDurationNs.DEFAULT),
    ) -> RunResult:
        """Execute ``request`` (already validated against the model).

        ``binding`` holds the driver-managed buffers the request's token pools name.
        ``deadline_ns`` (a ``time.monotonic_ns()`` time, None: none) is checked before
        every operation of every subgraph, as Android 11's CPU executor does: once it
        has passed, the run stops with MISSED_DEADLINE_TRANSIENT and writes no output.
        ``loop_timeout_ns`` is the budget of each WHILE operation (``_run_while``).
        """
        mappings: list[Mapping | None] = []
        owned: list[Mapping] = []
        buffers = binding.buffers if binding is not None else {}
        premapped = PREMAPPED.get() or {}
        try:
            for index, pool in enumerate(request.pools):
                if index in buffers:
                    mappings.append(None)
                elif id(pool) in premapped:
                    mappings.append(premapped[id(pool)])
                else:
                    owned.append(open_memory(pool))
                    mappings.append(owned[-1])
            values = dict(self.constants)
            context = _Run(_Spending(self.budgets), deadline_ns, int(loop_timeout_ns))
            self._read_inputs(request, mappings, values, binding, context.spending)
            self._run_graph(self.main, values, context)
            return self._write_outputs(request, mappings, values, buffers)
        except MissedDeadline as error:
            LOG.debug("execution stopped: %s", error)
            return RunResult(ErrorStatus.MISSED_DEADLINE_TRANSIENT, [])
        except OpInvalid as error:
            LOG.debug("execution refused: %s", error)
            return RunResult(ErrorStatus.INVALID_ARGUMENT, [])
        except (OpFailure, MemoryError_) as error:
            LOG.debug("execution failed: %s", error)
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        except Exception:
            # Last resort: an operation raised something it should not (numpy's
            # MemoryError, a ValueError, a RecursionError): a failed execution, never
            # an exception.
            LOG.exception("execution failed with an unexpected exception")
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        finally:
            for mapping in owned:
                mapping.close()

    def _run_graph(self, graph: _Graph, values: dict[int, np.ndarray], context: _Run) -> None:
        """Run ``graph``'s steps over ``values`` (its constants and inputs), leaving its
        outputs there; each temporary is dropped after its last reader."""
        spending = context.spending
        for position, step in enumerate(graph.steps):
            if context.deadline_ns is not None and time.monotonic_ns() >= context.deadline_ns:
                raise MissedDeadline(f"the deadline passed before {graph.label(position)}")
            if step.graphs:
                results = self._control(graph, position, step, values, context)
                for index, result in zip(step.outputs, results, strict=True):
                    values[index] = result
            else:
                args = operation_args(graph.model, step.inputs, step.outputs, values)
                shapes = self._admit(graph, position, step, args, spending)
                results = step.impl.execute(args, shapes)
                if len(results) != len(shapes):
                    raise OpFailure(f"{graph.label(position)} made {len(results)} outputs")
                for index, shape, result in zip(step.outputs, shapes, results, strict=True):
                    values[index] = result.reshape(shape)
            for index in step.release:
                spending.held -= values.pop(index).nbytes

    # -- control flow ----------------------------------------------------------------

    def _control(
        self,
        graph: _Graph,
        position: int,
        step: _Step,
        values: dict[int, np.ndarray],
        context: _Run,
    ) -> list[np.ndarray]:
        """An IF's or WHILE's outputs, each checked against its operand's declared
        dimensions (the size a subgraph computed stands where one is unknown)."""
        what = f"{graph.label(position)} ({step.impl.type.name})"
        if step.impl.type == OperationType.IF:
            results = self._run_if(what, step, values, context)
        else:
            results = self._run_while(what, step, values, context)
        if len(results) != len(step.outputs):
            raise OpFailure(f"{what} made {len(results)} outputs for {len(step.outputs)}")
        for index, result in zip(step.outputs, results, strict=True):
            if result is None:
                raise OpFailure(f"{what}: output operand {index} has no value")
            self._check_declared_shape(graph, index, result.shape)
        return results

    def _call(self, k: int, inputs: list[np.ndarray | None], context: _Run) -> list[np.ndarray]:
        """Run referenced subgraph ``k`` on ``inputs`` (in its input order; None: no value)
        and return its outputs. What it computes counts in the run's budgets; its
        temporaries are dropped as it goes, its outputs stay held."""
        graph = self.referenced[k]
        if graph is None:
            raise OpFailure(f"referenced[{k}] was not planned")
        values = dict(graph.constants)
        for index, value in zip(graph.model.input_indexes, inputs, strict=True):
            if value is not None:
                self._check_declared_shape(graph, index, value.shape)
                values[index] = value
        self._run_graph(graph, values, context)
        return [values[i] for i in graph.model.output_indexes]

    def _branch(self, condition: bool, then: int, else_: int) -> int:
        """The branch an IF whose condition is ``condition`` runs."""
        return then if condition else else_

    def _run_if(
        self, what: str, step: _Step, values: dict[int, np.ndarray], context: _Run
    ) -> list[np.ndarray]:
        """Run the branch the condition (input 0) chooses, only that one, on inputs 3...;
        its outputs are the IF's."""
        condition = values.get(step.inputs[0])
        if condition is None or condition.size != 1:
            held = "no value" if condition is None else f"{condition.size} values"
            raise OpFailure(f"{what}: the condition (input 0) has {held}; it needs one")
        branch = self._branch(_truth(condition), *step.graphs)
        return self._call(branch, [values.get(i) for i in step.inputs[3:]], context)

    def _loop_timed_out(self, elapsed_ns: int, budget_ns: int) -> bool:
        """Whether a WHILE that has run ``elapsed_ns`` stops (strictly over its budget)."""
        return elapsed_ns > budget_ns

    def _run_while(
        self, what: str, step: _Step, values: dict[int, np.ndarray], context: _Run
    ) -> list[np.ndarray]:
        """Evaluate the condition on the carried values and, while it yields true, run the
        body on them: its m + k outputs replace the m input-output and k state-only
        values, the n input-only values stay. The m input-output values are the WHILE's
        outputs (the initial ones when the condition is false at once).

        The loop's budget is counted from just before its first condition evaluation;
        after each evaluation that yields true, the time spent is compared with it
        before the body runs. Each iteration counts ``PYTHON_STEP`` of work, and the
        previous iteration's values are released once the body made the next ones.
        """
        condition, body = step.graphs
        spending = context.spending
        outputs = len(step.outputs)
        carried = [values.get(i) for i in step.inputs[2:]]
        body_graph = self.referenced[body]
        state_count = len(body_graph.model.output_indexes) if body_graph is not None else 0
        state, fixed = carried[:state_count], carried[state_count:]
        made = False  # whether ``state`` is a body's outputs (held here) or the inputs
        iteration = 0
        started = time.monotonic_ns()
        while True:
            spending.spend(Cost(PYTHON_STEP, 0), 0, f"{what} iteration {iteration}")
            (flag,) = self._call(condition, state + fixed, context)
            spending.held -= flag.nbytes
            if flag.size != 1:
                raise OpFailure(f"{what}: the condition made {flag.size} values; it makes one")
            if not _truth(flag):
                break
            elapsed = time.monotonic_ns() - started
            if self._loop_timed_out(elapsed, context.loop_timeout_ns):
                raise MissedDeadline(
                    f"{what} ran {elapsed} ns, over its loop timeout of "
                    f"{context.loop_timeout_ns} ns, after {iteration} iterations"
                )
            following = self._call(body, state + fixed, context)
            if made:
                spending.held -= sum(value.nbytes for value in state)
            state, made = following, True
            iteration += 1
        results = state[:outputs]
        if made:
            spending.held -= sum(value.nbytes for value in state[outputs:])
        else:  # the inputs are the outputs too: held once more, as the caller drops both
            for index, value in zip(step.outputs, results, strict=True):
                if value is not None:
                    spending.hold(value.nbytes, f"{what} output operand {index}")
        return results

    # -- inputs and outputs ------------------------------------------------------------

    def _read_inputs(
        self,
        request: Request,
        mappings: list[Mapping | None],
        values: dict[int, np.ndarray],
        binding: Binding | None,
        spending: _Spending,
    ) -> None:
        for index, argument in zip(self.model.input_indexes, request.inputs, strict=True):
            if argument.has_no_value:
                continue
            if binding is not None and argument.location.pool_index in binding.buffers:
                values[index] = binding.read(argument.location.pool_index)
                spending.hold(values[index].nbytes, f"input operand {index}")
                continue
            operand = self.model.operands[index]
            dims = list(argument.dimensions) or list(operand.dimensions)
            data = mappings[argument.location.pool_index].view(
                argument.location.offset, argument.location.length
            )
            expected = math.prod(dims) * self._dtype(operand).itemsize
            if len(data) < expected:
                raise OpFailure(f"input operand {index}: {len(data)} bytes for {expected}")
            spending.hold(expected, f"input operand {index}")
            values[index] = tensors.decode(
                operand, data[:expected], dims, self.model.extension_name_to_prefix
            )

    def _check_declared_shape(self, graph: _Graph, index: int, shape: tuple[int, ...]) -> None:
        declared = graph.model.operands[index].dimensions
        if declared and (
            len(declared) != len(shape)
            or any(d not in (0, s) for d, s in zip(declared, shape, strict=True))
        ):
            where = "" if graph.where == "main" else f"{graph.where} "
            raise OpFailure(
                f"{where}operand {index} computed shape {shape} conflicts with {declared}"
            )

    def _write_outputs(
        self,
        request: Request,
        mappings: list[Mapping | None],
        values: dict[int, np.ndarray],
        buffers: dict[int, ReferenceBuffer],
    ) -> RunResult:
        shapes = []
        for index, argument in zip(self.model.output_indexes, request.outputs, strict=True):
            value = values[index]
            buffer = buffers.get(argument.location.pool_index)
            if buffer is not None and not buffer.accepts(value.shape):
                raise OpFailure(
                    f"output operand {index}: shape {value.shape} does not fit its buffer"
                )
            fits = buffer is not None or value.nbytes <= argument.location.length
            shapes.append(OutputShape(tuple(value.shape), fits))
        if not all(shape.is_sufficient for shape in shapes):
            return RunResult(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, shapes)
        for index, argument in zip(self.model.output_indexes, request.outputs, strict=True):
            if argument.location.pool_index in buffers:
                buffers[argument.location.pool_index].store(values[index])
                continue
            mapping = mappings[argument.location.pool_index]
            mapping.write(argument.location.offset, values[index].tobytes())
        return RunResult(ErrorStatus.NONE, shapes)
