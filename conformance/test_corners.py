"""Parameter-space tests: every family's corners drawn at random, against an oracle.

``conformance/harness/corners/`` draws cases of one operation over its
parameter space (padding schemes, strides, dilations, layouts, broadcast
shapes, axes, activations, batch and channel counts); the expected outputs come
from the oracle scripts of ``conformance/specs/oracles``, run on the drawn case.
One item per family and operation (``test_corners[conv2d/CONV_2D]``). Each
drawn case runs like a generated test: prepared, then executed on every
execution path of the driver's level, judged by the generated suite's
tolerances. Then, for a driver of HAL 1.2 or later, its twin runs on the HAL 1.2 paths (a
case of a HAL 1.3 operation: prepared through 1.3's method, on the untimed 1.3 paths):
its model declares some inputs with one, several or all of their axes unknown
(drawn) and every output with unknown dimensions, the request giving the real
input dimensions. For a driver of HAL 1.3, a drawn case with TENSOR_QUANT8_ASYMM operands
whose signed twin is a valid model (conformance/harness/coupling.py) runs once more as
that twin, on every path: the operands TENSOR_QUANT8_ASYMM_SIGNED, the inputs and the
oracle's outputs 128 lower, as HAL 1.3 couples the two forms.

A driver below HAL 1.2 runs the items of the operations its level has: of the
drawn cases, those valid at its level (no HAL 1.2 layout or dilation input, no
1.2 operand type), others are set aside and not counted; an item none of
whose cases is valid at the level is skipped saying so.

A failure is shrunk by hypothesis to a smallest case and printed as a spec
file of the test-generator language (the oracle's golden values), ready to
save under ``conformance/specs`` so the corner stays covered. Cases per item
and profile: ``CASES``; ci draws the same cases on every run (also under
xdist), full and thorough new ones from the run's seed (``--nnhal-seed``, the
same in every worker and shard, fixes a run).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from conformance.harness import items
from conformance.harness.calls import prepare
from conformance.harness.corners import FAMILIES, OPERATIONS, Corner, signed, unknown_inputs
from conformance.harness.execution import DYNAMIC_PATHS, PATHS, runs_under
from conformance.harness.items import Item
from conformance.harness.rerun import rerun_command
from conformance.harness.runner import (
    DYNAMIC,
    STATIC,
    Run,
    execute_case,
    prepare_case,
)
from conformance.harness.tolerance import rules_for
from hal.operations import operation_info
from hal.types import ErrorStatus, HalVersion, OperationType
from hal.validation import minimum_version

pytestmark = [pytest.mark.tier("parity")]

CASES = {"ci": 3, "full": 12, "thorough": 150}
"""Cases drawn per item (family and operation) in each profile."""

ITEMS = [
    Item(
        (family, op),
        name=f"{family}/{op}",
        marks=(pytest.mark.hal_level(str(operation_info(OperationType[op]).introduced)),),
        operations=(op,),
    ).param()
    for family in FAMILIES
    for op in OPERATIONS[family]
]
"""One item per family and operation (``runs``: the two), for drivers of the level that
introduced the operation."""


@st.composite
def _hidden(draw, corner: Corner) -> dict[int, list[int]]:
    """Which inputs of ``corner`` get unknown axes (at least one), and which axes (one,
    several or all of them)."""
    ranks = [a.ndim for a in corner.inputs]
    chosen = draw(st.lists(st.integers(0, len(ranks) - 1), min_size=1, unique=True))
    return {
        p: draw(st.lists(st.integers(0, ranks[p] - 1), min_size=1, unique=True)) for p in chosen
    }


class _Declined(Exception):
    """The driver does not support the drawn case (an unsupported-operation skip)."""


def _failed(corner: Corner, error: BaseException) -> BaseException:
    """The failure first (what was expected against what came), then the drawn case and
    its spec (its facts kept: a timeout stays a timeout)."""
    return items.keeping_facts(
        AssertionError(
            f"{error}\ndrawn case: {corner.describe()}\n"
            f"as a spec (save as conformance/specs/{corner.level}/<name>.mod.py):\n" + corner.spec()
        ),
        error,
    )


def _run_case(corner: Corner, nnhal, rerun: str, profile: str) -> None:
    test = corner.test()
    try:
        prepared = prepare_case(nnhal.device, test.model, nnhal.level, nnhal.timeout)
    except pytest.skip.Exception:
        raise _Declined from None
    for path in PATHS:
        if path.level <= nnhal.level and runs_under(path, corner.operation, profile):
            run = Run(test, 0, path.id, STATIC, rerun=rerun, rules=rules_for(nnhal.level))
            execute_case(prepared, run, nnhal.timeout)


def _run_signed(corner: Corner, nnhal, rerun: str, profile: str) -> None:
    """The signed twin of a case the driver ran: declining it is a failure at HAL 1.3."""
    try:
        _run_case(corner, nnhal, rerun, profile)
    except _Declined:
        pytest.fail(
            "the driver ran the drawn case but declined its signed twin: a HAL 1.3 driver "
            "supports the signed form of every unsigned one it supports",
            pytrace=False,
        )


def _run_twin(corner: Corner, nnhal, rerun: str) -> None:
    """The twin prepared through HAL 1.2's method (1.3's for a case of a HAL 1.3
    operation), then run on that level's paths for outputs of unknown size."""
    test = corner.test()
    level = max(HalVersion.V1_2, minimum_version(test.model) or HalVersion.V1_2)
    preparation = prepare(nnhal.device, test.model, level, nnhal.timeout)
    assert preparation.launch_status == ErrorStatus.NONE, (
        f"{preparation.method} returned launch status {preparation.launch_status.name} for a "
        "valid model of unknown dimensions"
    )
    if preparation.status != ErrorStatus.NONE:
        return  # a driver may decline unknown dimensions at preparation (tested elsewhere)
    for path in (p for p in DYNAMIC_PATHS if p.level == level):
        run = Run(test, 0, path.id, DYNAMIC, rerun=rerun, rules=rules_for(nnhal.level))
        execute_case(preparation.prepared_model, run, nnhal.timeout)


@pytest.mark.parametrize("item", ITEMS)
def test_corners(item: Item[tuple[str, str]], nnhal, request) -> None:
    (family, operation), profile = item.runs, nnhal.config.getoption("--nnhal-profile")
    rerun = rerun_command(nnhal.config, __name__, item.selector("test_corners"))
    drawn = items.Drawn(f"{operation} cases")

    # Below HAL 1.2 most drawn cases may be of a newer form: set aside, not failed.
    @settings(max_examples=CASES[profile], suppress_health_check=[HealthCheck.filter_too_much])
    @given(FAMILIES[family](operation), st.data())
    def check(corner: Corner, data: st.DataObject) -> None:
        lowest = minimum_version(corner.model)
        if lowest is None or lowest > nnhal.level:
            reject()  # a form newer than the driver's level
        drawn.drawn += 1
        try:
            _run_case(corner, nnhal, rerun, profile)
        except _Declined:
            drawn.declined += 1
            return
        except (AssertionError, pytest.fail.Exception) as error:
            raise _failed(corner, error) from None
        drawn.ran += 1
        twin = signed(corner) if nnhal.level >= HalVersion.V1_3 else None
        if twin is not None:
            try:
                _run_signed(twin, nnhal, rerun, profile)
            except (AssertionError, pytest.fail.Exception) as error:
                raise _failed(twin, error) from None
        if not corner.dynamic or nnhal.level < HalVersion.V1_2:
            return
        hidden = data.draw(_hidden(corner), label="unknown axes by input")
        twin = unknown_inputs(corner, hidden)
        try:
            _run_twin(twin, nnhal, rerun)
        except (AssertionError, pytest.fail.Exception) as error:
            raise _failed(twin, error) from None

    try:
        check()
    except Unsatisfiable:
        pytest.skip(f"no {operation} case drawn is valid at HAL {nnhal.level}")
    drawn.conclude(request.node)
