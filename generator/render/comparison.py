"""The cross-system memory comparison: a matrix of one row per system with a profile,
grouped by evidence tier, one compact column per axis; a system without a profile has
a row that says so, after the tiers (and is listed below the matrix too).

The cells are built by ``render/matrix.py``: each value is a chip that links to its first
evidence record (the others are in its title), each system links to its profile table,
and its run links to the page that carries the profile's evidence (the memory report,
else the result). Sorting and the text and value filters run in the browser
(``overrides/assets/javascripts/kb-comparison.js``) on the rendered table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from generator.model.profile import PROFILE_ANCHOR, MemoryComparison, axes_of
from generator.model.system import SystemRecords
from generator.model.vocab import EvidenceTier
from generator.render import rawhtml, urls
from generator.render.environment import frontmatter
from generator.render.link_markup import html_link, link
from generator.render.markdown import Md
from generator.render.matrix import (
    MatrixGroup,
    MatrixRow,
    NoProfileRow,
    SystemCells,
    facets,
    legend,
    matrix,
    system_cell,
)
from generator.render.rawhtml import Html
from generator.render.registry import MEMORY_PAGE, RESULT_PAGE, SYSTEM_PAGE, PageRequest
from generator.render.summary import summarize
from generator.render.text import CrossLinker

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

NO_TIER = "Evidence tier not stated"
NO_PROFILE = "No profile"
MATRIX_LABEL = "Memory comparison: one row per system, one column per axis"


def run_page(system: SystemRecords) -> str:
    """The page a system's run is read on: its memory report, else its result, else its page."""
    if system.memory_report is not None:
        return MEMORY_PAGE
    return RESULT_PAGE if system.result is not None else SYSTEM_PAGE


def _row(request: PageRequest, graph: SystemGraph, profile: MemoryComparison) -> MatrixRow:
    linker = CrossLinker(graph, graph.profile_page, html=True, at=request.path)
    summary = summarize(graph)
    profile_path = urls.page_path(graph.profile_page, graph.slug)
    name = html_link(summary.name, urls.url_href(request.path, profile_path, PROFILE_ANCHOR))
    run_shown = rawhtml.code_span(summary.run_id) if summary.run_id else rawhtml.escape("run")
    run = html_link(
        run_shown, urls.url_href(request.path, urls.page_path(run_page(graph.system), graph.slug))
    )
    scope = rawhtml.element("p", Html(linker.cell(profile.scope)))
    return MatrixRow(
        graph.slug, system_cell(name, run, scope), SystemCells(linker, profile_path), profile.axes
    )


def matrix_groups(request: PageRequest) -> tuple[list[MatrixGroup], list[Md]]:
    """Rows by evidence tier (in the vocabulary's order, systems by slug), and the links to
    the systems without a profile."""
    tiers: dict[str, list[MatrixRow | NoProfileRow]] = {tier.value: [] for tier in EvidenceTier}
    tiers[NO_TIER] = []
    no_profile: list[MatrixRow | NoProfileRow] = []
    without = []
    for graph in sorted(request.graphs, key=lambda g: g.slug):
        profile = graph.system.memory_comparison
        summary = summarize(graph)
        if profile is None:
            without.append(link(summary.name, urls.href(request.path, summary.path)))
            name = html_link(summary.name, urls.url_href(request.path, summary.path))
            no_profile.append(NoProfileRow(graph.slug, name))
            continue
        tiers[summary.tier or NO_TIER].append(_row(request, graph, profile))
    groups = [
        MatrixGroup(title[:1].upper() + title[1:], urls.slugify(title), rows)
        for title, rows in tiers.items()
        if rows
    ]
    # Every system has a row: one without a profile says so, after the tiers (a matrix
    # of no profile at all is not drawn).
    if groups and no_profile:
        groups.append(MatrixGroup(NO_PROFILE, urls.slugify(NO_PROFILE), no_profile))
    return groups, without


def shown_axes(request: PageRequest) -> tuple[str, ...]:
    """The ten shared axes for every system, the four extra ones where any system has them."""
    return axes_of(graph.system.memory_comparison for graph in request.graphs)


def comparison_matrix(request: PageRequest, axes: Sequence[str]) -> Html | None:
    """The matrix alone with some of the axes (the ``comparison_table`` macro), or None
    when no system has a profile."""
    groups, _ = matrix_groups(request)
    return matrix(groups, axes, MATRIX_LABEL) if groups else None


def memory_comparison_view(request: PageRequest) -> dict[str, Any]:
    """The legend, the value filter and the matrix, then the systems without a profile."""
    groups, without = matrix_groups(request)
    axes = shown_axes(request)
    return {
        "axis_keys": list(axes),
        "legend": legend(request.path) if groups else None,
        "facets": facets(groups, axes) if groups else None,
        "matrix": matrix(groups, axes, MATRIX_LABEL) if groups else None,
        "without": without,
        "json_href": urls.file_href(request.path, urls.KB_JSON),
        "csv_href": urls.file_href(request.path, urls.COMPARISON_CSV),
        # The matrix needs the article's width: the page has no table of contents.
        "frontmatter": frontmatter({"type": request.spec.type_name, "render_macros": False, "hide": ["toc"]}),
    }
