"""The Python HAL protocol: the contract every driver implements.

``hal`` imports nothing else of this project. Its modules:

* ``hal.types``: enums and records of NN HAL 1.0-1.3;
* ``hal.interfaces``: IDevice / IPreparedModel / callbacks, per HAL version;
* ``hal.levels``: one record per HAL level of what differs by level (method names,
  interface classes, capability records, spec folders);
* ``hal.callbacks``: the client-side callbacks the harness hands to drivers;
* ``hal.fences``: sync fences (HAL 1.3's fenced executions), eventfds shared by descriptor;
* ``hal.memory``: memory pools (ashmem, mmap_fd, hardware_buffer_blob);
* ``hal.tensors``: operand data as numpy arrays (constants, request inputs, outputs);
* ``hal.operations``: the operation catalog (its data in ``hal.catalog``, its records in
  ``hal.forms``);
* ``hal.validation``: the model and request rules a driver must enforce;
* ``hal.loader``: resolves ``--driver`` specifications to driver objects.
"""

from hal.interfaces import (
    IBurstCallback,
    IBurstContext,
    IDevice,
    IDevice_1_1,
    IDevice_1_2,
    IDevice_1_3,
    IExecutionCallback,
    IFencedExecutionCallback,
    IPreparedModel,
    IPreparedModel_1_2,
    IPreparedModel_1_3,
    IPreparedModelCallback,
)
from hal.levels import LEVELS, Level, device_level
from hal.memory import Memory, NativeHandle
from hal.types import *  # noqa: F403 - the HAL's names are this package's names
from hal.types import __all__ as _types_all

__all__ = [
    "IBurstCallback",
    "IBurstContext",
    "IDevice",
    "IDevice_1_1",
    "IDevice_1_2",
    "IDevice_1_3",
    "IExecutionCallback",
    "IFencedExecutionCallback",
    "IPreparedModel",
    "IPreparedModelCallback",
    "IPreparedModel_1_2",
    "IPreparedModel_1_3",
    "LEVELS",
    "Level",
    "Memory",
    "NativeHandle",
    "device_level",
    *_types_all,
]
