"""Property: the reference driver answers every hostile model and request with a status.

Cases come from ``benchmarks.fuzz.make_case`` (an operation of the catalog in one of its
forms, with extreme scalar values, random shapes, constants and output buffers), drawn
by hypothesis, and half of them are further broken by one of the suite's model mutation
families (``conformance.harness.mutations``). For every HAL call of every case the
driver must answer with an ErrorStatus (no exception, no missing or repeated callback),
within ``CALL_BOUND_S``, and the case's peak resident set size must stay within
``MEMORY_BOUND`` of where it started. The driver runs with small budgets (64 MiB, 2**26
steps), so a case that is over them is refused quickly and one under them is cheap.

Examples: 100 times the profile's hypothesis count (500 at ``--nnhal-profile=ci``, a few
seconds; 4,000 at full). ``python -m benchmarks fuzz`` runs the same cases by the
hundred thousand against the default budgets.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.fuzz import SIGNATURES, make_case, reset_peak, run_case, status_bytes
from conformance.harness.mutations import close_new_pools, model_families
from reference_driver import ReferenceDriver

CALL_BOUND_S = 5.0
MEMORY_BOUND = 256 << 20
"""Peak RSS growth allowed per case: the 64 MiB budget, numpy's own slack, the request."""
SCALE = 100


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver(memory_budget=64 << 20, work_budget=1 << 26)


@pytest.fixture(autouse=True)
def _quiet(caplog):
    # Expected failures are logged at length; keep the test output readable.
    caplog.set_level(logging.CRITICAL, logger="reference_driver")
    caplog.set_level(logging.CRITICAL, logger="hal.burst")


def _check(driver: ReferenceDriver, case) -> None:
    peak_reset = reset_peak()
    start = status_bytes("VmRSS")
    outcome = run_case(driver, case, timeout=CALL_BOUND_S * 4)
    assert outcome.escaped == [], case.label
    assert outcome.statuses, case.label  # at least get_supported_operations answered
    assert outcome.slowest[0] < CALL_BOUND_S, outcome.slowest
    if peak_reset:
        growth = status_bytes("VmHWM") - start
        assert growth < MEMORY_BOUND, f"{case.label}: peak grew by {growth >> 20} MiB"


def test_the_cases_cover_every_operation() -> None:
    from hal.operations import operation_info
    from hal.types import HalVersion, OperationType

    # The cases start from the forms of HAL 1.2 (the reference driver's level).
    covered = {s.operation for s in SIGNATURES}
    assert covered == {
        op
        for op in OperationType
        if op < OperationType.OEM_OPERATION and operation_info(op).introduced <= HalVersion.V1_2
    }


def test_hostile_cases_get_statuses_within_bounds(driver) -> None:
    @settings(max_examples=settings.default.max_examples * SCALE)
    @given(seed=st.integers(0, 2**64 - 1))
    def check(seed: int) -> None:
        _check(driver, make_case(np.random.default_rng(seed)))

    check()


def test_mutated_hostile_cases_get_statuses_within_bounds(driver) -> None:
    families = model_families()

    @settings(max_examples=settings.default.max_examples * SCALE)
    @given(data=st.data())
    def check(data) -> None:
        case = make_case(np.random.default_rng(data.draw(st.integers(0, 2**64 - 1))))
        family = data.draw(st.sampled_from(families))
        original = case.model
        if family.applies(original):
            mutation = data.draw(family.strategy(original))
            case.model = mutation.apply(original)
            case.label += f" + {mutation!r}"
        try:
            _check(driver, case)
        finally:
            if case.model is not original:
                close_new_pools(original, case.model)

    check()


def test_the_check_itself_catches_an_escaping_exception() -> None:
    # run_case is the oracle of both properties: it must see what a broken driver lets out.
    class Leaky(ReferenceDriver):
        def get_supported_operations_1_2(self, model):
            raise MemoryError("planted")

    outcome = run_case(Leaky(), make_case(np.random.default_rng(7)))
    assert any("MemoryError: planted" in line for line in outcome.escaped)


def test_the_fuzz_benchmark_reports_its_figures(monkeypatch) -> None:
    from benchmarks import fuzz

    monkeypatch.setenv(fuzz.CASES_ENV, "40")
    monkeypatch.setenv(fuzz.SEED_ENV, "5")
    monkeypatch.delenv("NNHAL_BENCH_QUICK", raising=False)
    result = fuzz.run()
    figures = {f.name: f for f in result.figures}
    assert figures["cases"].value == 40
    assert (figures["escaped"].value, figures["escaped"].met) == (0, True)
    assert figures["slowest call"].met is True
    assert figures["peak RSS"].unit == "MiB"
    assert result.line.startswith("fuzz: 40 cases (seed 5), ")
    assert "0 escaped (target 0)" in result.line
