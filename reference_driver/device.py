"""The reference driver's device: an ``IDevice_1_2`` computing with numpy on the CPU.

Options make partial drivers, so that the suite's skip and partial-support
paths can be tested against a driver that really is partial:

* ``operations``: the operation types it claims (default: all it implements);
* ``disabled_rules``: ``hal.validation`` rules it does not enforce (a driver
  with a missing check, for proving the suite catches it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from hal.interfaces import IDevice_1_2, IPreparedModelCallback
from hal.memory import NativeHandle
from hal.types import (
    Capabilities_1_0,
    Capabilities_1_1,
    Capabilities_1_2,
    DeviceStatus,
    DeviceType,
    ErrorStatus,
    ExecutionPreference,
    Extension,
    HalVersion,
    Model,
    OperandPerformance,
    OperandType,
    PerformanceInfo,
)
from hal.validation import validate_execution_preference, validate_model
from reference_driver.executor import (
    Plan,
    PlanError,
    PlanInvalid,
    guarded,
    operation_args,
    read_constants,
)
from reference_driver.ops import REGISTRY
from reference_driver.prepared_model import ReferencePreparedModel

VERSION_STRING = "nnhal-reference-driver 0.1.0"
_UNIT = PerformanceInfo(exec_time=1.0, power_usage=1.0)


class ReferenceDriver(IDevice_1_2):
    """The bundled driver every part of the suite is checked against."""

    def __init__(
        self,
        *,
        operations: Iterable[int] | None = None,
        disabled_rules: Iterable[str] = (),
        max_workers: int = 2,
    ) -> None:
        self._operations = frozenset(REGISTRY if operations is None else operations)
        self._disabled_rules = frozenset(disabled_rules)
        self._executor = ThreadPoolExecutor(max_workers, thread_name_prefix="nnhal-reference")

    # -- capabilities and identity ------------------------------------------

    def get_capabilities(self) -> tuple[ErrorStatus, Capabilities_1_0]:
        return ErrorStatus.NONE, Capabilities_1_0(_UNIT, _UNIT)

    def get_capabilities_1_1(self) -> tuple[ErrorStatus, Capabilities_1_1]:
        return ErrorStatus.NONE, Capabilities_1_1(_UNIT, _UNIT, _UNIT)

    def get_capabilities_1_2(self) -> tuple[ErrorStatus, Capabilities_1_2]:
        per_type = tuple(
            OperandPerformance(t, _UNIT) for t in sorted(OperandType) if t < OperandType.OEM
        )
        return ErrorStatus.NONE, Capabilities_1_2(_UNIT, _UNIT, per_type)

    def get_status(self) -> DeviceStatus:
        return DeviceStatus.AVAILABLE

    def get_version_string(self) -> tuple[ErrorStatus, str]:
        return ErrorStatus.NONE, VERSION_STRING

    def get_type(self) -> tuple[ErrorStatus, DeviceType]:
        return ErrorStatus.NONE, DeviceType.CPU

    def get_supported_extensions(self) -> tuple[ErrorStatus, list[Extension]]:
        return ErrorStatus.NONE, []

    # -- supported operations -----------------------------------------------

    def _supported(self, model: Model, version: HalVersion) -> tuple[ErrorStatus, list[bool]]:
        if not validate_model(model, version, disabled=self._disabled_rules).ok:
            return ErrorStatus.INVALID_ARGUMENT, []
        try:
            constants = read_constants(model)
        except PlanError:
            constants = {}  # judged on types alone; preparation will fail on the pool
        answers = []
        for operation in model.operations:
            impl = REGISTRY.get(operation.type)
            answers.append(
                impl is not None
                and operation.type in self._operations
                and impl.supports(
                    operation_args(
                        model, tuple(operation.inputs), tuple(operation.outputs), constants
                    )
                )
            )
        return ErrorStatus.NONE, answers

    def get_supported_operations(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        return self._supported(model, HalVersion.V1_0)

    def get_supported_operations_1_1(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        return self._supported(model, HalVersion.V1_1)

    def get_supported_operations_1_2(self, model: Model) -> tuple[ErrorStatus, list[bool]]:
        return self._supported(model, HalVersion.V1_2)

    # -- preparation ----------------------------------------------------------

    def _prepare(
        self,
        model: Model,
        version: HalVersion,
        preference: int,
        notify: Callable[[ErrorStatus, ReferencePreparedModel | None], None],
    ) -> ErrorStatus:
        valid = validate_model(model, version, disabled=self._disabled_rules)
        if (
            not valid.ok
            or not validate_execution_preference(preference, disabled=self._disabled_rules).ok
        ):
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT

        # Planning runs at once, so invalid parameter values answer at launch.
        plan: Plan | None = None
        try:
            _, answers = self._supported(model, version)
            if not all(answers):
                raise PlanError("the model uses operations this driver does not support")
            plan = Plan(model)
        except PlanInvalid:
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        except Exception:
            plan = None

        def work() -> None:
            if plan is None:
                notify(ErrorStatus.GENERAL_FAILURE, None)
                return
            prepared = ReferencePreparedModel(
                model, plan, version, self._executor, self._disabled_rules
            )
            notify(ErrorStatus.NONE, prepared)

        self._executor.submit(guarded(work, lambda: notify(ErrorStatus.GENERAL_FAILURE, None)))
        return ErrorStatus.NONE

    def prepare_model(self, model: Model, callback: IPreparedModelCallback) -> ErrorStatus:
        return self._prepare(
            model, HalVersion.V1_0, ExecutionPreference.FAST_SINGLE_ANSWER, callback.notify
        )

    def prepare_model_1_1(
        self, model: Model, preference: ExecutionPreference, callback: IPreparedModelCallback
    ) -> ErrorStatus:
        return self._prepare(model, HalVersion.V1_1, preference, callback.notify)

    def prepare_model_1_2(
        self, model: Model, preference: ExecutionPreference, callback: IPreparedModelCallback
    ) -> ErrorStatus:
        return self._prepare(model, HalVersion.V1_2, preference, callback.notify_1_2)

    # -- caching (arrives with the [caching] issue) ---------------------------

    def is_caching_supported(self) -> tuple[ErrorStatus, bool]:
        return ErrorStatus.NONE, False

    def prepare_model_from_cache(
        self,
        model_cache: NativeHandle,
        data_cache: NativeHandle,
        token: bytes,
        callback: IPreparedModelCallback,
    ) -> ErrorStatus:
        callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, None)
        return ErrorStatus.GENERAL_FAILURE
