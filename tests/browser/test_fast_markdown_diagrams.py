"""Mermaid (3.6 MB) loads only where a diagram is: a system page draws its route maps once
they near the viewport, a page without a diagram never requests the bundle; the same on
``kbgen render``'s pages built by plain MkDocs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_support import draw_maps, run_kbgen, serve_directory

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


@pytest.fixture(scope="module")
def rendered_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``kbgen render --out`` of the shipped records, built by plain MkDocs (no kb-records
    plugin, no theme override), served."""
    out = tmp_path_factory.mktemp("render") / "out"
    assert run_kbgen("render", "--out", str(out)) == 0
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(out / "mkdocs.yml")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    with serve_directory(out / "site") as url:
        yield url


def test_a_rendered_system_page_fetches_mermaid_only_to_draw_its_maps(
    browsing: Any, rendered_site: str
) -> None:
    """The render's pages are built without the theme override that names Mermaid: kb-maps.js
    fetches it from beside itself, on a page with maps, when they near the viewport."""
    page = browsing.page
    requested = _requests(page, f"{rendered_site}/{SYSTEM_PAGE}", draw_maps)
    assert f"{rendered_site}/assets/javascripts/vendor/{BUNDLE}" in requested
    page.wait_for_function(DRAWN_JS, timeout=15_000)
    assert browsing.traffic.blocked == []  # no CDN fallback was tried
    assert browsing.errors == []


@pytest.mark.parametrize("path", NO_DIAGRAM_PAGES)
def test_a_rendered_page_without_a_diagram_does_not_load_mermaid(
    browsing: Any, rendered_site: str, path: str
) -> None:
    requested = _requests(browsing.page, f"{rendered_site}/{path}", _to_the_end)
    assert not any(BUNDLE in url for url in requested)
    assert browsing.page.evaluate("typeof window.mermaid") == "undefined"
    assert browsing.errors == []
