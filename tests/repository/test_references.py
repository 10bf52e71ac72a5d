"""Every document the repository's files cite is in the repository.

A clone (or a wheel's sources) must be readable on its own: no comment, docstring
or page may send the reader to a file the clone does not hold. The test reads
every text file of the project and checks three kinds of reference:

* a Markdown link ``[text](target)`` to a local target: the target exists,
  relative to the page;
* a document named by path or file name (``docs/design.md``, ``report.md``,
  ``benchmarks/README.md``): a file of the repository has that path, relative to
  the citing file or to the repository's root, or (for a bare name) that name;
* a relative path that climbs out of the repository (``../somewhere/x``) or an
  absolute path into a development machine: never.

Files of other projects are named as such (``types.hal`` of the HAL, a commit of
a public repository) and are not documents of this one; they are not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SKIPPED_FOLDERS = {
    ".git",
    ".venv",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".ruff_cache",
    "build",
    "dist",
    "nnhal-certification",
}
TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".toml",
    ".txt",
    ".json",
    ".yml",
    ".yaml",
    ".sh",
    ".cfg",
    ".ini",
    ".html",
    ".j2",
    ".jinja",
    ".css",
    ".js",
}

OUTPUT_NAMES = {
    # Files the tools write into a vendor's folder, not documents of the repository.
    "report.md",
    "comparison.md",
}
"""Names a file may use for what nnhal-certify and nnhal-report write (docs/report.md)."""

EXEMPT = {
    "tests/repository/test_references.py": "the checker's own examples of dangling references",
}
"""Files not checked, each with the reason."""

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_DOCUMENT = re.compile(r"(?<![\w/.-])((?:\.{1,2}/)*(?:[\w-]+/)*[\w.-]+\.md)\b")
_CLIMB = re.compile(r"(?<![\w/.-])((?:\.\./)+[\w.-][\w./-]*)")
_MACHINE = re.compile(r"(?<![\w.-])/work/[\w./-]+")


def project_files(root: Path = ROOT) -> list[Path]:
    """The project's text files, outside virtual environments, caches and outputs."""
    found = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if any(part in SKIPPED_FOLDERS or part.endswith(".egg-info") for part in relative.parts):
            continue
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or relative.parts[0] == ".ci"):
            found.append(path)
    return found


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except ValueError:
        return False
    return True


def dangling_references(path: Path, root: Path, names: set[str], paths: set[str]) -> list[str]:
    """Every reference in ``path`` to a file the repository does not hold, one line each."""
    text = path.read_text(errors="replace")
    here = path.parent
    problems: dict[tuple[int, str], str] = {}

    def report(line_of: int, cited: str, what: str) -> None:
        line = text.count("\n", 0, line_of) + 1
        problems.setdefault((line, cited), f"{path.relative_to(root)}:{line}: {what}")

    if path.suffix == ".md":
        for match in _LINK.finditer(text):
            target = match.group(1).split("#", 1)[0]
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # an anchor on the same page, or a URL
            resolved = here / target
            if not _inside(resolved, root) or not resolved.exists():
                report(
                    match.start(1), target, f"link to {target}, which the repository does not hold"
                )
    for match in _DOCUMENT.finditer(text):
        cited = match.group(1)
        if cited.rsplit("/", 1)[-1] in OUTPUT_NAMES and not cited.startswith("docs/"):
            continue  # a file a run writes (out/report.md), not a page of the repository
        candidates = [here / cited, root / cited]
        if any(_inside(c, root) and c.exists() for c in candidates):
            continue
        if "/" not in cited and cited in names:
            continue
        if "/" in cited and any(p.endswith("/" + cited.lstrip("./")) for p in paths):
            continue
        report(match.start(1), cited, f"cites {cited}, which the repository does not hold")
    for match in _CLIMB.finditer(text):
        if not _inside(here / match.group(1), root):
            report(
                match.start(1),
                "climb " + match.group(1),
                f"path {match.group(1)} leads out of the repository",
            )
    for match in _MACHINE.finditer(text):
        report(
            match.start(), match.group(), f"absolute path {match.group()} of a development machine"
        )
    return list(problems.values())


def _index(files: list[Path], root: Path) -> tuple[set[str], set[str]]:
    return {f.name for f in files}, {"/" + f.relative_to(root).as_posix() for f in files}


def test_every_cited_document_is_in_the_repository() -> None:
    files = project_files()
    names, paths = _index(files, ROOT)
    checked = [f for f in files if f.relative_to(ROOT).as_posix() not in EXEMPT]
    assert len(checked) == len(files) - len(EXEMPT), "an EXEMPT file no longer exists"
    problems = [p for f in checked for p in dangling_references(f, ROOT, names, paths)]
    assert not problems, (
        f"{len(problems)} references to files outside the repository:\n" + "\n".join(problems[:60])
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "see ../elsewhere/NOTES.md",
            ["cites ../elsewhere/NOTES.md", "path ../elsewhere/NOTES.md leads out"],
        ),
        ("# (notes-48-94.md, 92)", ["cites notes-48-94.md"]),
        ("as team-catalog.md 3.1 says", ["cites team-catalog.md"]),
        ("[design](missing.md)", ["link to missing.md"]),
        ("read /work/notes/ops/README.md", ["absolute path /work/notes"]),
        ("see docs/guide.md and [it](docs/guide.md#top) and guide.md", []),
        ("the run writes report.md and out/comparison.md", []),
        ("see docs/comparison.md", ["cites docs/comparison.md"]),
        ("upstream types.hal and https://example.org/x.md", []),
    ],
)
def test_the_checker_finds_each_kind_of_dangling_reference(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# guide\n")
    page = tmp_path / "page.md"
    page.write_text(text + "\n")
    files = [tmp_path / "docs" / "guide.md", page]
    names, paths = _index(files, tmp_path)
    problems = dangling_references(page, tmp_path, names, paths)
    assert len(problems) == len(expected), problems
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith("page.md:1: " + start), problem
