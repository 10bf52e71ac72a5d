"""The interfaces of the Python HAL: what a driver implements and what calls it back.

These are abstract base classes. A driver subclasses them, and its HAL level
is the newest class it is an instance of (``IDevice_1_2`` means 1.2): the
check is nominal, never duck-typed. Every method mirrors the HIDL method of the
same name in snake_case. Conventions shared by all of them:

* A HIDL method that ``generates (ErrorStatus status, X x)`` returns the tuple
  ``(status, x)``. A method that generates only a status returns it alone.
* Errors are values. A driver never lets an exception escape; the suite
  records an escaped exception as a failure of the method that raised it.
* Asynchronous methods (``prepare_model*``, ``execute``, ``execute_1_2``)
  return a launch status at once and call the callback's notify exactly once,
  from any thread, before or after returning. If the launch status is not
  NONE, the callback is still notified, with the same status.
* Every method may be called from several threads at once, on one object or
  on many; a driver serialises internally where it must.
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
    DeviceStatus,
    DeviceType,
    ErrorStatus,
    ExecutionPreference,
    Extension,
    MeasureTiming,
    Model,
    OutputShape,
    Request,
    Timing,
)

if TYPE_CHECKING:
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
