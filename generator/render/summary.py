"""What the system page, the cross-system pages and the home page need to know of a system."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.model.kinds import count_by_kind
from generator.render import urls
from generator.render.link_markup import link
from generator.render.markdown import escape
from generator.render.registry import REVIEW_PAGE, SYSTEM_PAGE, PageSpec, system_pages

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph


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


@dataclass(frozen=True)
class Artifact:
    """A page of a system listed among its artifacts: title, path below docs_dir, note."""

    title: str
    path: str
    note: str


def published_pages(graph: SystemGraph) -> list[PageSpec]:
    """The pages of a run of a system, in registry order: an earlier run has no review (the
    review is of the system's current run)."""
    pages = system_pages(graph.system)
    return [spec for spec in pages if graph.is_current or spec.key != REVIEW_PAGE]


def pages_of(graph: SystemGraph) -> list[tuple[str, str]]:
    """(page key, path) of every page this run of a system has, in registry order."""
    return [(spec.key, urls.page_path(spec.key, graph.slug)) for spec in published_pages(graph)]


def artifacts_of(graph: SystemGraph) -> list[Artifact]:
    """The pages of a system that its system page lists as artifacts."""
    return [
        Artifact(spec.title, urls.page_path(spec.key, graph.slug), spec.artifact_note)
        for spec in published_pages(graph)
        if spec.artifact_note is not None
    ]


@dataclass(frozen=True)
class SystemSummary:
    """What cross-system pages and the home page need to know of a system."""

    slug: str
    name: str
    run_id: str | None
    disposition: str | None
    tier: str | None
    total: int
    artifacts: list[Artifact]
    pages: list[tuple[str, str]]  # (page key, path) of every page of the system

    @property
    def path(self) -> str:
        """The path of the system page."""
        return urls.page_path(SYSTEM_PAGE, self.slug)

    def as_dict(self) -> dict[str, Any]:
        """For the nav and the hand-written home page (links relative to the site root)."""
        return {
            "slug": self.slug,
            "name": self.name,
            "run_id": self.run_id,
            "disposition": self.disposition,
            "tier": self.tier,
            "total": self.total,
            "pages": [{"key": key, "path": path} for key, path in self.pages],
            "url": urls.system_dir(self.slug),
            "name_md": str(escape(self.name)),
            "link_md": str(link(self.name, urls.href(urls.HOME, self.path))),
            "artifact_links_md": [
                str(link(a.title.lower(), urls.href(urls.HOME, a.path))) for a in self.artifacts
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
        pages=pages_of(graph),
    )
