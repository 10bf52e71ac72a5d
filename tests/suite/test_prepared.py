"""Unit tests of the suite's one prepared-model cache (conformance/harness/prepared.py)."""

from __future__ import annotations

import gc
import weakref

import pytest

from conformance.harness import items
from conformance.harness import prepared as cache
from conformance.harness.models import binary_model
from hal.memory import ASHMEM
from hal.types import ExecutionPreference, HalVersion
from reference_driver import ReferenceDriver

V1_2 = HalVersion.V1_2


class _Pool:
    closed = False

    def close(self) -> None:
        self.closed = True


class _Preparer:
    """Stands in for ``prepare_case`` and ``prepare_with_constant_pool``, counting calls."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.pools: list[_Pool] = []
        self.answer = None

    def plain(self, device, model, level, timeout, preference, *, case=None):
        self.calls.append((device, model, level, preference, None))
        if self.answer is not None:
            self.answer()
        return object()

    def pooled(self, device, model, level, timeout, kind, threshold):
        self.calls.append(
            (device, model, level, ExecutionPreference.FAST_SINGLE_ANSWER, kind, threshold)
        )
        pool = _Pool()
        self.pools.append(pool)
        return object(), pool


@pytest.fixture
def preparer(monkeypatch) -> _Preparer:
    fake = _Preparer()
    monkeypatch.setattr(cache, "prepare_case", fake.plain)
    monkeypatch.setattr(cache, "prepare_with_constant_pool", fake.pooled)
    cache.clear()
    yield fake
    cache.clear()


def test_one_preparation_per_key(preparer: _Preparer) -> None:
    device, model = object(), binary_model()
    first = cache.prepared(device, model, V1_2, 1.0)
    assert cache.prepared(device, model, V1_2, 1.0) is first
    assert len(preparer.calls) == 1
    others = [
        (object(), model, V1_2, {}),
        (device, binary_model(), V1_2, {}),
        (device, model, HalVersion.V1_1, {}),
        (device, model, V1_2, {"preference": ExecutionPreference.LOW_POWER}),
        (device, model, V1_2, {"constant_pool": ASHMEM}),
        (device, model, V1_2, {"constant_pool": ASHMEM, "pool_threshold": 128}),
    ]
    for other_device, other_model, level, options in others:
        assert cache.prepared(other_device, other_model, level, 1.0, **options) is not first
    assert len(preparer.calls) == 1 + len(others)
    assert cache.size() == 1 + len(others)


def test_a_skip_is_cached_with_its_facts_a_failure_is_not(preparer: _Preparer) -> None:
    device, model = object(), binary_model()
    preparer.answer = lambda: items.unsupported("unsupported: not this one")
    for _ in range(2):
        with pytest.raises(pytest.skip.Exception, match="not this one") as skipped:
            cache.prepared(device, model, V1_2, 1.0)
        assert items.facts_of(skipped.value) == {"kind": items.UNSUPPORTED}
    assert len(preparer.calls) == 1

    other = binary_model()
    preparer.answer = lambda: pytest.fail("broken", pytrace=False)
    for _ in range(2):
        with pytest.raises(pytest.fail.Exception, match="broken"):
            cache.prepared(device, other, V1_2, 1.0)
    assert len(preparer.calls) == 3
    assert cache.size() == 1


def test_least_recently_used_entry_goes_first_and_closes_its_pool(preparer: _Preparer) -> None:
    device = object()
    models = [binary_model() for _ in range(cache.LIMIT + 1)]
    for model in models[: cache.LIMIT]:
        cache.prepared(device, model, V1_2, 1.0, constant_pool=ASHMEM)
    cache.prepared(device, models[0], V1_2, 1.0, constant_pool=ASHMEM)  # used again: kept
    cache.prepared(device, models[-1], V1_2, 1.0, constant_pool=ASHMEM)
    assert cache.size() == cache.LIMIT
    assert [p.closed for p in preparer.pools[:2]] == [False, True]
    assert not any(p.closed for p in preparer.pools[2:])
    cache.prepared(device, models[0], V1_2, 1.0, constant_pool=ASHMEM)
    assert len(preparer.calls) == cache.LIMIT + 1
    cache.clear()
    assert cache.size() == 0 and all(p.closed for p in preparer.pools)


def test_an_entry_keeps_its_device_and_model(preparer: _Preparer) -> None:
    class Device:
        pass

    device, model = Device(), binary_model()
    held = weakref.ref(device), weakref.ref(model)
    cache.prepared(device, model, V1_2, 1.0)
    del device, model
    gc.collect()
    assert held[0]() is not None and held[1]() is not None  # no id is reused meanwhile
    cache.clear()
    preparer.calls.clear()
    gc.collect()
    assert held[0]() is None and held[1]() is None


def test_the_reference_driver_prepares_once() -> None:
    cache.clear()
    try:
        driver, model = ReferenceDriver(), binary_model()
        prepared = cache.prepared(driver, model, V1_2, 5.0)
        assert prepared is not None
        assert cache.prepared(driver, model, V1_2, 5.0) is prepared
    finally:
        cache.clear()
