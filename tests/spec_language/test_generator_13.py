"""What Android 11's test generator added to the spec language (docs/spec-language.md
1.1, 2.5, 4 and 5.5): each feature in a spec of its own, written in the upstream style, under
``tests/spec_language/specs_1_3``, generated as it is and compared with models and data
written out here by hand; then the refusals, with their messages.

Comments show the arithmetic; nothing expected is computed by the code under test.
"""

from __future__ import annotations

import importlib.util
import random
import shutil
import struct
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conformance.harness.cases import GeneratedTest
from generator.emit import emit_module
from generator.expand import SpecError, evaluate_spec
from hal.types import DataLocation, HalVersion, Operand, OperandLifeTime, OperandType, Operation
from hal.types import OperationType as Op

SPECS = Path(__file__).resolve().parent / "specs_1_3"
IN = OperandLifeTime.MODEL_INPUT
OUT = OperandLifeTime.MODEL_OUTPUT
TMP = OperandLifeTime.TEMPORARY_VARIABLE
CONST = OperandLifeTime.CONSTANT_COPY
NO_VALUE = OperandLifeTime.NO_VALUE
T = OperandType
F32, Q8A, I32 = T.TENSOR_FLOAT32, T.TENSOR_QUANT8_ASYMM, T.INT32


def opnd(type_, dims, consumers, lifetime, loc=(0, 0, 0), scale=0.0, zp=0) -> Operand:
    return Operand(type_, list(dims), consumers, scale, zp, lifetime, DataLocation(*loc), None)


def f32(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def i32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def generate(tmp_path: Path, relative: str) -> dict[str, GeneratedTest]:
    """The tests of the spec ``specs_1_3/<relative>``, copied to its folder under tmp_path."""
    target = tmp_path / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SPECS / relative, target)
    return {t.name: t for t in evaluate_spec(target, tmp_path)}


def spec_error(tmp_path: Path, text: str, folder: str = "V1_3") -> str:
    path = tmp_path / folder / "x.mod.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    with pytest.raises(SpecError) as info:
        evaluate_spec(path, tmp_path)
    return str(info.value)


def arrays(feed_side) -> list[list[float]]:
    return [a.tolist() for a in feed_side]


# ---------------------------------------------------------------------------
# The automatic lifetime variations
# ---------------------------------------------------------------------------


def test_lifetime_variations_are_named_in_product_order_with_suffixes_at_the_end(tmp_path):
    tests = generate(tmp_path, "V1_2/lifetime_variations.mod.py")
    base = "lifetime_variations"
    first = [
        base,
        f"{base}_all_inputs_as_internal",
        f"{base}_all_tensors_as_inputs",
        f"{base}_all_tensors_as_inputs_all_inputs_as_internal",
    ]
    assert list(tests) == first + [f"{name}_2" for name in first]
    assert tests[f"{base}_all_inputs_as_internal"].dynamic_name == (
        f"{base}_dynamic_output_shape_all_inputs_as_internal"
    )
    # 1.3 items whatever the folder; the folder's version is still recorded
    assert [tests[n].level for n in first] == ["", "V1_3", "V1_3", "V1_3"]
    assert [tests[n].case_level for n in first] == [HalVersion.V1_2] + [HalVersion.V1_3] * 3
    assert {tests[n].version for n in first} == {"V1_2"}
    assert [tests[n].lifetime_variation for n in first] == [False, True, True, True]
    # the provenance names a lifetime variation only where it varied the case
    assert tests[f"{base}_all_tensors_as_inputs_all_inputs_as_internal"].provenance.variations == (
        "all_tensors_as_inputs",
        "all_inputs_as_internal",
    )
    assert tests[f"{base}_all_inputs_as_internal"].provenance.variations == (
        "all_inputs_as_internal",
    )
    assert tests[base].provenance.variations == ()  # the spec has no group of its own
    # the case is about the spec's ADD: the ADDs chained to its inputs are left out
    assert tests[f"{base}_all_tensors_as_inputs_all_inputs_as_internal"].provenance.operations == (
        "ADD",
    )


def test_the_default_combination_is_the_spec_model_unchanged(tmp_path):
    test = generate(tmp_path, "V1_2/lifetime_variations.mod.py")["lifetime_variations"]
    assert test.model.operands == [
        opnd(F32, [2], 1, IN),
        opnd(F32, [2], 1, CONST, (0, 0, 8)),
        opnd(I32, [], 1, CONST, (0, 8, 4)),
        opnd(F32, [2], 0, OUT),
    ]
    assert test.model.operations == [Operation(Op.ADD, [0, 1, 2], [3])]
    assert test.model.operand_values == f32(1.0, 2.0) + i32(0)


def test_all_inputs_as_internal_writes_each_input_with_an_add_of_a_dummy_zero(tmp_path):
    test = generate(tmp_path, "V1_2/lifetime_variations.mod.py")[
        "lifetime_variations_all_inputs_as_internal"
    ]
    model = test.model
    assert model.operands == [
        opnd(F32, [2], 1, TMP),  # i, now written by the ADD below
        opnd(F32, [2], 1, CONST, (0, 0, 8)),  # w
        opnd(I32, [], 1, CONST, (0, 8, 4)),  # the activation of the spec's ADD
        opnd(F32, [2], 0, OUT),  # o
        opnd(F32, [2], 1, IN),  # i_new, carrying i's data
        opnd(F32, [1], 1, CONST, (0, 12, 4)),  # dummy: the zero point, 0.0
        opnd(I32, [], 1, CONST, (0, 16, 4)),  # its activation, 0
    ]
    assert model.operations == [
        Operation(Op.ADD, [4, 5, 6], [0]),
        Operation(Op.ADD, [0, 1, 2], [3]),
    ]
    assert (model.input_indexes, model.output_indexes) == ([4], [3])
    assert model.operand_values == f32(1.0, 2.0) + i32(0) + f32(0.0) + i32(0)
    (feed,) = test.feeds
    assert arrays(feed.inputs) == [[3.0, 4.0]] and arrays(feed.outputs) == [[4.0, 6.0]]


def test_all_tensors_as_inputs_makes_the_parameter_an_input_in_place(tmp_path):
    test = generate(tmp_path, "V1_2/lifetime_variations.mod.py")[
        "lifetime_variations_all_tensors_as_inputs"
    ]
    model = test.model
    assert model.operands == [
        opnd(F32, [2], 1, IN),
        opnd(F32, [2], 1, IN),  # w keeps its index; its value goes to every feed
        opnd(I32, [], 1, CONST, (0, 0, 4)),  # a scalar stays a constant
        opnd(F32, [2], 0, OUT),
    ]
    assert (model.input_indexes, model.operand_values) == ([0, 1], i32(0))
    assert arrays(test.feeds[0].inputs) == [[3.0, 4.0], [1.0, 2.0]]


def test_both_lifetime_variations_chain_an_add_before_each_input(tmp_path):
    name = "lifetime_variations_all_tensors_as_inputs_all_inputs_as_internal"
    model = generate(tmp_path, "V1_2/lifetime_variations.mod.py")[name].model
    assert [o.lifetime for o in model.operands] == [
        TMP,
        TMP,
        CONST,
        OUT,
        IN,
        CONST,
        CONST,
        IN,
        CONST,
        CONST,
    ]
    assert model.operations == [
        Operation(Op.ADD, [4, 5, 6], [0]),  # i_new + dummy -> i
        Operation(Op.ADD, [7, 8, 9], [1]),  # w_new + dummy1 -> w
        Operation(Op.ADD, [0, 1, 2], [3]),
    ]
    assert model.input_indexes == [4, 7]
    assert model.operand_values == i32(0) + f32(0.0) + i32(0) + f32(0.0) + i32(0)


def test_shorthand_constants_stay_and_a_quantized_input_gets_its_zero_point(tmp_path):
    tests = generate(tmp_path, "V1_2/lifetime_shorthands.mod.py")
    base = "lifetime_shorthands_q_plain"
    # the implicit [2, 2] is an Int32Vector: all_tensors_as_inputs is skipped, no name taken
    assert list(tests) == [
        base,
        f"{base}_all_inputs_as_internal",
        f"{base}_wider",
        f"{base}_wider_all_inputs_as_internal",
    ]
    model = tests[f"{base}_all_inputs_as_internal"].model
    assert model.operands[3:] == [
        opnd(Q8A, [4], 1, IN, scale=0.5, zp=3),  # x_new
        opnd(Q8A, [1], 1, CONST, (0, 8, 1), scale=0.5, zp=3),  # dummy, holding 3
        opnd(I32, [], 1, CONST, (0, 9, 4)),  # unaligned, as every constant
    ]
    assert model.operand_values == i32(2, 2) + bytes([3]) + i32(0)
    # after the spec's own converter: scale 0.25, zero point 6; the data (q - 3) * 0.5
    # = -1, -0.5, 0, 0.5 becomes -1 / 0.25 + 6 = 2, 4, 6, 8
    wider = tests[f"{base}_wider_all_inputs_as_internal"]
    assert wider.model.operands[4] == opnd(Q8A, [1], 1, CONST, (0, 8, 1), scale=0.25, zp=6)
    assert wider.model.operand_values == i32(2, 2) + bytes([6]) + i32(0)
    assert arrays(wider.feeds[0].inputs) == [[2, 4, 6, 8]]


def test_no_lifetime_variation_where_none_applies(tmp_path):
    tests = generate(tmp_path, "V1_2/lifetime_exclusions.mod.py")
    # two operations; disabled; an input that should never be internal; INT32 data
    assert list(tests) == [
        "lifetime_exclusions_two",
        "lifetime_exclusions_off",
        "lifetime_exclusions_kept",
        "lifetime_exclusions_ints",
    ]


def test_no_lifetime_variation_for_a_multinomial_example_or_an_omitted_input(tmp_path):
    path = tmp_path / "V1_2" / "x.mod.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        textwrap.dedent(
            """
            i = Input("i", "TENSOR_FLOAT32", "{1, 2}")
            o = IgnoredOutput("o", "TENSOR_INT32", "{1, 1}")
            Model("m").Operation("RANDOM_MULTINOMIAL", i, 1, [1, 2]).To(o)
            Example({i: [0.0, 0.0], o: [0]}).WithMultinomialDistributionTolerance(0.1)
            a = Input("a", "TENSOR_FLOAT32", "{2}")
            b = Input("b", "TENSOR_FLOAT32", "{2}")
            c = Output("c", "TENSOR_FLOAT32", "{2}")
            Model("n").Operation("ADD", a, b, 0).To(c)
            Example({a: [1.0, 2.0], b: [], c: [1.0, 2.0]})
            """
        ).lstrip("\n")
    )
    tests = {t.name: t for t in evaluate_spec(path, tmp_path)}
    assert list(tests) == ["x_m", "x_n", "x_n_all_inputs_as_internal"]
    # the omitted b stays an omitted input: only a is made internal, and the inputs are
    # b (operand 1) and a_new (operand 4, after a, b, the activation and c)
    assert tests["x_n_all_inputs_as_internal"].model.input_indexes == [1, 4]


def test_generated_lifetime_cases_survive_the_round_trip(tmp_path):
    tests = list(generate(tmp_path, "V1_2/lifetime_variations.mod.py").values())
    emitted = emit_module("conformance/specs/V1_2/lifetime_variations.mod.py", tests)
    assert "level='V1_3'" in emitted.text or 'level="V1_3"' in emitted.text
    path = tmp_path / "emitted.py"
    path.write_text(emitted.text)
    spec = importlib.util.spec_from_file_location("_emitted_lifetime", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rebuilt = [build() for _, build in module.TESTS]
    assert [t.level for t in rebuilt] == [t.level for t in tests]
    assert [t.model for t in rebuilt] == [t.model for t in tests]


# ---------------------------------------------------------------------------
# The other Android 11 forms
# ---------------------------------------------------------------------------


def test_all_outputs_as_internal_reads_the_output_with_an_add(tmp_path):
    tests = generate(tmp_path, "V1_3/all_outputs_as_internal.mod.py")
    # on the model of two operations the converter does not apply: no test, no name
    assert list(tests) == [
        "all_outputs_as_internal_one",
        "all_outputs_as_internal_one_all_outputs_as_internal",
        "all_outputs_as_internal_two",
    ]
    test = tests["all_outputs_as_internal_one_all_outputs_as_internal"]
    assert test.model.operands == [
        opnd(F32, [2], 1, IN),
        opnd(F32, [2], 1, TMP),  # y, read by the ADD
        opnd(F32, [2], 0, OUT),  # y_new
        opnd(F32, [1], 1, CONST, (0, 0, 4)),
        opnd(I32, [], 1, CONST, (0, 4, 4)),
    ]
    assert test.model.operations == [
        Operation(Op.RELU, [0], [1]),
        Operation(Op.ADD, [1, 3, 4], [2]),
    ]
    assert test.model.output_indexes == [2]
    assert arrays(test.feeds[0].outputs) == [[0.0, 2.0]]
    assert test.level == "" and not test.lifetime_variation  # VTS validates it
    assert test.provenance.operations == ("RELU",)


def test_expect_failure_is_recorded_and_the_dynamic_switch_changes_nothing(tmp_path):
    tests = generate(tmp_path, "V1_3/expected_failure.mod.py")
    assert list(tests) == ["expected_failure", "expected_failure_all_inputs_as_internal"]
    assert all(t.expect_failure for t in tests.values())
    assert tests["expected_failure"].dynamic_name == "expected_failure_dynamic_output_shape"
    emitted = emit_module("conformance/specs/V1_3/expected_failure.mod.py", list(tests.values()))
    assert emitted.text.count("expect_failure=True") == 2


def test_introduced_in_and_set_version_of_a_lifetime_name(tmp_path):
    tests = generate(tmp_path, "V1_3/versions.mod.py")
    assert {name: t.version for name, t in tests.items()} == {
        "versions_old": "V1_2",
        "versions_old_all_inputs_as_internal": "V1_0",
    }
    # a V1_3 case is of its folder's level: nothing to add
    assert {t.level for t in tests.values()} == {""}


def test_identified_inputs_and_outputs_keep_their_order_and_an_unused_input(tmp_path):
    (test,) = generate(tmp_path, "V1_3/identify_io.mod.py").values()  # two operations
    model = test.model
    # operands: a 0, b 1, param 2, s 3, param1 4, d 5, then the unused input 6
    assert model.input_indexes == [1, 6, 0]
    assert model.output_indexes == [5, 3]
    assert model.operands[6] == opnd(F32, [1], 0, IN)
    (feed,) = test.feeds
    assert arrays(feed.inputs) == [[2.0], [9.0], [5.0]]
    assert arrays(feed.outputs) == [[3.0], [7.0]]


def test_a_parameter_without_a_value_is_a_no_value_operand(tmp_path):
    (test,) = generate(tmp_path, "V1_1/parameter_no_value.mod.py").values()
    assert test.model.operands[1] == opnd(T.TENSOR_INT32, [1], 1, NO_VALUE)
    assert test.model.operand_values == b""
    assert test.version == "V1_1"


def test_a_spec_may_use_the_python_of_android_11_specs(tmp_path):
    state = random.getstate()
    (test,) = generate(tmp_path, "V1_3/python_imports.mod.py").values()
    assert random.getstate() == state  # the spec's seed and shuffle are undone
    assert test.name == "python_imports_n4"  # itertools.product of 2 x 2
    # random.seed(0) then shuffle([0, 1, 2, 3]) gives [2, 0, 1, 3] (CPython's Mersenne
    # Twister, the same on every platform)
    assert arrays(test.feeds[0].inputs) == [[2.0, 0.0, 1.0, 3.0]]


def test_a_spec_starts_from_seed_0_and_gives_the_process_back(tmp_path):
    path = tmp_path / "V1_3" / "x.mod.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        textwrap.dedent(
            """
            import random, sys
            sys.path.append("/nowhere")
            sys.setrecursionlimit(5000)
            np.random.seed(7)
            v = float(random.randrange(10))
            i = Input("i", "TENSOR_FLOAT32", "{1}")
            o = Output("o", "TENSOR_FLOAT32", "{1}")
            Model().Operation("FLOOR", i).To(o)
            Example({i: [v], o: [v]}).DisableLifeTimeVariation()
            """
        ).lstrip("\n")
    )
    saved = (list(sys.path), sys.getrecursionlimit(), np.random.get_state()[1].tolist())
    first = evaluate_spec(path, tmp_path)
    random.seed(12345)
    second = evaluate_spec(path, tmp_path)
    assert arrays(first[0].feeds[0].inputs) == arrays(second[0].feeds[0].inputs)
    # random.seed(0); randrange(10) is 6
    assert arrays(first[0].feeds[0].inputs) == [[6.0]]
    assert (list(sys.path), sys.getrecursionlimit(), np.random.get_state()[1].tolist()) == saved


def test_use_shm_for_weights_toggled_between_examples_still_emits_constant_copy(tmp_path):
    tests = generate(tmp_path, "V1_2/shm_toggle.mod.py")
    assert list(tests) == ["shm_toggle_shm", "shm_toggle_copy"]
    for test, value in zip(tests.values(), (1.0, 2.0), strict=True):
        assert test.model.operands[1] == opnd(F32, [1], 1, CONST, (0, 0, 4))
        assert test.model.operand_values == f32(value) + i32(0)


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("m.IdentifyInputs(a, 1)", "IdentifyInputs() was given 1, which is not an operand"),
        ("m.IdentifyInputs(a, w)", "IdentifyInputs() takes model inputs, not parameter 'w'"),
        ("m.IdentifyInputs(a, a)", "IdentifyInputs() lists an operand twice"),
        ("m.IdentifyOutputs(a)", "IdentifyOutputs() takes model outputs, not input 'a'"),
    ],
)
def test_identify_refuses_what_is_no_model_input_or_output(tmp_path, call, message):
    text = f"""
        a = Input("a", "TENSOR_FLOAT32", "{{1}}")
        w = Parameter("w", "TENSOR_FLOAT32", "{{1}}", [1.0])
        o = Output("o", "TENSOR_FLOAT32", "{{1}}")
        m = Model().Operation("ADD", a, w, 0).To(o)
        {call}
    """
    assert spec_error(tmp_path, text) == f"V1_3/x.mod.py:5: {message}"


def test_identify_must_list_every_input_and_output_the_model_has(tmp_path):
    text = """
        a = Input("a", "TENSOR_FLOAT32", "{1}")
        b = Input("b", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("ADD", a, b, 0).To(o).IdentifyInputs(b)
        Example({a: [1.0], b: [2.0], o: [3.0]})
    """
    assert spec_error(tmp_path, text) == (
        "V1_3/x.mod.py:5: input 'a' is in the model but IdentifyInputs() does not list it"
    )
    text = """
        a = Input("a", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        p = Output("p", "TENSOR_FLOAT32", "{1}")
        Model().Operation("FLOOR", a).To(o).IdentifyOutputs(o, p)
        Example({a: [1.0], o: [1.0], p: [1.0]})
    """
    assert spec_error(tmp_path, text) == (
        "V1_3/x.mod.py:5: IdentifyOutputs() lists 'p', which no operation writes"
    )
