"""Plan a model once at prepare time, then run it for each request.

The plan holds the operations in order with their implementations, and every
constant decoded to a numpy array. A run reads the inputs out of the request's
pools, computes each operation's output shapes then values, and writes the
outputs back, reporting OUTPUT_INSUFFICIENT_SIZE (with every output's shape)
when an output location is too short.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from hal.memory import Mapping, MemoryError_, map_memory, open_memory
from hal.types import (
    ErrorStatus,
    Model,
    Operand,
    OperandLifeTime,
    OutputShape,
    Request,
    numpy_dtype,
)
from reference_driver.ops import REGISTRY, OpArgs, OperationImpl, OpFailure, OpInvalid

if TYPE_CHECKING:
    from reference_driver.buffers import Binding, ReferenceBuffer


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


def _decode(operand: Operand, data: bytes | memoryview, dims: list[int]) -> np.ndarray:
    array = np.frombuffer(data, dtype=numpy_dtype(operand.type))
    return array.reshape(tuple(dims)).copy()


def operation_args(
    model: Model, inputs: tuple[int, ...], outputs: tuple[int, ...], values: dict[int, np.ndarray]
) -> OpArgs:
    return OpArgs(
        [model.operands[i] for i in inputs],
        [model.operands[i] for i in outputs],
        [values.get(i) for i in inputs],
    )


def read_constants(model: Model) -> dict[int, np.ndarray]:
    """Every CONSTANT_COPY and CONSTANT_REFERENCE operand, decoded."""
    constants: dict[int, np.ndarray] = {}
    mappings: dict[int, Mapping] = {}
    try:
        for index, operand in enumerate(model.operands):
            location = operand.location
            if operand.lifetime == OperandLifeTime.CONSTANT_COPY:
                start = location.offset
                data = model.operand_values[start : start + location.length]
            elif operand.lifetime == OperandLifeTime.CONSTANT_REFERENCE:
                if location.pool_index not in mappings:
                    mappings[location.pool_index] = map_memory(model.pools[location.pool_index])
                data = mappings[location.pool_index].read_location(location)
            else:
                continue
            constants[index] = _decode(operand, data, operand.dimensions)
    except MemoryError_ as e:
        raise PlanError(f"constant pool cannot be read: {e}") from None
    finally:
        for mapping in mappings.values():
            mapping.close()
    return constants


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

    def __init__(self, model: Model) -> None:
        self.model = model
        self.constants = read_constants(model)
        self.steps: list[_Step] = []
        for position, operation in enumerate(model.operations):
            impl = REGISTRY.get(operation.type)
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

    def run(self, request: Request, binding: Binding | None = None) -> RunResult:
        """Execute ``request`` (already validated against the model).

        ``binding`` holds the driver-managed buffers the request's token pools name.
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
            self._read_inputs(request, mappings, values, binding)
            for step in self.steps:
                args = operation_args(self.model, step.inputs, step.outputs, values)
                shapes = step.impl.prepare(args)
                results = step.impl.execute(args, shapes)
                for index, shape, result in zip(step.outputs, shapes, results, strict=True):
                    self._check_declared_shape(index, shape)
                    values[index] = result.reshape(shape)
                for index in step.release:
                    del values[index]
            return self._write_outputs(request, mappings, values, buffers)
        except OpInvalid:
            return RunResult(ErrorStatus.INVALID_ARGUMENT, [])
        except (OpFailure, MemoryError_):
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
    ) -> None:
        for index, argument in zip(self.model.input_indexes, request.inputs, strict=True):
            if argument.has_no_value:
                continue
            if binding is not None and argument.location.pool_index in binding.buffers:
                values[index] = binding.read(argument.location.pool_index)
                continue
            operand = self.model.operands[index]
            dims = list(argument.dimensions) or list(operand.dimensions)
            data = mappings[argument.location.pool_index].view(
                argument.location.offset, argument.location.length
            )
            expected = math.prod(dims) * numpy_dtype(operand.type).itemsize
            if len(data) < expected:
                raise OpFailure(f"input operand {index}: {len(data)} bytes for {expected}")
            values[index] = _decode(operand, data[:expected], dims)

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


def guarded(work: Callable[[], None], on_error: Callable[[], None]) -> Callable[[], None]:
    """Run ``work`` on a pool thread; if it raises, still answer the callback via ``on_error``."""

    def run() -> None:
        try:
            work()
        except Exception:
            on_error()
            raise

    return run
