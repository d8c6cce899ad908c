"""The built-in page types: the pages of a system and the cross-system pages.

Registration order is the order of the navigation and of a system's artifacts; it is
also the rendering order, so the review (which pins the SHA-256 of the result page)
comes after the result.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.model.system import SystemRecords
from generator.model.vocab import Disposition
from generator.render.registry import (
    EPISTEMIC_PAGE,
    GLOSSARY_PAGE,
    MEMORY_COMPARISON_PAGE,
    MEMORY_PAGE,
    OVERVIEW_PAGE,
    RECONCILIATION_PAGE,
    RESULT_PAGE,
    REVIEW_PAGE,
    RUN_CHANGES_FILE,
    RUN_CHANGES_PAGE,
    RUN_HISTORY_PAGE,
    RUNTIME_PAGE,
    STATUS_MATRIX_PAGE,
    SYSTEM_PAGE,
    SYSTEMS_INDEX_PAGE,
    Nav,
    PageRegistry,
    PageSpec,
    ViewOf,
    install_builtin,
)


def _has_result(system: SystemRecords) -> bool:
    return system.result is not None


def _has_memory_report(system: SystemRecords) -> bool:
    return system.memory_report is not None


def _complete_set(system: SystemRecords) -> bool:
    """A complete set with an overview: it has a review."""
    run = system.run
    return (
        system.overview is not None
        and system.analysis_set is not None
        and run is not None
        and run.disposition is Disposition.COMPLETE
    )


def _has_review(system: SystemRecords) -> bool:
    return system.result is not None or _complete_set(system)


def _member_exists(key: str) -> Callable[[SystemRecords], bool]:
    return lambda system: system.analysis_set is not None and getattr(system, key) is not None


def _member_page(key: str, document: str, title: str, label: str, note: str, records: bool) -> PageSpec:
    """The page of one member of an analysis set."""
    return PageSpec(
        key=key,
        path="systems/{slug}/" + key + ".md",
        title=title,
        label=label,
        template="set-member.md.j2",
        view=ViewOf("generator.render.set_pages", "member_view"),
        exists=_member_exists(document),
        artifact_note=note,
        holds_records=records,
        edit_source=lambda system: getattr(system, document),
    )


def _run_source(system: SystemRecords) -> object | None:
    return system.run or system.result or system.memory_report


BUILTIN_PAGES = (
    PageSpec(
        key=SYSTEM_PAGE,
        path="systems/{slug}/index.md",
        title="System",
        label="system page",
        template="system.md.j2",
        view=ViewOf("generator.render.pages", "system_view"),
        nav=Nav.SECTION_INDEX,
        type_name="kb/types/agentic-system.md",
        edit_source=_run_source,
        markdown_share=1.0,  # short: its tables, run table and diagram are Markdown
    ),
    PageSpec(
        key=RESULT_PAGE,
        path="systems/{slug}/result.md",
        title="Result",
        label="result",
        template="result.md.j2",
        view=ViewOf("generator.render.pages", "result_view"),
        exists=_has_result,
        artifact_note="the full analysis, eleven sections",
        holds_records=True,
        edit_source=lambda system: system.result,
    ),
    PageSpec(
        key=REVIEW_PAGE,
        path="systems/{slug}/review.md",
        title="Review",
        label="review",
        template="review.md.j2",
        view=ViewOf("generator.render.pages", "review_view"),
        exists=_has_review,
        type_name="kb/types/agentic-system-review.md",
        artifact_note="the compact review projected from the result",
        edit_source=lambda system: system.result or system.overview,  # projected from it
        search_kind="review",
    ),
    _member_page(
        OVERVIEW_PAGE,
        "overview",
        "Overview",
        "overview",
        "the set's entry: boundary, sources, synthesis",
        True,
    ),
    _member_page(RUNTIME_PAGE, "runtime_report", "Runtime", "runtime report", "the runtime member", True),
    PageSpec(
        key=MEMORY_PAGE,
        path="systems/{slug}/memory-report.md",
        title="Memory report",
        label="memory report",
        template="memory-report.md.j2",
        view=ViewOf("generator.render.pages", "memory_report_view"),
        exists=_has_memory_report,
        artifact_note="the memory analysis",
        holds_records=True,
        edit_source=lambda system: system.memory_report,
        markdown_share=0.4,  # its profile table is Markdown
    ),
    _member_page(
        EPISTEMIC_PAGE, "epistemic_report", "Epistemic", "epistemic report", "the epistemic member", True
    ),
    _member_page(
        RECONCILIATION_PAGE,
        "reconciliation_report",
        "Reconciliation",
        "reconciliation",
        "amendments, supersessions and conflicts",
        False,
    ),
    PageSpec(
        key=RUN_CHANGES_PAGE,
        path="systems/{slug}/" + RUN_CHANGES_FILE,
        title="Changes",
        label="changes page",
        template="run-changes-page.md.j2",
        view=ViewOf("generator.render.run_history", "run_changes_view"),
        between_runs=True,
        nav=Nav.NONE,  # the nav lists the current run's, after the system's pages (mkdocs/nav.py)
        type_name="run-changes",
    ),
    PageSpec(
        key=RUN_HISTORY_PAGE,
        path="systems/{slug}/history.md",
        title="History",
        label="history page",
        template="run-history-page.md.j2",
        view=ViewOf("generator.render.run_history_page", "run_history_view"),
        across_runs=3,
        nav=Nav.NONE,  # the nav lists it after the changes page (mkdocs/nav.py)
        type_name="run-history",
    ),
    PageSpec(
        key=SYSTEMS_INDEX_PAGE,
        path="systems/index.md",
        title="Systems",
        label="systems index",
        template="systems-index.md.j2",
        view=ViewOf("generator.render.cross", "systems_index_view"),
        per_system=False,
        nav=Nav.SECTION_INDEX,
        type_name="kb/types/system-index.md",
        markdown_share=1.0,  # one page per KB: a Markdown table is cheap enough
        search_kind="systems",
    ),
    PageSpec(
        key=STATUS_MATRIX_PAGE,
        path="systems/status-matrix.md",
        title="Status matrix",
        label="status matrix",
        template="status-matrix.md.j2",
        view=ViewOf("generator.render.cross", "status_matrix_view"),
        per_system=False,
        type_name="kb/types/status-matrix.md",
        markdown_share=1.0,  # one page per KB
        search_kind="status matrix",
    ),
    PageSpec(
        key=MEMORY_COMPARISON_PAGE,
        path="comparisons/memory.md",
        title="Memory comparison",
        label="memory comparison",
        template="memory-comparison.md.j2",
        view=ViewOf("generator.render.comparison", "memory_comparison_view"),
        per_system=False,
        type_name="kb/types/memory-comparison.md",
        markdown_share=1.0,  # one page per KB: its matrix is raw HTML, without profiles it is prose
        search_kind="comparison",
    ),
    PageSpec(
        key=GLOSSARY_PAGE,
        path="glossary.md",
        title="Glossary",
        label="glossary",
        template="glossary.md.j2",
        view=ViewOf("generator.render.cross", "glossary_view"),
        per_system=False,
        nav=Nav.NONE,  # a top-level entry of mkdocs.yml
        type_name="kb/types/glossary.md",
        markdown_share=1.0,  # one page per KB
        search_kind="glossary",
    ),
)

PAGES = PageRegistry(BUILTIN_PAGES)
install_builtin(PAGES)
