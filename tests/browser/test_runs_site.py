"""oh-my-pi's two runs on the shipped site: the changes page between them, each changed
record followed to its anchor in each run's pages, and the banner of the earlier run."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LANDED_JS, REPO_ROOT

pytestmark = pytest.mark.browser

CHANGES = "systems/oh-my-pi/changes/"
EARLIER = "systems/oh-my-pi/runs/aas-2026-09-05-oh-my-pi-02/"
CURRENT_RUN, EARLIER_RUN = "AAS-2026-09-26-oh-my-pi-01", "AAS-2026-09-05-oh-my-pi-02"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def _follow(page: Any, link: Any, path: str) -> None:
    href = link.get_attribute("href")
    anchor = href.rsplit("#", 1)[1]
    link.click()
    expect(page).to_have_url(re.compile(re.escape(path) + r"#" + re.escape(anchor) + "$"))
    page.wait_for_function(LANDED_JS, arg=anchor, timeout=5_000)


def test_a_changed_record_leads_to_its_anchor_in_each_run(browsing, base_url) -> None:
    page = browsing.page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{base_url}/{CHANGES}")
    expect(page.locator("h1")).to_contain_text(f"Changes from {EARLIER_RUN} to {CURRENT_RUN}")
    section = page.locator('[id="changed-cmp-1"]')
    expect(section).to_be_visible()
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "oh-my-pi-changes-1280.png"))
    old = page.locator('[id="changed-cmp-1"] + p a').first
    new = page.locator('[id="changed-cmp-1"] + p a').last
    assert old.inner_text() == new.inner_text() == "CMP-1"
    _follow(page, old, f"/{EARLIER}result/")
    expect(page.locator(".admonition.warning")).to_contain_text(f"The current run is {CURRENT_RUN}")
    page.go_back()
    expect(page).to_have_url(re.compile(re.escape(CHANGES)))
    _follow(page, page.locator('[id="changed-cmp-1"] + p a').last, "/systems/oh-my-pi/result/")
    assert page.locator(".admonition.warning").count() == 0  # the current run has no banner
    assert browsing.errors == []


def test_every_page_of_the_earlier_run_names_the_current_run(browsing, base_url, site_dir) -> None:
    page = browsing.page
    pages = sorted(p.parent for p in (site_dir / EARLIER).rglob("index.html"))
    assert len(pages) >= 2  # its system page and its result
    for folder in pages:
        path = folder.relative_to(site_dir).as_posix()
        page.goto(f"{base_url}/{path}/")
        banner = page.locator(".admonition.warning").first
        expect(banner).to_contain_text(f"This is {EARLIER_RUN}")
        link = banner.locator("a", has_text=CURRENT_RUN)
        link.click()
        expect(page).to_have_url(re.compile(r"/systems/oh-my-pi/$"))
        expect(page.locator('[id="runs"]')).to_be_visible()
    assert browsing.errors == []


def test_the_system_page_lists_both_runs_and_links_the_changes(browsing, base_url) -> None:
    page = browsing.page
    page.goto(f"{base_url}/systems/oh-my-pi/")
    rows = page.locator('[id="runs"] ~ table tbody tr, [id="runs"] ~ .md-typeset__scrollwrap table tbody tr')
    expect(rows.first).to_be_visible()
    texts = rows.all_inner_texts()
    assert CURRENT_RUN in texts[0] and "(current)" in texts[0]
    assert any(EARLIER_RUN in text for text in texts)
    page.locator('[id="runs"] ~ * a', has_text=f"since {EARLIER_RUN}").first.click()
    expect(page).to_have_url(re.compile(re.escape(CHANGES) + "$"))
