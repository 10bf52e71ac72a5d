"""The generated suite catches what it must, and only that.

Each test runs ``conformance.test_generated`` in a pytest subprocess against a
driver from faulty_drivers.py (built on the reference driver, broken in one
known way) and checks which items fail and what they say.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from suite_outcomes import outcomes_of, with_outcome

from conformance.harness import fresh
from conformance.harness.generated import load_index, load_tests
from hal.tensors import read_constants
from hal.types import OperandType, OperationType
from plugins.report.document import load

FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers.py"


def _run(pytester: pytest.Pytester, driver: str, *args: str) -> tuple[dict, pytest.RunResult]:
    """Outcome of every item (id -> PASSED/FAILED/SKIPPED) and the run itself."""
    pytester.makepyfile(faulty_drivers=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_generated",
        f"--driver=faulty_drivers:{driver}",
        "-v",
        "-rA",
        *args,
    )
    return outcomes_of(result), result


def _float32_mul_cases() -> set[str]:
    """'folder/spec/rest' of every non-relaxed case with MUL and a TENSOR_FLOAT32 output."""
    cases = set()
    for module, _ in load_index():
        for test in load_tests(module):
            model = test.model
            has_mul = OperationType.MUL in {op.type for op in model.operations}
            float32_out = any(
                model.operands[i].type == OperandType.TENSOR_FLOAT32 for i in model.output_indexes
            )
            if has_mul and float32_out and not model.relax_computation_float32_to_float16:
                spec = test.test_id.split("/")[1]
                rest = test.name[len(spec) + 1 :] or "base"
                cases.add(f"{test.hal_folder}/{spec}/{rest}")
    return cases


def _case_of(item: str) -> str:
    return "/".join(item.split("[", 1)[1].split("/")[:3])


def _compares_values(item: str) -> bool:
    """Whether the item compares output values (the short-buffer and shapes items do not)."""
    return not item.endswith(("-dyn-short]", "/shapes]"))


def test_perturbing_by_twice_the_tolerance_fails_exactly_those_cases(pytester) -> None:
    outcomes, _ = _run(pytester, "PerturbMulTwice", "-k", "mul")
    cases = _float32_mul_cases()
    assert cases == {
        "V1_0/add_mul_internal/base",
        "V1_0/mul/none",
        "V1_0/mul/relu",
        "V1_0/mul/relu1",
        "V1_0/mul/relu6",
        "V1_0/mul/ranks",
        "V1_0/mul_special_values/none",
        "V1_0/mul_special_values/relu",
        "V1_0/mul_special_values/relu1",
        "V1_0/mul_special_values/relu6",
        "V1_2/mul_v1_2/base",
        # Android 11's lifetime variations (1.3 cases: the reference is a 1.3 driver); the
        # special values do without them, ADD_MUL_INTERNAL has two operations
        "V1_0/mul/none_all_inputs_as_internal",
        "V1_0/mul/relu_all_inputs_as_internal",
        "V1_0/mul/relu1_all_inputs_as_internal",
        "V1_0/mul/relu6_all_inputs_as_internal",
        "V1_0/mul/ranks_all_inputs_as_internal",
        "V1_2/mul_v1_2/all_inputs_as_internal",
    }
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    expected = {
        item
        for item, outcome in outcomes.items()
        if _case_of(item) in cases and _compares_values(item) and outcome != "SKIPPED"
    }
    assert failed == expected and len(failed) > 50


def test_perturbing_by_half_the_tolerance_passes(pytester) -> None:
    outcomes, result = _run(pytester, "PerturbMulHalf", "-k", "mul")
    assert "FAILED" not in outcomes.values(), result.stdout.str()
    assert list(outcomes.values()).count("PASSED") > 100


def test_claiming_support_then_failing_preparation_fails(pytester) -> None:
    outcomes, result = _run(pytester, "ClaimsButFails", "-k", "V1_2/add_v1_2")
    failed = [item for item, outcome in outcomes.items() if outcome == "FAILED"]
    prepare_1_2 = [
        i
        for i in outcomes
        if "prepare_model_1_2" in i or i.startswith(("test_generated[", "test_generated_fresh["))
    ]
    assert sorted(failed) == sorted(prepare_1_2) and failed
    result.stdout.fnmatch_lines(
        [
            "*prepare_model_1_2 failed with GENERAL_FAILURE although get_supported_operations "
            "reported every operation supported*"
        ]
    )


def test_constpool_items_prepare_with_constants_in_a_pool(pytester) -> None:
    """A driver that cannot prepare a model with CONSTANT_REFERENCE operands fails exactly
    the constpool items (whose constants are moved into a pool); every other item passes."""
    outcomes, result = _run(
        pytester, "FailsConstantReferences", "-k", "V1_2/conv2d_forms_v1_2/dilated_nchw"
    )
    failed = sorted(item for item, outcome in outcomes.items() if outcome == "FAILED")
    constpool = sorted(item for item in outcomes if item.endswith("/constpool]"))
    assert constpool and failed == constpool
    assert all(outcomes[i] in ("PASSED", "SKIPPED") for i in outcomes if i not in constpool)
    result.stdout.fnmatch_lines(
        [
            "*prepare_model_1_2 failed with GENERAL_FAILURE although get_supported_operations "
            "reported every operation supported*"
        ]
    )


def test_writing_past_an_output_fails_with_the_guard_message(pytester) -> None:
    outcomes, result = _run(pytester, "WritesPastOutput", "-k", "V1_0/add")
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    scattered = {item for item in outcomes if item.endswith("/scattered]")}
    assert failed == scattered and failed
    result.stdout.fnmatch_lines(
        ["*the driver wrote 1 byte(s) outside every output location in pool *"]
    )


def test_a_1_0_driver_runs_only_the_1_0_paths(pytester) -> None:
    outcomes, result = _run(pytester, "Level_1_0", "-k", "add or mul")
    assert "FAILED" not in outcomes.values(), result.stdout.str()
    passed = [item for item, outcome in outcomes.items() if outcome == "PASSED"]
    assert passed
    for item in passed:
        # (the fresh-input check runs on async10 below HAL 1.2)
        assert item.endswith(("/async10]", "/scattered]", "/prepare_model]", "/fresh]")), item
        assert "relaxed" not in item and "float16" not in item, item  # 1.1 and 1.2 models
    result.stdout.fnmatch_lines(["*needs HAL 1.2; the driver is tested at HAL 1.0*"])
    result.stdout.fnmatch_lines(["*the model needs HAL 1.1; the driver is tested at HAL 1.0*"])


def test_a_second_notify_fails_that_item_and_the_run_goes_on(pytester) -> None:
    outcomes, result = _run(pytester, "NotifiesTwice", "-k", "V1_2/mul_v1_2/base")
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    async_items = {i for i in outcomes if re.search(r"/async(-timed)?(-dyn(-short)?)?\]$", i)}
    shapes_items = {i for i in outcomes if i.endswith("/shapes]")}  # they run async too
    assert failed == async_items | shapes_items and failed
    assert "PASSED" in outcomes.values()
    result.stdout.fnmatch_lines(["*execution callback notified 2 times; extra call notify_1_2*"])


def test_a_missing_notify_times_out_and_the_run_goes_on(pytester) -> None:
    outcomes, result = _run(
        pytester, "NeverNotifies", "-k", "V1_2/mul_v1_2/base/ex0/async", "--hal-timeout=0.2"
    )
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    assert len(failed) == 6 and all("/async10]" not in item for item in failed)
    assert outcomes["test_generated[V1_2/mul_v1_2/base/ex0/async10]"] == "PASSED"
    result.stdout.fnmatch_lines(
        [
            "*execute_1_2 (launch status NONE): the driver did not notify the execution callback "
            "within 0.2 s*"
        ]
    )


def test_an_output_never_written_is_reported_as_not_written(pytester) -> None:
    outcomes, result = _run(pytester, "LeavesMulOutputs", "-k", "V1_0/mul/none/ex0")
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    compared = {item for item, outcome in outcomes.items() if _compares_values(item)}
    skipped = {item for item, outcome in outcomes.items() if outcome == "SKIPPED"}
    assert failed and failed == compared - skipped, result.stdout.str()
    output = result.stdout.str()
    assert "output 0 was not written: all 16 bytes still hold the fill byte 0xA5" in output
    assert "values differ" not in output


def test_a_method_that_hung_twice_blocks_the_items_that_call_it(pytester) -> None:
    outcomes, result = _run(
        pytester,
        "NeverNotifies",
        "-k",
        "V1_2/mul_v1_2/base/ex0/async",
        "--hal-timeout=0.2",
        "--cert-report=out",
    )
    failed = [item for item, outcome in outcomes.items() if outcome == "FAILED"]
    assert len(failed) == 6 and outcomes["test_generated[V1_2/mul_v1_2/base/ex0/async10]"] == (
        "PASSED"
    )
    output = _failure_sections(result)
    blocked = (
        "blocked: execute_1_2 timed out 2 times earlier in this run (--hal-hang-limit=2); it "
        "is not called again, so this item did not run"
    )
    assert output.count("did not notify the execution callback within 0.2 s") == 2, output
    assert output.count(blocked) == 4, output
    report = load(pytester.path / "out" / "report.json")
    kinds = sorted(t["outcome"] for t in report["tests"] if t["id"].split("[")[1] in str(failed))
    assert kinds == ["blocked"] * 4 + ["timeout"] * 2, kinds


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_an_item_that_hangs_again_itself_is_a_timeout_not_blocked(pytester, isolation) -> None:
    # A property-based item replays its failing draw: the driver hangs again in the same
    # item, which reaches the limit there. That item is where the driver hung (a timeout,
    # with its first hang's message); only later items are blocked.
    pytester.makepyfile(faulty_drivers=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:randomly", "--pyargs", "conformance.test_corners",
        "--driver=faulty_drivers:NeverNotifies", f"--driver-isolation={isolation}",
        "--hal-timeout=0.2", "-k", "conv2d/CONV_2D or pool2d/L2_POOL_2D", "--cert-report=out",
    )  # fmt: skip
    assert result.ret == 1, result.stdout.str()
    report = load(pytester.path / "out" / "report.json")
    outcomes = {t["id"].split("[")[1][:-1]: t for t in report["tests"]}
    hung = outcomes["conv2d/CONV_2D"]
    assert hung["outcome"] == "timeout", hung
    assert hung["details"].splitlines()[0] == (  # what went wrong first, then the case
        "execute_1_2 (launch status NONE): the driver did not notify the execution callback "
        "within 0.2 s (this item hung in execute_1_2 and called it again: 2 hangs in this "
        "run, --hal-hang-limit=2, so it is not called again)"
    ), hung
    assert hung["details"].splitlines()[1].startswith("drawn case: CONV_2D (conv2d): ")
    assert "this item did not run" not in hung["details"]
    later = outcomes["pool2d/L2_POOL_2D"]
    assert later["outcome"] == "blocked", later
    assert "blocked: execute_1_2 timed out 2 times earlier in this run" in later["details"]


def test_hang_limit_zero_never_blocks(pytester) -> None:
    outcomes, result = _run(
        pytester,
        "NeverNotifies",
        "-k",
        "V1_2/mul_v1_2/base/ex0/async",
        "--hal-timeout=0.2",
        "--hal-hang-limit=0",
    )
    assert list(outcomes.values()).count("FAILED") == 6
    output = _failure_sections(result)
    assert output.count("did not notify the execution callback within 0.2 s") == 6, output
    assert "blocked:" not in output


def test_a_negative_hang_limit_is_a_usage_error(pytester) -> None:
    pytester.makepyfile(faulty_drivers=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "--pyargs", "conformance.test_basic", "--hal-hang-limit=-1"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*argument --hal-hang-limit: must be a whole number >= 0, not '-1'*"]
    )


def _failure_sections(result: pytest.RunResult) -> str:
    """The output's failure reports, without the short summary (whose lines CI does not
    truncate, so they would count each message again)."""
    return result.stdout.str().split("short test summary info")[0]


def _instance_norm_cases() -> tuple[set[str], set[str]]:
    """'folder/spec/rest' of every INSTANCE_NORMALIZATION case: those whose input has a
    (batch, channel) layer of non-zero mean and variance (where Android 10's mean of squares
    and the variance differ, and x - mean is not 0), and the others."""
    off_centre, centred = set(), set()
    for module, _ in load_index():
        for test in load_tests(module):
            operations = test.model.operations
            if [op.type for op in operations] != [OperationType.INSTANCE_NORMALIZATION]:
                continue
            nchw = bool(read_constants(test.model)[operations[0].inputs[4]])
            axes = (2, 3) if nchw else (1, 2)
            layers = [f.inputs[0].astype(np.float64) for f in test.feeds]
            differ = [np.abs(x.mean(axis=axes)) * x.var(axis=axes) for x in layers]
            spec = test.test_id.split("/")[1]
            rest = test.name[len(spec) + 1 :] or "base"
            case = f"{test.hal_folder}/{spec}/{rest}"
            (off_centre if any(np.any(d > 1e-3) for d in differ) else centred).add(case)
    return off_centre, centred


def test_instance_normalization_the_android_10_way_fails_every_off_centre_layer(
    pytester,
) -> None:
    """Android 10 divided by sqrt(mean(x^2) + epsilon): every item that compares the values
    of a case with a layer of non-zero mean fails; the one_cell cases (x - mean is 0
    everywhere, so the output is beta whatever the denominator) pass."""
    outcomes, result = _run(pytester, "InstanceNormAndroid10", "-k", "instance_normalization")
    off_centre, centred = _instance_norm_cases()
    assert off_centre and centred
    assert all("/one_cell" in case for case in centred), centred
    failed = with_outcome(outcomes, "FAILED")
    expected = {
        item
        for item, outcome in outcomes.items()
        if _case_of(item) in off_centre and _compares_values(item) and outcome != "SKIPPED"
    }
    assert failed == expected and len(failed) > 100, result.stdout.str()[-3000:]
    assert any(_case_of(item) in centred for item in with_outcome(outcomes, "PASSED"))


_RANK_ZERO_OPERATIONS = {
    OperationType.SQUEEZE,
    OperationType.STRIDED_SLICE,
    OperationType.REDUCE_ALL,
    OperationType.REDUCE_ANY,
    OperationType.REDUCE_MAX,
    OperationType.REDUCE_MIN,
    OperationType.REDUCE_PROD,
    OperationType.REDUCE_SUM,
}


def _every_axis_goes(operation, value) -> bool:
    """Whether SQUEEZE, STRIDED_SLICE or REDUCE_* removes every axis, given ``value(slot)``:
    the operation input's array, or None when omitted."""
    rank = len(value(0).shape)
    if operation.type == OperationType.STRIDED_SLICE:
        gone = {a for a in range(rank) if int(value(6)) >> a & 1}
    elif operation.type == OperationType.SQUEEZE:
        axes = value(1)
        if axes is None:
            gone = {a for a in range(rank) if value(0).shape[a] == 1}
        else:
            gone = {int(a) % rank for a in axes.reshape(-1)}
    else:
        gone = set() if bool(value(2)) else {int(a) % rank for a in value(1).reshape(-1)}
    return len(gone) == rank


def _rank_zero_cases() -> set[str]:
    """'folder/spec/rest' of every case with a SQUEEZE, STRIDED_SLICE or REDUCE_* whose
    result would have rank 0 (Android 10) where Android 11 gives [1]: read from the
    models' constants and the feeds, not from the driver."""
    cases = set()
    for module, _ in load_index():
        for test in load_tests(module):
            model = test.model
            constants = read_constants(model)
            for operation in model.operations:
                if operation.type not in _RANK_ZERO_OPERATIONS:
                    continue
                for feed in test.feeds:
                    known = {
                        **dict(zip(model.input_indexes, feed.inputs, strict=True)),
                        **constants,
                    }
                    # an input Android 11's all_inputs_as_internal writes with an ADD of a
                    # zero holds its new input's data
                    for add in model.operations:
                        if add.type == OperationType.ADD and add.inputs[0] in known:
                            known.setdefault(add.outputs[0], known[add.inputs[0]])

                    def value(slot, operation=operation, known=known):
                        found = known.get(operation.inputs[slot])
                        return None if found is None or found.size == 0 else found

                    if _every_axis_goes(operation, value):
                        spec = test.test_id.split("/")[1]
                        rest = test.name[len(spec) + 1 :] or "base"
                        cases.add(f"{test.hal_folder}/{spec}/{rest}")
    return cases


def test_rank_zero_results_fail_exactly_the_cases_android_11_gives_shape_1(pytester) -> None:
    """A driver whose SQUEEZE, STRIDED_SLICE and REDUCE_* results keep rank 0 (Android 10)
    fails every item of the cases where every axis goes, at every type and through every
    HAL level's methods, and passes every other item of those operations. The timed and
    short-buffer forms of each path are left out: they run the same computation again (a
    third of the items each)."""
    selection = "(squeeze or strided_slice or reduce_ or rank0) and not timed and not short"
    outcomes, result = _run(pytester, "RankZeroResults", "-k", selection)
    cases = _rank_zero_cases()
    specs = {case.rsplit("/", 1)[0] for case in cases}
    assert {"V1_1/rank0_as_shape1", "V1_2/rank0_as_shape1_v1_2", "V1_2/reduce_sum"} <= specs
    failed = with_outcome(outcomes, "FAILED")
    expected = {
        item
        for item, outcome in outcomes.items()
        if _case_of(item) in cases and outcome != "SKIPPED"
    }
    assert failed == expected and len(failed) > 100, result.stdout.str()[-3000:]
    assert any(item.endswith("/async10]") for item in failed)


_SHAPES_SELECTION = "V1_0/rnn/base/ or V1_0/add/none/"
"""A case with two outputs and one with one: every run of each, the new items included."""


def test_insufficient_flags_after_success_fail_only_the_shapes_items(pytester) -> None:
    outcomes, result = _run(pytester, "InsufficientOnSuccess", "-k", _SHAPES_SELECTION)
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    assert failed == {i for i in outcomes if i.endswith("/shapes]")} and len(failed) == 3, failed
    result.stdout.fnmatch_lines(
        [
            "*sync, every output buffer large enough (status NONE): output 0: is_sufficient "
            "False, but its buffer of * bytes holds the reported dimensions*"
        ]
    )


def test_every_output_flagged_short_fails_only_the_multi_output_shapes_items(pytester) -> None:
    outcomes, result = _run(pytester, "EveryOutputShort", "-k", _SHAPES_SELECTION)
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    assert failed == {"test_generated[V1_0/rnn/base/ex0/shapes]"}, failed
    result.stdout.fnmatch_lines(
        [
            "*sync, output 0 alone a byte short (status OUTPUT_INSUFFICIENT_SIZE): output 1: "
            "is_sufficient False, but its buffer of 16 bytes holds the reported dimensions [[]2, 2]*"
        ]
    )


def test_truncating_requantization_fails_only_the_bias_items(pytester) -> None:
    outcomes, result = _run(pytester, "TruncatingRequantizer", "-k", "V1_2/requant_rounding/")
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    names = ("add", "sub", "mul", "avg_pool", "fully_connected", "conv2d", "depthwise_conv2d")
    assert failed == {f"test_generated[V1_2/requant_rounding/{n}/ex0/bias]" for n in names}, sorted(
        failed
    )
    result.stdout.fnmatch_lines(
        [
            "*quantized outputs are biased*",
            "*output 0 (shape [[]4, 4]): mean signed error -0.* (limit +-0.25), mean squared "
            "error 0.* (limit 0.5) over 16 elements*",
        ]
    )


def test_relaxed_models_in_bfloat16_fail_the_relaxed_precision_cases(pytester) -> None:
    outcomes, result = _run(pytester, "RelaxedInBfloat16", "-k", "V1_2/relaxed_precision/")
    failed = {item for item, outcome in outcomes.items() if outcome == "FAILED"}
    cases = {_case_of(item) for item in failed}
    names = ("sub", "add", "cast", "argmax", "greater", "equal")
    assert cases == {f"V1_2/relaxed_precision/{n}_relaxed" for n in names}, sorted(cases)
    # Items that compare no values (the short buffer, the shapes) pass.
    assert not {i for i in failed if i.endswith(("-dyn-short]", "/shapes]"))}, sorted(failed)
    assert "test_generated[V1_2/relaxed_precision/cast_relaxed/ex0/sync]" in failed
    result.stdout.fnmatch_lines(["*output 0 (shape [[]6]): 6 of 6 values differ*"])


def test_relaxed_models_in_float16_pass_the_relaxed_precision_cases(pytester) -> None:
    outcomes, result = _run(pytester, "RelaxedInFloat16", "-k", "V1_2/relaxed_precision/")
    below_13 = {v for k, v in outcomes.items() if "_1_3-" not in k}  # a 1.2 driver skips 1.3
    assert below_13 == {"PASSED"}, result.stdout.str()[-3000:]


def test_relaxed_fresh_inputs_have_one_right_answer_for_a_float16_driver(pytester) -> None:
    # Seed 3726923115 once drew a CAST input float16 rounds up to the next integer, and an
    # EXP input whose float32 answer float16 cannot hold: both failed a driver that relaxes
    # as allowed. Fresh float32 inputs of relaxed models are now float16 values, and a draw
    # whose answer leaves float16's range is drawn again.
    outcomes, result = _run(
        pytester,
        "RelaxedInFloat16",
        "--nnhal-seed=3726923115",
        "-k",
        "fresh and (cast_relaxed or exp/special_relaxed)",
    )
    assert set(outcomes.values()) == {"PASSED"}, result.stdout.str()[-3000:]
    for case in ("relaxed_precision/cast_relaxed", "exp/special_relaxed"):
        assert outcomes[f"test_generated_fresh[V1_2/{case}/ex0/fresh]"] == "PASSED"


def test_relaxed_fresh_draws_are_float16_values_and_float32_ones_are_not() -> None:
    example = [np.array([771.3, 0.1, -2.7, 1e6], np.float32), np.array([3, 4], np.int32)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a value beyond float16 is not cast, so nothing overflows
        relaxed = fresh.draw_inputs(example, np.random.default_rng(1), 2, relaxed=True)
    held = relaxed[0][:3]
    assert np.array_equal(held, held.astype(np.float16).astype(np.float32))
    assert np.isfinite(relaxed[0][3]) and relaxed[0][3] > 65504  # beyond float16: not made inf
    plain = fresh.draw_inputs(example, np.random.default_rng(1), 2)
    assert not np.array_equal(plain[0][:3], plain[0][:3].astype(np.float16).astype(np.float32))


def test_a_scaled_finite_value_stays_finite_and_an_infinity_stays_infinite() -> None:
    """3e38 scaled by up to 1.5 is past float32's largest value: the draw gives that value,
    never an infinity that could meet another one in a sum (seed 1821495018 once drew
    3e38 * 1.5 = inf and paired it with -inf in add_special_values)."""
    example = [
        np.array([3e38, -3e38, np.inf, -np.inf, -0.0, 2.5], np.float32),
        np.array([6e4, -6e4, 1.0, 2.0, 0.0, 1.5], np.float16),
    ]
    largest = {np.float32: np.finfo(np.float32).max, np.float16: np.finfo(np.float16).max}
    clipped = 0
    for seed in range(200):
        for attempt in range(fresh.ATTEMPTS):
            drawn = fresh.draw_inputs(example, fresh.case_rng(seed, "c", attempt), attempt)
            for before, after in zip(example, drawn, strict=True):
                assert after.dtype == before.dtype
                assert np.isfinite(after).sum() == np.isfinite(before).sum()
                assert sorted(after[np.isinf(after)]) == sorted(before[np.isinf(before)])
                clipped += int((np.abs(after) == largest[before.dtype.type]).sum())
    assert clipped > 100  # the scaling did go past the largest value, often


def test_a_nan_from_infinite_inputs_does_not_count_and_one_from_finite_inputs_does() -> None:
    infinite = [np.array([np.inf, 0.0], np.float32)]
    finite = [np.array([-2.0, 0.5], np.float32)]
    example = [np.array([1.0, np.nan], np.float32), np.array([1.0, 2.0], np.float32)]
    new = [np.array([5.0, 3.0], np.float32), np.array([np.nan, 1.0], np.float32)]
    assert fresh.new_nan(new, example, infinite)
    assert not fresh.new_nan(new, example, finite)  # POW(-2, 0.5): arithmetic's NaN
    assert not fresh.new_nan([np.array([np.nan, 3.0], np.float32)], example[:1], infinite)
    assert not fresh.new_nan([np.array([7, 9], np.int32)], [np.array([7, 8], np.int32)], infinite)


def test_an_answer_beyond_float16_is_found_and_infinity_is_not_beyond() -> None:
    assert fresh.beyond_float16([np.array([1.0, 65505.0], np.float32)])
    assert fresh.beyond_float16([np.array([-1e25], np.float32)])
    assert not fresh.beyond_float16([np.array([65504.0, np.inf, -np.inf, np.nan], np.float32)])
    assert not fresh.beyond_float16([np.array([70000], np.int32)])


def test_float16_constants_round_only_float32_constants() -> None:
    from hal.types import DataLocation, Model, Operand, OperandLifeTime, OperandType

    values = np.array([0.1, 70000.0], "<f4").tobytes() + np.array([7], "<i4").tobytes()
    model = Model(
        operands=[
            Operand(
                OperandType.TENSOR_FLOAT32,
                [2],
                lifetime=OperandLifeTime.CONSTANT_COPY,
                location=DataLocation(0, 0, 8),
            ),
            Operand(
                OperandType.INT32,
                lifetime=OperandLifeTime.CONSTANT_COPY,
                location=DataLocation(0, 8, 4),
            ),
        ],
        operand_values=values,
    )
    twin = fresh.float16_constants(model)
    floats = np.frombuffer(twin.operand_values[:8], "<f4")
    assert floats[0] == np.float32(np.float16(0.1)) and floats[0] != np.float32(0.1)
    assert floats[1] == 70000.0  # beyond float16: kept
    assert twin.operand_values[8:] == values[8:]
    assert model.operand_values == values  # the original is untouched


def test_answers_agree_within_the_tolerance_and_shapes_must_match() -> None:
    from conformance.harness.tolerance import Tolerance
    from hal.types import OperandType

    loose = Tolerance(0.01, 0.01, 1, "test")
    a = [np.array([1.0, 2.0], np.float32)]
    assert fresh.same_answer(
        a, [np.array([1.005, 2.0], np.float32)], [OperandType.TENSOR_FLOAT32], loose
    )
    assert not fresh.same_answer(
        a, [np.array([1.5, 2.0], np.float32)], [OperandType.TENSOR_FLOAT32], loose
    )
    assert not fresh.same_answer(
        a, [np.array([1.0], np.float32)], [OperandType.TENSOR_FLOAT32], loose
    )


def test_relaxed_fresh_draws_at_a_threshold_are_drawn_again(pytester) -> None:
    # Seed 112 once drew GENERATE_PROPOSALS scores where the float16 threshold keeps a
    # box the float32 one drops: the float16 driver's answer had another shape.
    outcomes, result = _run(
        pytester,
        "RelaxedInFloat16",
        "--nnhal-seed=112",
        "-k",
        "fresh and generate_proposals and relaxed",
    )
    assert outcomes and set(outcomes.values()) == {"PASSED"}, result.stdout.str()[-3000:]


_ADD_SELECTION = "add_special_values or V1_0/add/ or V1_2/add_v1_2/"
_RELU_SELECTION = "relu_special_values or V1_0/relu"


def test_an_infinite_float32_add_overflow_fails_only_the_special_value_cases(pytester) -> None:
    """A float32 ADD that returns +-inf where the sum overflows (docs: +-FLT_MAX) fails the
    value items of add_special_values with act NONE and RELU (RELU keeps the inf); RELU1
    and RELU6 bound the inf as they bound FLT_MAX, and no other ADD case overflows."""
    outcomes, result = _run(pytester, "InfOnFloat32AddOverflow", "-k", _ADD_SELECTION)
    failed = with_outcome(outcomes, "FAILED")
    expected = {
        item
        for item, outcome in outcomes.items()
        if _case_of(item) in {"V1_0/add_special_values/none", "V1_0/add_special_values/relu"}
        and _compares_values(item)
        and outcome != "SKIPPED"
    }
    assert failed == expected and len(failed) > 10, result.stdout.str()[-3000:]
    passed = {_case_of(item) for item in with_outcome(outcomes, "PASSED")}
    assert {"V1_0/add_special_values/relu1", "V1_0/add_special_values/relu6"} <= passed
    assert "V1_2/add_v1_2/float16_overflow" in passed


def test_nan_from_relu_fails_only_the_relu_special_value_case(pytester) -> None:
    """A RELU that lets a NaN through (docs: the lower bound, 0) fails every value item of
    relu_special_values' RELU model and nothing else: RELU1 and RELU6 are not touched, and
    no other RELU case has a NaN input."""
    outcomes, result = _run(pytester, "NanFromRelu", "-k", _RELU_SELECTION)
    failed = with_outcome(outcomes, "FAILED")
    expected = {
        item
        for item, outcome in outcomes.items()
        if _case_of(item) == "V1_0/relu_special_values/relu"
        and _compares_values(item)
        and outcome != "SKIPPED"
    }
    assert failed == expected and len(failed) > 5, result.stdout.str()[-3000:]
    passed = {_case_of(item) for item in with_outcome(outcomes, "PASSED")}
    assert {"V1_0/relu_special_values/relu1", "V1_0/relu_special_values/relu6"} <= passed


def _rank_model():
    from hal.types import Model, Operand, OperandLifeTime, OperandType, Operation, OperationType

    return Model(
        operands=[
            Operand(OperandType.TENSOR_FLOAT32, [1, 2, 3], 1, lifetime=OperandLifeTime.MODEL_INPUT),
            Operand(OperandType.INT32, [], 0, lifetime=OperandLifeTime.MODEL_OUTPUT),
        ],
        operations=[Operation(OperationType.RANK, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )


def test_the_fresh_input_oracle_answers_a_hal_1_3_model() -> None:
    """A model of a HAL 1.3 operation (RANK) goes through the oracle's 1.3 preparation: its
    answer is the input's rank, not a refusal of a model 1.2 cannot hold."""
    from hal.types import ErrorStatus

    model = _rank_model()
    oracle = fresh.ReferenceOracle()
    try:
        answer = oracle.compute("rank", model, [np.zeros((1, 2, 3), np.float32)], [4], 60.0)
    finally:
        oracle.stop()
    assert (answer.status, answer.shapes) == (ErrorStatus.NONE, [()])
    assert np.frombuffer(answer.outputs[0][:4], np.int32).tolist() == [3]


_ORACLE_USER = """
import os, signal, sys
from conformance.harness import fresh
from conformance.harness.generated import corpus_of

loop = next(t for t in corpus_of(["V1_3/while_infinite_loop/x"]) if t.expect_failure)
oracle = fresh.oracle()
oracle.compute("rank", _RANK, [np.zeros((1, 2, 3), np.float32)], [4], 60.0)
# A request that runs for the default loop timeout (2 s), left unanswered as the process ends.
oracle._send.send(("loop", loop.model, loop.feeds[0].inputs, [4]))
print(oracle._process.pid, flush=True)
if sys.argv[1] == "killed":
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize("end", ["exits", "killed"])
def test_the_fresh_input_oracle_ends_with_its_test_process(tmp_path: Path, end: str) -> None:
    """The oracle process never outlives the test process that started it, even busy with
    a request (one that runs for 2 s): stopped as that process exits, killed by the kernel
    when it is killed."""
    import inspect
    import subprocess
    import sys
    import time

    script = tmp_path / "user.py"
    rank = inspect.getsource(_rank_model)
    script.write_text(f"import numpy as np\n{rank}\n_RANK = _rank_model()\n{_ORACLE_USER}")
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as stderr:  # not a pipe the oracle could hold open after the end
        user = subprocess.Popen(
            [sys.executable, str(script), end], stdout=subprocess.PIPE, stderr=stderr, text=True
        )
    try:
        pid = int(user.stdout.readline())
        assert user.wait(120) == (-9 if end == "killed" else 0), errors.read_text()[-2000:]
    finally:
        user.kill()
        user.stdout.close()
    deadline = time.monotonic() + (0 if end == "exits" else 1.0)
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(pid), f"the oracle process {pid} outlived its test process ({end})"
