"""Drivers that get memory wrong in one known way, built on the reference driver.

The memory suites must catch each (test_memory_suites.py runs them in a pytest
subprocess with this file beside the run, as a vendor would):

* ``AcceptsUndeclaredRoles``: a buffer serves any input or output of its
  prepared models, declared or not;
* ``ReadsUninitialised``: an uninitialised buffer reads as zeros;
* ``WritesForeignOutputBuffers``: writes a buffer allocated for another prepared
  model's output;
* ``KeepsBuffersOnFailure``: a failed execution leaves its output buffers initialised;
* ``WritesBeforeOutput``: writes a byte just before output 0's location;
* ``NoMmapFdPools``: cannot map mmap_fd pools, a mandatory kind;

and the suites must excuse these, recording them as unsupported:

* ``NoBlobPools``: cannot map hardware_buffer_blob pools (GENERAL_FAILURE);
* ``DeclinesAllocation``: has the mix-in but declines every allocation;
* ``WithoutMemoryDomains``: a 1.2 driver without the mix-in at all.
"""

from __future__ import annotations

import numpy as np

from hal.interfaces import IDevice_1_2
from hal.memory import HARDWARE_BUFFER_BLOB, MMAP_FD, Memory, map_memory
from hal.types import ErrorStatus
from reference_driver import ReferenceDriver, ReferenceDriver_1_2
from reference_driver.buffers import BufferRegistry, ReferenceBuffer
from reference_driver.executor import RunResult
from reference_driver.prepared_model import ReferencePreparedModel

# ---------------------------------------------------------------------------
# Buffers with a missing check
# ---------------------------------------------------------------------------


class _AnyRoleBuffer(ReferenceBuffer):
    def role_of(self, prepared, side, index):
        return any(model is prepared for model in self._models)


class _ZeroBuffer(ReferenceBuffer):
    @property
    def data(self):
        if self._data is None and self.declared and all(self.declared):
            return np.zeros(self.declared, self.dtype)
        return self._data


class _OutputsOfAnyModelBuffer(ReferenceBuffer):
    def role_of(self, prepared, side, index):
        if side == "output":  # the role is checked, not whose role it is
            return ("output", index) in {(s, i) for _, s, i in self._roles}
        return super().role_of(prepared, side, index)


def _with_buffers(buffer_class: type[ReferenceBuffer]) -> type[BufferRegistry]:
    return type(
        f"{buffer_class.__name__}Registry", (BufferRegistry,), {"buffer_class": buffer_class}
    )


class AcceptsUndeclaredRoles(ReferenceDriver_1_2):
    """Checks that a buffer belongs to the prepared model, never which role it plays."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _with_buffers(_AnyRoleBuffer)()


class ReadsUninitialised(ReferenceDriver_1_2):
    """An uninitialised buffer of known dimensions reads as zeros instead of failing."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _with_buffers(_ZeroBuffer)()


class WritesForeignOutputBuffers(ReferenceDriver_1_2):
    """Checks a written buffer's role but not that it is the executing prepared model's."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = _with_buffers(_OutputsOfAnyModelBuffer)()


# ---------------------------------------------------------------------------
# Prepared models that misbehave after a successful run
# ---------------------------------------------------------------------------


class _WritesBefore(ReferencePreparedModel):
    def _plan_run(self, request, binding, *limits):
        result = super()._plan_run(request, binding, *limits)
        location = request.outputs[0].location if request.outputs else None
        pool = request.pools[location.pool_index] if location else None
        if result.status == ErrorStatus.NONE and isinstance(pool, Memory) and location.offset:
            with map_memory(pool) as mapping:
                mapping.write(location.offset - 1, b"\x00")
        return result


class _KeepsBuffersOnFailure(ReferencePreparedModel):
    def _plan_run(self, request, binding, *limits):
        return self._plan.run(request, binding)  # never uninitialises its output buffers


class KeepsBuffersOnFailure(ReferenceDriver_1_2):
    """A failed execution leaves its output buffers as they were (still initialised)."""

    prepared_model_class = _KeepsBuffersOnFailure


class WritesBeforeOutput(ReferenceDriver_1_2):
    """Writes one byte just before output 0 whenever the output does not start its pool."""

    prepared_model_class = _WritesBefore


class _RefusedKindPrepared(ReferencePreparedModel):
    refused = HARDWARE_BUFFER_BLOB

    def _plan_run(self, request, binding, *limits):
        if _has_kind(request.pools, self.refused):
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        return super()._plan_run(request, binding, *limits)


def _has_kind(pools, kind: str) -> bool:
    return any(isinstance(p, Memory) and p.name == kind for p in pools)


class NoBlobPools(ReferenceDriver_1_2):
    """Fails preparations and executions that bring hardware_buffer_blob pools."""

    prepared_model_class = _RefusedKindPrepared

    def _prepare(self, model, version, preference, notify):
        if not _has_kind(model.pools, self.prepared_model_class.refused):
            return super()._prepare(model, version, preference, notify)

        def refuse(status, prepared):
            notify(ErrorStatus.GENERAL_FAILURE if status == ErrorStatus.NONE else status, None)

        return super()._prepare(model, version, preference, refuse)


class NoBlobPools13(NoBlobPools, ReferenceDriver):
    """``NoBlobPools`` as a HAL 1.3 driver, which must accept hardware_buffer_blob request
    pools: its request-pool items fail, its constant-pool items stay unsupported."""


class _NoMmapFdPrepared(_RefusedKindPrepared):
    refused = MMAP_FD


class NoMmapFdPools(NoBlobPools):
    """The same, for mmap_fd pools: a mandatory kind, so its items must fail."""

    prepared_model_class = _NoMmapFdPrepared


def DeclinesAllocation() -> ReferenceDriver_1_2:
    """Subclasses IMemoryDomains, answers every allocate with GENERAL_FAILURE."""
    return ReferenceDriver_1_2(memory_domains=False)


# ---------------------------------------------------------------------------
# A 1.2 driver without the memory-domain mix-in
# ---------------------------------------------------------------------------


class WithoutMemoryDomains(IDevice_1_2):
    """The reference driver behind a plain IDevice_1_2: no allocate, no tokens."""

    def __init__(self) -> None:
        self._inner = ReferenceDriver_1_2(memory_domains=False)

    def get_capabilities(self):
        return self._inner.get_capabilities()

    def get_capabilities_1_1(self):
        return self._inner.get_capabilities_1_1()

    def get_capabilities_1_2(self):
        return self._inner.get_capabilities_1_2()

    def get_supported_operations(self, model):
        return self._inner.get_supported_operations(model)

    def get_supported_operations_1_1(self, model):
        return self._inner.get_supported_operations_1_1(model)

    def get_supported_operations_1_2(self, model):
        return self._inner.get_supported_operations_1_2(model)

    def prepare_model(self, model, callback):
        return self._inner.prepare_model(model, callback)

    def prepare_model_1_1(self, model, preference, callback):
        return self._inner.prepare_model_1_1(model, preference, callback)

    def prepare_model_1_2(self, model, preference, callback):
        return self._inner.prepare_model_1_2(model, preference, callback)

    def get_status(self):
        return self._inner.get_status()

    def get_version_string(self):
        return self._inner.get_version_string()

    def get_type(self):
        return self._inner.get_type()

    def get_supported_extensions(self):
        return self._inner.get_supported_extensions()

    def is_caching_supported(self):
        return ErrorStatus.NONE, False

    def prepare_model_from_cache(self, model_cache, data_cache, token, callback):
        callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, None)
        return ErrorStatus.GENERAL_FAILURE
