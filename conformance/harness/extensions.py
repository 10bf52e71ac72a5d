"""Cases that use vendor extensions: run them only on a driver that declares them.

A generated case names the extensions it uses (``hal.extensions``); its model
numbers them with the harness's prefixes (``hal.extensions.harness_prefix``: the
known extensions in sorted-name order, from 1) and lists them, and only them, in
``extension_name_to_prefix``. Before the harness hands such a model to a driver it
asks ``get_supported_extensions`` (once per driver object and process, or again after
the driver service restarts: ``harness.state``):

* an extension the driver does not declare: the case is skipped as unsupported
  (``unsupported: the driver does not declare extension <name>``), never failed;
* an extension it declares with operand types that disagree with the table (a
  type missing, tensor-or-scalar or byte size different): the case fails, since
  the suite's expected bytes would not be the driver's.
"""

from __future__ import annotations

import pytest

from conformance.harness import items, state
from conformance.harness.calls import status_and_value
from hal.extensions import find, used_extensions
from hal.show import show
from hal.types import ErrorStatus, Extension, Model

UNDECLARED = "unsupported: the driver does not declare extension"
"""The start of the skip reason of a case whose extension the driver does not declare."""

def declared_extensions(device: object) -> dict[str, object]:
    """The driver's ``get_supported_extensions`` by name (asked once per driver object).

    A driver without the method (before HAL 1.2) declares none; a status other than
    NONE, or an answer that is not a list of ``Extension``, fails the test.
    """
    known = state.EXTENSIONS.get(id(device))
    if known is not None and known[0] is device:
        return known[1]
    if not hasattr(device, "get_supported_extensions"):
        declared: dict[str, object] = {}
    else:
        status, extensions = status_and_value(device, "get_supported_extensions")
        if status != ErrorStatus.NONE:
            pytest.fail(
                f"get_supported_extensions returned {status.name}; a model using an "
                "extension cannot be judged",
                pytrace=False,
            )
        if not isinstance(extensions, list | tuple) or not all(
            isinstance(e, Extension) for e in extensions
        ):
            pytest.fail(
                f"get_supported_extensions returned {show(extensions)}, not a list of Extension",
                pytrace=False,
            )
        declared = {e.name: e for e in extensions}
    state.EXTENSIONS[id(device)] = (device, declared)
    return declared


def extension_problem(name: str, declared: object) -> str | None:
    """How a driver's declaration of known extension ``name`` disagrees with the table
    (``hal.extensions``), or None."""
    definition = find(name)
    if definition is None:
        return None
    infos = {info.type: info for info in getattr(declared, "operand_types", ())}
    for operand_type in definition.operand_types:
        info = infos.get(operand_type.type_within)
        if info is None:
            return (
                f"the driver declares extension {name} without operand type "
                f"{operand_type.type_within} ({operand_type.name})"
            )
        wanted = (operand_type.is_tensor, operand_type.byte_size)
        if (info.is_tensor, info.byte_size) != wanted:
            return (
                f"the driver declares extension {name} operand type {operand_type.type_within} "
                f"({operand_type.name}) with is_tensor={show(info.is_tensor)}, "
                f"byte_size={show(info.byte_size)}; the suite's table has is_tensor="
                f"{operand_type.is_tensor}, byte_size={operand_type.byte_size}"
            )
    return None


def undeclared(device: object, model: Model) -> list[str]:
    """The extensions ``model`` uses that the driver does not declare, in model order."""
    names = used_extensions(model)
    if not names:
        return []
    declared = declared_extensions(device)
    return [name for name in names if name not in declared]


def require_extensions(device: object, model: Model) -> None:
    """Skip (unsupported) when the driver does not declare an extension ``model`` uses;
    fail when it declares one otherwise than the table does. Nothing for a model that
    uses none."""
    __tracebackhide__ = True
    names = used_extensions(model)
    if not names:
        return
    missing = undeclared(device, model)
    if missing:
        items.unsupported(f"{UNDECLARED} {', '.join(missing)}")
    declared = declared_extensions(device)
    for name in names:
        problem = extension_problem(name, declared[name])
        if problem is not None:
            pytest.fail(problem, pytrace=False)
