"""The pages of one system: their view builders, ``render_system``, and the pages between
two of its runs (``render_run_pages``).

Which pages a system has, where they live and what they are called comes from the
page registry (``registry.py``, built-ins in ``builtin_pages.py``); each page's
template context is built by its view builder from a ``PageRequest``. Output is
deterministic: sorted inputs, ``\\n`` line endings, no clock time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.model.ids import sort_key
from generator.model.import_findings import IMPORT_FINDINGS_FILE, Resolution
from generator.model.kinds import kind_names, list_kinds
from generator.model.prose import (
    MEMORY_REPORT_SECTION_TITLES,
    RESULT_SECTION_TITLES,
)
from generator.model.records import RecordBase
from generator.model.set_manifest import manifest_digest
from generator.render import rawhtml, urls
from generator.render.contract_view import contract_statement, contract_view
from generator.render.environment import frontmatter, render
from generator.render.link_markup import html_link, link
from generator.render.rawhtml import Html
from generator.render.reading import key_verdicts, outline, reading_order, run_line
from generator.render.registry import (
    RESULT_PAGE,
    PageRequest,
    PageSpec,
    across_runs_pages,
    between_runs_pages,
)
from generator.render.route_maps import route_maps
from generator.render.run_history import run_context, run_pairs, runs_by_system
from generator.render.set_pages import set_members_view, set_review_view
from generator.render.summary import artifacts_of, counts_of, published_pages
from generator.render.text import Md, code_span
from generator.render.views import (
    RecordPageView,
    evidence_basis,
    sources_of,
    system_name,
    theme_text,
)

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph


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


def result_view(request: PageRequest) -> dict[str, Any]:
    """The result page: every section of the result, records on their home page."""
    graph = request.graph
    result = graph.system.result
    assert result is not None
    view = RecordPageView(graph, request.spec.key, result)
    contract = contract_view(graph)
    # Today's findings, for a run under an earlier contract, are listed below the run table.
    contract_cell = contract_statement(contract, Html("below"))
    sections = reading_order(RESULT_SECTION_TITLES)
    return {
        **view.context(),
        "doc": result,
        "run_rows": _run_rows(graph.system.run, result.type, view, contract_cell),
        "run": graph.system.run,
        "run_line": run_line(graph, view.html_badges),
        "outline": outline(
            [_result_section_place(view, result, key, title) for key, title in sections.items()]
        ),
        "section_titles": sections,
        "key_verdicts": key_verdicts(graph, view.html_linker),
        "sources": sources_of(graph),
        "frontmatter": _run_frontmatter(graph, result.type, {"title": theme_text(result.title)}),
        **contract,
    }


def _result_section_place(view: RecordPageView, result: Any, key: str, title: str) -> tuple[str, str]:
    """A section's heading on the result page and its anchor, as ``result.md.j2`` writes them."""
    if key in ("shared_records", "source_register", "limitations"):
        return title, urls.slugify(title)
    section = getattr(result, key)
    shown = (section.title or title).strip()
    return shown, view.section_anchor(section, title)


def _run_rows(run: Any, doc_type: str, view: RecordPageView, contract: Html) -> list[list[Html]]:
    """The result page's run table (Field, Value), as HTML cells: the run's identity, the
    route contract it is checked under, and the companion files it names, each path and
    SHA-256 as code."""
    if run is None:
        return []
    stated = rawhtml.escape("not stated")

    def vocab(value: Any) -> Html:
        return Html(view.html_badges.vocab_link(value)) if value else stated

    rows: list[tuple[str, Html]] = [
        ("Run ID", rawhtml.code_span(run.run_id) if run.run_id else stated),
        ("Run date", rawhtml.escape(run.run_date.isoformat()) if run.run_date else stated),
        ("Result disposition", vocab(run.disposition)),
        ("Document type", rawhtml.code_span(doc_type)),
        ("Evidence tier", vocab(run.evidence_tier)),
        ("Route contract", contract),
    ]
    for ref in run.references:
        parts = [rawhtml.code_span(ref.path)] if ref.path else []
        if ref.sha256:
            parts.append(Html(f"SHA-256 {rawhtml.code_span(ref.sha256)}"))
        rows.append((ref.role.value.capitalize(), Html(", ".join(parts))))
    return [[rawhtml.escape(name), value] for name, value in rows]


def review_view(request: PageRequest) -> dict[str, Any]:
    """The review: a projection of the result page, pinned by the SHA-256 of its Markdown;
    of a set without a result, a projection of the overview pinning the manifest."""
    graph = request.graph
    result = graph.system.result
    if result is None:
        return set_review_view(request)
    view = RecordPageView(graph, request.spec.key, result)
    result_path = urls.page_path(RESULT_PAGE, graph.slug)
    result_sha256 = hashlib.sha256(request.rendered[result_path].encode("utf-8")).hexdigest()
    title = f"{system_name(graph)} — review"
    projected_from = urls.file_href(request.path, result_path)
    run_identity = view.section_anchor(result.run_identity, RESULT_SECTION_TITLES["run_identity"])
    findings_at = html_link("full result", urls.url_href(request.path, result_path, run_identity))
    contract = contract_view(graph)
    return {
        **view.context(),
        "doc": result,
        "title": title,
        "evidence_basis": evidence_basis(graph, view.html_linker),
        "route_contract": contract_statement(contract, Html(f"on the {findings_at}")),
        "result_sha256": result_sha256,
        "result_href": projected_from,
        "frontmatter": _run_frontmatter(
            graph,
            request.spec.type_name or "",
            {
                "title": theme_text(title),
                "projected-from": projected_from,
                "result-sha256": result_sha256,
            },
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
        "sources": sources_of(graph) if is_home else [],
        "annotations": [
            a for a in graph.system.annotations if graph.annotation_page_of(a) == request.spec.key
        ],
        "is_home": is_home,
        "frontmatter": _run_frontmatter(
            graph,
            report.type,
            {
                "title": theme_text(report.title),
                **({"report-status": report.report_status} if report.report_status else {}),
            },
        ),
    }


def system_view(request: PageRequest) -> dict[str, Any]:
    """The system page: run, artifacts, counts, route maps; the records when no other page
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
        "route_maps": route_maps(graph, view.html_linker),
        "supplied": sorted(system.supplied, key=lambda s: sort_key(s.id)),
        "records_by_kind": _records_by_kind(graph) if graph.home_page == page else [],
        "limitations": graph.home_page == page and bool(system.limitations),
        "annotations": system.annotations if graph.annotation_page == page else [],
        "revision_link": _revision_link(graph),
        "open_findings": [f for f in system.import_findings if f.resolution is Resolution.OPEN],
        "findings_file": IMPORT_FINDINGS_FILE,
        **contract_view(graph),
        **_set_summary(graph, request.path),
        "frontmatter": _run_frontmatter(
            graph, request.spec.type_name or "", {"title": theme_text(system_name(graph))}
        ),
    }


def _set_summary(graph: SystemGraph, path: str) -> dict[str, Any]:
    """The system page's list of set members with their digests (empty for other systems)."""
    if graph.system.analysis_set is None:
        return {"set_members": []}

    return {"set_members": set_members_view(graph, path), "manifest_sha256": manifest_digest(graph.system)}


def render_page(spec: PageSpec, path: str, graphs: Sequence[SystemGraph], rendered: Mapping[str, str]) -> str:
    """One page: its spec's view builder makes the context its template is rendered with;
    a system's page also gets its runs (``run_history.run_context``)."""
    context = spec.view(PageRequest(spec, path, graphs, rendered))
    if spec.per_system and not spec.between_runs and not spec.across_runs:
        context = {**run_context(graphs[0], path), **context}
    return render(spec.template, context)


def render_system(graph: SystemGraph) -> dict[str, str]:
    """All pages of one run of a system (path → Markdown), in registry order."""
    pages: dict[str, str] = {}
    for spec in published_pages(graph):
        path = urls.page_path(spec.key, graph.slug)
        pages[path] = render_page(spec, path, (graph,), pages)
    return pages


# ``kbgen serve``: each page made from a system's runs with the graphs it was made from, by
# page type and the graphs' ids; an unchanged system keeps its graphs across rebuilds, so
# these pages are not made again.
RunPagesMemo = dict[tuple[str, tuple[int, ...]], tuple[tuple["SystemGraph", ...], str, str]]


def render_run_pages(graphs: Sequence[SystemGraph], memo: RunPagesMemo | None = None) -> dict[str, str]:
    """The pages made from a system's runs, beside its runs' pages (path → Markdown): the
    registry's ``between_runs`` page types (the changes page) for every run that has a run
    before it, and its ``across_runs`` page types (the history page) for each system of
    that many runs, beside its current run's pages. With a ``memo``, a page whose graphs
    are unchanged is reused."""
    pages: dict[str, str] = {}
    kept: RunPagesMemo = {}

    def page(spec: PageSpec, slug: str, runs: tuple[SystemGraph, ...]) -> None:
        path = urls.page_path(spec.key, slug)
        key = (spec.key, tuple(id(graph) for graph in runs))
        found = memo.get(key) if memo is not None else None
        # The graphs are held with the page, so their ids cannot be reused meanwhile.
        same = found is not None and all(a is b for a, b in zip(found[0], runs, strict=True))
        if found is None or not same or found[1] != path:
            found = (runs, path, run_page(spec, path, runs))
        kept[key] = found
        pages[path] = found[2]

    for older, newer in run_pairs(graphs):
        for spec in between_runs_pages():
            if spec.exists(newer.system):
                page(spec, newer.slug, (older, newer))
    for runs in runs_by_system(graphs):
        current = next(graph for graph in runs if graph.is_current)
        for spec in across_runs_pages():
            if len(runs) >= spec.across_runs and spec.exists(current.system):
                page(spec, current.slug, runs)
    if memo is not None:
        memo.clear()
        memo.update(kept)
    return dict(sorted(pages.items()))


def run_page(spec: PageSpec, path: str, runs: tuple[SystemGraph, ...]) -> str:
    """One page made from a system's runs: between two (the run before, and the run) or
    across every run (oldest first)."""
    return render_page(spec, path, runs, {})


def _records_by_kind(graph: SystemGraph) -> list[tuple[str, list[RecordBase]]]:
    """All records, grouped by kind in ID order, for a system with no result or report."""
    groups = []
    for kind in list_kinds().values():
        records = sorted(graph.records_of_kind(kind), key=lambda r: sort_key(r.id))
        if records:
            groups.append((kind_names()[kind][1].capitalize(), records))
    return groups


def _revision_link(graph: SystemGraph) -> Md:
    run = graph.system.run
    if run is None or run.reviewed_boundary is None:
        return Md("")
    boundary = run.reviewed_boundary
    return link(code_span(boundary.revision), graph.revision_url(boundary.source, boundary.revision))
