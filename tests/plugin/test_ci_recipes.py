"""docs/ci.md's recipes run as written.

The GitLab recipe's shard command runs for both shards of a two-way split (on a small
selection, with the bundled reference driver in place of ``my_driver``), then its
merge command: the shards merge, and ``--require-certified`` refuses the run (a
selection never certifies). The GitHub Actions recipe must give pytest the same
options, shard and report folder aside.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "ci.md"


def _yaml_blocks() -> dict[str, str]:
    blocks = re.findall(r"```yaml\n(# (\S+)\n.*?)```", PAGE.read_text(), re.S)
    return {name: text for text, name in blocks}


def _command(
    block: str, start: str, end_option: str, values: Mapping[str, str] = MappingProxyType({})
) -> list[str]:
    """The folded command from ``start`` to the word starting with ``end_option``, its CI
    variables replaced by ``values``."""
    text = block[block.index(start) :]
    for variable, value in values.items():
        text = text.replace(variable, value)
    stop = re.search(rf"{re.escape(end_option)}\S*", text)
    assert stop, f"no {end_option} after {start!r} in docs/ci.md"
    return shlex.split(" ".join(text[: stop.end()].split()))


def _shard_command(block: str, shard: str, total: str, report: str) -> list[str]:
    values = {
        "${{ matrix.shard }}": shard,
        "${CI_NODE_INDEX}": shard,
        "${CI_NODE_TOTAL}": total,
        "${{ github.run_id }}": "7",  # the pipeline's id: every shard's seed
        "${CI_PIPELINE_ID}": "7",
    }
    words = _command(block, "pytest --pyargs conformance", "--cert-report=", values)
    words[words.index("--cert-report=report-" + shard)] = f"--cert-report={report}"
    return words


def test_the_recipes_give_pytest_the_same_options() -> None:
    blocks = _yaml_blocks()
    github = _shard_command(blocks[".github/workflows/nnhal.yml"], "1", "4", "out")
    gitlab = _shard_command(blocks[".gitlab-ci.yml"], "1", "4", "out")
    assert set(github) - {"--nnhal-profile=full"} == set(gitlab)
    for block in blocks.values():
        merge = _command(block, "nnhal-report merge", "--require-certified")
        assert merge == [
            "nnhal-report",
            "merge",
            "report-*/report.json",
            "-o",
            "certification",
            "--require-certified",
        ]


def test_the_gitlab_recipe_shards_merge_and_gate(tmp_path: Path) -> None:
    block = _yaml_blocks()[".gitlab-ci.yml"]
    bin_dir = Path(sys.executable).parent
    for shard in ("1", "2"):
        words = _shard_command(block, shard, "2", f"report-{shard}")
        assert words[:3] == ["pytest", "--pyargs", "conformance"]
        words = [
            "--driver=reference" if w == "--driver=my_driver:Factory" else w
            for w in words
            if w not in ("-n", "auto")
        ]
        command = [sys.executable, "-m", *words, "-p", "no:xdist", "-p", "no:cacheprovider"]
        command += ["-k", "test_basic"]
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        assert (tmp_path / f"report-{shard}" / "report.json").is_file()
    merge = _command(block, "nnhal-report merge", "--require-certified")
    reports = sorted(str(p) for p in tmp_path.glob("report-*/report.json"))
    command = [str(bin_dir / "nnhal-report"), "merge", *reports, *merge[3:]]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("NOT CERTIFIED: ") and lines[0].endswith("written to certification/")
    assert any("deselected" in line for line in lines[1:]), lines
