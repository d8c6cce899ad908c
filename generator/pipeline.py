"""The whole pipeline for a records folder: load → check → link → render.

Pure: it reads the records and returns pages and diagnostics; writing is the
caller's business (the MkDocs plugin adds virtual files, the CLI reports).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .check import CheckedSystem, check_records, collector_paused
from .diagnostics import Diagnostic, Severity
from .link import SystemGraph, link_system
from .render.cross import render_cross_system
from .render.pages import render_system
from .render.registry import SYSTEM_PAGE, system_pages
from .render.summary import summarize
from .render.urls import page_path
from .setmanifest import MANIFEST_FILE, manifest_text


@dataclass
class PipelineResult:
    """Pages (path → Markdown) when the records are clean, and every diagnostic."""

    systems: list[CheckedSystem]
    graphs: list[SystemGraph] = field(default_factory=list)
    pages: dict[str, str] = field(default_factory=dict)
    # Other generated files: each analysis set's manifest (path below docs_dir → text).
    artifacts: dict[str, str] = field(default_factory=dict)
    base: Path = field(default_factory=Path.cwd)  # what the diagnostics' file paths are relative to

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for system in self.systems for d in system.diagnostics]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    def summaries(self) -> list[dict[str, object]]:
        return [summarize(graph).as_dict() for graph in self.graphs]

    def edit_paths(self) -> dict[str, Path]:
        """Generated page → the record file it is rendered from (cross-system pages have none)."""
        found: dict[str, Path] = {}
        for system in self.systems:
            records = system.records
            for spec in system_pages(records):
                model = spec.edit_source(records) if spec.edit_source is not None else None
                origin = records.origin(model) if model is not None else None
                path = page_path(spec.key, records.slug)
                if origin is not None and path in self.pages:
                    found[path] = self.base / origin.file  # an absolute display path stays absolute
        return found


def link_records(records: Path, base: Path | None = None) -> PipelineResult:
    """Check every system and link it when no system has errors; nothing is rendered."""
    base = (base or Path.cwd()).resolve()
    result = PipelineResult(systems=check_records(records, base) if records.is_dir() else [], base=base)
    if result.errors:
        return result
    with collector_paused():
        result.graphs = [link_system(system.records) for system in result.systems]
    return result


def run_pipeline(records: Path, base: Path | None = None) -> PipelineResult:
    """Check every system; link and render pages only when no system has errors."""
    result = link_records(records, base)
    if result.errors:
        return result
    with collector_paused():
        pages: dict[str, str] = {}
        for graph in result.graphs:
            pages.update(render_system(graph))
        pages.update(render_cross_system(result.graphs))
    result.pages = dict(sorted(pages.items()))
    result.artifacts = set_manifests(result.graphs)
    return result


def set_manifests(graphs: list[SystemGraph]) -> dict[str, str]:
    """``systems/<slug>/ARTIFACT.yaml`` of every analysis set, beside its member pages."""
    found = {}
    for graph in graphs:
        if graph.system.analysis_set is not None:
            folder = page_path(SYSTEM_PAGE, graph.slug).rsplit("/", 1)[0]
            found[f"{folder}/{MANIFEST_FILE}"] = manifest_text(graph.system)
    return dict(sorted(found.items()))
