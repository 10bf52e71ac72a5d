"""Driver-managed buffers (HAL 1.3 memory domains) of the reference driver.

A buffer is a numpy array kept on the driver's side, named in requests by a
token. ``BufferRegistry`` allocates buffers, knows which prepared models are
its device's, and checks every use of a token before an execution starts
(``bind``): the token names a live buffer, each argument placed in it is a
role declared at allocation for this very prepared model, an input buffer is
initialised and its dimensions agree with the argument's. The executor then
reads and writes buffers through the returned ``Binding``.

Dimensions are tuples where 0 means "unknown here"; ``None`` means the rank
itself is unknown. A buffer's declared dimensions combine the descriptor's
with every role's operand; its current dimensions are the shape of its data.
"""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hal.interfaces import IBuffer, IPreparedModel
from hal.memory import Memory, MemoryError_, map_memory
from hal.types import (
    BufferDesc,
    BufferRole,
    ErrorStatus,
    Model,
    Operand,
    Request,
    is_tensor_type,
    numpy_dtype,
)
from hal.validation import INT32_MAX, is_token
from reference_driver.guard import hal_method

Dims = tuple[int, ...] | None
"""Dimensions with 0 for an unknown axis; None when the rank is unknown."""
Role = tuple[int, str, int]
"""(position of the prepared model in ``allocate``'s list, ``input``/``output``, io index)."""


class _Invalid(Exception):
    """An argument of ``allocate`` or a use of a buffer is invalid (INVALID_ARGUMENT)."""


class _Declined(Exception):
    """The driver does not serve this buffer or role (GENERAL_FAILURE)."""


def combine(first: Dims, second: Dims) -> Dims:
    """Both dimension lists merged axis by axis; _Invalid if a known axis differs."""
    if first is None:
        return second
    if second is None:
        return first
    if len(first) != len(second):
        raise _Invalid(f"rank {len(first)} conflicts with rank {len(second)}")
    merged = []
    for axis, (a, b) in enumerate(zip(first, second, strict=True)):
        if a and b and a != b:
            raise _Invalid(f"axis {axis}: {a} conflicts with {b}")
        merged.append(a or b)
    return tuple(merged)


def _operand_dims(operand: Operand) -> Dims:
    return tuple(operand.dimensions) if operand.dimensions else None


def _fully_specified(dims: Dims) -> bool:
    return dims is not None and all(d > 0 for d in dims)


class ReferenceBuffer(IBuffer):
    """One buffer: its declared roles and dimensions, and its data once initialised."""

    def __init__(
        self,
        registry: BufferRegistry,
        token: int,
        operand: Operand,
        dims: Dims,
        models: tuple[IPreparedModel, ...],
        roles: frozenset[Role],
    ) -> None:
        self.token = token
        self.dtype = numpy_dtype(operand.type)
        self.declared = dims
        self._registry = registry
        self._models = models
        self._roles = roles
        self._lock = threading.Lock()
        self._data: np.ndarray | None = None
        """None while uninitialised; replaced whole, never changed in place."""
        self._released = False

    # -- IBuffer ---------------------------------------------------------------

    @hal_method(lambda: ErrorStatus.GENERAL_FAILURE)
    def copy_to(self, memory: Memory) -> ErrorStatus:
        data = self._data
        if self._released:
            return ErrorStatus.INVALID_ARGUMENT
        if data is None:
            return ErrorStatus.GENERAL_FAILURE
        if not isinstance(memory, Memory) or memory.size != data.nbytes:
            return ErrorStatus.INVALID_ARGUMENT
        try:
            with map_memory(memory) as mapping:
                mapping.write(0, data.tobytes())
        except MemoryError_:
            return ErrorStatus.INVALID_ARGUMENT
        return ErrorStatus.NONE

    @hal_method(lambda: ErrorStatus.GENERAL_FAILURE)
    def copy_from(self, memory: Memory, dimensions: Sequence[int]) -> ErrorStatus:
        if self._released:
            return ErrorStatus.INVALID_ARGUMENT
        try:
            given = tuple(int(d) for d in dimensions) if len(dimensions) else None
            dims = combine(self.declared, given)
            if not _fully_specified(dims):
                raise _Invalid(f"dimensions {dims} are not fully specified")
            size = math.prod(dims) * self.dtype.itemsize
            if not isinstance(memory, Memory) or memory.size != size:
                raise _Invalid(f"memory of {getattr(memory, 'size', None)} bytes for {size}")
            with map_memory(memory) as mapping:
                data = np.frombuffer(mapping.read(0, size), self.dtype).reshape(dims)
        except (_Invalid, MemoryError_, TypeError, ValueError):
            self.invalidate()
            return ErrorStatus.INVALID_ARGUMENT
        self._data = data
        return ErrorStatus.NONE

    def release(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
            self._data = None
        self._registry.forget(self.token)

    # -- the driver's side -------------------------------------------------------

    def role_of(self, prepared: object, side: str, index: int) -> bool:
        """Whether ``prepared`` may use this buffer as its input/output ``index``."""
        return any(
            model is prepared and (position, side, index) in self._roles
            for position, model in enumerate(self._models)
        )

    @property
    def data(self) -> np.ndarray | None:
        return self._data

    def accepts(self, shape: tuple[int, ...]) -> bool:
        try:
            combine(self.declared, shape)
        except _Invalid:
            return False
        return True

    def store(self, value: np.ndarray) -> None:
        self._data = np.array(value, dtype=self.dtype, copy=True)

    def invalidate(self) -> None:
        self._data = None


@dataclass
class Binding:
    """The buffers one request uses, by pool index, checked for this execution."""

    buffers: dict[int, ReferenceBuffer] = field(default_factory=dict)
    outputs: list[ReferenceBuffer] = field(default_factory=list)

    def read(self, pool_index: int) -> np.ndarray:
        data = self.buffers[pool_index].data
        if data is None:
            raise MemoryError_(f"buffer in pool {pool_index} became uninitialised")
        return data.copy()

    def fail(self) -> None:
        """The execution failed: every buffer it was to write is uninitialised now."""
        for buffer in self.outputs:
            buffer.invalidate()


class BufferRegistry:
    """The live buffers of one device, and the prepared models they may serve."""

    buffer_class: type[ReferenceBuffer] = ReferenceBuffer
    """What ``allocate`` makes (tests swap in buffers with a missing check)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffers: dict[int, ReferenceBuffer] = {}
        self._tokens = itertools.count(1)
        self._models: weakref.WeakKeyDictionary[object, Model] = weakref.WeakKeyDictionary()

    def attach(self, prepared: object, model: Model) -> None:
        """Record a prepared model of this device (``allocate`` accepts only those)."""
        self._models[prepared] = model

    def forget(self, token: int) -> None:
        with self._lock:
            self._buffers.pop(token, None)

    # -- allocate ----------------------------------------------------------------

    def allocate(
        self,
        desc: BufferDesc,
        prepared_models: Sequence[IPreparedModel],
        input_roles: Sequence[BufferRole],
        output_roles: Sequence[BufferRole],
    ) -> tuple[ErrorStatus, ReferenceBuffer | None, int]:
        try:
            models = tuple(prepared_models)
            roles, operands = self._roles(models, input_roles, output_roles)
            operand = self._common_operand(operands)
            dims = tuple(desc.dimensions) if len(desc.dimensions) else None
            for other in operands:
                dims = combine(dims, _operand_dims(other))
        except _Invalid:
            return ErrorStatus.INVALID_ARGUMENT, None, 0
        except _Declined:
            return ErrorStatus.GENERAL_FAILURE, None, 0
        with self._lock:
            token = next(self._tokens)
            if token > INT32_MAX:
                return ErrorStatus.GENERAL_FAILURE, None, 0
            buffer = self.buffer_class(self, token, operand, dims, models, frozenset(roles))
            self._buffers[token] = buffer
        return ErrorStatus.NONE, buffer, token

    def _roles(
        self,
        models: tuple[IPreparedModel, ...],
        input_roles: Sequence[BufferRole],
        output_roles: Sequence[BufferRole],
    ) -> tuple[list[Role], list[Operand]]:
        if not models or not (input_roles or output_roles):
            raise _Invalid("allocate needs prepared models and at least one role")
        if any(model not in self._models for model in models):
            raise _Invalid("a prepared model is not this device's")
        roles: list[Role] = []
        operands: list[Operand] = []
        for side, given in (("input", input_roles), ("output", output_roles)):
            for role in given:
                if not isinstance(role, BufferRole) or not 0 <= role.model_index < len(models):
                    raise _Invalid(f"{side} role {role!r} names no prepared model")
                if not 0.0 < role.frequency <= 1.0:
                    raise _Invalid(f"{side} role frequency {role.frequency} is outside (0, 1]")
                model = self._models[models[role.model_index]]
                indexes = model.input_indexes if side == "input" else model.output_indexes
                if not 0 <= role.io_index < len(indexes):
                    raise _Invalid(f"{side} role io_index {role.io_index} is out of range")
                key = (role.model_index, side, role.io_index)
                if key in roles:
                    raise _Invalid(f"{side} role {key} is given twice")
                roles.append(key)
                operands.append(model.operands[indexes[role.io_index]])
        return roles, operands

    @staticmethod
    def _common_operand(operands: list[Operand]) -> Operand:
        first = operands[0]
        for other in operands[1:]:
            if (other.type, other.scale, other.zero_point, other.extra_params) != (
                first.type,
                first.scale,
                first.zero_point,
                first.extra_params,
            ):
                raise _Invalid("the roles' operands differ in type or quantization")
        if not is_tensor_type(first.type):
            raise _Declined("only tensors live in driver-managed buffers here")
        return first

    # -- every use ---------------------------------------------------------------

    def bind(self, request: Request, prepared: object) -> tuple[ErrorStatus, Binding | None]:
        """Check every argument placed in a buffer; the Binding the executor uses."""
        pools = {i: pool for i, pool in enumerate(request.pools) if is_token(pool)}
        if not pools:
            return ErrorStatus.NONE, None
        binding = Binding()
        for index, token in pools.items():
            buffer = self._buffers.get(int(token))
            if buffer is None:
                return ErrorStatus.INVALID_ARGUMENT, None
            binding.buffers[index] = buffer
        uninitialised = False
        for side, arguments in (("input", request.inputs), ("output", request.outputs)):
            for position, argument in enumerate(arguments):
                buffer = binding.buffers.get(argument.location.pool_index)
                if argument.has_no_value or buffer is None:
                    continue
                if not buffer.role_of(prepared, side, position):
                    return ErrorStatus.INVALID_ARGUMENT, None
                given = tuple(argument.dimensions) or None
                if side == "output":
                    if given is not None and not buffer.accepts(given):
                        return ErrorStatus.INVALID_ARGUMENT, None
                    binding.outputs.append(buffer)
                    continue
                data = buffer.data
                if data is None:
                    uninitialised = True
                elif given is not None and given != data.shape:
                    return ErrorStatus.INVALID_ARGUMENT, None
        if uninitialised:
            return ErrorStatus.GENERAL_FAILURE, None
        return ErrorStatus.NONE, binding
