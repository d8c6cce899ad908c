"""Safe Markdown: the ``Md`` type and the one escaping path for record text.

Record text is data: every character that Markdown, HTML, attribute lists or macros
would act on is escaped, so what the analyst wrote is what the reader sees. Every
function here is linear in its input.
"""

from __future__ import annotations

import re

from markupsafe import Markup


class Md(Markup):
    """Markdown that is already safe to emit; plain ``str`` gets escaped on output.

    A ``Markup`` subclass, so Jinja's autoescaping passes it (and macro output) through.
    """

    __slots__ = ()


_ESCAPE = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "\\": "\\\\",
    "`": "\\`",
    "*": "\\*",
    "_": "\\_",
    "[": "\\[",
    "]": "\\]",
    "{": "&#123;",
    "}": "&#125;",
    "|": "\\|",
}
_ESCAPE_TABLE = str.maketrans(_ESCAPE)
# Block syntax that only acts at the start of a line: headings, list markers, setext
# underlines and rules, admonitions, fences. Matched on one line at a time: a pattern
# whose leading whitespace could run across newlines made escaping quadratic.
_LINE_START = re.compile(r"([^\S\n]*)(#|[-+*=](?:\s|$)|[-=]+[^\S\n]*$|[0-9]+[.)](?:\s|$)|!!!|~~~)")
# Python-Markdown backslash-escapes only some characters; the others take an entity.
_MARKER_ENTITY = {"=": "&#61;", "~": "&#126;"}


def escape(text: str) -> Md:
    """Escape text so Markdown renders it literally (no links, HTML, emphasis or lists)."""
    lines = text.translate(_ESCAPE_TABLE).split("\n")
    escaped = "\n".join(_escape_line_start(line) for line in lines)
    # Before a link the generator writes, a closing '!' would make it an image
    # ('Beware![CMP-1](…)'); inside the text a '[' is escaped, so no other '!' can. Only that
    # one is escaped: Python-Markdown reads each escape at a cost that grows with the
    # paragraph, so a text of many would make its page slow to build.
    return Md(escaped[:-1] + "\\!" if escaped.endswith("!") else escaped)


def _escape_line_start(line: str) -> str:
    match = _LINE_START.match(line)
    if match is None:
        return line
    return match.group(1) + _escape_marker(match.group(2)) + line[match.end() :]


def _escape_marker(marker: str) -> str:
    if marker[0] in _MARKER_ENTITY:
        return _MARKER_ENTITY[marker[0]] + marker[1:]
    if marker[0] in "#!-+*":
        return "\\" + marker
    digits = marker.rstrip(" \t.)\n")
    return digits + "\\" + marker[len(digits) :]


def code_span(text: str) -> Md:
    """A literal code span, on one line, with a fence longer than any backtick run inside.

    Text holding ``<`` becomes inline HTML whose text is escaped like any record text:
    raw ``<`` in a backtick span survives until the HTML-block parser of ``md_in_html``
    sees it, so ``</div>`` there would close a ``markdown`` div and let the rest of the
    line through as raw HTML. On one line, because a blank line would end the paragraph
    (or table row) in the middle of the span.
    """
    text = text.replace("\r", " ").replace("\n", " ")
    if "<" in text:
        return Md(f"<code>{escape(text)}</code>")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Md(f"{fence}{pad}{text}{pad}{fence}")


def block_quote(text: str) -> Md:
    """A Markdown block quotation of escaped text: it wraps like prose, markup stays literal."""
    lines = [line.strip() for line in text.strip().split("\n")]
    return Md("\n".join(f"> {escape(line)}" if line else ">" for line in lines))


def code_block(text: str, language: str = "text") -> Md:
    """A fenced code block that no content can close early."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return Md(f"{fence}{language}\n{text.rstrip()}\n{fence}")


# An anchor or class of a heading's attribute list: a slug, never a value that could
# close the list or open another.
_ATTRIBUTE_NAME = re.compile(r"[A-Za-z0-9_-]+\Z")


def heading(level: int, title: Markup, anchor: str, classes: tuple[str, ...] = ()) -> Md:
    """A Markdown heading (``title`` already safe) with its anchor and classes as an
    attribute list: MkDocs builds the table of contents and the permalinks from it."""
    names = (anchor, *classes)
    if not all(_ATTRIBUTE_NAME.match(name) for name in names):
        raise ValueError(f"a heading's anchor and classes are slugs, not {names!r}")
    attributes = " ".join((f"#{anchor}", *(f".{name}" for name in classes)))
    return Md(f"{'#' * level} {title} {{ {attributes} }}")
