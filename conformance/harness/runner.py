"""Run one generated case on the driver under test and judge the answer.

``prepare_case`` follows VTS's skip-versus-fail rule (docs/vts-parity.md 3.1): a
valid model's launch status must be NONE; a failed preparation is a skip
(reason ``unsupported``) only when the driver said it does not fully support
the model and gave no prepared model; otherwise it is a failure. A case the
driver declined is decided once per process and HAL level: every later
preparation of it (its dynamic twin, its pooled copies, on any path of any
test module) skips at once, without calling the driver again (``harness.state``, until
the driver service restarts).
``execute_case`` runs one example through one execution path in one output
mode and checks status, shapes, timing and values; every failure says what
was expected, what came back, the tolerance applied and how to rerun the case.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np
import pytest

from conformance.harness import items, state
from conformance.harness.calls import expect_status, prepare, supported_operations
from conformance.harness.cases import GeneratedTest
from conformance.harness.device_memory import Placement
from conformance.harness.execution import (
    MISSED_DEADLINE,
    PATHS_BY_ID,
    check_shapes,
    check_timing,
    run,
)
from conformance.harness.extensions import require_extensions
from conformance.harness.generated import lowest_version
from conformance.harness.items import CaseId
from conformance.harness.mutations import copy_model
from conformance.harness.requests import GUARD, PACKED, Layout, pack_request
from conformance.harness.tolerance import (
    ANDROID_10,
    Rules,
    bias_applies,
    compare,
    quant_bias,
    tolerance_for,
)
from hal.extensions import operation_of
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    Model,
    OperandType,
    OperationType,
    is_fully_specified,
)


class Mode(StrEnum):
    """How a generated item runs its example (``Run.mode``); the dynamic modes and
    ``constpool`` name themselves in the item's id."""

    STATIC = "static"
    """Outputs of the dimensions the model declares."""
    DYNAMIC = "dyn"
    """Every output's dimensions unknown (the case's dynamic twin)."""
    DYNAMIC_SHORT = "dyn-short"
    """As DYNAMIC, one output buffer a byte short: OUTPUT_INSUFFICIENT_SIZE expected."""
    CONSTANT_POOL = "constpool"
    """Constants over 128 bytes moved into a model pool; executed like STATIC."""
    BIAS = "bias"
    """Executed like STATIC; then every quantized output large enough is judged by its mean
    signed and mean squared error too (``tolerance.quant_bias``)."""
    SHAPES = "shapes"
    """The dynamic twin on several paths, every output's ``is_sufficient`` judged: with NONE,
    and with each output in turn a byte short (``check_output_shapes``)."""


STATIC = Mode.STATIC
DYNAMIC = Mode.DYNAMIC
DYNAMIC_SHORT = Mode.DYNAMIC_SHORT
CONSTANT_POOL = Mode.CONSTANT_POOL
SHAPES = Mode.SHAPES
BIAS = Mode.BIAS
_DYNAMIC_MODES = (Mode.DYNAMIC, Mode.DYNAMIC_SHORT)
UNSUPPORTED = "unsupported"
DYNAMIC_UNSUPPORTED = "unsupported: dynamic output shapes"


DECLINED_LIMIT = 16384
"""Declined cases remembered per process (the corpus has some 3,000 cases, three levels)."""


def skip_if_declined(device: object, case: Model, level: HalVersion) -> None:
    """Skip at once, as before, when the driver declined ``case`` at ``level`` earlier."""
    known = state.DECLINED.get((id(device), id(case), level))
    if known is not None and known[0] is device and known[1] is case:
        items.skip_as(known[2])


def _remember_declined(device: object, case: Model, level: HalVersion, skip: BaseException) -> None:
    declined = state.DECLINED
    declined[(id(device), id(case), level)] = (device, case, items.kept(skip))
    while len(declined) > DECLINED_LIMIT:
        declined.popitem(last=False)


NO_DYNAMIC_TWIN = frozenset({OperationType.RANK, OperationType.IF, OperationType.WHILE})
"""Operations that keep a model out of the dynamic-output-shape runs, in any subgraph:
RANK's output is a scalar, whose dimensions cannot be left unknown, and VTS 1.3 leaves
every model holding RANK, IF or WHILE out of its DynamicOutputShapeTest."""


def has_dynamic_twin(test: GeneratedTest) -> bool:
    """Whether the case runs in the dynamic-output-shape modes (``dyn``, ``dyn-short``,
    ``shapes``): not when any subgraph holds an operation of ``NO_DYNAMIC_TWIN``."""
    return not any(o.type in NO_DYNAMIC_TWIN for _, g in test.model.graphs() for o in g.operations)


def case_twin(test: GeneratedTest) -> Model:
    """``dynamic_twin`` of a corpus case's model, made once per process.

    The corpus lives as long as the process, so its models are keyed by
    identity (each entry holds its model, so the identity stays its own).
    """
    entry = state.TWINS.get(id(test.model))
    if entry is None:
        entry = state.TWINS[id(test.model)] = (test.model, dynamic_twin(test.model))
    return entry[1]


def dynamic_twin(model: Model) -> Model:
    """The model with every output's dimensions unknown (rank kept), as VTS's twin has.

    A copy as ``copy_model`` makes it (fresh records and lists, the pools shared):
    ``copy.deepcopy`` cost more than the rest of a generated test's set-up.
    """
    twin = copy_model(model)
    for index in twin.output_indexes:
        operand = twin.operands[index]
        operand.dimensions = [0] * len(operand.dimensions)
        operand.extra_params = None
    return twin


def require_model_level(test: GeneratedTest, hal_level: HalVersion) -> None:
    """Skip a case whose model needs a newer HAL than the one tested; fail on a broken corpus."""
    lowest = lowest_version(test)
    if lowest is None:
        pytest.fail(f"generated model {CaseId.of(test).case} is invalid: regenerate the corpus")
    if lowest > hal_level:
        pytest.skip(f"the model needs HAL {lowest}; the driver is tested at HAL {hal_level}")


def prepare_case(
    device: object,
    model: Model,
    level: HalVersion,
    timeout: float,
    preference: int = ExecutionPreference.FAST_SINGLE_ANSWER,
    *,
    case: Model | None = None,
) -> object:
    """A prepared model for ``model`` through the prepare method of ``level``, or a skip.

    ``case`` is the corpus model ``model`` stands for (``model`` itself when not
    given; the original of a dynamic twin or of a copy with its constants in a
    pool): once the driver declined it at ``level``, every call skips at once. A
    twin or a copy declined is not remembered for the case: a driver may run a model
    of known shapes and decline its dynamic twin.
    """
    case = model if case is None else case
    skip_if_declined(device, case, level)
    require_extensions(device, model)  # an undeclared extension: skipped as unsupported
    status, answers = supported_operations(device, model, level)
    assert status == ErrorStatus.NONE, (
        f"get_supported_operations at HAL {level} returned {status.name} for a valid model"
    )
    preparation = prepare(device, model, level, timeout, preference)
    assert preparation.launch_status == ErrorStatus.NONE, (
        f"{preparation.method} returned launch status {preparation.launch_status.name} for a "
        "valid model; it must be NONE (failure to prepare goes through the callback)"
    )
    if preparation.status == ErrorStatus.NONE:
        return preparation.prepared_model
    if not all(answers):
        unsupported = [i for i, ok in enumerate(answers) if not ok]
        try:
            items.unsupported(
                f"{UNSUPPORTED}: the driver does not support "
                f"{describe_operations(model, unsupported)}"
            )
        except pytest.skip.Exception as skip:
            if model is case:
                _remember_declined(device, case, level, skip)
            raise
    pytest.fail(
        f"{preparation.method} failed with {preparation.status.name} although "
        "get_supported_operations reported every operation supported",
        pytrace=False,
    )


OPERATIONS_NAMED = 4
"""Operations an unsupported reason names; the rest are counted."""


def describe_operations(model: Model, indexes: list[int]) -> str:
    """``operation 0 ADD (TENSOR_FLOAT32)``, ``operations 0 ADD (...), 2 RELU (...)``: each
    operation's index, type and the type of its first input, at most ``OPERATIONS_NAMED``."""
    parts = []
    for index in indexes[:OPERATIONS_NAMED]:
        if not 0 <= index < len(model.operations):
            parts.append(str(index))
            continue
        operation = model.operations[index]
        try:
            name = OperationType(operation.type).name
        except ValueError:
            found = operation_of(operation.type, model.extension_name_to_prefix)
            name = f"{found[0].name}:{found[1].name}" if found else f"type {operation.type}"
        first = operation.inputs[0] if operation.inputs else None
        if first is not None and 0 <= first < len(model.operands):
            try:
                operand = OperandType(model.operands[first].type).name
            except ValueError:
                operand = f"type {model.operands[first].type}"
            name += f" ({operand})"
        parts.append(f"{index} {name}")
    if len(indexes) > OPERATIONS_NAMED:
        parts.append(f"{len(indexes) - OPERATIONS_NAMED} more")
    noun = "operation" if len(indexes) == 1 else "operations"
    return f"{noun} {', '.join(parts)}"


def compares_values(test: GeneratedTest, feed: int, mode: Mode = STATIC) -> bool:
    """Whether an item of ``test`` running example ``feed`` in ``mode`` compares output
    values: some output it checks (not ignored) holds at least one value. Only such an item
    credits its operations when it passes (docs/report.md, "What credits an operation"): a
    model whose outputs are all zero-sized, or the ``dyn-short`` mode (a status and shapes,
    no values), proves nothing was computed."""
    if mode == DYNAMIC_SHORT:
        return False
    outputs = test.feeds[feed].outputs
    if test.multinomial_tolerance and outputs[0].size > 0:
        return True  # output 0's draws are judged against softmax of the logits
    return any(
        expected.size > 0
        for index, expected in enumerate(outputs)
        if index not in test.ignored_outputs
    )


@dataclass(frozen=True)
class Run:
    """One item of the generated suite: a case, an example, a path and an output mode."""

    test: GeneratedTest
    feed: int
    path: str
    mode: Mode = STATIC
    layout: Layout = PACKED
    rerun: str = ""
    rules: Rules = ANDROID_10
    """The tolerance rules of the tested level and the item's tier (``tolerance.rules_for``)."""


def execute_case(
    prepared: object, item: Run, timeout: float, placement: Placement | None = None
) -> None:
    """Run the item's example through its path and judge the answer; ``placement`` puts
    its arguments in hardware_buffer_blob pools or driver buffers (``device_memory``)."""
    test, feed = item.test, item.test.feeds[item.feed]
    path = PATHS_BY_ID[item.path]
    dynamic = item.mode in _DYNAMIC_MODES
    model = case_twin(test) if dynamic else test.model
    sizes = [expected.nbytes for expected in feed.outputs]
    short = _short_output(feed.outputs) if item.mode == DYNAMIC_SHORT else None
    if item.mode == DYNAMIC_SHORT and short is None:
        pytest.skip("no output is larger than one byte: an insufficient buffer cannot be made")
    if short is not None:
        sizes[short] -= 1
    placement = placement or Placement()
    with pack_request(model, feed.inputs, sizes, placement.kind, item.layout) as packed, placement:
        placement.place(packed, feed.inputs)
        execution = run(prepared, packed.request, path, timeout)
        check_timing(execution)
        if path.method == "execute_fenced" and dynamic and _unknown_size(model):
            _judge_fenced_unknown(execution.status, item)
            return
        check_shapes(execution, len(sizes), dynamic and path.method != "execute_fenced")
        if execution.status in MISSED_DEADLINE:
            return  # accepted only for an execution given a deadline (calls.as_status)
        if path.method == "execute_fenced" and any(e.size == 0 for e in feed.outputs):
            # an output of no element has a 0 among its dimensions: a size no fence can tell
            expect_status(execution.status, ErrorStatus.INVALID_ARGUMENT, _zero_sized(item))
            return
        _judge_status(execution.status, item)
        if short is not None:
            _judge_insufficient(execution.output_shapes, short, feed.outputs[short].shape, item)
            return
        untouched = packed.untouched_problems()
        assert not untouched, "; ".join(untouched) + _rerun(item)
        written = placement.read_back(packed)
        _judge_outputs(written, execution.output_shapes, item)
        if item.mode == BIAS:
            _judge_bias(written, item)


def biased_outputs(test: GeneratedTest, feed: int) -> list[int]:
    """The outputs of ``test``'s example ``feed`` the strict bias criterion judges."""
    model = test.model
    return [
        k
        for k, expected in enumerate(test.feeds[feed].outputs)
        if k not in test.ignored_outputs
        and bias_applies(expected, model.operands[model.output_indexes[k]].type)
    ]


def _judge_bias(packed, item: Run) -> None:
    problems = []
    for index in biased_outputs(item.test, item.feed):
        expected = item.test.feeds[item.feed].outputs[index]
        bias = quant_bias(expected, packed.output(index, expected.shape))
        if not bias.ok:
            problems.append(f"output {index} (shape {list(expected.shape)}): {bias.describe()}")
    if problems:
        pytest.fail(
            "quantized outputs are biased (each value may be within tolerance, but the errors "
            "lean one way or are too many):\n" + "\n".join(problems) + _rerun(item),
            pytrace=False,
        )


def _short_output(outputs: list[np.ndarray]) -> int | None:
    for index, expected in enumerate(outputs):
        if expected.nbytes > 1 and 0 not in expected.shape:
            return index
    return None


def _unknown_size(model: Model) -> bool:
    """Whether an output of ``model`` has dimensions it does not fully give."""
    prefixes = model.extension_name_to_prefix
    return any(not is_fully_specified(model.operands[i], prefixes) for i in model.output_indexes)


def _judge_fenced_unknown(status: ErrorStatus, item: Run) -> None:
    """A fenced execution of outputs of unknown size (the dynamic twin) must be refused:
    no fence could tell the sizes it would find. GENERAL_FAILURE is the driver declining
    the twin, which VTS 1.3 skips, as every dynamic mode does."""
    if status == ErrorStatus.GENERAL_FAILURE:
        items.unsupported(f"{DYNAMIC_UNSUPPORTED}: execute_fenced answered GENERAL_FAILURE")
    what = (
        "execute_fenced of a model whose outputs have unknown dimensions (a fenced "
        f"execution reports no output shapes){_rerun(item)}"
    )
    expect_status(status, ErrorStatus.INVALID_ARGUMENT, what)


def _zero_sized(item: Run) -> str:
    return (
        "execute_fenced of an example with a zero-sized output (whose size only output shapes "
        f"could give){_rerun(item)}"
    )


def _judge_status(status: ErrorStatus, item: Run) -> None:
    wanted = (
        ErrorStatus.OUTPUT_INSUFFICIENT_SIZE if item.mode == DYNAMIC_SHORT else ErrorStatus.NONE
    )
    if status == wanted:
        return
    if item.mode in _DYNAMIC_MODES and status == ErrorStatus.GENERAL_FAILURE:
        items.unsupported(f"{DYNAMIC_UNSUPPORTED}: the driver answered GENERAL_FAILURE")
    pytest.fail(f"status {status.name}, expected {wanted.name}{_rerun(item)}", pytrace=False)


def _judge_insufficient(shapes, short: int, dims: tuple[int, ...], item: Run) -> None:
    reported = shapes[short]
    assert not reported.is_sufficient, (
        f"output {short} was given one byte too few but is_sufficient is True{_rerun(item)}"
    )
    assert tuple(reported.dimensions) == tuple(dims), (
        f"output {short}: reported dimensions {list(reported.dimensions)}, the output needs "
        f"{list(dims)}{_rerun(item)}"
    )


def check_output_shapes(prepared: object, item: Run, paths: list[str], timeout: float) -> None:
    """Every ``is_sufficient`` flag, on the dynamic twin (strict; VTS looks only at the
    short output's flag after OUTPUT_INSUFFICIENT_SIZE).

    On each of ``paths``: with every buffer large enough the status is NONE and every
    reported shape sufficient, its dimensions the expected ones; then, for each output
    that can be made a byte short, that one alone short: OUTPUT_INSUFFICIENT_SIZE, and
    each output's flag says whether its own buffer holds the dimensions reported for it.
    """
    test, feed = item.test, item.test.feeds[item.feed]
    model = case_twin(test)
    sizes = [expected.nbytes for expected in feed.outputs]
    shorts = [
        k
        for k, expected in enumerate(feed.outputs)
        if expected.nbytes > 1 and 0 not in expected.shape
    ]
    for path in paths:
        for short in [None, *shorts]:
            given = [size - (k == short) for k, size in enumerate(sizes)]
            with pack_request(model, feed.inputs, given) as packed:
                execution = run(prepared, packed.request, PATHS_BY_ID[path], timeout)
            check_shapes(execution, len(sizes), True)
            mode = DYNAMIC if short is None else DYNAMIC_SHORT
            _judge_status(execution.status, replace(item, path=path, mode=mode))
            what = f"{path}, " + (
                "every output buffer large enough (status NONE)"
                if short is None
                else f"output {short} alone a byte short (status OUTPUT_INSUFFICIENT_SIZE)"
            )
            problems = []
            for k, (shape, expected) in enumerate(
                zip(execution.output_shapes, feed.outputs, strict=True)
            ):
                dims = tuple(shape.dimensions)
                if k not in test.ignored_outputs and dims != expected.shape:
                    problems.append(
                        f"output {k}: reported dimensions {list(dims)}, expected {list(expected.shape)}"
                    )
                    continue
                holds = math.prod(dims) * expected.itemsize <= given[k]
                if shape.is_sufficient is not holds:
                    problems.append(
                        f"output {k}: is_sufficient {shape.is_sufficient}, but its buffer of "
                        f"{given[k]} bytes {'holds' if holds else 'does not hold'} the reported "
                        f"dimensions {list(dims)}"
                    )
            if problems:
                pytest.fail(f"{what}: " + "; ".join(problems) + _rerun(item), pytrace=False)


def _judge_outputs(packed, shapes, item: Run) -> None:
    test, feed = item.test, item.test.feeds[item.feed]
    tolerance = tolerance_for(test.model, test.provenance.spec.rsplit("/", 1)[-1], item.rules)
    problems = []
    mismatches, largest = 0, None
    for index, expected in enumerate(feed.outputs):
        if index in test.ignored_outputs:
            continue
        if shapes and tuple(shapes[index].dimensions) != expected.shape:
            problems.append(
                f"output {index}: reported dimensions {list(shapes[index].dimensions)}, "
                f"expected {list(expected.shape)}"
            )
            continue
        operand = test.model.operands[test.model.output_indexes[index]]
        actual = packed.output(index, expected.shape)
        result = compare(expected, actual, operand.type, tolerance)
        if not result.ok and packed.unwritten(index, expected.nbytes):
            problems.append(unwritten_problem(index, expected.nbytes))
        elif not result.ok:
            mismatches += result.mismatches
            largest = _larger(largest, result.max_abs_error)
            problems.append(
                f"output {index} (shape {list(expected.shape)}): {result.mismatches} of "
                f"{expected.size} values differ, max abs error {result.max_abs_error:g} at "
                f"{list(result.worst_index)}; {result.excerpt}"
            )
    if test.multinomial_tolerance:
        problems += _multinomial_problems(
            feed.inputs[0], packed.output(0, feed.outputs[0].shape), test.multinomial_tolerance
        )
    if problems:
        metrics = {"mismatches": mismatches, "max_abs_error": largest} if mismatches else None
        items.fail(
            "\n".join(problems) + f"\ntolerance: {tolerance.describe()}{_rerun(item)}",
            metrics=metrics,
        )


def _larger(largest: float | str | None, error: float) -> float | str | None:
    """The larger max abs error; a non-finite one as text (JSON has no inf or nan)."""
    if not math.isfinite(error):
        return str(float(error))
    if largest is None or (isinstance(largest, float) and error > largest):
        return float(error)
    return largest


def unwritten_problem(index: int, length: int) -> str:
    """The problem of an output the driver left as the harness filled it."""
    return (
        f"output {index} was not written: all {length} bytes still hold the fill byte "
        f"0x{GUARD:02X} the harness put there"
    )


def _multinomial_problems(logits: np.ndarray, samples: np.ndarray, tolerance: float) -> list[str]:
    """Drawn class frequencies within ``tolerance`` of softmax(logits), row by row
    (docs/vts-parity.md 3.5)."""
    logits = logits.astype(np.float64).reshape(logits.shape[0], -1)
    samples = samples.reshape(logits.shape[0], -1).astype(np.int64)
    problems = []
    for row, (scores, drawn) in enumerate(zip(logits, samples, strict=True)):
        if drawn.size == 0 or drawn.min() < 0 or drawn.max() >= scores.size:
            problems.append(f"batch {row}: drawn classes outside [0, {scores.size}): {drawn[:8]}")
            continue
        finite = np.isfinite(scores)
        if not finite.any():
            problems.append(f"batch {row}: no finite logit, so no class can be drawn")
            continue
        # Non-finite logits have probability 0 (docs/operations.md, RANDOM_MULTINOMIAL (74));
        # NaN would hide any answer.
        expected = np.where(finite, np.exp(np.where(finite, scores, 0) - scores[finite].max()), 0)
        expected /= expected.sum()
        observed = np.bincount(drawn, minlength=scores.size) / drawn.size
        worst = int(np.argmax(np.abs(observed - expected)))
        if abs(observed[worst] - expected[worst]) > tolerance:
            problems.append(
                f"batch {row}: class {worst} drawn with frequency {observed[worst]:.4f}, "
                f"softmax gives {expected[worst]:.4f} (multinomial tolerance {tolerance})"
            )
    return problems


def _rerun(item: Run) -> str:
    return f"\nrerun: {item.rerun}" if item.rerun else ""
