"""What each generated page costs to open, measured in headless Chromium on a cold cache:
the bytes of every response while the page loads, then after reading it to its end, every
map and diagram brought into view on the way (a route map nears the viewport: Mermaid is
fetched then, and the map drawn). No page fetches the search index
or lunr before its search box is used; only a page that draws a map or a diagram fetches
Mermaid. The heaviest pages are printed (``pytest -s`` shows them), with what weighs most."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import LOCAL_HOSTS, VIEWPORT

pytestmark = pytest.mark.browser

SEARCH_FILES = ("search_index.json", "kb-earlier-runs.json", "lunr-", "kb-search.js")
MERMAID = "mermaid-"
DIAGRAMS = ".kb-map, .mermaid"  # what Mermaid draws: a route map, a mermaid fence's diagram


def _pages(site_dir: Path) -> list[str]:
    found = sorted(
        path.parent.relative_to(site_dir).as_posix() + "/"
        for path in site_dir.rglob("index.html")
        if path.parent.relative_to(site_dir).parts[:1] in (("systems",), ("comparisons",), ("glossary",))
    )
    assert len(found) > 10
    return ["", *found]


def _read_to_the_end(page: Any) -> None:
    """Scroll as a reader does, stopping at each map and diagram (one long jump to the end
    could pass a map without bringing it near the viewport, so it would never be drawn and
    its weight never counted), then to the end; wait until every map is drawn."""
    count = page.evaluate(f"document.querySelectorAll('{DIAGRAMS}').length")
    for at in range(count):
        page.evaluate(f"(at) => document.querySelectorAll('{DIAGRAMS}')[at].scrollIntoView()", at)
        page.wait_for_timeout(100)
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(300)
    if page.evaluate("document.querySelector('.kb-map') !== null"):
        every_map_drawn = (
            "[...document.querySelectorAll('.kb-map')].every(map => map.dataset.kbDrawn === 'true')"
        )
        page.wait_for_function(every_map_drawn, timeout=30_000)
    page.wait_for_load_state("networkidle")


def _weigh(browser: Any, url: str) -> tuple[dict[str, int], dict[str, int], bool]:
    """(responses while loading, responses after reading to the end: URL → bytes), and
    whether the page draws a map or a diagram. A fresh context: nothing is cached."""
    context = browser.new_context(viewport=VIEWPORT, service_workers="block")
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if any(f"//{host}" in route.request.url for host in LOCAL_HOSTS)
            else route.abort("blockedbyclient")
        ),
    )
    page = context.new_page()
    # The responses, weighed once the page is read: reading a body inside the event handler
    # blocks it, and the reading went on before a large one (Mermaid) was counted.
    seen: dict[str, Any] = {}
    page.on("response", lambda response: seen.setdefault(response.url, response))
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    loaded = list(seen)
    drawn = page.evaluate(f"document.querySelector('{DIAGRAMS}') !== null")
    _read_to_the_end(page)
    read = {address: _size(response) for address, response in seen.items()}
    context.close()
    return {address: read[address] for address in loaded}, read, drawn


def _size(response: Any) -> int:
    try:
        return len(response.body())
    except Exception:  # a response without a body (a redirect): nothing transferred
        return 0


def test_pages_fetch_search_and_mermaid_only_when_needed_and_the_heaviest_are_printed(
    browser, base_url: str, site_dir: Path
) -> None:
    weights = []
    for path in _pages(site_dir):
        loaded, read, drawn = _weigh(browser, f"{base_url}/{path}")
        assert not [url for url in read if any(name in url for name in SEARCH_FILES)], path
        fetched_mermaid = any(MERMAID in url for url in read)
        assert drawn or not fetched_mermaid, path  # Mermaid only where a map or diagram is drawn
        assert fetched_mermaid or not drawn, path  # read to the end, every map was drawn: counted
        weights.append((sum(read.values()), sum(loaded.values()), path or "(home)", read))
    weights.sort(reverse=True)
    print("\nPage weight on a cold cache (bytes; at load, then read to the end):")
    for total, at_load, path, read in weights[:5]:
        heaviest = sorted(read.items(), key=lambda item: item[1], reverse=True)[:3]
        parts = ", ".join(f"{url.rsplit('/', 1)[-1] or url} {size:,}" for url, size in heaviest)
        print(f"  {path}: {at_load:,} at load, {total:,} read to the end ({parts})")
    heaviest_at_load = sorted(weights, key=lambda weight: weight[1], reverse=True)[:3]
    print(
        "  heaviest at load: " + ", ".join(f"{path} {at_load:,}" for _, at_load, path, _ in heaviest_at_load)
    )
    with_maps = [
        (path, at_load, total) for total, at_load, path, read in weights if any(MERMAID in u for u in read)
    ]
    print(
        f"  {len(with_maps)} pages draw a map or diagram: "
        + ", ".join(f"{p} {a:,} → {t:,}" for p, a, t in with_maps)
    )
    lightest = min(weights)
    print(f"  lightest: {lightest[2]}: {lightest[0]:,}")
    # Without Mermaid, no page weighs a megabyte: the search index is not on every page.
    assert all(total < 1_000_000 for total, _, _, read in weights if not any(MERMAID in u for u in read))
