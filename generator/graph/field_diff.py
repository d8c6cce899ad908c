"""What differs between two values of one model, field by field, read from the model.

A field's type says how it is compared, as it says how it is shown
(``model/fields.py``): prose (``Text``, ``Label``) word by word; a list (or a mapping)
by its items, as added and removed items (an order changed alone is no change); a
sub-model holding prose field by field (a route's seven labelled fields); any other
value (a vocabulary value, an ID, a revision, a date, a sub-model of values) as its old
and its new value.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.graph.word_diff import WordOp, word_diff
from generator.model.base import Anchor
from generator.model.meta import is_prose


@dataclass(frozen=True, slots=True)
class TextChange:
    """A prose field's word diff; ``whole``: compared as a whole, not word by word
    (see ``word_diff``)."""

    field: str  # the model's field path: 'body', 'fields.later_read_back'
    title: str  # as a page labels it: 'Body', 'Later read-back'
    ops: tuple[WordOp, ...]
    whole: bool = False


@dataclass(frozen=True, slots=True)
class ValueChange:
    """A value that moved: its old and new form as text (None: not set)."""

    field: str
    title: str
    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class ListChange:
    """The items a list gained and lost, each in its text form, in list order."""

    field: str
    title: str
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FieldChanges:
    """Every field of a model value that differs, by how it is compared."""

    texts: tuple[TextChange, ...] = ()
    values: tuple[ValueChange, ...] = ()
    lists: tuple[ListChange, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.texts or self.values or self.lists)


def title_of(name: str, info: FieldInfo) -> str:
    """A field's label: its title, else its name in words ('run_id' → 'Run ID')."""
    if info.title:
        return info.title
    words = ["ID" if word == "id" else word for word in name.split("_")]
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def compare_models(
    model: type[BaseModel],
    old: BaseModel | None,
    new: BaseModel | None,
    skip: Iterable[str] = (),
) -> FieldChanges:
    """The fields of ``model`` (but those in ``skip``) that differ between two values of it
    (None: the value is absent, so every field it would set differs)."""
    texts: list[TextChange] = []
    values: list[ValueChange] = []
    lists: list[ListChange] = []
    _compare(model, old, new, frozenset(skip), "", texts, values, lists)
    return FieldChanges(tuple(texts), tuple(values), tuple(lists))


def _compare(
    model: type[BaseModel],
    old: BaseModel | None,
    new: BaseModel | None,
    skip: frozenset[str],
    prefix: str,
    texts: list[TextChange],
    values: list[ValueChange],
    lists: list[ListChange],
) -> None:
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        before = getattr(old, name, None) if old is not None else None
        after = getattr(new, name, None) if new is not None else None
        if before == after:
            continue
        field, title = prefix + name, title_of(name, info)
        sub = _prose_submodel(before, after)
        if sub is not None:
            _compare(sub, before, after, frozenset(), f"{field}.", texts, values, lists)
        elif isinstance(before, list | dict) or isinstance(after, list | dict):
            change = list_change(field, title, _items(before), _items(after))
            if change is not None:
                lists.append(change)
        elif is_prose(info):
            diff = word_diff(before, after)
            texts.append(TextChange(field, title, diff.ops, diff.whole))
        else:
            values.append(ValueChange(field, title, value_text(before), value_text(after)))


def _prose_submodel(before: Any, after: Any) -> type[BaseModel] | None:
    """The sub-model to compare field by field: one that holds prose (a sub-model of
    values alone, such as a reviewed boundary, is one value)."""
    present = before if before is not None else after
    if not isinstance(present, BaseModel):
        return None
    model = type(present)
    return model if any(is_prose(info) for info in model.model_fields.values()) else None


def list_change(field: str, title: str, before: list[str], after: list[str]) -> ListChange | None:
    """The items added and removed, each once, in list order; None when there are none."""
    old, new = set(before), set(after)
    added = tuple(dict.fromkeys(item for item in after if item not in old))
    removed = tuple(dict.fromkeys(item for item in before if item not in new))
    return ListChange(field, title, added, removed) if added or removed else None


def _items(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [f"{key}: {value_text(item)}" for key, item in value.items()]
    return [value_text(item) or "" for item in value or ()]


def value_text(value: Any) -> str | None:
    """A value in its text form: an anchor as written, a vocabulary value as its word, a
    sub-model as its set fields (``key: value; …``)."""
    if value is None:
        return None
    if isinstance(value, Anchor):
        return value.as_text()
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, BaseModel):
        dumped = value.model_dump(mode="json", exclude_defaults=True)
        if not isinstance(dumped, dict):  # a model written as one string (a qualified status)
            return _json_text(dumped)
        return "; ".join(f"{key}: {_json_text(item)}" for key, item in dumped.items())
    return str(value)


def _json_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
