"""The cross-system memory comparison: one row per system with a profile, grouped by
evidence tier, a column per axis; systems without a profile are listed apart.

Each value links to its first evidence record (the others follow it), each system to
its page and each run to the page that carries the profile's evidence (the memory
report, else the result). Sorting and filtering are done in the browser by
``overrides/assets/javascripts/kb-comparison.js`` on the rendered tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.model.profile import AXIS_TITLES, PROFILE_ANCHOR, MemoryComparison, axes_of
from generator.model.system import SystemRecords
from generator.model.vocab import EvidenceTier
from generator.render import urls
from generator.render.badges import Badges
from generator.render.environment import frontmatter
from generator.render.link_markup import link
from generator.render.markdown import Md, code_span
from generator.render.profile import ProfileCells
from generator.render.registry import MEMORY_PAGE, RESULT_PAGE, SYSTEM_PAGE, PageRequest
from generator.render.summary import summarize
from generator.render.text import CrossLinker

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

NO_TIER = "Evidence tier not stated"


def run_page(system: SystemRecords) -> str:
    """The page a system's run is read on: its memory report, else its result, else its page."""
    if system.memory_report is not None:
        return MEMORY_PAGE
    return RESULT_PAGE if system.result is not None else SYSTEM_PAGE


def _axis_cell(cells: ProfileCells, profile: MemoryComparison, axis: str) -> Md:
    entry = profile.axis(axis)
    if entry is None:
        return Md("")
    values = cells.values(entry, with_note=False) if entry.values else None
    return Md(f"{cells.assessment(entry)}<br>{values}" if values else cells.assessment(entry))


def _row(
    request: PageRequest, graph: SystemGraph, profile: MemoryComparison, axes: tuple[str, ...]
) -> dict[str, Any]:
    linker = CrossLinker(graph, graph.profile_page, at=request.path)
    cells = ProfileCells(linker, Badges(request.path))
    summary = summarize(graph)
    profile_href = urls.href(request.path, urls.page_path(graph.profile_page, graph.slug), PROFILE_ANCHOR)
    run_href = urls.href(request.path, urls.page_path(run_page(graph.system), graph.slug))
    return {
        "system": link(summary.name, profile_href),
        "run": link(code_span(summary.run_id) if summary.run_id else Md("run"), run_href),
        "scope": linker.cell(profile.scope),
        "axes": [_axis_cell(cells, profile, axis) for axis in axes],
    }


def memory_comparison_view(request: PageRequest) -> dict[str, Any]:
    """Rows by evidence tier (in the vocabulary's order), then the systems without a profile."""
    tiers: dict[str, list[dict[str, Any]]] = {tier.value: [] for tier in EvidenceTier}
    tiers[NO_TIER] = []
    without = []
    # The ten shared axes for every system, the four extra ones where any system has them.
    axes = axes_of(graph.system.memory_comparison for graph in request.graphs)
    for graph in sorted(request.graphs, key=lambda g: g.slug):
        profile = graph.system.memory_comparison
        summary = summarize(graph)
        if profile is None:
            without.append(link(summary.name, urls.href(request.path, summary.path)))
            continue
        tiers[summary.tier or NO_TIER].append(_row(request, graph, profile, axes))
    return {
        "axes": [AXIS_TITLES[axis] for axis in axes],
        "axis_keys": list(axes),
        "groups": [
            {"title": title[:1].upper() + title[1:], "anchor": urls.slugify(title), "rows": rows}
            for title, rows in tiers.items()
            if rows
        ],
        "without": without,
        "json_href": urls.file_href(request.path, urls.KB_JSON),
        "csv_href": urls.file_href(request.path, urls.COMPARISON_CSV),
        "frontmatter": frontmatter({"type": request.spec.type_name, "render_macros": False}),
    }
