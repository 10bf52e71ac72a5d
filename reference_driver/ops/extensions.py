"""The reference driver's vendor extension: ``org.nnhal_conformance.demo``.

The project's example of a HAL 1.2 extension (``hal.extensions.DEMO``; the
``org.nnhal_conformance`` namespace is reserved for the project's own examples):

* operand type ``TENSOR_Q16`` (type 1 within the extension): a tensor of signed
  16-bit fixed-point values with 8 fractional bits (Q8.8), 2 bytes per element,
  little-endian;
* operation ``SATURATING_ADD`` (type 1): two ``TENSOR_Q16`` tensors of the same
  shape (no broadcasting) -> one ``TENSOR_Q16`` of that shape, each element
  ``clamp(a + b, -32768, 32767)`` on the raw int16 values.

Operand counts, types and declared shapes are checked by ``hal.validation``'s
``operation.extension_signature`` rule; the actual shapes (known only at
execution for inputs of unknown dimensions) are checked here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hal.extensions import DEMO
from hal.types import Extension, OperandTypeInformation
from reference_driver.ops.base import OpArgs, OperationImpl, OpInvalid


@dataclass(frozen=True)
class ExtensionOperationKey:
    """What an extension operation's implementation is registered under: its extension's
    name and its type within it (the prefix in a model varies; the name does not)."""

    extension: str
    type_within: int
    operation: str

    @property
    def name(self) -> str:
        """``org.nnhal_conformance.demo:SATURATING_ADD`` (messages print ``impl.type.name``)."""
        return f"{self.extension}:{self.operation}"


SATURATING_ADD = ExtensionOperationKey(
    DEMO.name, DEMO.operation("SATURATING_ADD").type_within, "SATURATING_ADD"
)

_INT16 = np.iinfo(np.int16)


def _prepare(args: OpArgs) -> list[tuple[int, ...]]:
    a, b = args.values[0], args.values[1]
    if a is None or b is None:
        raise OpInvalid("SATURATING_ADD needs both inputs")
    if a.shape != b.shape:
        raise OpInvalid(f"SATURATING_ADD inputs of shapes {list(a.shape)} and {list(b.shape)}")
    return [tuple(a.shape)]


def _execute(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    a = args.values[0].astype(np.int32)
    b = args.values[1].astype(np.int32)
    return [np.clip(a + b, _INT16.min, _INT16.max).astype("<i2").reshape(shapes[0])]


IMPLEMENTATIONS = (
    OperationImpl(
        type=SATURATING_ADD,  # type: ignore[arg-type]  # an extension key, not an OperationType
        supports=lambda args: True,  # types and counts: hal.validation's extension rule
        validate=lambda args: None,
        prepare=_prepare,
        execute=_execute,
    ),
)

EXTENSIONS = [
    Extension(
        DEMO.name,
        tuple(
            OperandTypeInformation(t.type_within, t.is_tensor, t.byte_size)
            for t in DEMO.operand_types
        ),
    )
]
"""What ``get_supported_extensions`` declares."""
