"""A small LSTM as one ``hal.Model`` (UNIDIRECTIONAL_SEQUENCE_LSTM), and the same LSTM in PyTorch.

Part of the networks benchmark (``benchmarks.networks``). The model is one
UNIDIRECTIONAL_SEQUENCE_LSTM operation (HAL 1.2, 28 inputs): a float32
sequence, time-major, of ``STEPS`` steps x ``BATCH`` rows x ``INPUTS``
features into ``UNITS`` units, with tanh as the activation, no peephole, no
projection, no layer norm, no clipping. The sequence is the model's input;
every weight, bias and both initial states are constants drawn from a fixed
seed (uniform in +-1/sqrt(units), as torch initialises an LSTM).

The PyTorch baseline is ``torch.nn.LSTM`` with the same weights. Both stack
their four gates the same way once names are matched: the HAL's input,
forget, cell and output gates are torch's i, f, g and o, in that order, so
torch's ``weight_ih_l0`` is the HAL's input-to-gate weights [i; f; c; o]
stacked, ``weight_hh_l0`` the recurrent ones, ``bias_ih_l0`` the HAL's
biases and ``bias_hh_l0`` zero (the HAL has one bias per gate, torch two).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import numpy as np

from benchmarks.mobilenet import F32, Builder, threads
from hal.types import Model, Operand, OperationType

STEPS, BATCH, INPUTS, UNITS = 32, 8, 64, 128
SEED = 20190802
TANH = 4
GATES = ("input", "forget", "cell", "output")
"""The HAL's gate order (its inputs 1-4, 5-8 and 12-15); torch's i, f, g, o is the same."""


@dataclass
class Weights:
    """Per gate, in GATES order: input weights [4, N, I], recurrent [4, N, N], biases [4, N]."""

    input: np.ndarray
    recurrent: np.ndarray
    bias: np.ndarray
    h0: np.ndarray
    c0: np.ndarray


def weights(seed: int = SEED) -> Weights:
    rng = np.random.default_rng(seed)
    limit = 1.0 / np.sqrt(UNITS)

    def uniform(*shape: int) -> np.ndarray:
        return rng.uniform(-limit, limit, shape).astype(np.float32)

    return Weights(
        input=uniform(4, UNITS, INPUTS),
        recurrent=uniform(4, UNITS, UNITS),
        bias=uniform(4, UNITS),
        h0=uniform(BATCH, UNITS),
        c0=uniform(BATCH, UNITS),
    )


def sequence(seed: int = SEED + 1) -> np.ndarray:
    """The input sequence, time-major [STEPS, BATCH, INPUTS]."""
    return np.random.default_rng(seed).standard_normal((STEPS, BATCH, INPUTS)).astype(np.float32)


def build_model(w: Weights) -> Model:
    """One UNIDIRECTIONAL_SEQUENCE_LSTM: the sequence in, the output sequence out."""
    b = Builder()
    x = b.add(Operand(F32, [STEPS, BATCH, INPUTS]))
    inputs = [x]
    inputs += [b.constant(F32, w.input[g]) for g in range(4)]  # 1-4
    inputs += [b.constant(F32, w.recurrent[g]) for g in range(4)]  # 5-8
    inputs += [b.omitted() for _ in range(3)]  # 9-11: no peephole
    inputs += [b.constant(F32, w.bias[g]) for g in range(4)]  # 12-15
    inputs += [b.omitted(), b.omitted()]  # 16-17: no projection
    inputs += [b.constant(F32, w.h0), b.constant(F32, w.c0)]  # 18-19
    inputs += [b.scalar(TANH), b.scalar(0.0), b.scalar(0.0), b.scalar(True)]  # 20-23
    inputs += [b.omitted() for _ in range(4)]  # 24-27: no layer norm
    out = b.operation(
        OperationType.UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, Operand(F32, [STEPS, BATCH, UNITS])
    )
    return b.model(x, out)


def time_torch(w: Weights, data: np.ndarray, runs: int):
    """Median seconds of torch.nn.LSTM with the same weights, and its output; None without torch."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(threads())
    lstm = torch.nn.LSTM(INPUTS, UNITS, num_layers=1, batch_first=False)
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(torch.from_numpy(w.input.reshape(4 * UNITS, INPUTS)))
        lstm.weight_hh_l0.copy_(torch.from_numpy(w.recurrent.reshape(4 * UNITS, UNITS)))
        lstm.bias_ih_l0.copy_(torch.from_numpy(w.bias.reshape(4 * UNITS)))
        lstm.bias_hh_l0.zero_()
    x = torch.from_numpy(data)
    state = (torch.from_numpy(w.h0)[None], torch.from_numpy(w.c0)[None])
    times = []
    with torch.inference_mode():
        for _ in range(runs + 1):
            start = time.perf_counter()
            output, _ = lstm(x, state)
            times.append(time.perf_counter() - start)
    return statistics.median(times[1:]), output.numpy()
