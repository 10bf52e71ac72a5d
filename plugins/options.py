"""Option value parsers shared by the plugin's options."""

from __future__ import annotations

import argparse


def whole_number(text: str) -> int:
    """A whole number >= 0 (argparse's type= for a count or a limit, 0 meaning none)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, not {text!r}")
    return value
