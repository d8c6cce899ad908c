"""Generated pages MkDocs need not convert: their HTML and table of contents written here.

Once its raw HTML blocks are taken out (``splice.py``), a generated page is, for most page
types, nothing but headings — each a line ``#### Title { #anchor .class … }`` whose title
the renderer escaped — and the markers that stand for the blocks. Python-Markdown still
spends most of a build's conversion on them: every heading's text goes through its two
dozen inline patterns, the attribute-list, table-of-contents and anchor tree processors
and the serializer. What it makes of such a page is fixed, and written here directly: the
heading with its attributes and permalink, the marker as its own line, the table of
contents MkDocs builds from the headings, and their anchors.

Only what this module can prove Python-Markdown would write is written here; anything else
leaves the page to Python-Markdown (``convert`` returns None): a line that is neither a
heading of that form nor a marker, a title holding a character an inline pattern acts on
(a backtick, an asterisk, an underscore, a bracket, an ``&`` that starts no entity, …)
unless backslash-escaped, and any site whose Markdown extensions are not the known ones
(an extension such as ``smarty`` or ``pymdownx.emoji`` would change the titles). The
heading's own characters are then what Python-Markdown writes: an escaped character as
itself, an entity as written. ``tests/outputs/test_direct_pages.py`` converts every shipped
and fixture page, and pages of hostile record text, both ways and finds the same HTML,
table of contents and anchors.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass
from typing import Any

import markdown
from markdown.extensions.toc import nest_toc_tokens
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents, get_toc

from generator.render.link_markup import html_link
from generator.render.rawhtml import Html

_PAGES_LOG = logging.getLogger("mkdocs.structure.pages")

# The extensions whose output on a page of headings and markers is the one written here
# (MkDocs' built-ins and this project's configuration), whatever their settings, none of
# which touches a heading of escaped text; with any other extension, MkDocs converts.
KNOWN_EXTENSIONS = frozenset(
    {"toc", "tables", "fenced_code", "attr_list", "md_in_html", "admonition", "pymdownx.superfences"}
)
# The settings of the table-of-contents extension understood here (permalinks on or off).
KNOWN_TOC_SETTINGS = frozenset({"permalink"})
# The permalink the table-of-contents extension appends to a heading (``permalink: true``).
PERMALINK = Html("&para;")

_HEADING = re.compile(r"(#{1,6}) (.*?) \{ #([A-Za-z0-9-]+)((?: \.[A-Za-z0-9-]+)*) \}\Z")
_ENTITY = re.compile(r"&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);")
# A line that Python-Markdown could read as a heading inside a block left to it (at any
# indentation: an admonition or a list item nests Markdown).
_HEADING_LINE = re.compile(r"^[ \t]*#|\n(?:=+|-+)[ \t]*(?:\n|\Z)", re.MULTILINE)
_MARKDOWN_CONTAINER = re.compile(r"<[a-zA-Z][^<>]*\smarkdown(?:[\s=/>])")
# Characters an inline pattern or the serializer acts on when not backslash-escaped: code
# spans, emphasis, links and images, raw HTML and autolinks, entities, escapes.
_ACTIVE = frozenset("`*_[]<>&\\")


@dataclass(frozen=True)
class Plan:
    """A page's headings, written here, and what is left for Python-Markdown: the page's
    Markdown with each heading replaced by a marker of its own (``left``), or nothing
    (``left`` is None) when the page is only headings and raw-block markers."""

    left: str | None
    headings: list[str]  # each heading's HTML, by the number of its marker
    marker: re.Pattern[str]  # a heading's marker as Python-Markdown writes it (see finish)
    html: str  # the page's HTML when nothing is left for Python-Markdown
    toc: TableOfContents
    anchors: frozenset[str]

    def finish(self, converted: str) -> str:
        """The HTML of the page from Python-Markdown's conversion of ``left``: each heading
        marker, which it wrote as a raw block (a blank line after it, unless last), becomes
        its heading (a heading has none); one pass over the page."""
        return self.marker.sub(
            lambda found: self.headings[int(found.group(1))] + ("\n" if found.group(2) else ""), converted
        )


class DirectPages:
    """Writes the headings of generated pages, and the whole conversion of a page of
    headings and raw-block markers, for one site's Markdown configuration."""

    def __init__(self, config: Any) -> None:
        extensions = config["markdown_extensions"]
        settings = config["mdx_configs"] or {}
        names = {name for name in extensions if isinstance(name, str)}
        toc = settings.get("toc", {})
        self.enabled = (
            len(names) == len(extensions)
            and names <= KNOWN_EXTENSIONS
            and "toc" in names
            and "attr_list" in names
            and set(toc) <= KNOWN_TOC_SETTINGS
            and toc.get("permalink", False) in (True, False)
        )
        self.permalink = bool(toc.get("permalink", False))
        self.escaped = (
            frozenset(markdown.Markdown(extensions=extensions, extension_configs=settings).ESCAPED_CHARS)
            if self.enabled
            else frozenset()
        )

    def plan(self, text: str, marker: re.Pattern[str]) -> Plan | None:
        """The plan of a page's Markdown (front matter taken off, raw blocks taken out and
        stood for by ``marker``), or None when Python-Markdown has to convert it whole: a
        heading not of the known form, a line opening with ``#`` inside another block, a
        code fence or an element with a ``markdown`` attribute (inside which a ``#`` line
        is not a heading)."""
        if not self.enabled or "```" in text or "~~~" in text or _MARKDOWN_CONTAINER.search(text):
            return None
        nonce = marker.pattern.split(":")[1]  # the page's own (splice.py): no text can name it
        left: list[str] = []
        lines: list[str] = []
        headings: list[str] = []
        tokens: list[dict[str, Any]] = []
        anchors: set[str] = set()
        only_markers = True
        for chunk in text.split("\n\n"):
            line = chunk.strip("\n")
            if not line:
                left.append(chunk)
                continue
            if "\n" not in line and marker.fullmatch(line):
                left.append(chunk)
                lines.append(line + "\n")  # Python-Markdown writes a blank line after a raw block
                continue
            if not line.startswith("#"):
                if _HEADING_LINE.search(line):
                    return None
                left.append(chunk)
                only_markers = False
                continue
            heading = _HEADING.match(line)
            title = self._title(heading.group(2).strip()) if heading is not None else None
            if heading is None or title is None or heading.group(3) in anchors:
                return None  # (a repeated anchor: Python-Markdown keeps both, its contents are not guessed)
            level, anchor, classes = len(heading.group(1)), heading.group(3), heading.group(4).split(" .")[1:]
            anchors.add(anchor)
            # Python-Markdown writes an element's attributes in lexical order.
            attributes = (f' class="{" ".join(classes)}"' if classes else "") + f' id="{anchor}"'
            permalink = (
                html_link(PERMALINK, f"#{anchor}", ("headerlink",), "Permanent link")
                if self.permalink
                else ""
            )
            written = f"<h{level}{attributes}>{title}{permalink}</h{level}>"
            stand_in = f"<!--kb-heading:{nonce}:{len(headings)}-->"
            headings.append(written)
            left.append(stand_in + chunk[len(chunk.rstrip("\n")) :])
            lines.append(written)
            # The table of contents names a heading by its text with whitespace collapsed.
            name = " ".join(title.split())
            tokens.append({"level": level, "id": anchor, "name": name, "html": title, "data-toc-label": ""})
        toc = get_toc(nest_toc_tokens(tokens))
        heading_marker = re.compile(rf"<!--kb-heading:{nonce}:(\d+)-->(\n\n|\Z)")
        if only_markers:
            return Plan(None, headings, heading_marker, "\n".join(lines).strip(), toc, frozenset(anchors))
        return Plan("\n\n".join(left), headings, heading_marker, "", toc, frozenset(anchors))

    def stand_in(self, page: Page, text: str, marker: re.Pattern[str]) -> str:
        """The Markdown MkDocs is to convert of a generated page (front matter taken off,
        raw blocks taken out): ``text``, or ``text`` with its headings taken out, whose HTML
        and table of contents the page's ``render`` then puts in (a page titled by its
        front matter only: a title from its first heading is MkDocs' to find)."""
        plan = self.plan(text, marker) if "title" in page.meta else None
        if plan is None:
            return text
        page.render = functools.partial(_render, page, plan, page.render, text)  # type: ignore[method-assign]
        return plan.left if plan.left is not None else text

    def _title(self, text: str) -> str | None:
        """A heading's title as Python-Markdown writes it, or None when it might differ."""
        if not text or text.endswith("#"):
            return None  # closing hashes: Python-Markdown drops them before the attribute list
        out: list[str] = []
        index, end = 0, len(text)
        while index < end:
            char = text[index]
            if char not in _ACTIVE:
                out.append(char)
                index += 1
            elif char == "\\" and index + 1 < end and text[index + 1] in self.escaped:
                escaped = text[index + 1]
                if escaped in "<>&\\":
                    return None  # written as an entity or an escape in turn: left to Python-Markdown
                out.append(escaped)
                index += 2
            elif char == "&" and (entity := _ENTITY.match(text, index)) is not None:
                out.append(entity.group(0))
                index = entity.end()
            else:
                return None
        return "".join(out)


def _render(page: Page, plan: Plan, convert: Any, whole: str, config: Any, files: Any) -> None:
    """``Page.render`` of a page whose headings ``DirectPages`` writes: MkDocs converts what
    is left of the page, if anything, and the headings, their table of contents and their
    anchors are put in. Should Python-Markdown find a heading in what was left after all,
    the page is converted whole instead."""
    if plan.left is None:
        page.content = plan.html
        page.toc = plan.toc
        page._title_from_render = None
        page.present_anchor_ids = set(plan.anchors)
        if _PAGES_LOG.getEffectiveLevel() > logging.DEBUG:
            page.links_to_anchors = {}  # headings and raw-block markers link nowhere
        return
    convert(config, files)
    if len(page.toc):
        page.markdown = whole
        convert(config, files)
        return
    assert page.content is not None
    page.content = plan.finish(page.content)
    page.toc = plan.toc
    page.present_anchor_ids = (page.present_anchor_ids or set()) | plan.anchors
