"""``nnhal-example``: write the example driver into a folder, to read and to certify.

    nnhal-example            # into the current folder
    nnhal-example DIR        # into DIR (made if missing)

It writes ``my_driver.py`` (float32 ADD, MUL and RELU, quant8 RELU; every other operation
declined: docs/writing-a-driver.md walks through it) and prints the commands that check
and certify it. It never overwrites: when a file it would write exists already, it
writes nothing, names that file on stderr and exits with status 2; so does a folder it
cannot make or write into.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from importlib import resources
from pathlib import Path

REFUSED = 2
FILES = ("my_driver.py",)
"""What is written, from ``plugins/example/files/``, under the same names."""
DRIVER = "my_driver:Factory"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnhal-example",
        description="Write the example driver (float32 ADD, MUL and RELU, quant8 RELU) into "
        "a folder, and print the command that certifies it. Existing files are never "
        "overwritten.",
    )
    parser.add_argument(
        "folder",
        nargs="?",
        default=".",
        type=Path,
        metavar="DIR",
        help="where to write the files (default: the current folder; made if missing)",
    )
    return parser


def _refuse(message: str) -> int:
    print(f"nnhal-example: {message}", file=sys.stderr)
    return REFUSED


def _where(folder: Path, name: str) -> str:
    return name if folder == Path() else str(folder / name)


def main(argv: list[str] | None = None) -> int:
    folder: Path = _parser().parse_args(argv).folder
    if folder.exists() and not folder.is_dir():
        return _refuse(f"{folder} exists and is not a folder; nothing was written")
    existing = [name for name in FILES if (folder / name).exists() or (folder / name).is_symlink()]
    if existing:
        return _refuse(
            f"{_where(folder, existing[0])} exists already; nothing was written "
            "(remove it, or give another folder: nnhal-example DIR)"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return _refuse(f"cannot make the folder {folder}: {e.strerror}; nothing was written")
    source = resources.files(__package__) / "files"
    written = []
    for name in FILES:
        target = folder / name
        try:
            with open(target, "x", encoding="utf-8") as out:  # "x": never overwrite
                out.write((source / name).read_text(encoding="utf-8"))
        except OSError as e:
            for done in written:
                done.unlink(missing_ok=True)
            return _refuse(
                f"cannot write {_where(folder, name)}: {e.strerror}; nothing was written"
            )
        written.append(target)
    for name in FILES:
        print(f"wrote {_where(folder, name)}")
    go = "" if folder == Path() else f"cd {shlex.quote(str(folder))} && "
    print("check that it loads, then certify it (about 5 minutes on two cores):")
    print(f"  {go}nnhal-drivers --check {DRIVER}")
    print(f"  {go}nnhal-certify --driver {DRIVER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
