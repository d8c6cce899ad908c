"""Reading the shipped KB on a phone and a laptop, light and dark: no raw Markdown where a
reader looks, each status said once, and a result page whose first screen says what the
system is and what the analysis found.

Screenshots of every result page at 390×844 and 1280×800 in both schemes are kept in a
folder under pytest's temporary path (its name is printed) to be looked at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# Material keeps the chosen scheme here; the slate palette is the site's dark one.
DARK = (
    "localStorage.setItem('/.__palette', JSON.stringify("
    "{index: 1, color: {scheme: 'slate', primary: 'indigo', accent: 'indigo'}}))"
)

# The article's text outside code, pre and the theme's own controls, with what is wrong in
# it. A changes page's word diffs show the compared text as written, markers and all.
RAW_MARKDOWN_JS = """() => {
  const article = document.querySelector('article');
  const copy = article.cloneNode(true);
  const away = 'pre, code, script, style, .md-clipboard, .mermaid, .kb-diff__words';
  copy.querySelectorAll(away).forEach(n => n.remove());
  const text = copy.innerText;
  const lines = text.split('\\n');
  return {
    pipeRows: lines.filter(l => /^\\s*\\|.*\\|\\s*$/.test(l)).slice(0, 3),
    strong: lines.filter(l => /\\*\\*\\S/.test(l)).slice(0, 3),
    headings: lines.filter(l => /^\\s*#{2,6} \\S/.test(l)).slice(0, 3),
    relativeCode: [...article.querySelectorAll('code')].map(c => c.textContent)
      .filter(t => /^\\.\\.?\\//.test(t) && !t.includes(' ')).slice(0, 3),
  };
}"""

# Each record's status line against the first paragraph after it: the same words twice.
RESTATED_JS = """() => {
  const words = s => s.toLowerCase().replace(/[^0-9a-z]+/g, ' ').trim();
  const found = [];
  for (const line of document.querySelectorAll('article .kb-statuses')) {
    const next = line.nextElementSibling;
    if (!next || next.tagName !== 'P') continue;
    const status = words(line.innerText);
    const first = words(next.innerText.split(/[.!?](?:\\s|$)/)[0]);
    if (status && first === status) found.push(line.innerText);
  }
  return found;
}"""


def _pages(site_dir: Path) -> list[str]:
    found = []
    for index in sorted(site_dir.glob("systems/**/index.html")):
        found.append(index.parent.relative_to(site_dir).as_posix() + "/")
    return [*found, "glossary/"]


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reading-round3-screenshots")
    print(f"\nscreenshots: {folder}")
    return folder


def _open(browser: Any, base_url: str, path: str, viewport: dict[str, int], dark: bool) -> Any:
    context = browser.new_context(viewport=viewport, service_workers="block")
    context.route(
        "**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url else route.abort()
    )
    if dark:
        context.add_init_script(DARK)
    page = context.new_page()
    page.goto(f"{base_url}/{path}")
    return page


def test_no_raw_markdown_and_no_restated_status_on_any_page(browser, base_url, site_dir):
    problems = {}
    for path in _pages(site_dir):
        page = _open(browser, base_url, path, PHONE, dark=False)
        raw = page.evaluate(RAW_MARKDOWN_JS)
        restated = page.evaluate(RESTATED_JS)
        page.context.close()
        wrong = {key: value for key, value in raw.items() if value}
        if restated:
            wrong["restated status"] = restated[:3]
        if wrong:
            problems[path] = wrong
    assert problems == {}


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390x844", "1280x800"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_result_pages_first_screen_says_what_was_found(
    browser, base_url, site_dir, screenshots, viewport, dark
):
    results = [path for path in _pages(site_dir) if path.endswith("/result/")]
    assert results, "the shipped KB has result pages"
    for path in results:
        page = _open(browser, base_url, path, viewport, dark)
        name = re.sub(r"[^a-z0-9]+", "-", path).strip("-")
        scheme = "dark" if dark else "light"
        page.screenshot(path=str(screenshots / f"{name}-{viewport['width']}-{scheme}.png"))
        first_screen = page.evaluate(
            """() => {
              const inView = el => { const b = el.getBoundingClientRect();
                                     return b.top < window.innerHeight && b.bottom > 0; };
              const synthesis = document.getElementById('bounded-synthesis');
              let first = synthesis && synthesis.nextElementSibling;
              while (first && first.tagName !== 'P') first = first.nextElementSibling;
              return {
                title: document.querySelector('article h1').innerText,
                runLine: document.querySelector('.kb-run-line')?.innerText || '',
                synthesisInView: !!synthesis && inView(synthesis),
                firstSentence: first ? first.innerText.split(/(?<=[.!?])\\s/)[0] : '',
                firstInView: !!first && inView(first),
                aboutClosed: !document.querySelector('details.kb-about-run')?.open,
                outlineShown:
                  getComputedStyle(document.querySelector('details.kb-outline')).display !== 'none',
              };
            }"""
        )
        page.context.close()
        assert first_screen["synthesisInView"] and first_screen["firstInView"], (path, first_screen)
        assert first_screen["firstSentence"], path
        assert first_screen["runLine"], path
        assert first_screen["aboutClosed"], path
        # The outline stands in for the table of contents' sidebar only where there is none.
        assert first_screen["outlineShown"] == (viewport is PHONE), (path, viewport)


def test_an_earlier_runs_page_says_so_mid_page(browser, base_url, site_dir):
    earlier = [path for path in _pages(site_dir) if "/runs/" in path and path.endswith("/result/")]
    assert earlier
    for path in earlier:
        page = _open(browser, base_url, path, PHONE, dark=False)
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 2)")
        page.wait_for_timeout(200)
        marker = page.evaluate(
            """() => { const m = document.querySelector('.kb-earlier-run');
                       if (!m) return null; const b = m.getBoundingClientRect();
                       return {top: b.top, text: m.innerText}; }"""
        )
        page.context.close()
        assert marker is not None and 0 <= marker["top"] < 200, (path, marker)
        assert marker["text"].startswith("Earlier run"), marker
