"""napkin's history page on a phone (390×844): each table, scrolled sideways and down in
its own box, keeps its header row at the box's top and its first column (the record, the
axis) at the box's left, drawn above the cells scrolled under them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO_ROOT, build_site, serve_directory

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# Each history table whose box scrolls both ways: scrolled to the middle of each, where
# its header cell and the first cell of a row in view stand against the box, and whether
# each is what the browser finds at its own centre (drawn on top).
SCROLLED = """async () => {
  const scrolls = (el, axis) => ['auto', 'scroll'].includes(getComputedStyle(el)['overflow' + axis]);
  const out = [];
  for (const table of document.querySelectorAll('.kb-history table')) {
    const box = table.closest('.md-typeset__scrollwrap');
    if (!box || !scrolls(box, 'X') || !scrolls(box, 'Y')) continue;
    if (box.scrollWidth <= box.clientWidth + 1 || box.scrollHeight <= box.clientHeight + 1) continue;
    box.scrollIntoView();
    // The site's header stays at the top of the window: bring the box's top below it.
    const header = document.querySelector('.md-header');
    window.scrollBy(0, -((header ? header.getBoundingClientRect().height : 0) + 8));
    box.scrollLeft = Math.round((box.scrollWidth - box.clientWidth) / 2);
    box.scrollTop = Math.round((box.scrollHeight - box.clientHeight) / 2);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const frame = box.getBoundingClientRect();
    const onTop = cell => {
      const r = cell.getBoundingClientRect();
      const x = r.left + Math.min(8, r.width / 2), y = r.top + Math.min(8, r.height / 2);
      const hit = document.elementFromPoint(x, y);
      return !!hit && cell.contains(hit);
    };
    const corner = table.tHead.rows[0].cells[0];
    // A run's header cell in view, right of the first column (the others scrolled away).
    const cornerRight = corner.getBoundingClientRect().right;
    const head = [...table.tHead.rows[0].cells].slice(1).find(c => {
      const r = c.getBoundingClientRect();
      return r.left >= cornerRight - 1 && r.left + 16 <= frame.right;
    });
    const headHeight = table.tHead.getBoundingClientRect().height;
    // The row just under the header row, however tall.
    const under = frame.top + headHeight + 4;
    const row = [...table.tBodies[0].rows].find(r => {
      const c = r.cells[0].getBoundingClientRect();
      return c.top <= under && c.bottom > under;
    });
    const first = row ? row.cells[0] : null;
    const firstHit = first ? document.elementFromPoint(first.getBoundingClientRect().left + 8, under) : null;
    out.push({
      scrolledX: box.scrollLeft > 0, scrolledY: box.scrollTop > 0,
      headTop: head ? Math.round(head.getBoundingClientRect().top - frame.top) : null,
      headOnTop: head ? onTop(head) : false,
      cornerLeft: Math.round(corner.getBoundingClientRect().left - frame.left), cornerOnTop: onTop(corner),
      firstLeft: first ? Math.round(first.getBoundingClientRect().left - frame.left) : null,
      firstOnTop: !!firstHit && first.contains(firstHit),
    });
  }
  return out;
}"""


@pytest.fixture(scope="module")
def napkin_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("napkin-site")
    shutil.copytree(REPO_ROOT / "records" / "napkin", root / "records" / "napkin")
    site = build_site(root / "site", records=root / "records")
    with serve_directory(Path(site)) as url:
        yield url


def test_history_tables_keep_header_and_first_column_in_view(browsing: Any, napkin_site: str) -> None:
    page = browsing.page
    page.set_viewport_size(PHONE)
    page.goto(f"{napkin_site}/systems/napkin/history/")
    page.wait_for_selector(".kb-history .md-typeset__scrollwrap")
    page.wait_for_timeout(200)  # the theme wraps the tables in its scroll boxes
    tables = page.evaluate(SCROLLED)
    assert tables, "no history table scrolls both ways at 390×844"
    for table in tables:
        assert table["scrolledX"] and table["scrolledY"], table
        assert table["headTop"] is not None and -1 <= table["headTop"] <= 2 and table["headOnTop"], table
        assert -1 <= table["cornerLeft"] <= 2 and table["cornerOnTop"], table
        assert table["firstLeft"] is not None and -1 <= table["firstLeft"] <= 2 and table["firstOnTop"], table
    assert browsing.errors == []
