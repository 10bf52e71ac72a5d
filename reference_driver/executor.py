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
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from collections.abc import Callable
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
    OutputShape,
    Request,
    numpy_dtype,
)
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


@dataclass(frozen=True)
class _Step:
    impl: OperationImpl
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    release: tuple[int, ...] = ()
    """Temporaries no later step reads (and no model output): dropped once this step ran."""


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


class Plan:
    """A prepared model's executable form."""

    def __init__(self, model: Model, budgets: Budgets | None = None) -> None:
        self.model = model
        self.budgets = budgets or Budgets()
        self.constants = read_constants(model)
        self.steps: list[_Step] = []
        for position, operation in enumerate(model.operations):
            impl = implementation(model, operation.type)
            if impl is None:
                raise PlanError(f"operation {position} (type {operation.type}) is not supported")
            step = _Step(impl, tuple(operation.inputs), tuple(operation.outputs))
            try:
                reason = impl.validate(
                    operation_args(model, step.inputs, step.outputs, self.constants)
                )
            except OpFailure as error:
                reason = str(error)
            if reason is not None:
                raise PlanInvalid(f"operation {position} ({impl.type.name}): {reason}")
            self.steps.append(step)
        self.steps = _with_releases(self.steps, model)
        self._check_known_costs()

    def _dtype(self, operand) -> np.dtype:
        """The operand's element dtype (extension types through the model's prefixes)."""
        return numpy_dtype(operand.type, self.model.extension_name_to_prefix)

    def _output_bytes(self, step: _Step, shapes: list[tuple[int, ...]]) -> int:
        total = 0
        for index, shape in zip(step.outputs, shapes, strict=True):
            operand = self.model.operands[index]
            total += math.prod(shape) * self._dtype(operand).itemsize
        return total

    def _admit(
        self, position: int, step: _Step, args: OpArgs, spending: _Spending
    ) -> list[tuple[int, ...]]:
        """The step's output shapes, once they, its outputs and its cost fit the budgets."""
        what = f"operation {position} ({step.impl.type.name})"
        estimate = _robust(cost_of(step.impl.type))
        spending.check_work(estimate(args, None), what)
        shapes = [tuple(shape) for shape in step.impl.prepare(args)]
        if len(shapes) != len(step.outputs) or any(
            not all(isinstance(d, int | np.integer) and d >= 0 for d in shape) for shape in shapes
        ):
            raise OpFailure(f"{what} computed output shapes {shapes}")
        shapes = [tuple(int(d) for d in shape) for shape in shapes]
        for index, shape in zip(step.outputs, shapes, strict=True):
            self._check_declared_shape(index, shape)
        spending.spend(estimate(args, shapes), self._output_bytes(step, shapes), what)
        return shapes

    def _check_known_costs(self) -> None:
        """The budgets over what the constants and the declared dimensions decide.

        Non-constant tensors with fully specified dimensions are stood for by
        zero-filled read-only placeholders that take no memory; an operation with
        an input of unknown dimensions (or a non-constant scalar) is skipped, and
        so is everything computed from it. Only ``OverBudget`` counts here (as a
        ``PlanError``: GENERAL_FAILURE); any other complaint is the execution's to
        make with the real values.
        """
        known: dict[int, np.ndarray] = dict(self.constants)
        spending = _Spending(self.budgets)
        for index in self.model.input_indexes:
            placeholder = self._placeholder(index, self.model.operands[index].dimensions)
            if placeholder is not None:
                try:
                    spending.hold(
                        placeholder.size * placeholder.itemsize, f"model input operand {index}"
                    )
                except OverBudget as error:
                    raise PlanError(str(error)) from None
                known[index] = placeholder
        omitted = {
            i
            for i, operand in enumerate(self.model.operands)
            if operand.lifetime == OperandLifeTime.NO_VALUE
        }
        for position, step in enumerate(self.steps):
            if not all(i in known or i in omitted for i in step.inputs):
                continue
            args = operation_args(self.model, step.inputs, step.outputs, known)
            try:
                shapes = self._admit(position, step, args, spending)
            except OverBudget as error:
                raise PlanError(str(error)) from None
            except Exception:
                continue  # judged with the real values at execution
            for index, shape in zip(step.outputs, shapes, strict=True):
                placeholder = self._placeholder(index, list(shape))
                if placeholder is not None:
                    known[index] = placeholder

    def _placeholder(self, index: int, dims: list[int]) -> np.ndarray | None:
        operand = self.model.operands[index]
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
        every operation, as Android 11's CPU executor does: once it has passed, the run
        stops with MISSED_DEADLINE_TRANSIENT and writes no output. ``loop_timeout_ns``
        is the budget of each WHILE operation (none of today's operations loops; the
        control-flow kernels are to take it from here).
        """
        del loop_timeout_ns  # no operation of today's catalog loops
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
            spending = _Spending(self.budgets)
            self._read_inputs(request, mappings, values, binding, spending)
            for position, step in enumerate(self.steps):
                if deadline_ns is not None and time.monotonic_ns() >= deadline_ns:
                    LOG.debug("execution stopped before operation %d: deadline passed", position)
                    return RunResult(ErrorStatus.MISSED_DEADLINE_TRANSIENT, [])
                args = operation_args(self.model, step.inputs, step.outputs, values)
                shapes = self._admit(position, step, args, spending)
                results = step.impl.execute(args, shapes)
                if len(results) != len(shapes):
                    raise OpFailure(f"operation {position} made {len(results)} outputs")
                for index, shape, result in zip(step.outputs, shapes, results, strict=True):
                    values[index] = result.reshape(shape)
                for index in step.release:
                    spending.held -= values.pop(index).nbytes
            return self._write_outputs(request, mappings, values, buffers)
        except OpInvalid as error:
            LOG.debug("execution refused: %s", error)
            return RunResult(ErrorStatus.INVALID_ARGUMENT, [])
        except (OpFailure, MemoryError_) as error:
            LOG.debug("execution failed: %s", error)
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        except Exception:
            # Last resort: an operation raised something it should not (numpy's
            # MemoryError, a ValueError): a failed execution, never an exception.
            LOG.exception("execution failed with an unexpected exception")
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        finally:
            for mapping in owned:
                mapping.close()

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

    def _check_declared_shape(self, index: int, shape: tuple[int, ...]) -> None:
        declared = self.model.operands[index].dimensions
        if declared and (
            len(declared) != len(shape)
            or any(d not in (0, s) for d, s in zip(declared, shape, strict=True))
        ):
            raise OpFailure(f"operand {index} computed shape {shape} conflicts with {declared}")

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
