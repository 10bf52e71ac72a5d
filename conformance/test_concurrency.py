"""Concurrency the HAL allows: many executions of one prepared model at once, and
several prepared models alive with interleaved executions (strict tier: Android
10's VTS runs none of this).

Expected values are exact float32 sums and products of small integers, so any
correct driver must reproduce them bit for bit.
"""

from __future__ import annotations

import gc
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from conformance.harness.execution import PATHS_BY_ID, run
from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from conformance.harness.runner import prepare_case
from hal.types import ErrorStatus, HalVersion, OperationType

THREADS = 8
EXECUTIONS_PER_THREAD = 10


def _path(level: HalVersion) -> str:
    return "sync" if level >= HalVersion.V1_2 else "async10"


def _execute(prepared, model, a: np.ndarray, b: np.ndarray, level, timeout) -> np.ndarray:
    with pack_request(model, [a, b]) as packed:
        execution = run(prepared, packed.request, PATHS_BY_ID[_path(level)], timeout)
        assert execution.status == ErrorStatus.NONE, f"status {execution.status.name}"
        return packed.output(0, a.shape).copy()


@pytest.mark.tier("strict")
def test_concurrent_executions_of_one_prepared_model(device, hal_level, hal_timeout) -> None:
    model = binary_model(dims=(16,))
    prepared = prepare_case(device, model, hal_level, hal_timeout)

    def worker(seed: int) -> list[str]:
        problems = []
        for k in range(EXECUTIONS_PER_THREAD):
            a = np.arange(16, dtype=np.float32) + seed * 100
            b = np.full(16, k, dtype=np.float32)
            got = _execute(prepared, model, a, b, hal_level, hal_timeout)
            if not np.array_equal(got, a + b):
                problems.append(
                    f"thread {seed} execution {k}: got {got[:4]}..., expected {(a + b)[:4]}..."
                )
        return problems

    with ThreadPoolExecutor(THREADS) as pool:
        problems = [p for result in pool.map(worker, range(THREADS)) for p in result]
    assert not problems, "\n".join(problems)


@pytest.mark.tier("strict")
def test_interleaved_prepared_models(device, hal_level, hal_timeout) -> None:
    add = binary_model(OperationType.ADD, dims=(4,))
    mul = binary_model(OperationType.MUL, dims=(4,))
    first = prepare_case(device, add, hal_level, hal_timeout)
    second = prepare_case(device, mul, hal_level, hal_timeout)
    a = np.array([1, 2, 3, 4], np.float32)
    b = np.array([5, -6, 7, 0.5], np.float32)
    for round_ in range(2):
        sums = _execute(first, add, a, b, hal_level, hal_timeout)
        products = _execute(second, mul, a, b, hal_level, hal_timeout)
        assert sums.tolist() == [6, -4, 10, 4.5], f"round {round_}: ADD gave {sums}"
        assert products.tolist() == [5, -12, 21, 2], f"round {round_}: MUL gave {products}"
    del first
    gc.collect()
    # The second model still works after the first is released.
    products = _execute(second, mul, a, b, hal_level, hal_timeout)
    assert products.tolist() == [5, -12, 21, 2], (
        f"after the ADD model was released, MUL gave {products}"
    )
    del second
    gc.collect()
