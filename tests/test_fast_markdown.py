"""Faster full builds keep their output: the record index written without lunr's builder
is lunr's own, and kbgen serve's remembered terms give the same index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.pipeline import link_records
from generator.record_index import FieldTerms, index_term
from generator.search import build_index, site_index_json, site_index_memo

REPO_ROOT = Path(__file__).resolve().parent.parent


def _canonical(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@pytest.fixture(scope="module")
def shipped_graphs() -> list:
    linked = link_records(REPO_ROOT / "records")
    assert not linked.errors
    return linked.graphs


def test_site_index_equals_lunr_builders_index(shipped_graphs: list) -> None:
    assert _canonical(site_index_json(shipped_graphs)) == _canonical(build_index(shipped_graphs).as_json())


def test_remembered_terms_give_the_same_index(shipped_graphs: list) -> None:
    memo = site_index_memo()
    first = _canonical(site_index_json(shipped_graphs, memo))
    again = _canonical(site_index_json(list(reversed(shipped_graphs)), memo))  # systems sorted by slug
    only_one = _canonical(site_index_json(shipped_graphs[:1], memo))
    assert first == again == _canonical(site_index_json(shipped_graphs))
    assert only_one == _canonical(build_index(shipped_graphs[:1]).as_json())


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
