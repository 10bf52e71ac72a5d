"""generator.emit, conformance.harness.generated and the nnhal-generate command.

Generated modules must rebuild exactly the records they were made from (every
bit of every array), read the same on every machine, and the command must
report stale trees and failing specs precisely. The spec interpreter is
replaced by a stub here: these tests are about emitting, not about the DSL.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import importlib.util
import io
import os
import re
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import conformance.harness.generated as loader
import generator.__main__ as cli
from conformance.harness.cases import Feed, GeneratedTest, Provenance
from conformance.harness.models import binary_model
from generator import build
from generator.emit import (
    EmitError,
    emit_index,
    emit_module,
    emit_packages,
    module_path,
)
from hal.memory import Memory
from hal.operations import coverage_triples
from hal.types import (
    DataLocation,
    ExtensionNameAndPrefix,
    ExtensionParams,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    SymmPerChannelQuantParams,
)

SPEC = "conformance/specs/V1_2/sample.mod.py"


# ---------------------------------------------------------------------------
# Hand-built records
# ---------------------------------------------------------------------------


def _f32(bits: list[int]) -> np.ndarray:
    return np.array(bits, dtype="<u4").view("<f4")


ODD_FLOATS = _f32(
    [
        0x7FC00001,  # quiet NaN with a payload
        0xFFA00000,  # negative signalling NaN
        0x80000000,  # -0.0
        0x00000001,  # smallest subnormal
        0x807FFFFF,  # largest negative subnormal
        0x7F800000,  # +inf
        0x3DCCCCCD,  # 0.1f
        0xC0490FDB,  # -pi
    ]
).reshape(2, 4)


def _float_test(name: str = "sample", version: str | None = "V1_2") -> GeneratedTest:
    model = binary_model(dims=(2, 4))
    return GeneratedTest(
        name=name,
        dynamic_name=f"{name}_dynamic_output_shape",
        hal_folder="V1_2",
        model=model,
        feeds=[
            Feed([ODD_FLOATS, ODD_FLOATS[::-1]], [np.zeros((2, 4), "<f4")]),
            Feed([np.ones((2, 4), "<f4"), -ODD_FLOATS], [ODD_FLOATS[:, ::-1].copy()]),
        ],
        ignored_outputs=frozenset({0}),
        version=version,
        provenance=Provenance(SPEC, 7, ("", "relaxed"), ("ADD",)),
    )


def _rich_test() -> GeneratedTest:
    """Every field the emitter knows, off its default."""
    per_channel = SymmPerChannelQuantParams((0.5, 5e-324, -0.0, 1 / 3), 0)
    operands = [
        Operand(OperandType.TENSOR_FLOAT16, [1, 3], 1, lifetime=OperandLifeTime.MODEL_INPUT),
        Operand(
            OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
            [4, 1],
            1,
            lifetime=OperandLifeTime.CONSTANT_COPY,
            location=DataLocation(0, 0, 4),
            extra_params=per_channel,
        ),
        Operand(
            OperandType.TENSOR_QUANT8_ASYMM,
            [0],
            1,
            scale=-0.0,
            zero_point=128,
            lifetime=OperandLifeTime.MODEL_INPUT,
        ),
        Operand(OperandType.INT32, [], 1, lifetime=OperandLifeTime.NO_VALUE),
        Operand(0x10002, [2], 1, scale=0.1, lifetime=OperandLifeTime.MODEL_INPUT),
        Operand(
            OperandType.TENSOR_OEM_BYTE,
            [3],
            0,
            lifetime=OperandLifeTime.MODEL_OUTPUT,
            extra_params=ExtensionParams(b"\x00\xffext"),
        ),
        Operand(OperandType.TENSOR_FLOAT16, [1, 3], 0, lifetime=OperandLifeTime.MODEL_OUTPUT),
    ]
    model = Model(
        operands=operands,
        operations=[
            Operation(OperationType.CONV_2D, [0, 1, 2, 3], [6]),
            Operation(0x10001, [4], [5]),
        ],
        input_indexes=[0, 2, 4],
        output_indexes=[6, 5],
        operand_values=bytearray(b"\x01\xfe\x7f\x80"),
        relax_computation_float32_to_float16=True,
        extension_name_to_prefix=[ExtensionNameAndPrefix("com.example.ext", 1)],
    )
    half = np.array([1.5, -0.0, 6.0e-8, np.inf], dtype="<f2")[:3].reshape(1, 3)
    return GeneratedTest(
        name="rich_per_channel_float16",
        dynamic_name="",
        hal_folder="V1_2",
        model=model,
        feeds=[
            Feed(
                [half, np.zeros((0,), "u1"), np.array([7, -1], "<i4")],
                [half * 2, np.array([1, 2, 3], "u1")],
            )
        ],
        ignored_outputs=frozenset({1, 0}),
        version=None,
        multinomial_tolerance=0.1,
        provenance=Provenance(SPEC, 31, ("float16", "channelQuant8"), ("CONV_2D", "0x10001")),
    )


def _import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _round_trip(tmp_path: Path, tests: list[GeneratedTest]) -> list[GeneratedTest]:
    emitted = emit_module(SPEC, tests)
    path = tmp_path / emitted.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(emitted.text, encoding="utf-8")
    module = _import_file(path, f"_emitted_{tmp_path.name}")
    assert [name for name, _ in module.TESTS] == [t.name for t in tests]
    return [build() for _, build in module.TESTS]


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


# ---------------------------------------------------------------------------
# Round trip
# ---------------------------------------------------------------------------


def test_round_trip_gives_equal_records(tmp_path: Path) -> None:
    tests = [_float_test(), _rich_test(), _float_test("sample_relaxed", version=None)]
    rebuilt = _round_trip(tmp_path, tests)
    assert rebuilt == tests


def test_round_trip_keeps_every_bit(tmp_path: Path) -> None:
    original = _rich_test()
    (floats,) = _round_trip(tmp_path / "f", [_float_test()])
    (rich,) = _round_trip(tmp_path / "r", [original])

    first = floats.feeds[0].inputs[0]
    assert first.dtype == np.dtype("<f4") and first.shape == (2, 4)
    assert first.view("<u4").tolist() == ODD_FLOATS.view("<u4").tolist()

    half = rich.feeds[0].inputs[0]
    assert half.dtype == np.dtype("<f2")
    assert half.tobytes() == original.feeds[0].inputs[0].tobytes()
    assert rich.feeds[0].inputs[1].shape == (0,)
    assert rich.model.operand_values == b"\x01\xfe\x7f\x80"
    assert isinstance(rich.model.operand_values, bytes)

    quant = rich.model.operands[2]
    assert _bits(quant.scale) == _bits(-0.0)
    scales = rich.model.operands[1].extra_params.scales
    assert [_bits(s) for s in scales] == [_bits(s) for s in (0.5, 5e-324, -0.0, 1 / 3)]
    assert rich.model.operands[4].type == 0x10002
    assert rich.model.operations[1].type == 0x10001
    assert rich.version is None and rich.multinomial_tolerance == 0.1
    assert rich.ignored_outputs == frozenset({0, 1})


def test_arrays_are_read_only(tmp_path: Path) -> None:
    (test,) = _round_trip(tmp_path, [_float_test()])
    with pytest.raises(ValueError):
        test.feeds[0].inputs[0][0, 0] = 1.0


def test_nothing_is_decoded_at_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emitted = emit_module(SPEC, [_float_test()])
    path = tmp_path / "lazy.py"
    path.write_text(emitted.text, encoding="utf-8")
    decoded: list[str] = []
    real = loader.blob
    monkeypatch.setattr(loader, "blob", lambda data: decoded.append(data) or real(data))
    module = _import_file(path, "_emitted_lazy")
    assert decoded == []
    module.TESTS[0][1]()
    assert decoded


def test_large_tensors_are_one_string(tmp_path: Path) -> None:
    test = _float_test()
    big = np.arange(250_000, dtype="<f4").reshape(500, 500)
    test.feeds = [Feed([big, big], [big])]
    emitted = emit_module(SPEC, [test])
    # base64 of 1 MB, written once (shared by the three arrays), not a literal list
    assert 1_333_000 < len(emitted.text) < 1_340_000
    assert emitted.text.count("_D0") == 4
    (rebuilt,) = _round_trip(tmp_path, [test])
    assert rebuilt == test


def test_module_imports_only_hal_and_the_loader() -> None:
    text = emit_module(SPEC, [_float_test(), _rich_test()]).text
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported == {"conformance.harness", "hal.types"}
    assert "g.operation(OperationType.CONV_2D, [0, 1, 2, 3], [6])," in text
    assert "g.operation(0x10001, [4], [5])," in text
    assert text.splitlines()[0] == f"# Generated by nnhal-generate from {SPEC}. Do not edit."


def test_shared_data_is_written_once() -> None:
    first, second = _float_test("a"), _float_test("b")
    text = emit_module(SPEC, [first, second]).text
    constants = [line for line in text.splitlines() if line.startswith("_D")]
    odd = '"' + base64.b64encode(ODD_FLOATS.tobytes()).decode() + '"'
    assert f"_D0 = {odd}" in constants
    assert text.count(odd) == 1
    # the 4-byte activation constant is shorter than a name is worth
    assert text.count('values="AAAAAA=="') == 2


# ---------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------


def test_emitting_twice_gives_identical_text(tmp_path: Path) -> None:
    first = emit_module(SPEC, [_float_test(), _rich_test()])
    second = emit_module(SPEC, [_float_test(), _rich_test()])
    assert first == second
    assert str(tmp_path) not in first.text and os.getcwd() not in first.text


def test_sets_are_written_sorted() -> None:
    one, other = _rich_test(), _rich_test()
    one.ignored_outputs = frozenset([3, 1, 2, 0])
    other.ignored_outputs = frozenset([0, 2, 1, 3])
    assert emit_module(SPEC, [one]).text == emit_module(SPEC, [other]).text
    assert "ignored_outputs=(0, 1, 2, 3)," in emit_module(SPEC, [one]).text


def test_index_is_sorted_whatever_the_order_given() -> None:
    forward = emit_index({"V1_0.add": ["b", "a"], "V1_2.conv": ["z"]})
    backward = emit_index({"V1_2.conv": ["z"], "V1_0.add": ["a", "b"]})
    assert forward == backward
    namespace: dict = {}
    exec(forward.text, namespace)
    assert namespace["MODULES"] == (("V1_0.add", ("a", "b")), ("V1_2.conv", ("z",)))


def test_module_path() -> None:
    assert str(module_path("conformance/specs/V1_1/conv2d.v2.mod.py")) == "V1_1/conv2d.py"
    with pytest.raises(EmitError, match="V1_0, V1_1, V1_2"):
        module_path("conformance/specs/oracles/x.mod.py")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.model.pools.append(Memory("ashmem", None, 4)), "memory pools"),
        (lambda t: setattr(t, "hal_folder", "V1_0"), "hal_folder 'V1_0'"),
        (lambda t: setattr(t, "version", 12), "version 12 is not a string"),
        (lambda t: setattr(t.feeds[0], "inputs", [np.array(["x"])]), "dtype <U1"),
    ],
)
def test_unwritable_tests_are_named(change, message: str) -> None:
    test = _float_test()
    change(test)
    with pytest.raises(EmitError, match=re.escape(message)) as info:
        emit_module(SPEC, [test])
    assert str(info.value).startswith(f"{SPEC}: ")


def test_duplicate_names_are_refused() -> None:
    with pytest.raises(EmitError, match="two tests are named 'sample'"):
        emit_module(SPEC, [_float_test(), _float_test()])


# ---------------------------------------------------------------------------
# The loader
# ---------------------------------------------------------------------------


def test_loader_reads_index_and_tests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = f"gen_{tmp_path.name.replace('-', '_')}"
    tests = [_float_test("b_second"), _float_test("a_first")]
    files = [
        *emit_packages(),
        emit_module(SPEC, tests),
        emit_index({"V1_2.sample": ["b_second", "a_first"]}),
    ]
    for emitted in files:
        path = tmp_path / package / emitted.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(emitted.text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))

    assert loader.load_index(package) == [(f"{package}.V1_2.sample", ("a_first", "b_second"))]
    assert loader.load_tests(f"{package}.V1_2.sample") == tests
    assert loader.load_test(f"{package}.V1_2.sample", "a_first") == tests[1]
    with pytest.raises(LookupError, match="no generated test named 'nope'"):
        loader.load_test(f"{package}.V1_2.sample", "nope")
    assert loader.load_index(f"{package}_absent") == []


# ---------------------------------------------------------------------------
# The command, with a stub spec interpreter
# ---------------------------------------------------------------------------


class StubSpecError(Exception):
    pass


def _stub_evaluate(path: Path, root: Path) -> list[GeneratedTest]:
    """Runs the "spec" (Python setting COUNT, VALUE and maybe ERROR) and makes COUNT tests."""
    relpath = path.relative_to(root).as_posix()
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    if "ERROR" in namespace:
        raise StubSpecError(f"{relpath}:{namespace['ERROR']}: Example() given no model")
    base = path.name.split(".")[0]
    data = np.full((2, 2), namespace.get("VALUE", 1.0), "<f4")
    return [
        GeneratedTest(
            name=base if n == 0 else f"{base}_{n + 1}",
            dynamic_name=f"{base}_dynamic_output_shape" + ("" if n == 0 else f"_{n + 1}"),
            hal_folder=path.parent.name,
            model=binary_model(),
            feeds=[Feed([data, data], [data * 2])],
            version=path.parent.name,
            provenance=Provenance(relpath, 1, ("",), ("ADD",)),
        )
        for n in range(namespace.get("COUNT", 1))
    ]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    _spec_file(tmp_path, "V1_0/add.mod.py", "COUNT = 2\n")
    _spec_file(tmp_path, "V1_2/mul.mod.py", "COUNT = 1\n")
    (tmp_path / "conformance/specs/oracles").mkdir()
    (tmp_path / "conformance/specs/oracles/helper.mod.py").write_text("ERROR = 1\n")
    monkeypatch.setattr(build, "spec_interpreter", lambda: (_stub_evaluate, StubSpecError))
    return tmp_path


def _spec_file(root: Path, name: str, text: str) -> Path:
    path = root / "conformance/specs" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _run(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(["--root", str(root), *args])
    out, err = capsys.readouterr()
    return status, out, err


GEN = "conformance/generated"


def test_full_run_writes_tree_and_reports(repo: Path, capsys) -> None:
    status, out, err = _run(repo, capsys)
    assert status == 0
    assert out == "generated 3 tests from 2 specs (2 written, 0 unchanged)\n"
    assert err == "[1/2] V1_0/add.mod.py: 2 tests\n[2/2] V1_2/mul.mod.py: 1 test\n"
    written = sorted(p.relative_to(repo / GEN).as_posix() for p in (repo / GEN).rglob("*.py"))
    assert written == [
        "V1_0/__init__.py",
        "V1_0/add.py",
        "V1_1/__init__.py",
        "V1_2/__init__.py",
        "V1_2/mul.py",
        "V1_3/__init__.py",
        "__init__.py",
        "index.py",
    ]
    assert build.read_index(repo / GEN) == {"V1_0.add": ("add", "add_2"), "V1_2.mul": ("mul",)}
    module = _import_file(repo / GEN / "V1_0/add.py", "_cli_add")
    assert [build() for _, build in module.TESTS] == _stub_evaluate(
        repo / "conformance/specs/V1_0/add.mod.py", repo
    )

    inode = (repo / GEN / "V1_0/add.py").stat().st_ino
    status, out, _ = _run(repo, capsys)
    assert (status, out) == (0, "generated 3 tests from 2 specs (0 written, 2 unchanged)\n")
    assert (repo / GEN / "V1_0/add.py").stat().st_ino == inode


def test_check_up_to_date(repo: Path, capsys) -> None:
    _run(repo, capsys)
    assert _run(repo, capsys, "--check") == (
        0,
        "generated modules are up to date (2 specs)\n",
        "",
    )


def test_check_names_stale_missing_and_orphaned(repo: Path, capsys) -> None:
    _run(repo, capsys)
    _spec_file(repo, "V1_0/add.mod.py", "COUNT = 2\nVALUE = 3.0\n")  # same names, new data
    (repo / "conformance/specs/V1_2/mul.mod.py").unlink()
    _spec_file(repo, "V1_1/sub.mod.py", "COUNT = 1\n")
    status, out, err = _run(repo, capsys, "--check")
    assert status == 1
    assert out.splitlines() == [
        f"stale: {GEN}/V1_0/add.py",
        f"missing: {GEN}/V1_1/sub.py",
        f"stale: {GEN}/index.py",
        f"orphaned: {GEN}/V1_2/mul.py",
    ]
    assert err == "4 generated files out of date: run nnhal-generate\n"
    # --check wrote nothing
    assert not (repo / GEN / "V1_1/sub.py").exists()


def test_check_missing_tree(repo: Path, capsys) -> None:
    status, out, _ = _run(repo, capsys, "--check")
    assert status == 1
    assert f"missing: {GEN}/V1_0/add.py" in out.splitlines()
    assert f"missing: {GEN}/index.py" in out.splitlines()


def test_full_run_removes_only_generated_orphans(repo: Path, capsys) -> None:
    _run(repo, capsys)
    (repo / "conformance/specs/V1_2/mul.mod.py").unlink()
    (repo / GEN / "V1_2/handmade.py").write_text("x = 1\n")
    status, out, err = _run(repo, capsys)
    assert status == 0
    assert not (repo / GEN / "V1_2/mul.py").exists()
    assert (repo / GEN / "V1_2/handmade.py").exists()
    assert f"removed: {GEN}/V1_2/mul.py" in err.splitlines()
    assert f"not removing {GEN}/V1_2/handmade.py: not written by nnhal-generate" in err.splitlines()
    assert build.read_index(repo / GEN) == {"V1_0.add": ("add", "add_2")}
    assert out == "generated 2 tests from 1 spec (0 written, 1 unchanged)\n"


def test_named_spec_run(repo: Path, capsys) -> None:
    _run(repo, capsys)
    spec = _spec_file(repo, "V1_2/mul.mod.py", "COUNT = 2\n")
    (repo / "conformance/specs/V1_0/add.mod.py").unlink()  # not named: left alone
    status, out, err = _run(repo, capsys, str(spec))
    assert (status, err) == (0, "")  # no progress on a partial run
    assert out == "generated 2 tests from 1 spec (1 written, 0 unchanged)\n"
    assert (repo / GEN / "V1_0/add.py").exists()
    assert build.read_index(repo / GEN) == {
        "V1_0.add": ("add", "add_2"),
        "V1_2.mul": ("mul", "mul_2"),
    }
    assert _run(repo, capsys, "--check", str(spec))[:2] == (
        0,
        "generated modules are up to date (1 spec)\n",
    )


def test_failing_specs_do_not_stop_the_others(repo: Path, capsys) -> None:
    _run(repo, capsys)
    _spec_file(repo, "V1_0/add.mod.py", "COUNT = 1\nERROR = 3\n")
    _spec_file(repo, "V1_1/crash.mod.py", "COUNT = 1\nx = 1 / 0\n")
    _spec_file(repo, "V1_2/new.mod.py", "COUNT = 1\n")
    status, out, err = _run(repo, capsys)
    assert status == 1
    assert err.splitlines() == [
        "conformance/specs/V1_0/add.mod.py:3: Example() given no model",
        "conformance/specs/V1_1/crash.mod.py:2: ZeroDivisionError: division by zero",
        "[3/4] V1_2/mul.mod.py: 1 test",
        "[4/4] V1_2/new.mod.py: 1 test",
        "2 specs failed",
    ]
    assert out == "generated 2 tests from 2 specs (1 written, 1 unchanged)\n"
    # the failed spec's module and index entries stay as they were
    assert (repo / GEN / "V1_0/add.py").exists()
    assert build.read_index(repo / GEN)["V1_0.add"] == ("add", "add_2")
    assert "V1_2.new" in build.read_index(repo / GEN)

    status, out, err = _run(repo, capsys, "--check")
    assert status == 1 and out == ""
    assert "Traceback" not in err and err.splitlines()[-1] == "2 specs failed"


def test_list(repo: Path, capsys) -> None:
    status, out, err = _run(repo, capsys, "--list")
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "V1_0/add/add",
        "  (dynamic twin: add_dynamic_output_shape, built by the harness)",
        "V1_0/add/add_2",
        "  (dynamic twin: add_dynamic_output_shape_2, built by the harness)",
        "V1_2/mul/mul",
        "  (dynamic twin: mul_dynamic_output_shape, built by the harness)",
    ]
    assert not (repo / GEN).exists()


def test_coverage(repo: Path, capsys) -> None:
    status, out, _ = _run(repo, capsys, "--coverage")
    lines = out.splitlines()
    assert status == 0
    # every signature of the catalog, and a row each for IF and WHILE
    assert len(lines) == len(coverage_triples()) + 2 + 1
    assert lines[0] == "ADD TENSOR_FLOAT32 1.0 covered"
    assert "ADD TENSOR_QUANT8_ASYMM 1.0 missing" in lines
    assert "ADD TENSOR_FLOAT16 1.2 missing" in lines
    assert "IF subgraphs 1.3 missing" in lines and "WHILE subgraphs 1.3 missing" in lines
    assert lines[-1] == f"coverage: 1/{len(coverage_triples()) + 2} signatures"


def test_coverage_with_a_failing_spec(repo: Path, capsys) -> None:
    _spec_file(repo, "V1_2/bad.mod.py", "ERROR = 9\n")
    status, out, err = _run(repo, capsys, "--coverage")
    assert status == 1
    assert out.splitlines()[-1].startswith("coverage: 1/")
    assert err == "conformance/specs/V1_2/bad.mod.py:9: Example() given no model\n1 spec failed\n"


def test_usage_errors(repo: Path, capsys) -> None:
    status, _, err = _run(repo, capsys, str(repo / "conformance/specs/oracles/helper.mod.py"))
    assert status == 2 and "must sit in one of V1_0, V1_1, V1_2" in err
    status, _, err = _run(repo, capsys, str(repo / "conformance/specs/V1_0/absent.mod.py"))
    assert status == 2 and "no such spec file" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_rewrites_one_line(repo: Path) -> None:
    stream = _Terminal()
    progress = build.Progress(2, True, stream)
    specs = build.discover_specs(repo / "conformance/specs", repo)
    progress.start(1, specs[0])
    progress.step(1, build.Outcome(specs[0], tests=[_float_test()]))
    progress.start(2, specs[1])
    progress.step(2, build.Outcome(specs[1], error="spec.mod.py:1: broken"))
    progress.finish()
    assert stream.getvalue() == (
        "\r\x1b[K[1/2] V1_0/add.mod.py ..."
        "\r\x1b[K[1/2] V1_0/add.mod.py: 1 test"
        "\r\x1b[K[2/2] V1_2/mul.mod.py ..."
        "\r\x1b[Kspec.mod.py:1: broken\n"
    )


def test_console_script_is_declared() -> None:
    text = (Path(cli.__file__).parents[1] / "pyproject.toml").read_text()
    assert 'nnhal-generate = "generator.__main__:main"' in text


def test_python_dash_m_shows_usage() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "generator", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("usage: nnhal-generate [-h] [--out OUT]")


# ---------------------------------------------------------------------------
# The real spec corpus, through the real interpreter
# ---------------------------------------------------------------------------


def test_corpus_round_trips_and_checks(capsys) -> None:
    """The checkout's generated modules are what its specs generate (``--check``), and each
    module's tests are what the interpreter makes of its spec."""
    from generator.expand import evaluate_spec

    root = build.find_root()
    out = root / "conformance" / "generated"
    assert cli.main(["--check"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("generated modules are up to date")
    specs = build.discover_specs(root / "conformance" / "specs", root)
    for number, spec in enumerate(specs):
        module = _import_file(out / spec.module, f"_corpus_{number}")
        assert [build() for _, build in module.TESTS] == evaluate_spec(spec.path, root)


# ---------------------------------------------------------------------------
# An installed suite (a wheel): no checkout around it
# ---------------------------------------------------------------------------


def _as_installed(monkeypatch, folder: Path) -> Path:
    """Run as from a wheel in an empty ``folder``: no pyproject.toml near the package or cwd."""
    site = folder / "site-packages"
    monkeypatch.setattr(build, "__file__", str(site / "generator" / "build.py"))
    monkeypatch.chdir(folder)
    return build.installed_root()


def test_installed_generate_writes_to_the_folder_named(tmp_path: Path, monkeypatch) -> None:
    root = _as_installed(monkeypatch, tmp_path)
    spec = root / "conformance" / "specs" / "V1_0" / "add.mod.py"
    assert cli.main(["--out", "mine", str(spec)]) == 0
    assert (tmp_path / "mine" / "V1_0" / "add.py").is_file()
    assert cli.main(["--list", str(spec)]) == 0


def test_installed_generate_without_out_is_a_usage_error(tmp_path: Path, monkeypatch, capsys):
    _as_installed(monkeypatch, tmp_path)
    assert cli.main([]) == 2
    assert capsys.readouterr().err == (
        "nnhal-generate: no checkout here (no pyproject.toml in this folder or above) to "
        "regenerate in place: name a folder for the generated modules with --out DIR\n"
    )


# ---------------------------------------------------------------------------
# Known vendor extensions: the module carries names, the loader the prefixes
# ---------------------------------------------------------------------------


def _demo_test() -> GeneratedTest:
    q16 = 0x10001  # the harness's prefix 1 for org.nnhal_conformance.demo; TENSOR_Q16 is 1
    return GeneratedTest(
        name="demo",
        dynamic_name="demo_dynamic_output_shape",
        hal_folder="V1_2",
        model=Model(
            operands=[
                Operand(q16, [2], 1, lifetime=OperandLifeTime.MODEL_INPUT),
                Operand(q16, [2], 1, lifetime=OperandLifeTime.MODEL_INPUT),
                Operand(q16, [2], 0, lifetime=OperandLifeTime.MODEL_OUTPUT),
            ],
            operations=[Operation(0x10001, [0, 1], [2])],  # SATURATING_ADD is operation 1
            input_indexes=[0, 1],
            output_indexes=[2],
            extension_name_to_prefix=[ExtensionNameAndPrefix("org.nnhal_conformance.demo", 1)],
        ),
        feeds=[Feed([np.array([1, 2], "<i2"), np.array([3, 4], "<i2")], [np.array([4, 6], "<i2")])],
        version="V1_2",
        provenance=Provenance(SPEC, 5, (), ("org.nnhal_conformance.demo:SATURATING_ADD",)),
    )


def test_known_extensions_are_written_by_name(tmp_path: Path) -> None:
    text = emit_module(SPEC, [_demo_test()]).text
    assert 'g.extension_type("org.nnhal_conformance.demo:TENSOR_Q16")' in text
    assert 'g.extension_operation("org.nnhal_conformance.demo:SATURATING_ADD")' in text
    assert 'extensions=g.extension_prefixes("org.nnhal_conformance.demo")' in text
    assert "0x10001" not in text and "65537" not in text  # no fixed prefix
    assert _round_trip(tmp_path, [_demo_test()]) == [_demo_test()]


def test_the_parameter_report_leaves_nothing_in_the_folder_it_runs_from(tmp_path: Path) -> None:
    generate = Path(sys.executable).with_name("nnhal-generate")
    run = subprocess.run(
        [str(generate), "--parameters", "--draws", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "parameters: of " in run.stdout
    assert list(tmp_path.iterdir()) == []  # no .hypothesis/ folder, nothing else


def test_a_run_reads_the_recorded_lowest_level_of_a_generated_model_only(monkeypatch) -> None:
    """``lowest_version`` takes the level the generated module recorded for its own model
    without validating it, and validates a copy of the case that carries another model
    (a broken copy, a twin): the record is bound to the model object, not to the case."""
    from conformance.harness import generated
    from conformance.harness.mutations import copy_model

    test = next(t for t in generated.corpus() if t.test_id == "V1_2/add_v1_2/add_v1_2")
    copy = dataclasses.replace(
        test, name="add_v1_2_copied_by_the_test", model=copy_model(test.model)
    )
    asked = []
    real = generated.minimum_version
    monkeypatch.setattr(
        generated, "minimum_version", lambda model: asked.append(model) or real(model)
    )
    monkeypatch.setattr(generated, "_LOWEST", {})
    assert generated.lowest_version(test) == HalVersion.V1_0
    assert asked == []
    assert generated.lowest_version(copy) == HalVersion.V1_0
    assert asked == [copy.model]
