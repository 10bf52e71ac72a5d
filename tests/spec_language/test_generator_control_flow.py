"""Control flow in the spec language (docs/spec-language.md 14): a ``Model`` passed as an
operation input, ``SubgraphReference``, referenced subgraphs and their constants, converters
reaching into them, and the lifetime variations of an IF or WHILE model.

The specs are under ``tests/spec_language/specs_1_3/V1_3``, written in the upstream style
with values of our own; every expected model below is derived by hand from the spec text
(operand order = order of first use in the operations, then inputs only IdentifyInputs
names; constants of the main graph first, then of each referenced subgraph in index
order, each at a multiple of 4 bytes). Nothing expected is computed by the generator.
"""

from __future__ import annotations

import importlib.util
import shutil
import struct
import textwrap
from pathlib import Path

import pytest

from generator.build import covered_signatures
from generator.emit import emit_module
from generator.expand import SpecError, evaluate_spec
from hal.types import (
    DataLocation,
    HalVersion,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    Subgraph,
)
from hal.types import OperationType as Op
from hal.validation import minimum_version

SPEC_ROOT = Path(__file__).resolve().parent / "specs_1_3"
IN = OperandLifeTime.SUBGRAPH_INPUT
OUT = OperandLifeTime.SUBGRAPH_OUTPUT
TMP = OperandLifeTime.TEMPORARY_VARIABLE
CONST = OperandLifeTime.CONSTANT_COPY
NO_VALUE = OperandLifeTime.NO_VALUE
SUB = OperandLifeTime.SUBGRAPH
T = OperandType
F32, F16, I32, BOOL8 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32, T.TENSOR_BOOL8
Q8A, Q8AS, INT32 = T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED, T.INT32

SPECS = (
    "if_simple",
    "if_constant",
    "if_same_branch_model",
    "if_no_value",
    "while_fib",
    "while_sum_of_powers",
    "while_infinite_loop",
)


def opnd(type_, dims, consumers, lifetime, loc=(0, 0, 0), scale=0.0, zp=0) -> Operand:
    return Operand(type_, list(dims), consumers, scale, zp, lifetime, DataLocation(*loc), None)


def ref(index: int, consumers: int = 1) -> Operand:
    """A SUBGRAPH operand naming referenced subgraph ``index``."""
    return opnd(T.SUBGRAPH, [], consumers, SUB, (0, index, 0))


def f32(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def f16(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}e", *values)


def i32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


PAD2, PAD3 = bytes(2), bytes(3)


def lists(arrays) -> list:
    return [a.tolist() for a in arrays]


def spec(tmp_path: Path, name: str) -> dict:
    """The tests of ``specs_1_3/V1_3/<name>.mod.py``, by name, generated from a copy."""
    target = tmp_path / "V1_3" / f"{name}.mod.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SPEC_ROOT / "V1_3" / f"{name}.mod.py", target)
    return {t.name: t for t in evaluate_spec(target, tmp_path)}


def spec_error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "V1_3" / "x.mod.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    with pytest.raises(SpecError) as info:
        evaluate_spec(path, tmp_path)
    return str(info.value)


# ---------------------------------------------------------------------------
# IF
# ---------------------------------------------------------------------------


def test_if_simple_names_no_all_tensors_as_inputs_since_the_constants_are_in_the_branches(
    tmp_path,
):
    tests = spec(tmp_path, "if_simple")
    # The lifetime variations apply to the main model (one operation, IF) only: its one
    # F32 input gets an ADD; it has no tensor Parameter (the branches' ones do not count).
    expected = []
    for case in ("true", "false"):
        for variation in ("", "_relaxed", "_float16", "_quant8"):
            base = f"if_simple_{case}{variation}"
            expected += [base, f"{base}_all_inputs_as_internal"]
    assert list(tests) == expected
    assert tests["if_simple_true"].dynamic_name == "if_simple_true_dynamic_output_shape"


def test_if_simple_model_and_its_two_referenced_subgraphs(tmp_path):
    test = spec(tmp_path, "if_simple")["if_simple_true"]
    model = test.model
    assert model.operands == [
        opnd(BOOL8, [1], 1, IN),  # cond
        ref(0),  # the then model, met first
        ref(1),  # the else model
        opnd(F32, [2], 1, IN),  # data
        opnd(F32, [2], 0, OUT),  # result
    ]
    assert model.operations == [Operation(Op.IF, [0, 1, 2, 3], [4])]
    assert (model.input_indexes, model.output_indexes) == ([0, 3], [4])

    def branch(op, offset):  # x, ten, the activation, y
        return Subgraph(
            operands=[
                opnd(F32, [2], 1, IN),
                opnd(F32, [1], 1, CONST, (0, offset, 4)),
                opnd(INT32, [], 1, CONST, (0, offset + 4, 4)),
                opnd(F32, [2], 0, OUT),
            ],
            operations=[Operation(op, [0, 1, 2], [3])],
            input_indexes=[0],
            output_indexes=[3],
        )

    assert model.referenced == [branch(Op.ADD, 0), branch(Op.SUB, 8)]
    # the main graph has no constant: the then branch's come first
    assert model.operand_values == f32(10.0) + i32(0) + f32(10.0) + i32(0)
    assert lists(test.feeds[0].inputs) == [[1], [1.0, 2.0]]
    assert lists(test.feeds[0].outputs) == [[11.0, 12.0]]
    assert test.version == "V1_3" and not test.expect_failure
    assert test.provenance.operations == ("IF", "ADD", "SUB")


def test_if_simple_quant8_reaches_into_both_branches_and_pads_each_constant(tmp_path):
    tests = spec(tmp_path, "if_simple")
    model = tests["if_simple_true_quant8"].model
    q = {"scale": 0.5, "zp": 100}
    assert model.operands[3] == opnd(Q8A, [2], 1, IN, **q)
    assert model.operands[4] == opnd(Q8A, [2], 0, OUT, **q)
    for index, offset in ((0, 0), (1, 8)):
        assert model.referenced[index].operands == [
            opnd(Q8A, [2], 1, IN, **q),
            opnd(Q8A, [1], 1, CONST, (0, offset, 1), **q),  # 10 / 0.5 + 100 = 120
            opnd(INT32, [], 1, CONST, (0, offset + 4, 4)),
            opnd(Q8A, [2], 0, OUT, **q),
        ]
    assert model.operand_values == bytes([120]) + PAD3 + i32(0) + bytes([120]) + PAD3 + i32(0)
    # 1, 2 -> 102, 104; 11, 12 -> 122, 124; -9, -8 -> 82, 84
    assert lists(tests["if_simple_true_quant8"].feeds[0].inputs) == [[1], [102, 104]]
    assert lists(tests["if_simple_true_quant8"].feeds[0].outputs) == [[122, 124]]
    assert lists(tests["if_simple_false_quant8"].feeds[0].outputs) == [[82, 84]]


def test_if_simple_float16_and_relaxed(tmp_path):
    tests = spec(tmp_path, "if_simple")
    model = tests["if_simple_true_float16"].model
    assert [o.type for o in model.operands] == [BOOL8, T.SUBGRAPH, T.SUBGRAPH, F16, F16]
    assert [o.type for o in model.referenced[1].operands] == [F16, F16, INT32, F16]
    # a 2-byte constant, 2 bytes of padding, the activation; twice
    assert model.operand_values == f16(10.0) + PAD2 + i32(0) + f16(10.0) + PAD2 + i32(0)
    relaxed = tests["if_simple_true_relaxed"]
    assert relaxed.model.relax_computation_float32_to_float16 and relaxed.version is None
    assert relaxed.model.referenced == tests["if_simple_true"].model.referenced


def test_if_simple_all_inputs_as_internal_puts_the_add_in_the_main_graph(tmp_path):
    model = spec(tmp_path, "if_simple")["if_simple_true_all_inputs_as_internal"].model
    assert model.operands == [
        opnd(BOOL8, [1], 1, IN),
        ref(0),
        ref(1),
        opnd(F32, [2], 1, TMP),  # data, now written by the ADD
        opnd(F32, [2], 0, OUT),
        opnd(F32, [2], 1, IN),  # data_new
        opnd(F32, [1], 1, CONST, (0, 0, 4)),  # dummy 0
        opnd(INT32, [], 1, CONST, (0, 4, 4)),  # the ADD's activation
    ]
    assert model.operations == [
        Operation(Op.ADD, [5, 6, 7], [3]),
        Operation(Op.IF, [0, 1, 2, 3], [4]),
    ]
    assert model.input_indexes == [0, 5]
    # the main graph's constants first, then the branches' (offsets 8 and 16)
    assert model.operand_values == f32(0.0) + i32(0) + (f32(10.0) + i32(0)) * 2
    assert model.referenced[1].operands[1].location == DataLocation(0, 16, 4)


def test_if_constant_condition_is_a_padded_constant_and_all_tensors_as_inputs_applies(
    tmp_path,
):
    tests = spec(tmp_path, "if_constant")
    expected = []
    for model_name in ("copy_true", "copy_false", "reference_true", "reference_false"):
        for variation in ("", "_relaxed", "_float16"):
            base = f"if_constant_{model_name}{variation}"
            expected += [
                base,
                f"{base}_all_inputs_as_internal",
                f"{base}_all_tensors_as_inputs",
                f"{base}_all_tensors_as_inputs_all_inputs_as_internal",
            ]
    assert sorted(tests) == sorted(expected)
    test = tests["if_constant_copy_true"]
    assert test.model.operands == [
        opnd(BOOL8, [1], 1, CONST, (0, 0, 1)),
        ref(0),
        ref(1),
        opnd(F32, [3], 1, IN),
        opnd(F32, [3], 0, OUT),
    ]
    # the condition's byte, 3 bytes of padding, then (3, 0) and (-1, 0) of the branches
    assert test.model.operand_values == bytes([1]) + PAD3 + f32(3.0) + i32(0) + f32(-1.0) + i32(0)
    assert lists(test.feeds[0].outputs) == [[3.0, -6.0, 1.5]]
    false = tests["if_constant_copy_false"]
    assert false.model.operand_values[:4] == bytes(4)
    assert lists(false.feeds[0].outputs) == [[-1.0, 2.0, -0.5]]
    # use_shm_for_weights: the generated model still holds CONSTANT_COPY operands
    assert tests["if_constant_reference_true"].model == test.model
    # all_tensors_as_inputs: the condition becomes a model input, the branches keep theirs
    made_input = tests["if_constant_copy_true_all_tensors_as_inputs"]
    assert made_input.model.operands[0] == opnd(BOOL8, [1], 1, IN)
    assert made_input.model.input_indexes == [0, 3]
    assert lists(made_input.feeds[0].inputs) == [[1], [1.0, -2.0, 0.5]]
    assert made_input.model.operand_values == f32(3.0) + i32(0) + f32(-1.0) + i32(0)


def test_if_same_branch_model_makes_one_referenced_subgraph(tmp_path):
    tests = spec(tmp_path, "if_same_branch_model")
    assert list(tests) == [
        f"if_same_branch_model_{case}{variation}{lifetime}"
        for case in ("true", "false")
        for variation in ("", "_relaxed", "_quant8_signed")
        for lifetime in ("", "_all_inputs_as_internal")
    ]
    model = tests["if_same_branch_model_false"].model
    assert model.operands[1:3] == [ref(0), ref(0)]
    assert model.referenced == [
        Subgraph(
            [opnd(F32, [4], 1, IN), opnd(F32, [4], 0, OUT)],
            [Operation(Op.RELU, [0], [1])],
            [0],
            [1],
        )
    ]
    assert model.operand_values == b""
    # both SUBGRAPH operands get a converter; the one model is converted once, not twice
    signed = tests["if_same_branch_model_true_quant8_signed"]
    q = {"scale": 0.25, "zp": -8}
    assert signed.model.referenced[0].operands == [
        opnd(Q8AS, [4], 1, IN, **q),
        opnd(Q8AS, [4], 0, OUT, **q),
    ]
    # x / 0.25 - 8: (-1.5, 0.25, 3, -0.75) -> (-14, -7, 4, -11); (0, 0.25, 3, 0) ->
    # (-8, -7, 4, -8)
    assert lists(signed.feeds[0].inputs) == [[1], [-14, -7, 4, -11]]
    assert lists(signed.feeds[0].outputs) == [[-8, -7, 4, -8]]


def test_if_no_value_is_an_expected_failure_with_a_no_value_condition(tmp_path):
    tests = spec(tmp_path, "if_no_value")
    assert list(tests) == [
        f"if_no_value{variation}{lifetime}"
        for variation in ("", "_relaxed", "_float16")
        for lifetime in ("", "_all_inputs_as_internal")
    ]
    assert all(t.expect_failure for t in tests.values())
    model = tests["if_no_value"].model
    assert model.operands[0] == opnd(BOOL8, [1], 1, NO_VALUE)
    assert model.operands[1:3] == [ref(0), ref(1)]
    assert [g.operations for g in model.referenced] == [
        [Operation(Op.RELU, [0], [1])],
        [Operation(Op.NEG, [0], [1])],
    ]
    assert model.input_indexes == [3] and model.operand_values == b""


# ---------------------------------------------------------------------------
# WHILE
# ---------------------------------------------------------------------------


def test_while_fib_names(tmp_path):
    tests = spec(tmp_path, "while_fib")
    expected = [
        f"while_fib_n_{n}{example}{variation}{lifetime}"
        for n in (0, 2, 5)
        for example in ("", "_unused_output")
        for variation in ("", "_relaxed", "_float16", "_quant8")
        for lifetime in (
            "",
            "_all_inputs_as_internal",
            "_all_tensors_as_inputs",
            "_all_tensors_as_inputs_all_inputs_as_internal",
        )
    ]
    assert sorted(tests) == sorted(expected)


def _fib_body(pair_type: dict, weights: tuple, bias: tuple, offsets: tuple) -> Subgraph:
    """The body of while_fib: body_pair, weights, bias, the FC activation, body_pair_next,
    body_i, one, the ADD activation, body_i_next, then body_n (only IdentifyInputs names
    it)."""
    w_off, b_off, act_off, one_off, act2_off = offsets
    return Subgraph(
        operands=[
            opnd(dims=[1, 2], consumers=1, lifetime=IN, **pair_type),
            opnd(
                dims=[2, 2], consumers=1, lifetime=CONST, loc=(0, w_off, weights[1]), **weights[0]
            ),
            opnd(dims=[2], consumers=1, lifetime=CONST, loc=(0, b_off, bias[1]), **bias[0]),
            opnd(INT32, [], 1, CONST, (0, act_off, 4)),
            opnd(dims=[1, 2], consumers=0, lifetime=OUT, **pair_type),
            opnd(I32, [1], 1, IN),
            opnd(I32, [1], 1, CONST, (0, one_off, 4)),
            opnd(INT32, [], 1, CONST, (0, act2_off, 4)),
            opnd(I32, [1], 0, OUT),
            opnd(I32, [1], 0, IN),  # body_n: declared, never read
        ],
        operations=[
            Operation(Op.FULLY_CONNECTED, [0, 1, 2, 3], [4]),
            Operation(Op.ADD, [5, 6, 7], [8]),
        ],
        input_indexes=[0, 5, 9],
        output_indexes=[4, 8],
    )


def _fib_cond(pair_type: dict) -> Subgraph:
    # cond_i, cond_n, cond_out, then cond_pair (IdentifyInputs lists it first, nobody reads it)
    return Subgraph(
        operands=[
            opnd(I32, [1], 1, IN),
            opnd(I32, [1], 1, IN),
            opnd(BOOL8, [1], 0, OUT),
            opnd(dims=[1, 2], consumers=0, lifetime=IN, **pair_type),
        ],
        operations=[Operation(Op.LESS, [0, 1], [2])],
        input_indexes=[3, 0, 1],
        output_indexes=[2],
    )


def test_while_fib_model(tmp_path):
    test = spec(tmp_path, "while_fib")["while_fib_n_2"]
    model = test.model
    assert model.operands == [
        ref(0),  # cond
        ref(1),  # body
        opnd(F32, [1, 2], 1, IN),  # pair
        opnd(I32, [1], 1, CONST, (0, 0, 4)),  # i = 0
        opnd(I32, [1], 1, CONST, (0, 4, 4)),  # n = 2
        opnd(F32, [1, 2], 0, OUT),  # pair_out
        opnd(I32, [1], 0, OUT),  # i_out
    ]
    assert model.operations == [Operation(Op.WHILE, [0, 1, 2, 3, 4], [5, 6])]
    assert (model.input_indexes, model.output_indexes) == ([2], [5, 6])
    f = {"type_": F32}
    assert model.referenced == [
        _fib_cond(f),
        _fib_body(f, (f, 16), (f, 8), (8, 24, 32, 36, 40)),
    ]
    assert model.operand_values == (
        i32(0, 2) + f32(0.0, 1.0, 1.0, 1.0) + f32(0.0, 0.0) + i32(0) + i32(1) + i32(0)
    )
    assert lists(test.feeds[0].inputs) == [[[1.0, 3.0]]]
    assert lists(test.feeds[0].outputs) == [[[4.0, 7.0]], [2]]


def test_while_fib_unused_output_is_a_temporary_nobody_reads(tmp_path):
    tests = spec(tmp_path, "while_fib")
    test = tests["while_fib_n_5_unused_output"]
    assert test.model.operands[6] == opnd(I32, [1], 0, TMP)
    assert test.model.output_indexes == [5]
    # (1, 3) stepped five times: (18, 29)
    assert lists(test.feeds[0].outputs) == [[[18.0, 29.0]]]
    assert lists(tests["while_fib_n_0_unused_output"].feeds[0].outputs) == [[[1.0, 3.0]]]


def test_while_fib_nested_converters_convert_what_each_names(tmp_path):
    test = spec(tmp_path, "while_fib")["while_fib_n_5_quant8"]
    model = test.model
    q = {"type_": Q8A, "scale": 1.0}
    assert model.operands[2] == opnd(Q8A, [1, 2], 1, IN, scale=1.0)
    assert model.operands[5] == opnd(Q8A, [1, 2], 0, OUT, scale=1.0)
    assert model.operands[6] == opnd(I32, [1], 0, OUT)  # not named by the converter
    bias = {"type_": I32, "scale": 1.0}
    assert model.referenced == [
        _fib_cond(q),
        _fib_body(q, (q, 4), (bias, 8), (8, 12, 20, 24, 28)),
    ]
    assert model.operand_values == (
        i32(0, 5) + bytes([0, 1, 1, 1]) + i32(0, 0) + i32(0) + i32(1) + i32(0)
    )
    assert lists(test.feeds[0].inputs) == [[[1, 3]]]
    assert lists(test.feeds[0].outputs) == [[[18, 29]], [5]]


def test_while_fib_float16_converts_every_subgraph(tmp_path):
    model = spec(tmp_path, "while_fib")["while_fib_n_5_float16"].model
    h = {"type_": F16}
    assert model.referenced == [
        _fib_cond(h),
        _fib_body(h, (h, 8), (h, 4), (8, 16, 20, 24, 28)),
    ]
    assert model.operand_values == (
        i32(0, 5) + f16(0.0, 1.0, 1.0, 1.0) + f16(0.0, 0.0) + i32(0) + i32(1) + i32(0)
    )


def test_while_fib_all_tensors_as_inputs_makes_i_and_n_inputs(tmp_path):
    test = spec(tmp_path, "while_fib")["while_fib_n_2_all_tensors_as_inputs"]
    assert test.model.operands[3:5] == [opnd(I32, [1], 1, IN), opnd(I32, [1], 1, IN)]
    assert test.model.input_indexes == [2, 3, 4]
    assert lists(test.feeds[0].inputs) == [[[1.0, 3.0]], [0], [2]]
    # the body's constants now start the pool
    assert test.model.referenced[1].operands[1].location == DataLocation(0, 0, 16)


def test_while_sum_of_powers_nests_a_while_and_counts_a_twice_passed_operand_twice(tmp_path):
    tests = spec(tmp_path, "while_sum_of_powers")
    assert list(tests) == [
        f"while_sum_of_powers_{name}{lifetime}"
        for name in ("cube", "half", "empty")
        for lifetime in ("", "_all_inputs_as_internal")
    ]
    test = tests["while_sum_of_powers_cube"]
    model = test.model
    assert model.operands == [
        ref(0),  # outer condition
        ref(1),  # outer body
        opnd(F32, [1], 1, CONST, (0, 0, 4)),  # sum = 0
        opnd(I32, [1], 1, CONST, (0, 4, 4)),  # k = 1
        opnd(F32, [1], 1, IN),  # x
        opnd(I32, [1], 1, IN),  # n
        opnd(F32, [1], 0, OUT),  # total
        opnd(I32, [1], 0, OUT),  # k_final
    ]
    assert model.operations == [Operation(Op.WHILE, [0, 1, 2, 3, 4, 5], [6, 7])]
    # depth first: the outer body's own references follow it
    assert len(model.referenced) == 4
    outer_cond, outer_body, inner_cond, inner_body = model.referenced
    assert outer_cond == Subgraph(
        operands=[
            opnd(I32, [1], 1, IN),  # oc_k
            opnd(I32, [1], 1, IN),  # oc_n
            opnd(BOOL8, [1], 0, OUT),
            opnd(F32, [1], 0, IN),  # oc_sum, unread
            opnd(F32, [1], 0, IN),  # oc_x, unread
        ],
        operations=[Operation(Op.LESS_EQUAL, [0, 1], [2])],
        input_indexes=[3, 0, 4, 1],
        output_indexes=[2],
    )
    assert outer_body == Subgraph(
        operands=[
            ref(2),  # inner condition
            ref(3),  # inner body
            opnd(F32, [1], 2, IN),  # ob_x: p's initial value and the input-only x
            opnd(I32, [1], 1, CONST, (0, 8, 4)),  # j = 1
            opnd(I32, [1], 2, IN),  # ob_k: the inner loop's bound and the ADD
            opnd(F32, [1], 1, TMP),  # ob_power
            opnd(I32, [1], 0, TMP),  # ob_j_final, unread
            opnd(F32, [1], 1, IN),  # ob_sum
            opnd(INT32, [], 1, CONST, (0, 12, 4)),
            opnd(F32, [1], 0, OUT),  # ob_sum_next
            opnd(I32, [1], 1, CONST, (0, 16, 4)),  # 1
            opnd(INT32, [], 1, CONST, (0, 20, 4)),
            opnd(I32, [1], 0, OUT),  # ob_k_next
            opnd(I32, [1], 0, IN),  # ob_n, unread
        ],
        operations=[
            Operation(Op.WHILE, [0, 1, 2, 3, 4, 2], [5, 6]),
            Operation(Op.ADD, [7, 5, 8], [9]),
            Operation(Op.ADD, [4, 10, 11], [12]),
        ],
        input_indexes=[7, 4, 2, 13],
        output_indexes=[9, 12],
    )
    assert inner_cond.operations == [Operation(Op.LESS, [0, 1], [2])]
    assert inner_cond.input_indexes == [3, 0, 1, 4]
    assert inner_body == Subgraph(
        operands=[
            opnd(F32, [1], 1, IN),  # ib_p
            opnd(F32, [1], 1, IN),  # ib_x
            opnd(INT32, [], 1, CONST, (0, 24, 4)),
            opnd(F32, [1], 0, OUT),  # ib_p_next
            opnd(I32, [1], 1, IN),  # ib_j
            opnd(I32, [1], 1, CONST, (0, 28, 4)),
            opnd(INT32, [], 1, CONST, (0, 32, 4)),
            opnd(I32, [1], 0, OUT),  # ib_j_next
            opnd(I32, [1], 0, IN),  # ib_k, unread
        ],
        operations=[Operation(Op.MUL, [0, 1, 2], [3]), Operation(Op.ADD, [4, 5, 6], [7])],
        input_indexes=[0, 4, 8, 1],
        output_indexes=[3, 7],
    )
    assert model.operand_values == f32(0.0) + i32(1) + i32(1, 0, 1, 0) + i32(0, 1, 0)
    assert lists(test.feeds[0].inputs) == [[2.0], [3]]
    assert lists(test.feeds[0].outputs) == [[14.0], [4]]
    assert lists(tests["while_sum_of_powers_half"].feeds[0].outputs) == [[0.75], [3]]
    assert lists(tests["while_sum_of_powers_empty"].feeds[0].outputs) == [[0.0], [1]]


def test_while_infinite_loop_variations_and_flags(tmp_path):
    tests = spec(tmp_path, "while_infinite_loop")
    assert list(tests) == [
        f"while_infinite_loop{variation}{lifetime}"
        for variation in ("", "_relaxed", "_float16", "_quant8", "_quant8_signed")
        for lifetime in (
            "",
            "_all_inputs_as_internal",
            "_all_tensors_as_inputs",
            "_all_tensors_as_inputs_all_inputs_as_internal",
        )
    ]
    assert all(t.expect_failure for t in tests.values())
    # DisableDynamicOutputShapeVariation changes nothing the generator makes
    assert tests["while_infinite_loop"].dynamic_name == "while_infinite_loop_dynamic_output_shape"
    model = tests["while_infinite_loop_quant8_signed"].model
    q = {"scale": 1.0, "zp": -10}
    assert model.operands == [
        ref(0),
        ref(1),
        opnd(Q8AS, [1], 1, IN, **q),  # i
        opnd(Q8AS, [1], 1, CONST, (0, 0, 1), **q),  # n = 0 -> -10
        opnd(Q8AS, [1], 0, OUT, **q),
    ]
    cond, body = model.referenced
    assert [o.type for o in cond.operands] == [Q8AS, Q8AS, BOOL8]
    # body: b_i, 1.0 -> -9, the activation, b_i_next, then b_n
    assert body.operands[1] == opnd(Q8AS, [1], 1, CONST, (0, 4, 1), **q)
    assert model.operand_values == bytes([0xF6]) + PAD3 + bytes([0xF7]) + PAD3 + i32(0)
    # i = 2 -> -8
    assert lists(tests["while_infinite_loop_quant8_signed"].feeds[0].inputs) == [[-8]]


# ---------------------------------------------------------------------------
# Every control-flow spec: valid at 1.3, round trip, coverage
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", SPECS)
def test_control_flow_models_are_valid_at_1_3_only_and_survive_the_round_trip(tmp_path, name):
    tests = list(spec(tmp_path, name).values())
    # expected-failure models included: they are structurally valid
    assert {minimum_version(t.model) for t in tests} == {HalVersion.V1_3}
    emitted = emit_module(f"conformance/specs/V1_3/{name}.mod.py", tests)
    path = tmp_path / f"emitted_{name}.py"
    path.write_text(emitted.text)
    module_spec = importlib.util.spec_from_file_location(f"_emitted_{name}", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    rebuilt = [build() for _, build in module.TESTS]
    assert rebuilt == tests


def test_coverage_counts_if_while_and_the_operations_of_subgraphs(tmp_path):
    tests = list(spec(tmp_path, "while_fib").values())
    covered = covered_signatures(tests)
    assert (int(Op.WHILE), -1) in covered and (int(Op.IF), -1) not in covered
    # FULLY_CONNECTED and LESS occur in referenced subgraphs only
    assert (int(Op.FULLY_CONNECTED), int(F32)) in covered
    assert (int(Op.FULLY_CONNECTED), int(Q8A)) in covered
    assert (int(Op.LESS), int(I32)) in covered
    assert (int(Op.IF), -1) in covered_signatures(list(spec(tmp_path, "if_simple").values()))


# ---------------------------------------------------------------------------
# Inline specs: numbering, identity, refusals
# ---------------------------------------------------------------------------


def _inline(tmp_path: Path, text: str) -> list:
    path = tmp_path / "V1_3" / "x.mod.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return evaluate_spec(path, tmp_path)


_BRANCHES = """
def relu():
    a = Input("a", ("TENSOR_FLOAT32", [1]))
    b = Output("b", ("TENSOR_FLOAT32", [1]))
    return Model().Operation("RELU", a).To(b)
"""


def test_referenced_subgraphs_are_numbered_depth_first(tmp_path):
    # main: IF(c, A, B); A: IF(c2, C, C). Depth first: A 0, C 1, B 2.
    (test,) = _inline(
        tmp_path,
        _BRANCHES
        + """
        C = relu()
        c2 = Input("c2", ("TENSOR_BOOL8", [1]))
        a_in = Input("a_in", ("TENSOR_FLOAT32", [1]))
        a_out = Output("a_out", ("TENSOR_FLOAT32", [1]))
        A = Model().Operation("IF", c2, C, C, a_in).To(a_out)
        A.IdentifyInputs(a_in, c2)
        B = relu()
        c = Input("c", ("TENSOR_BOOL8", [1]))
        x = Input("x", ("TENSOR_FLOAT32", [1]))
        y = Output("y", ("TENSOR_FLOAT32", [1]))
        Model().Operation("IF", c, A, B, c, x).To(y)
        Example({c: [True], x: [1.0], y: [1.0]}).DisableLifeTimeVariation()
        """.replace("\n        ", "\n"),
    )
    model = test.model
    assert model.operands[1:3] == [ref(0), ref(2)]
    # c is read twice by the IF: as the condition and as the value passed to A
    assert model.operands[0] == opnd(BOOL8, [1], 2, IN)
    assert model.referenced[0].operands[1:3] == [ref(1), ref(1)]
    assert [g.operations[0].type for g in model.referenced] == [Op.IF, Op.RELU, Op.RELU]
    assert model.referenced[1] == model.referenced[2]  # two models alike, two subgraphs


def test_a_model_cannot_reference_itself(tmp_path):
    message = spec_error(
        tmp_path,
        """
        c = Input("c", ("TENSOR_BOOL8", [1]))
        x = Input("x", ("TENSOR_FLOAT32", [1]))
        y = Output("y", ("TENSOR_FLOAT32", [1]))
        m = Model("loop")
        m.Operation("IF", c, m, m, x).To(y)
        Example({c: [True], x: [1.0], y: [1.0]})
        """,
    )
    assert message == (
        "V1_3/x.mod.py:5: the models' subgraph references form a cycle: 'loop' -> 'loop'"
    )


def test_a_subgraph_reference_takes_a_model(tmp_path):
    message = spec_error(tmp_path, 'SubgraphReference("s", [1.0])\n')
    assert message == "V1_3/x.mod.py:1: SubgraphReference() takes a Model, not [1.0]"


def test_layout_and_activation_variations_refuse_a_model_with_subgraphs(tmp_path):
    message = spec_error(
        tmp_path,
        _BRANCHES
        + """
then_model = relu()
c = Input("c", ("TENSOR_BOOL8", [1]))
x = Input("x", ("TENSOR_FLOAT32", [1]))
y = Output("y", ("TENSOR_FLOAT32", [1]))
Model().Operation("IF", c, then_model, then_model, x).To(y)
Example({c: [True], x: [1.0], y: [1.0]}).AddVariations("relu")
""",
    )
    assert message == (
        "V1_3/x.mod.py:11: variation 'relu' does not apply to a model with subgraph "
        "operands (IF, WHILE)"
    )


def test_a_subgraph_reference_takes_a_converter_and_nothing_else(tmp_path):
    message = spec_error(
        tmp_path,
        _BRANCHES
        + """
then_model = relu()
ref = SubgraphReference("then", then_model)
c = Input("c", ("TENSOR_BOOL8", [1]))
x = Input("x", ("TENSOR_FLOAT32", [1]))
y = Output("y", ("TENSOR_FLOAT32", [1]))
Model().Operation("IF", c, ref, ref, x).To(y)
conv = DataTypeConverter().Identify({ref: ["TENSOR_FLOAT16"]})
Example({c: [True], x: [1.0], y: [1.0]}).AddVariations(conv)
""",
    )
    assert message == (
        "V1_3/x.mod.py:12: DataTypeConverter: a subgraph reference takes a DataTypeConverter "
        "and only a subgraph reference does; subgraph reference 'then' was given "
        "['TENSOR_FLOAT16']"
    )


def test_all_outputs_as_internal_reads_the_if_output_in_the_main_graph(tmp_path):
    tests = {
        t.name: t
        for t in _inline(
            tmp_path,
            _BRANCHES
            + """
then_model = relu()
c = Input("c", ("TENSOR_BOOL8", [1]))
x = Input("x", ("TENSOR_FLOAT32", [1]))
y = Output("y", ("TENSOR_FLOAT32", [1]))
Model().Operation("IF", c, then_model, then_model, x).To(y)
Example({c: [True], x: [-2.0], y: [0.0]}).AddVariations(
    AllOutputsAsInternalCoverter()).DisableLifeTimeVariation()
""",
        )
    }
    assert list(tests) == ["x", "x_all_outputs_as_internal"]
    model = tests["x_all_outputs_as_internal"].model
    assert model.operands == [
        opnd(BOOL8, [1], 1, IN),
        ref(0),
        ref(0),
        opnd(F32, [1], 1, IN),
        opnd(F32, [1], 1, TMP),  # y, now read by the ADD
        opnd(F32, [1], 0, OUT),  # y_new
        opnd(F32, [1], 1, CONST, (0, 0, 4)),
        opnd(INT32, [], 1, CONST, (0, 4, 4)),
    ]
    assert model.operations == [
        Operation(Op.IF, [0, 1, 2, 3], [4]),
        Operation(Op.ADD, [4, 6, 7], [5]),
    ]
    # the branch is not varied
    assert model.referenced == tests["x"].model.referenced
    assert tests["x_all_outputs_as_internal"].provenance.operations == ("IF", "RELU")


def test_identify_called_first_puts_the_identified_operands_first_as_upstream(tmp_path):
    # Upstream specs identify a sub-model's inputs and outputs before its operations: the
    # operands then join the list in that order, the operations' others after them.
    (test,) = _inline(
        tmp_path,
        """
        a = Input("a", ("TENSOR_FLOAT32", [1]))
        b = Input("b", ("TENSOR_FLOAT32", [1]))
        unused = Input("unused", ("TENSOR_FLOAT32", [1]))
        s = Output("s", ("TENSOR_FLOAT32", [1]))
        body = Model().IdentifyInputs(b, unused, a).IdentifyOutputs(s)
        body.Operation("ADD", a, b, 0).To(s)
        c = Input("c", ("TENSOR_BOOL8", [1]))
        x = Input("x", ("TENSOR_FLOAT32", [1]))
        x2 = Input("x2", ("TENSOR_FLOAT32", [1]))
        x3 = Input("x3", ("TENSOR_FLOAT32", [1]))
        y = Output("y", ("TENSOR_FLOAT32", [1]))
        Model().Operation("IF", c, body, body, x, x2, x3).To(y)
        Example({c: [True], x: [1.0], x2: [2.0], x3: [3.0], y: [4.0]})
        """,
    )[:1]
    assert test.model.referenced == [
        Subgraph(
            operands=[
                opnd(F32, [1], 1, IN),  # b
                opnd(F32, [1], 0, IN),  # unused
                opnd(F32, [1], 1, IN),  # a
                opnd(F32, [1], 0, OUT),  # s
                opnd(INT32, [], 1, CONST, (0, 0, 4)),
            ],
            operations=[Operation(Op.ADD, [2, 0, 4], [3])],
            input_indexes=[0, 1, 2],
            output_indexes=[3],
        )
    ]


def test_a_converter_of_the_main_model_cannot_name_an_operand_of_a_branch(tmp_path):
    message = spec_error(
        tmp_path,
        """
a = Input("a", ("TENSOR_FLOAT32", [1]))
b = Output("b", ("TENSOR_FLOAT32", [1]))
branch = Model().Operation("RELU", a).To(b)
c = Input("c", ("TENSOR_BOOL8", [1]))
x = Input("x", ("TENSOR_FLOAT32", [1]))
y = Output("y", ("TENSOR_FLOAT32", [1]))
Model().Operation("IF", c, branch, branch, x).To(y)
conv = DataTypeConverter().Identify({a: ["TENSOR_FLOAT16"], x: ["TENSOR_FLOAT16"]})
Example({c: [True], x: [1.0], y: [1.0]}).AddVariations(conv)
""",
    )
    assert message == (
        "V1_3/x.mod.py:8: variation 'float16' targets operand 'a' of a referenced model: "
        "convert it with a DataTypeConverter given to the SUBGRAPH operand that names the model"
    )
