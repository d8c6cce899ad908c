"""Field metadata markers, placed in ``Annotated[...]`` next to a field's type.

Labels are pydantic titles (``Field(title=...)``); these markers say what pydantic
has no word for: which strings are prose, and how a field is shown on a record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, get_args, get_origin

from pydantic.fields import FieldInfo

# How a record field is shown: paragraph text, code, a badge in the status line,
# a paragraph per sub-entry, a list of a sub-model's labelled fields, or prose whose
# arrows make a flow of steps (a route's progression).
Rendering = Literal["text", "code", "status", "badges", "vocab", "entries", "labelled-list", "flow", "hidden"]


@dataclass(frozen=True)
class Prose:
    """Strings of this type are prose: IDs and evidence anchors written in them are linked."""


PROSE = Prose()


@dataclass(frozen=True)
class Display:
    """How a record field is shown, where its type does not already say.

    ``after_body``: shown after the record's body, not before it; ``unless_same_as``:
    hidden when equal to that other field; ``joiner``: what separates it from the
    field before it inside one sub-entry paragraph.
    """

    rendering: Rendering | None = None
    after_body: bool = False
    unless_same_as: str | None = None
    joiner: str = " "


# Field → its markers. Fields belong to model classes, so this stays as small as the models;
# rendering asks about the same few fields for every record.
_MARKERS: dict[int, tuple[FieldInfo, tuple[object, ...]]] = {}
_MARKERS_LIMIT = 4096


def markers_of(info: FieldInfo) -> list[object]:
    """Every annotation marker of a field, including those inside Optional[...] or list[...]."""
    known = _MARKERS.get(id(info))
    if known is None or known[0] is not info:
        if len(_MARKERS) >= _MARKERS_LIMIT:
            _MARKERS.clear()
        known = _MARKERS[id(info)] = (info, tuple(_annotation_markers(info)))
    return list(known[1])


def _annotation_markers(info: FieldInfo) -> list[object]:
    found: list[object] = list(info.metadata)
    pending: list[object] = [info.annotation]
    while pending:
        annotation = pending.pop()
        if get_origin(annotation) is Annotated:
            found.extend(annotation.__metadata__)  # type: ignore[attr-defined]
        pending.extend(get_args(annotation))
    return found


def is_prose(info: FieldInfo) -> bool:
    """True when the field's strings are prose (its type carries the ``Prose`` marker)."""
    return any(isinstance(marker, Prose) for marker in markers_of(info))


def display_of(info: FieldInfo) -> Display:
    """The field's ``Display`` marker, or the defaults."""
    return next((m for m in markers_of(info) if isinstance(m, Display)), Display())


# Where a value sits in a loaded file: keys and list indexes from the top.
DataPath = tuple[str | int, ...]
