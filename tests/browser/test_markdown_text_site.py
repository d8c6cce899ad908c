"""Record text is Markdown: no generated page of the shipped KB shows its markers.

The shipped records write strong text (``**no dynamic check planned**``), code spans and links in their
prose; the site shows them formatted. On every generated page (the systems' pages, their
runs and changes pages, the comparisons, the glossary) the text a reader sees outside code,
code blocks and quotations (quoted as written) holds no strong pair ``**…**``, no code
span ``` `…` ``` and no link syntax ``](``: not in the article, not in the page's contents
or navigation. The search index's titles and snippets hold none either. A lone marker (a
``/**`` of pasted code, an unclosed backtick) is text, as Markdown leaves it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

GENERATED = ("systems", "comparisons", "glossary")
# Markdown that should have been formatted, within one block of text.
MARKUP = re.compile(r"\*\*(?=\S)[^\n]*?(?<=\S)\*\*|`[^`\n]+`|\]\(")

# The text a reader sees in the article and the sidebars, without what is shown as
# written on purpose: code, code blocks, quotations, diagrams and scripts.
SHOWN_TEXT_JS = """() => {
  const parts = [];
  for (const root of document.querySelectorAll("article, .md-sidebar")) {
    const copy = root.cloneNode(true);
    copy.querySelectorAll("code, pre, blockquote, script, style, svg, .mermaid, .kb-quote")
      .forEach((el) => el.remove());
    document.body.appendChild(copy);
    parts.push(copy.innerText);
    copy.remove();
  }
  return parts.join("\\n");
}"""


def _generated_pages(site_dir: Path) -> list[str]:
    pages = [
        path.parent.relative_to(site_dir).as_posix() + "/"
        for folder in GENERATED
        for path in sorted((site_dir / folder).rglob("index.html"))
    ]
    assert len(pages) > 15, pages
    return pages


def test_no_generated_page_shows_markdown_markers(browsing: Any, site_dir: Path, base_url: str) -> None:
    page = browsing.page
    found: dict[str, list[str]] = {}
    for path in _generated_pages(site_dir):
        page.goto(f"{base_url}/{path}")
        page.wait_for_load_state("load")
        shown = page.evaluate(SHOWN_TEXT_JS)
        assert len(shown) > 100, path
        hits = [match.group(0)[:60] for match in MARKUP.finditer(shown)]
        if hits:
            found[path] = hits[:5]
    assert found == {}
    assert browsing.errors == []


def test_the_shipped_markup_is_formatted(browsing: Any, base_url: str) -> None:
    """The current oh-my-pi run writes '**no dynamic check planned**' and code spans in
    its result's prose."""
    page = browsing.page
    page.goto(f"{base_url}/systems/oh-my-pi/result/")
    page.wait_for_load_state("load")
    strong = page.locator("article strong", has_text=re.compile(r"^no dynamic check planned$"))
    assert strong.count() >= 1
    assert page.locator("article p code", has_text="/home/zby/llm/commonplace").count() >= 1


def test_search_titles_and_snippets_show_no_markers(site_dir: Path) -> None:
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    entries = index["config"]["kb"]["entries"]
    assert len(entries) > 100
    bad = [
        (entry[0], text[:60])
        for entry in entries
        for text in (entry[2], entry[5])
        if MARKUP.search(text) or "**" in text
    ]
    assert bad == []
