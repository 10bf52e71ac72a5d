"""The loader of the generated test modules under ``conformance/generated/``.

``nnhal-generate`` writes one module per spec file. Such a module is data: for
each test it defines a small builder function made of calls to the helpers
below (``case``, ``model``, ``operand``, ``array``, ...), and a ``TESTS`` tuple
pairing every test name with its builder. Nothing is decoded when a module is
imported; a builder decodes its test's data (base64 of little-endian bytes)
when it is called, so loading one test costs only that test.

``conformance/generated/index.py`` lists every module and its test names; the
suite parametrizes from ``load_index()`` and rebuilds a case with
``load_test()``. Arrays come back read-only (they view the decoded bytes): a
test that needs to change one copies it first.

This module imports only ``hal``, numpy, the standard library and
``conformance.harness.cases``, so running the suite needs no generator.
"""

from __future__ import annotations

import base64
import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType

import numpy as np

from conformance.harness.cases import Feed, GeneratedTest, Provenance
from hal.extensions import harness_declarations, harness_number
from hal.types import (
    DataLocation,
    ExtensionNameAndPrefix,
    ExtensionParams,
    HalVersion,
    Model,
    Operand,
    OperandExtraParams,
    OperandLifeTime,
    Operation,
    Subgraph,
    SymmPerChannelQuantParams,
)
from hal.validation import minimum_version

PACKAGE = "conformance.generated"
"""Where the generated modules live; ``index`` is the index module inside it."""

Builder = Callable[[], GeneratedTest]


# ---------------------------------------------------------------------------
# Helpers the generated modules call
# ---------------------------------------------------------------------------


def blob(data: str) -> bytes:
    """The bytes of a base64 string."""
    return base64.b64decode(data, validate=True)


def array(dtype: str, shape: Sequence[int], data: str) -> np.ndarray:
    """A read-only array of ``dtype`` (e.g. ``"<f4"``) and ``shape`` from base64 bytes."""
    values = np.frombuffer(blob(data), dtype=np.dtype(dtype))
    return values.reshape(tuple(shape))


def channel_quant(scales: Iterable[float], channel_dim: int) -> SymmPerChannelQuantParams:
    """The extra parameters of a TENSOR_QUANT8_SYMM_PER_CHANNEL operand."""
    return SymmPerChannelQuantParams(tuple(scales), channel_dim)


def extension_params(data: str) -> ExtensionParams:
    """Extension extra parameters from base64 bytes."""
    return ExtensionParams(blob(data))


def operand(
    type_: int,
    dimensions: Sequence[int],
    *,
    lifetime: int = OperandLifeTime.TEMPORARY_VARIABLE,
    consumers: int = 0,
    scale: float = 0.0,
    zero_point: int = 0,
    location: tuple[int, int, int] = (0, 0, 0),
    extra: OperandExtraParams = None,
) -> Operand:
    """An operand; ``location`` is (pool index, offset, length)."""
    return Operand(
        type=type_,
        dimensions=list(dimensions),
        number_of_consumers=consumers,
        scale=scale,
        zero_point=zero_point,
        lifetime=lifetime,
        location=DataLocation(*location),
        extra_params=extra,
    )


def operation(type_: int, inputs: Sequence[int], outputs: Sequence[int]) -> Operation:
    return Operation(type=type_, inputs=list(inputs), outputs=list(outputs))


def subgraph(
    operands: Sequence[Operand],
    operations: Sequence[Operation],
    inputs: Sequence[int],
    outputs: Sequence[int],
) -> Subgraph:
    """A referenced subgraph (HAL 1.3) of a model: what its IF and WHILE operations run."""
    return Subgraph(
        operands=list(operands),
        operations=list(operations),
        input_indexes=list(inputs),
        output_indexes=list(outputs),
    )


def model(
    operands: Sequence[Operand],
    operations: Sequence[Operation],
    inputs: Sequence[int],
    outputs: Sequence[int],
    *,
    referenced: Sequence[Subgraph] = (),
    values: str = "",
    relaxed: bool = False,
    extensions: Sequence[tuple[str, int]] = (),
) -> Model:
    """A model; ``referenced`` its referenced subgraphs in index order, ``values`` base64 of
    ``operand_values`` (every subgraph's constants), ``extensions`` (name, prefix) pairs."""
    return Model(
        operands=list(operands),
        operations=list(operations),
        input_indexes=list(inputs),
        output_indexes=list(outputs),
        operand_values=blob(values),
        relax_computation_float32_to_float16=relaxed,
        extension_name_to_prefix=[ExtensionNameAndPrefix(n, p) for n, p in extensions],
        referenced=list(referenced),
    )


def extension_type(qualified: str) -> int:
    """The operand type ``"<extension name>:<type name>"`` of ``hal.extensions``, numbered
    with the prefix the harness gives that extension (``harness_prefix``)."""
    return harness_number(qualified)


def extension_operation(qualified: str) -> int:
    """The operation ``"<extension name>:<operation name>"``, numbered like ``extension_type``."""
    return harness_number(qualified, operation=True)


def extension_prefixes(*names: str) -> tuple[tuple[str, int], ...]:
    """``model(extensions=...)`` for these known extensions: (name, harness prefix) pairs."""
    return tuple(harness_declarations(names))


def feed(inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray]) -> Feed:
    return Feed(inputs=list(inputs), outputs=list(outputs))


def provenance(
    spec: str, line: int, variations: Sequence[str] = (), operations: Sequence[str] = ()
) -> Provenance:
    return Provenance(spec, line, tuple(variations), tuple(operations))


def case(
    name: str,
    dynamic_name: str,
    hal_folder: str,
    *,
    model: Model,
    feeds: Sequence[Feed],
    provenance: Provenance,
    ignored_outputs: Iterable[int] = (),
    version: str | None = None,
    multinomial_tolerance: float | None = None,
    level: str = "",
    expect_failure: bool = False,
    lowest: str | None = None,
) -> GeneratedTest:
    if lowest is not None:
        _RECORDED[id(model)] = (model, HalVersion.parse(lowest))
    return GeneratedTest(
        name=name,
        dynamic_name=dynamic_name,
        hal_folder=hal_folder,
        model=model,
        feeds=list(feeds),
        ignored_outputs=frozenset(ignored_outputs),
        version=version,
        multinomial_tolerance=multinomial_tolerance,
        provenance=provenance,
        level=level,
        expect_failure=expect_failure,
    )


_RECORDED: dict[int, tuple[Model, HalVersion]] = {}
"""The lowest valid HAL level the generator recorded (``lowest=``) for each model a
generated module built, by the model's identity: a case copied with another model (a
twin, a test's broken copy) is not found here and is validated. The entry holds the
model, so no other object can take its identity."""


# ---------------------------------------------------------------------------
# What the suite calls
# ---------------------------------------------------------------------------


def load_index(package: str = PACKAGE) -> list[tuple[str, tuple[str, ...]]]:
    """Every generated module (full dotted name) with its test names, both sorted.

    An empty list when nothing has been generated yet.
    """
    try:
        index = importlib.import_module(f"{package}.index")
    except ModuleNotFoundError as error:
        if error.name in (package, f"{package}.index"):
            return []
        raise
    return [(f"{package}.{name}", tuple(names)) for name, names in index.MODULES]


def _import_generated(module_name: str) -> ModuleType:
    """Import one generated module with Python's own source loader.

    Generated modules are data (no ``assert``), megabytes of it: under pytest they
    would go through the assertion rewriter (which marks every module of this
    distribution), parsed and rewritten in every process and never cached where
    bytecode writing is off. The plain loader compiles them like any module and
    reuses the bytecode ``scripts/setup.sh`` (or pip) compiled beforehand.
    """
    module = sys.modules.get(module_name)
    if module is not None:
        return module
    parent, _, leaf = module_name.rpartition(".")
    for directory in getattr(importlib.import_module(parent), "__path__", ()):
        path = os.path.join(directory, f"{leaf}.py")
        if os.path.isfile(path):
            break
    else:
        return importlib.import_module(module_name)  # the usual error for a missing module
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _builders(module_name: str) -> tuple[tuple[str, Builder], ...]:
    return _import_generated(module_name).TESTS


def load_tests(module_name: str, pack: str = "") -> list[GeneratedTest]:
    """All tests of a generated module, freshly built, in the order of its spec (marked as
    vendor pack ``pack``'s, if given)."""
    tests = [build() for _, build in _builders(module_name)]
    for test in tests:
        test.pack = pack
    return tests


_PACKS: list[tuple[str, str]] = []
"""(name, package) of each vendor test pack the run adds to the suite's own cases."""


def add_pack(name: str, package: str, path: str) -> None:
    """Add vendor pack ``name``: the generated package ``package`` in folder ``path`` (put
    on ``sys.path``). Its cases join ``corpus()`` after the suite's own."""
    if path not in sys.path:
        sys.path.append(path)
    if (name, package) not in _PACKS:
        _PACKS.append((name, package))


def remove_packs() -> None:
    """Forget the vendor packs (the end of a run: a later run in this process adds its own)."""
    _PACKS.clear()


def packs() -> tuple[tuple[str, str], ...]:
    """(name, package) of the vendor packs added, in order."""
    return tuple(_PACKS)


def corpus() -> tuple[GeneratedTest, ...]:
    """Every generated case, the suite's and then each vendor pack's, built once per
    process and shared by the suite's modules (callers never change them)."""
    return _corpus(packs())


@functools.cache
def _corpus(vendor_packs: tuple[tuple[str, str], ...]) -> tuple[GeneratedTest, ...]:
    return tuple(
        test
        for pack, package in (("", PACKAGE), *vendor_packs)
        for module, _ in load_index(package)
        for test in _module_cases(module, pack)
    )


@functools.cache
def _module_cases(module: str, pack: str) -> tuple[GeneratedTest, ...]:
    """``load_tests(module, pack)``, built once per process: ``corpus`` and ``corpus_of``
    share the cases."""
    return tuple(load_tests(module, pack))


def module_cases(module: str) -> tuple[GeneratedTest, ...]:
    """The cases of one of the suite's generated modules: the very objects ``corpus()``
    holds."""
    return _module_cases(module, "")


def named_modules(case_ids: Iterable[str]) -> list[str] | None:
    """The suite's generated modules ``case_ids`` name (``V1_0/add/none/ex0/sync``, or any
    id of a case's items: its folder and spec name the module ``V1_0.add``), in the
    index's order; None when an id names no module of the suite's, or a vendor pack is
    added (its cases could be any)."""
    if packs():
        return None
    modules = [module for module, _ in load_index(PACKAGE)]
    named = set()
    for case_id in case_ids:
        folder, spec = [*case_id.split("/", 2), "", ""][:2]
        named.add(f"{PACKAGE}.{folder}.{spec}")
    if not named <= set(modules):
        return None
    return [module for module in modules if module in named]


def corpus_of(case_ids: Iterable[str] | None) -> tuple[GeneratedTest, ...]:
    """The cases of the suite's generated modules that ``case_ids`` name
    (``named_modules``), in ``corpus()``'s order: every case those ids can be, without
    building the others (a rerun of one item). ``corpus()`` itself when ``case_ids`` is
    None or ``named_modules`` cannot tell."""
    modules = None if case_ids is None else named_modules(case_ids)
    if modules is None:
        return corpus()
    return tuple(test for module in modules for test in module_cases(module))


_LOWEST: dict[str, HalVersion | None] = {}
_LOWEST_OF: dict[int, tuple[GeneratedTest, HalVersion | None]] = {}
"""``lowest_version``'s answers by the case object's identity (its id, a few string
operations, was most of the cost of the 130,000 calls a collection makes): the entry holds
the case, so no other object takes its identity while the entry exists."""


def lowest_version(test: GeneratedTest) -> HalVersion | None:
    """The oldest HAL version the case's model is valid at (None: the corpus is broken):
    as the generator recorded it for that very model object (``_RECORDED``), else
    validated; once per case and process."""
    known = _LOWEST_OF.get(id(test))
    if known is not None and known[0] is test:
        return known[1]
    key = test.test_id
    if key not in _LOWEST:
        recorded = _RECORDED.get(id(test.model))
        if recorded is not None and recorded[0] is test.model:
            _LOWEST[key] = recorded[1]
        else:
            _LOWEST[key] = minimum_version(test.model)
    _LOWEST_OF[id(test)] = (test, _LOWEST[key])
    return _LOWEST[key]


def load_test(module_name: str, test_name: str) -> GeneratedTest:
    """One test of a generated module, building only that one."""
    for name, build in _builders(module_name):
        if name == test_name:
            return build()
    raise LookupError(f"{module_name} has no generated test named {test_name!r}")
