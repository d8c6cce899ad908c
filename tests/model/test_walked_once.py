"""A declared object is walked once per system: the rules and the linker read the same
``Contents`` (``SystemRecords.contents``), equal to a walk of its own, for every object
of the shipped systems, and an object is never given another's."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.check.rules import _owners
from generator.model import walk
from generator.model.prose import Paragraph
from generator.model.system import SystemRecords
from generator.pipeline import check_records

ROOT = Path(__file__).resolve().parents[2]


def test_each_declared_object_of_the_shipped_systems_is_walked_once_and_as_a_walk_of_its_own() -> None:
    systems = [system.records for system in check_records(ROOT / "records")]
    assert systems
    for records in systems:
        for owner, _ in _owners(records):
            found = records.contents(owner)
            assert records.contents(owner) is found  # the check walked it: not again
            assert found == walk.collect(owner)


def test_an_object_is_walked_when_first_asked_for_and_never_given_what_another_had(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks: list[object] = []
    collect = walk.collect

    def counted(obj: object) -> walk.Contents:
        walks.append(obj)
        return collect(obj)

    monkeypatch.setattr("generator.model.system.collect", counted)
    records = SystemRecords(slug="demo")
    first = Paragraph(p="OBJ-1 reads the store.")
    assert [text.text for text in records.contents(first).texts] == ["OBJ-1 reads the store."]
    assert records.contents(first) is records.contents(first) and walks == [first]
    # An object at the address another had is walked anew (the one held is not it).
    records._walked[id(first)] = (Paragraph(p="another"), walk.collect(Paragraph(p="another")))
    assert [text.text for text in records.contents(first).texts] == ["OBJ-1 reads the store."]
    assert walks == [first, first]
