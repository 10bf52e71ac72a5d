"""The generated part of docs/validation.md: every validation rule and mutation family.

The tables are written from ``hal.validation.RULES`` and
``conformance.harness.mutations.FAMILIES``, so the page cannot disagree with the code:
``tests/repository/test_docs_generated.py`` fails when the committed page differs from what this
module writes. Regenerate with::

    python -m conformance.harness.validation_doc --write docs/validation.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

START = "<!-- generated:validation:start (python -m conformance.harness.validation_doc --write) -->"
END = "<!-- generated:validation:end -->"


def _cell(text: object) -> str:
    """One Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(header: tuple[str, ...], rows: list[tuple[object, ...]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def generated_section() -> str:
    """The text between the markers: the rules, then the families, in registration order."""
    from conformance.harness.mutations import FAMILIES
    from hal.validation import RULES

    rules = list(RULES.values())
    families = list(FAMILIES.values())
    lines = [
        "## Every rule",
        "",
        f"{len(rules)} rules of `hal.validation`, in the order they run "
        f"({sum(r.tier == 'parity' for r in rules)} parity, "
        f"{sum(r.tier == 'strict' for r in rules)} strict). `nnhal-rules` prints them too.",
        "",
        *_table(
            ("rule", "tier", "scope", "what it requires"),
            [(f"`{r.name}`", r.tier, r.scope, r.description) for r in rules],
        ),
        "",
        "## Every mutation family",
        "",
        f"{len(families)} families of `conformance.harness.mutations`, in registration order "
        "(which is also the order of the validation items). Origin: `vts`, a family Android "
        "10's VTS has; `upstream`, VTS's form corrected; `ours`, beyond VTS.",
        "",
        *_table(
            ("family", "scope", "tier", "origin", "rules it breaks", "what it does"),
            [
                (
                    f"`{f.name}`",
                    f.scope,
                    f.tier,
                    f.origin,
                    ", ".join(f"`{r}`" for r in f.rules),
                    f.description,
                )
                for f in families
            ],
        ),
    ]
    return "\n".join(lines) + "\n"


def rendered(page: str) -> str:
    """``page`` with its generated section replaced by the current one."""
    head, found, rest = page.partition(START)
    if not found:
        raise ValueError(f"the page has no '{START}' marker")
    _, found, tail = rest.partition(END)
    if not found:
        raise ValueError(f"the page has no '{END}' marker after its start marker")
    return f"{head}{START}\n{generated_section()}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.harness.validation_doc",
        description="Write or check the generated tables of docs/validation.md.",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, metavar="PAGE", help="rewrite PAGE's generated part")
    action.add_argument("--check", type=Path, metavar="PAGE", help="exit 1 when PAGE is stale")
    args = parser.parse_args(argv)
    page = args.write or args.check
    try:
        current = page.read_text()
        fresh = rendered(current)
    except (OSError, ValueError) as e:
        print(f"validation_doc: {page}: {e}", file=sys.stderr)
        return 2
    if args.write:
        if fresh != current:
            page.write_text(fresh)
        return 0
    if fresh != current:
        print(f"{page} is stale: run python -m conformance.harness.validation_doc --write {page}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
