"""The whole pipeline for a records folder: load → check → link → render.

Pure: it reads the records and returns pages and diagnostics; writing is the
caller's business (the MkDocs plugin adds virtual files, the CLI reports).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from generator.check import (
    CheckedSystem,
    FolderCheck,
    check_folder,
    check_system_folders,
    collector_paused,
    folder_check,
)
from generator.check.in_two import check_in_two
from generator.check.report import Reported
from generator.diagnostics import Diagnostic, Severity
from generator.graph.system_graph import SystemGraph, link_system
from generator.load.fingerprint import FileDigests, folder_fingerprint
from generator.load.slugs import SITE_NAMES
from generator.model.runs import RunHistory, run_history
from generator.model.set_manifest import MANIFEST_FILE, MANIFEST_TEXT_FILE, manifest_text
from generator.render.registry import PLACEMENT, SYSTEM_PAGE
from generator.render.summary import published_pages, summarize
from generator.render.urls import page_path, reserved_slugs

# The page renderers (their templates, Jinja and the views) are imported where pages are
# rendered: checking records needs only the page registry, and ``kbgen check``, ``kbgen
# diff`` and the language server start without them.
if TYPE_CHECKING:
    from generator.render.pages import RunPagesMemo

T = TypeVar("T")


@dataclass
class SystemStages:
    """What the pipeline made of one system folder; graph and pages once it was clean."""

    checked: CheckedSystem
    graph: SystemGraph | None = None
    pages: dict[str, str] | None = None

    def fresh_checked(self) -> CheckedSystem:
        """A copy the caller may change (the first system gets the folder-level warnings)."""
        return replace(self.checked, diagnostics=list(self.checked.diagnostics))


@dataclass
class SystemCache:
    """The stages of each system folder, keyed by folder, display base and fingerprint."""

    entries: dict[tuple[str, str, bool], tuple[str, SystemStages]] = field(default_factory=dict)
    changes: RunPagesMemo = field(default_factory=dict)  # the pages between runs (the changes pages)
    digests: FileDigests = field(default_factory=FileDigests)  # for the folders' fingerprints
    hits: int = 0
    misses: int = 0

    def get(self, folder: Path, base: Path, nested: bool, fingerprint: str) -> SystemStages | None:
        found = self.entries.get((str(folder), str(base), nested))
        if found is not None and found[0] == fingerprint:
            self.hits += 1
            return found[1]
        self.misses += 1
        return None

    def put(self, folder: Path, base: Path, nested: bool, fingerprint: str, stages: SystemStages) -> None:
        self.entries[(str(folder), str(base), nested)] = (fingerprint, stages)

    def keep_only(self, folders: set[tuple[str, str, bool]]) -> None:
        """Forget systems that are gone (removed or renamed), so memory follows the records."""
        for key in [key for key in self.entries if key not in folders]:
            del self.entries[key]


class PerGraph(Generic[T]):
    """A value computed from one system's graph alone, kept while that graph is.

    An unchanged system keeps its graph object across rebuilds (``SystemCache``), so the
    graph's identity is the key: a rebuild computes the value for edited systems only, and
    forgets the systems it was not asked about.
    """

    def __init__(self, compute: Callable[[SystemGraph], T]) -> None:
        self._compute = compute
        self._kept: dict[int, tuple[SystemGraph, T]] = {}

    def values(self, graphs: list[SystemGraph]) -> list[T]:
        kept: dict[int, tuple[SystemGraph, T]] = {}
        for graph in graphs:
            found = self._kept.get(id(graph))
            # The graph is held with its value, so its id cannot be reused meanwhile.
            fresh = found is not None and found[0] is graph
            kept[id(graph)] = found if fresh and found is not None else (graph, self._compute(graph))
        self._kept = kept
        return [kept[id(graph)][1] for graph in graphs]

    def compute(self, graph: SystemGraph) -> T:
        return self._compute(graph)

    def keep(self, graph: SystemGraph, value: T) -> None:
        """A value computed elsewhere (a forked render worker, ``render/workers.py``) for the graph."""
        self._kept[id(graph)] = (graph, value)


@dataclass
class PipelineResult:
    """Pages (path → Markdown) when the records are clean, and every diagnostic."""

    systems: list[CheckedSystem]
    graphs: list[SystemGraph] = field(default_factory=list)  # each system's current run
    earlier_runs: list[SystemGraph] = field(default_factory=list)  # the systems' other runs
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
        """Each system's summary (its current run) with its runs' pages, for the nav and
        the home page."""
        from generator.render.run_history import runs_summary

        earlier: dict[str, list[SystemGraph]] = {}
        for graph in self.earlier_runs:
            earlier.setdefault(graph.system.slug, []).append(graph)
        return [
            {**summarize(graph).as_dict(), **runs_summary(graph, earlier.get(graph.system.slug, []))}
            for graph in self.graphs
        ]

    def edit_paths(self) -> dict[str, Path]:
        """Generated page → the record file it is rendered from (cross-system pages have none)."""
        found: dict[str, Path] = {}
        for graph in [*self.graphs, *self.earlier_runs]:
            records = graph.system
            for spec in published_pages(graph):
                model = spec.edit_source(records) if spec.edit_source is not None else None
                origin = records.origin(model) if model is not None else None
                path = page_path(spec.key, graph.slug)
                if origin is not None and path in self.pages:
                    found[path] = self.base / origin.file  # an absolute display path stays absolute
        return found


def reserved_names() -> frozenset[str]:
    """The names a system folder may not take: the site's own folders and the generated pages'."""
    return SITE_NAMES | reserved_slugs()


def check_records(records: Path, base: Path | None = None) -> list[CheckedSystem]:
    """Load and check every system under a records folder (or one system folder), with
    the names the site keeps for itself reserved; nothing is linked or rendered."""
    return check_system_folders(records, base, folder_check(reserved_names()))


def report_records(records: Path, base: Path | None = None) -> list[Reported]:
    """``check_records`` as the reports say it (the records themselves are not kept), on
    two cores where the records folder holds enough systems (``check/in_two.py``)."""
    return check_in_two(records, base, folder_check(reserved_names()))


def check_system(
    folder: Path,
    base: Path | None = None,
    unsaved: Mapping[str, str] | None = None,
    run_of: str | None = None,
) -> CheckedSystem:
    """Load and check one system folder of a records folder (or, ``run_of``: one further run
    of that system), with an editor's unsaved text of open files (path below the folder →
    text) standing in for theirs on disk."""
    return check_folder(folder, base, True, reserved_names(), unsaved, run_of)


def _checked(
    records: Path, base: Path | None, cache: SystemCache | None
) -> tuple[PipelineResult, dict[int, SystemStages]]:
    """Every system checked, and (with a cache) the remembered stages of each, by ``id``."""
    base = (base or Path.cwd()).resolve()
    stages: dict[int, SystemStages] = {}
    seen: set[tuple[str, str, bool]] = set()
    plain = folder_check(reserved_names())
    check = plain if cache is None else _remembering_check(plain, cache, stages, seen)
    result = PipelineResult(
        systems=check_system_folders(records, base, check) if records.is_dir() else [], base=base
    )
    if cache is not None:
        cache.keep_only(seen)
    return result, stages


def _remembering_check(
    plain: FolderCheck, cache: SystemCache, stages: dict[int, SystemStages], seen: set[tuple[str, str, bool]]
) -> FolderCheck:
    """A folder check that reuses the stages of an unchanged folder and remembers new ones."""

    def check(folder: Path, base: Path | None, nested: bool, run_of: str | None = None) -> CheckedSystem:
        shown_from = base or Path.cwd()
        seen.add((str(folder), str(shown_from), nested))
        fingerprint = folder_fingerprint(folder, cache.digests)
        found = cache.get(folder, shown_from, nested, fingerprint)
        if found is None:
            found = SystemStages(plain(folder, base, nested, run_of=run_of))
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
    runs = histories(result.systems)
    with collector_paused():
        for system in result.systems:
            graph = _graph(system, stages.get(id(system)), runs.get(id(system)))
            (result.graphs if graph.is_current else result.earlier_runs).append(graph)
    return result


def histories(systems: list[CheckedSystem]) -> dict[int, RunHistory]:
    """The run history of every system with more than one run, by ``id`` of each run's
    checked system (a system of one run has none: its pages are where they always were)."""
    by_slug: dict[str, list[CheckedSystem]] = {}
    for system in systems:
        by_slug.setdefault(system.records.slug, []).append(system)
    found: dict[int, RunHistory] = {}
    for slug, runs in by_slug.items():
        if len(runs) > 1:
            history = run_history(slug, [(run.records.run_folder, run.records) for run in runs])
            found.update((id(run), history) for run in runs)
    return found


def _graph(system: CheckedSystem, stages: SystemStages | None, history: RunHistory | None) -> SystemGraph:
    # A kept graph is reused only under the same history: a new run moves an earlier
    # run's pages (and its links) below runs/.
    if stages is not None and stages.graph is not None and stages.graph.history == history:
        return stages.graph
    graph = link_system(system.records, PLACEMENT, history)
    if stages is not None:
        stages.graph, stages.pages = graph, None
    return graph


def _system_pages(graph: SystemGraph, stages: SystemStages | None) -> dict[str, str]:
    from generator.render.pages import render_system

    if stages is None:
        return render_system(graph)
    if stages.pages is None:
        stages.pages = render_system(graph)
    return stages.pages


def run_pipeline(
    records: Path,
    base: Path | None = None,
    cache: SystemCache | None = None,
    alongside: Sequence[PerGraph[Any]] = (),
) -> PipelineResult:
    """Check every system; link and render pages only when no system has errors.

    With a ``cache``, only systems whose folder changed are loaded, checked, linked and
    rendered again; the cross-system pages are always rendered from every system. A build
    may hand ``alongside`` the per-system values its later steps need: where systems are
    rendered in forked workers, the workers compute them too.
    """
    if cache is None:
        return _build(records, base, alongside)
    from generator.render.pages import render_run_pages

    result, stages = _checked(records, base, cache)
    if result.errors:
        return result
    runs = histories(result.systems)
    with collector_paused():
        pages: dict[str, str] = {}
        for system in result.systems:  # a rebuild while serving: the systems an edit changed
            graph = _graph(system, stages.get(id(system)), runs.get(id(system)))
            (result.graphs if graph.is_current else result.earlier_runs).append(graph)
            pages.update(_system_pages(graph, stages.get(id(system))))
        pages.update(render_run_pages([*result.graphs, *result.earlier_runs], cache.changes))
        pages.update(_cross_system_pages(result.graphs))
    return _with_pages(result, pages)


def _build(records: Path, base: Path | None, alongside: Sequence[PerGraph[Any]]) -> PipelineResult:
    """A build: each system folder is linked as soon as it is checked, and rendered by
    forked workers while the next folders are checked (``render/workers.py``).

    What the check returns is what counts: a system linked meanwhile under another run
    history than the whole records folder's is linked again, and nothing is rendered when
    any system has errors (workers rendering are stopped at the first)."""
    from generator.render.pages import render_run_pages
    from generator.render.workers import RenderWorkers

    base = (base or Path.cwd()).resolve()
    workers = RenderWorkers(alongside)
    linked: dict[int, SystemGraph] = {}  # by id of the checked system (the check keeps it)
    clean = True

    def link_folder(checked: list[CheckedSystem], folders_left: int) -> None:
        nonlocal clean
        clean = clean and not any(_has_errors(system) for system in checked)
        if not clean:
            workers.stop()
            return
        runs = histories(checked)
        for system in checked:
            linked[id(system)] = graph = _graph(system, None, runs.get(id(system)))
            workers.add(graph)
        workers.hand_off(folders_left)

    try:
        check = folder_check(reserved_names())
        systems = check_system_folders(records, base, check, link_folder) if records.is_dir() else []
        result = PipelineResult(systems=systems, base=base)
        if result.errors:
            return result
        runs = histories(result.systems)
        with collector_paused():
            for system in result.systems:
                graph = linked.get(id(system))
                if graph is None or graph.history != runs.get(id(system)):
                    graph = _graph(system, None, runs.get(id(system)))
                    workers.add(graph)
                (result.graphs if graph.is_current else result.earlier_runs).append(graph)
            across: dict[str, str] = {}

            def pages_across() -> None:  # here, while the workers render the systems
                across.update(render_run_pages([*result.graphs, *result.earlier_runs], None))
                across.update(_cross_system_pages(result.graphs))

            rendered = dict(zip(map(id, workers.graphs), workers.finish(pages_across), strict=True))
            pages: dict[str, str] = {}
            for graph in [*result.graphs, *result.earlier_runs]:
                pages.update(rendered[id(graph)])
            pages.update(across)
    finally:
        workers.stop()
    return _with_pages(result, pages)


def _has_errors(system: CheckedSystem) -> bool:
    return any(d.severity is Severity.ERROR for d in system.diagnostics)


def _cross_system_pages(graphs: list[SystemGraph]) -> dict[str, str]:
    """The comparison, the status matrix and the other cross-system pages: they read the
    current run of each system."""
    from generator.render.cross import render_cross_system

    return render_cross_system(graphs)


def _with_pages(result: PipelineResult, pages: dict[str, str]) -> PipelineResult:
    result.pages = dict(sorted(pages.items()))
    result.artifacts = set_manifests(result.graphs)
    return result


def set_manifests(graphs: list[SystemGraph]) -> dict[str, str]:
    """``systems/<slug>/ARTIFACT.yaml`` of every analysis set, beside its member pages,
    and its copy ``ARTIFACT.yaml.txt`` that browsers open as text (the pages link to it)."""
    found = {}
    for graph in graphs:
        if graph.system.analysis_set is not None:
            folder = page_path(SYSTEM_PAGE, graph.slug).rsplit("/", 1)[0]
            text = manifest_text(graph.system)
            found[f"{folder}/{MANIFEST_FILE}"] = text
            found[f"{folder}/{MANIFEST_TEXT_FILE}"] = text
    return dict(sorted(found.items()))
