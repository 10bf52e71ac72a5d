"""MobileNet v1 (224x224x3, width 1.0) as a ``hal.Model``, and the same network in PyTorch.

The model builder and the two timers of the networks benchmark
(``benchmarks.networks``, also run by the name ``mobilenet``), shared with
the caching and memory-growth benchmarks.

Subject: the network built as a ``hal.Model`` with deterministic synthetic
weights (a fixed numpy seed), in float32 and in quant8 (per-layer scales and
zero points), prepared once on the reference driver and executed a few times
through ``execute_synchronously``: the median time of one inference.
Baseline: the same float32 network, with the same weights, in PyTorch on the
CPU with as many threads as the driver's BLAS may use, when ``import torch``
works (PyTorch is not a dependency of this project).

Layers: a 3x3 stride-2 convolution, 13 depthwise-separable blocks (3x3
depthwise then 1x1 pointwise, RELU6 fused), a 7x7 average pool, a 1x1
convolution to 1001 logits, RESHAPE to [1, 1001] and SOFTMAX.

A quick run (``NNHAL_BENCH_QUICK=1``) builds the same layers at width 0.25
on a 128x128 image (a 4x4 pool): ``SIZE`` and ``WIDTH`` below.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field

import numpy as np

from benchmarks.result import quick
from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    numpy_dtype,
)
from reference_driver import ReferenceDriver

RUNS = 5
SEED = 20190801
CLASSES = 1001
_SAME, _VALID, _RELU6 = 1, 2, 3
F32 = OperandType.TENSOR_FLOAT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
I32T = OperandType.TENSOR_INT32
BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)]
BLOCKS += [(512, 1)] * 5 + [(1024, 2), (1024, 1)]
"""(pointwise output channels, depthwise stride) of the 13 separable blocks."""
FULL_SHAPE = (224, 1.0)
QUICK_SHAPE = (128, 0.25)
"""(image height and width, width multiplier): the real network, and a quick run's."""


def shape() -> tuple[int, float]:
    """The (image size, width multiplier) this run builds: the real one unless quick."""
    return QUICK_SHAPE if quick() else FULL_SHAPE


@dataclass
class Layer:
    """One convolution's float weights: filter in the HAL's layout, bias."""

    kind: str  # "conv", "depthwise" or "logits"
    filter: np.ndarray
    bias: np.ndarray
    stride: int


def layers(seed: int = SEED, width: float = 1.0) -> list[Layer]:
    """MobileNet v1's convolutions with He-scaled random weights; ``width`` scales channels."""
    rng = np.random.default_rng(seed)

    def weights(shape: tuple[int, ...], fan_in: int) -> np.ndarray:
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    def bias(n: int) -> np.ndarray:
        return (rng.standard_normal(n) * 0.1).astype(np.float32)

    def scaled(n: int) -> int:
        return max(8, round(n * width))

    channels = scaled(32)
    out = [Layer("conv", weights((channels, 3, 3, 3), 27), bias(channels), 2)]
    for pointwise, stride in BLOCKS:
        size = scaled(pointwise)
        out.append(Layer("depthwise", weights((1, 3, 3, channels), 9), bias(channels), stride))
        out.append(Layer("conv", weights((size, 1, 1, channels), channels), bias(size), 1))
        channels = size
    out.append(Layer("logits", weights((CLASSES, 1, 1, channels), channels), bias(CLASSES), 1))
    return out


# ---------------------------------------------------------------------------
# The hal.Model
# ---------------------------------------------------------------------------


@dataclass
class Builder:
    """A hal.Model built operand by operand, constants copied into ``operand_values``."""

    operands: list[Operand] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    values: bytearray = field(default_factory=bytearray)

    def add(self, operand: Operand) -> int:
        self.operands.append(operand)
        return len(self.operands) - 1

    def constant(self, type_: int, data: np.ndarray, scale: float = 0.0, zp: int = 0) -> int:
        raw = np.ascontiguousarray(data, dtype=numpy_dtype(type_)).tobytes()
        location = DataLocation(0, len(self.values), len(raw))
        self.values += raw
        lifetime = OperandLifeTime.CONSTANT_COPY
        return self.add(Operand(type_, list(data.shape), 0, scale, zp, lifetime, location))

    def omitted(self, type_: int = F32) -> int:
        """An optional input left out: a NO_VALUE operand."""
        return self.add(Operand(type_, [], 0, lifetime=OperandLifeTime.NO_VALUE))

    def scalar(self, value: bool | int | float) -> int:
        if isinstance(value, bool):
            return self.constant(OperandType.BOOL, np.array(value, np.uint8))
        if isinstance(value, float):
            return self.constant(OperandType.FLOAT32, np.array(value, np.float32))
        return self.constant(OperandType.INT32, np.array(value, np.int32))

    def operation(self, type_: int, inputs: list[int], output: Operand) -> int:
        index = self.add(output)
        self.operations.append(Operation(type_, inputs, [index]))
        return index

    def model(self, input_index: int, output_index: int) -> Model:
        for operation in self.operations:
            for i in operation.inputs:
                self.operands[i].number_of_consumers += 1
        self.operands[input_index].lifetime = OperandLifeTime.MODEL_INPUT
        self.operands[output_index].lifetime = OperandLifeTime.MODEL_OUTPUT
        return Model(
            operands=self.operands,
            operations=self.operations,
            input_indexes=[input_index],
            output_indexes=[output_index],
            operand_values=bytes(self.values),
        )


@dataclass(frozen=True)
class _Quant:
    """Per-layer quantization: activations after RELU6 span [0, 6]."""

    scale: float
    zp: int


_IMAGE = _Quant(2.0 / 255.0, 128)
_RELU6_RANGE = _Quant(6.0 / 255.0, 0)
_LOGITS = _Quant(0.25, 128)
_PROBABILITIES = _Quant(1.0 / 256.0, 0)


def _tensor(type_: int, dims: list[int], quant: _Quant | None) -> Operand:
    return Operand(type_, dims, 0, quant.scale if quant else 0.0, quant.zp if quant else 0)


def _conv_layer(
    b: Builder, x: int, layer: Layer, dims: list[int], quant: bool
) -> tuple[int, list[int]]:
    """One CONV_2D / DEPTHWISE_CONV_2D with RELU6 (none for the logits), SAME padding."""
    n, h, w, _ = dims
    out_dims = [n, -(-h // layer.stride), -(-w // layer.stride), layer.filter.shape[-1]]
    if layer.kind != "depthwise":
        out_dims[3] = layer.filter.shape[0]
    in_q = b.operands[x]
    out_q = None
    if quant:
        limit = float(np.abs(layer.filter).max())
        w_scale = limit / 127.0
        f = b.constant(Q8, np.round(layer.filter / w_scale) + 128, w_scale, 128)
        bias_scale = in_q.scale * w_scale
        bias = b.constant(I32T, np.round(layer.bias / bias_scale), bias_scale)
        out_q = _LOGITS if layer.kind == "logits" else _RELU6_RANGE
    else:
        f, bias = b.constant(F32, layer.filter), b.constant(F32, layer.bias)
    act = 0 if layer.kind == "logits" else _RELU6
    strides = [b.scalar(layer.stride), b.scalar(layer.stride)]
    inputs = [x, f, bias, b.scalar(_SAME), *strides]
    if layer.kind == "depthwise":
        inputs.append(b.scalar(1))
        op = OperationType.DEPTHWISE_CONV_2D
    else:
        op = OperationType.CONV_2D
    inputs.append(b.scalar(act))
    return b.operation(op, inputs, _tensor(Q8 if quant else F32, out_dims, out_q)), out_dims


def build_model(quant: bool, weights: list[Layer] | None = None, size: int = 224) -> Model:
    """MobileNet v1 as one hal.Model: float32, or quant8 with per-layer parameters.

    ``size`` is the image's height and width, a multiple of 32 (the pool is size / 32).
    """
    weights = layers() if weights is None else weights
    type_ = Q8 if quant else F32
    b = Builder()
    dims = [1, size, size, 3]
    x = image = b.add(_tensor(type_, dims, _IMAGE if quant else None))
    for layer in weights[:-1]:
        x, dims = _conv_layer(b, x, layer, dims, quant)
    pooled_q = _RELU6_RANGE if quant else None
    pool, channels = dims[1], dims[3]
    pool_inputs = [x, b.scalar(_VALID), *(b.scalar(v) for v in (1, 1, pool, pool, 0))]
    x = b.operation(
        OperationType.AVERAGE_POOL_2D, pool_inputs, _tensor(type_, [1, 1, 1, channels], pooled_q)
    )
    x, dims = _conv_layer(b, x, weights[-1], [1, 1, 1, channels], quant)
    shape = b.constant(I32T, np.array([1, CLASSES]))
    logits_q = _LOGITS if quant else None
    x = b.operation(OperationType.RESHAPE, [x, shape], _tensor(type_, [1, CLASSES], logits_q))
    probabilities = _PROBABILITIES if quant else None
    out = b.operation(
        OperationType.SOFTMAX, [x, b.scalar(1.0)], _tensor(type_, [1, CLASSES], probabilities)
    )
    return b.model(image, out)


def image(quant: bool, size: int = 224) -> np.ndarray:
    """The input: uniform pixels in [-1, 1] from a fixed seed (quantized for quant8)."""
    pixels = np.random.default_rng(SEED + 1).uniform(-1.0, 1.0, (1, size, size, 3))
    if quant:
        return np.clip(np.round(pixels / _IMAGE.scale) + _IMAGE.zp, 0, 255).astype(np.uint8)
    return pixels.astype(np.float32)


def prepare(model: Model, label: str = "MobileNet"):
    """``prepare_model_1_2`` on a new reference driver: (seconds from launch to callback, model)."""
    callback = PreparedModelCallback()
    driver = ReferenceDriver()
    start = time.perf_counter()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.SUSTAINED_SPEED, callback)
    prepared = callback.wait(600)
    elapsed = time.perf_counter() - start
    if launch != ErrorStatus.NONE or prepared.status != ErrorStatus.NONE:
        raise RuntimeError(f"preparing {label} failed: {launch.name}, {prepared.status.name}")
    return elapsed, prepared.prepared_model


def time_prepare(model: Model, runs: int = 3, label: str = "MobileNet") -> float:
    """Median seconds of ``prepare_model_1_2``, launch to callback, over ``runs`` preparations."""
    return statistics.median(prepare(model, label)[0] for _ in range(runs))


def time_driver(
    model: Model, data: np.ndarray, runs: int = RUNS, label: str = "MobileNet"
) -> tuple[float, np.ndarray]:
    """Median seconds of one execution (prepared once, one warm-up), and the output.

    ``data`` is the model's one input.
    """
    _, prepared = prepare(model, label)
    with pack_request(model, [data]) as packed:
        times = []
        for _ in range(runs + 1):
            start = time.perf_counter()
            status, shapes, _ = prepared.execute_synchronously(packed.request, MeasureTiming.NO)
            times.append(time.perf_counter() - start)
            if status != ErrorStatus.NONE:
                raise RuntimeError(f"executing {label} failed: {status.name}")
        output = packed.output(0, shapes[0].dimensions).copy()
    return statistics.median(times[1:]), output


# ---------------------------------------------------------------------------
# The PyTorch baseline
# ---------------------------------------------------------------------------


def threads() -> int:
    """What OpenBLAS (numpy's BLAS) uses by default: the CPUs this process may run on."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return len(os.sched_getaffinity(0))


def time_torch(weights: list[Layer], image: np.ndarray, runs: int = RUNS):
    """Median seconds of the same float32 network in PyTorch, and its output; None without torch."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    torch.set_num_threads(threads())

    def conv(x, layer: Layer):
        if layer.kind == "depthwise":
            kernel = torch.from_numpy(layer.filter.transpose(3, 0, 1, 2).copy())
            groups = kernel.shape[0]
        else:
            kernel = torch.from_numpy(layer.filter.transpose(0, 3, 1, 2).copy())
            groups = 1
        if kernel.shape[-1] == 3:
            # SAME: stride 1 pads 1 each side; stride 2 on even sizes pads 0 before, 1 after.
            x = F.pad(x, (1, 1, 1, 1) if layer.stride == 1 else (0, 1, 0, 1))
        y = F.conv2d(x, kernel, torch.from_numpy(layer.bias), layer.stride, groups=groups)
        return y if layer.kind == "logits" else torch.clamp(y, 0.0, 6.0)

    def network(x):
        for layer in weights[:-1]:
            x = conv(x, layer)
        x = conv(F.avg_pool2d(x, x.shape[-1]), weights[-1])
        return torch.softmax(x.reshape(1, CLASSES), dim=1)

    x = torch.from_numpy(image.transpose(0, 3, 1, 2).copy())
    times = []
    with torch.inference_mode():
        for _ in range(runs + 1):
            start = time.perf_counter()
            output = network(x)
            times.append(time.perf_counter() - start)
    return statistics.median(times[1:]), output.numpy()
