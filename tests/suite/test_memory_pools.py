"""Unit tests of the pool-kind suite's helpers (conformance/harness/pools.py) and of
how conformance/test_memory_pools.py picks its items."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.generated import load_index, load_tests
from conformance.harness.models import binary_model
from conformance.harness.pools import (
    CI_STRIDE,
    CONSTREF,
    KINDS,
    VARIANTS,
    PoolVariant,
    pool_items,
    pooled_request,
    prepare_with_constant_pool,
    shared_request,
    variants_for,
)
from conformance.harness.requests import GUARD, GUARD_SIZE
from hal.memory import MMAP_FD, map_memory
from hal.types import DataLocation, HalVersion, OperandLifeTime
from reference_driver import ReferenceDriver

A = np.arange(4, dtype=np.float32).reshape(2, 2)
B = np.full((2, 2), 7, np.float32)


def test_shared_request_puts_every_argument_in_one_guarded_pool() -> None:
    with shared_request(binary_model(), [A, B], [16], MMAP_FD) as packed:
        request = packed.request
        assert len(request.pools) == 1 and request.pools[0].name == MMAP_FD
        g = GUARD_SIZE
        assert [a.location for a in request.inputs] == [
            DataLocation(0, g, 16),
            DataLocation(0, 2 * g + 16, 16),
        ]
        assert request.outputs[0].location == DataLocation(0, 3 * g + 32, 16)
        with map_memory(request.pools[0]) as mapping:
            content = mapping.read(0, request.pools[0].size)
        guard = bytes([GUARD]) * g
        output = bytes([GUARD]) * 16
        assert content == guard + A.tobytes() + guard + B.tobytes() + guard + output + guard
        assert packed.untouched_problems() == []


def test_shared_request_sees_a_write_between_arguments() -> None:
    with shared_request(binary_model(), [A, B], [16], MMAP_FD) as packed:
        with map_memory(packed.request.pools[0]) as mapping:
            mapping.write(3 * GUARD_SIZE + 31, b"\x00")  # the byte before the output
        assert packed.untouched_problems() == [
            "the driver wrote 1 byte(s) outside every output location in pool 0 (first at offset 70, "
            "0xA5 -> 0x00; last at 70)"
        ]


def test_shared_request_sees_a_write_into_an_input() -> None:
    with shared_request(binary_model(), [A, B], [16], MMAP_FD) as packed:
        with map_memory(packed.request.pools[0]) as mapping:
            mapping.write(2 * GUARD_SIZE + 16, b"\xff\xff")  # the first bytes of input 1
        assert packed.untouched_problems() == [
            "the driver wrote 2 byte(s) into input 1 in pool 0 (first at offset 42, byte 0 of the "
            "input, 0x00 -> 0xFF; last at 43)"
        ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pooled_request_of_each_variant_carries_the_inputs(variant: str) -> None:
    with pooled_request(binary_model(), [A, B], [16], PoolVariant(variant, MMAP_FD)) as packed:
        kinds = {pool.name for pool in packed.request.pools}
        assert kinds == ({"ashmem"} if variant == CONSTREF else {MMAP_FD})
        for argument, array in zip(packed.request.inputs, (A, B), strict=True):
            location = argument.location
            with map_memory(packed.request.pools[location.pool_index]) as mapping:
                assert mapping.read_location(location) == array.tobytes()


def test_variants_for_a_model_with_and_without_constants() -> None:
    with_constant = binary_model()  # the activation is a CONSTANT_COPY scalar
    assert len(variants_for(with_constant)) == len(VARIANTS) * len(KINDS)
    without = binary_model()
    without.operands[2].lifetime = OperandLifeTime.MODEL_INPUT
    without.operands[2].location = DataLocation()
    without.input_indexes = [0, 1, 2]
    assert {v.layout for v in variants_for(without)} == set(VARIANTS) - {CONSTREF}


def test_blob_variants_need_hal_1_2() -> None:
    assert PoolVariant("many", "hardware_buffer_blob").needs == HalVersion.V1_2
    assert PoolVariant("many", MMAP_FD).needs == HalVersion.V1_0


@pytest.fixture(scope="module")
def generated():
    return [test for module, _ in load_index() for test in load_tests(module)]


def test_full_profile_runs_every_variant_of_every_example(generated) -> None:
    items = pool_items(generated, "full")
    expected = sum(len(t.feeds) * len(variants_for(t.model)) for t in generated)
    assert len(items) == expected
    assert len({item.id for item in items}) == len(items)


def test_ci_profile_samples_one_case_in_stride_with_every_variant(generated) -> None:
    items = pool_items(generated, "ci")
    cases = {item.test.test_id for item in items}
    assert len(cases) == -(-len(generated) // CI_STRIDE)
    seen = {(item.runs.layout, item.runs.kind) for item in items}
    assert seen == {(layout, kind) for layout in VARIANTS for kind in KINDS}
    assert pool_items(generated, "ci") == items  # deterministic


@pytest.mark.parametrize("kind", KINDS)
def test_prepare_with_constant_pool_moves_every_constant(kind: str) -> None:
    driver = ReferenceDriver()
    model = binary_model(constant_b=B)
    prepared, pool = prepare_with_constant_pool(driver, model, HalVersion.V1_2, 10.0, kind)
    try:
        assert pool.name == kind
        assert pool.size == 1 + (16 + 1) + (4 + 1)  # offset 1, then each constant and a gap
        assert prepared is not None
    finally:
        pool.close()
