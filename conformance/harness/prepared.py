"""One cache of prepared models, shared by the suite's modules.

Preparing is the dearest step of most items, and many items run the same
model (every example, path and mode of a generated case; every packet mutation
of a burst case): ``prepared`` prepares once and hands the outcome to every
later item that asks for the same preparation while the entry lives.

An entry is keyed by

* the device, by identity;
* the model, by identity (a corpus case's model, its dynamic twin);
* the HAL level whose prepare method is called;
* the execution preference passed;
* ``constant_pool``: None for the model as it is, or the memory kind of the
  pool its constants are moved into (``pools.prepare_with_constant_pool``),
  with ``pool_threshold``: only constants longer than that many bytes move.

The entry holds the device and the model, so neither id can be taken by a new
object while the entry lives; it also owns the constant pool, and closes it
when it is evicted. What is cached is the outcome of preparing: the prepared
model, or the skip it led to (a declined model, an undeclared extension, an
unsupported pool kind), raised again as it was (``items.skip_as``). Of a skip the entry
keeps the reason and facts alone (``items.kept``): the skip raised held the frames of the
item that met it, and all their locals. A failure is not cached: an item that asks again
prepares again and fails on its own.

At most ``LIMIT`` entries are kept, the least recently used evicted first. The entries
live in ``conformance.harness.state`` (``PREPARED``), with the rest of what the process
keeps about the driver, and are forgotten when the driver service restarts.
"""

from __future__ import annotations

import pytest

from conformance.harness import items, state
from conformance.harness.pools import prepare_with_constant_pool
from conformance.harness.runner import prepare_case
from hal.types import ExecutionPreference, HalVersion, Model

LIMIT = 16
"""Entries kept: the largest of the module caches this one replaced (test_generated's 16;
test_burst's and test_memory_pools' held 8 each). A generated case needs two at a time
(its model and its dynamic twin)."""


def prepared(
    device: object,
    model: Model,
    level: HalVersion,
    timeout: float,
    *,
    preference: int = ExecutionPreference.FAST_SINGLE_ANSWER,
    case: Model | None = None,
    constant_pool: str | None = None,
    pool_threshold: int = 0,
) -> object:
    """``model`` prepared on ``device`` through the prepare method of ``level``, or the skip
    that preparing it led to, from the cache or prepared now (``runner.prepare_case``).

    ``case`` is the corpus model ``model`` stands for (the original of a dynamic
    twin), as ``prepare_case`` takes it; a model stands for one case, so it is
    not part of the key. With ``constant_pool`` (a memory kind), the model's
    constants are first moved into a pool of that kind, at the default preference.
    """
    key = (id(device), id(model), level, int(preference), constant_pool, pool_threshold)
    entries = state.PREPARED
    entry = entries.get(key)
    if entry is None:
        pool = None if constant_pool is None else (constant_pool, pool_threshold)
        entry = _prepare(device, model, level, timeout, preference, case, pool)
        entries[key] = entry
        while len(entries) > LIMIT:
            entries.popitem(last=False)[1].close()
    else:
        entries.move_to_end(key)
    if isinstance(entry.outcome, pytest.skip.Exception):
        items.skip_as(entry.outcome)
    return entry.outcome


def _prepare(
    device: object,
    model: Model,
    level: HalVersion,
    timeout: float,
    preference: int,
    case: Model | None,
    constant_pool: tuple[str, int] | None,
) -> state.PreparedEntry:
    pool = None
    try:
        if constant_pool is None:
            outcome = prepare_case(device, model, level, timeout, preference, case=case)
        elif preference != ExecutionPreference.FAST_SINGLE_ANSWER:
            raise ValueError("constants in a pool: prepared at the default preference only")
        else:
            kind, threshold = constant_pool
            outcome, pool = prepare_with_constant_pool(
                device, model, level, timeout, kind, threshold
            )
    except pytest.skip.Exception as skip:
        outcome = items.kept(skip)  # not the raised skip: its traceback holds the item's stack
    return state.PreparedEntry(device, model, outcome, pool)


def clear() -> None:
    """Forget every entry (closing their pools)."""
    state.forget_prepared()


def size() -> int:
    """Entries held now."""
    return len(state.PREPARED)
