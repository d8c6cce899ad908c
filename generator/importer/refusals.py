"""What the record models refuse is never written as a record: it goes back to prose.

After the drafts are finished, every record is validated by its model as ``kbgen check``
would. A field the model refuses (a value outside its vocabulary, a label with a line
break, a value of the wrong shape) leaves the record and joins its remarks as the
``Label: value`` text it was; a record the model still refuses (a required field it
does not have) is not written as a record at all: its text becomes a paragraph where it
was placed. Either way the import says so at the document's line (KB601), and the
measure of what was kept (``coverage``) still finds the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.model.files import list_models

# Fields whose refusal cannot be mended by moving the value to the remarks.
_IDENTITY = frozenset({"id", "target"})


def _title(model: type[BaseModel], name: str) -> str:
    info = model.model_fields.get(name)
    return (info.title if info is not None and info.title else name.replace("_", " ")).capitalize()


def _as_text(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_as_text(item)}" for key, item in value.items())
    if isinstance(value, list):
        return "; ".join(_as_text(item) for item in value)
    return str(value)


def _refused_fields(model: type[BaseModel], record: dict[str, Any]) -> tuple[set[str], bool]:
    """(fields whose values the model refuses, whether a required field is missing)."""
    try:
        model.model_validate(record)
    except ValidationError as exc:
        refused: set[str] = set()
        missing = False
        for err in exc.errors():
            loc = err.get("loc") or ()
            name = str(loc[0]) if loc else ""
            if err.get("type") == "missing" and len(loc) == 1:
                missing = True
            elif name:
                refused.add(name)
        return refused, missing
    return set(), False


def mend(
    list_key: str,
    record: dict[str, Any],
    warn: Callable[[str], None],
) -> dict[str, Any] | None:
    """The record with every refused field moved to its remarks; None when the model refuses
    it still (it is then kept as prose by the caller). ``warn`` reports one finding."""
    model = list_models().get(list_key)
    if model is None:
        return record
    refused, missing = _refused_fields(model, record)
    if not refused and not missing:
        return record
    if refused & _IDENTITY:
        warn(f"{_name(record, list_key)} is not an ID the model accepts; kept as prose")
        return None
    mended = dict(record)
    moved = []
    for name in [name for name in record if name in refused]:
        if name not in mended:
            continue
        value = mended.pop(name)
        moved.append(f"{_title(model, name)}: {_as_text(value)}")
        warn(
            f"{_name(record, list_key)}: {_title(model, name).lower()} {_excerpt(_as_text(value))!r} "
            "is not a value the model accepts; kept as the record's prose"
        )
    if moved and "remarks" in model.model_fields:
        remarks = mended.get("remarks")
        mended["remarks"] = "\n\n".join([*([remarks] if remarks else []), *moved])
    elif moved:
        return None  # no prose field to hold the refused text: the record is kept as prose
    refused_again, missing = _refused_fields(model, mended)
    if refused_again or missing:
        warn(f"{_name(record, list_key)} lacks a field its model requires; kept as prose where it was")
        return None
    return mended


def _name(record: dict[str, Any], list_key: str) -> str:
    """How a finding names the record: its ID, its target, or its kind and title."""
    if record.get("id"):
        return str(record["id"])
    if record.get("target"):
        return f"the annotation of {record['target']}"
    title = record.get("title")
    return (
        f"the {list_key.removesuffix('s')} {_excerpt(str(title))!r}" if title else f"an entry of {list_key}"
    )


def _excerpt(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_paragraph(record: dict[str, Any]) -> str:
    """A refused record's text as one paragraph: ``ID — label. Field: value …``."""
    parts: list[str] = []
    head = str(record.get("id") or record.get("title") or "")
    if record.get("label"):
        head = f"{head} — {record['label']}" if head else str(record["label"])
    if head:
        parts.append(head + ".")
    for key, value in record.items():
        if key in ("id", "label", "title"):
            continue
        text = _as_text(value)
        parts.append(text if key in ("body", "remarks") else f"{key.replace('_', ' ').capitalize()}: {text}")
    return " ".join(parts)


def mend_mapping(
    model: type[BaseModel],
    mapping: dict[str, Any],
    warn: Callable[[str, str], None],
    label_of: Callable[[str], str],
) -> list[str]:
    """Take every field the model refuses out of ``mapping`` (a run); returns each as the
    ``label: value`` text the document wrote (``label_of`` names the field as the document
    does), for the caller to keep as prose. ``warn(field, message)`` reports each."""
    refused, _ = _refused_fields(model, mapping)
    kept = []
    for name in [name for name in mapping if name in refused]:
        value = mapping.pop(name)
        kept.append(f"{label_of(name)}: {_as_text(value)}")
        shown = _excerpt(_as_text(value))
        warn(name, f"{label_of(name)} {shown!r} is not a value the model accepts; kept as prose")
    return kept


def refuses(model: type[BaseModel], value: Any) -> str | None:
    """Why the model refuses a whole value (the first error, as pydantic words it), or None."""
    try:
        model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        return f"{first.get('msg', 'invalid')} at {where}" if where else str(first.get("msg", "invalid"))
    return None
