"""The catalog's data: one module per range of operation codes.

``ENTRIES`` maps every ``OperationType`` to its ``OperationInfo``; the public
questions about it are answered by ``hal.operations``.
"""

from __future__ import annotations

from hal.catalog import ops_00_47, ops_48_94, ops_95_101
from hal.forms import OperationInfo
from hal.types import OperationType


def _merge(*tables: dict[OperationType, OperationInfo]) -> dict[OperationType, OperationInfo]:
    merged: dict[OperationType, OperationInfo] = {}
    for table in tables:
        for op, info in table.items():
            if op in merged:
                raise ValueError(f"{op.name} is catalogued twice")
            merged[op] = info
    return merged


ENTRIES = _merge(ops_00_47.ENTRIES, ops_48_94.ENTRIES, ops_95_101.ENTRIES)
