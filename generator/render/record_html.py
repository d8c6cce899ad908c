"""A record as its page shows it, written straight to text: the heading (Markdown, for the
table of contents and the anchor) and raw HTML blocks for everything else.

The pages' templates call this for every record (``_blocks.md.j2``'s ``record`` macro):
a record is shown through a dozen small pieces (status line, fields, quotations,
amendments, evidence, backlinks), and written by Jinja macros those pieces cost a macro
call each, the bulk of a build's rendering. Here each piece is a string appended to one
list. What is printed is what the template printed: values go through the template
environment's own ``printed`` (already-safe Markdown or HTML passes, a plain string is
escaped as Markdown) or, inside raw HTML, through ``rawhtml.html_value``; the blank line
after each raw HTML block ends it for Python-Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from generator.model.fields import Shown, record_badges, record_fields
from generator.model.ids import anchor_of
from generator.render import rawhtml
from generator.render.environment import printed, record_texts, unlinked_evidence
from generator.render.inline_form import html_label, label
from generator.render.markdown import Md, heading
from generator.render.quote_html import quote_html
from generator.render.restated import without_restated_status

if TYPE_CHECKING:
    from markupsafe import Markup

    from generator.graph.system_graph import Place, SystemGraph
    from generator.render.badges import Badges
    from generator.render.flow import Flow
    from generator.render.text import Linker

html = rawhtml.html_value


def _joined(items: Iterable[Markup], separator: str) -> str:
    return separator.join(items)


class RecordPage(Protocol):
    """What the writer asks of the page it writes records for (``views.RecordPageView``)."""

    graph: SystemGraph
    html_linker: Linker
    html_badges: Badges

    def amendments_of(self, record_id: str, html: bool = False) -> list[tuple[Markup, Any]]: ...
    def kind_slug(self, record: Any) -> str: ...
    def progression_flow(self, text: str) -> Flow | None: ...
    def place_link(self, place: Place, html: bool = False) -> Markup: ...


class RecordWriter:
    """Writes the records of one page: its linkers, badges and backlinks are the page's."""

    def __init__(self, view: RecordPage) -> None:
        self.view = view
        self.graph = view.graph
        self.linker = view.html_linker
        self.badges = view.html_badges

    def __call__(self, record: Any, level: int = 4) -> Md:
        out: list[str] = []
        self._heading(out, record, level)
        amended = self.view.amendments_of(record.id, html=True)
        if amended:
            links = _joined((link for link, _ in amended), ", ")
            out.append(f'<div class="kb-amended">\n<p><strong>Amended:</strong> {links}</p>\n</div>\n\n')
        self._supersession(out, record.id)
        self._statuses(out, record)
        for item in record_fields(record):
            self._field(out, item)
        unlinked = unlinked_evidence(record)
        if unlinked:
            out.append(f'<p class="kb-unlinked"><strong>Evidence anchors:</strong> {html(unlinked)}</p>\n\n')
        text_linker = self.linker.citing(record.evidence)
        body = without_restated_status(record.body, record_badges(record)) if record.body else ""
        if body:
            out.append(f"{printed(text_linker.text(body))}\n\n")
        for item in record_fields(record, after_body=True):
            self._field(out, item)
        if record.remarks:
            out.append(f"{printed(text_linker.text(record.remarks))}\n\n")
        for quote in record.quotes:
            out.append(self.quote(quote) + "\n\n")
        for link, amendment in amended:
            self._reconciliation_amendment(out, link, amendment)
        for amendment in record.amendments:
            self._amendment(out, amendment)
        if record.part_of:
            out.append(f"<p><strong>Part of:</strong> {self.linker.ref(record.part_of)}</p>\n\n")
        self._relations(out, record)
        for guarantee in getattr(record, "guarantee", None) or ():
            self._guarantee(out, guarantee)
        # An anchor the record's text already shows (linked where its source's files are)
        # is not listed again.
        evidence = self.linker.evidence_not_in(
            record.evidence, [record.body, record.remarks], record_texts(record)
        )
        if evidence:
            anchors = _joined((self.linker.anchor(a) for a in evidence), "; ")
            out.append(
                f'<div class="kb-evidence">\n<p><strong>Evidence anchors:</strong> {anchors}</p>\n</div>\n\n'
            )
        self._backlinks(out, record.id)
        return Md("".join(out))

    def _heading(self, out: list[str], record: Any, level: int) -> None:
        shown = record.shown_label()
        title = f"{printed(record.id)}{f' — {printed(label(shown))}' if shown else ''}"
        classes = ["kb-record", f"kb-record--{self.view.kind_slug(record)}"]
        if record.standin_label():
            classes.append("kb-record--unlabelled")
        out.append(heading(level, Md(title), anchor_of(record.id), tuple(classes)) + "\n\n")

    def _supersession(self, out: list[str], record_id: str) -> None:
        by = self.graph.superseded_by(record_id)
        of = self.graph.supersedes(record_id)
        if not (by or of):
            return
        out.append('<div class="kb-supersession">\n')
        if by:
            links = _joined(map(self.linker.ref, by), ", ")
            out.append(f'<p class="kb-supersession__by"><strong>Superseded by</strong> {links}</p>\n')
        if of:
            links = _joined(map(self.linker.ref, of), ", ")
            out.append(f'<p class="kb-supersession__of"><strong>Supersedes</strong> {links}</p>\n')
        out.append("</div>\n\n")

    def _statuses(self, out: list[str], record: Any) -> None:
        badges = record_badges(record)
        if not badges:
            return
        parts = []
        for badge in badges:
            if badge.rendering in ("status", "vocab"):
                part = str(self.badges.status(badge.label, badge.value))
                if badge.qualifier:
                    qualifier = self.linker.inline(badge.qualifier)
                    part += f'{html(badge.separator)}<span class="kb-status-qualifier">{qualifier}</span>'
            else:
                part = str(self.badges.guarantee(badge.value))
            parts.append(part)
        out.append(f'<div class="kb-statuses">\n<p>{"; ".join(parts)}</p>\n</div>\n\n')

    def _shown_value(self, item: Shown) -> Markup:
        if item.rendering == "code":
            return rawhtml.code_span(item.value)
        if item.rendering == "vocab":
            return self.badges.vocab_link(item.value)
        return self.linker.inline(item.value)

    def _field(self, out: list[str], item: Shown) -> None:
        rendering = item.rendering
        if rendering == "text":
            self.text_field(out, item.label, item.value)
        elif rendering == "flow":
            self._flow_field(out, item.label, item.value)
        elif rendering in ("code", "vocab"):
            out.append(f"<p><strong>{html(item.label)}:</strong> {printed(self._shown_value(item))}</p>\n\n")
        elif rendering == "entries":
            for parts in item.value:
                shown = []
                for index, part in enumerate(parts):
                    joiner = html(part.joiner) if index else ""
                    name = f"<strong>{html(part.label)}:</strong> " if part.label else ""
                    shown.append(f"{joiner}{name}{printed(self._shown_value(part))}")
                out.append(f"<p>{''.join(shown)}</p>\n\n")
        elif rendering == "labelled-list":
            # A line per sub-field, with those the document wrote on its line after '; '.
            items = "".join(
                "<li>"
                + "; ".join(
                    f"<strong>{html(sub.label)}:</strong> {self.linker.cell(sub.value or '')}" for sub in line
                )
                + "</li>\n"
                for line in item.value
            )
            out.append(f"<ul>\n{items}</ul>\n\n")

    def text_field(self, out: list[str], name: str, value: str) -> None:
        """A labelled field of text: its first paragraph after the label, the others after it."""
        if not value:
            return
        paragraphs = self.linker.paragraphs(value) if "\n\n" in value else [self.linker.inline(value)]
        out.append(f"<p><strong>{html(name)}:</strong> {printed(paragraphs[0])}</p>\n")
        out.extend(f"<p>{printed(paragraph)}</p>\n" for paragraph in paragraphs[1:])
        out.append("\n")

    def _flow_field(self, out: list[str], name: str, value: str) -> None:
        # A progression whose arrows separate steps: the steps as boxes with the arrows as
        # written between them (render/flow.py); the steps are on one line, so the list's
        # text is the progression's, character for character.
        flow = self.view.progression_flow(value)
        if not flow:
            self.text_field(out, name, value)
            return
        lead = f" {printed(flow.lead)}" if flow.lead else ""
        steps = []
        for step in flow.steps:
            record = " kb-flow__step--record" if step.names_record else ""
            arrow = (
                f'{html(step.before)}<span class="kb-flow__arrow">{html(step.arrow)}</span>{html(step.after)}'
                if step.arrow
                else ""
            )
            box = f'<span class="kb-flow__box">{printed(step.html)}</span>'
            steps.append(f'<li class="kb-flow__step{record}">{box}{arrow}</li>')
        tail = f"<p>{printed(flow.tail)}</p>\n" if flow.tail else ""
        out.append(
            f'<div class="kb-flow-field">\n<p><strong>{html(name)}:</strong>{lead}</p>\n'
            f'<ol class="kb-flow">{"".join(steps)}</ol>\n{tail}</div>\n\n'
        )

    def quote(self, quote: Any, linker: Linker | None = None) -> rawhtml.Html:
        """A quotation as its source wrote it and its source, as one raw HTML block (no
        blank line after); its text is read with ``linker`` (the page's by default)."""
        shown = quote_html(linker or self.linker, quote)
        source = self.linker.quote_source(quote)
        return rawhtml.made_safe(
            f'<div class="kb-quote">\n{shown}\n'
            f'<p><span class="kb-quote__source">— {printed(source)}</span></p>\n</div>'
        )

    def _reconciliation_amendment(self, out: list[str], link: Markup, amendment: Any) -> None:
        out.append(
            '<div class="admonition note">\n<p class="admonition-title">Amended in the reconciliation</p>\n'
        )
        if amendment.body:
            out.append(f"{printed(self.linker.text(amendment.body))}\n")
        if amendment.replacement:
            out.append(f"<p><strong>Replacement:</strong> {self.linker.inline(amendment.replacement)}</p>\n")
        out.append(f"<p><strong>See:</strong> {printed(link)}</p>\n</div>\n\n")

    def _amendment(self, out: list[str], amendment: Any) -> None:
        title = f": {printed(html_label(amendment.label))}" if amendment.label else ""
        out.append(f'<div class="admonition note">\n<p class="admonition-title">Amendment{title}</p>\n')
        if amendment.body:
            out.append(f"{printed(self.linker.text(amendment.body))}\n")
        if amendment.superseded:
            out.append(f"<p><strong>Superseded:</strong> {self.linker.inline(amendment.superseded)}</p>\n")
        if amendment.replacement:
            out.append(f"<p><strong>Replacement:</strong> {self.linker.inline(amendment.replacement)}</p>\n")
        if amendment.affects:
            refs = _joined(map(self.linker.ref, amendment.affects), ", ")
            out.append(f"<p><strong>Affected findings:</strong> {refs}</p>\n")
        if amendment.evidence:
            anchors = _joined(map(self.linker.anchor, amendment.evidence), "; ")
            out.append(f"<p><strong>Evidence:</strong> {anchors}</p>\n")
        out.append("</div>\n\n")

    def _relations(self, out: list[str], record: Any) -> None:
        if not hasattr(record, "alternative_to"):
            return
        for name, refs in (
            ("Reads", record.reads),
            ("Writes", record.writes),
            ("Alternative to", record.alternative_to),
        ):
            if refs:
                out.append(
                    f"<p><strong>{html(name)}:</strong> {_joined(map(self.linker.ref, refs), ', ')}</p>\n\n"
                )

    def _guarantee(self, out: list[str], guarantee: Any) -> None:
        if not (guarantee.owner or guarantee.point or guarantee.contract):
            return
        parts = []
        if guarantee.owner:
            parts.append(f"owner: {self.linker.inline(guarantee.owner)}")
        if guarantee.point:
            parts.append(f"guarantee point: {self.linker.inline(guarantee.point)}")
        if guarantee.contract:
            parts.append(f"required contract: {self.linker.inline(guarantee.contract)}")
        strength = html(guarantee.strength.value)
        out.append(f"<p><strong>Guarantee ({strength}):</strong> {'; '.join(parts)}</p>\n\n")

    def _backlinks(self, out: list[str], record_id: str) -> None:
        places = self.graph.cited_by(record_id)
        if places:
            place_link: Callable[..., Markup] = self.view.place_link
            links = _joined((place_link(place, html=True) for place in places), ", ")
            out.append(
                f'<div class="kb-backlinks">\n<p><strong>Referenced by:</strong> {links}</p>\n</div>\n\n'
            )
