"""The whole pipeline for a records folder: load → check → link → render.

Pure: it reads the records and returns pages and diagnostics; writing is the
caller's business (the MkDocs plugin adds virtual files, the CLI reports).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.check import CheckedSystem, FolderCheck, check_folder, check_records, collector_paused
from generator.diagnostics import Diagnostic, Severity
from generator.graph.system_graph import SystemGraph, link_system
from generator.load.fingerprint import SystemCache, SystemStages, folder_fingerprint
from generator.outputs.set_manifest import MANIFEST_FILE, manifest_text
from generator.render.cross import render_cross_system
from generator.render.pages import render_system
from generator.render.registry import SYSTEM_PAGE, system_pages
from generator.render.summary import summarize
from generator.render.urls import page_path


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


def _checked(
    records: Path, base: Path | None, cache: SystemCache | None
) -> tuple[PipelineResult, dict[int, SystemStages]]:
    """Every system checked, and (with a cache) the remembered stages of each, by ``id``."""
    base = (base or Path.cwd()).resolve()
    stages: dict[int, SystemStages] = {}
    seen: set[tuple[str, str, bool]] = set()
    check = check_folder if cache is None else _remembering_check(cache, stages, seen)
    result = PipelineResult(
        systems=check_records(records, base, check) if records.is_dir() else [], base=base
    )
    if cache is not None:
        cache.keep_only(seen)
    return result, stages


def _remembering_check(
    cache: SystemCache, stages: dict[int, SystemStages], seen: set[tuple[str, str, bool]]
) -> FolderCheck:
    """A folder check that reuses the stages of an unchanged folder and remembers new ones."""

    def check(folder: Path, base: Path | None, nested: bool) -> CheckedSystem:
        shown_from = base or Path.cwd()
        seen.add((str(folder), str(shown_from), nested))
        fingerprint = folder_fingerprint(folder, cache.digests)
        found = cache.get(folder, shown_from, nested, fingerprint)
        if found is None:
            found = SystemStages(check_folder(folder, base, nested))
            cache.put(folder, shown_from, nested, fingerprint, found)
        checked = found.fresh_checked()
        stages[id(checked)] = found
        return checked

    return check


def link_records(records: Path, base: Path | None = None, cache: SystemCache | None = None) -> PipelineResult:
    """Check every system and link it when no system has errors; nothing is rendered.

    With a ``cache`` (``kbgen serve``), systems whose folder is unchanged are not loaded,
    checked or linked again.
    """
    result, stages = _checked(records, base, cache)
    if result.errors:
        return result
    with collector_paused():
        result.graphs = [_graph(system, stages.get(id(system))) for system in result.systems]
    return result


def _graph(system: CheckedSystem, stages: SystemStages | None) -> SystemGraph:
    if stages is None:
        return link_system(system.records)
    if stages.graph is None:
        stages.graph = link_system(system.records)
    return stages.graph


def _system_pages(graph: SystemGraph, stages: SystemStages | None) -> dict[str, str]:
    if stages is None:
        return render_system(graph)
    if stages.pages is None:
        stages.pages = render_system(graph)
    return stages.pages


def run_pipeline(records: Path, base: Path | None = None, cache: SystemCache | None = None) -> PipelineResult:
    """Check every system; link and render pages only when no system has errors.

    With a ``cache``, only systems whose folder changed are loaded, checked, linked and
    rendered again; the cross-system pages are always rendered from every system.
    """
    result, stages = _checked(records, base, cache)
    if result.errors:
        return result
    with collector_paused():
        pages: dict[str, str] = {}
        for system in result.systems:
            known = stages.get(id(system))
            graph = _graph(system, known)
            result.graphs.append(graph)
            pages.update(_system_pages(graph, known))
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
