"""The interfaces of the Python HAL: what a driver implements and what calls it back.

These are abstract base classes. A driver subclasses them, and its HAL level
is the newest class it is an instance of (``IDevice_1_2`` means 1.2): the
check is nominal, never duck-typed. Every method mirrors the HIDL method of the
same name in snake_case. Conventions shared by all of them:

* A HIDL method that ``generates (ErrorStatus status, X x)`` returns the tuple
  ``(status, x)``. A method that generates only a status returns it alone.
* Errors are values. A driver never lets an exception escape; the suite
  records an escaped exception as a failure of the method that raised it.
* Asynchronous methods (``prepare_model*``, ``execute``, ``execute_1_2``,
  ``execute_1_3``) return a launch status at once and call the callback's notify exactly once,
  from any thread, before or after returning. If the launch status is not
  NONE, the callback is still notified, with the same status.
* Every method may be called from several threads at once, on one object or
  on many; a driver serialises internally where it must.
* The statuses HAL 1.3 adds (MISSED_DEADLINE_*, RESOURCE_EXHAUSTED_*) may only
  be returned or notified by the 1.3 methods below and ``notify_1_3``; a 1.0-1.2
  method reports GENERAL_FAILURE in their place.

HAL 1.3's classes (``IDevice_1_3``, ``IPreparedModel_1_3``,
``IFencedExecutionCallback``, the callbacks' ``notify_1_3``) are here too: a driver
subclassing ``IDevice_1_3`` is of level 1.3 (``hal.levels``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hal.types import (
    BufferDesc,
    BufferRole,
    Capabilities_1_0,
    Capabilities_1_1,
    Capabilities_1_2,
    Capabilities_1_3,
    DeviceStatus,
    DeviceType,
    ErrorStatus,
    ExecutionPreference,
    Extension,
    MeasureTiming,
    Model,
    OptionalTimeoutDuration,
    OptionalTimePoint,
    OutputShape,
    Priority,
    Request,
    Timing,
)

if TYPE_CHECKING:
    from hal.fences import SyncFence
    from hal.memory import Memory, NativeHandle


# ---------------------------------------------------------------------------
# Callbacks (implemented by the client: the runtime, here the harness)
# ---------------------------------------------------------------------------


class IPreparedModelCallback(ABC):
    """Receives the outcome of one asynchronous model preparation."""

    @abstractmethod
    def notify(self, status: ErrorStatus, prepared_model: IPreparedModel | None) -> None:
        """1.0 report. ``prepared_model`` is None exactly when ``status`` is not NONE."""

    @abstractmethod
    def notify_1_2(self, status: ErrorStatus, prepared_model: IPreparedModel | None) -> None:
        """1.2 report: a 1.2 driver calls this one, with an ``IPreparedModel_1_2``."""

    @abstractmethod
    def notify_1_3(self, status: ErrorStatus, prepared_model: IPreparedModel | None) -> None:
        """1.3 report: a 1.3 driver calls this one, with an ``IPreparedModel_1_3``.

        NONE with the prepared model; otherwise DEVICE_UNAVAILABLE, GENERAL_FAILURE,
        INVALID_ARGUMENT, MISSED_DEADLINE_* or RESOURCE_EXHAUSTED_*, with None. A
        preparation notifies exactly one of ``notify``, ``notify_1_2`` and this.
        """


class IExecutionCallback(ABC):
    """Receives the outcome of one asynchronous execution."""

    @abstractmethod
    def notify(self, status: ErrorStatus) -> None:
        """1.0 report: the status alone."""

    @abstractmethod
    def notify_1_2(
        self, status: ErrorStatus, output_shapes: Sequence[OutputShape], timing: Timing
    ) -> None:
        """1.2 report.

        ``output_shapes`` has one entry per model output, or is empty; it must have
        one entry per output when an output was dynamic or ``status`` is
        OUTPUT_INSUFFICIENT_SIZE, and must be empty for any other error.
        ``timing`` is ``NO_TIMING`` unless the execution was asked to measure and
        ended with NONE.
        """

    @abstractmethod
    def notify_1_3(
        self, status: ErrorStatus, output_shapes: Sequence[OutputShape], timing: Timing
    ) -> None:
        """1.3 report, answering ``execute_1_3``: the rules of ``notify_1_2``, with the
        1.3 statuses too (MISSED_DEADLINE_*, RESOURCE_EXHAUSTED_*, which carry no
        shapes and ``NO_TIMING``). Exactly one notify per execution."""


class IFencedExecutionCallback(ABC):
    """What ``execute_fenced`` hands back besides its fence (1.3): the outcome of the
    execution once the fence has signalled."""

    @abstractmethod
    def get_execution_info(self) -> tuple[ErrorStatus, Timing, Timing]:
        """``(status, timing_launched, timing_fenced)`` of the fenced execution.

        Asked before the fence has signalled (or gone into error): GENERAL_FAILURE.
        Otherwise the execution's status: NONE, DEVICE_UNAVAILABLE, GENERAL_FAILURE,
        MISSED_DEADLINE_* or RESOURCE_EXHAUSTED_*. ``timing_launched`` runs from the
        ``execute_fenced`` call to the fence's signal, ``timing_fenced`` from the
        moment every awaited fence had signalled to the same signal; both are
        ``NO_TIMING`` unless timing was asked for and the status is NONE, and either
        may be unmeasured (``UINT64_MAX``) all the same.
        """


class IBurstCallback(ABC):
    """The client side of a burst: resolves memory slots to pools."""

    @abstractmethod
    def get_memories(self, slots: Sequence[int]) -> tuple[ErrorStatus, list[Memory]]:
        """The memories the client registered under ``slots``, in order.

        INVALID_ARGUMENT if any slot is unknown (then the list is empty).
        """


class IBurstContext(ABC):
    """The driver side of a burst, returned by ``configure_execution_burst``."""

    @abstractmethod
    def free_memory(self, slot: int) -> None:
        """Forget the memory cached under ``slot``. Unknown slots are ignored."""


# ---------------------------------------------------------------------------
# Prepared models
# ---------------------------------------------------------------------------


class IPreparedModel(ABC):
    """A model compiled for one device (1.0)."""

    @abstractmethod
    def execute(self, request: Request, callback: IExecutionCallback) -> ErrorStatus:
        """Launch one asynchronous execution.

        Validates ``request`` against the prepared model first: an invalid one
        returns INVALID_ARGUMENT and notifies the callback with it. Otherwise
        returns NONE and later notifies NONE, OUTPUT_INSUFFICIENT_SIZE (an output
        location shorter than the output's data), GENERAL_FAILURE or
        DEVICE_UNAVAILABLE. A 1.2 prepared model answers through ``notify``
        here, never ``notify_1_2``.
        """


class IPreparedModel_1_2(IPreparedModel):
    """A model compiled for one device (1.2): synchronous, timed, burst and cached."""

    @abstractmethod
    def execute_1_2(
        self, request: Request, measure: MeasureTiming, callback: IExecutionCallback
    ) -> ErrorStatus:
        """As ``execute``, reporting through ``notify_1_2`` with shapes and timing."""

    @abstractmethod
    def execute_synchronously(
        self, request: Request, measure: MeasureTiming
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        """Run one execution and return when it is done.

        Same statuses, shapes and timing rules as ``execute_1_2``'s callback.
        """

    @abstractmethod
    def configure_execution_burst(
        self, callback: IBurstCallback, request_channel: object, result_channel: object
    ) -> tuple[ErrorStatus, IBurstContext | None]:
        """Start serving executions sent as packets over two fast message queues.

        Mandatory at 1.2: NONE with a context, or an error status with None.
        """

    @abstractmethod
    def save_to_cache(
        self, model_cache: NativeHandle, data_cache: NativeHandle, token: bytes
    ) -> ErrorStatus:
        """Write this compiled model into the two cache files, bound to ``token``.

        Each handle holds exactly one open file descriptor of an empty regular
        file, opened for writing, at offset 0; the token is
        ``BYTE_SIZE_OF_CACHE_TOKEN`` bytes. INVALID_ARGUMENT when any of that
        does not hold; GENERAL_FAILURE if the driver does not cache (without
        looking at the arguments) or the write fails. The client may close the
        descriptors as soon as the call returns.
        """


class IPreparedModel_1_3(IPreparedModel_1_2):
    """A model compiled for one device (1.3): deadlines, loop timeouts, driver-managed
    buffers in requests, and fenced executions.

    The three 1.3 methods validate the request and every use of a driver-managed
    buffer in it (``Request.pools`` tokens, as ``IMemoryDomains`` describes) before
    anything else. ``deadline`` is an ``OptionalTimePoint`` (None: none; the driver
    may abort work that cannot meet it with MISSED_DEADLINE_*, and a deadline is never
    an invalid argument); ``loop_timeout_duration`` an ``OptionalTimeoutDuration``
    bounding each WHILE operation (None: ``LoopTimeoutDurationNs.DEFAULT``), whose
    expiry aborts with MISSED_DEADLINE_*. Timing is ``NO_TIMING`` unless ``measure``
    is YES and the status NONE; output shapes are empty unless the status is NONE or
    OUTPUT_INSUFFICIENT_SIZE. Bursts are unchanged: 1.2's, with 1.0 statuses.
    """

    @abstractmethod
    def execute_1_3(
        self,
        request: Request,
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
        callback: IExecutionCallback,
    ) -> ErrorStatus:
        """As ``execute_1_2``, answering through ``notify_1_3``.

        May return (and then also notify) NONE, DEVICE_UNAVAILABLE, GENERAL_FAILURE,
        OUTPUT_INSUFFICIENT_SIZE, INVALID_ARGUMENT, MISSED_DEADLINE_* or
        RESOURCE_EXHAUSTED_*. A request that is valid but whose deadline has passed
        launches with NONE and reports the missed deadline through the callback.
        """

    @abstractmethod
    def execute_synchronously_1_3(
        self,
        request: Request,
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
    ) -> tuple[ErrorStatus, list[OutputShape], Timing]:
        """As ``execute_synchronously`` with a deadline and a loop timeout; the statuses
        of ``execute_1_3``."""

    @abstractmethod
    def execute_fenced(
        self,
        request: Request,
        wait_for: Sequence[SyncFence],
        measure: MeasureTiming,
        deadline: OptionalTimePoint,
        loop_timeout_duration: OptionalTimeoutDuration,
        duration: OptionalTimeoutDuration,
    ) -> tuple[ErrorStatus, SyncFence | None, IFencedExecutionCallback | None]:
        """Run ``request`` once every fence of ``wait_for`` has signalled; answer at once.

        Every output must have fully specified dimensions (from the model or the
        request): otherwise, and for an invalid request, an invalid or errored
        fence in ``wait_for``, or a bad use of a driver-managed buffer, the answer
        is ``(INVALID_ARGUMENT, None, None)``. Any other error found at the call
        (DEVICE_UNAVAILABLE, GENERAL_FAILURE, MISSED_DEADLINE_*,
        RESOURCE_EXHAUSTED_*) is answered the same way, with no fence and no
        callback. On NONE the driver returns a fence that signals when the
        execution has finished (None if it already finished before returning) and
        a callback for its outcome; it puts the fence into the error state at
        once if an awaited fence errs, the deadline or ``duration`` (counted from
        the last awaited fence's signal) is missed, or the device fails. After the
        fence signals the driver no longer touches the request's memory.
        """


# ---------------------------------------------------------------------------
# Devices
# ---------------------------------------------------------------------------


class IDevice(ABC):
    """An accelerator driver (1.0)."""

    @abstractmethod
    def get_capabilities(self) -> tuple[ErrorStatus, Capabilities_1_0]:
        """Performance figures; every value positive, 1.0 meaning "as fast as the CPU"."""

    @abstractmethod
    def get_supported_operations(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        """One bool per operation of ``model``: can this device run it.

        INVALID_ARGUMENT (and an empty list) when the model is not a valid 1.0
        model, including a model using anything newer than 1.0.
        """

    @abstractmethod
    def prepare_model(self, model: Model, callback: IPreparedModelCallback) -> ErrorStatus:
        """Compile ``model`` asynchronously.

        INVALID_ARGUMENT, returned and notified with no prepared model, when the
        model is invalid at this method's version. For a valid model the launch
        status is NONE even if compiling will fail; the outcome comes through the
        callback (a 1.0 ``notify``), with a prepared model exactly when NONE.
        """

    @abstractmethod
    def get_status(self) -> DeviceStatus:
        """Whether the device can take work now."""


class IDevice_1_1(IDevice):
    """An accelerator driver (1.1): relaxed float32 and execution preferences."""

    @abstractmethod
    def get_capabilities_1_1(self) -> tuple[ErrorStatus, Capabilities_1_1]:
        """As ``get_capabilities``, with the relaxed-computation figure."""

    @abstractmethod
    def get_supported_operations_1_1(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        """As ``get_supported_operations``, judging ``model`` as a 1.1 model."""

    @abstractmethod
    def prepare_model_1_1(
        self, model: Model, preference: ExecutionPreference, callback: IPreparedModelCallback
    ) -> ErrorStatus:
        """As ``prepare_model`` for a 1.1 model.

        A ``preference`` outside ExecutionPreference is INVALID_ARGUMENT.
        """


class IDevice_1_2(IDevice_1_1):
    """An accelerator driver (1.2): dynamic shapes, extensions, caching and bursts."""

    @abstractmethod
    def get_capabilities_1_2(self) -> tuple[ErrorStatus, Capabilities_1_2]:
        """Figures for relaxed scalars and tensors, and per operand type (sorted by type)."""

    @abstractmethod
    def get_supported_operations_1_2(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        """As ``get_supported_operations``, judging ``model`` as a 1.2 model."""

    @abstractmethod
    def prepare_model_1_2(
        self, model: Model, preference: ExecutionPreference, callback: IPreparedModelCallback
    ) -> ErrorStatus:
        """As ``prepare_model_1_1`` for a 1.2 model; notifies through ``notify_1_2``
        with an ``IPreparedModel_1_2``."""

    @abstractmethod
    def get_version_string(self) -> tuple[ErrorStatus, str]:
        """A non-empty string naming the driver's version, for bug reports."""

    @abstractmethod
    def get_type(self) -> tuple[ErrorStatus, DeviceType]:
        """What kind of device this is."""

    @abstractmethod
    def get_supported_extensions(self) -> tuple[ErrorStatus, list[Extension]]:
        """The vendor extensions the driver understands; names look like
        ``com.example.my_extension`` (lower case, digits, ``_`` and at least one ``.``)."""

    @abstractmethod
    def is_caching_supported(self) -> tuple[ErrorStatus, bool]:
        """Whether ``save_to_cache`` and ``prepare_model_from_cache`` can work."""

    @abstractmethod
    def prepare_model_from_cache(
        self,
        model_cache: NativeHandle,
        data_cache: NativeHandle,
        token: bytes,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        """Rebuild a prepared model from files ``save_to_cache`` wrote for ``token``.

        Each handle holds exactly one open file descriptor of a regular file
        opened for reading, at offset 0; the token is
        ``BYTE_SIZE_OF_CACHE_TOKEN`` bytes: INVALID_ARGUMENT otherwise.
        GENERAL_FAILURE when caching is unsupported, the files are unreadable,
        or the model cache (or the token) is not exactly what ``save_to_cache``
        wrote for this token. Notifies through ``notify_1_2``; the client may
        close the descriptors as soon as the launch returns.
        """


class IDevice_1_3(IDevice_1_2):
    """An accelerator driver (1.3): control flow, signed 8-bit quantization,
    priorities, deadlines, fenced executions and driver-managed buffers.

    A subclass is a driver of level 1.3 (``hal.levels``). Every status this class's methods may give is listed in
    their docstrings; the 1.3 statuses appear only where listed.
    """

    @abstractmethod
    def get_capabilities_1_3(self) -> tuple[ErrorStatus, Capabilities_1_3]:
        """NONE with the figures (every one positive; ``operand_performance`` sorted by
        type, no SUBGRAPH entry), or DEVICE_UNAVAILABLE or GENERAL_FAILURE."""

    @abstractmethod
    def get_supported_operations_1_3(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        """One bool per operation of the **main** subgraph (not of ``model.referenced``).

        An IF or WHILE may be reported supported only if every operation of every
        subgraph it reaches is. NONE, DEVICE_UNAVAILABLE, GENERAL_FAILURE, or
        INVALID_ARGUMENT (and an empty list) when ``model`` is not a valid 1.3 model.
        """

    @abstractmethod
    def prepare_model_1_3(
        self,
        model: Model,
        preference: ExecutionPreference,
        priority: Priority,
        deadline: OptionalTimePoint,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        """As ``prepare_model_1_2`` for a 1.3 model; notifies through ``notify_1_3`` with
        an ``IPreparedModel_1_3``.

        INVALID_ARGUMENT, returned and notified with no prepared model, for an
        invalid model, a ``preference`` outside ExecutionPreference or a
        ``priority`` outside Priority. For valid arguments the launch status is
        NONE, even when the deadline has already passed: a missed deadline is
        notified (MISSED_DEADLINE_*), as is a refusal for want of resources
        (RESOURCE_EXHAUSTED_*). As at 1.2, caching is ``save_to_cache`` on the
        prepared model, so this method takes no cache files.
        """

    @abstractmethod
    def prepare_model_from_cache_1_3(
        self,
        deadline: OptionalTimePoint,
        model_cache: NativeHandle,
        data_cache: NativeHandle,
        token: bytes,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        """As ``prepare_model_from_cache`` with a deadline, notifying through
        ``notify_1_3``; its statuses, plus MISSED_DEADLINE_* and RESOURCE_EXHAUSTED_*."""

    @abstractmethod
    def allocate(
        self,
        desc: BufferDesc,
        prepared_models: Sequence[IPreparedModel_1_3],
        input_roles: Sequence[BufferRole],
        output_roles: Sequence[BufferRole],
    ) -> tuple[ErrorStatus, IBuffer | None, int]:
        """A driver-managed buffer, as ``IMemoryDomains.allocate`` describes it.

        Every 1.3 driver has this method: one without memory domains answers
        ``(GENERAL_FAILURE, None, 0)``. The prepared models are 1.3 ones of this
        device; the roles index ``main``'s inputs and outputs. Statuses: NONE,
        DEVICE_UNAVAILABLE, GENERAL_FAILURE (a valid allocation the driver
        declines), INVALID_ARGUMENT; with an error, ``(status, None, 0)``.
        """


# ---------------------------------------------------------------------------
# Memory domains (HAL 1.3, optional): driver-managed buffers
# ---------------------------------------------------------------------------


class IBuffer(ABC):
    """A buffer the driver allocated and keeps on its side (1.3 ``IBuffer``).

    A buffer starts uninitialised. It becomes initialised when an execution
    writes it as an output and ends with NONE, or when ``copy_from``
    succeeds; a failed execution writing it, or a failed ``copy_from``, makes
    it uninitialised again. Its dimensions are those ``allocate`` combined,
    completed by the last successful write.
    """

    @abstractmethod
    def copy_to(self, memory: Memory) -> ErrorStatus:
        """Copy the buffer's content into ``memory``, whose size must equal the data's.

        GENERAL_FAILURE if the buffer is uninitialised; INVALID_ARGUMENT if
        ``memory`` cannot be mapped or its size differs, or after ``release``.
        """

    @abstractmethod
    def copy_from(self, memory: Memory, dimensions: Sequence[int]) -> ErrorStatus:
        """Set the buffer's content from ``memory`` and its dimensions from ``dimensions``.

        ``dimensions`` may be empty when the buffer's are fully specified;
        otherwise they must be fully specified and agree with every dimension
        the buffer knows. INVALID_ARGUMENT if they do not, if ``memory`` cannot
        be mapped, if its size is not the data's, or after ``release``.
        """

    @abstractmethod
    def release(self) -> None:
        """Free the buffer; its token becomes unknown to the driver at once.

        The Python stand-in for dropping the last reference to a HIDL
        ``IBuffer``. Releasing twice is harmless.
        """


class IMemoryDomains(ABC):
    """Optional mix-in of a device that allocates driver-managed buffers.

    A 1.2 driver may subclass it besides ``IDevice_1_2``; the suite detects it
    with isinstance. Such a driver accepts ``int`` tokens in ``Request.pools``
    (drivers without it answer INVALID_ARGUMENT) and validates every use of a
    buffer: a token that is unknown or released, used in a role not declared
    at allocation, or by a prepared model not given to ``allocate`` is
    INVALID_ARGUMENT; an uninitialised buffer used as an input fails the
    execution with GENERAL_FAILURE.
    """

    @abstractmethod
    def allocate(
        self,
        desc: BufferDesc,
        prepared_models: Sequence[IPreparedModel],
        input_roles: Sequence[BufferRole],
        output_roles: Sequence[BufferRole],
    ) -> tuple[ErrorStatus, IBuffer | None, int]:
        """A new buffer serving every role given, with its token.

        NONE with the buffer and a positive int32 token no live buffer of this
        device has. INVALID_ARGUMENT (None, 0) when there is no role, a role
        names a missing model or io index or has a frequency outside
        (0.0, 1.0], a role repeats, a prepared model is not this device's, the
        roles' operands differ in type, scale, zero point or extra parameters,
        or their dimensions and ``desc.dimensions`` conflict (both known and
        different on some axis). GENERAL_FAILURE (None, 0) when the driver
        declines the buffer or a role.
        """
