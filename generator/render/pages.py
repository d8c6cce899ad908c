"""The pages of one system: their view builders and ``render_system``.

Which pages a system has, where they live and what they are called comes from the
page registry (``registry.py``, built-ins in ``builtin_pages.py``); each page's
template context is built by its view builder from a ``PageRequest``. Output is
deterministic: sorted inputs, ``\\n`` line endings, no clock time.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from generator.model.ids import ID_IN_TEXT, KIND_NAMES, LIST_KINDS, kind_of, sort_key
from generator.model.prose import (
    MEMORY_REPORT_SECTION_TITLES,
    RESULT_SECTION_TITLES,
    ROW_TYPES,
    GenericTable,
)
from generator.model.records import RecordBase, Route, Source
from generator.model.walk import collect
from generator.render import rawhtml, urls
from generator.render.badges import Badges
from generator.render.environment import frontmatter, render
from generator.render.links import html_link, link
from generator.render.profile import profile_context
from generator.render.registry import (
    RECONCILIATION_PAGE,
    RESULT_PAGE,
    PageRequest,
    PageSpec,
    page_spec,
    system_pages,
)
from generator.render.summary import artifacts_of, counts_of
from generator.render.text import Linker, Md, code_span
from generator.render.urls import slugify

if TYPE_CHECKING:
    from generator.graph.system_graph import Place, SystemGraph


def _table_columns(linker: Linker, table: Any) -> dict[str, list[Any]]:
    """Headers and cells of a typed or generic table (typed tables are built at run time),
    in the linker's form (Markdown or HTML)."""
    escape_text = linker.form.escape
    if isinstance(table, GenericTable):
        headers = [escape_text(c) for c in table.columns]
        width = len(headers)
        rows = [[linker.cell(cell) for cell in row] for row in table.rows]
        return {
            "headers": headers,
            "rows": [row + [linker.form.safe("")] * (width - len(row)) for row in rows],
        }
    row_type = ROW_TYPES[table.kind]
    cells = []
    for row in table.rows:
        # Provenance tags are not references: keep them literal.
        cells.append(
            [
                escape_text(getattr(row, name))
                if name in row_type.PROVENANCE_FIELDS
                else linker.cell(getattr(row, name))
                for name in row_type.COLUMNS
            ]
        )
    return {"headers": [escape_text(h) for h in row_type.COLUMNS.values()], "rows": cells}


_LIMITATION_COLUMNS = (
    "Limitation",
    "Affected records",
    "Inspected boundary",
    "Conclusion prevented",
    "Resolving evidence",
)


def _limitations_table(graph: SystemGraph, linker: Linker) -> rawhtml.Html:
    """The system's limitations as a table in a raw HTML block (empty without limitations)."""
    if not graph.system.limitations:
        return rawhtml.Html("")
    rows = [
        [
            linker.cell(value or "")
            for value in (
                lim.title,
                lim.affected,
                lim.inspected_boundary,
                lim.prevents,
                lim.resolving_evidence,
            )
        ]
        for lim in graph.system.limitations
    ]
    return rawhtml.table([rawhtml.escape(title) for title in _LIMITATION_COLUMNS], rows)


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
        if place.title in self.graph.records or place.page == self.page:
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
        kind = LIST_KINDS[list_key]
        return sum(
            1
            for record in self.graph.system.records
            if kind_of(record.id) is kind
            and (not self.graph.record_pages or self.graph.page_of(record.id) == self.page)
        )

    def amendments_of(self, record_id: str, html: bool = False) -> list[tuple[Markup, Any]]:
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
            for anchor, amendment in self.graph.amended.get(record_id, [])
        ]

    def unplaced(self, list_key: str, _kind_section: object = None) -> list[RecordBase]:
        """Records of a kind nobody placed: published on their home page only, in ID order
        (so the page does not depend on how the records are split into files)."""
        if self.doc is None or (not self.graph.record_pages and self.page != self.graph.home_page):
            return []
        kind = LIST_KINDS[list_key]
        return sorted(
            (
                record
                for record in self.graph.system.records
                if kind_of(record.id) is kind
                and record.id not in self._placed
                and self.graph.page_of(record.id) == self.page
            ),
            key=lambda record: sort_key(record.id),
        )

    def table_columns(self, table: Any, html: bool = False) -> dict[str, list[Any]]:
        return _table_columns(self.html_linker if html else self.linker, table)

    def included(self, relative: str) -> str:
        return self.graph.system.prose[relative]

    @staticmethod
    def kind_slug(record: RecordBase) -> str:
        return slugify(KIND_NAMES[kind_of(record.id)][0])  # type: ignore[index]

    def section_anchor(self, section: Any, default_title: str | None = None) -> str:
        """A prose section's anchor, as the graph allocated it for its page (so backlinks
        to it land on it); a section the graph did not see gets its title's slug."""
        anchor = self.graph.section_anchors.get(id(section))
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
            "limitations_table": _limitations_table(self.graph, self.html_linker),
            "amendments_of": self.amendments_of,
            "member_page": bool(self.graph.record_pages),
            **profile_context(self.linker, self.badges),
        }


def _run_frontmatter(graph: SystemGraph, type_name: str, extra: dict[str, Any] | None = None) -> Md:
    run = graph.system.run
    values: dict[str, Any] = {"type": type_name, "system": run.system if run else graph.slug}
    if run is not None:
        values["run-id"] = run.run_id
        values["disposition"] = run.disposition.value if run.disposition else None
        values["boundary-kind"] = run.boundary_kind.value if run.boundary_kind else None
        values["evidence-tier"] = run.evidence_tier.value if run.evidence_tier else None
        if run.reviewed_boundary:
            values["source-revision"] = run.reviewed_boundary.revision
    values.update(extra or {})
    values["render_macros"] = False
    return frontmatter(values)


def _title(text: str) -> str:
    """A page title for the frontmatter: the theme prints it into <title> and the nav unescaped."""
    return html.escape(text, quote=False)


def _diagram(graph: SystemGraph) -> Md | None:
    """Routes and their structured relations only: owner, reads, writes, part of,
    alternative to. An object merely mentioned in a route's prose draws no edge."""
    routes = [record for record in graph.system.records if isinstance(record, Route)]
    if not routes:
        return None
    lines = ["flowchart LR"]
    route_ids = {route.id for route in routes}
    for route in sorted(routes, key=lambda r: sort_key(r.id)):
        node = _mermaid_id(route.id)
        lines.append(f'  {node}(["{route.id}"])')
        for label, target in _relations(graph, route):
            arrow = "-.->" if label == "alternative to" else "-->"
            # A route keeps the shape of its own declaration; other records are boxes.
            shape = "" if target in route_ids else f'["{target}"]'
            lines.append(f"  {node} {arrow}|{label}| {_mermaid_id(target)}{shape}")
    return Md("```mermaid\n" + "\n".join(lines) + "\n```")


def _relations(graph: SystemGraph, route: Route) -> list[tuple[str, str]]:
    """(label, target ID) of each structured relation of a route to a declared record."""
    owners = [graph.resolve(m.group(0)) for m in ID_IN_TEXT.finditer(route.owner or "")]
    found = [("owner", owner) for owner in owners if owner is not None]
    found += [("reads", target) for target in route.reads]
    found += [("writes", target) for target in route.writes]
    found += [("part of", route.part_of)] if route.part_of else []
    found += [("alternative to", target) for target in route.alternative_to]
    declared = graph.declared
    return list(dict.fromkeys((label, target) for label, target in found if target in declared))


def _mermaid_id(record_id: str) -> str:
    return "n_" + "".join(ch if ch.isalnum() else "_" for ch in record_id)


def _sources(graph: SystemGraph) -> list[Source]:
    return sorted(
        (r for r in graph.system.records if isinstance(r, Source)),
        key=lambda r: sort_key(r.id),
    )


def _system_name(graph: SystemGraph) -> str:
    run = graph.system.run
    return run.system if run else graph.slug


def result_view(request: PageRequest) -> dict[str, Any]:
    """The result page: every section of the result, records on their home page."""
    graph = request.graph
    result = graph.system.result
    assert result is not None
    return {
        **RecordPageView(graph, request.spec.key, result).context(),
        "doc": result,
        "run": graph.system.run,
        "section_titles": RESULT_SECTION_TITLES,
        "sources": _sources(graph),
        "frontmatter": _run_frontmatter(graph, result.type, {"title": _title(result.title)}),
    }


def review_view(request: PageRequest) -> dict[str, Any]:
    """The review: a projection of the result page, pinned by the SHA-256 of its Markdown;
    of a set without a result, a projection of the overview pinning the manifest."""
    graph = request.graph
    result = graph.system.result
    if result is None:
        from generator.render.set_pages import set_review_view  # the set pages build on this module

        return set_review_view(request)
    view = RecordPageView(graph, request.spec.key, result)
    result_path = urls.page_path(RESULT_PAGE, graph.slug)
    result_sha256 = hashlib.sha256(request.rendered[result_path].encode("utf-8")).hexdigest()
    title = f"{_system_name(graph)} — review"
    projected_from = urls.file_href(request.path, result_path)
    return {
        **view.context(),
        "doc": result,
        "title": title,
        "evidence_basis": _evidence_basis(graph, view.html_linker),
        "result_sha256": result_sha256,
        "result_href": projected_from,
        "frontmatter": _run_frontmatter(
            graph,
            request.spec.type_name or "",
            {"title": _title(title), "projected-from": projected_from, "result-sha256": result_sha256},
        ),
    }


def annotations_on(graph: SystemGraph, page: str) -> list[Any]:
    """The annotations published on a page of the system."""
    return [a for a in graph.system.annotations if graph.annotation_page_of(a) == page]


def memory_report_view(request: PageRequest) -> dict[str, Any]:
    """The memory report: its sections; records too when it is the home page."""
    graph = request.graph
    report = graph.system.memory_report
    assert report is not None
    is_home = graph.home_page == request.spec.key
    return {
        **RecordPageView(graph, request.spec.key, report).context(),
        "doc": report,
        "section_titles": MEMORY_REPORT_SECTION_TITLES,
        "sources": _sources(graph) if is_home else [],
        "annotations": [
            a for a in graph.system.annotations if graph.annotation_page_of(a) == request.spec.key
        ],
        "is_home": is_home,
        "frontmatter": _run_frontmatter(
            graph,
            report.type,
            {
                "title": _title(report.title),
                **({"report-status": report.report_status} if report.report_status else {}),
            },
        ),
    }


def system_view(request: PageRequest) -> dict[str, Any]:
    """The system page: run, artifacts, counts, route diagram; the records when no other page
    holds them."""
    graph = request.graph
    system = graph.system
    page = request.spec.key
    view = RecordPageView(graph, page)
    return {
        **view.context(),
        "run": system.run,
        "artifacts": [
            {"title": a.title, "href": urls.href(request.path, a.path), "note": a.note}
            for a in artifacts_of(graph)
        ],
        "counts": counts_of(graph),
        "diagram": _diagram(graph),
        "supplied": sorted(system.supplied, key=lambda s: sort_key(s.id)),
        "records_by_kind": _records_by_kind(graph) if graph.home_page == page else [],
        "limitations": graph.home_page == page and bool(system.limitations),
        "annotations": system.annotations if graph.annotation_page == page else [],
        "revision_link": _revision_link(graph),
        **_set_summary(graph, request.path),
        "frontmatter": _run_frontmatter(
            graph, request.spec.type_name or "", {"title": _title(_system_name(graph))}
        ),
    }


def _set_summary(graph: SystemGraph, path: str) -> dict[str, Any]:
    """The system page's list of set members with their digests (empty for other systems)."""
    if graph.system.analysis_set is None:
        return {"set_members": []}
    from generator.model.set_manifest import manifest_digest
    from generator.render.set_pages import set_members_view  # the set pages build on this module

    return {"set_members": set_members_view(graph, path), "manifest_sha256": manifest_digest(graph.system)}


def render_page(spec: PageSpec, path: str, graphs: Sequence[SystemGraph], rendered: Mapping[str, str]) -> str:
    """One page: its spec's view builder makes the context its template is rendered with."""
    return render(spec.template, spec.view(PageRequest(spec, path, graphs, rendered)))


def render_system(graph: SystemGraph) -> dict[str, str]:
    """All pages of one system (path → Markdown), in registry order."""
    pages: dict[str, str] = {}
    for spec in system_pages(graph.system):
        path = urls.page_path(spec.key, graph.slug)
        pages[path] = render_page(spec, path, (graph,), pages)
    return pages


def _records_by_kind(graph: SystemGraph) -> list[tuple[str, list[RecordBase]]]:
    """All records, grouped by kind in ID order, for a system with no result or report."""
    groups = []
    for kind in LIST_KINDS.values():
        records = sorted(
            (r for r in graph.system.records if kind_of(r.id) is kind), key=lambda r: sort_key(r.id)
        )
        if records:
            groups.append((KIND_NAMES[kind][1].capitalize(), records))
    return groups


def _revision_link(graph: SystemGraph) -> Md:
    run = graph.system.run
    if run is None or run.reviewed_boundary is None:
        return Md("")
    boundary = run.reviewed_boundary
    return link(code_span(boundary.revision), graph.revision_url(boundary.source, boundary.revision))


def _evidence_basis(graph: SystemGraph, linker: Linker) -> rawhtml.Html:
    """One line of raw HTML (the HTML ``linker``): tier, source identity, revision and cutoff."""
    run = graph.system.run
    if run is None:
        return rawhtml.Html("not stated.")
    esc = rawhtml.escape
    line = f"{esc(run.evidence_tier.value)} analysis" if run.evidence_tier else "Analysis"
    if run.reviewed_boundary:
        source = graph.sources.get(run.reviewed_boundary.source)
        where = str(linker.ref(run.reviewed_boundary.source))
        if source is not None and source.location is not None:
            where = f"{where} ({esc(str(source.location))})"
        line += f" of {where} at revision {rawhtml.code_span(run.reviewed_boundary.revision)}"
    if run.analysis_cutoff:
        line += f", analysis cutoff {run.analysis_cutoff.isoformat()}"
    return rawhtml.Html(line + ".")
