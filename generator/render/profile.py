"""How a memory-comparison profile is shown: the table, the one-line summaries, the cells.

Every record ID is linked by a ``Linker`` (``text.py``), every URL by ``links.link``,
every piece of record text escaped by ``markdown.escape``; this module only arranges
them. Axes are shown in the spec's order, values in the order the analyst wrote them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.model.profile import (
    ALL_AXES,
    AXIS_TITLES,
    PROFILE_ANCHOR,
    AxisProfile,
    MemoryComparison,
    axis_anchor,
)
from generator.model.vocab import ConclusionStatus, ProfileAssessment
from generator.render import rawhtml, urls
from generator.render.badges import Badges
from generator.render.link_markup import html_link, link
from generator.render.markdown import Md, code_span
from generator.render.rawhtml import Html

if TYPE_CHECKING:
    from generator.render.text import Linker


def axis_summary(entry: AxisProfile) -> str:
    """One line per axis: ``known: files (wired), in-memory (wired)``; with the basis stated
    for the whole axis, once: ``known (wired): knowledge, instruction``."""
    values = [
        f"{value} ({entry.evidence[value].basis})" if value in entry.evidence else value
        for value in entry.values
    ]
    assessment = f"{entry.assessment} ({entry.basis})" if entry.basis else entry.assessment
    return f"{assessment}: {', '.join(values)}" if values else assessment


@dataclass(frozen=True)
class ProfileCells:
    """The cells of one system's profile, for the page ``linker`` renders."""

    linker: Linker
    badges: Badges

    def records(self, refs: list[str]) -> Md:
        return Md(", ".join(self.linker.ref(ref) for ref in refs))

    def assessment(self, entry: AxisProfile) -> Md:
        """The assessment badge, followed by the axis's basis where the document states one
        basis for the whole axis."""
        shown = self.badges.vocab_link(ProfileAssessment(entry.assessment))
        if entry.basis is not None:
            return Md(f"{shown} {self.basis(entry.basis)}")
        return Md(shown)

    def basis(self, basis: str) -> Md:
        return Md(self.badges.vocab_link(ConclusionStatus(basis)))

    def value(self, entry: AxisProfile, value: str, with_note: bool) -> Md:
        """A value with its basis badge and evidence records (and its note, on the full table)."""
        evidence = entry.evidence.get(value)
        if evidence is None:
            return code_span(value)
        first = self.linker.href(evidence.records[0]) if evidence.records else None
        shown = link(
            code_span(value), first, ("kb-profile-value",), "evidence: " + ", ".join(evidence.records)
        )
        parts = [shown, self.basis(evidence.basis), self.records(evidence.records)]
        if with_note and evidence.note:
            parts += [Md("—"), Md(self.linker.cell(evidence.note))]
        return Md(" ".join(parts))

    def values(self, entry: AxisProfile, with_note: bool = True) -> Md:
        if not entry.values:
            return Md("—")
        return Md("<br>".join(self.value(entry, value, with_note) for value in entry.values))


def profile_rows(profile: MemoryComparison, cells: ProfileCells) -> list[dict[str, Any]]:
    """One row per axis of the profile's table, in the spec's order."""
    rows = []
    for axis in ALL_AXES:
        entry = profile.axis(axis)
        if entry is None:
            continue
        rows.append(
            {
                "axis": AXIS_TITLES[axis],
                "anchor": axis_anchor(axis),
                "assessment": cells.assessment(entry),
                "value_cells": cells.values(entry),
                "records": cells.records(entry.records),
                "note": cells.linker.cell(entry.note or ""),
            }
        )
    return rows


def summary_lines(profile: MemoryComparison, linker: Linker, profile_page: str) -> Html:
    """The one-line summary of each axis (system and review pages), linking to its row: a
    raw HTML list, which Python-Markdown sets aside (the links are final URLs)."""
    page = urls.page_path(profile_page, linker.graph.slug)
    items = [
        rawhtml.element(
            "li",
            html_link(AXIS_TITLES[axis], urls.url_href(linker.path, page, axis_anchor(axis)))
            + rawhtml.escape(f": {axis_summary(entry)}"),
        )
        for axis in ALL_AXES
        if (entry := profile.axis(axis)) is not None
    ]
    inner = Html("\n").join(items)
    return rawhtml.element("ul", Html("\n") + inner + Html("\n"), {"class": "kb-profile-summary"})


def profile_context(linker: Linker, badges: Badges) -> dict[str, Any]:
    """What a system page's template needs to show the system's profile: ``profile`` is
    None without one; ``profile_here`` says whether this page shows the full table."""
    graph = linker.graph
    profile = graph.system.memory_comparison
    if profile is None:
        return {"profile": None, "profile_here": False}
    return {
        "profile": {
            "scope": linker.cell(profile.scope),
            "rows": profile_rows(profile, ProfileCells(linker, badges)),
            "summary": summary_lines(profile, linker, graph.profile_page),
            "anchor": PROFILE_ANCHOR,
        },
        "profile_here": graph.profile_page == linker.page,
    }
