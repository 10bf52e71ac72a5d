"""A partial HAL 1.2 driver: float32 ADD, MUL and RELU, and quant8 RELU; nothing else.

Written with ``hal``'s public helpers only: ``hal.validation`` refuses invalid
models and requests, ``hal.tensors`` reads constants and inputs and writes
outputs, ``hal.burst`` serves bursts. Every other operation is declined: it
answers False for it in ``get_supported_operations*``, and a model holding it
fails to prepare with GENERAL_FAILURE through the callback.

    nnhal-drivers --check my_driver:Factory
    nnhal-certify --driver my_driver:Factory
"""

from __future__ import annotations

import time

import numpy as np

from hal import (
    NO_TIMING,
    Capabilities_1_0,
    Capabilities_1_1,
    Capabilities_1_2,
    DeviceStatus,
    DeviceType,
    ErrorStatus,
    HalVersion,
    IDevice_1_2,
    IPreparedModel_1_2,
    MeasureTiming,
    OperandPerformance,
    OperandType,
    OperationType,
    PerformanceInfo,
    Timing,
)
from hal.burst import configure_burst
from hal.memory import MemoryError_
from hal.tensors import RequestData, read_constants
from hal.validation import RequestValidator, validate_execution_preference, validate_model

SAME_AS_CPU = PerformanceInfo(exec_time=1.0, power_usage=1.0)
F32 = OperandType.TENSOR_FLOAT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
ACTIVATIONS = {0: (None, None), 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}
"""FusedActivationFunc NONE, RELU, RELU1, RELU6 as (low, high) clamps."""
FLT_MAX = float(np.finfo(np.float32).max)


class InvalidValue(Exception):
    """A parameter value or shape the operation forbids: INVALID_ARGUMENT."""


def _binary(inputs, outputs, values, combine):
    """ADD or MUL: broadcast a and b, combine, apply the fused activation."""
    a, b, activation = (values.get(i) for i in inputs)
    if activation is not None and int(activation) not in ACTIVATIONS:
        raise InvalidValue(f"fused activation {int(activation)}")
    if a is None or b is None or activation is None:
        return None  # known at execution
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise InvalidValue(f"shapes {a.shape} and {b.shape} do not broadcast") from None
    low, high = ACTIVATIONS[int(activation)]
    with np.errstate(over="ignore"):
        result = combine(np.broadcast_to(a, shape), np.broadcast_to(b, shape)).astype(np.float32)
    # An overflow comes out as +-FLT_MAX, not inf, before the activation (docs/operations.md,
    # Fused activation).
    result = np.clip(result, -FLT_MAX, FLT_MAX)
    if low is not None or high is not None:
        result = np.clip(result, low, high)
    return result


def _relu(operands, inputs, outputs, values):
    x = values.get(inputs[0])
    if x is None:
        return None
    if operands[inputs[0]].type == F32:
        return np.where(x > 0, x, np.float32(0))  # NaN gives 0, the lower bound
    source, target = operands[inputs[0]], operands[outputs[0]]
    real = np.maximum((x.astype(np.float64) - source.zero_point) * source.scale, 0.0)
    quantized = np.round(real / target.scale) + target.zero_point
    return np.clip(quantized, 0, 255).astype(np.uint8)


def _supports(model, operation) -> bool:
    types = [model.operands[i].type for i in (*operation.inputs, *operation.outputs)]
    if operation.type in (OperationType.ADD, OperationType.MUL):
        return types[0] == types[1] == types[3] == F32
    if operation.type == OperationType.RELU:
        return types[0] == types[1] and types[0] in (F32, Q8)
    return False


def _evaluate(model, values: dict) -> dict:
    """Run every operation in order over ``values`` (operand index -> array), in place.

    At prepare time, with constants only, it checks what it can and computes nothing
    that needs an input."""
    for operation in model.operations:
        inputs, outputs = operation.inputs, operation.outputs
        if operation.type == OperationType.ADD:
            result = _binary(inputs, outputs, values, np.add)
        elif operation.type == OperationType.MUL:
            result = _binary(inputs, outputs, values, np.multiply)
        else:
            result = _relu(model.operands, inputs, outputs, values)
        if result is None:
            continue
        declared = model.operands[outputs[0]].dimensions
        if declared and any(d not in (0, s) for d, s in zip(declared, result.shape, strict=False)):
            raise InvalidValue(f"output shape {result.shape} conflicts with {list(declared)}")
        values[outputs[0]] = result
    return values


class PreparedModel(IPreparedModel_1_2):
    def __init__(self, model, version, constants) -> None:
        self.model, self.version, self.constants = model, version, constants
        self._validator = RequestValidator(model, version)

    def _compute(self, request, measure) -> tuple[ErrorStatus, list, Timing]:
        if not self._validator(request, limit=1).ok:
            return ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING
        if measure not in (MeasureTiming.NO, MeasureTiming.YES):
            return ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING
        start = time.perf_counter_ns()
        try:
            with RequestData(self.model, request) as data:
                values = {**self.constants, **data.inputs()}
                status, shapes = data.write_outputs(_evaluate(self.model, values))
        except InvalidValue:
            return ErrorStatus.INVALID_ARGUMENT, [], NO_TIMING
        except (MemoryError_, ValueError, KeyError):
            return ErrorStatus.GENERAL_FAILURE, [], NO_TIMING
        if measure == MeasureTiming.NO or status != ErrorStatus.NONE:
            return status, shapes, NO_TIMING
        elapsed = (time.perf_counter_ns() - start) // 1000
        return status, shapes, Timing(time_on_device=elapsed, time_in_driver=elapsed)

    def execute(self, request, callback):
        status, _, _ = self._compute(request, MeasureTiming.NO)
        callback.notify(status)
        return status if status == ErrorStatus.INVALID_ARGUMENT else ErrorStatus.NONE

    def execute_1_2(self, request, measure, callback):
        status, shapes, timing = self._compute(request, measure)
        callback.notify_1_2(status, shapes, timing)
        return status if status == ErrorStatus.INVALID_ARGUMENT else ErrorStatus.NONE

    def execute_synchronously(self, request, measure):
        return self._compute(request, measure)

    def configure_execution_burst(self, callback, request_channel, result_channel):
        return configure_burst(callback, request_channel, result_channel, self._compute)

    def save_to_cache(self, model_cache, data_cache, token):
        return ErrorStatus.GENERAL_FAILURE  # this driver does not cache


class Factory(IDevice_1_2):
    def get_capabilities(self):
        return ErrorStatus.NONE, Capabilities_1_0(SAME_AS_CPU, SAME_AS_CPU)

    def get_capabilities_1_1(self):
        return ErrorStatus.NONE, Capabilities_1_1(SAME_AS_CPU, SAME_AS_CPU, SAME_AS_CPU)

    def get_capabilities_1_2(self):
        per_type = tuple(OperandPerformance(t, SAME_AS_CPU) for t in (F32, Q8))
        return ErrorStatus.NONE, Capabilities_1_2(SAME_AS_CPU, SAME_AS_CPU, per_type)

    def get_status(self):
        return DeviceStatus.AVAILABLE

    def get_version_string(self):
        return ErrorStatus.NONE, "partial-driver 0.1"

    def get_type(self):
        return ErrorStatus.NONE, DeviceType.ACCELERATOR

    def get_supported_extensions(self):
        return ErrorStatus.NONE, []

    def _supported(self, model, version):
        if not validate_model(model, version, limit=1).ok:
            return ErrorStatus.INVALID_ARGUMENT, []
        return ErrorStatus.NONE, [_supports(model, op) for op in model.operations]

    def get_supported_operations(self, model):
        return self._supported(model, HalVersion.V1_0)

    def get_supported_operations_1_1(self, model):
        return self._supported(model, HalVersion.V1_1)

    def get_supported_operations_1_2(self, model):
        return self._supported(model, HalVersion.V1_2)

    def _prepare(self, model, version, preference, notify):
        valid = validate_model(model, version, limit=1).ok
        if not (valid and validate_execution_preference(preference).ok):
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        if not all(_supports(model, op) for op in model.operations):
            notify(ErrorStatus.GENERAL_FAILURE, None)  # valid, but not ours to run
            return ErrorStatus.NONE
        try:
            constants = read_constants(model)
            _evaluate(model, dict(constants))  # checks the parameters the model fixes
        except InvalidValue:
            notify(ErrorStatus.INVALID_ARGUMENT, None)
            return ErrorStatus.INVALID_ARGUMENT
        except MemoryError_:
            notify(ErrorStatus.GENERAL_FAILURE, None)
            return ErrorStatus.NONE
        notify(ErrorStatus.NONE, PreparedModel(model, version, constants))
        return ErrorStatus.NONE

    def prepare_model(self, model, callback):
        return self._prepare(model, HalVersion.V1_0, 1, callback.notify)

    def prepare_model_1_1(self, model, preference, callback):
        return self._prepare(model, HalVersion.V1_1, preference, callback.notify)

    def prepare_model_1_2(self, model, preference, callback):
        return self._prepare(model, HalVersion.V1_2, preference, callback.notify_1_2)

    def is_caching_supported(self):
        return ErrorStatus.NONE, False

    def prepare_model_from_cache(self, model_cache, data_cache, token, callback):
        callback.notify_1_2(ErrorStatus.GENERAL_FAILURE, None)
        return ErrorStatus.GENERAL_FAILURE
