"""Random graph testing: valid multi-operation models no spec wrote.

``conformance/harness/graphs.py`` grows random valid models of a few chained
operations (float32, float16, relaxed, quant8). Two tests per kind:

* ``test_fuzz_differential``: the driver under test and the reference driver
  (in-process, as the oracle: the one place the suite imports
  ``reference_driver``) run the same model on the same inputs; output shapes
  must be equal and values within the generated tests' tolerances. Skipped
  when the driver under test is the reference driver itself.
* ``test_fuzz_shapes``: on the driver under test, every graph prepares and
  executes with status NONE (nothing escapes, nothing hangs), and with every
  output's dimensions left unknown, the reported output shapes are the ones the
  graph implies (computed by graphs.py from each operation's shape rule).
* ``test_fuzz_control_flow`` (HAL 1.3): the differential test on graphs run by
  control flow (``graphs.control_graphs``): the drawn graph as an IF's branch whose
  other branch gives zeros, the condition drawn, or as a WHILE's body run 0-2 times
  (a state-only counter, the graph's inputs input-only values, its outputs the loop's
  values from zeros), prepared and run through the 1.3 methods.

A failure is shrunk by hypothesis to a minimal graph and printed as a spec
file in the test-generator language, ready to drop into conformance/specs.
Graph counts per profile: ``GRAPHS``; ci is deterministic (also under
xdist), full and thorough draw new graphs each run from the run's seed
(``--nnhal-seed`` fixes it).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings

from conformance.harness import items
from conformance.harness.calls import prepare, supported_operations
from conformance.harness.execution import PATHS_BY_ID, run
from conformance.harness.graphs import KINDS, Graph, GraphKind, control_graphs, graphs, to_spec
from conformance.harness.requests import pack_request
from conformance.harness.runner import dynamic_twin
from conformance.harness.tolerance import compare, rules_for, tolerance_for
from hal.types import ErrorStatus, HalVersion, numpy_dtype

pytestmark = [pytest.mark.hal_level("1.2"), pytest.mark.tier("strict")]

GRAPHS = {"ci": 6, "full": 60, "thorough": 600}
"""Graphs drawn per kind and test."""
V1_2 = HalVersion.V1_2
V1_3 = HalVersion.V1_3
SYNC = PATHS_BY_ID["sync"]
SYNC13 = PATHS_BY_ID["sync13"]


@functools.cache
def _oracle():
    from reference_driver import ReferenceDriver

    return ReferenceDriver()


def _is_reference(device: object, loaded: object) -> bool:
    """Whether the driver under test is the reference driver itself (behind the harness's
    in-process guard, or in a service process where only its factory is known here)."""
    from hal.loader import resolve_factory
    from reference_driver import ReferenceDriver

    target = getattr(getattr(device, "_nnhal_link", None), "target", device)
    if type(target) is ReferenceDriver:
        return True
    try:
        return resolve_factory(loaded.spec) is ReferenceDriver
    except Exception:
        return False


def _count(request: pytest.FixtureRequest) -> int:
    return GRAPHS[request.config.getoption("--nnhal-profile")]


class _Declined(Exception):
    """The driver does not support every operation of the graph."""


def _prepared(device: object, model, timeout: float, level: HalVersion = V1_2):
    status, answers = supported_operations(device, model, level)
    assert status == ErrorStatus.NONE, f"get_supported_operations at {level} returned {status.name}"
    if not all(answers):
        raise _Declined
    preparation = prepare(device, model, level, timeout)
    assert (
        preparation.launch_status == ErrorStatus.NONE and preparation.status == ErrorStatus.NONE
    ), (
        f"{preparation.method} of a valid graph the driver fully supports: launch "
        f"{preparation.launch_status.name}, callback {preparation.status.name}"
    )
    return preparation.prepared_model


def _execute(prepared, model, graph: Graph, timeout: float, dynamic: bool = False, path=SYNC):
    sizes = [
        int(np.prod(shape)) * numpy_dtype(model.operands[i].type).itemsize
        for shape, i in zip(graph.output_shapes, model.output_indexes, strict=True)
    ]
    with pack_request(model, graph.inputs, sizes) as packed:
        execution = run(prepared, packed.request, path, timeout)
        assert execution.status == ErrorStatus.NONE, (
            f"{path.method} of a valid graph returned {execution.status.name}"
        )
        shapes = [tuple(s.dimensions) for s in execution.output_shapes]
        if dynamic:
            outputs = [packed.output(k, s).copy() for k, s in enumerate(shapes)]
        else:
            outputs = [packed.output(k, s).copy() for k, s in enumerate(graph.output_shapes)]
        return shapes, outputs


def _failure(
    graph: Graph, expected: list[np.ndarray], problems: list[str], folder: str = "V1_2"
) -> str:
    spec = to_spec(graph, expected, note="expected outputs: the reference driver's")
    return (
        "\n".join(problems)
        + f"\ndrawn graph: {graph.describe()}"
        + f"\nas a spec (save as conformance/specs/{folder}/<name>.mod.py):\n"
        + spec
    )


def _differential(
    device, graph: Graph, hal_timeout, hal_level, drawn, level: HalVersion = V1_2
) -> None:
    """The graph on the driver under test and on the reference driver, through ``level``'s
    preparation and synchronous execution: equal shapes, values within tolerance."""
    model = graph.model
    path = SYNC13 if level >= V1_3 else SYNC
    drawn.drawn += 1
    try:
        prepared = _prepared(device, model, hal_timeout, level)
    except _Declined:
        drawn.declined += 1
        return
    oracle = _prepared(_oracle(), model, hal_timeout, level)
    expected_shapes, expected = _execute(oracle, model, graph, hal_timeout, path=path)
    shapes, outputs = _execute(prepared, model, graph, hal_timeout, path=path)
    drawn.ran += 1
    tolerance = tolerance_for(model, "fuzz", rules_for(hal_level, strict=True))
    problems = []
    for k, (want, got) in enumerate(zip(expected, outputs, strict=True)):
        operand = model.operands[model.output_indexes[k]]
        result = compare(want, got, operand.type, tolerance)
        if not result.ok:
            problems.append(
                f"output {k}: {result.mismatches} value(s) differ from the reference driver's, "
                f"max abs error {result.max_abs_error:g} ({tolerance.describe()}): "
                f"{result.excerpt}"
            )
    if shapes and shapes != expected_shapes:
        problems.append(f"output shapes {shapes}, the reference driver's {expected_shapes}")
    folder = "V1_3" if level >= V1_3 else "V1_2"
    assert not problems, _failure(graph, expected, problems, folder)


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_differential(
    kind: GraphKind, device, nnhal_driver, hal_timeout, hal_level, request
) -> None:
    if _is_reference(device, nnhal_driver):
        pytest.skip("the driver under test is the reference driver: nothing to compare with")
    drawn = items.Drawn(f"{kind} graphs")

    @settings(max_examples=_count(request))
    @given(graphs(kind))
    def check(graph: Graph) -> None:
        _differential(device, graph, hal_timeout, hal_level, drawn)

    check()
    drawn.conclude(request.node)


@pytest.mark.hal_level("1.3")
@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_control_flow(
    kind: GraphKind, device, nnhal_driver, hal_timeout, hal_level, request
) -> None:
    """Graphs run as an IF's branch or a WHILE's body, against the reference driver."""
    if _is_reference(device, nnhal_driver):
        pytest.skip("the driver under test is the reference driver: nothing to compare with")
    drawn = items.Drawn(f"{kind} graphs in control flow")

    @settings(max_examples=_count(request))
    @given(control_graphs(kind))
    def check(graph: Graph) -> None:
        _differential(device, graph, hal_timeout, hal_level, drawn, V1_3)

    check()
    drawn.conclude(request.node)


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_shapes(kind: GraphKind, device, hal_timeout, request) -> None:
    drawn = items.Drawn(f"{kind} graphs")

    @settings(max_examples=_count(request))
    @given(graphs(kind))
    def check(graph: Graph) -> None:
        drawn.drawn += 1
        try:
            prepared = _prepared(device, graph.model, hal_timeout)
        except _Declined:
            drawn.declined += 1
            return
        _, outputs = _execute(prepared, graph.model, graph, hal_timeout)
        twin = dynamic_twin(graph.model)
        preparation = prepare(device, twin, V1_2, hal_timeout)
        drawn.ran += 1
        if preparation.status != ErrorStatus.NONE:
            return  # a driver may decline unknown output dimensions (tested elsewhere)
        shapes, _ = _execute(preparation.prepared_model, twin, graph, hal_timeout, dynamic=True)
        assert shapes == graph.output_shapes, _failure(
            graph,
            outputs,
            [
                f"output shapes {shapes} reported for unknown dimensions; the graph implies "
                f"{graph.output_shapes}"
            ],
        )

    check()
    drawn.conclude(request.node)
