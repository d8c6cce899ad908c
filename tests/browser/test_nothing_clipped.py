"""At 1280 px nothing on a generated page is cut off: no page is wider than the window (a
system page once its route maps are drawn), a table wider than the article scrolls in its
own box, says so above it and keeps its first column in view, and a quoted code line wraps
in its box. On a 390 px phone no generated page scrolls sideways either (a table scrolls
in its own box; a digest or commit hash breaks anywhere)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import draw_maps

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1280, 800
PHONE = {"width": 390, "height": 844}


def _generated_pages(site_dir: Path) -> list[str]:
    found = sorted(
        path.parent.relative_to(site_dir).as_posix() + "/"
        for path in site_dir.rglob("index.html")
        if path.parent.relative_to(site_dir).parts[:1] in (("systems",), ("comparisons",))
    )
    assert len(found) > 10
    return found


# Each box whose table is wider than it: whether the line above it says it scrolls (shown,
# with some height), and, scrolled to its end, whether it scrolled and how many rows'
# first cells left the box.
WIDE_TABLES = """() => [...document.querySelectorAll('article :is(.md-typeset__scrollwrap, .kb-matrix)')]
  .filter(box => box.scrollWidth > box.clientWidth + 1)
  .map(box => {
    const cue = box.previousElementSibling;
    const cued = !!cue && cue.classList.contains('kb-scroll-cue') && !cue.hidden
      && cue.getBoundingClientRect().height > 0 && /scroll the table sideways/.test(cue.textContent);
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect().left;
    const rows = [...box.querySelectorAll('tr')].filter(row => row.cells.length > 1);
    const hidden = rows.filter(row => row.cells[0].getBoundingClientRect().left < edge - 1).length;
    return {rows: rows.length, hidden, scrolled: box.scrollLeft > 0, cued};
  })"""

# A box whose table fits: no line says it scrolls.
NEEDLESS_CUES = """() => [...document.querySelectorAll('article :is(.md-typeset__scrollwrap, .kb-matrix)')]
  .filter(box => box.scrollWidth <= box.clientWidth + 1)
  .filter(box => { const cue = box.previousElementSibling;
                   return cue && cue.classList.contains('kb-scroll-cue') && !cue.hidden; }).length"""

OVERFLOWING_QUOTES = """() => [...document.querySelectorAll('article .kb-quote pre')]
  .filter(pre => pre.scrollWidth > pre.clientWidth + 1).length"""


def test_no_generated_page_is_wider_than_the_window(browsing: Any, base_url: str, site_dir: Path) -> None:
    page = browsing.page
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    wide_tables = 0
    for path in _generated_pages(site_dir):
        page.goto(f"{base_url}/{path}")
        page.wait_for_load_state("load")
        if page.evaluate("document.querySelector('.kb-map') !== null"):  # measured once drawn
            draw_maps(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, path
        page.wait_for_function(
            "document.querySelectorAll('.kb-scroll-cue').length > 0 || "
            "document.querySelectorAll('article table').length === 0"
        )
        for table in page.evaluate(WIDE_TABLES):
            wide_tables += 1
            assert table["scrolled"] and table["hidden"] == 0 and table["cued"], (path, table)
        assert page.evaluate(NEEDLESS_CUES) == 0, path
        assert page.evaluate(OVERFLOWING_QUOTES) == 0, path
    assert wide_tables > 0  # the shipped pages have wide tables: the sticky column was tried


def test_no_generated_page_scrolls_sideways_on_a_phone(browsing: Any, base_url: str, site_dir: Path) -> None:
    """At 390x844 the page itself never scrolls sideways (a table scrolls in its own box,
    says so, and keeps its first column in view)."""
    page = browsing.page
    page.set_viewport_size(PHONE)
    wide_tables = 0
    for path in _generated_pages(site_dir):
        page.goto(f"{base_url}/{path}")
        page.wait_for_load_state("load")
        if page.evaluate("document.querySelector('.kb-map') !== null"):  # measured once drawn
            draw_maps(page)
        page.wait_for_function(
            "document.querySelectorAll('.kb-scroll-cue').length > 0 || "
            "document.querySelectorAll('article table').length === 0"
        )
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], (path, widths)
        for table in page.evaluate(WIDE_TABLES):
            wide_tables += 1
            assert table["scrolled"] and table["hidden"] == 0 and table["cued"], (path, table)
    assert wide_tables > 0


# Where each multi-line inline code span breaks: the character before each new line. A
# digest or commit hash (kb-breaks.js marks it) has no such character and breaks anywhere.
CODE_BREAKS = """() => {
  const found = [];
  for (const code of document.querySelectorAll('article :not(pre) > code:not([data-kb-digest])')) {
    if (code.getClientRects().length < 2) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let previous = null, top = null;
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (let at = 0; at < node.length; at++) {
        if (/\\s/.test(node.data[at])) { previous = null; continue; }
        const range = document.createRange();
        range.setStart(node, at); range.setEnd(node, at + 1);
        const rect = range.getBoundingClientRect();
        if (top !== null && rect.top > top + 2 && previous !== null) found.push([code.textContent, previous]);
        top = rect.top; previous = node.data[at];
      }
    }
  }
  return found;
}"""


def test_inline_code_breaks_only_after_a_slash_dot_hyphen_or_underscore(
    browsing: Any, base_url: str, site_dir: Path
) -> None:
    page = browsing.page
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    breaks = 0
    for path in _generated_pages(site_dir):
        page.goto(f"{base_url}/{path}")
        page.wait_for_load_state("load")
        found = page.evaluate(CODE_BREAKS)
        breaks += len(found)
        wrong = [(text, before) for text, before in found if before not in "/.-_"]
        assert wrong == [], (path, wrong[:5])
    assert breaks > 0  # the shipped pages have long paths that wrap: the rule was tried
