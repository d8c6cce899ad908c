"""The page registry: one ``PageSpec`` per page type, everything else derives from it.

A page type is its key, its path pattern, its nav title and place, its template and
its view builder (the function that turns a ``PageRequest`` into the template's
context), and whether it is rendered once per system (and for which systems) or once
for the whole site. Page paths and hrefs (``urls.py``), the site navigation (the
plugin), the artifacts list of a system page, backlink labels, frontmatter type names,
edit links and the reserved system slugs all read this registry when they are used, so
``register_page()`` is the one change a new page type needs.

The built-in pages are registered by ``builtin_pages.py``, imported on first use of the
registry: the view builders need the link stage, which itself asks this registry for
page keys, so an import at module level would be circular.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph
    from generator.model.system import SystemRecords

# Keys of the built-in per-system pages: the link stage places records and sections on them.
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

_KEY = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\Z")
# A path pattern: '/'-separated lower-case segments ending in '.md'; '{slug}' is the system's folder.
_PATH = re.compile(r"^(?:(?:[a-z0-9][a-z0-9-]*|\{slug\})/)*[a-z0-9][a-z0-9-]*\.md\Z")
_BUILTINS = "generator.render.builtin_pages"


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
    graphs: Sequence[SystemGraph]  # per-system page: its one system; cross-system: every system
    rendered: Mapping[str, str]  # pages rendered before this one in this pass (path → Markdown)

    @property
    def graph(self) -> SystemGraph:
        """The system of a per-system page."""
        if not self.spec.per_system or len(self.graphs) != 1:
            raise ValueError(f"page {self.spec.key!r} is not rendered for one system")
        return self.graphs[0]


View = Callable[[PageRequest], Mapping[str, Any]]


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


_REGISTRY: dict[str, PageSpec] = {}
_builtins_loaded = False


def _ensure_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        importlib.import_module(_BUILTINS)


def _refusal(spec: PageSpec) -> str | None:
    if not _KEY.match(spec.key):
        return f"page key {spec.key!r} is not lower-case words joined by '-'"
    if spec.key in _REGISTRY:
        return f"page key {spec.key!r} is already registered"
    if not _PATH.match(spec.path):
        return f"page path {spec.path!r} is not a '/'-separated lower-case path ending in '.md'"
    if ("{slug}" in spec.path) != spec.per_system:
        return f"page path {spec.path!r}: '{{slug}}' must appear exactly in per-system pages"
    if any(other.path == spec.path for other in _REGISTRY.values()):
        return f"page path {spec.path!r} is already registered"
    return None


def register_page(spec: PageSpec) -> PageSpec:
    """Add a page type; paths, nav, artifacts and rendering follow."""
    _ensure_builtins()  # built-ins first, so they keep their place in the order
    refusal = _refusal(spec)
    if refusal:
        raise ValueError(refusal)
    _REGISTRY[spec.key] = spec
    return spec


def unregister_page(key: str) -> None:
    """Remove a page type registered earlier (tests use it to clean up)."""
    del _REGISTRY[key]


def registered_pages() -> tuple[PageSpec, ...]:
    """Every registered page type, in registration order (the order of nav and artifacts)."""
    _ensure_builtins()
    return tuple(_REGISTRY.values())


def page_spec(key: str) -> PageSpec:
    _ensure_builtins()
    return _REGISTRY[key]


def system_pages(system: SystemRecords) -> tuple[PageSpec, ...]:
    """The per-system page types this system has, in registration order."""
    return tuple(spec for spec in registered_pages() if spec.per_system and spec.exists(system))


def cross_pages() -> tuple[PageSpec, ...]:
    """The cross-system page types, in registration order."""
    return tuple(spec for spec in registered_pages() if not spec.per_system)


def home_page(system: SystemRecords) -> str:
    """The key of the page a system's records are published on: the first existing page
    that holds records, else the system page."""
    return next((spec.key for spec in system_pages(system) if spec.holds_records), SYSTEM_PAGE)
