"""The working form of a spec's models, and the generator's data quantizer.

The DSL records what a spec declares; expansion copies each model into a
``WorkModel`` (operands keyed by name, in operand-list order) and its example
feeds into ``FeedData``, and the variations rewrite those copies. This module
also holds the operand type record and the data conversion of the NNAPI
generator (docs/spec-language.md 6): float32 dequantize and quantize,
float64 per-channel division, numpy round half to even, per-type clamps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from generator.errors import DslError
from hal.extensions import qualified_operand_type, split_qualified

TYPE_NAMES = frozenset(
    {
        "INT32",
        "UINT32",
        "FLOAT32",
        "FLOAT16",
        "BOOL",
        "TENSOR_INT32",
        "TENSOR_FLOAT16",
        "TENSOR_FLOAT32",
        "TENSOR_BOOL8",
        "TENSOR_OEM_BYTE",
        "TENSOR_QUANT8_ASYMM",
        "TENSOR_QUANT8_SYMM",
        "TENSOR_QUANT16_ASYMM",
        "TENSOR_QUANT16_SYMM",
        "TENSOR_QUANT8_SYMM_PER_CHANNEL",
        "TENSOR_QUANT8_ASYMM_SIGNED",
    }
)
"""The 16 operand type names a spec may use (the last, HAL 1.3's, since Android 11)."""

FLOAT_TYPES = frozenset({"FLOAT32", "FLOAT16", "TENSOR_FLOAT32", "TENSOR_FLOAT16"})
BOOL_TYPES = frozenset({"BOOL", "TENSOR_BOOL8"})

_CLAMPS: dict[str, tuple[int | None, int | None]] = {
    "TENSOR_QUANT8_ASYMM": (0, 255),
    "TENSOR_QUANT8_ASYMM_SIGNED": (-128, 127),
    "TENSOR_QUANT16_ASYMM": (0, 65535),
    "TENSOR_QUANT8_SYMM_PER_CHANNEL": (-127, 127),
    "UINT32": (0, None),
}

IO_KINDS = frozenset({"input", "output", "ignored"})
KIND_LABELS = {
    "input": "input",
    "output": "output",
    "ignored": "ignored output",
    "internal": "internal operand",
    "parameter": "parameter",
    "omitted": "omitted operand",
    "operand": "operand",
    "subgraph": "subgraph reference",
}


def check_type_name(name: object) -> str:
    """``name`` if it is one of the 16 operand type names, or an extension operand type
    of ``hal.extensions`` written ``"<extension name>:<type name>"``; DslError otherwise."""
    if isinstance(name, str) and split_qualified(name) is not None:
        try:
            qualified_operand_type(name)
        except ValueError as error:
            raise DslError(str(error)) from None
        return name
    if not isinstance(name, str) or name not in TYPE_NAMES:
        raise DslError(f"unknown operand type {name!r}")
    return name


class SymmPerChannelQuantParams:
    """Per-channel quantization parameters (``extraParams``) of a spec operand.

    With ``hide=True`` they drive the data conversion but are left out of the
    emitted model. Every object is its own identity.
    """

    def __init__(self, channelDim: int, scales: Any, hide: bool = False) -> None:
        self.channelDim = channelDim
        self.scales = scales
        self.hide = hide

    def broadcast(self, dims: tuple[int, ...]) -> np.ndarray:
        """The scales as a float64 array shaped to broadcast along ``channelDim``."""
        shape = [1] * len(dims)
        try:
            shape[self.channelDim] = len(self.scales)
        except IndexError:
            raise DslError(
                f"channelDim {self.channelDim} is outside an operand of rank {len(dims)}"
            ) from None
        return np.array(self.scales).reshape(shape)

    def __repr__(self) -> str:
        return f"SymmPerChannelQuantParams@{id(self):x}"


@dataclass(frozen=True)
class TypeDesc:
    """An operand type as the spec language sees it."""

    type: str
    dims: tuple[int, ...]
    scale: float = 0.0
    zero_point: int = 0
    extra: SymmPerChannelQuantParams | None = None

    @property
    def count(self) -> int:
        """Number of elements (1 for a scalar)."""
        return math.prod(self.dims)

    # The upstream attribute names, for specs that read an operand's type.
    @property
    def dimensions(self) -> list[int]:
        return list(self.dims)

    @property
    def zeroPoint(self) -> int:
        return self.zero_point

    @property
    def extraParams(self) -> SymmPerChannelQuantParams | None:
        return self.extra


def parse_shape(shape: str) -> tuple[list[int], str, str]:
    """``"{2, 3}, 0.5f, 128"`` -> ``([2, 3], " 0.5", " 128")``: dims, scale text, zeroPoint text.

    A single value after the dims is the scale; ``""`` and ``"{}"`` are scalars.
    """
    if shape in ("", "{}"):
        return [], "0", "0"
    _, _, rest = shape.partition("{")
    body, _, tail = rest.partition("}")
    try:
        dims = [int(x) for x in body.split(",")]
    except ValueError:
        raise DslError(f"cannot parse the shape string {shape!r}") from None
    head, _, last = tail.rpartition(",")
    if head == "":
        return dims, (last or "0").replace("f", ""), "0"
    return dims, head.partition(",")[2].replace("f", ""), last


@dataclass
class WorkOperand:
    """One operand of a model being varied; ``value`` is None where there is no data."""

    name: str
    kind: str
    """``input``, ``output``, ``ignored``, ``internal``, ``parameter`` or ``operand``."""
    type: TypeDesc
    value: list[Any] | None = None
    line: int = 0
    """The spec line that declared the operand."""
    exact_parameter: bool = False
    """Declared with ``Parameter(...)`` itself, not a shorthand or an implicit constant:
    what Android 11's ``all_tensors_as_inputs`` variation turns into a model input."""
    may_be_internal: bool = True
    """False after ``ShouldNeverBeInternal()``: ``all_inputs_as_internal`` leaves it an input."""
    subgraph: WorkModel | None = None
    """The model a ``subgraph`` operand (``SubgraphReference``) names; the same object for
    every operand naming the same spec model."""

    def describe(self) -> str:
        """``input 'op1'``: how messages name the operand."""
        return f"{KIND_LABELS[self.kind]} '{self.name}'"

    def with_(self, **changes: Any) -> WorkOperand:
        return replace(self, **changes)


@dataclass
class WorkOperation:
    type: str
    inputs: list[str]
    outputs: list[str]
    scaffold: bool = False
    """An ADD a lifetime variation chained to an input or output (docs/spec-language.md
    5.5): part of the model, not an operation the case is about (its provenance)."""


@dataclass
class WorkModel:
    """A deep copy of a spec model that variations rewrite in place."""

    name: Any
    operands: list[WorkOperand]
    operations: list[WorkOperation]
    relaxed: bool = False
    version: Any = None
    dynamic: bool = False
    inputs_order: list[str] | None = None
    """The model inputs by name in the order ``Model.IdentifyInputs`` gave; None: operand order."""
    outputs_order: list[str] | None = None
    """The same for ``Model.IdentifyOutputs``."""

    def index_of(self, name: str) -> int | None:
        for index, operand in enumerate(self.operands):
            if operand.name == name:
                return index
        return None

    def has_subgraphs(self) -> bool:
        """Whether an operand of this model names another model (IF, WHILE)."""
        return any(op.kind == "subgraph" for op in self.operands)

    def referenced(self) -> list[WorkModel]:
        """The models this one's SUBGRAPH operands name, directly or not, each once: in the
        order a walk over each model's operands meets them, depth first (a model's own
        references come right after it), as Android 11's generator numbers them."""
        found: list[WorkModel] = []

        def walk(model: WorkModel) -> None:
            for op in model.operands:
                sub = op.subgraph
                if sub is not None and sub is not self and all(sub is not f for f in found):
                    found.append(sub)
                    walk(sub)

        walk(self)
        return found


@dataclass
class FeedData:
    """One case of an example: values keyed by operand name."""

    inputs: dict[str, list[Any]] = field(default_factory=dict)
    outputs: dict[str, list[Any]] = field(default_factory=dict)

    def side(self, kind: str) -> dict[str, list[Any]]:
        """The dict holding the data of an operand of this kind."""
        return self.inputs if kind == "input" else self.outputs

    def copy(self) -> FeedData:
        return FeedData(
            {k: list(v) for k, v in self.inputs.items()},
            {k: list(v) for k, v in self.outputs.items()},
        )


def shaped(values: list[Any], dims: tuple[int, ...], what: str) -> np.ndarray:
    """``values`` as an array of ``dims``; DslError naming ``what`` if the count differs."""
    expected = math.prod(dims)
    if len(values) != expected:
        raise DslError(f"{what} has {len(values)} values but dims {list(dims)} hold {expected}")
    return np.array(values).reshape(dims)


def _dequantize(v: np.ndarray, t: TypeDesc) -> np.ndarray:
    v -= t.zero_point
    if t.scale != 0:
        v *= t.scale
    if t.extra is not None:
        v *= t.extra.broadcast(t.dims)
    return v


def quantize(v: Any, t: TypeDesc) -> Any:
    """Float data (a float32 array, or a Python float for bounds) -> values of type ``t``."""
    if t.scale != 0:
        v /= t.scale
    if t.extra is not None:
        v = v / t.extra.broadcast(t.dims)
    v += t.zero_point
    if t.type not in FLOAT_TYPES:
        v = np.round(v).astype(int)
    low, high = _CLAMPS.get(t.type, (None, None))
    if low is not None:
        v = np.maximum(v, low)
    if high is not None:
        v = np.minimum(v, high)
    return v


def convert_data(values: list[Any], old: TypeDesc, new: TypeDesc, what: str) -> list[Any]:
    """Data of type ``old`` re-expressed in type ``new`` (same dims), as a flat list."""
    v = shaped(values, old.dims, what).astype(np.float32)
    return quantize(_dequantize(v, old), new).flatten().tolist()
