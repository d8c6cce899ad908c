"""A member's digest covers everything published for that member: changing any text field
of any record, annotation, document, profile axis or included file it publishes moves
its digest (rule KB807 then names it).

The shipped set is loaded once; each text field of each published object is changed in
place, one at a time, the member's digest computed and the field restored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, get_origin

import pytest
from pydantic import BaseModel

from generator.model.set_manifest import member_digest, set_members
from generator.model.sets import MEMBER_KEYS
from generator.model.system import SystemRecords
from generator.model.vocab import Member
from generator.pipeline import check_records

SET = Path(__file__).resolve().parents[2] / "records" / "instinctual-memory"


@pytest.fixture(scope="module")
def system() -> SystemRecords:
    (checked,) = check_records(SET)
    assert checked.records is not None
    return checked.records


def _text_fields(value: Any, path: str) -> Iterator[tuple[BaseModel, str, str]]:
    """(model, field name, where) of every text field inside a value."""
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            item = getattr(value, name)
            if get_origin(info.annotation) is Literal:
                continue  # a discriminator ('kind: generic'), not text
            if isinstance(item, str) and not hasattr(item, "value"):
                yield value, name, f"{path}.{name}"
            else:
                yield from _text_fields(item, f"{path}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _text_fields(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _text_fields(item, f"{path}[{key!r}]")


def _published(system: SystemRecords) -> Iterator[tuple[str, Any]]:
    yield "run", system.run
    yield "profile", system.memory_comparison
    for record in system.records:
        yield record.id, record
    for note in system.annotations:
        yield f"On {note.target}", note
    for index, limitation in enumerate(system.limitations):
        yield f"limitation {index}", limitation
    for key in MEMBER_KEYS.values():  # every member's document
        yield key, getattr(system, key)


def _digests(system: SystemRecords) -> dict[Member, str]:
    return {member: member_digest(system, member) for member in set_members(system)}


@pytest.mark.slow
def test_every_published_text_field_moves_a_member_digest(system: SystemRecords) -> None:
    before = _digests(system)
    unmoved: list[str] = []
    checked = 0
    for name, value in _published(system):
        for model, field, where in _text_fields(value, name):
            original = getattr(model, field)
            object.__setattr__(model, field, original + " (tampered)")
            try:
                after = _digests(system)
            finally:
                object.__setattr__(model, field, original)
            checked += 1
            if after == before:
                unmoved.append(where)
    assert _digests(system) == before
    assert checked > 500
    assert unmoved == []


def test_the_profile_is_the_memory_member_s(system: SystemRecords) -> None:
    assert system.memory_comparison is not None
    axis = next(iter(system.memory_comparison.axes.values()))
    original = axis.note
    before = _digests(system)
    object.__setattr__(axis, "note", f"{original} (tampered)")
    try:
        after = _digests(system)
    finally:
        object.__setattr__(axis, "note", original)
    assert [member for member in before if before[member] != after[member]] == [Member.MEMORY]
