"""Mermaid (3.6 MB) loads only where a diagram is: a system page draws its route maps once
they near the viewport, a page without a diagram never requests the bundle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_support import draw_maps

pytestmark = pytest.mark.browser

SYSTEM_PAGE = "systems/decapod/"
NO_DIAGRAM_PAGES = ["", "systems/oh-my-pi/result/", "systems/decapod/memory-report/", "glossary/"]
BUNDLE = "mermaid-11.17.2.min.js"
DRAWN_JS = """() => {
  const drawn = document.querySelector(".kb-map .kb-map__drawing svg");
  return drawn !== null && drawn.getBoundingClientRect().height > 100;
}"""


def _requests(page: Any, url: str, read: Callable[[Any], None]) -> list[str]:
    """What the page requests, once ``read`` has scrolled it (Mermaid is fetched as a map
    nears the viewport)."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(url)
    read(page)
    page.wait_for_load_state("networkidle")
    return requested


def _to_the_end(page: Any) -> None:
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")


def test_system_page_draws_its_route_maps(browsing: Any, base_url: str) -> None:
    requested = _requests(browsing.page, f"{base_url}/{SYSTEM_PAGE}", draw_maps)
    assert any(url.endswith(BUNDLE) for url in requested)
    # kb-maps.js draws each map's source into the page (not into mkdocs-material's closed
    # shadow root, so that it can link the nodes).
    browsing.page.wait_for_function(DRAWN_JS, timeout=15_000)
    assert browsing.traffic.blocked == []  # no CDN fallback was tried
    assert browsing.errors == []


@pytest.mark.parametrize("path", NO_DIAGRAM_PAGES)
def test_page_without_a_diagram_does_not_load_mermaid(browsing: Any, base_url: str, path: str) -> None:
    requested = _requests(browsing.page, f"{base_url}/{path}", _to_the_end)
    assert not any(BUNDLE in url for url in requested)
    assert browsing.page.evaluate("typeof window.mermaid") == "undefined"
    assert browsing.errors == []
