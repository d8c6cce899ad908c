"""A reader on the built site: routes, record links, backlinks, evidence, badges, search."""

from __future__ import annotations

import re
import struct
from typing import Any
from urllib.parse import unquote

import pytest
from browser_support import EVIDENCE_HOST, LANDED_JS, REPO_ROOT, VIEWPORT

pytestmark = pytest.mark.browser

# The seed's run of oh-my-pi: an earlier run since the -01 run became current.
RESULT = "systems/oh-my-pi/runs/aas-2026-09-05-oh-my-pi-02/result/"
MEMORY_REPORT = "systems/decapod/memory-report/"
REVISION = "be6cb8217cd4c1dafcc86793ae5d809ea4d7396a"
PATCHER = "crates/pi-edit/src/modes/hashline/patcher.rs"
PATCHER_URL = f"https://github.com/can1357/oh-my-pi/blob/{REVISION}/{PATCHER}#L176-L250"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def heading(page: Any, anchor: str) -> Any:
    return page.locator(f'[id="{anchor}"]')


def in_record(page: Any, record_anchor: str, selector: str) -> Any:
    """Elements matching ``selector`` inside one record: between its heading and the next one."""
    level = page.eval_on_selector(f'[id="{record_anchor}"]', "el => el.tagName.toLowerCase()")
    # The record's content are the siblings after its heading whose nearest preceding
    # heading of the same or a higher level is that heading.
    higher = " or ".join(f"self::h{n}" for n in range(1, int(level[1]) + 1))
    xpath = (
        f'xpath=//*[@id="{record_anchor}"]/following-sibling::*'
        f'[not({higher})][preceding-sibling::*[{higher}][1][@id="{record_anchor}"]]'
    )
    return page.locator(xpath).locator(selector)


def visit(page: Any, url: str) -> None:
    """A fresh load of ``url``: a same-document goto to another fragment after an in-page
    hash change does not scroll in Chromium, which would test the browser, not the site."""
    if page.url != "about:blank":
        page.goto("about:blank")
    page.goto(url)


def assert_lands_on(page: Any, anchor: str, path: str | None = None) -> None:
    """The URL ends in ``#anchor`` and its heading is visible on screen, below the header."""
    pattern = re.escape(path or "") + r"(index\.html)?#" + re.escape(anchor) + "$"
    expect(page).to_have_url(re.compile(pattern))
    target = heading(page, anchor)
    expect(target).to_be_visible()
    expect(target).to_be_in_viewport()
    page.wait_for_function(LANDED_JS, arg=anchor, timeout=5_000)


def test_route_from_toc_then_operative_object_and_component_links(browsing, base_url):
    page = browsing.page
    visit(page, f"{base_url}/{RESULT}")
    expect(page.locator("h1")).to_have_text(re.compile("oh-my-pi"))

    toc_entry = page.locator('.md-sidebar--secondary a.md-nav__link[href="#rte-11"]')
    expect(toc_entry).to_have_count(1)
    toc_entry.click()
    assert_lands_on(page, "rte-11", RESULT)
    expect(heading(page, "rte-11")).to_contain_text("RTE-11 — Hashline candidate")

    # RTE-1's text names the component that owns it: CMP-1.
    visit(page, f"{base_url}/{RESULT}#rte-1")
    assert_lands_on(page, "rte-1", RESULT)
    link = in_record(page, "rte-1", 'a[href="#cmp-1"]').first
    expect(link).to_have_text("CMP-1")
    link.click()
    assert_lands_on(page, "cmp-1", RESULT)
    expect(heading(page, "cmp-1")).to_contain_text("CMP-1 — ")

    # RTE-20's text names the operative object it assembles: OBJ-20.
    visit(page, f"{base_url}/{RESULT}#rte-20")
    assert_lands_on(page, "rte-20", RESULT)
    link = in_record(page, "rte-20", 'a[href="#obj-20"]').first
    expect(link).to_have_text("OBJ-20")
    link.click()
    assert_lands_on(page, "obj-20", RESULT)
    expect(heading(page, "obj-20")).to_contain_text("OBJ-20 — Retained session messages")
    assert browsing.errors == []


def test_referenced_by_leads_back_to_the_route(browsing, base_url):
    page = browsing.page
    visit(page, f"{base_url}/{RESULT}#cmp-1")
    assert_lands_on(page, "cmp-1", RESULT)
    back = in_record(page, "cmp-1", ':scope.kb-backlinks a[href="#rte-1"]')
    expect(back).to_have_count(1)
    expect(back).to_have_text("RTE-1")
    back.click()
    assert_lands_on(page, "rte-1", RESULT)

    visit(page, f"{base_url}/{RESULT}#obj-20")
    back = in_record(page, "obj-20", ':scope.kb-backlinks a[href="#rte-20"]')
    expect(back).to_have_count(1)
    back.click()
    assert_lands_on(page, "rte-20", RESULT)


def test_evidence_link_opens_the_file_at_the_pinned_revision(browsing, base_url):
    page = browsing.page
    visit(page, f"{base_url}/{RESULT}#rte-11")
    link = in_record(page, "rte-11", "a").filter(has_text=re.compile(f"^{re.escape(PATCHER)}$")).first
    expect(link).to_have_attribute("href", PATCHER_URL)
    link.click()
    page.wait_for_url(PATCHER_URL)
    assert page.url == PATCHER_URL
    expect(page.locator("body")).to_contain_text("evidence host stub")
    assert browsing.traffic.evidence == [PATCHER_URL.split("#")[0]]
    assert all(not url.startswith(EVIDENCE_HOST) for url in browsing.traffic.blocked)


def test_links_within_the_site_carry_no_external_mark(browsing, base_url):
    """A link to a record declared elsewhere stays on the site: no arrow or icon after it,
    nor after any other link of the article to a page of the site."""
    page = browsing.page
    visit(page, f"{base_url}/{MEMORY_REPORT}")
    expect(page.locator("article a.kb-elsewhere").first).to_be_visible()
    marks = page.evaluate(
        """() => [...document.querySelectorAll('article a[href]')]
            .filter(a => a.host === location.host)
            .map(a => [a.getAttribute('href'), getComputedStyle(a, '::after').content,
                       getComputedStyle(a, '::before').content])
            .filter(([, after, before]) => ![after, before].every(c => c === 'none' || c === 'normal'))"""
    )
    assert marks == []


def test_supplied_record_links_to_its_declared_elsewhere_entry(browsing, base_url):
    page = browsing.page
    visit(page, f"{base_url}/{MEMORY_REPORT}")
    link = page.locator('article a.kb-elsewhere[href="../#rt-rte-context-resolve"]').first
    expect(link).to_have_text("RT-RTE-context-resolve")
    expect(link).to_have_attribute("title", "declared elsewhere")
    with page.expect_navigation() as navigation:
        link.click()
    response = navigation.value
    assert response is not None and response.status == 200, "the declared-elsewhere entry is a 404"
    assert_lands_on(page, "rt-rte-context-resolve", "systems/decapod/")
    # A record with nothing of its own but where it is declared and who cites it is a row
    # of the section's table: its ID, where it is declared, what references it.
    entry = heading(page, "rt-rte-context-resolve")
    expect(entry).to_have_class(re.compile(r"\bkb-record--elsewhere\b"))
    expect(entry.locator("td").nth(0)).to_have_text("RT-RTE-context-resolve")
    expect(entry.locator("td").nth(1)).to_have_text("supplied runtime member")
    section = entry.locator("xpath=ancestor::table[1]/preceding::h2[1]")
    expect(section).to_have_attribute("id", "declared-elsewhere")
    expect(section).to_contain_text("Declared elsewhere")
    expect(page.locator("article th").filter(has_text="Referenced by")).to_have_count(1)

    # And back: its "Referenced by" reaches the record on the memory report.
    back = entry.locator('td a[href$="#mem-rte-knowledge-store"]')
    expect(back).to_have_count(1)
    back.click()
    assert_lands_on(page, "mem-rte-knowledge-store", MEMORY_REPORT)


def test_status_badge_is_a_titled_link_to_its_glossary_entry(browsing, base_url):
    page = browsing.page
    visit(page, f"{base_url}/{RESULT}#rte-1")
    badge = in_record(page, "rte-1", "a.kb-badge").filter(has_text=re.compile("^wired$")).first
    expect(badge).to_be_visible()
    expect(badge).to_have_text("wired")
    title = badge.get_attribute("title")
    assert title and title.strip(), "a badge explains its value in its title"
    badge.click()
    assert_lands_on(page, "conclusion-status-wired", "glossary/")
    expect(heading(page, "conclusion-status-wired")).to_have_text(re.compile("^wired"))


@pytest.mark.parametrize("path", [RESULT, MEMORY_REPORT, "systems/oh-my-pi/", "systems/oh-my-pi/result/"])
def test_every_badge_reaches_an_existing_glossary_entry(browsing, base_url, path):
    page = browsing.page
    visit(page, f"{base_url}/{path}")
    badges = page.eval_on_selector_all(
        "article a.kb-badge",
        "els => els.map(a => [a.textContent.trim(), a.getAttribute('title') || '', a.href])",
    )
    assert badges, f"{path} shows no status badges"
    targets = set()
    for text, title, href in badges:
        assert text, f"a badge without visible text: {href}"
        assert title.strip(), f"badge {text!r} has no title"
        assert "/glossary/#" in href, f"badge {text!r} does not link to the glossary: {href}"
        targets.add(href.split("#", 1)[1])
    visit(page, f"{base_url}/glossary/")
    existing = set(page.eval_on_selector_all("article [id]", "els => els.map(e => e.id)"))
    assert sorted(targets - existing) == []


def test_every_link_within_the_site_reaches_a_page_and_anchor(browsing, base_url, site_dir):
    """Every built page as the browser sees it: each local link's page and anchor exist."""
    page = browsing.page
    crawled = {
        "/" if folder == "." else f"/{folder}/"
        for folder in (path.parent.relative_to(site_dir).as_posix() for path in site_dir.rglob("index.html"))
    }
    ids: dict[str, set[str]] = {}  # page path → the ids on it
    links: list[tuple[str, str, str]] = []  # (from page, to page, fragment)
    queue = sorted(crawled)
    while queue:
        path = queue.pop(0)
        if path in ids:
            continue
        if not path.endswith("/"):
            # A download the site ships (exports/kb.json, …): it exists; a browser would save it.
            download = page.request.get(f"{base_url}{path}")
            assert download.status == 200, f"{path}: HTTP {download.status}"
            ids[path] = set()
            continue
        response = page.goto(f"{base_url}{path}")
        assert response is not None, path
        assert response.status == 200, f"{path}: HTTP {response.status} (linked from {links[-1:]})"
        ids[path] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
        if path not in crawled:
            continue  # only linked to: it must exist, its links are not followed
        # An SVG link (a route map's node) has no string href: resolve its attribute.
        for href in page.eval_on_selector_all(
            "a[href]",
            "els => els.map(a => typeof a.href === 'string' ? a.href"
            " : new URL(a.getAttribute('href'), document.baseURI).href)",
        ):
            if not href.startswith(f"{base_url}/"):
                continue
            target, _, fragment = href[len(base_url) :].partition("#")
            target = target.split("?", 1)[0]
            if target.endswith((".csv", ".json", ".yaml")):
                continue  # a download (exports, a set's manifest), not a page
            links.append((path, target, unquote(fragment)))
            queue.append(target)
    broken = [f"{src} -> {dst}#{frag}" for src, dst, frag in links if frag and frag not in ids[dst]]
    assert len(links) > 1000, "the crawl found too few links to be meaningful"
    assert broken == []


def test_search_finds_the_result_page(browsing, base_url):
    current = "systems/oh-my-pi/result/"  # each system's current run first, then earlier runs
    page = browsing.page
    visit(page, f"{base_url}/{current}")
    box = page.locator("input.md-search__input")  # on a wide screen: the box in the header
    expect(box).to_be_visible()
    box.click()
    expect(box).to_be_focused()
    box.press_sequentially("Mnemopi", delay=20)
    results = page.locator(".md-search-result__item a.md-search-result__link")
    expect(results.first).to_be_visible(timeout=15_000)
    hrefs = results.evaluate_all("els => els.map(a => a.href)")
    assert any(f"/{current}" in href for href in hrefs), hrefs
    earlier = ["/runs/" in href for href in hrefs]
    assert earlier == sorted(earlier), hrefs  # an earlier run's results only after the current ones
    expect(page.locator(".md-search-result__meta")).not_to_have_text(re.compile("No matching"))


def test_full_page_screenshot_of_the_result_page(browsing, base_url):
    page = browsing.page
    visit(page, f"{base_url}/{RESULT}")
    page.wait_for_load_state("load")
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    target = artifacts / "result-page.png"
    height = page.evaluate("document.documentElement.scrollHeight")
    # Up to Chromium's texture limit the whole page is captured; the seed result page is
    # far taller (~68,000 px: a 12 MB, 10 s capture), so its first screenful stands in.
    full_page = height <= 16_384
    page.screenshot(path=str(target), full_page=full_page)
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    width, png_height = struct.unpack(">II", data[16:24])
    assert width == VIEWPORT["width"]
    assert png_height == (height if full_page else VIEWPORT["height"])
    assert len(data) > 10_000
