"""An old run's value read as renumbered: every ID it names that was paired with a record
of another ID in the new run written as that ID, so a mention that only follows the
renumbering (``reads RTE-2`` → ``reads RTE-7``, RTE-2 and RTE-7 paired) is no change."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from generator.model.ids import grammar, resolve_id

M = TypeVar("M", bound=BaseModel)


def as_renumbered(value: M, mapping: dict[str, str], declared: frozenset[str]) -> M:
    """``value`` with each declared ID of ``mapping`` it names (in its text and its ID
    fields, its own ``id`` excepted) written as its image; ``value`` itself when nothing
    changes or the result would not validate."""
    if not mapping:
        return value
    data = value.model_dump(mode="python", by_alias=True)
    rewritten = {
        key: item if key == "id" else _rewrite(item, mapping, declared) for key, item in data.items()
    }
    if rewritten == data:
        return value
    try:
        return type(value).model_validate(rewritten)
    except ValidationError:
        return value


def _rewrite(value: Any, mapping: dict[str, str], declared: frozenset[str]) -> Any:
    if isinstance(value, str):
        return _text(value, mapping, declared)
    if isinstance(value, list):
        return [_rewrite(item, mapping, declared) for item in value]
    if isinstance(value, dict):
        return {key: _rewrite(item, mapping, declared) for key, item in value.items()}
    return value


def _text(text: str, mapping: dict[str, str], declared: frozenset[str]) -> str:
    def image(match: Any) -> str:
        token = str(match.group(0))
        found = resolve_id(token, declared)
        if found is None or found not in mapping:
            return token
        return mapping[found] + token[len(found) :]

    return grammar().in_text.sub(image, text)
