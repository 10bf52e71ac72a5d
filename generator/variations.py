"""The variations of the spec language: converters, implicit forms and helpers.

A variation rewrites a ``WorkModel`` and its feeds in place. Its targets are
operand names, handled in ascending name order; a target that is a model
input or output is converted once per feed, with that feed's value, and a
parameter once, in place (docs/spec-language.md 5.1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from generator.context import call_line
from generator.errors import DslError
from generator.ir import (
    IO_KINDS,
    TYPE_NAMES,
    FeedData,
    TypeDesc,
    WorkModel,
    WorkOperand,
    WorkOperation,
    convert_data,
    quantize,
    shaped,
)


class NamedOperand:
    """Base of the DSL operands: equal, hashed and ordered by name."""

    name: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NamedOperand) and self.name == other.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __lt__(self, other: NamedOperand) -> bool:
        return self.name < other.name

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__


def _target_map(args: Any) -> dict[str, Any]:
    """``Identify``'s first argument -> {operand name: per-operand argument}."""
    if isinstance(args, dict):
        items = list(args.items())
    elif isinstance(args, list | tuple):
        # A nested list (``AddInput([w])``, seen in older specs) is flattened.
        flat = [op for arg in args for op in (arg if isinstance(arg, list | tuple) else [arg])]
        items = [(op, None) for op in flat]
    else:
        raise DslError(f"Identify() takes a list, tuple or dict of operands, not {args!r}")
    for op, _ in items:
        if not isinstance(op, NamedOperand):
            raise DslError(f"Identify() was given {op!r}, which is not an operand")
    return {op.name: arg for op, arg in items}


class ModelVariation:
    """Base of every variation: a name, its target operands and how it rewrites them."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name
        self.targetOperands: dict[str, Any] = {}
        self.line = call_line()

    def Identify(self, operandArgs: Any = None, paramArgs: Any = None) -> ModelVariation:
        """Set the targets. Only the first argument counts, as in Android 10."""
        if operandArgs is not None:
            self.targetOperands = _target_map(operandArgs)
            self.line = call_line() or self.line
        return self

    def SetToDefaultName(self) -> None:
        """Give the variation its default name (called when its name is None)."""

    def label(self) -> str:
        return self.name or type(self).__name__

    supports_subgraphs = False
    """Whether the variation applies to a model holding SUBGRAPH operands (Android 11's
    ``supportsSubgraphs``: the default, the data type, relaxed and lifetime variations)."""

    def check_subgraphs(self, model: WorkModel) -> None:
        """DslError if ``model`` has SUBGRAPH operands and the variation cannot vary them."""
        if not self.supports_subgraphs and model.has_subgraphs():
            raise DslError(
                f"variation '{self.label()}' does not apply to a model with subgraph "
                "operands (IF, WHILE)"
            )

    def apply(self, model: WorkModel, feeds: list[FeedData]) -> None:
        """Rewrite ``model`` and ``feeds`` in place."""
        self.check_subgraphs(model)
        self.auto_identify(model)
        for name in sorted(self.targetOperands):
            self._apply_to(model, feeds, name, self.targetOperands[name])
        self.transform_model(model)

    def _apply_to(self, model: WorkModel, feeds: list[FeedData], name: str, arg: Any) -> None:
        index = model.index_of(name)
        if index is None:
            if any(sub.index_of(name) is not None for sub in model.referenced()):
                raise DslError(
                    f"variation '{self.label()}' targets operand '{name}' of a referenced "
                    "model: convert it with a DataTypeConverter given to the SUBGRAPH "
                    "operand that names the model"
                )
            raise DslError(
                f"variation '{self.label()}' targets operand '{name}', which is not in the model"
            )
        op = model.operands[index]
        if op.kind in IO_KINDS:
            model.operands[index] = self.transform_operand(op.with_(value=None), arg)
            for feed in feeds:
                _convert_feed(self, op, arg, feed)
            return
        new = self.transform_operand(op, arg)
        if new.kind == "input":
            for feed in feeds:
                feed.inputs[name] = list(new.value or [])
            new = new.with_(value=None)
        model.operands[index] = new

    def auto_identify(self, model: WorkModel) -> None:
        """Choose targets from the model (only DataTypeConverter does)."""

    def transform_operand(self, op: WorkOperand, arg: Any) -> WorkOperand:
        return op

    def transform_model(self, model: WorkModel) -> None:
        """Change model-wide flags."""


def _convert_feed(variation: ModelVariation, op: WorkOperand, arg: Any, feed: FeedData) -> None:
    side = feed.side(op.kind)
    if op.name not in side:
        raise DslError(f"example has no value for {op.describe()}")
    if op.kind == "input" and not side[op.name]:
        return  # an omitted input (``[]``) stays omitted whatever the variation does to its type
    if op.kind != "ignored":
        side[op.name] = variation.transform_operand(op.with_(value=side[op.name]), arg).value


class DefaultVariation(ModelVariation):
    """The no-op variation that starts a group; unnamed unless ``defaultName`` was given."""

    supports_subgraphs = True


class DynamicOutputShapeConverter(ModelVariation):
    """Marks the dynamic-output-shape twin; the harness builds that twin at run time."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or "dynamic_output_shape")


class DataTypeConverter(ModelVariation):
    """Retypes targets and converts their data (docs/spec-language.md 5.3 and 6). A target
    that is a SUBGRAPH operand takes another ``DataTypeConverter``, applied to the model the
    operand names; with a ``targetType``, every SUBGRAPH operand gets one of the same target."""

    supports_subgraphs = True

    def __init__(
        self,
        targetType: str | None = None,
        name: str | None = None,
        scale: float | None = None,
        zeroPoint: int | None = None,
    ) -> None:
        super().__init__(name)
        target = None if targetType is None else str(targetType).lower()
        if target is not None and target not in _TARGETS:
            raise DslError(
                "DataTypeConverter targetType must be float16, int32, quant8 or "
                f"quant8_signed, not {targetType!r}"
            )
        quantized = target in _QUANTIZED_TARGETS
        if quantized and (scale is None or zeroPoint is None):
            raise DslError(f"DataTypeConverter {targetType!r} needs scale= and zeroPoint=")
        if not quantized and (scale is not None or zeroPoint is not None):
            raise DslError(
                "DataTypeConverter takes scale= and zeroPoint= only with targetType "
                f"quant8 or quant8_signed, not {targetType!r}"
            )
        self.targetType = targetType
        self.scale = None if scale is None else float(scale)
        self.zeroPoint = None if zeroPoint is None else int(zeroPoint)
        self._identified = False

    def SetToDefaultName(self) -> None:
        if self.targetType is not None:
            self.name = self.targetType.lower()
            return
        firsts = [s[0] for s in self.targetOperands.values() if isinstance(s, list | tuple) and s]
        for type_name, name in (
            ("TENSOR_QUANT8_SYMM_PER_CHANNEL", "channelQuant8"),
            ("TENSOR_QUANT8_ASYMM", "quant8"),
            ("TENSOR_QUANT8_ASYMM_SIGNED", "quant8_signed"),
            ("TENSOR_INT32", "int32"),
            ("TENSOR_FLOAT16", "float16"),
        ):
            if type_name in firsts:
                self.name = name
                return
        self.name = "float32"

    def auto_identify(self, model: WorkModel) -> None:
        # Once per object: the first model it meets fixes the targets for good.
        if self.targetType is None or self._identified:
            return
        self._identified = True
        target = self.targetType.upper()
        if target.lower() in _QUANTIZED_TARGETS:
            # Android 11: every TENSOR_FLOAT32 operand, at the given scale and zero point;
            # FLOAT32 scalars stay as they are.
            quantized = _QUANTIZED_TARGETS[target.lower()]
            self.targetOperands = self._nested(model)
            self.targetOperands.update(
                {
                    op.name: [quantized, self.scale, self.zeroPoint]
                    for op in model.operands
                    if op.type.type == "TENSOR_FLOAT32"
                }
            )
            return
        self.targetOperands = self._nested(model)
        self.targetOperands.update(
            {
                op.name: [f"TENSOR_{target}"]
                for op in model.operands
                if op.type.type == "TENSOR_FLOAT32"
            }
        )
        self.targetOperands.update(
            {op.name: [target] for op in model.operands if op.type.type == "FLOAT32"}
        )

    def _nested(self, model: WorkModel) -> dict[str, Any]:
        """A converter like this one for each SUBGRAPH operand (Android 11)."""
        return {
            op.name: DataTypeConverter(self.targetType, self.name, self.scale, self.zeroPoint)
            for op in model.operands
            if op.kind == "subgraph"
        }

    def transform_operand(self, op: WorkOperand, arg: Any) -> WorkOperand:
        if op.kind == "subgraph" or isinstance(arg, ModelVariation):
            if op.kind != "subgraph" or not isinstance(arg, DataTypeConverter):
                raise DslError(
                    f"DataTypeConverter: a subgraph reference takes a DataTypeConverter "
                    f"and only a subgraph reference does; {op.describe()} was given {arg!r}"
                )
            arg.apply(op.subgraph, [])  # the referenced model has no feeds of its own
            return op
        new_type = _type_from_spec(op, arg)
        if op.value is None or op.type.count == 0:
            return op.with_(type=new_type)
        return op.with_(
            type=new_type, value=convert_data(op.value, op.type, new_type, op.describe())
        )


_QUANTIZED_TARGETS = {
    "quant8": "TENSOR_QUANT8_ASYMM",
    "quant8_signed": "TENSOR_QUANT8_ASYMM_SIGNED",
}
"""The keyword targets of Android 11 (``DataTypeConverter("quant8", scale=, zeroPoint=)``)."""
_TARGETS = ("float16", "int32", *_QUANTIZED_TARGETS)


def _type_from_spec(op: WorkOperand, spec: Any) -> TypeDesc:
    """``(type[, scale[, zeroPoint[, extraParams]]])`` -> the new type, keeping the dims."""
    if not isinstance(spec, list | tuple) or not 1 <= len(spec) <= 4:
        raise DslError(
            f"DataTypeConverter needs (type, scale, zeroPoint, extraParams) for "
            f"'{op.name}', got {spec!r}"
        )
    if spec[0] not in TYPE_NAMES:
        raise DslError(f"unknown operand type {spec[0]!r}")
    scale = float(spec[1]) if len(spec) > 1 else 0.0
    zero_point = int(spec[2]) if len(spec) > 2 else 0
    extra = spec[3] if len(spec) > 3 else None
    return TypeDesc(spec[0], op.type.dims, scale, zero_point, extra)


class DataLayoutConverter(ModelVariation):
    """NHWC <-> NCHW: rank-4 transpose, 4-vector re-index, BOOL layout flag."""

    def __init__(self, targetLayout: str = "nchw", name: str | None = None) -> None:
        super().__init__(name)
        self.targetLayout = str(targetLayout).lower()
        if self.targetLayout not in ("nchw", "nhwc"):
            raise DslError(f"DataLayoutConverter layout must be nchw or nhwc, not {targetLayout!r}")
        self.perm = (0, 3, 1, 2) if self.targetLayout == "nchw" else (0, 2, 3, 1)
        self.param = self.targetLayout == "nchw"

    def SetToDefaultName(self) -> None:
        self.name = self.targetLayout

    def transform_operand(self, op: WorkOperand, arg: Any) -> WorkOperand:
        t = op.type
        if len(t.dims) == 4:
            value = op.value
            if value is not None and t.count != 0:
                value = shaped(value, t.dims, op.describe()).transpose(self.perm).flatten().tolist()
            dims = tuple(t.dims[i] for i in self.perm)
            return op.with_(type=TypeDesc(t.type, dims, t.scale, t.zero_point), value=value)
        if len(t.dims) == 1 and op.value is None:
            return op
        if len(t.dims) == 1 and len(op.value) == 4:
            return op.with_(value=[op.value[i] for i in self.perm])
        if t.type == "BOOL":
            return op.with_(value=[self.param])
        raise DslError(f"DataLayoutConverter cannot convert {op.describe()} of type {t.type}")


class AxisConverter(ModelVariation):
    """Moves axis ``origin`` to ``target`` in rank-``dim`` tensors, then drops axes."""

    def __init__(
        self, origin: int, target: int, dim: int, drop: Any = (), name: str | None = None
    ) -> None:
        super().__init__(name)
        if not all(-dim <= i < dim for i in (origin, target)):
            raise DslError(
                f"AxisConverter origin {origin} and target {target} must be in [-{dim}, {dim})"
            )
        drops = [drop] if isinstance(drop, int) else list(drop)
        if not all(-dim <= i < dim for i in drops):
            raise DslError(f"AxisConverter drop {drops} must be in [-{dim}, {dim})")
        self.origin, self.target, self.dim = origin, target, dim
        self.drop = [i + dim if i < 0 else i for i in drops]
        if target % dim in self.drop:
            raise DslError(f"AxisConverter target {target} is dropped")
        self.perm = list(range(dim))
        self.perm.insert(target % dim, self.perm.pop(origin))

    def SetToDefaultName(self) -> None:
        axis = self.target % self.dim
        axis -= sum(i < axis for i in self.drop)
        neg = "_neg" if self.target < 0 else ""
        self.name = f"dim{self.dim - len(self.drop)}_axis{axis}{neg}"

    def transform_operand(self, op: WorkOperand, arg: Any) -> WorkOperand:
        if op.type.type == "INT32":
            return op.with_(value=[self._moved_axis()])
        t = op.type
        if len(t.dims) != self.dim:
            raise DslError(
                f"AxisConverter cannot convert {op.describe()}: rank {len(t.dims)}, not {self.dim}"
            )
        value = op.value
        if value is not None and t.count != 0:
            array = shaped(value, t.dims, op.describe()).transpose(self.perm)
            for axis in sorted(self.drop, reverse=True):
                array = np.take(array, 0, axis=axis)
            value = array.flatten().tolist()
        moved = [t.dims[i] for i in self.perm]
        dims = tuple(d for i, d in enumerate(moved) if i not in self.drop)
        return op.with_(type=TypeDesc(t.type, dims, t.scale, t.zero_point), value=value)

    def _moved_axis(self) -> int:
        """The axis parameter's new value: the target, then shifted past the dropped axes."""
        v = self.target
        if v >= 0:
            return v - sum(i < v for i in self.drop)
        return v + sum(i > v + self.dim for i in self.drop)


class RelaxedModeConverter(ModelVariation):
    """Sets the model's relaxed-float32-as-float16 flag; data is untouched."""

    def __init__(self, isRelaxed: bool | str = True, name: str | None = None) -> None:
        super().__init__(name)
        if isinstance(isRelaxed, bool):
            self.isRelaxed = isRelaxed
        elif isinstance(isRelaxed, str) and isRelaxed.lower() == "relaxed":
            self.isRelaxed = True
        else:
            raise DslError(f"RelaxedModeConverter takes a bool or 'relaxed', not {isRelaxed!r}")

    supports_subgraphs = True

    def SetToDefaultName(self) -> None:
        self.name = "relaxed" if self.isRelaxed else "float"

    def transform_model(self, model: WorkModel) -> None:
        model.relaxed = self.isRelaxed


class ParameterAsInputConverter(ModelVariation):
    """Turns parameters into model inputs whose data every feed carries."""

    def __init__(
        self, arg: str = "as_input", prefix: str = "weight", name: str | None = None
    ) -> None:
        super().__init__(name)
        if str(arg).lower() != "as_input":
            raise DslError(f"ParameterAsInputConverter takes 'as_input', not {arg!r}")
        self.prefix = prefix

    def SetToDefaultName(self) -> None:
        self.name = f"{self.prefix}_as_input"

    def transform_operand(self, op: WorkOperand, arg: Any) -> WorkOperand:
        if op.kind != "parameter":
            raise DslError(f"{op.describe()} cannot be turned into an input: it is not a parameter")
        return op.with_(kind="input")


ACTIVATIONS: dict[str, tuple[int, float | None, float | None]] = {
    "none": (0, None, None),
    "relu": (1, 0.0, None),
    "relu1": (2, -1.0, 1.0),
    "relu6": (3, 0.0, 6.0),
}
"""Activation name -> (fused activation code, low bound, high bound)."""


class ActivationConverter(ModelVariation):
    """Sets the activation parameter and clamps the expected outputs to its range."""

    def __init__(self, act: str = "relu", name: str | None = None) -> None:
        super().__init__(name)
        self.act = str(act).lower()
        if self.act not in ACTIVATIONS:
            raise DslError(f"unknown activation {act!r}")
        self.code, self.low, self.high = ACTIVATIONS[self.act]

    def SetToDefaultName(self) -> None:
        self.name = self.act

    def transform_operand(self, op: WorkOperand, arg: Any) -> WorkOperand:
        if op.type.type == "INT32":
            return op.with_(value=[self.code])
        if op.kind not in ("output", "ignored"):
            raise DslError(f"ActivationConverter can only clamp outputs, not {op.describe()}")
        if op.value is None:
            return op
        v = shaped(op.value, op.type.dims, op.describe())
        if self.low is not None:
            v = np.maximum(v, quantize(self.low, op.type))
        if self.high is not None:
            v = np.minimum(v, quantize(self.high, op.type))
        return op.with_(value=v.flatten().tolist())


class SkipVariation(Exception):
    """Raised by a variation that does not apply to a model: the combination makes no test
    and takes no name (Android 11's generator; docs/spec-language.md 5.5)."""


ADD_TYPES = frozenset(
    {"TENSOR_FLOAT32", "TENSOR_FLOAT16", "TENSOR_QUANT8_ASYMM", "TENSOR_QUANT8_ASYMM_SIGNED"}
)
"""The operand types an ADD takes, which the lifetime variations may chain an ADD onto."""


def _compatible_with_add(op: WorkOperand, feeds: list[FeedData]) -> bool:
    """A model input or output an ADD can make or read: one of ``ADD_TYPES``, rank 4 at
    most, and data in every feed (an omitted input, ``[]``, is not)."""
    if op.type.type not in ADD_TYPES or len(op.type.dims) > 4:
        return False
    if op.kind == "ignored":  # its data is zeros of its dims, whatever the feeds say
        return op.type.count > 0
    side = [feed.side(op.kind).get(op.name) for feed in feeds]
    return bool(feeds) and all(values for values in side)


def _free_name(model: WorkModel, base: str) -> str:
    """``base``, or ``base`` with the digits 1, 2, ... appended, the first no operand of the
    model has (operand names are not part of the HAL model)."""
    taken = {op.name for op in model.operands}
    name, count = base, 0
    while name in taken:
        count += 1
        name = f"{base}{count}"
    return name


def _chain_add(model: WorkModel, source: str, target: str, like: WorkOperand) -> None:
    """Append ``ADD(source, dummy, 0) -> target``: ``dummy`` a constant of ``like``'s type
    and quantization, dims [1], holding the zero point; the activation an INT32 0."""
    dummy = WorkOperand(
        _free_name(model, "dummy"),
        "parameter",
        TypeDesc(like.type.type, (1,), like.type.scale, like.type.zero_point),
        [like.type.zero_point],
        like.line,
    )
    model.operands.append(dummy)
    activation = WorkOperand(
        _free_name(model, "param"), "parameter", TypeDesc("INT32", ()), [0], like.line
    )
    model.operands.append(activation)
    model.operations.append(
        WorkOperation("ADD", [source, dummy.name, activation.name], [target], scaffold=True)
    )


def _one_operation(model: WorkModel) -> None:
    if len(model.operations) != 1:
        raise SkipVariation


class AllTensorsAsInputsConverter(ModelVariation):
    """Every tensor constant declared with ``Parameter(...)`` itself becomes a model input
    (Android 11's automatic lifetime variation ``all_tensors_as_inputs``)."""

    supports_subgraphs = True

    def SetToDefaultName(self) -> None:
        self.name = "all_tensors_as_inputs"

    def apply(self, model: WorkModel, feeds: list[FeedData]) -> None:
        _one_operation(model)
        targets = [
            op
            for op in model.operands
            if op.kind == "parameter" and op.exact_parameter and op.type.dims
        ]
        if not targets:
            raise SkipVariation
        for op in targets:
            for feed in feeds:
                feed.inputs[op.name] = list(op.value or [])
            model.operands[model.operands.index(op)] = op.with_(kind="input", value=None)
            if model.inputs_order is not None:
                model.inputs_order.append(op.name)


class AllInputsAsInternalCoverter(ModelVariation):
    """Every model input an ADD can make becomes an internal operand written by
    ``ADD(<name>_new, dummy, 0)``, ``<name>_new`` a new model input carrying its data
    (Android 11's automatic lifetime variation ``all_inputs_as_internal``)."""

    supports_subgraphs = True

    def SetToDefaultName(self) -> None:
        self.name = "all_inputs_as_internal"

    def apply(self, model: WorkModel, feeds: list[FeedData]) -> None:
        _one_operation(model)
        targets = [
            op
            for op in model.operands
            if op.kind == "input" and op.may_be_internal and _compatible_with_add(op, feeds)
        ]
        if not targets:
            raise SkipVariation
        for op in targets:
            new = op.with_(name=_free_name(model, f"{op.name}_new"))
            model.operands.append(new)
            _chain_add(model, new.name, op.name, op)
            model.operands[model.operands.index(op)] = op.with_(kind="internal")
            for feed in feeds:
                feed.inputs[new.name] = feed.inputs.pop(op.name)
            if model.inputs_order is not None:
                model.inputs_order[model.inputs_order.index(op.name)] = new.name


class AllOutputsAsInternalCoverter(ModelVariation):
    """Every model output an ADD can read becomes an internal operand read by
    ``ADD(<name>, dummy, 0) -> <name>_new``, ``<name>_new`` a new model output expecting its
    data (Android 11's ``AllOutputsAsInternalCoverter``, so spelt; docs/spec-language.md 5.5)."""

    supports_subgraphs = True

    def SetToDefaultName(self) -> None:
        self.name = "all_outputs_as_internal"

    def apply(self, model: WorkModel, feeds: list[FeedData]) -> None:
        _one_operation(model)
        targets = [
            op
            for op in model.operands
            if op.kind in ("output", "ignored") and _compatible_with_add(op, feeds)
        ]
        if not targets:
            raise SkipVariation
        for op in targets:
            new = op.with_(name=_free_name(model, f"{op.name}_new"))
            model.operands.append(new)
            _chain_add(model, op.name, new.name, op)
            model.operands[model.operands.index(op)] = op.with_(kind="internal")
            for feed in feeds:
                if op.name in feed.outputs:
                    feed.outputs[new.name] = feed.outputs.pop(op.name)
            if model.outputs_order is not None:
                model.outputs_order[model.outputs_order.index(op.name)] = new.name


LIFETIME_VARIATIONS = (AllTensorsAsInputsConverter, AllInputsAsInternalCoverter)
"""The automatic lifetime variations, each in a group of its own after the spec's groups."""


# Matched in this order against a string in AddVariations (docs/spec-language.md 5.2).
_IMPLICIT: tuple[tuple[type[ModelVariation], tuple[str, ...]], ...] = (
    (DataTypeConverter, ("float16", "int32")),
    (RelaxedModeConverter, ("relaxed",)),
    (DataLayoutConverter, ("nhwc", "nchw")),
    (ParameterAsInputConverter, ("as_input",)),
    (ActivationConverter, tuple(ACTIVATIONS)),
)


def implicit_variation(value: Any) -> ModelVariation:
    """A variation object as is; ``"s"`` or ``("s", targets, ...)`` built from its string."""
    if isinstance(value, ModelVariation):
        return value
    parts = list(value) if isinstance(value, list | tuple) else [value]
    head = parts[0] if parts else None
    for cls, words in _IMPLICIT:
        if isinstance(head, str) and head.lower() in words:
            variation = cls(head)
            if len(parts) > 1:
                variation.Identify(*parts[1:])
            return variation
    raise DslError(f"{head!r} is not a variation")


# ---------------------------------------------------------------------------
# The axis helpers of Example
# ---------------------------------------------------------------------------


def guess_axis(ops: Iterable[Any]) -> tuple[int, int]:
    """(origin, dim) from operands: an INT32 gives the origin, the tensors the rank."""
    origin, dim = None, None
    for op in ops:
        if op.type.type == "INT32":
            origin = op.value[0]
        elif dim is None:
            dim = len(op.type.dims)
        elif dim != len(op.type.dims):
            raise DslError(
                f"axis helpers need operands of one rank: {op} has rank {len(op.type.dims)}, not {dim}"
            )
    if dim is None:
        raise DslError("axis helpers need at least one tensor operand")
    origin = dim - 1 if origin is None else origin
    return (origin + dim if origin < 0 else origin), dim


def axis_variations(ops: tuple[Any, ...], axes: Iterable[int]) -> list[ModelVariation]:
    """One AxisConverter per target axis, nothing dropped (AddAxis, AddAll*Axis)."""
    origin, dim = guess_axis(ops)
    return [AxisConverter(origin, a, dim).Identify(ops) for a in axes]


def dims_variations(ops: tuple[Any, ...], ranks: Iterable[int]) -> list[ModelVariation]:
    """Rank ``r``: the origin axis kept, the first ``dim - r`` other axes dropped (AddDims)."""
    origin, dim = guess_axis(ops)
    others = [i for i in range(dim) if i != origin]
    return [AxisConverter(origin, origin, dim, others[: dim - r]).Identify(ops) for r in ranks]


def dims_and_axis_variations(ops: tuple[Any, ...], negative: bool) -> list[ModelVariation]:
    """For i < dim, j in i..dim-1: target j (and j - dim), dropping the first i axes."""
    origin, dim = guess_axis(ops)
    return [
        AxisConverter(origin, k, dim, range(i)).Identify(ops)
        for i in range(dim)
        for j in range(i, dim)
        for k in ((j, j - dim) if negative else (j,))
    ]
