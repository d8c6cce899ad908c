"""The route maps of a system page: its routes' structured relations, drawn family by family.

The relations come from the graph (``graph/route_relations.py``). Each connected family
is drawn whole; small families share a map until it would hold more than
``MAP_NODES`` nodes, so a map stays legible at the article's width (the figures are in
docs/systems.md). A map runs left to right (routes, then what they relate), or top to
bottom when it holds routes alone. A route no relation reaches is not drawn: it is
listed beside the maps.

A node shows its record's ID and its whole label, wrapped onto short lines. Its link is not in the Mermaid
source: each map carries a list of its nodes as links (the node's key, the record's
page and anchor, the full label), which ``kb-maps.js`` turns into SVG links around the
drawn nodes, and which is the map's text form where no script runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.graph.route_relations import MapNode, Relation, families, is_route, route_relations
from generator.model.ids import sort_key
from generator.model.inline_markup import plain_text
from generator.model.kinds import Role, has_role
from generator.render import mermaid, urls
from generator.render.link_markup import html_link
from generator.render.rawhtml import Html
from generator.render.registry import page_spec

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph
    from generator.render.text import Linker

MAP_NODES = 12  # families are packed into one map up to this many nodes
DIRECTION = "LR"  # routes on the left, what they relate on the right
# A map of routes alone (hand-offs from route to route) is a chain: drawn top to bottom,
# it keeps the article's width where left to right it would run off it.
ROUTES_DIRECTION = "TB"


@dataclass(frozen=True, slots=True)
class NodeView:
    """A drawn node: its key in the map's source, its link and its text."""

    key: str
    link: Html  # the record's ID and full label, linking to its record
    role: str  # route, record, elsewhere (a supplied record) or note (an annotation)


@dataclass(frozen=True, slots=True)
class MapView:
    """One map: its title, its Mermaid source, its nodes, and what its arrows mean when
    they all mean one thing (then they carry no label of their own)."""

    title: str
    source: str
    nodes: tuple[NodeView, ...]
    arrows: str | None = None


@dataclass(frozen=True, slots=True)
class RouteMaps:
    """The system page's maps and the routes they leave out."""

    maps: tuple[MapView, ...]
    unrelated: tuple[tuple[Html, str], ...]  # (link, label) of each route without relations


def _full_text(graph: SystemGraph, node: MapNode) -> tuple[str, str]:
    """The ID line and the label of a node (the label empty when the record has none); the
    label's text without its Markdown markers (a diagram and its tooltip show plain text)."""
    if node.note is not None:
        page = graph.annotation_page_of(graph.system.annotations[node.note])
        return f"On {node.record_id}", f"annotation in the {page_spec(page).label}"
    record = graph.record(node.record_id)
    if record is not None:
        return node.record_id, plain_text(record.shown_label() or "")
    supplied = graph.supplied_record(node.record_id)
    return node.record_id, plain_text(supplied.label or "declared elsewhere") if supplied else ""


def _href(graph: SystemGraph, linker: Linker, node: MapNode) -> str | None:
    if node.note is None:
        return linker.href(node.record_id)
    annotation = graph.system.annotations[node.note]
    page = urls.page_path(graph.annotation_page_of(annotation), graph.slug)
    return linker.form.href(linker.path, page, "on-" + urls.anchor_of(annotation.target))


def _role(graph: SystemGraph, node: MapNode) -> str:
    if node.note is not None:
        return "note"
    if is_route(graph, node.record_id):
        return "route" if graph.record(node.record_id) is not None else "elsewhere"
    return "record" if graph.record(node.record_id) is not None else "elsewhere"


def _nodes_of(relations: list[Relation]) -> list[MapNode]:
    """The nodes of some relations, in order of first appearance."""
    return list(dict.fromkeys(node for relation in relations for node in (relation.source, relation.target)))


def _pack(groups: list[list[Relation]]) -> list[list[Relation]]:
    """Consecutive families share a map while it holds at most ``MAP_NODES`` nodes."""
    packed: list[list[Relation]] = []
    size = 0
    for group in groups:
        count = len(_nodes_of(group))
        if packed and size + count <= MAP_NODES:
            packed[-1].extend(group)
            size += count
        else:
            packed.append(list(group))
            size = count
    return packed


TITLE_ROUTES = 4  # a map's title names this many of its routes, then counts the rest


def _title(graph: SystemGraph, nodes: list[MapNode]) -> str:
    """The system's own routes a map draws: ``RTE-21, RTE-22 and RTE-24``, or ``RTE-1,
    RTE-3, RTE-4 and 7 more routes``; without any, the routes declared elsewhere it draws."""
    drawn = [n.record_id for n in nodes if n.note is None and is_route(graph, n.record_id)]
    own = [record_id for record_id in drawn if graph.record(record_id) is not None]
    routes = sorted(own or drawn, key=sort_key)  # a map of routes declared elsewhere names those
    if len(routes) > TITLE_ROUTES:
        shown, rest = routes[: TITLE_ROUTES - 1], len(routes) - TITLE_ROUTES + 1
        return ", ".join(shown) + f" and {rest} more routes"
    return ", ".join(routes[:-1]) + " and " + routes[-1] if len(routes) > 1 else "".join(routes)


def _map(graph: SystemGraph, linker: Linker, relations: list[Relation]) -> MapView:
    nodes = _nodes_of(relations)
    keys = {node: f"n{index}" for index, node in enumerate(nodes)}
    statements, views = [], []
    for node in nodes:
        key, role = keys[node], _role(graph, node)
        head, label = _full_text(graph, node)
        shape = "route" if role == "route" else "note" if role == "note" else "record"
        lines = [head] if role == "note" else [head, *mermaid.label_lines(label)]
        statements.append(mermaid.node(key, lines, shape, f"kb-{role}"))
        shown = f"{head} — {label}" if label else head
        views.append(NodeView(key, html_link(shown, _href(graph, linker, node)), role))
    # An annotation's arrow needs no label (its flag says it); the others need one only
    # when they do not all say the same.
    kinds = {", ".join(r.labels) for r in relations if r.source.note is None}
    for relation in relations:
        labelled = len(kinds) > 1 and relation.source.note is None
        edge_label = ", ".join(relation.labels) if labelled else None
        statements.append(
            mermaid.edge(keys[relation.source], keys[relation.target], edge_label, relation.dotted)
        )
    arrows = next(iter(kinds)) if len(kinds) == 1 else None
    routes_only = all(node.note is None and is_route(graph, node.record_id) for node in nodes)
    direction = ROUTES_DIRECTION if routes_only else DIRECTION
    return MapView(_title(graph, nodes), mermaid.flowchart(direction, statements), tuple(views), arrows)


def route_maps(graph: SystemGraph, linker: Linker) -> RouteMaps | None:
    """The maps of a system's routes (``linker``: the system page's HTML linker), or None
    when it has no routes."""
    routes = sorted(
        (r for r in graph.system.records if has_role(r.id, Role.ROUTE)), key=lambda r: sort_key(r.id)
    )
    if not routes:
        return None
    relations = route_relations(graph)
    related = {node.record_id for relation in relations for node in (relation.source, relation.target)}
    maps = tuple(_map(graph, linker, group) for group in _pack(families(relations)))
    unrelated = tuple(
        (html_link(route.id, linker.href(route.id)), route.shown_label() or "")
        for route in routes
        if route.id not in related
    )
    return RouteMaps(maps, unrelated)
