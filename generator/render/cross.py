"""Cross-system pages: the systems index, the status matrix and the glossary."""

from __future__ import annotations

import html
from collections import Counter

from ..link import SystemGraph, slugify
from ..model.kinds import status_fields
from ..model.vocab import MEANINGS, VOCABULARY_TITLES, ConclusionStatus
from .badges import vocab_anchor
from .environment import frontmatter, render
from .summary import summarize
from .text import Md


def render_cross_system(graphs: list[SystemGraph]) -> dict[str, str]:
    """The systems index, the status matrix and the glossary."""
    summaries = [summarize(graph) for graph in graphs]
    pages = {
        "systems/index.md": render(
            "systems-index.md.j2",
            {},
            systems=summaries,
            frontmatter=frontmatter({"type": "kb/types/system-index.md", "render_macros": False}),
        )
    }
    statuses = [status.value for status in ConclusionStatus]
    rows, field_rows = [], []
    for graph, summary in zip(graphs, summaries, strict=True):
        totals: Counter[str] = Counter()
        per_field: dict[str, Counter[str]] = {}
        for record in graph.system.records:
            for label, value in status_fields(record):
                totals[value] += 1
                per_field.setdefault(label, Counter())[value] += 1
        rows.append({"name": summary.name, "slug": summary.slug, "counts": [totals[s] for s in statuses]})
        for label in sorted(per_field):
            field_rows.append(
                {
                    "name": summary.name,
                    "slug": summary.slug,
                    "field": label,
                    "counts": [per_field[label][s] for s in statuses],
                }
            )
    pages["systems/status-matrix.md"] = render(
        "status-matrix.md.j2",
        {},
        statuses=statuses,
        rows=rows,
        field_rows=field_rows,
        frontmatter=frontmatter({"type": "kb/types/status-matrix.md", "render_macros": False}),
    )
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
        vocabularies.append({"title": title, "anchor": slugify(title), "entries": entries})
    pages["glossary.md"] = render(
        "glossary.md.j2",
        {},
        vocabularies=vocabularies,
        badge_for=lambda _vocab, entry: Md(
            f'<span class="kb-badge kb-badge--{slugify(entry["value"])}">{html.escape(entry["value"])}</span>'
        ),
        frontmatter=frontmatter({"type": "kb/types/glossary.md", "render_macros": False}),
    )
    return pages
