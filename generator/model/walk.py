"""Walk a validated model and yield every prose text with its data path.

Both the checker (references in prose) and the linker (backlinks) need the same
answer to "which strings are prose", so it is decided once, here.
"""

from __future__ import annotations

from collections.abc import Iterator
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


def prose_texts(obj: Any, path: DataPath = ()) -> Iterator[ProseText]:
    """Yield every prose string inside ``obj`` (a model, list or dict), in document order."""
    if isinstance(obj, (Anchor, Quote, RecordsBlock)):
        return
    if isinstance(obj, Paragraph):
        # A paragraph may be written as a bare string: the data path then ends at the block.
        yield ProseText(path, obj.p)
        return
    if isinstance(obj, BaseModel):
        skip = obj.PROVENANCE_FIELDS if isinstance(obj, TypedRow) else frozenset()
        for name in type(obj).model_fields:
            if name in _NOT_PROSE or name in skip:
                continue
            value = getattr(obj, name)
            if isinstance(value, str):
                yield ProseText((*path, name), value)
            else:
                yield from prose_texts(value, (*path, name))
    elif isinstance(obj, list):
        for index, item in enumerate(obj):
            if isinstance(item, str):
                yield ProseText((*path, index), item)
            else:
                yield from prose_texts(item, (*path, index))
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(value, BaseModel | list):
                yield from prose_texts(value, (*path, key))


def anchors_in(obj: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, Anchor]]:
    """Yield every structured anchor inside ``obj`` with its data path."""
    if isinstance(obj, Anchor):
        yield path, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from anchors_in(getattr(obj, name), (*path, name))
    elif isinstance(obj, list):
        for index, item in enumerate(obj):
            yield from anchors_in(item, (*path, index))


def quotes_in(obj: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, Quote]]:
    """Yield every quotation inside ``obj`` with its data path."""
    if isinstance(obj, Quote):
        yield path, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from quotes_in(getattr(obj, name), (*path, name))
    elif isinstance(obj, list):
        for index, item in enumerate(obj):
            yield from quotes_in(item, (*path, index))


def placements_in(obj: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, RecordsBlock]]:
    """Yield every record placement block inside ``obj`` with its data path."""
    if isinstance(obj, RecordsBlock):
        yield path, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from placements_in(getattr(obj, name), (*path, name))
    elif isinstance(obj, list):
        for index, item in enumerate(obj):
            yield from placements_in(item, (*path, index))


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
