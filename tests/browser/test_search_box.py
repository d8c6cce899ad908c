"""The site's search box: typed queries show the record first and land on its anchor.

Also runs the whole query table (tests/support/search_queries.py) through lunr.js and kb-search.js,
the code of the site's search worker, over the index the site ships, and compares the
index the worker builds from the shipped counts with generator/record_index.py's.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import LANDED_JS, build_site, serve_directory
from hostile_support import CLEAN_SYSTEM, make_records  # tests/: the shared query table and demo
from search_queries import DECAPOD, OMP, OMP_EARLIER, OMP_EARLIER_RUN, QUERIES, anchor

from generator.outputs.record_index import FieldTerms, serialized_index

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

START = "systems/oh-my-pi/result/"
TYPED = [
    ("RTE-11", OMP, "RTE-11", "route"),  # instinctual-memory declares it too: this page's system first
    ("RTE-1", OMP, "RTE-1", "route"),
    ("BAP-2", OMP, "BAP-2", "behavioral-authority path"),
    ("CLM-5", OMP, "CLM-5", "claim"),
    ("OBJ-2", OMP, "OBJ-2", "operative object"),
    ("MEM-RTE-knowledge-store", DECAPOD, "MEM-RTE-knowledge-store", "route"),
    ("RT-RTE-context-resolve", DECAPOD, "RT-RTE-context-resolve", "route"),
    ("Hindsight", OMP, "RTE-19", "route"),
    ("advisor note", OMP, "RTE-7", "route"),
    ("sharpshoter", OMP, "CMP-7", "component"),
]
FIRST_LINK = ".md-search-result__item:first-child a.md-search-result__link"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def open_search(page: Any, base_url: str, key: str = "/") -> Any:
    """Load the start page, open the search with its keyboard shortcut, return the focused box."""
    return open_search_at(page, f"{base_url}/{START}", key)


def open_search_at(page: Any, url: str, key: str = "/") -> Any:
    """Load a page, open the search with its keyboard shortcut, return the focused box."""
    page.goto(url)
    page.wait_for_load_state("load")
    page.keyboard.press(key)
    box = page.locator("input.md-search__input")
    expect(box).to_be_focused()
    return box


def first_result_for(page: Any, box: Any, query: str, record_id: str) -> Any:
    """Type like a person and wait until the first result links to the record's anchor."""
    box.press_sequentially(query, delay=30)
    link = page.locator(FIRST_LINK)
    expect(link).to_have_attribute("href", re.compile(f"#{re.escape(anchor(record_id))}$"), timeout=15_000)
    return link


@pytest.mark.parametrize(("query", "system", "record_id", "kind"), TYPED, ids=[t[0] for t in TYPED])
def test_typed_query_shows_the_record_first_and_lands_on_its_anchor(
    browsing, base_url, query, system, record_id, kind
):
    page = browsing.page
    box = open_search(page, base_url)
    link = first_result_for(page, box, query, record_id)
    expect(link.locator("h1")).to_contain_text(record_id)
    tags = link.locator(".md-tag").all_inner_texts()
    assert tags == [system, kind]
    link.click()
    page.wait_for_url(re.compile(f"/systems/{system}/.*#{re.escape(anchor(record_id))}$"))
    page.wait_for_function(LANDED_JS, arg=anchor(record_id), timeout=5_000)
    assert browsing.errors == []


def test_the_index_is_fetched_once_a_pointer_is_over_the_search_box_not_before(browsing, base_url):
    """Reading fetches no index; a pointer over the search box starts the fetch, so the
    seconds a large KB's index takes to fetch and index begin before the click."""
    page = browsing.page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{base_url}/{START}")
    page.wait_for_load_state("load")
    page.mouse.wheel(0, 2000)
    page.wait_for_timeout(500)
    assert not [url for url in fetched if "search_index.json" in url]
    # The search button on a narrow window, the box itself on a wide one: the one shown.
    page.locator('label[for="__search"]:visible, .md-search__form:visible').first.hover()
    page.wait_for_function(
        "() => performance.getEntriesByType('resource').some(e => e.name.includes('search_index.json'))"
    )
    assert browsing.errors == []


def test_enter_opens_the_first_result(browsing, base_url):
    page = browsing.page
    box = open_search(page, base_url, key="s")
    first_result_for(page, box, "BAP-2", "BAP-2")
    box.press("Enter")
    page.wait_for_url(re.compile(r"#bap-2$"))
    page.wait_for_function(LANDED_JS, arg="bap-2", timeout=5_000)


def test_hand_written_page_is_found_and_opened(browsing, base_url):
    """A section of a hand-written page is a result too: no ID, no system, just the title."""
    page = browsing.page
    box = open_search(page, base_url)
    box.press_sequentially("Authoring records", delay=30)
    link = page.locator(FIRST_LINK)
    expect(link).to_have_attribute("href", re.compile(r"/authoring/(\?h=[^#]*)?$"), timeout=15_000)
    expect(link.locator("h1")).to_have_text(re.compile(r"^Authoring records\S"))  # then its snippet
    expect(link.locator(".kb-search-snippet")).to_contain_text("An analysis is a folder of YAML files")
    assert link.locator(".md-tag").all_inner_texts() == ["page"]
    link.click()
    page.wait_for_url(re.compile(r"/authoring/"))
    expect(page.locator("h1")).to_contain_text("Authoring records")
    assert browsing.errors == []


def test_no_match_says_so(browsing, base_url):
    page = browsing.page
    box = open_search(page, base_url)
    box.press_sequentially("zzzqqq", delay=30)
    expect(page.locator(".md-search-result__meta")).to_have_text(re.compile("No matching"))
    expect(page.locator(".md-search-result__item")).to_have_count(0)


def test_time_to_first_result(browsing, base_url):
    """Printed, not asserted (shared machine): page load to the first result of a typed ID."""
    page = browsing.page
    started = time.perf_counter()
    box = open_search(page, base_url)
    first_result_for(page, box, "RTE-11", "RTE-11")
    print(f"\ntime to first result (shipped site, incl. page load): {time.perf_counter() - started:.2f} s")


def _load_search_code(page: Any, base_url: str) -> None:
    """A shipped page with the worker's own code loaded: lunr.js and kb-search.js."""
    page.goto(f"{base_url}/")
    page.add_script_tag(url=f"{base_url}/assets/javascripts/vendor/lunr-2.3.9.js")
    page.add_script_tag(url=f"{base_url}/assets/javascripts/kb-search.js")


def test_query_table_in_lunr_js(browsing, base_url):
    """The shipped index, queried by the worker's own code in Chromium, ranks the table alike."""
    page = browsing.page
    _load_search_code(page, base_url)
    firsts = page.evaluate(
        """async (queries) => {
          const data = await (await fetch("search/search_index.json")).json()
          const earlier = await (await fetch("search/" + data.config.kb.earlier)).json()
          const index = new kbSearch.RecordIndex(data.config.kb, earlier)
          return queries.map(q => {
            const hits = index.search(q)
            return hits.length ? [hits[0].entry.system, hits[0].entry.id] : null
          })
        }""",
        [query for query, _ in QUERIES],
    )
    expected = [list(first) if first else None for _, first in QUERIES]
    assert dict(zip([q for q, _ in QUERIES], firsts, strict=True)) == dict(
        zip([q for q, _ in QUERIES], expected, strict=True)
    )


def _scores_apart(ours: list[Any], theirs: list[Any]) -> list[tuple[str, float, float]]:
    """Field vectors whose scores differ, and by how much (term numbers must be equal)."""
    apart = []
    for (ref, mine), (other_ref, other) in zip(ours, theirs, strict=True):
        assert ref == other_ref
        assert mine[0::2] == other[0::2], ref  # the same terms, numbered alike
        apart += [(ref, a, b) for a, b in zip(mine[1::2], other[1::2], strict=True) if a != b]
    return apart


def test_worker_builds_lunrs_index_from_the_shipped_counts(browsing, base_url, site_dir: Path):
    """kb-search.js's serializedIndex, run in Chromium on the shipped file, gives the index
    generator/record_index.py computes (and tests/outputs/test_fast_markdown.py checks against
    lunr.py's builder). JavaScript's Math.log and Math.round may differ from Python's in a
    last bit, so a score may differ by one in the third decimal, never more."""
    page = browsing.page
    _load_search_code(page, base_url)
    built = page.evaluate(
        """async () => {
          const data = await (await fetch("search/search_index.json")).json()
          return kbSearch.serializedIndex(data.config.kb)
        }"""
    )
    data = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]["kb"]
    terms = [[FieldTerms.from_row(row) for row in document] for document in data["documents"]]
    expected = serialized_index(terms, dict(zip(data["fields"], data["boosts"], strict=True)))
    assert (built["version"], built["fields"], built["pipeline"]) == (
        expected["version"],
        expected["fields"],
        expected["pipeline"],
    )
    assert dict(built["invertedIndex"]) == dict(expected["invertedIndex"])
    apart = _scores_apart(built["fieldVectors"], expected["fieldVectors"])
    print(f"\n{len(apart)} of {len(expected['fieldVectors'])} field vectors' scores differ in the last digit")
    assert all(abs(a - b) <= 0.0011 for _, a, b in apart), apart[:5]
    assert len(apart) <= len(expected["fieldVectors"]) // 1000


@pytest.fixture(scope="module")
def markup_label_site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("markup-label")
    text = (CLEAN_SYSTEM / "records.yaml").read_text(encoding="utf-8")
    label = "'<img src=x onerror=\"window.pwned=1\"> Prompt to answer'"
    records = make_records(root, {"records.yaml": text.replace("label: Prompt to answer", f"label: {label}")})
    site = build_site(root / "site", records)
    with serve_directory(site) as url:
        yield url


def test_label_with_markup_shows_as_text_in_search_results(browsing, markup_label_site):
    page = browsing.page
    box = open_search_at(page, f"{markup_label_site}/systems/demo/result/")
    link = first_result_for(page, box, "RTE-1", "RTE-1")
    expect(link.locator("h1")).to_contain_text('<img src=x onerror="window.pwned=1">')
    assert link.locator("img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_an_id_of_several_systems_opens_the_current_pages_systems(browsing, base_url):
    """On decapod's memory report, SRC-1 (every system declares one) is decapod's."""
    page = browsing.page
    box = open_search_at(page, f"{base_url}/systems/decapod/memory-report/")
    box.press_sequentially("SRC-1", delay=30)
    link = page.locator(FIRST_LINK)
    expect(link).to_have_attribute("href", re.compile(r"/systems/decapod/(\?[^#]*)?#src-1$"), timeout=15_000)
    assert link.locator(".md-tag").all_inner_texts() == [DECAPOD, "source"]
    box.press("Enter")
    page.wait_for_url(re.compile(r"/systems/decapod/(\?[^#]*)?#src-1$"))
    assert browsing.errors == []


# A sentence of oh-my-pi's Bounded synthesis (tests/outputs/test_search.py searches it too).
SENTENCE = "model calls sit inside substantial symbolic control"


def test_a_sentence_of_a_prose_section_lands_on_it(browsing, base_url):
    page = browsing.page
    box = open_search(page, base_url)
    box.press_sequentially(SENTENCE, delay=10)
    link = page.locator(FIRST_LINK)
    landing = re.compile(r"/oh-my-pi/result/(\?[^#]*)?#bounded-synthesis$")
    expect(link).to_have_attribute("href", landing, timeout=15_000)
    expect(link.locator("h1")).to_contain_text("Bounded synthesis")
    assert link.locator(".md-tag").all_inner_texts() == [OMP, "section"]
    link.click()
    page.wait_for_url(landing)
    page.wait_for_function(LANDED_JS, arg="bounded-synthesis", timeout=5_000)
    assert browsing.errors == []


def test_each_result_shows_a_snippet_with_the_matched_words_marked(browsing, base_url):
    page = browsing.page
    box = open_search(page, base_url)
    first_result_for(page, box, "Mnemopi", "CMP-6")
    results = page.locator(".md-search-result__item")
    assert results.count() >= 3
    for at in range(min(results.count(), 5)):
        snippet = results.nth(at).locator(".kb-search-snippet")
        expect(snippet).to_have_count(1)
        assert len(snippet.inner_text().strip()) > 20
    marks = page.locator(".md-search-result__item:first-child mark").all_inner_texts()
    assert marks and all(mark.lower().startswith("mnemopi") for mark in marks)
    assert browsing.errors == []


def test_a_snippet_marks_words_of_hostile_text_without_making_markup(browsing, markup_label_site):
    """A word inside escaped markup is marked as text: no element of the record's is made."""
    page = browsing.page
    box = open_search_at(page, f"{markup_label_site}/systems/demo/result/")
    box.press_sequentially("onerror", delay=30)
    title = page.locator(".md-search-result__item:first-child h1")
    expect(title).to_contain_text('<img src=x onerror="window.pwned=1">', timeout=15_000)
    assert title.locator("mark").all_inner_texts() == ["onerror"]
    assert page.locator(".md-search-result img").count() == 0
    assert page.evaluate("window.pwned") is None


EARLIER_RESULT = f"systems/{OMP_EARLIER}/result/"
EARLIER_TAG = f"earlier run {OMP_EARLIER_RUN}"


def test_an_earlier_run_s_pages_rank_that_run_first(browsing, base_url):
    """Hashline is a word of oh-my-pi's earlier run only: its own pages find its CMP-4
    first, and an ID of both runs (CMP-4) opens this run's record first."""
    page = browsing.page
    box = open_search_at(page, f"{base_url}/{EARLIER_RESULT}")
    link = first_result_for(page, box, "Hashline", "CMP-4")
    expect(link).to_have_attribute("href", re.compile(re.escape(EARLIER_RESULT) + r"(\?[^#]*)?#cmp-4$"))
    assert link.locator(".md-tag").all_inner_texts() == [OMP_EARLIER, "component", EARLIER_TAG]
    box.fill("")
    first_result_for(page, box, "CMP-4", "CMP-4")  # an ID of both runs: this run's first
    expect(page.locator(FIRST_LINK)).to_have_attribute("href", re.compile(re.escape(EARLIER_RESULT)))
    assert browsing.errors == []


def test_words_of_an_earlier_run_are_found_from_a_current_page_marked_earlier(browsing, base_url):
    page = browsing.page
    box = open_search(page, base_url)  # the current run's result page
    link = first_result_for(page, box, "Hashline", "CMP-4")
    expect(link).to_have_attribute("href", re.compile(re.escape(EARLIER_RESULT)))
    assert link.locator(".md-tag").all_inner_texts() == [OMP_EARLIER, "component", EARLIER_TAG]
    assert browsing.errors == []


# Declared only by oh-my-pi's earlier run (records/oh-my-pi/runs/AAS-2026-09-26-oh-my-pi-01);
# the current run declares BAP-1…BAP-14, and BAP-2 is one edit away.
EARLIER_ONLY_ID = "BAP-21"
SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_an_id_only_an_earlier_run_declares_opens_that_run_s_record(browsing, base_url, width, height):
    """On the current system page, typing BAP-21 shows the earlier run's record first,
    marked earlier (before BAP-2 and the other near misses); its link lands on the record's
    anchor, where the ID is marked. Screenshots in light and dark mode."""
    page = browsing.page
    page.set_viewport_size({"width": width, "height": height})
    box = open_search(page, base_url)
    link = first_result_for(page, box, EARLIER_ONLY_ID, EARLIER_ONLY_ID)
    expect(link).to_have_attribute("href", re.compile(re.escape(EARLIER_RESULT) + r"\?h=bap-21#bap-21$"))
    expect(link.locator("h1")).to_contain_text(EARLIER_ONLY_ID)
    assert link.locator(".md-tag").all_inner_texts() == [
        OMP_EARLIER,
        "behavioral-authority path",
        EARLIER_TAG,
    ]
    titles = page.locator(".md-search-result__item h1").all_inner_texts()
    near = [at for at, title in enumerate(titles) if title.startswith("BAP-2 ")]
    assert near and near[0] > 0  # the current run's BAP-2 is still there, after it
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"search-earlier-run-id-{width}.png"))
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.screenshot(path=str(ARTIFACTS / f"search-earlier-run-id-{width}-dark.png"))
    link.click()
    page.wait_for_url(re.compile(re.escape(EARLIER_RESULT) + r"\?h=bap-21#bap-21$"))
    page.wait_for_function(LANDED_JS, arg="bap-21", timeout=5_000)
    marks = page.locator("article mark[data-md-highlight]").all_inner_texts()
    assert marks and set(marks) == {EARLIER_ONLY_ID}
    page.screenshot(path=str(ARTIFACTS / f"search-earlier-run-id-landed-{width}.png"))
    assert browsing.errors == []


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_glossary_term_reaches_its_definition(browsing, base_url, width, height):
    page = browsing.page
    page.set_viewport_size({"width": width, "height": height})
    box = open_search(page, base_url)
    box.press_sequentially("afforded", delay=30)
    link = page.locator(FIRST_LINK)
    landing = re.compile(r"/glossary/\?h=afforded#conclusion-status-afforded$")
    expect(link).to_have_attribute("href", landing, timeout=15_000)
    expect(link.locator(".kb-search-snippet")).to_contain_text("no shipped path was shown to use it")
    assert link.locator(".md-tag").all_inner_texts() == ["glossary"]  # what it is, as kbgen search says
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"search-glossary-{width}.png"))
    link.click()
    page.wait_for_url(landing)
    page.wait_for_function(LANDED_JS, arg="conclusion-status-afforded", timeout=5_000)
    assert browsing.errors == []


def test_a_page_result_shows_its_snippet_once(browsing, base_url):
    """A result at a page's top (no anchor) is a page-level entry to the theme, which would
    print its text again under the title that already holds the snippet."""
    page = browsing.page
    box = open_search(page, base_url)
    box.press_sequentially("status matrix", delay=30)
    link = page.locator(FIRST_LINK)
    expect(link).to_have_attribute("href", re.compile(r"/systems/status-matrix/\?h=status%20matrix$"))
    assert link.inner_text().count("How many conclusion-status fields") == 1
    assert link.locator(".md-tag").all_inner_texts() == ["status matrix"]
    assert browsing.errors == []


@pytest.mark.parametrize(
    ("query", "url", "tags"),
    [
        ("memory comparison", r"/comparisons/memory/", ["comparison"]),
        ("oh-my-pi review", r"/systems/oh-my-pi/review/", [OMP, "review"]),
    ],
    ids=["comparison", "review"],
)
def test_a_generated_page_is_tagged_by_what_it_is(browsing, base_url, query, url, tags):
    """The box tags a generated page's result as ``kbgen search`` does (its page type's
    search kind), not as a hand-written 'page'."""
    page = browsing.page
    box = open_search(page, base_url)
    box.press_sequentially(query, delay=30)
    link = page.locator(FIRST_LINK)
    expect(link).to_have_attribute("href", re.compile(url), timeout=15_000)
    assert link.locator(".md-tag").all_inner_texts() == tags
    assert browsing.errors == []


@pytest.mark.parametrize("record_id", ["CMP-1", "RTE-1"])
def test_the_highlight_marks_whole_ids_only(browsing, base_url, record_id):
    """?h=CMP-1 marks every CMP-1 on the page and nothing else: not the digits of dates,
    run IDs and line ranges; ?h=RTE-1 not RTE-10…RTE-19 either."""
    page = browsing.page
    page.goto(f"{base_url}/{START}?h={record_id}")
    page.wait_for_load_state("load")
    article = page.locator("article.md-content__inner")
    text = article.inner_text()
    whole = len(re.findall(rf"(?<![\w-]){re.escape(record_id)}(?![\w-])", text))
    assert whole > 0 and text.count("1") > 5 * whole  # ones elsewhere: dates, ranges, RTE-1x
    # Marks in a folded block ("About this run") are there too, unseen until it opens.
    marks = article.locator("mark[data-md-highlight]:visible").all_inner_texts()
    assert marks == [record_id] * whole
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("mark[data-md-highlight]").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"search-highlight-{record_id.lower()}-1280.png"))
    assert browsing.errors == []


def test_the_highlight_marks_a_phrase_where_it_stands(browsing, base_url):
    """Words searched together mark where they stand together; a word alone elsewhere stays."""
    page = browsing.page
    page.goto(f"{base_url}/{START}?h=" + "advisor%20note")
    page.wait_for_load_state("load")
    marks = page.locator("article mark[data-md-highlight]").all_inner_texts()
    assert marks and {mark.lower() for mark in marks} == {"advisor note"}
    assert browsing.errors == []


SEARCH_FILES = ("search/search_index.json", "search/kb-earlier-runs.json", "lunr-2.3.9.js")


def test_no_index_is_fetched_before_the_search_box_is_used(browsing, base_url):
    """Reading a page fetches none of the search index; focusing the box fetches it."""
    page = browsing.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{base_url}/{START}")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    assert not [url for url in requested if url.split("?")[0].endswith(SEARCH_FILES)]
    box = page.locator("input.md-search__input")
    box.focus()
    first_result_for(page, box, "RTE-11", "RTE-11")
    fetched = {name for name in SEARCH_FILES for url in requested if url.split("?")[0].endswith(name)}
    assert fetched == set(SEARCH_FILES)
    assert browsing.errors == []
