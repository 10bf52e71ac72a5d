"""``--nnhal-specs DIR``: vendor test packs, run like the suite's own generated cases.

Each DIR (repeatable) is a folder of ``.mod.py`` specs laid out like
``conformance/specs``. While pytest configures, each is generated into a cache
outside the installed harness (``generator.packs``; reused while the specs and
the harness are unchanged) and its cases join the corpus every part of the
suite draws from: execution paths, dynamic twins, validation mutations,
bursts, caching, memory pools, report categories. Their ids carry the pack's
name before the HAL folder (``acme:V1_2/my_op/base/ex0/sync``), so ``-k acme:``
selects them and the report marks them.

A folder that is no pack (missing, no specs) stops the run with one line, as
any bad option does; so does a pack whose generation takes longer than
``--nnhal-specs-timeout`` seconds (default 300), naming the spec it was
evaluating. A spec that fails is one line naming the file and line,
printed in the header and kept in the report; the other specs run.

The generator is imported only when the option is given: running the suite
itself needs none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_PACKS = pytest.StashKey["list[Any]"]()
OPTION = "--nnhal-specs"
TIMEOUT_OPTION = "--nnhal-specs-timeout"
DEFAULT_TIMEOUT = 300.0
"""Seconds a pack's generation may take (``generator.packs.DEFAULT_TIMEOUT``, repeated here
so that declaring the option imports nothing)."""


def addoption(group: Any) -> None:
    group.addoption(
        OPTION,
        metavar="DIR",
        action="append",
        default=[],
        help="also run the specs of vendor test pack DIR (repeatable; folders V1_0, V1_1, V1_2 "
        "of *.mod.py files, as in conformance/specs): generated into a cache, run like the "
        "suite's own cases, ids prefixed with the folder's name (NAME:V1_2/...)",
    )
    group.addoption(
        TIMEOUT_OPTION,
        metavar="SECONDS",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"stop the run when generating a pack takes longer (default {DEFAULT_TIMEOUT:g}; "
        "a spec that never returns is named)",
    )


def configure(config: pytest.Config) -> None:
    """Generate (or find) every pack named and add its cases to the corpus."""
    folders = folders_of(config)
    if not folders:
        config.stash[_PACKS] = []
        return
    timeout = config.getoption(TIMEOUT_OPTION)
    if not timeout > 0:
        raise pytest.UsageError(
            f"{TIMEOUT_OPTION}={timeout:g}: must be a positive number of seconds"
        )
    from conformance.harness import generated
    from generator.packs import PackError, build_pack

    built = []
    for folder in folders:
        try:
            pack = build_pack(folder, timeout=timeout)
        except PackError as error:
            raise pytest.UsageError(str(error)) from None
        twin = next((p for p in built if p.name == pack.name), None)
        if twin is not None:
            raise pytest.UsageError(
                f"{OPTION} {twin.folder} and {pack.folder} are both named '{pack.name}': a "
                "pack is named after its folder; rename one"
            )
        built.append(pack)
    for pack in built:
        generated.add_pack(pack.name, pack.package, str(pack.path))
    config.stash[_PACKS] = built


def unconfigure(config: pytest.Config) -> None:
    built = config.stash.get(_PACKS, None)
    if built:
        from conformance.harness import generated
        from hal.extensions import unregister

        generated.remove_packs()
        for pack in built:
            for name in pack.extensions:
                unregister(name)


def folders_of(config: pytest.Config) -> list[Path]:
    """The ``--nnhal-specs`` folders, absolute (from where pytest was started)."""
    start = Path(config.invocation_params.dir)
    return [(start / Path(f).expanduser()).resolve() for f in config.getoption(OPTION)]


def header_lines(config: pytest.Config) -> list[str]:
    """A line per pack, then one per spec of it that failed."""
    lines = []
    for pack in config.stash.get(_PACKS, []):
        failed = f", {len(pack.errors)} failed (below)" if pack.errors else ""
        defines = f"; extensions {', '.join(pack.extensions)}" if pack.extensions else ""
        lines.append(
            f"vendor pack {pack.name}: {pack.folder} ({pack.specs} specs{failed}{defines}; "
            f"generated into {pack.path / pack.package})"
        )
        lines += [f"  spec error: {error}" for error in pack.errors]
    return lines


def report_entries(config: pytest.Config) -> list[dict[str, Any]]:
    """What the report says of each pack: name, folder, specs and the ones that failed."""
    return [
        {
            "name": pack.name,
            "folder": str(pack.folder),
            "specs": pack.specs,
            "spec_errors": list(pack.errors),
            "extensions": list(pack.extensions),
        }
        for pack in config.stash.get(_PACKS, [])
    ]
