"""The reference driver's device: an ``IDevice_1_3`` computing with numpy on the CPU.

At 1.3 it offers the operations of the catalog its families implement, in the forms
they name (an operation signature it has no kernel for is reported unsupported), IF
and WHILE (run by the executor, claimed when it runs every operation of the subgraphs
they call, loop timeouts kept: ``reference_driver.executor``), priorities (accepted, validated, otherwise ignored: a hint), deadlines
as Android 11's sample driver treats them (``reference_driver.prepared_model``),
fenced executions and driver-managed buffers. Its prepared models are
``IPreparedModel_1_3`` whichever prepare method made them.

Options make partial drivers, so that the suite's skip and partial-support
paths can be tested against a driver that really is partial:

* ``operations``: the operation types it claims (default: all it implements, IF
  and WHILE among them, including ``reference_driver.ops.extensions.SATURATING_ADD`` of its vendor
  extension ``org.nnhal_conformance.demo``, which ``get_supported_extensions``
  declares);
* ``disabled_rules``: ``hal.validation`` rules it does not enforce (a driver
  with a missing check, for proving the suite catches it);
* ``caching``: whether it supports compilation caching (default True);
* ``cache_key``: the secret that authenticates its cache files (default: 32
  random bytes per driver object, so a cache outlives neither the object nor
  the process unless the factory passes a key it keeps);
* ``memory_domains``: whether ``allocate`` serves driver-managed buffers
  (default True; False declines every allocation with GENERAL_FAILURE);
* ``memory_budget`` and ``work_budget``: what one execution may spend
  (``reference_driver.executor.Budgets``: bytes held at once, default 1 GiB;
  elementary steps, default 2**31). A model or request over either is a valid one
  this device cannot run: GENERAL_FAILURE, at preparation when the constants and
  declared dimensions already decide it, at execution otherwise.

Every HAL method is guarded (``reference_driver.guard``): nothing raises out of
it; an unexpected exception is logged and answered with GENERAL_FAILURE.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

from hal.interfaces import (
    IDevice_1_2,
    IDevice_1_3,
    IMemoryDomains,
    IPreparedModel,
    IPreparedModelCallback,
)
from hal.memory import NativeHandle
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
    HalVersion,
    Model,
    OperandLifeTime,
    OperandPerformance,
    OperandType,
    OperationType,
    OptionalTimePoint,
    Priority,
    is_optional_nanoseconds,
    operand_type_introduced,
)
from hal.validation import referenced_index, validate_execution_preference, validate_model
from reference_driver.buffers import BufferRegistry, ReferenceBuffer
from reference_driver.cache import (
    CacheArgumentError,
    CacheRejected,
    check_handle,
    check_token,
    open_sealed,
    read_all,
    read_model_cache,
)
from reference_driver.executor import (
    CONTROL_FLOW,
    DEFAULT_MEMORY_BUDGET,
    DEFAULT_WORK_BUDGET,
    MAX_NESTING,
    REFERENCE_SLOTS,
    Budgets,
    Plan,
    PlanError,
    PlanInvalid,
    call_order,
    operation_args,
    read_constants,
    subgraph_calls,
    subgraph_model,
)
from reference_driver.guard import LOG, async_hal_method, guarded, hal_method
from reference_driver.ops import EXTENSION_REGISTRY, REGISTRY, implementation, operation_key
from reference_driver.ops.extensions import EXTENSIONS
from reference_driver.performance import (
    CONTROL_FLOW_PERFORMANCE,
    FLOAT_PERFORMANCE,
    QUANT_PERFORMANCE,
    performance_of,
)
from reference_driver.prepared_model import ReferencePreparedModel, deadline_passed
from reference_driver.verdicts import ModelVerdicts

VERSION_STRING = "nnhal-reference-driver 0.1.0"


def _no_support() -> tuple[ErrorStatus, list[bool]]:
    return ErrorStatus.GENERAL_FAILURE, []


def _valid_priority(priority: object) -> bool:
    """A member of Priority (or its plain int value; never a bool)."""
    return (
        isinstance(priority, int)
        and not isinstance(priority, bool)
        and priority in Priority._value2member_map_
    )


def _per_type(newest: HalVersion) -> tuple[OperandPerformance, ...]:
    """A figure per fundamental operand type known at ``newest``, sorted by type (no OEM
    type, which this driver does not run, and no SUBGRAPH, which the HAL forbids)."""
    return tuple(
        OperandPerformance(t, performance_of(t))
        for t in sorted(OperandType)
        if t < OperandType.OEM
        and t != OperandType.SUBGRAPH
        and (introduced := operand_type_introduced(t)) is not None
        and introduced <= newest
    )


class ReferenceDriver_1_2(IDevice_1_2, IMemoryDomains):
    """The reference driver as a HAL 1.2 driver (with memory domains): what the project's
    own tests build 1.0-1.2 faulty drivers on. Its 1.3 methods are there (it is
    ``ReferenceDriver``'s code) but make it no 1.3 driver: a driver's level is the
    newest ``IDevice`` class it subclasses, and this one is an ``IDevice_1_2``."""

    prepared_model_class = ReferencePreparedModel
    """What preparation builds (tests subclass it to make drivers with one fault)."""
    plan_class = Plan
    """How preparation plans a model (tests subclass ``Plan`` to make drivers with one
    fault in its control flow: ``_branch``, ``_loop_timed_out``, ``_run_while``)."""

    def __init__(
        self,
        *,
        operations: Iterable[int] | None = None,
        disabled_rules: Iterable[str] = (),
        max_workers: int = 2,
        memory_domains: bool = True,
        caching: bool = True,
        cache_key: bytes | None = None,
        memory_budget: int = DEFAULT_MEMORY_BUDGET,
        work_budget: int = DEFAULT_WORK_BUDGET,
    ) -> None:
        self.budgets = Budgets(memory_budget, work_budget)
        self._operations = frozenset(
            [*REGISTRY, *CONTROL_FLOW, *EXTENSION_REGISTRY] if operations is None else operations
        )
        self._disabled_rules = frozenset(disabled_rules)
        self._verdicts = ModelVerdicts()
        """Supported operations and then preparation of one model: validated once."""
        self._cache_key = (cache_key or os.urandom(32)) if caching else None
        self._executor = ThreadPoolExecutor(max_workers, thread_name_prefix="nnhal-reference")
        self._buffers = BufferRegistry() if memory_domains else None

    # -- capabilities and identity ------------------------------------------

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None))
    def get_capabilities(self) -> tuple[ErrorStatus, Capabilities_1_0]:
        return ErrorStatus.NONE, Capabilities_1_0(FLOAT_PERFORMANCE, QUANT_PERFORMANCE)

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None))
    def get_capabilities_1_1(self) -> tuple[ErrorStatus, Capabilities_1_1]:
        return ErrorStatus.NONE, Capabilities_1_1(
            FLOAT_PERFORMANCE, QUANT_PERFORMANCE, FLOAT_PERFORMANCE
        )

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None))
    def get_capabilities_1_2(self) -> tuple[ErrorStatus, Capabilities_1_2]:
        per_type = _per_type(HalVersion.V1_2)
        return ErrorStatus.NONE, Capabilities_1_2(FLOAT_PERFORMANCE, FLOAT_PERFORMANCE, per_type)

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None))
    def get_capabilities_1_3(self) -> tuple[ErrorStatus, Capabilities_1_3]:
        # IF and WHILE: the executor's own work (reference_driver.performance).
        return ErrorStatus.NONE, Capabilities_1_3(
            FLOAT_PERFORMANCE,
            FLOAT_PERFORMANCE,
            _per_type(HalVersion.V1_3),
            CONTROL_FLOW_PERFORMANCE,
            CONTROL_FLOW_PERFORMANCE,
        )

    @hal_method(lambda: DeviceStatus.UNKNOWN)
    def get_status(self) -> DeviceStatus:
        return DeviceStatus.AVAILABLE

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, ""))
    def get_version_string(self) -> tuple[ErrorStatus, str]:
        return ErrorStatus.NONE, VERSION_STRING

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None))
    def get_type(self) -> tuple[ErrorStatus, DeviceType]:
        return ErrorStatus.NONE, DeviceType.CPU

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, []))
    def get_supported_extensions(self) -> tuple[ErrorStatus, list[Extension]]:
        return ErrorStatus.NONE, list(EXTENSIONS)

    # -- memory domains (reference_driver/buffers.py) --------------------------

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, None, 0))
    def allocate(
        self,
        desc: BufferDesc,
        prepared_models: Sequence[IPreparedModel],
        input_roles: Sequence[BufferRole],
        output_roles: Sequence[BufferRole],
    ) -> tuple[ErrorStatus, ReferenceBuffer | None, int]:
        if self._buffers is None:
            return ErrorStatus.GENERAL_FAILURE, None, 0
        return self._buffers.allocate(desc, prepared_models, input_roles, output_roles)

    # -- supported operations -----------------------------------------------

    def _valid(self, model: Model, version: HalVersion) -> bool:
        return self._verdicts.verdict(
            model,
            version,
            lambda: validate_model(model, version, disabled=self._disabled_rules, limit=1).ok,
        )

    def _supported(self, model: Model, version: HalVersion) -> tuple[ErrorStatus, list[bool]]:
        if not self._valid(model, version):
            return ErrorStatus.INVALID_ARGUMENT, []
        return ErrorStatus.NONE, self._support(model)

    def _support(self, model: Model) -> list[bool]:
        """Per operation of a valid model's main subgraph, whether this driver runs it: an
        IF or WHILE when every operation of the subgraphs it calls, transitively, is
        supported (and, for an IF, its condition has a value)."""
        order = call_order(model)
        # Per referenced subgraph, whether every operation of it is supported and its
        # calls nest at most MAX_NESTING deep (no entry at all for a model with a
        # reference cycle: no IF or WHILE of it runs).
        runs: dict[int, bool] = {}
        height: dict[int, int] = {}
        for k in order or ():
            view = subgraph_model(model, model.referenced[k])
            height[k] = 1 + max((height[c] for c in subgraph_calls(model, view)), default=0)
            runs[k] = height[k] <= MAX_NESTING and all(self._graph_support(view, runs))
        return self._graph_support(model, runs)

    def _control_supported(self, model: Model, operation, runs: dict[int, bool]) -> bool:
        slots = REFERENCE_SLOTS[operation.type]
        if len(operation.inputs) < 3 or operation.type not in self._operations:
            return False
        refs = [referenced_index(model, model.operands[operation.inputs[s]]) for s in slots]
        if operation.type == OperationType.IF:
            condition = model.operands[operation.inputs[0]]
            if condition.lifetime == OperandLifeTime.NO_VALUE:
                return False  # valid, but it can never run: declined (if_no_value)
        return all(k is not None and runs.get(k, False) for k in refs)

    def _graph_support(self, model: Model, runs: dict[int, bool]) -> list[bool]:
        """Per operation of ``model`` (a main subgraph, or a referenced one seen as a
        model), whether this driver runs it; ``runs``: the referenced subgraphs' answers."""
        try:
            constants = read_constants(model)
        except PlanError:
            constants = {}  # judged on types alone; preparation will fail on the pool
        answers = []
        for operation in model.operations:
            if operation.type in CONTROL_FLOW:
                answers.append(self._control_supported(model, operation, runs))
                continue
            impl = implementation(model, operation.type)
            answers.append(
                impl is not None
                and operation_key(model, operation.type) in self._operations
                and impl.supports(
                    operation_args(
                        model, tuple(operation.inputs), tuple(operation.outputs), constants
                    )
                )
            )
        return answers

    @hal_method(_no_support)
    def get_supported_operations(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        return self._supported(model, HalVersion.V1_0)

    @hal_method(_no_support)
    def get_supported_operations_1_1(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        return self._supported(model, HalVersion.V1_1)

    @hal_method(_no_support)
    def get_supported_operations_1_2(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        return self._supported(model, HalVersion.V1_2)

    @hal_method(_no_support)
    def get_supported_operations_1_3(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        # One answer per operation of the main subgraph (``model``'s own lists).
        return self._supported(model, HalVersion.V1_3)

    # -- preparation ----------------------------------------------------------

    def _arguments_valid(self, model: Model, version: HalVersion, preference: int) -> bool:
        return (
            self._valid(model, version)
            and validate_execution_preference(preference, disabled=self._disabled_rules).ok
        )

    def _prepare(
        self,
        model: Model,
        version: HalVersion,
        preference: int,
        notify: Callable[[ErrorStatus, ReferencePreparedModel | None], None],
    ) -> ErrorStatus:
        if not self._arguments_valid(model, version, preference):
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT

        # Planning runs at once, so invalid parameter values answer at launch.
        plan: Plan | None = None
        try:
            if not all(self._support(model)):
                raise PlanError("the model uses operations this driver does not support")
            plan = self.plan_class(model, self.budgets)
        except PlanInvalid:
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        except PlanError as error:
            LOG.info("preparation fails: %s", error)
            plan = None
        except Exception:
            LOG.exception("planning raised; preparation fails")
            plan = None

        def work() -> None:
            if plan is None:
                notify(ErrorStatus.GENERAL_FAILURE, None)
                return
            prepared = self.prepared_model_class(
                model, plan, version, self._executor, self._disabled_rules, self._cache_key
            )
            if self._buffers is not None:
                prepared.attach_buffers(self._buffers)
            notify(ErrorStatus.NONE, prepared)

        self._executor.submit(guarded(work, lambda: notify(ErrorStatus.GENERAL_FAILURE, None)))
        return ErrorStatus.NONE

    @async_hal_method("notify", ErrorStatus.GENERAL_FAILURE, None)
    def prepare_model(self, model: Model, callback: IPreparedModelCallback) -> ErrorStatus:
        return self._prepare(
            model, HalVersion.V1_0, ExecutionPreference.FAST_SINGLE_ANSWER, callback.notify
        )

    @async_hal_method("notify_1_2", ErrorStatus.GENERAL_FAILURE, None)
    def prepare_model_1_1(
        self, model: Model, preference: ExecutionPreference, callback: IPreparedModelCallback
    ) -> ErrorStatus:
        return self._prepare(model, HalVersion.V1_1, preference, callback.notify)

    @async_hal_method("notify_1_2", ErrorStatus.GENERAL_FAILURE, None)
    def prepare_model_1_2(
        self, model: Model, preference: ExecutionPreference, callback: IPreparedModelCallback
    ) -> ErrorStatus:
        return self._prepare(model, HalVersion.V1_2, preference, callback.notify_1_2)

    @async_hal_method("notify_1_3", ErrorStatus.GENERAL_FAILURE, None)
    def prepare_model_1_3(
        self,
        model: Model,
        preference: ExecutionPreference,
        priority: Priority,
        deadline: OptionalTimePoint,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        # The model, the preference and the priority first (INVALID_ARGUMENT, notified
        # and returned), then the deadline: one already passed launches with NONE and is
        # notified as MISSED_DEADLINE_PERSISTENT (Android 11's sample driver).
        if not _valid_priority(priority) or not is_optional_nanoseconds(deadline):
            callback.notify_1_3(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        if deadline_passed(deadline) and self._arguments_valid(model, HalVersion.V1_3, preference):
            callback.notify_1_3(ErrorStatus.MISSED_DEADLINE_PERSISTENT, None)
            return ErrorStatus.NONE
        return self._prepare(model, HalVersion.V1_3, preference, callback.notify_1_3)

    # -- caching (reference_driver/cache.py) ---------------------------------

    @hal_method(lambda: (ErrorStatus.GENERAL_FAILURE, False))
    def is_caching_supported(self) -> tuple[ErrorStatus, bool]:
        return ErrorStatus.NONE, self._cache_key is not None

    @async_hal_method("notify_1_2", ErrorStatus.GENERAL_FAILURE, None)
    def prepare_model_from_cache(
        self,
        model_cache: NativeHandle,
        data_cache: NativeHandle,
        token: bytes,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        return self._from_cache(model_cache, data_cache, token, callback.notify_1_2)

    @async_hal_method("notify_1_3", ErrorStatus.GENERAL_FAILURE, None)
    def prepare_model_from_cache_1_3(
        self,
        deadline: OptionalTimePoint,
        model_cache: NativeHandle,
        data_cache: NativeHandle,
        token: bytes,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        if not is_optional_nanoseconds(deadline):
            callback.notify_1_3(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        return self._from_cache(model_cache, data_cache, token, callback.notify_1_3, deadline)

    def _from_cache(
        self,
        model_cache: NativeHandle,
        data_cache: NativeHandle,
        token: bytes,
        answer: Callable[[ErrorStatus, ReferencePreparedModel | None], None],
        deadline: OptionalTimePoint = None,
    ) -> ErrorStatus:
        """Both prepare-from-cache methods, answering through ``answer``. A deadline that
        has passed is checked after the arguments (MISSED_DEADLINE_PERSISTENT, notified,
        with NONE at launch, as ``prepare_model_1_3`` does)."""

        def refuse(status: ErrorStatus) -> ErrorStatus:
            answer(status, None)
            return status

        if self._cache_key is None:
            return refuse(ErrorStatus.GENERAL_FAILURE)
        try:
            token = check_token(token)
            model_fd = check_handle(model_cache, "model_cache", writing=False)
            data_fd = check_handle(data_cache, "data_cache", writing=False)
        except CacheArgumentError:
            return refuse(ErrorStatus.INVALID_ARGUMENT)
        if deadline_passed(deadline):
            answer(ErrorStatus.MISSED_DEADLINE_PERSISTENT, None)
            return ErrorStatus.NONE
        try:
            # Read whole, once, before the call returns: the client may close the
            # descriptors then, and later changes to the files cannot matter.
            model, version = self._open_cache(token, *self._read_cache(token, model_fd, data_fd))
        except (CacheRejected, OSError):
            return refuse(ErrorStatus.GENERAL_FAILURE)

        # A model this driver sealed was valid when saved: any failure now means a bad cache.
        def notify(status: ErrorStatus, prepared: ReferencePreparedModel | None) -> None:
            ok = status == ErrorStatus.NONE
            answer(status if ok else ErrorStatus.GENERAL_FAILURE, prepared)

        status = self._prepare(model, version, ExecutionPreference.FAST_SINGLE_ANSWER, notify)
        return status if status == ErrorStatus.NONE else ErrorStatus.GENERAL_FAILURE

    authenticate_cache = True
    """Whether the model cache's tag is checked as it is read (a test driver turns it off)."""

    def _read_cache(self, token: bytes, model_fd: int, data_fd: int) -> tuple[bytes, bytes]:
        """Both caches' bytes: the model cache authenticated as it is read, then the data
        cache, capped at the memory budget (its digest is checked by ``_open_cache``)."""
        model_bytes = read_model_cache(
            model_fd, self._cache_key, token, authenticate=self.authenticate_cache
        )
        return model_bytes, read_all(data_fd, limit=self.budgets.memory)

    def _open_cache(self, token: bytes, model_bytes: bytes, data_bytes: bytes):
        return open_sealed(self._cache_key, token, model_bytes, data_bytes)


class ReferenceDriver(ReferenceDriver_1_2, IDevice_1_3):
    """The bundled driver every part of the suite is checked against: a HAL 1.3 driver
    (every 1.3 method; the operations and forms its families implement, and control
    flow)."""
