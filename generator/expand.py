"""Spec file -> ``GeneratedTest`` records: evaluate, expand the variations, compile.

``evaluate_spec`` runs one ``.mod.py`` file in a fresh namespace with its own
``SpecContext``, then, for every example in creation order, takes the
cartesian product of its variation groups (docs/spec-language.md 5.1),
applies each static combination to a copy of the model and feeds, and
compiles the result into a HAL model with typed example arrays. Dynamic-
output-shape combinations are only named (``dynamic_name``): the harness
builds those twins at run time. Every problem becomes one ``SpecError``
naming the spec file and line.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from conformance.harness.cases import LIFETIME_LEVEL, Feed, GeneratedTest, Provenance
from generator.context import SpecContext, activate
from generator.dsl import Example, Parameter, spec_namespace
from generator.errors import DslError, SpecError
from generator.ir import BOOL_TYPES, FLOAT_TYPES, FeedData, WorkModel, WorkOperand, WorkOperation
from generator.variations import (
    LIFETIME_VARIATIONS,
    DefaultVariation,
    DynamicOutputShapeConverter,
    ModelVariation,
    SkipVariation,
)
from hal.extensions import (
    harness_declarations,
    harness_number,
    qualified_operand_type,
    split_qualified,
)
from hal.levels import folder_level, spec_folders
from hal.types import (
    DataLocation,
    ExtensionNameAndPrefix,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Subgraph,
    SymmPerChannelQuantParams,
    numpy_dtype,
)

__all__ = ["SpecError", "evaluate_spec", "spec_examples"]

_LIFETIMES = {
    "input": OperandLifeTime.MODEL_INPUT,
    "output": OperandLifeTime.MODEL_OUTPUT,
    "ignored": OperandLifeTime.MODEL_OUTPUT,
    "internal": OperandLifeTime.TEMPORARY_VARIABLE,
    "operand": OperandLifeTime.TEMPORARY_VARIABLE,
    # CONSTANT_REFERENCE parameters (use_shm_for_weights) are emitted as
    # CONSTANT_COPY too: the harness moves constants into pools at run time.
    "parameter": OperandLifeTime.CONSTANT_COPY,
    "omitted": OperandLifeTime.NO_VALUE,
    "subgraph": OperandLifeTime.SUBGRAPH,
}
_NOT_CONSTANT = frozenset({"UINT32", "TENSOR_QUANT16_SYMM", "TENSOR_OEM_BYTE"})
"""Types Android 10's VTS generator cannot emit as constants."""


@dataclass(frozen=True)
class _SpecFile:
    path: Path
    relpath: str
    hal_folder: str
    spec_name: str
    version: str | None


def _spec_file(path: Path, repo_root: Path) -> _SpecFile:
    absolute = path.resolve()
    try:
        relpath = absolute.relative_to(repo_root.resolve()).as_posix()
    except ValueError:
        relpath = path.as_posix()
    folders = [part for part in absolute.parts[:-1] if re.fullmatch(r"V\d_\d", part)]
    versions = re.findall(r"/(V\d_\d)/", absolute.as_posix())
    return _SpecFile(
        path=absolute,
        relpath=relpath,
        hal_folder=folders[-1] if folders else absolute.parent.name,
        spec_name=absolute.name.split(".", 1)[0],
        version=versions[0] if len(versions) == 1 else None,
    )


def evaluate_spec(path: Path, repo_root: Path) -> list[GeneratedTest]:
    """Every static test of one spec file, in the NNAPI generator's order."""
    spec = _spec_file(Path(path), Path(repo_root))
    context = _run(spec)
    tests: list[GeneratedTest] = []
    for example in context.examples:
        try:
            tests.extend(_expand_example(context, spec, example))
        except DslError as error:
            raise _spec_error(spec, str(error), error.line or example.line) from error
        except Exception as error:
            raise _spec_error(spec, _describe(error), example.line) from error
    return tests


def spec_examples(path: Path, repo_root: Path) -> list[list[FeedData]]:
    """The cases of every ``Example`` of one spec, as written (before any variation).

    One list per ``Example``, one ``FeedData`` (inputs and outputs by operand name)
    per case: what the oracle check of ``conformance/specs/oracles`` compares.
    ``IgnoredOutput`` operands are left out (their data is never compared).
    """
    result = []
    for example in _run(_spec_file(Path(path), Path(repo_root))).examples:
        ignored = {op.name for op in example.model.operands if op.kind == "ignored"}
        result.append(
            [
                FeedData(
                    dict(feed.inputs),
                    {k: v for k, v in feed.outputs.items() if k not in ignored},
                )
                for feed in example.feedDicts
            ]
        )
    return result


# ---------------------------------------------------------------------------
# Running the spec
# ---------------------------------------------------------------------------


def _run(spec: _SpecFile) -> SpecContext:
    context = SpecContext(filename=str(spec.path), spec_name=spec.spec_name, version=spec.version)
    try:
        code = compile(spec.path.read_text(encoding="utf-8"), context.filename, "exec")
    except OSError as error:
        raise _spec_error(spec, f"cannot read the spec: {error.strerror}", 0) from error
    except SyntaxError as error:
        raise _spec_error(spec, f"SyntaxError: {error.msg}", error.lineno or 0) from error
    with activate(context), _process_state():
        try:
            exec(code, spec_namespace())
        except (Exception, SystemExit) as error:
            line = _traceback_line(error, context.filename)
            raise _spec_error(spec, _describe(error), line) from error
    return context


@contextlib.contextmanager
def _process_state() -> Iterator[None]:
    """Run a spec from the same process state, and give the process back as it was: the
    ``random`` and numpy generators (a spec may draw, shuffle or reseed them) start from seed
    0 and are restored, and so are ``sys.path``, ``sys.argv`` and the recursion limit
    (docs/spec-language.md 1.1). A spec's draws are the same on every run, and one spec
    cannot change what the next one draws or imports."""
    saved = (
        random.getstate(),
        np.random.get_state(),
        list(sys.path),
        list(sys.argv),
        sys.getrecursionlimit(),
    )
    random.seed(0)
    np.random.seed(0)
    try:
        yield
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])
        sys.path[:] = saved[2]
        sys.argv[:] = saved[3]
        sys.setrecursionlimit(saved[4])


def _describe(error: BaseException) -> str:
    if isinstance(error, DslError):
        return str(error)
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _traceback_line(error: BaseException, filename: str) -> int:
    """The line of the innermost spec-file frame in the error's traceback."""
    line, tb = 0, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _spec_error(spec: _SpecFile, message: str, line: int) -> SpecError:
    one_line = re.sub(r"\s*\n\s*", " ", message.strip())
    return SpecError(f"{spec.relpath}:{line}: {one_line}")


# ---------------------------------------------------------------------------
# Expanding an example
# ---------------------------------------------------------------------------


def _groups(example: Example) -> tuple[list[list[ModelVariation]], int]:
    """The example's variation groups, then Android 11's automatic lifetime groups
    [default, all_tensors_as_inputs] and [default, all_inputs_as_internal] for an example of
    a one-operation model that neither disabled them nor checks a multinomial distribution
    (docs/spec-language.md 5.5); and how many lifetime groups were added."""
    groups = list(example.variations)
    if (
        example.testLifeTimeVariation
        and len(example.model.operations) == 1
        and example.expectedMultinomialDistributionTolerance is None
    ):
        groups += [[DefaultVariation(), kind()] for kind in LIFETIME_VARIATIONS]
        return groups, len(LIFETIME_VARIATIONS)
    return groups, 0


def _expand_example(context: SpecContext, spec: _SpecFile, example: Example) -> list[GeneratedTest]:
    groups, lifetime_groups = _groups(example)
    for variation in (v for group in groups for v in group):
        if variation.name is None:
            variation.SetToDefaultName()
    combos = list(itertools.product(*(range(len(group)) for group in groups)))
    # Names are taken in product order. A static combination is applied before its name
    # is taken: one that a variation skips makes no test and takes no name, nor does its
    # dynamic twin (Android 11). The twins (group 0's second member) come after every
    # static combination, so each finds its static one decided.
    applied: dict[tuple, tuple[WorkModel, list[FeedData]] | None] = {}
    names: dict[tuple, str] = {}
    for combo in combos:
        variations = [groups[g][i] for g, i in enumerate(combo)]
        base = _test_name_base(context, example, variations)
        if any(isinstance(v, DynamicOutputShapeConverter) for v in variations):
            if applied[(0, *combo[1:])] is not None:
                names[combo] = context.test_names.claim(base, sep="_", start=1)
            continue
        name = context.test_names.peek(base, sep="_", start=1)
        applied[combo] = _applied(example, variations, name)
        if applied[combo] is not None:
            names[combo] = context.test_names.claim(base, sep="_", start=1)
    tests = []
    for combo, result in applied.items():
        if result is None:
            continue
        variations = [groups[g][i] for g, i in enumerate(combo)]
        twin = names.get((1, *combo[1:]), "") if example.dynamic_group else ""
        lifetime = any(combo[len(combo) - lifetime_groups :]) if lifetime_groups else False
        tests.append(
            _build_test(
                context,
                spec,
                example,
                variations,
                names[combo],
                twin,
                result,
                lifetime,
                lifetime_groups,
            )
        )
    return tests


def _test_name_base(
    context: SpecContext, example: Example, variations: list[ModelVariation]
) -> str:
    """The test name before any ``_N`` suffix: spec, model, example and variation names."""
    parts = [context.spec_name, example.model.name, example.name]
    parts += [v.name for v in variations]
    return "_".join(str(p) for p in parts if p is not None and p != "")


def _working_copy(example: Example) -> tuple[WorkModel, list[FeedData]]:
    work = _work_model(example.model, {}, [], example.line)
    return work, [feed.copy() for feed in example.feedDicts]


def _work_model(model: Any, made: dict[int, WorkModel], path: list[Any], line: int) -> WorkModel:
    """A ``WorkModel`` copy of spec model ``model`` and, through its SUBGRAPH operands, of
    every model it names: one copy per spec model (``made``, by identity), so a model two
    operands name stays one referenced subgraph. ``path`` holds the models being copied,
    the main one first: naming one of them again is a cycle."""
    if any(model is m for m in path):
        names = " -> ".join(_model_label(m) for m in (*path, model))
        raise DslError(f"the models' subgraph references form a cycle: {names}", line)
    if id(model) in made:
        return made[id(model)]
    path.append(model)
    declared = list(model.operands)  # IdentifyInputs/IdentifyOutputs added theirs
    operands = [
        WorkOperand(
            op.name,
            op.kind,
            op.type,
            list(op.value)
            if op.kind in ("parameter", "operand") and op.value is not None
            else None,
            op.line,
            exact_parameter=type(op) is Parameter,
            may_be_internal=op.mayBeInternal,
            subgraph=_work_model(op.value[0], made, path, op.line)
            if op.kind == "subgraph"
            else None,
        )
        for op in declared
    ]
    path.pop()
    for method, identified, kinds in (
        ("IdentifyInputs", model.inputs, ("input",)),
        ("IdentifyOutputs", model.outputs, ("output", "ignored")),
    ):
        listed = {op.name for op in identified or ()}
        for op in operands:
            if identified is not None and op.kind in kinds and op.name not in listed:
                raise DslError(
                    f"{op.describe()} is in the model but {method}() does not list it",
                    line,
                )
        written = {x.name for o in model.operations for x in o.outputs}
        for op in identified or ():
            if op.name not in written and kinds != ("input",):
                raise DslError(f"{method}() lists '{op.name}', which no operation writes")
    operations = [
        WorkOperation(o.type, [i.name for i in o.inputs], [x.name for x in o.outputs])
        for o in model.operations
    ]
    work = WorkModel(
        model.name,
        operands,
        operations,
        relaxed=bool(model.isRelaxed),
        version=model.version,
        dynamic=bool(model.hasDynamicOutputShape),
        inputs_order=None if model.inputs is None else [op.name for op in model.inputs],
        outputs_order=None if model.outputs is None else [op.name for op in model.outputs],
    )
    made[id(model)] = work
    return work


def _model_label(model: Any) -> str:
    """How a cycle message names a spec model: its name, or the line that made it."""
    return repr(model.name) if model.name is not None else f"the model of line {model.line}"


def _check_count(values: list[Any], op: WorkOperand, line: int) -> None:
    """Zero-sized operands keep any value; the others need one value per element.

    ``[]`` for a model input means "omitted" (sent with ``has_no_value``) whatever
    its declared dims, as in the NNAPI specs that declare an omitted optional input
    with its full shape; a non-empty list must still fill the dims.
    """
    count = op.type.count
    if op.kind == "input" and not values:
        return
    if count != 0 and len(values) != count:
        raise DslError(
            f"{op.describe()} has {len(values)} values but dims {list(op.type.dims)} hold {count}",
            line,
        )


def _check_data(work: WorkModel, feeds: list[FeedData], line: int) -> None:
    """Every constant of every subgraph, and every input and output of every feed, before
    any variation."""
    for graph in (work, *work.referenced()):
        for op in graph.operands:
            if op.kind == "parameter":
                _check_count(op.value or [], op, op.line)
    for feed in feeds:
        for op in work.operands:
            if op.kind in ("input", "output"):
                side = feed.side(op.kind)
                if op.name not in side:
                    raise DslError(f"example has no value for {op.describe()}", line)
                _check_count(side[op.name], op, line)


def _apply(variation: ModelVariation, work: WorkModel, feeds: list[FeedData]) -> None:
    try:
        variation.apply(work, feeds)
    except SkipVariation:
        raise
    except DslError as error:
        raise DslError(str(error), error.line or variation.line) from error
    except Exception as error:
        raise DslError(
            f"variation '{variation.label()}': {_describe(error)}", variation.line
        ) from error


def _applied(
    example: Example, variations: list[ModelVariation], name: str
) -> tuple[WorkModel, list[FeedData]] | None:
    """A copy of the example's model and feeds with ``variations`` applied in order; None
    when one of them does not apply (``SkipVariation``). ``name`` is the name the test
    will have if it is made (scripts/quant_ties.py reads it while the data converts)."""
    work, feeds = _working_copy(example)
    _check_data(work, feeds, example.line)
    try:
        for variation in variations:
            _apply(variation, work, feeds)
    except SkipVariation:
        return None
    return work, feeds


def _build_test(
    context: SpecContext,
    spec: _SpecFile,
    example: Example,
    variations: list[ModelVariation],
    name: str,
    dynamic_name: str,
    applied: tuple[WorkModel, list[FeedData]],
    lifetime: bool,
    lifetime_groups: int,
) -> GeneratedTest:
    work, feeds = applied
    model, order = _compile_model(work, example.line)
    version = context.version_overrides.get(name, work.version)
    if work.relaxed or work.dynamic:
        version = None
    named = variations[1:] if example.dynamic_group else variations
    if lifetime_groups:
        # The lifetime groups are named in the provenance only where they varied the case.
        own, added = named[:-lifetime_groups], named[-lifetime_groups:]
        named = own + [v for v in added if not isinstance(v, DefaultVariation)]
    return GeneratedTest(
        name=name,
        dynamic_name=dynamic_name,
        hal_folder=spec.hal_folder,
        model=model,
        feeds=[_feed_arrays(work, feed, example.line) for feed in feeds],
        ignored_outputs=frozenset(
            position for position, op in enumerate(_outputs(work)) if op.kind == "ignored"
        ),
        version=None if version is None else str(version),
        multinomial_tolerance=example.expectedMultinomialDistributionTolerance,
        provenance=Provenance(
            spec=spec.relpath,
            line=example.line,
            variations=tuple(v.name or "" for v in named),
            # the operations the case is about: not a lifetime variation's ADD
            operations=tuple(o.type for o in order if not o.scaffold),
        ),
        level=LIFETIME_LEVEL if lifetime and _below(spec.hal_folder, LIFETIME_LEVEL) else "",
        expect_failure=bool(example.expectFailure),
    )


def _below(folder: str, level: str) -> bool:
    """Whether spec folder ``folder`` is of a lower HAL level than folder ``level`` (a spec
    outside the spec folders has no level)."""
    return folder in spec_folders() and folder_level(folder) < folder_level(level)


# ---------------------------------------------------------------------------
# Compiling a varied model
# ---------------------------------------------------------------------------


def _inputs(work: WorkModel) -> list[WorkOperand]:
    """The model inputs: in ``IdentifyInputs`` order if given, else in operand order."""
    if work.inputs_order is not None:
        return [op for name in work.inputs_order for op in work.operands if op.name == name]
    return [op for op in work.operands if op.kind == "input"]


def _outputs(work: WorkModel) -> list[WorkOperand]:
    """The model outputs: in ``IdentifyOutputs`` order if given, else in operand order."""
    if work.outputs_order is not None:
        return [op for name in work.outputs_order for op in work.operands if op.name == name]
    return [op for op in work.operands if op.kind in ("output", "ignored")]


def _operation_order(work: WorkModel, index: dict[str, int], line: int) -> list[WorkOperation]:
    """Depth-first post-order: each operation after the producers of its inputs.

    Producers are visited in the operand-list order of the operands they make.
    """
    producers: dict[str, list[int]] = {}
    for position, operation in enumerate(work.operations):
        for name in operation.outputs:
            producers.setdefault(name, []).append(position)
    deps = [
        [
            p
            for name in sorted(set(o.inputs), key=index.__getitem__)
            for p in producers.get(name, [])
        ]
        for o in work.operations
    ]
    state = [0] * len(work.operations)  # 0 unseen, 1 on the stack, 2 emitted
    order: list[WorkOperation] = []

    def visit(position: int) -> None:
        if state[position] == 1:
            raise DslError("the model's operations form a cycle", line)
        if state[position] == 0:
            state[position] = 1
            for producer in deps[position]:
                visit(producer)
            state[position] = 2
            order.append(work.operations[position])

    for position in range(len(work.operations)):
        visit(position)
    return order


def _float32(x: float) -> float:
    """A scale as the HAL's 32-bit float field holds it."""
    return float(np.float32(x))


def _hal_extra(op: WorkOperand) -> SymmPerChannelQuantParams | None:
    extra = op.type.extra
    if extra is None or extra.hide:
        return None
    return SymmPerChannelQuantParams(
        scales=tuple(_float32(s) for s in extra.scales), channel_dim=int(extra.channelDim)
    )


def _type_code(type_name: str) -> int:
    """The operand type number of a spec type name; an extension type gets the prefix the
    harness gives its extension (``hal.extensions.harness_prefix``)."""
    if split_qualified(type_name) is None:
        return OperandType[type_name]
    return harness_number(type_name)


def _operation_code(type_name: str) -> int:
    if split_qualified(type_name) is None:
        return OperationType[type_name]
    return harness_number(type_name, operation=True)


def _dtype(type_name: str) -> np.dtype:
    """The numpy dtype of one element: the HAL's, or the extension table's."""
    if split_qualified(type_name) is None:
        return numpy_dtype(OperandType[type_name])
    return qualified_operand_type(type_name)[1].numpy_dtype


def _is_tensor(type_name: str) -> bool:
    if split_qualified(type_name) is None:
        return type_name.startswith("TENSOR_")
    return qualified_operand_type(type_name)[1].is_tensor


def _extensions_used(work: WorkModel, referenced: list[WorkModel]) -> list[tuple[str, int]]:
    """(name, harness prefix) of every extension the operands and operations of the model
    and of its referenced subgraphs use."""
    types = [t for graph in (work, *referenced) for t in _type_names(graph)]
    names = [parts[0] for parts in (split_qualified(t) for t in types) if parts is not None]
    return harness_declarations(names)


def _type_names(work: WorkModel) -> list[str]:
    return [op.type.type for op in work.operands] + [o.type for o in work.operations]


def _encode(op: WorkOperand, values: list[Any], line: int) -> np.ndarray:
    """Values as a flat array of the operand's dtype (fp16 rounded from the double).

    Extension types are encoded by their numpy dtype from ``hal.extensions``: the spec
    gives the raw stored integers (a TENSOR_Q16 value 1.5 is written 384).
    """
    type_name = op.type.type
    dtype = _dtype(type_name)
    if type_name in FLOAT_TYPES:
        return np.array([float(v) for v in values], dtype=np.float64).astype(dtype)
    if type_name in BOOL_TYPES:
        return np.array([1 if v else 0 for v in values], dtype=dtype)
    ints = [int(v) for v in values]
    info = np.iinfo(dtype)
    for v in ints:
        if not info.min <= v <= info.max:
            raise DslError(f"{op.describe()} holds {v}, which does not fit {type_name}", line)
    return np.array(ints, dtype=dtype)


def _constant(op: WorkOperand, blob: bytearray, align: int) -> DataLocation:
    """Append a parameter's bytes to ``blob``, starting at a multiple of ``align`` (zero
    bytes pad the gap), and say where they are."""
    if op.type.type in _NOT_CONSTANT:
        raise DslError(f"{op.describe()}: a {op.type.type} constant cannot be emitted", op.line)
    data = b"" if op.type.count == 0 else _encode(op, op.value or [], op.line).tobytes()
    blob += bytes(-len(blob) % align)
    location = DataLocation(0, len(blob), len(data))
    blob += data
    return location


_SUBGRAPH_ALIGNMENT = 4
"""Where a model with referenced subgraphs starts each constant: the layout of VTS 1.3
(docs/spec-language.md 14.2). Other models keep the unpadded layout of Android 10's VTS."""


def _hal_operand(
    op: WorkOperand,
    consumers: int,
    blob: bytearray,
    dynamic: bool,
    align: int,
    referenced: list[WorkModel],
) -> Operand:
    if op.kind == "parameter":
        location = _constant(op, blob, align)
    elif op.kind == "subgraph":
        index = next(k for k, sub in enumerate(referenced) if sub is op.subgraph)
        location = DataLocation(0, index, 0)
    else:
        location = DataLocation()
    dims, extra = list(op.type.dims), _hal_extra(op)
    if dynamic and op.kind in ("output", "ignored"):
        dims, extra = [0] * len(dims), None
    return Operand(
        type=_type_code(op.type.type),
        dimensions=dims,
        number_of_consumers=consumers,
        scale=_float32(op.type.scale),
        zero_point=op.type.zero_point,
        lifetime=_LIFETIMES[op.kind],
        location=location,
        extra_params=extra,
    )


def _compile_graph(
    work: WorkModel,
    blob: bytearray,
    align: int,
    referenced: list[WorkModel],
    dynamic: bool,
    line: int,
) -> tuple[Subgraph, list[WorkOperation]]:
    """One subgraph: its operands (constants appended to the model-wide ``blob``), its
    operations in execution order, its inputs and outputs; and that order."""
    index = {op.name: position for position, op in enumerate(work.operands)}
    order = _operation_order(work, index, line)
    # An operand an operation reads twice counts twice.
    consumers = Counter(name for o in work.operations for name in o.inputs)
    operands = [
        _hal_operand(op, consumers[op.name], blob, dynamic, align, referenced)
        for op in work.operands
    ]
    operations = [
        Operation(
            _operation_code(o.type), [index[n] for n in o.inputs], [index[n] for n in o.outputs]
        )
        for o in order
    ]
    graph = Subgraph(
        operands=operands,
        operations=operations,
        input_indexes=[index[op.name] for op in _inputs(work)],
        output_indexes=[index[op.name] for op in _outputs(work)],
    )
    return graph, order


def _compile_model(work: WorkModel, line: int) -> tuple[Model, list[WorkOperation]]:
    """The HAL model of a varied model: its main graph, then the models its SUBGRAPH
    operands name (``WorkModel.referenced``), all constants in one ``operand_values``.
    Returns the operations of every graph, main first, in execution order."""
    referenced = work.referenced()
    align = _SUBGRAPH_ALIGNMENT if referenced else 1
    blob = bytearray()
    main, order = _compile_graph(work, blob, align, referenced, work.dynamic, line)
    subgraphs = []
    for sub in referenced:
        graph, sub_order = _compile_graph(sub, blob, align, referenced, False, line)
        subgraphs.append(graph)
        order += sub_order
    model = Model(
        operands=main.operands,
        operations=main.operations,
        input_indexes=main.input_indexes,
        output_indexes=main.output_indexes,
        operand_values=bytes(blob),
        relax_computation_float32_to_float16=bool(work.relaxed),
        extension_name_to_prefix=[
            ExtensionNameAndPrefix(name, prefix)
            for name, prefix in _extensions_used(work, referenced)
        ],
        referenced=subgraphs,
    )
    return model, order


def _data_array(op: WorkOperand, side: dict[str, list[Any]], line: int) -> np.ndarray:
    """One input or expected output, typed and shaped by the operand's real dims; a scalar
    output (Android 11's RANK writes an INT32 scalar) is a 0-d array of its one value."""
    if op.kind == "input" and not _is_tensor(op.type.type):
        raise DslError(
            f"{op.describe()} has the scalar type {op.type.type}: example data must be tensors",
            line,
        )
    dtype = _dtype(op.type.type)
    if op.kind == "ignored" or op.type.count == 0:
        return np.zeros(op.type.dims, dtype=dtype)
    if op.name not in side:
        raise DslError(f"example has no value for {op.describe()}", line)
    if op.kind == "input" and not side[op.name]:
        # Omitted: zero elements (the harness sends it with has_no_value), same rank.
        return np.zeros((0,) * max(1, len(op.type.dims)), dtype=dtype)
    _check_count(side[op.name], op, line)
    return _encode(op, side[op.name], line).reshape(op.type.dims)


def _feed_arrays(work: WorkModel, feed: FeedData, line: int) -> Feed:
    return Feed(
        inputs=[_data_array(op, feed.inputs, line) for op in _inputs(work)],
        outputs=[_data_array(op, feed.outputs, line) for op in _outputs(work)],
    )
