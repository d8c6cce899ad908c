"""What a reader of a result page meets first: the run in one line, the sections in
reading order (what the analysis found first) and an outline of them a phone can reach.

The page's bookkeeping (paths, digests, document type, the route contract's findings)
is folded into "About this run" by the template; these pieces only say what comes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from generator.render import rawhtml
from generator.render.link_markup import html_link
from generator.render.rawhtml import Html

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph
    from generator.render.badges import Badges

__all__ = ["FIRST_SECTIONS", "outline", "reading_order", "run_line"]

# The sections a reader asks for first ("what did this analysis find"), before the rest in
# the method's order.
FIRST_SECTIONS = ("bounded_synthesis",)


def reading_order(titles: Mapping[str, str]) -> dict[str, str]:
    """The result's sections, the findings first, then the others in the method's order."""
    first = {key: titles[key] for key in FIRST_SECTIONS if key in titles}
    return {**first, **{key: title for key, title in titles.items() if key not in first}}


def run_line(graph: SystemGraph, badges: Badges) -> Html:
    """Who and what was analysed, when, and how far: the system, the run and its date, the
    disposition and evidence tier, the reviewed revision. Empty without a run."""
    run = graph.system.run
    if run is None:
        return Html("")
    parts = [f"<strong>{rawhtml.escape(run.system)}</strong>"]
    when = f" of {rawhtml.escape(run.run_date.isoformat())}" if run.run_date else ""
    parts.append(f"run {rawhtml.code_span(run.run_id)}{when}" if run.run_id else f"run{when}")
    for value in (run.disposition, run.evidence_tier, run.boundary_kind):
        if value is not None:
            parts.append(str(badges.vocab_link(value)))
    if run.reviewed_boundary:
        revision = rawhtml.code_span(run.reviewed_boundary.revision[:12])
        parts.append(f"reviewed at {revision}")
    return rawhtml.made_safe(" · ".join(parts))


def outline(sections: Sequence[tuple[str, str]]) -> Html:
    """The page's sections (title, anchor) as a collapsed list of links, one raw HTML block;
    the theme shows it where the table of contents has no sidebar (a phone)."""
    items = "\n".join(f"<li>{html_link(title, f'#{anchor}')}</li>" for title, anchor in sections)
    return rawhtml.made_safe(
        '<details class="kb-outline">\n<summary>On this page</summary>\n'
        f'<ol class="kb-outline__sections">\n{items}\n</ol>\n</details>'
    )
