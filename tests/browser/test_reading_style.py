"""Reading the site on a phone (390×844) and a laptop (1280×800), light and dark: status
colours distinct and legible in both schemes, long tables' header rows in view, a first
column no wider than a third of a phone, the key column in view, route maps whole and
saying when they scroll, and the memory comparison readable without hover."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import draw_maps, is_local

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SCHEMES = ("default", "slate")
RESULT = "systems/oh-my-pi/result/"
HISTORY = "systems/napkin/history/"
STATUS_MATRIX = "systems/status-matrix/"
COMPARISON = "comparisons/memory/"
MAPS = ("systems/oh-my-pi/", "systems/napkin/", "systems/instinctual-memory/", "systems/decapod/")
STATUSES = ("uninspected", "claimed", "afforded", "wired", "observed")


def _palette(scheme: str) -> str:
    """mkdocs-material keeps the chosen palette in local storage, read before the page paints."""
    index = SCHEMES.index(scheme)
    value = json.dumps({"index": index, "color": {"scheme": scheme, "primary": "indigo", "accent": "indigo"}})
    return f"localStorage.setItem('/.__palette', {value!r});"


READERS = [(viewport, scheme) for viewport in (PHONE, LAPTOP) for scheme in SCHEMES]
Reader = tuple[Any, str, dict[str, int]]


@pytest.fixture(params=READERS, ids=lambda param: f"{param[0]['width']}-{param[1]}")
def reader(request: pytest.FixtureRequest, browser: Any, base_url: str) -> Iterator[Reader]:
    viewport, scheme = request.param
    context = browser.new_context(viewport=viewport, service_workers="block")
    context.set_default_timeout(20_000)
    context.route("**/*", lambda route: route.continue_() if is_local(route.request.url) else route.abort())
    context.add_init_script(_palette(scheme))
    page = context.new_page()
    try:
        yield page, base_url, viewport
    finally:
        context.close()


def _open(page: Any, url: str, scheme: str | None = None) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    if scheme is not None:
        assert page.evaluate("document.body.dataset.mdColorScheme") == scheme


# Each status's badges on the page: their text colour, and the contrast of that colour
# with what is behind it (the badge's own background, else the page's), WCAG's formula.
BADGE_COLOURS = """(statuses) => {
  const rgb = text => (text.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const c = [r, g, b].map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const behind = el => {
    for (let at = el; at; at = at.parentElement) {
      const colour = rgb(getComputedStyle(at).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0.99)) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const found = {};
  for (const status of statuses) {
    const badges = [...document.querySelectorAll('article .kb-badge--' + status)];
    if (!badges.length) continue;
    found[status] = badges.slice(0, 20).map(badge => {
      const fg = rgb(getComputedStyle(badge).color).slice(0, 3);
      const [a, b] = [luminance(fg), luminance(behind(badge))].sort((x, y) => y - x);
      return {colour: fg.join(','), contrast: (a + 0.05) / (b + 0.05)};
    });
  }
  return found;
}"""


def test_status_badges_are_distinct_and_legible_in_both_schemes(reader: Any, request: Any) -> None:
    page, base, _ = reader
    scheme = request.node.callspec.params["reader"][1]
    for path in (RESULT, "glossary/"):
        _open(page, f"{base}/{path}", scheme)
        found = page.evaluate(BADGE_COLOURS, list(STATUSES))
        assert len(found) >= 4, (path, found)
        colours = {status: {b["colour"] for b in badges} for status, badges in found.items()}
        assert all(len(shown) == 1 for shown in colours.values()), (path, colours)
        assert len({next(iter(shown)) for shown in colours.values()}) == len(colours), (path, scheme, colours)
        low = [(s, b) for s, badges in found.items() for b in badges if b["contrast"] < 4.5]
        assert not low, (path, scheme, low)


# The article's tables of 16 rows or more: whether the header cells are sticky, then,
# with the box scrolled halfway down (and the page brought to it), where the header row
# stands against the top of the box it scrolls in.
LONG_TABLE_HEADERS = """async () => {
  const scrollsY = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY);
  const out = [];
  for (const table of document.querySelectorAll('article table')) {
    if (!table.tHead || table.tBodies.length === 0 || table.tBodies[0].rows.length < 16) continue;
    let box = table.parentElement;
    const scrolling = el => scrollsY(el) && el.scrollHeight > el.clientHeight + 1;
    while (box && box.tagName !== 'ARTICLE' && !scrolling(box)) box = box.parentElement;
    const head = table.tHead.rows[0].cells[1] || table.tHead.rows[0].cells[0];
    const sticky = getComputedStyle(head).position === 'sticky';
    if (!box || box.tagName === 'ARTICLE') { out.push({sticky, boxed: false}); continue; }
    box.scrollIntoView();
    box.scrollTop = Math.round((box.scrollHeight - box.clientHeight) / 2);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const top = box.getBoundingClientRect().top, at = head.getBoundingClientRect().top;
    out.push({sticky, boxed: true, scrolled: box.scrollTop > 0, offset: Math.round(at - top)});
  }
  return out;
}"""


def test_long_tables_keep_their_header_row_in_view(reader: Any) -> None:
    page, base, _ = reader
    for path in (HISTORY, STATUS_MATRIX):
        _open(page, f"{base}/{path}")
        page.wait_for_timeout(200)  # the theme wraps the tables in its scroll boxes
        tables = page.evaluate(LONG_TABLE_HEADERS)
        assert tables, path
        for table in tables:
            assert table["sticky"] and table["boxed"] and table["scrolled"], (path, table)
            assert -1 <= table["offset"] <= 2, (path, table)


FIRST_COLUMNS = """() => [...document.querySelectorAll('article table')].map(table => {
  const row = [...table.rows].find(r => r.cells.length > 1);
  return row ? Math.round(row.cells[0].getBoundingClientRect().width) : 0;
})"""


def test_first_column_takes_at_most_a_third_of_a_phone(reader: Any) -> None:
    page, base, viewport = reader
    if viewport != PHONE:
        pytest.skip("a phone's width")
    for path in (HISTORY, STATUS_MATRIX, RESULT, COMPARISON):
        _open(page, f"{base}/{path}")
        page.wait_for_timeout(200)
        widths = page.evaluate(FIRST_COLUMNS)
        assert widths, path
        assert max(widths) <= PHONE["width"] / 3 + 1, (path, widths)


KEY_COLUMNS = """() => [...document.querySelectorAll('article table')].map(t =>
  [...(t.tHead ? t.tHead.rows[0].cells : [])].map(c => c.textContent.trim().toLowerCase()))"""


def test_the_key_column_is_second_in_claim_comparison_and_limitations(reader: Any) -> None:
    page, base, viewport = reader
    if viewport != PHONE:
        pytest.skip("one width is enough: the order is the generator's")
    _open(page, f"{base}/{RESULT}")
    heads = page.evaluate(KEY_COLUMNS)
    claims = [h for h in heads if any("supported conclusion" in c for c in h)]
    limits = [h for h in heads if h and h[0] == "limitation"]
    assert claims and limits, heads
    assert all("supported conclusion" in h[1] for h in claims), claims
    assert all("conclusion prevented" in h[1] for h in limits), limits


# Each drawn map: its labels' text, whether its drawing is wider than its box and
# whether the line above the box says so.
MAP_STATE = """() => [...document.querySelectorAll('.kb-map__drawing')].map(box => {
  const cue = box.previousElementSibling;
  return {
    labels: [...box.querySelectorAll('.nodeLabel, .edgeLabel')].map(l => l.textContent),
    overflows: box.scrollWidth > box.clientWidth + 1,
    cue: !!cue && cue.classList.contains('kb-scroll-cue') && !cue.hidden
         && cue.getBoundingClientRect().height > 0 && /scroll it sideways/.test(cue.textContent),
  };
})"""


def test_route_maps_are_whole_and_say_when_they_scroll(reader: Any) -> None:
    page, base, viewport = reader
    maps = []
    for path in MAPS:
        _open(page, f"{base}/{path}")
        if page.evaluate("document.querySelector('.kb-map') === null"):
            continue
        draw_maps(page)
        page.wait_for_timeout(300)
        maps += page.evaluate(MAP_STATE)
    assert len(maps) >= 3
    cut = [label for state in maps for label in state["labels"] if "…" in label]
    assert not cut, cut
    assert all(state["cue"] == state["overflows"] for state in maps), maps
    if viewport == PHONE:
        assert any(state["overflows"] for state in maps), maps


COMPARISON_STATE = """() => {
  const basis = [...document.querySelectorAll('.kb-matrix .kb-chip__basis')]
    .map(el => parseFloat(getComputedStyle(el).fontSize));
  const rows = [...document.querySelectorAll('.kb-matrix tr[data-kb-system]')]
    .map(row => [row.dataset.kbSystem, row.textContent.replace(/\\s+/g, ' ').trim()]);
  const notes = [...document.querySelectorAll('.kb-matrix details.kb-cell__note')];
  return {smallest: Math.min(...basis), count: basis.length, rows, notes: notes.length};
}"""


def test_the_memory_comparison_reads_without_hover(reader: Any) -> None:
    page, base, _ = reader
    _open(page, f"{base}/{COMPARISON}")
    state = page.evaluate(COMPARISON_STATE)
    assert state["count"] > 0 and state["smallest"] >= 11, state
    rows = dict(state["rows"])
    assert "decapod" in rows and "no profile" in rows["decapod"], rows
    assert state["notes"] > 0
    note = page.locator(".kb-matrix details.kb-cell__note").first
    note.scroll_into_view_if_needed()
    note.locator("summary").click()
    assert note.evaluate("details => details.open")
    assert note.locator("p").first.is_visible()
