"""Drivers built on the reference driver that get the demo extension wrong in one way.

``test_extension_suite.py`` runs the generated suite against each in a pytest
subprocess (this file beside the run, as a vendor's driver module would be):

* ``NoExtensions``: declares no extension (its cases must be skipped, never failed);
* ``WrappingAdd``: declares ``org.nnhal_conformance.demo`` but its SATURATING_ADD
  wraps around on overflow instead of saturating (the values must fail);
* ``WideQ16``: declares the extension with TENSOR_Q16 of 4 bytes per element (the
  suite's table says 2: the cases must fail, naming the disagreement).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from hal.types import ErrorStatus, Extension, OperandTypeInformation
from reference_driver import ReferenceDriver
from reference_driver.ops import EXTENSION_REGISTRY
from reference_driver.ops.extensions import SATURATING_ADD


class NoExtensions(ReferenceDriver):
    """The reference driver, declaring no vendor extension."""

    def get_supported_extensions(self):
        return ErrorStatus.NONE, []


def _wrapping_execute(args, shapes):
    total = args.values[0].astype(np.int32) + args.values[1].astype(np.int32)
    return [total.astype(np.int16).astype("<i2").reshape(shapes[0])]  # wraps, never clamps


class WrappingAdd(ReferenceDriver):
    """Declares the extension; SATURATING_ADD wraps (32767 + 1 gives -32768).

    The subprocess that imports this module runs this driver only, so swapping the
    registry's implementation here changes no other driver's answers."""

    def __init__(self) -> None:
        super().__init__()
        EXTENSION_REGISTRY[SATURATING_ADD] = dataclasses.replace(
            EXTENSION_REGISTRY[SATURATING_ADD], execute=_wrapping_execute
        )


class WideQ16(ReferenceDriver):
    """Declares TENSOR_Q16 as 4 bytes per element."""

    def get_supported_extensions(self):
        return ErrorStatus.NONE, [
            Extension("org.nnhal_conformance.demo", (OperandTypeInformation(1, True, 4),))
        ]
