"""A site built from record text that tries to plant structure through line breaks and
anchors: it builds, and no page shows what the text tried to plant.

The payloads of the second hostile round: bare carriage returns (YAML ``\\r`` escapes)
that would open a heading, an admonition, a table row, a Mermaid diagram whose node opens
an outside URL, a heading taking Material's ``#__config``, a stray fence, 320 levels of
nested lists; one over-long word; and prose sections titled like the page's own sections.
The text is normalised where it is loaded (CR becomes LF), so each payload is escaped
like any other record text. Every page is then checked in Chromium: no two elements share
an id, ``#__config`` is the theme's script, and no heading, admonition, diagram or link
that the records planted exists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import build_planted_site, serve_directory

pytestmark = pytest.mark.browser

CR = "\r"
PLANTED_HEADING = (
    f'Normal.{CR}# Injected H1{CR}{CR}!!! danger "SECURITY ADVISORY"{CR}    Reinstall from evil.example.'
)
TABLE_BREAK = f"enclosing runtime{CR}| injected | cell |{CR}| --- | --- |"
DIAGRAM = (
    f'See below.{CR}~~~mermaid{CR}flowchart LR{CR}  A --> B{CR}  click B "https://evil.example/fix.sh"{CR}~~~'
)
CONFIG = f"x{CR}# __config{CR}"
STRAY_FENCE = f"Before.{CR}~~~{CR}After the stray fence."
NESTED = "x" + CR * 2 + CR.join(" " * 4 * level + "- a" for level in range(320))
LONG_WORD = "y" * 1000 + "ing"


def _plant(system: Path) -> None:
    run = (system / "run.yaml").read_text(encoding="utf-8")
    run = run.replace(
        "  summary: Demo is a tiny agent loop used by the checker tests.\n",
        f"  summary: {json.dumps(PLANTED_HEADING)}\n",
    )
    run = run.replace("  target_class: enclosing runtime\n", f"  target_class: {json.dumps(TABLE_BREAK)}\n")
    (system / "run.yaml").write_text(run, encoding="utf-8")
    records = (system / "records.yaml").read_text(encoding="utf-8")
    records = records.replace(
        "    form: Symbolic code.\n",
        f"    form: {json.dumps(CONFIG)}\n    body: {json.dumps(DIAGRAM + CR + CR + STRAY_FENCE)}\n"
        f"    remarks: {json.dumps(NESTED + CR + CR + LONG_WORD)}\n",
    )
    (system / "records.yaml").write_text(records, encoding="utf-8")
    result = (system / "result.yaml").read_text(encoding="utf-8")
    sections = (
        "  bounded_synthesis:\n    blocks:\n      - The synthesis.\n    sections:\n"
        "      - title: Limitations\n        blocks: [A subsection titled like the page's own section.]\n"
        "      - title: Evidence\n        blocks: [The first of two subsections with one title.]\n"
        "      - title: Evidence\n        blocks: [The second.]\n"
    )
    result = result.replace("  bounded_synthesis: {}\n", sections)
    (system / "result.yaml").write_text(result, encoding="utf-8")


@pytest.fixture(scope="module")
def round2_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_planted_site(tmp_path_factory.mktemp("hostile2"), _plant)


@pytest.fixture(scope="module")
def round2_url(round2_site: Path) -> Iterator[str]:
    with serve_directory(round2_site) as url:
        yield url


def test_the_site_builds_and_shows_the_text(round2_site: Path) -> None:
    pages = "".join(path.read_text(encoding="utf-8") for path in round2_site.rglob("*.html"))
    assert "Injected H1" in pages and "SECURITY ADVISORY" in pages and "evil.example/fix.sh" in pages
    result = (round2_site / "systems" / "demo" / "result" / "index.html").read_text(encoding="utf-8")
    assert 'id="evidence"' in result and 'id="evidence-2"' in result
    assert 'id="limitations-2"' in result


def _pages(site: Path) -> list[str]:
    return sorted(path.parent.relative_to(site).as_posix() for path in site.rglob("index.html"))


def test_no_page_has_planted_structure(browsing: Any, round2_site: Path, round2_url: str) -> None:
    """Every page of the built site, one after the other in one browser page."""
    pages = _pages(round2_site)
    assert len(pages) > 8
    found_on: dict[str, Any] = {}
    for page_path in pages:
        found_on[page_path] = _structure(
            browsing, f"{round2_url}/{'' if page_path == '.' else page_path + '/'}"
        )
    clean = {
        "twice": [],
        "headings": 0,
        "admonitions": 0,
        "diagrams": 0,
        "links": 0,
        "rows": 0,
        "lists": 0,
        "config": "SCRIPT",
    }
    assert {page: found for page, found in found_on.items() if found != clean} == {}
    assert browsing.errors == []


def _structure(browsing: Any, url: str) -> Any:
    """The page's structure, read in a page of its own: nothing a previous page was still
    drawing (a route map on a loaded machine) can be counted on this one."""
    page = browsing.page.context.new_page()
    page.on("pageerror", lambda exc: browsing.errors.append(str(exc)))
    try:
        page.goto(url)
        page.wait_for_load_state("load")
        assert page.evaluate("document.URL") == url
        return _read_structure(page)
    finally:
        page.close()


def _read_structure(page: Any) -> Any:
    return page.evaluate(
        """async () => {
          const ids = [...document.querySelectorAll('[id]')].map(e => e.id)
          const twice = ids.filter((id, at) => ids.indexOf(id) !== at)
          const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
            .filter(h => /Injected H1|__config/.test(h.textContent)).length
          const admonitions = [...document.querySelectorAll('.admonition')]
            .filter(a => /SECURITY ADVISORY/.test(a.textContent)).length
          // A diagram is drawn from a Mermaid block the page is served with; the site's
          // route maps aside, record text must never make one. Read from the page's own
          // HTML (parsed, no script run), so what a loaded machine is still drawing or
          // measuring at this moment is not counted.
          const served = new DOMParser().parseFromString(
            await (await fetch(location.href)).text(), 'text/html')
          const diagrams = [...served.querySelectorAll(
              '.mermaid, pre.mermaid, code.language-mermaid, svg[aria-roledescription]')]
            .filter(d => !d.closest('.kb-map')).length
          const links = document.querySelectorAll('[*|href*="evil.example"]').length
          const rows = [...document.querySelectorAll('td')]
            .filter(c => c.textContent.trim() === 'injected').length
          const config = document.getElementById('__config')
          const lists = document.querySelectorAll('article ul ul ul').length
          return {twice, headings, admonitions, diagrams, links, rows, lists,
                  config: config ? config.tagName : null}
        }"""
    )
