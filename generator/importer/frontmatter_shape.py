"""Frontmatter the importer refuses to parse: anchors and aliases, and nesting past a limit.

PyYAML's composer recurses once per level and copies aliased nodes, so both are refused
from the parser's event stream, which is linear and never recurses.
"""

from __future__ import annotations

import yaml

MAX_FRONTMATTER_DEPTH = 64


def unsafe_shape(text: str) -> tuple[str, int] | None:
    """An anchor or alias (copied out, an alias bomb grows without bound) or nesting deeper
    than the limit (the parser recurses), with its line offset; scanned in one linear pass."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            return "uses a YAML anchor or alias, which records do not allow", _line(event)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_FRONTMATTER_DEPTH:
                return f"nests deeper than {MAX_FRONTMATTER_DEPTH} levels", _line(event)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _line(event: yaml.Event) -> int:
    mark = event.start_mark
    return mark.line if mark is not None else 0
