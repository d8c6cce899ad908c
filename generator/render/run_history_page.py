"""The history page of a system of three runs or more: what each run concluded, side by side.

It opens with the conclusions that moved across the runs (each paired record's status
fields whose values differ, one column per run, each value linked to the record's
anchor in that run's pages), then the memory-comparison profile per axis across the
runs, then every record followed across the runs (``graph/run_lineage.py``), by kind.
Where a run does not state a record the cell says so. Headings are Markdown; the tables
are raw HTML blocks (``rawhtml``), plain tables in a ``kb-history`` block: the theme puts
each in its scroll box as it does a Markdown table, so a table wider than the page scrolls
in place, says so and keeps its first column in view (``kb-scroll.js``, ``kb.css``), the
one scroll box of every generated table but the memory comparison's matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.graph.record_diff import RecordRef
from generator.graph.run_lineage import AxisState, FieldHistory, Lineage, RunLineage, run_lineage
from generator.model import kinds
from generator.render import urls
from generator.render.environment import frontmatter
from generator.render.inline_form import html_label
from generator.render.link_markup import html_link
from generator.render.rawhtml import Html, element, escape, table
from generator.render.registry import SYSTEM_PAGE, PageRequest
from generator.render.views import theme_text

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

Href = Callable[[str], str | None]
ABSENT = "not in this run"


@dataclass(frozen=True)
class KindSection:
    title: str
    anchor: str
    table: Html


def run_history_view(request: PageRequest) -> Mapping[str, Any]:
    """The history page of one system: ``request.graphs`` are its runs, oldest first."""
    runs = request.all_runs
    path = request.path
    newest = runs[-1]
    system = newest.system.run.system if newest.system.run else newest.system.slug
    history = run_lineage([graph.system for graph in runs])
    hrefs = [_href_in(graph, path) for graph in runs]
    heads = [_run_head(graph, path) for graph in runs]
    moved = history.moved
    title = f"{system}: history of {len(runs)} runs"
    values = {"type": request.spec.type_name, "title": theme_text(title), "render_macros": False}
    return {
        "frontmatter": frontmatter(values),
        "title": title,
        "count": len(runs),
        "runs": _runs_table(runs, path),
        "moved_count": len(moved),
        "moved_fields": sum(len(lineage.moved) for lineage in moved),
        "moved": _moved_table(moved, heads, hrefs) if moved else None,
        "profile": _profile_table(history, heads) if any(history.profiled) else None,
        "kinds": _kind_sections(history, heads, hrefs),
    }


def _href_in(graph: SystemGraph, path: str) -> Href:
    def href(record_id: str) -> str | None:
        place = graph.place_of(record_id)
        return urls.url_href(path, urls.page_path(place.page, place.slug), place.anchor) if place else None

    return href


def _run_head(graph: SystemGraph, path: str) -> Html:
    """A column head: the run's ID, linked to its system page, and its date."""
    run = graph.run
    assert run is not None
    date = run.run_date.isoformat() if run.run_date else "date not stated"
    target = urls.url_href(path, urls.page_path(SYSTEM_PAGE, run.path_slug))
    shown = html_link(element("code", escape(run.label)), target)
    note = " · current" if run.current else ""
    return shown + element("span", escape(f" {date}{note}"), {"class": "kb-history__date"})


def _runs_table(runs: Sequence[SystemGraph], path: str) -> Html:
    rows = []
    for graph in runs:
        run = graph.run
        assert run is not None and graph.history is not None
        before = graph.history.before(run)
        changes = (
            html_link(
                f"changes since {before.label}", urls.url_href(path, urls.run_changes_path(run.path_slug))
            )
            if before is not None
            else escape("the first run")
        )
        rows.append(
            [
                _run_head(graph, path),
                escape(run.disposition or "not stated"),
                escape(run.evidence_tier or "not stated"),
                changes,
            ]
        )
    headers = [escape(name) for name in ("Run", "Disposition", "Evidence tier", "Changes")]
    return _history_block(table(headers, rows))


def _record_cell(record: RecordRef | None, href: Href, confidence: float | None) -> Html:
    if record is None:
        return element("em", escape(ABSENT))
    shown = html_link(element("code", escape(record.id)), href(record.id))
    parts = [shown]
    if record.label:
        parts.append(Html(" ") + html_label(record.label))
    if confidence is not None:
        parts.append(element("span", escape(f" (paired {confidence:.2f})"), {"class": "kb-history__pairing"}))
    return Html("").join(parts)


def _lineage_title(lineage: Lineage, href: Href) -> Html:
    latest = lineage.latest
    shown = html_link(element("code", escape(latest.id)), href(latest.id))
    return shown + (Html(" ") + html_label(latest.label) if latest.label else Html(""))


def _value_cell(field: FieldHistory, at: int, record: RecordRef | None, href: Href) -> Html:
    if record is None:
        return element("em", escape(ABSENT))
    value = field.values[at]
    if value is None:  # the record is in the run, the field is not: link the record still
        return html_link(element("em", escape("not stated")), href(record.id))
    label, text = value
    shown = html_link(html_label(text), href(record.id))
    renamed = label != field.title
    return shown + (
        element("span", escape(f" (as {label})"), {"class": "kb-history__label"}) if renamed else Html("")
    )


def _moved_table(moved: Sequence[Lineage], heads: Sequence[Html], hrefs: Sequence[Href]) -> Html:
    """One row per moved field of each record: the record (its newest ID), the field, and
    its value in each run, linked to the record there."""
    rows = []
    for lineage in moved:
        newest = max(at for at, record in enumerate(lineage.records) if record is not None)
        for field in lineage.moved:
            rows.append(
                [
                    _lineage_title(lineage, hrefs[newest])
                    + element(
                        "span", escape(f" ({_kind_name(lineage.kind)})"), {"class": "kb-history__kind"}
                    ),
                    escape(field.title),
                    *(_value_cell(field, at, record, hrefs[at]) for at, record in enumerate(lineage.records)),
                ]
            )
    return _history_block(
        table([escape("Record"), escape("Field"), *heads], rows), "kb-history kb-history--moved"
    )


def _axis_cell(state: AxisState | None, profiled: bool) -> Html:
    if not profiled:
        return element("em", escape("no profile"))
    if state is None:
        return element("em", escape("axis not stated"))
    bases = dict(state.bases)
    per_value = state.basis is None
    values = (
        ", ".join(f"{v} ({bases[v]})" if per_value and bases.get(v) else v for v in state.values)
        if state.values
        else "no value"
    )
    text = f"{state.assessment}: {values}" + (f" (basis: {state.basis})" if state.basis else "")
    return escape(text)


def _profile_table(history: RunLineage, heads: Sequence[Html]) -> Html:
    rows = []
    for axis in history.axes:
        title = escape(axis.title) + (
            element("span", escape(" (moved)"), {"class": "kb-history__moved"}) if axis.moved else Html("")
        )
        cells = [
            _axis_cell(state, profiled) for state, profiled in zip(axis.states, history.profiled, strict=True)
        ]
        rows.append([title, *cells])
    return _history_block(table([escape("Axis"), *heads], rows), "kb-history")


def _kind_sections(history: RunLineage, heads: Sequence[Html], hrefs: Sequence[Href]) -> list[KindSection]:
    sections = []
    for spec in kinds.registered():
        code = spec.code
        lineages = [lineage for lineage in history.lineages if lineage.kind == code]
        if not lineages:
            continue
        rows = [
            [
                _record_cell(record, hrefs[at], lineage.confidences[at]) + _statuses(lineage, at)
                for at, record in enumerate(lineage.records)
            ]
            for lineage in lineages
        ]
        shown = _history_block(table(list(heads), rows), "kb-history")
        sections.append(KindSection(spec.plural.capitalize(), f"history-{spec.slug}", shown))
    return sections


def _statuses(lineage: Lineage, at: int) -> Html:
    stated = [field.values[at] for field in lineage.fields if field.values[at] is not None]
    if not stated:
        return Html("")
    items = [
        element(
            "li", element("span", escape(label), {"class": "kb-status-label"}) + Html(" ") + html_label(value)
        )
        for label, value in filter(None, stated)
    ]
    return element("ul", Html("").join(items), {"class": "kb-history__statuses"})


def _kind_name(code: str) -> str:
    spec = kinds.spec_of_code(code)
    return spec.singular if spec else code


def _history_block(content: Html, classes: str = "kb-history") -> Html:
    # No box of its own: one inside the theme's would scroll too, without the cue.
    return element("div", Html("\n") + content + Html("\n"), {"class": classes})
