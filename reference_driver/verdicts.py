"""The verdicts of the last few model validations, for a model validated again unchanged.

A client commonly asks for a model's supported operations and then prepares the very
same model object (the validation suite does it for every invalid model it makes, at
each HAL level): the driver validated it a moment before. ``ModelVerdicts`` keeps the
last few (model, level) verdicts together with a *snapshot* of the model: every value
it is made of (its records' field values, the items of every list) and the length of
each list, the values held so none of them can be freed and its identity reused. A model whose
snapshot is item by item the very same objects again is unchanged as far as
validation can tell (a field set to a new value, an item appended, a record replaced:
each shows as another object or another length), and gets the remembered verdict.

A model holding anything whose inside could change without changing its identity
(memory pools, a ``bytearray`` of constants, a field of an unexpected type) has no
snapshot and is always validated.
"""

from __future__ import annotations

import operator
import threading
from collections import deque
from collections.abc import Callable, Iterable

from hal.types import (
    ENUMS,
    DataLocation,
    ExtensionNameAndPrefix,
    ExtensionParams,
    Model,
    Operand,
    Operation,
    Subgraph,
    SymmPerChannelQuantParams,
)

_FROZEN = frozenset(
    {int, bool, float, str, bytes, type(None), DataLocation, ExtensionParams,
     ExtensionNameAndPrefix, *ENUMS}
)  # fmt: skip
"""Types whose values cannot change inside (numbers, the HAL's enums, strings, bytes,
the frozen records of scalars)."""


def _frozen(values: Iterable[object]) -> bool:
    """Whether no value of ``values`` can change inside."""
    return _FROZEN.issuperset(map(type, values)) or all(
        type(value) in _FROZEN
        or (
            type(value) is SymmPerChannelQuantParams
            and type(value.scales) is tuple
            and _FROZEN.issuperset(map(type, value.scales))
        )
        for value in values
    )


def snapshot(model: object) -> tuple[list, list[int]] | None:
    """(every object ``model`` is made of, the lengths of its lists), or None when the
    model holds something whose inside could change unseen. The referenced subgraphs
    (HAL 1.3) are part of it, each like the main one."""
    if type(model) is not Model or model.pools:
        return None
    referenced = model.referenced
    if type(referenced) is not list or any(type(g) is not Subgraph for g in referenced):
        return None
    parts = [model.operand_values, model.relax_computation_float32_to_float16]
    lists = [model.extension_name_to_prefix]
    lengths = [len(referenced)]
    for graph in (model, *referenced):
        if not _graph_parts(graph, parts, lists, lengths):
            return None
    for values in lists:
        if type(values) is not list:
            return None
        lengths.append(len(values))
        parts += values
    return (parts, lengths) if _frozen(parts) else None


def _graph_parts(graph: Model | Subgraph, parts: list, lists: list, lengths: list[int]) -> bool:
    """Add one graph's values, lists and counts; False when it holds a foreign object."""
    operands, operations = graph.operands, graph.operations
    if type(operands) is not list or type(operations) is not list:
        return False
    lists += (graph.input_indexes, graph.output_indexes)
    for o in operands:
        if type(o) is not Operand:
            return False
        parts += (o.type, o.number_of_consumers, o.scale, o.zero_point, o.lifetime,
                  o.location, o.extra_params)  # fmt: skip
        lists.append(o.dimensions)
    for op in operations:
        if type(op) is not Operation:
            return False
        parts.append(op.type)
        lists += (op.inputs, op.outputs)
    lengths += (len(operands), len(operations))
    return True


class ModelVerdicts:
    """The verdicts of the last ``size`` validations, each with its model's snapshot."""

    def __init__(self, size: int = 4) -> None:
        self._entries: deque[tuple[Model, object, list, list[int], bool]] = deque(maxlen=size)
        self._lock = threading.Lock()

    def verdict(self, model: Model, key: object, validate: Callable[[], bool]) -> bool:
        """``validate()`` of ``model`` under ``key`` (the level and rules), or the verdict of
        the same model object, unchanged, under the same key."""
        taken = snapshot(model)
        if taken is None:
            return validate()
        parts, lengths = taken
        with self._lock:
            for known, known_key, known_parts, known_lengths, ok in self._entries:
                if (
                    known is model
                    and known_key == key
                    and known_lengths == lengths
                    and len(known_parts) == len(parts)
                    and all(map(operator.is_, known_parts, parts))
                ):
                    return ok
        ok = validate()
        with self._lock:
            self._entries.append((model, key, parts, lengths, ok))
        return ok
