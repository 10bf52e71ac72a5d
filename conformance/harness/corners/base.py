"""The parameter-space layer's shared machinery: the case record, the model builder, the
drawing helpers, the family registry, and the reading of classes from a model.

Hand-written specs pick a few parameter combinations per operation; a driver
wrong only where nobody wrote a case passes them. A *family* is a hypothesis
strategy over one group of operations' parameters and shapes (padding schemes
and explicit pads, strides, dilations, layouts, axes, broadcast shapes, fused
activations, batch and channel counts, block shapes, slice bounds and masks,
output sizes and scales), kept small so one case runs in milliseconds. Its
expected outputs come from the independent oracle scripts of
``conformance/specs/oracles`` (plain Python written from the operation
reference, docs/operations.md; never the reference driver), imported by name as
modules of ``ORACLE_PACKAGE`` (``oracle``) and run on the drawn case.

A drawn case is a ``Corner``: the model, its inputs, the oracle's outputs and the
*classes* of the parameter space it reaches (``padding:same-odd``,
``dilation>1+stride>1``, ``broadcast:ranks-differ``, ``axis:negative``, ...).
``Corner.test`` turns it into a ``GeneratedTest``, so the generated suite's
runner, tolerances and skip rules judge it unchanged, and ``Corner.spec`` writes
it as a spec file of the test-generator language, which is what a failure
prints once hypothesis has shrunk the case. ``unknown_inputs`` makes the twin
whose model leaves some input axes (and every output's) unknown, so the request
must carry the real dimensions in ``RequestArgument.dimensions``.

Each family module defines its strategies beside the readers of their classes and
registers each family with ``_family``: the strategy, the operations it draws,
the classes its draws must reach, the classifier reading those classes back from
a model of one of its operations, and, where the expected outputs show classes
(a clamp reached, ties, a limit), the reader of those outputs. ``FAMILIES``,
``OPERATIONS`` and ``CLASSES`` are what the registry holds, by family name;
``classify`` reads the classes of any model (a drawn case's or a spec's) through
the registered readers, and ``drawn_classes`` counts what the draws of one
operation reach, for ``nnhal-generate --parameters``.
"""

from __future__ import annotations

import functools
import importlib
import struct
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType

import numpy as np
from hypothesis import strategies as st

from conformance.harness.cases import Feed, GeneratedTest
from conformance.harness.graphs import Graph, to_spec
from conformance.specs import oracles
from hal.tensors import read_constants
from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)

ACTIVATIONS = ("none", "relu", "relu1", "relu6")
"""Fused activation codes 0..3 by name."""


ORACLE_PACKAGE = oracles.__name__
"""The package of the oracle scripts: installed with the suite, imported by name."""


@functools.cache
def oracle(name: str) -> ModuleType:
    """The oracle script ``conformance/specs/oracles/<name>.py``, imported as a module of
    ``ORACLE_PACKAGE``."""
    return importlib.import_module(f"{ORACLE_PACKAGE}.{name}")


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


@dataclass
class Corner:
    """One drawn case: a one-operation model, its inputs and the oracle's outputs."""

    family: str
    operation: str
    model: Model
    inputs: list[np.ndarray]
    outputs: list[np.ndarray]
    classes: tuple[str, ...]
    """The parameter classes this case reaches (see ``CLASSES``)."""
    parameters: dict[str, object] = field(default_factory=dict)
    """The drawn parameters, by name (for messages)."""
    oracle: str = ""
    """The oracle script that computed ``outputs``."""
    dynamic: bool = True
    """Whether the unknown-dimensions twin applies (not where the output shape a driver
    reports may lawfully differ from the declared one, e.g. a reduction to rank 0)."""
    ignored: frozenset[int] = frozenset()
    """Output positions whose values are never compared (LSTM's scratch buffer); their
    expected arrays hold zeros."""
    level: str = "V1_2"
    """The HAL folder of the case: its generated test's folder and version, and where its
    printed spec is to be saved (``V1_3`` for the operations HAL 1.3 adds)."""

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.parameters.items())
        return f"{self.operation} ({self.family}): {shown}"

    def __repr__(self) -> str:  # what hypothesis prints of a falsifying case: no model dump
        return f"<corner {self.describe()}>"

    def test(self) -> GeneratedTest:
        """The case as a generated test (one example), for the generated suite's runner."""
        name = f"corner_{self.family}_{self.operation.lower()}"
        return GeneratedTest(
            name=name,
            dynamic_name=f"{name}_dynamic_output_shape",
            hal_folder=self.level,
            model=self.model,
            feeds=[Feed(list(self.inputs), list(self.outputs))],
            ignored_outputs=self.ignored,
            version=self.level,
        )

    def spec(self) -> str:
        """The case as a spec file (test-generator language), golden values the oracle's."""
        graph = Graph(
            f"{self.family} parameter-space case",
            self.model,
            list(self.inputs),
            [tuple(o.shape) for o in self.outputs],
            [self.operation],
        )
        note = (
            f"{self.describe()}\n"
            f"classes: {', '.join(self.classes)}\n"
            f"expected outputs: conformance/specs/oracles/{self.oracle}.py"
        )
        source = "A case drawn by conformance/harness/corners/ (the parameter-space tests)."
        return to_spec(graph, self.outputs, note=note, source=source, ignored=self.ignored)


SIGNED_CLASS = "quant8:signed"
"""The class a drawn case's signed twin adds to the case's own."""


def signed(corner: Corner) -> Corner | None:
    """The drawn case with its TENSOR_QUANT8_ASYMM operands made TENSOR_QUANT8_ASYMM_SIGNED,
    their zero points, inputs and the oracle's outputs 128 lower (HAL 1.3 couples the two
    forms: ``conformance.harness.coupling``), or None for a case without a signed twin."""
    from conformance.harness import coupling  # the suite's runner side: only when run

    test = corner.test()
    if not coupling.couples(test):
        return None
    (feed,) = coupling.signed_twin(test).feeds
    return replace(
        corner,
        model=coupling.twin_model(corner.model),
        inputs=list(feed.inputs),
        outputs=list(feed.outputs),
        classes=(*corner.classes, SIGNED_CLASS),
        parameters={**corner.parameters, "signed twin": "quant8 operands 128 lower"},
        dynamic=False,
        level="V1_3",
    )


def unknown_inputs(corner: Corner, hidden: Mapping[int, Sequence[int]]) -> Corner:
    """The twin whose model input at each position of ``hidden`` has the listed axes
    unknown (0, the rank kept), and every output all of its axes: the request then gives
    the inputs' real dimensions."""
    operands = list(corner.model.operands)
    for position, axes in hidden.items():
        index = corner.model.input_indexes[position]
        dims = list(operands[index].dimensions)
        for axis in axes:
            dims[axis] = 0
        operands[index] = replace(operands[index], dimensions=dims)
    for index in corner.model.output_indexes:
        operands[index] = replace(operands[index], dimensions=[0] * len(operands[index].dimensions))
    model = replace(corner.model, operands=operands)
    shown = {position: list(axes) for position, axes in sorted(hidden.items())}
    return replace(
        corner,
        model=model,
        classes=_classes(model, corner.outputs),
        parameters={**corner.parameters, "unknown axes by input": shown},
    )


# ---------------------------------------------------------------------------
# Building a model and drawing its values
# ---------------------------------------------------------------------------


class _Builder:
    """A one-operation model under construction (constants as CONSTANT_COPY)."""

    def __init__(self) -> None:
        self.operands: list[Operand] = []
        self.values = bytearray()
        self.inputs: list[int] = []
        self.outputs: list[int] = []

    def _add(self, operand: Operand) -> int:
        self.operands.append(operand)
        return len(self.operands) - 1

    def input(
        self,
        array: np.ndarray,
        type_: int = OperandType.TENSOR_FLOAT32,
        scale: float = 0.0,
        zero_point: int = 0,
    ) -> int:
        index = self._add(
            Operand(type_, list(array.shape), 1, scale, zero_point, OperandLifeTime.MODEL_INPUT)
        )
        self.inputs.append(index)
        return index

    def constant(
        self,
        type_: int,
        dims: Sequence[int],
        data: bytes,
        scale: float = 0.0,
        zero_point: int = 0,
    ) -> int:
        while len(self.values) % 4:
            self.values.append(0)
        location = DataLocation(0, len(self.values), len(data))
        self.values += data
        return self._add(
            Operand(
                type_, list(dims), 1, scale, zero_point, OperandLifeTime.CONSTANT_COPY, location
            )
        )

    def tensor(self, array: np.ndarray) -> int:
        return self.constant(OperandType.TENSOR_FLOAT32, array.shape, array.tobytes())

    def int32(self, value: int) -> int:
        return self.constant(OperandType.INT32, [], struct.pack("<i", value))

    def int32s(self, values: Sequence[int]) -> int:
        return self.constant(
            OperandType.TENSOR_INT32, [len(values)], struct.pack(f"<{len(values)}i", *values)
        )

    def float32(self, value: float) -> int:
        return self.constant(OperandType.FLOAT32, [], struct.pack("<f", value))

    def bool(self, value: bool) -> int:
        return self.constant(OperandType.BOOL, [], bytes([1 if value else 0]))

    def output(
        self,
        shape: Sequence[int],
        type_: int = OperandType.TENSOR_FLOAT32,
        scale: float = 0.0,
        zero_point: int = 0,
    ) -> int:
        index = self._add(
            Operand(type_, list(shape), 0, scale, zero_point, OperandLifeTime.MODEL_OUTPUT)
        )
        self.outputs.append(index)
        return index

    def model(self, operation: str, inputs: Sequence[int]) -> Model:
        return Model(
            operands=self.operands,
            operations=[Operation(OperationType[operation], list(inputs), list(self.outputs))],
            input_indexes=self.inputs,
            output_indexes=self.outputs,
            operand_values=bytes(self.values),
        )


def _omitted(
    builder: _Builder, dims: Sequence[int], type_: int = OperandType.TENSOR_FLOAT32
) -> int:
    """An omitted optional input: an operand of lifetime NO_VALUE (declared with the dims it
    would have, as the specs' ``Omitted`` operands are)."""
    return builder._add(Operand(type_, list(dims), 1, 0.0, 0, OperandLifeTime.NO_VALUE))


def _exactly(element: st.SearchStrategy, count: int) -> st.SearchStrategy[list]:
    """Lists of ``count`` values drawn from ``element``."""
    return st.lists(element, min_size=count, max_size=count)


def _floats(draw, count: int) -> list[float]:
    """Small multiples of 0.5 in [-4, 4]: sums and products stay exact in float32."""
    return [v / 2 for v in draw(_exactly(st.integers(-8, 8), count))]


def _array(values: Sequence[float], shape: Sequence[int], dtype=np.float32) -> np.ndarray:
    return np.asarray(values, dtype).reshape(tuple(shape))


def _to_nchw(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array.transpose(0, 3, 1, 2))


def _f32(value: float) -> float:
    """``value`` as a FLOAT32 operand holds it (what the oracle must be given)."""
    return float(np.float32(value))


def _shapes_of(count: int, rank: int) -> list[tuple[int, ...]]:
    """Every shape of ``rank`` axes holding ``count`` elements."""
    if rank == 1:
        return [(count,)]
    return [
        (d, *rest)
        for d in range(1, count + 1)
        if count % d == 0
        for rest in _shapes_of(count // d, rank - 1)
    ]


_SCALES = (1 / 256, 1 / 128, 0.03125, 0.1, 0.5, 1.0, 2.5, 10.0)
"""Quantization scales drawn: from a 256th (a byte spans [0, 1)) to 10."""
_ZERO_POINTS = st.one_of(st.sampled_from([0, 1, 127, 128, 254, 255]), st.integers(0, 255))
_EXACT_SCALES = (1 / 256, 1 / 32, 0.5, 1.0, 2.0, 4.0)
"""Powers of two: a dequantized value is exact in float32, so equal means equal whatever
precision a driver compares in."""


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------

Strategy = Callable[..., st.SearchStrategy[Corner]]
"""A family's strategy: called with an operation's name, it draws cases of that operation;
called without, cases of any of the family's operations."""
Reader = Callable[..., list[str]]
"""Reads classes from a model: ``(model, operation, constants, name)`` for a family's
classifier, ``(model, name, outputs)`` for a reader of expected outputs."""


@dataclass(frozen=True)
class Family:
    """A family as registered by ``_family``: what it draws and how its classes are read."""

    name: str
    strategy: Strategy
    operations: tuple[str, ...]
    """The operations it draws, in the order its items are listed."""
    classes: tuple[str, ...]
    """The parameter classes its draws must reach."""
    classify: Reader
    """The classes a model of one of its operations reaches, read from the model's operands
    and constants (``classify`` calls it for every operation the family draws, whether the
    model is a drawn case or a spec's)."""
    results: Mapping[str, Reader] = field(default_factory=dict)
    """By operation: a reader of the expected outputs, for the operations whose results show
    classes of their own (the rest are read by ``_boolean_result``)."""


REGISTRY: dict[str, Family] = {}
"""Every family by name, in the catalogue's order once the package has imported them all."""
FAMILIES: dict[str, Strategy] = {}
"""Every family: its name, and the strategy drawing its cases (of one operation if named)."""
OPERATIONS: dict[str, tuple[str, ...]] = {}
"""The operations each family draws."""
CLASSES: dict[str, tuple[str, ...]] = {}
"""The parameter classes each family must reach (checked by the project's tests and shown
by ``nnhal-generate --parameters``); a twin of unknown input dimensions adds
``request-dims:one-unknown`` or ``several-unknown`` (axes unknown in one input) and
``request-dims:all-inputs`` or ``some-inputs``."""
_BY_OPERATION: dict[str, Family] = {}
"""The family drawing each operation."""


def _family(
    name: str,
    *,
    operations: Sequence[str],
    classes: Sequence[str],
    classify: Reader,
    results: Reader | None = None,
    results_of: Sequence[str] | None = None,
) -> Callable[[Strategy], Strategy]:
    """Register the decorated strategy as the family ``name``, with the operations it draws,
    the classes its draws must reach, the classifier reading those classes back from a model
    of one of its operations and, where results show classes of their own, the reader of the
    expected outputs (``results``) and the operations it reads (``results_of``: all of the
    family's by default). ``FAMILIES``, ``OPERATIONS`` and ``CLASSES`` list what is
    registered here; the strategy is returned unchanged."""

    def register(strategy: Strategy) -> Strategy:
        if name in REGISTRY:
            raise ValueError(f"parameter-space family {name!r} is registered twice")
        taken = [op for op in operations if op in _BY_OPERATION]
        if taken:
            raise ValueError(
                f"parameter-space family {name!r}: {', '.join(taken)} already drawn by "
                + ", ".join(sorted({_BY_OPERATION[op].name for op in taken}))
            )
        of = operations if results_of is None else results_of
        read = {} if results is None else dict.fromkeys(of, results)
        family = Family(name, strategy, tuple(operations), tuple(classes), classify, read)
        REGISTRY[name] = family
        FAMILIES[name] = strategy
        OPERATIONS[name] = family.operations
        CLASSES[name] = family.classes
        for operation in family.operations:
            _BY_OPERATION[operation] = family
        return strategy

    return register


def _arrange(order: Sequence[str]) -> None:
    """Put the registries in ``order``, which must name every registered family once: the
    order of the items of ``conformance.test_corners`` and of ``nnhal-generate --parameters``
    (the modules register their families in their own order)."""
    if sorted(order) != sorted(REGISTRY):
        raise ValueError(
            f"the catalogue order {list(order)} does not name the registered parameter-space "
            f"families {sorted(REGISTRY)} once each"
        )
    for registry in (REGISTRY, FAMILIES, OPERATIONS, CLASSES):
        arranged = {name: registry[name] for name in order}
        registry.clear()
        registry.update(arranged)


def family_of(operation: str) -> str | None:
    """The family drawing ``operation``'s cases, if any."""
    return next((f for f, ops in OPERATIONS.items() if operation in ops), None)


# ---------------------------------------------------------------------------
# Classes of the parameter space, read from a model
# ---------------------------------------------------------------------------


def classify(model: Model, outputs: Sequence[np.ndarray] = ()) -> list[tuple[str, tuple[str, ...]]]:
    """(operation name, its parameter classes) for each operation of ``model`` a family
    covers, read from the model itself: its operand shapes, quantization and constant
    parameters (``outputs``, the expected values where known, show saturation). The
    same reading serves drawn cases and the specs' generated models, so the coverage
    report compares like with like. A parameter held in a model input (not a constant)
    is not read, and gives no class."""
    try:
        constants = read_constants(model)
    except Exception:  # a pool that cannot be opened: the shapes still say something
        constants = {}
    found = []
    for operation in model.operations:
        try:
            name = OperationType(operation.type).name
        except ValueError:
            continue
        family = _BY_OPERATION.get(name)
        if family is None:
            continue
        try:
            classes = family.classify(model, operation, constants, name)
        except (IndexError, KeyError, TypeError, ValueError):
            continue  # a shape or parameter the family does not draw
        if operation.outputs and list(operation.outputs) == list(model.output_indexes):
            classes += _output_classes(model, outputs) + _result_classes(model, name, outputs)
        classes += _request_classes(model, operation)
        found.append((name, tuple(dict.fromkeys(classes))))
    return found


def _classes(model: Model, outputs: Sequence[np.ndarray]) -> tuple[str, ...]:
    """The classes of a drawn one-operation case."""
    ((_, classes),) = classify(model, outputs)
    return classes


def _result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """What the expected result shows: the reader the operation's family registered for it
    (``Family.results``: a RELU family result at a bound, TOPK_V2's ties, HASHTABLE_LOOKUP's
    hits and misses, the LSTMs' clipping, the detections' limits, ...), or else
    ``_boolean_result``."""
    if not outputs or not outputs[0].size:
        return []
    family = _BY_OPERATION.get(name)
    reader = family.results.get(name) if family is not None else None
    if reader is not None:
        return reader(model, name, outputs)
    return _boolean_result(model, outputs)


def _boolean_result(model: Model, outputs: Sequence[np.ndarray]) -> list[str]:
    """``result:mixed`` for a boolean result holding both answers."""
    out = outputs[0]
    if model.operands[model.output_indexes[0]].type != OperandType.TENSOR_BOOL8:
        return []
    return ["result:mixed"] if out.any() and not out.all() else []


def _scalar(constants: dict[int, np.ndarray], index: int) -> int | None:
    value = constants.get(index)
    return None if value is None else int(value.reshape(-1)[0])


def _activation(constants, inputs, position: int) -> list[str]:
    code = _scalar(constants, inputs[position]) if len(inputs) > position else None
    return [f"activation:{ACTIVATIONS[code]}"] if code in range(4) else []


def _count_classes(batch: int, channels: int) -> list[str]:
    """``batch>1`` and ``channels>1``, where they hold."""
    return [name for name, count in (("batch>1", batch), ("channels>1", channels)) if count > 1]


def _axis_position(chosen: int, rank: int) -> list[str]:
    """An axis given from either end: ``axis:negative`` and where it falls."""
    position = chosen % rank
    classes = ["axis:negative"] if chosen < 0 else []
    classes.append(
        "axis:last" if position == rank - 1 else "axis:first" if position == 0 else "axis:inner"
    )
    return classes


def _quant_classes_of(model: Model, indexes: Sequence[int]) -> list[str]:
    """Where the quantization of these operands lies: zero points at the ends of their
    range, tiny or large scales, operands quantized differently."""
    operands = [model.operands[i] for i in indexes]
    if not operands or any(o.type != OperandType.TENSOR_QUANT8_ASYMM for o in operands):
        return []
    params = [(o.scale, o.zero_point) for o in operands]
    zero_points, scales = [z for _, z in params], [s for s, _ in params]
    classes = ["quant8"]
    if 0 in zero_points:
        classes.append("quant:zero-point-0")
    if 255 in zero_points:
        classes.append("quant:zero-point-255")
    if min(scales) <= 1 / 128:
        classes.append("quant:scale-tiny")
    if max(scales) >= 2.5:
        classes.append("quant:scale-large")
    if len(set(params)) > 1:
        classes.append("quant:params-differ")
    return classes


def _output_classes(model: Model, outputs: Sequence[np.ndarray]) -> list[str]:
    for index, values in zip(model.output_indexes, outputs, strict=False):
        if model.operands[index].type == OperandType.TENSOR_QUANT8_ASYMM and (
            np.any(values == 0) or np.any(values == 255)
        ):
            return ["quant:output-at-range-end"]
    return []


def _request_classes(model: Model, operation: Operation) -> list[str]:
    """Model inputs of the operation whose dimensions the model leaves partly unknown (the
    request gives them): ``request-dims:one-unknown`` or ``several-unknown`` (the most
    axes unknown in one input), ``request-dims:all-inputs`` or ``some-inputs``."""
    inputs = [i for i in operation.inputs if i in model.input_indexes]
    unknown = [model.operands[i].dimensions.count(0) for i in inputs]
    if not any(unknown):
        return []
    classes = ["request-dims:several-unknown" if max(unknown) > 1 else "request-dims:one-unknown"]
    classes.append("request-dims:all-inputs" if all(unknown) else "request-dims:some-inputs")
    return classes


# ---------------------------------------------------------------------------
# What the draws reach
# ---------------------------------------------------------------------------


def drawn_classes(operation: str, count: int) -> Counter[str]:
    """How many of ``count`` drawn cases of ``operation`` (the same draws every time; each
    with its unknown-dimensions twins) reach each class."""
    from hypothesis import HealthCheck, given, settings

    family = family_of(operation)
    if family is None:
        raise ValueError(f"no parameter-space family draws {operation}")
    reached: Counter[str] = Counter()

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(FAMILIES[family](operation))
    def draw(corner: Corner) -> None:
        found = set(corner.classes)  # a class counts once per draw, its twins included
        if corner.dynamic:
            ranks = [a.ndim for a in corner.inputs]
            for hidden in ({0: [0]}, {p: range(rank) for p, rank in enumerate(ranks)}):
                twin = unknown_inputs(corner, hidden)
                found.update(c for c in twin.classes if c.startswith("request"))
        reached.update(found)

    draw()
    return reached
