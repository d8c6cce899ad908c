"""Every character a map label keeps, in every pair, through the vendored Mermaid in Chromium.

A label keeps a safe subset of characters (``render/mermaid.py``); Mermaid's label
grammar is more than quoting: ``fa:fa-spin`` draws a Font Awesome ``<i>``, ``$$…$$``
KaTeX ``<math>``, a backtick string Markdown, ``#35;`` an entity. Each pair of kept
characters (and look-alikes, letters and digits around them), and each known form, is
drawn by the page's own ``kb-maps.js`` with the vendored Mermaid, and each drawn node's
label must hold text alone: only Mermaid's wrappers (``div``, ``span``, ``p``), the
renderer's own ``<br>``, and exactly the text the label was given.
"""

from __future__ import annotations

import html
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import REPO_ROOT, serve_directory

from generator.render import mermaid

pytestmark = pytest.mark.browser

VENDOR = REPO_ROOT / "overrides" / "assets" / "javascripts"
MERMAID_JS = "vendor/mermaid-11.17.2.min.js"

# Mermaid's own label forms, each as a record could write it.
FORMS = [
    "fa:fa-spin fa:fa-car",
    "fab:fa-github fas:fa-user far:fa-bell fal:fa-cog fak:fa-kit fa:fa-x-y_z",
    "$$x^2$$ and $$\\frac{1}{2}$$",
    "$$ \\sqrt{-1} $$ $x^2$",
    '"`**bold** _em_ `code``"',
    "`markdown string` **bold**",
    "#35; #quot; #9829; #lt;b#gt;",
    "&lt;b&gt; &amp;amp; &#60;i&#62;",
    "<b>bold</b> <i class='fa fa-spin'></i> <br/>",
    "~List~int~ a~b~c",
    "x^y a^b^c -- --> -.- ==> ~~~",
    "click n0 call alert() :::kb-route @{ shape: circle }",
    "ﬂ°°35¶ß ﬂ°60¶ß",
    "a:b:c ::: :fa: fa: :fa-",
]
_AROUND = "aZ9"


def _characters() -> list[str]:
    """Every character a label may hold after the safe subset: the kept signs, the
    look-alikes, and a letter and a digit."""
    signs = sorted(set(mermaid.KEPT) | {mermaid.safe_label(c) for c in mermaid.LOOKALIKES.values()} - {""})
    return [*signs, "a", "1"]


def _labels() -> list[str]:
    """One label per first character: that character before every character, each pair
    between letters; then each form."""
    chars = _characters()
    pairs = [" ".join(f"{_AROUND[0]}{first}{second}{_AROUND[1]}" for second in chars) for first in chars]
    return [mermaid.safe_label(label) for label in [*pairs, *FORMS]]


def _page(labels: list[str]) -> str:
    """A page of maps as the system page writes them: each figure's source in a hidden
    ``pre``, drawn by kb-maps.js."""
    figures = []
    per_map = 12
    for start in range(0, len(labels), per_map):
        nodes = [
            mermaid.node(f"n{start + i}", [label], "record", "kb-record")
            for i, label in enumerate(labels[start : start + per_map])
        ]
        source = mermaid.flowchart("LR", nodes)
        figures.append(
            f'<figure class="kb-map"><pre class="kb-map__source" hidden>{html.escape(source)}</pre></figure>'
        )
    return (
        "<!doctype html><html><head><meta charset='utf-8'></head><body>"
        + "".join(figures)
        + f"<script src='{MERMAID_JS}'></script><script src='kb-maps.js'></script></body></html>"
    )


@pytest.fixture(scope="module")
def labels_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("map-labels")
    (root / "vendor").mkdir()
    shutil.copy(VENDOR / MERMAID_JS, root / MERMAID_JS)
    shutil.copy(VENDOR / "kb-maps.js", root / "kb-maps.js")
    (root / "index.html").write_text(_page(_labels()), encoding="utf-8")
    with serve_directory(root) as url:
        yield url


NODES_JS = """() => [...document.querySelectorAll('.kb-map__drawing g.node')].map(node => {
  const label = node.querySelector('foreignObject') || node.querySelector('.label');
  const inside = label ? [...label.querySelectorAll('*')] : [];
  return {
    id: node.id,
    tags: [...new Set(inside.map(e => e.tagName.toLowerCase()))],
    text: label ? label.textContent : null,
  };
})"""


def test_no_kept_pair_or_form_draws_anything_but_text(browsing: Any, labels_url: str) -> None:
    page = browsing.page
    page.goto(f"{labels_url}/")
    page.wait_for_function("document.documentElement.dataset.kbMaps === 'drawn'", timeout=60_000)
    assert page.evaluate("[...document.querySelectorAll('.kb-map')].every(f => f.dataset.kbDrawn === 'true')")
    drawn = page.evaluate(NODES_JS)
    labels = _labels()
    assert len(drawn) == len(labels)
    wrong = []
    for node in drawn:
        index = int(node["id"].split("-flowchart-n", 1)[1].split("-", 1)[0])
        shown = " ".join((node["text"] or "").split())
        if not set(node["tags"]) <= {"div", "span", "p"} or shown != labels[index]:
            wrong.append((labels[index], node["tags"], shown))
    assert wrong == []
    assert browsing.errors == []
