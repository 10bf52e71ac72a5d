"""Resolve a driver specification to a driver object: the one loader.

A specification is either ``module:Factory`` (a class or callable, called with
no arguments, returning an ``IDevice``) or the name of a driver registered
under the entry-point group ``nnhal.drivers`` (``reference`` is the bundled
one). The pytest plugin, ``nnhal-certify`` and the driver service process all
load drivers through ``load_driver``; every way it can fail is a
``DriverLoadError`` whose message is one line naming the specification and
what is wrong with it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from hal.interfaces import IDevice
from hal.levels import device_level
from hal.show import show_exception, show_type
from hal.types import HalVersion

ENTRY_POINT_GROUP = "nnhal.drivers"
DEFAULT_DRIVER = "reference"


class DriverLoadError(Exception):
    """The driver specification cannot be turned into a driver; the message says why."""


@dataclass(frozen=True)
class LoadedDriver:
    spec: str
    device: IDevice
    level: HalVersion
    is_default: bool

    def describe(self) -> str:
        """``reference (default)`` or ``pkg.mod:Factory``."""
        return f"{self.spec} (default)" if self.is_default else self.spec


def registered_drivers() -> dict[str, EntryPoint]:
    """Drivers installed under the ``nnhal.drivers`` entry-point group, by name."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def resolve_factory(spec: str, folder: str | None = None) -> object:
    """The factory a specification names, without calling it."""
    if ":" not in spec:
        registered = registered_drivers()
        if spec not in registered:
            names = ", ".join(sorted(registered)) or "none"
            raise DriverLoadError(
                f"--driver={spec}: no driver is registered under that name "
                f"(registered: {names}); give module:Factory for an unregistered driver"
            )
        spec = registered[spec].value
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise DriverLoadError(
            f"--driver={spec}: expected module:Factory, e.g. my_pkg.driver:Factory"
        )
    module = _import_driver_module(spec, module_name, folder)
    target: object = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise DriverLoadError(
                f"--driver={spec}: module {module_name!r} has no attribute {attribute!r}"
            )
        target = getattr(target, part)
    return target


def _missing(error: ModuleNotFoundError, module_name: str) -> bool:
    """Whether ``error`` says ``module_name`` itself (or a package above it) is not found,
    rather than something the module imports."""
    parts = module_name.split(".")
    return error.name in {".".join(parts[: i + 1]) for i in range(len(parts))}


def _try_import(spec: str, module_name: str) -> object | None:
    """The module, None when it (or a package above it) is not found; DriverLoadError when
    importing it fails in any other way (a missing dependency, an error in its code)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if _missing(e, module_name):
            return None
        error: Exception = e
    except Exception as e:  # an import can fail in any way the module's code can
        error = e
    raise DriverLoadError(
        f"--driver={spec}: cannot import module {module_name!r}: {show_exception(error)}"
    ) from None


def _import_driver_module(spec: str, module_name: str, folder: str | None = None) -> object:
    """Import a driver's module as ``python -m pytest`` would: ``folder`` (default: the
    current folder) is searched too, after the installed packages, when it is not on the
    path already."""
    module = _try_import(spec, module_name)
    folder = folder or os.getcwd()
    if module is None and folder not in {os.path.abspath(p or os.curdir) for p in sys.path}:
        sys.path.append(folder)
        importlib.invalidate_caches()
        module = _try_import(spec, module_name)
    if module is None:
        top = module_name.split(".")[0]
        raise DriverLoadError(
            f"--driver={spec}: cannot import module {module_name!r}: no {top}.py or {top}/ in "
            f"the current folder ({folder}) or on the Python path; run from the folder that "
            "holds it or add that folder to PYTHONPATH"
        )
    return module


def load_driver(spec: str | None = None, folder: str | None = None) -> LoadedDriver:
    """Resolve ``spec`` (None: the default driver), call its factory, check the result.

    ``folder``: where a ``module:Factory`` module is looked for besides the Python path
    (default: the current folder; the driver service is given the harness's)."""
    is_default = spec is None
    spec = DEFAULT_DRIVER if spec is None else spec.strip()
    factory = resolve_factory(spec, folder)
    if not callable(factory):
        raise DriverLoadError(
            f"--driver={spec}: an object of type {show_type(factory)} is not callable; "
            "name a class or a function returning an IDevice"
        )
    try:
        device = factory()
    except Exception as e:
        raise DriverLoadError(f"--driver={spec}: the factory raised {show_exception(e)}") from None
    level = device_level(device)
    if level is None:
        raise DriverLoadError(
            f"--driver={spec}: the factory returned an object of type {show_type(device)}, "
            "which is not an hal.IDevice (subclass hal.IDevice_1_2, IDevice_1_1 or IDevice)"
        )
    return LoadedDriver(spec, device, level, is_default)


def main(argv: list[str] | None = None) -> int:
    """``nnhal-drivers``: list the registered drivers, or check that one loads."""
    parser = argparse.ArgumentParser(
        prog="nnhal-drivers", description="List registered drivers or check that a driver loads."
    )
    parser.add_argument("--check", metavar="SPEC", help="load SPEC (name or module:Factory)")
    args = parser.parse_args(argv)
    if args.check is None:
        for name, entry_point in sorted(registered_drivers().items()):
            print(f"{name}\t{entry_point.value}")
        return 0
    try:
        loaded = load_driver(args.check)
    except DriverLoadError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{loaded.spec}: HAL {loaded.level}, {show_type(loaded.device)}")
    return 0
