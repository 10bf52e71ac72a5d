"""Node ids and rerun commands a vendor can paste back, from any folder.

Run from an empty folder (pytester's), as a vendor with the suite installed
would: the ids carry the suite's module, JUnit's classname is filled, every
failure ends with a command that reruns exactly that item, and that command
(or the printed id given to ``pytest --pyargs conformance``) selects one item.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from plugins.collection import wanted_items
from plugins.report.document import load
from plugins.suite import suite_folder

FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers.py"
ITEM = "conformance/test_generated.py::test_generated[V1_0/add/none/ex0/sync]"


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makepyfile(faulty_drivers=FAULTY.read_text())
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def _ran(result: pytest.RunResult) -> list[str]:
    return [
        m[1] for m in map(re.compile(r"^(\S+::\S+) (PASSED|FAILED)").match, result.outlines) if m
    ]


def test_node_ids_carry_the_suite_module_from_any_folder(pytester) -> None:
    for target in ("conformance.test_basic", "conformance"):
        result = _run(pytester, "--pyargs", target, "--collect-only", "-q", "-k", "test_status")
        assert "conformance/test_basic.py::test_status" in result.outlines, result.stdout.str()


def test_a_printed_id_selects_exactly_that_item(pytester) -> None:
    # "-k V1_0/add/none/ex0/sync" would match 6 items (sync, sync-timed, their -dyn twins...)
    result = _run(pytester, "--pyargs", "conformance", ITEM, "-v")
    assert _ran(result) == [ITEM], result.stdout.str()
    dotted = "conformance.test_generated::test_generated[V1_0/add/none/ex0/sync]"
    result = _run(pytester, "--pyargs", dotted, "-v")
    assert _ran(result) == [ITEM], result.stdout.str()


def test_every_failure_ends_with_a_rerun_of_exactly_it(pytester) -> None:
    result = _run(
        pytester,
        "--pyargs",
        "conformance.test_basic",
        "--driver=faulty_drivers:ClaimsButFails",
        "-k",
        "test_prepare_valid_model_with_preference",
        "--junitxml=junit.xml",
    )
    reruns = [line for line in result.outlines if line.startswith("rerun: ")]
    failed = [line for line in result.outlines if line.startswith("FAILED ")]
    assert failed and len(reruns) == len(failed), result.stdout.str()
    first = reruns[0].removeprefix("rerun: ")
    seed = re.search(r"^nnhal profile: full \(seed (\d+):", result.stdout.str(), re.M).group(1)
    assert first == (
        "pytest --pyargs 'conformance.test_basic::test_prepare_valid_model_with_preference"
        f"[V1_2-LOW_POWER]' --driver=faulty_drivers:ClaimsButFails --nnhal-profile=full "
        f"--nnhal-seed={seed}"  # the run's seed: a rerun draws what the run drew
    )
    junit = ET.parse(pytester.path / "junit.xml").getroot()
    assert {case.get("classname") for case in junit.iter("testcase")} == {"conformance.test_basic"}
    again = _run(pytester, *shlex.split(first)[1:], "-v")
    assert _ran(again) == [
        "conformance/test_basic.py::test_prepare_valid_model_with_preference[V1_2-LOW_POWER]"
    ], again.stdout.str()


def test_named_items_are_the_only_ones_built(pytester) -> None:
    # Without the shortcut pytest would build all 65,000 items of test_generated (and every
    # function's of test_validate_model) and keep the two named.
    other = (
        "conformance.test_validate_model::test_validate_model"
        "[operand_retype_vts/V1_2/conv2d_forms_v1_2/dilated_nhwc_channelQuant8]"
    )
    result = _run(pytester, "--pyargs", ITEM, other, "--collect-only")
    assert [line.strip() for line in result.outlines if "<CaseItem " in line] == [
        "<CaseItem test_generated[V1_0/add/none/ex0/sync]>",
        "<CaseItem test_validate_model[operand_retype_vts/V1_2/conv2d_forms_v1_2/"
        "dilated_nhwc_channelQuant8]>",
    ], result.stdout.str()
    # The other cases of the two functions, never built, count as collected and
    # deselected, in pytest's line as in the report (plugins.report.counts).
    line = next(line for line in result.outlines if line.startswith("collected "))
    assert re.fullmatch(r"collected (\d+) items / (\d+) deselected / 2 selected", line), line
    # A module named without an item keeps everything of it, and the named item's module
    # still builds that item alone.
    result = _run(pytester, "--pyargs", ITEM, "conformance.test_basic", "--collect-only", "-q")
    basic = [line for line in result.outlines if line.startswith("conformance/test_basic.py::")]
    assert any(line.startswith("conformance/test_basic.py::test_status") for line in basic)
    assert ITEM in result.outlines, result.stdout.str()
    counts = re.fullmatch(
        r"(\d+)/(\d+) tests collected \((\d+) deselected\) in .*", result.outlines[-1]
    )
    assert counts is not None, result.outlines[-1]
    assert int(counts[1]) == len(basic) + 1
    assert int(counts[3]) == int(counts[2]) - int(counts[1]) > 1000


def test_which_items_the_arguments_name_by_module(tmp_path) -> None:
    """``wanted_items``: the items named in each suite module, None for a module named whole;
    None in all where an argument may hold more of the suite (its package or a folder of
    or above it); an argument of none of the suite changes nothing."""
    suite = suite_folder()
    assert suite is not None
    generated = f"{ITEM.split('::')[0].removesuffix('.py').replace('/', '.')}"
    named = f"{generated}::{ITEM.split('::')[1]}"
    (tmp_path / "test_other.py").write_text("")
    assert wanted_items([named], tmp_path) == {generated: {ITEM.split("::")[1]}}
    assert wanted_items([named, "conformance.test_basic", "test_other.py"], tmp_path) == {
        generated: {ITEM.split("::")[1]},
        "conformance.test_basic": None,
    }
    assert wanted_items([named, generated], tmp_path) == {generated: None}
    for holding in ("conformance", "conformance.generated", str(suite), str(suite.parent)):
        assert wanted_items([named, holding], tmp_path) is None, holding
    assert wanted_items(["conformance.test_basic"], tmp_path) is None  # no item named


@pytest.mark.parametrize(
    "selection",
    [
        # names every case has (the module's) beside names of each case's own, judged
        # once per pattern of answers (plugins.collection._selection)
        ["-k", "(V1_0/add and sync and not timed) or (test_memory_pools and V1_1/mean/)"],
        # at HAL 1.2 (a quarter of the items for the run that builds them all to compare)
        ["-k", "CONV_2D and not relaxed", "--hal-version=1.2"],
        ["-m", "V1_1 and not strict", "--hal-version=1.2"],
        ["-k", "ex1", "-m", "generated", "--hal-version=1.2"],
    ],
)
def test_k_and_m_build_only_what_they_keep(pytester, selection: list[str]) -> None:
    """Cases -k/-m deselect are never built, and the selection is exactly pytest's own: the
    same ids as a run that builds every item first (known failures given, even an empty
    list, turn the shortcut off)."""
    empty = pytester.path / "none.txt"
    empty.write_text("")
    args = ["--pyargs", "conformance.test_generated", "conformance.test_memory_pools"]
    args += ["--collect-only", "-q", "--nnhal-profile=ci", *selection]
    fast = _run(pytester, *args)
    built = _run(pytester, *args, f"--expect-fail={empty}")
    assert fast.ret == built.ret == 0, fast.stdout.str()[-2000:]
    ids = [line for line in fast.outlines if "::" in line]
    assert ids and ids == [line for line in built.outlines if "::" in line]
    # pytest counts the cases left unbuilt as collected and deselected, as the run that
    # built them all counts them.
    assert fast.outlines[-1].partition(" in ")[0] == built.outlines[-1].partition(" in ")[0]
    assert fast.outlines[-1].startswith(f"{len(ids)}/")


OPERATIONS_PROBE = """
import pytest
from plugins.collection import CaseItem, item_operations

def pytest_itemcollected(item):
    if isinstance(item, CaseItem):
        item.config.nnhal_probe_built = getattr(item.config, "nnhal_probe_built", 0) + 1

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    built = getattr(config, "nnhal_probe_built", 0)
    kept = [i.nodeid for i in items if "ADD" in item_operations(i)]
    print("PROBE built", built, "kept", len([i for i in items if isinstance(i, CaseItem)]))
    print("PROBE add", *kept)
"""


def test_nnhal_op_builds_only_the_case_items_it_keeps(pytester) -> None:
    """--nnhal-op leaves unbuilt the cases whose marks or parameters name other operations
    (every case of the categories here: those of a generated case, listed or asked about
    before they are made), and keeps exactly the items whose operations a run that builds
    everything finds to name one of it."""
    pytester.makepyfile(nnhal_ops_probe=OPERATIONS_PROBE)
    modules = ["conformance.test_generated", "conformance.test_memory_pools"]
    modules += ["conformance.test_invalid_values", "conformance.test_caching"]
    args = ["-p", "nnhal_ops_probe", "--pyargs", *modules, "--collect-only", "-q"]
    args += ["--nnhal-profile=ci", "--hal-version=1.2"]
    selective = _run(pytester, *args, "--nnhal-op=ADD")
    everything = _run(pytester, *args)
    assert selective.ret == everything.ret == 0, selective.stdout.str()[-2000:]

    def probe(result: pytest.RunResult, what: str) -> list[str]:
        return next(line for line in result.outlines if line.startswith(f"PROBE {what}")).split()

    _, _, built, _, kept = probe(selective, "built")
    ids = [line for line in selective.outlines if "::" in line and "PROBE" not in line]
    assert int(built) == int(kept) > 100  # every case item built is kept
    assert ids == probe(everything, "add")[2:]
    names = {i.split("::")[1].split("[")[0] for i in ids}
    assert {"test_generated_prepare", "test_memory_pools", "test_invalid_value"} <= names
    # what was left unbuilt counts as deselected, as the run that builds it all counts it
    assert selective.outlines[-1].startswith(f"{len(ids)}/")
    total = everything.outlines[-1].partition(" tests collected")[0]
    assert selective.outlines[-1].partition(" tests collected")[0].endswith(f"/{total}")
    # --nnhal-smoke samples what --nnhal-op keeps
    sample = _run(pytester, *args, "--nnhal-op=ADD", "--nnhal-smoke")
    sampled = [line for line in sample.outlines if "::" in line and "PROBE" not in line]
    assert sampled and set(sampled) <= set(ids)
    assert {i.split("::")[1].split("[")[0] for i in sampled} == names


SMOKE_PROBE = """
import pytest
from plugins import collection
from plugins.collection import smoke_sample, smoke_support

BUILT = []
made = collection._case_item

def counted(*args, **kwargs):  # every case item made, kept or not
    BUILT.append(1)
    return made(*args, **kwargs)

collection._case_item = counted

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    print("PROBE built", len(BUILT))
    if not config.getoption("--nnhal-smoke"):
        print("PROBE sample", *[i.nodeid for i in smoke_sample(items, smoke_support(config))])
"""


def test_a_smoke_run_builds_its_sample_and_few_other_case_items(pytester) -> None:
    """--nnhal-smoke chooses among a function's cases before building them: the sample is
    the one ``smoke_sample`` draws from every item built, for a driver of three operations
    (most cases declined: the sample looks deep into the cases' order)."""
    example = Path(sys.executable).with_name("nnhal-example")
    written = subprocess.run(
        [str(example), str(pytester.path / "vendor")], capture_output=True, text=True, timeout=60
    )
    assert written.returncode == 0, written.stderr
    shutil.copy(pytester.path / "vendor" / "my_driver.py", pytester.path)
    pytester.makepyfile(nnhal_smoke_probe=SMOKE_PROBE)
    args = ["-p", "nnhal_smoke_probe", "--pyargs", "conformance.test_generated"]
    args += ["conformance.test_validate_model", "--collect-only", "-q", "--nnhal-profile=ci"]
    args += ["--hal-version=1.2", "--driver=my_driver:Factory"]
    smoke = _run(pytester, *args, "--nnhal-smoke")
    everything = _run(pytester, *args)
    assert smoke.ret == everything.ret == 0, smoke.stdout.str()[-2000:]
    ids = [line for line in smoke.outlines if "::" in line and "PROBE" not in line]
    sample = next(line for line in everything.outlines if line.startswith("PROBE sample"))
    assert ids == sample.split()[2:] and len(ids) > 10
    assert any("/add/" in i or "/mul/" in i or "/relu/" in i for i in ids)
    built = next(line for line in smoke.outlines if line.startswith("PROBE built")).split()[2]
    total = int(everything.outlines[-1].partition(" tests collected")[0])
    assert int(built) < total / 20, (built, total)
    assert smoke.outlines[-1].startswith(f"{len(ids)}/{total} tests collected")


def test_cases_left_unbuilt_count_as_deselected_in_a_report(pytester) -> None:
    """A -k or node-id run never reads as the whole suite: the report counts what the
    selection left unbuilt as deselected, as many as pytest deselects when it builds all."""
    empty = pytester.path / "none.txt"
    empty.write_text("")
    common = ["--driver=reference", "--nnhal-profile=ci"]
    runs = {
        "k": ["--pyargs", "conformance.test_generated", "-k", "V1_0/add/none/ex0/sync]"],
        "built": [
            "--pyargs",
            "conformance.test_generated",
            "-k",
            "V1_0/add/none/ex0/sync]",
            f"--expect-fail={empty}",
        ],
        "node": ["--pyargs", ITEM],
    }
    counts = {}
    for name, args in runs.items():
        result = _run(pytester, *args, *common, f"--cert-report={pytester.path / name}")
        assert result.ret == 0, result.stdout.str()[-2000:]
        doc = load(pytester.path / name / "report.json")
        assert [t["outcome"] for t in doc["tests"]] == ["passed"]
        counts[name] = doc["run"]["deselected"]
        assert any("were deselected" in r for r in doc["verdict"]["reasons"]), doc["verdict"]
    assert counts["k"] == counts["built"] > 1000
    # Node ids build only test_generated's named case (the prepare tests are not made).
    assert 0 < counts["node"] <= counts["k"]
