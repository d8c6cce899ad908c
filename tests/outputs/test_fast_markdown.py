"""Faster full builds keep their output: the record index computed without lunr's builder
is lunr's own, and kbgen serve's remembered parts give the same index file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from generator.outputs.record_index import FieldTerms, index_term
from generator.outputs.search import (
    _KnownItems,
    build_index,
    generated_page_documents,
    graph_documents,
    index_of_site_data,
    site_index_data,
    site_index_memo,
    site_index_text,
)
from generator.pipeline import link_records
from generator.render.cross import render_cross_system

REPO_ROOT = Path(__file__).resolve().parents[2]


def _canonical(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@pytest.fixture(scope="module")
def shipped_graphs() -> list:
    linked = link_records(REPO_ROOT / "records")
    assert not linked.errors
    return linked.graphs


def test_site_index_built_from_shipped_counts_equals_lunr_builders_index(shipped_graphs: list) -> None:
    shipped = index_of_site_data(json.loads(site_index_text(shipped_graphs)))
    built = build_index(shipped_graphs)
    assert _canonical(shipped.index.serialize()) == _canonical(built.index.serialize())
    assert shipped.entries == built.entries


def test_site_index_text_is_json_of_its_data(shipped_graphs: list) -> None:
    assert site_index_text(shipped_graphs) == _canonical(site_index_data(shipped_graphs))


def test_remembered_parts_give_the_same_index(shipped_graphs: list) -> None:
    memo = site_index_memo()
    first = site_index_text(shipped_graphs, memo)
    again = site_index_text(list(reversed(shipped_graphs)), memo)  # systems sorted by slug
    only_one = site_index_text(shipped_graphs[:1], memo)
    assert first == again == site_index_text(shipped_graphs)
    assert only_one == site_index_text(shipped_graphs[:1])


def test_remembered_page_documents_give_the_index_of_the_pages_given(shipped_graphs: list) -> None:
    """The pages' documents are kept as index items from one index to the next (serve
    writes the index on every rebuild): a changed, added or dropped page is indexed as given."""
    pages = generated_page_documents(shipped_graphs, render_cross_system(shipped_graphs))
    assert len(pages) > 5
    edited = [replace(pages[0], body=pages[0].body + " edited words"), *pages[2:], pages[1]]
    for given in (pages, edited, pages[:1], [], pages):
        text = site_index_text(shipped_graphs, pages=given)
        assert text == _canonical(site_index_data(shipped_graphs, given))


def test_counted_terms_round_trip() -> None:
    terms = FieldTerms.of(["Routes", "route", "the", "RTE-11", "2024"])
    assert terms.as_row() == [4, "rout", 2, "rte-11", 1, "2024", 1]
    assert FieldTerms.from_row(terms.as_row()) == terms


@pytest.mark.parametrize(
    ("word", "term"),
    [("running", "run"), ("the", None), ("(route)", "rout"), ("rte-11", "rte-11"), ("--", "--")],
)
def test_index_term_is_lunrs_pipeline(word: str, term: str | None) -> None:
    assert index_term(word) == term


def test_field_terms_count_in_first_occurrence_order() -> None:
    terms = FieldTerms.of(["Routes", "the", "route", "objects"])
    assert terms.length == 3
    assert list(terms.counts.items()) == [("rout", 2), ("object", 1)]


def test_a_system_counted_again_gives_what_a_first_counting_gives(shipped_graphs: list) -> None:
    """Each system's documents are kept as index items from one counting to the next (serve
    counts the edited system again): an edited, dropped or reordered document is counted as given."""
    docs = graph_documents(shipped_graphs[0])
    known = _KnownItems()
    known.parts(("system", ""), docs)
    edited = [replace(docs[1], body=docs[1].body + " new words"), *docs[3:], docs[2]]
    again = known.parts(("system", ""), edited)
    assert again == _KnownItems().parts(("system", ""), edited)
    data = site_index_data([], edited)
    assert json.loads(f"[{again.rows.decode()}]") == data["entries"]
    assert json.loads(f"[{again.documents.decode()}]") == data["documents"]
