"""Walk a validated model and yield every prose text with its data path.

Both the checker (references in prose) and the linker (backlinks) need the same
answer to "which strings are prose", so it is decided once, here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from .base import Anchor, Quote
from .prose import Paragraph, RecordsBlock, TypedRow

DataPath = tuple[str | int, ...]

# Fields that hold identifiers, paths or type names rather than prose.
_NOT_PROSE = frozenset(
    {
        "id",
        "path",
        "source",
        "location",
        "link_template",
        "revision",
        "type",
        "include",
        "target",
        "part_of",
        "affects",
    }
)


@dataclass(frozen=True, slots=True)
class ProseText:
    """One prose string and where it sits relative to the walk's starting object."""

    path: DataPath
    text: str


@dataclass
class Contents:
    """Everything the rules look at inside one declared object, gathered in one pass."""

    texts: list[ProseText]
    anchors: list[tuple[DataPath, Anchor]]
    quotes: list[tuple[DataPath, Quote]]
    placements: list[tuple[DataPath, RecordsBlock]]
    includes: list[tuple[DataPath, Any]]


_FIELDS_CACHE: dict[type, tuple[tuple[str, bool], ...]] = {}


def _fields_of(model: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """(field name, is prose) pairs of a model class, computed once per class."""
    cached = _FIELDS_CACHE.get(model)
    if cached is None:
        skip = model.PROVENANCE_FIELDS if issubclass(model, TypedRow) else frozenset()
        cached = tuple((name, name not in _NOT_PROSE and name not in skip) for name in model.model_fields)
        _FIELDS_CACHE[model] = cached
    return cached


def collect(obj: Any) -> Contents:
    """Walk ``obj`` once and gather its prose, anchors, quotes, placements and includes."""
    from .prose import IncludeBlock

    found = Contents([], [], [], [], [])

    def visit(value: Any, path: DataPath, prose: bool) -> None:
        if isinstance(value, str):
            if prose:
                found.texts.append(ProseText(path, value))
            return
        if isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, (*path, index), prose)
            return
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(item, str):
                    visit(item, (*path, key), prose)
            return
        if not isinstance(value, BaseModel):
            return
        if isinstance(value, Anchor):
            found.anchors.append((path, value))
            return
        if isinstance(value, Quote):
            found.quotes.append((path, value))
            return
        if isinstance(value, RecordsBlock):
            found.placements.append((path, value))
            return
        if isinstance(value, IncludeBlock):
            found.includes.append((path, value))
            return
        if isinstance(value, Paragraph):
            found.texts.append(ProseText(path, value.p))
            return
        for name, is_prose in _fields_of(type(value)):
            visit(getattr(value, name), (*path, name), is_prose)

    visit(obj, (), True)
    return found
