"""The shipped systems' route maps at 1280x800 (and oh-my-pi's at 390x844), as drawn in
Chromium.

What the maps must draw is computed here from the record files themselves (plain YAML,
not the generator's model or renderer): the relations of each route that its structured
fields state, its labelled route-contract fields included. The test then reads the drawn
SVG: each expected relation is an edge, no edge is anything else, every node links to an
anchor that exists, shows its label, and the routes with no relation are the ones listed
beside the maps. On a phone as on a desktop the labels stay 11 px or more, the map
scrolls in its own box and the page never sideways, and Mermaid is fetched only when the
maps near the viewport. Screenshots for reviewers go to ``test-artifacts/``, with the
maps' measured sizes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import pytest
import yaml
from browser_support import REPO_ROOT, draw_maps

from generator.model.kinds import registered

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1280, 800
RECORDS = REPO_ROOT / "records"
ARTIFACTS = REPO_ROOT / "test-artifacts"


def _runs() -> dict[str, Path]:
    """Each run's pages (their folder below systems/: a system's current run at its slug,
    an earlier run below its runs/) → the records folder of that run."""
    from generator.pipeline import link_records

    linked = link_records(RECORDS)
    folders = {(c.records.slug, c.records.run_folder): c.source.folder for c in linked.systems}
    return {
        g.slug: folders[g.system.slug, g.system.run_folder] for g in [*linked.graphs, *linked.earlier_runs]
    }


RUNS = _runs()
EARLIER_OMP = "oh-my-pi/runs/aas-2026-09-05-oh-my-pi-02"
SYSTEMS = sorted(
    run for run, folder in RUNS.items() if any("routes:" in f.read_text() for f in folder.glob("*.yaml"))
)
# An ID as the records write them: numbered (RTE-11) or analyst-prefixed (MEM-RTE-knowledge-store).
ID_TOKEN = re.compile(r"\b[A-Z]+(?:-[A-Z]+)*-(?:[0-9]+|[a-z0-9]+(?:-[a-z0-9]+)*)")
# A route's labelled fields that relate records (all but the evidence limits), and the
# values that state no finding.
LABELLED = (
    "immediate_return",
    "later_read_back",
    "delegated_visibility",
    "selection_predicate",
    "invalidation_or_expiry",
    "activation_or_effect",
)
UNCERTAIN = re.compile(r"(?:uninspected|inapplicable)\s*(?:[—–-]|\Z)", re.IGNORECASE)
# The lists that declare IDs: every kind's list (the kind registry), and the records the
# system cites that another analysis declares.
DECLARING = (*(spec.list_key for spec in registered()), "supplied")

DRAWN_JS = """() => [...document.querySelectorAll('.kb-map')].map(figure => {
  const heads = {};
  figure.querySelectorAll('[data-kb-node]').forEach(item => {
    heads[item.dataset.kbNode] = item.querySelector('a').textContent.split(' — ')[0];
  });
  const svg = figure.querySelector('.kb-map__drawing svg');
  const edges = [...svg.querySelectorAll('path[data-id^="L_"], path[id*="L_"]')].map(path => {
    const m = /L_(n[0-9]+)_(n[0-9]+)_[0-9]+/.exec(path.dataset.id || path.id);
    return m ? [heads[m[1]], heads[m[2]]] : null;
  }).filter(Boolean);
  const nodes = [...svg.querySelectorAll('g.node')].map(group => {
    const link = group.closest('a.kb-map__link');
    return {
      key: (/-flowchart-(n[0-9]+)-[0-9]+$/.exec(group.id) || [])[1],
      text: group.textContent.replace(/\\s+/g, ' ').trim(),
      href: link ? new URL(link.getAttribute('href'), location.href).href : null,
      title: link && link.querySelector('title') ? link.querySelector('title').textContent : null,
    };
  });
  const box = svg.getBoundingClientRect();
  return {heads, edges, nodes, width: Math.round(box.width), height: Math.round(box.height),
          natural: Math.round(svg.viewBox.baseVal.width), right: box.right};
})"""
UNRELATED_JS = """() => {
  const aside = document.querySelector('.kb-route-maps .kb-route-maps__unrelated');
  if (!aside) return null;
  const box = aside.getBoundingClientRect();
  const maps = document.querySelector('.kb-route-maps__drawn').getBoundingClientRect();
  return {ids: [...aside.querySelectorAll('li > a')].map(a => a.textContent),
          hrefs: [...aside.querySelectorAll('li > a')].map(a => a.href),
          left: box.left, top: box.top, mapsRight: maps.right, mapsBottom: maps.bottom,
          stacked: aside.parentElement.classList.contains('kb-route-maps--stacked')};
}"""


# ---------------------------------------------------------------- the records, read plainly


def _lists(system: str) -> dict[str, list[dict[str, Any]]]:
    """The system's record lists, merged over its files."""
    merged: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(RUNS[system].glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for key, value in data.items():
            if isinstance(value, list) and key in (*DECLARING, "annotations"):
                merged.setdefault(key, []).extend(value)
    return merged


def _named(text: str | None, declared: set[str]) -> Iterator[str]:
    """The declared IDs a text names: the longest declared prefix of each ID-like token."""
    for match in ID_TOKEN.finditer(text or ""):
        token = match.group(0)
        while token and token not in declared:
            token = token.rpartition("-")[0]
        if token:
            yield token


def expected_relations(system: str) -> tuple[set[frozenset[str]], set[str], set[str]]:
    """(related pairs, related routes, all routes) from the records' structured fields."""
    lists = _lists(system)
    declared = {record["id"] for key in DECLARING for record in lists.get(key, [])}
    routes = {route["id"] for route in lists.get("routes", [])}
    supplied_routes = {
        s["id"] for s in lists.get("supplied", []) if "-RTE-" in s["id"] or s["id"].startswith("RTE-")
    }
    pairs: set[frozenset[str]] = set()

    def relate(route: str, target: str) -> None:
        if target in declared and target != route:
            pairs.add(frozenset((route, target)))

    for route in lists.get("routes", []):
        rid = route["id"]
        for target in [
            *_named(route.get("owner"), declared),
            *route.get("reads", []),
            *route.get("writes", []),
        ]:
            relate(rid, target)
        for target in [
            *([route["part_of"]] if route.get("part_of") else []),
            *route.get("alternative_to", []),
        ]:
            relate(rid, target)
        texts = [route.get("progression")]
        texts += [
            value
            for name, value in (route.get("fields") or {}).items()
            if name in LABELLED and isinstance(value, str) and not UNCERTAIN.match(value.strip())
        ]
        for target in (target for text in texts for target in _named(text, declared)):
            if not target.startswith("SRC-"):
                relate(rid, target)
    for key in ("components", "objects"):
        for record in lists.get(key, []):
            for target in _named(record.get("label"), declared):
                if target in routes or target in supplied_routes:
                    relate(target, record["id"])
    for note in lists.get("annotations", []):
        if note["target"] in routes or note["target"] in supplied_routes:
            pairs.add(frozenset((note["target"], "On " + note["target"])))
    related = {end for pair in pairs for end in pair if end in routes}
    return pairs, related, routes


# ---------------------------------------------------------------- the drawn maps


def _open(page: Any, url: str, width: int = WIDTH, height: int = HEIGHT) -> list[dict[str, Any]]:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    draw_maps(page)
    return page.evaluate(DRAWN_JS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_maps_draw_each_related_route_and_nothing_else(browsing: Any, base_url: str, system: str) -> None:
    pairs, related, _ = expected_relations(system)
    maps = _open(browsing.page, f"{base_url}/systems/{system}/")
    drawn = {frozenset(edge) for m in maps for edge in m["edges"]}
    # oh-my-pi's current run relates RTE-1 and RTE-2 in their labelled fields alone (its
    # other routes state their relations in prose); napkin's -04 run relates none of its
    # routes in a field: it draws no map.
    if not related:
        assert maps == [] and pairs == set(), system
        return
    assert drawn == pairs
    for route in related:
        assert any(route in edge for edge in drawn), route
    assert browsing.errors == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_node_links_to_its_record_and_shows_its_label(
    browsing: Any, base_url: str, system: str
) -> None:
    lists = _lists(system)
    labels = {r["id"]: r.get("label") for key in DECLARING for r in lists.get(key, [])}
    maps = _open(browsing.page, f"{base_url}/systems/{system}/")
    targets: dict[str, set[str]] = {}
    for drawn_map in maps:
        assert len(drawn_map["nodes"]) == len(drawn_map["heads"])  # every node drawn
        for node in drawn_map["nodes"]:
            head = drawn_map["heads"][node["key"]]
            assert node["href"] and node["title"] and node["title"].startswith(head), node
            label = labels.get(head)
            if label:  # not a bare ID: the label's first word is on the node, all of it on hover
                assert node["text"] != head and label.split()[0] in node["text"], (node, label)
                assert node["title"] == f"{head} — {label}"
            page_url, anchor = urldefrag(node["href"])
            targets.setdefault(page_url, set()).add(anchor)
    for page_url, anchors in sorted(targets.items()):
        browsing.page.goto(page_url)
        missing = browsing.page.evaluate(
            "ids => ids.filter(id => !document.getElementById(id))", sorted(anchors)
        )
        assert missing == [], page_url


@pytest.mark.parametrize("system", SYSTEMS)
def test_routes_without_relations_are_listed_beside_the_maps(
    browsing: Any, base_url: str, system: str
) -> None:
    _, related, routes = expected_relations(system)
    _open(browsing.page, f"{base_url}/systems/{system}/")
    listed = browsing.page.evaluate(UNRELATED_JS)
    if routes == related:
        assert listed is None
        return
    assert listed is not None and set(listed["ids"]) == routes - related
    assert all(
        urldefrag(href)[1] == route.lower()
        for href, route in zip(listed["hrefs"], listed["ids"], strict=True)
    )
    if listed["stacked"]:  # the maps would be cramped beside it: it comes under them
        assert listed["top"] >= listed["mapsBottom"] - 1
    else:
        assert listed["left"] >= listed["mapsRight"]


def test_screenshot_of_the_oh_my_pi_system_page_and_the_maps_sizes(browsing: Any, base_url: str) -> None:
    page = browsing.page
    sizes = {}
    for system in SYSTEMS:
        maps = _open(page, f"{base_url}/systems/{system}/")
        sizes[system] = [
            {
                "nodes": len(m["nodes"]),
                "edges": len(m["edges"]),
                "height": m["height"],
                "width": m["width"],
                "natural_width": m["natural"],
            }
            for m in maps
        ]
        for m in maps:  # legible: drawn at no less than 80% of its natural size
            assert m["width"] >= 0.8 * m["natural"] - 1, (system, m["width"], m["natural"])
            assert m["height"] <= HEIGHT, (system, m["height"])  # a map fits in one screen
    ARTIFACTS.mkdir(exist_ok=True)
    for path, name in (
        (EARLIER_OMP, "oh-my-pi-earlier-run-system-1280.png"),
        ("oh-my-pi", "oh-my-pi-system-1280.png"),
    ):
        _open(page, f"{base_url}/systems/{path}/")
        target = ARTIFACTS / name
        page.screenshot(path=str(target), full_page=True)
        assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    (ARTIFACTS / "route-maps-1280.json").write_text(json.dumps(sizes, indent=2) + "\n", encoding="utf-8")


SVG_IDS_JS = "() => [...document.querySelectorAll('.kb-map__drawing svg')].map(svg => svg.id)"


def test_the_maps_are_drawn_again_in_the_dark_scheme(browsing: Any, base_url: str) -> None:
    page = browsing.page
    light = _open(page, f"{base_url}/systems/{EARLIER_OMP}/")
    before = page.evaluate(SVG_IDS_JS)
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.wait_for_function(
        "ids => document.documentElement.dataset.kbMaps === 'drawn' && "
        "[...document.querySelectorAll('.kb-map__drawing svg')].every(svg => !ids.includes(svg.id))",
        arg=before,
        timeout=20_000,
    )
    dark = page.evaluate(DRAWN_JS)
    assert len(page.evaluate(SVG_IDS_JS)) == len(before)  # replaced, not added
    assert [len(m["nodes"]) for m in dark] == [len(m["nodes"]) for m in light]
    assert all(node["href"] for m in dark for node in m["nodes"])
    assert browsing.errors == []


FLOW_JS = """(id) => {
  const heading = document.getElementById(id);
  let field = heading.nextElementSibling;
  while (field && !field.classList.contains('kb-flow-field')) field = field.nextElementSibling;
  if (!field) return null;
  const steps = [...field.querySelectorAll('.kb-flow__step')];
  const top = heading.getBoundingClientRect().top + window.scrollY;
  const bottom = field.getBoundingClientRect().bottom + window.scrollY;
  return {
    steps: steps.map(step => step.querySelector('.kb-flow__box').textContent),
    links: [...field.querySelectorAll('.kb-flow__box a')].map(a => a.href),
    boxes: steps.map(step => step.querySelector('.kb-flow__box').getBoundingClientRect().height > 0),
    text: field.textContent.replace(/\\s+/g, ''),
    list: field.querySelector('ol.kb-flow').textContent,
    top, bottom,
  };
}"""


def test_a_route_record_shows_its_progression_as_a_flow_of_linked_steps(browsing: Any, base_url: str) -> None:
    page = browsing.page
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{base_url}/systems/instinctual-memory/runtime/")
    flow = page.evaluate(FLOW_JS, "rte-1")
    progression = next(r for r in _lists("instinctual-memory")["routes"] if r["id"] == "RTE-1")["progression"]
    assert flow is not None
    assert [step.strip() for step in flow["steps"]] == [part.strip() for part in progression.split("→")]
    assert all(flow["boxes"])
    assert flow["text"] == ("Endpoints/progression:" + progression).replace(" ", "")  # nothing lost
    assert flow["list"] == progression.strip()  # character for character
    assert {urldefrag(href)[1] for href in flow["links"]} == {"obj-1", "obj-2", "cmp-2", "cmp-3"}
    page.goto(flow["links"][0])
    assert page.evaluate("id => !!document.getElementById(id)", urldefrag(flow["links"][0])[1])
    page.goto(f"{base_url}/systems/instinctual-memory/runtime/#rte-1")
    flow = page.evaluate(FLOW_JS, "rte-1")
    ARTIFACTS.mkdir(exist_ok=True)
    top = max(0, flow["top"] - 16)
    page.screenshot(
        path=str(ARTIFACTS / "route-record-1280.png"),
        full_page=True,
        clip={"x": 0, "y": top, "width": WIDTH, "height": min(HEIGHT, flow["bottom"] - top + 72)},
    )
    assert (ARTIFACTS / "route-record-1280.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert browsing.errors == []
    assert urljoin(base_url, "/") in flow["links"][0]


# ---------------------------------------------------------------- on a phone and a desktop

BUNDLE = "mermaid-11.17.2.min.js"
# The size each label is drawn at: its font size times the drawing's scale.
LABEL_SIZES_JS = """() => [...document.querySelectorAll('.kb-map__drawing svg')].flatMap(svg => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('.nodeLabel, .edgeLabel, text')]
    .filter(label => label.textContent.trim())
    .map(label => parseFloat(getComputedStyle(label).fontSize) * scale);
})"""
BOXES_JS = """() => [...document.querySelectorAll('.kb-map__drawing')].map(box => ({
  overflow: getComputedStyle(box).overflowX,
  right: box.getBoundingClientRect().right,
  scrolls: box.scrollWidth > box.clientWidth,
  fits: box.querySelector('svg').getBoundingClientRect().width <= box.clientWidth + 1,
}))"""


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_oh_my_pi_s_current_map_is_legible_and_fetches_mermaid_when_near(
    browsing: Any, base_url: str, width: int, height: int
) -> None:
    page = browsing.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{base_url}/systems/oh-my-pi/")
    page.wait_for_load_state("networkidle")
    # The maps are below the fold: Mermaid waits until they near the viewport.
    assert page.evaluate("document.documentElement.dataset.kbMaps") == "waiting"
    assert not any(BUNDLE in url for url in requested)
    maps = _open(page, f"{base_url}/systems/oh-my-pi/", width, height)
    assert sum(BUNDLE in url for url in requested) == 1
    assert maps and all(m["edges"] for m in maps)
    assert {frozenset(edge) for m in maps for edge in m["edges"]} == expected_relations("oh-my-pi")[0]
    sizes = page.evaluate(LABEL_SIZES_JS)
    assert sizes and min(sizes) >= 11, sorted(sizes)[:3]
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    for box in page.evaluate(BOXES_JS):  # a map wider than its box scrolls in it
        assert box["overflow"] == "auto" and box["right"] <= width
        assert box["fits"] or box["scrolls"]
    page.evaluate("() => { document.querySelector('.kb-map').scrollIntoView(); window.scrollBy(0, -72); }")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"oh-my-pi-map-{width}.png"))
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.screenshot(path=str(ARTIFACTS / f"oh-my-pi-map-{width}-dark.png"))
    hrefs = sorted({node["href"] for m in maps for node in m["nodes"]})
    assert all(hrefs)
    for page_url in sorted({urldefrag(href)[0] for href in hrefs}):
        page.goto(page_url)
        anchors = [urldefrag(href)[1] for href in hrefs if urldefrag(href)[0] == page_url]
        assert page.evaluate("ids => ids.filter(id => !document.getElementById(id))", anchors) == []
    assert browsing.errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_page_without_a_map_never_fetches_mermaid(
    browsing: Any, base_url: str, width: int, height: int
) -> None:
    page = browsing.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{base_url}/systems/oh-my-pi/result/")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_load_state("networkidle")
    assert requested and not any(BUNDLE in url for url in requested)
    assert page.evaluate("typeof window.mermaid") == "undefined"
    assert browsing.errors == []
