"""Generated tests: every case, every example, every execution path and output mode.

Item ids read ``V1_2/conv2d_v1_2/nchw_quant8/ex0/sync-timed``: HAL folder,
spec, the rest of the NNAPI test name, example, and the run: an execution
path (``async10``, ``async``, ``sync``, ``-timed`` with MeasureTiming YES),
``-dyn`` (outputs of unknown dimensions) or ``-dyn-short`` (one output buffer
a byte short), or ``scattered`` (every argument in its own pool between guard
bytes; strict tier). A case whose model holds RANK, IF or WHILE has no ``-dyn``,
``-dyn-short`` or ``shapes`` items (``runner.has_dynamic_twin``): RANK's output is a
scalar, and VTS 1.3's dynamic-output-shape test leaves such models out.
``test_generated_prepare`` prepares each case through
every prepare method and preference its HAL version allows.
``test_generated_memory`` (HAL 1.3) runs each example on ``async13``, ``sync13``
and ``fenced`` with its request pools in hardware_buffer_blob memory
(``blob-sync13``) or its arguments in buffers the driver allocates
(``device-fenced``; conformance/harness/device_memory.py).
``test_generated_coupling`` (HAL 1.3) runs the signed twin of every case with a
TENSOR_QUANT8_ASYMM operand on ``burst``, ``async13``, ``sync13`` and ``fenced``
(``signed-sync13-timed``; conformance/harness/coupling.py).
``test_generated_loop_timeout`` (HAL 1.3) runs every expected-failure case holding a WHILE
with a loop timeout of 1 ms on ``async13``, ``sync13`` and ``fenced``
(``sync13-loop1000000ns``), and in the strict tier with 100 ms and with the 2 s default
(conformance/harness/control_flow.py).

Prepared models are cached per worker, so a case is prepared once for all its
items. The skip-versus-fail rule is VTS's (docs/vts-parity.md 3.1).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from conformance.harness import control_flow, coupling, fresh
from conformance.harness.cases import GeneratedTest
from conformance.harness.device_memory import MEMORIES, MEMORY_PATHS, placement
from conformance.harness.execution import (
    DYNAMIC_PATHS,
    PATHS,
    PATHS_BY_ID,
    case_in_profile,
    check_timing,
    runs_under,
)
from conformance.harness.execution import run as run_path
from conformance.harness.generated import corpus_of, lowest_version
from conformance.harness.items import CaseId, Item
from conformance.harness.marks import (
    case_marks,
    case_pick,
    cases,
    cases_wanted,
    every_case,
    level_marks,
    mark,
)
from conformance.harness.models import CONSTANT_POOL_THRESHOLD
from conformance.harness.prepared import prepared as prepare_cached
from conformance.harness.requests import Layout, pack_request
from conformance.harness.rerun import rerun_command
from conformance.harness.runner import (
    Mode,
    Run,
    biased_outputs,
    case_twin,
    check_output_shapes,
    compares_values,
    execute_case,
    has_dynamic_twin,
    require_model_level,
)
from conformance.harness.tolerance import rules_for, tolerance_for
from hal.levels import level as level_of
from hal.memory import ASHMEM
from hal.operations import Tier
from hal.types import ErrorStatus, ExecutionPreference, HalVersion, OperandLifeTime

_DYNAMIC_PATHS = [*(p.id for p in DYNAMIC_PATHS), "fenced"]
"""The paths of the dynamic runs: ``fenced`` must refuse outputs of unknown size (VTS 1.3's
DynamicOutputShapeTest runs FENCED too)."""
_STATIC_RUNS = tuple((path.id, path.level) for path in PATHS)
"""Each path's id and level, as the static items of every example name and mark them."""
_TWIN_MODES = (Mode.DYNAMIC, Mode.DYNAMIC_SHORT, Mode.SHAPES)
SHAPES_PATHS = ("sync", "async", "burst")
"""The paths a ``shapes`` item runs its example on (the burst only where the profile runs
burst items for the case)."""


@dataclass(frozen=True)
class _Plan:
    """How a generated item runs its example: the execution path ("": the level's own, for
    the runs that name no path), the output mode and the request's layout."""

    path: str
    mode: Mode
    layout: Layout
    strict: bool = False
    """Whether the item is of the strict tier (its tolerance rules: ``tolerance.rules_for``)."""


def _items_of(
    test: GeneratedTest, profile: str = "full", picks: Callable[[str, Any], bool] = every_case
) -> list[Item[_Plan]]:
    """The items of ``test`` in ``profile``'s run that the run builds (``picks``:
    ``marks.case_pick``, asked once for each before it is made)."""
    if not case_in_profile(test, profile):
        return []
    packed, scattered = Layout.PACKED, Layout.SCATTERED
    shared = (mark("generated"), *case_marks(test))
    parity, strict = (mark("tier", Tier.PARITY), *shared), (mark("tier", Tier.STRICT), *shared)
    found = []
    dynamic = has_dynamic_twin(test)  # no dynamic-shape runs of a model holding RANK (VTS)
    large_constant = _has_large_constant(test)

    base = CaseId.of(test)  # its parts once: ``CaseId.of`` per item was a third of the import
    case = base.case
    at_level: dict[HalVersion, tuple] = {}
    """The marks of a parity item at each path's level: one tuple for every item at that
    level, which the plugin reads once (``plugins.collection``: marks by identity)."""

    def parity_at(level: HalVersion) -> tuple:
        if level not in at_level:
            at_level[level] = (*parity, *level_marks(level))
        return at_level[level]

    def add(feed: int, run: str, plan: tuple, marks: tuple, computes: bool) -> None:
        """The item of ``run`` (its ``_Plan``'s fields: ``plan``) on example ``feed``, if
        the profile runs it and the run builds it."""
        path, run = plan[0], str(run)
        if path and not runs_under(PATHS_BY_ID[path], case, profile):
            return
        if picks(head + run, marks):
            at = CaseId(base.folder, base.spec, base.name, feed, run)
            found.append(Item(_Plan(*plan), at, test=test, marks=marks, computes=computes))

    for feed in range(len(test.feeds)):
        head = base.of_run(feed, "")  # the id of every run of the example, but its run's name
        values = compares_values(test, feed)
        for path, level in _STATIC_RUNS:
            add(feed, path, (path, Mode.STATIC, packed), parity_at(level), values)
        for mode in (Mode.DYNAMIC, Mode.DYNAMIC_SHORT) if dynamic else ():
            for path in _DYNAMIC_PATHS:
                computes = values and mode != Mode.DYNAMIC_SHORT
                marks = parity_at(PATHS_BY_ID[path].level)
                add(feed, f"{path}-{mode}", (path, mode, packed), marks, computes)
        add(feed, scattered, ("", Mode.STATIC, scattered, True), strict, values)
        if dynamic:
            add(feed, Mode.SHAPES, ("", Mode.SHAPES, packed, True), strict, values)
        if biased_outputs(test, feed):
            add(feed, Mode.BIAS, ("sync", Mode.BIAS, packed, True), strict, values)
        if large_constant:
            add(feed, Mode.CONSTANT_POOL, ("", Mode.CONSTANT_POOL, packed, True), strict, values)
    return found


def _has_large_constant(test: GeneratedTest) -> bool:
    return any(
        operand.location.length > CONSTANT_POOL_THRESHOLD
        and operand.lifetime == OperandLifeTime.CONSTANT_COPY
        for operand in test.model.operands
    )


def _cases_of(config: pytest.Config) -> tuple[GeneratedTest, ...]:
    """The cases whose items the function being collected may list: every generated case,
    or when the run names items by node id only the cases of their spec modules
    (``cases_wanted``: a rerun of one item builds no other spec's)."""
    return corpus_of(cases_wanted(config))


def _tests(config: pytest.Config) -> list[GeneratedTest]:
    """The cases of the positive runs (``_cases_of``): an expected-failure model has its own
    test (``test_expect_failure``), as in VTS 1.3."""
    return [test for test in _cases_of(config) if not test.expect_failure]


def _prepared_for(
    device,
    test: GeneratedTest,
    mode: Mode,
    level: HalVersion,
    timeout: float,
    preference: int = ExecutionPreference.FAST_SINGLE_ANSWER,
):
    """The preparation of a case (its dynamic twin for the dynamic modes; for ``constpool``
    the case with its constants over ``CONSTANT_POOL_THRESHOLD`` bytes in an ashmem
    CONSTANT_REFERENCE pool), cached per worker (``harness.prepared``), or the skip it led
    to."""
    if mode == Mode.CONSTANT_POOL:
        return prepare_cached(
            device,
            test.model,
            level,
            timeout,
            preference=preference,
            case=test.model,
            constant_pool=ASHMEM,
            pool_threshold=CONSTANT_POOL_THRESHOLD,
        )
    model = case_twin(test) if mode in _TWIN_MODES else test.model
    return prepare_cached(device, model, level, timeout, preference=preference, case=test.model)


def _generated_params(config: pytest.Config) -> list:
    profile, picks = config.getoption("--nnhal-profile"), case_pick(config)
    return [item for test in _tests(config) for item in _items_of(test, profile, picks)]


@cases("item", _generated_params)
def test_generated(item: Item[_Plan], nnhal) -> None:
    plan, hal_level = item.runs, nnhal.level
    path = plan.path or ("execute_synchronously" if hal_level >= HalVersion.V1_2 else "async10")
    path = "sync" if path == "execute_synchronously" else path
    needed = PATHS_BY_ID[path].level
    if plan.mode in _TWIN_MODES:
        needed = HalVersion.V1_2
    if hal_level < needed:
        pytest.skip(f"needs HAL {needed}; the driver is tested at HAL {hal_level}")
    require_model_level(item.test, hal_level)
    prepared = _prepared_for(nnhal.device, item.test, plan.mode, hal_level, nnhal.timeout)
    rerun = rerun_command(nnhal.config, __name__, item.selector("test_generated"))
    rules = rules_for(hal_level, plan.strict)
    run = Run(item.test, item.example, path, plan.mode, plan.layout, rerun, rules)
    if plan.mode == Mode.SHAPES:
        profile = nnhal.config.getoption("--nnhal-profile")
        paths = [p for p in SHAPES_PATHS if runs_under(PATHS_BY_ID[p], item.case.case, profile)]
        check_output_shapes(prepared, run, paths, nnhal.timeout)
        return
    execute_case(prepared, run, nnhal.timeout)


def _prepare_run(level: HalVersion, preference: ExecutionPreference) -> str:
    """The run of a prepare item: the level's prepare method, with the preference where the
    method takes one (HAL 1.1 and later)."""
    record = level_of(level)
    return f"{record.prepare}-{preference.name}" if record.takes_preference else record.prepare


@dataclass(frozen=True)
class _InMemory:
    """What a memory item passes: where the arguments are (``device_memory.MEMORIES``) and
    the path."""

    memory: str
    path: str


def _memory_params(config: pytest.Config) -> list:
    profile, picks = config.getoption("--nnhal-profile"), case_pick(config)
    params = []
    for test in _tests(config):
        if not case_in_profile(test, profile):
            continue
        shared = (mark("tier", Tier.PARITY), mark("generated"), *case_marks(test))
        at_path = {path: (*shared, *level_marks(PATHS_BY_ID[path].level)) for path in MEMORY_PATHS}
        runs = [
            (f"{memory}-{path}", path, at_path[path], _InMemory(memory, path))
            for memory in MEMORIES
            for path in MEMORY_PATHS
        ]
        params.extend(_example_items(test, runs, profile, picks))
    return params


def _example_items(test: GeneratedTest, runs: list[tuple], profile: str, picks) -> Iterator[Item]:
    """The items of every example of ``test`` for each ``(run, path, marks, payload)`` of
    ``runs`` that the profile runs on ``path`` and the run builds (``picks``)."""
    base = CaseId.of(test)
    runs = [entry for entry in runs if runs_under(PATHS_BY_ID[entry[1]], base.case, profile)]
    for feed in range(len(test.feeds)):
        computes = None
        for run, _, marks, payload in runs:
            if not picks(base.of_run(feed, run), marks):
                continue
            if computes is None:
                computes = compares_values(test, feed)
            case = CaseId(base.folder, base.spec, base.name, feed, run)
            yield Item(payload, case, test=test, marks=marks, computes=computes)


@cases("item", _memory_params)
def test_generated_memory(item: Item[_InMemory], nnhal) -> None:
    """The case's example through a 1.3 path (``execute_1_3``, ``execute_synchronously_1_3``,
    ``execute_fenced``) with its request pools in hardware_buffer_blob memory (``blob``) or
    each argument in a buffer the driver allocates (``device``): VTS 1.3's MemoryDomainTest."""
    needed = PATHS_BY_ID[item.runs.path].level
    if nnhal.level < needed:
        pytest.skip(f"needs HAL {needed}; the driver is tested at HAL {nnhal.level}")
    require_model_level(item.test, nnhal.level)
    prepared = _prepared_for(nnhal.device, item.test, Mode.STATIC, nnhal.level, nnhal.timeout)
    rerun = rerun_command(nnhal.config, __name__, item.selector("test_generated_memory"))
    run = Run(item.test, item.example, item.runs.path, rerun=rerun, rules=rules_for(nnhal.level))
    where = placement(item.runs.memory, nnhal.device, prepared)
    execute_case(prepared, run, nnhal.timeout, where)


COUPLING_PATHS = tuple(p.id for p in PATHS if p.method == "burst" or p.level == HalVersion.V1_3)
"""The paths a signed twin runs on (VTS 1.3's QuantizationCouplingTest: ASYNC, SYNC, BURST
and FENCED, each with MeasureTiming NO and YES)."""
SIGNED = "signed"
"""What a coupling item's run begins with: ``signed-async13``."""


@dataclass(frozen=True)
class _Coupled:
    """What a coupling item passes: the unsigned case (the item's ``test`` is its signed
    twin) and the path."""

    case: GeneratedTest
    path: str


_TWINS: dict[int, tuple[GeneratedTest, GeneratedTest | None]] = {}
"""id(case) -> (the case, its signed twin or None when it has none): made once per process,
so that the twin's model keys the prepared-model cache."""


def _coupled(tests: list[GeneratedTest]) -> list[tuple[GeneratedTest, GeneratedTest]]:
    """Each of ``tests`` that has a signed twin, with the twin (``_TWINS``)."""
    found = []
    for test in tests:
        entry = _TWINS.get(id(test))
        if entry is None or entry[0] is not test:
            twin = coupling.signed_twin(test) if coupling.couples(test) else None
            entry = _TWINS[id(test)] = (test, twin)
        if entry[1] is not None:
            found.append((test, entry[1]))
    return found


def _coupling_params(config: pytest.Config) -> list:
    profile, picks = config.getoption("--nnhal-profile"), case_pick(config)
    params = []
    for test, twin in _coupled(_tests(config)):
        marks = (mark("tier", Tier.PARITY), mark("generated"), *case_marks(twin))
        marks += level_marks(HalVersion.V1_3)
        runs = [(f"{SIGNED}-{path}", path, marks, _Coupled(test, path)) for path in COUPLING_PATHS]
        params.extend(_example_items(twin, runs, profile, picks))
    return params


@cases("item", _coupling_params)
def test_generated_coupling(item: Item[_Coupled], nnhal) -> None:
    """The signed twin of a case with TENSOR_QUANT8_ASYMM operands (each made
    TENSOR_QUANT8_ASYMM_SIGNED, its zero point and values 128 lower): a HAL 1.3 driver that
    supports the case supports, prepares and computes the twin, whose expected outputs are
    the case's 128 lower; one that declines the case declines the twin (VTS 1.3's
    QuantizationCouplingTest)."""
    if nnhal.level < HalVersion.V1_3:
        pytest.skip(f"needs HAL 1.3; the driver is tested at HAL {nnhal.level}")
    rerun = rerun_command(nnhal.config, __name__, item.selector("test_generated_coupling"))
    prepared = coupling.prepared_twin(nnhal.device, item.runs.case, item.test, nnhal.timeout, rerun)
    run = Run(item.test, item.example, item.runs.path, rerun=rerun, rules=rules_for(nnhal.level))
    execute_case(prepared, run, nnhal.timeout)


@dataclass(frozen=True)
class _Preparation:
    """What a prepare item passes: the HAL level whose prepare method it goes through, and
    the execution preference."""

    level: HalVersion
    preference: ExecutionPreference


@functools.cache
def _prepare_marks(level: HalVersion) -> tuple:
    """The marks of a prepare item through ``level``'s method: one tuple for every item of
    that level (the plugin reads a tuple once: ``plugins.collection``, marks by identity)."""
    return (mark("tier", Tier.PARITY), *level_marks(level))


def _prepare_items(config: pytest.Config) -> list:
    profile, picks = config.getoption("--nnhal-profile"), case_pick(config)
    params = []
    for test in _tests(config):
        if not case_in_profile(test, profile):
            continue
        lowest, base = lowest_version(test), CaseId.of(test)
        computes = None
        for level in HalVersion:
            # A case of the 1.3 folder, or of a level of its own (a lifetime variation),
            # goes through 1.3's prepare method only, as VTS 1.3 prepares it (even where
            # its model would be valid at 1.2); older folders' cases through every
            # method from their model's level on, as before.
            late = test.case_level >= HalVersion.V1_3 and level < test.case_level
            if lowest is None or level < lowest or late:
                continue
            preferences = (
                list(ExecutionPreference)
                if level_of(level).takes_preference
                else [ExecutionPreference.FAST_SINGLE_ANSWER]
            )
            marks = _prepare_marks(level)
            for preference in preferences:
                run = _prepare_run(level, preference)
                if not picks(base.of_run(None, run), marks, test.provenance.operations):
                    continue
                if computes is None:
                    computes = compares_values(test, 0)  # example 0's outputs are judged
                case = CaseId(base.folder, base.spec, base.name, None, run)
                runs = _Preparation(level, preference)
                params.append(Item(runs, case, test=test, marks=marks, computes=computes))
    return params


@cases("preparation", _prepare_items)
def test_generated_prepare(preparation: Item[_Preparation], nnhal) -> None:
    """Each prepare method and preference the case's version allows, then one execution."""
    test, level = preparation.test, preparation.runs.level
    if nnhal.level < level:
        pytest.skip(f"needs HAL {level}; the driver is tested at HAL {nnhal.level}")
    prepared = _prepared_for(
        nnhal.device, test, Mode.STATIC, level, nnhal.timeout, preparation.runs.preference
    )
    rerun = rerun_command(nnhal.config, __name__, preparation.selector("test_generated_prepare"))
    run = Run(test, 0, "async10", rerun=rerun, rules=rules_for(nnhal.level))
    execute_case(prepared, run, nnhal.timeout)


FRESH = "fresh"
"""The run of a fresh-input item (of example 0's layout)."""


def _fresh_params(config: pytest.Config) -> list:
    profile, picks = config.getoption("--nnhal-profile"), case_pick(config)
    params = []
    for test in _tests(config):
        case = CaseId.of(test, 0, FRESH)
        if fresh.in_profile(case.case, profile) and case_in_profile(test, profile):
            marks = (mark("tier", Tier.PARITY), mark("generated"), *case_marks(test))
            if picks(str(case), marks):
                computes = compares_values(test, 0)
                params.append(Item(None, case, test=test, marks=marks, computes=computes))
    return params


def _stable(test: GeneratedTest, inputs: list, outputs: list, timeout: float, rules) -> bool:
    """Whether the reference answers ``inputs`` the same (within the case's tolerance) when
    the relaxed model's float32 constants are rounded to float16, as a relaxed driver may."""
    model = test.model
    twin = fresh.float16_constants(model)
    if twin.operand_values == model.operand_values:
        return True
    sizes = [o.nbytes for o in outputs]
    case = CaseId.of(test)
    answer = fresh.oracle().compute(f"{case.case}#float16", twin, inputs, sizes, timeout)
    if answer.status != ErrorStatus.NONE or answer.shapes != [o.shape for o in outputs]:
        return False
    rounded = [
        np.frombuffer(data[: o.nbytes], dtype=o.dtype).reshape(o.shape)
        for data, o in zip(answer.outputs, outputs, strict=True)
    ]
    types = [model.operands[i].type for i in model.output_indexes]
    tolerance = tolerance_for(model, case.spec, rules)
    return fresh.same_answer(outputs, rounded, types, tolerance)


@cases("check", _fresh_params)
def test_generated_fresh(check: Item[None], nnhal) -> None:
    """The case once more, on input values drawn for this run (``--nnhal-seed``), judged
    against the reference driver's answer computed in a process of its own: a driver that
    looks up or replays answers instead of computing fails (conformance/harness/fresh.py)."""
    test, case = check.test, check.case.case
    require_model_level(test, nnhal.level)
    prepared = _prepared_for(nnhal.device, test, Mode.STATIC, nnhal.level, nnhal.timeout)
    example = test.feeds[0]
    sizes = [expected.nbytes for expected in example.outputs]
    seed = nnhal.config.getoption("--nnhal-seed", None)
    expected_shapes = [tuple(e.shape) for e in example.outputs]
    last = "no draw differed from the example's inputs"
    relaxed = test.model.relax_computation_float32_to_float16
    rules = rules_for(nnhal.level)
    for attempt in range(fresh.ATTEMPTS):
        rng = fresh.case_rng(seed, case, attempt)
        inputs = (
            fresh.shuffle_classes(example.inputs, rng)
            if test.multinomial_tolerance
            else fresh.draw_inputs(example.inputs, rng, attempt, relaxed)
        )
        if not fresh.differs(inputs, example.inputs):
            continue
        try:
            answer = fresh.oracle().compute(case, test.model, inputs, sizes, nnhal.timeout)
        except fresh.OracleUnavailable as error:  # the harness's failure: an error outcome
            raise RuntimeError(f"no independent answer for the fresh inputs: {error}") from None
        if answer.status != ErrorStatus.NONE or answer.shapes != expected_shapes:
            last = (
                f"the reference driver answered {ErrorStatus(answer.status).name} with shapes "
                f"{answer.shapes}, the example has {expected_shapes}"
            )
            continue
        outputs = [
            np.frombuffer(data[: e.nbytes], dtype=e.dtype).reshape(e.shape)
            for data, e in zip(answer.outputs, example.outputs, strict=True)
        ]
        if fresh.new_nan(outputs, example.outputs, inputs):
            last = "infinite inputs met in a new way: the answer holds a NaN the example's lacks"
            continue
        if relaxed and fresh.beyond_float16(outputs):
            last = "the reference's answer left float16's range, in a relaxed model"
            continue
        if (
            relaxed
            and not test.multinomial_tolerance
            and not _stable(test, inputs, outputs, nnhal.timeout, rules)
        ):
            last = (
                "the reference's answer changed when the relaxed model's float32 constants "
                "were rounded to float16"
            )
            continue
        break
    else:
        pytest.skip(
            f"no fresh inputs for {case}: in {fresh.ATTEMPTS} draws none differed from the "
            f"example's and ran on the reference driver with the example's output shapes ({last})"
        )
    path = "sync" if nnhal.level >= HalVersion.V1_2 else "async10"
    rerun = rerun_command(nnhal.config, __name__, check.selector("test_generated_fresh"))
    drawn = fresh.fresh_case(test, inputs, outputs)
    execute_case(prepared, Run(drawn, 0, path, rerun=rerun, rules=rules), nnhal.timeout)


EXPECT_FAILURE = "expect_failure"
"""The run of an expected-failure item (``Example(...).ExpectFailure()``)."""


def _expect_failure_params(config: pytest.Config) -> list:
    params = []
    for test in _cases_of(config):
        # VTS 1.3 judges them in its validation tests, which leave the lifetime variations out.
        if test.expect_failure and not test.lifetime_variation:
            case = CaseId.of(test, None, EXPECT_FAILURE)
            marks = (mark("tier", Tier.PARITY), mark("generated"), *case_marks(test))
            marks += level_marks(HalVersion.V1_3)
            params.append(Item(None, case, test=test, marks=marks, computes=False))
    return params


@cases("check", _expect_failure_params)
def test_generated_expect_failure(check: Item[None], nnhal) -> None:
    """A model made with ``Example(...).ExpectFailure()`` is valid but its execution must
    fail (VTS 1.3's validateFailure): get_supported_operations must answer NONE, never
    INVALID_ARGUMENT; a driver may decline an operation and fail the preparation
    (unsupported), must prepare a model it reported fully supported, and then one
    execute_synchronously_1_3 of example 0 must answer an error status, no output shapes
    and no timing. The positive runs leave such a model out."""
    test, case = check.test, check.case.case
    if nnhal.level < HalVersion.V1_3:
        pytest.skip(f"needs HAL 1.3; the driver is tested at HAL {nnhal.level}")
    require_model_level(test, nnhal.level)
    rerun = rerun_command(nnhal.config, __name__, check.selector("test_generated_expect_failure"))
    prepared = _prepared_for(nnhal.device, test, Mode.STATIC, nnhal.level, nnhal.timeout)
    example = test.feeds[0]
    sizes = [expected.nbytes for expected in example.outputs]
    path = PATHS_BY_ID["sync13"]
    if control_flow.holds_while(test.model):  # its loop may run out of the 2 s default
        path = control_flow.loop_path(path)
    with pack_request(test.model, example.inputs, sizes) as packed:
        execution = run_path(prepared, packed.request, path, nnhal.timeout)
    assert execution.status != ErrorStatus.NONE, (
        f"{case}: execute_synchronously_1_3 answered NONE for a model whose execution must "
        f"fail (Example(...).ExpectFailure()); it must answer an error status\nrerun: {rerun}"
    )
    assert not execution.output_shapes, (
        f"{case}: execute_synchronously_1_3 failed with {execution.status.name} but returned "
        f"{len(execution.output_shapes)} output shape(s); it must return none\nrerun: {rerun}"
    )
    check_timing(execution)


_LOOP_PATHS = {
    path.id: path for path in (*control_flow.LOOP_PATHS, *control_flow.STRICT_LOOP_PATHS)
}


def _loop_timeout_params(config: pytest.Config) -> list:
    profile = config.getoption("--nnhal-profile")
    params = []
    for test in _cases_of(config):
        if not control_flow.loops_forever(test) or not case_in_profile(test, profile):
            continue
        shared = (mark("generated"), *case_marks(test), *level_marks(HalVersion.V1_3))
        for path in control_flow.LOOP_PATHS:
            marks = (mark("tier", Tier.PARITY), *shared)
            params.append(
                Item(path.id, CaseId.of(test, 0, path.id), test=test, marks=marks, computes=False)
            )
        if test.lifetime_variation:
            continue  # the strict runs wait seconds: once per case of the spec's own
        for path in control_flow.STRICT_LOOP_PATHS:
            marks = (mark("tier", Tier.STRICT), *shared)
            params.append(
                Item(path.id, CaseId.of(test, 0, path.id), test=test, marks=marks, computes=False)
            )
    return params


@cases("check", _loop_timeout_params)
def test_generated_loop_timeout(check: Item[str], nnhal) -> None:
    """A model whose WHILE never ends (an expected-failure case holding a WHILE) run with a
    loop timeout of 1 ms on ``execute_1_3``, ``execute_synchronously_1_3`` and
    ``execute_fenced``: a missed deadline, in time (VTS 1.3's InfiniteLoopTimeoutTest); in
    the strict tier, with 100 ms, and with the 2 s default on ``execute_synchronously``
    (conformance/harness/control_flow.py)."""
    test, path = check.test, _LOOP_PATHS[check.runs]
    if nnhal.level < HalVersion.V1_3:
        pytest.skip(f"needs HAL 1.3; the driver is tested at HAL {nnhal.level}")
    require_model_level(test, nnhal.level)
    rerun = rerun_command(nnhal.config, __name__, check.selector("test_generated_loop_timeout"))
    prepared = _prepared_for(nnhal.device, test, Mode.STATIC, nnhal.level, nnhal.timeout)
    control_flow.judge_endless(prepared, test, path, nnhal.timeout, rerun)
