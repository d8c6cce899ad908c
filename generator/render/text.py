"""Record text → safe Markdown with cross-links.

Record text is data: every character that Markdown, HTML, attribute lists or macros
would act on is escaped, so what the analyst wrote is what the reader sees. Code
spans stay literal. Record IDs become links to their records (longest declared ID
wins) and evidence anchors become links to the file at the pinned revision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from markupsafe import Markup

from ..link import SystemGraph
from ..model.anchors import LineRange, find_anchors
from ..model.ids import ID_IN_TEXT, anchor_of


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
# underlines and rules, admonitions, fences.
_LINE_START = re.compile(r"^(\s*)(#|[-+*=]\s|[-=]+\s*$|[0-9]+[.)](?:\s|$)|!!!|~~~)", re.MULTILINE)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def escape(text: str) -> Md:
    """Escape text so Markdown renders it literally (no links, HTML, emphasis or lists)."""
    escaped = text.translate(_ESCAPE_TABLE)
    escaped = _LINE_START.sub(lambda m: m.group(1) + _escape_marker(m.group(2)), escaped)
    return Md(escaped)


# Python-Markdown backslash-escapes only some characters; the others take an entity.
_MARKER_ENTITY = {"=": "&#61;", "~": "&#126;"}


def _escape_marker(marker: str) -> str:
    if marker[0] in _MARKER_ENTITY:
        return _MARKER_ENTITY[marker[0]] + marker[1:]
    if marker[0] in "#!-+*":
        return "\\" + marker
    digits = marker.rstrip(" \t.)\n")
    return digits + "\\" + marker[len(digits) :]


def code_span(text: str) -> Md:
    """A literal code span, with a fence longer than any backtick run inside."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Md(f"{fence}{pad}{text}{pad}{fence}")


def code_block(text: str, language: str = "text") -> Md:
    """A fenced code block that no content can close early."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return Md(f"{fence}{language}\n{text.rstrip()}\n{fence}")


@dataclass(frozen=True)
class Linker:
    """Turns one system's record text into Markdown for one page of that system."""

    graph: SystemGraph
    page: str  # the page being rendered: index, result, memory-report, review

    def href(self, record_id: str) -> str | None:
        """The link target of a record from this page, or None when it has no page."""
        place = self.graph.place_of(record_id)
        if place is not None:
            return f"#{place.anchor}" if place.page == self.page else f"{place.page}.md#{place.anchor}"
        if record_id in self.graph.supplied:
            return f"#{anchor_of(record_id)}" if self.page == "index" else f"index.md#{anchor_of(record_id)}"
        return None

    def ref(self, record_id: str) -> Md:
        """A link to a record; supplied records are marked as declared elsewhere."""
        href = self.href(record_id)
        if href is None:
            return escape(record_id)
        if record_id in self.graph.supplied:
            return Md(f'[{escape(record_id)}]({href}){{ .kb-elsewhere title="declared elsewhere" }}')
        return Md(f"[{escape(record_id)}]({href})")

    def evidence(self, source: str, path: str, ranges: tuple[LineRange, ...], with_source: bool = True) -> Md:
        """An evidence anchor: the path links to its first range, each range to itself."""
        first = self.graph.evidence_url(source, path, ranges[0] if ranges else None)
        parts: list[str] = [self.ref(source) + " "] if with_source else []
        parts.append(f"[{escape(path)}]({_safe_url(first)})" if first else escape(path))
        if ranges:
            linked = []
            for line_range in ranges:
                url = self.graph.evidence_url(source, path, line_range)
                linked.append(f"[{line_range}]({_safe_url(url)})" if url else str(line_range))
            parts.append(":" + ",".join(linked))
        return Md("".join(parts))

    def text(self, text: str | None) -> Md:
        """Record prose → Markdown paragraphs (blank lines separate them)."""
        if not text:
            return Md("")
        return Md("\n\n".join(self.inline(_dedent(part)) for part in re.split(r"\n\s*\n", text.strip())))

    def cell(self, text: str | None) -> Md:
        """Record text for a table cell: one line, paragraphs separated by line breaks."""
        if not text:
            return Md("")
        parts = [self.inline(part).replace("\n", " ") for part in re.split(r"\n\s*\n", text.strip())]
        return Md("<br><br>".join(parts))

    def inline(self, text: str) -> Md:
        """One paragraph: escaped text with links for IDs and evidence anchors."""
        spans: list[tuple[int, int, Md]] = []
        for match in _CODE_SPAN.finditer(text):
            spans.append((match.start(), match.end(), code_span(match.group(2))))
        for anchor in find_anchors(text):
            if not _overlaps(spans, anchor.start, anchor.end):
                rendered = self.evidence(anchor.source, anchor.path, anchor.ranges, with_source=False)
                spans.append((anchor.start, anchor.end, rendered))
        for match in ID_IN_TEXT.finditer(text):
            resolved = self.graph.resolve(match.group(0))
            if resolved is None:
                continue
            end = match.start() + len(resolved)
            if not _overlaps(spans, match.start(), end):
                spans.append((match.start(), end, self.ref(resolved)))
        spans.sort()
        out, position = [], 0
        for start, end, rendered in spans:
            out.append(escape(text[position:start]))
            out.append(rendered)
            position = end
        out.append(escape(text[position:]))
        return Md("".join(out))


def _dedent(paragraph: str) -> str:
    """Leading spaces would make an indented code block; prose has no use for them."""
    return "\n".join(line.lstrip() for line in paragraph.split("\n"))


def _overlaps(spans: list[tuple[int, int, Md]], start: int, end: int) -> bool:
    return any(start < other_end and other_start < end for other_start, other_end, _ in spans)


def _safe_url(url: str | None) -> str:
    return quote(url or "", safe=":/#@+~-._=?&%,")
