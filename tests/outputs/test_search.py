"""Record search: ``kbgen search`` and the index the site ships rank the query table alike.

The site's index is read back from a real build (``search/search_index.json``) and queried
with lunr in Python through the same query plan; tests/browser/test_search_box.py runs the
same table through lunr.js and the search box.
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_support import make_records
from search_queries import OMP, OMP_EARLIER, OMP_EARLIER_RUN, QUERIES, anchor

from generator.outputs import search
from generator.outputs.search import Entry, Hit, RecordIndex, Scored, index_tokens, ranked, tokens
from generator.pipeline import link_records
from generator.render.cross import render_cross_system

REPO_ROOT = Path(__file__).resolve().parents[2]
IDS = [query for query, _ in QUERIES]


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped records built once (in a subprocess: MkDocs reads the environment)."""
    site = tmp_path_factory.mktemp("search-site") / "site"
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "generator.cli.main", "build", "--site-dir", str(site)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return site


def _site_index(site: Path) -> RecordIndex:
    """The index the worker builds: the site's, and the earlier runs' one it names."""
    data = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]["kb"]
    earlier = json.loads((site / "search" / data["earlier"]).read_text(encoding="utf-8"))
    return search.index_of_site_data(data, earlier)


@pytest.fixture(scope="module")
def site_index(built_site: Path) -> RecordIndex:
    return _site_index(built_site)


@pytest.fixture(scope="module")
def shipped_index_once() -> Iterator[None]:
    """``kbgen search`` indexes each records folder once for the rest of this module."""
    original = search.load_index
    cached = functools.cache(original)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "load_index", lambda records: cached(records.resolve()))
        yield


@pytest.mark.usefixtures("shipped_index_once")
@pytest.mark.parametrize(("query", "expected"), QUERIES, ids=IDS)
def test_kbgen_search_shows_the_expected_record_first(kbgen, query, expected):
    result = kbgen("search", query, "--json")
    hits = result.json()["hits"]
    if expected is None:
        assert (result.code, hits) == (1, [])
        return
    assert result.code == 0, result.err
    assert (hits[0]["system"], hits[0]["id"]) == expected
    assert hits[0]["url"].endswith(f"/#{anchor(expected[1])}")


@pytest.mark.parametrize(("query", "expected"), QUERIES, ids=IDS)
def test_site_index_shows_the_expected_record_first(site_index, query, expected):
    hits = site_index.search(query)
    first = (hits[0].entry.system, hits[0].entry.id) if hits else None
    assert first == expected


def test_query_table_has_thirty_queries_of_every_sort():
    assert len(QUERIES) >= 30
    assert any(expected is None for _, expected in QUERIES)
    assert any(query.startswith('"') for query, _ in QUERIES)


def test_every_site_entry_lands_on_an_anchor_of_its_page(built_site, site_index):
    assert site_index.earlier is not None
    for entry in [*site_index.entries, *site_index.earlier.entries]:
        page, _, fragment = entry.url.partition("#")
        text = (built_site / page / "index.html").read_text(encoding="utf-8")
        assert not fragment or f'id="{fragment}"' in text, entry.url


def test_hand_written_pages_are_searchable_by_section(site_index):
    """The home page and the authoring guide are in the index, one entry per section."""
    pages = [entry for entry in site_index.entries if entry.kind == search.PAGE_KIND]
    assert {entry.url for entry in pages} >= {"", "#systems", "#reading-a-record", "authoring/"}
    assert all(entry.id == "" for entry in pages)
    assert not any(entry.url.startswith(("systems/", "glossary/", "comparisons/")) for entry in pages)
    assert all(entry.system == "" for entry in pages)
    first = site_index.search("Authoring records")[0].entry
    assert (first.kind, first.url, first.label) == ("page", "authoring/", "Authoring records")
    assert site_index.search("lower-cased ID")[0].entry.url == "#reading-a-record"


def test_generated_pages_are_indexed_by_record_not_by_section(site_index):
    """The theme's sections of generated pages are dropped: records and the generator's own
    sections stand for them. Of the pages that hold no records, the generator indexes the
    sections itself: the reviews, the glossary, the status matrix, the comparisons."""
    kinds = search.page_kinds()
    pages = {
        (entry.url.partition("#")[0], entry.kind)
        for entry in site_index.entries
        if entry.kind in kinds and entry.url.startswith(("systems/", "glossary/", "comparisons/"))
    }
    # Each is tagged by what it is (its page type's search kind), not 'page'.
    assert pages == {
        ("systems/", "systems"),
        ("systems/status-matrix/", "status matrix"),
        ("systems/oh-my-pi/review/", "review"),
        ("systems/instinctual-memory/review/", "review"),
        ("systems/napkin/review/", "review"),
        ("glossary/", "glossary"),
        ("comparisons/memory/", "comparison"),
    }
    # A review is of one system; every other page is of none.
    assert all(
        (entry.system != "") == (entry.kind == "review")
        for entry in site_index.entries
        if entry.kind in kinds
    )


@pytest.mark.usefixtures("shipped_index_once")
def test_glossary_term_finds_its_definition(site_index, kbgen):
    """A vocabulary value reaches its glossary entry, in the box and in the terminal."""
    first = site_index.search("afforded")[0].entry
    assert (first.kind, first.label, first.url) == (
        "glossary",
        "afforded",
        "glossary/#conclusion-status-afforded",
    )
    assert "no shipped path was shown to use it" in first.context
    hit = kbgen("search", "afforded", "--json", "--limit", "1").json()["hits"][0]
    assert (hit["kind"], hit["label"], hit["url"]) == (
        "glossary",
        "afforded",
        "glossary/#conclusion-status-afforded",
    )
    line = kbgen("search", "afforded", "--limit", "1").out.splitlines()[0]
    assert line.startswith("afforded (glossary)  glossary/#conclusion-status-afforded"), line
    # --kind takes a generated page's kind as it takes a record's.
    hits = kbgen("search", "matrix", "--kind", "status matrix", "--json").json()["hits"]
    assert hits and {hit["kind"] for hit in hits} == {"status matrix"}


def test_a_long_heading_line_is_read_in_one_pass():
    """A heading line made of many anchors' openings is text, read in linear time."""
    line = "## " + "{ #a " * 100_000
    started = time.perf_counter()
    (doc,) = search.markdown_page_documents("glossary.md", f"# Glossary {{ #top }}\n{line}\n")
    assert time.perf_counter() - started < 2
    assert doc.entry.label == "Glossary" and doc.body.startswith("## { #a")


@pytest.mark.usefixtures("shipped_index_once")
def test_status_matrix_comparison_and_review_are_found_and_tagged_alike_in_the_terminal(site_index, kbgen):
    """Each generated page is tagged by what it is, the same in the site's index and in
    ``kbgen search``."""
    cases = [
        ("status matrix", "systems/status-matrix/", "status matrix"),
        ("memory comparison", "comparisons/memory/", "comparison"),
        ("oh-my-pi review", "systems/oh-my-pi/review/", "review"),
    ]
    for query, url, kind in cases:
        first = site_index.search(query)[0].entry
        assert (first.url, first.kind) == (url, kind)
        hit = kbgen("search", query, "--json", "--limit", "1").json()["hits"][0]
        assert (hit["url"], hit["kind"]) == (url, kind)
    review = site_index.search("oh-my-pi review")[0].entry
    assert (review.label, review.system, review.url) == ("oh-my-pi — review", OMP, "systems/oh-my-pi/review/")


def test_a_page_type_s_search_kind_tags_its_sections():
    """One declaration: a page type's ``search_kind`` is what its sections are called."""
    from generator.render.registry import GLOSSARY_PAGE, active_pages

    assert active_pages().spec(GLOSSARY_PAGE).search_kind == "glossary"
    found = search.markdown_page_documents("glossary.md", "# Glossary { #top }\n\ntext\n", "glossary")
    assert [doc.entry.kind for doc in found] == ["glossary"]
    assert search.page_kinds() >= {"page", "glossary", "status matrix", "comparison", "review", "systems"}
    assert search.SECTION_KIND not in search.page_kinds()


def test_page_sections_are_split_at_the_generators_headings():
    markdown = (
        "---\ntitle: x\n---\n# Glossary { #top }\n\nIntro *text*.\n\n"
        '### afforded { #status-afforded }\n\n<span class="b">afforded</span> Offered &amp; unused.\n'
        "### A heading without an anchor\n\nstays text\n"
    )
    found = search.markdown_page_documents("glossary.md", markdown)
    assert [(doc.entry.label, doc.entry.url, doc.body) for doc in found] == [
        ("Glossary", "glossary/", "Intro text."),
        (
            "afforded",
            "glossary/#status-afforded",
            "afforded Offered & unused. ### A heading without an anchor stays text",
        ),
    ]


def test_records_rank_before_pages_on_equal_scores(site_index):
    pages = [entry.kind in search.page_kinds() for entry in site_index.entries]
    first_page = pages.index(True)
    assert not any(pages[:first_page]) and all(pages[first_page:])


def test_page_sections_are_read_as_text_and_malformed_ones_skipped():
    theme_docs = [
        {
            "location": "guide/#tips",
            "title": "Tips &amp; <code>tricks</code>",
            "text": "<p>Use <em>kbgen</em>.</p>",
        },
        {"title": "no location"},
        "not a mapping",
    ]
    found = search.page_documents(theme_docs)
    assert [(doc.entry.label, doc.entry.url, doc.body) for doc in found] == [
        ("Tips & tricks", "guide/#tips", "Use kbgen.")
    ]


def test_site_search_box_talks_to_the_record_worker(built_site):
    config = re.search(r'"search": "([^"]+)"', (built_site / "index.html").read_text(encoding="utf-8"))
    assert config is not None
    worker = config.group(1).split("?")[0]
    assert worker == "assets/javascripts/kb-search-worker.js"
    for script in ("kb-search-worker.js", "kb-search.js", "vendor/lunr-2.3.9.js"):
        assert (built_site / "assets" / "javascripts" / script).is_file()


def test_site_index_is_lean(built_site, site_index):
    """Index bytes per entry (printed for the README); the theme's page documents are replaced."""
    data = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    size = (built_site / "search" / "search_index.json").stat().st_size
    count = len(site_index.entries)
    print(f"\nsearch index: {size} bytes, {count} records, {size // count} per record")
    assert data["docs"] == []
    assert size < 4000 * len(site_index.entries)


def test_ids_are_one_token_and_hyphenated_words_also_index_their_parts():
    assert tokens("See RTE-11, MEM-RTE-knowledge-store.") == ["see", "rte-11", "mem-rte-knowledge-store"]
    assert index_tokens("RTE-11 read-back") == ["rte-11", "read-back", "read", "back"]


def test_kbgen_search_prints_id_kind_label_system_url_and_context(kbgen):
    result = kbgen("search", "RTE-11", "--system", "oh-my-pi", "--limit", "1")
    assert result.code == 0
    first, context = result.out.splitlines()
    assert first.startswith("RTE-11 (route, oh-my-pi) — Autoresearch log")
    assert first.endswith("systems/oh-my-pi/result/#rte-11")
    assert context.startswith("    ") and len(context.strip()) > 20


def test_kbgen_search_filters_by_system_and_kind(kbgen):
    by_system = kbgen("search", "SRC-1", "--system", "decapod", "--json").json()["hits"]
    assert {hit["system"] for hit in by_system} == {"decapod"}
    by_code = kbgen("search", "Mnemopi", "--kind", "RTE", "--json").json()["hits"]
    by_name = kbgen("search", "Mnemopi", "--kind", "route", "--json").json()["hits"]
    assert by_code == by_name
    assert by_code and {hit["kind"] for hit in by_code} == {"route"}


def test_kbgen_search_limit(kbgen):
    assert len(kbgen("search", "RTE-1", "--json", "--limit", "2").json()["hits"]) == 2
    assert len(kbgen("search", "RTE-1", "--json", "--limit", "0").json()["hits"]) > 2


def test_kbgen_search_says_when_nothing_matches(kbgen):
    result = kbgen("search", "zzzqqq")
    assert result.code == 1
    assert "nothing matches 'zzzqqq'" in result.err


def test_kbgen_search_refuses_a_missing_records_folder(kbgen, tmp_path):
    result = kbgen("search", "RTE-1", "--records", str(tmp_path / "none"))
    assert result.code == 2
    assert "no such records folder" in result.err


def test_kbgen_search_refuses_records_with_errors(kbgen, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_records(tmp_path, {"run.yaml": "run: [\n"})
    result = kbgen("search", "RTE-1")
    assert result.code == 2
    assert "run 'kbgen check records'" in result.err


LABEL_WITH_MARKUP = '<img src=x onerror="alert(1)"> Prompt to answer'


def _demo_with_label(tmp_path: Path, label: str) -> Path:
    text = (make_records.__globals__["CLEAN_SYSTEM"] / "records.yaml").read_text(encoding="utf-8")
    return make_records(
        tmp_path, {"records.yaml": text.replace("label: Prompt to answer", f"label: {label!r}")}
    )


def test_label_with_markup_is_printed_as_text(kbgen, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _demo_with_label(tmp_path, LABEL_WITH_MARKUP)
    result = kbgen("search", "RTE-1", "--limit", "1")
    assert result.code == 0, result.err
    assert LABEL_WITH_MARKUP in result.out
    hit = kbgen("search", "RTE-1", "--json").json()["hits"][0]
    assert hit["label"] == LABEL_WITH_MARKUP
    assert html.escape(LABEL_WITH_MARKUP) not in result.out


def test_site_without_the_theme_index_is_left_alone(tmp_path):
    assert search.write_site_index(tmp_path, []) is None
    other = tmp_path / "search" / "search_index.json"
    other.parent.mkdir()
    other.write_text('{"docs": []}', encoding="utf-8")
    assert search.write_site_index(tmp_path, []) is None
    assert other.read_text(encoding="utf-8") == '{"docs": []}'


def test_a_sentence_of_a_prose_section_finds_that_section(kbgen):
    """Every prose section of a generated page is an entry, at its anchor."""
    sentence = "model calls sit inside substantial symbolic control"
    result = kbgen("search", sentence, "--json", "--limit", "1")
    (hit,) = json.loads(result.out)["hits"]
    assert (hit["kind"], hit["system"], hit["label"]) == ("section", "oh-my-pi", "Bounded synthesis")
    assert hit["url"] == "systems/oh-my-pi/result/#bounded-synthesis"


def test_a_sentence_of_an_earlier_run_is_found_and_marked_earlier(kbgen):
    """The seed's run of oh-my-pi is an earlier run: its words are found, its run named."""
    sentence = "session reconstruction and alternative compaction representations preserve continuity"
    (hit,) = kbgen("search", sentence, "--json", "--limit", "1").json()["hits"]
    assert (hit["kind"], hit["system"], hit["label"]) == ("section", OMP_EARLIER, "Bounded synthesis")
    assert hit["url"] == f"systems/{OMP_EARLIER}/result/#bounded-synthesis"
    assert hit["run"] == OMP_EARLIER_RUN
    # --all-runs once asked for this; it is still accepted and changes nothing.
    assert kbgen("search", sentence, "--all-runs", "--json", "--limit", "1").json()["hits"] == [hit]


@pytest.mark.usefixtures("shipped_index_once")
def test_an_id_only_an_earlier_run_declares_comes_first_marked_earlier(kbgen):
    """BAP-21 is declared only by oh-my-pi's earlier run: it comes before BAP-2, BAP-1, …
    (one edit away), and the line says which run it is of."""
    result = kbgen("search", "BAP-21", "--limit", "0")
    assert result.code == 0, result.err
    first = result.out.splitlines()[0]
    assert first.startswith(
        f"BAP-21 (behavioral-authority path, {OMP_EARLIER}, earlier run {OMP_EARLIER_RUN}) — "
    )
    hits = kbgen("search", "BAP-21", "--json", "--limit", "0").json()["hits"]
    near = [at for at, hit in enumerate(hits) if hit["run"] == "" and hit["id"].startswith("BAP-")]
    assert near and min(near) > 0  # the current run's near misses are still there, after it


@pytest.mark.usefixtures("shipped_index_once")
def test_an_exact_id_in_both_runs_shows_the_current_run_first(kbgen):
    hits = kbgen("search", "BAP-2", "--json", "--limit", "5").json()["hits"]
    found = [(hit["id"], hit["system"], hit["run"]) for hit in hits]
    # napkin and oh-my-pi's current runs declare it, then their earlier runs do.
    assert found[:2] == [("BAP-2", "napkin", ""), ("BAP-2", OMP, "")]
    assert ("BAP-2", OMP_EARLIER, OMP_EARLIER_RUN) in found[2:]
    assert all(hit["id"] == "BAP-2" and hit["run"] for hit in hits[2:])


def test_words_of_an_earlier_run_rank_after_the_current_runs_equal_matches(site_index):
    hits = site_index.search("Hindsight")
    runs = [hit.entry.run for hit in hits]
    assert runs[0] == "" and OMP_EARLIER_RUN in runs
    assert runs == sorted(runs)  # every current hit, then the earlier run's


def _hit(record_id: str, system: str, run: str = "") -> Hit:
    return Hit(Entry(record_id, "route", "", system, f"systems/{system}/#x", "", run), 1.0)


def test_ranking_tiers():
    """An ID match first (the page's system's, current, earlier); then hits as written
    (an earlier run's page: its run first), current before earlier; then near misses."""
    current = Scored([_hit("RTE-2", "a"), _hit("RTE-21", "b"), _hit("RTE-21", "a")], near=False)
    earlier = Scored([_hit("RTE-3", "a/runs/r", "R"), _hit("RTE-21", "a/runs/r", "R")], near=False)
    order = [(h.entry.id, h.entry.system) for h in ranked("rte-21", [current, earlier], here="a")]
    assert order == [
        ("RTE-21", "a"),
        ("RTE-21", "b"),
        ("RTE-21", "a/runs/r"),
        ("RTE-2", "a"),
        ("RTE-3", "a/runs/r"),
    ]
    on_earlier_page = [(h.entry.id, h.entry.system) for h in ranked("x", [current, earlier], here="a/runs/r")]
    assert on_earlier_page[:2] == [("RTE-3", "a/runs/r"), ("RTE-21", "a/runs/r")]
    near = Scored([_hit("RTE-2", "a")], near=True)
    exact_earlier = Scored([_hit("RTE-3", "a/runs/r", "R")], near=False)
    assert [h.entry.id for h in ranked("word", [near, exact_earlier])] == ["RTE-3", "RTE-2"]


def test_section_entries_hold_their_own_text_not_their_records(site_index):
    sections = [entry for entry in site_index.entries if entry.kind == search.SECTION_KIND]
    titles = {(entry.system, entry.label) for entry in sections}
    assert {
        ("oh-my-pi", "Runtime account"),
        ("oh-my-pi", "Reconciliation"),
        ("decapod", "Write side"),
    } <= titles
    assert all(entry.id == "" and entry.url.startswith(f"systems/{entry.system}/") for entry in sections)
    # A record's own words find the record first, not the section that places it.
    assert site_index.search("Mnemopi")[0].entry.id != ""


def test_the_index_stays_within_a_fifth_over_the_text_it_indexes(built_site):
    """The site's index bytes over the bytes of the text it indexes (records, sections and
    the generated pages without records)."""
    graphs = link_records(REPO_ROOT / "records").graphs
    docs = [*search.documents(graphs), *search.generated_page_documents(graphs, render_cross_system(graphs))]
    text = sum(len(f"{d.entry.id} {d.label} {d.body}".encode()) for d in docs)
    size = (built_site / "search" / "search_index.json").stat().st_size
    print(f"\nsearch index: {size} bytes for {text} bytes of indexed text: {size / text:.2f}x")
    assert size < 1.2 * text


def test_the_earlier_runs_index_is_written_beside_the_current_runs(built_site):
    """The site's index holds the current runs and names the earlier runs' index beside it,
    whose entries are at their own pages and say their run."""
    data = json.loads((built_site / search.SITE_INDEX).read_text(encoding="utf-8"))["config"]["kb"]
    assert data["earlier"] == "kb-earlier-runs.json"
    current = search.index_of_site_data(data)
    earlier = search.index_of_site_data(
        json.loads((built_site / search.EARLIER_RUNS_INDEX).read_text(encoding="utf-8"))
    )
    assert not any("/runs/" in entry.system or entry.run for entry in current.entries)
    runs = {
        OMP_EARLIER: OMP_EARLIER_RUN,
        "napkin/runs/aas-2026-09-27-napkin-01": "AAS-2026-09-27-napkin-01",
        "napkin/runs/aas-2026-09-27-napkin-04": "AAS-2026-09-27-napkin-04",
    }
    assert {entry.system for entry in earlier.entries} == set(runs)
    assert all(
        entry.run == runs[entry.system] and entry.url.startswith(f"systems/{entry.system}/")
        for entry in earlier.entries
    )
    assert current.search("Hashline") == []
    assert earlier.search("Hashline")[0].entry.id == "CMP-4"


def test_a_page_read_again_after_an_edit_gives_what_a_first_reading_gives(monkeypatch):
    """Each section's text is kept from the page's last reading (the status matrix is read on
    every rebuild of kbgen serve): a changed section is read anew, the others are the same."""
    page = (
        "# Status matrix { #top }\n\nIntro.\n\n### One { #one }\n\n<p>first</p>\n\n"
        "### Two { #two }\n\n<p>second</p>\n"
    )
    search.markdown_page_documents("systems/status-matrix.md", page, "status matrix")
    edited = page.replace("<p>second</p>", "<p>second, <em>edited</em></p>")
    again = search.markdown_page_documents("systems/status-matrix.md", edited, "status matrix")
    monkeypatch.setattr(search, "_SECTION_TEXTS", {})
    fresh = search.markdown_page_documents("systems/status-matrix.md", edited, "status matrix")
    assert again == fresh
    assert [doc.body for doc in fresh] == ["Intro.", "first", "second, edited"]
