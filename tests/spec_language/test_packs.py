"""Vendor test packs (``--nnhal-specs DIR``): a folder of specs run like the suite's own.

``generator.packs`` generates a pack into a cache keyed by its content; the
plugin (``plugins.packs``) adds its cases to the corpus, so they run on every
execution path and in the validation families, with ids prefixed by the pack's
name. These tests build packs in temporary folders and run pytest on them from
an empty folder, as a vendor with the harness installed would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from conformance.harness import generated
from conformance.harness.items import CaseId
from generator import packs
from generator.packs import PackError, build_pack, pack_name
from plugins.report.document import load

# MUL of [2] by [2], no activation: [1.5 * 2.0, -3.0 * 0.5] = [3.0, -1.5].
GOOD = """\
a = Input("a", "TENSOR_FLOAT32", "{2}")
b = Input("b", "TENSOR_FLOAT32", "{2}")
out = Output("out", "TENSOR_FLOAT32", "{2}")
Model().Operation("MUL", a, b, 0).To(out)
Example({a: [1.5, -3.0], b: [2.0, 0.5], out: [3.0, -1.5]})
"""
WRONG = GOOD.replace("[3.0, -1.5]", "[3.0, -2.5]")  # a golden the driver cannot match
BROKEN = """\
a = Input("a", "TENSOR_FLOAT32", "{2}")
out = Output("out", "TENSOR_FLOAT32", "{2}")
Model().Operation("NO_SUCH_OP", a).To(out)
Example({a: [1.0, 2.0], out: [1.0, 2.0]})
"""

# A spec as Android 10's test generator takes it: one model, three variation groups
# (data types, activation, the dynamic-output-shape twin the harness builds). ADD of
# [1, 2, 2, 1] and [1, 2, 2, 1], element by element:
#   a + b = [0.5 + 1.0, -1.0 + 0.5, 2.0 - 4.0, 3.5 + 0.0] = [1.5, -0.5, -2.0, 3.5]
# RELU: [1.5, 0.0, 0.0, 3.5].
# quant8 (scale 0.5, zero point 8 for all three): a -> [9, 6, 12, 15], b -> [10, 9, 0, 8],
# out -> [11, 7, 4, 15]; every value lands on the grid, so nothing rounds. RELU on the
# quantized output clamps at the zero point: [11, 8, 8, 15] (1.5, 0, 0, 3.5).
UPSTREAM = """\
model = Model()
i1 = Input("op1", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
i2 = Input("op2", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
act = Int32Scalar("act", 0)
o1 = Output("op3", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
model = model.Operation("ADD", i1, i2, act).To(o1)

quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 8),
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 8),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 8),
})
relu = ActivationConverter("relu").Identify([o1, act])

input0 = {
    i1: [0.5, -1.0, 2.0, 3.5],
    i2: [1.0, 0.5, -4.0, 0.0],
}
output0 = {o1: [1.5, -0.5, -2.0, 3.5]}

Example((input0, output0)).AddVariations("relaxed", "float16", quant8).AddVariations(relu)
"""


def _pack(folder: Path, **specs: str) -> Path:
    """A pack folder: each ``name=text`` is ``V1_x/name.mod.py`` (``name`` is
    ``V1_0__mul``: the folder, two underscores, the spec's name)."""
    for key, text in specs.items():
        hal, _, name = key.partition("__")
        path = folder / hal / f"{name}.mod.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


# ---------------------------------------------------------------------------
# Generation into the cache
# ---------------------------------------------------------------------------


def test_a_pack_is_generated_once_and_found_again(tmp_path, monkeypatch) -> None:
    folder = _pack(tmp_path / "Acme Pack", V1_0__mul=GOOD, V1_2__broken=BROKEN)
    pack = build_pack(folder, tmp_path / "cache")
    assert (pack.name, pack.specs) == ("acme_pack", 2)
    assert pack.errors == ("Acme Pack/V1_2/broken.mod.py:3: unknown operation 'NO_SUCH_OP'",)
    assert (pack.path / pack.package / "V1_0" / "mul.py").is_file()
    assert not (pack.path / pack.package / "V1_2" / "broken.py").exists()

    def no_generation(*args):
        raise AssertionError("generated again")

    monkeypatch.setattr(packs, "_generate", no_generation)
    assert build_pack(folder, tmp_path / "cache") == pack  # the same content: found


def test_a_changed_spec_makes_a_new_package(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_0__mul=GOOD)
    first = build_pack(folder, tmp_path / "cache")
    (folder / "V1_0" / "mul.mod.py").write_text(WRONG, encoding="utf-8")
    second = build_pack(folder, tmp_path / "cache")
    assert first.package != second.package and second.errors == ()


def test_pack_names_come_from_the_folder() -> None:
    assert pack_name(Path("/x/My-Pack v2")) == "my-pack_v2"
    assert pack_name(Path("/x/___")) == "pack"


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("missing", "--nnhal-specs {folder}: no such folder"),
        (
            "empty",
            "--nnhal-specs {folder}: no spec files (*.mod.py) in its V1_0, V1_1, V1_2, V1_3 folders",
        ),
    ],
)
def test_a_folder_that_is_no_pack_is_refused_in_one_line(tmp_path, layout, message) -> None:
    folder = tmp_path / "acme"
    if layout == "empty":
        (folder / "V1_2").mkdir(parents=True)
        (folder / "V1_2" / "notes.txt").write_text("not a spec")
    with pytest.raises(PackError) as refused:
        build_pack(folder, tmp_path / "cache")
    assert str(refused.value) == message.format(folder=folder.resolve())


def test_an_unwritable_cache_says_how_to_move_it(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_0__mul=GOOD)
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder would be")
    with pytest.raises(PackError) as refused:
        build_pack(folder, blocker)
    assert str(refused.value).startswith(
        f"--nnhal-specs {folder.resolve()}: cannot write its generated modules under {blocker} ("
    )
    assert str(refused.value).endswith("); set NNHAL_CACHE_DIR to a writable folder")


SPINS = "while True:\n    pass\n"
EXITS = "import os\nprint('about to leave')\nos._exit(7)\n"


def test_a_spec_that_never_returns_stops_the_pack_in_one_line(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_0__mul=GOOD, V1_2__spin=SPINS)
    started = time.monotonic()
    with pytest.raises(PackError) as refused:
        build_pack(folder, tmp_path / "cache", timeout=3)
    assert time.monotonic() - started < 60
    assert str(refused.value) == (
        f"--nnhal-specs {folder.resolve()}: generating the pack took longer than 3 s, stopped "
        "while evaluating acme/V1_2/spin.mod.py (a spec that never returns?); "
        "--nnhal-specs-timeout sets the limit"
    )
    assert not list((tmp_path / "cache").glob("nnhal_pack_*"))  # nothing half made is kept


def test_a_spec_that_ends_the_generating_process_is_named(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_2__exits=EXITS)
    with pytest.raises(PackError) as refused:
        build_pack(folder, tmp_path / "cache")
    assert str(refused.value) == (
        f"--nnhal-specs {folder.resolve()}: the process generating the pack ended with status 7 "
        "while evaluating acme/V1_2/exits.mod.py: about to leave"
    )


def test_the_pack_timeout_is_an_option(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_2__spin=SPINS)
    base = ("--pyargs", "conformance.test_basic", f"--nnhal-specs={folder}")
    result = _pytest(tmp_path, tmp_path / "cache", *base, "--nnhal-specs-timeout=2")
    assert result.returncode == 4
    assert [line for line in result.stderr.splitlines() if line.startswith("ERROR")] == [
        f"ERROR: --nnhal-specs {folder}: generating the pack took longer than 2 s, stopped "
        "while evaluating acme/V1_2/spin.mod.py (a spec that never returns?); "
        "--nnhal-specs-timeout sets the limit"
    ]
    result = _pytest(tmp_path, tmp_path / "cache", *base, "--nnhal-specs-timeout=0")
    assert result.returncode == 4
    assert "ERROR: --nnhal-specs-timeout=0: must be a positive number of seconds" in result.stderr


def test_pack_cases_are_marked_and_keep_apart_from_the_suites_own(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_0__add=GOOD)  # named like a spec of the suite
    pack = build_pack(folder, tmp_path / "cache")
    before = len(generated.corpus())
    generated.add_pack(pack.name, pack.package, str(pack.path))
    try:
        mine = [t for t in generated.corpus() if t.pack]
        assert len(generated.corpus()) == before + len(mine)
        # the one-operation case and Android 11's lifetime variation of it (its inputs
        # written by an ADD), a 1.3 case whatever its folder
        assert [t.test_id for t in mine] == [
            "acme:V1_0/add/add",
            "acme:V1_0/add/add_all_inputs_as_internal",
        ]
        assert [t.level for t in mine] == ["", "V1_3"]
        assert str(CaseId.of(mine[0], 0, "sync")) == "acme:V1_0/add/base/ex0/sync"
        assert CaseId.parse("acme:V1_0/add/base/ex0/sync") == CaseId.of(mine[0], 0, "sync")
    finally:
        generated.remove_packs()
    assert len(generated.corpus()) == before


# ---------------------------------------------------------------------------
# Runs, as a vendor makes them
# ---------------------------------------------------------------------------


def _pytest(where: Path, cache: Path, *args: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, NNHAL_CACHE_DIR=str(cache))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
        cwd=where,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_pack_runs_on_every_path_and_a_broken_spec_does_not_stop_it(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_0__mul=GOOD, V1_2__broken=BROKEN)
    work = tmp_path / "work"
    work.mkdir()
    result = _pytest(
        work,
        tmp_path / "cache",
        "--pyargs",
        "conformance.test_generated",
        "--nnhal-specs",
        "../acme",
        "-k",
        "acme:",
        "-v",
        "--cert-report=out",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert (
        f"vendor pack acme: {folder} (2 specs, 1 failed (below); generated into "
        f"{tmp_path / 'cache'}/{build_pack(folder, tmp_path / 'cache').package})"
    ) in lines
    assert "  spec error: acme/V1_2/broken.mod.py:3: unknown operation 'NO_SUCH_OP'" in lines
    ran = re.findall(r"test_generated\[(\S+)\] PASSED", result.stdout)
    runs = {item.rsplit("/", 1)[1] for item in ran}
    # the case and Android 11's lifetime variation of it (a 1.3 case, the driver a 1.3 one)
    cases = ("acme:V1_0/mul/base/ex0/", "acme:V1_0/mul/all_inputs_as_internal/ex0/")
    assert all(item.startswith(cases) for item in ran)
    assert {item.split("/")[2] for item in ran} == {"base", "all_inputs_as_internal"}
    assert {"sync", "async", "burst", "sync-dyn", "scattered"} <= runs, runs
    prepared = re.findall(r"test_generated_prepare\[(acme:\S+)\] PASSED", result.stdout)
    # (and the fresh-input check: the pack's case on inputs drawn for the run)
    fresh = re.findall(r"test_generated_fresh\[(acme:\S+)\] PASSED", result.stdout)
    assert sorted(fresh) == [f"{case}fresh" for case in sorted(cases)]
    # (and, the reference being a 1.3 driver, the runs in blob and device memory)
    memory = re.findall(r"test_generated_memory\[(acme:\S+)\] PASSED", result.stdout)
    assert {item.rsplit("/", 1)[1] for item in memory} == {
        f"{where}-{path}"
        for where in ("blob", "device")
        for path in ("async13", "sync13", "fenced")
    }
    passed = len(re.findall(r"PASSED", result.stdout))
    assert prepared and passed == len(ran) + len(prepared) + len(fresh) + len(memory)
    assert {"sync13", "async13", "fenced"} <= runs
    doc = load(work / "out" / "report.json")
    assert doc["run"]["packs"] == [
        {
            "name": "acme",
            "folder": str(folder),
            "specs": 2,
            "spec_errors": ["acme/V1_2/broken.mod.py:3: unknown operation 'NO_SUCH_OP'"],
            "extensions": [],
        }
    ]
    assert (
        f"vendor pack acme ({folder}): {passed} tests, "
        "counted like the "
        "suite's own; 1 of "
        "its 2 specs failed to generate: acme/V1_2/broken.mod.py:3: unknown operation "
        "'NO_SUCH_OP'"
    ) in doc["verdict"]["notes"]


def test_a_pack_case_that_fails_says_how_to_rerun_it_with_its_pack(tmp_path) -> None:
    folder = _pack(tmp_path / "acme", V1_0__mul=WRONG)
    result = _pytest(
        tmp_path,
        tmp_path / "cache",
        "--pyargs",
        "conformance.test_generated",
        f"--nnhal-specs={folder}",
        "-k",
        "acme: and base/ex0/sync and not sync13 and not timed and not dyn",
    )
    assert result.returncode == 1, result.stdout + result.stderr
    # (with CI set, pytest's short summary repeats each message whole: the same line twice)
    reruns = sorted({line for line in result.stdout.splitlines() if line.startswith("rerun: ")})
    seed = re.search(r"^nnhal profile: full \(seed (\d+):", result.stdout, re.M).group(1)
    assert reruns == [
        "rerun: pytest --pyargs "
        "'conformance.test_generated::test_generated[acme:V1_0/mul/base/ex0/sync]' "
        f"--nnhal-profile=full --nnhal-seed={seed} --nnhal-specs={folder}"
    ]
    again = _pytest(tmp_path, tmp_path / "cache", *shlex_split(reruns[0])[1:], "-v")
    assert again.returncode == 1
    assert re.findall(r"(\S+::\S+) FAILED", again.stdout) == [
        "conformance/test_generated.py::test_generated[acme:V1_0/mul/base/ex0/sync]"
    ]


def shlex_split(line: str) -> list[str]:
    import shlex

    return shlex.split(line.removeprefix("rerun: "))


def test_an_upstream_style_spec_runs_as_a_pack_in_every_part_of_the_suite(tmp_path) -> None:
    _pack(tmp_path / "vendor", V1_2__add_variations=UPSTREAM)
    result = _pytest(
        tmp_path,
        tmp_path / "cache",
        "--pyargs",
        "conformance",
        "--nnhal-specs=vendor",
        "--nnhal-profile=ci",
        "-k",
        "vendor:",
        "-q",
        "--cert-report=out",
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    doc = load(tmp_path / "out" / "report.json")
    ids = [t["id"] for t in doc["tests"]]
    assert all("vendor:V1_2/add_variations/" in i for i in ids)
    names = {re.split(r"[/\]]", i.split("vendor:V1_2/add_variations/", 1)[1])[0] for i in ids}
    # 4 data types (float32, relaxed, float16, quant8) x 2 activations (none, relu)
    assert names == {
        f"{kind}{relu}"
        for kind in ("base", "relaxed", "float16", "quant8")
        for relu in ("", "_relu")
    } - {"base_relu"} | {"relu"}, sorted(names)
    modules = {i.split("::", 1)[0] for i in ids}
    assert {
        "conformance.test_generated",
        "conformance.test_validate_model",
        "conformance.test_validate_request",
        "conformance.test_burst",
        "conformance.test_memory_pools",
    } <= modules, modules
    assert any(f"vendor pack vendor ({tmp_path / 'vendor'}): {len(ids)} tests" in note
               for note in doc["verdict"]["notes"])  # fmt: skip


def test_two_packs_of_one_name_are_refused(tmp_path) -> None:
    first = _pack(tmp_path / "a" / "acme", V1_0__mul=GOOD)
    second = _pack(tmp_path / "b" / "acme", V1_0__mul=GOOD)
    result = _pytest(
        tmp_path,
        tmp_path / "cache",
        "--pyargs",
        "conformance.test_basic",
        f"--nnhal-specs={first}",
        f"--nnhal-specs={second}",
    )
    assert result.returncode == 4
    assert (
        f"ERROR: --nnhal-specs {first} and {second} are both named 'acme': a pack is named "
        "after its folder; rename one"
    ) in result.stderr


def test_a_missing_pack_folder_stops_the_run_in_one_line(tmp_path) -> None:
    result = _pytest(tmp_path, tmp_path / "cache", "--pyargs", "conformance", "--nnhal-specs=nope")
    assert result.returncode == 4
    assert f"ERROR: --nnhal-specs {tmp_path / 'nope'}: no such folder" in result.stderr


def test_certify_passes_packs_to_its_test_processes(tmp_path) -> None:
    from plugins.report.certify import _parser, pytest_command

    args, extra = _parser().parse_known_args(
        ["--driver", "reference", "--nnhal-specs", "rel/acme", "--nnhal-specs", str(tmp_path)]
    )
    command = pytest_command(args, extra, out=tmp_path / "out")
    assert [w for w in command if w.startswith("--nnhal-specs")] == [
        f"--nnhal-specs={Path('rel/acme').resolve()}",
        f"--nnhal-specs={tmp_path}",
    ]


def test_the_report_schema_accepts_packs() -> None:
    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "plugins" / "report" / "schema.json").read_text()
    )
    entry = schema["properties"]["run"]["properties"]["packs"]["items"]
    assert entry["required"] == ["name", "folder", "specs", "spec_errors"]


# ---------------------------------------------------------------------------
# A pack's own vendor extension (extensions.json)
# ---------------------------------------------------------------------------

VISION = {
    "extensions": [
        {
            "name": "com.acme.vision",
            "operand_types": [
                {"name": "TENSOR_I8X", "type_within": 1, "dtype": "|i1", "is_tensor": True,
                 "byte_size": 1, "description": "signed 8-bit integers"},
            ],
            "operations": [{"name": "NEGATE", "type_within": 1, "description": "out = -a"}],
        }
    ]
}  # fmt: skip
# The vendor's NEGATE on int8 values: [1, -2, 3] -> [-1, 2, -3].
NEGATE = """\
X = "com.acme.vision:TENSOR_I8X"
a = Input("a", X, "{3}")
out = Output("out", X, "{3}")
Model().Operation("com.acme.vision:NEGATE", a).To(out)
Example({a: [1, -2, 3], out: [-1, 2, -3]})
"""


def _vision_pack(folder: Path, table: object = VISION) -> Path:
    _pack(folder, V1_2__negate=NEGATE)
    text = table if isinstance(table, str) else json.dumps(table)
    (folder / "extensions.json").write_text(text, encoding="utf-8")
    return folder


def test_a_pack_brings_its_own_extension_for_its_specs(tmp_path) -> None:
    from hal import extensions

    folder = _vision_pack(tmp_path / "acme")
    try:
        pack = build_pack(folder, tmp_path / "cache")
        assert (pack.extensions, pack.errors) == (("com.acme.vision",), ())
        definition = extensions.find("com.acme.vision")
        assert definition.operand_type("TENSOR_I8X").numpy_dtype == np.dtype("i1")
        generated.add_pack(pack.name, pack.package, str(pack.path))
        (case,) = [t for t in generated.corpus() if t.pack == "acme"]
        assert [e.name for e in case.model.extension_name_to_prefix] == ["com.acme.vision"]
        assert case.feeds[0].outputs[0].tolist() == [-1, 2, -3]
    finally:
        generated.remove_packs()
        extensions.unregister("com.acme.vision")
    assert extensions.find("com.acme.vision") is None
    assert extensions.find("org.nnhal_conformance.demo") is not None  # built in: stays


def test_nnhal_op_names_the_packs_own_extension_operation(tmp_path) -> None:
    folder = _vision_pack(tmp_path / "acme")
    result = _pytest(
        tmp_path,
        tmp_path / "cache",
        "--collect-only",
        "-q",
        "--nnhal-profile=ci",
        "--pyargs",
        "conformance.test_generated",
        f"--nnhal-specs={folder}",
        "--nnhal-op=com.acme.vision:NEGATE",
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert ids and all("[acme:V1_2/negate/" in i for i in ids), ids


def _table(**change: object) -> dict:
    entry = json.loads(json.dumps(VISION["extensions"][0]))
    for key, value in change.items():
        if key.startswith("type_"):
            entry["operand_types"][0][key.removeprefix("type_")] = value
        else:
            entry[key] = value
    return {"extensions": [entry]}


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ("{", "not readable JSON (Expecting property name enclosed in double quotes: line 1 "
         "column 2 (char 1))"),
        ({"extension": []}, 'the file must hold one object with the key "extensions"'),
        (_table(name="Acme"), "extensions[0].name: 'Acme' is not an extension name (lower case "
         "letters, digits and _, in at least two parts joined by '.', e.g. com.example.vision)"),
        (_table(name="org.nnhal_conformance.mine"), "extensions[0].name: "
         "org.nnhal_conformance.mine is in the namespace org.nnhal_conformance, which this "
         "project keeps for its own examples"),
        (_table(type_byte_size=2), "extensions[0].operand_types[0].byte_size: 2 is not the size "
         "of one |i1 element (1)"),
        (_table(type_dtype="<c8"), "extensions[0].operand_types[0].dtype: '<c8' is not one of "
         "|b1, |i1, |u1, <i2, <u2, <f2, <i4, <u4, <f4, <i8, <u8, <f8"),
        (_table(type_type_within=70000), "extensions[0].operand_types[0].type_within: 70000 is "
         "not an integer in [0, 65535]"),
        (_table(operations=[{"name": "NEGATE", "type_within": 1}, {"name": "ABS", "type_within": 1}]),
         "extensions[0]: two operations with type_within 1"),
        (_table(colour="red"), "extensions[0]: unknown key 'colour'"),
    ],
    ids=["json", "top", "name", "reserved", "size", "dtype", "within", "twice", "key"],
)  # fmt: skip
def test_a_wrong_extension_table_stops_the_pack_in_one_line(tmp_path, table, problem) -> None:
    folder = _vision_pack(tmp_path / "acme", table)
    with pytest.raises(PackError) as refused:
        build_pack(folder, tmp_path / "cache")
    assert str(refused.value) == f"--nnhal-specs {folder}: extensions.json: {problem}"


def test_a_driver_without_the_packs_extension_has_its_cases_skipped(tmp_path) -> None:
    folder = _vision_pack(tmp_path / "acme")
    result = _pytest(
        tmp_path,
        tmp_path / "cache",
        "--pyargs",
        "conformance.test_generated",
        "--nnhal-specs=acme",
        "-k",
        "acme: and ex0/sync",
        "-rs",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(
        r"vendor pack acme: .* \(1 specs; extensions com\.acme\.vision; ", result.stdout
    )
    skips = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skips and all(
        line.endswith("unsupported: the driver does not declare extension com.acme.vision")
        for line in skips
    ), skips
    assert str(folder) in result.stdout


# ---------------------------------------------------------------------------
# From a wheel, in an empty folder
# ---------------------------------------------------------------------------


def test_a_pack_runs_from_a_wheel_installed_harness(tmp_path) -> None:
    """The harness built as a wheel and installed in a folder of its own (ahead of this
    checkout on the path), run from an empty folder with a pack beside it."""
    root = Path(__file__).resolve().parents[2]
    source = tmp_path / "source"  # a copy: building writes build/ beside the sources
    for name in ("pyproject.toml", "README.md"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / name, source / name)
    for package in ("hal", "reference_driver", "generator", "conformance", "plugins", "isolation"):
        shutil.copytree(
            root / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheel"),
         str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
         str(wheel)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    _pack(tmp_path / "empty" / "acme", V1_0__mul=GOOD)
    environment = dict(os.environ, PYTHONPATH=str(site), NNHAL_CACHE_DIR=str(tmp_path / "cache"))
    probe = textwrap.dedent(
        """
        import conformance, generator.packs, plugins.packs
        print(conformance.__file__, generator.packs.__file__, plugins.packs.__file__)
        """
    )
    where = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path / "empty",
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert all(path.startswith(str(site)) for path in where.stdout.split()), where.stdout
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--pyargs", "conformance.test_generated", "--nnhal-specs=acme", "-k", "acme:",
         "--cert-report=out", "-q"],
        cwd=tmp_path / "empty", env=environment, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert load(tmp_path / "empty" / "out" / "report.json")["run"]["packs"][0]["name"] == "acme"
    assert not list((site / "conformance").rglob("nnhal_pack_*"))  # nothing written there
