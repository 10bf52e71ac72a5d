"""A driver in front of a permissive runtime: it refuses only what ``hal.checks`` refuses.

Issue 45 item 1 ("[translating-vendor]"): a vendor that hands models to another
runtime (ONNX Runtime, TFLite, TVM) must make the HAL's checks itself, since such a
runtime computes something from an invalid model. ``PermissiveDriver`` plays that
vendor: its "runtime" is the reference driver's ``execute`` functions, run on the
output shapes ``hal.checks`` gave, which check nothing the public checks did not.
Before handing a model over it calls ``hal.validation`` (through the reference
driver's supported-operations answer and request validation) and ``hal.checks``:
``check_model`` when preparing, ``check_execution`` with the request's input values
when executing. ``tests/contract/test_public_checks.py`` runs the invalid-value tests
against it (this file copied beside the run) and expects every one to pass.
"""

from __future__ import annotations

import logging

import numpy as np

from hal.checks import OpArgs, check_execution, check_model
from hal.memory import MemoryError_
from hal.tensors import RequestData, read_constants
from hal.types import ErrorStatus, HalVersion, Model, Request
from hal.validation import validate_execution_preference
from reference_driver import ReferenceDriver
from reference_driver.executor import RunResult
from reference_driver.guard import guarded
from reference_driver.ops import implementation
from reference_driver.prepared_model import ReferencePreparedModel

LOG = logging.getLogger("permissive_driver")


def _run_graph(
    model: Model, values: dict[int, np.ndarray], shapes: tuple[tuple | None, ...]
) -> dict[int, np.ndarray] | None:
    """The "runtime": each operation's ``execute`` on the shapes the checks gave (None:
    a shape the checks could not decide, which this runtime cannot run)."""
    for operation, outputs in zip(model.operations, shapes, strict=True):
        impl = implementation(model, operation.type)
        if impl is None or outputs is None:
            return None
        args = OpArgs(
            [model.operands[i] for i in operation.inputs],
            [model.operands[i] for i in operation.outputs],
            [values.get(i) for i in operation.inputs],
        )
        results = impl.execute(args, [tuple(shape) for shape in outputs])
        for index, shape, result in zip(operation.outputs, outputs, results, strict=True):
            values[index] = np.asarray(result).reshape(shape)
    return values


class _Translated(ReferencePreparedModel):
    """Executes through ``check_execution`` and the permissive runtime (no plan)."""

    def _plan_run(self, request: Request, binding, *limits: object) -> RunResult:
        # (``limits``: the 1.3 methods' deadline and loop timeout, which this runtime ignores)
        try:
            with RequestData(self._model, request) as data:
                given = data.inputs()
                inputs = [given.get(index) for index in self._model.input_indexes]
                check = check_execution(self._model, inputs, self._version)
                if not check.ok:
                    return RunResult(check.status, [])
                values = {**read_constants(self._model), **given}
                computed = _run_graph(self._model, values, check.output_shapes)
                if computed is None:
                    return RunResult(ErrorStatus.GENERAL_FAILURE, [])
                status, shapes = data.write_outputs(computed)
                return RunResult(status, shapes)
        except MemoryError_:
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        except Exception:
            # The runtime failed on a model the checks let through: a device failure.
            LOG.exception("the permissive runtime failed")
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])


class PermissiveDriver(ReferenceDriver):
    """The reference driver's interface, with ``hal.checks`` as its only operation checks."""

    prepared_model_class = _Translated

    def __init__(self) -> None:
        super().__init__(memory_domains=False, caching=False)

    def _prepare(self, model: Model, version: HalVersion, preference: int, notify) -> ErrorStatus:
        if not validate_execution_preference(preference).ok:
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        try:
            check = check_model(model, version)
        except MemoryError_:
            check = None  # a constant pool the driver cannot read: a device failure
        if check is not None and not check.ok:
            notify(check.status, None)
            return check.status
        runnable = check is not None and all(self._support(model))

        def work() -> None:
            if not runnable:
                notify(ErrorStatus.GENERAL_FAILURE, None)
                return
            prepared = self.prepared_model_class(
                model, None, version, self._executor, self._disabled_rules, None
            )
            notify(ErrorStatus.NONE, prepared)

        self._executor.submit(guarded(work, lambda: notify(ErrorStatus.GENERAL_FAILURE, None)))
        return ErrorStatus.NONE


class _Unchecked(_Translated):
    def _plan_run(self, request: Request, binding, *limits: object) -> RunResult:
        with RequestData(self._model, request) as data:
            given = data.inputs()
            shapes = [None if v is None else v.shape for v in given.values()]
            LOG.debug("running unchecked inputs of shapes %s", shapes)
        return RunResult(ErrorStatus.NONE, [])


class UncheckedDriver(PermissiveDriver):
    """The control: the same runtime without ``hal.checks`` (``hal.validation`` only).
    It prepares every model ``hal.validation`` accepts and answers every execution NONE,
    so the invalid-value tests must fail against it."""

    prepared_model_class = _Unchecked

    def _prepare(self, model: Model, version: HalVersion, preference: int, notify) -> ErrorStatus:
        prepared = self.prepared_model_class(
            model, None, version, self._executor, self._disabled_rules, None
        )
        notify(ErrorStatus.NONE, prepared)
        return ErrorStatus.NONE
