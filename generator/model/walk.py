"""Walk a validated model and yield every prose text with its data path.

Both the checker (references in prose) and the linker (backlinks) need the same
answer to "which strings are prose", so it is decided once, here: a string is
prose when its field's type carries the ``Prose`` marker (``Text``, ``Label``);
a generic table's cells are prose too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from generator.model.base import Anchor, Quote
from generator.model.meta import DataPath, is_prose
from generator.model.prose import GenericTable, IncludeBlock, Paragraph, RecordsBlock, Section

__all__ = ["Contents", "DataPath", "ProseText", "collect"]


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
    includes: list[tuple[DataPath, IncludeBlock]]
    tables: list[tuple[DataPath, GenericTable]]
    # Every prose section, nested ones too, a section before those inside it.
    sections: list[tuple[DataPath, Section]]


_FIELDS_CACHE: dict[type[BaseModel], tuple[tuple[str, bool], ...]] = {}


def _fields_of(model: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """(field name, is prose) pairs of a model class, computed once per class."""
    cached = _FIELDS_CACHE.get(model)
    if cached is None:
        cached = tuple((name, is_prose(info)) for name, info in model.model_fields.items())
        _FIELDS_CACHE[model] = cached
    return cached


def _table_cells(found: Contents, table: GenericTable, path: DataPath) -> None:
    if table.caption is not None:
        found.texts.append(ProseText((*path, "caption"), table.caption))
    for index, header in enumerate(table.columns):
        found.texts.append(ProseText((*path, "columns", index), header))
    for row_index, row in enumerate(table.rows):
        for col, cell in enumerate(row):
            found.texts.append(ProseText((*path, "rows", row_index, col), cell))


def _gathered(found: Contents, value: BaseModel, path: DataPath) -> bool:
    """Take the objects the rules look at whole; True when ``value`` was one of them."""
    if isinstance(value, Anchor):
        found.anchors.append((path, value))
    elif isinstance(value, Quote):
        found.quotes.append((path, value))
    elif isinstance(value, RecordsBlock):
        found.placements.append((path, value))
    elif isinstance(value, IncludeBlock):
        found.includes.append((path, value))
    elif isinstance(value, Paragraph):
        found.texts.append(ProseText(path, value.p))
    elif isinstance(value, GenericTable):
        found.tables.append((path, value))
        _table_cells(found, value, path)
    else:
        return False
    return True


def collect(obj: Any) -> Contents:
    """Walk ``obj`` once and gather its prose, anchors, quotes, placements, includes,
    tables and sections."""
    found = Contents([], [], [], [], [], [], [])

    def visit(value: Any, path: DataPath, prose: bool) -> None:
        if isinstance(value, str):
            if prose:
                found.texts.append(ProseText(path, value))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, (*path, index), prose)
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(item, str):
                    visit(item, (*path, key), prose)
        elif isinstance(value, BaseModel) and not _gathered(found, value, path):
            if isinstance(value, Section):
                found.sections.append((path, value))
            for name, is_prose_field in _fields_of(type(value)):
                visit(getattr(value, name), (*path, name), is_prose_field)

    visit(obj, (), True)
    return found
