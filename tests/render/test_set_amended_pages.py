"""The shipped analysis set ``records/instinctual-memory`` shows its reconciliation's typed
amendments: each amended record is marked on its member's page and shows the amendment
with a link to it, the reconciliation links each amended record where its member declares
it, and quotations written in prose are block quotations.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.graph.system_graph import Amended, amendment_anchors
from generator.pipeline import PipelineResult, run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
SLUG = "instinctual-memory"
PREFIX = f"systems/{SLUG}/"


@pytest.fixture(scope="module")
def pipeline() -> PipelineResult:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.errors == []
    return result


def _amendments(pipeline: PipelineResult) -> list[Amended]:
    graph = next(g for g in pipeline.graphs if g.slug == SLUG)
    report = graph.system.reconciliation_report
    assert report is not None
    return amendment_anchors(report.amendments)


def _record_section(page: str, record_id: str) -> str:
    start = page.index(f"{{ #{record_id.lower()} .kb-record")
    following = re.search(r"\n#{2,4} ", page[start:])
    return page[start : start + following.start()] if following else page[start:]


def test_the_shipped_reconciliation_has_typed_amendments(pipeline: PipelineResult) -> None:
    targets = [amendment.targets for _, amendment in _amendments(pipeline)]
    assert targets == [["RTE-4"], ["CMP-1"], ["RTE-8"], ["RTE-2", "RTE-3"], ["RTE-5"], ["RTE-10"]]


def test_every_amended_record_is_marked_on_its_member_page(pipeline: PipelineResult) -> None:
    graph = next(g for g in pipeline.graphs if g.slug == SLUG)
    for anchor, amendment in _amendments(pipeline):
        for target in amendment.targets:
            page = pipeline.pages[f"{PREFIX}{graph.page_of(target)}.md"]
            section = _record_section(page, target)
            amendment_link = f'<a href="../reconciliation/#{anchor}">Amendment: {target}</a>'
            assert f"<p><strong>Amended:</strong> {amendment_link}</p>" in section
            assert '<p class="admonition-title">Amended in the reconciliation</p>' in section
            assert f"<p><strong>See:</strong> {amendment_link}</p>" in section


def test_reconciliation_links_each_amended_record_where_it_is_declared(pipeline: PipelineResult) -> None:
    graph = next(g for g in pipeline.graphs if g.slug == SLUG)
    page = pipeline.pages[PREFIX + "reconciliation.md"]
    for anchor, amendment in _amendments(pipeline):
        start = page.index(f'<div class="kb-amendment" id="{anchor}">')
        block = page[start : page.index("</div>\n", page.index("<strong>Amends:</strong>", start))]
        links = ", ".join(
            f'<a href="../{graph.page_of(target)}/#{target.lower()}">{target}</a>'
            for target in amendment.targets
        )
        assert f"<p><strong>Amends:</strong> {links}</p>\n" in block
        assert "<strong>Evidence:</strong> " in block and "<strong>Affected findings:</strong> " in block


def test_prose_quotations_are_block_quotations(pipeline: PipelineResult) -> None:
    pages = {path: text for path, text in pipeline.pages.items() if path.startswith(PREFIX)}
    attributed_paragraphs = [
        path for path, text in pages.items() if re.search(r"^(?:<p>)?— (?:`|<code>)src/", text, re.M)
    ]
    assert attributed_paragraphs == []
    epistemic = pages[PREFIX + "epistemic.md"]
    # A code quotation is a code block, highlighted by its file's language (Rust here).
    start = epistemic.index(
        '<div class="kb-quote">\n<div class="highlight language-rust"><pre><span></span><code>'
    )
    quote = epistemic[start:]
    assert (
        re.sub(r"<[^>]+>", "", quote[: quote.index("</code>")]).find("let evidence = fact.evidence.trim();")
        > 0
    )
    source = quote.index('<span class="kb-quote__source">')
    # The source states its revision (the register's 'Revision or capture' column): the
    # attribution's path and lines link to the cited lines, and read as written.
    attribution = quote[source : quote.index("</span>", source)]
    assert "src/consolidate.rs:914-927" in re.sub(r"<[^>]+>", "", attribution)
    assert "/blob/6acb13dc35765bf5ccfc87e445dd09c480f1c28a/src/consolidate.rs#L914-L927" in attribution
