"""A reader on the memory comparison page at 1280x800: the matrix fits, its system column
stays in view, the value filter answers with counts, every chip leads to its evidence.

Three sites are read in headless Chromium: the profile fixture KB
(tests/fixtures/profile/records: two systems with profiles in different evidence tiers,
one without), the same KB with the four extra axes on one system
(tests/fixtures/profile-fourteen/records: Alpha's profile has fourteen axes, the extra
ones with their basis stated for the axis), and the shipped records (the session site).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

import pytest
from browser_support import REPO_ROOT, build_site, serve_directory

from generator.model.profile import AXES

pytestmark = pytest.mark.browser

FIXTURES = REPO_ROOT / "tests" / "fixtures"
RECORDS = FIXTURES / "profile" / "records"
FOURTEEN = FIXTURES / "profile-fourteen" / "records"
PAGE = "comparisons/memory/"
WIDTH, HEIGHT = 1280, 800
TEN_AXES = len(AXES)  # the ten shared axes; a result may add four


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


@pytest.fixture(scope="module")
def profile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = build_site(tmp_path_factory.mktemp("profile-site") / "site", RECORDS)
    with serve_directory(Path(site)) as url:
        yield url


@pytest.fixture(scope="module")
def fourteen_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = build_site(tmp_path_factory.mktemp("fourteen-site") / "site", FOURTEEN)
    with serve_directory(Path(site)) as url:
        yield url


def _open(page: Any, base: str) -> None:
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{base}/{PAGE}")
    page.wait_for_load_state("load")
    expect(page.locator(".kb-facets")).to_be_visible()  # the script ran


# The systems whose rows a reader sees (a hidden row, or a row of a hidden tier, is not seen).
VISIBLE_SYSTEMS = """() => [...document.querySelectorAll('.kb-matrix tr[data-kb-system]')]
  .filter(row => row.getClientRects().length > 0)
  .map(row => row.querySelector('th[scope=row] > a').textContent.trim())"""


def _visible_systems(page: Any) -> list[str]:
    return page.evaluate(VISIBLE_SYSTEMS)


def _first_column(page: Any, body: int = 0) -> list[str]:
    return page.evaluate(
        """(body) => [...document.querySelectorAll('.kb-matrix tbody')[body].rows]
          .map(row => row.cells[0].querySelector('a, span').textContent.trim())""",
        body,
    )


# Scroll the page (not the matrix) so that the matrix's header row is just below the
# theme's fixed header; the page stays scrolled fully left.
SHOW_HEADERS = """() => {
  const head = document.querySelector('.kb-matrix thead');
  const bar = document.querySelector('.md-header').getBoundingClientRect().bottom;
  window.scrollTo(0, window.scrollY + head.getBoundingClientRect().top - bar - 8);
}"""

HEADER_BOXES = """() => {
  const bar = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const box = document.querySelector('.kb-matrix');
  const edge = box.getBoundingClientRect().right;
  return {
    page: [window.scrollX, document.documentElement.scrollWidth],
    box: [box.scrollLeft, box.scrollWidth, box.clientWidth],
    headers: [...box.querySelectorAll('thead th[data-kb-axis]')].map(th => {
      const r = th.getBoundingClientRect();
      return {axis: th.dataset.kbAxis, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              inside: r.left >= 0 && r.right <= Math.min(window.innerWidth, edge) && r.top >= bar - 1
                      && r.bottom <= window.innerHeight};
    }),
  };
}"""


def _assert_ten_headers_in_view(page: Any) -> None:
    """The ten shared axes are in view with everything scrolled fully left; a KB where some
    system has the four extra axes of results scrolls them in the matrix's own box."""
    page.evaluate(SHOW_HEADERS)
    seen = page.evaluate(HEADER_BOXES)
    assert seen["page"][0] == 0 and seen["page"][1] <= WIDTH, seen  # the page is scrolled fully left
    assert seen["box"][0] == 0, seen  # the matrix itself is scrolled fully left
    headers = [header for header in seen["headers"] if header["axis"] in AXES]
    assert len(headers) == TEN_AXES, headers
    outside = [header for header in headers if not header["inside"]]
    assert outside == [], outside
    if len(seen["headers"]) == TEN_AXES:
        assert seen["box"][1] <= seen["box"][2], "the ten axes fit: the matrix does not scroll"


# Every value and facet is on one line: a value never breaks inside (a chip's basis is its
# second line).
ONE_LINE = """() => [...document.querySelectorAll('.kb-matrix .kb-chip__value, .kb-facets .kb-facet')]
  .filter(el => {
    const lines = parseFloat(getComputedStyle(el).lineHeight) || 16;
    return el.getBoundingClientRect().height > lines * 1.5 + 6 || el.scrollWidth > el.clientWidth + 1;
  })
  .map(el => el.textContent)"""


def test_rows_are_grouped_by_tier_and_the_unprofiled_system_is_listed(profile_site: str, browsing) -> None:
    page = browsing.page
    _open(page, profile_site)
    expect(page.locator("#code-grounded")).to_be_visible()
    expect(page.locator("#doc-grounded")).to_be_visible()
    assert _visible_systems(page) == ["Alpha agent", "Beta notes", "Gamma loop"]  # Gamma: "no profile"
    without = page.locator("#systems-without-a-profile + ul li")
    expect(without).to_have_text(["Gamma loop"])
    assert browsing.errors == []


@pytest.mark.parametrize("which", ["fixture", "shipped"])
def test_all_ten_axis_headers_are_in_view_at_1280(
    which: str, profile_site: str, base_url: str, browsing
) -> None:
    page = browsing.page
    _open(page, profile_site if which == "fixture" else base_url)
    _assert_ten_headers_in_view(page)
    assert page.evaluate(ONE_LINE) == []
    # The short headers keep the axis's full title.
    expect(page.locator('.kb-matrix thead th[data-kb-axis="storage_substrate"] abbr')).to_have_attribute(
        "title", "Storage substrate"
    )
    assert browsing.errors == []


SYSTEM_CELLS = """() => {
  const box = document.querySelector('.kb-matrix');
  const edge = box.getBoundingClientRect().left;
  return [...box.querySelectorAll('tr[data-kb-system] th[scope=row]')].map(th => {
    const r = th.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 8, r.top + 8);
    return {left: r.left - edge, seen: !!hit && th.contains(hit), name: th.querySelector('a').textContent};
  });
}"""


def test_the_system_cell_stays_in_view_when_fourteen_axes_scroll(fourteen_site: str, browsing) -> None:
    page = browsing.page
    _open(page, fourteen_site)
    page.evaluate(SHOW_HEADERS)
    box = page.locator(".kb-matrix")
    assert page.locator(".kb-matrix thead th[data-kb-axis]").count() == 14
    sizes = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert sizes[0] > sizes[1], "fourteen axes are wider than the article: the matrix scrolls"
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH  # the page does not
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert box.evaluate("b => b.scrollLeft") > 0
    cells = page.evaluate(SYSTEM_CELLS)
    assert [cell["name"] for cell in cells] == ["Alpha agent", "Beta notes", "Gamma loop"]
    assert all(cell["seen"] and abs(cell["left"]) <= 2 for cell in cells), cells
    last = page.locator('.kb-matrix thead th[data-kb-axis="faithfulness_tested"]')
    assert last.evaluate("th => th.getBoundingClientRect().right") <= WIDTH
    # Alpha's extra axes state their basis for the axis; Beta's row has no such cells.
    scope = page.locator('tr[data-kb-system="alpha"] td[data-kb-axis="learning_scope"] a.kb-chip')
    expect(scope).to_have_text("cross-task (wired)")
    expect(scope).to_have_attribute("title", re.compile(r"^cross-task: wired \(for the axis\) — evidence "))
    missing = page.locator('tr[data-kb-system="beta"] td.kb-cell--missing')
    expect(missing).to_have_count(4)
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "comparison-fourteen-1280.png"))
    assert browsing.errors == []


# Each facet, pressed alone: the systems it keeps, and whether each shown (and hidden)
# row has (and lacks) its assessment or value.
FACETS = """() => [...document.querySelectorAll('.kb-facets button.kb-facet')].map(button => ({
  axis: button.dataset.kbAxis,
  key: button.dataset.kbValue !== undefined ? 'value' : 'assessment',
  value: button.dataset.kbValue !== undefined ? button.dataset.kbValue : button.dataset.kbAssessment,
  count: Number(button.querySelector('.kb-facet__count').textContent),
  label: button.getAttribute('aria-label'),
}))"""

HAS = """([axis, key, value]) => [...document.querySelectorAll('.kb-matrix tr[data-kb-system]')]
  .filter(row => {
    const cell = row.querySelector(`td[data-kb-axis="${axis}"]`);
    if (!cell) return false;
    return key === 'value'
      ? [...cell.querySelectorAll('[data-kb-value]')].some(chip => chip.dataset.kbValue === value)
      : cell.dataset.kbAssessment === value;
  })
  .map(row => row.querySelector('th[scope=row] > a').textContent.trim())"""


def _check_every_facet(page: Any) -> int:
    facets = page.evaluate(FACETS)
    clear = page.locator(".kb-facets__clear")
    status = page.locator(".kb-facets__status")
    total = len(_visible_systems(page))
    for facet in facets:
        button = page.locator(".kb-facets button.kb-facet").nth(facets.index(facet))
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        having = page.evaluate(HAS, [facet["axis"], facet["key"], facet["value"]])
        shown = _visible_systems(page)
        assert shown == having and len(shown) == facet["count"], (facet, shown, having)
        systems = "system" if facet["count"] == 1 else "systems"
        assert facet["label"].endswith(f", {facet['value']}: {facet['count']} {systems}"), facet
        expect(status).to_have_text(
            f"{facet['count']} of {total} {'system' if total == 1 else 'systems'} shown"
        )
        clear.click()
        expect(button).to_have_attribute("aria-pressed", "false")
        assert len(_visible_systems(page)) == total
        expect(status).to_have_text("")
    return len(facets)


def test_a_value_filter_keeps_the_systems_that_have_the_value_and_counts_them(
    fourteen_site: str, browsing
) -> None:
    page = browsing.page
    _open(page, fourteen_site)
    cross_task = page.locator('.kb-facet[data-kb-axis="learning_scope"][data-kb-value="cross-task"]')
    expect(cross_task).to_have_text("cross-task 1")
    expect(cross_task).to_have_attribute("aria-label", "Learning scope, cross-task: 1 system")
    cross_task.click()
    assert _visible_systems(page) == ["Alpha agent"]
    expect(page.locator(".kb-facets__status")).to_have_text("1 of 3 systems shown")
    expect(page.locator('tbody[data-kb-group="doc-grounded"]')).to_be_hidden()  # no system left there
    page.locator(".kb-facets__clear").click()
    assert _visible_systems(page) == ["Alpha agent", "Beta notes", "Gamma loop"]
    # "Where is trace learning known?": the assessment is one click too.
    known = page.locator('.kb-facet[data-kb-axis="trace_learning"][data-kb-assessment="known"]')
    expect(known).to_have_text("● known 2")
    known.click()
    assert _visible_systems(page) == ["Alpha agent", "Beta notes"]
    # Two pressed facets keep the systems that have both.
    page.locator(
        '.kb-facet[data-kb-axis="faithfulness_tested"][data-kb-assessment="not-determinable"]'
    ).click()
    assert _visible_systems(page) == ["Alpha agent"]
    page.locator(".kb-facets__clear").click()
    assert _check_every_facet(page) > 20
    assert browsing.errors == []


def test_every_facet_of_the_shipped_comparison_shows_its_count(base_url: str, browsing) -> None:
    page = browsing.page
    _open(page, base_url)
    assert _check_every_facet(page) > 20
    assert browsing.errors == []


CHIP_TARGETS = """() => [...document.querySelectorAll('.kb-matrix td .kb-chip, .kb-matrix td .kb-mark')]
  .map(el => [el.tagName, el.href || '', el.textContent.trim()])"""


def _check_every_chip_target(page: Any, base: str) -> int:
    _open(page, base)
    targets = page.evaluate(CHIP_TARGETS)
    unlinked = [text for tag, _, text in targets if tag != "A"]
    assert unlinked == [], unlinked
    by_page: dict[str, set[str]] = {}
    for _, href, _ in targets:
        url, fragment = urldefrag(href)
        assert url.startswith(base) and fragment, href
        by_page.setdefault(url, set()).add(fragment)
    for url, fragments in sorted(by_page.items()):
        page.goto(url)
        missing = page.evaluate("(ids) => ids.filter(id => !document.getElementById(id))", sorted(fragments))
        assert missing == [], (url, missing)
    return len(targets)


@pytest.mark.parametrize("which", ["fourteen", "shipped"])
def test_every_chip_links_to_a_record_anchor_on_its_page(
    which: str, fourteen_site: str, base_url: str, browsing
) -> None:
    page = browsing.page
    assert _check_every_chip_target(page, fourteen_site if which == "fourteen" else base_url) > 20
    assert browsing.errors == []


def test_a_chip_leads_to_its_evidence_record(profile_site: str, browsing) -> None:
    page = browsing.page
    _open(page, profile_site)
    value = page.locator(".kb-matrix a.kb-chip", has_text="natural-language").first
    expect(value).to_have_attribute(
        "title", "natural-language: wired — evidence MEM-OBJ-store — Notes are prose."
    )
    value.click()
    expect(page).to_have_url(re.compile(r"systems/alpha/result/(index\.html)?#mem-obj-store$"))
    expect(page.locator('[id="mem-obj-store"]')).to_be_visible()
    assert browsing.errors == []


def test_the_scope_and_the_notes_are_one_click_or_hover_away(profile_site: str, browsing) -> None:
    page = browsing.page
    _open(page, profile_site)
    row = page.locator('tr[data-kb-system="alpha"]')
    scope = row.locator("details.kb-matrix__scope p", has_text="Notes retained across runs")
    expect(scope).to_be_hidden()
    row.locator("details.kb-matrix__scope > summary").click()
    expect(scope).to_be_visible()
    expect(row.locator(".kb-matrix__run code")).to_have_text("AAS-2024-05-01-alpha-01")
    # The axis's note is the mark's title; the mark leads to the axis's row in the profile table.
    mark = row.locator('td[data-kb-axis="lineage"] a.kb-mark')
    expect(mark).to_have_attribute("title", "partial: The origin of the first notes is not established.")
    expect(mark).to_have_accessible_name("partial")
    mark.click()
    expect(page).to_have_url(
        re.compile(r"systems/alpha/memory-report/(index\.html)?#memory-comparison-lineage$")
    )
    assert browsing.errors == []


def test_sorting_a_column_reorders_its_rows(profile_site: str, browsing) -> None:
    page = browsing.page
    _open(page, profile_site)
    table = page.locator(".kb-matrix table")
    header = table.locator("th button.kb-sort", has_text="Substrate")
    expect(header).to_have_attribute("title", "Sort by Storage substrate")
    header.click()
    expect(table.locator("thead th").nth(1)).to_have_attribute("aria-sort", "ascending")
    header.click()
    expect(table.locator("thead th").nth(1)).to_have_attribute("aria-sort", "descending")
    assert browsing.errors == []


def test_sorting_reverses_rows_by_system_and_keeps_the_tier_first(profile_site: str, browsing) -> None:
    """Each tier has one system: put both in one tier's body to see them reordered."""
    page = browsing.page
    _open(page, profile_site)
    page.evaluate(
        """() => {
          const [first, second] = document.querySelectorAll('.kb-matrix tbody');
          first.appendChild(second.querySelector('tr[data-kb-system]'));
        }"""
    )
    header = page.locator(".kb-matrix thead th button.kb-sort", has_text="System")
    header.click()
    assert _first_column(page) == ["Code-grounded", "Alpha agent", "Beta notes"]
    header.click()
    assert _first_column(page) == ["Code-grounded", "Beta notes", "Alpha agent"]
    assert browsing.errors == []


def test_filtering_by_words_keeps_the_rows_that_mention_them(profile_site: str, browsing) -> None:
    page = browsing.page
    _open(page, profile_site)
    box = page.locator("input.kb-comparison-filter")
    box.fill("beta")
    page.wait_for_function(f"({VISIBLE_SYSTEMS})().length === 1")
    assert _visible_systems(page) == ["Beta notes"]
    box.fill("context-resolve")  # an evidence record only Alpha's profile cites (a chip's title)
    page.wait_for_function(f"({VISIBLE_SYSTEMS})()[0] === 'Alpha agent'")
    assert _visible_systems(page) == ["Alpha agent"]
    expect(page.locator(".kb-facets__status")).to_have_text("1 of 3 systems shown")
    box.fill("")
    page.wait_for_function(f"({VISIBLE_SYSTEMS})().length === 3")
    assert browsing.errors == []


def test_screenshot_of_the_shipped_comparison_at_1280(base_url: str, browsing) -> None:
    page = browsing.page
    _open(page, base_url)
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    target = artifacts / "comparison-1280.png"
    page.screenshot(path=str(target), full_page=True)
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    assert width == WIDTH and height >= HEIGHT
    assert browsing.errors == []


PHONE = {"width": 390, "height": 844}

# The text of a record's section: its heading and what follows up to the next heading.
RECORD_TEXT = """(id) => {
  const heading = document.getElementById(id);
  if (!heading) return null;
  const parts = [heading.textContent];
  for (let el = heading.nextElementSibling; el && !/^H[1-4]$/.test(el.tagName); el = el.nextElementSibling)
    parts.push(el.textContent);
  return parts.join(' ');
}"""


def _shot(page: Any, name: str) -> None:
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / name))


@pytest.mark.parametrize("size", [{"width": WIDTH, "height": HEIGHT}, PHONE], ids=["1280", "390"])
def test_which_systems_keep_memory_in_a_vector_store_and_how_sure(
    size: dict[str, int], base_url: str, browsing
) -> None:
    """The filter keeps the one system tagged `vector`; its chip shows its basis in words
    (no hover needed), reached from the keyboard, and leads to the record that names vectors."""
    page = browsing.page
    _open(page, base_url)
    page.set_viewport_size(size)
    page.locator('.kb-facet[data-kb-axis="storage_substrate"][data-kb-value="vector"]').click()
    assert _visible_systems(page) == ["oh-my-pi"]
    chip = page.locator(
        'tr[data-kb-system="oh-my-pi"] td[data-kb-axis="storage_substrate"] a.kb-chip[data-kb-value="vector"]'
    )
    basis = chip.locator(".kb-chip__basis")
    expect(basis).to_be_visible()
    # The word is shown; the brackets around it are for screen readers only.
    shown = "el => [...el.childNodes].filter(node => node.nodeType === 3).map(node => node.data).join('')"
    assert basis.evaluate(shown) == "afforded"
    assert basis.evaluate(
        "el => el.getBoundingClientRect().width > 10 && el.getBoundingClientRect().height > 5"
    )
    expect(chip).to_have_accessible_name(re.compile(r"^vector \( ?afforded ?\)$"))
    # The keyboard reaches it: tabbing from the filter lands on links, this one among them.
    chip.focus()
    expect(chip).to_be_focused()
    chip.scroll_into_view_if_needed()
    _shot(page, f"comparison-vector-{size['width']}.png")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    expect(basis).to_be_visible()
    _shot(page, f"comparison-vector-{size['width']}-dark.png")
    href = chip.get_attribute("href")
    chip.press("Enter")
    page.wait_for_url(re.compile(r"/systems/.+#[^#]+$"))
    page.wait_for_load_state("load")
    fragment = urldefrag(page.url)[1]
    assert fragment and href.endswith(f"#{fragment}"), (href, page.url)
    text = page.evaluate(RECORD_TEXT, fragment)
    assert text is not None, fragment  # the anchor exists
    assert re.search(r"\bvectors?\b", text, re.IGNORECASE), (fragment, text[:200])
    assert browsing.errors == []


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshot_of_the_shipped_comparison_on_a_phone(dark: bool, base_url: str, browsing) -> None:
    page = browsing.page
    _open(page, base_url)
    page.set_viewport_size(PHONE)
    if dark:
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator(".kb-matrix").scroll_into_view_if_needed()
    cue = page.locator(".kb-matrix").locator("xpath=preceding-sibling::*[1]")
    expect(cue).to_have_class("kb-scroll-cue")
    expect(cue).to_be_visible()
    _shot(page, f"comparison-390{'-dark' if dark else ''}.png")
    if dark:
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
        _shot(page, "comparison-1280-dark.png")
    assert browsing.errors == []
