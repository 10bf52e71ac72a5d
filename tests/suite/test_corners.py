"""The parameter-space layer (conformance/harness/corners/) and its tests' behaviour."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from conformance.harness.corners import (
    CATALOGUE,
    CLASSES,
    FAMILIES,
    OPERATIONS,
    REGISTRY,
    SIGNED_CLASS,
    Corner,
    classify,
    family_of,
    oracle,
    signed,
    unknown_inputs,
)
from conformance.harness.corners.base import _arrange, _family
from generator.expand import evaluate_spec
from hal.tensors import read_constants
from hal.types import HalVersion, OperandType
from hal.validation import minimum_version

FAULTY_13 = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers_13.py"

_SEARCH = settings(
    max_examples=3000,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    # shrunk to the simplest case found, whatever profile the run loaded (the ci profile's
    # shrinks nothing)
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)


@pytest.mark.parametrize(
    ("family", "wanted"), [(f, c) for f in CLASSES for c in CLASSES[f]], ids=lambda v: str(v)
)
def test_every_family_reaches_each_of_its_classes(family: str, wanted: str) -> None:
    corner = find(FAMILIES[family](), lambda c: wanted in c.classes, settings=_SEARCH)
    assert wanted in corner.classes


def test_the_corners_no_spec_wrote_are_reached() -> None:
    """Odd SAME padding, dilation with stride, batches, broadcasting across ranks,
    negative axes, quantization at the ends of its ranges, NCHW and the input lists without
    a layout, unequal blocks, output sizes given as scales or as no multiple of the input's,
    depthwise-like groups, negative transposed-convolution tails, LRN radii beyond the axis:
    each drawn by its family, on every operation the corner matters for."""
    for family, wanted, operations in [
        ("conv2d", "padding:same-odd", {"CONV_2D"}),
        ("conv2d", "dilation>1+stride>1", {"CONV_2D"}),
        ("conv2d", "batch>1", {"CONV_2D"}),
        ("pool2d", "padding:same-odd", set(OPERATIONS["pool2d"])),
        ("binary", "broadcast:ranks-differ", set(OPERATIONS["binary"])),
        ("reduce", "axis:negative", set(OPERATIONS["reduce"])),
        ("binary", "quant:zero-point-255", {"ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM"}),
        ("binary", "quant:output-at-range-end", {"ADD", "MUL"}),
        ("moves", "layout:nchw", set(OPERATIONS["moves"])),
        ("moves", "inputs:plain", set(OPERATIONS["moves"])),
        ("moves", "block:unequal", {"SPACE_TO_BATCH_ND", "BATCH_TO_SPACE_ND"}),
        ("select", "axis:negative", {"SPLIT", "GATHER"}),
        ("resize", "resize:scale-input", set(OPERATIONS["resize"])),
        ("resize", "resize:non-integer", set(OPERATIONS["resize"])),
        ("resize", "layout:nchw", set(OPERATIONS["resize"])),
        ("convx", "layout:nchw", set(OPERATIONS["convx"])),
        ("convx", "batch>1", set(OPERATIONS["convx"])),
        ("convx", "groups:depthwise-like", {"GROUPED_CONV_2D"}),
        ("convx", "padding:negative-tail", {"TRANSPOSE_CONV_2D"}),
        ("convx", "output-shape:tensor", {"TRANSPOSE_CONV_2D"}),
        ("norm", "axis:negative", {"LOG_SOFTMAX", "LOCAL_RESPONSE_NORMALIZATION"}),
        ("norm", "lrn:radius>channels", {"LOCAL_RESPONSE_NORMALIZATION"}),
        ("norm", "layout:nchw", {"INSTANCE_NORMALIZATION"}),
    ]:
        for operation in sorted(operations):
            corner = find(
                FAMILIES[family](operation), lambda c, w=wanted: w in c.classes, settings=_SEARCH
            )
            assert corner.operation == operation


def test_the_oracle_puts_the_odd_same_pad_at_the_end() -> None:
    """By hand: a 2x2 input [[1, 2], [3, 4]], a 2x2 filter of ones, stride 1, SAME: one pad
    row and column in all, both at the end, so out = [[1+2+3+4, 2+4], [3+4, 4]]."""
    conv = oracle("convolution_oracle")
    assert conv.same_padding(2, 1, 2) == (0, 1)
    out, shape = conv.grouped_conv(
        [1.0, 2.0, 3.0, 4.0], (1, 2, 2, 1), [1.0] * 4, (1, 2, 2, 1), [0.0], (0, 1, 0, 1), (1, 1)
    )
    assert (out, shape) == ([10.0, 6.0, 7.0, 4.0], (1, 2, 2, 1))


def test_the_oracles_resize_and_slice_as_the_reference_says() -> None:
    """By hand: a row [1, 2, 3] resized to 2 cells samples at x = 0 and 1 * 3/2 = 1.5, so
    nearest takes cells 0 and 1 and bilinear gives [1, (2 + 3) / 2]; [1, 2, 3, 4] sliced from
    -1 to -5 (before the start: clamped to -1) by -2 takes cells 3 and 1."""
    pools, shapes = oracle("pooling_oracle"), oracle("shape_oracle")
    row = [1.0, 2.0, 3.0]
    assert pools.resize("nearest", row, (1, 1, 3, 1), 1, 2) == ([1.0, 2.0], (1, 1, 2, 1))
    assert pools.resize("bilinear", row, (1, 1, 3, 1), 1, 2) == ([1.0, 2.5], (1, 1, 2, 1))
    assert shapes.strided_slice([1.0, 2.0, 3.0, 4.0], [4], [-1], [-5], [-2], 0, 0, 0) == (
        [4.0, 2.0],
        [2],
    )


def test_a_scale_gives_the_floor_of_size_times_scale() -> None:
    corner = find(
        FAMILIES["resize"](), lambda c: "resize:scale-floors" in c.classes, settings=_SEARCH
    )
    scale_w, scale_h = corner.parameters["scales (w, h)"]
    n, h, w, c = corner.parameters["input"]
    want = (n, int(h * scale_h), int(w * scale_w), c)
    nchw = "layout:nchw" in corner.classes
    assert corner.outputs[0].shape == ((want[0], want[3], *want[1:3]) if nchw else want)
    assert (h * scale_h, w * scale_w) != want[1:3]


def test_a_transposed_convolution_gets_the_output_shape_its_tensor_asks_for() -> None:
    """The implicit TRANSPOSE_CONV_2D's output-shape tensor, in the case's layout, is the
    shape of the oracle's output: SAME honours it (the input is ceil(size / stride)), and
    under VALID the tensor holds the size the formula gives."""
    seen: set[object] = set()

    @settings(_SEARCH, max_examples=80)
    @given(FAMILIES["convx"]("TRANSPOSE_CONV_2D"))
    def check(corner: Corner) -> None:
        if "output-shape:tensor" not in corner.classes:
            return
        operation = corner.model.operations[0]
        tensor = read_constants(corner.model)[operation.inputs[3]]
        assert tensor.reshape(-1).tolist() == list(corner.outputs[0].shape)
        seen.add(corner.parameters["padding"])

    check()
    assert seen == {"SAME", "VALID"}


def test_instance_normalization_slices_are_spread_around_any_mean() -> None:
    """Every (batch, channel) slice a drawn INSTANCE_NORMALIZATION case normalises is not
    constant, and its mean is one of 0, 1.5, -3 and 40, the non-zero ones drawn too (where
    the HAL text's variance, which Android 11 and the oracle follow, and Android 10's mean
    of squares differ). By hand, one channel [1, 3] (mean 2, variance 1), gamma 2, beta
    0.5, epsilon 0: out = (x - 2) * 2 / sqrt(1) + 0.5 = [-1.5, 2.5]."""
    pools = oracle("pooling_oracle")
    assert pools.instance_normalization([1.0, 3.0], (1, 1, 2, 1), 2.0, 0.5, 0.0) == [-1.5, 2.5]
    means = set()

    @settings(_SEARCH, max_examples=60)
    @given(FAMILIES["norm"]("INSTANCE_NORMALIZATION"))
    def check(corner: Corner) -> None:
        x = corner.inputs[0].astype(np.float64)
        axes = (2, 3) if "layout:nchw" in corner.classes else (1, 2)
        assert set(x.mean(axis=axes).ravel()) <= {0.0, 1.5, -3.0, 40.0}
        assert np.all(np.ptp(x, axis=axes) > 0)
        means.update(x.mean(axis=axes).ravel().tolist())

    check()
    assert means - {0.0}, "no layer of non-zero mean was drawn"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_familys_twins_of_unknown_dimensions_read_back(family: str) -> None:
    """Hiding axes (one of the first input, or every axis of every input) leaves a model
    the family's classifier still reads (no size of 0 divides), the request classes added."""

    @settings(_SEARCH, max_examples=60)
    @given(FAMILIES[family]())
    def check(corner: Corner) -> None:
        every = {p: range(a.ndim) for p, a in enumerate(corner.inputs)}
        most = "several" if max(a.ndim for a in corner.inputs) > 1 else "one"
        for hidden, wanted in [
            ({0: [0]}, "request-dims:one-unknown"),
            (every, f"request-dims:{most}-unknown"),
        ]:
            twin = unknown_inputs(corner, hidden)
            assert twin.operation == corner.operation
            assert wanted in twin.classes
        assert "request-dims:all-inputs" in twin.classes

    check()


def test_unknown_inputs_hide_the_chosen_axes_and_name_the_classes() -> None:
    corner = find(FAMILIES["binary"]("ADD"), lambda c: c.inputs[0].ndim == 3, settings=_SEARCH)
    one = unknown_inputs(corner, {1: [0]})
    model = one.model
    assert model.operands[model.input_indexes[0]].dimensions == list(corner.inputs[0].shape)
    assert model.operands[model.input_indexes[1]].dimensions == [
        0,
        *corner.inputs[1].shape[1:],
    ]
    assert model.operands[model.output_indexes[0]].dimensions == [0] * corner.outputs[0].ndim
    assert one.classes[-2:] == ("request-dims:one-unknown", "request-dims:some-inputs")
    several = unknown_inputs(corner, {0: [0, 2], 1: [0]})
    assert several.classes[-2:] == ("request-dims:several-unknown", "request-dims:all-inputs")
    # the original is left as it was
    assert corner.model.operands[corner.model.input_indexes[1]].dimensions == list(
        corner.inputs[1].shape
    )


def test_the_registry_lists_every_family_in_the_catalogue_order() -> None:
    """One registration per family fills the three tables, in ``CATALOGUE``'s order, and each
    operation is drawn by exactly one family."""
    assert list(REGISTRY) == list(FAMILIES) == list(OPERATIONS) == list(CLASSES) == [*CATALOGUE]
    for name, family in REGISTRY.items():
        assert family.name == name
        assert FAMILIES[name] is family.strategy
        assert OPERATIONS[name] == family.operations
        assert CLASSES[name] == family.classes
        assert set(family.results) <= set(family.operations)
    drawn = [op for ops in OPERATIONS.values() for op in ops]
    assert len(drawn) == len(set(drawn))
    assert all(REGISTRY[family_of(op)].operations.count(op) == 1 for op in drawn)


def test_the_registry_refuses_a_family_or_an_operation_twice_and_a_wrong_order() -> None:
    def strategy(operation: str | None = None):
        raise AssertionError("never drawn")

    def reader(model, operation, constants, name) -> list[str]:
        return []

    with pytest.raises(ValueError, match="'conv2d' is registered twice"):
        _family("conv2d", operations=(), classes=(), classify=reader)(strategy)
    with pytest.raises(ValueError, match="CONV_2D already drawn by conv2d"):
        _family("again", operations=("CONV_2D",), classes=(), classify=reader)(strategy)
    with pytest.raises(ValueError, match="does not name the registered"):
        _arrange(CATALOGUE[1:])
    with pytest.raises(ValueError, match="does not name the registered"):
        _arrange((*CATALOGUE, "conv2d"))
    assert list(REGISTRY) == [*CATALOGUE]
    assert "again" not in REGISTRY
    assert family_of("CONV_2D") == "conv2d"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_printed_corner_is_a_spec_the_generator_reads_back(family: str, tmp_path: Path) -> None:
    corner = find(FAMILIES[family](), lambda c: len(c.classes) >= 3, settings=_SEARCH)
    folder = tmp_path / corner.level
    folder.mkdir()
    path = folder / "corner.mod.py"
    path.write_text(corner.spec(), encoding="utf-8")
    (test,) = evaluate_spec(path, tmp_path)
    feed = test.feeds[0]
    for got, want in zip(feed.inputs + feed.outputs, corner.inputs + corner.outputs, strict=True):
        np.testing.assert_array_equal(got, want)
    assert [op.type for op in test.model.operations] == [op.type for op in corner.model.operations]
    # the classes read back from the spec's model are the drawn case's
    assert classify(test.model, feed.outputs) == [(corner.operation, corner.classes)]


QUANTIZED_FAMILIES = ("binary", "unary", "compare", "convert", "layout", "pick", "roi")
"""The families that draw TENSOR_QUANT8_ASYMM cases with signed twins (the lstm family's
QUANTIZED_16BIT_LSTM has no signed form)."""


def _quantized(corner: Corner) -> bool:
    return any(o.type == OperandType.TENSOR_QUANT8_ASYMM for o in corner.model.operands)


@pytest.mark.parametrize("family", QUANTIZED_FAMILIES)
def test_a_signed_twin_of_a_drawn_case_is_a_1_3_spec_the_generator_reads_back(
    family: str, tmp_path: Path
) -> None:
    """Its operands signed, zero points, inputs and the oracle's outputs 128 lower, printed
    as a spec of the V1_3 folder."""
    corner = find(
        FAMILIES[family](), lambda c: _quantized(c) and signed(c) is not None, settings=_SEARCH
    )
    twin = signed(corner)
    assert minimum_version(twin.model) == HalVersion.V1_3 and twin.classes[-1] == SIGNED_CLASS
    for before, after in zip(corner.model.operands, twin.model.operands, strict=True):
        if before.type == OperandType.TENSOR_QUANT8_ASYMM:
            assert after.type == OperandType.TENSOR_QUANT8_ASYMM_SIGNED
            assert after.zero_point == before.zero_point - 128 and after.scale == before.scale
    model = corner.model
    for position, (a, b) in enumerate(zip(corner.inputs, twin.inputs, strict=True)):
        if model.operands[model.input_indexes[position]].type == OperandType.TENSOR_QUANT8_ASYMM:
            assert b.dtype == np.int8
            np.testing.assert_array_equal(b.astype(np.int16), a.astype(np.int16) - 128)
    folder = tmp_path / "V1_3"
    folder.mkdir()
    path = folder / "corner.mod.py"
    path.write_text(twin.spec(), encoding="utf-8")
    (test,) = evaluate_spec(path, tmp_path)
    feed = test.feeds[0]
    for got, want in zip(feed.inputs + feed.outputs, twin.inputs + twin.outputs, strict=True):
        np.testing.assert_array_equal(got, want)

    def quantization(model) -> list:
        (operation,) = model.operations
        operands = [model.operands[i] for i in [*operation.inputs, *operation.outputs]]
        return [(o.type, o.scale, o.zero_point) for o in operands]

    assert quantization(test.model) == quantization(twin.model)


def test_a_float_case_has_no_signed_twin() -> None:
    corner = find(FAMILIES["binary"](), lambda c: not _quantized(c), settings=_SEARCH)
    assert signed(corner) is None


def _coupling_run(pytester, driver: str):
    pytester.makepyfile(faulty_drivers_13=FAULTY_13.read_text())
    return pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_corners",
        f"--driver=faulty_drivers_13:{driver}",
        "--nnhal-profile=full",
        "--nnhal-seed=1",  # full draws anew each run: these draws, every time
        "-v",
        "-k",
        "binary/ADD or binary/MAXIMUM or layout/RESHAPE",
    )


def test_the_signed_twins_of_drawn_cases_catch_a_driver_reading_them_as_unsigned(
    pytester,
) -> None:
    """ADD's and MAXIMUM's quant8 draws run again as signed twins at HAL 1.3: a driver that
    reads the signed bytes as unsigned values fails those items with a V1_3 spec of the
    twin; RESHAPE, moving bytes (and drawing no quant8 case), passes; a driver running the
    twins on shifted unsigned kernels passes all three."""
    result = _coupling_run(pytester, "ReadsSignedAsUnsigned")
    result.stdout.fnmatch_lines(
        [
            "*test_corners?binary/ADD? FAILED*",
            "*test_corners?binary/MAXIMUM? FAILED*",
            "*test_corners?layout/RESHAPE? PASSED*",
            "E *ADD (binary): *signed twin=quant8 operands 128 lower*",
            "E *as a spec (save as conformance/specs/V1_3/<name>.mod.py):*",
            "E *classes: *quant8:signed*",
            '*Input("op0", "TENSOR_QUANT8_ASYMM_SIGNED", *',
        ]
    )
    assert result.ret == 1
    result = _coupling_run(pytester, "CouplesByShifting")
    assert result.ret == 0, result.stdout.str()[-3000:]


def test_a_driver_declining_the_signed_twins_fails_the_quantized_corner_items(pytester) -> None:
    result = _coupling_run(pytester, "DeclinesSignedTwins")
    result.stdout.fnmatch_lines(
        [
            "*test_corners?binary/ADD? FAILED*",
            "*test_corners?layout/RESHAPE? PASSED*",
            "E *the driver ran the drawn case but declined its signed twin: a HAL 1.3 driver "
            "supports the signed form of every unsigned one it supports",
        ]
    )


ODD_SAME_PAD_FIRST = """
import hal.checks.convolution as convolution  # the geometry the reference driver computes with
from reference_driver import ReferenceDriver

_same_pads = convolution._same_pads


def _head_first(size, stride, extent):
    head, tail = _same_pads(size, stride, extent)
    return tail, head  # the odd SAME pad at the start of the axis, not the end


convolution._same_pads = _head_first


class OddSamePadFirst(ReferenceDriver):
    pass
"""


def _run_odd_pad(pytester, *options: str):
    """The corner items (profile full, verbose) against the odd-SAME-pad driver."""
    pytester.makepyfile(odd_pad=ODD_SAME_PAD_FIRST)
    return pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_corners",
        "--driver=odd_pad:OddSamePadFirst",
        "--nnhal-profile=full",
        "--nnhal-seed=1",  # full draws anew each run: these draws, every time
        "-v",
        *options,
    )


def test_a_driver_wrong_in_one_corner_fails_with_a_spec_of_it(pytester) -> None:
    """CONV_2D with the odd SAME pad on the wrong side: no spec has that corner; the
    parameter-space item finds it, shrinks it and prints it as a spec; ADD's item passes."""
    result = _run_odd_pad(pytester, "-k", "CONV_2D or binary/ADD")
    result.stdout.fnmatch_lines(
        [
            "*test_corners?conv2d/CONV_2D? FAILED*",
            "*test_corners?binary/ADD? PASSED*",
            "E *CONV_2D (conv2d): *padding=SAME*",
            "E *as a spec (save as conformance/specs/V1_2/<name>.mod.py):*",
            "E *# A case drawn by conformance/harness/corners/ (the parameter-space tests).",
            "E *classes: padding:same-odd*",
            '*.Operation("CONV_2D", *',
            "E *Example({",
        ]
    )
    assert result.ret == 1


SWISH_KEEPS_INPUT_SCALE = """
import reference_driver.ops.newops as newops
from reference_driver import ReferenceDriver

_multipliers = newops.hard_swish_multipliers


def _input_scale_only(source, target):
    return _multipliers(source, source)  # the output multiplier of the input's scale


newops.hard_swish_multipliers = _input_scale_only


class SwishKeepsInputScale(ReferenceDriver):
    pass
"""


def test_a_hard_swish_wrong_in_its_output_scale_fails_with_a_hal_1_3_spec(pytester) -> None:
    """Quantized HARD_SWISH requantized to the input's scale, not the output's: no spec's
    quantization shows it everywhere; the newops item finds a case, shrinks it and prints it
    as a spec of the V1_3 folder; ELU's item passes."""
    pytester.makepyfile(swish_scale=SWISH_KEEPS_INPUT_SCALE)
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_corners",
        "--driver=swish_scale:SwishKeepsInputScale",
        "--nnhal-profile=full",
        "--nnhal-seed=1",
        "-v",
        "-k",
        "newops/HARD_SWISH or newops/ELU",
    )
    result.stdout.fnmatch_lines(
        [
            "*test_corners?newops/ELU? PASSED*",
            "*test_corners?newops/HARD_SWISH? FAILED*",
            "E *HARD_SWISH (newops): *out (scale, zero point)=*",
            "E *as a spec (save as conformance/specs/V1_3/<name>.mod.py):*",
            "E *expected outputs: conformance/specs/oracles/newops_oracle.py",
            '*.Operation("HARD_SWISH", *',
            "E *Example({",
        ]
    )
    assert result.ret == 1


def test_an_operation_filter_keeps_that_operations_corner_items(pytester) -> None:
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_corners",
        "--nnhal-op=MAX_POOL_2D",
        "--collect-only",
        "-q",
    )
    result.stdout.fnmatch_lines(["*test_corners?pool2d/MAX_POOL_2D?"])
    assert "CONV_2D" not in result.stdout.str()
    assert "AVERAGE_POOL_2D" not in result.stdout.str()


def test_the_parameter_report_counts_what_specs_and_draws_reach(tmp_path: Path, capsys) -> None:
    """``nnhal-generate --parameters`` over one spec: a printed odd-SAME CONV_2D case."""
    from generator import __main__ as cli

    corner = find(FAMILIES["conv2d"](), lambda c: "padding:same-odd" in c.classes, settings=_SEARCH)
    (tmp_path / "pyproject.toml").write_text("")
    folder = tmp_path / "conformance" / "specs" / "V1_2"
    folder.mkdir(parents=True)
    (folder / "corner.mod.py").write_text(corner.spec(), encoding="utf-8")
    status = cli.main(["--root", str(tmp_path), "--parameters", "--draws", "3"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[0] == "operation class: spec cases reaching it, drawn cases reaching it (of 3 draws)"
    line = next(x for x in out if x.startswith("CONV_2D padding:same-odd: "))
    assert line.startswith("CONV_2D padding:same-odd: specs 1, drawn ")
    assert "MAX_POOL_2D padding:valid: specs 0, drawn " in "\n".join(out)
    listed = sum(len(CLASSES[f]) * len(OPERATIONS[f]) for f in CLASSES)
    assert out[-1].startswith(f"parameters: of {listed} listed classes (operation and class), ")
    assert cli.main(["--root", str(tmp_path), "--parameters", "--draws", "0"]) == 2
    assert capsys.readouterr().err == "nnhal-generate: --draws=0: must be at least 1\n"


def test_a_driver_below_hal_1_2_runs_the_corners_its_level_has(pytester) -> None:
    """At HAL 1.0 the CONV_2D item draws the HAL 1.0 forms only (no layout, no dilation)
    and still finds the odd SAME pad on the wrong side; an operation of HAL 1.2 is
    skipped as such, and SOFTMAX, whose drawn cases all take the HAL 1.2 axis, says so."""
    result = _run_odd_pad(
        pytester,
        "--hal-version=1.0",
        "-rs",
        "-k",
        "conv2d/CONV_2D or RESIZE_NEAREST_NEIGHBOR or SOFTMAX or pool2d/MAX_POOL_2D",
    )
    result.stdout.fnmatch_lines(
        [
            "*test_corners?conv2d/CONV_2D? FAILED*",
            "*test_corners?pool2d/MAX_POOL_2D? PASSED*",
            "*test_corners?axis/SOFTMAX? SKIPPED*",
            "*test_corners?resize/RESIZE_NEAREST_NEIGHBOR? SKIPPED*",
            "E *CONV_2D (conv2d): *padding=SAME*inputs=plain*",
        ]
    )
    out = result.stdout.str()
    assert "no SOFTMAX case drawn is valid at HAL 1.0" in out
    assert "needs HAL 1.2; the driver is tested at HAL 1.0" in out
    assert result.ret == 1


ZERO_POINT_IGNORED = """
import numpy as np

from reference_driver import ReferenceDriver
from reference_driver.ops import comparison

_comparable = comparison._comparable


def _scale_only(values, operand):
    if operand.type != comparison._Q8A:
        return _comparable(values, operand)
    return values.astype(np.float32) * np.float32(operand.scale)  # the zero point forgotten


comparison._comparable = _scale_only


class ZeroPointIgnored(ReferenceDriver):
    pass
"""


def test_a_comparison_forgetting_the_zero_point_fails_its_corner_item(pytester) -> None:
    """Quantized comparisons that drop each input's zero point: the compare family's item
    for GREATER fails with a printed quant8 case; LOGICAL_AND's item passes."""
    pytester.makepyfile(zero_point_ignored=ZERO_POINT_IGNORED)
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_corners",
        "--driver=zero_point_ignored:ZeroPointIgnored",
        "--nnhal-profile=full",
        "--nnhal-seed=1",  # full draws anew each run: these draws, every time
        "-v",
        "-k",
        "compare/GREATER or compare/LOGICAL_AND",
    )
    result.stdout.fnmatch_lines(
        [
            "*test_corners?compare/GREATER? FAILED*",
            "*test_corners?compare/LOGICAL_AND? PASSED*",
            "E *GREATER (compare): *type=quant8*",
            "E *classes: type:quant8*",
            '*.Operation("GREATER", *',
        ]
    )
    assert result.ret == 1


def test_a_corner_item_says_how_many_cases_ran_and_its_failure_comes_first(pytester) -> None:
    result = _run_odd_pad(pytester, "-k", "CONV_2D or binary/ADD", "--cert-report=rep")
    assert result.ret == 1
    from plugins.report.document import load

    tests = {t["id"]: t for t in load(pytester.path / "rep" / "report.json")["tests"]}
    passed = tests["conformance.test_corners::test_corners[binary/ADD]"]
    assert (passed["outcome"], passed["reason"]) == (
        "passed",
        "ran 12 of the 12 ADD cases drawn (0 declined by the driver)",
    )
    failed = tests["conformance.test_corners::test_corners[conv2d/CONV_2D]"]
    assert failed["outcome"] == "failed"
    # what was expected against what came first, then the drawn case
    assert failed["reason"].startswith("output 0 (shape ["), failed["reason"]
    assert "\ndrawn case: CONV_2D (conv2d): " in failed["details"]


def test_a_corner_item_whose_cases_the_driver_all_declines_is_unsupported() -> None:
    from conformance.harness import items

    class Node:
        user_properties: list = []

    node = Node()
    drawn = items.Drawn("ADD cases", drawn=5, declined=5)
    with pytest.raises(pytest.skip.Exception) as skipped:
        drawn.conclude(node)
    assert str(skipped.value) == "unsupported: the driver supported none of the ADD cases drawn"
    assert items.facts_of(skipped.value) == {"kind": items.UNSUPPORTED}
    assert node.user_properties == [
        (items.CASES_PROPERTY, "ran 0 of the 5 ADD cases drawn (5 declined by the driver)")
    ]
