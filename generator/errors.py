"""The errors of the spec interpreter.

``DslError`` is what the language itself raises when a spec misuses it; the
interpreter turns it, and any other exception a spec raises, into one
``SpecError`` whose message names the spec file and line.
"""

from __future__ import annotations


class SpecError(Exception):
    """A spec file cannot be turned into tests.

    The message is one line: ``<repo-relative spec path>:<line>: <problem>``.
    """


class DslError(Exception):
    """A rule of the spec language was broken.

    ``line`` is the spec line to blame when the error is raised after the spec
    ran (during expansion); while the spec runs, the traceback gives the line.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line
