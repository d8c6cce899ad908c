"""napkin's three runs on the shipped site: its changes page (-04 to -05) and its history
page open with the conclusions that moved, above the fold at 1280×800, each entry linked
to the record's anchor in each run; at 390×844 neither page scrolls sideways. Screenshots
land in ``test-artifacts/`` (both sizes, light and dark)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LANDED_JS, REPO_ROOT, TABLE_SCROLL_BOXES

pytestmark = pytest.mark.browser

CHANGES = "systems/napkin/changes/"
HISTORY = "systems/napkin/history/"
RUN_PATHS = (
    "/systems/napkin/runs/aas-2026-09-27-napkin-01/",
    "/systems/napkin/runs/aas-2026-09-27-napkin-04/",
    "/systems/napkin/",
)
LAPTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def _above_the_fold(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def _lands(page: Any, href: str, base_url: str, run_path: str) -> None:
    """Open ``href`` (relative to the page), which must be an anchor on that run's pages."""
    target = page.evaluate("(href) => new URL(href, document.baseURI).href", href)
    path, _, anchor = target.partition("#")
    assert anchor and path.removeprefix(base_url).startswith(run_path), target
    if run_path == "/systems/napkin/":
        assert "/runs/" not in path
    page.goto(target)
    page.wait_for_function(LANDED_JS, arg=anchor, timeout=5_000)


def _shoot(page: Any, name: str) -> None:
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / name))


def test_the_changes_page_opens_with_the_conclusions_that_moved(browsing, base_url) -> None:
    page = browsing.page
    page.set_viewport_size(LAPTOP)
    page.goto(f"{base_url}/{CHANGES}")
    expect(page.locator("h1")).to_contain_text("AAS-2026-09-27-napkin-04")
    heading = page.locator('[id="conclusions-that-moved"]')
    first = heading.locator("xpath=following-sibling::p[1]")
    assert _above_the_fold(page, heading) and _above_the_fold(page, first)
    counts = page.locator(".kb-diff--counts")
    assert _above_the_fold(page, counts)
    assert "Conclusions moved" in counts.inner_text().split("·")[0]
    _shoot(page, "napkin-changes-1280.png")
    links = first.locator("a")
    assert links.count() == 3  # the record's ID, then its place in the old and the new run
    old, new = links.nth(1).get_attribute("href"), links.nth(2).get_attribute("href")
    _lands(page, old, base_url, RUN_PATHS[1])
    page.goto(f"{base_url}/{CHANGES}")
    _lands(page, new, base_url, RUN_PATHS[2])
    assert browsing.errors == []


def test_the_history_page_opens_with_the_conclusions_that_moved_in_each_run(browsing, base_url) -> None:
    page = browsing.page
    page.set_viewport_size(LAPTOP)
    page.goto(f"{base_url}/{HISTORY}")
    expect(page.locator("h1")).to_contain_text("history of 3 runs")
    table = page.locator(".kb-history--moved table")
    heads = table.locator("thead th")
    assert heads.count() == 5  # record, field, then one column per run, oldest first
    assert [heads.nth(i).inner_text().split()[0] for i in (2, 3, 4)] == [
        "AAS-2026-09-27-napkin-01",
        "AAS-2026-09-27-napkin-04",
        "AAS-2026-09-27-napkin-05",
    ]
    first = table.locator("tbody tr").first
    assert _above_the_fold(page, page.locator('[id="conclusions-that-moved"]'))
    assert _above_the_fold(page, first.locator("td").nth(2))
    _shoot(page, "napkin-history-1280.png")
    rows = table.locator("tbody tr")
    assert rows.count() >= 8  # values both runs state that differ (silence is no move)
    # Each value of the first row links to the record's anchor in its own run.
    hrefs = [first.locator("td").nth(2 + at).locator("a").first.get_attribute("href") for at in range(3)]
    for href, run_path in zip(hrefs, RUN_PATHS, strict=True):
        page.goto(f"{base_url}/{HISTORY}")
        _lands(page, href, base_url, run_path)
    assert browsing.errors == []


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_history_s_wide_tables_say_they_scroll_as_every_table_does(browsing, base_url, size) -> None:
    """One scroll mechanism: each table of the history page scrolls in one box, the one
    kb-scroll.js watches (no box of its own around it); a table wider than its box has the
    line 'More columns: scroll the table sideways →' above it, and scrolled to its end it
    keeps its first column in view; a table that fits has no such line."""
    page = browsing.page
    page.set_viewport_size(size)
    page.goto(f"{base_url}/{HISTORY}")
    page.wait_for_load_state("load")
    page.wait_for_function("document.querySelectorAll('[data-kb-scroll]').length > 0")
    page.wait_for_timeout(100)  # the theme wraps the tables in a subscriber of its own
    boxes = page.evaluate(TABLE_SCROLL_BOXES)
    assert len(boxes) >= 5
    assert all(box["box"] and box["watched"] and not box["nested"] for box in boxes), boxes
    assert all(box["cue"] == box["overflows"] for box in boxes), boxes
    wide = [box for box in boxes if box["overflows"]]
    assert all(box["scrolled"] and all(abs(offset) <= 2 for offset in box["offsets"]) for box in wide), wide
    if size == PHONE:
        assert len(wide) == len(boxes)  # one column per run: none fits a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    cue = page.locator(".kb-history--moved .kb-scroll-cue")
    if size == PHONE:
        expect(cue).to_be_visible()
        expect(cue).to_have_text("More columns: scroll the table sideways →")
    page.evaluate("document.querySelector('.kb-history--moved').previousElementSibling.scrollIntoView()")
    _shoot(page, f"napkin-history-scroll-{size['width']}.png")
    assert browsing.errors == []


def test_the_history_is_reached_from_the_system_page_and_the_nav(browsing, base_url) -> None:
    page = browsing.page
    page.set_viewport_size(LAPTOP)
    page.goto(f"{base_url}/systems/napkin/")
    page.locator('[id="runs"] ~ p a', has_text="the history of the 3 runs").first.click()
    expect(page).to_have_url(re.compile(re.escape(HISTORY) + "$"))
    nav = page.locator("a.md-nav__link--active", has_text="History")
    expect(nav.first).to_be_visible()


@pytest.mark.parametrize("path", [CHANGES, HISTORY])
@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_on_a_phone_neither_page_scrolls_sideways(browsing, base_url, path: str, scheme: str) -> None:
    page = browsing.page
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}/{path}")
    page.evaluate("(scheme) => document.body.setAttribute('data-md-color-scheme', scheme)", scheme)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    name = "changes" if path == CHANGES else "history"
    if name == "history":
        # The wide tables scroll in their own box (the theme's, which kb-scroll.js watches).
        box = page.locator(".kb-history--moved .md-typeset__scrollwrap").first
        assert box.evaluate("el => el.scrollWidth > el.clientWidth")
        assert box.evaluate("el => getComputedStyle(el).overflowX") == "auto"
    _shoot(page, f"napkin-{name}-390-{scheme}.png")
    if scheme == "slate":
        page.set_viewport_size(LAPTOP)
        page.goto(f"{base_url}/{path}")
        page.evaluate("() => document.body.setAttribute('data-md-color-scheme', 'slate')")
        _shoot(page, f"napkin-{name}-1280-slate.png")
