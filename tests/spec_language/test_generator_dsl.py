"""Unit tests for the spec language interpreter (generator.dsl / variations / expand).

Each test writes a small spec to ``tmp_path/V1_2/x.mod.py`` (line 1 is the
first line of the text), evaluates it with ``evaluate_spec`` and compares the
result with models and data written out here by hand, following the spec
language docs/spec-language.md describes. Comments show the arithmetic; nothing
expected is computed by the code under test.
"""

from __future__ import annotations

import struct
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from conformance.harness.cases import GeneratedTest, Provenance
from generator.context import SpecContext, activate
from generator.dsl import BoolScalar, Configuration, Input, Int32Scalar, Model, Parameter
from generator.expand import SpecError, evaluate_spec
from generator.ir import TypeDesc, parse_shape
from hal.types import (
    DataLocation,
    ExtensionNameAndPrefix,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    SymmPerChannelQuantParams,
)
from hal.types import (
    Model as HalModel,
)

IN = OperandLifeTime.MODEL_INPUT
OUT = OperandLifeTime.MODEL_OUTPUT
TMP = OperandLifeTime.TEMPORARY_VARIABLE
CONST = OperandLifeTime.CONSTANT_COPY
T = OperandType


LIFETIME = frozenset({"all_tensors_as_inputs", "all_inputs_as_internal"})
"""The names of Android 11's automatic lifetime variations (tests/spec_language/
test_generator_13.py tests them; the tests here leave them out)."""


def run(
    tmp_path: Path,
    text: str,
    folder: str = "V1_2",
    name: str = "x.mod.py",
    lifetime: bool = False,
) -> list[GeneratedTest]:
    """The spec's tests; without ``lifetime``, only those of no automatic lifetime variation."""
    path = tmp_path / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    tests = evaluate_spec(path, tmp_path)
    if lifetime:
        return tests
    return [t for t in tests if not LIFETIME & set(t.provenance.variations)]


def cat(base: str, extra: str) -> str:
    """A spec made of ``base`` followed by the dedented ``extra``."""
    return textwrap.dedent(base).strip("\n") + "\n" + textwrap.dedent(extra).lstrip("\n")


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(SpecError) as info:
        run(tmp_path, text)
    return str(info.value)


def names(tests: list[GeneratedTest]) -> list[str]:
    return [t.name for t in tests]


def by_name(tests: list[GeneratedTest]) -> dict[str, GeneratedTest]:
    return {t.name: t for t in tests}


def opnd(type_, dims, consumers=0, lifetime=TMP, loc=(0, 0, 0), scale=0.0, zp=0, extra=None):
    return Operand(type_, list(dims), consumers, scale, zp, lifetime, DataLocation(*loc), extra)


def i32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def f32(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def arr(values, dtype: str, shape=None) -> np.ndarray:
    a = np.array(values, dtype=np.dtype(dtype))
    return a if shape is None else a.reshape(shape)


def same(actual: np.ndarray, expected: np.ndarray) -> bool:
    return (
        actual.dtype == expected.dtype
        and actual.shape == expected.shape
        and actual.tobytes() == expected.tobytes()
    )


@contextmanager
def dsl() -> Iterator[SpecContext]:
    """Run DSL calls directly, as a spec would, in a fresh context."""
    with activate(SpecContext(filename="<test>", spec_name="t", version="V1_2")) as ctx:
        yield ctx


ADD_SPEC = """
i1 = Input("op1", "TENSOR_FLOAT32", "{2}")
i2 = Input("op2", "TENSOR_FLOAT32", "{2}")
o = Output("op3", "TENSOR_FLOAT32", "{2}")
Model().Operation("ADD", i1, i2, 0).To(o)
Example({i1: [1.0, 2.0], i2: [3.0, 4.0], o: [4.0, 6.0]})
"""


# ---------------------------------------------------------------------------
# A whole test, end to end
# ---------------------------------------------------------------------------


def test_simple_spec_gives_one_test_with_its_model_feeds_and_provenance(tmp_path):
    (test,) = run(tmp_path, ADD_SPEC)
    assert test.name == "x"
    assert test.dynamic_name == "x_dynamic_output_shape"
    assert test.hal_folder == "V1_2"
    assert test.version == "V1_2"
    assert test.multinomial_tolerance is None
    assert test.ignored_outputs == frozenset()
    assert test.provenance == Provenance("V1_2/x.mod.py", 5, (), ("ADD",))
    assert test.model == HalModel(
        operands=[
            opnd(T.TENSOR_FLOAT32, [2], 1, IN),
            opnd(T.TENSOR_FLOAT32, [2], 1, IN),
            opnd(T.INT32, [], 1, CONST, (0, 0, 4)),  # the implicit 0
            opnd(T.TENSOR_FLOAT32, [2], 0, OUT),
        ],
        operations=[Operation(OperationType.ADD, [0, 1, 2], [3])],
        input_indexes=[0, 1],
        output_indexes=[3],
        operand_values=i32(0),
    )
    (feed,) = test.feeds
    assert same(feed.inputs[0], arr([1, 2], "<f4"))
    assert same(feed.inputs[1], arr([3, 4], "<f4"))
    assert same(feed.outputs[0], arr([4, 6], "<f4"))


def test_spec_sees_the_prebound_modules_and_tg(tmp_path):
    (test,) = run(
        tmp_path,
        """
        assert all(m is not None for m in (os, re, sys, argparse, struct, pprint, contextlib, traceback))
        i = tg.Input("i", "TENSOR_FLOAT32", "{2}")
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        w = Parameter("w", "TENSOR_FLOAT32", "{2}", [math.sqrt(4.0), float(np.float32(0.5))])
        assert reduce(lambda a, b: a * b, [2, 3], 1) == 6 and GetJointStr([1, 2]) == "1, 2"
        assert tg.AxisConverter is AxisConverter and tg.DefaultVariation and tg.DynamicOutputShapeConverter
        with SmartOpen("never_written.cpp") as f:
            f.write("ignored")
        Model().Operation("MUL", i, w, 0).To(o)
        Example({i: [1.0, 1.0], o: [2.0, 0.5]})
        """,
    )
    assert test.model.operand_values == f32(2.0, 0.5) + i32(0)
    assert not (tmp_path / "V1_2" / "never_written.cpp").exists()


def test_each_spec_file_gets_a_fresh_context(tmp_path):
    first = """
    Configuration.test_dynamic_output_shape = False
    i = Input("op1", "TENSOR_FLOAT32", "{1}")
    o = Output("op2", "TENSOR_FLOAT32", "{1}")
    Model().Operation("ABS", i).To(o)
    Example({i: [1.0], o: [1.0]})
    Example.SetVersion("V1_0", "x", "x_2")
    """
    second = first.replace("Configuration.test_dynamic_output_shape = False", "")
    second = second.replace('Example.SetVersion("V1_0", "x", "x_2")', "")
    (a,) = run(tmp_path / "a", first)
    (b,) = run(tmp_path / "b", second)
    assert (a.name, a.dynamic_name, a.version) == ("x", "", "V1_0")
    # No test name, configuration or version override survives the first file.
    assert (b.name, b.dynamic_name, b.version) == ("x", "x_dynamic_output_shape", "V1_2")


# ---------------------------------------------------------------------------
# Operands: shapes, sequence form, shorthands, implicit parameters, names
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "dims", "scale", "zero_point"),
    [
        ("{1, 2, 2, 1}", (1, 2, 2, 1), 0.0, 0),
        ("{2,3}", (2, 3), 0.0, 0),
        ("{ 4 , 5 }", (4, 5), 0.0, 0),
        ("{}", (), 0.0, 0),
        ("", (), 0.0, 0),
        ("{0}", (0,), 0.0, 0),
        ("{0,0}", (0, 0), 0.0, 0),
        ("{2, 3}, 0.5f, 128", (2, 3), 0.5, 128),
        ("{2}, 0.25", (2,), 0.25, 0),  # a single trailing value is the scale
        ("{2}, 0.25f", (2,), 0.25, 0),
        ("{3}, 1.0f, 3", (3,), 1.0, 3),
    ],
)
def test_shape_strings(shape, dims, scale, zero_point):
    with dsl():
        op = Input("x", "TENSOR_QUANT8_ASYMM", shape)
    assert op.type == TypeDesc("TENSOR_QUANT8_ASYMM", dims, scale, zero_point)


def test_parse_shape_keeps_text_for_scale_and_zero_point():
    assert parse_shape("{2, 3}, 0.5f, 128") == ([2, 3], " 0.5", " 128")


def test_quantized_scalar_needs_the_sequence_form(tmp_path):
    message = error_of(tmp_path, 'x = Input("x", "TENSOR_QUANT8_ASYMM", "{}, 0.5, 1")\n')
    assert message == "V1_2/x.mod.py:1: cannot parse the shape string '{}, 0.5, 1'"


def test_sequence_form_as_tuple_or_list():
    with dsl():
        a = Input("a", ("TENSOR_QUANT8_ASYMM", [2, 2], 0.5, 128))
        b = Parameter("b", ["TENSOR_FLOAT32", (3,)], [1.0, 2.0, 3.0])
        c = Input("c", ("TENSOR_INT32", [1], 0.25))
    assert a.type == TypeDesc("TENSOR_QUANT8_ASYMM", (2, 2), 0.5, 128)
    assert (b.type, b.value) == (TypeDesc("TENSOR_FLOAT32", (3,)), [1.0, 2.0, 3.0])
    assert c.type == TypeDesc("TENSOR_INT32", (1,), 0.25, 0)


def test_sequence_form_dims_must_be_a_list(tmp_path):
    message = error_of(tmp_path, 'x = Input("x", ("TENSOR_FLOAT32", "{2}"))\n')
    assert message == "V1_2/x.mod.py:1: dims must be a list or tuple, not '{2}'"


def test_output_rejects_extra_params(tmp_path):
    message = error_of(
        tmp_path,
        """
        q = SymmPerChannelQuantParams(channelDim=0, scales=[0.5])
        o = Output("o", "TENSOR_QUANT8_SYMM_PER_CHANNEL", "{1}", extraParams=q)
        """,
    )
    assert message.startswith("V1_2/x.mod.py:2: TypeError: ")
    assert "extraParams" in message


def test_shorthand_parameters_and_constant_encodings(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        a = Int32Scalar("a", 2.7)
        b = Float32Scalar("b", 1)
        c = Float16Scalar("c", 0.1)
        d = BoolScalar("d", 5)
        e = Int32Vector("e", [1, 2.9])
        f = Float32Vector("f", [1, 2])
        Model().Operation("CONV_2D", i, a, b, c, d, e, f).To(o)
        Example({i: [0.0], o: [0.0]})
        """,
    )
    operands = test.model.operands
    assert [(op.type, op.dimensions, op.location) for op in operands[1:7]] == [
        (T.INT32, [], DataLocation(0, 0, 4)),
        (T.FLOAT32, [], DataLocation(0, 4, 4)),
        (T.FLOAT16, [], DataLocation(0, 8, 2)),
        (T.BOOL, [], DataLocation(0, 10, 1)),
        (T.TENSOR_INT32, [2], DataLocation(0, 11, 8)),
        (T.TENSOR_FLOAT32, [2], DataLocation(0, 19, 8)),
    ]
    assert test.model.operand_values == (
        i32(2)  # int(2.7)
        + f32(1.0)
        + bytes.fromhex("662e")  # 0.1 as IEEE half 0x2E66
        + b"\x01"  # bool(5)
        + i32(1, 2)  # int(2.9) == 2
        + f32(1.0, 2.0)
    )


def test_constants_pack_unaligned_with_their_encodings(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        q8 = Parameter("q8", "TENSOR_QUANT8_ASYMM", "{3}, 0.5f, 0", [1, 2, 255])
        s32 = Int32Scalar("s32", -2)
        h = Float16Scalar("h", 1 + 2**-11 + 2**-40)
        b = BoolScalar("b", True)
        qs = Parameter("qs", ("TENSOR_QUANT8_SYMM", [2], 0.5, 0), [-1, 2])
        q16 = Parameter("q16", ("TENSOR_QUANT16_ASYMM", [1], 0.5, 0), [65535])
        f = Float32Scalar("f", 1.5)
        tb = Parameter("tb", ("TENSOR_BOOL8", [2]), [0, 3])
        u = Parameter("u", ("TENSOR_QUANT8_ASYMM", [1], 0.5, 0), [1.7])
        Model().Operation("CONV_2D", i, q8, s32, h, b, qs, q16, f, tb, u).To(o)
        Example({i: [0.0], o: [0.0]})
        """,
    )
    offsets = [(op.location.offset, op.location.length) for op in test.model.operands[1:10]]
    #            q8      s32     h       b       qs       q16      f        tb       u
    assert offsets == [(0, 3), (3, 4), (7, 2), (9, 1), (10, 2), (12, 2), (14, 4), (18, 2), (20, 1)]
    assert test.model.operand_values == (
        bytes([1, 2, 255])
        + i32(-2)
        # 1 + 2^-11 + 2^-40 is just above the halfway point between halves 0x3C00 and
        # 0x3C01: rounded from the double it is 0x3C01 (via float32 it would be 0x3C00).
        + bytes.fromhex("013c")
        + b"\x01"
        + bytes([0xFF, 0x02])  # signed bytes -1, 2
        + bytes([0xFF, 0xFF])  # uint16 65535
        + f32(1.5)
        + bytes([0, 1])  # bool by truthiness
        + bytes([1])  # int(1.7) truncates
    )


def test_implicit_parameters_and_their_types(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("CONV_2D", i, 1, 1.5, True, [1, 2], [], (0.5, 0.25)).To(o)
        Example({i: [0.0], o: [0.0]})
        """,
    )
    assert test.model.operands[1:7] == [
        opnd(T.INT32, [], 1, CONST, (0, 0, 4)),
        opnd(T.FLOAT32, [], 1, CONST, (0, 4, 4)),
        opnd(T.BOOL, [], 1, CONST, (0, 8, 1)),
        opnd(T.TENSOR_INT32, [2], 1, CONST, (0, 9, 8)),
        opnd(T.TENSOR_INT32, [0], 1, CONST, (0, 17, 0)),  # [] is TENSOR_INT32 {0}
        opnd(T.TENSOR_FLOAT32, [2], 1, CONST, (0, 17, 8)),
    ]
    assert test.model.operand_values == i32(1) + f32(1.5) + b"\x01" + i32(1, 2) + f32(0.5, 0.25)


@pytest.mark.parametrize(
    ("value", "shown"), [("[1, 2.0]", "[1, 2.0]"), ("None", "None"), ("np.int32(1)", "np.int32(1)")]
)
def test_values_without_an_implicit_type_are_errors(tmp_path, value, shown):
    message = error_of(
        tmp_path,
        f"""
        i = Input("i", "TENSOR_FLOAT32", "{{1}}")
        Model().Operation("ABS", i, {value})
        """,
    )
    assert message == f"V1_2/x.mod.py:2: cannot make an implicit parameter from {shown}"


def test_names_are_made_unique_with_digits_and_no_separator():
    with dsl() as ctx:
        a, b, c = (Input("op1", "TENSOR_FLOAT32", "{1}") for _ in range(3))
        model = Model().Operation("ADD", a, b, 0).To(c).Operation("ADD", c, a, 1)
        w = Parameter("w", "TENSOR_FLOAT32", "{1}", [1.0])
        # "type0" is the first type's name and "w_init" w's initializer: both taken.
        t = Input("type0", "TENSOR_FLOAT32", "{1}")
        w_init = Input("w_init", "TENSOR_FLOAT32", "{1}")
    assert [a.name, b.name, c.name] == ["op1", "op11", "op12"]
    assert [op.name for op in model.operands] == ["op1", "op11", "param", "op12", "param1"]
    assert [w.name, t.name, w_init.name] == ["w", "type01", "w_init1"]
    # One TENSOR_FLOAT32 {1} type, then the implicit INT32: type0 and type1.
    assert list(ctx.type_names.values()) == ["type0", "type1"]


def test_same_name_twice_makes_two_operands(tmp_path):
    (test,) = run(
        tmp_path,
        """
        a = Input("in", "TENSOR_FLOAT32", "{1}")
        b = Input("in", "TENSOR_FLOAT32", "{1}")
        o = Output("out", "TENSOR_FLOAT32", "{1}")
        Model().Operation("ADD", a, b, 0).To(o)
        Example({a: [1.0], b: [2.0], o: [3.0]})
        """,
    )
    assert test.model.input_indexes == [0, 1]  # "in" and "in1"
    assert [x.tolist() for x in test.feeds[0].inputs] == [[1.0], [2.0]]


def test_a_parameter_without_a_value_is_omitted(tmp_path):
    # Android 11: Parameter(name, type, dims) with no value (or None) is a NO_VALUE operand.
    for value in ("", ", None"):
        spec = f"""
            i = Input("i", "TENSOR_FLOAT32", "{{2}}")
            w = Parameter("w", "TENSOR_FLOAT32", "{{2}}"{value})
            o = Output("o", "TENSOR_FLOAT32", "{{2}}")
            Model().Operation("ADD", i, w, 0).To(o)
            Example({{i: [1.0, 2.0], o: [1.0, 2.0]}})
        """
        (test,) = run(tmp_path, spec)
        assert test.model.operands[1] == opnd(T.TENSOR_FLOAT32, [2], 1, OperandLifeTime.NO_VALUE)
        assert test.model.operand_values == i32(0)  # the activation alone


# ---------------------------------------------------------------------------
# Model assembly: operand order, I/O order, operation order, consumers
# ---------------------------------------------------------------------------


def test_operand_order_io_order_consumers_and_lifetimes(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i2 = Input("i2", "TENSOR_FLOAT32", "{2}")
        i1 = Input("i1", "TENSOR_FLOAT32", "{2}")
        t = Internal("t", "TENSOR_FLOAT32", "{2}")
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        m = Model()
        m.Operation("MUL", t, i2, 0).To(o)
        m.Operation("ADD", i1, i1, 1).To([t])
        Example(({i1: [1.0, 2.0], i2: [3.0, 4.0]}, {o: [6.0, 16.0]}))
        """,
    )
    # Operands in order of first appearance: t i2 param o i1 param1.
    assert test.model == HalModel(
        operands=[
            opnd(T.TENSOR_FLOAT32, [2], 1, TMP),
            opnd(T.TENSOR_FLOAT32, [2], 1, IN),
            opnd(T.INT32, [], 1, CONST, (0, 0, 4)),
            opnd(T.TENSOR_FLOAT32, [2], 0, OUT),
            opnd(T.TENSOR_FLOAT32, [2], 2, IN),  # i1 given twice to ADD counts twice
            opnd(T.INT32, [], 1, CONST, (0, 4, 4)),
        ],
        # ADD produces t, so it comes first.
        operations=[
            Operation(OperationType.ADD, [4, 4, 5], [0]),
            Operation(OperationType.MUL, [0, 1, 2], [3]),
        ],
        input_indexes=[1, 4],  # operand-list order: i2 before i1
        output_indexes=[3],
        operand_values=i32(0, 1),
    )
    assert [x.tolist() for x in test.feeds[0].inputs] == [[3.0, 4.0], [1.0, 2.0]]
    assert test.provenance.operations == ("ADD", "MUL")


def test_operations_in_depth_first_post_order(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i1 = Input("i1", "TENSOR_FLOAT32", "{1}")
        i2 = Input("i2", "TENSOR_FLOAT32", "{1}")
        x = Internal("x", "TENSOR_FLOAT32", "{1}")
        y = Internal("y", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        m = Model().Operation("ADD", x, y, 0).To(o)
        m.Operation("RELU", i2).To(y)
        m.Operation("RELU6", i1).To(x)
        Example({i1: [1.0], i2: [2.0], o: [3.0]})
        """,
    )
    # Operands: x y param o i2 i1. ADD's producers are visited in the operand
    # order of what they produce: x (RELU6) before y (RELU), though RELU was
    # declared first.
    assert test.model.operations == [
        Operation(OperationType.RELU6, [5], [0]),
        Operation(OperationType.RELU, [4], [1]),
        Operation(OperationType.ADD, [0, 1, 2], [3]),
    ]
    assert test.model.input_indexes == [4, 5]


def test_example_attaches_to_the_latest_model_or_the_named_one(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        first = Model("first").Operation("ABS", i).To(o)
        second = Model("second").Operation("FLOOR", i).To(o)
        Example({i: [1.0], o: [1.0]})
        Example({i: [1.0], o: [1.0]}, model=first)
        """,
    )
    assert [(t.name, t.provenance.operations) for t in tests] == [
        ("x_second", ("FLOOR",)),
        ("x_first", ("ABS",)),
    ]


def test_use_shm_for_weights_constants_are_emitted_as_constant_copy(tmp_path):
    (test,) = run(
        tmp_path,
        """
        Configuration.use_shm_for_weights = True
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        w = Parameter("w", "TENSOR_FLOAT32", "{1}", [2.0])
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("MUL", i, w, 0).To(o)
        Example({i: [1.0], o: [2.0]})
        """,
    )
    assert test.model.operands[1] == opnd(T.TENSOR_FLOAT32, [1], 1, CONST, (0, 0, 4))
    assert test.model.pools == []


# ---------------------------------------------------------------------------
# Examples
# ---------------------------------------------------------------------------


def test_combined_dict_and_pair_forms_ignore_extra_keys(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_INT32", "{2}")
        w = Parameter("w", "TENSOR_INT32", "{2}", [1, 1])
        o = Output("o", "TENSOR_INT32", "{2}")
        Model().Operation("ADD", i, w, 0).To(o)
        Example({i: [1, 2], o: [2, 3], w: [9, 9]}, ({i: [5, 6], w: [0]}, {o: [6, 7]}))
        """,
    )
    assert [
        ([x.tolist() for x in f.inputs], [x.tolist() for x in f.outputs]) for f in test.feeds
    ] == [
        ([[1, 2]], [[2, 3]]),
        ([[5, 6]], [[6, 7]]),
    ]
    assert test.model.operand_values == i32(1, 1, 0)


def test_ignored_outputs_are_zeros_and_listed_by_output_position(tmp_path):
    (first,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{2}")
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        ig = IgnoredOutput("ig", "TENSOR_FLOAT32", "{3}")
        Model().Operation("SPLIT", i).To(o, ig)
        Example({i: [1.0, 2.0], o: [1.0, 2.0], ig: [7.0, 8.0, 9.0]})
        """,
    )
    assert first.ignored_outputs == frozenset({1})
    assert same(first.feeds[0].outputs[1], arr([0, 0, 0], "<f4"))


def test_ignored_output_may_be_left_out_of_a_pair_unless_converted(tmp_path):
    spec = """
    i = Input("i", "TENSOR_FLOAT32", "{2}")
    o = Output("o", "TENSOR_FLOAT32", "{2}")
    ig = IgnoredOutput("ig", "TENSOR_FLOAT32", "{3}")
    Model().Operation("SPLIT", i).To(o, ig)
    Example(({i: [1.0, 2.0]}, {o: [1.0, 2.0]}))
    """
    (test,) = run(tmp_path, spec)
    assert same(test.feeds[0].outputs[1], arr([0, 0, 0], "<f4"))
    message = error_of(tmp_path, spec.rstrip() + '.AddVariations("float16")\n')
    assert message == "V1_2/x.mod.py:5: example has no value for ignored output 'ig'"


def test_ignored_output_stays_zero_after_type_conversion(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{2}")
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        ig = IgnoredOutput("ig", "TENSOR_FLOAT32", "{1, 3}")
        Model().Operation("SPLIT", i).To(o, ig)
        Example(({i: [1.0, 2.0]}, {o: [1.0, 2.0], ig: [5.0, 6.0, 7.0]})).AddVariations("float16")
        """,
    )
    f16 = by_name(tests)["x_float16"]
    assert f16.model.operands[2].type == T.TENSOR_FLOAT16
    assert same(f16.feeds[0].outputs[1], arr([[0, 0, 0]], "<f2"))


def test_combined_dict_needs_every_input_and_output_even_ignored(tmp_path):
    message = error_of(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{2}")
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        ig = IgnoredOutput("ig", "TENSOR_FLOAT32", "{3}")
        Model().Operation("SPLIT", i).To(o, ig)
        Example({i: [1.0, 2.0], o: [1.0, 2.0]})
        """,
    )
    assert message == "V1_2/x.mod.py:5: example has no value for ignored output 'ig'"


def test_zero_sized_operands_give_empty_arrays(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{2}")
        z = Input("z", "TENSOR_FLOAT32", "{0}")
        zz = Input("zz", "TENSOR_QUANT8_ASYMM", "{0,0}, 0.5f, 0")
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        oz = Output("oz", "TENSOR_INT32", "{0}")
        Model().Operation("LSTM", i, z, zz).To(o, oz)
        Example({i: [1.0, 2.0], z: [], zz: [], o: [1.0, 2.0], oz: [0]})
        """,
    )
    (feed,) = test.feeds
    assert same(feed.inputs[1], np.zeros((0,), "<f4"))
    assert same(feed.inputs[2], np.zeros((0, 0), "u1"))
    assert same(feed.outputs[1], np.zeros((0,), "<i4"))  # [0] kept verbatim, no elements


def test_multinomial_tolerance(tmp_path):
    (test,) = run(tmp_path, ADD_SPEC.rstrip() + ".WithMultinomialDistributionTolerance(0.025)\n")
    assert test.multinomial_tolerance == 0.025


# ---------------------------------------------------------------------------
# Variation groups and naming
# ---------------------------------------------------------------------------


def test_model_and_example_names_and_dynamic_twin_names(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model("m").Operation("ABS", i).To(o)
        Example({i: [1.0], o: [1.0]}, name="e").AddVariations("relaxed")
        """,
        name="my.spec.mod.py",
    )
    # The spec name is cut at the first dot.
    assert [(t.name, t.dynamic_name) for t in tests] == [
        ("my_m_e", "my_m_e_dynamic_output_shape"),
        ("my_m_e_relaxed", "my_m_e_dynamic_output_shape_relaxed"),
    ]
    assert [t.provenance.variations for t in tests] == [("",), ("relaxed",)]


def test_groups_combine_in_product_order(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("ABS", i).To(o)
        Example({i: [1.0], o: [1.0]}).AddRelaxed().AddVariations("float16", "int32")
        """,
    )
    assert names(tests) == [
        "x",
        "x_float16",
        "x_int32",
        "x_relaxed",
        "x_relaxed_float16",
        "x_relaxed_int32",
    ]
    assert tests[4].dynamic_name == "x_dynamic_output_shape_relaxed_float16"


def test_repeated_names_get_suffixes(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("ABS", i).To(o)
        Example({i: [1.0], o: [1.0]})
        Example({i: [2.0], o: [2.0]}).AddVariations("relaxed")
        q = [DataTypeConverter().Identify({i: ("TENSOR_QUANT8_ASYMM", s, 0)}) for s in (1.0, 0.5, 0.25)]
        Example({i: [1.0], o: [1.0]}).AddVariations(*q, includeDefault=False)
        """,
    )
    assert [(t.name, t.dynamic_name) for t in tests] == [
        ("x", "x_dynamic_output_shape"),
        ("x_2", "x_dynamic_output_shape_2"),
        ("x_relaxed", "x_dynamic_output_shape_relaxed"),
        ("x_quant8", "x_dynamic_output_shape_quant8"),
        ("x_quant8_2", "x_dynamic_output_shape_quant8_2"),
        ("x_quant8_3", "x_dynamic_output_shape_quant8_3"),
    ]


def test_include_default_false_without_variations_gives_no_tests(tmp_path):
    assert run(tmp_path, ADD_SPEC.rstrip() + ".AddVariations(includeDefault=False)\n") == []


def test_default_name_and_unnamed_default(tmp_path):
    tests = run(tmp_path, ADD_SPEC.rstrip() + '.AddVariations("relaxed", defaultName="plain")\n')
    assert names(tests) == ["x_plain", "x_relaxed"]


def test_without_the_dynamic_group_there_is_no_twin(tmp_path):
    tests = run(
        tmp_path,
        "Configuration.test_dynamic_output_shape = False\n"
        + ADD_SPEC.strip()
        + '.AddVariations("relaxed")\n',
    )
    assert [(t.name, t.dynamic_name, t.provenance.variations) for t in tests] == [
        ("x", "", ("",)),
        ("x_relaxed", "", ("relaxed",)),
    ]


@pytest.mark.parametrize(
    ("group", "expected"),
    [
        ('"float16", "INT32"', ["x_float16", "x_int32"]),
        ('"relaxed"', ["x_relaxed"]),
        ('("nchw", [i4, o4, layout])', ["x_nchw"]),
        ('"NHWC"', ["x_nhwc"]),
        ('("as_input", [w])', ["x_weight_as_input"]),
        ('("relu", [o, act]), ("relu6", [o, act])', ["x_relu", "x_relu6"]),
        ('"none", "relu1"', ["x_none", "x_relu1"]),
    ],
)
def test_implicit_variation_strings(tmp_path, group, expected):
    tests = run(tmp_path, HELPER_SPEC + f"ex.AddVariations({group}, includeDefault=False)\n")
    assert names(tests) == expected


def test_unknown_variation_string_is_an_error(tmp_path):
    message = error_of(tmp_path, HELPER_SPEC + 'ex.AddVariations("quant8")\n')
    assert message == "V1_2/x.mod.py:12: 'quant8' is not a variation"


# ---------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("folder", ["V1_0", "V1_1"])
def test_version_and_folder_come_from_the_path(tmp_path, folder):
    (test,) = run(tmp_path, ADD_SPEC, folder=folder)
    assert (test.hal_folder, test.version) == (folder, folder)


def test_no_version_folder_means_no_version(tmp_path):
    (test,) = run(tmp_path, ADD_SPEC, folder="specs")
    assert (test.hal_folder, test.version) == ("specs", None)


@pytest.mark.parametrize(("call", "version"), [('"V1_1"', "V1_1"), ("None", None)])
def test_introduced_in(tmp_path, call, version):
    spec = ADD_SPEC.replace(".To(o)", f".To(o).IntroducedIn({call})")
    (test,) = run(tmp_path, spec)
    assert test.version == version


def test_set_version_is_keyed_by_final_name_and_relaxed_beats_it(tmp_path):
    tests = run(
        tmp_path,
        cat(
            ADD_SPEC,
            """
        Example({i1: [0.0, 0.0], i2: [0.0, 0.0], o: [0.0, 0.0]}).AddRelaxed()
        Example.SetVersion("V1_0", "x_2", "x_relaxed")
        """,
        ),
    )
    assert [(t.name, t.version) for t in tests] == [
        ("x", "V1_2"),
        ("x_2", "V1_0"),
        ("x_relaxed", None),
    ]


def test_relaxed_execution_model_flag(tmp_path):
    (test,) = run(tmp_path, ADD_SPEC.replace(".To(o)", ".To(o).RelaxedExecution(True)"))
    assert test.model.relax_computation_float32_to_float16 is True
    assert test.version is None


def test_test_dynamic_output_shape_model_flag(tmp_path):
    (test,) = run(tmp_path, ADD_SPEC.replace(".To(o)", ".To(o).TestDynamicOutputShape(True)"))
    assert test.model.operands[3].dimensions == [0]
    assert test.version is None
    assert same(test.feeds[0].outputs[0], arr([4, 6], "<f4"))  # data keeps the real dims


# ---------------------------------------------------------------------------
# DataTypeConverter and the data conversion
# ---------------------------------------------------------------------------

QUANT_SPEC = """
i = Input("i", "TENSOR_FLOAT32", "{4}")
o = Output("o", "TENSOR_FLOAT32", "{4}")
Model().Operation("ABS", i).To(o)
"""


def test_quantize_in_float32_with_round_half_to_even_and_clamp(tmp_path):
    (test,) = run(
        tmp_path,
        cat(
            QUANT_SPEC,
            """
        q = DataTypeConverter().Identify({
            i: ("TENSOR_QUANT8_ASYMM", 0.1, 128),
            o: ("TENSOR_QUANT8_SYMM", 0.1),
        })
        Example({i: [-2.55, 0.0, 30.0, -30.0], o: [-2.55, 0.25, 12.0, -5.0]}).AddVariations(
            q, includeDefault=False)
        """,
        ),
    )
    assert test.name == "x_quant8"
    assert test.model.operands[0] == opnd(
        T.TENSOR_QUANT8_ASYMM, [4], 1, IN, scale=float(np.float32(0.1)), zp=128
    )
    assert test.model.operands[1] == opnd(
        T.TENSOR_QUANT8_SYMM, [4], 0, OUT, scale=float(np.float32(0.1))
    )
    (feed,) = test.feeds
    # float32: -2.55/0.1 = -25.5 exactly, + 128 = 102.5 -> 102 (half to even);
    # 0 -> 128; 30/0.1 = 300, + 128 = 428 -> clamped 255; -300 + 128 -> clamped 0.
    assert same(feed.inputs[0], arr([102, 128, 255, 0], "u1"))
    # QUANT8_SYMM, zero point 0: -25.5 -> -26; 0.25/0.1 = 2.5 in float32 -> 2;
    # 12/0.1 = 120; -5/0.1 = -50.
    assert same(feed.outputs[0], arr([-26, 2, 120, -50], "i1"))


def test_quant8_symm_is_not_clamped(tmp_path):
    message = error_of(
        tmp_path,
        cat(
            QUANT_SPEC,
            """
        q = DataTypeConverter().Identify({o: ("TENSOR_QUANT8_SYMM", 0.1)})
        Example({i: [0.0] * 4, o: [-13.0, 0.0, 0.0, 0.0]}).AddVariations(q, includeDefault=False)
        """,
        ),
    )
    # -13/0.1 = -130: kept (no clamp), then it cannot be emitted as int8.
    assert (
        message == "V1_2/x.mod.py:5: output 'o' holds -130, which does not fit TENSOR_QUANT8_SYMM"
    )


def test_int32_conversion_rounds_half_to_even(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{5}")
        o = Output("o", "TENSOR_FLOAT32", "{5}")
        Model().Operation("MUL", i, 1.5, 0).To(o)
        Example({i: [2.5, 3.5, 5.9, -2.5, 1e6], o: [0.0] * 5}).AddVariations("int32", includeDefault=False)
        """,
    )
    assert test.name == "x_int32"
    assert [op.type for op in test.model.operands] == [
        T.TENSOR_INT32,
        T.INT32,
        T.INT32,
        T.TENSOR_INT32,
    ]
    # 2.5 -> 2, 3.5 -> 4, 5.9 -> 6, -2.5 -> -2; TENSOR_INT32 is not clamped.
    assert same(test.feeds[0].inputs[0], arr([2, 4, 6, -2, 1000000], "<i4"))
    # The implicit FLOAT32 1.5 becomes INT32 2 (half to even); the INT32 0 is untouched.
    assert test.model.operand_values == i32(2, 0)


def test_float16_auto_identifies_every_float32_operand_once_rounded_to_float32(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{2}")
        t = Internal("t", "TENSOR_FLOAT32", "{2}")
        w = Parameter("w", "TENSOR_FLOAT32", "{2}", [1 + 2**-11 + 2**-40, 0.9])
        h = Float16Scalar("h", 1 + 2**-11 + 2**-40)
        o = Output("o", "TENSOR_FLOAT32", "{2}")
        Model().Operation("MUL", i, w, 0).To(t).Operation("MUL", t, 0.5, h).To(o)
        Example({i: [0.9, 1.0], o: [1.0, 0.5]}).AddVariations("float16", includeDefault=False)
        """,
    )
    types = [op.type for op in test.model.operands]
    #                i                  w                  param    t                  param1    h          o
    assert types == [
        T.TENSOR_FLOAT16,
        T.TENSOR_FLOAT16,
        T.INT32,
        T.TENSOR_FLOAT16,
        T.FLOAT16,
        T.FLOAT16,
        T.TENSOR_FLOAT16,
    ]
    # w went through float32: 1 + 2^-11 + 2^-40 became 1 + 2^-11, a tie rounded
    # to even half 0x3C00; 0.9 -> 0.8999999761581421 -> half 0x3B33. h, never
    # converted, is rounded from its double: 0x3C01.
    assert test.model.operand_values == (
        bytes.fromhex("003c333b") + i32(0) + bytes.fromhex("0038") + bytes.fromhex("013c")
    )
    assert same(test.feeds[0].inputs[0], arr([0.9, 1.0], "<f2"))


def test_dequantize_then_quantize(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_QUANT8_ASYMM", "{3}, 0.5f, 128")
        o = Output("o", "TENSOR_QUANT8_ASYMM", "{3}, 0.5f, 128")
        Model().Operation("ABS", i).To(o)
        f = DataTypeConverter(name="float").Identify({i: ("TENSOR_FLOAT32",)})
        r = DataTypeConverter(name="requant").Identify({i: ("TENSOR_QUANT8_ASYMM", 0.25, 0)})
        Example({i: [130, 126, 128], o: [130, 130, 128]}).AddVariations(f, r, includeDefault=False)
        """,
    )
    got = by_name(tests)
    # (130 - 128) * 0.5 = 1.0; (126 - 128) * 0.5 = -1.0; 0.
    assert same(got["x_float"].feeds[0].inputs[0], arr([1.0, -1.0, 0.0], "<f4"))
    # 1.0/0.25 = 4; -1.0/0.25 = -4 -> clamped 0; 0.
    assert same(got["x_requant"].feeds[0].inputs[0], arr([4, 0, 0], "u1"))


def test_per_channel_divides_in_float64_and_clamps_at_127(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{2, 2}")
        w = Parameter("w", "TENSOR_FLOAT32", "{2, 2}", [1.0, -300.0, -2.55, 0.75])
        b = Parameter("b", "TENSOR_FLOAT32", "{2}", [1.0, 2.0])
        o = Output("o", "TENSOR_FLOAT32", "{2, 2}")
        Model().Operation("CONV_2D", i, w, b).To(o)
        shown = SymmPerChannelQuantParams(channelDim=0, scales=[0.5, 0.1])
        hidden = SymmPerChannelQuantParams(channelDim=0, scales=[0.5, 0.25], hide=True)
        c = DataTypeConverter().Identify({
            w: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0.0, 0, shown),
            b: ("TENSOR_INT32", 0.0, 0, hidden),
        })
        Example({i: [0.0] * 4, o: [0.0] * 4}).AddVariations(c, includeDefault=False)
        """,
    )
    (test,) = tests
    assert test.name == "x_channelQuant8"
    w, b = test.model.operands[1:3]
    assert w.extra_params == SymmPerChannelQuantParams(
        scales=(0.5, float(np.float32(0.1))), channel_dim=0
    )
    assert b.extra_params is None  # hide=True: left out of the model
    assert (w.type, b.type) == (T.TENSOR_QUANT8_SYMM_PER_CHANNEL, T.TENSOR_INT32)
    # Row 0 / 0.5: 1 -> 2, -300 -> -600 -> clamped -127. Row 1 / 0.1 in float64:
    # float32(-2.55) / 0.1 = -25.4999995 -> -25 (float32 would give -25.5 -> -26);
    # 0.75 / 0.1 = 7.5 -> 8. Bias: 1/0.5 = 2, 2/0.25 = 8 (hidden params still used).
    assert test.model.operand_values == bytes([2, 0x81, 0xE7, 8]) + i32(2, 8)


@pytest.mark.parametrize(
    ("targets", "expected"),
    [
        (
            '{a: ("TENSOR_QUANT8_ASYMM", 0.5, 0), b: ("TENSOR_QUANT8_SYMM_PER_CHANNEL", 0.0, 0, p)}',
            "x_channelQuant8",
        ),
        ('{a: ("TENSOR_INT32",), b: ("TENSOR_QUANT8_ASYMM", 0.5, 0)}', "x_quant8"),
        (
            '{a: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0), b: ("TENSOR_QUANT8_ASYMM", 0.5, 0)}',
            "x_quant8",
        ),
        ('{a: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0), b: ("TENSOR_INT32",)}', "x_quant8_signed"),
        ('{a: ("TENSOR_FLOAT16",), b: ("TENSOR_INT32",)}', "x_int32"),
        ('{a: ("TENSOR_FLOAT16",)}', "x_float16"),
        ('{a: ("TENSOR_QUANT16_ASYMM", 0.5, 0)}', "x_float32"),
        ('{a: ("TENSOR_QUANT8_SYMM", 0.5, 0)}', "x_float32"),
    ],
)
def test_data_type_converter_default_names(tmp_path, targets, expected):
    (test,) = run(
        tmp_path,
        f"""
        a = Input("a", "TENSOR_FLOAT32", "{{1}}")
        b = Input("b", "TENSOR_FLOAT32", "{{1}}")
        o = Output("o", "TENSOR_FLOAT32", "{{1}}")
        p = SymmPerChannelQuantParams(channelDim=0, scales=[0.5])
        Model().Operation("ADD", a, b, 0).To(o)
        c = DataTypeConverter().Identify({targets})
        Example({{a: [1.0], b: [1.0], o: [2.0]}}).AddVariations(c, includeDefault=False)
        """,
    )
    assert test.name == expected


def test_signed_quant8_is_int8_clamped_to_its_range(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{4}")
        o = Output("o", "TENSOR_FLOAT32", "{4}")
        Model().Operation("RELU", i).To(o)
        q = DataTypeConverter().Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -1),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -1),
        })
        Example({i: [-100.0, -1.0, 1.25, 100.0], o: [0.0, 0.0, 1.25, 100.0]}).AddVariations(
            q, includeDefault=False
        )
        """,
        folder="V1_3",
    )
    assert test.name == "x_quant8_signed"
    assert [(op.type, op.scale, op.zero_point) for op in test.model.operands] == [
        (T.TENSOR_QUANT8_ASYMM_SIGNED, 0.5, -1)
    ] * 2
    # x / 0.5 - 1, rounded half to even, clamped to [-128, 127]: -100 -> -201 -> -128,
    # -1 -> -3, 1.25 -> 2.5 - 1 = 1.5 -> 2, 100 -> 199 -> 127; 0 -> -1.
    assert same(test.feeds[0].inputs[0], np.array([-128, -3, 2, 127], "i1"))
    assert same(test.feeds[0].outputs[0], np.array([-1, -1, 2, 127], "i1"))


@pytest.mark.parametrize(("target", "qtype"), [("quant8", "u1"), ("quant8_signed", "i1")])
def test_keyword_quantized_target_converts_every_float32_tensor(tmp_path, target, qtype):
    # Android 11: DataTypeConverter("quant8[_signed]", scale=, zeroPoint=) retypes every
    # TENSOR_FLOAT32 operand at that scale and zero point; FLOAT32 scalars stay.
    (test,) = run(
        tmp_path,
        f"""
        i = Input("i", "TENSOR_FLOAT32", "{{2}}")
        o = Output("o", "TENSOR_FLOAT32", "{{2}}")
        Model().Operation("SOFTMAX", i, 1.0).To(o)
        q = DataTypeConverter("{target}", scale=0.25, zeroPoint=4)
        Example({{i: [1.0, -1.0], o: [0.5, 0.25]}}).AddVariations(q, includeDefault=False)
        """,
        folder="V1_3",
    )
    qt = T.TENSOR_QUANT8_ASYMM if target == "quant8" else T.TENSOR_QUANT8_ASYMM_SIGNED
    assert test.name == f"x_{target}"
    assert [(op.type, op.scale, op.zero_point) for op in test.model.operands] == [
        (qt, 0.25, 4),
        (T.FLOAT32, 0.0, 0),
        (qt, 0.25, 4),
    ]
    # 1 / 0.25 + 4 = 8, -1 / 0.25 + 4 = 0; 0.5 -> 6, 0.25 -> 5.
    assert same(test.feeds[0].inputs[0], np.array([8, 0], qtype))
    assert same(test.feeds[0].outputs[0], np.array([6, 5], qtype))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            '"quant16"',
            "DataTypeConverter targetType must be float16, int32, quant8 or quant8_signed, "
            "not 'quant16'",
        ),
        ('"quant8", scale=0.5', "DataTypeConverter 'quant8' needs scale= and zeroPoint="),
        (
            '"float16", scale=0.5, zeroPoint=0',
            "DataTypeConverter takes scale= and zeroPoint= only with targetType quant8 or "
            "quant8_signed, not 'float16'",
        ),
    ],
)
def test_data_type_converter_target_errors(tmp_path, args, message):
    with pytest.raises(SpecError) as error:
        run(
            tmp_path,
            f"""
            i = Input("i", "TENSOR_FLOAT32", "{{1}}")
            o = Output("o", "TENSOR_FLOAT32", "{{1}}")
            Model().Operation("RELU", i).To(o)
            Example({{i: [1.0], o: [1.0]}}).AddVariations(DataTypeConverter({args}))
            """,
        )
    assert message in str(error.value)


def test_zero_element_operand_only_changes_type(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{0}")
        o = Output("o", "TENSOR_FLOAT32", "{0}")
        Model().Operation("ABS", i).To(o)
        q = DataTypeConverter().Identify({i: ("TENSOR_QUANT8_ASYMM", 0.5, 0), o: ("TENSOR_QUANT8_ASYMM", 0.5, 0)})
        Example({i: [], o: [0]}).AddVariations(q, includeDefault=False)
        """,
    )
    assert [op.type for op in test.model.operands] == [T.TENSOR_QUANT8_ASYMM] * 2
    assert same(test.feeds[0].outputs[0], np.zeros((0,), "u1"))


def test_auto_identify_runs_once_per_converter_object(tmp_path):
    tests = run(
        tmp_path,
        """
        a = Input("a", "TENSOR_FLOAT32", "{1}")
        c = Input("c", "TENSOR_FLOAT32", "{1}")
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        m1 = Model("m1").Operation("ABS", a).To(o)
        m2 = Model("m2").Operation("ADD", a, c, 0).To(o)
        f16 = DataTypeConverter("float16")
        Example({a: [1.0], o: [1.0]}, model=m1).AddVariations(f16, includeDefault=False)
        Example({a: [1.0], c: [2.0], o: [3.0]}, model=m2).AddVariations(f16, includeDefault=False)
        Example({a: [1.0], c: [2.0], o: [3.0]}, model=m2).AddVariations("float16", includeDefault=False)
        """,
    )
    got = by_name(tests)
    # The shared converter keeps the targets it found in m1: c stays float32.
    assert [op.type for op in got["x_m2_float16"].model.operands] == [
        T.TENSOR_FLOAT16,
        T.TENSOR_FLOAT32,
        T.INT32,
        T.TENSOR_FLOAT16,
    ]
    assert [op.type for op in got["x_m2_float16_2"].model.operands] == [
        T.TENSOR_FLOAT16,
        T.TENSOR_FLOAT16,
        T.INT32,
        T.TENSOR_FLOAT16,
    ]


# ---------------------------------------------------------------------------
# ActivationConverter
# ---------------------------------------------------------------------------

ACT_SPEC = """
i = Input("i", "TENSOR_FLOAT32", "{4}")
o = Output("o", "TENSOR_FLOAT32", "{4}")
act = Int32Scalar("act", 0)
Model().Operation("ADD", i, i, act).To(o)
q = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.5, 2), o: ("TENSOR_QUANT8_ASYMM", 0.5, 2)})
ex = Example({i: [-4.0, 1.0, 2.0, 8.0], o: [-0.5, 2.0, 4.0, 16.0]})
"""


def test_activation_bounds_are_quantized_with_the_output_type_at_that_point(tmp_path):
    (test,) = run(
        tmp_path,
        ACT_SPEC
        + 'ex.AddVariations(q, includeDefault=False).AddVariations(("relu6", [o, act]), includeDefault=False)\n',
    )
    assert test.name == "x_quant8_relu6"
    assert test.model.operand_values == i32(3)  # relu6
    # Quantized first: -0.5/0.5 + 2 = 1, 2/0.5 + 2 = 6, 10, 34. Then relu6 bounds in
    # the quant8 type: 0/0.5 + 2 = 2 and 6/0.5 + 2 = 14 -> [2, 6, 10, 14].
    assert same(test.feeds[0].outputs[0], arr([2, 6, 10, 14], "u1"))


def test_activation_in_an_earlier_group_clamps_float_data(tmp_path):
    (test,) = run(
        tmp_path,
        ACT_SPEC
        + 'ex.AddVariations(("relu1", [o, act]), includeDefault=False).AddVariations(q, includeDefault=False)\n',
    )
    assert test.name == "x_relu1_quant8"
    assert test.model.operand_values == i32(2)
    # Float clamp to [-1, 1]: [-0.5, 1, 1, 1]; then quantized: -1 + 2 = 1, 4, 4, 4.
    assert same(test.feeds[0].outputs[0], arr([1, 4, 4, 4], "u1"))


def test_all_activations_on_float_outputs(tmp_path):
    tests = run(tmp_path, ACT_SPEC + "ex.AddAllActivations(o, act)\n")
    assert names(tests) == ["x_none", "x_relu", "x_relu1", "x_relu6"]
    codes = [t.model.operand_values for t in tests]
    assert codes == [i32(0), i32(1), i32(2), i32(3)]
    outputs = [t.feeds[0].outputs[0].tolist() for t in tests]
    assert outputs == [
        [-0.5, 2.0, 4.0, 16.0],  # none: untouched
        [0.0, 2.0, 4.0, 16.0],  # relu: >= 0
        [-0.5, 1.0, 1.0, 1.0],  # relu1: [-1, 1]
        [0.0, 2.0, 4.0, 6.0],  # relu6: [0, 6]
    ]
    assert all(t.feeds[0].inputs[0].tolist() == [-4.0, 1.0, 2.0, 8.0] for t in tests)


def test_activation_cannot_target_an_input(tmp_path):
    message = error_of(tmp_path, ACT_SPEC + "ex.AddRelu(i, o, act)\n")
    assert message == "V1_2/x.mod.py:8: ActivationConverter can only clamp outputs, not input 'i'"


# ---------------------------------------------------------------------------
# DataLayoutConverter
# ---------------------------------------------------------------------------

LAYOUT_SPEC = """
i = Input("i", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
p = Int32Vector("p", [10, 11, 12, 13])
layout = BoolScalar("layout", False)
o = Output("o", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model().Operation("CONV_2D", i, p, layout).To(o)
ex = Example({i: [float(v) for v in range(12)], o: [0.0] * 12})
"""


def test_nchw_transposes_rank4_reindexes_4_vectors_and_sets_bool_layout(tmp_path):
    tests = run(tmp_path, LAYOUT_SPEC + "ex.AddNchw(i, p, layout, o)\n")
    assert names(tests) == ["x_nhwc", "x_nchw"]
    nhwc, nchw = tests
    assert nhwc.model.operand_values == i32(10, 11, 12, 13) + b"\x00"
    # new[k] = old[perm[k]] with perm (0, 3, 1, 2); the layout flag becomes true.
    assert nchw.model.operand_values == i32(10, 13, 11, 12) + b"\x01"
    assert nchw.model.operands[0].dimensions == [1, 3, 2, 2]
    assert nchw.model.operands[3].dimensions == [1, 3, 2, 2]
    # NHWC value at (h, w, c) is 6h + 3w + c; NCHW lists c, then h, then w.
    expected = [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]
    assert same(nchw.feeds[0].inputs[0], arr(expected, "<f4", (1, 3, 2, 2)))


def test_nhwc_converter_uses_the_inverse_permutation(tmp_path):
    (test,) = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1, 2, 1, 3}")
        layout = BoolScalar("layout", True)
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("CONV_2D", i, layout).To(o)
        c = DataLayoutConverter("nhwc").Identify([i, layout])
        Example({i: [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], o: [0.0]}).AddVariations(c, includeDefault=False)
        """,
    )
    assert test.name == "x_nhwc"
    # perm (0, 2, 3, 1): dims [1, 2, 1, 3] -> [1, 1, 3, 2]; new (h, w, c) = old (c, h, w):
    # old index of (c, h, w) is 3c + w -> c=0: 0, 3; ... listed by w, then c.
    assert test.model.operands[0].dimensions == [1, 1, 3, 2]
    assert same(test.feeds[0].inputs[0], arr([0, 3, 1, 4, 2, 5], "<f4", (1, 1, 3, 2)))
    assert test.model.operand_values == b"\x00"


def test_layout_drops_extra_params_of_rank4_operands(tmp_path):
    tests = run(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1, 1, 1, 2}")
        q = SymmPerChannelQuantParams(channelDim=3, scales=[0.5, 0.25])
        w = Parameter("w", ("TENSOR_QUANT8_SYMM_PER_CHANNEL", [1, 1, 1, 2], 0.0, 0), [1, 2], extraParams=q)
        o = Output("o", "TENSOR_FLOAT32", "{1}")
        Model().Operation("CONV_2D", i, w).To(o)
        Example({i: [0.0, 0.0], o: [0.0]}).AddNchw(i, w)
        """,
    )
    nhwc, nchw = (t.model.operands[1] for t in tests)
    assert nhwc.extra_params == SymmPerChannelQuantParams((0.5, 0.25), 3)
    assert (nchw.dimensions, nchw.extra_params) == ([1, 2, 1, 1], None)


def test_layout_rejects_an_int32_layout_parameter(tmp_path):
    message = error_of(
        tmp_path,
        """
        i = Input("i", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
        layout = Int32Scalar("layout", 0)
        o = Output("o", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
        Model().Operation("CONV_2D", i, layout).To(o)
        Example({i: [0.0], o: [0.0]}).AddNchw(i, o, layout)
        """,
    )
    assert message == (
        "V1_2/x.mod.py:5: DataLayoutConverter cannot convert parameter 'layout' of type INT32"
    )


def test_identify_uses_only_its_first_argument(tmp_path):
    (test,) = run(
        tmp_path,
        LAYOUT_SPEC
        + 'ex.AddVariations(DataLayoutConverter("nchw").Identify([i, o], [layout]), includeDefault=False)\n',
    )
    assert test.model.operand_values == i32(10, 11, 12, 13) + b"\x00"  # p and layout unchanged


def test_targets_are_processed_in_name_order_and_must_be_in_the_model(tmp_path):
    message = error_of(
        tmp_path,
        cat(
            LAYOUT_SPEC,
            """
        zz = Input("zz", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
        yy = Input("yy", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
        ex.AddVariations(DataLayoutConverter("nchw").Identify([zz, yy, i]))
        """,
        ),
    )
    assert message == (
        "V1_2/x.mod.py:9: variation 'nchw' targets operand 'yy', which is not in the model"
    )


# ---------------------------------------------------------------------------
# AxisConverter and the axis helpers
# ---------------------------------------------------------------------------

AXIS_SPEC = """
i = Input("i", "TENSOR_FLOAT32", "{2, 3, 4}")
axis = Int32Scalar("axis", -1)
o = Output("o", "TENSOR_FLOAT32", "{2, 3, 4}")
Model().Operation("SOFTMAX", i, 1.0, axis).To(o)
ex = Example({i: [float(v) for v in range(24)], o: [0.0] * 24})
"""


def test_axis_converter_transposes_tensors_and_rewrites_the_axis(tmp_path):
    (test,) = run(
        tmp_path,
        AXIS_SPEC
        + "ex.AddVariations(tg.AxisConverter(2, 0, 3).Identify([i, o, axis]), includeDefault=False)\n",
    )
    assert test.name == "x_dim3_axis0"
    assert test.model.operands[0].dimensions == [4, 2, 3]
    assert test.model.operand_values == f32(1.0) + i32(0)
    # perm [2, 0, 1]: new (a, b, c) = old (b, c, a), whose index is 12b + 4c + a.
    expected = [12 * b + 4 * c + a for a in range(4) for b in range(2) for c in range(3)]
    assert expected[:7] == [0, 4, 8, 12, 16, 20, 1]
    assert same(test.feeds[0].inputs[0], arr(expected, "<f4", (4, 2, 3)))


@pytest.mark.parametrize(
    ("target", "name", "axis_value"), [(1, "dim2_axis0", 0), (-2, "dim2_axis0_neg", -2)]
)
def test_axis_converter_drops_axes_after_the_transpose(tmp_path, target, name, axis_value):
    (test,) = run(
        tmp_path,
        AXIS_SPEC
        + f"ex.AddVariations(tg.AxisConverter(2, {target}, 3, drop=[0]).Identify([i, o, axis]), includeDefault=False)\n",
    )
    assert test.name == f"x_{name}"
    # perm [0, 2, 1] gives dims [2, 4, 3]; dropping axis 0 keeps index 0: [4, 3]
    # with value (b, c) = old (0, c, b) = 4c + b.
    assert test.model.operands[0].dimensions == [4, 3]
    expected = [4 * c + b for b in range(4) for c in range(3)]
    assert same(test.feeds[0].inputs[0], arr(expected, "<f4", (4, 3)))
    # Axis: 1 - #(drops below 1) = 0; -2 + #(drops above -2 + 3) = -2.
    assert test.model.operand_values == f32(1.0) + i32(axis_value)


def test_axis_converter_rejects_a_dropped_target(tmp_path):
    message = error_of(tmp_path, AXIS_SPEC + "tg.AxisConverter(2, 1, 3, drop=[1])\n")
    assert message == "V1_2/x.mod.py:6: AxisConverter target 1 is dropped"


HELPER_SPEC = """
i = Input("i", "TENSOR_FLOAT32", "{2, 3, 4}")
o = Output("o", "TENSOR_FLOAT32", "{2, 3, 4}")
axis = Int32Scalar("axis", -1)
axis0 = Int32Scalar("axis0", 0)
act = Int32Scalar("act", 0)
w = Parameter("w", "TENSOR_FLOAT32", "{1}", [1.0])
i4 = Input("i4", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
o4 = Output("o4", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
layout = BoolScalar("layout", False)
Model().Operation("SOFTMAX", i, axis, axis0, act, w).To(o).Operation("RELU", i4, layout).To(o4)
ex = Example({i: [0.0] * 24, o: [0.0] * 24, i4: [0.0], o4: [0.0]})
"""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            "AddAllDimsAndAxis(i, o, axis)",
            "dim3_axis0 dim3_axis0_neg dim3_axis1 dim3_axis1_neg dim3_axis2 dim3_axis2_neg "
            "dim2_axis0 dim2_axis0_neg dim2_axis1 dim2_axis1_neg dim1_axis0 dim1_axis0_neg",
        ),
        (
            "AddAllDimsAndPositiveAxis(i, o)",
            "dim3_axis0 dim3_axis1 dim3_axis2 dim2_axis0 dim2_axis1 dim1_axis0",
        ),
        ("AddAllDims(i, o)", "dim3_axis2 dim2_axis1 dim1_axis0"),  # origin 2 kept
        ("AddAllDims(i, o, axis0)", "dim3_axis0 dim2_axis0 dim1_axis0"),  # origin 0
        ("AddAllPositiveAxis(i, o)", "dim3_axis0 dim3_axis1 dim3_axis2"),
        (
            "AddAllAxis(i, o)",
            "dim3_axis0_neg dim3_axis1_neg dim3_axis2_neg dim3_axis0 dim3_axis1 dim3_axis2",
        ),
        ("AddAxis([0, -1], i, o)", "- dim3_axis0 dim3_axis2_neg"),
        ("AddAxis(1, i, o, defaultName='same')", "same dim3_axis1"),
        ("AddDims([1, 3], i4, o4)", "- dim1_axis0 dim3_axis2"),
        ("AddRelaxed()", "- relaxed"),
        ("AddRelaxed(False)", "- float"),
        ("AddRelu(o, act)", "- relu"),
        ("AddAllActivations(o, act)", "none relu relu1 relu6"),
        ("AddInput(w)", "- weight_as_input"),
        ("AddInput([w])", "- weight_as_input"),  # a nested list, as older specs write
        ("AddNchw(i4, o4, layout)", "nhwc nchw"),
        ("AddNchw(i4, o4, includeDefault=False)", "nchw"),
    ],
)
def test_helper_variation_names(tmp_path, call, expected):
    tests = run(tmp_path, HELPER_SPEC + f"ex.{call}\n")
    assert names(tests) == ["x" if n == "-" else f"x_{n}" for n in expected.split()]


def test_axis_helpers_need_one_rank(tmp_path):
    message = error_of(tmp_path, HELPER_SPEC + "ex.AddAllAxis(i, i4)\n")
    assert (
        message == "V1_2/x.mod.py:12: axis helpers need operands of one rank: i4 has rank 4, not 3"
    )


# ---------------------------------------------------------------------------
# RelaxedModeConverter and ParameterAsInputConverter
# ---------------------------------------------------------------------------


def test_relaxed_sets_only_the_flag(tmp_path):
    tests = run(tmp_path, ADD_SPEC.rstrip() + ".AddRelaxed()\n")
    plain, relaxed = tests
    assert relaxed.model.relax_computation_float32_to_float16 is True
    assert plain.model.relax_computation_float32_to_float16 is False
    assert relaxed.feeds == plain.feeds
    assert relaxed.model.operands == plain.model.operands


PARAM_SPEC = """
i = Input("i", "TENSOR_FLOAT32", "{2}")
w = Parameter("w", "TENSOR_FLOAT32", "{2}", [0.5, 0.25])
o = Output("o", "TENSOR_FLOAT32", "{2}")
Model().Operation("MUL", i, w, 0).To(o)
ex = Example({i: [1.0, 2.0], o: [0.5, 0.5]}, {i: [4.0, 4.0], o: [2.0, 1.0]})
"""


def test_parameter_as_input_keeps_its_index_and_carries_its_value_in_every_feed(tmp_path):
    tests = run(tmp_path, PARAM_SPEC + "ex.AddInput(w)\n")
    assert names(tests) == ["x", "x_weight_as_input"]
    test = tests[1]
    assert test.model == HalModel(
        operands=[
            opnd(T.TENSOR_FLOAT32, [2], 1, IN),
            opnd(T.TENSOR_FLOAT32, [2], 1, IN),  # w, now an input at the same index
            opnd(T.INT32, [], 1, CONST, (0, 0, 4)),
            opnd(T.TENSOR_FLOAT32, [2], 0, OUT),
        ],
        operations=[Operation(OperationType.MUL, [0, 1, 2], [3])],
        input_indexes=[0, 1],
        output_indexes=[3],
        operand_values=i32(0),
    )
    assert [[x.tolist() for x in f.inputs] for f in test.feeds] == [
        [[1.0, 2.0], [0.5, 0.25]],
        [[4.0, 4.0], [0.5, 0.25]],
    ]


def test_parameter_as_input_then_type_conversion_converts_the_feed(tmp_path):
    tests = run(
        tmp_path,
        cat(
            PARAM_SPEC,
            """
        q = DataTypeConverter().Identify({w: ("TENSOR_QUANT8_ASYMM", 0.25, 0)})
        ex.AddVariations(ParameterAsInputConverter(prefix="filter"), includeDefault=False)
        ex.AddInput(w, includeDefault=False).AddVariations(q, includeDefault=False)
        """,
        ),
    )
    # The converter with no targets only renames; 0.5/0.25 = 2, 0.25/0.25 = 1.
    assert names(tests) == ["x_filter_as_input_weight_as_input_quant8"]
    assert same(tests[0].feeds[0].inputs[1], arr([2, 1], "u1"))


def test_only_parameters_become_inputs(tmp_path):
    message = error_of(tmp_path, PARAM_SPEC + "ex.AddInput(i)\n")
    assert (
        message
        == "V1_2/x.mod.py:6: input 'i' cannot be turned into an input: it is not a parameter"
    )


def test_a_scalar_turned_into_an_input_cannot_be_emitted(tmp_path):
    message = error_of(tmp_path, ACT_SPEC + "ex.AddInput(act)\n")
    assert message == (
        "V1_2/x.mod.py:7: input 'act' has the scalar type INT32: example data must be tensors"
    )


SCALAR_SPEC = """
x = Input("x", "TENSOR_FLOAT32", "{2, 1, 2}")
rank = Internal("rank", "INT32", "{}")
shape = Input("shape", "TENSOR_INT32", "{3}")
filled = Output("filled", "TENSOR_INT32", "{2, 1, 2}")
count = Output("count", "INT32", "{}")
Model().Operation("RANK", x).To(rank).Operation("FILL", shape, rank).To(filled).Operation(
    "RANK", filled).To(count)
ex = Example({x: [1.0, 2.0, 3.0, 4.0], shape: [2, 1, 2], filled: [3, 3, 3, 3], count: [3]})
"""


def test_a_scalar_output_and_a_scalar_internal_compile(tmp_path):
    # Android 11's RANK writes an INT32 scalar: as a model output its expected value is
    # a 0-d array of its one value; as an internal operand, a TEMPORARY_VARIABLE scalar.
    (test,) = run(tmp_path, SCALAR_SPEC, folder="V1_3")
    model = test.model
    rank, count = model.operands[1], model.operands[4]
    assert (rank.type, rank.dimensions, rank.lifetime) == (
        OperandType.INT32,
        [],
        OperandLifeTime.TEMPORARY_VARIABLE,
    )
    assert (count.type, count.dimensions, count.lifetime) == (
        OperandType.INT32,
        [],
        OperandLifeTime.MODEL_OUTPUT,
    )
    assert rank.number_of_consumers == 1
    expected = test.feeds[0].outputs
    assert same(expected[0], arr([3, 3, 3, 3], "i4", (2, 1, 2)))
    assert same(expected[1], np.array(3, dtype="i4"))


def test_a_scalar_output_needs_its_one_value(tmp_path):
    spec = SCALAR_SPEC.replace("count: [3]", "count: [3, 3]")
    with pytest.raises(SpecError) as info:
        run(tmp_path, spec, folder="V1_3")
    assert str(info.value) == "V1_3/x.mod.py:8: output 'count' has 2 values but dims [] hold 1"


# ---------------------------------------------------------------------------
# Errors: one line, the spec path and the line of the offending call
# ---------------------------------------------------------------------------


def test_python_error_names_the_spec_line(tmp_path):
    message = error_of(tmp_path, ADD_SPEC + "Example({i1: [1.0], op9: [2.0]})\n")
    assert message == "V1_2/x.mod.py:6: NameError: name 'op9' is not defined"


def test_error_inside_a_spec_function_names_the_innermost_spec_line(tmp_path):
    message = error_of(
        tmp_path,
        """
        def make():
            return Input("x", "TENSOR_FOO", "{1}")

        make()
        """,
    )
    assert message == "V1_2/x.mod.py:2: unknown operand type 'TENSOR_FOO'"


def test_syntax_error(tmp_path):
    message = error_of(tmp_path, "i = Input(\n")
    assert message.startswith("V1_2/x.mod.py:1: SyntaxError: ")


def test_unknown_operation(tmp_path):
    message = error_of(tmp_path, ADD_SPEC.replace('"ADD"', '"ADDD"'))
    assert message == "V1_2/x.mod.py:4: unknown operation 'ADDD'"


def test_unknown_type_in_sequence_form_and_in_a_converter(tmp_path):
    assert error_of(tmp_path, 'Input("x", ("FLOAT64", [1]))\n') == (
        "V1_2/x.mod.py:1: unknown operand type 'FLOAT64'"
    )
    message = error_of(
        tmp_path,
        ADD_SPEC.rstrip()
        + '.AddVariations(DataTypeConverter().Identify({i1: ("TENSOR_FLOAT64",)}))\n',
    )
    assert message == "V1_2/x.mod.py:5: unknown operand type 'TENSOR_FLOAT64'"


def test_example_missing_an_input_in_pair_form(tmp_path):
    message = error_of(
        tmp_path,
        ADD_SPEC.replace("Example({i1: [1.0, 2.0], ", "Example(({").replace(
            "o: [4.0, 6.0]})", "}, {o: [4.0, 6.0]}))"
        ),
    )
    assert message == "V1_2/x.mod.py:5: example has no value for input 'op1'"


def test_example_missing_an_output_in_a_combined_dict(tmp_path):
    message = error_of(tmp_path, ADD_SPEC.replace(", o: [4.0, 6.0]", ""))
    assert message == "V1_2/x.mod.py:5: example has no value for output 'op3'"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("i2: [3.0, 4.0]", "i2: [3.0]", "5: input 'op2' has 1 values but dims [2] hold 2"),
        ("o: [4.0, 6.0]", "o: [4.0, 6.0, 8.0]", "5: output 'op3' has 3 values but dims [2] hold 2"),
        (
            "i2, 0)",
            'i2, Parameter("w", "TENSOR_INT32", "{2}", [1]))',
            "4: parameter 'w' has 1 values but dims [2] hold 2",
        ),
    ],
)
def test_value_count_must_match_the_shape(tmp_path, old, new, expected):
    assert error_of(tmp_path, ADD_SPEC.replace(old, new)) == f"V1_2/x.mod.py:{expected}"


def test_example_before_any_model(tmp_path):
    assert (
        error_of(tmp_path, "Example({})\n") == "V1_2/x.mod.py:1: Example() comes before any Model()"
    )


def test_uint32_constant_cannot_be_emitted(tmp_path):
    message = error_of(
        tmp_path, ADD_SPEC.replace("i2, 0)", 'i2, Parameter("u", ("UINT32", []), 1))')
    )
    assert message == "V1_2/x.mod.py:4: parameter 'u': a UINT32 constant cannot be emitted"


def test_configuration_lives_in_the_spec_context():
    assert not hasattr(Configuration, "use_shm_for_weights")  # no spec running
    with dsl() as ctx:
        Configuration.use_shm_for_weights = True
        assert Configuration.use_shm_for_weights is True
        assert ctx.configuration.use_shm_for_weights is True
        assert Parameter("w", ("INT32", []), 1).lifetime == "CONSTANT_REFERENCE"
    with dsl():
        assert Configuration.use_shm_for_weights is False


def test_the_dsl_needs_an_active_spec():
    with pytest.raises(Exception, match="only usable while a spec file is evaluated"):
        BoolScalar("b", True)
    with dsl():
        assert Int32Scalar("a", 1).value == [1]


# ---------------------------------------------------------------------------
# Omitted inputs: "{0}" with [], and full dims with []
# ---------------------------------------------------------------------------

SVDF_OMITTED_BIAS = """
x = Input("x", "TENSOR_FLOAT32", "{1, 2}")
wf = Parameter("wf", "TENSOR_FLOAT32", "{2, 2}", [1.0, 0.5, -1.0, 0.25])
wt = Parameter("wt", "TENSOR_FLOAT32", "{2, 2}", [1.0, 0.5, 0.25, -1.0])
bias = Input("bias", "TENSOR_FLOAT32", "{DIMS}")
state = Input("state", "TENSOR_FLOAT32", "{1, 4}")
state_out = IgnoredOutput("state_out", "TENSOR_FLOAT32", "{1, 4}")
out = Output("out", "TENSOR_FLOAT32", "{1, 2}")
Model().Operation("SVDF", x, wf, wt, bias, state, 1, 0).To(state_out, out)
Example({x: [1.0, 2.0], bias: BIAS, state: [0.0] * 4, state_out: [0.0] * 4, out: [2.0, -1.0]})
"""


@pytest.mark.parametrize("dims", ["0", "2"])
def test_an_empty_list_omits_an_input_in_both_idioms(tmp_path, dims):
    spec = SVDF_OMITTED_BIAS.replace("{DIMS}", "{" + dims + "}").replace("BIAS", "[]")
    spec = spec.rstrip() + '.AddVariations("relaxed", "float16")\n'
    tests = run(tmp_path, spec)
    assert names(tests) == ["x", "x_relaxed", "x_float16"]
    for test in tests:
        bias_operand = test.model.operands[test.model.input_indexes[1]]
        # The model keeps the declared dims; the feed has no element (sent as has_no_value).
        assert bias_operand.dimensions == [int(dims)]
        assert bias_operand.lifetime == OperandLifeTime.MODEL_INPUT
        (feed,) = test.feeds
        assert feed.inputs[1].size == 0
        assert feed.inputs[1].shape == (0,)
        assert feed.inputs[0].size == 2 and feed.inputs[2].size == 4
    assert tests[2].feeds[0].inputs[1].dtype == np.float16


def test_a_wrong_non_empty_list_for_a_full_shape_input_is_still_an_error(tmp_path):
    spec = SVDF_OMITTED_BIAS.replace("{DIMS}", "{2}").replace("BIAS", "[0.5]")
    assert error_of(tmp_path, spec) == (
        "V1_2/x.mod.py:9: input 'bias' has 1 values but dims [2] hold 2"
    )


def test_an_empty_list_does_not_omit_an_output_or_a_parameter(tmp_path):
    spec = SVDF_OMITTED_BIAS.replace("{DIMS}", "{2}").replace("BIAS", "[0.5, 0.5]")
    assert error_of(tmp_path, spec.replace("out: [2.0, -1.0]", "out: []")) == (
        "V1_2/x.mod.py:9: output 'out' has 0 values but dims [1, 2] hold 2"
    )
    assert error_of(tmp_path, spec.replace("[1.0, 0.5, -1.0, 0.25]", "[]")) == (
        "V1_2/x.mod.py:2: parameter 'wf' has 0 values but dims [2, 2] hold 4"
    )


def test_an_omitted_full_shape_input_survives_a_layout_variation(tmp_path):
    spec = """
    x = Input("x", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
    f = Parameter("f", "TENSOR_FLOAT32", "{1, 1, 1, 1}", [2.0])
    b = Input("b", "TENSOR_FLOAT32", "{1}")
    layout = BoolScalar("layout", False)
    o = Output("o", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
    Model().Operation("CONV_2D", x, f, b, 1, 1, 1, 0, layout).To(o)
    Example({x: [1.0, 2.0, 3.0, 4.0], b: [], o: [2.0, 4.0, 6.0, 8.0]}).AddNchw(x, o, layout)
    """
    tests = run(tmp_path, spec)
    assert names(tests) == ["x_nhwc", "x_nchw"]
    for test in tests:
        assert test.feeds[0].inputs[1].size == 0
        assert test.model.operands[test.model.input_indexes[1]].dimensions == [1]


def test_omitted_declares_a_no_value_constant(tmp_path):
    spec = SVDF_OMITTED_BIAS.replace(
        'Input("bias", "TENSOR_FLOAT32", "{DIMS}")', 'Omitted("bias", "TENSOR_FLOAT32", "{2}")'
    )
    spec = spec.replace("bias: BIAS, ", "").rstrip() + '.AddVariations("relaxed", "float16")\n'
    tests = run(tmp_path, spec)
    assert names(tests) == ["x", "x_relaxed", "x_float16"]
    for test in tests:
        (bias,) = [op for op in test.model.operands if op.lifetime == OperandLifeTime.NO_VALUE]
        assert bias.dimensions == [2]
        assert bias.location == DataLocation(0, 0, 0)
        assert bias.number_of_consumers == 1
        assert len(test.model.input_indexes) == 2  # x and state only
    assert tests[2].model.operands[3].type == T.TENSOR_FLOAT16
    # No bytes for the omitted bias: two 2x2 weights, then rank and activation.
    assert len(tests[0].model.operand_values) == 2 * 16 + 8
    assert len(tests[2].model.operand_values) == 2 * 8 + 8


def test_omitted_cannot_have_a_value(tmp_path):
    message = error_of(tmp_path, 'b = Omitted("b", "TENSOR_FLOAT32", "{2}", [1.0, 2.0])\n')
    assert message == "V1_2/x.mod.py:1: omitted operand 'b' cannot have a value"
    message = error_of(tmp_path, 'b = Omitted("b", ("TENSOR_FLOAT32", [2]), [1.0, 2.0])\n')
    assert message == "V1_2/x.mod.py:1: omitted operand 'b' cannot have a value"


def test_an_omitted_operand_is_not_an_example_key(tmp_path):
    spec = SVDF_OMITTED_BIAS.replace(
        'Input("bias", "TENSOR_FLOAT32", "{DIMS}")', 'Omitted("bias", "TENSOR_FLOAT32", "{2}")'
    )
    (test,) = run(tmp_path, spec.replace("BIAS", "[]"))  # an extra key is ignored
    assert len(test.feeds[0].inputs) == 2


def test_spec_examples_gives_the_cases_as_written_without_ignored_outputs(tmp_path):
    from generator.expand import spec_examples

    spec = SVDF_OMITTED_BIAS.replace("{DIMS}", "{0}").replace("BIAS", "[]")
    path = tmp_path / "V1_2" / "x.mod.py"
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(spec).lstrip("\n"))
    ((case,),) = spec_examples(path, tmp_path)
    assert case.inputs == {"x": [1.0, 2.0], "bias": [], "state": [0.0] * 4}
    assert case.outputs == {"out": [2.0, -1.0]}  # state_out is an IgnoredOutput


# ---------------------------------------------------------------------------
# Vendor extensions (hal.extensions): "<extension name>:<type or operation name>"
# ---------------------------------------------------------------------------

DEMO_SPEC = """
Q16 = "org.nnhal_conformance.demo:TENSOR_Q16"
a = Input("a", Q16, "{2}")
b = Parameter("b", Q16, "{2}", [-2, 300])
out = Output("out", Q16, "{2}")
Model().Operation("org.nnhal_conformance.demo:SATURATING_ADD", a, b).To(out)
Example({a: [256, -32768], out: [254, -32468]})
"""


def test_extension_types_and_operations_by_name(tmp_path):
    (test,) = run(tmp_path, DEMO_SPEC)
    q16 = 0x10001  # the harness's prefix for the demo extension (1) << 16 | TENSOR_Q16 (1)
    # b = [-2, 300] as little-endian int16: fe ff 2c 01
    assert test.model == HalModel(
        operands=[
            opnd(q16, [2], 1, IN),
            opnd(q16, [2], 1, CONST, (0, 0, 4)),
            opnd(q16, [2], 0, OUT),
        ],
        operations=[Operation(0x10001, [0, 1], [2])],  # SATURATING_ADD is operation 1
        input_indexes=[0],
        output_indexes=[2],
        operand_values=b"\xfe\xff\x2c\x01",
        extension_name_to_prefix=[ExtensionNameAndPrefix("org.nnhal_conformance.demo", 1)],
    )
    (feed,) = test.feeds
    assert feed.inputs[0].dtype == np.dtype("<i2") and feed.inputs[0].tolist() == [256, -32768]
    assert feed.outputs[0].dtype == np.dtype("<i2") and feed.outputs[0].tolist() == [254, -32468]
    assert test.provenance.operations == ("org.nnhal_conformance.demo:SATURATING_ADD",)


def test_extension_unknown_extension_is_rejected(tmp_path):
    message = error_of(tmp_path, 'x = Input("x", "com.example.nope:TENSOR_Q16", "{2}")\n')
    assert message == (
        "V1_2/x.mod.py:1: unknown extension 'com.example.nope' (known: org.nnhal_conformance.demo)"
    )


def test_extension_unknown_operand_type_is_rejected(tmp_path):
    message = error_of(tmp_path, 'x = Input("x", ("org.nnhal_conformance.demo:TENSOR_Q32", [2]))\n')
    assert message == (
        "V1_2/x.mod.py:1: extension org.nnhal_conformance.demo has no operand type "
        "'TENSOR_Q32' (it has: TENSOR_Q16)"
    )


def test_extension_unknown_operation_is_rejected(tmp_path):
    spec = """
    x = Input("x", "org.nnhal_conformance.demo:TENSOR_Q16", "{2}")
    y = Output("y", "org.nnhal_conformance.demo:TENSOR_Q16", "{2}")
    Model().Operation("org.nnhal_conformance.demo:SATURATING_MUL", x, x).To(y)
    """
    assert error_of(tmp_path, spec) == (
        "V1_2/x.mod.py:3: extension org.nnhal_conformance.demo has no operation "
        "'SATURATING_MUL' (it has: SATURATING_ADD)"
    )
    unknown = spec.replace("org.nnhal_conformance.demo:SATURATING_MUL", "com.example.x:ADD")
    assert error_of(tmp_path, unknown) == (
        "V1_2/x.mod.py:3: unknown extension 'com.example.x' (known: org.nnhal_conformance.demo)"
    )


def test_extension_value_outside_its_dtype_is_rejected(tmp_path):
    spec = DEMO_SPEC.replace("[256, -32768]", "[256, 32768]")  # int16 stops at 32767
    assert error_of(tmp_path, spec) == (
        "V1_2/x.mod.py:6: input 'a' holds 32768, which does not fit "
        "org.nnhal_conformance.demo:TENSOR_Q16"
    )
