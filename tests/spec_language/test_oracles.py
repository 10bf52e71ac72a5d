"""The golden values of the specs agree with the oracle scripts that computed them.

Each script of ``conformance/specs/oracles`` is run with ``--check`` (see
``speccheck.py`` there): it recomputes its values and compares them with every
spec that names it. A golden edited by hand in a spec fails its oracle's test.
"""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ORACLES = ROOT / "conformance" / "specs" / "oracles"
SCRIPTS = sorted(path.name for path in ORACLES.glob("*_oracle.py"))


def _run_check(script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ORACLES / script), "--check", *extra],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def _speccheck():
    spec = importlib.util.spec_from_file_location("speccheck", ORACLES / "speccheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_oracle_script_is_checked() -> None:
    assert len(SCRIPTS) == 20
    for script in SCRIPTS:
        text = (ORACLES / script).read_text(encoding="utf-8")
        assert "main_with_check(__file__," in text, script


@pytest.mark.parametrize("script", SCRIPTS)
def test_specs_agree_with_oracle(script: str) -> None:
    result = _run_check(script)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{script}: ")
    assert summary.endswith(" 0 problems")
    assert " 0 outputs checked" not in summary


def _copy_specs(tmp_path: Path) -> Path:
    specs = tmp_path / "conformance" / "specs"
    for folder in ("V1_0", "V1_1", "V1_2"):
        shutil.copytree(ROOT / "conformance" / "specs" / folder, specs / folder)
    return specs


def test_an_edited_golden_fails_its_oracle(tmp_path: Path) -> None:
    specs = _copy_specs(tmp_path)
    spec = specs / "V1_2" / "conv2d_v1_2.mod.py"
    text = spec.read_text(encoding="utf-8")
    golden = "o1: [4.0, 5.0, 5.5, 7.0, 8.5, 11.0, 10.0, 13.0]"
    assert text.count(golden) == 1
    spec.write_text(text.replace(golden, golden.replace("13.0", "13.5")), encoding="utf-8")

    result = _run_check("conv2d_oracle.py", "--specs", str(specs))

    assert result.returncode == 1
    assert (
        "MISMATCH V1_2/conv2d_v1_2.mod.py: example 0 case 0 output 'op4' "
        "[4, 5, 5.5, 7, 8.5, 11, 10, 13.5] is not what conv2d_oracle.py computes"
    ) in result.stdout
    assert result.stdout.strip().endswith("1 problems")
    # The untouched copy still passes: the failure is the edit, not the copy.
    assert _run_check("convolution_oracle.py", "--specs", str(specs)).returncode == 0


def test_an_edited_control_flow_golden_fails_its_oracle(tmp_path: Path) -> None:
    # The control-flow specs hold referenced subgraphs; their goldens are checked all the same.
    specs = tmp_path / "conformance" / "specs"
    (specs / "V1_3").mkdir(parents=True)
    for path in (ROOT / "conformance" / "specs" / "V1_3").glob("*.mod.py"):
        if "oracles/control_flow_oracle.py" in path.read_text(encoding="utf-8"):
            shutil.copy(path, specs / "V1_3" / path.name)
    spec = specs / "V1_3" / "while_sum_of_powers.mod.py"
    text = spec.read_text(encoding="utf-8")
    golden = '("n_4", [1.0, -1.0], [3.0, -2.0], 4, [31.0, -21.0]),'
    assert text.count(golden) == 1
    spec.write_text(text.replace(golden, golden.replace("-21.0]", "-20.0]")), encoding="utf-8")

    result = _run_check("control_flow_oracle.py", "--specs", str(specs))

    assert result.returncode == 1
    assert (
        "MISMATCH V1_3/while_sum_of_powers.mod.py: example 2 case 0 output 'acc' "
        "[31, -20] is not what control_flow_oracle.py computes"
    ) in result.stdout
    assert result.stdout.strip().endswith(" 2 hand-derived, 1 problems")


def test_a_spec_that_does_not_load_fails(tmp_path: Path) -> None:
    specs = _copy_specs(tmp_path)
    spec = specs / "V1_2" / "conv2d_v1_2.mod.py"
    spec.write_text(spec.read_text(encoding="utf-8") + "\nNoSuchThing()\n", encoding="utf-8")

    result = _run_check("conv2d_oracle.py", "--specs", str(specs))

    assert result.returncode == 1
    assert "MISMATCH V1_2/conv2d_v1_2.mod.py: does not load:" in result.stdout
    assert "NoSuchThing" in result.stdout


def test_no_citing_spec_and_stale_hand_derived_entries_fail(tmp_path: Path) -> None:
    speccheck = _speccheck()
    for folder in ("V1_0", "V1_1", "V1_2"):
        (tmp_path / "conformance" / "specs" / folder).mkdir(parents=True)
    out = io.StringIO()

    status = speccheck.check(
        str(ORACLES / "conv2d_oracle.py"),
        lambda: print([1.0]),
        {("V1_2/gone.mod.py", "out"): "by hand"},
        specs_dir=tmp_path / "conformance" / "specs",
        out=out,
    )

    assert status == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        f"MISMATCH no spec under {tmp_path / 'conformance' / 'specs'} names oracles/conv2d_oracle.py"
    )
    assert lines[1] == (
        "MISMATCH HAND_DERIVED names V1_2/gone.mod.py output 'out', which no spec has"
    )
    assert lines[2] == "conv2d_oracle.py: 0 specs, 0 outputs checked, 0 hand-derived, 2 problems"


def test_printed_numbers_and_runs() -> None:
    speccheck = _speccheck()
    stream = speccheck.printed_numbers("case 2: [1.5, -math.inf, nan, 2.5e-3] out: 0.8333333")
    assert stream[0] == 2.0 and stream[1] == 1.5 and stream[2] == float("-inf")
    assert stream[3] != stream[3]  # NaN
    assert stream[4:] == [0.0025, 0.8333333]
    assert speccheck.contains_run(stream, [float("-inf"), float("nan")])
    assert speccheck.contains_run(stream, [0.0025, 0.83333333333])  # 7 printed digits
    assert not speccheck.contains_run(stream, [0.0025, 0.8334])
    assert not speccheck.contains_run(stream, [1.5, float("nan")])  # not contiguous
    assert speccheck.contains_run(stream, [])
