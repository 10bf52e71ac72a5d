"""No quantized golden of the specs is rounded from a tie (``scripts/quant_ties.py``).

The generator quantizes a spec's float goldens rounding half to even; a driver's
arithmetic rounds a tie its own way (half away from zero, or either side after a
fixed-point multiply), so a golden that came from an exact x.5 is one step off for a
correct driver, always the same way, and the strict quantization-bias check would
fail it. The script finds such goldens; no spec may have one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "quant_ties.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_no_spec_has_a_golden_rounded_from_a_tie() -> None:
    result = _run()
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith("quant_ties.py: ") and " 0 from exact ties" in summary, summary
    specs = len(list((ROOT / "conformance" / "specs").glob("V*/*.mod.py")))
    assert f"{specs} specs" in summary, summary


def test_a_tie_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "specs" / "V1_0"
    folder.mkdir(parents=True)
    # At output scale 1.0, zero point 10, the sums 1.5, 2.5 and 3.5 are the ties 11.5,
    # 12.5 and 13.5; -19.5 is -9.5, which saturates to 0 whichever way it rounds.
    (folder / "tied.mod.py").write_text(
        """a = Input("a", "TENSOR_FLOAT32", "{4}")
b = Input("b", "TENSOR_FLOAT32", "{1}")
act = Int32Scalar("act", 0)
o = Output("o", "TENSOR_FLOAT32", "{4}")
Model().Operation("ADD", a, b, act).To(o)
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
    b: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
    o: ("TENSOR_QUANT8_ASYMM", 1.0, 10),
})
Example({a: [1.0, 2.0, -20.0, 3.0], b: [0.5], o: [1.5, 2.5, -19.5, 3.5]}).AddVariations(quant8)
""",
        encoding="utf-8",
    )

    result = _run("--specs", str(tmp_path / "specs"))

    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    # (and the same tie in Android 11's lifetime variation of the quant8 case, whose inputs
    # an ADD writes; all_tensors_as_inputs finds no constant and makes no test)
    assert lines[:-1] == [
        "TIE V1_0/tied: tied_quant8: output 'o' (TENSOR_QUANT8_ASYMM): [0] 11.5, [1] 12.5, "
        "[3] 13.5",
        "TIE V1_0/tied: tied_quant8_all_inputs_as_internal: output 'o' (TENSOR_QUANT8_ASYMM): "
        "[0] 11.5, [1] 12.5, [3] 13.5",
    ], result.stdout
    assert lines[-1] == (
        "quant_ties.py: 1 specs, 4 tests, 8 quantized output values judged, "
        "6 from exact ties in 2 outputs"
    )
