"""Render stage: resolved graphs → Markdown pages (path → text), from Jinja2 templates.

Pages of one system live side by side in ``systems/<slug>/``; cross-system pages sit
in ``systems/`` and at the top. Output is deterministic: sorted inputs, ``\\n`` line
endings, no clock time.
"""

from __future__ import annotations

import hashlib
import html
from typing import Any

from ..link import PAGE_INDEX, PAGE_MEMORY, PAGE_RESULT, PAGE_REVIEW, Place, SystemGraph, slugify
from ..model.ids import KIND_NAMES, LIST_KINDS, RecordKind, kind_of, sort_key
from ..model.prose import (
    MEMORY_REPORT_SECTION_TITLES,
    RESULT_SECTION_TITLES,
    ROW_TYPES,
    GenericTable,
)
from ..model.records import RecordBase, Route, Source
from ..model.walk import collect
from .badges import Badges
from .environment import frontmatter, render
from .links import link
from .summary import artifacts_of, counts_of
from .text import Linker, Md, code_span, escape

PAGE_TITLES = {
    PAGE_INDEX: "system page",
    PAGE_RESULT: "result",
    PAGE_MEMORY: "memory report",
    PAGE_REVIEW: "review",
}
RESULT_TYPE_DEFAULT = "kb/types/agentic-system-analysis-result.md"
REVIEW_TYPE = "kb/types/agentic-system-review.md"
SYSTEM_TYPE = "kb/types/agentic-system.md"


def _table_columns(linker: Linker) -> Any:
    def columns(table: Any) -> dict[str, Any]:
        if isinstance(table, GenericTable):
            headers = [escape(c) for c in table.columns]
            rows = [[linker.cell(cell) for cell in row] for row in table.rows]
            width = len(headers)
            rows = [row + [Md("")] * (width - len(row)) for row in rows]
            return {"headers": headers, "rows": rows}
        row_type = ROW_TYPES[table.kind]
        headers = [escape(h) for h in row_type.COLUMNS.values()]
        rows = []
        for row in table.rows:
            cells = []
            for name in row_type.COLUMNS:
                value = getattr(row, name)
                # Provenance tags are not references: keep them literal.
                cells.append(escape(value) if name in row_type.PROVENANCE_FIELDS else linker.cell(value))
            rows.append(cells)
        return {"headers": headers, "rows": rows}

    return columns


def _limitations_table(graph: SystemGraph, linker: Linker) -> Md:
    if not graph.system.limitations:
        return Md("")
    header = (
        "| Limitation | Affected records | Inspected boundary | Conclusion prevented | Resolving evidence |\n"
    )
    header += "| --- | --- | --- | --- | --- |\n"
    rows = [
        "| "
        + " | ".join(
            linker.cell(value or "")
            for value in (
                lim.title,
                lim.affected,
                lim.inspected_boundary,
                lim.prevents,
                lim.resolving_evidence,
            )
        )
        + " |"
        for lim in graph.system.limitations
    ]
    return Md(header + "\n".join(rows) + "\n")


class _PageContext:
    """Builds the template context for one page of one system."""

    def __init__(self, graph: SystemGraph, page: str) -> None:
        self.graph = graph
        self.page = page
        self.linker = Linker(graph, page)
        self.badges = Badges("../../glossary.md")

    def place_label(self, place: Place) -> str:
        """A backlink's text: the record ID, or the section title and, elsewhere, its page."""
        if place.title in self.graph.records or place.page == self.page:
            return place.title
        return f"{place.title} ({PAGE_TITLES[place.page]})"

    def place_link(self, place: Place) -> Md:
        """A backlink: the place's label linking to its anchor."""
        href = f"#{place.anchor}" if place.page == self.page else f"{place.page}.md#{place.anchor}"
        return link(self.place_label(place), href)

    def unplaced(self, doc: Any) -> Any:
        placed = {ref for _, block in collect(doc.shared_records).placements for ref in block.records}

        def records_for(section_key: str, _kind_section: Any) -> list[RecordBase]:
            # Records nobody placed are published on their home page only, in ID order
            # (so the page does not depend on how the records are split into files).
            if self.page != self.graph.home_page:
                return []
            kind = LIST_KINDS[section_key]
            return sorted(
                (
                    record
                    for record in self.graph.system.records
                    if kind_of(record.id) is kind and record.id not in placed
                ),
                key=lambda record: sort_key(record.id),
            )

        return records_for

    def included(self, relative: str) -> str:
        return self.graph.system.prose[relative]

    def base(self, doc: Any = None) -> dict[str, Any]:
        context: dict[str, Any] = {
            "t": self.linker,
            "graph": self.graph,
            "place_link": self.place_link,
            "kind_count": lambda key: sum(
                1 for record in self.graph.system.records if kind_of(record.id) is LIST_KINDS[key]
            ),
            "page_title": lambda page: PAGE_TITLES[page],
            "home_link": lambda text, anchor: link(text, f"{self.graph.home_page}.md#{anchor}"),
            "table_columns": _table_columns(self.linker),
            "status_badge": self.badges.status,
            "epistemic_badge": self.badges.vocab_link,
            "guarantee_badge": self.badges.guarantee,
            "vocab_link": self.badges.vocab_link,
            "kind_slug": lambda record: slugify(KIND_NAMES[kind_of(record.id)][0]),  # type: ignore[index]
            "included": self.included,
            "unplaced": self.unplaced(doc) if doc is not None else (lambda *_: []),
            "limitations_table": _limitations_table(self.graph, self.linker),
        }
        return context


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
    routes = [record for record in graph.system.records if isinstance(record, Route)]
    if not routes:
        return None
    lines = ["flowchart LR"]
    for route in sorted(routes, key=lambda r: sort_key(r.id)):
        node = _mermaid_id(route.id)
        lines.append(f'  {node}(["{route.id}"])')
        targets = [
            target
            for target in graph.cites.get(route.id, [])
            if kind_of(target) in (RecordKind.COMPONENT, RecordKind.OBJECT)
        ]
        for target in targets:
            lines.append(f'  {node} --> {_mermaid_id(target)}["{target}"]')
    return Md("```mermaid\n" + "\n".join(lines) + "\n```")


def _mermaid_id(record_id: str) -> str:
    return "n_" + "".join(ch if ch.isalnum() else "_" for ch in record_id)


def render_system(graph: SystemGraph) -> dict[str, str]:
    """All pages of one system: path → Markdown."""
    pages: dict[str, str] = {}
    base = f"systems/{graph.slug}"
    system = graph.system
    sources = sorted(
        (r for r in system.records if isinstance(r, Source)),
        key=lambda r: sort_key(r.id),
    )
    if system.result is not None:
        ctx = _PageContext(graph, PAGE_RESULT)
        result_md = render(
            "result.md.j2",
            ctx.base(system.result),
            doc=system.result,
            section_titles=RESULT_SECTION_TITLES,
            sources=sources,
            frontmatter=_run_frontmatter(graph, system.result.type, {"title": _title(system.result.title)}),
        )
        pages[f"{base}/result.md"] = result_md
        review_ctx = _PageContext(graph, PAGE_REVIEW)
        pages[f"{base}/review.md"] = render(
            "review.md.j2",
            review_ctx.base(system.result),
            doc=system.result,
            title=f"{system.run.system if system.run else graph.slug} — review",
            evidence_basis=_evidence_basis(graph, review_ctx.linker),
            result_sha256=hashlib.sha256(result_md.encode("utf-8")).hexdigest(),
            frontmatter=_run_frontmatter(
                graph,
                REVIEW_TYPE,
                {
                    "title": _title(f"{system.run.system if system.run else graph.slug} — review"),
                    "projected-from": "result.md",
                    "result-sha256": hashlib.sha256(result_md.encode("utf-8")).hexdigest(),
                },
            ),
        )
    if system.memory_report is not None:
        ctx = _PageContext(graph, PAGE_MEMORY)
        pages[f"{base}/memory-report.md"] = render(
            "memory-report.md.j2",
            ctx.base(system.memory_report),
            doc=system.memory_report,
            section_titles=MEMORY_REPORT_SECTION_TITLES,
            sources=sources if graph.home_page == PAGE_MEMORY else [],
            annotations=system.annotations,
            frontmatter=_run_frontmatter(
                graph, system.memory_report.type, {"title": _title(system.memory_report.title)}
            ),
        )
    ctx = _PageContext(graph, PAGE_INDEX)
    run = system.run
    pages[f"{base}/index.md"] = render(
        "system.md.j2",
        ctx.base(),
        run=run,
        artifacts=artifacts_of(graph),
        counts=counts_of(graph),
        diagram=_diagram(graph),
        supplied=sorted(system.supplied, key=lambda s: sort_key(s.id)),
        records_by_kind=_records_by_kind(graph) if graph.home_page == PAGE_INDEX else [],
        limitations=graph.home_page == PAGE_INDEX and bool(system.limitations),
        annotations=system.annotations if graph.annotation_page == PAGE_INDEX else [],
        revision_link=_revision_link(graph),
        frontmatter=_run_frontmatter(
            graph, SYSTEM_TYPE, {"title": _title(run.system if run else graph.slug)}
        ),
    )
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


def _evidence_basis(graph: SystemGraph, linker: Linker) -> Md:
    """One line: tier, source identity, revision and cutoff."""
    run = graph.system.run
    if run is None:
        return Md("not stated.")
    tier = f"{escape(run.evidence_tier.value)} analysis" if run.evidence_tier else "Analysis"
    line = tier
    if run.reviewed_boundary:
        source = graph.sources.get(run.reviewed_boundary.source)
        where = linker.ref(run.reviewed_boundary.source)
        if source is not None and source.location is not None:
            where = Md(f"{where} ({escape(str(source.location))})")
        line += f" of {where} at revision {code_span(run.reviewed_boundary.revision)}"
    if run.analysis_cutoff:
        line += f", analysis cutoff {run.analysis_cutoff.isoformat()}"
    return Md(line + ".")
