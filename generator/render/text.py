"""Record text → safe Markdown (or, for raw HTML blocks, safe HTML) with cross-links.

Record text is Markdown of four inline constructs (strong, emphasis, code spans, links;
``generator.model.inline_markup`` reads them) and everything else is data: text is
escaped by ``markdown.escape`` (``rawhtml.escape`` for a linker made with ``html=True``),
record IDs become links to their records (longest declared ID wins), evidence anchors
become links to the file at the pinned revision, and a code span holding a record ID alone
links to it. IDs and anchors are found on the whole text before its Markdown is read, so
a marker inside a path is no markup. A link written in the text leads to a web page or a
record of the KB, or is shown as text with its target (``Linker.target``). Every link is
built by ``link_markup`` (through ``inline_form``). Every step is linear in the text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from markupsafe import Markup

from generator.model.anchors import LineRange, find_anchors
from generator.model.code_spans import find_code_spans
from generator.model.ids import grammar
from generator.model.inline_markup import has_markup, normalized, parse_inline
from generator.model.records import Source
from generator.model.sets import MEMBER_FILES
from generator.model.url_policy import link_gap, web_url_problem
from generator.render import urls
from generator.render.inline_form import HTML, MARKDOWN, Form, Inline, write
from generator.render.markdown import Md, code_block, code_span, escape
from generator.render.registry import SYSTEM_PAGE

if TYPE_CHECKING:
    from generator.graph.system_graph import Place, SystemGraph
    from generator.model.base import Anchor, Quote

__all__ = ["CrossLinker", "Linker", "Md", "code_block", "code_span", "escape", "find_code_spans"]

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def _paragraphs(text: str) -> list[str]:
    return _PARAGRAPH_BREAK.split(text.strip())


@dataclass(frozen=True)
class Linker:
    """Turns one system's record text into Markdown for one page of that system."""

    graph: SystemGraph
    page: str  # the key of the page being rendered: index, result, memory-report, review
    html: bool = False  # write HTML for raw HTML blocks instead of Markdown
    # The evidence anchors of the record whose text this linker writes (``citing``): a code
    # span that writes one's path (and lines) links to it.
    cited: tuple[Anchor, ...] = ()
    # The links already written on this page: a page cites the same records and anchors
    # again and again, and each link is a pure function of its arguments here.
    _written: dict[tuple[object, ...], Markup] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @cached_property
    def form(self) -> Form:
        return HTML if self.html else MARKDOWN

    @cached_property
    def path(self) -> str:
        """The path of the page being rendered."""
        return urls.page_path(self.page, self.graph.slug)

    def place_href(self, place: Place) -> str:
        """The href of a place (a record or a section) from this page."""
        return self.form.href(self.path, urls.page_path(place.page, place.slug), place.anchor)

    def href(self, record_id: str) -> str | None:
        """The link target of a record from this page, or None when it has no page."""
        place = self.graph.place_of(record_id)
        if place is not None:
            return self.place_href(place)
        if self.graph.supplied_record(record_id) is not None:
            # Supplied records are listed on the system page ("Declared elsewhere").
            return self.form.href(
                self.path, urls.page_path(SYSTEM_PAGE, self.graph.slug), urls.anchor_of(record_id)
            )
        return None

    def ref(self, record_id: str) -> Markup:
        """A link to a record; supplied records are marked as declared elsewhere."""
        key = ("ref", record_id)
        written = self._written.get(key)
        if written is None:
            written = self._written[key] = self._ref(record_id)
        return written

    def citing(self, anchors: list[Anchor]) -> Linker:
        """This linker for the text of a record with these evidence anchors: a code span
        that writes one's path, or its path and lines (```src/a.ts:3-9```), links to it."""
        if not anchors:
            return self
        linker = replace(self, cited=tuple(anchors))
        # The links written so far do not depend on the anchors: the page keeps one record.
        object.__setattr__(linker, "_written", self._written)
        return linker

    def evidence_not_in(
        self, anchors: list[Anchor], cited: list[str | None], prose: Sequence[str | None] = ()
    ) -> list[Anchor]:
        """The anchors that a record's texts do not already show: written as an anchor in
        any of them (``SRC-1 src/a.ts:3-9``, linked wherever the source's files are), or as
        a code span of the path (and lines) in the texts written ``citing`` them. These are
        the ones its evidence line still lists."""
        in_code = {content.strip() for text in cited if text for _, _, content in find_code_spans(text)}
        written = {
            (anchor.source, anchor.path, anchor.ranges)
            for text in (*cited, *prose)
            if text
            for anchor in find_anchors(text)
            if not anchor.lookalike and not anchor.locator
        }
        return [
            a
            for a in anchors
            if a.path is None
            or ((a.source, a.path, a.ranges) not in written and _anchor_key(a) not in in_code)
        ]

    @cached_property
    def _cited(self) -> dict[str, str | None]:
        return _cited_urls(self.graph, list(self.cited))

    @cached_property
    def _cited_ranges(self) -> dict[str, Anchor]:
        """The cited file anchors of several line ranges, as a code span writes them."""
        return {_anchor_key(a): a for a in reversed(self.cited) if a.path is not None and len(a.ranges) > 1}

    def _code_ranges(self, content: str, anchor: Anchor) -> Markup:
        """A code span writing an anchor of several ranges (``a.py:3-4,9``): the path and its
        first range link to those lines, each further range to its own."""
        form, graph, path = self.form, self.graph, str(anchor.path)
        first, *rest = anchor.ranges
        parts = [form.link(form.code(f"{path}:{first}"), graph.evidence_url(anchor.source, path, first))]
        for line_range in rest:
            url = graph.evidence_url(anchor.source, path, line_range)
            parts += [form.code(","), form.link(form.code(str(line_range)), url)]
        return form.safe("".join(parts))

    def _code(self, content: str) -> Markup:
        """A code span; one that holds a record ID alone (the source contract writes
        ```SRC-1```) links to the record, shown as code inside the link; one that writes
        an evidence anchor of the record (``citing``) links to its file."""
        if self.cited:
            url = self._cited.get(content.strip())
            ranges = self._cited_ranges.get(content.strip())
            if url is not None and ranges is not None:
                return self._code_ranges(content.strip(), ranges)
            if url is not None:
                return self.form.link(self.form.code(content), url)
        if content.startswith(("http://", "https://")) and web_url_problem(content) is None:
            # A web address written as code (a repository's URL) is a link, shown as code.
            return self.form.link(self.form.code(content), content)
        resolved = self.graph.resolve(content) if grammar().in_text.fullmatch(content) else None
        if resolved != content:
            return self.form.code(content)
        href = self.href(content)
        if self.graph.supplied_record(content) is not None:
            return self.form.link(self.form.code(content), href, ("kb-elsewhere",), "declared elsewhere")
        return self.form.link(self.form.code(content), href)

    def _ref(self, record_id: str) -> Markup:
        href = self.href(record_id)
        if self.graph.supplied_record(record_id) is not None:
            return self.form.link(record_id, href, ("kb-elsewhere",), "declared elsewhere")
        return self.form.link(record_id, href)

    def evidence(
        self, source: str, path: str, ranges: tuple[LineRange, ...], with_source: bool = True
    ) -> Markup:
        """An evidence anchor: the path links to its first range, each range to itself."""
        key = ("evidence", source, path, ranges, with_source)
        written = self._written.get(key)
        if written is None:
            written = self._written[key] = self._evidence(source, path, ranges, with_source)
        return written

    def _evidence(self, source: str, path: str, ranges: tuple[LineRange, ...], with_source: bool) -> Markup:
        first = self.graph.evidence_url(source, path, ranges[0] if ranges else None)
        parts: list[str] = [self.ref(source) + " "] if with_source else []
        if first is None and self._link_gap(source):
            parts.append(self.form.unlinked_anchor(path))
        else:
            parts.append(self.form.link(path, first))
        if ranges:
            linked = [
                self.form.link(str(line_range), self.graph.evidence_url(source, path, line_range))
                for line_range in ranges
            ]
            parts.append(":" + ",".join(linked))
        return self.form.safe("".join(parts))

    def _link_gap(self, source_id: str) -> bool:
        """Whether a source's anchors should link and cannot (KB412: no location or revision)."""
        record = self.graph.source(source_id)
        if not isinstance(record, Source):
            return False
        location = str(record.location) if record.location is not None else None
        return link_gap(record.links, location, record.revision, record.link_template) is not None

    def anchor(self, anchor: Anchor) -> Markup:
        """A structured evidence anchor: a file (linked per the source's policy) or a locator."""
        if anchor.path is None:
            return self.locator(anchor.source, anchor.locator or "")
        return self.evidence(anchor.source, anchor.path, anchor.ranges)

    def locator(self, source: str, locator: str) -> Markup:
        """A document locator: the source linked to its record, the locator as text."""
        return self.form.safe(self.ref(source) + " " + self.form.escape(locator))

    def quote_source(self, quote: Quote) -> Markup:
        """A quotation's attribution: source, file or capture path and lines, locator, pin."""
        form = self.form
        parts: list[str] = []
        if quote.source:
            parts.append(self.ref(quote.source))
        if quote.path:
            ranges = quote.ranges
            first = ranges[0] if ranges else None
            url = self.graph.quote_url(quote.source, quote.path, first, quote.pin) if quote.source else None
            shown = form.link(quote.path, url) if quote.source else form.code(quote.path)
            if ranges:
                # str.join gives a plain str, which Markup's + would escape again.
                shown += form.safe(
                    ":"
                    + ",".join(
                        form.link(str(r), self.graph.quote_url(quote.source, quote.path, r, quote.pin))
                        if quote.source
                        else form.escape(str(r))
                        for r in ranges
                    )
                )
            parts.append(shown)
        if quote.locator:
            parts.append(form.escape(quote.locator))
        if quote.pin:
            parts.append(form.safe("@ ") + form.code(quote.pin))
        return form.safe(" ".join(parts))

    def text(self, text: str | None) -> Markup:
        """Record prose → paragraphs (blank lines separate them): Markdown paragraphs, or
        ``<p>`` elements on consecutive lines for a raw HTML block. Lines that write a list
        (``- item``, ``1. item``) are a list, a raw HTML block in either form."""
        if not text:
            return self.form.safe("")
        blocks: list[str] = []
        for part in _paragraphs(text):
            lines = part.split("\n")
            start = _list_start(lines)
            if start != 0:  # prose, or the prose lines before a list
                prose = self.inline(_dedent(_joined(lines[:start])))
                blocks.append(f"<p>{prose}</p>" if self.html else prose)
            if start is not None:
                lists = _list_items(lines[start:])
                blocks.append("\n".join(self._html_linker._html_list(items, 0) for items in lists))
        return self.form.safe(("\n" if self.html else "\n\n").join(blocks))

    @cached_property
    def _html_linker(self) -> Linker:
        """This linker, or its HTML form for the lists of a Markdown one."""
        return self if self.html else Linker(self.graph, self.page, html=True)

    def _html_list(self, items: list[_ListItem], depth: int) -> str:
        first = items[0]
        if first.number is None:
            opening = "<ul>"
        else:
            opening = "<ol>" if first.number == 1 else f'<ol start="{first.number}">'
        rendered = [opening]
        for item in items:
            nested = _list_start(item.lines) if depth + 1 < _MAX_LIST_DEPTH else None
            if nested:
                lead = self.inline(_dedent(_joined(item.lines[:nested])))
                lists = "\n".join(
                    self._html_list(group, depth + 1) for group in _list_items(item.lines[nested:])
                )
                rendered.append(f"<li>{lead}\n{lists}\n</li>")
            else:
                rendered.append(f"<li>{self.inline(_dedent(_joined(item.lines)))}</li>")
        rendered.append("</ul>" if first.number is None else "</ol>")
        return "\n".join(rendered)

    def paragraphs(self, text: str) -> list[Markup]:
        """Record prose → one linked inline text per paragraph."""
        return [self.inline(_dedent(part)) for part in _paragraphs(text)]

    def cell(self, text: str | None) -> Markup:
        """Record text shown on one line: a table cell, or a field shown after its label or
        as one paragraph (a run's summary and target class, a profile's scope). Paragraphs
        are separated by line breaks, and a line that writes a list marker stays text: a
        block here would end the cell, or put a list inside the paragraph."""
        if not text:
            return self.form.safe("")
        parts = [self.inline(part).replace("\n", " ") for part in _paragraphs(text)]
        return self.form.safe("<br><br>".join(parts))

    def inline(self, text: str) -> Markup:
        """One paragraph: its inline Markdown (strong, emphasis, code spans, links) with
        escaped text, and links for record IDs and evidence anchors."""
        text = normalized(text)
        listed = self._id_list(text)
        if listed is not None:
            return listed
        found = self._spans(text)
        if not has_markup(text):  # no marker: the escaped text between the spans
            return self._unmarked(text, found)
        spans = [(start, end) for start, end, _ in found]
        return write(self.form, parse_inline(text, spans), self._inline(text, found))

    def fragment(self, text: str) -> Markup:
        """A run of words cut from record text (a word diff's side): its IDs, evidence
        anchors and code spans of an ID linked as ``inline`` links them, but each written
        link shown as its text and target (the diff shows what changed in either), a list
        of IDs kept as written, and markup the cut left open shown as its markers."""
        return self._unfollowed(text, shows_targets=True)

    def linked_label(self, text: str) -> Markup:
        """A label outside a heading (a list entry): formatted as a heading writes it, a
        written link as its text alone, but its IDs and evidence anchors linked."""
        return self._unfollowed(" ".join(text.split()), shows_targets=False)

    def _unfollowed(self, text: str, shows_targets: bool) -> Markup:
        text = normalized(text)
        found = self._spans(text)
        if not has_markup(text):
            return self._unmarked(text, found)
        spans = [(start, end) for start, end, _ in found]
        inline = self._inline(text, found)._replace(target=_nowhere, shows_targets=shows_targets)
        return write(self.form, parse_inline(text, spans), inline)

    def _id_list(self, text: str) -> Markup | None:
        """A text that is only a list of declared IDs (``RTE-10, RTE-10, RTE-11``): each ID
        once, in the order first written, and a run of three or more consecutive numbers of
        one prefix as a range whose ends link (the tooltip names every ID); else None."""
        if "," not in text or not grammar().may_name_a_record(text):
            return None
        ids: list[str] = []
        position = 0
        for match in grammar().in_text.finditer(text):
            between = text[position : match.start()]
            if between.strip(" ") not in ("," if ids else "", "") or (ids and "," not in between):
                return None
            if self.graph.resolve(match.group(0)) != match.group(0):
                return None
            ids.append(match.group(0))
            position = match.end()
        if len(ids) < 2 or text[position:].strip() or text[: text.find(ids[0])].strip():
            return None
        unique = list(dict.fromkeys(ids))
        shown: list[str] = []
        for run in _numbered_runs(unique):
            if len(run) < 3:
                shown.extend(self.ref(record_id) for record_id in run)
                continue
            ends = self.form.safe(self.ref(run[0]) + self.form.safe("–") + self.ref(run[-1]))
            title = self.form.escape(", ".join(run))
            shown.append(self.form.safe(f'<span class="kb-id-range" title="{title}">{ends}</span>'))
        return self.form.safe(", ".join(shown))

    def _unmarked(self, text: str, found: list[tuple[int, int, Markup]]) -> Markup:
        """What ``write`` makes of a text without markers: its stretches escaped and its
        spans (evidence anchors, record IDs) as linked; no tokens are made for it."""
        escape = self.form.escape
        if not found:
            return escape(text)
        pieces: list[str] = []
        position = 0
        for start, end, rendered in found:
            if start > position:
                pieces.append(escape(text[position:start]))
            pieces.append(rendered)
            position = end
        if position < len(text):
            pieces.append(escape(text[position:]))
        return self.form.safe("".join(pieces))

    def _spans(self, text: str) -> list[tuple[int, int, Markup]]:
        """Evidence anchors and record IDs in the text, found before the Markdown is read
        so that no marker inside a path (``src/__init__.py``) is taken for markup."""
        ids = self._ids(text)
        anchors = find_anchors(text)
        if not anchors:  # the IDs alone, already in order and apart
            return ids
        taken = _Taken([])
        for anchor in anchors:
            if anchor.lookalike or not taken.free(anchor.start, anchor.end):
                continue  # a look-alike stays text (rule KB409); its source ID still links
            if anchor.locator:
                rendered = self.locator(anchor.source, anchor.locator)
            else:
                rendered = self.evidence(anchor.source, anchor.path, anchor.ranges, with_source=False)
            taken.add(anchor.start, anchor.end, rendered)
        for start, end, rendered in ids:
            if taken.free(start, end):
                taken.add(start, end, rendered)
        return taken.sorted()

    def _ids(self, text: str) -> list[tuple[int, int, Markup]]:
        """The declared IDs the text names, linked, in order and apart: each is the prefix of
        its match the graph resolves (the longest declared ID), and matches do not overlap."""
        ids = grammar()
        if not ids.may_name_a_record(text):
            return []
        found: list[tuple[int, int, Markup]] = []
        for match in ids.in_text.finditer(text):
            resolved = self.graph.resolve(match.group(0))
            if resolved is not None:
                start = match.start()
                found.append((start, start + len(resolved), self.ref(resolved)))
        return found

    def _inline(self, text: str, found: list[tuple[int, int, Markup]]) -> Inline:
        def span(index: int, in_link: bool) -> Markup:
            start, end, rendered = found[index]
            return self.form.escape(text[start:end]) if in_link else rendered

        def code(content: str, in_link: bool) -> Markup:
            return self.form.code(content) if in_link else self._code(content)

        return Inline(span, code, self.target)

    def target(self, target: str) -> str | None:
        """Where a link written in record text may lead from this page: an ``http(s)`` URL,
        a record the graph resolves (its ID, or the ``#anchor`` of its heading); else None
        (the link is shown as text with its target)."""
        if web_url_problem(target) is None:
            return target
        if target.startswith("#"):
            record_id = self._anchors.get(target[1:])
            return self.href(record_id) if record_id is not None else None
        if grammar().in_text.fullmatch(target) and self.graph.resolve(target) == target:
            return self.href(target)
        return self._member_target(target)

    def _member_target(self, target: str) -> str | None:
        """A link to a member document of this analysis set (``runtime.md``, ``./epistemic.md#rte-1``)
        leads to the page the KB publishes the member on, at the record's anchor when it
        names one of the member's records; any other file is not published (None)."""
        analysis_set = self.graph.system.analysis_set
        if analysis_set is None:
            return None
        file, _, fragment = target.removeprefix("./").partition("#")
        member = next((m.member for m in analysis_set.members if MEMBER_FILES[m.member] == file), None)
        if member is None:
            return None
        record_id = self._anchors.get(fragment) if fragment else None
        if record_id is not None:
            return self.href(record_id)
        page = urls.page_path(self.graph.placement.member_page(member), self.graph.slug)
        return self.form.href(self.path, page, None)

    @cached_property
    def _anchors(self) -> dict[str, str]:
        """Record anchors → IDs, for links to ``#anchor`` (made on the first such link)."""
        graph = self.graph
        ids = [record.id for record in graph.records_in_id_order]
        ids += [record.id for record in graph.supplied_in_id_order]
        return {urls.anchor_of(record_id): record_id for record_id in ids}


@dataclass(frozen=True)
class CrossLinker(Linker):
    """A system's linker for a page outside the system (a cross-system page at ``at``)."""

    at: str = ""

    @property
    def path(self) -> str:
        return self.at


def _nowhere(target: str) -> None:
    """No written link leads anywhere (``Linker.fragment``)."""
    return None


class _Taken:
    """Disjoint spans of a text, kept sorted so an overlap test is a binary search."""

    def __init__(self, spans: list[tuple[int, int, Markup]]) -> None:
        self._spans = sorted(spans)
        self._starts = [span[0] for span in self._spans]

    def free(self, start: int, end: int) -> bool:
        index = bisect.bisect_left(self._starts, end)
        # Only the span starting just before `end` can overlap: spans are disjoint.
        return index == 0 or self._spans[index - 1][1] <= start

    def add(self, start: int, end: int, rendered: Markup) -> None:
        index = bisect.bisect_left(self._starts, start)
        self._starts.insert(index, start)
        self._spans.insert(index, (start, end, rendered))

    def sorted(self) -> list[tuple[int, int, Markup]]:
        return self._spans


_NUMBERED = re.compile(r"(.*-)([0-9]+)")


def _numbered_runs(ids: list[str]) -> list[list[str]]:
    """IDs in order, cut into runs where each follows the one before: same prefix, the next
    number (``RTE-10, RTE-11, RTE-12``); a slug ID is a run of its own."""
    runs: list[list[str]] = []
    last: tuple[str, int] | None = None
    for record_id in ids:
        match = _NUMBERED.fullmatch(record_id)
        here = (match.group(1), int(match.group(2))) if match else None
        if here is not None and last is not None and here == (last[0], last[1] + 1):
            runs[-1].append(record_id)
        else:
            runs.append([record_id])
        last = here
    return runs


def _anchor_key(anchor: Anchor) -> str:
    """A file anchor as a code span writes it: ``path`` or ``path:3-9,12``."""
    ranges = ",".join(str(line_range) for line_range in anchor.ranges)
    return f"{anchor.path}:{ranges}" if ranges else str(anchor.path)


def _cited_urls(graph: SystemGraph, anchors: list[Anchor]) -> dict[str, str | None]:
    """File anchors as a code span writes them → the URL of their file at their first
    lines (None when the source's files are not linked); the first anchor of a key wins."""
    urls_by_key: dict[str, str | None] = {}
    for anchor in anchors:
        if anchor.path is None:
            continue
        ranges = anchor.ranges
        url = graph.evidence_url(anchor.source, anchor.path, ranges[0] if ranges else None)
        urls_by_key.setdefault(_anchor_key(anchor), url)
    return urls_by_key


# A list item's marker at a line's start: a hyphen, or a number and its delimiter. An
# asterisk is no bullet here: record text quotes code comments (`` * @param``) as prose.
_LIST_MARKER = re.compile(r"( {0,3})(?:(-)|(\d{1,9})([.)]))(?:[ \t]+(.*)|)\Z")
# Nesting deeper than this is the item's text (a list in an item, no deeper: record text
# is prose, and a planted tower of lists stays text); each level reads each line once.
_MAX_LIST_DEPTH = 2


@dataclass(frozen=True)
class _ListItem:
    kind: str  # the bullet, or the number's delimiter: a change of kind starts a new list
    number: int | None  # an ordered item's number, None for a bullet
    lines: list[str]  # its text: the first line's after the marker, the rest outdented


def _list_start(lines: list[str]) -> int | None:
    """The first line that starts a list, as in CommonMark: any line with a bullet, and,
    after other lines, a number only when it is 1 (a wrapped line of prose may begin with a
    year and a full stop)."""
    for index, line in enumerate(lines):
        marker = _LIST_MARKER.match(line)
        if marker and (index == 0 or marker.group(2) or int(marker.group(3)) == 1):
            return index
    return None


def _list_items(lines: list[str]) -> list[list[_ListItem]]:
    """The lines from a list's first marker → its lists' items (a new list where the marker's
    kind changes). A line less indented than the item's text with a marker starts the next
    item; any other line continues the item (more indented: its own list, perhaps)."""
    lists: list[list[_ListItem]] = []
    content_column = 0
    for line in lines:
        marker = _LIST_MARKER.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if marker and (not lists or indent < content_column):
            text = marker.group(5) or ""
            kind = marker.group(2) or marker.group(4)
            number = None if marker.group(2) else int(marker.group(3))
            content_column = len(line) - len(text) if text else len(marker.group(0)) + 1
            item = _ListItem(kind, number, [text])
            if lists and lists[-1][0].kind == kind:
                lists[-1].append(item)
            else:
                lists.append([item])
        else:
            lists[-1][-1].lines.append(line[min(indent, content_column) :])
    return lists


def _joined(lines: list[str]) -> str:
    return "\n".join(lines)


def _dedent(paragraph: str) -> str:
    """Leading spaces would make an indented code block; prose has no use for them."""
    return "\n".join(line.lstrip() for line in paragraph.split("\n"))
