"""A system's runs on its pages: the banner of an earlier run, the system page's list of
runs, and the changes page between each run and the one before it.

The current run is published at the system's own pages; each earlier run below
``runs/<run-id>/`` of them (``model/runs.py``). Every page of an earlier run opens with a
banner naming the current run; each run's pages link its changes page, which lists what
changed since the run before (``graph/run_diff.py``): a page type of the registry
rendered between two runs (``PageSpec.between_runs``; ``pages.render_run_pages``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.model.runs import RunEntry
from generator.render import rawhtml, urls
from generator.render.environment import frontmatter, render
from generator.render.link_markup import html_link
from generator.render.markdown import Md
from generator.render.rawhtml import Html
from generator.render.registry import SYSTEM_PAGE, PageRequest, across_runs_pages
from generator.render.summary import pages_of
from generator.render.text import CrossLinker
from generator.render.views import theme_text

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph


def changes_path(run: RunEntry) -> str:
    """The changes page of a run (what changed since the run before it)."""
    return urls.run_changes_path(run.path_slug)


def _system_page(run: RunEntry) -> str:
    return urls.page_path(SYSTEM_PAGE, run.path_slug)


def _run_view(graph: SystemGraph, run: RunEntry, at: str) -> dict[str, Any]:
    assert graph.history is not None
    before = graph.history.before(run)
    return {
        "label": run.label,
        "date": run.run_date.isoformat() if run.run_date else "not stated",
        "disposition": run.disposition or "not stated",
        "tier": run.evidence_tier or "not stated",
        "current": run.current,
        "here": run == graph.run,
        "href": urls.href(at, _system_page(run)),
        "changes_href": urls.href(at, changes_path(run)) if before is not None else None,
        "before": before.label if before is not None else None,
    }


def run_context(graph: SystemGraph, at: str) -> dict[str, Any]:
    """What a system's page templates show of its runs: the banner of an earlier run, and
    the list of every run on the current run's system page alone (both empty for a system
    of one run). An earlier run's pages link that list instead of repeating it: a list
    on each run's page would make the site quadratic in the system's runs."""
    history, run = graph.history, graph.run
    if history is None or run is None:
        return {"run_banner": Md(""), "runs": [], "history_href": None}
    shown = history_path(history.current.path_slug) if _has_history(graph) else None
    history_href = urls.href(at, shown) if shown else None
    if run.current:
        return {
            "run_banner": Md(""),
            "runs": [_run_view(graph, entry, at) for entry in reversed(history.runs)],
            "history_href": history_href,
        }
    current = _run_view(graph, history.current, at)
    banner = Md(
        render(
            "_run-banner.md.j2",
            {
                "system": graph.system.run.system if graph.system.run else graph.system.slug,
                "this": _run_view(graph, run, at),
                "current": current,
                "count": len(history.runs),
                "runs_href": urls.href(at, _system_page(history.current), "runs"),
                "history_href": history_href,
            },
        )
    )
    marker = earlier_run_marker(run.label, urls.url_href(at, _system_page(history.current)), current["label"])
    return {"run_banner": Md(f"{banner}\n{marker}\n"), "runs": [], "history_href": None}


def earlier_run_marker(label: str, current_url: str, current_label: str) -> Html:
    """One line that stays at the top of an earlier run's page as the reader scrolls (the
    theme keeps it under the header), so a reader who lands mid-page from search knows."""
    current = html_link(rawhtml.code_span(current_label), current_url)
    return rawhtml.made_safe(
        f'<p class="kb-earlier-run" role="note">Earlier run {rawhtml.code_span(label)}; '
        f"the current run is {current}.</p>"
    )


def runs_summary(current: SystemGraph, earlier: Sequence[SystemGraph]) -> dict[str, Any]:
    """The current run's changes page (for the nav), and each earlier run's pages, latest
    first (nothing for a system of one run)."""
    if current.run is None:
        return {}

    def changes(graph: SystemGraph) -> str | None:
        assert graph.history is not None and graph.run is not None
        return changes_path(graph.run) if graph.history.before(graph.run) is not None else None

    ordered = sorted(
        earlier, key=lambda graph: graph.history.runs.index(graph.run) if graph.history and graph.run else 0
    )
    return {
        "changes": changes(current),
        "history": history_path(current.slug) if _has_history(current) else None,
        "earlier_runs": [
            {
                "label": graph.run.label if graph.run else graph.slug,
                "pages": [{"key": key, "path": path} for key, path in pages_of(graph)],
                "changes": changes(graph),
            }
            for graph in reversed(ordered)
        ],
    }


def runs_by_system(graphs: Sequence[SystemGraph]) -> list[tuple[SystemGraph, ...]]:
    """Each system's runs, oldest first (systems in the order their first graph is given;
    a system of one run among them)."""
    by_slug: dict[str, list[SystemGraph]] = {}
    for graph in graphs:
        if graph.history is not None and graph.run is not None:
            by_slug.setdefault(graph.system.slug, []).append(graph)
    found = []
    for runs in by_slug.values():
        history = runs[0].history
        assert history is not None
        order = {entry.folder: at for at, entry in enumerate(history.runs)}
        found.append(tuple(sorted(runs, key=lambda graph: order[graph.run.folder] if graph.run else 0)))
    return found


def history_path(slug: str) -> str | None:
    """The history page of a system (beside its current run's pages), when one is registered."""
    specs = across_runs_pages()
    return urls.page_path(specs[0].key, slug) if specs else None


def _has_history(graph: SystemGraph) -> bool:
    specs = across_runs_pages()
    return bool(specs) and graph.history is not None and len(graph.history.runs) >= specs[0].across_runs


def run_pairs(graphs: Sequence[SystemGraph]) -> list[tuple[SystemGraph, SystemGraph]]:
    """(the run before, the run) for every run of a system that has a run before it, by
    system and in the order the graphs are given."""
    by_slug: dict[str, dict[str, SystemGraph]] = {}
    for graph in graphs:
        if graph.history is not None and graph.run is not None:
            by_slug.setdefault(graph.system.slug, {})[graph.run.folder] = graph
    pairs = []
    for runs in by_slug.values():
        for graph in runs.values():
            assert graph.history is not None and graph.run is not None
            before = graph.history.before(graph.run)
            if before is not None:
                pairs.append((runs[before.folder], graph))
    return pairs


def run_changes_view(request: PageRequest) -> Mapping[str, Any]:
    """The changes page: what changed from the run before to the run, two runs of one
    system, each record linked to its anchor in each run's pages (``graph/run_diff.py``
    compares them, ``render/run_changes.py`` shows the diff)."""
    older, newer = request.runs
    path = request.path
    assert older.run is not None and newer.run is not None

    def href_in(graph: SystemGraph) -> Callable[[str], str | None]:
        def href(record_id: str) -> str | None:
            place = graph.place_of(record_id)
            return (
                urls.url_href(path, urls.page_path(place.page, place.slug), place.anchor) if place else None
            )

        return href

    def section_in(graph: SystemGraph) -> Callable[[str, str], str | None]:
        def href(document: str, key: str) -> str | None:
            place = graph.document_section(document, key)
            return (
                urls.url_href(path, urls.page_path(place.page, place.slug), place.anchor) if place else None
            )

        return href

    # Imported here: the comparison (rapidfuzz, the record pairing) is loaded only by a KB
    # that has a system with further runs.
    from generator.graph.run_diff import diff_runs
    from generator.render.run_changes import RunTexts
    from generator.render.run_changes import render_run_changes as render_diff

    old_text = CrossLinker(older, request.spec.key, html=True, at=path)
    new_text = CrossLinker(newer, request.spec.key, html=True, at=path)
    texts = RunTexts(
        old=lambda text: Html(old_text.fragment(text)),
        new=lambda text: Html(new_text.fragment(text)),
        old_label=lambda text: Html(old_text.linked_label(text)),
        new_label=lambda text: Html(new_text.linked_label(text)),
    )
    system = newer.system.run.system if newer.system.run else newer.system.slug
    body = render_diff(
        diff_runs(older.system, newer.system),
        href_in(older),
        href_in(newer),
        texts=texts,
        sections=(section_in(older), section_in(newer)),
    )
    title = f"{system}: changes from {older.run.label} to {newer.run.label}"
    intro = render(
        "_run-changes-intro.md.j2",
        {"older": _run_view(older, older.run, path), "newer": _run_view(newer, newer.run, path)},
    )
    heading, _, rest = body.partition("\n")
    # The theme prints the title into <title> and the nav unescaped: it is record text.
    values = {"type": request.spec.type_name, "title": theme_text(title), "render_macros": False}
    return {
        "frontmatter": frontmatter(values),
        "heading": Md(heading),
        "intro": Md(intro.strip("\n")),
        "rest": Md(rest),
    }
