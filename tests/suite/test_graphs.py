"""Random graphs (conformance/harness/graphs.py) and the fuzz tests built on them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from conformance.harness.graphs import BUILDERS, KINDS, control_graphs, graphs, to_spec
from generator.expand import evaluate_spec
from hal.types import HalVersion, OperandLifeTime
from hal.validation import validate_model

ROOT = Path(__file__).resolve().parents[2]
FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers.py"
FAULTY_CF = FAULTY.with_name("faulty_drivers_cf.py")
_seen: set[str] = set()


@settings(
    max_examples=1500,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(graphs())
def test_every_graph_is_valid_and_consistent(graph) -> None:
    result = validate_model(graph.model, HalVersion.V1_2)
    assert result.ok, f"{graph.describe()}: {result}"
    model = graph.model
    assert len(graph.inputs) == len(model.input_indexes)
    for array, index in zip(graph.inputs, model.input_indexes, strict=True):
        assert list(array.shape) == model.operands[index].dimensions
    for shape, index in zip(graph.output_shapes, model.output_indexes, strict=True):
        assert list(shape) == model.operands[index].dimensions and all(d > 0 for d in shape)
    # Every operation output is read by a later operation or is a model output.
    read = {i for op in model.operations for i in op.inputs}
    for op in model.operations:
        for i in op.outputs:
            assert i in read or i in model.output_indexes
    _seen.update(graph.operations)


def test_graphs_use_every_builder() -> None:
    # Runs after the property above in file order; on its own it draws what it needs.
    if len(_seen) < len(BUILDERS):
        test_every_graph_is_valid_and_consistent()
    assert _seen == set(BUILDERS)


@pytest.mark.parametrize("kind", KINDS)
def test_spec_printing_round_trips_through_the_generator(kind: str, tmp_path: Path) -> None:
    @settings(max_examples=15, derandomize=True, deadline=None, database=None)
    @given(graphs(kind))
    def check(graph) -> None:
        expected = [np.zeros(s, graph.inputs[0].dtype) for s in graph.output_shapes]
        spec = tmp_path / "V1_2" / "fuzz_graph.mod.py"
        spec.parent.mkdir(exist_ok=True)
        spec.write_text(to_spec(graph, expected))
        (test,) = evaluate_spec(spec, tmp_path)
        want, got = graph.model, test.model
        assert got.input_indexes == want.input_indexes
        assert got.output_indexes == want.output_indexes
        assert [(o.type, o.inputs, o.outputs) for o in got.operations] == [
            (o.type, o.inputs, o.outputs) for o in want.operations
        ]
        assert got.relax_computation_float32_to_float16 == want.relax_computation_float32_to_float16
        for a, b in zip(got.operands, want.operands, strict=True):
            assert (a.type, a.dimensions, a.lifetime) == (b.type, b.dimensions, b.lifetime)
            assert (a.scale, a.zero_point) == (b.scale, b.zero_point)
            if b.lifetime == OperandLifeTime.CONSTANT_COPY:
                size = b.location.length
                assert (
                    got.operand_values[a.location.offset : a.location.offset + size]
                    == want.operand_values[b.location.offset : b.location.offset + size]
                )
        for fed, array in zip(test.feeds[0].inputs, graph.inputs, strict=True):
            np.testing.assert_array_equal(fed, array)

    check()


@settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(control_graphs())
def test_every_graph_in_control_flow_is_valid_at_1_3_only(graph) -> None:
    """A drawn graph wrapped as an IF branch or a WHILE body is a valid HAL 1.3 model (and,
    holding referenced subgraphs, invalid below), its inputs and outputs as drawn."""
    model = graph.model
    assert validate_model(model, HalVersion.V1_3).ok, graph.describe()
    assert not validate_model(model, HalVersion.V1_2).ok
    assert len(model.operations) == 1 and len(model.referenced) == 2
    for array, index in zip(graph.inputs, model.input_indexes, strict=True):
        assert list(array.shape) == model.operands[index].dimensions
    for shape, index in zip(graph.output_shapes, model.output_indexes, strict=True):
        assert list(shape) == model.operands[index].dimensions


def test_a_graph_in_control_flow_prints_a_spec_that_reads_back(tmp_path: Path) -> None:
    """The printed spec's sub-models come back as the referenced subgraphs: the same
    operations, operands and constants in each, whatever order the generator numbers them."""

    @settings(max_examples=20, derandomize=True, deadline=None, database=None)
    @given(control_graphs())
    def check(graph) -> None:
        expected = [np.zeros(s, np.float32) for s in graph.output_shapes]
        spec = tmp_path / "V1_3" / "fuzz_flow.mod.py"
        spec.parent.mkdir(exist_ok=True)
        spec.write_text(to_spec(graph, expected))
        (test,) = evaluate_spec(spec, tmp_path)
        want, got = graph.model, test.model
        assert [o.type for o in got.operations] == [o.type for o in want.operations]
        assert validate_model(got, HalVersion.V1_3).ok

        def described(model, graph_) -> str:
            """The subgraph up to the numbering of its operands: each operation with its
            operands' types, dimensions, lifetimes and constant bytes, in order."""
            values = model.operand_values

            def one(i: int) -> tuple:
                o = graph_.operands[i]
                data = b""
                if o.lifetime == OperandLifeTime.CONSTANT_COPY:
                    data = bytes(values[o.location.offset : o.location.offset + o.location.length])
                return (o.type, list(o.dimensions), o.lifetime, data)

            return repr(
                [
                    (op.type, [one(i) for i in op.inputs], [one(i) for i in op.outputs])
                    for op in graph_.operations
                ]
                + [[one(i) for i in graph_.input_indexes], [one(i) for i in graph_.output_indexes]]
            )

        assert sorted(described(got, g) for g in got.referenced) == sorted(
            described(want, g) for g in want.referenced
        )
        for fed, array in zip(test.feeds[0].inputs, graph.inputs, strict=True):
            np.testing.assert_array_equal(fed, array)

    check()


WRONG_SHAPES = """
from hal.types import OutputShape
from reference_driver import ReferenceDriver
from reference_driver.prepared_model import ReferencePreparedModel


class _Wrong(ReferencePreparedModel):
    def execute_synchronously(self, request, measure):
        status, shapes, timing = super().execute_synchronously(request, measure)
        return status, [OutputShape([*s.dimensions, 1], s.is_sufficient) for s in shapes], timing


class WrongShapes(ReferenceDriver):
    prepared_model_class = _Wrong
"""


def _run_fuzz(pytester: pytest.Pytester, driver: str, *args: str) -> pytest.RunResult:
    pytester.makepyfile(faulty_drivers=FAULTY.read_text(), wrong_shapes=WRONG_SHAPES)
    return pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_fuzz",
        f"--driver={driver}",
        "--nnhal-profile=full",
        "--nnhal-seed=1",  # full draws anew each run: these draws, every time
        "-v",
        *args,
    )


def test_differential_fuzzing_catches_a_wrong_operation_and_prints_a_spec(pytester) -> None:
    result = _run_fuzz(pytester, "faulty_drivers:PerturbMulTwice", "-k", "differential and float32")
    result.stdout.fnmatch_lines(
        [
            "*test_fuzz_differential?float32? FAILED*",
            "E *output 0: * value(s) differ from the reference driver's*",
            "*as a spec (save as conformance/specs/V1_2/<name>.mod.py):*",
            '*.Operation("MUL", *',
            "E *Example({",
        ]
    )
    assert result.ret == 1


def test_differential_fuzzing_finds_an_odd_width_quant8_bug_and_shrinks_it(pytester) -> None:
    """A quant8 ADD off by 2 steps only for odd last dimensions: found among the full
    profile's quant8 graphs, shrunk, and printed as a spec of at most 3 operations."""
    result = _run_fuzz(pytester, "faulty_drivers:OddWidthQuantAdd", "-k", "differential and quant8")
    result.stdout.fnmatch_lines(
        [
            "*test_fuzz_differential?quant8? FAILED*",
            "E *output 0: * value(s) differ from the reference driver's*",
            "*as a spec (save as conformance/specs/V1_2/<name>.mod.py):*",
            '*.Operation("ADD", *',
        ]
    )
    printed = result.stdout.str()
    spec = printed[printed.index("as a spec (save as") :]
    spec = spec[: spec.index("Example(")]
    assert 1 <= spec.count(".Operation(") <= 3, spec
    assert result.ret == 1


def test_shape_fuzzing_catches_wrong_output_shapes(pytester) -> None:
    result = _run_fuzz(pytester, "wrong_shapes:WrongShapes", "-k", "shapes and quant8")
    result.stdout.fnmatch_lines(
        [
            "*test_fuzz_shapes?quant8? FAILED*",
            "*reported for unknown dimensions; the graph implies*",
        ]
    )
    assert result.ret == 1


def test_the_reference_driver_skips_the_differential_and_passes_the_shapes(pytester) -> None:
    result = _run_fuzz(pytester, "reference")
    # the differential and the control-flow differential skip, each of the four kinds
    result.assert_outcomes(passed=4, skipped=8)


def test_control_flow_fuzzing_catches_a_wrong_branch_and_prints_a_1_3_spec(pytester) -> None:
    """A driver running the IF branch not chosen fails the control-flow differential, and
    the failure prints the graph with its sub-models, for the V1_3 folder."""
    pytester.makepyfile(faulty_drivers_cf=FAULTY_CF.read_text())
    result = _run_fuzz(
        pytester, "faulty_drivers_cf:TakesOtherBranch", "-k", "control_flow and float32"
    )
    result.stdout.fnmatch_lines(
        [
            "*test_fuzz_control_flow?float32? FAILED*",
            "E *output 0: * value(s) differ from the reference driver's*",
            "*as a spec (save as conformance/specs/V1_3/<name>.mod.py):*",
            '*g0 = Model("g0")*',
            '*model = Model().Operation("IF", *',
        ]
    )
