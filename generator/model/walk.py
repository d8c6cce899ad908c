"""Walk a validated model and yield every prose text with its data path.

Both the checker (references in prose) and the linker (backlinks) need the same
answer to "which strings are prose", so it is decided once, here: a string is
prose when its field's type carries the ``Prose`` marker (``Text``, ``Label``);
a generic table's cells are prose too. The same walk gathers the texts that must be
one line (``one_line_field``), which the check refuses on several lines (KB109).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple, TypeGuard

from pydantic import BaseModel

from generator.model.base import Anchor, Quote
from generator.model.meta import DataPath, is_prose
from generator.model.prose import GenericTable, IncludeBlock, Paragraph, RecordsBlock, Section
from generator.model.records import Limitation

__all__ = ["Contents", "DataPath", "ProseText", "collect"]


class ProseText(NamedTuple):
    """One prose string and where it sits relative to the walk's starting object (a named
    tuple: the walk makes one for every prose string of a system)."""

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
    # Every text that must be one line, with whether it is a mapping's key. A limitation's
    # texts are not among them: its cells are written in a table of its own.
    one_line: list[tuple[DataPath, str, bool]]


# Prose fields that are shown in a heading, a badge or an inline code span all the same.
ONE_LINE_FIELDS = frozenset({"label", "title", "revision", "source_kind", "system"})


def one_line_field(info: Any, name: str) -> bool:
    """Whether a field's text must be one line: it is not prose, or prose shown in a
    heading, a badge or a code span."""
    return name in ONE_LINE_FIELDS or not is_prose(info)


def _fields_of(model: type[BaseModel]) -> tuple[tuple[str, bool, bool], ...]:
    """(field name, is prose, must be one line) of a model class (kept in its ``_Plan``)."""
    return tuple(
        (name, is_prose(info), one_line_field(info, name)) for name, info in model.model_fields.items()
    )


# isinstance takes a tuple faster than a union (the walks visit every value of a system).
_BRANCHES = (list, dict, BaseModel)


def _table_cells(found: Contents, table: GenericTable, path: DataPath) -> None:
    if table.caption is not None:
        found.texts.append(ProseText((*path, "caption"), table.caption))
    for index, header in enumerate(table.columns):
        found.texts.append(ProseText((*path, "columns", index), header))
    for row_index, row in enumerate(table.rows):
        for col, cell in enumerate(row):
            found.texts.append(ProseText((*path, "rows", row_index, col), cell))


def _gathered(found: Contents, value: BaseModel, path: DataPath) -> None:
    """Take one of the objects the rules look at whole (``_TAKEN_WHOLE``)."""
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


_TAKEN_WHOLE = (Anchor, Quote, RecordsBlock, IncludeBlock, Paragraph, GenericTable)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the walk does with a model type, decided once per type."""

    fields: tuple[tuple[str, bool, bool], ...]  # (name, is prose, must be one line)
    taken_whole: bool  # one of the objects the rules look at whole (``_gathered``)
    section: bool
    limitation: bool  # its texts are prose and none is a one-line text


_PLANS: dict[type[BaseModel], _Plan] = {}


def _plan_of(model: type[BaseModel]) -> _Plan:
    plan = _PLANS.get(model)
    if plan is None:
        plan = _PLANS[model] = _Plan(
            _fields_of(model),
            issubclass(model, _TAKEN_WHOLE),
            issubclass(model, Section),
            issubclass(model, Limitation),
        )
    return plan


def collect(obj: Any) -> Contents:
    """Walk ``obj`` once and gather its prose, anchors, quotes, placements, includes,
    tables, sections and one-line texts."""
    found = Contents([], [], [], [], [], [], [], [])
    _Gathering(found).value(obj, (), True, True)
    return found


class _Gathering:
    """One walk and what it found. Methods, not nested functions: functions that call each
    other and hold what they found form a reference cycle, which a check (its collector
    paused while it loads) would keep until the next full collection.

    Every value of a system passes here: leaves (strings, None, numbers) are handled where
    they are met, and only collections and models are visited. ``lines``: one-line texts
    are gathered here (not inside a limitation)."""

    __slots__ = ("found", "one_line", "texts")

    def __init__(self, found: Contents) -> None:
        self.found = found
        self.texts = found.texts
        self.one_line = found.one_line

    def model(self, value: BaseModel, path: DataPath, lines: bool) -> None:
        plan = _PLANS.get(type(value)) or _plan_of(type(value))
        lines = lines and not plan.limitation
        one_line = self.one_line
        if plan.taken_whole:
            _gathered(self.found, value, path)
            if lines:  # its texts are taken whole; its one-line texts are still wanted
                _one_line_texts(one_line, value, path)
            return
        if plan.section and isinstance(value, Section):  # the test narrows the type
            self.found.sections.append((path, value))
        texts = self.texts
        for name, is_prose_field, one_line_only in plan.fields:
            item = getattr(value, name)
            if item is None:
                continue
            if isinstance(item, str):
                if is_prose_field:
                    texts.append(ProseText((*path, name), item))
                if lines and one_line_only and not isinstance(item, StrEnum):
                    one_line.append(((*path, name), item, False))
            elif isinstance(item, BaseModel):
                self.model(item, (*path, name), lines)
            elif isinstance(item, (list, dict)) and item:
                if lines and one_line_only and _one_line_list(item):
                    # A list of one-line texts: each is one, and nothing inside the list
                    # is gathered as one (as the one-line walk never entered it).
                    _each_line(one_line, item, (*path, name))
                    self.value(item, (*path, name), is_prose_field, False)
                else:
                    self.value(item, (*path, name), is_prose_field, lines)

    def value(self, value: Any, path: DataPath, prose: bool, lines: bool) -> None:
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    if prose:
                        self.texts.append(ProseText((*path, index), item))
                elif isinstance(item, BaseModel):
                    self.model(item, (*path, index), lines)
                elif isinstance(item, (list, dict)):
                    self.value(item, (*path, index), prose, lines)
        elif isinstance(value, dict):
            for key, item in value.items():
                if lines and isinstance(key, str):
                    self.one_line.append(((*path, key), key, True))
                if isinstance(item, BaseModel):
                    self.model(item, (*path, key), lines)
                elif isinstance(item, (list, dict)):
                    self.value(item, (*path, key), prose, lines)
        elif isinstance(value, BaseModel):
            self.model(value, path, lines)
        elif isinstance(value, str) and prose:
            self.texts.append(ProseText(path, value))


def _one_line_list(item: Any) -> TypeGuard[list[Any]]:
    return isinstance(item, list) and bool(item) and isinstance(item[0], str)


def _one_line_fields(
    found: list[tuple[DataPath, str, bool]],
    value: BaseModel,
    fields: tuple[tuple[str, bool, bool], ...],
    path: DataPath,
) -> None:
    """A model's own one-line texts: its one-line string fields, and each string of its
    one-line fields that are lists of strings."""
    for name, _, one_line_only in fields:
        if not one_line_only:
            continue
        item = getattr(value, name)
        if isinstance(item, str):
            if not isinstance(item, StrEnum):
                found.append(((*path, name), item, False))
        elif _one_line_list(item):
            _each_line(found, item, (*path, name))


def _each_line(found: list[tuple[DataPath, str, bool]], items: list[Any], path: DataPath) -> None:
    """Each string of a list of one-line texts."""
    found.extend(((*path, index), text, False) for index, text in enumerate(items) if isinstance(text, str))


def _one_line_texts(found: list[tuple[DataPath, str, bool]], value: Any, path: DataPath) -> None:
    """The one-line texts below ``value``, for the parts of a gathered object the main walk
    does not enter, added to ``found``."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, _BRANCHES):
                _one_line_texts(found, item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                found.append(((*path, key), key, True))
            if isinstance(item, _BRANCHES):
                _one_line_texts(found, item, (*path, key))
    elif isinstance(value, BaseModel):
        plan = _PLANS.get(type(value)) or _plan_of(type(value))
        if plan.limitation:
            return
        _one_line_fields(found, value, plan.fields, path)
        for name, _, one_line_only in plan.fields:
            item = getattr(value, name)
            if isinstance(item, _BRANCHES) and not (one_line_only and _one_line_list(item)):
                _one_line_texts(found, item, (*path, name))
