"""What every record page's view shares: the ``RecordPageView`` (linkers, badges,
backlinks, unplaced records, section anchors, the template's context) and the helpers the
system pages (``pages.py``) and the set's member pages (``set_pages.py``) both use.

A new page type builds on these public names; nothing here knows which pages exist.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from generator.model.ids import kind_of, sort_key
from generator.model.kinds import kind_names, list_kinds
from generator.model.prose import (
    ROW_TYPES,
    GenericTable,
)
from generator.model.records import LIMITATION_COLUMNS, RecordBase, Source
from generator.model.sets import SetAmendment
from generator.model.walk import collect
from generator.render import rawhtml, urls
from generator.render.badges import Badges
from generator.render.flow import Flow, progression_flow
from generator.render.inline_form import html_label, label
from generator.render.link_markup import html_link, link
from generator.render.profile import profile_context
from generator.render.record_html import RecordWriter
from generator.render.registry import (
    RECONCILIATION_PAGE,
    page_spec,
)
from generator.render.text import Linker
from generator.render.urls import slugify

if TYPE_CHECKING:
    from generator.graph.system_graph import Place, SystemGraph


# The column a table's rows are read for, by table: shown second, right after the column
# that names the row (which stays in view as the table scrolls), so a phone shows both
# without scrolling; as the model declares them it would come last, off the screen.
KEY_COLUMNS: dict[str, str] = {"claim-comparison": "conclusion", "limitations": "prevents"}
# The same columns in a table the document wrote in the generic form, by header.
KEY_HEADERS = ("supported conclusion", "conclusion prevented")


def _key_header(headers: list[str]) -> str | None:
    return next((h for h in headers if h.strip().lower().startswith(KEY_HEADERS)), None)


def key_first(names: list[str], key: str | None) -> list[int]:
    """The positions of ``names`` in the order shown: the first, then ``key``, then the rest."""
    order = list(range(len(names)))
    if key in names and names.index(key) > 1:
        order.remove(names.index(key))
        order.insert(1, names.index(key))
    return order


def _table_columns(linker: Linker, table: Any) -> dict[str, list[Any]]:
    """Headers and cells of a typed or generic table (typed tables are built at run time),
    in the linker's form (Markdown or HTML)."""
    escape_text = linker.form.escape
    if isinstance(table, GenericTable):
        columns = list(table.columns)
        order = key_first(columns, _key_header(columns))
        width = len(columns)
        rows = [[linker.cell(cell) for cell in row] for row in table.rows]
        rows = [row + [linker.form.safe("")] * (width - len(row)) for row in rows]
        return {
            "headers": [escape_text(columns[at]) for at in order],
            "rows": [[row[at] for at in order] + row[width:] for row in rows],
        }
    row_type = ROW_TYPES[table.kind]
    names = list(row_type.COLUMNS)
    order = key_first(names, KEY_COLUMNS.get(table.kind))
    cells = []
    for row in table.rows:
        # Provenance tags are not references: formatted as written (a tag in backticks is
        # code), never linked.
        cells.append(
            [
                (html_label if linker.html else label)(getattr(row, names[at]))
                if names[at] in row_type.PROVENANCE_FIELDS
                else linker.cell(getattr(row, names[at]))
                for at in order
            ]
        )
    # The headers as the document wrote them, else the row type's titles.
    headers = table.headers or list(row_type.COLUMNS.values())
    return {"headers": [escape_text(headers[at]) for at in order], "rows": cells}


def _limitations_table(graph: SystemGraph, linker: Linker, headers: list[str] | None = None) -> rawhtml.Html:
    """The system's limitations as a table in a raw HTML block (empty without limitations),
    headed as the document wrote its table (``headers``), else by the page's titles."""
    if not graph.system.limitations:
        return rawhtml.Html("")
    names = list(LIMITATION_COLUMNS)
    order = key_first(names, KEY_COLUMNS["limitations"])
    rows = [[linker.cell(getattr(lim, names[at]) or "") for at in order] for lim in graph.system.limitations]
    titles = headers or list(LIMITATION_COLUMNS.values())
    return rawhtml.table([rawhtml.escape(titles[at]) for at in order], rows)


class RecordPageView:
    """The template context shared by the pages of one system: a linker, badges, backlinks
    and the records this page publishes. A page's view builder adds its own values."""

    def __init__(self, graph: SystemGraph, page: str, doc: Any = None) -> None:
        self.graph = graph
        self.page = page
        self.doc = doc
        self.linker = Linker(graph, page)
        self.html_linker = Linker(graph, page, html=True)  # for raw HTML blocks
        self.badges = Badges(self.linker.path)
        self.html_badges = Badges(self.linker.path, html=True)
        self._place_links: dict[tuple[Place, bool], Markup] = {}
        shared = getattr(doc, "shared_records", None)
        self._placed = (
            {ref for _, block in collect(shared).placements for ref in block.records}
            if shared is not None
            else set()
        )

    def place_label(self, place: Place) -> str:
        """A backlink's text: the record ID, or the section title and, elsewhere, its page."""
        if self.graph.record(place.title) is not None or place.page == self.page:
            return place.title
        return f"{place.title} ({self.page_title(place.page)})"

    def place_link(self, place: Place, html: bool = False) -> Markup:
        """A backlink: the place's label linking to its anchor (in HTML for a raw HTML block).

        Remembered per page: a section that cites many records is in each one's
        "Referenced by" line."""
        key = (place, html)
        written = self._place_links.get(key)
        if written is None:
            if html:
                written = html_link(self.place_label(place), self.html_linker.place_href(place))
            else:
                written = link(self.place_label(place), self.linker.place_href(place))
            self._place_links[key] = written
        return written

    @staticmethod
    def page_title(page: str) -> str:
        """How a page of the system is named in running text ("memory report")."""
        return page_spec(page).label

    def home_link(self, text: str, anchor: str, html: bool = False) -> Markup:
        """A link to a section of the system's home page (in HTML for a raw HTML block)."""
        home = urls.page_path(self.graph.home_page, self.graph.slug)
        if html:
            return html_link(text, urls.url_file_href(self.linker.path, home, anchor))
        return link(text, urls.file_href(self.linker.path, home, anchor))

    def kind_count(self, list_key: str) -> int:
        """Records of a kind in the system (in a set: declared by this page's member)."""
        records = self.graph.records_of_kind(list_kinds()[list_key])
        if not self.graph.records_on_member_pages:
            return len(records)
        return sum(1 for record in records if self.graph.page_of(record.id) == self.page)

    def amendments_of(self, record_id: str, html: bool = False) -> list[tuple[Markup, SetAmendment]]:
        """The reconciliation's amendments of a record: (link to the amendment, amendment),
        the link in HTML for a raw HTML block."""
        path = urls.page_path(RECONCILIATION_PAGE, self.graph.slug)
        text = f"Amendment: {record_id}"
        return [
            (
                html_link(text, urls.url_file_href(self.linker.path, path, anchor))
                if html
                else link(text, urls.file_href(self.linker.path, path, anchor)),
                amendment,
            )
            for anchor, amendment in self.graph.amendments_of(record_id)
        ]

    def progression_flow(self, text: str) -> Flow | None:
        """A progression as a flow of linked steps for a raw HTML block, or None."""
        return progression_flow(self.html_linker, text)

    def unplaced(self, list_key: str, _kind_section: object = None) -> list[RecordBase]:
        """Records of a kind nobody placed: published on their home page only, in ID order
        (so the page does not depend on how the records are split into files)."""
        if self.doc is None or (not self.graph.records_on_member_pages and self.page != self.graph.home_page):
            return []
        return sorted(
            (
                record
                for record in self.graph.records_of_kind(list_kinds()[list_key])
                if record.id not in self._placed and self.graph.page_of(record.id) == self.page
            ),
            key=lambda record: sort_key(record.id),
        )

    def table_columns(self, table: Any, html: bool = False) -> dict[str, list[Any]]:
        return _table_columns(self.html_linker if html else self.linker, table)

    def included(self, relative: str) -> str:
        return self.graph.system.prose[relative]

    @staticmethod
    def kind_slug(record: RecordBase) -> str:
        return slugify(kind_names()[kind_of(record.id)][0])  # type: ignore[index]

    def section_anchor(self, section: Any, default_title: str | None = None) -> str:
        """A prose section's anchor, as the graph allocated it for its page (so backlinks
        to it land on it); a section the graph did not see gets its title's slug."""
        anchor = self.graph.section_anchor(section)
        return anchor if anchor is not None else slugify((section.title or default_title or "").strip())

    def context(self) -> dict[str, Any]:
        """The names the shared template macros (``_blocks.md.j2``) use."""
        return {
            "section_anchor": self.section_anchor,
            "linker": self.linker,  # record text → Markdown (headings)
            "html_linker": self.html_linker,  # record text → HTML (raw HTML blocks)
            "html_badges": self.html_badges,
            "graph": self.graph,
            "place_link": self.place_link,
            "kind_count": self.kind_count,
            "page_title": self.page_title,
            "home_link": self.home_link,
            "table_columns": self.table_columns,
            "status_badge": self.badges.status,
            "epistemic_badge": self.badges.vocab_link,
            "guarantee_badge": self.badges.guarantee,
            "vocab_link": self.badges.vocab_link,
            "kind_slug": self.kind_slug,
            "included": self.included,
            "unplaced": self.unplaced,
            "limitations_table": _limitations_table(
                self.graph, self.html_linker, getattr(getattr(self.doc, "limitations", None), "headers", None)
            ),
            "amendments_of": self.amendments_of,
            "progression_flow": self.progression_flow,
            "member_page": self.graph.records_on_member_pages,
            "record_html": RecordWriter(self),
            **profile_context(self.linker, self.badges),
        }


def theme_text(text: str) -> str:
    """A frontmatter value a theme prints: every engine's Material templates print the
    title into ``<title>`` and the nav and the description into ``<meta content="…">``,
    all unescaped, so the value arrives HTML-escaped with its quotes (text in an element
    and in an attribute alike, shown as written)."""
    return html.escape(text, quote=True)


def sources_of(graph: SystemGraph) -> list[Source]:
    return sorted(
        (r for r in graph.system.records if isinstance(r, Source)),
        key=lambda r: sort_key(r.id),
    )


def system_name(graph: SystemGraph) -> str:
    run = graph.system.run
    return run.system if run else graph.slug


def reviewed_source_identity(graph: SystemGraph) -> str | None:
    """The stable identity of the source the run reviewed (its reviewed boundary's source):
    the repository or capture location, as a review's ``source-identity`` names it."""
    run = graph.system.run
    source = graph.source(run.reviewed_boundary.source) if run and run.reviewed_boundary else None
    return str(source.location) if source is not None and source.location else None


def evidence_basis(graph: SystemGraph, linker: Linker) -> rawhtml.Html:
    """One line of raw HTML (the HTML ``linker``): tier, source identity, revision and cutoff."""
    run = graph.system.run
    if run is None:
        return rawhtml.Html("not stated.")
    esc = rawhtml.escape
    line = f"{esc(run.evidence_tier.value)} analysis" if run.evidence_tier else "Analysis"
    if run.reviewed_boundary:
        source = graph.source(run.reviewed_boundary.source)
        where = str(linker.ref(run.reviewed_boundary.source))
        if source is not None and source.location is not None:
            where = f"{where} ({esc(str(source.location))})"
        line += f" of {where} at revision {rawhtml.code_span(run.reviewed_boundary.revision)}"
    if run.analysis_cutoff:
        line += f", analysis cutoff {run.analysis_cutoff.isoformat()}"
    return rawhtml.Html(line + ".")
