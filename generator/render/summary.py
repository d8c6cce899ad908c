"""What the system page, the cross-system pages and the home page need to know of a system."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..link import SystemGraph
from ..model.kinds import count_by_kind
from .links import link
from .markdown import escape


def counts_of(graph: SystemGraph) -> dict[str, int]:
    """Records per kind (non-zero kinds), plus limitations and supplied records."""
    counts = {spec.plural.capitalize(): n for spec, n in count_by_kind(graph.system.records).items() if n}
    if graph.system.limitations:
        counts["Limitations"] = len(graph.system.limitations)
    if graph.system.supplied:
        counts["Declared elsewhere"] = len(graph.system.supplied)
    if graph.system.annotations:
        counts["Annotations"] = len(graph.system.annotations)
    return counts


def artifacts_of(graph: SystemGraph) -> list[dict[str, str]]:
    artifacts = []
    if graph.system.result is not None:
        artifacts.append(
            {"title": "Result", "href": "result.md", "note": "the full analysis, eleven sections"}
        )
        artifacts.append(
            {"title": "Review", "href": "review.md", "note": "the compact review projected from the result"}
        )
    if graph.system.memory_report is not None:
        artifacts.append(
            {"title": "Memory report", "href": "memory-report.md", "note": "the memory analysis"}
        )
    return artifacts


@dataclass(frozen=True)
class SystemSummary:
    """What cross-system pages and the home page need to know of a system."""

    slug: str
    name: str
    run_id: str | None
    disposition: str | None
    tier: str | None
    total: int
    artifacts: list[dict[str, str]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "run_id": self.run_id,
            "disposition": self.disposition,
            "tier": self.tier,
            "total": self.total,
            "artifacts": self.artifacts,
            "url": f"systems/{self.slug}/",
            "name_md": str(escape(self.name)),
            "link_md": str(link(self.name, f"systems/{self.slug}/index.md")),
            "artifact_links_md": [
                str(link(a["title"].lower(), f"systems/{self.slug}/{a['href']}")) for a in self.artifacts
            ],
        }


def summarize(graph: SystemGraph) -> SystemSummary:
    run = graph.system.run
    return SystemSummary(
        slug=graph.slug,
        name=run.system if run else graph.slug,
        run_id=run.run_id if run else None,
        disposition=run.disposition.value if run and run.disposition else None,
        tier=run.evidence_tier.value if run and run.evidence_tier else None,
        total=len(graph.system.records),
        artifacts=artifacts_of(graph),
    )
