"""The HAL levels: one record per level of everything that differs by level.

Every per-level table of the project derives from ``LEVELS``: which method a
harness calls to ask a driver of a level for its capabilities, its supported
operations or a prepared model, which callback method that driver answers
through, which execution methods its prepared models have, which record its
capabilities are, and in which spec folder its operation tests live. Adding a
HAL level means adding its ``HalVersion`` member and types to ``hal.types``,
its interfaces to ``hal.interfaces``, and one ``Level`` here
(docs/adding-a-hal-version.md); ``tests/contract/test_levels.py`` fails on a module that
spells a per-level method table out again.

Comparisons between levels are ``HalVersion`` comparisons: ``level >=
HalVersion.V1_2`` reads "HAL 1.2 and later", which is what a check of a 1.2
feature means (a driver of a later level keeps the earlier levels' contract).
"""

from __future__ import annotations

from dataclasses import dataclass

from hal.interfaces import (
    IDevice,
    IDevice_1_1,
    IDevice_1_2,
    IDevice_1_3,
    IExecutionCallback,
    IPreparedModel,
    IPreparedModel_1_2,
    IPreparedModel_1_3,
    IPreparedModelCallback,
)
from hal.types import (
    Capabilities_1_0,
    Capabilities_1_1,
    Capabilities_1_2,
    Capabilities_1_3,
    HalVersion,
)


@dataclass(frozen=True)
class Level:
    """What one HAL level's driver offers and calls, by name."""

    version: HalVersion
    device: type
    """The ``IDevice`` class a driver of this level is (the newest one it subclasses)."""
    prepared_model: type
    """The ``IPreparedModel`` class the level's prepare method hands out."""
    capabilities: str
    """The device method answering ``(status, capabilities)``."""
    capabilities_type: type
    """The record ``capabilities`` answers with."""
    supported_operations: str
    """The device method answering ``(status, [supported per operation])``."""
    prepare: str
    """The device method preparing a model; it answers through ``prepare_notify``."""
    takes_preference: bool
    """Whether ``prepare`` takes an ``ExecutionPreference`` (between model and callback)."""
    prepare_from_cache: str | None
    """The device method preparing from cache files (None: the level has no caching)."""
    prepare_notify: str
    """The ``IPreparedModelCallback`` method a driver of this level calls."""
    executions: tuple[str, ...]
    """The execution methods of the level's prepared model, earlier levels' included."""
    execution_notify: dict[str, str]
    """The ``IExecutionCallback`` method each asynchronous execution method answers through."""
    spec_folder: str
    """The folder of ``conformance/specs`` (and ``conformance/generated``) holding the
    operation tests this level introduced."""

    def __str__(self) -> str:
        return str(self.version)


LEVELS: tuple[Level, ...] = (
    Level(
        version=HalVersion.V1_0,
        device=IDevice,
        prepared_model=IPreparedModel,
        capabilities="get_capabilities",
        capabilities_type=Capabilities_1_0,
        supported_operations="get_supported_operations",
        prepare="prepare_model",
        takes_preference=False,
        prepare_from_cache=None,
        prepare_notify="notify",
        executions=("execute",),
        execution_notify={"execute": "notify"},
        spec_folder="V1_0",
    ),
    Level(
        version=HalVersion.V1_1,
        device=IDevice_1_1,
        prepared_model=IPreparedModel,
        capabilities="get_capabilities_1_1",
        capabilities_type=Capabilities_1_1,
        supported_operations="get_supported_operations_1_1",
        prepare="prepare_model_1_1",
        takes_preference=True,
        prepare_from_cache=None,
        prepare_notify="notify",
        executions=("execute",),
        execution_notify={"execute": "notify"},
        spec_folder="V1_1",
    ),
    Level(
        version=HalVersion.V1_2,
        device=IDevice_1_2,
        prepared_model=IPreparedModel_1_2,
        capabilities="get_capabilities_1_2",
        capabilities_type=Capabilities_1_2,
        supported_operations="get_supported_operations_1_2",
        prepare="prepare_model_1_2",
        takes_preference=True,
        prepare_from_cache="prepare_model_from_cache",
        prepare_notify="notify_1_2",
        executions=(
            "execute",
            "execute_1_2",
            "execute_synchronously",
            "configure_execution_burst",
        ),
        execution_notify={"execute": "notify", "execute_1_2": "notify_1_2"},
        spec_folder="V1_2",
    ),
    Level(
        version=HalVersion.V1_3,
        device=IDevice_1_3,
        prepared_model=IPreparedModel_1_3,
        capabilities="get_capabilities_1_3",
        capabilities_type=Capabilities_1_3,
        supported_operations="get_supported_operations_1_3",
        prepare="prepare_model_1_3",
        takes_preference=True,
        prepare_from_cache="prepare_model_from_cache_1_3",
        prepare_notify="notify_1_3",
        executions=(
            "execute",
            "execute_1_2",
            "execute_synchronously",
            "configure_execution_burst",
            "execute_1_3",
            "execute_synchronously_1_3",
            "execute_fenced",
        ),
        execution_notify={
            "execute": "notify",
            "execute_1_2": "notify_1_2",
            "execute_1_3": "notify_1_3",
        },
        spec_folder="V1_3",
    ),
)
"""Every level the project knows, oldest first (one per ``HalVersion`` member)."""

_BY_VERSION = {level.version: level for level in LEVELS}


def level(version: HalVersion) -> Level:
    """The record of ``version``."""
    return _BY_VERSION[HalVersion(version)]


def device_level(device: object) -> HalVersion | None:
    """The HAL level a driver object implements: the newest ``IDevice`` class it is."""
    for record in reversed(LEVELS):
        if isinstance(device, record.device):
            return record.version
    return None


def method_level(name: str) -> HalVersion | None:
    """The oldest level whose device or prepared model has the method ``name`` (None for
    a method no level record names)."""
    for record in LEVELS:
        named = (
            record.capabilities,
            record.supported_operations,
            record.prepare,
            record.prepare_from_cache,
            *record.executions,
        )
        if name in named:
            return record.version
    return None


def spec_folders() -> tuple[str, ...]:
    """The spec folders, oldest level first: ``("V1_0", "V1_1", "V1_2")``."""
    return tuple(record.spec_folder for record in LEVELS)


def folder_level(folder: str) -> HalVersion:
    """The level whose spec folder is ``folder``; ValueError naming the known ones."""
    for record in LEVELS:
        if record.spec_folder == folder:
            return record.version
    raise ValueError(
        f"{folder!r} is no HAL level's spec folder (known: {', '.join(spec_folders())})"
    )


def oneway_methods() -> dict[str, frozenset[str]]:
    """The methods the HAL declares ``oneway``, by interface name: the callbacks' notify
    methods of every level. Their caller gets nothing back and need not wait for them to
    run (across processes, no answer is sent)."""
    prepared = frozenset(record.prepare_notify for record in LEVELS)
    executed = frozenset(n for record in LEVELS for n in record.execution_notify.values())
    return {IPreparedModelCallback.__name__: prepared, IExecutionCallback.__name__: executed}


ONEWAY_METHODS = oneway_methods()
