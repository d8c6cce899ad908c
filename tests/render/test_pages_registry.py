"""The page registry: a page type is one spec plus its template, and everything derives from it.

A per-system "sources" page (listing the system's sources, each linking to its record)
and a cross-system "record counts" page are added to a registry of the test's own
(``PAGES.extended``), with their templates given as text, and put in force for a test
(``using_pages``); the built-in registry never changes. With no other code change they
are rendered, listed among the artifacts, placed in the navigation, their links resolve,
their names become reserved system slugs, and a strict ``kbgen build`` publishes them.
Two guards keep page paths in one place: no module but the registry and ``urls.py`` and
no template writes one.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from site_support import make_project
from source_scan import string_constants

from generator.mkdocs.nav import expand_nav, systems_nav
from generator.model.records import Source
from generator.pipeline import PipelineResult, run_pipeline
from generator.render import (
    PAGES,
    Nav,
    PageRegistry,
    PageRequest,
    PageSpec,
    page_spec,
    registered_pages,
    urls,
    using_pages,
)
from generator.render.environment import frontmatter
from generator.render.link_markup import link
from generator.render.pages import RecordPageView

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "render"

SOURCES_TEMPLATE = """\
{{ frontmatter }}
# Sources of {{ name }} { #top }

{% for source in sources %}
- {{ source }}
{% endfor %}
"""

COUNTS_TEMPLATE = """\
{{ frontmatter }}
# Record counts { #top }

| System | Records |
| --- | ---: |
{% for row in rows %}
| {{ row.system }} | {{ row.total }} |
{% endfor %}
"""


def sources_view(request: PageRequest) -> Mapping[str, Any]:
    graph = request.graph
    view = RecordPageView(graph, request.spec.key)
    sources = sorted((r for r in graph.system.records if isinstance(r, Source)), key=lambda r: r.id)
    return {
        "name": graph.system.run.system if graph.system.run else graph.slug,
        "sources": [view.linker.ref(source.id) for source in sources],
        "frontmatter": frontmatter({"type": request.spec.type_name, "render_macros": False}),
    }


def counts_view(request: PageRequest) -> Mapping[str, Any]:
    rows = [
        {
            "system": link(graph.slug, urls.href(request.path, urls.page_path("index", graph.slug))),
            "total": len(graph.system.records),
        }
        for graph in request.graphs
    ]
    return {"rows": rows, "frontmatter": frontmatter({"type": request.spec.type_name})}


SOURCES_PAGE = PageSpec(
    key="sources",
    path="systems/{slug}/sources.md",
    title="Sources",
    label="sources",
    template="test-sources.md.j2",
    template_source=SOURCES_TEMPLATE,
    view=sources_view,
    type_name="kb/types/sources.md",
    artifact_note="every source the analysis cites",
)

COUNTS_PAGE = PageSpec(
    key="record-counts",
    path="systems/record-counts.md",
    title="Record counts",
    label="record counts",
    template="test-record-counts.md.j2",
    template_source=COUNTS_TEMPLATE,
    view=counts_view,
    per_system=False,
    type_name="kb/types/record-counts.md",
    search_kind="record counts",
)


WITH_NEW_PAGES = PAGES.extended(SOURCES_PAGE, COUNTS_PAGE)


@pytest.fixture
def new_pages() -> Iterator[PageRegistry]:
    with using_pages(WITH_NEW_PAGES) as registry:
        yield registry


@pytest.fixture
def rendered(new_pages: PageRegistry) -> PipelineResult:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    assert result.errors == []
    return result


_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _links(markdown: str) -> list[str]:
    return [href for href in _LINK.findall(markdown) if "://" not in href]


# Files the site ships beside its pages (the exports linked from the comparison page).
SITE_DOWNLOADS = frozenset({urls.KB_JSON, urls.COMPARISON_CSV})


def _resolves(pages: Mapping[str, str], page: str, href: str) -> bool:
    """Does a relative href of ``page`` name a generated page (and an anchor on it)?"""
    target, _, anchor = href.partition("#")
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), target)) if target else page
    if path in SITE_DOWNLOADS:
        return not anchor
    if path not in pages:
        return False
    # An anchor is a heading's attribute list or an element's id in a raw HTML block.
    return not anchor or f"{{ #{anchor}" in pages[path] or f' id="{anchor}"' in pages[path]


def test_builtin_pages_in_order() -> None:
    """The system page first, then the other per-system pages, then the cross-system ones."""
    specs = registered_pages()
    assert specs == PAGES.specs
    assert specs[0].key == "index" and specs[0].holds_records is False
    per_system = [spec.per_system for spec in specs]
    assert per_system == sorted(per_system, reverse=True)
    for spec in specs:
        expected = spec.path.replace("{slug}", "demo")
        assert urls.page_path(spec.key, "demo" if spec.per_system else None) == expected
    assert urls.page_path("result", "demo") == "systems/demo/result.md"
    assert urls.page_path("glossary") == "glossary.md"


def test_hrefs_between_pages_are_relative() -> None:
    result, glossary = urls.page_path("result", "demo"), urls.page_path("glossary")
    assert (
        urls.href(result, glossary, "conclusion-status-wired") == "../../glossary.md#conclusion-status-wired"
    )
    assert urls.href(result, result, "rte-1") == "#rte-1"
    assert urls.file_href(result, result, "rte-1") == "result.md#rte-1"
    assert urls.href(urls.HOME, urls.page_path("index", "demo")) == "systems/demo/index.md"
    assert urls.href(urls.page_path("status-matrix"), urls.page_path("index", "demo")) == "demo/index.md"


def test_reserved_slugs_derive_from_the_cross_system_pages(new_pages: PageRegistry) -> None:
    names = {posixpath.splitext(posixpath.basename(spec.path))[0] for spec in new_pages.cross}
    assert "record-counts" in names  # the cross-system page this registry adds
    assert names <= urls.reserved_slugs()
    assert "sources" not in urls.reserved_slugs()  # per-system pages live inside the system folder


def test_new_pages_are_rendered(rendered: PipelineResult) -> None:
    sources = rendered.pages["systems/demo/sources.md"]
    assert sources.startswith("---\ntype: kb/types/sources.md\n")
    # Sources are published on the result page, the system's home page.
    assert "- [SRC-1](result.md#src-1)\n" in sources
    counts = rendered.pages["systems/record-counts.md"]
    assert "| [demo](demo/index.md) | " in counts


def test_a_new_cross_system_page_is_searchable_under_its_own_kind(rendered: PipelineResult) -> None:
    """Its spec's search_kind is what search calls its sections; the built-in pages keep theirs."""
    from generator.outputs.search import generated_page_documents, page_kinds

    found = generated_page_documents(rendered.graphs, rendered.pages)
    kinds = {doc.entry.url: doc.entry.kind for doc in found}
    assert kinds["systems/record-counts/"] == "record counts"
    assert kinds["glossary/"] == "glossary" and kinds["systems/status-matrix/"] == "status matrix"
    assert "record counts" in page_kinds()
    assert "record counts" not in {
        spec.search_kind for spec in PAGES.specs
    }  # the built-in registry untouched


def test_new_page_is_listed_among_the_artifacts(rendered: PipelineResult) -> None:
    assert (
        "- [Sources](sources.md) — every source the analysis cites" in rendered.pages["systems/demo/index.md"]
    )
    assert "[Sources](demo/sources.md)" in rendered.pages["systems/index.md"]
    (summary,) = rendered.summaries()
    assert "[sources](systems/demo/sources.md)" in summary["artifact_links_md"]  # type: ignore[operator]


def test_new_pages_are_in_the_navigation(rendered: PipelineResult) -> None:
    nav = expand_nav(["index.md", {"Systems": "systems/index.md"}], rendered.summaries())
    assert nav[1] == {
        "Systems": [
            "systems/index.md",
            {
                "Demo agent": [
                    "systems/demo/index.md",
                    {"Result": "systems/demo/result.md"},
                    {"Review": "systems/demo/review.md"},
                    {"Memory report": "systems/demo/memory-report.md"},
                    {"Sources": "systems/demo/sources.md"},
                ]
            },
            {"Status matrix": "systems/status-matrix.md"},
            {"Memory comparison": "comparisons/memory.md"},
            {"Record counts": "systems/record-counts.md"},
        ]
    }
    # The glossary is a top-level entry of mkdocs.yml, not part of the generated section.
    assert page_spec("glossary").nav is Nav.NONE


def test_every_site_link_of_every_page_resolves(rendered: PipelineResult) -> None:
    broken = [
        f"{page}: {href}"
        for page, markdown in rendered.pages.items()
        for href in _links(markdown)
        if not _resolves(rendered.pages, page, href)
    ]
    assert broken == []


def test_the_builtin_registry_keeps_no_trace_of_another() -> None:
    """Outside ``using_pages`` the built-in pages are in force, whatever other registries exist."""
    assert "sources" not in [spec.key for spec in PAGES.specs]
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    assert "systems/demo/sources.md" not in result.pages
    assert "systems/record-counts.md" not in result.pages
    assert "sources.md" not in result.pages["systems/demo/index.md"]
    assert "record-counts" not in str(systems_nav(result.summaries()))
    assert "record-counts" not in urls.reserved_slugs()


RUN_NOTE_TEMPLATE = """\
{{ frontmatter }}
# From {{ older }} to {{ newer }} { #top }

Changes: {{ changes }}
"""


def run_note_view(request: PageRequest) -> Mapping[str, Any]:
    older, newer = request.runs
    assert older.run is not None and newer.run is not None
    changes = urls.href(request.path, urls.page_path("run-changes", newer.slug))
    return {
        "older": older.run.label,
        "newer": newer.run.label,
        "changes": link("the changes page", changes),
        "frontmatter": frontmatter({"type": request.spec.type_name, "render_macros": False}),
    }


RUN_NOTE_PAGE = PageSpec(
    key="run-note",
    path="systems/{slug}/run-note.md",
    title="Run note",
    label="run note",
    template="test-run-note.md.j2",
    template_source=RUN_NOTE_TEMPLATE,
    view=run_note_view,
    between_runs=True,
    nav=Nav.NONE,
    type_name="kb/types/run-note.md",
)
TWO_RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "runs-two-runs-clean" / "records"


def test_a_page_between_runs_is_one_spec() -> None:
    """Like the changes page, a page type between runs is rendered beside each run that
    has a run before it, from the two runs, and is none of a system's own pages."""
    with using_pages(PAGES.extended(RUN_NOTE_PAGE)):
        result = run_pipeline(TWO_RUNS)
        assert result.errors == []
        (graph,) = result.graphs
        assert "run-note" not in [key for key, _ in result.summaries()[0]["pages"]]
    note = result.pages["systems/demo/run-note.md"]
    assert note.startswith("---\ntype: kb/types/run-note.md\n")
    assert "Changes: [the changes page](changes.md)" in note
    assert [path for path in result.pages if path.endswith("run-note.md")] == ["systems/demo/run-note.md"]
    assert graph.run is not None and f"to {graph.run.label} {{ #top }}" in note
    assert "systems/demo/run-note.md" not in run_pipeline(TWO_RUNS).pages


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"key": "result"}, "already registered"),
        ({"key": "Sources"}, "lower-case words"),
        ({"path": "systems/{slug}/result.md"}, "already registered"),
        ({"path": "../outside.md"}, "lower-case path"),
        ({"path": "systems/sources.md"}, "'{slug}'"),
        ({"path": "systems/{slug}/changes.md"}, "is a run's"),
        ({"path": "systems/{slug}/runs/sources.md"}, "is a run's"),
        ({"path": "systems/sources.md", "per_system": False, "between_runs": True}, "from a system's runs"),
        ({"path": "systems/sources.md", "per_system": False, "across_runs": 3}, "from a system's runs"),
        ({"between_runs": True, "across_runs": 3}, "not both"),
        ({"across_runs": 1}, "at least two runs"),
    ],
)
def test_registry_refuses_a_clashing_or_malformed_spec(change: dict[str, str], message: str) -> None:
    spec = PageSpec(**{**SOURCES_PAGE.__dict__, **change})
    with pytest.raises(ValueError, match=re.escape(message)):
        PAGES.extended(spec)
    assert page_spec("result").template == "result.md.j2"
    assert "sources" not in [s.key for s in registered_pages()]


def test_strict_site_build_publishes_the_new_pages(
    new_pages: PageRegistry, tmp_path: Path, kbgen: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    monkeypatch.chdir(project)
    site = tmp_path / "site"
    result = kbgen("build", "--records", str(project / "records"), "--site-dir", str(site))
    assert result.code == 0, result.out + result.err
    sources = (site / "systems" / "demo" / "sources" / "index.html").read_text(encoding="utf-8")
    assert 'href="../result/#src-1"' in sources
    counts = (site / "systems" / "record-counts" / "index.html").read_text(encoding="utf-8")
    assert 'href="../demo/"' in counts
    # In the navigation of every page.
    assert 'href="../../record-counts/"' in sources


# ---------------------------------------------------------------- one place names page paths

GENERATOR = Path(__file__).resolve().parents[2] / "generator"
# The registry's path patterns and the URL module are the only places a page path is written.
PATH_OWNERS = {"render/registry.py", "render/urls.py", "render/builtin_pages.py"}
_PAGE_PATH = re.compile(r"\.md#|[\w-]\.md(?![\w.])|\bsystems/")


def test_no_module_but_the_registry_and_urls_writes_a_page_path() -> None:
    offenders = [
        f"{relative}:{line}: {value!r}"
        for path in sorted(GENERATOR.rglob("*.py"))
        if (relative := path.relative_to(GENERATOR).as_posix()) not in PATH_OWNERS
        for line, value in string_constants(path)
        if _PAGE_PATH.search(value) and not value.startswith("docs/")  # the repository's manual
    ]
    assert offenders == []


def test_no_template_writes_a_page_path() -> None:
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((GENERATOR / "templates" / "pages").glob("*.j2"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _PAGE_PATH.search(line)
    ]
    assert offenders == []
