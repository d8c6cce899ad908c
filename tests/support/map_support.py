"""Reading a system page's route maps back from its Markdown, for the tests.

A map is a ``<figure class="kb-map">`` holding its Mermaid source (HTML-escaped in a
hidden ``<pre>``) and its nodes as links (``data-kb-node``). ``maps_of`` gives each map
as its edges between record IDs (or ``On <ID>`` for an annotation) and its nodes' links.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_FIGURE = re.compile(r'<figure class="kb-map">(.*?)</figure>', re.S)
_SOURCE = re.compile(r'<pre class="kb-map__source" hidden>(.*?)</pre>', re.S)
_NODE = re.compile(r'data-kb-node="(n\d+)"><a href="([^"]*)">([^<]*)</a>')
_EDGE = re.compile(r"^\s+(n\d+) (-->|-\.->)(?:\|([^|]*)\|)? (n\d+)$", re.M)


@dataclass(frozen=True)
class DrawnMap:
    source: str
    nodes: dict[str, tuple[str, str]]  # key → (href, text)
    edges: list[tuple[str, str, str, bool]]  # (from ID, label, to ID, dotted)


def _head(text: str) -> str:
    return text.split(" — ")[0]


def maps_of(page: str) -> list[DrawnMap]:
    drawn = []
    for figure in _FIGURE.findall(page):
        source_match = _SOURCE.search(figure)
        assert source_match is not None
        source = html.unescape(source_match.group(1))
        nodes = {key: (html.unescape(href), html.unescape(text)) for key, href, text in _NODE.findall(figure)}
        edges = [
            (_head(nodes[a][1]), label or "", _head(nodes[b][1]), arrow == "-.->")
            for a, arrow, label, b in _EDGE.findall(source)
        ]
        drawn.append(DrawnMap(source, nodes, edges))
    return drawn
