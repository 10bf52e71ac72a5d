"""The one-way import rules of docs/design.md ("Import direction"), checked over the source.

Every ``import`` and ``from ... import`` of every module of the project's packages is
read with ``ast`` (imports inside functions included: a lazy import is still a
dependency). An import of one of our packages must be allowed by ``ALLOWED`` for the
importing package, or be one of the ``EXCEPTIONS``, each named with its reason. An
exception that no longer occurs fails too, so the list stays the truth.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OURS = (
    "hal",
    "reference_driver",
    "isolation",
    "generator",
    "conformance",
    "plugins",
    "benchmarks",
    "examples",
)

ALLOWED: dict[str, tuple[str, ...]] = {
    # the contract imports nothing of ours
    "hal": (),
    # a driver sees only the contract
    "reference_driver": ("hal",),
    "examples": ("hal",),
    # the driver's process and the wire to it: the contract only, never the suite or pytest
    "isolation": ("hal",),
    # specs -> generated modules: the contract and the case record (below)
    "generator": ("hal",),
    # the suite: the contract; never the driver it judges, the plugin or the isolation
    "conformance": ("hal",),
    # the pytest plugin and the report: everything below it
    "plugins": ("hal", "conformance.harness", "isolation", "generator.packs"),
    # measurements, run by hand: anything
    "benchmarks": ("hal", "reference_driver", "isolation", "generator", "conformance", "plugins"),
}
"""Which of our packages each package may import (a dotted prefix allows a part of one)."""

EXCEPTIONS: dict[tuple[str, str], str] = {
    ("generator/expand.py", "conformance.harness.cases"): (
        "the generator builds the suite's case record (GeneratedTest, Feed, Provenance), a "
        "plain data module that imports only hal; a generated module holds such records"
    ),
    (
        "generator/emit.py",
        "conformance.harness.cases",
    ): "the same case record, written out as source",
    (
        "generator/build.py",
        "conformance.harness.cases",
    ): "the same case record, to check what it wrote",
    (
        "generator/build.py",
        "conformance",
    ): "the package's folder: where specs are read and modules written",
    ("generator/build.py", "conformance.harness.corners"): (
        "`nnhal-generate --corners` lists which parameter classes the specs reach and the "
        "parameter-space tests draw"
    ),
    ("plugins/report/collector.py", "conformance"): (
        "the installed suite's folder, whose test modules name the report's categories"
    ),
    ("conformance/test_fuzz.py", "reference_driver"): (
        "the random-graph tests need a differential oracle for graphs no spec holds: the "
        "reference driver computes what the driver under test must match"
    ),
    ("conformance/harness/fresh.py", "reference_driver"): (
        "the fresh-input check of the generated cases needs an independent answer for inputs "
        "no spec holds: the reference driver computes it, in a process of its own that the "
        "module starts (the import runs only there)"
    ),
    ("conformance/specs/oracles/speccheck.py", "generator.expand"): (
        "an offline script that expands a spec to compare its literals with an oracle's; "
        "not part of the suite"
    ),
}
"""(importing file, imported module) pairs outside ``ALLOWED``, each with its reason."""

GENERATED_MAY_IMPORT = ("hal", "conformance.harness.generated")
"""A generated module runs without the generator: the contract and the loader only."""


def _package_of(path: Path) -> str:
    return path.relative_to(ROOT).parts[0]


def imports_of(path: Path, *, modules_only: bool = False) -> list[tuple[int, str]]:
    """(line, name) for every absolute import of ``path`` naming one of our packages.

    ``from a.b import c`` gives ``a.b.c`` (``c`` may be a module: ``from conformance.harness
    import generated``), or ``a.b`` with ``modules_only``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = (
                [node.module] if modules_only else [f"{node.module}.{a.name}" for a in node.names]
            )
        else:
            continue
        found += [(node.lineno, name) for name in names if name.split(".")[0] in OURS]
    return found


def _exception(name: str, module: str) -> tuple[str, str] | None:
    """The most specific named exception covering ``module`` imported by file ``name``."""
    keys = [key for key in EXCEPTIONS if key[0] == name and _covers(key[1], module)]
    return max(keys, key=lambda key: len(key[1]), default=None)


def _covers(prefix: str, module: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _sources() -> list[Path]:
    return [
        path
        for package in OURS
        for path in sorted((ROOT / package).rglob("*.py"))
        if "__pycache__" not in path.parts
    ]


def violations() -> tuple[list[str], set[tuple[str, str]]]:
    problems, used = [], set()
    for path in _sources():
        package, name = _package_of(path), path.relative_to(ROOT).as_posix()
        generated = name.startswith("conformance/generated/")
        for line, module in imports_of(path):
            if _covers(package, module):
                if generated and not any(_covers(p, module) for p in GENERATED_MAY_IMPORT):
                    problems.append(f"{name}:{line}: a generated module imports {module}")
                continue
            allowed = GENERATED_MAY_IMPORT if generated else ALLOWED[package]
            if any(_covers(prefix, module) for prefix in allowed):
                continue
            exception = _exception(name, module)
            if exception is not None:
                used.add(exception)
                continue
            problems.append(f"{name}:{line}: {package} may not import {module}")
    return problems, used


def test_every_import_follows_the_one_way_rules() -> None:
    problems, _ = violations()
    assert not problems, "imports against docs/design.md's rules:\n" + "\n".join(problems)


def test_every_named_exception_still_occurs() -> None:
    _, used = violations()
    stale = sorted(set(EXCEPTIONS) - used)
    assert not stale, f"exceptions that no longer occur (remove them from EXCEPTIONS): {stale}"


def test_no_module_imports_a_test_module() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in _sources() + sorted((ROOT / "tests").rglob("*.py"))
        for line, module in imports_of(path, modules_only=True)
        if any(part.startswith("test_") for part in module.split("."))
    ]
    assert not found, "test modules are run, never imported:\n" + "\n".join(found)


def test_the_checker_sees_lazy_imports_and_refuses_what_is_not_allowed(tmp_path: Path) -> None:
    source = tmp_path / "lazy.py"
    source.write_text(
        "import os\nfrom hal import types\n\n\ndef f():\n    from plugins.report import facts\n"
        "    import reference_driver.device\n"
    )
    assert imports_of(source) == [
        (2, "hal.types"),
        (6, "plugins.report.facts"),
        (7, "reference_driver.device"),
    ]
    assert not any(_covers(p, "plugins.report") for p in ALLOWED["conformance"])
    assert _covers("conformance.harness", "conformance.harness.items")
    assert not _covers("conformance.harness", "conformance.harnessx")


def test_every_package_folder_is_a_package() -> None:
    """pyproject finds packages by their __init__.py (tests/test_wheel.py proves what the
    wheel then holds): a folder of modules without one would be left out of it."""
    missing = sorted(
        folder.relative_to(ROOT).as_posix()
        for package in ("hal", "reference_driver", "isolation", "generator", "conformance", "plugins")
        for folder in [ROOT / package, *(ROOT / package).rglob("*")]
        if folder.is_dir()
        and "__pycache__" not in folder.parts
        and any(folder.glob("*.py"))
        and not any(p.name.endswith(".mod.py") for p in folder.glob("*.py"))
        and not (folder / "__init__.py").exists()
    )
    assert missing == [], f"folders of modules without an __init__.py: {missing}"
