"""The one table of HAL levels (hal/levels.py), and what HAL 1.3 will need already built:
referenced subgraphs in a Model, execution paths that can carry a deadline, a loop
timeout and fences, and the policy for the statuses 1.3 adds."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conformance.harness import statuses
from conformance.harness.calls import as_status
from conformance.harness.execution import DYNAMIC_PATHS, PATHS, QOS_PATHS, ExecutionPath
from conformance.harness.mutations.base import copy_model
from hal import interfaces, levels
from hal.levels import LEVELS, device_level, folder_level, method_level, spec_folders
from hal.types import (
    DataLocation,
    ErrorStatus,
    HalVersion,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Subgraph,
)
from hal.validation import validate_model

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("hal", "reference_driver", "generator", "conformance", "plugins", "isolation")


# -- the table -------------------------------------------------------------------------


def test_there_is_one_record_per_level_oldest_first() -> None:
    assert [record.version for record in LEVELS] == sorted(HalVersion)
    assert spec_folders() == ("V1_0", "V1_1", "V1_2", "V1_3")
    assert all((ROOT / "conformance" / "specs" / f).is_dir() for f in spec_folders())
    assert folder_level("V1_1") == HalVersion.V1_1
    with pytest.raises(ValueError, match=r"^'V9_9' is no HAL level's spec folder \(known: "):
        folder_level("V9_9")


@pytest.mark.parametrize("record", LEVELS, ids=str)
def test_every_name_a_record_gives_is_a_method_of_its_interfaces(record) -> None:
    device_methods = [record.capabilities, record.supported_operations, record.prepare]
    if record.prepare_from_cache:
        device_methods.append(record.prepare_from_cache)
    for name in device_methods:
        assert callable(getattr(record.device, name, None)), (record.device, name)
    for name in record.executions:
        assert callable(getattr(record.prepared_model, name, None)), (record.prepared_model, name)
    assert callable(getattr(interfaces.IPreparedModelCallback, record.prepare_notify))
    for method, notify in record.execution_notify.items():
        assert method in record.executions
        assert callable(getattr(interfaces.IExecutionCallback, notify))
    # the capabilities record is the one the interface declares
    hint = record.device.__dict__[record.capabilities].__annotations__["return"]
    assert record.capabilities_type.__name__ in str(hint)


def test_a_driver_is_at_the_newest_level_whose_device_class_it_is() -> None:
    assert device_level(object()) is None
    for record in LEVELS:
        fake = type("Fake", (record.device,), {})
        fake.__abstractmethods__ = frozenset()
        assert device_level(fake()) == record.version


def test_a_method_belongs_to_the_oldest_level_naming_it() -> None:
    assert method_level("execute") == HalVersion.V1_0
    assert method_level("prepare_model_1_1") == HalVersion.V1_1
    assert method_level("execute_synchronously") == HalVersion.V1_2
    assert method_level("configure_execution_burst") == HalVersion.V1_2
    assert method_level("no_such_method") is None


def test_the_oneway_methods_are_the_callbacks_notify_methods_of_every_level() -> None:
    assert {
        "IPreparedModelCallback": frozenset({"notify", "notify_1_2", "notify_1_3"}),
        "IExecutionCallback": frozenset({"notify", "notify_1_2", "notify_1_3"}),
    } == levels.ONEWAY_METHODS


# -- no table spelled out again ----------------------------------------------------------

_LEVEL_NAMES = {
    name: record.version
    for record in LEVELS
    for name in (record.capabilities, record.supported_operations, record.prepare)
}
_FOLDERS = set(spec_folders())


def per_level_tables(source: str) -> list[str]:
    """The literals of ``source`` that spell out a per-level table: a dict keyed by two or
    more ``HalVersion`` members, or a collection naming two levels' methods or spec
    folders."""
    found = []
    tree = ast.parse(source)
    exported = {  # the names a module exports are names, not a table
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    }
    for node in ast.walk(tree):
        if id(node) in exported:
            continue
        if isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None]
            versions = {
                k.attr
                for k in keys
                if isinstance(k, ast.Attribute) and k.attr in HalVersion.__members__
            }
            if len(versions) >= 2:
                found.append(f"line {node.lineno}: a dict keyed by {sorted(versions)}")
                continue
            items = [*keys, *node.values]
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = node.elts
        else:
            continue
        strings = {i.value for i in items if isinstance(i, ast.Constant) and type(i.value) is str}
        named = {_LEVEL_NAMES[s] for s in strings if s in _LEVEL_NAMES}
        folders = strings & _FOLDERS
        if len(named) >= 2 or len(folders) >= 2:
            what = sorted(strings & (_LEVEL_NAMES.keys() | _FOLDERS))
            found.append(f"line {node.lineno}: a table of {what}")
    return found


def test_the_scan_finds_the_tables_it_is_for() -> None:
    source = textwrap.dedent(
        """
        A = {HalVersion.V1_0: "x", HalVersion.V1_2: "y"}
        B = frozenset({"prepare_model", "prepare_model_1_1"})
        C = ("V1_0", "V1_1", "V1_2")
        D = {"x": "get_capabilities", "y": "get_capabilities_1_2"}
        E = {HalVersion.V1_2: "only one level"}
        F = ("prepare_model_1_2", "execute_1_2")
        __all__ = ["V1_0", "V1_1"]
        """
    )
    assert sorted(line.split(":")[0] for line in per_level_tables(source)) == [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
    ]


def test_no_module_but_hal_levels_spells_out_a_per_level_table() -> None:
    offenders = {}
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative == "hal/levels.py" or relative.startswith("conformance/generated/"):
                continue
            tables = per_level_tables(path.read_text())
            if tables:
                offenders[relative] = tables
    assert offenders == {}, "derive these from hal.levels.LEVELS instead"


def test_a_new_level_needs_only_the_types_and_its_record(tmp_path: Path) -> None:
    # A copy of hal/ with one more HalVersion member and one more Level record (the
    # 1.2 interfaces standing in for 1.3's): everything derived from the table follows.
    shutil.copytree(ROOT / "hal", tmp_path / "hal", ignore=shutil.ignore_patterns("__pycache__"))
    types_py = tmp_path / "hal" / "types.py"
    text = types_py.read_text()
    assert "    V1_2 = 12\n" in text
    types_py.write_text(text.replace("    V1_2 = 12\n", "    V1_2 = 12\n    V1_9 = 19\n", 1))
    levels_py = tmp_path / "hal" / "levels.py"
    levels_py.write_text(
        levels_py.read_text().replace(
            '"""Every level the project knows',
            textwrap.dedent(
                """\
                LEVELS = (*LEVELS, Level(
                    version=HalVersion.V1_9, device=IDevice_1_2, prepared_model=IPreparedModel_1_2,
                    capabilities="get_capabilities_1_9", capabilities_type=Capabilities_1_2,
                    supported_operations="get_supported_operations_1_9",
                    prepare="prepare_model_1_9", takes_preference=True,
                    prepare_from_cache="prepare_model_from_cache_1_9", prepare_notify="notify_1_9",
                    executions=("execute", "execute_1_9"),
                    execution_notify={"execute": "notify", "execute_1_9": "notify_1_9"},
                    spec_folder="V1_9",
                ))
                """
            )
            + '"""Every level the project knows',
            1,
        )
    )
    probe = textwrap.dedent(
        """
        from hal.types import HalVersion, Model
        from hal.levels import ONEWAY_METHODS
        from generator.emit import HAL_FOLDERS
        from conformance.harness.calls import prepare_call
        from conformance.harness.mutations.base import ALL_LEVELS
        import isolation.proxy as proxy
        level = HalVersion.V1_9
        assert HAL_FOLDERS[-1] == "V1_9", HAL_FOLDERS
        assert prepare_call(object(), Model(), level)[1] == "prepare_model_1_9"
        assert "prepare_model_1_9" in proxy._PREPARE_METHODS
        assert "notify_1_9" in ONEWAY_METHODS["IPreparedModelCallback"]
        assert level in ALL_LEVELS
        print("ok")
        """
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout == "ok\n", run.stderr[-3000:]


# -- referenced subgraphs -----------------------------------------------------------------


def _with_subgraph() -> Model:
    scalar = Operand(
        OperandType.FLOAT32, lifetime=OperandLifeTime.CONSTANT_COPY, location=DataLocation(0, 0, 4)
    )
    sub = Subgraph(
        [
            Operand(OperandType.TENSOR_FLOAT32, [1]),
            scalar,
            Operand(OperandType.TENSOR_FLOAT32, [1]),
        ],
        [Operation(OperationType.ADD, [0, 0, 1], [2])],
        [0],
        [2],
    )
    return Model(
        [Operand(OperandType.TENSOR_FLOAT32, [2])],
        [],
        [0],
        [0],
        b"\x00\x00\x20\x40",
        referenced=[sub],
    )


def test_a_model_lists_its_graphs_main_first() -> None:
    model = _with_subgraph()
    assert [name for name, _ in model.graphs()] == ["main", "referenced[0]"]
    assert model.graphs()[0][1] is model and model.graphs()[1][1] is model.referenced[0]
    assert Model().referenced == [] and Model().graphs() == [("main", Model())]


def test_a_model_copy_copies_its_subgraphs() -> None:
    model = _with_subgraph()
    copied = copy_model(model)
    assert copied == model
    copied.referenced[0].operands[0].dimensions.append(3)
    copied.referenced[0].operations[0].inputs.append(9)
    assert model.referenced[0].operands[0].dimensions == [1]
    assert model.referenced[0].operations[0].inputs == [0, 0, 1]


def test_a_model_with_subgraphs_is_invalid_below_1_3() -> None:
    result = validate_model(_with_subgraph(), HalVersion.V1_2)
    found = [(v.rule.name, v.message) for v in result.violations]
    assert [f for f in found if f[0] == "model.referenced_version"] == [
        (
            "model.referenced_version",
            "the model refers to 1 subgraph, which needs HAL 1.3, model is 1.2",
        )
    ]


def test_the_compilation_cache_carries_the_subgraphs_and_their_constants() -> None:
    from reference_driver.cache import open_sealed, seal

    model = _with_subgraph()
    model_cache, data_cache = seal(b"k" * 32, b"t" * 32, model, {}, HalVersion.V1_2)
    opened, version = open_sealed(b"k" * 32, b"t" * 32, model_cache, data_cache)
    assert version == HalVersion.V1_2
    sub = opened.referenced[0]
    assert sub.operations == model.referenced[0].operations
    assert (sub.input_indexes, sub.output_indexes) == ([0], [2])
    constant = sub.operands[1]
    assert constant.lifetime == OperandLifeTime.CONSTANT_COPY
    start = constant.location.offset
    assert data_cache[start : start + constant.location.length] == b"\x00\x00\x20\x40"


# -- execution paths ---------------------------------------------------------------------


def test_the_paths_of_1_0_to_1_2_keep_their_ids_and_carry_nothing_more() -> None:
    assert [p.id for p in PATHS if p.level <= HalVersion.V1_2] == [
        "async10",
        "async",
        "async-timed",
        "sync",
        "sync-timed",
        "burst",
        "burst-timed",
    ]
    assert not any(p.timed or p.wait_for_fences for p in PATHS)


def test_the_1_3_paths_are_its_three_methods_each_timed_too() -> None:
    assert [(p.id, p.method) for p in PATHS if p.level == HalVersion.V1_3] == [
        ("async13", "execute_1_3"),
        ("async13-timed", "execute_1_3"),
        ("sync13", "execute_synchronously_1_3"),
        ("sync13-timed", "execute_synchronously_1_3"),
        ("fenced", "execute_fenced"),
        ("fenced-timed", "execute_fenced"),
    ]
    assert [p.id for p in DYNAMIC_PATHS if p.level == HalVersion.V1_3] == ["async13", "sync13"]


def test_the_quality_of_service_paths_give_deadlines_and_only_a_limited_one_is_timed() -> None:
    assert [(p.id, p.timed) for p in QOS_PATHS] == [
        ("async13-deadline0ns", True),
        ("async13-deadline5000000ns", True),
        ("async13-deadline9223372036854775807ns", False),
        ("sync13-deadline0ns", True),
        ("sync13-deadline5000000ns", True),
        ("sync13-deadline9223372036854775807ns", False),
    ]


def test_a_1_2_method_cannot_carry_what_only_1_3_passes() -> None:
    with pytest.raises(ValueError) as raised:
        ExecutionPath(
            "execute_1_2", MeasureTiming.NO, HalVersion.V1_2, deadline_ns=5, wait_for_fences=1
        )
    assert str(raised.value) == (
        "execute_1_2 (HAL 1.2) cannot carry a deadline or fences to wait for: "
        "only a HAL 1.3 execution method can"
    )
    with pytest.raises(ValueError, match=r"^wait_for_fences=-1: a count, 0 or more$"):
        ExecutionPath("execute_fenced", MeasureTiming.NO, HalVersion.V1_2, wait_for_fences=-1)


def test_a_path_that_carries_more_says_so_in_its_id() -> None:
    path = ExecutionPath(
        "execute_fenced", MeasureTiming.YES, HalVersion.V1_2, 5_000_000, 1_000_000, 2
    )
    assert path.id == "fenced-timed-deadline5000000ns-loop1000000ns-fences2"
    assert path.timed


# -- the statuses 1.3 adds -----------------------------------------------------------------


def test_an_added_status_through_a_1_2_method_fails_with_what_it_is() -> None:
    with pytest.raises(pytest.fail.Exception) as raised:
        as_status(6, "execute_1_2")
    assert str(raised.value) == (
        "execute_1_2 answered 6 (MISSED_DEADLINE_PERSISTENT, a HAL 1.3 status), which a "
        "HAL 1.2 method cannot return (HAL 1.3 reports GENERAL_FAILURE there)"
    )
    with pytest.raises(pytest.fail.Exception, match=r"^execute answered 7 .* HAL 1\.0 method"):
        as_status(7, "execute")
    with pytest.raises(pytest.fail.Exception, match=r"^execute_1_2 callback answered 5 "):
        as_status(5, "execute_1_2 callback")  # a callback is its method's level


def test_an_added_status_through_a_1_3_method_ends_the_item_as_the_policy_says() -> None:
    assert as_status(5, "execute_1_3", timed=True) is ErrorStatus.MISSED_DEADLINE_TRANSIENT
    assert as_status(7, "execute_fenced") is ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT  # retried
    with pytest.raises(pytest.fail.Exception, match=r"the item gave no deadline"):
        as_status(6, "execute_synchronously_1_3 callback")
    with pytest.raises(pytest.skip.Exception, match=r"for want of resources"):
        as_status(8, "prepare_model_1_3 callback")
    expected = pytest.raises(pytest.fail.Exception, match=r"where an invalid argument was")
    with statuses.expecting_error(), expected:  # a validation item: invalid arguments first
        as_status(8, "execute_1_3")
    assert not statuses.expects_error()


@pytest.mark.parametrize(
    ("code", "timed", "expects_error", "retried", "kind", "reason"),
    [
        (
            5,
            True,
            False,
            False,
            "accepted",
            "m missed the deadline it was given (MISSED_DEADLINE_TRANSIENT)",
        ),
        (
            6,
            False,
            False,
            False,
            "failed",
            "m answered MISSED_DEADLINE_PERSISTENT, but the item gave no deadline or loop "
            "timeout, and expects every loop of its model to end",
        ),
        (7, False, False, False, "retry", "m answered RESOURCE_EXHAUSTED_TRANSIENT: retried once"),
        (
            7,
            False,
            False,
            True,
            "unsupported",
            "m declined the work for want of resources (RESOURCE_EXHAUSTED_TRANSIENT)",
        ),
        (
            8,
            False,
            False,
            False,
            "unsupported",
            "m declined the work for want of resources (RESOURCE_EXHAUSTED_PERSISTENT)",
        ),
        (
            8,
            True,
            True,
            False,
            "failed",
            "m answered RESOURCE_EXHAUSTED_PERSISTENT where an invalid argument was to be "
            "found before any resource was used",
        ),
    ],
)
def test_the_policy_for_the_added_statuses_through_a_1_3_method(
    code, timed, expects_error, retried, kind, reason
) -> None:
    ending = statuses.ending(
        code, "m", statuses.LEVEL_1_3, timed=timed, expects_error=expects_error, retried=retried
    )
    assert (ending.kind, ending.reason) == (kind, reason)


def test_a_status_1_2_knows_is_described_by_its_number_alone() -> None:
    assert statuses.describe(4) == "4"
    assert statuses.describe(5) == "5 (MISSED_DEADLINE_TRANSIENT, a HAL 1.3 status)"


def test_an_ending_concludes_the_item_as_it_says() -> None:
    from conformance.harness.items import UNSUPPORTED, facts_of

    statuses.conclude(statuses.Ending(statuses.ACCEPTED, "fine"))
    with pytest.raises(pytest.fail.Exception, match=r"^no$"):
        statuses.conclude(statuses.Ending(statuses.FAILED, "no"))
    with pytest.raises(pytest.skip.Exception, match=r"^declined$") as skipped:
        statuses.conclude(statuses.Ending(statuses.UNSUPPORTED, "declined"))
    assert facts_of(skipped.value) == {"kind": UNSUPPORTED}
    with pytest.raises(ValueError, match=r"^again: retry before concluding$"):
        statuses.conclude(statuses.Ending(statuses.RETRY, "again"))
