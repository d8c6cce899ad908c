"""Cross-system pages: the view builders of the systems index, the status matrix and the
glossary, and ``render_cross_system``."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from generator.model.vocab import MEANINGS, VOCABULARY_TITLES
from generator.render import urls
from generator.render.badges import vocab_anchor
from generator.render.environment import frontmatter
from generator.render.pages import render_page
from generator.render.registry import PageRequest, cross_pages
from generator.render.status_matrix import status_matrix_context
from generator.render.summary import SystemSummary, summarize
from generator.render.text import Md

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph


def _cross_frontmatter(request: PageRequest) -> Md:
    return frontmatter({"type": request.spec.type_name, "render_macros": False})


def _system_rows(request: PageRequest, summaries: Sequence[SystemSummary]) -> list[dict[str, Any]]:
    """One row per system, with hrefs from the requested page."""
    return [
        {
            "summary": summary,
            "href": urls.href(request.path, summary.path),
            "artifacts": [
                {"title": a.title, "href": urls.href(request.path, a.path)} for a in summary.artifacts
            ],
        }
        for summary in summaries
    ]


def systems_index_view(request: PageRequest) -> dict[str, Any]:
    """Every system with its run and the artifacts its records carry."""
    return {
        "systems": _system_rows(request, [summarize(graph) for graph in request.graphs]),
        "frontmatter": _cross_frontmatter(request),
    }


def status_matrix_view(request: PageRequest) -> dict[str, Any]:
    """How many status fields of each system hold each conclusion status, and which."""
    return {**status_matrix_context(request), "frontmatter": _cross_frontmatter(request)}


def _badge(_vocab: object, entry: dict[str, Any]) -> Md:
    value = entry["value"]
    return Md(f'<span class="kb-badge kb-badge--{urls.slugify(value)}">{html.escape(value)}</span>')


def glossary_view(request: PageRequest) -> dict[str, Any]:
    """Every controlled vocabulary, each value with its meaning."""
    vocabularies = []
    for vocab, title in VOCABULARY_TITLES.items():
        entries = [
            {
                "value": member.value,
                "member": member,
                "anchor": vocab_anchor(member),
                "meaning": MEANINGS[vocab][member.value],
            }
            for member in vocab
        ]
        vocabularies.append({"title": title, "anchor": urls.slugify(title), "entries": entries})
    return {"vocabularies": vocabularies, "badge_for": _badge, "frontmatter": _cross_frontmatter(request)}


def render_cross_system(graphs: Sequence[SystemGraph]) -> dict[str, str]:
    """Every cross-system page (path → Markdown), in registry order."""
    pages: dict[str, str] = {}
    for spec in cross_pages():
        path = urls.page_path(spec.key)
        pages[path] = render_page(spec, path, graphs, pages)
    return pages
