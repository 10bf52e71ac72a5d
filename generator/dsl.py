"""The spec language: the names a ``.mod.py`` spec file is written with.

This is the Android 10 NNAPI test-generator language (docs/spec-language.md):
operands (``Input``, ``Output``, ``Parameter``, ...), ``Model`` with its
operations, ``Example`` with its feeds and variation helpers, the converters,
``Configuration`` and ``tg``. The classes hold no state of their own: each
call finds the ``SpecContext`` of the spec being evaluated (generator.context),
so ``from generator.dsl import *`` works for linting while every spec file
runs in a fresh namespace with its own registry, models and examples.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import copy
import io
import itertools
import math
import os
import pprint
import random
import re
import struct
import sys
import traceback
import types
from collections.abc import Callable, Iterable, Iterator
from functools import reduce
from typing import Any

import numpy as np

from generator.context import SpecContext, active_context, call_line, current_context
from generator.errors import DslError
from generator.ir import (
    KIND_LABELS,
    FeedData,
    SymmPerChannelQuantParams,
    TypeDesc,
    check_type_name,
    parse_shape,
)
from generator.variations import (
    ActivationConverter,
    AllInputsAsInternalCoverter,
    AllOutputsAsInternalCoverter,
    AllTensorsAsInputsConverter,
    AxisConverter,
    DataLayoutConverter,
    DataTypeConverter,
    DefaultVariation,
    DynamicOutputShapeConverter,
    ModelVariation,
    NamedOperand,
    ParameterAsInputConverter,
    RelaxedModeConverter,
    SkipVariation,
    axis_variations,
    dims_and_axis_variations,
    dims_variations,
    guess_axis,
    implicit_variation,
)
from hal.extensions import qualified_operation, split_qualified
from hal.types import OperationType

__all__ = [
    "ActivationConverter",
    "AllOutputsAsInternalCoverter",
    "AxisConverter",
    "BoolScalar",
    "Configuration",
    "DataLayoutConverter",
    "DataTypeConverter",
    "Example",
    "Float16Scalar",
    "Float32Scalar",
    "Float32Vector",
    "GetJointStr",
    "IgnoredOutput",
    "Input",
    "Int32Scalar",
    "Int32Vector",
    "Internal",
    "Model",
    "Omitted",
    "Operand",
    "Output",
    "Parameter",
    "ParameterAsInputConverter",
    "RelaxedModeConverter",
    "SmartOpen",
    "SubgraphReference",
    "SymmPerChannelQuantParams",
    "tg",
]


# ---------------------------------------------------------------------------
# Operands
# ---------------------------------------------------------------------------


def _values(value: Any) -> list[Any]:
    """A list or tuple as a list; an array flattened; any other value ``v`` as ``[v]``."""
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, np.ndarray):
        return value.flatten().tolist()
    return [value]


def _type_key(type_name: str, dims: Any, scale: Any, zero_point: Any, extra: Any) -> str:
    # Upstream type identity: string forms taken before normalisation (docs/spec-language.md 9.12).
    return ",".join([type_name, str(dims), str(scale), str(zero_point), str(extra)])


def _check_extra(extra: Any) -> None:
    if extra is not None and not isinstance(extra, SymmPerChannelQuantParams):
        raise DslError(f"extraParams must be a SymmPerChannelQuantParams, not {extra!r}")


def _type_from_string(ctx: SpecContext, type_name: str, shape: Any, extra: Any) -> TypeDesc:
    check_type_name(type_name)
    if not isinstance(shape, str):
        raise DslError(f"the shape of a {type_name} operand must be a string like '{{2, 2}}'")
    dims, scale_text, zero_point_text = parse_shape(shape)
    try:
        scale, zero_point = float(scale_text), int(zero_point_text)
    except ValueError:
        raise DslError(f"cannot parse the shape string {shape!r}") from None
    ctx.type_name(_type_key(type_name, dims, scale, zero_point, extra))
    return TypeDesc(type_name, tuple(dims), scale, zero_point, extra)


def _type_from_sequence(ctx: SpecContext, op_type: Any, extra: Any) -> TypeDesc:
    if not isinstance(op_type, list | tuple) or not 2 <= len(op_type) <= 4:
        raise DslError(f"an operand type is (type, dims[, scale[, zeroPoint]]), not {op_type!r}")
    type_name, dims, *rest = op_type
    check_type_name(type_name)
    if not isinstance(dims, list | tuple):
        raise DslError(f"dims must be a list or tuple, not {dims!r}")
    scale = rest[0] if rest else 0
    zero_point = rest[1] if len(rest) > 1 else 0
    ctx.type_name(_type_key(type_name, dims, scale, zero_point, extra))
    return TypeDesc(type_name, tuple(int(d) for d in dims), float(scale), int(zero_point), extra)


class Operand(NamedOperand):
    """An operand: a unique name (digits appended on reuse), a type and a value.

    ``Operand(name, "TENSOR_FLOAT32", "{2, 2}", value)`` (string form, the
    value comes fourth) or ``Operand(name, ("TENSOR_FLOAT32", [2, 2]), value)``.
    """

    kind = "operand"

    def __init__(
        self,
        name: Any,
        opType: Any,
        value: Any,
        backward: Any = None,
        skipRenaming: bool = False,
        extraParams: SymmPerChannelQuantParams | None = None,
    ) -> None:
        ctx = active_context()
        base = "" if name is None else str(name)
        self.name = base if skipRenaming else ctx.names.claim(base)
        _check_extra(extraParams)
        if isinstance(opType, str):
            self.type = _type_from_string(ctx, opType, value, extraParams)
            value = backward
        else:
            self.type = _type_from_sequence(ctx, opType, extraParams)
        self.value = None if value is None else _values(value)
        self.line = call_line()
        self.mayBeInternal = True

    def ShouldNeverBeInternal(self) -> Operand:
        """Keep this model input an input in the ``all_inputs_as_internal`` variation."""
        self.mayBeInternal = False
        return self


class Input(Operand):
    """A model input; its data comes from the examples."""

    kind = "input"

    def __init__(
        self,
        name: Any,
        opType: Any,
        backward: Any = None,
        skipRenaming: bool = False,
        extraParams: SymmPerChannelQuantParams | None = None,
    ) -> None:
        super().__init__(name, opType, backward, None, skipRenaming, extraParams)


class Output(Operand):
    """A model output; its expected data comes from the examples."""

    kind = "output"

    def __init__(self, name: Any, opType: Any, backward: Any = None, skipRenaming: bool = False):
        super().__init__(name, opType, backward, None, skipRenaming)


class IgnoredOutput(Output):
    """A model output whose values are never compared (emitted as zeros)."""

    kind = "ignored"


class Internal(Operand):
    """A temporary operand between two operations."""

    kind = "internal"

    def __init__(self, name: Any, opType: Any, backward: Any = None, skipRenaming: bool = False):
        super().__init__(name, opType, backward, None, skipRenaming)


class Parameter(Operand):
    """A constant operand (CONSTANT_COPY; CONSTANT_REFERENCE under use_shm_for_weights is
    emitted as CONSTANT_COPY too), or with no value an omitted one (NO_VALUE, Android 11)."""

    kind = "parameter"

    def __init__(
        self,
        name: Any,
        opType: Any,
        value: Any,
        backward: Any = None,
        skipRenaming: bool = False,
        extraParams: SymmPerChannelQuantParams | None = None,
    ) -> None:
        super().__init__(name, opType, value, backward, skipRenaming, extraParams)
        ctx = active_context()
        # The CTS initializer identifier shares the operand registry upstream.
        ctx.names.claim(f"{self.name}_init")
        if self.value is None:
            # Android 11: a parameter without a value is an omitted operand.
            self.kind = "omitted"
            self.lifetime = "NO_VALUE"
        else:
            self.lifetime = (
                "CONSTANT_REFERENCE" if ctx.configuration.use_shm_for_weights else "CONSTANT_COPY"
            )


class Omitted(Operand):
    """An omitted optional input given as a constant with no value (lifetime NO_VALUE).

    A project extension (Android 10's generator has no such form):
    ``Omitted("bias", "TENSOR_FLOAT32", "{4}")``. The dims stay as declared;
    the operand has no data and no location. Examples give it no value.
    """

    kind = "omitted"

    def __init__(self, name: Any, opType: Any, backward: Any = None, value: Any = None) -> None:
        super().__init__(name, opType, backward, value)
        if self.value is not None:
            raise DslError(f"omitted operand '{self.name}' cannot have a value")


class Int32Scalar(Parameter):
    def __init__(self, name: Any, value: Any) -> None:
        super().__init__(name, ("INT32", []), int(value))


class Float32Scalar(Parameter):
    def __init__(self, name: Any, value: Any) -> None:
        super().__init__(name, ("FLOAT32", []), float(value))


class Float16Scalar(Parameter):
    def __init__(self, name: Any, value: Any) -> None:
        super().__init__(name, ("FLOAT16", []), float(value))


class BoolScalar(Parameter):
    def __init__(self, name: Any, value: Any) -> None:
        super().__init__(name, ("BOOL", []), bool(value))


class Int32Vector(Parameter):
    def __init__(self, name: Any, value: Any) -> None:
        super().__init__(name, ("TENSOR_INT32", [len(value)]), [int(v) for v in value])


class Float32Vector(Parameter):
    def __init__(self, name: Any, value: Any) -> None:
        super().__init__(name, ("TENSOR_FLOAT32", [len(value)]), [float(v) for v in value])


class SubgraphReference(Parameter):
    """A SUBGRAPH operand naming a model that an IF or WHILE runs (Android 11):
    ``SubgraphReference("body", body_model)``. A ``Model`` given directly as an operation
    input becomes one named ``param``. The referenced model takes the operand's name if it
    has none. The generated operand has lifetime SUBGRAPH and, as its location's offset,
    the index of the model among the generated model's referenced subgraphs."""

    kind = "subgraph"

    def __init__(self, name: Any, model: Any) -> None:
        if not isinstance(model, Model):
            raise DslError(f"SubgraphReference() takes a Model, not {model!r}")
        ctx = active_context()
        self.name = ctx.names.claim("" if name is None else str(name))
        ctx.type_name(_type_key("SUBGRAPH", [], 0, 0, None))
        self.type = TypeDesc("SUBGRAPH", ())
        self.value = [model]
        self.line = call_line()
        self.mayBeInternal = True
        ctx.names.claim(f"{self.name}_init")
        self.lifetime = "SUBGRAPH"
        if model.name is None:
            model.name = name


def _implicit_parameter(value: Any) -> NamedOperand:
    """An operand as is; a plain value as a parameter ``param``, a ``Model`` as a
    ``SubgraphReference`` ``param`` (docs/spec-language.md 2.3)."""
    if isinstance(value, NamedOperand):
        return value
    if isinstance(value, Model):
        return SubgraphReference("param", value)
    scalars: dict[type, Callable[[str, Any], Parameter]] = {
        int: Int32Scalar,
        float: Float32Scalar,
        bool: BoolScalar,
    }
    if type(value) in scalars:
        return scalars[type(value)]("param", value)
    if type(value) in (list, tuple):
        if all(type(v) is int for v in value):
            return Int32Vector("param", value)
        if all(type(v) is float for v in value):
            return Float32Vector("param", value)
    raise DslError(f"cannot make an implicit parameter from {value!r}")


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------


class OperationDecl:
    """One ``Operation(...).To(...)`` of a model."""

    def __init__(self, type_name: str, inputs: list[NamedOperand]) -> None:
        self.type = type_name
        self.inputs = inputs
        self.outputs: list[NamedOperand] = []


class Model:
    """A graph of operations; the version is taken from the spec's folder."""

    def __init__(self, name: Any = None) -> None:
        ctx = active_context()
        self.name = name
        self.operations: list[OperationDecl] = []
        self.operands: list[NamedOperand] = []
        self.isRelaxed = False
        self.hasDynamicOutputShape = False
        self.version: Any = ctx.version
        self.line = call_line()
        self.inputs: list[NamedOperand] | None = None
        """The model inputs in the order ``IdentifyInputs`` gave; None: operand order."""
        self.outputs: list[NamedOperand] | None = None
        ctx.models.append(self)

    def _add(self, operands: Iterable[NamedOperand]) -> None:
        for op in operands:
            if op not in self.operands:
                self.operands.append(op)

    def Operation(self, op_name: str, *args: Any) -> Model:
        if isinstance(op_name, str) and split_qualified(op_name) is not None:
            try:
                qualified_operation(op_name)  # "<extension name>:<operation name>"
            except ValueError as error:
                raise DslError(str(error)) from None
        elif not isinstance(op_name, str) or op_name not in OperationType.__members__:
            raise DslError(f"unknown operation {op_name!r}")
        inputs = [_implicit_parameter(a) for a in args]
        self.operations.append(OperationDecl(op_name, inputs))
        self._add(inputs)
        return self

    def To(self, *args: Any) -> Model:
        if not self.operations:
            raise DslError("To() comes before any Operation()")
        outs = list(args[0]) if args and type(args[0]) in (list, tuple) else list(args)
        for op in outs:
            if not isinstance(op, NamedOperand):
                raise DslError(f"To() was given {op!r}, which is not an operand")
        self.operations[-1].outputs = outs
        self._add(outs)
        return self

    def RelaxedExecution(self, isRelaxed: bool) -> Model:
        self.isRelaxed = isRelaxed
        return self

    def TestDynamicOutputShape(self, hasDynamicOutputShape: bool) -> Model:
        self.hasDynamicOutputShape = hasDynamicOutputShape
        return self

    def IntroducedIn(self, ver: Any) -> Model:
        self.version = ver
        return self

    def IdentifyInputs(self, *args: Any) -> Model:
        """Fix the model inputs and their order (Android 11). As upstream, the operands
        join the operand list now, those not in it yet in the order given: called before
        the operations, the inputs come first; an input no operation reads joins it here."""
        self.inputs = self._identified("IdentifyInputs", args, ("input",))
        self._add(self.inputs)
        return self

    def IdentifyOutputs(self, *args: Any) -> Model:
        """Fix the model outputs and their order (Android 11); they join the operand list
        now, as the inputs do."""
        self.outputs = self._identified("IdentifyOutputs", args, ("output", "ignored"))
        self._add(self.outputs)
        return self

    def _identified(self, method: str, args: tuple, kinds: tuple[str, ...]) -> list:
        ops = list(args[0]) if len(args) == 1 and type(args[0]) in (list, tuple) else list(args)
        for op in ops:
            if not isinstance(op, NamedOperand):
                raise DslError(f"{method}() was given {op!r}, which is not an operand")
            if op.kind not in kinds:
                label = "inputs" if kinds == ("input",) else "outputs"
                raise DslError(
                    f"{method}() takes model {label}, not {KIND_LABELS[op.kind]} '{op.name}'"
                )
        if len(set(ops)) != len(ops):
            raise DslError(f"{method}() lists an operand twice")
        return ops

    def GetInputs(self) -> list[NamedOperand]:
        if self.inputs is not None:
            return list(self.inputs)
        return [op for op in self.operands if isinstance(op, Input)]

    def GetOutputs(self) -> list[NamedOperand]:
        if self.outputs is not None:
            return list(self.outputs)
        return [op for op in self.operands if isinstance(op, Output)]

    def GetParameters(self) -> list[NamedOperand]:
        return [op for op in self.operands if isinstance(op, Parameter)]


# ---------------------------------------------------------------------------
# Example
# ---------------------------------------------------------------------------


def _by_name(data: dict[Any, Any]) -> dict[str, list[Any]]:
    return {k.name: _values(v) for k, v in data.items() if isinstance(k, NamedOperand)}


def _split(model: Model, data: dict[str, list[Any]], operands: list[Any]) -> dict[str, list[Any]]:
    """The values of ``operands`` from a combined dict; every one must be a key."""
    for op in operands:
        if op.name not in data:
            label = {"input": "input", "output": "output", "ignored": "ignored output"}[op.kind]
            raise DslError(f"example has no value for {label} '{op.name}'")
    return {op.name: data[op.name] for op in operands}


def _feed(model: Model, feed: Any) -> FeedData:
    """One case: an ``(inputs, outputs)`` pair kept as given, or a dict split now."""
    if isinstance(feed, dict):
        data = _by_name(feed)
        return FeedData(
            _split(model, data, model.GetInputs()), _split(model, data, model.GetOutputs())
        )
    if isinstance(feed, list | tuple) and len(feed) == 2 and all(isinstance(d, dict) for d in feed):
        return FeedData(_by_name(feed[0]), _by_name(feed[1]))
    raise DslError("an example case is a dict, or an (inputs, outputs) pair of dicts")


class Example:
    """Test cases of a model (the latest one unless ``model=`` is given) and their variations."""

    def __init__(self, *args: Any, model: Model | None = None, name: Any = None) -> None:
        ctx = active_context()
        if model is None:
            if not ctx.models:
                raise DslError("Example() comes before any Model()")
            model = ctx.models[-1]
        self.model = model
        self.name = name
        self.line = call_line()
        self.expectedMultinomialDistributionTolerance: float | None = None
        self.expectFailure = False
        self.testLifeTimeVariation = True
        self.testDynamicOutputShapeVariation = True
        self.feedDicts = [_feed(model, feed) for feed in args]
        self.dynamic_group = bool(ctx.configuration.test_dynamic_output_shape)
        self.variations: list[list[ModelVariation]] = []
        if self.dynamic_group:
            self.variations.append([DefaultVariation(), DynamicOutputShapeConverter()])
        ctx.examples.append(self)

    @staticmethod
    def SetVersion(ver: Any, *args: str) -> None:
        """Override the version of the tests with these final names."""
        for name in args:
            active_context().version_overrides[name] = ver

    def WithMultinomialDistributionTolerance(self, expectedTolerance: float) -> Example:
        self.expectedMultinomialDistributionTolerance = float(expectedTolerance)
        return self

    def ExpectFailure(self) -> Example:
        """The model is valid but its execution must fail (Android 11)."""
        self.expectFailure = True
        return self

    def DisableLifeTimeVariation(self) -> Example:
        """No automatic lifetime variations for this example (Android 11)."""
        self.testLifeTimeVariation = False
        return self

    def DisableDynamicOutputShapeVariation(self) -> Example:
        """Recorded only: as in Android 11 it changes no generated test (the harness makes
        every case's dynamic twin itself)."""
        self.testDynamicOutputShapeVariation = False
        return self

    def AddVariations(
        self, *args: Any, includeDefault: bool = True, defaultName: str | None = None
    ) -> Example:
        group: list[ModelVariation] = [DefaultVariation(defaultName)] if includeDefault else []
        group.extend(implicit_variation(arg) for arg in args)
        self.variations.append(group)
        return self

    def AddNchw(
        self, *args: Any, includeDefault: bool = True, defaultName: str = "nhwc"
    ) -> Example:
        var = DataLayoutConverter("nchw").Identify(args)
        return self.AddVariations(var, includeDefault=includeDefault, defaultName=defaultName)

    def AddRelaxed(
        self, isRelaxed: bool = True, includeDefault: bool = True, defaultName: str | None = None
    ) -> Example:
        var = RelaxedModeConverter(isRelaxed)
        return self.AddVariations(var, includeDefault=includeDefault, defaultName=defaultName)

    def AddInput(
        self, *args: Any, includeDefault: bool = True, defaultName: str | None = None
    ) -> Example:
        var = ParameterAsInputConverter().Identify(args)
        return self.AddVariations(var, includeDefault=includeDefault, defaultName=defaultName)

    def AddRelu(
        self, *args: Any, includeDefault: bool = True, defaultName: str | None = None
    ) -> Example:
        var = ActivationConverter("relu").Identify(args)
        return self.AddVariations(var, includeDefault=includeDefault, defaultName=defaultName)

    def AddAllActivations(self, *args: Any) -> Example:
        var = [
            ActivationConverter(act).Identify(args) for act in ("none", "relu", "relu1", "relu6")
        ]
        return self.AddVariations(*var, includeDefault=False)

    def AddAxis(
        self, axis: Any, *args: Any, includeDefault: bool = True, defaultName: str | None = None
    ) -> Example:
        axes = [axis] if type(axis) is int else list(axis)
        var = axis_variations(args, axes)
        return self.AddVariations(*var, includeDefault=includeDefault, defaultName=defaultName)

    def AddAllPositiveAxis(self, *args: Any) -> Example:
        _, dim = guess_axis(args)
        return self.AddVariations(*axis_variations(args, range(dim)), includeDefault=False)

    def AddAllAxis(self, *args: Any) -> Example:
        _, dim = guess_axis(args)
        return self.AddVariations(*axis_variations(args, range(-dim, dim)), includeDefault=False)

    def AddDims(
        self, dims: Any, *args: Any, includeDefault: bool = True, defaultName: str | None = None
    ) -> Example:
        ranks = [dims] if type(dims) is int else list(dims)
        var = dims_variations(args, ranks)
        return self.AddVariations(*var, includeDefault=includeDefault, defaultName=defaultName)

    def AddAllDims(self, *args: Any) -> Example:
        _, dim = guess_axis(args)
        return self.AddVariations(*dims_variations(args, range(dim, 0, -1)), includeDefault=False)

    def AddAllDimsAndPositiveAxis(self, *args: Any) -> Example:
        var = dims_and_axis_variations(args, negative=False)
        return self.AddVariations(*var, includeDefault=False)

    def AddAllDimsAndAxis(self, *args: Any) -> Example:
        var = dims_and_axis_variations(args, negative=True)
        return self.AddVariations(*var, includeDefault=False)


# ---------------------------------------------------------------------------
# Configuration, SmartOpen, tg and the spec namespace
# ---------------------------------------------------------------------------


class _ConfigurationMeta(type):
    """Class attributes of ``Configuration`` live in the active spec's context."""

    def __getattr__(cls, name: str) -> Any:
        # Tools probe classes for dunder names: those, and any lookup outside a
        # spec evaluation, must stay plain AttributeErrors.
        context = current_context()
        if context is None or name.startswith("__") or not hasattr(context.configuration, name):
            raise AttributeError(f"Configuration has no attribute {name!r}")
        return getattr(context.configuration, name)

    def __setattr__(cls, name: str, value: Any) -> None:
        setattr(active_context().configuration, name, value)


class Configuration(metaclass=_ConfigurationMeta):
    """``use_shm_for_weights``, ``test_dynamic_output_shape`` and ``force_regenerate``."""

    @staticmethod
    def useSHM() -> bool:
        return bool(active_context().configuration.use_shm_for_weights)


@contextlib.contextmanager
def SmartOpen(
    filename: Any = None, mode: str = "w", *args: Any, **kwargs: Any
) -> Iterator[io.StringIO]:
    """Upstream writes generated files here; a spec evaluation writes nothing."""
    yield io.StringIO()


def GetJointStr(items: Iterable[Any], sep: str = ", ", method: Callable[[Any], str] = str) -> str:
    return sep.join(method(i) for i in items)


tg = types.ModuleType("test_generator", "The DSL as the runtime module ``tg`` exposes it.")
for _name in __all__:
    if _name != "tg":
        setattr(tg, _name, globals()[_name])
for _extra in (
    AllInputsAsInternalCoverter,
    AllTensorsAsInputsConverter,
    DefaultVariation,
    DynamicOutputShapeConverter,
    ModelVariation,
    SkipVariation,
):
    setattr(tg, _extra.__name__, _extra)
del _name, _extra


def spec_namespace() -> dict[str, Any]:
    """The globals a spec file runs in: the DSL plus the modules specs rely on.

    As upstream, ``__file__`` names the generator, not the spec.
    """
    namespace: dict[str, Any] = {name: globals()[name] for name in __all__}
    namespace.update(
        __name__="__main__",
        __file__=__file__,
        argparse=argparse,
        collections=collections,
        contextlib=contextlib,
        copy=copy,
        itertools=itertools,
        math=math,
        np=np,
        os=os,
        pprint=pprint,
        random=random,
        re=re,
        reduce=reduce,
        struct=struct,
        sys=sys,
        traceback=traceback,
    )
    return namespace
