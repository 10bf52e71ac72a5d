"""Vendor test packs: a folder of spec files generated on the fly into a cache.

A pack is a folder laid out like ``conformance/specs`` (``V1_0``, ``V1_1``,
``V1_2``, each holding ``*.mod.py`` files). ``build_pack`` generates its modules
as ``nnhal-generate`` would, into a package of their own under a cache folder
outside the installed harness, named after the content it was made from (the
specs' paths and bytes, and the generator's own source): a second run with the
same specs and the same harness finds the package and generates nothing. A
spec that fails is one line (``<pack>/V1_2/x.mod.py:12: <problem>``), kept with
the package so a reuse reports it again; the other specs are generated.

Specs are the vendor's code, run to generate: a spec that never returns would
stop the run before its first test. So a pack is generated in a child process
(``python -m generator.packs FOLDER TARGET STATUS``), bounded by ``timeout`` seconds
(``--nnhal-specs-timeout``); one that takes longer, or whose process dies, stops
with one line naming the spec it was evaluating.

The pytest plugin (``plugins.packs``) calls this for each ``--nnhal-specs DIR``
and hands the package to ``conformance.harness.generated.add_pack``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.build import (
    SPEC_SUFFIX,
    UsageError,
    discover_specs,
    expected_files,
    run_specs,
    spec_interpreter,
    write_file,
)
from generator.emit import HAL_FOLDERS

EXTENSIONS_FILE = "extensions.json"
"""A pack's own vendor extensions, beside its HAL folders (``hal.extensions.definitions_from_json``)."""
CACHE_ENV = "NNHAL_CACHE_DIR"
"""Where generated packs are kept, if set (else the user's cache folder)."""
PACKAGE_PREFIX = "nnhal_pack_"
DEFAULT_TIMEOUT = 300.0
"""Seconds a pack's generation may take (``--nnhal-specs-timeout``)."""
_SHOWN = 300
"""Characters shown of a spec's name or of the child's last output line."""
_ERRORS = "spec_errors.json"
_NAME = re.compile(r"[^a-z0-9_.-]+")


class PackError(Exception):
    """A ``--nnhal-specs`` folder cannot be used as a pack (one line: which and why)."""


@dataclass(frozen=True)
class Pack:
    """One generated pack: its name (from its folder), folder, the package its modules
    are in and the folder holding that package, its spec count and the specs that failed."""

    name: str
    folder: Path
    package: str
    path: Path
    specs: int
    errors: tuple[str, ...]
    extensions: tuple[str, ...] = ()
    """The vendor extensions its ``extensions.json`` defines (made known while it runs)."""


def pack_name(folder: Path) -> str:
    """The pack's name: its folder's name, lower case, other characters than letters,
    digits, ``_``, ``.`` and ``-`` made ``_`` (it prefixes the pack's test ids)."""
    name = _NAME.sub("_", folder.name.lower()).strip("_")
    return name or "pack"


def cache_folder() -> Path:
    """``$NNHAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/nnhal-conformance/packs``, else
    ``~/.cache/nnhal-conformance/packs``."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "nnhal-conformance" / "packs"


def _generator_sources() -> list[Path]:
    here = Path(__file__).resolve().parent
    loader = here.parent / "conformance" / "harness" / "generated.py"
    files = sorted(here.glob("*.py")) + sorted((here / "templates").glob("*.j2"))
    return [*files, loader]


def content_key(folder: Path, specs: list) -> str:
    """A digest of what a pack's modules are made from: every spec's path in the pack
    and bytes, and the source of the generator and of the loader the modules call."""
    digest = hashlib.sha256()
    for source in _generator_sources():
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    for spec in specs:
        relative = spec.path.relative_to(folder).as_posix()
        digest.update(relative.encode() + b"\0" + spec.path.read_bytes() + b"\0")
    table = folder / EXTENSIONS_FILE
    if table.is_file():
        digest.update(EXTENSIONS_FILE.encode() + b"\0" + table.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def pack_extensions(folder: Path) -> tuple[str, ...]:
    """Make the extensions of the pack's ``extensions.json`` known (``hal.extensions``),
    so its specs can name them; their names. PackError naming what is wrong in the file."""
    from hal.extensions import definitions_from_json, register

    table = folder / EXTENSIONS_FILE
    if not table.is_file():
        return ()
    where = f"--nnhal-specs {folder}: {EXTENSIONS_FILE}"
    try:
        data = json.loads(table.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PackError(f"{where}: not readable JSON ({error})") from None
    try:
        definitions = definitions_from_json(data)
        for definition in definitions:
            register(definition)
    except ValueError as error:
        raise PackError(f"{where}: {error}") from None
    return tuple(d.name for d in definitions)


def build_pack(folder: Path, cache: Path | None = None, timeout: float = DEFAULT_TIMEOUT) -> Pack:
    """Generate (or find already generated) the pack of spec folder ``folder``, the
    generation bounded by ``timeout`` seconds."""
    folder = Path(folder).expanduser().resolve()
    if not folder.is_dir():
        raise PackError(f"--nnhal-specs {folder}: no such folder")
    try:
        specs = discover_specs(folder, folder.parent)
    except UsageError as error:
        raise PackError(f"--nnhal-specs {folder}: {error}") from None
    if not specs:
        raise PackError(
            f"--nnhal-specs {folder}: no spec files (*{SPEC_SUFFIX}) in its "
            f"{', '.join(HAL_FOLDERS)} folders"
        )
    extensions = pack_extensions(folder)
    cache = cache_folder() if cache is None else Path(cache)
    package = PACKAGE_PREFIX + content_key(folder, specs)
    target = cache / package
    try:
        if not (target / _ERRORS).is_file():
            _generate(folder, cache, target, timeout)
        errors = tuple(json.loads((target / _ERRORS).read_text(encoding="utf-8")))
    except OSError as error:
        raise PackError(
            f"--nnhal-specs {folder}: cannot write its generated modules under {cache} "
            f"({error.strerror or error}); set {CACHE_ENV} to a writable folder"
        ) from None
    return Pack(pack_name(folder), folder, package, cache, len(specs), errors, extensions)


def _generate(folder: Path, cache: Path, target: Path, timeout: float) -> None:
    """Generate the pack in a child process, in at most ``timeout`` seconds; PackError
    naming the spec under way when it takes longer or its process dies."""
    cache.mkdir(parents=True, exist_ok=True)
    harness = str(Path(__file__).resolve().parent.parent)
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (harness, environment.get("PYTHONPATH")) if p
    )
    with tempfile.TemporaryDirectory(prefix="nnhal-pack-") as scratch:
        status, log = Path(scratch) / "evaluating", Path(scratch) / "output"
        command = [sys.executable, "-m", "generator.packs", str(folder), str(target), str(status)]
        with open(log, "wb") as output:
            child = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=output,
                env=environment,
                start_new_session=True,  # the spec's own children go with it
            )
            try:
                child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                spec = _read(status, _SHOWN) or "its specs"
                raise PackError(
                    f"--nnhal-specs {folder}: generating the pack took longer than "
                    f"{timeout:g} s, stopped while evaluating {spec} (a spec that never "
                    "returns?); --nnhal-specs-timeout sets the limit"
                ) from None
            finally:
                _kill(child)
        if child.returncode != 0:
            spec = _read(status, _SHOWN)
            where = f" while evaluating {spec}" if spec else ""
            last = _last_line(log)
            raise PackError(
                f"--nnhal-specs {folder}: the process generating the pack ended with status "
                f"{child.returncode}{where}" + (f": {last}" if last else "")
            )


def _kill(child: subprocess.Popen) -> None:
    """End the child and whatever it started in its session (a no-op once it is gone)."""
    if child.poll() is None:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            child.kill()
        child.wait()


def _read(path: Path, limit: int) -> str:
    """The file's text, at most ``limit`` characters ("" when there is none)."""
    try:
        with open(path, "rb") as file:
            text = file.read(4 * limit).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    return text if len(text) <= limit else text[:limit] + "..."


def _last_line(path: Path) -> str:
    """The last non-empty line of the child's output, from its last 64 KiB, bounded."""
    try:
        with open(path, "rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - 65536))
            tail = file.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    if not lines:
        return ""
    return lines[-1] if len(lines[-1]) <= _SHOWN else lines[-1][:_SHOWN] + "..."


def _generate_here(
    specs: list, folder: Path, cache: Path, target: Path, status: Path | None = None
) -> None:
    """Write the pack's package into a fresh folder beside ``target``, then move it into
    place: concurrent runs (pytest-xdist workers) never see half a package. Before each
    spec is evaluated its name is written to ``status``, for the parent to name it."""
    cache.mkdir(parents=True, exist_ok=True)
    interpreter = spec_interpreter()
    outcomes = []
    for spec in specs:
        if status is not None:
            status.write_text(spec.path.relative_to(folder.parent).as_posix(), encoding="utf-8")
        outcomes += run_specs([spec], folder.parent, interpreter, emit=True)
    scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=cache))
    try:
        for relative, text in expected_files(outcomes, scratch, True, specs).items():
            write_file(scratch / relative, text.encode("utf-8"))
        errors = [o.error for o in outcomes if o.error is not None]
        (scratch / _ERRORS).write_text(json.dumps(errors), encoding="utf-8")
        try:
            os.rename(scratch, target)
        except OSError:
            if not (target / _ERRORS).is_file():  # not another run's finished package
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """The child process: ``python -m generator.packs FOLDER TARGET STATUS`` generates
    FOLDER's pack as package folder TARGET, naming the spec under way in file STATUS (the
    parent checked the folder and named the package after its content)."""
    folder, target, status = (Path(a) for a in (sys.argv[1:] if argv is None else argv))
    pack_extensions(folder)
    _generate_here(discover_specs(folder, folder.parent), folder, target.parent, target, status)
    return 0


__all__ = [
    "CACHE_ENV",
    "DEFAULT_TIMEOUT",
    "EXTENSIONS_FILE",
    "Pack",
    "PackError",
    "build_pack",
    "cache_folder",
    "pack_extensions",
    "pack_name",
]


if __name__ == "__main__":
    sys.exit(main())
