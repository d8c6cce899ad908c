"""What a reader of a result page meets first: the run in one line, the sections in
reading order (what the analysis found first) and an outline of them a phone can reach.

The page's bookkeeping (paths, digests, document type, the route contract's findings)
is folded into "About this run" by the template; these pieces only say what comes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from generator.model import kinds
from generator.model.fields import record_badges
from generator.model.kinds import Role
from generator.render import rawhtml
from generator.render.inline_form import html_label
from generator.render.link_markup import html_link
from generator.render.rawhtml import Html

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph
    from generator.render.badges import Badges
    from generator.render.text import Linker

__all__ = ["FIRST_SECTIONS", "key_verdicts", "outline", "reading_order", "run_line"]

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


_STATUS_SUFFIX = " conclusion status"


def key_verdicts(graph: SystemGraph, linker: Linker) -> Html:
    """The statuses of the records whose statuses are verdicts (``Role.VERDICT``), one item
    a record: its ID linked, its label, then each status as ``implementation wired``; one
    raw HTML block, empty when no such record states a status."""
    items = []
    for spec in kinds.with_role(Role.VERDICT):
        for record in graph.records_of_kind(spec.code):
            statuses = [
                _verdict(badge.label, str(badge.value), spec.singular)
                for badge in record_badges(record)
                if badge.rendering == "status"
            ]
            if not statuses:
                continue
            label = f" {html_label(record.label)}" if record.label else ""
            verdict = rawhtml.escape("; ".join(statuses))
            items.append(
                f'<li>{linker.ref(record.id)}{label}: <span class="kb-verdict">{verdict}</span></li>'
            )
    if not items:
        return Html("")
    return rawhtml.made_safe(
        '<div class="kb-key-verdicts">\n<p><strong>Key verdicts</strong></p>\n<ul>\n'
        + "\n".join(items)
        + "\n</ul>\n</div>"
    )


def _verdict(label: str, value: str, singular: str) -> str:
    """``implementation conclusion status`` and ``wired`` → ``implementation wired``; a
    field named after the kind alone (a claim's) → the value."""
    field = label.removesuffix(_STATUS_SUFFIX).removesuffix(_STATUS_SUFFIX.strip())
    return value if field in ("", singular) else f"{field} {value}"
