"""HAL 1.3 drivers that get control flow (IF, WHILE) wrong in one known way, built on the
reference driver.

tests/suite/test_control_flow_faults.py runs the control-flow items of the suite against
each (in a pytest subprocess, this file copied beside the run) and checks that each fails
the items its fault touches, while the reference driver passes them.

Three faults are the reference driver run on a model rewritten at preparation (a copy:
the caller's model is never touched), each rewrite a valid model, so that the driver
prepares it and computes something other than what was asked, as a driver with the fault
would:

* ``TakesOtherBranch``: every IF whose two branches are different subgraphs of the same
  signature runs the branch not chosen (its two branch operands swapped).
* ``DoWhile``: every WHILE runs its body once before it first evaluates its condition
  (an IF of constant condition true, both of its branches the body, feeds the loop).
* ``ResetsState``: every WHILE with state-only values gives its body and condition the
  initial state-only values on every iteration, never the body's last ones (the body's
  state-only outputs dropped; the values passed as input-only ones).

Two are the reference driver given another loop budget (``_plan_run`` is where every
execution path hands it to the executor):

* ``IgnoresLoopTimeout``: runs a WHILE as long as it takes, whatever loop timeout was
  given; so that a test of it ends, a loop still running after ``IGNORED_FOR`` seconds is
  left and the execution answers NONE, its outputs unwritten.
* ``UsesDefaultLoopTimeout``: gives every WHILE the 2 s default, whatever loop timeout
  the execution was given.
"""

from __future__ import annotations

import copy
import time

from hal.types import (
    DataLocation,
    ErrorStatus,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)
from reference_driver import ReferenceDriver
from reference_driver.executor import RunResult
from reference_driver.prepared_model import ReferencePreparedModel

IGNORED_FOR = 0.5
"""Seconds ``IgnoresLoopTimeout`` lets a loop run before it gives up and answers NONE."""
_MISSED = (ErrorStatus.MISSED_DEADLINE_TRANSIENT, ErrorStatus.MISSED_DEADLINE_PERSISTENT)


def _graphs(model) -> list:
    return [model, *model.referenced]


def _reference(graph, operand: int) -> int:
    """The index into ``model.referenced`` a SUBGRAPH operand of ``graph`` names."""
    return graph.operands[operand].location.offset


def _description(graph, index: int) -> tuple:
    o = graph.operands[index]
    return (o.type, tuple(o.dimensions), o.scale, o.zero_point, o.extra_params)


def _signature(graph) -> tuple:
    return (
        tuple(_description(graph, i) for i in graph.input_indexes),
        tuple(_description(graph, i) for i in graph.output_indexes),
    )


class _RewritingDriver(ReferenceDriver):
    """The reference driver preparing ``rewrite(copy of the model)`` instead of the model."""

    def rewrite(self, model) -> None:
        raise NotImplementedError

    def _prepare(self, model, version, preference, notify):
        if model.referenced:
            model = copy.deepcopy(model)
            self.rewrite(model)
        return super()._prepare(model, version, preference, notify)


# -- the branch not chosen ---------------------------------------------------------------------


def swap_branches(model) -> int:
    """Swap the branches of every IF whose branches differ but share a signature; how many."""
    swapped = 0
    for graph in _graphs(model):
        for operation in graph.operations:
            if operation.type != OperationType.IF:
                continue
            then, other = (_reference(graph, i) for i in operation.inputs[1:3])
            if then == other:
                continue
            if _signature(model.referenced[then]) == _signature(model.referenced[other]):
                operation.inputs[1], operation.inputs[2] = operation.inputs[2], operation.inputs[1]
                swapped += 1
    return swapped


class TakesOtherBranch(_RewritingDriver):
    """An IF whose two branches have the same signature returns the outputs of the branch
    its condition did not choose."""

    def rewrite(self, model) -> None:
        swap_branches(model)


# -- the condition after the body --------------------------------------------------------------


def _constant_true(model, graph) -> int:
    """A new TENSOR_BOOL8 [1] CONSTANT_COPY operand of ``graph`` holding true, read once."""
    offset = len(model.operand_values)
    model.operand_values = bytes(model.operand_values) + b"\x01"
    graph.operands.append(
        Operand(
            type=OperandType.TENSOR_BOOL8,
            dimensions=[1],
            number_of_consumers=1,
            lifetime=OperandLifeTime.CONSTANT_COPY,
            location=DataLocation(pool_index=0, offset=offset, length=1),
        )
    )
    return len(graph.operands) - 1


def body_first(model) -> int:
    """Run the body of every WHILE once before the loop (an IF(true, body, body) whose outputs
    start the loop); how many WHILEs."""
    changed = 0
    for graph in _graphs(model):
        position = 0
        while position < len(graph.operations):
            operation = graph.operations[position]
            if operation.type != OperationType.WHILE:
                position += 1
                continue
            condition, body_operand, *values = operation.inputs
            body = model.referenced[_reference(graph, body_operand)]
            carried = len(body.output_indexes)  # input-output and state-only values
            temporaries = []
            for output in body.output_indexes:
                source = body.operands[output]
                graph.operands.append(
                    Operand(
                        type=source.type,
                        dimensions=list(source.dimensions),
                        number_of_consumers=1,
                        scale=source.scale,
                        zero_point=source.zero_point,
                        lifetime=OperandLifeTime.TEMPORARY_VARIABLE,
                        extra_params=source.extra_params,
                    )
                )
                temporaries.append(len(graph.operands) - 1)
            true = _constant_true(model, graph)
            graph.operands[body_operand].number_of_consumers += 2
            for value in values[carried:]:  # input-only values: read by the IF and the WHILE
                graph.operands[value].number_of_consumers += 1
            first = Operation(
                OperationType.IF, [true, body_operand, body_operand, *values], temporaries
            )
            loop = Operation(
                OperationType.WHILE,
                [condition, body_operand, *temporaries, *values[carried:]],
                list(operation.outputs),
            )
            graph.operations[position : position + 1] = [first, loop]
            position += 2
            changed += 1
    return changed


class DoWhile(_RewritingDriver):
    """A WHILE evaluates its condition after its body: the body runs once even when the
    condition is false from the start."""

    def rewrite(self, model) -> None:
        body_first(model)


# -- state-only values dropped -----------------------------------------------------------------


def _readers(model, index: int) -> int:
    """How many SUBGRAPH operands, in every subgraph, name ``model.referenced[index]``."""
    return sum(
        1
        for graph in _graphs(model)
        for operand in graph.operands
        if operand.lifetime == OperandLifeTime.SUBGRAPH and operand.location.offset == index
    )


def drop_state(model) -> int:
    """Make every WHILE's state-only values input-only ones (its body's state-only outputs
    dropped), so that each iteration sees the initial ones; how many WHILEs."""
    changed = 0
    for graph in _graphs(model):
        for position, operation in enumerate(graph.operations):
            if operation.type != OperationType.WHILE:
                continue
            body_operand = operation.inputs[1]
            index = _reference(graph, body_operand)
            body = model.referenced[index]
            carried = len(operation.outputs)  # the input-output values
            if len(body.output_indexes) == carried:
                continue  # no state-only value
            dropped = copy.deepcopy(body)
            for output in dropped.output_indexes[carried:]:
                if dropped.operands[output].lifetime == OperandLifeTime.SUBGRAPH_OUTPUT:
                    dropped.operands[output].lifetime = OperandLifeTime.TEMPORARY_VARIABLE
            dropped.output_indexes = dropped.output_indexes[:carried]
            operand = graph.operands[body_operand]
            if operand.number_of_consumers == 1 and _readers(model, index) == 1:
                model.referenced[index] = dropped  # this WHILE alone runs that body
            elif operand.number_of_consumers == 1:
                model.referenced.append(dropped)
                operand.location = DataLocation(0, len(model.referenced) - 1, 0)
            else:
                model.referenced.append(dropped)
                fresh = copy.deepcopy(operand)
                fresh.number_of_consumers = 1
                fresh.location = DataLocation(0, len(model.referenced) - 1, 0)
                operand.number_of_consumers -= 1
                graph.operands.append(fresh)
                graph.operations[position].inputs[1] = len(graph.operands) - 1
            changed += 1
    return changed


class ResetsState(_RewritingDriver):
    """A WHILE gives its condition and body the initial state-only values on every
    iteration: the values its body computed for them are dropped."""

    def rewrite(self, model) -> None:
        drop_state(model)


# -- the loop timeout --------------------------------------------------------------------------


class _Unbounded(ReferencePreparedModel):
    def _plan_run(self, request, binding, deadline=None, loop_timeout=None):
        result = super()._plan_run(request, binding, deadline, int(IGNORED_FOR * 1e9))
        if result.status in _MISSED and (deadline is None or deadline > time.monotonic_ns()):
            return RunResult(ErrorStatus.NONE, [])  # gave up on the loop, says nothing
        return result


class IgnoresLoopTimeout(ReferenceDriver):
    """A WHILE runs whatever loop timeout was given (left after ``IGNORED_FOR`` seconds,
    the execution answering NONE)."""

    prepared_model_class = _Unbounded


class _DefaultBudget(ReferencePreparedModel):
    def _plan_run(self, request, binding, deadline=None, loop_timeout=None):
        return super()._plan_run(request, binding, deadline)


class UsesDefaultLoopTimeout(ReferenceDriver):
    """Every WHILE gets the 2 s default budget, whatever loop timeout was given."""

    prepared_model_class = _DefaultBudget
