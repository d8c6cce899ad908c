"""Hostile labels in the route maps and hostile steps in a progression flow, in Chromium.

Each payload, if Mermaid or the page took it for syntax or markup, would add a node or a
link, run a script (``window.__pwned``, a dialog), load an image or restyle the map. The
system is the clean demo with components whose labels carry a payload and name RTE-1,
routes labelled with a payload, and progressions whose steps carry them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import build_planted_site, draw_maps, serve_directory

from generator.model.inline_markup import plain_text

pytestmark = pytest.mark.browser

RUN = "window.__pwned=1;alert(1)"
PAYLOADS = [
    'x"]) click n0 call alert(1)',
    'x"]:::kb-route click n1 href "javascript:window.__pwned=1" _self',
    '%%{init: {"securityLevel": "loose", "startOnLoad": true}}%% x',
    f'<img src=x onerror="{RUN}">',
    "#quot;]) click n0 call alert(1) %% #60;img src=x onerror=alert(1)#62;",
    "ﬂ°°60¶ßimg src=x onerror=alert(1)ﬂ°°62¶ß",
    f'<a href="javascript:{RUN}">x</a> javascript:{RUN}',
    "style n0 fill:#f00; classDef kb-route fill:#f00; end",
    "`markdown` **bold** [link](javascript:alert(1)) |pipe| {brace} \u202eevil",
]
FIRST = 10  # the planted routes are RTE-10 …, the components CMP-10 …


def _plant(system: Path) -> None:
    components = "".join(
        f"  - id: CMP-{n}\n    label: {json.dumps(payload + ', used by RTE-1')}\n"
        for n, payload in enumerate(PAYLOADS, start=FIRST)
    )
    routes = "".join(
        f"  - id: RTE-{n}\n    label: {json.dumps(payload)}\n    owner: CMP-1\n"
        f"    progression: {json.dumps(payload + ' → CMP-1 → ' + payload)}\n"
        for n, payload in enumerate(PAYLOADS, start=FIRST)
    )
    (system / "maps.yaml").write_text(f"components:\n{components}routes:\n{routes}", encoding="utf-8")
    result = (system / "result.yaml").read_text(encoding="utf-8")
    placed = ", ".join(f"RTE-{n}" for n in range(FIRST, FIRST + len(PAYLOADS)))
    result = result.replace("        - records: [RTE-1]\n", f"        - records: [RTE-1, {placed}]\n")
    (system / "result.yaml").write_text(result, encoding="utf-8")


@pytest.fixture(scope="module")
def maps_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_planted_site(tmp_path_factory.mktemp("hostile-maps"), _plant)


@pytest.fixture(scope="module")
def maps_url(maps_site: Path) -> Iterator[str]:
    with serve_directory(maps_site) as url:
        yield url


MAP_JS = """() => {
  const drawing = [...document.querySelectorAll('.kb-map__drawing')];
  const inside = drawing.flatMap(d => [...d.querySelectorAll('*')]);
  const listed = [...document.querySelectorAll('.kb-map [data-kb-node] a')]
    .map(a => new URL(a.getAttribute('href'), location.href).href);
  return {
    nodes: drawing.reduce((n, d) => n + d.querySelectorAll('g.node').length, 0),
    listed: listed.length,
    links: inside.filter(e => e.tagName.toLowerCase() === 'a').map(a => ({
      cls: a.getAttribute('class'), href: new URL(a.getAttribute('href'), location.href).href,
      title: a.querySelector('title') ? a.querySelector('title').textContent : null,
    })),
    listedHrefs: listed,
    foreign: inside.filter(e => /^(img|script|iframe|object|embed|image|use)$/i.test(e.tagName)).length,
    handlers: inside.filter(e => [...e.attributes].some(a => /^on/i.test(a.name))).length,
    red: inside.filter(e => /#f00|rgb\\(255, 0, 0\\)/i.test(e.getAttribute('style') || '')).length,
  };
}"""


def test_hostile_labels_add_no_node_link_or_script_to_a_map(browsing: Any, maps_url: str) -> None:
    page = browsing.page
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{maps_url}/systems/demo/")
    draw_maps(page)
    found = page.evaluate(MAP_JS)
    # RTE-1 and CMP-1, then each planted route and component: nothing more.
    assert found["nodes"] == found["listed"] == 2 + 2 * len(PAYLOADS)
    assert all(link["cls"] == "kb-map__link" for link in found["links"])
    assert sorted(link["href"] for link in found["links"]) == sorted(found["listedHrefs"])
    assert all(link["href"].startswith(maps_url) for link in found["links"])
    titles = {link["title"] for link in found["links"]}
    for n, payload in enumerate(PAYLOADS, start=FIRST):  # the full label, as text, on hover
        assert f"RTE-{n} — {plain_text(payload)}" in titles
    assert found["foreign"] == 0 and found["handlers"] == 0 and found["red"] == 0
    for link in page.locator(".kb-map__drawing a.kb-map__link").all():
        link.hover()
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert dialogs == []
    assert browsing.traffic.blocked == []
    assert browsing.errors == []


def test_hostile_steps_show_literally_in_a_flow(browsing: Any, maps_url: str) -> None:
    page = browsing.page
    page.goto(f"{maps_url}/systems/demo/result/")
    for n, payload in enumerate(PAYLOADS, start=FIRST):
        steps = page.evaluate(
            """(id) => {
              let field = document.getElementById(id).nextElementSibling;
              while (field && !field.classList.contains('kb-flow-field')) field = field.nextElementSibling;
              return [...field.querySelectorAll('.kb-flow__box')].map(box => ({
                text: box.textContent, tags: [...box.querySelectorAll('*')].map(e => e.tagName.toLowerCase()),
              }));
            }""",
            f"rte-{n}",
        )
        # A code span shows its content and strong text its words, as everywhere; a link
        # whose target is no web URL nor a record is its text, then its target as code.
        shown = payload.replace("`", "").replace("**bold**", "bold")
        shown = shown.replace("[link](javascript:alert(1))", "link (javascript:alert(1))")
        assert [step["text"] for step in steps] == [shown, "CMP-1", shown], payload
        assert {tag for step in steps for tag in step["tags"]} <= {"a", "code", "strong", "em"}
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert browsing.errors == []
