"""The editor schema read along a key path: which keys a mapping takes, which values a key.

The JSON Schema of record files (``kbgen schema``) is the one description of their shape,
vocabularies included (the profile's per-axis values are written into it), so completion
reads it: follow ``properties``, ``additionalProperties`` and ``items`` along the path,
through ``$ref`` and ``allOf``/``anyOf``/``oneOf``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from generator.lsp.yaml_context import LIST_ITEM
from generator.model.ids import grammar
from generator.model.kinds import KindRegistry, active
from generator.outputs.schema import schema_text

Schema = dict[str, Any]


@lru_cache(maxsize=4)
def _schema(registry: KindRegistry) -> Schema:
    loaded: Schema = json.loads(schema_text())
    return loaded


def record_schema() -> Schema:
    """The schema of record files, for the kinds in force."""
    return _schema(active())


def _expand(root: Schema, schema: Any, depth: int = 0) -> Iterator[Schema]:
    """The schema and every alternative it is made of, with references followed."""
    if not isinstance(schema, dict) or depth > 16:
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        yield from _expand(root, root.get("$defs", {}).get(ref.removeprefix("#/$defs/")), depth + 1)
    yield schema
    for combinator in ("allOf", "anyOf", "oneOf"):
        for part in schema.get(combinator) or ():
            yield from _expand(root, part, depth + 1)


def at_path(path: tuple[str, ...], root: Schema | None = None) -> list[Schema]:
    """Every schema the value at ``path`` may follow."""
    root = root if root is not None else record_schema()
    current = list(_expand(root, root))
    for step in path:
        following: list[Schema] = []
        for schema in current:
            if step == LIST_ITEM:
                following.extend(_expand(root, schema.get("items")))
                continue
            properties = schema.get("properties") or {}
            if step in properties:
                following.extend(_expand(root, properties[step]))
            elif isinstance(schema.get("additionalProperties"), dict):
                following.extend(_expand(root, schema["additionalProperties"]))
        current = following
    return current


def keys_at(path: tuple[str, ...]) -> dict[str, str]:
    """The keys a mapping at ``path`` takes, each with its title or description."""
    found: dict[str, str] = {}
    for schema in at_path(path):
        for name, sub in (schema.get("properties") or {}).items():
            if name not in found and isinstance(sub, dict):
                found[name] = str(sub.get("title") or sub.get("description") or "")
    return found


def values_at(path: tuple[str, ...]) -> list[str]:
    """The controlled values a key at ``path`` takes (a list's items' values for a list)."""
    found: list[str] = []
    schemas = at_path(path)
    for schema in [*schemas, *(item for s in schemas for item in _expand(record_schema(), s.get("items")))]:
        for value in schema.get("enum") or ():
            if isinstance(value, str) and value not in found:
                found.append(value)
    return found


def takes_ids(path: tuple[str, ...]) -> bool:
    """Whether the value at ``path`` (or its items) is a record ID by the schema's pattern."""
    schemas = at_path(path)
    candidates = [*schemas, *(item for s in schemas for item in _expand(record_schema(), s.get("items")))]
    pattern = grammar().pattern
    return any(schema.get("pattern") == pattern for schema in candidates)
