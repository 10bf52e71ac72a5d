"""Attacks on the certificate, run through nnhal-certify as a vendor would run it.

Each attack comes from a driver that fails MUL (or, for the isolation claim, from
a correct driver loaded in-process): the attack succeeds only if the run prints
CERTIFIED, the report credits MUL, or the report states a containment the
launcher did not start. The driver's folder is the folder nnhal-certify runs
from, as the documentation tells vendors to run it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from certify_runs import FAULTY, run_certify

from isolation import sandbox
from plugins.report import certify, seal
from plugins.report.document import load, write

ATTACKERS = Path(__file__).resolve().parents[1] / "support" / "certificate_drivers.py"
MUL_SLICE = "test_generated and V1_0/mul/"


def _need(kind: str) -> None:
    if kind != "process-group" and not sandbox.available(kind):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{kind} cannot make namespaces here; .ci/run installs bubblewrap")
        pytest.skip(f"{kind} cannot make namespaces on this machine")


def _driver_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "vendor"
    folder.mkdir()
    for source in (FAULTY, ATTACKERS):
        shutil.copy(source, folder / source.name)
    return folder


def _mul_failed(out: Path) -> bool:
    doc = load(out / "report.json")
    mul = [t for t in doc["tests"] if "V1_0/mul/" in t["id"] and t["category"] == "generated"]
    return bool(mul) and any(t["outcome"] == "failed" for t in mul)


@pytest.mark.parametrize("containment", ["bubblewrap", "unshare", "process-group"])
def test_a_driver_rewriting_its_report_does_not_certify(tmp_path: Path, containment) -> None:
    """The driver leaves a daemon (out of its session, token cleared) that turns every
    failure of the report into a pass the moment the harness writes it. In namespaces it
    cannot see the report folder and dies with them; with a process group only, a
    control group still ends it, and where it survives the shard's seal refuses its
    rewrite. The verdict stays NOT CERTIFIED and the report keeps MUL's failures."""
    _need(containment)
    folder = _driver_folder(tmp_path)
    result = run_certify(
        folder,
        *("--driver", "certificate_drivers:RewritesItsReport", "--jobs", "2"),
        *("--profile", "ci", "--out", "out", f"--driver-containment={containment}"),
        *("-k", MUL_SLICE),
    )
    output = result.stdout + result.stderr
    assert result.returncode == certify.NOT_CERTIFIED, output
    assert "nnhal-certify: NOT CERTIFIED" in result.stdout.splitlines() or (
        "a shard report was tampered with: NOT CERTIFIED" in result.stderr
    ), output
    if (folder / "out" / "report.json").exists():
        assert _mul_failed(folder / "out"), output
        assert (folder / "out" / "report.md").read_text() != "# CERTIFIED\n"
    logs = "".join(p.read_text() for p in (folder / "out" / "shards").rglob("*.log"))
    assert "forger: rewrote" not in logs, logs


def test_a_rewritten_shard_report_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    """Where a forger does reach a shard report (a process group, no control group), the
    seal made with the run's key refuses it: the merge never reads the forged file."""

    def forging_run(command, time_limit, **where):
        out = Path(next(a for a in command if a.startswith("--cert-report=")).split("=", 1)[1])
        from test_certify import _certifying_document

        doc = _certifying_document()
        shard = next(a for a in command if a.startswith("--shard=")).split("=", 1)[1]
        index, count = (int(n) for n in shard.split("/"))
        doc["run"]["shard"] = {"index": index, "count": count}
        write(doc, out)
        seal.write_seal(out, where["env"][seal.KEY_VARIABLE].encode())
        if index == 2:
            text = (out / "report.json").read_text()
            (out / "report.json").write_text(text.replace('"passed"', '"passed" '))
        return 0

    class Shard(certify._Shard):
        def start(self, command, log, **where):
            log.write_text("")
            self.log = log
            forging_run(command, 0, **where)
            self.process = type("Done", (), {"poll": lambda s: 0, "returncode": 0})()

    monkeypatch.setattr(certify, "_Shard", Shard)
    status = certify.main(["--driver", "x:Y", "--jobs", "2", "--out", str(tmp_path / "out")])
    assert status == certify.NOT_CERTIFIED
    err = capsys.readouterr().err
    report = tmp_path / "out" / "shards" / "2" / "report.json"
    assert f"nnhal-certify: shard 2/2: {report} does not match its seal report.seal" in err
    assert err.rstrip().endswith("nnhal-certify: a shard report was tampered with: NOT CERTIFIED")
    assert not (tmp_path / "out" / "report.json").exists()


PLANTS = {
    "conftest.py": (
        "open('conftest-ran', 'w').close()\n"
        "def pytest_runtest_logreport(report):\n"
        "    report.outcome = 'passed'\n"
    ),
    "pytest.ini": "[pytest]\naddopts = -p evilplugin\n",
    "evilplugin.py": (
        "open('plugin-ran', 'w').close()\n"
        "def pytest_runtest_logreport(report):\n"
        "    report.outcome = 'passed'\n"
    ),
    "sitecustomize.py": "open('sitecustomize-ran', 'w').close()\n",
    "conformance/__init__.py": "open('shadow-ran', 'w').close()\n",
    "conformance/test_generated.py": "def test_generated():\n    pass\n",
}


def test_files_in_the_folder_it_runs_from_do_not_run_in_the_harness(tmp_path: Path) -> None:
    """A conftest.py, a pytest.ini adding a plugin, a sitecustomize.py and a conformance/
    folder shadowing the suite, all in the driver's folder: none of them runs, the suite
    that runs is the installed one, and MUL's failures stay failures."""
    folder = _driver_folder(tmp_path)
    for name, text in PLANTS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    result = run_certify(
        folder,
        *("--driver", "faulty_drivers:PerturbMulTwice", "--jobs", "0", "--profile", "ci"),
        *("--out", "out", "--driver-isolation", "none", "-k", MUL_SLICE),
    )
    output = result.stdout + result.stderr
    assert result.returncode == certify.NOT_CERTIFIED, output
    ran = sorted(p.name for p in folder.iterdir() if p.name.endswith("-ran"))
    assert ran == [], output
    assert _mul_failed(folder / "out"), output


def test_an_in_process_driver_cannot_claim_isolation(tmp_path: Path) -> None:
    """In-process, the driver replaces the harness's function that states the isolation;
    the report states what nnhal-certify launched: in-process, not tamper-proof."""
    folder = _driver_folder(tmp_path)
    result = run_certify(
        folder,
        *("--driver", "certificate_drivers:ClaimsIsolation", "--jobs", "0", "--profile", "ci"),
        *("--out", "out", "--driver-isolation", "none", "-k", MUL_SLICE),
    )
    doc = json.loads((folder / "out" / "report.json").read_text())
    isolation = doc["run"]["isolation"]
    assert (isolation["mode"], isolation["tamper_proof"]) == ("none", False), result.stdout
    assert "claimed by the driver" not in json.dumps(isolation)
