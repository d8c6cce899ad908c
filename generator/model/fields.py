"""A record's fields as the page shows them, read from the model's field metadata.

Labels are the fields' titles, or the labels the document wrote for them (a record's
``labels``); how each is shown follows from its type (prose is
text, a revision is code, a vocabulary value is a badge link, a list of sub-models
is one paragraph per entry, a sub-model is a list of its labelled fields) unless a
``Display`` marker says otherwise. The page template loops over what this yields,
so a new kind or field needs no template change.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from types import UnionType
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.model import kinds
from generator.model.meta import Display, Rendering, display_of, is_prose
from generator.model.records import RecordBase


@dataclass(frozen=True)
class Shown:
    """One field as shown: its label, how it is rendered and its value.

    For ``entries`` the value is a list of entries, each a list of ``Shown`` parts;
    for ``labelled-list`` a list of lines, each a list of ``Shown`` (a sub-field, value None
    when unset, then those the document wrote on its line after '; ').
    """

    label: str
    rendering: Rendering
    value: Any
    joiner: str = " "
    qualifier: str | None = None  # a status's qualifier, shown after its value
    separator: str = ""  # between the value and its qualifier, as written ('; ', ', ', ' ')


def _rendering(info: FieldInfo, display: Display) -> Rendering:
    if display.rendering is not None:
        return display.rendering
    if is_prose(info):
        return "text"
    base: Any = info.annotation
    if get_origin(base) in (Union, UnionType):  # Optional[X] is shown as X
        options = [a for a in get_args(base) if a is not type(None)]
        base = options[0] if len(options) == 1 else None
    if get_origin(base) is list:
        items = get_args(base)
        is_model = bool(items) and isinstance(items[0], type) and issubclass(items[0], BaseModel)
        return "entries" if is_model else "hidden"
    if isinstance(base, type) and issubclass(base, Enum):
        return "vocab"
    if isinstance(base, type) and issubclass(base, BaseModel):
        return "labelled-list"
    return "hidden"


@cache
def _entry_plan(model: type[BaseModel]) -> tuple[tuple[str, str, Rendering, str], ...]:
    """A sub-entry model's fields: name, label, rendering and joiner (read once per model)."""
    plan = []
    for name, info in model.model_fields.items():
        display = display_of(info)
        plan.append((name, info.title or "", _rendering(info, display), display.joiner))
    return tuple(plan)


def _parts(entry: BaseModel, labels: dict[str, str]) -> list[Shown]:
    """The set fields of one sub-entry, each with its label (as the document wrote it, else
    its title) and joiner."""
    parts = []
    for name, label, rendering, joiner in _entry_plan(type(entry)):
        value = getattr(entry, name)
        if value is not None:
            parts.append(Shown(labels.get(name, label), rendering, value, joiner))
    return parts


def _shown(record: RecordBase, name: str, info: FieldInfo, rendering: Rendering) -> Shown:
    value = getattr(record, name)
    labels = record.labels
    if rendering == "entries":
        value = [_parts(entry, labels) for entry in value]
    elif rendering == "labelled-list":
        lines: list[list[Shown]] = []
        for sub_name, sub in type(value).model_fields.items():
            shown = Shown(labels.get(sub_name, sub.title or sub_name), "text", getattr(value, sub_name))
            if sub_name in record.same_line and lines:
                lines[-1].append(shown)  # written on the line of the field before it
            else:
                lines.append([shown])
        value = lines
    return Shown(labels.get(name, info.title or name), rendering, value)


def own_fields(model: type[RecordBase]) -> list[tuple[str, FieldInfo]]:
    """The fields a record model declares beyond those every record has, in order."""
    common = RecordBase.model_fields
    return [(name, info) for name, info in model.model_fields.items() if name not in common]


@dataclass(frozen=True, slots=True)
class _Planned:
    """How one own field of a record model is shown: read from its metadata once per model."""

    name: str
    info: FieldInfo
    display: Display
    rendering: Rendering


@cache
def _record_plan(model: type[RecordBase]) -> tuple[_Planned, ...]:
    # Every record of a page asks; the answer depends on its model alone.
    plan = []
    for name, info in own_fields(model):
        display = display_of(info)
        plan.append(_Planned(name, info, display, _rendering(info, display)))
    return tuple(plan)


def record_fields(record: RecordBase, after_body: bool = False) -> list[Shown]:
    """The record's own fields that are set, shown before (or after) its body."""
    spec = kinds.spec_of_id(record.id)
    statuses = {name for name, _ in spec.status_fields} if spec else set()
    shown = []
    for planned in _record_plan(type(record)):
        name, display, rendering = planned.name, planned.display, planned.rendering
        if name in statuses or rendering in ("hidden", "badges") or display.after_body != after_body:
            continue
        value = getattr(record, name)
        if not value or (display.unless_same_as and value == getattr(record, display.unless_same_as)):
            continue
        shown.append(_shown(record, name, planned.info, rendering))
    return shown


def _separator(status: object) -> str:
    """What stands between a status's value and its qualifier where it was written ('wired;
    default off', 'wired for persistence'), so the page reads as the document does."""
    qualifier = getattr(status, "qualifier", None)
    if not qualifier:
        return ""
    written, value = str(status), str(getattr(getattr(status, "value", ""), "value", ""))
    if value and written.startswith(value) and written.endswith(qualifier):
        return written[len(value) : len(written) - len(qualifier)] or " "
    return ", "


def record_badges(record: RecordBase) -> list[Shown]:
    """The record's status line: labelled statuses, its kind's status fields, its
    architectural status, then badge fields (guarantees), in that order."""
    badges = [
        Shown(label, "status", status.value, qualifier=status.qualifier, separator=_separator(status))
        for label, status in record.statuses.items()
    ]
    spec = kinds.spec_of_id(record.id)
    fields = type(record).model_fields
    for name, _ in spec.status_fields if spec else ():
        if getattr(record, name) is None:
            continue
        label = (fields[name].title or name).lower()
        status = getattr(record, name)
        value, qualifier = getattr(status, "value", status), getattr(status, "qualifier", None)
        badges.append(Shown(label, "status", value, qualifier=qualifier, separator=_separator(status)))
    if record.architectural_status:
        badges.append(Shown("architectural status", "vocab", record.architectural_status))
    for planned in _record_plan(type(record)):
        if planned.display.rendering == "badges":
            title = planned.info.title or planned.name
            badges.extend(Shown(title, "badges", item) for item in getattr(record, planned.name))
    return badges
