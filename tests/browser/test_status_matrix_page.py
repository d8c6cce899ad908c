"""A reader of the status matrix of the shipped site, at 1280x800 and on a 390x844 phone:
"which routes are only claimed, not wired?" Each count links to the line that lists the
records it counts (by record kind, under their status field; for the per-field table, by
status field alone), the line exists and holds as many record links as the count says,
and a table wider than its box says it scrolls and keeps its first column in view."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LANDED_JS, REPO_ROOT

pytestmark = pytest.mark.browser

PAGE = "systems/status-matrix/"
SIZES = {"1280": {"width": 1280, "height": 800}, "390": {"width": 390, "height": 844}}


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


# Every count that links, with the number it shows and the records on the line it leads to
# (null when no element has the fragment's id).
COUNT_LINKS = """() => [...document.querySelectorAll('.kb-counts td > a[href^="#status-"]')].map(a => {
  const target = document.getElementById(a.getAttribute('href').slice(1));
  return {
    href: a.getAttribute('href'),
    count: Number(a.textContent),
    records: target ? target.querySelectorAll('a[href]').length : null,
    kind: target ? target.parentElement.closest('li[id]') !== null : null,
    table: [...document.querySelectorAll('.kb-counts')].indexOf(a.closest('.kb-counts')),
  };
})"""


def _open(page: Any, base_url: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{base_url}/{PAGE}")
    page.wait_for_load_state("load")
    page.wait_for_function("document.querySelectorAll('.kb-scroll-cue').length >= 3")


def _shot(page: Any, name: str) -> None:
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / name))


@pytest.mark.parametrize("size", list(SIZES))
def test_every_count_links_to_the_records_it_counts(size: str, base_url: str, browsing: Any) -> None:
    page = browsing.page
    _open(page, base_url, size)
    links = page.evaluate(COUNT_LINKS)
    assert len(links) > 20
    missing = [link["href"] for link in links if link["records"] is None]
    assert missing == []
    # A line of one kind lists as many records as its count; a status's line, all its kinds'.
    wrong = [link for link in links if link["records"] != link["count"]]
    assert wrong == []
    assert {link["kind"] for link in links} == {True, False}  # per system and per kind
    # The per-field table's counts link too, each to a line of its own (a field's label is
    # written on records of several kinds).
    assert {link["table"] for link in links} == {0, 1, 2}
    per_field = [link for link in links if link["table"] == 2]
    assert all("-field-" in link["href"] for link in per_field)
    assert len({link["href"] for link in per_field}) == len(per_field)
    assert browsing.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_which_routes_are_only_claimed_is_one_click(size: str, base_url: str, browsing: Any) -> None:
    page = browsing.page
    _open(page, base_url, size)
    claimed = page.locator('.kb-counts a[href="#status-oh-my-pi-routes-claimed"]')
    expect(claimed).to_have_count(1)  # in oh-my-pi's row of routes, under "claimed"
    cells = claimed.locator("xpath=ancestor::tr[1]/td")
    expect(cells.nth(1)).to_have_text("routes")
    count = int(claimed.text_content() or "0")
    assert count > 0
    claimed.click()
    page.wait_for_url(re.compile(r"#status-oh-my-pi-routes-claimed$"))
    page.wait_for_function(LANDED_JS, arg="status-oh-my-pi-routes-claimed")
    line = page.locator("#status-oh-my-pi-routes-claimed")
    expect(line).to_contain_text(f"routes ({count}):")
    first = line.locator("a").first
    record = (first.text_content() or "").strip()
    assert re.fullmatch(r"[A-Z]+(?:-[A-Za-z0-9]+)+", record), record
    first.click()
    page.wait_for_load_state("load")
    fragment = page.url.rsplit("#", 1)[1]
    assert fragment == record.lower()
    expect(page.locator(f'[id="{fragment}"]')).to_be_visible()
    assert browsing.errors == []


CUE_STATE = """() => [...document.querySelectorAll('article .md-typeset__scrollwrap')].map(box => {
  const cue = box.previousElementSibling;
  return {
    overflows: box.scrollWidth > box.clientWidth + 1,
    cue: !!cue && cue.classList.contains('kb-scroll-cue') && !cue.hidden
         && cue.getBoundingClientRect().height > 0,
  };
})"""

FIRST_COLUMN_AFTER_SCROLL = """() => {
  const box = document.querySelector('article .md-typeset__scrollwrap');
  box.scrollLeft = box.scrollWidth;
  const edge = box.getBoundingClientRect().left;
  const cells = [...box.querySelectorAll('tr')].map(row => row.cells[0].getBoundingClientRect().left - edge);
  return {scrolled: box.scrollLeft > 0, offsets: cells};
}"""


def test_the_matrix_fits_at_1280_and_says_it_scrolls_on_a_phone(base_url: str, browsing: Any) -> None:
    page = browsing.page
    _open(page, base_url, "1280")
    states = page.evaluate(CUE_STATE)
    assert states[0] == {"overflows": False, "cue": False}  # the matrix fits: no cue
    assert all(state["cue"] == state["overflows"] for state in states), states
    _shot(page, "status-matrix-1280.png")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    _shot(page, "status-matrix-1280-dark.png")
    _open(page, base_url, "390")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["390"]["width"]
    states = page.evaluate(CUE_STATE)
    assert states[0] == {"overflows": True, "cue": True}, states  # the matrix scrolls and says so
    assert all(state["cue"] == state["overflows"] for state in states), states
    _shot(page, "status-matrix-390.png")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    _shot(page, "status-matrix-390-dark.png")
    scrolled = page.evaluate(FIRST_COLUMN_AFTER_SCROLL)
    assert scrolled["scrolled"] and all(abs(offset) <= 2 for offset in scrolled["offsets"]), scrolled
    assert browsing.errors == []
