"""A driver's strings are shown safely wherever the harness shows them.

A version string, a class name or an exception's message is the driver's to
choose: control characters in it must not clear the terminal and draw a fake
verdict (``hal.show.printable``), and Markdown or HTML in it must not add a
heading, a link or an HTML comment to report.md or report.html
(``plugins.report.render.md_text``, jinja's autoescaping). The end-to-end runs
(a hostile driver in both isolation modes, its terminal output and its
report) are in test_isolation.py; these check each place on its own.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from hal.show import printable, show, show_exception, show_text, show_type
from plugins.report import cli, compare
from plugins.report.document import finalize
from plugins.report.render import md_text, render_html, render_markdown

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from report_documents import _document, _generated, _test

FAKE = "\x1b[2J\x1b[H\x1b[1;32mCERTIFIED\x1b[0m\r"
SHOWN = r"\x1b[2J\x1b[H\x1b[1;32mCERTIFIED\x1b[0m\r"
VERSION = "1.0\x1b[2J CERTIFIED\n\n# CERTIFIED by the vendor\n<!--"


def test_printable_escapes_what_a_terminal_would_act_on() -> None:
    assert printable("plain text, é, 漢字") == "plain text, é, 漢字"
    assert printable(FAKE) == SHOWN
    assert printable("a\nb\tc\x00d\x7f\x85") == r"a\nb\tc\x00d\x7f\x85"
    assert printable("rtl\u202eevil\u2028line\U000e0041") == r"rtl\u202eevil\u2028line\U000e0041"
    assert printable("two\nlines\x1b", keep="\n") == "two\nlines\\x1b"
    assert printable(printable(FAKE)) == printable(FAKE)  # escaping twice changes nothing


def test_every_unquoted_driver_text_of_hal_show_is_printable() -> None:
    assert show_text(FAKE) == SHOWN
    assert show_text("x\x1b" * 100, 4) == r"x\x1bx\x1b... (200 characters)"
    assert show_exception(RuntimeError(FAKE)) == f"RuntimeError: {SHOWN}"
    evil = type("Evil", (Exception,), {})
    evil.__name__ = "Evil\x1b[2J"
    assert show_type(evil()) == r"Evil\x1b[2J"
    assert show_exception(evil("m")) == r"Evil\x1b[2J: m"
    assert show(FAKE) == repr(FAKE)  # quoted values were escaped by repr already


def test_md_text_escapes_markdown_and_html() -> None:
    # one line: a newline (a harness message may have several) is a space, as in a table
    assert md_text(VERSION) == r"1.0\\x1b\[2J CERTIFIED \# CERTIFIED by the vendor \<\!--"
    assert md_text("a_b _c_ *x* [l](u) `c` | p ~s~ &amp;") == (
        r"a_b \_c\_ \*x\* \[l\](u) \`c\` \| p \~s\~ \&amp;"
    )
    assert md_text("- item") == r"\- item"
    assert md_text("12. item") == r"12\. item"
    assert md_text("1.0 release") == "1.0 release"
    assert md_text("two\n\nlines\x1b") == r"two lines\\x1b"


def _hostile_document() -> dict:
    tests = [
        *[t for t in _document()["tests"] if t["category"] != "generated"],
        _generated("add", "ADD", "TENSOR_FLOAT32", "failed", reason=f"raised {FAKE}\n# Heading"),
        _test("basic_fail", "basic", "failed", reason="<!-- [link](http://x) **bold**"),
    ]
    return _document(tests, driver={"version_string": VERSION})


def test_report_md_shows_driver_text_as_plain_text() -> None:
    markdown = render_markdown(_hostile_document())
    assert "\x1b" not in markdown and "\r" not in markdown
    assert not [line for line in markdown.splitlines() if line.startswith("# ")]
    assert "<!--" not in re.sub(r"`[^`\n]*`", "", markdown)  # but in code spans: text there
    assert r"(1.0\\x1b\[2J CERTIFIED \# CERTIFIED by the vendor \<\!--)" in markdown
    assert r"`conformance.test_x::basic_fail`: \<\!-- \[link\](http://x) \*\*bold\*\*" in markdown
    assert (
        r"`conformance.test_x::add`: raised \\x1b\[2J\\x1b\[H\\x1b\[1;32mCERTIFIED\\x1b\[0m\\r"
        r" \# Heading"
    ) in markdown


def test_report_html_escapes_control_characters_and_markup() -> None:
    html = render_html(_hostile_document())
    assert "\x1b" not in html and "<!-- [link]" not in html
    assert r"1.0\x1b[2J CERTIFIED" in html
    assert "&lt;!-- [link](http://x) **bold**" in html


def test_comparison_md_shows_driver_text_as_plain_text() -> None:
    before = _hostile_document()
    after = _document(driver={"version_string": VERSION})
    markdown = compare.markdown(compare.compare(before, after))
    assert "\x1b" not in markdown and "<!--" not in markdown
    assert r"\<\!--" in markdown


def test_nnhal_report_prints_reasons_escaped(tmp_path, capsys) -> None:
    run = {"shard": {"index": 1, "count": 1}}
    doc = finalize(_document(run=run, driver={"version_string": VERSION, "load_error": FAKE}))
    path = tmp_path / "report.json"
    path.write_text(json.dumps(doc))
    assert cli.main(["merge", str(path), "-o", str(tmp_path / "out"), "--require-certified"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert f"  the driver could not be queried: {SHOWN}" in out
