"""The page registry: one ``PageSpec`` per page type, everything else derives from it.

A page type is its key, its path pattern, its nav title and place, its template and
its view builder (the function that turns a ``PageRequest`` into the template's
context), and whether it is rendered once per system (and for which systems), once
for the whole site, or once for each run of a system that has a run before it (the
changes page). Page paths and hrefs (``urls.py``), the site navigation (the
plugin), the artifacts list of a system page, backlink labels, frontmatter type names,
edit links, the reserved system slugs and the kind search tags a page's hits with all read
the registry in force, so a spec is the one change a new page type needs.

A ``PageRegistry`` is immutable. The built-in one (``builtin_pages.PAGES``) is built
once, when the render package is imported (its ``__init__`` imports ``builtin_pages``,
which installs it here: the views it names import ``urls``, which reads this module, so
the registry cannot import them itself). A test, or a tool built on the generator, makes
its own with ``PAGES.extended(spec)`` and renders under ``using_pages(registry)``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from generator.graph.placement import PagePlacement
from generator.model.runs import RUNS_FOLDER
from generator.model.system import SystemRecords
from generator.model.vocab import Member

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

# Keys of the built-in per-system pages: the graph places records and sections on them (PLACEMENT).
SYSTEM_PAGE, RESULT_PAGE, REVIEW_PAGE, MEMORY_PAGE = "index", "result", "review", "memory-report"
# Keys of the pages of an analysis set's members (the memory member is the memory report).
OVERVIEW_PAGE, RUNTIME_PAGE, EPISTEMIC_PAGE, RECONCILIATION_PAGE = (
    "overview",
    "runtime",
    "epistemic",
    "reconciliation",
)
# Keys of the built-in cross-system pages.
SYSTEMS_INDEX_PAGE, STATUS_MATRIX_PAGE, GLOSSARY_PAGE = "systems-index", "status-matrix", "glossary"
MEMORY_COMPARISON_PAGE = "memory-comparison"
# Key of the built-in page between two runs: what changed since the run before.
RUN_CHANGES_PAGE = "run-changes"
# Key of the built-in page across every run of a system of three runs or more.
RUN_HISTORY_PAGE = "run-history"

_KEY = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\Z")
# A path pattern: '/'-separated lower-case segments ending in '.md'; '{slug}' is the system's folder.
_PATH = re.compile(r"^(?:(?:[a-z0-9][a-z0-9-]*|\{slug\})/)*[a-z0-9][a-z0-9-]*\.md\Z")


class Nav(Enum):
    """Where a page sits in the generated 'Systems' section of the navigation."""

    SECTION_INDEX = "section-index"  # the section's own page (no title: the page's heading names it)
    ENTRY = "entry"  # an entry titled with the spec's title
    NONE = "none"  # not in the generated navigation (e.g. linked from mkdocs.yml)


@dataclass(frozen=True)
class PageRequest:
    """What a view builder gets: its spec, the page's path and the graphs it may show."""

    spec: PageSpec
    path: str  # the page's path below docs_dir, e.g. systems/demo/result.md
    # Per-system page: its one system; cross-system: every system; between runs: the run
    # before and the run (two runs of one system); across runs: every run, oldest first.
    graphs: Sequence[SystemGraph]
    rendered: Mapping[str, str]  # pages rendered before this one in this pass (path → Markdown)

    @property
    def graph(self) -> SystemGraph:
        """The system of a per-system page."""
        if (
            not self.spec.per_system
            or self.spec.between_runs
            or self.spec.across_runs
            or len(self.graphs) != 1
        ):
            raise ValueError(f"page {self.spec.key!r} is not rendered for one system")
        return self.graphs[0]

    @property
    def runs(self) -> tuple[SystemGraph, SystemGraph]:
        """The two runs of a page between runs: the run before, then the run."""
        if not self.spec.between_runs or len(self.graphs) != 2:
            raise ValueError(f"page {self.spec.key!r} is not rendered between two runs")
        return self.graphs[0], self.graphs[1]

    @property
    def all_runs(self) -> Sequence[SystemGraph]:
        """Every run of a page across runs, oldest first (the current run among them)."""
        if not self.spec.across_runs or len(self.graphs) < self.spec.across_runs:
            raise ValueError(f"page {self.spec.key!r} is not rendered across a system's runs")
        return self.graphs


View = Callable[[PageRequest], Mapping[str, Any]]


@dataclass(frozen=True)
class ViewOf:
    """A view builder named by its module and function, imported when a page of its type
    is first rendered. Whatever checks records reads this registry (the names the site
    keeps for itself) and renders nothing: ``kbgen check`` and the language server start
    without the renderer and its templates."""

    module: str
    name: str

    def __call__(self, request: PageRequest) -> Mapping[str, Any]:
        view: View = getattr(importlib.import_module(self.module), self.name)
        return view(request)


def _always(_system: SystemRecords) -> bool:
    return True


@dataclass(frozen=True)
class PageSpec:
    """Everything that defines one page type."""

    key: str
    path: str  # path pattern below docs_dir; '{slug}' stands for the system's folder
    title: str  # nav title and artifact title ("Memory report")
    label: str  # how backlinks from other pages name it ("memory report")
    template: str  # template name in generator/templates/pages (or in template_source)
    view: View
    per_system: bool = True
    exists: Callable[[SystemRecords], bool] = _always  # per-system: does this system have the page?
    nav: Nav = Nav.ENTRY
    type_name: str | None = None  # frontmatter 'type'; None when the view takes it from the records
    artifact_note: str | None = None  # listed among a system's artifacts, with this note
    holds_records: bool = False  # may be a system's home page (the first existing one is)
    edit_source: Callable[[SystemRecords], object | None] | None = None  # the model its edit link opens
    template_source: str | None = None  # the template's text, when it is not a packaged file
    # The page convention: at most this share of the page's text is left to Python-Markdown
    # once its raw HTML blocks are spliced out (``mkdocs/splice.py``). Generated pages are
    # written as raw HTML (the ``html_*`` helpers, the HTML linker), which keeps a build of
    # a hundred systems fast; a page type that is mostly Markdown says so here, and why.
    markdown_share: float = 0.2
    # Rendered beside the pages of each run of a system that has a run before it (its path
    # has '{slug}', which is the run's), from the two runs; not one of a system's pages.
    between_runs: bool = False
    # Rendered once for each system of at least this many runs, beside its current run's
    # pages, from every run (oldest first); 0: not a page across runs.
    across_runs: int = 0
    # What search calls a hit on a page of this type that holds no records of its own (the
    # tag of a glossary entry, a section of the status matrix, a review), in ``kbgen search``
    # and the site's box alike; a record is called by its kind, a hand-written page 'page'.
    search_kind: str = "page"


# Beside a run's pages: what changed since the run before (``render/run_history.py``). With
# the earlier runs' folder (``model/runs.py``), no page type but one between runs may take it.
RUN_CHANGES_FILE = "changes.md"


def _refusal(spec: PageSpec, earlier: Mapping[str, PageSpec]) -> str | None:
    if not _KEY.match(spec.key):
        return f"page key {spec.key!r} is not lower-case words joined by '-'"
    if spec.key in earlier:
        return f"page key {spec.key!r} is already registered"
    if not _PATH.match(spec.path):
        return f"page path {spec.path!r} is not a '/'-separated lower-case path ending in '.md'"
    if ("{slug}" in spec.path) != spec.per_system:
        return f"page path {spec.path!r}: '{{slug}}' must appear exactly in per-system pages"
    below = spec.path.partition("{slug}/")[2]
    if spec.per_system and (
        (below == RUN_CHANGES_FILE and not spec.between_runs) or below.startswith(f"{RUNS_FOLDER}/")
    ):
        return f"page path {spec.path!r} is a run's: its changes page, or the earlier runs' folder"
    if (spec.between_runs or spec.across_runs) and not spec.per_system:
        return f"page {spec.key!r} is rendered from a system's runs: its path needs '{{slug}}'"
    if spec.between_runs and spec.across_runs:
        return f"page {spec.key!r} is either between two runs or across every run, not both"
    if spec.across_runs < 0 or spec.across_runs == 1:
        return f"page {spec.key!r}: a page across runs needs at least two runs"
    if any(other.path == spec.path for other in earlier.values()):
        return f"page path {spec.path!r} is already registered"
    return None


class PageRegistry:
    """An ordered, immutable set of page types (the order of nav and artifacts)."""

    def __init__(self, specs: Iterable[PageSpec]) -> None:
        by_key: dict[str, PageSpec] = {}
        for spec in specs:
            refusal = _refusal(spec, by_key)
            if refusal:
                raise ValueError(refusal)
            by_key[spec.key] = spec
        self._by_key = by_key
        self.specs: tuple[PageSpec, ...] = tuple(by_key.values())
        self.cross: tuple[PageSpec, ...] = tuple(spec for spec in self.specs if not spec.per_system)
        self.between_runs: tuple[PageSpec, ...] = tuple(spec for spec in self.specs if spec.between_runs)
        self.across_runs: tuple[PageSpec, ...] = tuple(spec for spec in self.specs if spec.across_runs)

    def extended(self, *specs: PageSpec) -> PageRegistry:
        """A new registry: these page types and then the given ones (refused as a whole on a conflict)."""
        return PageRegistry((*self.specs, *specs))

    def spec(self, key: str) -> PageSpec:
        return self._by_key[key]

    def system_pages(self, system: SystemRecords) -> tuple[PageSpec, ...]:
        """The per-system page types this system has, in order (not those from its runs)."""
        return tuple(
            spec
            for spec in self.specs
            if spec.per_system and not spec.between_runs and not spec.across_runs and spec.exists(system)
        )

    def home_page(self, system: SystemRecords) -> str:
        """The key of the page a system's records are published on: the first existing page
        that holds records, else the system page."""
        return next((spec.key for spec in self.system_pages(system) if spec.holds_records), SYSTEM_PAGE)


_BUILTIN: list[PageRegistry] = []  # the built-in registry, installed once by builtin_pages
_ACTIVE: ContextVar[PageRegistry | None] = ContextVar("kb_pages", default=None)


def install_builtin(registry: PageRegistry) -> None:
    """Make ``registry`` the built-in one (``builtin_pages`` does, once, at import)."""
    if _BUILTIN:
        raise RuntimeError("the built-in page registry is installed already")
    _BUILTIN.append(registry)


def active_pages() -> PageRegistry:
    """The registry in force: the built-in one, or the one a caller runs under (``using_pages``)."""
    found = _ACTIVE.get()
    return found if found is not None else _BUILTIN[0]


@contextmanager
def using_pages(registry: PageRegistry) -> Iterator[PageRegistry]:
    """Run the block with ``registry`` in force: rendering, paths, nav and slugs follow it."""
    token = _ACTIVE.set(registry)
    try:
        yield registry
    finally:
        _ACTIVE.reset(token)


def registered_pages() -> tuple[PageSpec, ...]:
    """Every page type in force, in order (the order of nav and artifacts)."""
    return active_pages().specs


def page_spec(key: str) -> PageSpec:
    return active_pages().spec(key)


def system_pages(system: SystemRecords) -> tuple[PageSpec, ...]:
    """The per-system page types this system has, in order."""
    return active_pages().system_pages(system)


def cross_pages() -> tuple[PageSpec, ...]:
    """The cross-system page types, in order."""
    return active_pages().cross


def between_runs_pages() -> tuple[PageSpec, ...]:
    """The page types rendered between two runs of a system, in order."""
    return active_pages().between_runs


def across_runs_pages() -> tuple[PageSpec, ...]:
    """The page types rendered across every run of a system, in order."""
    return active_pages().across_runs


def home_page(system: SystemRecords) -> str:
    """The key of the page a system's records are published on."""
    return active_pages().home_page(system)


# Where the linked graph places records and sections (``generator.graph.placement``).
PLACEMENT = PagePlacement(
    system=SYSTEM_PAGE,
    memory_report=MEMORY_PAGE,
    documents={
        "result": RESULT_PAGE,
        "memory_report": MEMORY_PAGE,
        "overview": OVERVIEW_PAGE,
        "runtime_report": RUNTIME_PAGE,
        "epistemic_report": EPISTEMIC_PAGE,
        "reconciliation_report": RECONCILIATION_PAGE,
    },
    members={
        Member.OVERVIEW: OVERVIEW_PAGE,
        Member.RUNTIME: RUNTIME_PAGE,
        Member.MEMORY: MEMORY_PAGE,
        Member.EPISTEMIC: EPISTEMIC_PAGE,
        Member.RECONCILIATION: RECONCILIATION_PAGE,
    },
    home=home_page,
)
