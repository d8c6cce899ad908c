"""What the editor asks of one system: its check, and where each ID is declared and mentioned.

A ``SystemAnalysis`` is one system folder checked as ``kbgen check`` checks it, with the
editor's unsaved text of open files standing in for theirs on disk, then linked as the
site links it. On top it indexes the files' text: every declaration (the ``id:`` of a
record or supplied record) and every mention of a declared ID, in YAML and in the
Markdown prose files, as spans of 0-based lines and character columns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from generator.check import CheckedSystem
from generator.graph.system_graph import SystemGraph, link_system
from generator.load.records import LoadedFile
from generator.load.textpos import LineIndex
from generator.model.anchors import AnchorText, find_anchors
from generator.model.ids import anchor_of, grammar
from generator.model.inline_markup import plain_text
from generator.model.kinds import qualified_status_fields, spec_of_id
from generator.model.records import RecordBase, Supplied
from generator.model.runs import RunHistory
from generator.pipeline import check_system
from generator.render.inline_form import label as formatted_label
from generator.render.link_markup import web_target
from generator.render.markdown import code_span, escape
from generator.render.registry import PLACEMENT
from generator.render.urls import page_path


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A stretch of one line of one file: 0-based line, character columns [start, end)."""

    path: Path  # absolute
    line: int
    start: int
    end: int

    def holds(self, path: Path, line: int, column: int) -> bool:
        return self.path == path and self.line == line and self.start <= column <= self.end


@dataclass(frozen=True, slots=True)
class Declaration:
    """Where an ID is declared, and what it declares."""

    record_id: str
    span: Span  # the ID's value after ``id:``
    item: tuple[Span, Span] | None  # the list item's first and last line (for the outline)
    record: RecordBase | Supplied


@dataclass(frozen=True, slots=True)
class EvidenceLink:
    """An evidence anchor's path as written, and the URL of the cited lines."""

    span: Span
    url: str


@dataclass
class SystemAnalysis:
    """One system as the editor sees it: checked, linked and indexed."""

    folder: Path
    base: Path
    checked: CheckedSystem
    graph: SystemGraph
    texts: dict[Path, str] = field(default_factory=dict)  # every file read, by absolute path
    declarations: dict[str, Declaration] = field(default_factory=dict)
    mentions: dict[str, list[Span]] = field(default_factory=dict)  # ID → every mention, in order
    links: list[EvidenceLink] = field(default_factory=list)

    @property
    def slug(self) -> str:
        """The system's slug (a further run's folder is named by its run ID, not its system's)."""
        return self.checked.records.slug

    def absolute(self, display: str) -> Path:
        """The file a diagnostic or an origin names (shown relative to ``base``)."""
        return (self.base / display).resolve()

    def id_at(self, path: Path, line: int, column: int) -> str | None:
        """The declared ID written at a position, or None."""
        text = self.texts.get(path)
        if text is None:
            return None
        lines = text.split("\n")
        if not 0 <= line < len(lines):
            return None
        for match in grammar().in_text.finditer(lines[line]):
            found = self.graph.resolve(match.group(0))
            if found is not None and match.start() <= column <= match.start() + len(found):
                return found
        return None

    def references(self, record_id: str) -> list[Span]:
        return self.mentions.get(record_id, [])

    def declarations_in(self, path: Path) -> list[Declaration]:
        return [d for d in self.declarations.values() if d.span.path == path]

    def page_url(self, record_id: str) -> str:
        """The record's place on the site, relative to the site root (a directory URL)."""
        # The graph's slug: where the site publishes this run (below runs/ for an earlier one).
        page = page_path(self.graph.page_of(record_id), self.graph.slug).removesuffix(".md")
        page = page.removesuffix("index") if page.endswith("/index") else page + "/"
        return f"{page}#{anchor_of(record_id)}"

    def hover(self, record_id: str) -> str:
        """What the editor shows over an ID, as Markdown: every string from the records or
        the file system (labels, file names, slugs, values) through the site's one escaping
        path, so none can close a code span or plant a link or an image."""
        declaration = self.declarations.get(record_id)
        record = self.graph.record(record_id) or self.graph.supplied_record(record_id)
        spec = spec_of_id(record_id)
        label = getattr(record, "label", None)
        lines = [f"**{_plain(record_id)}**" + (f" — {_label(label)}" if label else "")]
        where = ""
        if declaration is not None:
            relative = declaration.span.path.relative_to(self.base).as_posix()
            where = f" · declared in {_code(f'{relative}:{declaration.span.line + 1}')}"
        kind = spec.singular if spec else "record"
        supplied = " (supplied: declared in another member)" if isinstance(record, Supplied) else ""
        lines.append(f"{kind}{supplied}{where}")
        if isinstance(record, RecordBase):
            for status, value, qualifier in qualified_status_fields(record):
                shown = f"- {_plain(status)}: {_code(str(value))}"
                lines.append(shown + (f" ({_plain(qualifier)})" if qualifier else ""))
        cited = len(self.graph.cited_by(record_id))
        mentions = len(self.mentions.get(record_id, [])) - (declaration is not None)
        lines.append(
            f"referenced by {cited} place(s) on the site; {mentions} mention(s) in this system's files"
        )
        if self.graph.record(record_id) is not None:
            lines.append(f"page: {_code(self.page_url(record_id))}")
        return "\n\n".join(lines)

    def evidence_link_at(self, path: Path, line: int, column: int) -> EvidenceLink | None:
        return next((link for link in self.links if link.span.holds(path, line, column)), None)


def _code(text: str) -> str:
    """Text as a literal code span, its fence longer than any backtick run in it (the site's
    ``code_span``); text holding ``<``, which ``code_span`` writes as an HTML element for the
    site, as escaped text instead: an editor need not render HTML in a hover."""
    return str(code_span(text)) if "<" not in text else _plain(text)


def _label(text: str) -> str:
    """A label in hover Markdown as the site's headings show it: strong, emphasis and code
    of its Markdown, the rest escaped (``inline_form.label``); a label whose code span holds
    ``<`` (which the site writes as an HTML element) as its escaped text without markers,
    as ``_code`` shows such text."""
    shown = str(formatted_label(text))
    return shown if "<code>" not in shown else _plain(plain_text(text))


def _plain(text: object) -> str:
    """Record text in hover Markdown: one line, escaped as the site escapes it (data, shown
    as written: no link, HTML or emphasis of its own)."""
    return str(escape(" ".join(str(text).split())))


def analyse(
    folder: Path,
    base: Path,
    unsaved: Mapping[str, str] | None = None,
    run_of: str | None = None,
    history_of: Callable[[CheckedSystem], RunHistory | None] | None = None,
) -> SystemAnalysis:
    """Check, link and index one system folder (``unsaved``: path below it → editor text;
    ``run_of``: the system, when the folder is one of its further runs; ``history_of``: the
    system's runs with this one, so a page URL is where the site publishes the run)."""
    checked = check_system(folder, base, unsaved, run_of)
    history = history_of(checked) if history_of is not None else None
    graph = link_system(checked.records, PLACEMENT, history)
    analysis = SystemAnalysis(folder=folder, base=base, checked=checked, graph=graph)
    for loaded in checked.source.files:
        analysis.texts[analysis.absolute(loaded.display)] = "\n".join(loaded.lines)
    for display, text in checked.source.prose.values():
        analysis.texts[analysis.absolute(display)] = text
    _index_declarations(analysis)
    _index_mentions(analysis)
    return analysis


def _declared(analysis: SystemAnalysis) -> Iterator[RecordBase | Supplied]:
    yield from analysis.checked.records.records
    yield from analysis.checked.records.supplied


def _index_declarations(analysis: SystemAnalysis) -> None:
    files = {loaded.display: loaded for loaded in analysis.checked.source.files}
    for record in _declared(analysis):
        origin = analysis.checked.records.origin(record)
        loaded = files.get(origin.file) if origin is not None else None
        if origin is None or loaded is None or record.id in analysis.declarations:
            continue
        path = analysis.absolute(loaded.display)
        spot = loaded.spot((*origin.path, "id"))
        span = Span(path, spot.line - 1, spot.col - 1, spot.col - 1 + len(record.id))
        analysis.declarations[record.id] = Declaration(
            record.id, span, _item(loaded, path, origin.path), record
        )


def _item(loaded: LoadedFile, path: Path, data_path: tuple[str | int, ...]) -> tuple[Span, Span] | None:
    spot = loaded.spots.get(data_path)
    if spot is None:
        return None
    end_line = max((spot.end_line or spot.line) - 1, spot.line - 1)
    first = Span(path, spot.line - 1, spot.col - 1, spot.col - 1)
    last = Span(path, end_line, 0, max(spot.end_col - 1, 0))
    return first, last


def _index_mentions(analysis: SystemAnalysis) -> None:
    graph = analysis.graph
    id_pattern = grammar().in_text
    for path, text in sorted(analysis.texts.items()):
        index = LineIndex(text)
        for match in id_pattern.finditer(text):
            found = graph.resolve(match.group(0))
            if found is None:
                continue
            line, col = index.position(match.start())
            span = Span(path, line - 1, col - 1, col - 1 + len(found))
            analysis.mentions.setdefault(found, []).append(span)
        if grammar().cites_a_source(text):
            analysis.links.extend(_evidence_links(analysis, path, text))


def _evidence_links(analysis: SystemAnalysis, path: Path, text: str) -> Iterator[EvidenceLink]:
    for number, line in enumerate(text.split("\n")):
        for anchor in find_anchors(line):
            url = _anchor_url(analysis.graph, anchor)
            if url is not None:
                yield EvidenceLink(Span(path, number, anchor.start, anchor.end), url)


def _anchor_url(graph: SystemGraph, anchor: AnchorText) -> str | None:
    """The cited lines' URL from the graph's one link builder (no link for a source the
    check refuses), passed by the link policy the site's links pass."""
    if not anchor.is_file:
        return None
    first = anchor.ranges[0] if anchor.ranges else None
    return web_target(graph.evidence_url(anchor.source, anchor.path, first))
