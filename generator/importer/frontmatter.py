"""A document's frontmatter read once: its value and the line of each top-level key.

A finding about a frontmatter key (a key no record field holds, a run field the model
refuses) is located at the key's line. The lines come from the same node tree the value
is constructed from, so locating every key of a large frontmatter is one parse, not a
scan of its lines per key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml


@dataclass(frozen=True)
class Frontmatter:
    """The frontmatter's value (a mapping when it is one) and where each top-level key is."""

    value: Any = None
    key_lines: dict[str, int] = field(default_factory=dict)  # str(key) → 0-based line, first one

    def line_of(self, key: str) -> int:
        """The 0-based line of ``key`` in the frontmatter text (0 when it is not a key there)."""
        return self.key_lines.get(key, 0)


def read_frontmatter(text: str) -> Frontmatter:
    """The frontmatter parsed once by PyYAML's safe loader (``yaml.safe_load``'s value),
    with each top-level key's line. Raises ``yaml.YAMLError`` as ``safe_load`` does; the
    caller refuses anchors, aliases and deep nesting first (``frontmatter_shape``)."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Frontmatter()
        value = loader.construct_document(node)
        key_lines: dict[str, int] = {}
        if isinstance(node, yaml.MappingNode):
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    key = str(loader.construct_object(key_node))
                    key_lines.setdefault(key, key_node.start_mark.line)
        return Frontmatter(value, key_lines)
    finally:
        loader.dispose()
