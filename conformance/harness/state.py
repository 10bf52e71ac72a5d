"""What a test process keeps about the driver under test from one item to the next.

A process runs tens of thousands of items against one driver, so the suite
keeps some of what it learnt instead of asking again. Everything kept about the
driver lives here, in one place, so that it can be forgotten at once:

| kept | keyed by | why | when the driver restarts |
| --- | --- | --- | --- |
| ``PREPARED``: prepared models, or the reason and facts of the skip preparing led to (``harness.prepared``, ``items.kept``) | device, model, HAL level, preference, constant pool | preparing is the dearest step of most items, and every example, path and mode of a case runs the same model | forgotten, their constant pools closed |
| ``DECLINED``: cases the driver declined, with their skip's reason and facts (``runner.prepare_case``) | device, case model, HAL level | a declined case skips at once on every later item (its twin, its pooled copies, any module) without calling the driver again | forgotten |
| ``EXTENSIONS``: the extensions the driver declares (``harness.extensions``) | device | asked once, before the first model that uses one | forgotten |
| ``TWINS``: dynamic-shape twins of corpus models (``runner.case_twin``) | corpus model | made once per case, and their identity keys the prepared models of the dynamic modes | kept: the harness made them, the driver never saw them change |

Every entry holds the objects its key names by identity (the device, the model),
so that no id in a key can pass to a new object while the entry lives.

``driver_restarted`` is the reset: the plugin calls it when it has started a fresh
driver service in place of one that crashed, hung or overran its memory
(``plugins.running``). The device proxy survives a restart, so without it every
key above would still match and the process would go on believing what the dead
service said: its prepared models (which raise ``DriverCrashed``), its
declines and its declarations. After the reset the fresh service is asked again,
and judged again, as a driver seen for the first time.

Kept elsewhere, and not reset on a restart:

* the hang breaker's counts (``harness.hangs.BREAKER``): a hang is what makes
  the plugin restart a service, so the counts must outlive the restarts to stop a
  method that keeps hanging;
* the fresh-input oracle (``harness.fresh``): the reference driver's process,
  not the driver under test;
* the corpus and the tables derived from it alone (which mutation families apply
  to which case): they do not depend on the driver.

Nothing here is shared between processes: an xdist worker or a certify shard starts
empty, which is why a rerun of one item in a fresh process gives the same answer.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from hal.memory import Memory
from hal.types import HalVersion, Model


@dataclass(frozen=True)
class PreparedEntry:
    """One entry of ``PREPARED``."""

    device: object
    model: Model
    outcome: object
    """The prepared model, or the ``pytest.skip.Exception`` preparing led to."""
    pool: Memory | None
    """The pool the model's constants were moved into, closed with the entry."""

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


PreparedKey = tuple[int, int, HalVersion, int, str | None, int]
PREPARED: OrderedDict[PreparedKey, PreparedEntry] = OrderedDict()
"""(id(device), id(model), level, preference, constant pool kind, pool threshold) -> entry,
least recently used first (``harness.prepared`` bounds it)."""

DECLINED: OrderedDict[tuple[int, int, HalVersion], tuple[object, Model, BaseException]] = (
    OrderedDict()
)
"""(id(device), id(case model), level) -> the device and model (so the ids stay theirs) and
the skip, oldest first (``runner`` bounds it)."""

EXTENSIONS: dict[int, tuple[object, dict[str, object]]] = {}
"""id(device) -> (the device, its declared extensions by name)."""

TWINS: dict[int, tuple[Model, Model]] = {}
"""id(corpus model) -> (the model, its dynamic-shape twin)."""


def forget_prepared() -> None:
    """Forget every prepared model, closing the constant pools of their entries."""
    while PREPARED:
        PREPARED.popitem(last=False)[1].close()


def driver_restarted() -> None:
    """Forget everything learnt from the driver (the table's "forgotten" rows): a fresh
    driver service runs in place of the one that answered."""
    forget_prepared()
    DECLINED.clear()
    EXTENSIONS.clear()


def clear() -> None:
    """Forget everything, the twins too (as a new process starts)."""
    driver_restarted()
    TWINS.clear()
